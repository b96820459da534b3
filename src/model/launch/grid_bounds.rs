//! What bounds a launch's configuration beyond its own expression: a check on the launch's path
//! that makes a grid axis exact, a clamp, the occupancy API, and the constant a block dimension
//! holds through a table of sizes. Kept together because each is a fact about the code around the
//! launch, not about the configuration's arithmetic.

use super::*;

/// Whether a check on the launch's path states the grid local `name`'s `axis` exact:
/// `FT_CHECK(grid.x * per_block == batch * heads * seq_len)`, `assert(blocks == rows)`, or `if
/// (grid.x * k != n) return;` before the launch, with the grid's blocks (times any count per
/// block) equal to an exact size, and no assignment of that component between the check and the
/// launch. The code stops where the equality fails, so where the launch runs the blocks are the
/// problem's, however the count was computed (halved in a loop while even).
pub(super) fn checked_exact<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
    name: &str,
    axis: usize,
) -> bool {
    let source = classifier.source;
    let Some(body) = classifier.locals.scope else {
        return false;
    };
    let field = AXIS_NAMES[axis];
    let component = format!("{name}.{field}");
    let locals = classifier.locals;
    let as_dim3 = locals.dim3.contains_key(name)
        || AXIS_NAMES
            .iter()
            .any(|f| locals.components.contains_key(&(name, *f)));
    // `blocks == n` for a scalar grid, only on `x`
    let whole = (!as_dim3 && axis == 0).then_some(name);
    let assignments: Vec<Node<'t>> = locals
        .components
        .get(&(name, field))
        .into_iter()
        .chain(whole.and_then(|w| locals.values.get(w)))
        .flatten()
        .copied()
        .collect();
    let names_grid = |node: Node<'t>| {
        let written = normalized(node, source);
        written == component || whole.is_some_and(|w| written == w)
    };
    // the grid, or a product with the grid as a factor
    let holds_grid = |side: Node<'t>| {
        let mut stack = vec![strip(side, source)];
        let mut found = false;
        while let Some(node) = stack.pop() {
            if names_grid(node) {
                found = true;
            } else if node.node_kind() == "binary_expression"
                && syntax::operator(node, source) == "*"
            {
                stack.extend(node.field("left").map(|l| strip(l, source)));
                stack.extend(node.field("right").map(|r| strip(r, source)));
            }
        }
        found
    };
    limits::facts_at(call, body, source).iter().any(|fact| {
        fact.relation == crate::model::guards::Relation::Equal
            && [true, false].into_iter().any(|left_side| {
                let fact = fact.oriented(left_side);
                holds_grid(fact.left)
                    && !holds_grid(fact.right)
                    && classifier.axis(fact.right, 0) == GridAxis::Exact
            })
            && !assignments.iter().any(|a| {
                a.start_byte() > fact.origin.start_byte() && a.start_byte() < call.start_byte()
            })
    })
}

/// The most threads a block has on `x`, on every device.
pub const MAX_BLOCK_X: i128 = 1024;

/// More blocks than any device holds resident at once (at most 32 per multiprocessor, and no
/// device has 512 multiprocessors): the bound of a grid sized by the occupancy API.
pub const RESIDENT_BLOCKS: i128 = 1 << 14;

/// The most blocks a grid component `node` can be, when the launch shows a bound that does not
/// grow with the problem: a constant (not one rounded up from a count),
/// the smaller of two values of which one is bounded (`min(blocks, 1024)`, `b < 1024 ? b :
/// 1024`), a local clamped before the launch (`if (blocks > 192) blocks = 192;`), or the grid the
/// occupancy API chose for the device (`cudaOccupancyMaxPotentialBlockSize(&blocks, &threads,
/// k)`, at most `RESIDENT_BLOCKS`).
pub(super) fn most_blocks<'t>(
    classifier: &Classifier<'_, 't>,
    node: Node<'t>,
    depth: usize,
) -> Option<i128> {
    if depth > 8 {
        return None;
    }
    // a grid rounded up from a count grows with it, whatever that count is where it is launched
    // (`(n + 255) / 256` with `const size_t n = 1 << 20` is meant for any `n`)
    let grows = classifier.rounds_up_by_shape(node);
    if let Some(value) = constant(node, classifier).filter(|_| !grows) {
        return Some(value);
    }
    let source = classifier.source;
    let node = strip(node, source);
    let bound = |side: Node<'t>| most_blocks(classifier, side, depth + 1);
    match node.node_kind() {
        "call_expression" => {
            let function = node.field("function")?;
            let name = text(function, source)
                .trim_start_matches("::")
                .trim_start_matches("std::");
            if !matches!(name, "min" | "umin" | "imin" | "llmin" | "ullmin") {
                return None;
            }
            // the smaller of the two is no larger than the bounded one
            syntax::call_arguments(node)
                .into_iter()
                .filter_map(bound)
                .min()
        }
        "conditional_expression" => {
            let yes = node.field("consequence")?;
            let no = node.field("alternative")?;
            let condition = strip(node.field("condition")?, source);
            if condition.node_kind() == "binary_expression" {
                let (left, right) = (condition.field("left")?, condition.field("right")?);
                let same = |a: Node, b: Node| normalized(a, source) == normalized(b, source);
                let smaller = match syntax::operator(condition, source) {
                    "<" | "<=" => same(yes, left) && same(no, right),
                    ">" | ">=" => same(yes, right) && same(no, left),
                    _ => false,
                };
                if smaller {
                    return [left, right].into_iter().filter_map(bound).min();
                }
            }
            Some(bound(yes)?.max(bound(no)?))
        }
        "identifier" => {
            let name = text(node, source);
            let values = classifier.locals.values.get(name)?;
            let scope = classifier.locals.scope?;
            let mut most: Option<i128> = None;
            // written through its address: known only when the occupancy API writes it
            for value in values.iter().filter(|v| is_address_taken(**v, source)) {
                if !is_occupancy_grid(*value, source) {
                    return None;
                }
                most = Some(RESIDENT_BLOCKS);
            }
            for value in crate::model::reaching::reaching(values, node, scope, source) {
                if crate::model::reaching::updates_itself(value, source) {
                    return None;
                }
                let value_bound = match bound(value) {
                    Some(b) => b,
                    None => clamped(classifier, name, value, node, depth)?,
                };
                most = Some(most.map_or(value_bound, |m| m.max(value_bound)));
            }
            most
        }
        _ => None,
    }
}

/// `&name` passed to a call.
fn is_address_taken(value: Node, source: &str) -> bool {
    value.node_kind() == "identifier"
        && value.up().is_some_and(|p| {
            p.node_kind() == "pointer_expression" && syntax::operator(p, source) == "&"
        })
}

/// `&name` as the grid a `cudaOccupancyMaxPotentialBlockSize` call (or HIP's, or their
/// variable shared-memory forms) writes: its first argument.
fn is_occupancy_grid(value: Node, source: &str) -> bool {
    let Some(address) = value.up() else {
        return false;
    };
    let Some(call) = address
        .up()
        .filter(|list| list.node_kind() == "argument_list")
        .and_then(|list| list.up())
        .filter(|call| call.node_kind() == "call_expression")
    else {
        return false;
    };
    let name = call
        .field("function")
        .map(|f| launched_kernel(f, source))
        .unwrap_or("");
    let api = name
        .strip_prefix("cuda")
        .or_else(|| name.strip_prefix("hip"))
        .unwrap_or("");
    matches!(
        api,
        "OccupancyMaxPotentialBlockSize" | "OccupancyMaxPotentialBlockSizeVariableSMem"
    ) && syntax::call_arguments(call).first() == Some(&address)
}

/// The bound a clamp puts on `value` of local `name` before `at`: `if (name > B) name = C;` run
/// on every path from `value` to `at` leaves `name` no larger than `B` when it was not taken
/// (`C`, when it was, is a value of its own).
fn clamped<'t>(
    classifier: &Classifier<'_, 't>,
    name: &str,
    value: Node<'t>,
    at: Node<'t>,
    depth: usize,
) -> Option<i128> {
    let source = classifier.source;
    let values = classifier.locals.values.get(name)?;
    values.iter().find_map(|assigned| {
        let assignment = assigned
            .up()
            .filter(|a| a.node_kind() == "assignment_expression")?;
        let mut statement = assignment
            .up()
            .filter(|s| s.node_kind() == "expression_statement")?;
        let mut branch = statement.up()?;
        if branch.node_kind() == "compound_statement"
            && syntax::sole_statement(branch).is_some_and(|only| only.id() == statement.id())
        {
            statement = branch;
            branch = statement.up()?;
        }
        if branch.node_kind() != "if_statement"
            || branch.field("consequence") != Some(statement)
            || branch.field("alternative").is_some()
            || value.end_byte() > branch.start_byte()
            || branch.end_byte() > at.start_byte()
            || !branch.up().is_some_and(|block| {
                block.node_kind() == "compound_statement"
                    && block.start_byte() <= at.start_byte()
                    && at.end_byte() <= block.end_byte()
            })
        {
            return None;
        }
        let condition = strip(branch.field("condition")?, source);
        let condition = match condition.node_kind() {
            "condition_clause" => strip(condition.field("value")?, source),
            _ => condition,
        };
        if condition.node_kind() != "binary_expression" {
            return None;
        }
        let (left, right) = (condition.field("left")?, condition.field("right")?);
        let names = |side: Node| {
            let side = strip(side, source);
            side.node_kind() == "identifier" && text(side, source) == name
        };
        let limit = match syntax::operator(condition, source) {
            ">" | ">=" if names(left) => right,
            "<" | "<=" if names(right) => left,
            _ => return None,
        };
        most_blocks(classifier, limit, depth + 1)
    })
}

/// The value of an entry of a local table of sizes (`size_t block[2]; block[0] = BLOCK_X;
/// block[1] = BLOCK_Y / 8;`) read at a constant index (`block[1]`, or in `dim3 b(block[0],
/// block[1])`, which parses as a declaration whose parameters are `block` with `[1]`): the one
/// constant assigned to that entry, when every assignment to the table is a plain one at a
/// constant index and that entry gets one value.
fn table_entry<'t>(node: Node<'t>, classifier: &Classifier<'_, 't>) -> Option<i128> {
    let source = classifier.source;
    let (table, index) = match node.node_kind() {
        "subscript_expression" => {
            let table = strip(node.field("argument")?, source);
            let index = node.field("indices").and_then(|i| i.named_child(0))?;
            (table, index)
        }
        // the declaration's parameter stands for its type
        "type_identifier" => {
            let parameter = node.parent()?;
            if parameter.node_kind() != "parameter_declaration" {
                return None;
            }
            let declarator = parameter.field("declarator")?;
            if declarator.node_kind() != "abstract_array_declarator" {
                return None;
            }
            (node, declarator.field("size")?)
        }
        _ => return None,
    };
    if !matches!(table.node_kind(), "identifier" | "type_identifier")
        || index.node_kind() != "number_literal"
    {
        return None;
    }
    let wanted = size::parse_number(text(index, source))?;
    let values = classifier.locals.elements.get(text(table, source))?;
    let mut entry = None;
    for value in values {
        let assignment = value.parent()?;
        if assignment.node_kind() != "assignment_expression"
            || syntax::operator(assignment, source) != "="
            || assignment.field("right") != Some(*value)
        {
            return None;
        }
        let left = strip(assignment.field("left")?, source);
        let at = left.field("indices").and_then(|i| i.named_child(0))?;
        if at.node_kind() != "number_literal" {
            return None;
        }
        if size::parse_number(text(at, source))? == wanted {
            if entry.is_some() {
                return None;
            }
            entry = Some(*value);
        }
    }
    constant(entry?, classifier)
}

/// A block dimension's value, when it is a constant.
pub(super) fn constant<'t>(node: Node<'t>, classifier: &Classifier<'_, 't>) -> Option<i128> {
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source: classifier.source,
        scope: &scope,
        fold_sizeof: true,
    };
    let node = strip(node, classifier.source);
    if let Some(value) = table_entry(node, classifier) {
        return Some(value);
    }
    // `dim3 threads(TILE, TILE)` parses as a declaration: its components are type names
    if node.node_kind() == "type_identifier" {
        let name = text(node, classifier.source);
        return match scope.definition(name) {
            Some(value) => evaluator.eval(value)?.as_constant(),
            None => size::parse_number(scope.define(name)?.trim()),
        };
    }
    evaluator.eval(node)?.as_constant()
}
