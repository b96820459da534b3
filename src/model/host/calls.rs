//! Host expressions and calls: CUDA API calls (allocations, copies, frees, error checks) and unknown calls.

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
            self.call(call, context);
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
        if is_launch(call) {
            self.launch(call, context);
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
        // last-error queries and error checks are read by the error flow (`model::errors`); the
        // calls a check wraps are visited on their own
        if is_last_error_query(&name) || is_check_name(&name, self.model.check_macros) {
            return;
        }
        if is_cuda_api(&name) {
            self.cuda_call(call, &name, &args, context);
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
                None => unknown.push(*argument),
            }
        }
        self.unknown_call_arguments(&unknown, context);
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
            head.contains("cudaError") || head.contains("CUresult")
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
        match name {
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
                let memory = match name {
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
                let size_node = if name == "cudaMallocPitch" {
                    None
                } else {
                    args.get(1).copied()
                };
                let bytes = size_node.and_then(|s| self.evaluate(s, true));
                let sizeof_unit = size_node.and_then(|s| self.sizeof_unit(s));
                let target = args.first().copied();
                let variable = target
                    .and_then(|a| address_of(a, self.source))
                    .and_then(|i| self.by_name.get(self.text(i)).copied());
                // `cudaMalloc(out, n)`, `cudaMalloc((void**)out, n)` on a `T** out`
                let through = target
                    .filter(|_| variable.is_none())
                    .and_then(|a| self.variable_of(a))
                    .filter(|&v| self.out.variables[v].is_pointer);
                let allocation = self.out.allocations.len();
                self.out.allocations.push(Allocation {
                    call,
                    api: name.to_string(),
                    variable,
                    memory,
                    size_node,
                    bytes,
                    sizeof_unit,
                    conditional: context.conditional,
                    enclosing_loop: context.enclosing_loop,
                    through,
                    helper: None,
                });
                if let Some(variable) = variable {
                    self.push_event(
                        variable,
                        EventKind::Allocated { memory, allocation },
                        call,
                        context,
                    );
                }
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
            "cudaFree" | "cudaFreeAsync" | "cudaFreeHost" | "cuMemFree" | "cuMemFree_v2"
            | "cuMemFreeHost" => {
                if let Some(variable) = args.first().and_then(|a| self.variable_of(*a)) {
                    self.push_event(variable, EventKind::Freed { device: true }, call, context);
                }
            }
            "cudaMemcpy"
            | "cudaMemcpyAsync"
            | "cudaMemset"
            | "cudaMemsetAsync"
            | "cudaMemcpyPeer"
            | "cudaMemcpyPeerAsync" => {
                let is_memset = name.starts_with("cudaMemset");
                let is_peer = name.starts_with("cudaMemcpyPeer");
                let destination_node = args.first().copied();
                let source_node = if is_memset {
                    None
                } else if is_peer {
                    args.get(2).copied()
                } else {
                    args.get(1).copied()
                };
                let size_node = if is_peer {
                    args.get(4).copied()
                } else {
                    args.get(2).copied()
                };
                let direction_node = if is_memset || is_peer {
                    None
                } else {
                    args.get(3).copied()
                };
                let bytes = size_node.and_then(|s| self.evaluate(s, true));
                let sizeof_unit = size_node.and_then(|s| self.sizeof_unit(s));
                let direction =
                    direction_node.and_then(|d| match self.text(strip(d, self.source)) {
                        "cudaMemcpyHostToDevice" => Some((Side::Host, Side::Device)),
                        "cudaMemcpyDeviceToHost" => Some((Side::Device, Side::Host)),
                        "cudaMemcpyDeviceToDevice" => Some((Side::Device, Side::Device)),
                        "cudaMemcpyHostToHost" => Some((Side::Host, Side::Host)),
                        _ => None,
                    });
                let destination = destination_node.and_then(|d| self.pointer_arg(d));
                let source = source_node.and_then(|s| self.pointer_arg(s));
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
                    direction,
                    direction_node,
                    is_memset,
                });
            }
            _ => {
                // a CUDA call the model does not detail: it may write what it is given, or assign
                // through an address (`cudaGetSymbolAddress(&p, ...)`)
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
        }
    }
}
