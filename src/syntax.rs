//! Small helpers over tree-sitter nodes shared by the model builders.

use tree_sitter::Node;

/// Deepest nesting any recursive walk follows; deeper code is skipped and counted, never a crash.
pub const MAX_DEPTH: usize = 400;

pub fn text<'a>(node: Node, source: &'a str) -> &'a str {
    source.get(node.byte_range()).unwrap_or("")
}

pub fn named_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(i))
}

pub fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.child_count()).filter_map(move |i| node.child(i))
}

/// Strips parentheses and casts: `((size_t)(i))` is `i` for every question the model asks.
pub fn strip<'t>(mut node: Node<'t>, source: &str) -> Node<'t> {
    for _ in 0..MAX_DEPTH {
        match node.kind() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) if inner.kind() != "comment" => node = inner,
                _ => return node,
            },
            "cast_expression" => match node.child_by_field_name("value") {
                Some(inner) => node = inner,
                None => return node,
            },
            "call_expression" if is_functional_cast(node, source) => {
                match node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                {
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
fn is_functional_cast(node: Node, source: &str) -> bool {
    let Some(function) = node.child_by_field_name("function") else {
        return false;
    };
    let single_argument = node
        .child_by_field_name("arguments")
        .map(|a| a.named_child_count() == 1)
        .unwrap_or(false);
    if !single_argument {
        return false;
    }
    match function.kind() {
        "template_function" => function
            .child_by_field_name("name")
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
    node.child_by_field_name("operator")
        .map(|op| text(op, source))
        .unwrap_or("")
}

/// Text with whitespace, redundant parentheses and casts removed, used to compare expressions.
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
        match node.kind() {
            "identifier" | "field_identifier" => return Some(node),
            "qualified_identifier" => return node.child_by_field_name("name"),
            _ => {
                node = node.child_by_field_name("declarator").or_else(|| {
                    named_children(node).find(|c| {
                        matches!(
                            c.kind(),
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
        match node.kind() {
            "pointer_declarator" | "array_declarator" | "abstract_pointer_declarator" => {
                return true
            }
            "identifier" | "field_identifier" => return false,
            _ => match node.child_by_field_name("declarator") {
                Some(inner) => node = inner,
                None => return false,
            },
        }
    }
    false
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
