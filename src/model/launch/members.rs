//! Block counts kept in members of a settings object: `set.gridDim = lat_4dim / BLOCK;` in an
//! init method, then `k<<<set_ptr->gridDim, set_ptr->blockDim>>>` at every launch. What each
//! member named as a block count holds is summarised once per file, over every assignment to
//! it (a method's `gridDim = ...`, `cfg->blocks = ...`, a constructor's `: grid(n / 256)`),
//! each value classified as a grid with its own function's locals; a launch that reads the
//! member gets the join of them all, since any may be the one its object holds.

use super::grid::{join, names_a_block_count, Classifier};
use super::locals::Locals;
use super::{GridAxis, GridHelpers};
use crate::model::{Function, FunctionKind};
use crate::syntax::{self, operator, text, NodeExt};
use tree_sitter::Node;

/// For each member named as a block count that the file's host functions assign, what every
/// assignment gives as a grid axis, joined. An update of what it held (`blocks += 1`,
/// `blocks = blocks + 1`, `blocks++`) makes it unknown.
pub fn member_grids_of(
    functions: &[Function],
    source: &str,
    helpers: &dyn GridHelpers,
) -> Vec<(String, GridAxis)> {
    let mut grids: Vec<(String, GridAxis)> = Vec::new();
    for function in functions.iter().filter(|f| f.kind == FunctionKind::Host) {
        let assignments = member_assignments(function, source);
        if assignments.is_empty() {
            continue;
        }
        let locals = Locals::of(function.body, source);
        let classifier = Classifier::reading_threads(source, &locals, helpers);
        for (member, value) in assignments {
            let axis = match value {
                Some(value) => classifier.axis(value, 0),
                None => GridAxis::Unknown,
            };
            match grids.iter_mut().find(|(name, _)| *name == member) {
                Some((_, known)) => {
                    *known = join(std::mem::replace(known, GridAxis::Unknown), axis)
                }
                None => grids.push((member.to_string(), axis)),
            }
        }
    }
    grids
}

/// The function's assignments to members named as block counts, each with the value assigned
/// (None when it updates the member from itself).
fn member_assignments<'t>(
    function: &Function<'t>,
    source: &'t str,
) -> Vec<(&'t str, Option<Node<'t>>)> {
    let method = is_method(function);
    let mut found = Vec::new();
    // constructor initialisers: `Setup(int n) : grid(n / 256), block(256) {}`
    if let Some(initialisers) = syntax::named_children(function.definition)
        .into_iter()
        .find(|n| n.node_kind() == "field_initializer_list")
    {
        for initialiser in syntax::named_children(initialisers) {
            let member = initialiser
                .named_child(0)
                .filter(|n| n.node_kind() == "field_identifier")
                .map(|n| text(n, source));
            let value = initialiser
                .field("arguments")
                .or_else(|| initialiser.named_child(1))
                .and_then(|list| syntax::named_children(list).next());
            if let (Some(member), Some(value)) = (member, value) {
                if names_a_block_count(member) {
                    found.push((member, Some(value)));
                }
            }
        }
    }
    syntax::walk_iterative(function.body, |node| {
        let (target, value) = match node.node_kind() {
            "assignment_expression" => (node.field("left"), node.field("right")),
            "update_expression" => (node.field("argument"), None),
            _ => return true,
        };
        let Some(target) = target else {
            return true;
        };
        let member = match target.node_kind() {
            "field_expression" => target.field("field").map(|f| text(f, source)),
            // a bare name in a method is a member unless the method declares it
            "identifier" if method => {
                let name = text(target, source);
                (function.parameter(name).is_none() && !declares(function.body, name, source))
                    .then_some(name)
            }
            _ => None,
        };
        if let Some(member) = member.filter(|m| names_a_block_count(m)) {
            let plain =
                node.node_kind() == "assignment_expression" && operator(node, source) == "=";
            // `gridDim = gridDim + 1` builds on what the member held
            let fresh = |value: &Node| !names(*value, member, source);
            found.push((member, value.filter(|v| plain && fresh(v))));
        }
        true
    });
    found
}

/// Whether the function is a member function: defined in a class body, or named `Class::f`.
fn is_method(function: &Function) -> bool {
    function
        .definition
        .up()
        .is_some_and(|p| p.node_kind() == "field_declaration_list")
        || function
            .name_node
            .up()
            .is_some_and(|p| p.node_kind() == "qualified_identifier")
}

/// Whether `value` reads a name or member called `name`.
fn names(value: Node, name: &str, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(value, |node| {
        found |= matches!(node.node_kind(), "identifier" | "field_identifier")
            && text(node, source) == name;
        !found
    });
    found
}

/// Whether `body` declares a local called `name`.
pub(crate) fn declares(body: Node, name: &str, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(body, |node| {
        if matches!(node.node_kind(), "declaration" | "for_range_loop") {
            let mut cursor = node.walk();
            found |= node
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(syntax::declarator_name)
                .any(|n| text(n, source) == name);
        }
        !found
    });
    found
}
