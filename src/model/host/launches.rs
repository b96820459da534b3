//! Kernel launches: configuration, arguments, and the events on the pointers passed.

use super::*;

impl<'m, 't> Builder<'m, 't> {
    pub(super) fn escape_address(&mut self, argument: Node<'t>, context: Context<'t>) {
        if let Some(identifier) = address_of(argument, self.source) {
            if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                self.push_event(variable, EventKind::AddressTaken, argument, context);
            }
        }
    }

    pub(super) fn dim3_of(&self, node: Node<'t>) -> Option<Dim3> {
        let node = strip(node, self.source);
        let components: Vec<Node<'t>> = match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if self.reassigned.contains(name) {
                    return None;
                }
                if let Some(list) = self.dim3_arguments.get(name) {
                    named_children(*list)
                        .filter(|c| c.node_kind() != "comment")
                        .collect()
                } else {
                    vec![node]
                }
            }
            "call_expression" if call_name(node, self.source) == "dim3" => arguments(node),
            "initializer_list" => named_children(node).collect(),
            _ => vec![node],
        };
        if components.is_empty() || components.len() > 3 {
            return None;
        }
        let value = |i: usize| -> Option<i128> {
            match components.get(i) {
                None => Some(1),
                Some(c) => self.evaluate(*c, true).and_then(|s| s.as_constant()),
            }
        };
        Some(Dim3 {
            x: value(0),
            y: value(1),
            z: value(2),
        })
    }

    /// A launch in either form (`k<<<g, b>>>(...)`, `hipLaunchKernelGGL(k, g, b, s, t, ...)`).
    pub(super) fn launch(
        &mut self,
        call: Node<'t>,
        form: crate::model::runtime::LaunchForm<'t>,
        context: Context<'t>,
    ) {
        let kernel = crate::model::launch::launched_kernel(form.kernel, self.source).to_string();
        let [grid, block, shared, stream] =
            crate::model::runtime::configuration_parts(&form.configuration, self.source, |name| {
                self.model.writes_launch_shape(name)
            });
        let args = form.arguments;
        let pointer_arguments: Vec<Option<PointerArg>> =
            args.iter().map(|a| self.pointer_arg(*a)).collect();
        let argument_values: Vec<Option<Sym>> =
            args.iter().map(|a| self.evaluate(*a, true)).collect();
        let launch_index = self.out.launches.len();
        self.out.launches.push(Launch {
            call,
            kernel: kernel.clone(),
            grid_node: grid,
            block_node: block,
            shared_node: shared,
            stream_node: stream,
            grid: grid.and_then(|g| self.dim3_of(g)),
            block: block.and_then(|b| self.dim3_of(b)),
            shared_bytes: shared
                .and_then(|s| self.evaluate(s, true))
                .and_then(|s| s.as_constant()),
            arguments: args.clone(),
            pointer_arguments: pointer_arguments.clone(),
            argument_values,
            device: self.device,
        });
        // the lints read this kernel's summary too (`HostFacts::kernel`)
        self.depends_on.push(kernel.clone());
        // a kernel defined elsewhere uses the buffer like a known one: a launch never takes
        // ownership (device code cannot free what cudaMalloc returned)
        for (position, argument) in args.iter().enumerate() {
            match pointer_arguments[position] {
                Some(pointer) => {
                    self.push_event(
                        pointer.variable,
                        EventKind::Launched {
                            launch: launch_index,
                            argument: position,
                            whole: pointer.whole,
                        },
                        call,
                        context,
                    );
                }
                None => {
                    if let Some(identifier) = address_of(*argument, self.source) {
                        if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                            self.push_event(variable, EventKind::AddressTaken, *argument, context);
                        }
                    }
                }
            }
        }
    }
}
