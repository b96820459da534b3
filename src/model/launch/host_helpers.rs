//! What a host helper tells the launches that call it: the multiple or rounding it returns, the
//! grid it returns or assigns to a `dim3` its caller hands it. Each helper is read once, on its
//! own, so that every launch through it reads its caller's arguments into the same summary.

use super::*;

/// What a helper's value is a multiple of: `pad(n, p)` returning `((n + p - 1) / p) * p` is a
/// multiple of its argument `p`; `tiles(n)` returning `n / 64 * 64` a multiple of 64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReturnedMultiple {
    Constant(i128),
    Argument(usize),
}

/// What `function`'s single `return` is a product with: one of its parameters, or a constant
/// (a literal, or a shift by one).
pub fn returned_multiple_of(
    function: &crate::model::Function,
    source: &str,
) -> Option<ReturnedMultiple> {
    let returned: Vec<Node> = syntax::return_values(function.body)
        .into_iter()
        .flatten()
        .collect();
    // `if (padding == 0) return size;` guards a division by the multiple: a call that passes a
    // multiple other than zero never takes it
    let (guarded, rest): (Vec<Node>, Vec<Node>) = returned
        .into_iter()
        .partition(|value| returns_when_a_parameter_is_zero(*value, function, source));
    let [value] = rest.as_slice() else {
        return None;
    };
    let answer = multiple_in_return(*value, function, source)?;
    match answer {
        ReturnedMultiple::Argument(position) => {
            let zero_tested =
                |value: &Node| zero_tested_parameter(*value, function, source) == Some(position);
            guarded.iter().all(zero_tested).then_some(answer)
        }
        ReturnedMultiple::Constant(_) => guarded.is_empty().then_some(answer),
    }
}

/// The parameter an `if (p == 0)` (or `!p`) around a `return` tests.
fn zero_tested_parameter(
    value: Node,
    function: &crate::model::Function,
    source: &str,
) -> Option<usize> {
    let statement = value.up()?;
    let branch = match statement.up()? {
        block if block.node_kind() == "compound_statement" => block.up()?,
        other => other,
    };
    if branch.node_kind() != "if_statement" {
        return None;
    }
    let condition = strip(syntax::condition_value(branch.field("condition")?), source);
    let tested = match condition.node_kind() {
        "binary_expression" if syntax::operator(condition, source) == "==" => {
            let (left, right) = (condition.field("left")?, condition.field("right")?);
            if text(strip(right, source), source) == "0" {
                left
            } else if text(strip(left, source), source) == "0" {
                right
            } else {
                return None;
            }
        }
        "unary_expression" if syntax::operator(condition, source) == "!" => {
            condition.field("argument")?
        }
        _ => return None,
    };
    let name = text(strip(tested, source), source);
    function.parameters.iter().position(|p| p.name == name)
}

fn returns_when_a_parameter_is_zero(
    value: Node,
    function: &crate::model::Function,
    source: &str,
) -> bool {
    zero_tested_parameter(value, function, source).is_some()
}

/// What the returned `value` is a product with.
fn multiple_in_return(
    value: Node,
    function: &crate::model::Function,
    source: &str,
) -> Option<ReturnedMultiple> {
    let value = strip(value, source);
    if value.node_kind() != "binary_expression" {
        return None;
    }
    let (left, right) = (value.field("left")?, value.field("right")?);
    match syntax::operator(value, source) {
        "*" => [left, right].into_iter().find_map(|side| {
            let side = strip(side, source);
            match side.node_kind() {
                "identifier" => function
                    .parameters
                    .iter()
                    .position(|p| p.name == text(side, source))
                    .map(ReturnedMultiple::Argument),
                "number_literal" => size::parse_number(text(side, source))
                    .filter(|v| *v > 1)
                    .map(ReturnedMultiple::Constant),
                _ => None,
            }
        }),
        "<<" => size::parse_number(text(strip(right, source), source))
            .filter(|shift| (1..=30).contains(shift))
            .map(|shift| ReturnedMultiple::Constant(1 << shift)),
        _ => None,
    }
}

/// What a host helper leaves in a `dim3` its caller hands it by reference (`void
/// grid_for(dim3& grid, dim3& block, int rows) { grid.x = rows; block.x = 256; }`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AssignedDim3 {
    /// Per axis, what it is as a grid; None where the helper does not assign it (the caller's
    /// value stays).
    pub grid: [Option<GridAxis>; 3],
    /// Per axis, its constant value where the helper assigns one on every path.
    pub constant: [Option<i128>; 3],
}

impl AssignedDim3 {
    /// What either of two helpers of one name leaves (the one a call runs is not known): an
    /// axis one assigns and the other does not is unknown.
    pub fn join(self, other: AssignedDim3) -> AssignedDim3 {
        let mut joined = self;
        for axis in 0..3 {
            joined.grid[axis] = match (joined.grid[axis].take(), other.grid[axis].clone()) {
                (None, None) => None,
                (Some(a), Some(b)) => Some(grid::join(a, b)),
                _ => Some(GridAxis::Unknown),
            };
            if joined.constant[axis] != other.constant[axis] {
                joined.constant[axis] = None;
            }
        }
        joined
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundingHelper {
    /// Returns `ceil(args[k] / ...)`.
    RoundsUp { total: usize },
    /// Its body is visible and does not round up.
    Other,
}

/// What a function returns, when it is a rounding division of its parameters: the shape of its
/// single `return` (after locals defined once are substituted).
pub fn rounding_helper(function: &crate::model::Function, source: &str) -> RoundingHelper {
    // a rounding division is a line or two; longer bodies are not read for one
    if function.body.byte_range().len() > 400 || function.parameters.len() < 2 {
        return RoundingHelper::Other;
    }
    let returns: Vec<Node> = syntax::return_values(function.body)
        .into_iter()
        .flatten()
        .collect();
    let [value] = returns.as_slice() else {
        return RoundingHelper::Other;
    };
    struct NoHelpers;
    impl GridHelpers for NoHelpers {
        fn rounds_up(&self, _: &str, _: usize) -> Option<RoundingHelper> {
            None
        }
        fn define(&self, _: &str) -> Option<&str> {
            None
        }
    }
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers: &NoHelpers,
        constants_divide: true,
    };
    match classifier.axis(*value, 0) {
        GridAxis::RoundedUp(total) => function
            .parameters
            .iter()
            .position(|p| p.name == total)
            .map(|total| RoundingHelper::RoundsUp { total })
            .unwrap_or(RoundingHelper::Other),
        _ => RoundingHelper::Other,
    }
}

/// The grid a launch's configuration argument holds when it is the value of a host helper that
/// returns one (`dim3 grid = grid_for(b, h, s);` or the call itself): each axis as the helper
/// computes it.
pub(super) fn returned_grid<'t>(
    classifier: &Classifier<'_, 't>,
    grid: Node<'t>,
) -> Option<[GridAxis; 3]> {
    let source = classifier.source;
    let mut node = strip(grid, source);
    if node.node_kind() == "identifier" {
        node = match classifier.locals.value_at(text(node, source), node, source) {
            Held::One(value) => strip(value, source),
            _ => return None,
        };
    }
    if node.node_kind() != "call_expression" {
        return None;
    }
    let function = node.field("function")?;
    let name = text(function, source);
    if matches!(name, "dim3" | "make_uint3" | "make_int3") {
        return None;
    }
    let arguments = syntax::call_arguments(node);
    let mut axes = classifier.helpers.returned_grid(name, arguments.len())?;
    // an extent the helper was given is the argument the call passes for it
    for axis in &mut axes {
        if let GridAxis::RoundedUp(total) = axis {
            if let Some(position) = total
                .strip_prefix(HELPER_PARAMETER)
                .and_then(|p| p.parse::<usize>().ok())
            {
                *axis = match arguments.get(position) {
                    Some(argument) => GridAxis::RoundedUp(normalized(*argument, source)),
                    None => GridAxis::Unknown,
                };
            }
        }
    }
    Some(axes)
}

/// A grid axis a helper gives, with an extent that is one of its parameters replaced by the
/// argument the call passes there.
pub(super) fn in_caller(axis: GridAxis, arguments: &[Node], source: &str) -> GridAxis {
    match &axis {
        GridAxis::RoundedUp(total) => match total
            .strip_prefix(HELPER_PARAMETER)
            .and_then(|p| p.parse::<usize>().ok())
        {
            Some(position) => match arguments.get(position) {
                Some(argument) => GridAxis::RoundedUp(normalized(*argument, source)),
                None => GridAxis::Unknown,
            },
            None => axis,
        },
        _ => axis,
    }
}

/// Marks an extent that is a grid helper's parameter, by position, in what the helper returns.
const HELPER_PARAMETER: &str = "\u{1}parameter ";

/// What a host function that returns a `dim3` gives on each axis: its single `return` of
/// `{x, y}`, `dim3(x, y)` or a local `dim3` built so, each component classified with the
/// function's own locals (its parameters are the caller's sizes). None for any other function.
pub fn returned_grid_of(
    function: &crate::model::Function,
    source: &str,
    helpers: &dyn GridHelpers,
) -> Option<[GridAxis; 3]> {
    // a grid helper is a few lines; longer bodies are not read for one
    if function.body.byte_range().len() > 2000 || function.kind != crate::model::FunctionKind::Host
    {
        return None;
    }
    let returns_dim3 = function
        .definition
        .field("type")
        .is_some_and(|t| text(t, source) == "dim3");
    if !returns_dim3 {
        return None;
    }
    let returns = syntax::return_values(function.body);
    let [Some(value)] = returns.as_slice() else {
        return None;
    };
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers,
        constants_divide: true,
    };
    let parts = components(&classifier, Some(*value));
    let grid_name = strip(*value, source);
    let grid_name = (grid_name.node_kind() == "identifier").then_some(grid_name);
    let mut axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    for (axis, slot) in axes.iter_mut().enumerate() {
        let assigned = match grid_name {
            Some(g) => locals.component_at(text(g, source), AXIS_NAMES[axis], g, source),
            None => Held::NotLocal,
        };
        *slot = match (assigned, parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => classifier.axis(value, 0),
            (Held::Alternatives(values), _) => classifier.alternatives(&values, 0),
            (Held::Several, _) => GridAxis::Unknown,
            (Held::NotLocal, Some(part)) => classifier.axis(part, 0),
            // a component left out of the list is 1
            (Held::NotLocal, None) if parts.iter().any(Option::is_some) => GridAxis::Exact,
            (Held::NotLocal, None) => GridAxis::Unknown,
        };
        if let GridAxis::RoundedUp(total) = slot {
            if let Some(position) = function.parameters.iter().position(|p| p.name == *total) {
                *slot = GridAxis::RoundedUp(format!("{HELPER_PARAMETER}{position}"));
            }
        }
    }
    Some(axes)
}

/// What a host function assigns to the components of its parameter at `position` when that is
/// a `dim3` taken by reference or pointer (`grid.x = rows;`, `block->x = 256;`): each axis
/// classified as a grid with the function's own locals (its parameters are the caller's sizes;
/// an extent that is one is marked by its position), and its constant where a single
/// assignment in the function's outermost block gives one. None for any other function or
/// parameter, or when the function assigns none of its components.
pub fn assigned_dim3_of(
    function: &crate::model::Function,
    position: usize,
    source: &str,
    helpers: &dyn GridHelpers,
) -> Option<AssignedDim3> {
    // a grid helper is a few lines; longer bodies are not read for one
    if function.body.byte_range().len() > 2000 || function.kind != crate::model::FunctionKind::Host
    {
        return None;
    }
    let parameter = function.parameters.get(position)?;
    let declared = text(parameter.declaration, source);
    let by_reference = declared.contains('&') || parameter.is_pointer;
    if parameter.type_text.trim() != "dim3" || !by_reference {
        return None;
    }
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers,
        constants_divide: true,
    };
    let mut assigned = AssignedDim3 {
        grid: [None, None, None],
        constant: [None, None, None],
    };
    for (axis, field) in AXIS_NAMES.iter().enumerate() {
        let Some(values) = locals.components.get(&(parameter.name.as_str(), *field)) else {
            continue;
        };
        // every value assigned is one the caller may see (a later one hides an earlier one
        // only on its own path)
        let mut grid = if values
            .iter()
            .any(|v| crate::model::reaching::updates_itself(*v, source))
        {
            GridAxis::Unknown
        } else {
            classifier.alternatives(values, 0)
        };
        if let GridAxis::RoundedUp(total) = &grid {
            if let Some(at) = function.parameters.iter().position(|p| p.name == *total) {
                grid = GridAxis::RoundedUp(format!("{HELPER_PARAMETER}{at}"));
            }
        }
        assigned.grid[axis] = Some(grid);
        if let [value] = values.as_slice() {
            let outermost = value
                .up()
                .filter(|a| a.node_kind() == "assignment_expression")
                .and_then(|a| a.up())
                .and_then(|s| s.up())
                .is_some_and(|block| block.id() == function.body.id());
            if outermost {
                assigned.constant[axis] = constant(*value, &classifier);
            }
        }
    }
    assigned
        .grid
        .iter()
        .any(Option::is_some)
        .then_some(assigned)
}

/// The helper call that sets the `dim3` local `name` before the launch `at`: the last call
/// before it that passes the local (or its address) as an argument, in a block around the
/// launch; with the callee's summary (`assigned_dim3`) when the file defines it, and where the
/// call is.
pub(super) fn set_by_helper<'t>(
    classifier: &Classifier<'_, 't>,
    name: Node<'t>,
    at: Node<'t>,
) -> Option<(AssignedDim3, Node<'t>)> {
    let source = classifier.source;
    let local = text(name, source);
    let mut last: Option<(Node<'t>, usize)> = None;
    for occurrence in classifier.locals.occurrences(local, source) {
        if occurrence.start_byte() >= at.start_byte() {
            break;
        }
        let mut argument = *occurrence;
        if let Some(address) = argument.up().filter(|p| {
            p.node_kind() == "pointer_expression" && syntax::operator(*p, source) == "&"
        }) {
            argument = address;
        }
        let Some(list) = argument.up().filter(|l| l.node_kind() == "argument_list") else {
            continue;
        };
        let Some(call) = list.up().filter(|c| c.node_kind() == "call_expression") else {
            continue;
        };
        if call.byte_range().contains(&at.start_byte()) {
            continue;
        }
        let position = syntax::call_arguments(call)
            .iter()
            .position(|a| a.id() == argument.id());
        if let Some(position) = position {
            last = Some((call, position));
        }
    }
    let (call, position) = last?;
    // the call runs on every path to the launch: its statement sits in a block around it
    let statement = call
        .up()
        .filter(|s| s.node_kind() == "expression_statement")?;
    let block = statement
        .up()
        .filter(|b| b.node_kind() == "compound_statement")?;
    if !block.byte_range().contains(&at.start_byte()) {
        return None;
    }
    let function = call.field("function")?;
    let callee = grid::callee_name(function, source);
    let short = callee.rsplit("::").next().unwrap_or(callee);
    let arity = syntax::call_arguments(call).len();
    let assigned = classifier.helpers.assigned_dim3(short, arity, position)?;
    Some((assigned, call))
}
