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
                (Some(a), Some(b)) => Some(join_for_callers(a, b)),
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
    let parameters: Vec<&str> = function
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    if let Some(total) = quotient_counted_up(*value, &parameters, function.body, source) {
        return RoundingHelper::RoundsUp { total };
    }
    rounding_of(*value, &parameters, function.body, source)
}

/// `num = a / b; if (a % b > 0) num++; return num;`: a quotient of two parameters, counted one
/// up where the division leaves a remainder, is `a / b` rounded up (the position of `a`). The
/// returned local is defined by the quotient and by that one step, nothing else.
fn quotient_counted_up(
    value: Node,
    parameters: &[&str],
    body: Node,
    source: &str,
) -> Option<usize> {
    let value = strip(value, source);
    if value.node_kind() != "identifier" {
        return None;
    }
    let name = text(value, source);
    let mut quotient = None;
    let mut steps = Vec::new();
    let mut others = 0;
    syntax::walk_iterative(body, |node| {
        match node.node_kind() {
            "init_declarator"
                if node
                    .field("declarator")
                    .is_some_and(|d| text(d, source) == name) =>
            {
                match node.field("value") {
                    Some(v) if quotient.is_none() => quotient = Some(v),
                    _ => others += 1,
                }
            }
            "update_expression"
                if node
                    .field("argument")
                    .is_some_and(|a| text(a, source) == name) =>
            {
                if syntax::operator(node, source) == "++" {
                    steps.push(node)
                } else {
                    others += 1
                }
            }
            "assignment_expression"
                if node.field("left").is_some_and(|l| text(l, source) == name) =>
            {
                match (syntax::operator(node, source), node.field("right")) {
                    ("+=", Some(r)) if text(r, source) == "1" => steps.push(node),
                    ("=", Some(v)) if quotient.is_none() => quotient = Some(v),
                    _ => others += 1,
                }
            }
            _ => {}
        }
        true
    });
    let [step] = steps.as_slice() else {
        return None;
    };
    let quotient = strip(quotient?, source);
    if others > 0
        || quotient.node_kind() != "binary_expression"
        || syntax::operator(quotient, source) != "/"
    {
        return None;
    }
    let (total, divisor) = (
        text(strip(quotient.field("left")?, source), source),
        text(strip(quotient.field("right")?, source), source),
    );
    // the step is taken where the same division leaves a remainder
    let mut child = *step;
    let mut tested = false;
    while let Some(parent) = child.up() {
        if parent.id() == body.id() {
            break;
        }
        if parent.node_kind() == "if_statement"
            && parent.field("consequence") == Some(child)
            && parent
                .field("condition")
                .is_some_and(|c| leaves_a_remainder(c, total, divisor, source))
        {
            tested = true;
            break;
        }
        child = parent;
    }
    (tested && parameters.contains(&divisor))
        .then(|| parameters.iter().position(|p| *p == total))
        .flatten()
}

/// Whether `condition` holds exactly where `total % divisor` is not zero: `total % divisor`,
/// `total % divisor != 0`, `total % divisor > 0` (or the same with the sides swapped).
fn leaves_a_remainder(condition: Node, total: &str, divisor: &str, source: &str) -> bool {
    let condition = strip(syntax::condition_value(condition), source);
    // `total OP divisor`, as written
    let of_the_two = |node: Node, op: &str| {
        let node = strip(node, source);
        node.node_kind() == "binary_expression"
            && syntax::operator(node, source) == op
            && node
                .field("left")
                .is_some_and(|l| text(strip(l, source), source) == total)
            && node
                .field("right")
                .is_some_and(|r| text(strip(r, source), source) == divisor)
    };
    let is_remainder = |node: Node| of_the_two(node, "%");
    let below_the_divisor = |node: Node| of_the_two(node, "<");
    if is_remainder(condition) {
        return true;
    }
    let (Some(left), Some(right)) = (condition.field("left"), condition.field("right")) else {
        return false;
    };
    let is_zero = |node: Node| text(strip(node, source), source) == "0";
    match syntax::operator(condition, source) {
        // `a < b || a % b > 0`: a positive total below the divisor is its own remainder
        "||" => {
            let leaves = |side: Node| leaves_a_remainder(side, total, divisor, source);
            (leaves(left) && (leaves(right) || below_the_divisor(right)))
                || (below_the_divisor(left) && leaves(right))
        }
        "!=" => (is_remainder(left) && is_zero(right)) || (is_zero(left) && is_remainder(right)),
        ">" => is_remainder(left) && is_zero(right),
        "<" => is_zero(left) && is_remainder(right),
        _ => false,
    }
}

/// What a function-like macro computes from its parameters, read as a helper that returns its
/// body: `DIVIDE(x, size)` defined as `(((x) + (size) - 1) / (size))` rounds `x` up.
pub fn macro_rounding_helper(parameters: &[&str], body: &str) -> RoundingHelper {
    if body.len() > 400 || parameters.len() < 2 {
        return RoundingHelper::Other;
    }
    let source = format!("long long rounding_macro() {{ return {body}; }}");
    let Some(tree) = syntax::parse(&source) else {
        return RoundingHelper::Other;
    };
    let root = tree.root_node();
    if root.has_error() {
        return RoundingHelper::Other;
    }
    let Some(function_body) = root
        .named_child(0)
        .and_then(|definition| definition.field("body"))
    else {
        return RoundingHelper::Other;
    };
    let returns: Vec<Node> = syntax::return_values(function_body)
        .into_iter()
        .flatten()
        .collect();
    match returns.as_slice() {
        [value] => rounding_of(*value, parameters, function_body, &source),
        _ => RoundingHelper::Other,
    }
}

/// Whether `value`, computed in `body` from `parameters`, rounds one of them up to whole blocks.
fn rounding_of(value: Node, parameters: &[&str], body: Node, source: &str) -> RoundingHelper {
    struct NoHelpers;
    impl GridHelpers for NoHelpers {
        fn rounds_up(&self, _: &str, _: usize) -> Option<RoundingHelper> {
            None
        }
        fn define(&self, _: &str) -> Option<&str> {
            None
        }
    }
    let locals = Locals::of(body, source);
    let classifier = Classifier::reading_threads(source, &locals, &NoHelpers);
    match classifier.axis(value, 0) {
        GridAxis::RoundedUp(total) => parameters
            .iter()
            .position(|p| *p == total)
            .map(|total| RoundingHelper::RoundsUp { total })
            .unwrap_or(RoundingHelper::Other),
        _ => RoundingHelper::Other,
    }
}

/// The grid a launch's configuration argument holds when it is the value of a host helper that
/// returns one (`dim3 grid = grid_for(b, h, s);` or the call itself): each axis as the helper
/// computes it, with what it takes from its parameters read in the call (`in_caller`).
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
    let axes = classifier.helpers.returned_grid(name, arguments.len())?;
    Some(axes.map(|axis| in_caller(axis, &arguments, classifier)))
}

/// A grid axis a helper gives, read at the call: each of its parameters it depends on
/// (`from_parameters`) is what the call passes there, and the axis is any of them.
pub(super) fn in_caller<'t>(
    axis: GridAxis,
    arguments: &[Node<'t>],
    classifier: &Classifier<'_, 't>,
) -> GridAxis {
    let Some(uses) = from_parameters(&axis) else {
        return axis;
    };
    uses.into_iter().fold(GridAxis::Exact, |all, used| {
        let resolved = match used {
            ParameterUse::Extent(position) => match arguments.get(position) {
                Some(extent) => GridAxis::RoundedUp(normalized(*extent, classifier.source)),
                None => GridAxis::Unknown,
            },
            // what the caller passes, as the caller's locals make it: `grid_for((n + 31) / 32)`
            // rounds up, whatever the helper calls its parameter
            ParameterUse::Passed(position) => match arguments.get(position) {
                Some(passed) => classifier.axis(*passed, 0),
                None => GridAxis::Unknown,
            },
        };
        grid::join(all, resolved)
    })
}

/// How a grid helper's axis depends on one of its parameters, by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum ParameterUse {
    /// Rounded up from it: `(rows + 31) / 32`.
    Extent(usize),
    /// It is the parameter: whatever the caller passes there.
    Passed(usize),
}

/// Starts the text of a grid helper's axis that depends on its parameters: each use follows,
/// `\u{1}extent 0`, `\u{1}passed 1`, and the axis is any of them (a helper with several
/// returns, or several specialisations). Carried as a rounded-up extent that no source text
/// spells, and read back in each call (`in_caller`).
const PARAMETER_USE: char = '\u{1}';

fn marked(uses: &[ParameterUse]) -> GridAxis {
    let text: String = uses
        .iter()
        .map(|used| match used {
            ParameterUse::Extent(position) => format!("{PARAMETER_USE}extent {position}"),
            ParameterUse::Passed(position) => format!("{PARAMETER_USE}passed {position}"),
        })
        .collect();
    GridAxis::RoundedUp(text)
}

/// The parameter uses a helper's axis holds; None for an axis that names none.
fn from_parameters(axis: &GridAxis) -> Option<Vec<ParameterUse>> {
    let GridAxis::RoundedUp(total) = axis else {
        return None;
    };
    let marks = total.strip_prefix(PARAMETER_USE)?;
    marks
        .split(PARAMETER_USE)
        .map(|used| {
            let (kind, position) = used.split_once(' ')?;
            let position = position.parse().ok()?;
            match kind {
                "extent" => Some(ParameterUse::Extent(position)),
                "passed" => Some(ParameterUse::Passed(position)),
                _ => None,
            }
        })
        .collect()
}

/// What a helper's axis is when it may be either of two, for its callers: `grid::join`, except
/// that two axes from parameters are any of their uses, joined in the call once each is read
/// there (`dim3(rows)` on one path and `dim3((rows + 255) / 256)` on another round up over
/// `rows` where the caller passes an exact count).
fn join_for_callers(a: GridAxis, b: GridAxis) -> GridAxis {
    match (from_parameters(&a), from_parameters(&b)) {
        (Some(mut uses), Some(more)) => {
            uses.extend(more);
            uses.sort();
            uses.dedup();
            marked(&uses)
        }
        _ => grid::join(a, b),
    }
}

/// The parameter a helper's `value` is, by position: the parameter itself, through casts, or a
/// local defined once from it (`int x = rows;`). None when the helper assigns the parameter
/// (what it holds is then the helper's own) or `value` is anything else.
fn passed_parameter(
    value: Node,
    function: &crate::model::Function,
    locals: &Locals,
    source: &str,
) -> Option<usize> {
    let mut value = strip(value, source);
    for _ in 0..8 {
        if value.node_kind() != "identifier" {
            return None;
        }
        let name = text(value, source);
        match locals.values.get(name).map(Vec::as_slice) {
            None => return function.parameters.iter().position(|p| p.name == name),
            // its declaration's value, and no other (a value assigned later holds on its own
            // path only, and an earlier one may reach where it does not)
            Some([only]) if initializes_a_declaration(*only) => value = strip(*only, source),
            Some(_) => return None,
        }
    }
    None
}

/// `int x = v;` or `int x(v);`: `v` is the value a declaration starts its local with.
fn initializes_a_declaration(value: Node) -> bool {
    let mut parent = value.up();
    if let Some(list) =
        parent.filter(|p| matches!(p.node_kind(), "argument_list" | "initializer_list"))
    {
        parent = list.up();
    }
    parent.is_some_and(|p| p.node_kind() == "init_declarator")
}

/// What one value a helper gives a grid axis is, for its callers: the parameter it passes
/// through, or its grid with an extent that is a parameter marked by position.
fn for_callers<'t>(
    value: Node<'t>,
    function: &crate::model::Function,
    classifier: &Classifier<'_, 't>,
) -> GridAxis {
    let source = classifier.source;
    if let Some(position) = passed_parameter(value, function, classifier.locals, source) {
        return marked(&[ParameterUse::Passed(position)]);
    }
    match classifier.axis(value, 0) {
        GridAxis::RoundedUp(total) => {
            match function.parameters.iter().position(|p| p.name == total) {
                Some(position) => marked(&[ParameterUse::Extent(position)]),
                None => GridAxis::RoundedUp(total),
            }
        }
        axis => axis,
    }
}

/// `for_callers` of each of `values`, any of which may reach the caller.
fn any_for_callers<'t>(
    values: &[Node<'t>],
    function: &crate::model::Function,
    classifier: &Classifier<'_, 't>,
) -> GridAxis {
    values.iter().fold(GridAxis::Exact, |all, value| {
        join_for_callers(all, for_callers(*value, function, classifier))
    })
}

/// What a host function that returns a `dim3` gives on each axis: what every `return` of
/// `{x, y}`, `dim3(x, y)` or a local `dim3` built so gives there, joined (any of them may be the
/// one a call gets; qsim's `CreateGrid` returns `dim3(blocks)`, `dim3(x, rem)` or `dim3(x, y,
/// z)` by size). Each component is classified with the function's own locals; one that is a
/// parameter, or rounds one up, is marked by its position and read in each call (`in_caller`).
/// None for any other function.
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
    let returns: Option<Vec<Node>> = syntax::return_values(function.body).into_iter().collect();
    let returns = returns.filter(|r| !r.is_empty())?;
    let locals = Locals::of(function.body, source);
    let classifier = Classifier::reading_threads(source, &locals, helpers);
    let mut joined = [GridAxis::Exact, GridAxis::Exact, GridAxis::Exact];
    for value in returns {
        let returned = returned_axes(&classifier, function, value);
        for (all, axis) in joined.iter_mut().zip(returned) {
            *all = join_for_callers(std::mem::replace(all, GridAxis::Unknown), axis);
        }
    }
    Some(joined)
}

/// What one `return` of a `dim3` helper gives on each axis, for its callers.
fn returned_axes<'t>(
    classifier: &Classifier<'_, 't>,
    function: &crate::model::Function,
    value: Node<'t>,
) -> [GridAxis; 3] {
    let source = classifier.source;
    let parts = components(classifier, Some(value));
    let grid_name = strip(value, source);
    let grid_name = (grid_name.node_kind() == "identifier").then_some(grid_name);
    let mut axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    for (axis, slot) in axes.iter_mut().enumerate() {
        let assigned = match grid_name {
            Some(g) => classifier
                .locals
                .component_at(text(g, source), AXIS_NAMES[axis], g, source),
            None => Held::NotLocal,
        };
        *slot = match (assigned, parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => for_callers(value, function, classifier),
            (Held::Alternatives(values), _) => any_for_callers(&values, function, classifier),
            (Held::Several, _) => GridAxis::Unknown,
            (Held::NotLocal, Some(part)) => for_callers(part, function, classifier),
            // a component left out of the list is 1
            (Held::NotLocal, None) if parts.iter().any(Option::is_some) => GridAxis::Exact,
            (Held::NotLocal, None) => GridAxis::Unknown,
        };
    }
    axes
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
    let classifier = Classifier::reading_threads(source, &locals, helpers);
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
        let grid = if values
            .iter()
            .any(|v| crate::model::reaching::updates_itself(*v, source))
        {
            GridAxis::Unknown
        } else {
            any_for_callers(values, function, &classifier)
        };
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

#[cfg(test)]
mod tests {
    use super::{macro_rounding_helper, RoundingHelper};

    #[test]
    fn a_macro_that_rounds_up_is_read_by_its_body() {
        assert_eq!(
            macro_rounding_helper(&["x", "size"], "(((x) + (size) - 1) / (size))"),
            RoundingHelper::RoundsUp { total: 0 }
        );
        assert_eq!(
            macro_rounding_helper(&["b", "n"], "((n) + (b) - 1) / (b)"),
            RoundingHelper::RoundsUp { total: 1 }
        );
        assert_eq!(
            macro_rounding_helper(&["x", "y"], "((x) / (y))"),
            RoundingHelper::Other
        );
        assert_eq!(
            macro_rounding_helper(&["x", "y"], "do { x = y; } while (0)"),
            RoundingHelper::Other
        );
        assert_eq!(
            macro_rounding_helper(&["x"], "((x) + 1)"),
            RoundingHelper::Other
        );
    }
}
