//! Launch geometry: for each launch site, how each grid axis relates to the problem it covers,
//! the block shape, and the expression passed for each kernel parameter.
//!
//! A grid axis is *rounded up* when it is `ceil(E / B)` blocks (`(E + B - 1) / B`, `E / B + 1`,
//! `(E - 1) / B + 1`, `ceil(E / (float)B)`, a helper such as `ceil_div(E, B)` recognised by the
//! shape of its body or, when its body is not visible, by its name): threads past `E` exist, so
//! an index on that axis needs `< E`, and `E` is the bound a fix should name. It is *exact* when
//! nothing rounds it up: a constant, a problem dimension (`rows`, `B * H`), or a floor division;
//! then the threads of that axis are the problem's, and a thread index on it needs no guard.
//! Anything else (a block count computed where the analysis cannot see, a `max`, a conditional)
//! is *unknown*, and the kernel is judged as if the launch were not visible.

use crate::syntax::{self, named_children, normalized, operator, strip, text, NodeExt, MAX_DEPTH};
use rustc_hash::FxHashMap as HashMap;
use std::ops::Range;
use std::path::PathBuf;
use tree_sitter::Node;

/// The three launch axes, as a bit set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Axes(u8);

impl Axes {
    pub const NONE: Axes = Axes(0);
    pub const ALL: Axes = Axes(0b111);

    pub fn of(axis: usize) -> Axes {
        Axes(1 << axis.min(2))
    }
    /// The axis named by a field: `x`, `y` or `z`.
    pub fn from_field(field: &str) -> Axes {
        match field {
            "x" => Axes(1),
            "y" => Axes(2),
            "z" => Axes(4),
            _ => Axes::NONE,
        }
    }
    pub fn union(self, other: Axes) -> Axes {
        Axes(self.0 | other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..3).filter(move |axis| self.0 & (1 << axis) != 0)
    }
}

pub const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GridAxis {
    /// Not rounded up: a constant, a problem dimension, or a floor division.
    Exact,
    /// `ceil(E / B)` blocks; holds `E` as written at the launch (normalized).
    RoundedUp(String),
    /// Computed where the analysis cannot see, or in a way that may leave threads over.
    Unknown,
}

/// One launch of a kernel, owned so the project index can hold it across files.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaunchSite {
    pub kernel: String,
    /// The number of arguments; None for `cudaLaunchKernel`, whose arguments are an array.
    pub arity: Option<usize>,
    pub path: PathBuf,
    pub span: Range<usize>,
    /// 1-based.
    pub line: usize,
    pub grid: [GridAxis; 3],
    /// Constant block dimensions.
    pub block: [Option<i128>; 3],
    /// Each argument's text, normalized, with a local defined once replaced by its definition's
    /// text where that is how the grid names it.
    pub arguments: Vec<String>,
}

impl LaunchSite {
    /// Whether every axis in `axes` is exact: a thread index on those axes stays inside the
    /// problem the launch covers.
    pub fn exact_on(&self, axes: Axes) -> bool {
        !axes.is_empty() && axes.iter().all(|axis| self.grid[axis] == GridAxis::Exact)
    }

    /// The position of the argument that carries the rounded-up extent `E` of `axis`.
    pub fn bound_argument(&self, axis: usize) -> Option<usize> {
        let GridAxis::RoundedUp(total) = &self.grid[axis] else {
            return None;
        };
        self.arguments.iter().position(|a| a == total)
    }

    /// The same launch for the kernel's facts, wherever it now sits in its file.
    pub fn same_geometry(&self, other: &LaunchSite) -> bool {
        self.kernel == other.kernel
            && self.arity == other.arity
            && self.path == other.path
            && self.grid == other.grid
            && self.block == other.block
            && self.arguments == other.arguments
    }

    pub fn location(&self) -> String {
        format!("{}:{}", self.path.display(), self.line)
    }
}

/// A function's locals: each name with the values assigned to it (declaration first), and the
/// `dim3` ones declared with constructor arguments.
#[derive(Default)]
struct Locals<'t> {
    values: HashMap<&'t str, Vec<Node<'t>>>,
    dim3: HashMap<&'t str, Node<'t>>,
    /// `grid.x = e` after the declaration.
    components: HashMap<(&'t str, &'t str), Vec<Node<'t>>>,
}

impl<'t> Locals<'t> {
    fn of(body: Node<'t>, source: &'t str) -> Locals<'t> {
        let mut locals = Locals::default();
        syntax::walk_iterative(body, |node| {
            match node.node_kind() {
                // `dim3 grid(rows);` parses as a function declaration
                "function_declarator"
                    if node
                        .parent()
                        .and_then(|d| d.field("type"))
                        .is_some_and(|t| text(t, source) == "dim3") =>
                {
                    let name = node.field("declarator").map(|n| text(n, source));
                    if let (Some(name), Some(parameters)) = (name, node.field("parameters")) {
                        locals.dim3.insert(name, parameters);
                    }
                }
                "init_declarator" => {
                    let name = node
                        .field("declarator")
                        .and_then(syntax::declarator_name)
                        .map(|n| text(n, source));
                    if let (Some(name), Some(value)) = (name, node.field("value")) {
                        if value.node_kind() == "argument_list"
                            || value.node_kind() == "initializer_list"
                        {
                            locals.dim3.insert(name, value);
                        } else {
                            locals.values.entry(name).or_default().push(value);
                        }
                    }
                }
                "assignment_expression" => {
                    let (Some(left), Some(right)) = (node.field("left"), node.field("right"))
                    else {
                        return true;
                    };
                    let left = strip(left, source);
                    let compound = operator(node, source) != "=";
                    match left.node_kind() {
                        "identifier" => {
                            let values = locals.values.entry(text(left, source)).or_default();
                            values.push(if compound { left } else { right });
                        }
                        "field_expression" => {
                            let object = left.field("argument").map(|a| text(a, source));
                            let field = left.field("field").map(|f| text(f, source));
                            if let (Some(object), Some(field)) = (object, field) {
                                let values = locals.components.entry((object, field)).or_default();
                                values.push(if compound { left } else { right });
                            }
                        }
                        _ => {}
                    }
                }
                "update_expression" => {
                    if let Some(argument) = node.field("argument") {
                        let argument = strip(argument, source);
                        if argument.node_kind() == "identifier" {
                            locals
                                .values
                                .entry(text(argument, source))
                                .or_default()
                                .push(argument);
                        }
                    }
                }
                "lambda_expression" => return false,
                _ => {}
            }
            true
        });
        locals
    }

    /// The one value of a local assigned once.
    fn single(&self, name: &str) -> Option<Node<'t>> {
        match self.values.get(name).map(Vec::as_slice) {
            Some([value]) => Some(*value),
            _ => None,
        }
    }
}

/// What the file says of the helpers a grid may be computed with.
pub trait GridHelpers {
    /// For a function `name` with `arity` arguments: Some(k) when it returns its argument `k`
    /// divided by another and rounded up; None when it is not such a helper or is not visible.
    fn rounds_up(&self, name: &str, arity: usize) -> Option<RoundingHelper>;
    /// The value of an object-like `#define`.
    fn define(&self, name: &str) -> Option<&str>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundingHelper {
    /// Returns `ceil(args[k] / ...)`.
    RoundsUp { total: usize },
    /// Its body is visible and does not round up.
    Other,
}

struct Classifier<'a, 't> {
    source: &'t str,
    locals: &'a Locals<'t>,
    helpers: &'a dyn GridHelpers,
}

impl<'t> Classifier<'_, 't> {
    fn text(&self, node: Node) -> &'t str {
        text(node, self.source)
    }

    fn axis(&self, node: Node<'t>, depth: usize) -> GridAxis {
        if depth > 16 {
            return GridAxis::Unknown;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "number_literal" => GridAxis::Exact,
            "identifier" | "type_identifier" => {
                let name = self.text(node);
                if let Some(value) = self.locals.single(name) {
                    return self.axis(value, depth + 1);
                }
                if self.locals.values.contains_key(name) {
                    return GridAxis::Unknown; // assigned more than once
                }
                if self.helpers.define(name).is_some() {
                    return GridAxis::Exact;
                }
                if names_a_block_count(name) {
                    GridAxis::Unknown // a count of blocks computed by the caller
                } else {
                    GridAxis::Exact // a problem dimension: rows, batch, heads
                }
            }
            "field_expression" | "qualified_identifier" => {
                let last = node
                    .field("field")
                    .or_else(|| node.field("name"))
                    .map(|f| self.text(f))
                    .unwrap_or("");
                // `grid.x` is a block count set elsewhere; `dimsB.x` a problem dimension
                let object = node
                    .field("argument")
                    .map(|a| self.text(a))
                    .unwrap_or("");
                let component = matches!(last, "x" | "y" | "z");
                if names_a_block_count(last) || (component && names_a_block_count(object)) {
                    GridAxis::Unknown
                } else {
                    GridAxis::Exact // `x.size(0)`, `params.rows`, `dims.x`
                }
            }
            "binary_expression" => self.binary(node, depth),
            "call_expression" => self.call(node, depth),
            _ => GridAxis::Unknown,
        }
    }

    fn binary(&self, node: Node<'t>, depth: usize) -> GridAxis {
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return GridAxis::Unknown;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        match operator(node, self.source) {
            "/" | ">>" => {
                if let Some(total) =
                    self.rounded_numerator(left, right, operator(node, self.source) == ">>")
                {
                    return GridAxis::RoundedUp(total);
                }
                // a floor division (`width / dimBlock.x`) never adds threads, whatever it
                // divides by; a division by a float (`n / 176.f`) is not a floor
                if self.is_fractional(right) {
                    return GridAxis::Unknown;
                }
                self.axis(left, depth + 1)
            }
            "+" => {
                // `n / 176.f + 0.5` rounds to nearest: it may round up
                if self.is_fractional(left) || self.is_fractional(right) {
                    return GridAxis::Unknown;
                }
                // `E / B + 1`, `(E - 1) / B + 1`, `E / B + (E % B != 0)`
                if let Some(total) = self.floor_plus_one(left, right) {
                    return GridAxis::RoundedUp(total);
                }
                self.both(left, right, depth)
            }
            "*" | "-" | "<<" => self.both(left, right, depth),
            _ => GridAxis::Unknown,
        }
    }

    /// A floating-point literal, or an expression with one (`176.f`, `0.5`, `n / 2.0`).
    fn is_fractional(&self, node: Node<'t>) -> bool {
        let mut found = false;
        syntax::walk_iterative(node, |n| {
            if n.node_kind() == "number_literal" {
                let literal = self.text(n).to_ascii_lowercase();
                found |= !literal.starts_with("0x")
                    && (literal.contains('.') || literal.contains('e') || literal.ends_with('f'));
            }
            !found
        });
        found
    }

    fn both(&self, left: Node<'t>, right: Node<'t>, depth: usize) -> GridAxis {
        match (self.axis(left, depth + 1), self.axis(right, depth + 1)) {
            (GridAxis::Exact, GridAxis::Exact) => GridAxis::Exact,
            (GridAxis::RoundedUp(total), GridAxis::Exact)
            | (GridAxis::Exact, GridAxis::RoundedUp(total)) => GridAxis::RoundedUp(total),
            _ => GridAxis::Unknown,
        }
    }

    /// `(E + B - 1) / B`, `(E + (B - 1)) / B`, `(E + B - 1) >> k`: E, normalized.
    fn rounded_numerator(&self, left: Node<'t>, right: Node<'t>, shift: bool) -> Option<String> {
        let terms = sum_terms(left, self.source);
        if terms.len() < 2 {
            return None;
        }
        let divisor = normalized(right, self.source);
        let is_divisor_minus_one = |term: &(bool, Node<'t>)| {
            let node = strip(term.1, self.source);
            node.node_kind() == "binary_expression"
                && operator(node, self.source) == "-"
                && node
                    .field("right")
                    .is_some_and(|r| self.text(r).trim() == "1")
                && node
                    .field("left")
                    .is_some_and(|l| normalized(l, self.source) == divisor)
        };
        let is_one = |term: &(bool, Node<'t>)| !term.0 && self.text(term.1).trim() == "1";
        let is_divisor =
            |term: &(bool, Node<'t>)| term.0 && normalized(term.1, self.source) == divisor;
        // a sum whose other terms are `B - 1`, or `B` and `- 1`, or a constant for a shift
        let mut rest: Vec<&(bool, Node<'t>)> = terms.iter().collect();
        if let Some(at) = rest.iter().position(|t| is_divisor_minus_one(t)) {
            rest.remove(at);
        } else if let (Some(b), Some(_)) = (
            rest.iter().position(|t| is_divisor(t)),
            rest.iter().position(|t| is_one(t)),
        ) {
            rest.remove(b);
            let one = rest.iter().position(|t| is_one(t))?;
            rest.remove(one);
        } else if self.text(right).trim().parse::<u32>().is_ok() {
            // `(E + 255) >> 8`, `(E + 255) / 256`: a constant one below the divisor
            let constant = rest
                .iter()
                .position(|t| t.0 && self.text(t.1).trim().parse::<i128>().is_ok())?;
            let value: i128 = self.text(rest[constant].1).trim().parse().ok()?;
            let shift_or_divisor: i128 = self.text(right).trim().parse().ok()?;
            let expected = if shift {
                (1i128 << shift_or_divisor.clamp(0, 62)) - 1
            } else {
                shift_or_divisor - 1
            };
            if value != expected {
                return None;
            }
            rest.remove(constant);
        } else {
            return None;
        }
        match rest.as_slice() {
            [(true, total)] => Some(normalized(*total, self.source)),
            _ => None,
        }
    }

    /// `E / B + 1`, `(E - 1) / B + 1`, `E / B + (E % B != 0)`, `E / B + (E % B ? 1 : 0)`.
    fn floor_plus_one(&self, left: Node<'t>, right: Node<'t>) -> Option<String> {
        let (quotient, extra) = if self.is_quotient(left) {
            (left, right)
        } else if self.is_quotient(right) {
            (right, left)
        } else {
            return None;
        };
        let numerator = strip(quotient.field("left")?, self.source);
        let extra_text = normalized(extra, self.source);
        let remainder_test = extra_text.contains('%');
        if extra_text != "1" && !remainder_test {
            return None;
        }
        // `(E - 1) / B + 1`
        if numerator.node_kind() == "binary_expression"
            && operator(numerator, self.source) == "-"
            && numerator
                .field("right")
                .is_some_and(|r| self.text(r).trim() == "1")
        {
            return numerator.field("left").map(|l| normalized(l, self.source));
        }
        Some(normalized(numerator, self.source))
    }

    fn is_quotient(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        node.node_kind() == "binary_expression" && operator(node, self.source) == "/"
    }

    fn call(&self, node: Node<'t>, depth: usize) -> GridAxis {
        let Some(function) = node.field("function") else {
            return GridAxis::Unknown;
        };
        let name = callee_name(function, self.source);
        let arguments: Vec<Node<'t>> = node
            .field("arguments")
            .map(|a| {
                named_children(a)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        match name {
            "dim3" | "static_cast" | "int" | "unsigned" | "size_t" | "uint32_t" | "int64_t"
            | "int32_t" | "uint64_t" | "long" => {
                return match arguments.as_slice() {
                    [only] => self.axis(*only, depth + 1),
                    _ => GridAxis::Unknown,
                };
            }
            "ceil" | "ceilf" | "std::ceil" => {
                return match arguments.as_slice() {
                    [quotient] => {
                        let quotient = strip(*quotient, self.source);
                        if self.is_quotient(quotient) {
                            quotient
                                .field("left")
                                .map(|l| GridAxis::RoundedUp(normalized(l, self.source)))
                                .unwrap_or(GridAxis::Unknown)
                        } else {
                            GridAxis::Unknown
                        }
                    }
                    _ => GridAxis::Unknown,
                };
            }
            // fewer blocks than an exact grid stay inside the problem
            "min" | "std::min" | "MIN" | "umin" => {
                let axes: Vec<GridAxis> =
                    arguments.iter().map(|a| self.axis(*a, depth + 1)).collect();
                // a cap on a rounded-up count (`min(ceil_div(n, B), 4096)`) still rounds up
                return if let Some(rounded) =
                    axes.iter().find(|a| matches!(a, GridAxis::RoundedUp(_)))
                {
                    rounded.clone()
                } else if axes.contains(&GridAxis::Exact) {
                    GridAxis::Exact
                } else {
                    GridAxis::Unknown
                };
            }
            _ => {}
        }
        let short = name.rsplit("::").next().unwrap_or(name);
        match self.helpers.rounds_up(short, arguments.len()) {
            Some(RoundingHelper::RoundsUp { total }) => arguments
                .get(total)
                .map(|a| GridAxis::RoundedUp(normalized(*a, self.source)))
                .unwrap_or(GridAxis::Unknown),
            Some(RoundingHelper::Other) => GridAxis::Unknown,
            None if names_a_rounding_division(short) => arguments
                .first()
                .map(|a| GridAxis::RoundedUp(normalized(*a, self.source)))
                .unwrap_or(GridAxis::Unknown),
            None => GridAxis::Unknown,
        }
    }
}

/// The terms of a chain of `+`/`-`, each with its sign (true for added).
fn sum_terms<'t>(node: Node<'t>, source: &str) -> Vec<(bool, Node<'t>)> {
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

/// `n_blocks`, `gridSize`, `num_blocks`, `blk`: a count of blocks, not a problem dimension.
fn names_a_block_count(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["block", "blk", "grid", "cta"]
        .iter()
        .any(|w| lower.contains(w))
}

/// `ceil_div`, `DIV_UP`, `cdiv`, `divUp`, `iDivUp`, `GET_BLOCKS`: when the body is not visible,
/// the name is all there is.
fn names_a_rounding_division(name: &str) -> bool {
    let lower: String = name
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    [
        "ceildiv",
        "divup",
        "cdiv",
        "divceil",
        "roundup",
        "divroundup",
        "getblocks",
        "numblocks",
        "blocksfor",
        "ceil",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

fn callee_name<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    match function.node_kind() {
        "template_function" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        _ => text(function, source),
    }
}

/// What a function returns, when it is a rounding division of its parameters: the shape of its
/// single `return` (after locals defined once are substituted).
pub fn rounding_helper(function: &super::Function, source: &str) -> RoundingHelper {
    // a rounding division is a line or two; longer bodies are not read for one
    if function.body.byte_range().len() > 400 || function.parameters.len() < 2 {
        return RoundingHelper::Other;
    }
    let mut returns = Vec::new();
    syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "return_statement" {
            if let Some(value) = node.named_child(0) {
                returns.push(value);
            }
            return false;
        }
        node.node_kind() != "lambda_expression"
    });
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

/// Every launch in `function` (`k<<<g, b>>>(...)`, `cudaLaunchKernel`, `cudaLaunchCooperativeKernel`).
pub fn launches_in(
    function: &super::Function,
    source: &str,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
    helpers: &dyn GridHelpers,
) -> Vec<LaunchSite> {
    // most functions launch nothing: a look at the text spares the walk
    let body = source.get(function.body.byte_range()).unwrap_or("");
    if !body.contains("<<<") && !body.contains("cudaLaunch") {
        return Vec::new();
    }
    let mut calls = Vec::new();
    syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "call_expression" {
            let is_triple_chevron =
                named_children(node).any(|c| c.node_kind() == "kernel_call_syntax");
            let api = node
                .field("function")
                .map(|f| text(f, source))
                .filter(|name| matches!(*name, "cudaLaunchKernel" | "cudaLaunchCooperativeKernel"));
            if is_triple_chevron || api.is_some() {
                calls.push((node, is_triple_chevron));
            }
        }
        true
    });
    if calls.is_empty() {
        return Vec::new();
    }
    let locals = Locals::of(function.body, source);
    let classifier = Classifier {
        source,
        locals: &locals,
        helpers,
    };
    calls
        .into_iter()
        .filter_map(|(call, chevron)| launch_site(&classifier, call, chevron, path, lines))
        .collect()
}

/// The three components of a `dim3` (a local declared with arguments, `dim3(...)`, `{...}`), or
/// the expression itself as `x`.
fn components<'t>(
    classifier: &Classifier<'_, 't>,
    node: Option<Node<'t>>,
) -> Vec<Option<Node<'t>>> {
    let source = classifier.source;
    let Some(node) = node.map(|n| strip(n, source)) else {
        return vec![None, None, None];
    };
    let list = match node.node_kind() {
        "identifier" => {
            let name = text(node, source);
            let declared = classifier.locals.dim3.get(name).copied();
            match (
                declared,
                classifier.locals.values.get(name).map(Vec::as_slice),
            ) {
                (Some(list), None) => Some(list),
                // `dim3 grid; grid = dim3(w / 16, h / 16);`
                // (a scalar grid is classified as an expression)
                (None, Some([value])) => dim3_arguments(strip(*value, source), source),
                // declared with a shape and assigned again: which one a launch sees is not known
                (Some(_), Some(_)) => return vec![None, None, None],
                _ => None,
            }
        }
        _ => dim3_arguments(node, source),
    };
    match list {
        Some(list) => {
            let parts: Vec<Node> = named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .map(|c| match c.node_kind() {
                    "parameter_declaration" => c.field("type").unwrap_or(c),
                    _ => c,
                })
                .collect();
            (0..3).map(|i| parts.get(i).copied()).collect()
        }
        None => vec![Some(node), None, None],
    }
}

/// The components of `dim3(a, b)` or `{a, b}`.
fn dim3_arguments<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    match node.node_kind() {
        "call_expression"
            if node
                .field("function")
                .is_some_and(|f| text(f, source) == "dim3") =>
        {
            node.field("arguments")
        }
        "initializer_list" => Some(node),
        _ => None,
    }
}

/// The kernel a launch names: `k`, `k<T>`, `ns::k`.
pub fn launched_kernel<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    match function.node_kind() {
        "template_function" | "qualified_identifier" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        _ => text(function, source),
    }
}

fn launch_site<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
    chevron: bool,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
) -> Option<LaunchSite> {
    let source = classifier.source;
    let arguments: Vec<Node> = call
        .field("arguments")
        .map(|a| {
            named_children(a)
                .filter(|c| c.node_kind() != "comment")
                .collect()
        })
        .unwrap_or_default();
    let (kernel, grid, block, kernel_arguments) = if chevron {
        let function = call.field("function")?;
        let kernel = launched_kernel(function, source);
        let config: Vec<Node> = named_children(call)
            .find(|c| c.node_kind() == "kernel_call_syntax")
            .map(|k| {
                named_children(k)
                    .filter(|c| c.node_kind() != "comment")
                    .collect()
            })
            .unwrap_or_default();
        (
            kernel,
            config.first().copied(),
            config.get(1).copied(),
            Some(arguments),
        )
    } else {
        let kernel_node = strip(*arguments.first()?, source);
        let mut kernel_node = kernel_node;
        // `(void*)k`, `reinterpret_cast<void*>(&k)`, `&k`
        for _ in 0..4 {
            kernel_node = strip(kernel_node, source);
            match kernel_node.node_kind() {
                "pointer_expression" | "cast_expression" => {
                    kernel_node = kernel_node
                        .field("argument")
                        .or_else(|| kernel_node.field("value"))?
                }
                "call_expression" => {
                    kernel_node = kernel_node.field("arguments")?.named_child(0)?
                }
                _ => break,
            }
        }
        let kernel = launched_kernel(kernel_node, source);
        (
            kernel,
            arguments.get(1).copied(),
            arguments.get(2).copied(),
            None,
        )
    };
    if kernel.is_empty() {
        return None;
    }
    let grid_parts = components(classifier, grid);
    let block_parts = components(classifier, block);
    let grid_name = grid
        .map(|g| strip(g, source))
        .filter(|g| g.node_kind() == "identifier")
        .map(|g| text(g, source));
    let mut grid_axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    for (axis, slot) in grid_axes.iter_mut().enumerate() {
        // `grid.y = ...` after the declaration: that assignment is what counts
        let assigned =
            grid_name.and_then(|g| classifier.locals.components.get(&(g, AXIS_NAMES[axis])));
        *slot = match (
            assigned.map(Vec::as_slice),
            grid_parts.get(axis).copied().flatten(),
        ) {
            (Some([value]), _) => classifier.axis(*value, 0),
            (Some(_), _) => GridAxis::Unknown,
            (None, Some(part)) => classifier.axis(part, 0),
            (None, None) if grid.is_some() && grid_parts.iter().any(Option::is_some) => {
                GridAxis::Exact
            } // dim3 default 1
            (None, None) => GridAxis::Unknown,
        };
    }
    let mut block_dims = [None, None, None];
    for (axis, slot) in block_dims.iter_mut().enumerate() {
        *slot = match block_parts.get(axis).copied().flatten() {
            Some(part) => constant(part, classifier, 0),
            None if block.is_some() && block_parts.iter().any(Option::is_some) => Some(1),
            None => None,
        };
    }
    let arity = kernel_arguments.as_ref().map(Vec::len);
    let arguments = kernel_arguments
        .unwrap_or_default()
        .into_iter()
        .map(|a| normalized(a, source))
        .collect();
    Some(LaunchSite {
        kernel: kernel.to_string(),
        arity,
        path: path.to_path_buf(),
        span: call.byte_range(),
        line: lines.line_of(call.start_byte()) + 1,
        grid: grid_axes,
        block: block_dims,
        arguments,
    })
}

fn constant(node: Node, classifier: &Classifier, depth: usize) -> Option<i128> {
    if depth > MAX_DEPTH.min(16) {
        return None;
    }
    let source = classifier.source;
    let node = strip(node, source);
    match node.node_kind() {
        "number_literal" => parse_integer(text(node, source)),
        "identifier" | "type_identifier" => {
            let name = text(node, source);
            if let Some(value) = classifier.locals.single(name) {
                return constant(value, classifier, depth + 1);
            }
            classifier.helpers.define(name).and_then(parse_integer)
        }
        "binary_expression" => {
            let left = constant(node.field("left")?, classifier, depth + 1)?;
            let right = constant(node.field("right")?, classifier, depth + 1)?;
            match operator(node, source) {
                "*" => left.checked_mul(right),
                "+" => left.checked_add(right),
                "-" => left.checked_sub(right),
                "/" if right != 0 => Some(left / right),
                "<<" if (0..62).contains(&right) => left.checked_mul(1 << right),
                _ => None,
            }
        }
        _ => None,
    }
}

fn parse_integer(text: &str) -> Option<i128> {
    let trimmed = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        return i128::from_str_radix(hex, 16).ok();
    }
    trimmed.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sites(source: &str) -> Vec<LaunchSite> {
        let view = crate::source::preprocess(source, &[]);
        let tree = crate::engine::parse(&view.text, None).expect("parse");
        let lines = crate::source::LineIndex::new(source);
        let model = super::super::Model::build(
            std::path::Path::new("t.cu"),
            source,
            &view,
            &tree,
            &lines,
            &[],
        );
        model.launch_sites.clone()
    }

    fn grid_of(source: &str) -> [GridAxis; 3] {
        let found = sites(source);
        assert_eq!(found.len(), 1, "{found:?}");
        found[0].grid.clone()
    }

    fn rounded(total: &str) -> GridAxis {
        GridAxis::RoundedUp(total.to_string())
    }

    #[test]
    fn grids_rounded_up_name_the_extent_they_cover() {
        for (launch, total) in [
            ("k<<<(n + 255) / 256, 256>>>(p, n);", "n"),
            ("k<<<(n + B - 1) / B, B>>>(p, n);", "n"),
            ("k<<<(n + (B - 1)) / B, B>>>(p, n);", "n"),
            ("k<<<n / B + 1, B>>>(p, n);", "n"),
            ("k<<<(n - 1) / B + 1, B>>>(p, n);", "n"),
            ("k<<<n / B + (n % B != 0), B>>>(p, n);", "n"),
            ("k<<<(n + 255) >> 8, 256>>>(p, n);", "n"),
            ("k<<<ceil(n / (float)B), B>>>(p, n);", "n"),
            ("k<<<DIV_UP(n, B), B>>>(p, n);", "n"),
            ("k<<<ceil_div(n, B), B>>>(p, n);", "n"),
            (
                "int blocks = (n + 127) / 128; k<<<blocks, 128>>>(p, n);",
                "n",
            ),
        ] {
            let source = format!("void f(float* p, int n, int B) {{ {launch} }}");
            assert_eq!(grid_of(&source)[0], rounded(total), "{launch}");
        }
    }

    #[test]
    fn exact_grids_and_unknown_ones() {
        for (launch, expected) in [
            ("k<<<rows, 256>>>(p, rows);", GridAxis::Exact),
            ("k<<<B * H, head_size>>>(p, B, H);", GridAxis::Exact),
            ("k<<<n / 256, 256>>>(p, n);", GridAxis::Exact),
            ("k<<<64, 256>>>(p, n);", GridAxis::Exact),
            (
                "dim3 grid(rows); dim3 block(1, 256, 1); k<<<grid, block>>>(p, rows);",
                GridAxis::Exact,
            ),
            ("k<<<num_blocks, 256>>>(p, n);", GridAxis::Unknown),
            ("k<<<max(1, n / 256), 256>>>(p, n);", GridAxis::Unknown),
            (
                "int g = 1; if (n > 4) g = n; k<<<g, 256>>>(p, n);",
                GridAxis::Unknown,
            ),
            (
                "k<<<min(ceil_div(n, 256), 4096), 256>>>(p, n);",
                rounded("n"),
            ),
        ] {
            let source = format!("void f(float* p, int n, int rows, int B, int H, int head_size, int num_blocks, dim3 dims, int log2N, Config cfg) {{ {launch} }}");
            assert_eq!(grid_of(&source)[0], expected, "{launch}");
        }
    }

    #[test]
    fn two_dimensional_grids_keep_each_axis() {
        let grid = grid_of(
            "void f(float* c, int M, int N) { dim3 block(16, 16); dim3 grid((N + 15) / 16, (M + 15) / 16); mm<<<grid, block>>>(c, M, N); }",
        );
        assert_eq!(grid, [rounded("N"), rounded("M"), GridAxis::Exact]);
        let site = &sites(
            "void f(float* c, int M, int N) { dim3 block(16, 16); dim3 grid((N + 15) / 16, (M + 15) / 16); mm<<<grid, block>>>(c, M, N); }",
        )[0];
        assert_eq!(site.block, [Some(16), Some(16), Some(1)]);
        assert_eq!(site.bound_argument(0), Some(2));
        assert_eq!(site.bound_argument(1), Some(1));
    }

    #[test]
    fn helpers_are_recognised_by_the_shape_of_their_body() {
        let grid = grid_of(
            "static int blocks_for(int total, int per) { return (total + per - 1) / per; }\nvoid f(float* p, int n) { k<<<blocks_for(n, 128), 128>>>(p, n); }",
        );
        assert_eq!(grid[0], rounded("n"));
        // a visible helper that does not round up is not taken on its name
        let grid = grid_of(
            "static int ceil_div(int a, int b) { return a / b; }\nvoid f(float* p, int n) { k<<<ceil_div(n, 128), 128>>>(p, n); }",
        );
        assert_eq!(grid[0], GridAxis::Unknown);
    }

    #[test]
    fn cuda_launch_kernel_is_a_launch_site() {
        let found = sites(
            "void f(float* p, int n) { void* args[] = {&p, &n}; cudaLaunchKernel((const void*)k, dim3((n + 255) / 256), dim3(256), args, 0, 0); }",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kernel, "k");
        assert_eq!(found[0].arity, None);
        assert_eq!(found[0].grid[0], rounded("n"));
    }

    /// The kernel model's side: an index every launch keeps inside the problem is bounded, and
    /// a rounded-up launch names the kernel parameter it passes as the extent.
    #[test]
    fn kernel_facts_read_the_launches() {
        use crate::model::IndexStatus;
        let kernel = "__global__ void k(float* out, int rows) { int r = blockIdx.x * blockDim.x + threadIdx.x; out[r] = 0; }\n";
        let status = |launches: &str| {
            let source = format!("{kernel}void f(float* d, int n) {{ {launches} }}");
            let view = crate::source::preprocess(&source, &[]);
            let tree = crate::engine::parse(&view.text, None).expect("parse");
            let lines = crate::source::LineIndex::new(&source);
            let model = super::super::Model::build(
                std::path::Path::new("t.cu"),
                &source,
                &view,
                &tree,
                &lines,
                &[],
            );
            let (function, facts) = model.kernel_facts().next().expect("kernel");
            let access = facts.accesses.first().expect("access");
            match &access.status {
                IndexStatus::Bounded { .. } => "bounded".to_string(),
                IndexStatus::Unguarded { axes, .. } => {
                    let bound = facts.launch_bound(function, *axes);
                    format!(
                        "unguarded, bound {:?}, {} unsafe",
                        bound.parameter.map(|p| p.name.clone()),
                        bound.unsafe_launches.len()
                    )
                }
                other => format!("{other:?}"),
            }
        };
        assert_eq!(status(""), "unguarded, bound None, 0 unsafe");
        assert_eq!(status("k<<<n, 1>>>(d, n);"), "bounded");
        assert_eq!(status("dim3 b(1, 64); k<<<n, b>>>(d, n);"), "bounded");
        assert_eq!(
            status("k<<<(n + 63) / 64, 64>>>(d, n);"),
            "unguarded, bound Some(\"rows\"), 1 unsafe"
        );
        assert_eq!(
            status("k<<<n, 1>>>(d, n); k<<<(n + 63) / 64, 64>>>(d, n);"),
            "unguarded, bound Some(\"rows\"), 1 unsafe"
        );
        assert_eq!(
            status("k<<<pick(n), 64>>>(d, n);"),
            "unguarded, bound None, 1 unsafe"
        );
    }
}
