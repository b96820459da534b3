//! Grid axes classified: exact, rounded up from an extent, or unknown, from the launch's
//! expressions and the locals, defines and helpers they name.

use super::{GridAxis, GridHelpers, RoundingHelper};
use crate::model::reaching;
use crate::syntax::{self, normalized, operator, strip, text, NodeExt};
use rustc_hash::FxHashMap as HashMap;
use tree_sitter::Node;

/// A function's locals: each name with the values assigned to it (declaration first), and the
/// `dim3` ones declared with constructor arguments.
#[derive(Default)]
pub(super) struct Locals<'t> {
    pub(super) values: HashMap<&'t str, Vec<Node<'t>>>,
    /// Each declaration's argument list, in the order they are written.
    pub(super) dim3: HashMap<&'t str, Vec<Node<'t>>>,
    /// `grid.x = e` after the declaration.
    pub(super) components: HashMap<(&'t str, &'t str), Vec<Node<'t>>>,
    /// Each local `dim3`'s declarators (`dim3 block;`, `dim3 grid(1, 1);`): what a component
    /// holds where no assignment to it reaches.
    dim3_declarators: HashMap<&'t str, Vec<Node<'t>>>,
    /// Values assigned to entries of local tables (`szGlobalWorkSize[0] = ...`).
    pub(super) elements: HashMap<&'t str, Vec<Node<'t>>>,
    /// File-scope constants (`const int NBLOCK = 56 * 4;`, `constexpr int kThreads = 256;`),
    /// by name, with their values; their `dim3` ones (`const dim3 grid(128, 128);`) are in
    /// `dim3` unless a local of the name hides them.
    pub(super) file_constants: HashMap<&'t str, Node<'t>>,
    /// The function body they were read from.
    pub(super) scope: Option<Node<'t>>,
    /// Every identifier of `scope` by its text, in pre-order (lambdas included), found in one
    /// walk when first asked (`occurrences`): the launch's size reasoning asks of one name after
    /// another where it is read and written, and walking the body per name cost more than the
    /// rest of reading a launch.
    identifiers: std::cell::OnceCell<HashMap<&'t str, Vec<Node<'t>>>>,
}

impl<'t> Locals<'t> {
    pub(super) fn of(body: Node<'t>, source: &'t str) -> Locals<'t> {
        let mut file = Locals::default();
        file.read_file_scope(body, source);
        Locals::entering(body, source, None, &file)
    }

    /// The locals of `body` and, when `lambda` is given, of that lambda and the lambdas around
    /// it: a launch inside `[&] { ... }` (a worker thread's body) sees the lambda's locals and,
    /// through the capture, the function's. Other lambdas are not entered; their assignments
    /// run when they are called, which is not known. `file`: the file-scope constants
    /// (`read_file_scope`), read once for the file.
    pub(super) fn entering(
        body: Node<'t>,
        source: &'t str,
        lambda: Option<Node<'t>>,
        file: &Locals<'t>,
    ) -> Locals<'t> {
        let mut locals = Locals {
            scope: Some(body),
            file_constants: file.file_constants.clone(),
            dim3: file.dim3.clone(),
            ..Locals::default()
        };
        // a parameter hides a file-scope constant of its name
        let mut parameter_list = None;
        if let Some(declarator) = body.up().and_then(|f| f.field("declarator")) {
            syntax::walk_iterative(declarator, |n| {
                if parameter_list.is_none() && n.node_kind() == "parameter_list" {
                    parameter_list = Some(n);
                }
                parameter_list.is_none()
            });
        }
        if let Some(parameters) = parameter_list {
            for parameter in syntax::named_children(parameters) {
                if let Some(name) = parameter
                    .field("declarator")
                    .and_then(syntax::declarator_name)
                    .map(|n| text(n, source))
                {
                    locals.file_constants.remove(name);
                    locals.dim3.remove(name);
                }
            }
        }
        syntax::walk_iterative(body, |node| {
            match node.node_kind() {
                "declaration"
                    if node
                        .field("type")
                        .is_some_and(|t| text(t, source) == "dim3") =>
                {
                    let mut cursor = node.walk();
                    for declarator in node.children_by_field_name("declarator", &mut cursor) {
                        if let Some(name) = syntax::declarator_name(declarator) {
                            locals
                                .dim3_declarators
                                .entry(text(name, source))
                                .or_default()
                                .push(declarator);
                        }
                    }
                }
                // `dim3 grid(rows);` parses as a function declaration
                "function_declarator"
                    if node
                        .up()
                        .and_then(|d| d.field("type"))
                        .is_some_and(|t| text(t, source) == "dim3") =>
                {
                    let name = node.field("declarator").map(|n| text(n, source));
                    if let (Some(name), Some(parameters)) = (name, node.field("parameters")) {
                        locals.dim3.entry(name).or_default().push(parameters);
                    }
                }
                "init_declarator" => {
                    let name = node
                        .field("declarator")
                        .and_then(syntax::declarator_name)
                        .map(|n| text(n, source));
                    if let (Some(name), Some(value)) = (name, node.field("value")) {
                        // `unsigned blocks(n / 256);` is a scalar initialised directly
                        let is_dim3 = node
                            .up()
                            .and_then(|d| d.field("type"))
                            .is_some_and(|t| text(t, source) == "dim3");
                        match direct_initializer(value, is_dim3) {
                            Some(scalar) => locals.values.entry(name).or_default().push(scalar),
                            None if value.node_kind() == "argument_list"
                                || value.node_kind() == "initializer_list" =>
                            {
                                locals.dim3.entry(name).or_default().push(value);
                            }
                            None => locals.values.entry(name).or_default().push(value),
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
                        // `sizes[0] = ...`: the table's entries are values assigned here
                        "subscript_expression" => {
                            if let Some(table) = left
                                .field("argument")
                                .map(|t| strip(t, source))
                                .filter(|t| t.node_kind() == "identifier")
                            {
                                locals
                                    .elements
                                    .entry(text(table, source))
                                    .or_default()
                                    .push(if compound { left } else { right });
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
                // `cudaOccupancyMaxPotentialBlockSize(&grid, &block, k)`: written through its
                // address, so no value assigned in sight is the one it holds
                "pointer_expression" if operator(node, source) == "&" => {
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
                "lambda_expression" => {
                    return lambda.is_some_and(|inner| {
                        node.start_byte() <= inner.start_byte()
                            && inner.end_byte() <= node.end_byte()
                    })
                }
                _ => {}
            }
            true
        });
        locals
    }

    /// The identifiers of the body (`scope`) spelled `name`, in the order a walk of the body
    /// meets them; none without a body.
    pub(super) fn occurrences(&self, name: &str, source: &'t str) -> &[Node<'t>] {
        let Some(body) = self.scope else {
            return &[];
        };
        let identifiers = self.identifiers.get_or_init(|| {
            let mut identifiers: HashMap<&'t str, Vec<Node<'t>>> = HashMap::default();
            syntax::walk_iterative(body, |n| {
                if n.node_kind() == "identifier" {
                    identifiers.entry(text(n, source)).or_default().push(n);
                }
                true
            });
            identifiers
        });
        identifiers.get(name).map_or(&[], Vec::as_slice)
    }

    /// The constants declared at file scope (in namespaces too) of the file holding `body`: each
    /// `const`/`constexpr` declaration with an initializer, and each `const dim3` built with
    /// arguments. Those are values every launch of the file shares.
    pub(super) fn read_file_scope(&mut self, body: Node<'t>, source: &'t str) {
        let mut root = body;
        while let Some(parent) = root.up() {
            root = parent;
        }
        if root.node_kind() != "translation_unit" {
            return;
        }
        let mut scopes = vec![root];
        let mut visited = 0;
        while let Some(scope) = scopes.pop() {
            for item in syntax::named_children(scope) {
                visited += 1;
                if visited > 20_000 {
                    return;
                }
                match item.node_kind() {
                    "namespace_definition" | "linkage_specification" => {
                        if let Some(inner) = item.field("body") {
                            scopes.push(inner);
                        }
                    }
                    "declaration_list" => scopes.push(item),
                    "declaration" => self.read_constant_declaration(item, source),
                    _ => {}
                }
            }
        }
    }

    fn read_constant_declaration(&mut self, declaration: Node<'t>, source: &'t str) {
        let constant = syntax::named_children(declaration).any(|c| {
            matches!(c.node_kind(), "type_qualifier") && {
                let q = text(c, source);
                q == "const" || q == "constexpr"
            }
        });
        if !constant {
            return;
        }
        let is_dim3 = declaration
            .field("type")
            .is_some_and(|t| text(t, source) == "dim3");
        for declarator in syntax::named_children(declaration) {
            match declarator.node_kind() {
                // `const dim3 grid(128, 128, 1);` parses as a function declaration
                "function_declarator" if is_dim3 => {
                    let name = declarator.field("declarator").map(|n| text(n, source));
                    if let (Some(name), Some(parameters)) = (name, declarator.field("parameters")) {
                        self.dim3.entry(name).or_default().push(parameters);
                    }
                }
                "init_declarator" => {
                    let name = declarator
                        .field("declarator")
                        .and_then(syntax::declarator_name)
                        .map(|n| text(n, source));
                    let (Some(name), Some(value)) = (name, declarator.field("value")) else {
                        continue;
                    };
                    if let Some(scalar) = direct_initializer(value, is_dim3) {
                        // `constexpr unsigned int blocks(cells / 128);`
                        self.file_constants.insert(name, scalar);
                    } else if value.node_kind() == "argument_list"
                        || value.node_kind() == "initializer_list"
                    {
                        if is_dim3 {
                            self.dim3.entry(name).or_default().push(value);
                        }
                    } else {
                        self.file_constants.insert(name, value);
                    }
                }
                _ => {}
            }
        }
    }

    /// The arguments of the `dim3` declaration of `name` that `at` sees: the last one written
    /// before it in a block that holds it (`dim3 grid(...)` declared in each branch).
    pub(super) fn dim3_at(&self, name: &str, at: Node<'t>) -> Option<Node<'t>> {
        let lists = self.dim3.get(name)?;
        lists
            .iter()
            .rev()
            .find(|list| {
                if list.start_byte() > at.start_byte() {
                    return false;
                }
                let mut scope = list.up();
                while let Some(block) = scope {
                    if block.node_kind() == "compound_statement" {
                        break;
                    }
                    scope = block.up();
                }
                scope.is_none_or(|block| {
                    block.start_byte() <= at.start_byte() && at.end_byte() <= block.end_byte()
                })
            })
            .copied()
    }

    /// The one value of a local assigned once.
    pub(super) fn single(&self, name: &str) -> Option<Node<'t>> {
        match self.values.get(name).map(Vec::as_slice) {
            Some([value]) => Some(*value),
            _ => None,
        }
    }

    /// What the local `name` holds at `at`, among the values assigned to it.
    pub(super) fn value_at(&self, name: &str, at: Node<'t>, source: &str) -> Held<'t> {
        match self.values.get(name) {
            None => Held::NotLocal,
            Some(values) => Held::of(values, at, self.scope, source),
        }
    }

    /// What the component `object.field` holds at `at`, among the values assigned to it.
    pub(super) fn component_at(
        &self,
        object: &str,
        field: &str,
        at: Node<'t>,
        source: &str,
    ) -> Held<'t> {
        match self.components.get(&(object, field)) {
            None => Held::NotLocal,
            Some(values) => Held::of(values, at, self.scope, source),
        }
    }

    /// `component_at` for a local `dim3`, whose declaration gives each component its first
    /// value: NotLocal where only the declaration reaches `at`, the assignment where only one
    /// does, and Several or Alternatives where the declaration's value may reach too (`dim3
    /// block(32, 8); if (wide) block.y = 1;`).
    pub(super) fn dim3_component_at(
        &self,
        object: &str,
        field: &str,
        at: Node<'t>,
        source: &str,
    ) -> Held<'t> {
        let Some(assigned) = self.components.get(&(object, field)) else {
            return Held::NotLocal;
        };
        let declared = self.dim3_declarators.get(object).map(Vec::as_slice);
        let mut values = assigned.clone();
        values.extend(declared.unwrap_or_default().iter().copied());
        match Held::of(&values, at, self.scope, source) {
            Held::One(value) if declared.is_some_and(|d| d.contains(&value)) => Held::NotLocal,
            held => held,
        }
    }
}

/// The value of a scalar initialised directly, `int n(v)` or `int n{v}`: `v`. None for a `dim3`
/// (its list is its components) or a list of more than one value.
fn direct_initializer(value: Node, is_dim3: bool) -> Option<Node> {
    if is_dim3 || !matches!(value.node_kind(), "argument_list" | "initializer_list") {
        return None;
    }
    let mut values = syntax::named_children(value).filter(|c| c.node_kind() != "comment");
    let first = values.next()?;
    values.next().is_none().then_some(first)
}

/// A local's value at one point of its function.
pub(super) enum Held<'t> {
    /// Never assigned before that point (a parameter, a global, a component left as declared).
    NotLocal,
    /// Exactly this value, assigned on every path.
    One(Node<'t>),
    /// One of these values, each assigned whole on its own path (`if (small) g = 1; else g = n /
    /// 256;`, or the value a loop's last trip left).
    Alternatives(Vec<Node<'t>>),
    /// A value built from an earlier one (`g *= 2`, `g++`) may reach it.
    Several,
}

impl<'t> Held<'t> {
    fn of(values: &[Node<'t>], at: Node<'t>, scope: Option<Node<'t>>, source: &str) -> Held<'t> {
        // written through its address (`cudaMemcpy(&blocks, ...)`): what it holds is not in sight
        if values.iter().any(|v| written_through_address(*v, source)) {
            return Held::Several;
        }
        // without the function, parents are found from the tree's root (slower, the same answer)
        let scope = scope.unwrap_or(at);
        let reaching = reaching::reaching(values, at, scope, source);
        match reaching.as_slice() {
            [] => Held::NotLocal,
            [value] if !reaching::updates_itself(*value, source) => Held::One(*value),
            _ if reaching
                .iter()
                .all(|v| !reaching::updates_itself(*v, source)) =>
            {
                Held::Alternatives(reaching)
            }
            _ => Held::Several,
        }
    }
}

/// `&name` handed to a call: the entry `Locals` keeps for a local written through its address.
fn written_through_address(value: Node, source: &str) -> bool {
    value.node_kind() == "identifier"
        && value
            .up()
            .is_some_and(|p| p.node_kind() == "pointer_expression" && operator(p, source) == "&")
}

/// What a grid axis is when it may be any of several: exact when each is, rounded up from `E`
/// when each is exact or rounded up from that same `E`, unknown otherwise.
pub(super) fn join(a: GridAxis, b: GridAxis) -> GridAxis {
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
                    Held::One(value) => return self.axis(value, depth + 1),
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
                let object = node.field("argument").map(|a| self.text(a)).unwrap_or("");
                let component = matches!(last, "x" | "y" | "z");
                if names_a_block_count(last) || (component && names_a_block_count(object)) {
                    GridAxis::Unknown
                } else {
                    GridAxis::Exact // `x.size(0)`, `params.rows`, `dims.x`
                }
            }
            "binary_expression" => self.binary(node, depth),
            "call_expression" => self.call(node, depth),
            // `n % B == 0 ? n / B : n / B + 1`: either value may be the grid
            "conditional_expression" => {
                match (node.field("consequence"), node.field("alternative")) {
                    (Some(yes), Some(no)) => {
                        join(self.axis(yes, depth + 1), self.axis(no, depth + 1))
                    }
                    _ => GridAxis::Unknown,
                }
            }
            // `sizes[i]`: an entry of a table of problem sizes, judged by the table's name, or
            // by every value the function assigns to its entries
            "subscript_expression" => {
                let Some(table) = node.field("argument").map(|t| strip(t, self.source)) else {
                    return GridAxis::Unknown;
                };
                self.entries(self.text(table), depth)
                    .unwrap_or_else(|| self.axis(table, depth + 1))
            }
            _ => GridAxis::Unknown,
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
                    return GridAxis::RoundedUp(total);
                }
                // a floor division (`width / dimBlock.x`) never adds threads, whatever it
                // divides by; a division by a float (`n / 176.f`) is not a floor
                if self.is_fractional(right) {
                    return GridAxis::Unknown;
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
            // `(n + 1 + B - 1) / B`: the extent is the rest of the sum, `n + 1`, written in the
            // order of the text
            [_, _, ..] => {
                rest.sort_by_key(|(_, term)| term.start_byte());
                let [(true, first), more @ ..] = rest.as_slice() else {
                    return None;
                };
                let mut total = normalized(*first, self.source);
                for (positive, term) in more {
                    total.push_str(if *positive { " + " } else { " - " });
                    total.push_str(&normalized(*term, self.source));
                }
                Some(total)
            }
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
                return match arguments.as_slice() {
                    [quotient] => {
                        let quotient = strip(*quotient, self.source);
                        match (quotient.field("left"), quotient.field("right")) {
                            (Some(total), Some(divisor)) if self.is_quotient(quotient) => {
                                self.rounded_up(total, divisor)
                            }
                            _ => GridAxis::Unknown,
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

    /// `ceil(total / divisor)` blocks: exact when the divisor is a constant that divides the
    /// total (`DIV_UP(400, 8)`, `DIV_UP(k * 1024, 256)`), else rounded up from `total`.
    fn rounded_up(&self, total: Node<'t>, divisor: Node<'t>) -> GridAxis {
        if !self.constants_divide {
            return GridAxis::RoundedUp(normalized(total, self.source));
        }
        if let Some(d) = super::constant(divisor, self) {
            let nonnegative = super::constant(total, self).is_none_or(|t| t >= 0);
            if d > 0 && nonnegative && self.known_factor(total, 0) % d == 0 {
                return GridAxis::Exact;
            }
        }
        GridAxis::RoundedUp(normalized(total, self.source))
    }

    /// The term of the sum `left` that `rounded_numerator` found as the extent `total`.
    fn rounded_total(&self, left: Node<'t>, total: &str) -> Option<Node<'t>> {
        sum_terms(left, self.source)
            .into_iter()
            .find(|(added, term)| *added && normalized(*term, self.source) == total)
            .map(|(_, term)| term)
    }

    /// The largest constant known to divide the value of `node` where it is read: 1 when none
    /// is known, 0 for zero. `n * 1024` is a multiple of 1024 whatever `n` is; a sum is a
    /// multiple of what divides each term; a local contributes what divides every value that
    /// reaches the read, or, scaled in place last on every path there (`n *= 1024`), the scale.
    pub(super) fn known_factor(&self, node: Node<'t>, depth: usize) -> i128 {
        if depth > 12 {
            return 1;
        }
        if let Some(value) = super::constant(node, self) {
            return value.checked_abs().unwrap_or(1);
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return 1;
                };
                match operator(node, self.source) {
                    "*" => {
                        let (a, b) = (
                            self.known_factor(left, depth + 1),
                            self.known_factor(right, depth + 1),
                        );
                        a.checked_mul(b).unwrap_or(a.max(b))
                    }
                    "<<" => {
                        let a = self.known_factor(left, depth + 1);
                        match super::constant(right, self) {
                            Some(shift @ 0..=40) => a.checked_mul(1 << shift).unwrap_or(a),
                            _ => a,
                        }
                    }
                    "+" | "-" => gcd(
                        self.known_factor(left, depth + 1),
                        self.known_factor(right, depth + 1),
                    ),
                    _ => 1,
                }
            }
            "identifier" => {
                let name = self.text(node);
                let Some(values) = self.locals.values.get(name) else {
                    return match self.locals.file_constants.get(name) {
                        Some(value) => self.known_factor(*value, depth + 1),
                        None => 1,
                    };
                };
                if values
                    .iter()
                    .any(|v| written_through_address(*v, self.source))
                {
                    return 1;
                }
                let scope = self.locals.scope.unwrap_or(node);
                let reaching = reaching::reaching(values, node, scope, self.source);
                if reaching.is_empty() {
                    return 1;
                }
                if let Some(scale) = self.scaled_last(&reaching, node, scope, depth) {
                    return scale;
                }
                if reaching
                    .iter()
                    .any(|v| reaching::updates_itself(*v, self.source))
                {
                    return 1;
                }
                reaching.iter().fold(0, |all, value| {
                    gcd(all, self.known_factor(*value, depth + 1))
                })
            }
            "call_expression" => {
                let name = node
                    .field("function")
                    .map(|f| callee_name(f, self.source))
                    .unwrap_or("");
                match (name, syntax::call_arguments(node).as_slice()) {
                    (
                        "static_cast" | "int" | "unsigned" | "size_t" | "long" | "int64_t"
                        | "uint64_t" | "int32_t" | "uint32_t",
                        [only],
                    ) => self.known_factor(*only, depth + 1),
                    // `pad(n, 512)` with `pad` returning `((n + p - 1) / p) * p`
                    (_, arguments) => match self.helpers.returned_multiple(name, arguments.len()) {
                        Some(super::ReturnedMultiple::Constant(factor)) => factor,
                        Some(super::ReturnedMultiple::Argument(position)) => arguments
                            .get(position)
                            .map_or(1, |a| self.known_factor(*a, depth + 1)),
                        None => 1,
                    },
                }
            }
            _ => 1,
        }
    }

    /// `n *= 1024;` (or `n <<= 10;`) as the last definition of `n` before `read`, on every path
    /// to it, with no later one carried round a loop: the scale it multiplies by.
    fn scaled_last(
        &self,
        reaching: &[Node<'t>],
        read: Node<'t>,
        scope: Node<'t>,
        depth: usize,
    ) -> Option<i128> {
        if reaching.iter().any(|v| v.start_byte() >= read.start_byte()) {
            return None;
        }
        let last = reaching.iter().max_by_key(|v| v.start_byte())?;
        let assignment = last
            .parent()
            .filter(|p| p.node_kind() == "assignment_expression")?;
        if assignment.field("left").map(|l| l.id()) != Some(last.id())
            || !reaching::on_every_path(*last, read, scope)
        {
            return None;
        }
        let right = assignment.field("right")?;
        match operator(assignment, self.source) {
            "*=" => Some(self.known_factor(right, depth + 1)),
            "<<=" => match super::constant(right, self) {
                Some(shift @ 0..=40) => Some(1 << shift),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The greatest common divisor, with `gcd(0, b) == b`.
pub(super) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
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

/// `NB_THREADS_BLOCKS`, `BLOCK_NUM`: spelled as object-like macros are, in capitals.
pub(super) fn names_a_macro(name: &str) -> bool {
    name.len() >= 2
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
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
pub(super) fn names_a_rounding_division(name: &str) -> bool {
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

pub(super) fn callee_name<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    match function.node_kind() {
        "template_function" => function
            .field("name")
            .map(|n| text(n, source))
            .unwrap_or(""),
        _ => text(function, source),
    }
}
