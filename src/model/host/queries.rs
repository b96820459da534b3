//! Questions the lints ask of a host function's events.

use super::*;

impl<'t> HostFunction<'t> {
    /// Events of `variable` that may run before `at`: earlier in the source, or anywhere in a
    /// loop around `at` (the previous iteration).
    pub fn events_before<'a>(
        &'a self,
        variable: usize,
        at: &'a Event<'t>,
    ) -> impl Iterator<Item = &'a Event<'t>> + 'a {
        self.events_of(variable).filter(move |e| {
            !std::ptr::eq(*e, at)
                && (e.node.end_byte() <= at.node.start_byte()
                    || at.enclosing_loop.is_some_and(|l| {
                        within(e.node, l) && e.node.start_byte() != at.node.start_byte()
                    }))
        })
    }

    /// The allocation that gives `variable` its value at `at`, when it is the only definition that
    /// can reach there (a local, not a parameter).
    pub fn reaching_allocation(&self, variable: usize, at: &Event<'t>) -> Option<&Allocation<'t>> {
        if self.variables.get(variable)?.is_parameter {
            return None;
        }
        let mut definitions = self
            .events_before(variable, at)
            .filter(|e| e.kind.defines());
        let first = definitions.next()?;
        if definitions.next().is_some() {
            return None;
        }
        match first.kind {
            EventKind::Allocated { allocation, .. }
                if first.node.end_byte() <= at.node.start_byte() =>
            {
                self.allocations.get(allocation)
            }
            _ => None,
        }
    }

    /// The event a launch or transfer recorded for `variable` at `node`.
    pub fn event_at(&self, variable: usize, node: Node<'t>) -> Option<&Event<'t>> {
        self.events
            .iter()
            .find(|e| e.variable == variable && e.node == node)
    }

    /// Where a pointer argument lives, when the model knows and only one side can hold it.
    pub fn side_of(&self, pointer: &PointerArg, at: Node<'t>) -> Option<Side> {
        let variable = self.variables.get(pointer.variable)?;
        if pointer.host_data || (variable.is_vector && !variable.is_pointer) {
            return Some(Side::Host);
        }
        let event = self
            .events
            .iter()
            .find(|e| e.variable == pointer.variable && e.node == at)?;
        match self.reaching_allocation(pointer.variable, event)?.memory {
            Memory::Device => Some(Side::Device),
            Memory::Host => Some(Side::Host),
            // pinned host memory is mapped into the device's address space under unified
            // addressing: a copy that names it as device memory still succeeds
            Memory::Managed | Memory::Mapped | Memory::Pinned => None,
        }
    }
}

/// Whether a statement ends every path through it: `return`, `throw`, `exit(1)`, `abort()`.
fn ends_path(statement: Node, source: &str) -> bool {
    match statement.node_kind() {
        "return_statement" | "throw_statement" => true,
        "expression_statement" => {
            let Some(expression) = statement.named_child(0) else {
                return false;
            };
            let expression = strip(expression, source);
            let expression = if expression.node_kind() == "throw_expression" {
                return true;
            } else {
                expression
            };
            expression.node_kind() == "call_expression"
                && matches!(
                    call_name(expression, source),
                    "exit" | "abort" | "_exit" | "quick_exit" | "std::exit" | "std::abort"
                )
        }
        "compound_statement" => named_children(statement).any(|s| ends_path(s, source)),
        _ => false,
    }
}

impl<'t> HostFunction<'t> {
    /// Whether some event that gives `variable` a value (or may: an escape, a taken address)
    /// runs on every path from the function's start to `at`, or every path that misses one
    /// leaves the function first (`return`, `exit`).
    pub fn defined_on_every_path(&self, variable: usize, at: &Event<'t>, source: &str) -> bool {
        let definitions: Vec<&Event<'t>> = self
            .events_of(variable)
            .filter(|e| {
                (e.kind.defines() || matches!(e.kind, EventKind::Escaped))
                    && e.node.end_byte() <= at.node.start_byte()
            })
            .collect();
        if definitions.iter().any(|d| d.dominates(at)) {
            return true;
        }
        // climb from the use: an earlier statement of an enclosing block that defines on all
        // of its paths, or ends them, covers the use
        let mut child = at.node;
        for _ in 0..MAX_DEPTH {
            let Some(parent) = child.up() else {
                return false;
            };
            if parent.node_kind() == "compound_statement" {
                let covered = named_children(parent)
                    .take_while(|s| s.end_byte() <= child.start_byte())
                    .any(|s| covers(s, &definitions, source));
                if covered {
                    return true;
                }
            }
            if matches!(
                parent.node_kind(),
                "function_definition" | "lambda_expression" | "translation_unit"
            ) {
                return false;
            }
            child = parent;
        }
        false
    }

    /// Whether `at` may run on a path where none of the definitions of `variable` before it
    /// ran, judged by the tests of the `if` statements around them and around `at`: a use under
    /// `if (type == 2)` after `if (type == 2) cudaHostAlloc(&p, ...)` runs only where `p` was
    /// allocated; a use under `else` of it, after allocations under `type == 0` and `type == 1`,
    /// runs for `type == 3` too. Tests the model cannot read that share a name with a
    /// definition's tests are taken as correlated: no.
    pub fn may_run_without_definition(
        &self,
        variable: usize,
        at: &Event<'t>,
        source: &str,
    ) -> bool {
        let paths: Vec<Vec<Test>> = self
            .events_of(variable)
            .filter(|e| e.kind.defines() && e.node.end_byte() <= at.node.start_byte())
            .map(|d| enclosing_tests(d.node, source))
            .collect();
        let mut at_tests = enclosing_tests(at.node, source);
        at_tests.extend(early_exits_before(at.node, source));
        let every = || paths.iter().flatten().chain(&at_tests);
        let readable = every().all(|t| t.equality.is_some());
        let subjects: HashSet<&str> = every()
            .filter_map(|t| t.equality.as_ref().map(|(s, _)| s.as_str()))
            .collect();
        if readable && subjects.len() <= 1 {
            // one tested value: try each constant it is compared with, and one it is not
            let values: Vec<Option<i128>> = every()
                .filter_map(|t| t.equality.as_ref().map(|(_, c)| Some(*c)))
                .chain(std::iter::once(None))
                .collect();
            return values.iter().any(|value| {
                let holds = |tests: &[Test]| tests.iter().all(|t| t.holds(*value));
                holds(&at_tests) && !paths.iter().any(|p| holds(p))
            });
        }
        // tests the model cannot weigh: correlated when they name the same things
        let names = |tests: &[Test]| -> HashSet<String> {
            tests.iter().flat_map(|t| t.names.iter().cloned()).collect()
        };
        let at_names = names(&at_tests);
        !paths.iter().any(|p| !names(p).is_disjoint(&at_names))
    }
}

/// One `if` test on the way to a node, with the branch the node sits in.
struct Test {
    /// `x == 3`, `x != 3`, `x`, `!x` read as a comparison of a subject (as written, spaces
    /// removed) with a constant (`x` alone compares with 0).
    equality: Option<(String, i128)>,
    /// Whether the node's branch needs the subject equal to the constant.
    equal: bool,
    /// The identifiers and field names the test mentions.
    names: Vec<String>,
}

impl Test {
    /// Whether the test lets the branch run when the subject is `value` (None: a value no test
    /// compares with).
    fn holds(&self, value: Option<i128>) -> bool {
        match &self.equality {
            Some((_, constant)) => (value == Some(*constant)) == self.equal,
            None => true,
        }
    }
}

/// The tests of the `if` statements enclosing `node`, innermost first.
fn enclosing_tests(node: Node, source: &str) -> Vec<Test> {
    let mut tests = Vec::new();
    let mut child = node;
    for _ in 0..MAX_DEPTH {
        let Some(parent) = child.up() else {
            break;
        };
        if parent.node_kind() == "if_statement" && parent.field("condition") != Some(child) {
            if let Some(condition) = parent.field("condition") {
                let taken = parent.field("consequence") == Some(child);
                tests.push(read_test(condition, taken, source));
            }
        }
        if parent.node_kind() == "case_statement" && parent.field("value") != Some(child) {
            tests.extend(case_test(parent, source));
        }
        if parent.node_kind() == "function_definition" {
            break;
        }
        child = parent;
    }
    tests
}

/// The tests of `if (c) return;`-shaped statements before `node` in the blocks around it: `node`
/// runs only where they failed.
fn early_exits_before(node: Node, source: &str) -> Vec<Test> {
    let mut tests = Vec::new();
    let mut child = node;
    for _ in 0..MAX_DEPTH {
        let Some(parent) = child.up() else {
            break;
        };
        if parent.node_kind() == "compound_statement" {
            for statement in
                named_children(parent).take_while(|s| s.end_byte() <= child.start_byte())
            {
                let exits = statement.node_kind() == "if_statement"
                    && statement.field("alternative").is_none()
                    && statement
                        .field("consequence")
                        .is_some_and(|c| ends_path(c, source));
                if let (true, Some(condition)) = (exits, statement.field("condition")) {
                    tests.push(read_test(condition, false, source));
                }
            }
        }
        if parent.node_kind() == "function_definition" {
            break;
        }
        child = parent;
    }
    tests
}

/// `case GPUMEM:` of a `switch (mem)`: the arm runs where `mem == GPUMEM`. Only the case's own
/// value is read (a case reached by falling through from the one above gives no equality), and
/// `default:` names the subject alone.
fn case_test(case: Node, source: &str) -> Option<Test> {
    let switch = case
        .up()?
        .up()
        .filter(|s| s.node_kind() == "switch_statement")?;
    let subject = switch.field("condition")?;
    let mut test = read_test(subject, true, source);
    test.equality = None;
    let Some(value) = case.field("value") else {
        return Some(test);
    };
    test.names.push(text(value, source).to_string());
    let falls_into = case.prev_named_sibling().is_some_and(|above| {
        above.node_kind() == "case_statement"
            && !case_statements(above).last().is_some_and(|last| {
                matches!(last.node_kind(), "break_statement" | "continue_statement")
                    || ends_path(*last, source)
            })
    });
    if let (false, Some(constant)) = (falls_into, test_constant(value, source)) {
        test.equality = Some((compact(tested_value(subject, source), source), constant));
        test.equal = true;
    }
    Some(test)
}

/// The statements of a `case` arm, without its value and comments.
fn case_statements(arm: Node) -> Vec<Node> {
    named_children(arm)
        .filter(|s| s.node_kind() != "comment" && Some(*s) != arm.field("value"))
        .collect()
}

/// What a test's condition tests: `x == 3` of `if (x == 3)`, `mem` of `switch (mem)`.
fn tested_value<'t>(condition: Node<'t>, source: &str) -> Node<'t> {
    let node = strip(condition, source);
    match node.node_kind() {
        "condition_clause" => node
            .field("value")
            .map_or(node, |value| strip(value, source)),
        _ => node,
    }
}

/// An expression's text without blanks, as tests name their subjects.
fn compact(node: Node, source: &str) -> String {
    text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The constant a test compares with: a number, or a named constant spelled as enumerators and
/// macros are (`GPUMEM`, `MODE_UVM`), which stands for a value of its own that no other name and
/// no number shares (enumerators of one mode differ).
fn test_constant(node: Node, source: &str) -> Option<i128> {
    match node.node_kind() {
        "number_literal" => size::parse_number(text(node, source)),
        "identifier" if crate::model::launch::names_a_constant(text(node, source)) => {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            text(node, source).hash(&mut hasher);
            // below every number a test is written with
            Some(i128::MIN + i128::from(hasher.finish()))
        }
        _ => None,
    }
}

fn read_test(condition: Node, taken: bool, source: &str) -> Test {
    let mut names = Vec::new();
    walk_iterative(condition, |n| {
        if matches!(n.node_kind(), "identifier" | "field_identifier") {
            names.push(text(n, source).to_string());
        }
        true
    });
    let node = tested_value(condition, source);
    let mut equal = taken;
    let mut equality = None;
    match node.node_kind() {
        "binary_expression" if matches!(operator(node, source), "==" | "!=") => {
            if let (Some(left), Some(right)) = (node.field("left"), node.field("right")) {
                let (left, right) = (strip(left, source), strip(right, source));
                let pair = match (test_constant(left, source), test_constant(right, source)) {
                    (None, Some(c)) => Some((compact(left, source), c)),
                    (Some(c), None) => Some((compact(right, source), c)),
                    _ => None,
                };
                if let Some(pair) = pair {
                    equality = Some(pair);
                    if operator(node, source) == "!=" {
                        equal = !equal;
                    }
                }
            }
        }
        "unary_expression" if operator(node, source) == "!" => {
            if let Some(argument) = node.field("argument").map(|a| strip(a, source)) {
                if matches!(argument.node_kind(), "identifier" | "field_expression") {
                    equality = Some((compact(argument, source), 0));
                }
            }
        }
        "identifier" | "field_expression" => {
            equality = Some((compact(node, source), 0));
            equal = !equal;
        }
        _ => {}
    }
    Test {
        equality,
        equal,
        names,
    }
}

/// Whether statement `statement` gives the variable a value on every path through it, or ends
/// the paths that do not.
fn covers(statement: Node, definitions: &[&Event], source: &str) -> bool {
    let contains = |d: &&&Event| {
        statement.start_byte() <= d.node.start_byte() && d.node.end_byte() <= statement.end_byte()
    };
    match statement.node_kind() {
        "compound_statement" => named_children(statement)
            .any(|s| covers(s, definitions, source) || ends_path(s, source)),
        "if_statement" => {
            let branch = |field: &str| {
                statement.field(field).is_some_and(|b| {
                    let b = if b.node_kind() == "else_clause" {
                        match b.named_child(0) {
                            Some(inner) => inner,
                            None => return false,
                        }
                    } else {
                        b
                    };
                    covers(b, definitions, source) || ends_path(b, source)
                })
            };
            // a condition runs on every path (`if (on_device ? cudaMalloc(&p, n) : ...)`)
            let in_condition = statement.field("condition").is_some_and(|condition| {
                definitions.iter().any(|d| {
                    condition.start_byte() <= d.node.start_byte()
                        && d.node.end_byte() <= condition.end_byte()
                })
            });
            // `if (run == 0)` in a loop from `run = 0`: taken on the first trip, and what it
            // allocates stays for the later ones
            in_condition
                || (branch("consequence")
                    && (branch("alternative") || loops::taken_on_first_trip(statement, source)))
        }
        // `try { p = new T[n]; } catch (...) { exit(1); }`: past the statement, the body ran
        // through, since every handler leaves
        "try_statement" => {
            statement
                .field("body")
                .is_some_and(|body| covers(body, definitions, source))
                && named_children(statement)
                    .filter(|c| c.node_kind() == "catch_clause")
                    .all(|handler| {
                        handler.field("body").is_some_and(|body| {
                            covers(body, definitions, source) || ends_path(body, source)
                        })
                    })
        }
        // a loop that runs at least once covers what its first trip does before it may leave
        "for_statement" if loops::runs_at_least_once(statement, source) => {
            let Some(body) = statement.field("body") else {
                return false;
            };
            let statements: Vec<Node> = if body.node_kind() == "compound_statement" {
                named_children(body).collect()
            } else {
                vec![body]
            };
            for statement in statements {
                if loops::leaves_loop_trip(statement) {
                    return false;
                }
                if covers(statement, definitions, source) || ends_path(statement, source) {
                    return true;
                }
            }
            false
        }
        "do_statement" => statement
            .field("body")
            .is_some_and(|b| covers(b, definitions, source)),
        // `switch (mem) { case GPUMEM: cudaMalloc(&p, n); break; case UVM: cudaMallocManaged(&p,
        // n); break; }`: every arm with statements defines before it leaves. With no `default`,
        // the switch is taken as one over the modes the program handles when it names two or
        // more of them, all defining
        "switch_statement" => {
            let Some(body) = statement.field("body") else {
                return false;
            };
            let arms: Vec<Node> = named_children(body)
                .filter(|c| c.node_kind() == "case_statement")
                .collect();
            let arm_covers = |arm: Node| {
                for statement in case_statements(arm) {
                    if matches!(
                        statement.node_kind(),
                        "break_statement" | "continue_statement"
                    ) {
                        return false;
                    }
                    if covers(statement, definitions, source) || ends_path(statement, source) {
                        return true;
                    }
                }
                false
            };
            let filled: Vec<Node> = arms
                .iter()
                .copied()
                .filter(|arm| !case_statements(*arm).is_empty())
                .collect();
            let has_default = arms.iter().any(|arm| arm.field("value").is_none());
            !filled.is_empty()
                && filled.iter().all(|arm| arm_covers(*arm))
                && (has_default || filled.len() >= 2)
        }
        "expression_statement" | "declaration" => definitions.iter().any(|d| contains(&d)),
        "labeled_statement" => named_children(statement)
            .last()
            .is_some_and(|s| covers(s, definitions, source)),
        _ => false,
    }
}
