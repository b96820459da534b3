//! Host expressions and calls: CUDA API calls (allocations, copies, frees, error checks) and unknown calls.

use super::helpers::ParameterUse;
use super::*;

impl<'m, 't> Builder<'m, 't> {
    // ---- expressions ----

    pub(super) fn expression(&mut self, node: Node<'t>, context: Context<'t>) {
        let mut calls = Vec::new();
        let mut assignments = Vec::new();
        let mut deletes = Vec::new();
        walk_iterative(node, |n| match n.node_kind() {
            "lambda_expression" | "compound_statement" => false,
            "call_expression" => {
                calls.push(n);
                true
            }
            "assignment_expression" => {
                assignments.push(n);
                true
            }
            "delete_expression" => {
                deletes.push(n);
                true
            }
            _ => true,
        });
        // calls in source order (outer before inner, as written)
        for call in calls {
            self.call(call, arm_context(call, node, context, self.source));
        }
        for assignment in assignments {
            let (Some(left), Some(right)) = (assignment.field("left"), assignment.field("right"))
            else {
                continue;
            };
            let left = strip(left, self.source);
            let right_stripped = strip(right, self.source);
            if right_stripped.node_kind() == "call_expression"
                && is_cuda_api(call_name(right_stripped, self.source))
                && left.node_kind() == "identifier"
            {
                self.error_variables.insert(self.text(left).to_string());
            }
            if left.node_kind() == "identifier" && operator(assignment, self.source) == "=" {
                if let Some(&variable) = self.by_name.get(self.text(left)) {
                    self.escape_identifiers(right, context);
                    self.assigned(variable, right, assignment, context, false);
                    continue;
                }
            }
            if operator(assignment, self.source) == "=" {
                self.escape_identifiers(right, context);
            }
        }
        for delete in deletes {
            if let Some(argument) = named_children(delete).last() {
                if let Some(variable) = self.variable_of(argument) {
                    self.push_event(
                        variable,
                        EventKind::Freed { device: false },
                        delete,
                        context,
                    );
                }
            }
        }
    }

    pub(super) fn result_use(&self, call: Node<'t>) -> ResultUse {
        result_use(call, self.source, &|name, after| {
            self.uses
                .get(name)
                .is_some_and(|positions| positions.iter().any(|&p| p > after))
        })
    }

    pub(super) fn call(&mut self, call: Node<'t>, context: Context<'t>) {
        if let Some(form) = launch_form(call, self.source) {
            self.launch(call, form, context);
            return;
        }
        // `reinterpret_cast<void**>(&d)`, `size_t(n)`: a cast, not a call; what it wraps is
        // read by the call or statement around it
        if syntax::is_functional_cast(call, self.source) {
            return;
        }
        let name = call_name(call, self.source).to_string();
        let args = arguments(call);
        if name.is_empty() {
            // a method call or a call through an expression: arguments go to unknown code
            self.unknown_call_arguments(&args, context);
            return;
        }
        // `cleanup()`, a lambda of this function: the buffers its body frees are freed here
        let lambda = self
            .initializers
            .get(&name)
            .map(|value| strip(*value, self.source))
            .filter(|value| value.node_kind() == "lambda_expression");
        if let Some(lambda) = lambda {
            self.frees_of_lambda(lambda, call, &args, context);
            self.unknown_call_arguments(&args, context);
            return;
        }
        // a function-like macro of this file may use the caller's locals by name
        // (`#define CLEANUP(s) do { cudaFree(d_a); ... } while (0)`): they go to unknown code
        if let Some(definition) = self.model.function_macro_definition(&name) {
            let effects =
                super::macro_calls::macro_effects(&definition.parameters, definition.body);
            self.macro_mentions(definition.body, call, context);
            if !effects.is_empty() {
                self.macro_call_effects(call, &args, &effects, context);
                return;
            }
        } else if let Some((parameters, body)) = self.model.included_memory_macro(&name) {
            let effects = super::macro_calls::macro_effects(&parameters, body);
            if !effects.is_empty() {
                self.macro_call_effects(call, &args, &effects, context);
                return;
            }
        }
        // `SAFE_ALOC_GPU(gpu, bytes)` in a header whose includer defines the macro: a macro out
        // of sight may take its argument's address (`cudaMalloc((void**)&(X), (Y))`), so a
        // pointer named bare in it may be assigned there
        if crate::model::launch::names_a_macro(&name) && self.model.function_named(&name).is_none()
        {
            for argument in &args {
                let argument = strip(*argument, self.source);
                if argument.node_kind() != "identifier" {
                    continue;
                }
                if let Some(&variable) = self.by_name.get(self.text(argument)) {
                    if self.out.variables[variable].is_pointer {
                        self.push_event(variable, EventKind::AddressTaken, argument, context);
                    }
                }
            }
        }
        // last-error queries and error checks are read by the error flow (`model::errors`); the
        // calls a check wraps are visited on their own
        if is_last_error_query(&name) || is_check_name(&name, self.model.check_macros) {
            // a function of this file named like a check (`launchWithoutCheck(d, n)`) still
            // does what its body does with the pointers it is given
            if self
                .model
                .function_named(&name)
                .is_some_and(|f| f.kind == FunctionKind::Host)
            {
                self.helper_or_unknown_call(call, &args, context);
                return;
            }
            // an address handed to it is no wrapped call's: a helper named like a check
            // (`cudaMallocSafe(&d, bytes)`) may assign through it
            for argument in &args {
                if let Some(identifier) = address_of(*argument, self.source) {
                    if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                        self.push_event(variable, EventKind::AddressTaken, *argument, context);
                    }
                }
            }
            return;
        }
        if is_cuda_api(&name) {
            self.cuda_call(call, &name, &args, context);
            return;
        }
        // cuBLAS, cuFFT, NCCL..., and C's file I/O (`fread(buffer, 4, n, fp)`): they read and
        // write the buffers they are given, keep none
        if super::stored::is_library_call(&name) || super::stored::is_file_io(&name) {
            self.arguments_written_or_assigned(call, &args, context);
            return;
        }
        match name.as_str() {
            "free" => {
                if let Some(variable) = args.first().and_then(|a| self.variable_of(*a)) {
                    self.push_event(variable, EventKind::Freed { device: false }, call, context);
                }
            }
            "malloc" | "calloc" | "printf" | "fprintf" | "sizeof" | "static_cast" | "memset"
            | "memcpy" => {
                if matches!(name.as_str(), "memset" | "memcpy") {
                    self.unknown_call_arguments(&args, context);
                }
            }
            _ => self.helper_or_unknown_call(call, &args, context),
        }
    }

    /// The device buffers a local lambda's body frees (`auto cleanup = [&] { cudaFree(d_a);
    /// };`), freed at the call of the lambda: a captured local by its name, a parameter as the
    /// argument the call passes for it.
    fn frees_of_lambda(
        &mut self,
        lambda: Node<'t>,
        call: Node<'t>,
        args: &[Node<'t>],
        context: Context<'t>,
    ) {
        let Some(body) = lambda.field("body") else {
            return;
        };
        let parameters: Vec<&str> = lambda
            .field("declarator")
            .and_then(|d| d.field("parameters"))
            .map(|list| {
                syntax::named_children(list)
                    .filter_map(|p| p.field("declarator").and_then(syntax::declarator_name))
                    .map(|n| self.text(n))
                    .collect()
            })
            .unwrap_or_default();
        let mut freed = Vec::new();
        walk_iterative(body, |node| match node.node_kind() {
            "lambda_expression" => false,
            "call_expression" => {
                if super::stored::is_device_free(call_name(node, self.source)) {
                    if let Some(first) = arguments(node).first() {
                        freed.push(strip(*first, self.source));
                    }
                }
                true
            }
            _ => true,
        });
        for target in freed {
            if target.node_kind() != "identifier" {
                continue;
            }
            let name = self.text(target);
            let variable = match parameters.iter().position(|p| *p == name) {
                Some(position) => args.get(position).and_then(|a| self.variable_of(*a)),
                None => self.by_name.get(name).copied(),
            };
            if let Some(variable) = variable {
                self.push_event(variable, EventKind::Freed { device: true }, call, context);
            }
        }
    }

    /// Every tracked pointer a macro body names is handed to unknown code at the call.
    /// A call that may write the buffers it is given, or assign through an address it is given.
    fn arguments_written_or_assigned(
        &mut self,
        call: Node<'t>,
        args: &[Node<'t>],
        context: Context<'t>,
    ) {
        for argument in args {
            if let Some(identifier) = address_of(*argument, self.source) {
                if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                    self.push_event(variable, EventKind::AddressTaken, *argument, context);
                }
            } else if let Some(pointer) = self.pointer_arg(*argument) {
                self.push_event(
                    pointer.variable,
                    EventKind::Written {
                        kind: WriteKind::Unknown,
                        bytes: None,
                        whole: false,
                    },
                    call,
                    context,
                );
            }
        }
    }

    /// Records the allocation a CUDA allocation call makes (written in the function, or in the
    /// body of a macro it calls), with its byte count, and the allocation of its variable.
    fn record_api_allocation(
        &mut self,
        call: Node<'t>,
        allocated: ApiAllocation<'t>,
        context: Context<'t>,
    ) {
        let size_node = allocated.size_node;
        let allocation = self.out.allocations.len();
        self.out.allocations.push(Allocation {
            call,
            api: allocated.api,
            variable: allocated.variable,
            memory: allocated.memory,
            size_node,
            bytes: size_node.and_then(|s| self.evaluate(s, true)),
            sizeof_unit: size_node.and_then(|s| self.sizeof_unit(s)),
            conditional: context.conditional,
            enclosing_loop: context.enclosing_loop,
            retried_after_failure: allocated.retried_after_failure,
            through: allocated.through,
            helper: None,
        });
        if let Some(variable) = allocated.variable {
            let memory = allocated.memory;
            self.push_event(
                variable,
                EventKind::Allocated { memory, allocation },
                call,
                context,
            );
        }
    }

    /// A call of a macro that allocates or frees through its parameters: the arguments passed
    /// for them are allocated or freed at the call; the others go to unknown code.
    fn macro_call_effects(
        &mut self,
        call: Node<'t>,
        args: &[Node<'t>],
        effects: &[super::macro_calls::MacroEffect],
        context: Context<'t>,
    ) {
        use super::macro_calls::MacroEffect;
        let mut handled = Vec::new();
        for effect in effects {
            match effect {
                MacroEffect::Allocates {
                    api,
                    memory,
                    target,
                    size,
                } => {
                    let Some(variable) = args.get(*target).and_then(|a| self.variable_of(*a))
                    else {
                        continue;
                    };
                    handled.push(*target);
                    let size_node = size.and_then(|s| args.get(s).copied());
                    let allocated = ApiAllocation {
                        api: api.clone(),
                        variable: Some(variable),
                        memory: *memory,
                        size_node,
                        through: None,
                        retried_after_failure: false,
                    };
                    self.record_api_allocation(call, allocated, context);
                }
                MacroEffect::Frees { target } => {
                    let Some(variable) = args.get(*target).and_then(|a| self.variable_of(*a))
                    else {
                        continue;
                    };
                    handled.push(*target);
                    self.push_event(variable, EventKind::Freed { device: true }, call, context);
                }
                MacroEffect::Clears { target } => {
                    if let Some(variable) = args.get(*target).and_then(|a| self.variable_of(*a)) {
                        self.push_event(variable, EventKind::Nulled, call, context);
                    }
                }
            }
        }
        let unknown: Vec<Node<'t>> = args
            .iter()
            .enumerate()
            .filter(|(position, _)| !handled.contains(position))
            .map(|(_, a)| *a)
            .collect();
        self.unknown_call_arguments(&unknown, context);
    }

    fn macro_mentions(&mut self, body: &str, call: Node<'t>, context: Context<'t>) {
        let mentioned: Vec<usize> = body
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter_map(|word| self.by_name.get(word).copied())
            .collect();
        for variable in mentioned {
            if self.out.variables[variable].is_pointer || self.out.variables[variable].is_vector {
                self.push_event(variable, EventKind::Escaped, call, context);
            }
        }
    }

    /// A call of a function the model does not detail: a helper of this file that allocates
    /// through an argument (`alloc_buffer(&d, bytes)`) allocates that variable; every other
    /// argument goes to unknown code.
    fn helper_or_unknown_call(&mut self, call: Node<'t>, args: &[Node<'t>], context: Context<'t>) {
        let passes_pointer = args.iter().any(|a| {
            address_of(*a, self.source).is_some()
                || self
                    .variable_of(*a)
                    .is_some_and(|v| self.out.variables[v].is_pointer)
        });
        let stored = if passes_pointer {
            self.stored_by_call(call, args)
        } else {
            Vec::new()
        };
        let uses = if passes_pointer {
            self.parameter_uses_of_call(call, args.len())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut unknown = Vec::new();
        for (position, argument) in args.iter().enumerate() {
            let allocated = stored
                .iter()
                .find(|(p, _)| *p == position)
                .and_then(|(_, a)| {
                    let variable = match address_of(*argument, self.source) {
                        Some(identifier) => self.by_name.get(self.text(identifier)).copied(),
                        None => self.variable_of(*argument),
                    }?;
                    self.out.variables[variable]
                        .is_pointer
                        .then_some((variable, a))
                });
            match allocated {
                Some((variable, allocation)) => {
                    self.push_called_allocation(variable, call, allocation, context)
                }
                None => {
                    let used = uses.get(position).copied().unwrap_or(ParameterUse::Unknown);
                    if !self.apply_parameter_use(used, call, *argument, context) {
                        unknown.push(*argument);
                    }
                }
            }
        }
        self.unknown_call_arguments(&unknown, context);
    }

    /// Records what a called function of this file does with a pointer argument: frees it, or
    /// borrows it. False when the argument is not a tracked pointer or the use is unknown.
    fn apply_parameter_use(
        &mut self,
        used: ParameterUse,
        call: Node<'t>,
        argument: Node<'t>,
        context: Context<'t>,
    ) -> bool {
        match used {
            ParameterUse::Frees { device, nulls } => {
                let Some(variable) = self.variable_of(argument) else {
                    return false;
                };
                self.push_event(variable, EventKind::Freed { device }, call, context);
                if nulls {
                    self.push_event(variable, EventKind::Nulled, call, context);
                }
                true
            }
            ParameterUse::Borrows { reads, writes } => {
                let Some(pointer) = self.pointer_arg(argument) else {
                    return false;
                };
                self.push_event(
                    pointer.variable,
                    EventKind::Borrowed {
                        reads: reads && pointer.whole,
                        writes,
                    },
                    call,
                    context,
                );
                true
            }
            ParameterUse::Unknown => false,
        }
    }

    /// Records what a helper call allocates for `variable`, as a direct allocation at the call.
    pub(super) fn push_called_allocation(
        &mut self,
        variable: usize,
        call: Node<'t>,
        called: &super::helpers::CalledAllocation<'t>,
        context: Context<'t>,
    ) {
        let allocation = self.out.allocations.len();
        self.out.allocations.push(Allocation {
            call,
            api: called.api.clone(),
            variable: Some(variable),
            memory: called.memory,
            size_node: called.size_node,
            bytes: called.bytes.clone(),
            sizeof_unit: called.sizeof_unit.clone(),
            conditional: context.conditional,
            enclosing_loop: context.enclosing_loop,
            retried_after_failure: false,
            through: None,
            helper: Some(called.helper.clone()),
        });
        self.push_event(
            variable,
            EventKind::Allocated {
                memory: called.memory,
                allocation,
            },
            call,
            context,
        );
        if called.touched {
            self.push_event(
                variable,
                EventKind::Written {
                    kind: WriteKind::Unknown,
                    bytes: None,
                    whole: false,
                },
                call,
                context,
            );
        }
    }

    pub(super) fn unknown_call_arguments(&mut self, args: &[Node<'t>], context: Context<'t>) {
        for argument in args {
            if let Some(identifier) = address_of(*argument, self.source) {
                if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                    self.push_event(variable, EventKind::AddressTaken, *argument, context);
                }
                continue;
            }
            if let Some(pointer) = self.pointer_arg(*argument) {
                self.push_event(pointer.variable, EventKind::Escaped, *argument, context);
                continue;
            }
            let stripped = strip(*argument, self.source);
            if stripped.node_kind() == "identifier" {
                if let Some(&variable) = self.by_name.get(self.text(stripped)) {
                    self.push_event(variable, EventKind::Escaped, *argument, context);
                }
            }
        }
    }

    /// Every copy kind a kind argument may hold, each with the name where it is written: the
    /// name, both arms of a `?:`, the values of a local reaching this use. None when any is
    /// something else.
    fn copy_kinds(&self, node: Node<'t>, depth: usize) -> Option<Vec<(Node<'t>, (Side, Side))>> {
        if depth > 4 {
            return None;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" | "qualified_identifier" => {
                let name = self.text(node);
                let last = name.rsplit("::").next().unwrap_or(name);
                let sides = match cuda_name(last).as_ref() {
                    "cudaMemcpyHostToDevice" => Some((Side::Host, Side::Device)),
                    "cudaMemcpyDeviceToHost" => Some((Side::Device, Side::Host)),
                    "cudaMemcpyDeviceToDevice" => Some((Side::Device, Side::Device)),
                    "cudaMemcpyHostToHost" => Some((Side::Host, Side::Host)),
                    _ => None,
                };
                if let Some(sides) = sides {
                    return Some(vec![(node, sides)]);
                }
                if node.node_kind() != "identifier" || self.opaque.contains(name) {
                    return None;
                }
                // a local kind: the values that reach here
                let definitions = self.plain_definitions.get(name)?;
                let values = crate::model::reaching::reaching(
                    definitions,
                    node,
                    self.function.definition,
                    self.source,
                );
                if values.is_empty() {
                    return None;
                }
                let mut kinds = Vec::new();
                for value in values {
                    kinds.extend(self.copy_kinds(value, depth + 1)?);
                }
                Some(kinds)
            }
            "conditional_expression" => {
                let mut kinds = self.copy_kinds(node.field("consequence")?, depth + 1)?;
                kinds.extend(self.copy_kinds(node.field("alternative")?, depth + 1)?);
                Some(kinds)
            }
            _ => None,
        }
    }

    pub(super) fn cuda_call(
        &mut self,
        call: Node<'t>,
        name: &str,
        args: &[Node<'t>],
        context: Context<'t>,
    ) {
        self.depends_on.push(name.to_string());
        let defined_here = self.model.function_named(name);
        let returns_error = defined_here.map(|f| {
            let head = &self.source[f.definition.start_byte()..f.name_node.start_byte()];
            head.contains("cudaError") || head.contains("hipError") || head.contains("CUresult")
        });
        if !returns_no_error(name) && returns_error != Some(false) {
            let result = self.result_use(call);
            self.out.calls.push(CudaCall {
                call,
                name: name.to_string(),
                result,
                on_error_path: context.error_path,
            });
        }
        // HIP's calls are read by their CUDA names; what the model records keeps the name written
        let api = cuda_name(name);
        match api.as_ref() {
            "cudaSetDevice" => {
                let value = args
                    .first()
                    .and_then(|a| self.evaluate(*a, true))
                    .and_then(|s| s.as_constant());
                self.device = if context.conditional { None } else { value };
            }
            "cudaMalloc" | "cudaMallocAsync" | "cudaMallocManaged" | "cudaMallocHost"
            | "cudaHostAlloc" | "cuMemAlloc" | "cuMemAlloc_v2" | "cudaMallocPitch"
            | "cuMemAllocManaged" | "cuMemAllocHost" => {
                let memory = match api.as_ref() {
                    "cudaMallocManaged" | "cuMemAllocManaged" => Memory::Managed,
                    "cudaMallocHost" | "cuMemAllocHost" => Memory::Pinned,
                    "cudaHostAlloc" => {
                        if args
                            .get(2)
                            .is_some_and(|f| self.text(*f).contains("Mapped"))
                        {
                            Memory::Mapped
                        } else {
                            Memory::Pinned
                        }
                    }
                    _ => Memory::Device,
                };
                let size_node = if api == "cudaMallocPitch" {
                    None
                } else {
                    args.get(1).copied()
                };
                let target = args.first().copied();
                let variable = target
                    .and_then(|a| address_of(a, self.source))
                    .and_then(|i| self.by_name.get(self.text(i)).copied());
                // `cudaMalloc(out, n)`, `cudaMalloc((void**)out, n)` on a `T** out`
                let through = target
                    .filter(|_| variable.is_none())
                    .and_then(|a| self.variable_of(a))
                    .filter(|&v| self.out.variables[v].is_pointer);
                let allocated = ApiAllocation {
                    api: name.to_string(),
                    variable,
                    memory,
                    size_node,
                    through,
                    retried_after_failure: context
                        .enclosing_loop
                        .is_some_and(|l| loops::retries_after_failure(l, call, self.source)),
                };
                self.record_api_allocation(call, allocated, context);
                for argument in args.iter().skip(1) {
                    self.escape_address(*argument, context);
                }
            }
            "cudaHostGetDevicePointer" => {
                if let Some(variable) = args
                    .first()
                    .and_then(|a| address_of(*a, self.source))
                    .and_then(|i| self.by_name.get(self.text(i)).copied())
                {
                    let allocation = self.out.allocations.len();
                    self.out.allocations.push(Allocation {
                        call,
                        api: name.to_string(),
                        variable: Some(variable),
                        memory: Memory::Mapped,
                        size_node: None,
                        bytes: None,
                        sizeof_unit: None,
                        conditional: context.conditional,
                        enclosing_loop: context.enclosing_loop,
                        retried_after_failure: false,
                        through: None,
                        helper: None,
                    });
                    self.push_event(
                        variable,
                        EventKind::Allocated {
                            memory: Memory::Mapped,
                            allocation,
                        },
                        call,
                        context,
                    );
                }
            }
            "cudaDeviceReset" | "cudaThreadExit" if !context.conditional => {
                // a `return` before the reset leaves with what was allocated before it, except
                // in `main`, where a `return` ends the process and releases it too
                let mut releases_from = self.function.body.start_byte();
                let is_main = self.function.name == "main";
                walk_iterative(self.function.body, |node| {
                    if !is_main
                        && node.end_byte() <= call.start_byte()
                        && node.node_kind() == "return_statement"
                    {
                        releases_from = releases_from.max(node.end_byte());
                    }
                    node.start_byte() < call.start_byte()
                });
                self.out.device_resets.push(DeviceReset {
                    call,
                    releases_from,
                    device: self.device,
                });
            }
            "cudaFree" | "cudaFreeAsync" | "cudaFreeHost" | "cuMemFree" | "cuMemFree_v2"
            | "cuMemFreeHost" => match args.first().map(|a| (a, self.variable_of(*a))) {
                Some((_, Some(variable))) => {
                    self.push_event(variable, EventKind::Freed { device: true }, call, context)
                }
                Some((argument, None)) => self.record_outer_free(call, *argument, context),
                None => {}
            },
            "cudaMemcpy"
            | "cudaMemcpyAsync"
            | "cudaMemset"
            | "cudaMemsetAsync"
            | "cudaMemcpyPeer"
            | "cudaMemcpyPeerAsync"
            | "cudaMemcpy2D"
            | "cudaMemcpy2DAsync" => {
                let is_memset = api.starts_with("cudaMemset");
                let is_peer = api.starts_with("cudaMemcpyPeer");
                // (dst, dpitch, src, spitch, width, height, kind): rows, no single byte count
                let is_2d = api.starts_with("cudaMemcpy2D");
                let destination_node = args.first().copied();
                let source_node = if is_memset {
                    None
                } else if is_peer || is_2d {
                    args.get(2).copied()
                } else {
                    args.get(1).copied()
                };
                let size_node = if is_2d {
                    None
                } else if is_peer {
                    args.get(4).copied()
                } else {
                    args.get(2).copied()
                };
                let direction_node = if is_memset || is_peer {
                    None
                } else if is_2d {
                    args.get(6).copied()
                } else {
                    args.get(3).copied()
                };
                let bytes = size_node.and_then(|s| self.evaluate(s, true));
                let sizeof_unit = size_node.and_then(|s| self.sizeof_unit(s));
                let kinds = direction_node
                    .and_then(|d| self.copy_kinds(d, 0))
                    .unwrap_or_default();
                let destination = destination_node.and_then(|d| self.pointer_arg(d));
                let source = source_node.and_then(|s| self.pointer_arg(s));
                // `cudaMemcpy(&p, &dv->data, sizeof(p), cudaMemcpyDeviceToHost)`: the copy
                // writes the pointer itself, a device address read back from the device
                if let Some(assigned) = destination_node.and_then(|d| self.address_of_variable(d)) {
                    self.push_event(assigned, EventKind::Assigned, call, context);
                }
                // `cudaMemcpy(&d_env->spheres, &d_spheres, sizeof(p), ...)`: the pointer's value
                // is stored in device memory, whose owner frees it through that copy
                if let Some(stored) = source_node.and_then(|s| self.address_of_variable(s)) {
                    self.push_event(stored, EventKind::Escaped, call, context);
                }
                if let Some(d) = destination {
                    let kind = if is_memset {
                        WriteKind::Memset
                    } else {
                        WriteKind::Copy
                    };
                    self.push_event(
                        d.variable,
                        EventKind::Written {
                            kind,
                            bytes: bytes.clone(),
                            whole: d.whole,
                        },
                        call,
                        context,
                    );
                }
                if let Some(s) = source {
                    self.push_event(
                        s.variable,
                        EventKind::Read {
                            bytes: bytes.clone(),
                            whole: s.whole,
                        },
                        call,
                        context,
                    );
                }
                self.out.transfers.push(Transfer {
                    call,
                    api: name.to_string(),
                    destination,
                    source,
                    destination_node,
                    source_node,
                    size_node,
                    bytes,
                    sizeof_unit,
                    kinds,
                    direction_node,
                    is_memset,
                });
            }
            _ => {
                // a CUDA call the model does not detail: it may write what it is given, or assign
                // through an address (`cudaGetSymbolAddress(&p, ...)`)
                self.arguments_written_or_assigned(call, args, context);
            }
        }
    }
}

/// The context of a call inside `expression`: an arm of `c ? a : b` or the right operand of `&&`
/// or `||` runs only on some paths, so a call there is conditional and its events hold only in
/// that arm (`on_device ? cudaFree(p) : cudaFreeHost(p)` frees `p` once).
fn arm_context<'t>(
    call: Node<'t>,
    expression: Node<'t>,
    context: Context<'t>,
    source: &str,
) -> Context<'t> {
    let mut child = call;
    while child.id() != expression.id() {
        let Some(parent) = child.up() else {
            break;
        };
        let is_arm = match parent.node_kind() {
            "conditional_expression" => parent
                .field("condition")
                .is_some_and(|condition| condition.id() != child.id()),
            "binary_expression" => {
                parent.field("right").is_some_and(|r| r.id() == child.id())
                    && matches!(operator(parent, source), "&&" | "||")
            }
            _ => false,
        };
        if is_arm {
            // the innermost arm is the region: it lies inside any arm around it
            return Context {
                region: child,
                conditional: true,
                ..arm_context(parent, expression, context, source)
            };
        }
        child = parent;
    }
    context
}

/// What a CUDA allocation call allocates, as `record_api_allocation` records it.
struct ApiAllocation<'t> {
    api: String,
    /// The variable whose address the call is given (`&d`).
    variable: Option<usize>,
    memory: Memory,
    /// The byte count as written; None where the call takes no single one (`cudaMallocPitch`).
    size_node: Option<Node<'t>>,
    /// The `T**` parameter the call allocates through (`cudaMalloc(out, n)`).
    through: Option<usize>,
    retried_after_failure: bool,
}
