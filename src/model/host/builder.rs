//! Building a host function's facts: the pre-pass over declarations, reassignments and uses, and the helpers the walk shares.

use super::*;

impl<'m, 't> Builder<'m, 't> {
    pub(super) fn new(
        model: &'m Model<'t>,
        function_index: usize,
        helpers: &'m helpers::HelperCache,
        helper_depth: usize,
    ) -> Self {
        let function = &model.functions[function_index];
        Builder {
            model,
            helpers,
            helper_depth,
            source: model.source,
            function,
            out: HostFunction {
                function_index,
                ..Default::default()
            },
            by_name: HashMap::default(),
            reassigned: HashSet::default(),
            plain_definitions: HashMap::default(),
            opaque: HashSet::default(),
            initializers: HashMap::default(),
            const_names: HashSet::default(),
            scalar_types: HashMap::default(),
            dim3_arguments: HashMap::default(),
            uses: HashMap::default(),
            error_variables: HashSet::default(),
            device: None,
            depends_on: Vec::new(),
        }
    }

    pub(super) fn text(&self, node: Node) -> &'t str {
        text(node, self.source)
    }

    pub(super) fn evaluate(&self, node: Node<'t>, fold_sizeof: bool) -> Option<Sym> {
        let scope = HostScope { builder: self };
        Evaluator {
            source: self.source,
            scope: &scope,
            fold_sizeof,
        }
        .eval(node)
    }

    /// `count * sizeof(U)` as written (through local definitions): U. A numeric factor
    /// (`n * 2 * sizeof(float)`) or a sum makes the intent unclear: None.
    pub(super) fn sizeof_unit(&self, node: Node<'t>) -> Option<String> {
        let mut node = strip(node, self.source);
        for _ in 0..4 {
            if node.node_kind() != "identifier" {
                break;
            }
            let name = self.text(node);
            if self.reassigned.contains(name) {
                return None;
            }
            node = strip(*self.initializers.get(name)?, self.source);
        }
        let mut factors = Vec::new();
        let mut pending = vec![node];
        while let Some(current) = pending.pop() {
            if factors.len() > 16 {
                return None;
            }
            if current.node_kind() == "binary_expression" && operator(current, self.source) == "*" {
                pending.extend(
                    [current.field("left")?, current.field("right")?]
                        .map(|n| strip(n, self.source)),
                );
            } else {
                factors.push(current);
            }
        }
        let mut unit = None;
        for factor in factors {
            match factor.node_kind() {
                "number_literal" => return None,
                "sizeof_expression" => {
                    if unit.is_some() {
                        return None;
                    }
                    unit = Some(match factor.field("type") {
                        Some(type_node) => size::normalize_type(self.text(type_node)),
                        // `sizeof(DTYPE)` with a macro or alias the parser took for a value
                        None => {
                            let value = strip(factor.field("value")?, self.source);
                            if value.node_kind() != "identifier" {
                                return None;
                            }
                            let name = self.text(value);
                            match self.scalar_types.get(name) {
                                Some(declared) => declared.clone(),
                                None if self.by_name.contains_key(name) => return None,
                                None => size::normalize_type(name),
                            }
                        }
                    });
                }
                "binary_expression" if !matches!(operator(factor, self.source), "+" | "-") => {
                    return None
                }
                _ => {}
            }
        }
        unit
    }

    pub(super) fn variable_of(&self, node: Node) -> Option<usize> {
        let node = strip(node, self.source);
        (node.node_kind() == "identifier")
            .then(|| self.by_name.get(self.text(node)).copied())
            .flatten()
    }

    /// The tracked variable whose own address an argument passes: `&v`, `(void*)&v`.
    pub(super) fn address_of_variable(&self, node: Node<'t>) -> Option<usize> {
        let mut node = strip(node, self.source);
        while node.node_kind() == "cast_expression" {
            node = strip(node.field("value")?, self.source);
        }
        if node.node_kind() != "pointer_expression" || operator(node, self.source) != "&" {
            return None;
        }
        self.variable_of(node.field("argument")?)
    }

    /// The tracked pointer an argument passes: `v`, `v + k`, `&v[k]`, `v.data()`, `(T*)v`.
    pub(super) fn pointer_arg(&self, node: Node<'t>) -> Option<PointerArg> {
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" => {
                let variable = self.variable_of(node)?;
                let info = &self.out.variables[variable];
                (info.is_pointer || info.pointee.is_some()).then_some(PointerArg {
                    variable,
                    whole: true,
                    host_data: false,
                })
            }
            "binary_expression" if matches!(operator(node, self.source), "+" | "-") => {
                let variable = self.variable_of(node.field("left")?)?;
                self.out.variables[variable]
                    .is_pointer
                    .then_some(PointerArg {
                        variable,
                        whole: false,
                        host_data: false,
                    })
            }
            "pointer_expression" if operator(node, self.source) == "&" => {
                let inner = strip(node.field("argument")?, self.source);
                if inner.node_kind() != "subscript_expression" {
                    return None;
                }
                let variable = self.variable_of(inner.field("argument")?)?;
                let info = &self.out.variables[variable];
                let zero = inner
                    .field("indices")
                    .or_else(|| inner.field("index"))
                    .map(|i| self.text(i).trim_matches(['[', ']', ' ']) == "0")
                    .unwrap_or(false);
                Some(PointerArg {
                    variable,
                    whole: zero,
                    host_data: info.is_vector,
                })
            }
            "call_expression" => {
                let function = node.field("function")?;
                if function.node_kind() != "field_expression" || !arguments(node).is_empty() {
                    return None;
                }
                let field = function.field("field")?;
                if self.text(field) != "data" {
                    return None;
                }
                let variable = self.variable_of(function.field("argument")?)?;
                self.out.variables[variable]
                    .is_vector
                    .then_some(PointerArg {
                        variable,
                        whole: true,
                        host_data: true,
                    })
            }
            _ => None,
        }
    }

    // ---- pre-pass: declarations, reassignments, uses ----

    pub(super) fn prepare(&mut self) {
        let source = self.source;
        for parameter in &self.function.parameters {
            let type_text = size::normalize_type(&parameter.type_text);
            // `const std::vector<float>& h`: host storage of `float`s
            let vector_element = (!parameter.is_pointer)
                .then(|| vector_element(&type_text))
                .flatten();
            let index = self.out.variables.len();
            self.out.variables.push(Variable {
                name: parameter.name.clone(),
                declaration: parameter.declaration,
                pointee: if parameter.is_pointer {
                    Some(type_text.clone())
                } else {
                    vector_element.clone()
                },
                is_pointer: parameter.is_pointer,
                is_parameter: true,
                outlives_call: false,
                is_vector: vector_element.is_some(),
                is_array: false,
                initial: Initial::Unknown,
            });
            self.by_name.insert(parameter.name.clone(), index);
            if !parameter.is_pointer {
                self.scalar_types.insert(parameter.name.clone(), type_text);
            }
        }
        let mut declarations = Vec::new();
        let mut reassigned = HashSet::default();
        let mut plain_definitions: HashMap<String, Vec<Node<'t>>> = HashMap::default();
        let mut opaque: HashSet<String> = HashSet::default();
        let mut uses: HashMap<&'t str, Vec<usize>> = HashMap::default();
        let mut has_goto = false;
        let mut jump_targets = Vec::new();
        let mut peer = false;
        let mut graphs = false;
        // identifiers that name what a declarator declares, noted when the walk (pre-order) meets
        // the declarator, since `Node::parent` costs a search from the root
        let mut declared_names: HashSet<usize> = HashSet::default();
        walk_iterative(self.function.body, |node| {
            let kind = node.node_kind();
            if matches!(
                kind,
                "init_declarator" | "pointer_declarator" | "array_declarator" | "declaration"
            ) {
                if let Some(declarator) = node
                    .field("declarator")
                    .filter(|d| d.node_kind() == "identifier")
                {
                    declared_names.insert(declarator.id());
                }
            }
            match kind {
                "declaration" => declarations.push(node),
                // `bool& opt = use_gpu;`: writes through the reference change the name
                "init_declarator"
                    if node
                        .field("declarator")
                        .is_some_and(|d| d.node_kind() == "reference_declarator") =>
                {
                    if let Some(value) = node
                        .field("value")
                        .map(|v| strip(v, source))
                        .filter(|v| v.node_kind() == "identifier")
                    {
                        let name = text(value, source).to_string();
                        opaque.insert(name.clone());
                        reassigned.insert(name);
                    }
                }
                "assignment_expression" => {
                    if let Some(left) = node.field("left") {
                        let left = strip(left, source);
                        if left.node_kind() == "identifier" {
                            let name = text(left, source).to_string();
                            match (operator(node, source), node.field("right")) {
                                ("=", Some(right)) => {
                                    plain_definitions.entry(name).or_default().push(right)
                                }
                                _ => {
                                    opaque.insert(name);
                                }
                            }
                        }
                        let base = if left.node_kind() == "field_expression" {
                            left.field("argument")
                        } else {
                            Some(left)
                        };
                        if let Some(base) = base.filter(|b| b.node_kind() == "identifier") {
                            reassigned.insert(text(base, source).to_string());
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = node.field("argument") {
                        let name = text(strip(argument, source), source).to_string();
                        opaque.insert(name.clone());
                        reassigned.insert(name);
                    }
                }
                "pointer_expression" if operator(node, source) == "&" => {
                    if let Some(argument) = node.field("argument") {
                        let argument = strip(argument, source);
                        if argument.node_kind() == "identifier" {
                            let name = text(argument, source).to_string();
                            opaque.insert(name.clone());
                            reassigned.insert(name);
                        }
                    }
                }
                "goto_statement" => has_goto = true,
                // a label is a jump target even where the `goto` is out of sight, in a macro
                // (`CHK(cudaMalloc(...), err_free)`): the code under it is not reached by
                // falling through from a `return` before it
                "labeled_statement" => {
                    has_goto = true;
                    jump_targets.push(node.start_byte());
                }
                // `stream >> n` assigns n
                "binary_expression" if operator(node, source) == ">>" => {
                    if let Some(right) = node
                        .field("right")
                        .map(|r| strip(r, source))
                        .filter(|r| r.node_kind() == "identifier")
                    {
                        let name = text(right, source).to_string();
                        opaque.insert(name.clone());
                        reassigned.insert(name);
                    }
                }
                "identifier" if !declared_names.contains(&node.id()) => {
                    uses.entry(text(node, source))
                        .or_default()
                        .push(node.start_byte());
                }
                "call_expression" => {
                    let name = call_name(node, source);
                    // a local handed to unknown code may be taken by reference and changed there
                    let benign = launch_form(node, source).is_some()
                        || syntax::is_functional_cast(node, source)
                        || is_cuda_api(name)
                        || matches!(
                            name,
                            "printf"
                                | "fprintf"
                                | "sizeof"
                                | "dim3"
                                | "min"
                                | "max"
                                | "std::min"
                                | "std::max"
                        );
                    if !benign {
                        if let Some(arguments) = node.field("arguments") {
                            for argument in named_children(arguments) {
                                if argument.node_kind() == "identifier" {
                                    let name = text(argument, source).to_string();
                                    opaque.insert(name.clone());
                                    reassigned.insert(name);
                                }
                            }
                        }
                    }
                    let name = cuda_name(name);
                    if matches!(
                        name.as_ref(),
                        "cudaDeviceEnablePeerAccess" | "cuCtxEnablePeerAccess"
                    ) {
                        peer = true;
                    }
                    if name.starts_with("cudaGraph") || name == "cudaStreamBeginCapture" {
                        graphs = true;
                    }
                }
                _ => {}
            }
            true
        });
        self.reassigned = reassigned;
        self.plain_definitions = plain_definitions;
        self.opaque = opaque;
        self.uses = uses;
        self.out.has_goto = has_goto;
        self.out.jump_targets = jump_targets;
        self.out.peer_access = peer;
        self.out.uses_graphs = graphs;
        let mut declared_names: HashMap<String, usize> =
            self.by_name.keys().map(|k| (k.clone(), 1)).collect();
        for declaration in declarations {
            for name in self.declare(declaration) {
                *declared_names.entry(name).or_default() += 1;
            }
        }
        // a name declared twice (sibling scopes, shadowing) is not resolved by name: untracked
        for (name, count) in declared_names {
            if count > 1 {
                self.by_name.remove(&name);
                self.initializers.remove(&name);
                self.scalar_types.remove(&name);
                self.opaque.insert(name.clone());
                self.reassigned.insert(name);
            }
        }
    }

    /// Records a declaration's variables and returns their names.
    pub(super) fn declare(&mut self, declaration: Node<'t>) -> Vec<String> {
        let mut names = Vec::new();
        let Some(type_node) = declaration.field("type") else {
            return names;
        };
        let type_text = self.text(type_node);
        let is_static = syntax::children(declaration)
            .any(|c| c.node_kind() == "storage_class_specifier" && self.text(c) == "static");
        let normalized_type = size::normalize_type(type_text);
        let vector_element = vector_element(&normalized_type);
        // `if (auto* d = buffer.data())`: a condition's declaration holds its value itself
        let condition_value = declaration.field("value");
        for declarator in named_children(declaration) {
            if condition_value.is_some_and(|v| v.id() == declarator.id()) {
                continue;
            }
            let (target, value) = match declarator.node_kind() {
                "init_declarator" => (declarator.field("declarator"), declarator.field("value")),
                "identifier" | "pointer_declarator" | "array_declarator" => {
                    (Some(declarator), condition_value)
                }
                // `std::vector<float> v(n);` parses as a function declaration
                "function_declarator" if vector_element.is_some() => {
                    (declarator.field("declarator"), None)
                }
                _ => continue,
            };
            let Some(target) = target else { continue };
            // `auto [pool, index] = carve(stack);` binds the parts of what the call returns:
            // no array, and no value this function can follow
            if syntax::binds_structure(target) {
                continue;
            }
            let Some(name_node) = syntax::declarator_name(target) else {
                continue;
            };
            let name = self.text(name_node).to_string();
            names.push(name.clone());
            let is_const = syntax::children(declaration).any(|c| {
                c.node_kind() == "type_qualifier" && matches!(self.text(c), "const" | "constexpr")
            });
            if is_const {
                self.const_names.insert(name.clone());
            }
            // `T* a[N]` is an array (of pointers), not a pointer; `T (*p)[N]` is a pointer (to
            // arrays of N), whose pointee the element type does not give
            let points_to_arrays = target.node_kind() == "array_declarator"
                && syntax::innermost_declarator(target)
                    .is_some_and(|d| d.node_kind() == "pointer_declarator");
            let is_array = !points_to_arrays
                && (target.node_kind() == "array_declarator" || self.text(target).contains('['));
            let is_pointer =
                points_to_arrays || target.node_kind() == "pointer_declarator" && !is_array;
            if let Some(value) = value {
                if value.node_kind() == "argument_list" && normalized_type == "dim3" {
                    self.dim3_arguments.insert(name.clone(), value);
                } else if value.node_kind() != "argument_list"
                    && value.node_kind() != "initializer_list"
                {
                    self.initializers.insert(name.clone(), value);
                    self.plain_definitions
                        .entry(name.clone())
                        .or_default()
                        .push(value);
                }
            }
            if !is_pointer && !is_array && vector_element.is_none() {
                self.scalar_types
                    .insert(name.clone(), normalized_type.clone());
                continue;
            }
            let pointee = if let Some(element) = &vector_element {
                Some(element.clone())
            } else if points_to_arrays {
                None
            } else if is_pointer {
                // `float** p` declares a pointer to `float*`
                let stars = self
                    .text(target)
                    .chars()
                    .take_while(|c| *c == '*' || c.is_whitespace())
                    .filter(|c| *c == '*')
                    .count();
                Some(format!(
                    "{normalized_type}{}",
                    "*".repeat(stars.saturating_sub(1))
                ))
            } else {
                Some(normalized_type.clone())
            };
            let initial = match value {
                None if is_static => Initial::Null,
                // `int* p(nullptr);` parses as a function declaration: direct initialisation
                None => match direct_initializer(target, self.source) {
                    Some("nullptr" | "NULL" | "0") => Initial::Null,
                    Some(_) => Initial::Unknown,
                    None => Initial::Uninitialized,
                },
                Some(v) if is_null(v, self.source) => Initial::Null,
                Some(_) => Initial::Unknown,
            };
            let index = self.out.variables.len();
            self.out.variables.push(Variable {
                name: name.clone(),
                declaration: declarator,
                pointee,
                is_pointer,
                is_parameter: false,
                outlives_call: is_static,
                is_vector: vector_element.is_some() || is_array,
                is_array,
                initial: if is_array || vector_element.is_some() {
                    Initial::Unknown
                } else {
                    initial
                },
            });
            // the innermost declaration wins for shadowed names; good enough for one function
            self.by_name.insert(name, index);
        }
        names
    }

    pub(super) fn finish(&mut self) {
        self.depends_on.sort_unstable();
        self.depends_on.dedup();
    }

    pub(super) fn push_event(
        &mut self,
        variable: usize,
        kind: EventKind,
        node: Node<'t>,
        context: Context<'t>,
    ) {
        self.out.events.push(Event {
            variable,
            kind,
            node,
            region: context.region,
            enclosing_loop: context.enclosing_loop,
            conditional: context.conditional,
            device: self.device,
        });
    }
}

/// The text between the parentheses of `T* p(value);`, which C++ reads as a direct
/// initialisation where the grammar sees a function declarator.
fn direct_initializer<'s>(target: Node, source: &'s str) -> Option<&'s str> {
    if target.node_kind() != "pointer_declarator" {
        return None;
    }
    let function = target.field("declarator")?;
    if function.node_kind() != "function_declarator" {
        return None;
    }
    let parameters = function.field("parameters")?;
    let text = source.get(parameters.byte_range())?;
    let inner = text.strip_prefix('(')?.strip_suffix(')')?.trim();
    (!inner.is_empty()).then_some(inner)
}

/// The element type of a host vector type (`vector<float>` after normalization, or
/// `thrust::host_vector<float>`).
fn vector_element(normalized_type: &str) -> Option<String> {
    if !(normalized_type.starts_with("vector<")
        || normalized_type.starts_with("thrust::host_vector<"))
    {
        return None;
    }
    let start = normalized_type.find('<')? + 1;
    let end = normalized_type.rfind('>')?;
    normalized_type.get(start..end).map(str::to_string)
}
