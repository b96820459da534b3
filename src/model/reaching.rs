//! Reaching definitions in structured code: which of a local's definitions a use can see.
//!
//! A definition that runs on every path to the use, after the others, hides them: `off = off *
//! L` inside `if (row < total)` is the value an access later in that block reads, and the
//! earlier `off = ...` only feeds it. Definitions after the use reach it again through the back
//! edge of a loop that holds both, unless the loop itself redefines the local first. Code here
//! has no `goto`; a `switch` body is not straight-line code (its cases are jumped into), so a
//! definition there hides nothing.

use crate::syntax::{operator, NodeExt, Within};
use tree_sitter::Node;

/// Of `definitions` (the values assigned to one local: initialisers, right-hand sides, or the
/// target itself for `+=` and `++`), those that may be the value read at `at`. `scope` holds them
/// all (their function).
pub fn reaching<'t>(
    definitions: &[Node<'t>],
    at: Node<'t>,
    scope: Node<'t>,
    source: &str,
) -> Vec<Node<'t>> {
    let within = Within::new(scope);
    let use_start = at.start_byte();
    let mut before: Vec<(Node<'t>, usize)> = Vec::new();
    let mut after: Vec<Node<'t>> = Vec::new();
    for value in definitions {
        let Some(statement) = completion(*value, within) else {
            continue;
        };
        // a local declared in a block that does not hold the use is another variable of the
        // same name (`{ int n = ...; } for (...) { int n = ...; }`)
        if declared_out_of_sight(statement, at, within)
            || assigns_another_local(statement, at, within, source)
        {
            continue;
        }
        if statement.end_byte() <= use_start {
            before.push((*value, statement.end_byte()));
        } else if !contains(statement, at) {
            after.push(*value);
        }
        // a definition whose own text holds the use (`x = x * 2` read on its right) is not yet
        // in effect there
    }
    before.sort_by_key(|(_, end)| *end);
    let hiding = before.iter().rposition(|(value, _)| {
        !updates_itself_within(*value, within, source) && dominates(*value, at, within)
    });
    let mut reaching: Vec<Node<'t>> = match hiding {
        Some(at_index) => before[at_index..].iter().map(|(v, _)| *v).collect(),
        None => before.iter().map(|(v, _)| *v).collect(),
    };
    let mut hider = hiding.map(|i| before[i].0);
    // a statement before the use that assigns the local on each of its paths (`if (c) { x = a; }
    // else { x = b; x -= 1; }`) hides what came before it, as one assignment does
    if reaching.len() > 1 {
        let plain: Vec<Node<'t>> = reaching
            .iter()
            .copied()
            .filter(|v| !updates_itself_within(*v, within, source))
            .collect();
        if let Some(statement) = assigned_on_every_path_before(&plain, at, within) {
            let inside: Vec<Node<'t>> = reaching
                .iter()
                .copied()
                .filter(|v| contains(statement, *v))
                .collect();
            let last = surviving(statement, &inside, &plain, 0);
            reaching.retain(|v| {
                v.start_byte() >= statement.end_byte() || last.iter().any(|l| l.id() == v.id())
            });
            if hider.is_none_or(|h| h.start_byte() < statement.start_byte()) {
                hider = Some(statement);
            }
        }
    }
    for value in after {
        let carried = enclosing_loops(at, within).any(|lp| {
            contains(lp, value) && hider.is_none_or(|h| !contains(loop_body(lp).unwrap_or(lp), h))
        });
        if carried {
            reaching.push(value);
        }
    }
    reaching
}

/// Whether the definition `value` (as `reaching` takes them) belongs to a local that can be
/// the one named at `at`: not one declared in a block that does not hold `at`. `scope` is the
/// function around both.
pub fn in_scope_at<'t>(value: Node<'t>, at: Node<'t>, scope: Node<'t>, source: &str) -> bool {
    let within = Within::new(scope);
    completion(value, within).is_none_or(|statement| {
        !declared_out_of_sight(statement, at, within)
            && !assigns_another_local(statement, at, within, source)
            && !shadowed_at(statement, at, within, source)
    })
}

/// Whether the local that `statement` declares or assigns is hidden at `at` by another of the
/// same name declared in a block nearer `at` (`const int col_id = ...` inside a loop, read
/// there, hides the `col_id` of the function's body).
fn shadowed_at<'t>(statement: Node<'t>, at: Node<'t>, within: Within<'t>, source: &str) -> bool {
    let target = match statement.node_kind() {
        "init_declarator" => statement
            .field("declarator")
            .and_then(crate::syntax::declarator_name),
        _ => crate::syntax::assigned_target(statement).filter(|t| t.node_kind() == "identifier"),
    };
    let Some(target) = target else {
        return false;
    };
    let name = crate::syntax::text(target, source);
    let seen_at = declaring_scope(name, at, within, source);
    let own = declaring_scope(name, statement, within, source);
    match (own, seen_at) {
        (Some(own), Some(seen_at)) => own.id() != seen_at.id(),
        (None, Some(_)) => true,
        _ => false,
    }
}

/// Whether the assignment or step `statement` (`i += 32` of a later `for (int i = ...)`)
/// writes a local declared in a scope that does not hold `at`: another variable of the same
/// name as the one read there.
fn assigns_another_local<'t>(
    statement: Node<'t>,
    at: Node<'t>,
    within: Within<'t>,
    source: &str,
) -> bool {
    let Some(target) =
        crate::syntax::assigned_target(statement).filter(|t| t.node_kind() == "identifier")
    else {
        return false;
    };
    let name = crate::syntax::text(target, source);
    declaring_scope(name, statement, within, source).is_some_and(|scope| !contains(scope, at))
}

/// The innermost block or `for` around `from` that declares `name` before it; None for a
/// parameter or anything declared outside the function.
fn declaring_scope<'t>(
    name: &str,
    from: Node<'t>,
    within: Within<'t>,
    source: &str,
) -> Option<Node<'t>> {
    let declares = |declaration: Node<'t>| {
        declaration.node_kind() == "declaration" && {
            let mut cursor = declaration.walk();
            let found = declaration
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(crate::syntax::declarator_name)
                .any(|n| crate::syntax::text(n, source) == name);
            found
        }
    };
    for scope in within.ancestors(from) {
        match scope.node_kind() {
            "compound_statement" => {
                let declared = crate::syntax::declared_in_block(scope, source);
                if declared
                    .get(name)
                    .is_some_and(|start| *start < from.start_byte())
                {
                    return Some(scope);
                }
            }
            "for_statement" if scope.field("initializer").is_some_and(declares) => {
                return Some(scope)
            }
            "function_definition" | "lambda_expression" => return None,
            _ => {}
        }
    }
    None
}

/// Whether `statement` is the declarator of a local whose scope (the block, or the statement
/// whose initializer or condition declares it) does not hold `at`.
fn declared_out_of_sight<'t>(statement: Node<'t>, at: Node<'t>, within: Within<'t>) -> bool {
    if statement.node_kind() != "init_declarator" {
        return false;
    }
    let Some(declaration) = within.parent(statement) else {
        return false;
    };
    if declaration.node_kind() != "declaration" {
        return false;
    }
    let Some(scope) = within.parent(declaration) else {
        return false;
    };
    match scope.node_kind() {
        "compound_statement" | "for_statement" | "for_range_loop" | "if_statement"
        | "while_statement" | "switch_statement" | "condition_clause" => !contains(scope, at),
        _ => false,
    }
}

/// The last statement before `at`, on every path to it (a statement directly in a block around
/// `at`, outside any `switch`), that assigns one of `plain` (assignments that do not read the
/// local's old value) on each of its own paths.
fn assigned_on_every_path_before<'t>(
    plain: &[Node<'t>],
    at: Node<'t>,
    within: Within<'t>,
) -> Option<Node<'t>> {
    let mut child = at;
    for parent in within.ancestors(at).take(64) {
        if parent.node_kind() == "compound_statement"
            && within
                .parent(parent)
                .is_none_or(|p| p.node_kind() != "switch_statement")
        {
            let mut sibling = child.prev_named_sibling();
            while let Some(statement) = sibling {
                if assigns_on_every_path(statement, plain, 0) {
                    return Some(statement);
                }
                sibling = statement.prev_named_sibling();
            }
        }
        if matches!(
            parent.node_kind(),
            "function_definition" | "lambda_expression"
        ) {
            break;
        }
        child = parent;
    }
    None
}

/// Whether every path through `statement` runs one of the assignments `plain`.
fn assigns_on_every_path(statement: Node, plain: &[Node], depth: usize) -> bool {
    if depth > 32 || !plain.iter().any(|v| contains(statement, *v)) {
        return false;
    }
    match statement.node_kind() {
        "expression_statement" | "declaration" => plain.iter().any(|value| {
            contains(statement, *value) && {
                // directly: not inside a condition or a lambda of the statement
                let mut node = *value;
                let mut direct = true;
                while let Some(parent) = crate::syntax::parent(node) {
                    if parent.id() == statement.id() {
                        break;
                    }
                    if !matches!(
                        parent.node_kind(),
                        "init_declarator"
                            | "assignment_expression"
                            | "comma_expression"
                            | "parenthesized_expression"
                            | "cast_expression"
                    ) {
                        direct = false;
                        break;
                    }
                    node = parent;
                }
                direct
            }
        }),
        "compound_statement" => {
            let mut cursor = statement.walk();
            let found = statement
                .named_children(&mut cursor)
                .any(|child| assigns_on_every_path(child, plain, depth + 1));
            found
        }
        "if_statement" => {
            let (Some(yes), Some(no)) = (
                statement.field("consequence"),
                statement.field("alternative"),
            ) else {
                return false;
            };
            let no = if no.node_kind() == "else_clause" {
                match no.named_child(0) {
                    Some(inner) => inner,
                    None => return false,
                }
            } else {
                no
            };
            assigns_on_every_path(yes, plain, depth + 1)
                && assigns_on_every_path(no, plain, depth + 1)
        }
        _ => false,
    }
}

/// Of `values` (definitions inside `statement`), those that may be the local's value where
/// `statement` ends: in a block, those of the last statement that assigns one of `plain` on
/// every path and of the statements after it; in an `if` that assigns on both branches, those
/// each branch leaves.
fn surviving<'t>(
    statement: Node<'t>,
    values: &[Node<'t>],
    plain: &[Node<'t>],
    depth: usize,
) -> Vec<Node<'t>> {
    let inside = |node: Node<'t>| -> Vec<Node<'t>> {
        values
            .iter()
            .copied()
            .filter(|v| contains(node, *v))
            .collect()
    };
    if depth > 32 {
        return inside(statement);
    }
    match statement.node_kind() {
        "compound_statement" => {
            let mut cursor = statement.walk();
            let children: Vec<Node<'t>> = statement.named_children(&mut cursor).collect();
            match children
                .iter()
                .rposition(|c| assigns_on_every_path(*c, plain, 0))
            {
                Some(last) => {
                    let mut kept = surviving(children[last], values, plain, depth + 1);
                    for later in &children[last + 1..] {
                        kept.extend(inside(*later));
                    }
                    kept
                }
                None => inside(statement),
            }
        }
        "if_statement" if assigns_on_every_path(statement, plain, 0) => {
            let branch = |field: &str| {
                statement.field(field).map(|b| {
                    if b.node_kind() == "else_clause" {
                        b.named_child(0).unwrap_or(b)
                    } else {
                        b
                    }
                })
            };
            match (branch("consequence"), branch("alternative")) {
                (Some(yes), Some(no)) => {
                    let mut kept = surviving(yes, values, plain, depth + 1);
                    kept.extend(surviving(no, values, plain, depth + 1));
                    kept
                }
                _ => inside(statement),
            }
        }
        _ => inside(statement),
    }
}

/// The node whose end is where a definition takes effect: the declarator, the assignment, the
/// `++`.
fn completion<'t>(value: Node<'t>, within: Within<'t>) -> Option<Node<'t>> {
    let mut node = value;
    for _ in 0..8 {
        match node.node_kind() {
            "init_declarator" | "assignment_expression" | "update_expression" => return Some(node),
            _ => node = within.parent(node)?,
        }
    }
    None
}

/// The bytes of the block or `for` whose local named `name` the assignment `statement` writes
/// (the innermost one around it that declares the name before it); None for a parameter, a
/// local of the function's outermost scope or anything declared outside the function.
pub fn scope_of_assigned_local<'t>(
    name: &str,
    statement: Node<'t>,
    function: Node<'t>,
    source: &str,
) -> Option<std::ops::Range<usize>> {
    declaring_scope(name, statement, Within::new(function), source).map(|s| s.byte_range())
}

/// `x += k`, `x++`: the new value is built from the old one, so it hides nothing.
pub fn updates_itself(value: Node, source: &str) -> bool {
    updates_itself_within(value, Within::new(value), source)
}

/// Whether the definition `value` (as `reaching` takes them) runs on every path from the start
/// of `scope` to `at`: nothing can skip it on the way there.
pub fn on_every_path<'t>(value: Node<'t>, at: Node<'t>, scope: Node<'t>) -> bool {
    dominates(value, at, Within::new(scope))
}

fn updates_itself_within<'t>(value: Node<'t>, within: Within<'t>, source: &str) -> bool {
    match completion(value, within) {
        Some(node) if node.node_kind() == "assignment_expression" => operator(node, source) != "=",
        Some(node) => node.node_kind() == "update_expression",
        None => true,
    }
}

fn contains(outer: Node, inner: Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// Whether the definition runs on every path that reaches `at`: its statement sits directly in
/// a block (or a `for` initializer) that also holds `at`, and nothing between it and that
/// statement makes it conditional (`c && (x = 1)`, `c ? x = 1 : 0`).
fn dominates<'t>(value: Node<'t>, at: Node<'t>, within: Within<'t>) -> bool {
    let mut node = value;
    for _ in 0..64 {
        let Some(parent) = within.parent(node) else {
            return false;
        };
        match parent.node_kind() {
            "compound_statement" => {
                let in_switch = within
                    .parent(parent)
                    .is_some_and(|p| p.node_kind() == "switch_statement");
                return !in_switch && contains(parent, at);
            }
            "for_statement" | "for_range_loop" => {
                let is_initializer = parent
                    .field("initializer")
                    .is_some_and(|i| i.id() == node.id());
                return is_initializer && contains(parent, at);
            }
            "init_declarator"
            | "assignment_expression"
            | "update_expression"
            | "declaration"
            | "expression_statement"
            | "comma_expression"
            | "parenthesized_expression"
            | "cast_expression" => node = parent,
            _ => return false,
        }
    }
    false
}

fn enclosing_loops<'t>(at: Node<'t>, within: Within<'t>) -> impl Iterator<Item = Node<'t>> {
    within.ancestors(at).filter(|n| crate::syntax::is_loop(*n))
}

fn loop_body(lp: Node) -> Option<Node> {
    lp.field("body")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{self, text};

    /// The definitions of `name` in `code`'s first function and the texts of those that reach
    /// the last use of `name` in an expression `use(name)`.
    fn reaching_texts(code: &str, name: &str) -> Vec<String> {
        with_definitions(code, name, |definitions, at, root| {
            reaching(definitions, at, root, code)
        })
    }

    /// The texts of the definitions of `name` that `in_scope_at` keeps at its last use.
    fn in_scope_texts(code: &str, name: &str) -> Vec<String> {
        with_definitions(code, name, |definitions, at, root| {
            definitions
                .iter()
                .copied()
                .filter(|d| in_scope_at(*d, at, root, code))
                .collect()
        })
    }

    fn with_definitions(
        code: &str,
        name: &str,
        pick: impl for<'t> Fn(&[Node<'t>], Node<'t>, Node<'t>) -> Vec<Node<'t>>,
    ) -> Vec<String> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_cuda::LANGUAGE.into())
            .expect("grammar loads");
        let tree = parser.parse(code, None).expect("parses");
        let mut definitions = Vec::new();
        let mut uses = Vec::new();
        syntax::walk_iterative(tree.root_node(), |node| {
            match node.node_kind() {
                "init_declarator" => {
                    let declared = node
                        .field("declarator")
                        .is_some_and(|d| text(d, code) == name);
                    if let (true, Some(value)) = (declared, node.field("value")) {
                        definitions.push(value);
                    }
                }
                "assignment_expression" => {
                    if let (Some(l), Some(r)) = (node.field("left"), node.field("right")) {
                        if text(l, code) == name {
                            definitions.push(if operator(node, code) == "=" { r } else { l });
                        }
                    }
                }
                "update_expression" => {
                    if let Some(a) = node.field("argument") {
                        if text(a, code) == name {
                            definitions.push(a);
                        }
                    }
                }
                "call_expression" => {
                    let is_use = node
                        .field("function")
                        .is_some_and(|f| text(f, code) == "use");
                    if let (true, Some(arguments)) = (is_use, node.field("arguments")) {
                        uses.extend(arguments.named_child(0));
                    }
                }
                _ => {}
            }
            true
        });
        let at = *uses.last().expect("a use");
        pick(&definitions, at, tree.root_node())
            .into_iter()
            .map(|n| text(n, code).to_string())
            .collect()
    }

    #[test]
    fn steps_of_a_sibling_loops_counter_are_another_variable() {
        // the second loop's `0`, `++i` and `i += 2` write its own `i`, not the first loop's
        let code = "void f(int n) { for (int i = n; i < 64; i += 32) { use(i); } for (int i = 0; i < n; ++i) { i += 2; } }";
        assert_eq!(reaching_texts(code, "i"), ["n", "i"]);
        // a step of the same local, written after the loop, still reaches through the back edge
        let same = "void f(int n) { int i = n; while (i < 64) { use(i); i += 32; } }";
        assert_eq!(reaching_texts(same, "i"), ["n", "i"]);
    }

    #[test]
    fn a_later_loops_initializer_hides_an_earlier_loops_values() {
        let code = "void f(int t, int b, int n) { int i = 0; for (i = t; i < n; i += b) { } for (i = b / 2; i > 0; i = i / 2) { use(i); } }";
        assert_eq!(reaching_texts(code, "i"), ["b / 2", "i / 2"]);
    }

    #[test]
    fn a_local_declared_nearer_the_use_shadows_the_outer_one() {
        let code = "void f(int a) { const int col = a + 1; for (int k = 0; k < 4; ++k) { const int col = a + k; use(col); } }";
        assert_eq!(in_scope_texts(code, "col"), ["a + k"]);
        // read before the inner declaration, or outside its block: the outer one
        let before = "void f(int a) { int col = a + 1; for (int k = 0; k < 4; ++k) { use(col); int col = a + k; } }";
        assert_eq!(in_scope_texts(before, "col"), ["a + 1"]);
        // an assignment to the inner local belongs to it
        let assigned = "void f(int a) { int col = a; if (a) { int col = 2; col = a * 3; use(col); } col = 5; }";
        assert_eq!(in_scope_texts(assigned, "col"), ["2", "a * 3"]);
    }

    #[test]
    fn a_later_definition_in_the_same_block_hides_the_earlier() {
        let code = "void f(int a) { int x = a; x = 2 * a; use(x); }";
        assert_eq!(reaching_texts(code, "x"), ["2 * a"]);
    }

    #[test]
    fn a_definition_inside_a_guarded_block_hides_the_one_before_the_guard() {
        let code = "void f(int a, int n) { int off = a; if (a < n) { off = off * 4; use(off); } }";
        assert_eq!(reaching_texts(code, "off"), ["off * 4"]);
    }

    #[test]
    fn a_definition_in_a_branch_joins_the_one_before() {
        let code = "void f(int a) { int x = a; if (a) { x = 3; } use(x); }";
        assert_eq!(reaching_texts(code, "x"), ["a", "3"]);
    }

    #[test]
    fn definitions_on_both_branches_hide_the_one_before() {
        let code = "void f(int a, int b) { int x = a; if (a) { x = 3; x = b; } else { x = 4; x -= 1; } use(x); }";
        assert_eq!(reaching_texts(code, "x"), ["b", "4", "x"]);
        // one branch only, or a branch that may skip its assignment: the earlier value stays
        let one =
            "void f(int a) { int x = a; if (a) { x = 3; } else { if (a > 2) x = 4; } use(x); }";
        assert_eq!(reaching_texts(one, "x"), ["a", "3", "4"]);
        // around a loop, the later assignments are hidden by the branches as well
        let looped =
            "void f(int a) { int x = a; while (a) { if (a) x = 1; else x = 2; use(x); x = 7; } }";
        assert_eq!(reaching_texts(looped, "x"), ["1", "2"]);
    }

    #[test]
    fn a_compound_update_keeps_what_it_updates() {
        let code = "void f(int a) { int x = a; x += 4; use(x); }";
        assert_eq!(reaching_texts(code, "x"), ["a", "x"]);
    }

    #[test]
    fn a_definition_later_in_a_loop_comes_back_through_the_back_edge() {
        let code = "void f(int a) { int x = a; while (a) { use(x); x = 7; } }";
        assert_eq!(reaching_texts(code, "x"), ["a", "7"]);
        let redefined_first = "void f(int a) { while (a) { int x = 1; use(x); x = 7; } }";
        assert_eq!(reaching_texts(redefined_first, "x"), ["1"]);
    }

    #[test]
    fn a_local_of_the_same_name_in_a_sibling_block_is_another_variable() {
        // the second `n` is declared in the inner loop's body, which does not hold the use,
        // though the outer loop carries definitions around to it
        let code = "void f(int a) { for (int k = 0; k < a; ++k) { { int n = a + 1; use(n); } \
                    for (int i = 0; i < a; ++i) { int n = i; } } }";
        assert_eq!(reaching_texts(code, "n"), ["a + 1"]);
        let closed_before = "void f(int a) { int n = a; { int n = 5; } use(n); }";
        assert_eq!(reaching_texts(closed_before, "n"), ["a"]);
    }

    #[test]
    fn a_definition_after_the_use_outside_any_loop_does_not_reach_it() {
        let code = "void f(int a) { int x = a; use(x); x = 9; }";
        assert_eq!(reaching_texts(code, "x"), ["a"]);
    }

    #[test]
    fn a_for_initializer_dominates_its_body_and_the_update_comes_back() {
        let code = "void f(int a) { for (int i = a; i < 8; i += 2) { use(i); } }";
        assert_eq!(reaching_texts(code, "i"), ["a", "i"]);
    }

    #[test]
    fn a_definition_in_a_switch_case_hides_nothing() {
        let code = "void f(int a) { int x = a; switch (a) { case 1: x = 2; use(x); } }";
        assert_eq!(reaching_texts(code, "x"), ["a", "2"]);
    }

    #[test]
    fn a_conditional_assignment_hides_nothing() {
        let code = "void f(int a) { int x = a; a && (x = 5); use(x); }";
        assert_eq!(reaching_texts(code, "x"), ["a", "5"]);
    }
}
