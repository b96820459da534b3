//! Grid axes classified: exact, rounded up from an extent, or unknown, from the launch's
//! expressions and the locals, defines and helpers they name. How a rounding division is
//! recognised, and the constants that make one exact, are in `rounding.rs`.

use super::locals::{Held, Locals};
use super::rounding::names_a_rounding_division;
use super::{GridAxis, GridHelpers, RoundingHelper};
use crate::model::arithmetic::{truncated_ceiling, TypeContext};
use crate::syntax::{self, normalized, operator, strip, text, NodeExt};
use tree_sitter::Node;

/// What a grid axis is when it may be any of several: exact when each is, rounded up from `E`
/// when each is exact or rounded up from that same `E`, unknown otherwise.
pub fn join(a: GridAxis, b: GridAxis) -> GridAxis {
    match (a, b) {
        (GridAxis::Exact, GridAxis::Exact) => GridAxis::Exact,
        (GridAxis::RoundedUp(total), GridAxis::Exact)
        | (GridAxis::Exact, GridAxis::RoundedUp(total)) => GridAxis::RoundedUp(total),
        (GridAxis::RoundedUp(a), GridAxis::RoundedUp(b)) if a == b => GridAxis::RoundedUp(a),
        _ => GridAxis::Unknown,
    }
}

pub(super) struct Classifier<'a, 't> {
    pub(super) source: &'t str,
    pub(super) locals: &'a Locals<'t>,
    pub(super) helpers: &'a dyn GridHelpers,
    /// Whether a rounded-up grid over constants the block divides counts as exact (what the
    /// threads are); off, a rounding division is rounded up by its shape (what the code is
    /// written for, whatever the constants are today).
    pub(super) constants_divide: bool,
    /// What the calls of the launching function pass for its parameters, when they are read.
    pub(super) passed: Option<&'a super::finding::PassedFactors<'a, 't>>,
    /// The launch being read, when there is one: what its path states of a size also holds of
    /// a grid computed before it from that size (`dim3 g((n + 63) / 64); if (n % 64 == 0)
    /// k<<<g, 64>>>(...)`).
    pub(super) launch: Option<Node<'t>>,
}

impl<'a, 't> Classifier<'a, 't> {
    /// A classifier of the grids a function's own code computes, read as the threads they give
    /// (constants the block divides leave none over), with no caller's arguments put in.
    pub(super) fn reading_threads(
        source: &'t str,
        locals: &'a Locals<'t>,
        helpers: &'a dyn GridHelpers,
    ) -> Classifier<'a, 't> {
        Classifier {
            source,
            locals,
            helpers,
            constants_divide: true,
            passed: None,
            launch: None,
        }
    }
}

impl<'t> Classifier<'_, 't> {
    pub(super) fn text(&self, node: Node) -> &'t str {
        text(node, self.source)
    }

    /// Whether `node` is written as a grid rounded up from an extent, whatever its constants.
    pub(super) fn rounds_up_by_shape(&self, node: Node<'t>) -> bool {
        let by_shape = Classifier {
            constants_divide: false,
            ..*self
        };
        matches!(by_shape.axis(node, 0), GridAxis::RoundedUp(_))
    }

    pub(super) fn axis(&self, node: Node<'t>, depth: usize) -> GridAxis {
        if depth > 16 {
            return GridAxis::Unknown;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "number_literal" | "sizeof_expression" => GridAxis::Exact,
            "identifier" | "type_identifier" => {
                let name = self.text(node);
                // `dim3 gws(work[0], work[1])` parses as a declaration of array parameters
                // named by the table: an entry of it
                if node.node_kind() == "type_identifier" {
                    if let Some(entries) = self.entries(name, depth) {
                        return entries;
                    }
                }
                match self.locals.value_at(name, node, self.source) {
                    Held::One(value) => return self.whole_value(value, depth + 1),
                    // assigned on several paths (`if (n < 512) g = 1; else g = n / 512;`): every
                    // path's grid must keep the threads inside the data
                    Held::Alternatives(values) => return self.alternatives(&values, depth),
                    Held::Several => return GridAxis::Unknown,
                    Held::NotLocal => {}
                }
                if let Some(value) = self.locals.file_constants.get(name) {
                    return self.axis(*value, depth + 1);
                }
                // a macro of the file, or one of a header by its spelling (`NB_BLOCKS`,
                // `BLOCK_NUM`): a constant, the same for every launch
                if self.helpers.define(name).is_some() || names_a_macro(name) {
                    return GridAxis::Exact;
                }
                self.by_name(name)
            }
            "field_expression" | "qualified_identifier" => {
                let last = node
                    .field("field")
                    .or_else(|| node.field("name"))
                    .map(|f| self.text(f))
                    .unwrap_or("");
                // `grid.x` is a block count set elsewhere; `dimsB.x` a problem dimension
                let object = node.field("argument").map(|a| self.text(a)).unwrap_or("");
                let component = matches!(last, "x" | "y" | "z");
                if component && names_a_block_count(object) {
                    GridAxis::Unknown
                } else if names_a_block_count(last) {
                    // `set_ptr->gridDim`, assigned by the settings object's init method
                    match self.helpers.member_grid(last) {
                        Some(GridAxis::RoundedUp(total)) => {
                            GridAxis::RoundedUp(on_object(node, &total, self.source))
                        }
                        Some(axis) => axis,
                        None => GridAxis::Unknown,
                    }
                } else {
                    GridAxis::Exact // `x.size(0)`, `params.rows`, `dims.x`
                }
            }
            "binary_expression" => self.binary(node, depth),
            "call_expression" => self.call(node, depth),
            // `n % B == 0 ? n / B : n / B + 1`: either value may be the grid
            "conditional_expression" => {
                if let (true, Some(taken)) =
                    (self.constants_divide, self.arm_a_remainder_test_takes(node))
                {
                    return self.axis(taken, depth + 1);
                }
                match (node.field("consequence"), node.field("alternative")) {
                    (Some(yes), Some(no)) => {
                        join(self.axis(yes, depth + 1), self.axis(no, depth + 1))
                    }
                    _ => GridAxis::Unknown,
                }
            }
            // `sizes[i]`: an entry of a table of problem sizes, judged by the table's name, or
            // by every value the function assigns to its entries; `*ncols_in`, a size passed by
            // address (a launcher called from Fortran), is its first entry
            "subscript_expression" | "pointer_expression"
                if node.node_kind() == "subscript_expression"
                    || syntax::operator(node, self.source) == "*" =>
            {
                let Some(table) = node.field("argument").map(|t| strip(t, self.source)) else {
                    return GridAxis::Unknown;
                };
                let name = self.text(table);
                self.entries(name, depth).unwrap_or_else(|| {
                    match self.locals.value_at(name, table, self.source) {
                        // a pointer to data the function reads from elsewhere (`Params =
                        // mxGetPr(prhs[0])`): its entries are what the table is named for
                        Held::One(value)
                            if table.node_kind() == "identifier"
                                && strip(value, self.source).node_kind() == "call_expression" =>
                        {
                            self.by_name(name)
                        }
                        _ => self.axis(table, depth + 1),
                    }
                })
            }
            _ => GridAxis::Unknown,
        }
    }

    /// A name whose value the function does not show, judged by what it is named for.
    fn by_name(&self, name: &str) -> GridAxis {
        if names_a_block_count(name) {
            // a member of the launching method's class, or a count computed by the caller
            self.helpers.member_grid(name).unwrap_or(GridAxis::Unknown)
        } else {
            GridAxis::Exact // a problem dimension: rows, batch, heads
        }
    }

    /// The grid one of `values` gives, each reaching on its own path.
    pub(super) fn alternatives(&self, values: &[Node<'t>], depth: usize) -> GridAxis {
        let mut all = GridAxis::Exact;
        for value in values {
            all = join(all, self.axis(*value, depth + 1));
            if all == GridAxis::Unknown {
                break;
            }
        }
        all
    }

    /// What the entries of a local table are, from every value the function assigns to them:
    /// None when it assigns none.
    fn entries(&self, table: &str, depth: usize) -> Option<GridAxis> {
        let values = self.locals.elements.get(table)?;
        let mut all = GridAxis::Exact;
        for value in values {
            match (self.axis(*value, depth + 1), &all) {
                (GridAxis::Exact, _) => {}
                (rounded @ GridAxis::RoundedUp(_), GridAxis::Exact) => all = rounded,
                (rounded, _) if rounded == all => {}
                // rounded up from different extents: which one an entry covers is not known
                _ => return Some(GridAxis::Unknown),
            }
        }
        Some(all)
    }

    fn binary(&self, node: Node<'t>, depth: usize) -> GridAxis {
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return GridAxis::Unknown;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        match operator(node, self.source) {
            "/" | ">>" => {
                let shift = operator(node, self.source) == ">>";
                if let Some(total) = self.rounded_numerator(left, right, shift) {
                    // `(400 + 7) / 8`: constants the block divides leave no thread over
                    let divisor = super::constant(right, self).and_then(|d| match shift {
                        true => (0..62).contains(&d).then(|| 1i128 << d),
                        false => Some(d),
                    });
                    if let (true, Some(sum), Some(divisor)) =
                        (self.constants_divide, super::constant(left, self), divisor)
                    {
                        if divisor > 0 && (sum + 1) % divisor == 0 {
                            return GridAxis::Exact;
                        }
                    }
                    // `(n + 255) / 256` with `n = k * 1024`: an extent the block divides, for
                    // any `k`, leaves no thread over
                    if let (true, Some(divisor)) = (self.constants_divide, divisor) {
                        if divisor > 0
                            && self
                                .rounded_total(left, &total)
                                .is_some_and(|node| self.known_factor(node, 0) % divisor == 0)
                        {
                            return GridAxis::Exact;
                        }
                    }
                    // `(n + block.x - 1) / block.x` after a check that `block.x` divides `n`
                    if let (true, None, false) = (self.constants_divide, divisor, shift) {
                        if let Some(node) = self.rounded_total(left, &total) {
                            return self.rounded_up(node, right);
                        }
                    }
                    return GridAxis::RoundedUp(total);
                }
                // a floor division (`width / dimBlock.x`) never adds threads, whatever it
                // divides by; a division by a float (`n / 176.f`) is one only where the
                // quotient is converted whole (see `whole_value`)
                if self.is_fractional(right) {
                    return if depth == 0 {
                        self.numerator(left, depth + 1)
                    } else {
                        GridAxis::Unknown
                    };
                }
                self.numerator(left, depth + 1)
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
                // `E + (B - E % B)`: `E` padded up to a multiple of `B`
                if let Some(total) = self.padded_to_a_multiple(left, right) {
                    return GridAxis::RoundedUp(total);
                }
                self.both(left, right, depth)
            }
            // taking something away never adds blocks: `(dim - i) / B - 1` with `i` a host loop
            // counter stays inside `dim / B`
            "-" => match self.axis(left, depth + 1) {
                GridAxis::Exact if !self.is_fractional(right) => GridAxis::Exact,
                GridAxis::RoundedUp(total) => GridAxis::RoundedUp(total),
                _ => GridAxis::Unknown,
            },
            "*" | "<<" => self.both(left, right, depth),
            _ => GridAxis::Unknown,
        }
    }

    /// What `E / B` is, from its numerator `E`. A size the analysis cannot compute (`width =
    /// image.getWidth()`, `n = (int)rint(n / scale)`, `limit = pad(n, 16)`, a local assigned on
    /// several paths) still gives an exact grid when floored by the block: the threads stop at
    /// or before `E`, whatever `E` is. Only a numerator rounded up (`ceil(E / C) * C`) or one
    /// that counts blocks (`num_blocks / 2`) is taken as it classifies.
    /// The blocks a quotient rounded down gives (`floor(n / 256.0)`, or `ceil(n / 256)` of two
    /// integers): never threads past its numerator, unless the numerator is itself padded.
    fn rounded_down(&self, quotient: Node<'t>, depth: usize) -> GridAxis {
        let (Some(total), Some(divisor)) = (quotient.field("left"), quotient.field("right")) else {
            return GridAxis::Unknown;
        };
        let (total, divisor) = (strip(total, self.source), strip(divisor, self.source));
        // `floor((n + 255) / 256)` still rounds up, and a sum over a float divisor may too
        match self.rounded_numerator(total, divisor, false) {
            Some(extent) => GridAxis::RoundedUp(extent),
            None if total.node_kind() == "binary_expression"
                && operator(total, self.source) == "+" =>
            {
                GridAxis::Unknown
            }
            None => self.numerator(total, depth + 1),
        }
    }

    fn numerator(&self, node: Node<'t>, depth: usize) -> GridAxis {
        let node = strip(node, self.source);
        let classified = self.axis(node, depth);
        if classified != GridAxis::Unknown {
            return classified;
        }
        // `(count * sizeof(T)) / BYTES`: a floor of a product of sizes stays inside that product
        if node.node_kind() == "binary_expression"
            && matches!(operator(node, self.source), "*" | "<<")
        {
            return match (node.field("left"), node.field("right")) {
                (Some(left), Some(right))
                    if !self.is_fractional(left) && !self.is_fractional(right) =>
                {
                    match (
                        self.numerator(left, depth + 1),
                        self.numerator(right, depth + 1),
                    ) {
                        (GridAxis::Exact, GridAxis::Exact) => GridAxis::Exact,
                        (GridAxis::RoundedUp(total), GridAxis::Exact)
                        | (GridAxis::Exact, GridAxis::RoundedUp(total)) => {
                            GridAxis::RoundedUp(total)
                        }
                        _ => GridAxis::Unknown,
                    }
                }
                _ => GridAxis::Unknown,
            };
        }
        // `(dim - i) / B`: what is taken away never adds threads
        if node.node_kind() == "binary_expression" && operator(node, self.source) == "-" {
            return match (node.field("left"), node.field("right")) {
                (Some(left), Some(right)) if !self.is_fractional(right) => {
                    self.numerator(left, depth + 1)
                }
                _ => GridAxis::Unknown,
            };
        }
        if node.node_kind() != "identifier" {
            return classified;
        }
        let name = self.text(node);
        if names_a_block_count(name) {
            return GridAxis::Unknown;
        }
        let Some(values) = self.locals.values.get(name) else {
            return GridAxis::Exact;
        };
        for value in values {
            if let rounded @ GridAxis::RoundedUp(_) = self.axis(*value, depth + 1) {
                return rounded;
            }
        }
        GridAxis::Exact
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

    /// A value converted whole to a count (a local's value, as a grid's component is): a
    /// quotient by a float truncates there as `/` does on integers (`int gx = (n - 8) /
    /// 24.0f;`), where inside a larger expression (`n / 176.f + 0.5`) it may round up.
    fn whole_value(&self, value: Node<'t>, depth: usize) -> GridAxis {
        let node = strip(value, self.source);
        if node.node_kind() == "binary_expression" && operator(node, self.source) == "/" {
            if let (Some(left), Some(right)) = (node.field("left"), node.field("right")) {
                if self.is_fractional(right) {
                    return self.numerator(left, depth + 1);
                }
            }
        }
        self.axis(value, depth)
    }

    fn both(&self, left: Node<'t>, right: Node<'t>, depth: usize) -> GridAxis {
        match (self.axis(left, depth + 1), self.axis(right, depth + 1)) {
            (GridAxis::Exact, GridAxis::Exact) => GridAxis::Exact,
            (GridAxis::RoundedUp(total), GridAxis::Exact)
            | (GridAxis::Exact, GridAxis::RoundedUp(total)) => GridAxis::RoundedUp(total),
            _ => GridAxis::Unknown,
        }
    }

    fn call(&self, node: Node<'t>, depth: usize) -> GridAxis {
        let Some(function) = node.field("function") else {
            return GridAxis::Unknown;
        };
        // `x.size(0)`, `x.numel()`, `rows.size()`: a problem dimension
        if function.node_kind() == "field_expression"
            && function
                .field("field")
                .is_some_and(|f| crate::model::size::is_count_method(self.text(f)))
        {
            return GridAxis::Exact;
        }
        let name = callee_name(function, self.source);
        let arguments = syntax::call_arguments(node);
        if let Some(getter) = getter_name(function, &arguments, self.source) {
            // `in.numImages()`, `batch.rows()`: what an object holds, read as a field is, a
            // problem dimension; a getter that says it counts blocks or rounds up (`numBlocks()`,
            // `ceilTiles()`) is a count computed where it cannot be seen
            return if names_a_block_count(getter) || names_a_rounding_division(getter) {
                GridAxis::Unknown
            } else {
                GridAxis::Exact
            };
        }
        match name {
            "dim3" | "static_cast" | "int" | "unsigned" | "size_t" | "uint32_t" | "int64_t"
            | "int32_t" | "uint64_t" | "long" => {
                return match arguments.as_slice() {
                    [only] => self.axis(*only, depth + 1),
                    _ => GridAxis::Unknown,
                };
            }
            // a problem size read from the command line or a string
            "atoi" | "atol" | "atoll" | "std::atoi" | "stoi" | "stol" | "std::stoi"
            | "std::stol" | "strtol" | "strtoul" | "std::strtol" => return GridAxis::Exact,
            "ceil" | "ceilf" | "std::ceil" => {
                // `ceil(n / BN)` of two integers: C++ has rounded the quotient down already
                if let Some(truncated) =
                    truncated_ceiling(node, self.source, &HelperTypes(self.helpers))
                {
                    return self.rounded_down(truncated.quotient, depth);
                }
                return match arguments.as_slice() {
                    [quotient] => {
                        let quotient = strip(*quotient, self.source);
                        match (quotient.field("left"), quotient.field("right")) {
                            (Some(total), Some(divisor)) if self.is_quotient(quotient) => self
                                .rounded_up(
                                    syntax::without_unit_factor(total, self.source),
                                    syntax::without_unit_factor(divisor, self.source),
                                ),
                            _ => GridAxis::Unknown,
                        }
                    }
                    _ => GridAxis::Unknown,
                };
            }
            // `floor(n / 256.0)`: a quotient rounded down, by a float divisor or not, never adds
            // threads past its numerator
            "floor" | "floorf" | "std::floor" => {
                return match self.floored_quotient(node) {
                    Some(quotient) => self.rounded_down(quotient, depth),
                    None => GridAxis::Unknown,
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
        // the divisor of a two-argument helper is the argument that is not the total
        let rounded = |total: usize| match (arguments.get(total), arguments.as_slice()) {
            (Some(t), [_, _]) => self.rounded_up(*t, arguments[1 - total.min(1)]),
            (Some(t), _) => GridAxis::RoundedUp(normalized(*t, self.source)),
            (None, _) => GridAxis::Unknown,
        };
        match self.helpers.rounds_up(short, arguments.len()) {
            Some(RoundingHelper::RoundsUp { total }) => rounded(total),
            Some(RoundingHelper::Other) => GridAxis::Unknown,
            None if names_a_rounding_division(short) => rounded(0),
            None => GridAxis::Unknown,
        }
    }
}

/// `NB_THREADS_BLOCKS`, `BLOCK_NUM`: spelled as object-like macros are, in capitals.
pub fn names_a_macro(name: &str) -> bool {
    name.len() >= 2
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// `n_blocks`, `gridSize`, `num_blocks`, `blk`: a count of blocks, not a problem dimension.
pub(super) fn names_a_block_count(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["block", "blk", "grid", "cta"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The extent a member's grid is rounded up from, as the launch reads it: a member named bare
/// where it was assigned (`(lat_4dim + B - 1) / B` in an init method) is that member of the
/// launch's object (`set_ptr->lat_4dim`).
fn on_object(member: Node, total: &str, source: &str) -> String {
    let bare = total.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match (member.field("argument"), member.field("operator")) {
        (Some(object), Some(operator)) if bare => {
            format!(
                "{}{}{total}",
                normalized(object, source),
                text(operator, source)
            )
        }
        _ => total.to_string(),
    }
}

/// The method's name in a call of a getter, `object.name()` or `object->name()`: a method called
/// with no arguments. None for any other call.
fn getter_name<'t>(function: Node<'t>, arguments: &[Node<'t>], source: &'t str) -> Option<&'t str> {
    if function.node_kind() != "field_expression" || !arguments.is_empty() {
        return None;
    }
    let method = function.field("field")?;
    // `obj.template get<N>()` names a template; its arguments are not read here
    (method.node_kind() == "field_identifier").then(|| text(method, source))
}

pub(super) fn callee_name<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    match function.node_kind() {
        "template_function" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        _ => text(function, source),
    }
}

/// The file's macros and typedefs, as the grid helpers see them, for reading what an
/// expression computes in.
struct HelperTypes<'a>(&'a dyn GridHelpers);

impl TypeContext for HelperTypes<'_> {
    fn resolve_type(&self, type_text: &str) -> String {
        self.0.resolve_type(type_text)
    }

    fn define(&self, name: &str) -> Option<&str> {
        self.0.define(name)
    }
}
