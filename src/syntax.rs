//! Small helpers over tree-sitter nodes shared by the model builders.

use std::sync::OnceLock;
use tree_sitter::Node;

/// Field ids of the grammar by name, grouped by the name's length. `Node::child_by_field_name`
/// resolves the name with a linear string search on every call, which showed up as a sixth of
/// the linting time; hashing the name on every call still cost a tenth of `NodeExt::field`.
fn field_id(name: &str) -> Option<std::num::NonZeroU16> {
    type Names = Vec<Vec<(&'static str, std::num::NonZeroU16)>>;
    static IDS: OnceLock<Names> = OnceLock::new();
    let by_length = IDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        let mut by_length: Names = Vec::new();
        for id in 1..=language.field_count() as u16 {
            let (Some(name), Some(id)) = (
                language.field_name_for_id(id),
                std::num::NonZeroU16::new(id),
            ) else {
                continue;
            };
            if by_length.len() <= name.len() {
                by_length.resize(name.len() + 1, Vec::new());
            }
            if let Some(names) = by_length.get_mut(name.len()) {
                names.push((name, id));
            }
        }
        by_length
    });
    let first = *name.as_bytes().first()?;
    by_length
        .get(name.len())?
        .iter()
        .find(|(known, _)| known.as_bytes().first() == Some(&first) && *known == name)
        .map(|(_, id)| *id)
}

/// Node kind names by kind id. `Node::kind` measures and validates the C string on every call.
fn kind_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        (0..language.node_kind_count() as u16)
            .map(|id| language.node_kind_for_id(id).unwrap_or(""))
            .collect()
    })
}

/// Fast field, kind and parent access on tree-sitter nodes.
pub trait NodeExt<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
    fn node_kind(&self) -> &'static str;
    /// The parent (`Node::parent`), from the tree's table when one is installed: `Node::parent`
    /// descends from the root of the tree on every call.
    fn up(&self) -> Option<Node<'t>>;
}

impl<'t> NodeExt<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        let id = field_id(name)?.get();
        // the table holds the field of each child as a cursor reads it; tree-sitter also finds
        // fields of hidden children (`(x = f())` answers `left`) and reads an ERROR node's its
        // own way, so a field the table does not hold, or any field of broken code, is asked of
        // tree-sitter
        let found = TreeTable::read(*self, |table, index| {
            if table.broken.get(index).copied().unwrap_or(true) {
                return None;
            }
            table.field(index, id)
        });
        match found {
            Some(Some(child)) => Some(child),
            _ => self.child_by_field_id(id),
        }
    }

    fn node_kind(&self) -> &'static str {
        let kind = recent_nodes::kind(*self).unwrap_or_else(|| self.kind_id());
        match kind_names().get(kind as usize) {
            Some(name) => name,
            None => self.kind(),
        }
    }

    fn up(&self) -> Option<Node<'t>> {
        parent(*self)
    }
}

thread_local! {
    static PARSER: std::cell::RefCell<Option<tree_sitter::Parser>> =
        const { std::cell::RefCell::new(None) };
}

/// Parses CUDA with a parser kept per thread (creating one costs more than parsing a small file).
pub fn parse(text: &str) -> Option<tree_sitter::Tree> {
    parse_with(text, None)
}

/// `parse`, reusing the unchanged parts of `old_tree`.
pub fn parse_with(text: &str, old_tree: Option<&tree_sitter::Tree>) -> Option<tree_sitter::Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&tree_sitter_cuda::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(text, old_tree)
    })
}

/// A function-like macro's definition (`preproc_function_def`): its name, its parameters' texts
/// (`...` left out) and whether it takes `...`, and its body as written.
pub fn function_macro_parts<'s>(
    node: Node,
    source: &'s str,
) -> Option<(&'s str, Vec<&'s str>, bool, &'s str)> {
    let (name, parameters, body) = (
        node.field("name")?,
        node.field("parameters")?,
        node.field("value")?,
    );
    let names = named_children(parameters)
        .filter(|p| p.node_kind() == "identifier")
        .map(|p| text(p, source))
        .collect();
    let variadic = text(parameters, source).contains("...");
    Some((text(name, source), names, variadic, text(body, source)))
}

/// Deepest nesting any recursive walk follows; deeper code is skipped and counted, never a crash.
pub const MAX_DEPTH: usize = 400;

pub fn text<'a>(node: Node, source: &'a str) -> &'a str {
    // the start is held in the node itself; the end is read from the node's subtree
    let end = recent_nodes::end_byte(node).unwrap_or_else(|| node.end_byte());
    source.get(node.start_byte()..end).unwrap_or("")
}

/// The named children, from the tree's table when one is installed (see `TreeTable`), else
/// through a cursor: `Node::named_child(i)` scans from the first child, so indexing in a loop is
/// quadratic.
pub fn named_children<'t>(node: Node<'t>) -> NamedChildren<'t> {
    NamedChildren(Children::of(node))
}

/// How many arguments a call passes, comments aside.
pub fn argument_count(call: Node) -> usize {
    call.field("arguments")
        .map(|a| {
            named_children(a)
                .filter(|c| c.node_kind() != "comment")
                .count()
        })
        .unwrap_or(0)
}

/// The one statement of a block (`{ // why\n x = 0; }`), comments aside; None when it holds
/// none or several.
pub fn sole_statement(block: Node<'_>) -> Option<Node<'_>> {
    let mut statements = named_children(block).filter(|c| c.node_kind() != "comment");
    let first = statements.next()?;
    statements.next().is_none().then_some(first)
}

pub struct NamedChildren<'t>(Children<'t>);

impl<'t> Iterator for NamedChildren<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        if let Children::Table {
            table, next, end, ..
        } = &mut self.0
        {
            // whether each node is named is held in the table (`Node::is_named` reads the
            // node's subtree)
            while *next < *end {
                let index = *next;
                *next = table.end_of(index);
                if table.named.get(index).copied().unwrap_or(false) {
                    return table.handed_out(index);
                }
            }
            return None;
        }
        loop {
            let node = self.0.next()?;
            if node.is_named() {
                return Some(node);
            }
        }
    }
}

/// Every child, named or not.
pub fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    Children::of(node)
}

enum Children<'t> {
    /// Positions in a table: the next child and the end of the parent's subtree.
    Table {
        table: std::rc::Rc<TreeTable>,
        next: usize,
        end: usize,
        tree: std::marker::PhantomData<Node<'t>>,
    },
    Cursor {
        cursor: tree_sitter::TreeCursor<'t>,
        started: bool,
    },
}

impl<'t> Children<'t> {
    fn of(node: Node<'t>) -> Children<'t> {
        match TreeTable::find(node) {
            Some((table, parent)) => {
                let end = table.end_of(parent);
                Children::Table {
                    table,
                    next: parent + 1,
                    end,
                    tree: std::marker::PhantomData,
                }
            }
            None => Children::Cursor {
                cursor: node.walk(),
                started: false,
            },
        }
    }
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        match self {
            Children::Table {
                table, next, end, ..
            } => {
                if *next >= *end {
                    return None;
                }
                let index = *next;
                *next = table.end_of(index);
                table.handed_out(index)
            }
            Children::Cursor { cursor, started } => {
                let moved = if *started {
                    cursor.goto_next_sibling()
                } else {
                    *started = true;
                    cursor.goto_first_child()
                };
                moved.then(|| cursor.node())
            }
        }
    }
}

/// Whether a declarator is a structured binding (`[a, b]`, `&[a, b]`, `&&[a, b]`).
pub fn binds_structure(declarator: Node) -> bool {
    let mut node = declarator;
    for _ in 0..2 {
        match node.node_kind() {
            "structured_binding_declarator" => return true,
            "reference_declarator" => match node.named_child(0) {
                Some(inner) => node = inner,
                None => return false,
            },
            _ => return false,
        }
    }
    false
}

/// The arguments of a call, comments left out.
pub fn call_arguments(call: Node) -> Vec<Node> {
    call.field("arguments")
        .map(|a| {
            named_children(a)
                .filter(|c| c.node_kind() != "comment")
                .collect()
        })
        .unwrap_or_default()
}

/// The grid, block, shared bytes and stream of a `<<<...>>>` launch, as written.
pub fn launch_configuration(call: Node) -> Vec<Node> {
    named_children(call)
        .find(|c| c.node_kind() == "kernel_call_syntax")
        .map(|k| {
            named_children(k)
                .filter(|c| c.node_kind() != "comment")
                .collect()
        })
        .unwrap_or_default()
}

/// `&v`, `(void**)&v`, `reinterpret_cast<void**>(&v)`, `&plan->buffer`: what the address is
/// taken of.
pub fn address_operand<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    let node = strip(node, source);
    if node.node_kind() == "pointer_expression" && operator(node, source) == "&" {
        return Some(strip(node.field("argument")?, source));
    }
    None
}

/// The value of each `return` in a function's `body` (None for a bare `return;`), not those of
/// the lambdas inside it.
pub fn return_values(body: Node) -> Vec<Option<Node>> {
    let mut values = Vec::new();
    walk_iterative(body, |node| {
        if node.node_kind() == "return_statement" {
            values.push(node.named_child(0));
            return false;
        }
        node.node_kind() != "lambda_expression"
    });
    values
}

/// Strips parentheses and casts: `((size_t)(i))` is `i` for every question the model asks.
pub fn strip<'t>(mut node: Node<'t>, source: &str) -> Node<'t> {
    for _ in 0..MAX_DEPTH {
        match node.node_kind() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) if inner.node_kind() != "comment" => node = inner,
                _ => return node,
            },
            "cast_expression" => match node.field("value") {
                Some(inner) => node = inner,
                None => return node,
            },
            "call_expression" if is_functional_cast(node, source) => {
                match node.field("arguments").and_then(|a| a.named_child(0)) {
                    Some(inner) => node = inner,
                    None => return node,
                }
            }
            _ => return node,
        }
    }
    node
}

/// `x * 1.0`, `1.0f * x`: a value made floating-point by a factor of one, so that `ceil(x * 1.0 /
/// b)` divides without rounding down first: `x`, stripped. Anything else is only stripped.
pub fn without_unit_factor<'t>(node: Node<'t>, source: &str) -> Node<'t> {
    let node = strip(node, source);
    if node.node_kind() != "binary_expression" || operator(node, source) != "*" {
        return node;
    }
    let is_one = |factor: Node| {
        let factor = strip(factor, source);
        factor.node_kind() == "number_literal"
            && text(factor, source)
                .trim_end_matches(['f', 'F', 'l', 'L'])
                .parse::<f64>()
                .is_ok_and(|value| value == 1.0)
    };
    match (node.field("left"), node.field("right")) {
        (Some(left), Some(right)) if is_one(right) => strip(left, source),
        (Some(left), Some(right)) if is_one(left) => strip(right, source),
        _ => node,
    }
}

/// `static_cast<size_t>(x)`, `size_t(x)`, `(long long)(x)`: casts written as calls.
pub fn is_functional_cast(node: Node, source: &str) -> bool {
    let Some(function) = node.field("function") else {
        return false;
    };
    let single_argument = node
        .field("arguments")
        .map(|a| a.named_child_count() == 1)
        .unwrap_or(false);
    if !single_argument {
        return false;
    }
    match function.node_kind() {
        "template_function" => function
            .field("name")
            .map(|name| {
                matches!(
                    text(name, source),
                    "static_cast" | "reinterpret_cast" | "const_cast"
                )
            })
            .unwrap_or(false),
        "primitive_type" | "sized_type_specifier" => true,
        "identifier" | "type_identifier" => matches!(
            text(function, source),
            "size_t"
                | "int64_t"
                | "uint64_t"
                | "int32_t"
                | "uint32_t"
                | "ptrdiff_t"
                | "ssize_t"
                | "index_t"
        ),
        _ => false,
    }
}

/// Whether `node` is an `if constexpr`: a branch the compiler keeps or drops per instantiation.
pub fn is_if_constexpr(node: Node) -> bool {
    node.node_kind() == "if_statement"
        && (0..node.child_count().min(3))
            .filter_map(|i| node.child(i as _))
            .any(|c| c.kind() == "constexpr")
}

/// The expression an `if`, `while` or `switch` tests: the value of its `condition_clause` (the
/// clause itself when it declares instead), any other node as it is.
pub fn condition_value(condition: Node) -> Node {
    match condition.node_kind() {
        "condition_clause" => condition.field("value").unwrap_or(condition),
        _ => condition,
    }
}

/// Whether `node` is a loop statement (`for`, `while`, `do`, range `for`).
pub fn is_loop(node: Node) -> bool {
    matches!(
        node.node_kind(),
        "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
    )
}

/// What an assignment (`x = e`, `x += e`) or a step (`x++`, `--x`) writes; None for any other
/// node.
pub fn assigned_target(node: Node) -> Option<Node> {
    match node.node_kind() {
        "assignment_expression" => node.field("left"),
        "update_expression" => node.field("argument"),
        _ => None,
    }
}

/// The value an `x = e` stores: `e`, or in a chain `x = y = e`, the `e` at its end.
pub fn stored_value<'t>(assignment: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut value = assignment.field("right")?;
    for _ in 0..MAX_DEPTH {
        let inner = strip(value, source);
        if inner.node_kind() != "assignment_expression" || operator(inner, source) != "=" {
            break;
        }
        value = inner.field("right")?;
    }
    Some(value)
}

/// Whether `inner`'s text lies within `outer`'s.
pub fn encloses(outer: Node, inner: Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// The `if` statements of `node`'s function whose consequence holds `node`, innermost first, each
/// with that consequence: the tests that hold wherever `node` runs.
pub fn ifs_taken_to<'t>(node: Node<'t>) -> impl Iterator<Item = (Node<'t>, Node<'t>)> {
    std::iter::successors(Some(node), |n| n.up())
        .take_while(|n| !matches!(n.node_kind(), "function_definition" | "lambda_expression"))
        .filter_map(|taken| {
            let statement = taken.up()?;
            (statement.node_kind() == "if_statement"
                && statement.field("consequence").map(|c| c.id()) == Some(taken.id()))
            .then_some((statement, taken))
        })
}

/// Whether `body` is the branch of the `if constexpr` `statement` that has no `else`: the code
/// the instantiations keeping it run.
pub fn is_kept_constexpr_branch(statement: Node, body: Node) -> bool {
    is_if_constexpr(statement)
        && statement.field("alternative").is_none()
        && statement.field("consequence").map(|c| c.id()) == Some(body.id())
}

/// The statement a block inside `if constexpr (...) { ... }` (no `else`) belongs to for the
/// instantiations that keep it: the block around that `if`; any other node as it is. A guard or
/// step written there is the one those instantiations run, and the others are chosen by the
/// host for sizes that need none (`if constexpr (!kAligned) { ok &= row < rows; }`).
pub fn through_constexpr_branch(node: Node) -> Node {
    let mut node = node;
    for _ in 0..8 {
        let Some(branch) = node.up() else { break };
        if node.node_kind() != "compound_statement" || !is_kept_constexpr_branch(branch, node) {
            break;
        }
        match branch.up() {
            Some(outer) if outer.node_kind() == "compound_statement" => node = outer,
            _ => break,
        }
    }
    node
}

/// The operator token of a binary, assignment, unary or update expression.
pub fn operator<'a>(node: Node, source: &'a str) -> &'a str {
    node.field("operator")
        .map(|op| spelled_as_symbol(text(op, source)))
        .unwrap_or("")
}

/// C++'s alternative tokens (`i < n and ok`, `not done`) read as the operators they stand for.
fn spelled_as_symbol(operator: &str) -> &str {
    match operator {
        "and" => "&&",
        "or" => "||",
        "not" => "!",
        "bitand" => "&",
        "bitor" => "|",
        "xor" => "^",
        "compl" => "~",
        "not_eq" => "!=",
        "and_eq" => "&=",
        "or_eq" => "|=",
        "xor_eq" => "^=",
        other => other,
    }
}

/// Whether `node`, stripped like `normalized`, reads `target` (already normalized), without
/// allocating.
pub fn same_text(node: Node, source: &str, target: &str) -> bool {
    let node = strip(node, source);
    let mut text = text(node, source).chars().filter(|c| !c.is_whitespace());
    let mut expected = target.chars();
    loop {
        match (text.next(), expected.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// Text with whitespace, redundant parentheses and casts removed, used to compare expressions.
pub fn normalized(node: Node, source: &str) -> String {
    let node = strip(node, source);
    text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The top-level, comma-separated parts of an argument list's text (without its parentheses),
/// each trimmed: commas inside brackets do not split.
pub fn split_arguments(inner: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

/// The terms of a chain of `+`/`-`, each with its sign (true for added), parentheses stripped;
/// empty past 16 terms.
pub fn signed_terms<'t>(node: Node<'t>, source: &str) -> Vec<(bool, Node<'t>)> {
    let mut terms = Vec::new();
    let mut stack = vec![(true, strip(node, source))];
    while let Some((sign, current)) = stack.pop() {
        if terms.len() > 16 {
            return Vec::new();
        }
        if current.node_kind() == "binary_expression" {
            let op = operator(current, source);
            if op == "+" || op == "-" {
                if let (Some(l), Some(r)) = (current.field("left"), current.field("right")) {
                    stack.push((sign, strip(l, source)));
                    stack.push((if op == "+" { sign } else { !sign }, strip(r, source)));
                    continue;
                }
            }
        }
        terms.push((sign, current));
    }
    terms
}

/// The words a declaration writes before its type (`static inline constexpr` in `static inline
/// constexpr int k = 4;`): whether the value is fixed when compiled is said there.
pub fn words_before_type<'s>(declaration: Node, source: &'s str) -> &'s str {
    let start = declaration.start_byte();
    let type_start = declaration.field("type").map_or(start, |t| t.start_byte());
    source.get(start..type_start).unwrap_or("")
}

/// The declarator that applies to the name first, parentheses skipped: in `unsigned (*p)[4]`
/// the pointer (a pointer to arrays), in `T* a[N]` the array (of pointers). None for a bare
/// name.
pub fn innermost_declarator(node: Node) -> Option<Node> {
    let mut current = node;
    let mut innermost = None;
    for _ in 0..MAX_DEPTH {
        match current.node_kind() {
            "identifier" | "field_identifier" | "qualified_identifier" => return innermost,
            "parenthesized_declarator" => current = current.named_child(0)?,
            _ => {
                innermost = Some(current);
                current = current.field("declarator")?;
            }
        }
    }
    None
}

/// The identifier a declarator declares (`*p`, `p[4]`, `&r`, `p = x` all declare `p`).
pub fn declarator_name<'t>(mut node: Node<'t>) -> Option<Node<'t>> {
    for _ in 0..MAX_DEPTH {
        match node.node_kind() {
            "identifier" | "field_identifier" => return Some(node),
            "qualified_identifier" => return node.field("name"),
            _ => {
                node = node.field("declarator").or_else(|| {
                    named_children(node).find(|c| {
                        matches!(
                            c.node_kind(),
                            "identifier"
                                | "pointer_declarator"
                                | "array_declarator"
                                | "reference_declarator"
                                | "parenthesized_declarator"
                                | "init_declarator"
                                | "function_declarator"
                        )
                    })
                })?;
            }
        }
    }
    None
}

/// Whether a declarator makes a pointer (or an array parameter, which is one).
pub fn declarator_is_pointer(mut node: Node) -> bool {
    for _ in 0..MAX_DEPTH {
        match node.node_kind() {
            "pointer_declarator" | "array_declarator" | "abstract_pointer_declarator" => {
                return true
            }
            "identifier" | "field_identifier" => return false,
            _ => match node.field("declarator") {
                Some(inner) => node = inner,
                None => return false,
            },
        }
    }
    false
}

/// Parents of the nodes inside one subtree (a function), found by descending from its root.
/// `Node::parent` descends from the tree's root on every call, scanning the file's top-level
/// declarations each time: over a file of hundreds of functions that scan is most of the cost of
/// walking upwards.
#[derive(Clone, Copy)]
pub struct Within<'t> {
    root: Node<'t>,
}

impl<'t> Within<'t> {
    pub fn new(root: Node<'t>) -> Self {
        Within { root }
    }

    pub fn parent(&self, node: Node<'t>) -> Option<Node<'t>> {
        // an installed table holds the parent of every node but its roots (the tree's root, or
        // the root of a function's subtree in a table of the edited functions only)
        if let Some(Some(parent)) = TreeTable::read(node, |table, index| {
            let parent = *table.parents.get(index)?;
            table.node(parent as usize)
        }) {
            return Some(parent);
        }
        let inside = self.root.start_byte() <= node.start_byte()
            && node.end_byte() <= self.root.end_byte()
            && node.id() != self.root.id();
        if !inside {
            return node.parent();
        }
        let mut current = self.root;
        // a node's depth below its function is far under this; the bound only guards the loop
        for _ in 0..100_000 {
            let child = current.child_with_descendant(node)?;
            if child.id() == node.id() {
                return Some(current);
            }
            current = child;
        }
        node.parent()
    }

    /// The ancestors of `node`, nearest first, up to the tree's root.
    pub fn ancestors(self, node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
        std::iter::successors(self.parent(node), move |n| self.parent(*n))
    }
}

/// The node's parent: `Node::parent`, read from the tree's table when one is installed
/// (`Node::parent` descends from the root of the tree on every call).
pub fn parent<'t>(node: Node<'t>) -> Option<Node<'t>> {
    // a table's roots have no parent there (the tree's root has none; a subtree's is asked of
    // tree-sitter)
    match TreeTable::read(node, |table, index| {
        let parent = *table.parents.get(index)?;
        table.node(parent as usize)
    }) {
        Some(Some(parent)) => Some(parent),
        _ => node.parent(),
    }
}

/// The names a block declares, each with where its first declaration starts.
pub type BlockDeclarations = std::rc::Rc<rustc_hash::FxHashMap<Box<str>, usize>>;

thread_local! {
    /// `declared_in_block`'s answers, by the block's tree and id, for blocks an installed
    /// table holds; emptied when a table is dropped, as the ids may then be reused.
    static BLOCK_DECLARATIONS: std::cell::RefCell<
        rustc_hash::FxHashMap<(usize, usize), BlockDeclarations>,
    > = std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// The names the declarations directly inside `block` declare (`int i = 0, j;` gives `i` and
/// `j`), each with the start byte of the first declaration of it. Read once per block while its
/// tree's table is installed: asking which enclosing block declares a name, for every read of
/// every local, was quadratic in the length of a long kernel's body.
pub fn declared_in_block(block: Node, source: &str) -> BlockDeclarations {
    let key = (block.into_raw().tree as usize, block.id());
    let cached = in_table(block);
    if cached {
        if let Some(known) = BLOCK_DECLARATIONS.with(|c| c.borrow().get(&key).cloned()) {
            return known;
        }
    }
    let mut names: rustc_hash::FxHashMap<Box<str>, usize> = rustc_hash::FxHashMap::default();
    for declaration in named_children(block) {
        if declaration.node_kind() != "declaration" {
            continue;
        }
        let mut cursor = declaration.walk();
        for name in declaration
            .children_by_field_name("declarator", &mut cursor)
            .filter_map(declarator_name)
        {
            names
                .entry(text(name, source).into())
                .or_insert(declaration.start_byte());
        }
    }
    let names = std::rc::Rc::new(names);
    if cached {
        BLOCK_DECLARATIONS.with(|c| c.borrow_mut().insert(key, std::rc::Rc::clone(&names)));
    }
    names
}

/// Names a walk found written, by name.
pub type WrittenNames = std::rc::Rc<rustc_hash::FxHashSet<Box<str>>>;

thread_local! {
    /// `names_written`'s answers, by the root's tree and id, for roots an installed table holds;
    /// emptied with `BLOCK_DECLARATIONS`.
    static WRITTEN_NAMES: std::cell::RefCell<rustc_hash::FxHashMap<(usize, usize), WrittenNames>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// Every name written below `root`: assigned, stepped, assigned a member of (`grid.x = 4`) or
/// handed on by address. One walk per root while its tree's table is installed: the launch
/// reading asks it of the whole file for every function it reads.
pub fn names_written(root: Node, source: &str) -> WrittenNames {
    let key = (root.into_raw().tree as usize, root.id());
    let cached = in_table(root);
    if cached {
        if let Some(known) = WRITTEN_NAMES.with(|c| c.borrow().get(&key).cloned()) {
            return known;
        }
    }
    let mut written = rustc_hash::FxHashSet::default();
    walk_iterative(root, |node| {
        let target = match node.node_kind() {
            "assignment_expression" => node.field("left"),
            "update_expression" => node.field("argument"),
            "pointer_expression" if operator(node, source) == "&" => node.field("argument"),
            _ => None,
        };
        let mut target = target.map(|t| strip(t, source));
        while let Some(t) = target.filter(|t| t.node_kind() == "field_expression") {
            target = t.field("argument").map(|a| strip(a, source));
        }
        if let Some(t) = target.filter(|t| t.node_kind() == "identifier") {
            written.insert(text(t, source).into());
        }
        true
    });
    let written = std::rc::Rc::new(written);
    if cached {
        WRITTEN_NAMES.with(|c| c.borrow_mut().insert(key, std::rc::Rc::clone(&written)));
    }
    written
}

/// Each write below `root` (an assignment, a step, or `&x` handing a name on), in pre-order:
/// where the write starts and the byte range of what it writes, parentheses and casts
/// stripped.
pub type Writes = std::rc::Rc<[(usize, std::ops::Range<usize>)]>;

thread_local! {
    /// `writes_below`'s answers, kept as `WRITTEN_NAMES` is.
    static WRITES: std::cell::RefCell<rustc_hash::FxHashMap<(usize, usize), Writes>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// The writes below `root`, found in one walk while its tree's table is installed: the facts
/// before each launch drop those whose names are written after the check, and a launcher with
/// dozens of checks and launches asked it of its body hundreds of times.
pub fn writes_below(root: Node, source: &str) -> Writes {
    let key = (root.into_raw().tree as usize, root.id());
    let cached = in_table(root);
    if cached {
        if let Some(known) = WRITES.with(|c| c.borrow().get(&key).cloned()) {
            return known;
        }
    }
    let mut writes = Vec::new();
    walk_iterative(root, |node| {
        let target = match assigned_target(node) {
            Some(target) => Some(target),
            None if node.node_kind() == "pointer_expression" && operator(node, source) == "&" => {
                node.field("argument")
            }
            None => None,
        };
        if let Some(target) = target {
            writes.push((node.start_byte(), strip(target, source).byte_range()));
        }
        true
    });
    let writes: Writes = writes.into();
    if cached {
        WRITES.with(|c| c.borrow_mut().insert(key, writes.clone()));
    }
    writes
}

/// Whether an installed table holds `node`.
pub fn in_table(node: Node) -> bool {
    TreeTable::read(node, |_, _| ()).is_some()
}

/// Visits every node below `root` (pre-order) without recursion, so nesting depth cannot
/// overflow the stack. The visitor returns false to skip a node's children.
pub fn walk_iterative<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    if let Some((table, start)) = TreeTable::find(root) {
        let end = table.end_of(start);
        let mut index = start;
        while index < end {
            let Some(node) = table.handed_out(index) else {
                return;
            };
            let descend = visit(node);
            index = if descend {
                index + 1
            } else {
                table.end_of(index)
            };
        }
        return;
    }
    let mut cursor = root.walk();
    let mut descend = visit(root);
    loop {
        if descend && cursor.goto_first_child() {
            descend = visit(cursor.node());
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                descend = visit(cursor.node());
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The nodes of one tree in pre-order, each with the end of its subtree. Walks and child
/// iterations read this table instead of moving a tree cursor: a cursor step costs several
/// times what reading the next entry does, and the model walks each function body a dozen
/// times. A table is installed on a thread while its tree is linted (`TreeTable::install`) and
/// serves the nodes of that tree; any other node is walked with a cursor.
pub struct TreeTable {
    tree: *const tree_sitter::ffi::TSTree,
    /// The nodes in pre-order, as tree-sitter's plain values.
    nodes: Vec<tree_sitter::ffi::TSNode>,
    /// Per node, one past the last node of its subtree.
    ends: Vec<u32>,
    /// Per node, its parent's position (`u32::MAX` for the root).
    parents: Vec<u32>,
    /// Per node, the field it fills in its parent (0: none).
    fields: Vec<u16>,
    /// Positions by node id.
    positions: Positions,
    /// Per node, whether its subtree holds an error (`Node::has_error`).
    broken: Vec<bool>,
    /// Per node, whether it is named (`Node::is_named`).
    named: Vec<bool>,
    /// Per node, its kind id (`Node::kind_id`).
    kinds: Vec<u16>,
    /// Per node, its end byte (`u32::MAX` past 4 GiB).
    end_bytes: Vec<u32>,
    /// The last node found and its position: a node is often asked for several fields in turn.
    last: std::cell::Cell<(usize, u32)>,
}

thread_local! {
    /// The tables installed on this thread, innermost last.
    static TABLES: std::cell::RefCell<Vec<std::rc::Rc<TreeTable>>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The last of `TABLES` (null when none), read without borrowing the list: nearly every
    /// question is about a node of the innermost table, and borrowing and searching the list
    /// for each was the largest part of the thread-local lookups (about a twentieth of the
    /// run's samples). `TABLES` holds a count of it while it is here.
    static INNERMOST: std::cell::Cell<*const TreeTable> =
        const { std::cell::Cell::new(std::ptr::null()) };
}

/// Points `INNERMOST` at the last of `tables`.
fn note_innermost(tables: &[std::rc::Rc<TreeTable>]) {
    let innermost = tables.last().map_or(std::ptr::null(), std::rc::Rc::as_ptr);
    INNERMOST.with(|cell| cell.set(innermost));
}

/// Keeps a tree's table installed on the thread that built it (it is not sent to another); it
/// borrows the tree, so the tree outlives it and is not changed meanwhile.
pub struct InstalledTable<'t> {
    table: std::rc::Rc<TreeTable>,
    tree: std::marker::PhantomData<&'t tree_sitter::Tree>,
}

impl Drop for InstalledTable<'_> {
    fn drop(&mut self) {
        // the cache may hold nodes of this table's tree, whose addresses another tree may reuse
        recent_nodes::clear();
        BLOCK_DECLARATIONS.with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                c.clear();
            }
        });
        WRITTEN_NAMES.with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                c.clear();
            }
        });
        WRITES.with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                c.clear();
            }
        });
        TABLES.with(|tables| {
            if let Ok(mut tables) = tables.try_borrow_mut() {
                tables.retain(|t| !std::rc::Rc::ptr_eq(t, &self.table));
                note_innermost(&tables);
            }
        });
    }
}

impl TreeTable {
    /// Builds the table of `tree` (one walk with a cursor) and installs it on this thread until
    /// the guard returned is dropped.
    pub fn install(tree: &tree_sitter::Tree) -> InstalledTable<'_> {
        let root = tree.root_node();
        Self::install_nodes(root, &[root], root.descendant_count())
    }

    /// Builds a table of the subtrees of `roots` only (nodes of `tree`; the parents of the roots
    /// are asked of tree-sitter) and installs it as `install` does: a lint that analyses a few
    /// functions of a large file walks those, and building the whole file's table would cost
    /// more than it saves. Nodes outside the subtrees are walked with cursors.
    pub fn install_within<'t>(
        tree: &'t tree_sitter::Tree,
        roots: &[Node<'t>],
    ) -> InstalledTable<'t> {
        let capacity = roots.iter().map(|r| r.descendant_count()).sum();
        Self::install_nodes(tree.root_node(), roots, capacity)
    }

    fn install_nodes<'t>(
        root: Node<'t>,
        roots: &[Node<'t>],
        capacity: usize,
    ) -> InstalledTable<'t> {
        let mut nodes: Vec<tree_sitter::ffi::TSNode> = Vec::with_capacity(capacity);
        let mut ends: Vec<u32> = Vec::with_capacity(capacity);
        let mut parents: Vec<u32> = Vec::with_capacity(capacity);
        let mut fields: Vec<u16> = Vec::with_capacity(capacity);
        let mut broken: Vec<bool> = Vec::with_capacity(capacity);
        let mut named: Vec<bool> = Vec::with_capacity(capacity);
        let mut kinds: Vec<u16> = Vec::with_capacity(capacity);
        let mut end_bytes: Vec<u32> = Vec::with_capacity(capacity);
        let position = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        for subtree in roots {
            // the nodes whose subtrees are open, each with the children it has left to visit: a
            // cursor's step to a next sibling costs as much when there is none, so the last
            // child is known from the count instead of from a failed step
            let mut open: Vec<(usize, usize)> = Vec::new();
            let mut cursor = subtree.walk();
            'walk: loop {
                let index = nodes.len();
                parents.push(open.last().map_or(u32::MAX, |(p, _)| position(*p)));
                // a subtree's root reads no field here: its parent is not in the table
                fields.push(cursor.field_id().map_or(0, |id| id.get()));
                let node = cursor.node();
                broken.push(node.has_error());
                named.push(node.is_named());
                kinds.push(node.kind_id());
                end_bytes.push(u32::try_from(node.end_byte()).unwrap_or(u32::MAX));
                nodes.push(node.into_raw());
                ends.push(0);
                let children = node.child_count();
                if children > 0 && cursor.goto_first_child() {
                    open.push((index, children - 1));
                    continue;
                }
                if let Some(end) = ends.get_mut(index) {
                    *end = position(nodes.len());
                }
                // close the subtrees that end here, up to the next sibling
                loop {
                    let Some((parent, left)) = open.last_mut() else {
                        break 'walk;
                    };
                    if *left > 0 {
                        *left -= 1;
                        if cursor.goto_next_sibling() {
                            break;
                        }
                    }
                    let parent = *parent;
                    open.pop();
                    if let Some(end) = ends.get_mut(parent) {
                        *end = position(nodes.len());
                    }
                    if open.is_empty() || !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
        }
        // a tree too large for the positions is walked with cursors
        let tree_pointer = if u32::try_from(nodes.len()).is_ok() {
            root.into_raw().tree
        } else {
            nodes.clear();
            ends.clear();
            parents.clear();
            fields.clear();
            broken.clear();
            named.clear();
            kinds.clear();
            end_bytes.clear();
            std::ptr::null()
        };
        let mut positions = Positions::with_capacity(nodes.len());
        for (index, node) in nodes.iter().enumerate() {
            positions.insert(node.id as usize, index as u32);
        }
        let table = std::rc::Rc::new(TreeTable {
            tree: tree_pointer,
            nodes,
            ends,
            parents,
            fields,
            positions,
            broken,
            named,
            kinds,
            end_bytes,
            last: std::cell::Cell::new((0, u32::MAX)),
        });
        TABLES.with(|tables| {
            let mut tables = tables.borrow_mut();
            tables.push(std::rc::Rc::clone(&table));
            note_innermost(&tables);
        });
        InstalledTable {
            table,
            tree: std::marker::PhantomData,
        }
    }

    /// The installed table that holds `node`, and its position there.
    fn find(node: Node) -> Option<(std::rc::Rc<TreeTable>, usize)> {
        Self::read(node, |table, index| (std::rc::Rc::clone(table), index))
    }

    /// `read` applied to the installed table that holds `node` and its position there; None
    /// where no installed table holds it.
    #[inline]
    fn read<R>(node: Node, read: impl FnOnce(&std::rc::Rc<TreeTable>, usize) -> R) -> Option<R> {
        let raw = node.into_raw();
        let innermost = INNERMOST.with(std::cell::Cell::get);
        if !innermost.is_null() {
            // SAFETY: `INNERMOST` is the last table of `TABLES`, which holds a count of it until
            // the guard that installed it is dropped, and that drop points `INNERMOST` elsewhere.
            // The `Rc` made here is never dropped, so the count is unchanged.
            let table = std::mem::ManuallyDrop::new(unsafe { std::rc::Rc::from_raw(innermost) });
            if table.tree == raw.tree {
                if let Some(index) = table.position_of(raw.id as usize) {
                    return table.holds_at(index, &raw).then(|| read(&table, index));
                }
            }
        }
        TABLES.with(|tables| {
            let tables = tables.try_borrow().ok()?;
            let id = raw.id as usize;
            // the innermost table of the tree that holds the node
            let (table, index) = tables
                .iter()
                .rev()
                .filter(|t| t.tree == raw.tree)
                .find_map(|table| Some((table, table.position_of(id)?)))?;
            table.holds_at(index, &raw).then(|| read(table, index))
        })
    }

    /// Whether the node at `index` is `raw`: the same subtree at the same place.
    #[inline]
    fn holds_at(&self, index: usize, raw: &tree_sitter::ffi::TSNode) -> bool {
        self.nodes
            .get(index)
            .is_some_and(|found| found.id == raw.id && found.context == raw.context)
    }

    /// The position of the node whose id is `id`, if the table holds it.
    fn position_of(&self, id: usize) -> Option<usize> {
        match self.last.get() {
            (last, index) if last == id => Some(index as usize),
            _ => {
                let index = self.positions.get(id)?;
                self.last.set((id, index));
                Some(index as usize)
            }
        }
    }

    /// The node at `index`, noted as the last one found: a walk or an iteration hands it to
    /// code that asks for its fields next.
    fn handed_out<'t>(&self, index: usize) -> Option<Node<'t>> {
        let node = self.node_noted(index)?;
        self.last
            .set((node.id(), u32::try_from(index).unwrap_or(u32::MAX)));
        Some(node)
    }

    /// The node at `index`, with its kind and end noted in the thread's cache of recent nodes:
    /// code that is handed a node asks for its kind or its text next, and reading them from the
    /// node touches the subtree's memory, which a walk over a large tree finds out of the
    /// processor's caches.
    fn node_noted<'t>(&self, index: usize) -> Option<Node<'t>> {
        let node = self.node(index)?;
        if let (Some(kind), Some(end)) = (self.kinds.get(index), self.end_bytes.get(index)) {
            recent_nodes::put(node, *kind, *end);
        }
        Some(node)
    }

    /// The child of the node at `index` that fills field `id`: the first one that does.
    fn field<'t>(&self, index: usize, id: u16) -> Option<Node<'t>> {
        let end = self.end_of(index);
        let mut child = index + 1;
        while child < end {
            if self.fields.get(child) == Some(&id) {
                return self.node_noted(child);
            }
            child = self.end_of(child);
        }
        None
    }

    fn end_of(&self, index: usize) -> usize {
        self.ends.get(index).map_or(index + 1, |end| *end as usize)
    }

    /// The node at `index`.
    fn node<'t>(&self, index: usize) -> Option<Node<'t>> {
        let raw = *self.nodes.get(index)?;
        // SAFETY: `raw` was read from a node of the tree at `self.tree`, which the installed
        // guard keeps alive and unchanged (it borrows the tree). Positions are only read from a
        // table found for a node of that same tree (`find` compares the tree), and `'t` is that
        // node's lifetime, which the tree outlives.
        Some(unsafe { Node::from_raw(raw) })
    }
}

/// The kind ids and end bytes of the nodes lately handed out by an installed table, by node id,
/// on this thread. `Node::kind_id` and `Node::end_byte` read the node's subtree, a scattered read
/// that misses the processor's caches on a large tree: together they were over a tenth of the
/// linting time, though few instructions. A node's id is its subtree's address, unique among the
/// live trees; the cache holds nodes of installed tables only and is emptied whenever a table is
/// dropped, so an address another tree reuses is never answered from it. An aliased node
/// is never cached (its kind is read from the node itself, cheaply): the same subtree can carry
/// an alias in one place and not in another.
mod recent_nodes {
    use std::cell::Cell;
    use tree_sitter::Node;

    const SLOTS: usize = 4096;

    /// The node id shifted left by 16 bits with the kind id in the low 16 (0: empty; ids are
    /// addresses below 2^48), and the end byte (`u32::MAX`: not known).
    type Entry = (u64, u32);

    thread_local! {
        static SLOTS_OF_THREAD: [Cell<Entry>; SLOTS] =
            const { [const { Cell::new((0, 0)) }; SLOTS] };
    }

    #[inline]
    fn slot(id: u64) -> usize {
        (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The key of a node that can be cached: its id, if it carries no alias and fits.
    #[inline]
    fn key(node: Node) -> Option<u64> {
        let raw = node.into_raw();
        let id = raw.id as usize as u64;
        (raw.context[3] == 0 && id != 0 && id < 1 << 48).then_some(id)
    }

    #[inline]
    pub(super) fn put(node: Node, kind: u16, end: u32) {
        let Some(id) = key(node) else {
            return;
        };
        SLOTS_OF_THREAD.with(|slots| {
            if let Some(slot) = slots.get(slot(id)) {
                slot.set((id << 16 | u64::from(kind), end));
            }
        });
    }

    #[inline]
    fn get(node: Node) -> Option<Entry> {
        let id = key(node)?;
        SLOTS_OF_THREAD.with(|slots| {
            let entry = slots.get(slot(id))?.get();
            (entry.0 >> 16 == id).then_some(entry)
        })
    }

    #[inline]
    pub(super) fn kind(node: Node) -> Option<u16> {
        get(node).map(|(key, _)| key as u16)
    }

    #[inline]
    pub(super) fn end_byte(node: Node) -> Option<usize> {
        get(node)
            .filter(|(_, end)| *end != u32::MAX)
            .map(|(_, end)| end as usize)
    }

    pub(super) fn clear() {
        SLOTS_OF_THREAD.with(|slots| slots.iter().for_each(|slot| slot.set((0, 0))));
    }
}

/// A table's positions by node id: open addressing with linear probing, at most half full. A
/// node's id is the address of its subtree, distinct for every node of a tree and never 0, so
/// each is put in once, without looking for it first, and the table never grows: building
/// and asking it costs a fraction of what a general hash map does, and it is asked for nearly
/// every node the model reads.
struct Positions {
    /// (id, position) pairs; id 0 marks an empty slot.
    slots: Vec<(usize, u32)>,
    /// The bits of the hash that pick a slot: 64 less log2 of the slot count.
    shift: u32,
}

impl Positions {
    fn with_capacity(count: usize) -> Self {
        let size = count.saturating_mul(2).next_power_of_two().max(16);
        Positions {
            slots: vec![(0, 0); size],
            shift: 64 - size.trailing_zeros(),
        }
    }

    /// The first slot to look in for `id` (Fibonacci hashing: the high bits of the product
    /// depend on every bit of the address).
    fn slot(&self, id: usize) -> usize {
        let hash = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (hash >> self.shift) as usize
    }

    fn insert(&mut self, id: usize, position: u32) {
        if id == 0 {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut slot = self.slot(id);
        // at most half full: an empty slot is always found
        for _ in 0..self.slots.len() {
            match self.slots.get_mut(slot) {
                Some(entry) if entry.0 == 0 => {
                    *entry = (id, position);
                    return;
                }
                Some(_) => slot = (slot + 1) & mask,
                None => return,
            }
        }
    }

    fn get(&self, id: usize) -> Option<u32> {
        if id == 0 {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = self.slot(id);
        for _ in 0..self.slots.len() {
            let (known, position) = *self.slots.get(slot)?;
            if known == id {
                return Some(position);
            }
            if known == 0 {
                return None;
            }
            slot = (slot + 1) & mask;
        }
        None
    }
}

/// Outermost ERROR ranges and MISSING nodes (as empty ranges at their position) below `root`.
pub fn broken_regions(root: Node) -> (Vec<std::ops::Range<usize>>, Vec<std::ops::Range<usize>>) {
    let mut errors = Vec::new();
    let mut missing = Vec::new();
    if !root.has_error() {
        return (errors, missing);
    }
    walk_iterative(root, |node| {
        if node.is_error() {
            errors.push(node.byte_range());
            return false;
        }
        if node.is_missing() {
            missing.push(node.start_byte()..node.start_byte());
        }
        node.has_error()
    });
    (errors, missing)
}

/// Whether `name` occurs in `text` as a whole identifier (`half` in `__half h`, not in
/// `half_size`).
pub fn contains_identifier(text: &str, name: &str) -> bool {
    identifier_positions(text, name).next().is_some()
}

/// Where `name` stands in `text` as a whole identifier (not inside a longer one).
pub fn identifier_positions<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let is_identifier = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !name.is_empty()
                && !text[..at].chars().next_back().is_some_and(is_identifier)
                && !text[at + name.len()..]
                    .chars()
                    .next()
                    .is_some_and(is_identifier)
        })
}

/// `a - N * (a / N)` (or `a - (a / N) * N`, the quotient possibly a local `q = a / N` that
/// `quotient_of` gives): the remainder written out, as `(a, N)`.
pub fn written_out_remainder<'t>(
    node: Node<'t>,
    source: &str,
    quotient_of: &dyn Fn(Node<'t>) -> Option<Node<'t>>,
) -> Option<(Node<'t>, Node<'t>)> {
    let node = strip(node, source);
    if node.node_kind() != "binary_expression" || operator(node, source) != "-" {
        return None;
    }
    let dividend = node.field("left")?;
    let product = strip(node.field("right")?, source);
    if product.node_kind() != "binary_expression" || operator(product, source) != "*" {
        return None;
    }
    let (first, second) = (product.field("left")?, product.field("right")?);
    [(first, second), (second, first)]
        .into_iter()
        .find_map(|(divisor, quotient)| {
            let mut quotient = strip(quotient, source);
            if quotient.node_kind() == "identifier" {
                quotient = strip(quotient_of(quotient)?, source);
            }
            let is_quotient = quotient.node_kind() == "binary_expression"
                && operator(quotient, source) == "/"
                && quotient
                    .field("left")
                    .is_some_and(|l| normalized(l, source) == normalized(dividend, source))
                && quotient
                    .field("right")
                    .is_some_and(|r| normalized(r, source) == normalized(divisor, source));
            is_quotient.then_some((dividend, divisor))
        })
}

/// `nullptr`, `NULL`, `0`: a pointer's value that points at nothing.
pub fn is_null_pointer(node: Node, source: &str) -> bool {
    let node = strip(node, source);
    matches!(node.node_kind(), "null" | "nullptr")
        || matches!(text(node, source), "NULL" | "0" | "nullptr")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_declarator_nearest_the_name_says_what_it_declares() {
        let text = "unsigned (*rows)[4]; float* slots[8]; float** grid; int plain;";
        let tree = crate::engine::parse(text, None).expect("the parser accepts any text");
        let kinds: Vec<Option<&str>> = super::named_children(tree.root_node())
            .filter_map(|declaration| declaration.child_by_field_name("declarator"))
            .map(|d| super::innermost_declarator(d).map(|n| n.kind()))
            .collect();
        assert_eq!(
            kinds,
            [
                Some("pointer_declarator"),
                Some("array_declarator"),
                Some("pointer_declarator"),
                None
            ]
        );
    }

    #[test]
    fn identifiers_are_matched_whole() {
        assert!(super::contains_identifier("__half h = x;", "__half"));
        assert!(super::contains_identifier("f(half2 v)", "half2"));
        assert!(!super::contains_identifier("int half_size;", "half"));
        assert!(!super::contains_identifier("__half2 v;", "__half"));
        assert!(!super::contains_identifier("anything", ""));
    }

    #[test]
    fn the_sole_statement_of_a_block_leaves_comments_aside() {
        let text = "void f(bool a, int i, int n) {\n  if (i >= n) {\n    // why\n    a = false;\n  }\n  if (i > 0) { a = true; a = false; }\n  if (i) { /* none */ }\n}\n";
        let tree = crate::engine::parse(text, None).expect("the parser accepts any text");
        let mut blocks = Vec::new();
        super::walk_iterative(tree.root_node(), |node| {
            if node.kind() == "compound_statement"
                && node.parent().is_some_and(|p| p.kind() == "if_statement")
            {
                blocks.push(node);
            }
            true
        });
        let sole: Vec<Option<&str>> = blocks
            .iter()
            .map(|b| super::sole_statement(*b).map(|s| super::text(s, text)))
            .collect();
        assert_eq!(sole, vec![Some("a = false;"), None, None]);
    }

    fn same(a: Option<tree_sitter::Node>, b: Option<tree_sitter::Node>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => a.id() == b.id() && a.byte_range() == b.byte_range(),
            (None, None) => true,
            _ => false,
        }
    }

    /// Every node's parent, children, named children and fields as the installed table gives
    /// them, against tree-sitter's own answers: the lints read the table in place of the tree.
    fn assert_table_agrees_with_tree_sitter(origin: &str, text: &str) {
        use super::NodeExt;
        let language: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        let names: Vec<&str> = (1..=language.field_count() as u16)
            .filter_map(|id| language.field_name_for_id(id))
            .collect();
        let tree = crate::engine::parse(text, None).expect("the parser accepts any text");
        let _table = super::TreeTable::install(&tree);
        let mut nodes = Vec::new();
        super::walk_iterative(tree.root_node(), |node| {
            nodes.push(node);
            true
        });
        assert_eq!(nodes.len(), tree.root_node().descendant_count(), "{origin}");
        for node in nodes {
            let at = format!("{origin}: {} at {:?}", node.kind(), node.start_position());
            // the kind cache answers for the node last handed out and for others alike
            assert_eq!(node.node_kind(), node.kind(), "kind, {at}");
            assert!(same(super::parent(node), node.parent()), "parent, {at}");
            assert_eq!(
                super::text(node, text),
                &text[node.byte_range()],
                "text, {at}"
            );
            for child in super::children(node) {
                assert_eq!(child.node_kind(), child.kind(), "child's kind, {at}");
                let whole = &text[child.byte_range()];
                assert_eq!(super::text(child, text), whole, "child's text, {at}");
            }
            let mut cursor = node.walk();
            let children: Vec<_> = node.children(&mut cursor).map(|c| c.id()).collect();
            let from_table: Vec<_> = super::children(node).map(|c| c.id()).collect();
            assert_eq!(children, from_table, "children, {at}");
            let named: Vec<_> = node.named_children(&mut cursor).map(|c| c.id()).collect();
            let from_table: Vec<_> = super::named_children(node).map(|c| c.id()).collect();
            assert_eq!(named, from_table, "named children, {at}");
            for name in &names {
                let field = node.field(name);
                assert!(
                    same(field, node.child_by_field_name(name)),
                    "field {name}, {at}"
                );
                if let Some(field) = field {
                    assert_eq!(field.node_kind(), field.kind(), "field {name}'s kind, {at}");
                }
            }
        }
    }

    #[test]
    fn positions_find_every_id_put_in_and_no_other() {
        // ids as tree-sitter makes them: addresses 8 bytes apart, in runs
        let ids: Vec<usize> = (0..5000usize)
            .map(|i| 0x7f00_0000_1000 + (i / 7) * 4096 + (i % 7) * 8)
            .collect();
        let mut positions = super::Positions::with_capacity(ids.len());
        for (index, id) in ids.iter().enumerate() {
            positions.insert(*id, index as u32);
        }
        for (index, id) in ids.iter().enumerate() {
            assert_eq!(positions.get(*id), Some(index as u32));
        }
        assert_eq!(positions.get(0x7f00_0000_1000 + 4), None);
        assert_eq!(positions.get(0), None);
        assert_eq!(super::Positions::with_capacity(0).get(8), None);
    }

    #[test]
    fn the_tree_table_answers_as_tree_sitter_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = 0;
        for folder in ["testdata", "kernels"] {
            for entry in ignore::WalkBuilder::new(root.join(folder))
                .build()
                .flatten()
            {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "cu" || e == "cuh") {
                    let text = std::fs::read_to_string(path).expect("fixtures are UTF-8");
                    assert_table_agrees_with_tree_sitter(&path.display().to_string(), &text);
                    files += 1;
                }
            }
        }
        assert!(files > 100, "the fixtures were found ({files})");
        // broken code (ERROR and MISSING nodes), hidden children with fields, deep nesting
        let broken = "__global__ void k(float* a, int n) { int i = threadIdx.x; if (i < n { a[i] = (x = f()); }\n";
        assert_table_agrees_with_tree_sitter("broken", broken);
        let deep = format!(
            "void f() {{ int x = {}1{}; }}",
            "(".repeat(300),
            ")".repeat(300)
        );
        assert_table_agrees_with_tree_sitter("deep", &deep);
    }
}
