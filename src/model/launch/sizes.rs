//! A launch's sizes written over the launching function's names, for the model's size
//! evaluator: which local keeps one value, which holds a multiple, and which names are constants
//! of the file.

use super::*;
use crate::syntax::operator;

/// The launch's sizes over the launching function's names (`resolve` false: a local is its own
/// name) or with each local defined once replaced by its value; None when the grid's `x` or the
/// block's `x` cannot be written so.
pub(super) fn launch_sizes<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    [grid, block]: [&[Option<Node<'t>>]; 2],
    defaults: [bool; 2],
    arguments: &[Node<'t>],
    anchor: Option<Node<'t>>,
    resolve: bool,
) -> Option<LaunchSizes> {
    let source = classifier.source;
    let scope = SizeScope::new(classifier, resolve);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: true,
    };
    // the grid, the block and the arguments are all read where the launch runs: a local given
    // several values (a loop's counter) is one value there, the same in each
    let at_launch_scope = SizeScope {
        at_launch: true,
        ..SizeScope::new(classifier, resolve)
    };
    let at_launch = Evaluator {
        source,
        scope: &at_launch_scope,
        fold_sizeof: true,
    };
    let axes = |values: &[Option<Node<'t>>], default_one: bool| -> [Option<Sym>; 3] {
        let mut axes = [None, None, None];
        for (axis, slot) in axes.iter_mut().enumerate() {
            *slot = match values.get(axis).copied().flatten() {
                Some(value) => at_launch.eval(value),
                None if default_one && axis > 0 => Some(Sym::constant(1)),
                None => None,
            };
        }
        axes
    };
    let grid = axes(grid, defaults[0]);
    let block = axes(block, defaults[1]);
    grid[0].as_ref()?;
    block[0].as_ref()?;
    // an allocation outside the launching function sees none of its locals; the scopes keep
    // what they learn of each name, so one of each kind serves every allocation
    let no_locals = Locals::default();
    let outside_classifier = Classifier {
        locals: &no_locals,
        ..*classifier
    };
    let outside_scope = SizeScope::new(&outside_classifier, resolve);
    let outside = Evaluator {
        source,
        scope: &outside_scope,
        fold_sizeof: true,
    };
    let function = allocations.function.byte_range();
    let buffers = arguments
        .iter()
        .map(|argument| {
            let mut bytes: Option<Sym> = None;
            for allocated in allocations.of_argument(*argument, source) {
                let in_function = function.contains(&allocated.call.start_byte());
                let evaluator = if in_function { &evaluator } else { &outside };
                let size = evaluator.eval(allocated.size?)?;
                match &bytes {
                    Some(known) if *known != size => return None,
                    _ => bytes = Some(size),
                }
            }
            bytes
        })
        .collect();
    let arguments: Vec<Option<Sym>> = arguments.iter().map(|a| at_launch.eval(*a)).collect();
    let ceilings = match (anchor, classifier.locals.scope) {
        (Some(at), Some(body)) => {
            let mut names: Vec<&str> = arguments
                .iter()
                .flatten()
                .flat_map(Sym::atoms)
                .map(String::as_str)
                .collect();
            names.sort_unstable();
            names.dedup();
            names
                .into_iter()
                .filter_map(|atom| {
                    let name = atom.strip_suffix(AT_THE_LAUNCH)?;
                    let ceiling = ceiling_of_local(classifier.locals, name, at, body, source)?;
                    let value = at_launch.eval(ceiling.value)?;
                    Some((atom.to_string(), value.sub(&Sym::constant(ceiling.below))?))
                })
                .collect()
        }
        _ => Vec::new(),
    };
    Some(LaunchSizes {
        grid,
        block,
        arguments,
        buffers,
        ceilings,
    })
}

/// How the value a local given several values holds where the launch runs is named: `level@`.
const AT_THE_LAUNCH: &str = "@";

/// The largest value of a local where `at` runs: `value - below`.
struct Ceiling<'t> {
    value: Node<'t>,
    below: i128,
}

/// The largest value the local `name` holds where `at` runs: the limit of an enclosing `for`
/// whose test is `name < E` or `name <= E` and whose body never writes it, or the value it is
/// declared with when every later write makes it smaller (`--`, `-=`, `/=`, `>>=`).
fn ceiling_of_local<'t>(
    locals: &Locals<'t>,
    name: &str,
    at: Node<'t>,
    body: Node<'t>,
    source: &'t str,
) -> Option<Ceiling<'t>> {
    let writes_in = |scope: Node<'t>| syntax::names_written(scope, source).contains(name);
    let mut node = at;
    while let Some(parent) = node.up() {
        if parent.id() == body.id() {
            break;
        }
        if parent.node_kind() == "for_statement"
            && parent.field("body").is_some_and(|b| b.id() == node.id())
        {
            if let Some(condition) = parent.field("condition") {
                let condition = strip(condition, source);
                let sides = (condition.field("left"), condition.field("right"));
                if let (Some(left), Some(right)) = sides {
                    let counter = |n: Node| {
                        let n = strip(n, source);
                        n.node_kind() == "identifier" && text(n, source) == name
                    };
                    let limit = match operator(condition, source) {
                        "<" if counter(left) => Some((right, 1)),
                        "<=" if counter(left) => Some((right, 0)),
                        ">" if counter(right) => Some((left, 1)),
                        ">=" if counter(right) => Some((left, 0)),
                        _ => None,
                    };
                    if let Some((value, below)) = limit {
                        if !writes_in(node) {
                            return Some(Ceiling { value, below });
                        }
                    }
                }
            }
        }
        node = parent;
    }
    let values = locals.values.get(name)?;
    let (declared, later) = values.split_first()?;
    let is_declared = declared
        .up()
        .is_some_and(|d| d.node_kind() == "init_declarator");
    let smaller = |value: &Node<'t>| {
        let Some(parent) = value.up() else {
            return false;
        };
        match parent.node_kind() {
            "update_expression" => text(parent, source).contains("--"),
            "assignment_expression" => {
                matches!(operator(parent, source), "-=" | "/=" | ">>=")
                    && parent.field("right").is_some_and(|r| {
                        let r = strip(r, source);
                        r.node_kind() != "unary_expression" && !text(r, source).starts_with('-')
                    })
            }
            _ => false,
        }
    };
    (is_declared && later.iter().all(smaller)).then_some(Ceiling {
        value: *declared,
        below: 0,
    })
}

/// The launching function's names for the size evaluator: file-scope constants and defines
/// are their values; a local is its own name, or with `resolve` its value where it has one; a
/// local that holds a multiple of `M` wherever it is read (see `multiple_of`) is `M · q`.
struct SizeScope<'c, 'a, 't> {
    classifier: &'c Classifier<'a, 't>,
    resolve: bool,
    /// Read where the launch runs: a local given several values is its own name (the value it
    /// holds there) rather than unknown. An allocation before the launch may have seen another.
    at_launch: bool,
    /// Per local asked about: the multiple it holds (None: not known to hold one).
    multiples: std::cell::RefCell<std::collections::HashMap<String, Option<Sym>>>,
    /// Per local asked about: whether it holds one value wherever it is read.
    one_value: std::cell::RefCell<std::collections::HashMap<String, bool>>,
}

impl<'c, 'a, 't> SizeScope<'c, 'a, 't> {
    fn new(classifier: &'c Classifier<'a, 't>, resolve: bool) -> Self {
        SizeScope {
            classifier,
            resolve,
            at_launch: false,
            multiples: Default::default(),
            one_value: Default::default(),
        }
    }

    fn holds_one_value(&self, name: &str) -> bool {
        if let Some(known) = self.one_value.borrow().get(name) {
            return *known;
        }
        let one = holds_one_value(self.classifier.locals, name, self.classifier.source);
        self.one_value.borrow_mut().insert(name.to_string(), one);
        one
    }

    /// The value `M` that the local `name` is a multiple of wherever the function reads it, as
    /// a size (`items * 4` for `n = (n + items * 4 - 1) / (items * 4) * (items * 4)`, `192` for
    /// `nr = 192 * (n / 192 + min(1, n % 192))`): see `multiple_of_local`.
    fn multiple_of(&self, name: &str) -> Option<Sym> {
        if let Some(known) = self.multiples.borrow().get(name) {
            return known.clone();
        }
        // asked again while its own values are read: not known
        self.multiples.borrow_mut().insert(name.to_string(), None);
        let evaluator = Evaluator {
            source: self.classifier.source,
            scope: self,
            fold_sizeof: true,
        };
        let multiple =
            multiple_of_local(self.classifier.locals, name, self.classifier.source, &|n| {
                evaluator.eval(n)
            });
        self.multiples
            .borrow_mut()
            .insert(name.to_string(), multiple.clone());
        multiple
    }
}

/// What every value assigned to the local `name` is a multiple of, when the function reads it
/// only after the first of them: each value is a product `E * M` (either order) whose one
/// factor `M` evaluates without rounding (`eval`) and whose other factor is an integer
/// expression that does not or is a quotient rounded up (a `%`, a call: `(n + M - 1) / M * M`; a
/// product of two sizes is read as it is); every
/// value names the same `M`, and every name `M` is written in keeps one value. The local is a
/// parameter or declared in the function, and no read of it comes before the first value (a
/// parameter's value on entry is the caller's).
fn multiple_of_local<'t>(
    locals: &Locals<'t>,
    name: &str,
    source: &'t str,
    eval: &dyn Fn(Node<'t>) -> Option<Sym>,
) -> Option<Sym> {
    let body = locals.scope?;
    let values = locals.values.get(name)?;
    let mut multiple: Option<Sym> = None;
    for value in values {
        let value = strip(*value, source);
        if value.node_kind() != "binary_expression" || syntax::operator(value, source) != "*" {
            return None;
        }
        let (left, right) = (value.field("left")?, value.field("right")?);
        let factor = |side: Node<'t>| {
            eval(side).filter(|s| {
                !s.floored && s.integer_terms().is_some() && !s.has_rounded_up_quotient()
            })
        };
        let (m, factor_node, other) = match (factor(left), factor(right)) {
            (Some(m), None) => (m, left, right),
            (None, Some(m)) => (m, right, left),
            // a product of two sizes is read whole
            _ => return None,
        };
        if m.as_constant().is_some_and(|c| c <= 1)
            || has_float_literal(other, source)
            || !names_keep_one_value(locals, factor_node, source)
        {
            return None;
        }
        match &multiple {
            Some(known) if *known != m => return None,
            _ => multiple = Some(m),
        }
    }
    let first = values.iter().min_by_key(|v| v.start_byte())?;
    reads_follow(locals, body, name, *first, source)
        .then_some(multiple)
        .flatten()
}

/// Whether every name written in `node` that is a local of the function keeps the one value
/// its declaration gives it.
fn names_keep_one_value(locals: &Locals, node: Node, source: &str) -> bool {
    let mut keeps = true;
    syntax::walk_iterative(node, |n| {
        if n.node_kind() == "identifier" {
            keeps &= match locals.values.get(text(n, source)).map(Vec::as_slice) {
                None | Some([]) => true,
                Some([value]) => value.up().is_some_and(|p| {
                    matches!(p.node_kind(), "init_declarator" | "argument_list")
                        || p.node_kind() == "initializer_list"
                }),
                Some(_) => false,
            };
        }
        keeps
    });
    keeps
}

/// Whether `node` holds a floating-point literal (`n * 0.5`: not a multiple of `n`).
fn has_float_literal(node: Node, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(node, |n| {
        if n.node_kind() == "number_literal" {
            let literal = text(n, source).to_ascii_lowercase();
            found |= !literal.starts_with("0x")
                && (literal.contains('.') || literal.contains('e') || literal.ends_with('f'));
        }
        !found
    });
    found
}

/// Whether the function whose body is `body` (the scope of `locals`) has `name` as a parameter
/// or declares it, and reads or writes it nowhere before the statement that assigns `first`
/// (other than declaring it there without a value) nor outside the block holding that statement.
fn reads_follow<'t>(
    locals: &Locals<'t>,
    body: Node<'t>,
    name: &str,
    first: Node<'t>,
    source: &'t str,
) -> bool {
    let mut statement = first;
    while let Some(parent) = statement.up() {
        if parent.node_kind() == "compound_statement" {
            break;
        }
        if statement == body {
            return false;
        }
        statement = parent;
    }
    let Some(block) = statement.up() else {
        return false;
    };
    let mut declared = false;
    if let Some(declarator) = body.up().and_then(|f| f.field("declarator")) {
        syntax::walk_iterative(declarator, |n| {
            declared |= n.node_kind() == "identifier" && text(n, source) == name;
            !declared
        });
    }
    // every identifier of the body spelled `name`, as a walk of the body meets them
    for n in locals.occurrences(name, source) {
        let kind = n.up().map(|p| p.node_kind());
        let declaration = matches!(kind, Some("declaration" | "init_declarator"));
        declared |= declaration;
        let follows = if n.start_byte() < statement.start_byte() {
            kind == Some("declaration")
        } else {
            block.start_byte() <= n.start_byte() && n.end_byte() <= block.end_byte()
        };
        if !follows {
            return false;
        }
    }
    declared
}

/// Whether the local `name` has one value wherever the function reads it: nothing writes it
/// after its declaration (an assignment, `+=`, `++`, its address taken) after a read of it. A
/// count padded after the buffer was allocated with it is two values; a count read back from
/// the device at the top of a loop, then allocated with and launched over, is one in each trip.
/// A clamp's own reads belong to its write (`if (n > 65536) n = 65536;`, `n = min(n, cap);`):
/// they choose the value, no size is taken from them.
fn holds_one_value<'t>(locals: &Locals<'t>, name: &str, source: &'t str) -> bool {
    let (Some(_), Some(values)) = (locals.scope, locals.values.get(name)) else {
        return true;
    };
    let writes: Vec<Node> = values
        .iter()
        .copied()
        .filter(|v| v.up().is_none_or(|p| p.node_kind() != "init_declarator"))
        .collect();
    if writes.is_empty() {
        return true;
    }
    let Some(last) = writes.iter().map(|w| w.start_byte()).max() else {
        return true;
    };
    locals
        .occurrences(name, source)
        .iter()
        .filter(|n| n.start_byte() < last)
        .all(|n| is_written_name(*n, source) || chooses_a_write(*n, &writes))
}

/// Whether the read `n` is in one of `writes` (the values assigned to its name) or in the test
/// of an `if` whose branch holds one of them.
fn chooses_a_write(n: Node, writes: &[Node]) -> bool {
    let inside =
        |outer: Node| outer.start_byte() <= n.start_byte() && n.end_byte() <= outer.end_byte();
    writes.iter().any(|write| {
        if inside(*write) {
            return true;
        }
        // up to the statement the write is, then through a braced branch to its `if`
        let mut at = *write;
        while let Some(parent) = at.up() {
            match parent.node_kind() {
                "if_statement" => return parent.field("condition").is_some_and(inside),
                "compound_statement"
                    if parent.up().is_some_and(|p| p.node_kind() == "if_statement") => {}
                "compound_statement" | "function_definition" => return false,
                _ => {}
            }
            at = parent;
        }
        false
    })
}

/// Whether the identifier `n` is what an assignment, update or `&` writes, or a declarator.
fn is_written_name(n: Node, source: &str) -> bool {
    let Some(parent) = n.up() else {
        return false;
    };
    match parent.node_kind() {
        "assignment_expression" => parent.field("left") == Some(n),
        "update_expression" => true,
        "pointer_expression" => syntax::operator(parent, source) == "&",
        "declaration" | "init_declarator" => parent.field("value") != Some(n),
        _ => false,
    }
}

impl<'t> Scope<'t> for SizeScope<'_, '_, 't> {
    fn atom(&self, name: &str) -> Option<Sym> {
        match self.multiple_of(name) {
            Some(multiple) => multiple.mul(&Sym::atom(&format!("{name}/({})", multiple.display()))),
            // a name of its own: an allocation before the launch may have read another value
            // of the local under its plain name
            None if !self.holds_one_value(name) => self
                .at_launch
                .then(|| Sym::atom(&format!("{name}{AT_THE_LAUNCH}"))),
            None => Some(Sym::atom(name)),
        }
    }
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        let locals = self.classifier.locals;
        if self.multiple_of(name).is_some() || !self.holds_one_value(name) {
            return None;
        }
        match locals.values.get(name) {
            Some(_) if self.resolve => locals.single(name),
            Some(_) => None,
            None => locals.file_constants.get(name).copied(),
        }
    }
    /// A count assigned several times (`Nthreads = BPGmain * MTPB;` ... `Nthreads = BPGpmly *
    /// MTPB; cudaMalloc(&psi, Nthreads * sizeof(float));`) holds, where it is read, the one
    /// plain assignment that reaches the read from before it.
    fn definition_at(&self, name: &str, at: Node<'t>) -> Option<Node<'t>> {
        if let Some(value) = self.definition(name) {
            return Some(value);
        }
        if !self.resolve || self.multiple_of(name).is_some() || self.holds_one_value(name) {
            return None;
        }
        match self
            .classifier
            .locals
            .value_at(name, at, self.classifier.source)
        {
            Held::One(value)
                if value.end_byte() <= at.start_byte()
                    && !crate::model::reaching::updates_itself(value, self.classifier.source) =>
            {
                Some(value)
            }
            _ => None,
        }
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.classifier.helpers.define(name)
    }
    fn is_type(&self, name: &str) -> bool {
        LaunchScope(self.classifier).is_type(name)
    }
    fn component(&self, object: &str, field: &str, at: Node<'t>) -> Option<size::Component<'t>> {
        LaunchScope(self.classifier).component(object, field, at)
    }
}

/// The file-scope constants a kernel's file declares, for reading the names a kernel's index
/// is written in (`voxels * blockIdx.x` with `constexpr unsigned voxels(225);`) as numbers.
pub struct FileConstants<'t> {
    pub(super) locals: Locals<'t>,
    pub(super) source: &'t str,
}

impl<'t> FileConstants<'t> {
    /// The constants of the file holding `body`.
    pub fn of(body: Node<'t>, source: &'t str) -> FileConstants<'t> {
        let mut locals = Locals::default();
        locals.read_file_scope(body, source);
        FileConstants { locals, source }
    }

    /// The value of a file-scope constant or object-like `#define` named `name`.
    pub fn value(&self, name: &str, helpers: &dyn GridHelpers) -> Option<i128> {
        let classifier = Classifier::reading_threads(self.source, &self.locals, helpers);
        let scope = LaunchScope(&classifier);
        match scope.definition(name) {
            Some(value) => constant(value, &classifier),
            None => size::parse_number(helpers.define(name)?.trim()),
        }
    }
}

/// What the launch's function says of its names, for the model's size evaluator.
pub(super) struct LaunchScope<'c, 'a, 't>(pub(super) &'c Classifier<'a, 't>);

impl<'t> LaunchScope<'_, '_, 't> {
    /// The value of a local assigned more than once that reaches the launch (`threads_y = 1;`
    /// written again before each of a function's launches), when it reads only names that
    /// hold one value: a name assigned again between its assignment and the launch would be
    /// read at the wrong point (the local itself among them).
    fn reaching_launch(&self, name: &str) -> Option<Node<'t>> {
        let source = self.0.source;
        match self.0.locals.value_at(name, self.0.launch?, source) {
            Held::One(value) if self.0.locals.reads_settled_names(value, source) => Some(value),
            _ => None,
        }
    }
}

impl<'t> Scope<'t> for LaunchScope<'_, '_, 't> {
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        match self.0.locals.values.get(name) {
            Some(_) => self
                .0
                .locals
                .single(name)
                .or_else(|| self.reaching_launch(name)),
            None => self.0.locals.file_constants.get(name).copied(),
        }
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.0.helpers.define(name)
    }
    /// `sizeof(curandState)` parses as an expression; a name no local holds is a type there.
    fn is_type(&self, name: &str) -> bool {
        !self.0.locals.values.contains_key(name)
            && !self.0.locals.dim3.contains_key(name)
            && !self.0.locals.file_constants.contains_key(name)
    }
    fn component(&self, object: &str, field: &str, at: Node<'t>) -> Option<size::Component<'t>> {
        dim3_component(self.0.locals, self.0.source, object, field, at)
    }
}

/// What `object.field` of a `dim3` local (or file constant) holds at `at`: the one assignment
/// to the component that reaches it, else the declaration's argument on that axis (1 where the
/// declaration leaves the axis out). None where several values may reach it.
pub(super) fn dim3_component<'t>(
    locals: &Locals<'t>,
    source: &str,
    object: &str,
    field: &str,
    at: Node<'t>,
) -> Option<size::Component<'t>> {
    let axis = axis_index(field)?;
    match locals.dim3_component_at(object, field, at, source) {
        // an assignment written after the read reaches it only around a loop, whose next trip
        // may declare the `dim3` afresh (`dim3 g(n); if (g.x > M) { g.y = (g.x + M - 1) / M;
        // g.x = M; }` in a loop body reads `n` there)
        Held::One(value) if value.end_byte() <= at.start_byte() => {
            return Some(size::Component::Value(value))
        }
        Held::One(_) => return None,
        Held::NotLocal => {}
        Held::Alternatives(_) | Held::Several => return None,
    }
    // a scalar of the name (`int block = 256;`) hides no `dim3`, but is none either; a `dim3`
    // initialised from one (`dim3 block = 64;`) has it as `x`, and one on `y` and `z`
    if locals.values.contains_key(object) {
        if !locals.declares_dim3(object) {
            return None;
        }
        return match (axis, locals.value_at(object, at, source)) {
            (0, Held::One(value)) if value.end_byte() <= at.start_byte() => {
                Some(size::Component::Value(value))
            }
            (0, _) => None,
            _ => Some(size::Component::One),
        };
    }
    let list = locals.dim3_at(object, at)?;
    let arguments: Vec<Node<'t>> = named_children(list)
        .filter(|a| a.node_kind() != "comment")
        .collect();
    match arguments.get(axis) {
        Some(value) => Some(size::Component::Value(*value)),
        None if !arguments.is_empty() => Some(size::Component::One),
        None => None,
    }
}
