//! What a straight-line `__device__` helper computes, as arithmetic over its parameters' values
//! at entry: the value it returns and the values it leaves in its reference (`int& r`) and
//! pointer (`*out`) out-parameters.
//!
//! `compute3DIndices(id, nx, ny, xid, yid, zid)` assigning `zid = id / (nx * ny); yid = (id -
//! zid * nx * ny) / nx; ...` leaves `zid` holding `$0 / ($1 * $2)`; `div_mod(a, b, r)` returns
//! `$0 / $1` and leaves `r` holding `$0 - $0 / $1 * $1`. A call then acts in its caller as those
//! assignments with the caller's arguments put in for the parameters (`covered_by_value` in
//! `kernel/bounds.rs`).
//!
//! Only bodies that are a sequence of declarations, assignments and one final `return` are read:
//! a branch, a loop or a call in between could assign an out-parameter on some paths only, so
//! such a body has no straight-line summary at all. The values are owned (no tree lifetimes), so
//! a helper in a header serves the files that include it.

use crate::syntax::{named_children, operator, strip, text, NodeExt};
use rustc_hash::FxHashMap;
use tree_sitter::Node;

/// How deep an expression is read; deeper is unknown.
const MAX_VALUE_DEPTH: usize = 24;
/// The most operations one value may hold: substituting locals into each other grows them.
const MAX_VALUE_SIZE: usize = 64;
/// Statements read in one body.
const MAX_STATEMENTS: usize = 64;

/// An integer value as arithmetic over the helper's parameters at entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelperValue {
    Constant(i128),
    /// The value the parameter (by position) had when the helper was called.
    Parameter(usize),
    Negate(Box<HelperValue>),
    Binary(Operation, Box<HelperValue>, Box<HelperValue>),
    /// A launch coordinate or dimension the helper reads itself (`threadIdx.x`, `gridDim.y`), as
    /// written: `get_global_index()` returns `blockIdx.x * blockDim.x + threadIdx.x`.
    Launch(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
    Remainder,
}

impl Operation {
    fn of(op: &str) -> Option<Operation> {
        Some(match op {
            "+" | "+=" => Operation::Add,
            "-" | "-=" => Operation::Subtract,
            "*" | "*=" => Operation::Multiply,
            "/" | "/=" => Operation::Divide,
            "%" | "%=" => Operation::Remainder,
            _ => return None,
        })
    }

    #[cfg(test)]
    fn symbol(self) -> &'static str {
        match self {
            Operation::Add => "+",
            Operation::Subtract => "-",
            Operation::Multiply => "*",
            Operation::Divide => "/",
            Operation::Remainder => "%",
        }
    }
}

impl HelperValue {
    /// The operations and leaves it holds.
    pub fn size(&self) -> usize {
        match self {
            HelperValue::Constant(_) | HelperValue::Parameter(_) | HelperValue::Launch(_) => 1,
            HelperValue::Negate(inner) => 1 + inner.size(),
            HelperValue::Binary(_, left, right) => 1 + left.size() + right.size(),
        }
    }

    /// `(a + b - 1) / b`, `(a + (b - 1)) / b` or `(a - 1) / b + 1` over two parameters: the
    /// positions of `a` and `b` of a division rounded up.
    pub fn rounding_division(&self) -> Option<(usize, usize)> {
        use HelperValue::{Binary, Constant, Parameter};
        match self {
            Binary(Operation::Divide, numerator, divisor) => {
                let Parameter(b) = **divisor else {
                    return None;
                };
                let mut terms = Vec::new();
                numerator.signed_terms(true, &mut terms);
                let mut total = None;
                let (mut divisors, mut ones) = (0, 0);
                for (positive, term) in terms {
                    match (positive, term) {
                        (true, Parameter(p)) if *p == b && divisors == 0 => divisors += 1,
                        (false, Constant(1)) => ones += 1,
                        (true, Constant(-1)) => ones += 1,
                        (true, Parameter(p)) if total.is_none() => total = Some(*p),
                        _ => return None,
                    }
                }
                (divisors == 1 && ones == 1).then_some((total?, b))
            }
            // `(a - 1) / b + 1`
            Binary(Operation::Add, left, right) if **right == Constant(1) => match &**left {
                Binary(Operation::Divide, numerator, divisor) => match (&**numerator, &**divisor) {
                    (Binary(Operation::Subtract, a, one), Parameter(b)) if **one == Constant(1) => {
                        match **a {
                            Parameter(a) => Some((a, *b)),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// The terms of a chain of `+` and `-`, each with its sign.
    fn signed_terms<'v>(&'v self, positive: bool, terms: &mut Vec<(bool, &'v HelperValue)>) {
        match self {
            HelperValue::Binary(Operation::Add, left, right) => {
                left.signed_terms(positive, terms);
                right.signed_terms(positive, terms);
            }
            HelperValue::Binary(Operation::Subtract, left, right) => {
                left.signed_terms(positive, terms);
                right.signed_terms(!positive, terms);
            }
            _ => terms.push((positive, self)),
        }
    }

    /// The value as C source with `arguments[i]` (each parenthesised) for parameter `i`: the
    /// expression a call computes, in its caller's terms (what the tests compare). None when an
    /// argument is missing.
    #[cfg(test)]
    pub fn render(&self, arguments: &[&str]) -> Option<String> {
        Some(match self {
            HelperValue::Constant(k) => k.to_string(),
            HelperValue::Parameter(p) => format!("({})", arguments.get(*p)?.trim()),
            HelperValue::Launch(name) => name.clone(),
            HelperValue::Negate(inner) => format!("(-{})", inner.render(arguments)?),
            HelperValue::Binary(op, left, right) => format!(
                "({} {} {})",
                left.render(arguments)?,
                op.symbol(),
                right.render(arguments)?
            ),
        })
    }
}

/// A straight-line helper's effect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StraightLine {
    /// The returned value; None when it returns nothing or what it returns is not arithmetic
    /// over its parameters.
    pub returned: Option<HelperValue>,
    /// Each out-parameter the body assigns (by position), with the value it holds on return:
    /// None when that value is not arithmetic over the parameters (the caller's variable is
    /// then overwritten with something unknown). In parameter order.
    pub assigned: Vec<(usize, Option<HelperValue>)>,
}

/// A parameter as the reading needs it.
pub struct ParameterShape<'s> {
    pub name: &'s str,
    /// Written through by the caller's variable: a non-const reference.
    pub is_out_reference: bool,
    pub is_pointer: bool,
}

/// What a body names while it is read: a local or by-value parameter's current value, or
/// an out-parameter's (by position).
#[derive(Default)]
struct State {
    /// Current values by name (None: assigned something not arithmetic).
    values: FxHashMap<String, Option<HelperValue>>,
    /// Out-parameters written, by position, in first-write order.
    written: Vec<usize>,
}

/// The straight-line effect of `body` (a compound statement) for a function with `parameters`;
/// None when the body is not straight-line.
pub fn straight_line(
    body: Node,
    parameters: &[ParameterShape],
    source: &str,
) -> Option<StraightLine> {
    if body.node_kind() != "compound_statement" {
        return None;
    }
    let mut state = State::default();
    for (position, parameter) in parameters.iter().enumerate() {
        if !parameter.is_pointer {
            state.values.insert(
                parameter.name.to_string(),
                Some(HelperValue::Parameter(position)),
            );
        }
    }
    let pointee = |node: Node| -> Option<usize> {
        // `*out` for a pointer parameter `out`
        let node = strip(node, source);
        if node.node_kind() != "pointer_expression" || operator(node, source) != "*" {
            return None;
        }
        let argument = strip(node.field("argument")?, source);
        let name = text(argument, source);
        parameters
            .iter()
            .position(|p| p.is_pointer && p.name == name)
    };
    let mut returned = None;
    for (count, statement) in named_children(body).enumerate() {
        if count >= MAX_STATEMENTS {
            return None;
        }
        match statement.node_kind() {
            "comment" => {}
            "declaration" => {
                for declarator in named_children(statement) {
                    let (name, value) = match declarator.node_kind() {
                        "init_declarator" => {
                            let target = declarator.field("declarator")?;
                            if target.node_kind() != "identifier" {
                                return None;
                            }
                            let value = declarator.field("value")?;
                            (text(target, source), value_of(value, &state, source, 0))
                        }
                        "identifier" => (text(declarator, source), None),
                        // the type and its qualifiers
                        kind if kind.ends_with("type_identifier")
                            || kind == "primitive_type"
                            || kind == "sized_type_specifier"
                            || kind == "type_qualifier"
                            || kind == "qualified_identifier"
                            || kind == "template_type"
                            || kind == "storage_class_specifier" =>
                        {
                            continue
                        }
                        _ => return None,
                    };
                    // a local shadowing an out-parameter is no write of it
                    if parameters
                        .iter()
                        .any(|p| p.name == name && (p.is_out_reference || p.is_pointer))
                    {
                        return None;
                    }
                    state.values.insert(name.to_string(), value);
                }
            }
            "expression_statement" => {
                let expression = named_children(statement).find(|c| c.node_kind() != "comment")?;
                if expression.node_kind() != "assignment_expression" {
                    return None;
                }
                let left = strip(expression.field("left")?, source);
                let right = expression.field("right")?;
                let op = operator(expression, source);
                let (key, position) = if left.node_kind() == "identifier" {
                    let name = text(left, source);
                    if !state.values.contains_key(name) {
                        return None; // a global or a member: not the helper's to summarise
                    }
                    let position = parameters
                        .iter()
                        .position(|p| p.name == name && p.is_out_reference);
                    (name.to_string(), position)
                } else {
                    let position = pointee(left)?;
                    (
                        format!("*{}", parameters.get(position)?.name),
                        Some(position),
                    )
                };
                let assigned = value_of(right, &state, source, 0);
                let value = if op == "=" {
                    assigned
                } else {
                    // `*out += v` before any write reads what the caller left there: unknown
                    let current = state.values.get(&key).cloned().flatten();
                    match (Operation::of(op), current, assigned) {
                        (Some(operation), Some(current), Some(assigned)) => Some(
                            HelperValue::Binary(operation, Box::new(current), Box::new(assigned)),
                        ),
                        _ => None,
                    }
                };
                let value = value.filter(|v| v.size() <= MAX_VALUE_SIZE);
                if let Some(position) = position {
                    if !state.written.contains(&position) {
                        state.written.push(position);
                    }
                }
                state.values.insert(key, value);
            }
            "return_statement" => {
                returned = named_children(statement)
                    .find(|c| c.node_kind() != "comment")
                    .and_then(|value| value_of(value, &state, source, 0));
                // what follows a top-level return never runs
                break;
            }
            _ => return None,
        }
    }
    let mut assigned: Vec<(usize, Option<HelperValue>)> = state
        .written
        .iter()
        .filter_map(|&position| {
            let parameter = parameters.get(position)?;
            let key = if parameter.is_pointer {
                format!("*{}", parameter.name)
            } else {
                parameter.name.to_string()
            };
            Some((position, state.values.get(&key).cloned().flatten()))
        })
        .collect();
    assigned.sort_by_key(|(position, _)| *position);
    Some(StraightLine { returned, assigned })
}

/// `node` as arithmetic over the parameters at entry, reading names through their current
/// values; None when it is anything else (a call, a global, a pointer's target, a float).
fn value_of(node: Node, state: &State, source: &str, depth: usize) -> Option<HelperValue> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    let node = strip(node, source);
    let value = match node.node_kind() {
        "number_literal" => {
            let literal = text(node, source);
            // a floating-point constant is no index arithmetic
            if literal.contains('.')
                || (!literal.starts_with("0x") && !literal.starts_with("0X"))
                    && literal.contains(['e', 'E'])
            {
                return None;
            }
            HelperValue::Constant(crate::model::size::parse_number(literal)?)
        }
        "identifier" => state.values.get(text(node, source))?.clone()?,
        "field_expression" => {
            let object = text(node.field("argument")?, source);
            let axis = text(node.field("field")?, source);
            if !matches!(object, "threadIdx" | "blockIdx" | "blockDim" | "gridDim")
                || !matches!(axis, "x" | "y" | "z")
            {
                return None;
            }
            HelperValue::Launch(format!("{object}.{axis}"))
        }
        "pointer_expression" if operator(node, source) == "*" => {
            let argument = strip(node.field("argument")?, source);
            state
                .values
                .get(&format!("*{}", text(argument, source)))?
                .clone()?
        }
        "unary_expression" => {
            let argument = value_of(node.field("argument")?, state, source, depth + 1)?;
            match operator(node, source) {
                "-" => HelperValue::Negate(Box::new(argument)),
                "+" => argument,
                _ => return None,
            }
        }
        "binary_expression" => {
            let operation = Operation::of(operator(node, source))?;
            let left = value_of(node.field("left")?, state, source, depth + 1)?;
            let right = value_of(node.field("right")?, state, source, depth + 1)?;
            HelperValue::Binary(operation, Box::new(left), Box::new(right))
        }
        _ => return None,
    };
    (value.size() <= MAX_VALUE_SIZE).then_some(value)
}

#[cfg(test)]
mod tests {
    use crate::model::Model;
    use crate::source::{self, LineIndex};
    use std::path::Path;

    /// What a call returns and, by out-parameter position, what it leaves there.
    type Effect = (Option<String>, Vec<(usize, Option<String>)>);

    /// The straight-line effect of the function `name` in `text`, with the caller's argument
    /// texts put in.
    fn effect(text: &str, name: &str, arguments: &[&str]) -> Option<Effect> {
        let view = source::preprocess(text, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = LineIndex::new(text);
        let model = Model::build(Path::new("t.cu"), text, &view, &tree, &lines, &[]);
        let summary = model
            .device_functions
            .get(name, arguments.len())
            .unwrap_or_else(|| panic!("no summary of {name}"));
        let line = summary.straight_line.as_ref()?;
        Some((
            line.returned.as_ref().and_then(|v| v.render(arguments)),
            line.assigned
                .iter()
                .map(|(p, v)| (*p, v.as_ref().and_then(|v| v.render(arguments))))
                .collect(),
        ))
    }

    /// The positions of `a` and `b` when the helper `name` returns `a / b` rounded up.
    fn rounding_division(text: &str, name: &str) -> Option<(usize, usize)> {
        let view = source::preprocess(text, &[]);
        let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
        let lines = LineIndex::new(text);
        let model = Model::build(Path::new("t.cu"), text, &view, &tree, &lines, &[]);
        let summary = model.device_functions.get(name, 2)?;
        summary
            .straight_line
            .as_ref()?
            .returned
            .as_ref()?
            .rounding_division()
    }

    #[test]
    fn divisions_rounded_up() {
        let cases = [
            (
                "__device__ unsigned f(unsigned a, unsigned b) { return (a + b - 1) / b; }",
                Some((0, 1)),
            ),
            (
                "__device__ int f(int a, int b) { return (a + (b - 1)) / b; }",
                Some((0, 1)),
            ),
            (
                "__device__ int f(int b, int a) { return (b - 1 + a) / b; }",
                Some((1, 0)),
            ),
            (
                "__device__ int f(int a, int b) { return (a - 1) / b + 1; }",
                Some((0, 1)),
            ),
            (
                "__device__ int f(int a, int b) { return (a + b) / b; }",
                None,
            ),
            (
                "__device__ int f(int a, int b) { return (a + b - 2) / b; }",
                None,
            ),
            ("__device__ int f(int a, int b) { return a / b; }", None),
        ];
        for (text, expected) in cases {
            assert_eq!(rounding_division(text, "f"), expected, "{text}");
        }
    }

    #[test]
    fn launch_coordinates_a_helper_reads_itself() {
        let text = "__device__ long get_global_index(void) { return blockIdx.x * blockDim.x + threadIdx.x; }\n\
                    __device__ int lane_of(int base) { return base + threadIdx.w; }";
        let (returned, _) = effect(text, "get_global_index", &[]).expect("straight");
        assert_eq!(
            returned.as_deref(),
            Some("((blockIdx.x * blockDim.x) + threadIdx.x)")
        );
        // no launch coordinate has a `w`: not arithmetic the model reads
        let (returned, _) = effect(text, "lane_of", &["b"]).expect("straight");
        assert_eq!(returned, None);
    }

    #[test]
    fn coordinates_written_through_references() {
        let text =
            "__host__ __device__ inline void compute3DIndices(int const &id, int const &nx,\n\
                    int const &ny, int &xid, int &yid, int &zid) {\n\
                      zid = id / (nx * ny);\n\
                      yid = (id - zid * nx * ny) / nx;\n\
                      xid = id - zid * nx * ny - yid * nx;\n\
                    }";
        let (returned, assigned) =
            effect(text, "compute3DIndices", &["t", "w", "h", "x", "y", "z"]).expect("straight");
        assert_eq!(returned, None);
        let z = "((t) / ((w) * (h)))";
        let y = format!("(((t) - (({z} * (w)) * (h))) / (w))");
        let x = format!("(((t) - (({z} * (w)) * (h))) - ({y} * (w)))");
        assert_eq!(
            assigned,
            vec![(3, Some(x)), (4, Some(y)), (5, Some(z.to_string()))]
        );
        // the const references are read, never written
        let summary_parameters: Vec<usize> = assigned.iter().map(|(p, _)| *p).collect();
        assert!(!summary_parameters.contains(&0));
    }

    #[test]
    fn a_quotient_returned_and_its_remainder_written_back() {
        let text = "__device__ unsigned div_mod(unsigned a, unsigned b, unsigned& r) {\n\
                      unsigned q = a / b;\n\
                      r = a - q * b;\n\
                      return q;\n\
                    }\n\
                    __device__ void split(int i, int n, int* q, int* r) { *q = i / n; *r = i % n; }\n\
                    __device__ void bump(int& acc, int v) { acc += v * 2; }";
        let (returned, assigned) = effect(text, "div_mod", &["idx", "FW", "fw"]).expect("straight");
        assert_eq!(returned.as_deref(), Some("((idx) / (FW))"));
        assert_eq!(
            assigned,
            vec![(2, Some("((idx) - (((idx) / (FW)) * (FW)))".to_string()))]
        );
        let (_, assigned) = effect(text, "split", &["i", "n", "&a", "&b"]).expect("straight");
        assert_eq!(
            assigned,
            vec![
                (2, Some("((i) / (n))".to_string())),
                (3, Some("((i) % (n))".to_string()))
            ]
        );
        // an in-out reference reads what the caller's variable held
        let (_, assigned) = effect(text, "bump", &["s", "k"]).expect("straight");
        assert_eq!(assigned, vec![(0, Some("((s) + ((k) * 2))".to_string()))]);
    }

    #[test]
    fn only_straight_line_bodies_are_read() {
        let text = "__device__ void maybe(int i, int n, int& r) { if (i < n) r = i; }\n\
                    __device__ void loop(int i, int& r) { for (int k = 0; k < 4; ++k) r = i; }\n\
                    __device__ void calls(int i, int& r) { other(i); r = i; }\n\
                    __device__ void opaque(int i, int& r, const int* t) { r = t[i]; }\n\
                    __device__ int early(int i, int& r) { r = i; return i; r = 0; }\n\
                    __device__ float ratio(float a, float& r) { r = a * 0.5f; return a; }";
        assert_eq!(effect(text, "maybe", &["i", "n", "r"]), None);
        assert_eq!(effect(text, "loop", &["i", "r"]), None);
        assert_eq!(effect(text, "calls", &["i", "r"]), None);
        // written with a value that is no arithmetic over the parameters: overwritten, unknown
        let (_, assigned) = effect(text, "opaque", &["i", "r", "t"]).expect("straight");
        assert_eq!(assigned, vec![(1, None)]);
        // a statement after a top-level return never runs
        let (returned, assigned) = effect(text, "early", &["i", "r"]).expect("straight");
        assert_eq!(returned.as_deref(), Some("(i)"));
        assert_eq!(assigned, vec![(1, Some("(i)".to_string()))]);
        let (_, assigned) = effect(text, "ratio", &["a", "r"]).expect("straight");
        assert_eq!(assigned, vec![(1, None)]);
    }

    #[test]
    fn values_stay_small() {
        // each line doubles the value: past the size limit it is unknown, not huge
        let mut body = String::from("int v = i;");
        for _ in 0..10 {
            body.push_str(" v = v * v + v;");
        }
        let text = format!("__device__ void grow(int i, int& r) {{ {body} r = v; }}");
        let (_, assigned) = effect(&text, "grow", &["i", "r"]).expect("straight");
        assert_eq!(assigned, vec![(1, None)]);
    }
}
