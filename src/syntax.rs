//! Small helpers over tree-sitter nodes shared by the model builders.

use rustc_hash::FxHashMap;
use std::sync::OnceLock;
use tree_sitter::Node;

/// Field ids of the grammar by name. `Node::child_by_field_name` resolves the name with a linear
/// string search on every call, which showed up as a sixth of the linting time.
fn field_ids() -> &'static FxHashMap<&'static str, std::num::NonZeroU16> {
    static IDS: OnceLock<FxHashMap<&'static str, std::num::NonZeroU16>> = OnceLock::new();
    IDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        (1..=language.field_count() as u16)
            .filter_map(|id| {
                Some((
                    language.field_name_for_id(id)?,
                    std::num::NonZeroU16::new(id)?,
                ))
            })
            .collect()
    })
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

/// Fast field and kind access on tree-sitter nodes.
pub trait NodeExt<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
    fn node_kind(&self) -> &'static str;
}

impl<'t> NodeExt<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_id(field_ids().get(name)?.get())
    }

    fn node_kind(&self) -> &'static str {
        match kind_names().get(self.kind_id() as usize) {
            Some(name) => name,
            None => self.kind(),
        }
    }
}

/// Deepest nesting any recursive walk follows; deeper code is skipped and counted, never a crash.
pub const MAX_DEPTH: usize = 400;

pub fn text<'a>(node: Node, source: &'a str) -> &'a str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The named children, through a cursor: `Node::named_child(i)` scans from the first child, so
/// indexing in a loop is quadratic.
pub fn named_children<'t>(node: Node<'t>) -> NamedChildren<'t> {
    NamedChildren {
        cursor: node.walk(),
        started: false,
    }
}

pub struct NamedChildren<'t> {
    cursor: tree_sitter::TreeCursor<'t>,
    started: bool,
}

impl<'t> Iterator for NamedChildren<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        loop {
            let moved = if self.started {
                self.cursor.goto_next_sibling()
            } else {
                self.started = true;
                self.cursor.goto_first_child()
            };
            if !moved {
                return None;
            }
            let node = self.cursor.node();
            if node.is_named() {
                return Some(node);
            }
        }
    }
}

pub fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
    children.into_iter()
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

/// The operator token of a binary, assignment, unary or update expression.
pub fn operator<'a>(node: Node, source: &'a str) -> &'a str {
    node.field("operator")
        .map(|op| text(op, source))
        .unwrap_or("")
}

/// Text with whitespace, redundant parentheses and casts removed, used to compare expressions.
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

pub fn normalized(node: Node, source: &str) -> String {
    let node = strip(node, source);
    text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
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

/// Visits every node below `root` (pre-order) without recursion, so nesting depth cannot
/// overflow the stack. The visitor returns false to skip a node's children.
pub fn walk_iterative<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
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
    let is_identifier = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(is_identifier)
                && !text[at + name.len()..]
                    .chars()
                    .next()
                    .is_some_and(is_identifier)
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn identifiers_are_matched_whole() {
        assert!(super::contains_identifier("__half h = x;", "__half"));
        assert!(super::contains_identifier("f(half2 v)", "half2"));
        assert!(!super::contains_identifier("int half_size;", "half"));
        assert!(!super::contains_identifier("__half2 v;", "__half"));
        assert!(!super::contains_identifier("anything", ""));
    }
}
