//! A launching function's locals as the grid reading sees them: each name's assigned values,
//! the `dim3` ones by component, local tables, the file's constants, and what a local holds at
//! one point. Kept apart from the classifier because it reads the function once and answers
//! every launch in it.

use crate::model::guards::Comparison;
use crate::model::reaching;
use crate::syntax::{self, operator, strip, text, NodeExt};
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
    /// The facts known where a node of `scope` runs (`limits::facts_at`), by the node's id,
    /// kept once asked: the size reasoning asks them of one launch per name it reads, and a
    /// launcher with dozens of checks spent most of its time finding them again.
    facts: std::cell::RefCell<HashMap<usize, std::rc::Rc<[Comparison<'t>]>>>,
    /// The file's functions that take a non-`const` reference (`void pick(unsigned& blocks,
    /// unsigned& smem)`), by name, with those parameters' positions: a local handed to one
    /// there is written by the call.
    reference_writers: HashMap<&'t str, Vec<usize>>,
}

impl<'t> Locals<'t> {
    pub(super) fn of(body: Node<'t>, source: &'t str) -> Locals<'t> {
        let mut file = Locals::default();
        file.read_file_scope(body, source);
        file.read_set_once_globals(body, source);
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
        let writers = &file.reference_writers;
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
                        // `unsigned blocks(n / 256);` is a scalar initialised directly;
                        // `auto grid = dim3{n, n};` is a `dim3`
                        let is_dim3 = node.up().and_then(|d| d.field("type")).is_some_and(|t| {
                            match text(t, source) {
                                "dim3" => true,
                                "auto" => {
                                    super::finding::dim3_arguments(strip(value, source), source)
                                        .is_some_and(|_| {
                                            strip(value, source).node_kind() != "initializer_list"
                                        })
                                }
                                _ => false,
                            }
                        });
                        let value = constructed_dim3(value, is_dim3, source);
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
                            let stored = syntax::stored_value(node, source).unwrap_or(right);
                            values.push(if compound { left } else { stored });
                        }
                        "field_expression" => {
                            // `(*grid).x` through a pointer is `grid->x`: a component of `grid`
                            let object = left.field("argument").map(|a| {
                                let a = strip(a, source);
                                match a.node_kind() {
                                    "pointer_expression" if operator(a, source) == "*" => {
                                        a.field("argument").map_or(a, |inner| strip(inner, source))
                                    }
                                    _ => a,
                                }
                            });
                            let object = object.map(|a| text(a, source));
                            let field = left.field("field").map(|f| text(f, source));
                            if let (Some(object), Some(field)) = (object, field) {
                                let values = locals.components.entry((object, field)).or_default();
                                let stored = syntax::stored_value(node, source).unwrap_or(right);
                                values.push(if compound { left } else { stored });
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
                // `pick(blocks, smem)` with `void pick(unsigned& b, unsigned& s)`: written by
                // the call, as through an address
                "call_expression" if !writers.is_empty() => {
                    let callee = node
                        .field("function")
                        .map(|f| text(strip(f, source), source));
                    let positions = callee.and_then(|callee| writers.get(callee));
                    let arguments = node.field("arguments");
                    if let (Some(positions), Some(arguments)) = (positions, arguments) {
                        let arguments: Vec<Node> = syntax::named_children(arguments)
                            .filter(|a| a.node_kind() != "comment")
                            .collect();
                        for position in positions {
                            let Some(argument) = arguments.get(*position) else {
                                continue;
                            };
                            if argument.node_kind() == "identifier" {
                                locals
                                    .values
                                    .entry(text(*argument, source))
                                    .or_default()
                                    .push(*argument);
                            }
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
    pub(super) fn facts_in_scope(
        &self,
        at: Node<'t>,
        scope: Node<'t>,
        source: &'t str,
    ) -> std::rc::Rc<[Comparison<'t>]> {
        if self.scope != Some(scope) {
            return super::limits::facts_at(at, scope, source).into();
        }
        if let Some(known) = self.facts.borrow().get(&at.id()) {
            return known.clone();
        }
        let facts: std::rc::Rc<[Comparison<'t>]> =
            super::limits::facts_at(at, scope, source).into();
        self.facts.borrow_mut().insert(at.id(), facts.clone());
        facts
    }

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
        for declaration in file_scope_constants(root, source) {
            self.read_constant_declaration(declaration, source);
        }
        if source.contains('&') {
            self.reference_writers = reference_writers(root, source);
        }
    }

    /// The file-scope variables a host function sets once (`set_once`), as the values their
    /// launches read: after the init function runs they hold them as constants would.
    pub(super) fn read_set_once_globals(&mut self, body: Node<'t>, source: &'t str) {
        let mut root = body;
        while let Some(parent) = root.up() {
            root = parent;
        }
        for (name, value) in super::set_once::set_once_globals(root, source) {
            self.file_constants.entry(name).or_insert(value);
        }
    }

    fn read_constant_declaration(&mut self, declaration: Node<'t>, source: &'t str) {
        if declaration.node_kind() == "field_declaration" {
            if let (Some(name), Some(value)) = (
                declaration.field("declarator"),
                declaration.field("default_value"),
            ) {
                self.file_constants.insert(text(name, source), value);
            }
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
                    let value = constructed_dim3(value, is_dim3, source);
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

    /// Whether `name` is declared a `dim3` (`dim3 block;`, `dim3 block = 64;`).
    pub(super) fn declares_dim3(&self, name: &str) -> bool {
        self.dim3_declarators.contains_key(name)
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

    /// Whether every name `value` reads holds one value: a local assigned once, or no local
    /// (a parameter, a constant), so the text means the same wherever it is read.
    pub(super) fn reads_settled_names(&self, value: Node, source: &str) -> bool {
        let mut settled = true;
        syntax::walk_iterative(value, |node| {
            if node.node_kind() == "identifier" {
                settled &= self
                    .values
                    .get(text(node, source))
                    .is_none_or(|values| values.len() == 1);
            }
            settled
        });
        settled
    }

    /// Whether every name `value` reads holds, where `value` is written, the value it keeps
    /// from there on: a local assigned once, no local, or one whose every assignment is
    /// written before `value` (`int n = 2048; if (argc > 1) n = atoi(argv[1]);` read after).
    /// Two such reads of a name see the same value, whichever it is.
    pub(super) fn reads_names_settled_before(&self, value: Node, source: &str) -> bool {
        let mut settled = true;
        syntax::walk_iterative(value, |node| {
            if node.node_kind() == "identifier" {
                settled &= self.values.get(text(node, source)).is_none_or(|values| {
                    values.len() == 1 || values.iter().all(|v| v.end_byte() <= value.start_byte())
                });
            }
            settled
        });
        settled
    }

    /// The one value of a local assigned once.
    pub(super) fn single(&self, name: &str) -> Option<Node<'t>> {
        match self.values.get(name).map(Vec::as_slice) {
            Some([value]) => Some(*value),
            _ => None,
        }
    }

    /// What the local `name` holds at `at`, among the values assigned to it. A `dim3` declared
    /// with its shape (`dim3 grid(32);`) holds that shape until an assignment: NotLocal where
    /// the declaration reaches `at` alone, so that an assignment later in a loop body does not
    /// reach round the loop past the declaration that starts each trip.
    pub(super) fn value_at(&self, name: &str, at: Node<'t>, source: &str) -> Held<'t> {
        let Some(values) = self.values.get(name) else {
            return Held::NotLocal;
        };
        let declared: Vec<Node<'t>> = self
            .dim3_declarators
            .get(name)
            .map(|declarators| {
                declarators
                    .iter()
                    .copied()
                    .filter(|d| !values.iter().any(|v| syntax::encloses(*d, *v)))
                    .collect()
            })
            .unwrap_or_default();
        if declared.is_empty() {
            return Held::of(values, at, self.scope, source);
        }
        let mut all = values.clone();
        all.extend(declared.iter().copied());
        match Held::of(&all, at, self.scope, source) {
            Held::One(value) if declared.contains(&value) => Held::NotLocal,
            Held::Alternatives(reaching) if reaching.iter().any(|v| declared.contains(v)) => {
                Held::Several
            }
            held => held,
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

/// The arguments of `dim3 grid = dim3(4, 4, 1);` (or `dim3{4, 4, 1}`), read as `dim3 grid(4,
/// 4, 1);`.
fn constructed_dim3<'t>(value: Node<'t>, is_dim3: bool, source: &str) -> Node<'t> {
    if !is_dim3 {
        return value;
    }
    super::finding::dim3_arguments(value, source).unwrap_or(value)
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

/// A member every object shares and no one changes: `static const unsigned WARP_SIZE = 32;`,
/// `static constexpr int kTile = 64;` with its value written in the class.
fn is_static_constant_member(member: Node, source: &str) -> bool {
    let words: Vec<&str> = syntax::words_before_type(member, source)
        .split_whitespace()
        .collect();
    member.field("default_value").is_some()
        && member
            .field("declarator")
            .is_some_and(|d| d.node_kind() == "field_identifier")
        && words.contains(&"static")
        && (words.contains(&"const") || words.contains(&"constexpr"))
}

/// `&name` handed to a call, or `name` bound to a function's non-`const` reference: the entry
/// `Locals` keeps for a local written through its address.
pub(super) fn written_through_address(value: Node, source: &str) -> bool {
    value.node_kind() == "identifier"
        && value.up().is_some_and(|p| {
            (p.node_kind() == "pointer_expression" && operator(p, source) == "&")
                || p.node_kind() == "argument_list"
        })
}

/// See `Locals::reference_writers`: the functions defined or declared at the file's scope (in
/// namespaces too) with a parameter declared `T& name` and not `const`.
fn reference_writers<'t>(root: Node<'t>, source: &'t str) -> HashMap<&'t str, Vec<usize>> {
    let mut writers: HashMap<&'t str, Vec<usize>> = HashMap::default();
    let mut scopes = vec![root];
    let mut visited = 0;
    while let Some(scope) = scopes.pop() {
        for mut item in syntax::named_children(scope) {
            visited += 1;
            if visited > 20_000 {
                return writers;
            }
            if item.node_kind() == "template_declaration" {
                match syntax::named_children(item)
                    .find(|c| matches!(c.node_kind(), "function_definition" | "declaration"))
                {
                    Some(inner) => item = inner,
                    None => continue,
                }
            }
            match item.node_kind() {
                "namespace_definition" | "linkage_specification" => {
                    if let Some(inner) = item.field("body") {
                        scopes.push(inner);
                    }
                }
                "declaration_list" => scopes.push(item),
                "function_definition" | "declaration" => {
                    let Some(declarator) = item
                        .field("declarator")
                        .filter(|d| d.node_kind() == "function_declarator")
                    else {
                        continue;
                    };
                    let name = declarator.field("declarator").map(|n| text(n, source));
                    let Some(parameters) = declarator.field("parameters") else {
                        continue;
                    };
                    let positions: Vec<usize> = syntax::named_children(parameters)
                        .filter(|p| p.node_kind() != "comment")
                        .enumerate()
                        .filter(|(_, p)| {
                            p.field("declarator")
                                .is_some_and(|d| d.node_kind() == "reference_declarator")
                                && !syntax::named_children(*p).any(|c| {
                                    c.node_kind() == "type_qualifier" && text(c, source) == "const"
                                })
                                && !text(*p, source).contains("&&")
                        })
                        .map(|(position, _)| position)
                        .collect();
                    if let (Some(name), false) = (name, positions.is_empty()) {
                        writers.entry(name).or_insert(positions);
                    }
                }
                _ => {}
            }
        }
    }
    writers
}

/// The `const`/`constexpr` declarations at the file's scope (in namespaces and `extern "C"`
/// blocks too), and its `dim3` declarations that no function changes, in order: what a kernel
/// reads of the file beyond its own text.
pub fn file_scope_constants<'t>(root: Node<'t>, source: &str) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    let mut unchanged_dim3 = Vec::new();
    if root.node_kind() != "translation_unit" {
        return found;
    }
    let mut scopes = vec![root];
    let mut visited = 0;
    while let Some(scope) = scopes.pop() {
        for item in syntax::named_children(scope) {
            visited += 1;
            if visited > 20_000 {
                return found;
            }
            match item.node_kind() {
                "namespace_definition" | "linkage_specification" => {
                    if let Some(inner) = item.field("body") {
                        scopes.push(inner);
                    }
                }
                "declaration_list" | "field_declaration_list" => scopes.push(item),
                // `class RadixSort { static const unsigned WARP_SIZE = 32; };`
                "class_specifier" | "struct_specifier" => {
                    if let Some(inner) = item.field("body") {
                        scopes.push(inner);
                    }
                }
                "field_declaration" if is_static_constant_member(item, source) => found.push(item),
                "declaration"
                    if syntax::named_children(item).any(|c| {
                        c.node_kind() == "type_qualifier"
                            && matches!(text(c, source), "const" | "constexpr")
                    }) =>
                {
                    found.push(item)
                }
                // `dim3 threadsPerBlock(TILE, TILE);` at file scope, which no function changes
                "declaration"
                    if item
                        .field("type")
                        .is_some_and(|t| text(t, source) == "dim3") =>
                {
                    unchanged_dim3.push(item)
                }
                _ => {}
            }
        }
    }
    if !unchanged_dim3.is_empty() {
        let written = syntax::names_written(root, source);
        found.extend(unchanged_dim3.into_iter().filter(|declaration| {
            syntax::named_children(*declaration).all(|declarator| {
                let name = match declarator.node_kind() {
                    "function_declarator" | "init_declarator" => declarator
                        .field("declarator")
                        .and_then(syntax::declarator_name)
                        .map(|n| text(n, source)),
                    _ => None,
                };
                name.is_none_or(|name| !written.contains(name))
            })
        }));
    }
    found
}
