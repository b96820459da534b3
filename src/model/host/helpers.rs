//! Host helpers that allocate for their callers: `T* device_alloc(size_t n)` returning a buffer,
//! `alloc_buffer(T** out, size_t bytes)` filling one. A helper's summary says what it allocates,
//! where the pointer goes and how many bytes, as a function of its parameters; a call applies it
//! with the call's arguments put in, so the caller's variable is allocated as by a direct
//! cudaMalloc. The summary also says what the function does with each pointer it is given: frees
//! it (`free_buffer(p)`), only uses it (a launcher, a validation helper that copies it back), or
//! something the model cannot follow. Helpers calling helpers are followed `MAX_HELPER_DEPTH`
//! calls deep.

use super::*;
use std::cell::RefCell;
use std::rc::Rc;

/// How many helper calls deep summaries are followed (a helper calling a helper, ...).
const MAX_HELPER_DEPTH: usize = 3;

/// Where a helper puts the pointer it allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelperTarget {
    /// `return p;`
    Returned,
    /// Stored through parameter k: `T** out` (the caller passes `&d`) or `T*& out` (passes `d`).
    Parameter(usize),
}

/// One buffer a helper allocates on every path through it, for its caller.
#[derive(Debug, Clone, PartialEq)]
pub struct HelperAllocation {
    pub target: HelperTarget,
    /// The CUDA call that allocates (`cudaMalloc`).
    pub api: String,
    pub memory: Memory,
    /// Bytes over the atoms `#k` (the value of parameter k) and `sizeof(T)` (T a type, a template
    /// parameter of the helper included); None when the size depends on anything else.
    pub bytes: Option<Sym>,
    pub sizeof_unit: Option<String>,
    /// The helper also copies into, clears or launches on the buffer before handing it over: the
    /// caller sees it written by code the model does not detail.
    pub touched: bool,
}

/// What a host function does with a pointer its caller passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParameterUse {
    /// Releases it on every path where it is not null (`cudaFree(p)`, `if (p) cudaFree(p)`);
    /// `device` for cudaFree and friends, not for `free`/`delete`. `nulls`: a `T*&` parameter
    /// is set to null after the free, so the caller's variable is null afterwards.
    Frees { device: bool, nulls: bool },
    /// Uses it and keeps no copy: copies, clears, launches, subscripts, or hands it on to a
    /// function that borrows it too. `reads`: before anything may write it, a kernel launched
    /// on every path reads what it holds; `writes`: some use may write it.
    Borrows { reads: bool, writes: bool },
    /// Stores, returns, reassigns or hands it to code the model does not follow.
    Unknown,
}

/// What a host function allocates for its caller, and what it does with the pointers it is given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HelperSummary {
    pub allocations: Vec<HelperAllocation>,
    /// Per parameter (pointer or not), what the function does with it.
    pub parameters: Vec<ParameterUse>,
    /// The file's functions the summary read, its callees' included: what a caller's facts
    /// depend on through it.
    pub depends_on: Vec<String>,
}

/// A function's summary at one depth; None past the depth limit or for a function that is not
/// host code.
type Summaries = HashMap<(usize, usize), Option<Rc<HelperSummary>>>;

/// Summaries by (function index, depth), made when a call first needs them.
#[derive(Default)]
pub(super) struct HelperCache {
    summaries: RefCell<Summaries>,
}

impl HelperCache {
    /// The summary of host function `index`, built `depth` helper calls below a function of its
    /// own; None past the depth limit or when `index` is not a host function.
    fn summary<'t>(
        &self,
        model: &Model<'t>,
        index: usize,
        depth: usize,
    ) -> Option<Rc<HelperSummary>> {
        if depth > MAX_HELPER_DEPTH {
            return None;
        }
        if let Some(known) = self.summaries.borrow().get(&(index, depth)) {
            return known.clone();
        }
        let summary = summarize(model, index, self, depth).map(Rc::new);
        self.summaries
            .borrow_mut()
            .insert((index, depth), summary.clone());
        summary
    }
}

impl HelperCache {
    /// The summary of host function `index` as a function of its own calls see it.
    pub(super) fn summary_of<'t>(
        &self,
        model: &Model<'t>,
        index: usize,
    ) -> Option<Rc<HelperSummary>> {
        self.summary(model, index, 1)
    }
}

/// Whether a host function's signature lets it hand an allocation to its caller: it returns a
/// pointer, or takes a pointer to a pointer or a reference to a pointer.
pub fn may_allocate_for_caller(model: &Model, function: &crate::model::Function) -> bool {
    if function.kind != FunctionKind::Host {
        return false;
    }
    let head = model
        .source
        .get(function.definition.start_byte()..function.name_node.start_byte())
        .unwrap_or("");
    head.contains('*')
        || function.parameters.iter().any(|p| {
            let (stars, reference) = declarator_marks(model.source, p);
            stars >= 2 || (stars >= 1 && reference)
        })
}

/// Whether callers read a summary of this host function: it may allocate for them, or it takes a
/// pointer whose use it summarizes.
pub fn summarized_for_callers(model: &Model, function: &crate::model::Function) -> bool {
    function.kind == FunctionKind::Host
        && (may_allocate_for_caller(model, function)
            || function.parameters.iter().any(|p| p.is_pointer))
}

/// The `*`s and whether a `&` stands between a parameter's type and its name.
pub(super) fn declarator_marks(source: &str, parameter: &crate::model::Parameter) -> (usize, bool) {
    let Some(declarator) = parameter.declaration.field("declarator") else {
        return (0, false);
    };
    let marks = source
        .get(declarator.start_byte()..parameter.name_node.start_byte())
        .unwrap_or("");
    (
        marks.chars().filter(|c| *c == '*').count(),
        marks.contains('&'),
    )
}

fn summarize<'t>(
    model: &Model<'t>,
    index: usize,
    cache: &HelperCache,
    depth: usize,
) -> Option<HelperSummary> {
    let function = model.functions.get(index)?;
    if function.kind != FunctionKind::Host {
        return None;
    }
    if function.has_parse_errors || !summarized_for_callers(model, function) {
        return Some(HelperSummary {
            parameters: vec![ParameterUse::Unknown; function.parameters.len()],
            ..HelperSummary::default()
        });
    }
    let mut builder = Builder::new(model, index, cache, depth);
    builder.prepare();
    let context = Context {
        region: function.body,
        enclosing_loop: None,
        conditional: false,
        error_path: false,
    };
    builder.statement(function.body, context, 0);
    builder.finish();
    let (allocations, parameters) = if builder.out.has_goto {
        (
            Vec::new(),
            vec![ParameterUse::Unknown; function.parameters.len()],
        )
    } else {
        let allocations = if may_allocate_for_caller(model, function) {
            builder.allocations_for_caller()
        } else {
            Vec::new()
        };
        (allocations, builder.parameter_uses())
    };
    Some(HelperSummary {
        allocations,
        parameters,
        depends_on: builder.depends_on,
    })
}

/// A helper's allocation as the call sees it: the size with the call's arguments put in.
pub(super) struct CalledAllocation<'t> {
    pub helper: String,
    pub api: String,
    pub memory: Memory,
    pub bytes: Option<Sym>,
    /// The argument that is the whole size, when the helper allocates exactly a parameter's value.
    pub size_node: Option<Node<'t>>,
    pub sizeof_unit: Option<String>,
    pub touched: bool,
}

impl<'m, 't> Builder<'m, 't> {
    /// What this function, as a helper, allocates on every path for its caller.
    fn allocations_for_caller(&mut self) -> Vec<HelperAllocation> {
        let body = self.function.body;
        let mut returns = Vec::new();
        walk_iterative(body, |n| match n.node_kind() {
            "lambda_expression" => false,
            "return_statement" => {
                returns.push(n);
                false
            }
            _ => true,
        });
        let mut found = Vec::new();
        // one `return` as the body's last word: what it returns is what every call gets
        if let [only] = returns.as_slice() {
            let top_level = named_children(body).any(|c| c == *only);
            let value = named_children(*only).find(|c| c.node_kind() != "comment");
            if let (true, Some(value)) = (top_level, value) {
                if let Some(allocation) = self.returned_allocation(value, *only) {
                    found.push(allocation);
                }
            }
        }
        // a `return` before an allocation makes it conditional for the caller
        let first_return = returns.iter().map(|r| r.start_byte()).min();
        for allocation in &self.out.allocations {
            if allocation.conditional
                || first_return.is_some_and(|r| r < allocation.call.start_byte())
            {
                continue;
            }
            let Some(parameter) = self.stored_through_parameter(allocation) else {
                continue;
            };
            // anything else done through the parameter (`cudaMemset(*out, ...)`, `keep(*out)`)
            // is not followed: no summary for it
            let name = self
                .function
                .parameters
                .get(parameter)
                .map(|p| p.name.as_str());
            let used_elsewhere = name
                .and_then(|n| self.uses.get(n))
                .is_some_and(|positions| {
                    positions
                        .iter()
                        .any(|p| !allocation.call.byte_range().contains(p))
                });
            if used_elsewhere {
                continue;
            }
            found.push(HelperAllocation {
                target: HelperTarget::Parameter(parameter),
                api: allocation.api.clone(),
                memory: allocation.memory,
                bytes: allocation
                    .bytes
                    .as_ref()
                    .and_then(|b| self.parameter_atoms(b)),
                sizeof_unit: allocation.sizeof_unit.clone(),
                touched: false,
            });
        }
        // two allocations for one target: neither is the caller's buffer on every path
        let targets: Vec<HelperTarget> = found.iter().map(|a| a.target).collect();
        found.retain(|a| targets.iter().filter(|t| **t == a.target).count() == 1);
        found
    }

    /// The allocation `return value;` hands to the caller: a local allocated once before it and
    /// never freed, or what a helper called in the return allocates.
    fn returned_allocation(&mut self, value: Node<'t>, at: Node<'t>) -> Option<HelperAllocation> {
        let value = strip(value, self.source);
        if value.node_kind() == "call_expression" {
            let called = self.returned_by_call(value)?;
            return Some(HelperAllocation {
                target: HelperTarget::Returned,
                api: called.api,
                memory: called.memory,
                bytes: called.bytes.and_then(|b| self.parameter_atoms(&b)),
                sizeof_unit: called.sizeof_unit,
                touched: called.touched,
            });
        }
        let variable = self.variable_of(value)?;
        let info = self.out.variables.get(variable)?;
        if info.is_parameter || !info.is_pointer {
            return None;
        }
        let events: Vec<&Event<'t>> = self.out.events_of(variable).collect();
        if events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Freed { .. }))
        {
            return None;
        }
        let mut definitions = events
            .iter()
            .filter(|e| e.kind.defines() && e.node.end_byte() <= at.start_byte());
        let definition = definitions.next()?;
        if definitions.next().is_some() || definition.conditional {
            return None;
        }
        let EventKind::Allocated { allocation, .. } = definition.kind else {
            return None;
        };
        // every other mention is a copy, memset or launch (the buffer is written for the caller);
        // stored or handed elsewhere, its fate is not the caller's alone: no summary
        let mut touched = false;
        for position in self.uses.get(info.name.as_str()).into_iter().flatten() {
            let within = |node: Node| node.byte_range().contains(position);
            if within(definition.node) || within(at) {
                continue;
            }
            let used = events.iter().any(|e| {
                within(e.node)
                    && matches!(
                        e.kind,
                        EventKind::Launched { .. }
                            | EventKind::Read { .. }
                            | EventKind::Written {
                                kind: WriteKind::Copy | WriteKind::Memset,
                                ..
                            }
                    )
            });
            if !used {
                return None;
            }
            touched = true;
        }
        let allocation = self.out.allocations.get(allocation)?;
        Some(HelperAllocation {
            target: HelperTarget::Returned,
            api: allocation.api.clone(),
            memory: allocation.memory,
            bytes: allocation
                .bytes
                .as_ref()
                .and_then(|b| self.parameter_atoms(b)),
            sizeof_unit: allocation.sizeof_unit.clone(),
            touched,
        })
    }

    /// The parameter through which an allocation reaches the caller: `cudaMalloc(out, n)` on a
    /// `T** out` that is never reassigned, or `cudaMalloc(&out, n)` on a `T*& out` allocated once.
    fn stored_through_parameter(&self, allocation: &Allocation<'t>) -> Option<usize> {
        let (variable, through) = match (allocation.variable, allocation.through) {
            (None, Some(through)) => (through, true),
            (Some(variable), None) => (variable, false),
            _ => return None,
        };
        let info = self.out.variables.get(variable)?;
        if !info.is_parameter {
            return None;
        }
        let position = self
            .function
            .parameters
            .iter()
            .position(|p| p.name == info.name)?;
        let parameter = self.function.parameters.get(position)?;
        let (stars, reference) = declarator_marks(self.source, parameter);
        if through {
            let reassigned = self.out.events_of(variable).any(|e| e.kind.defines());
            (stars >= 2 && !reference && !reassigned).then_some(position)
        } else {
            let mut definitions = self.out.events_of(variable).filter(|e| e.kind.defines());
            let only = definitions.next().is_some() && definitions.next().is_none();
            let freed = self
                .out
                .events_of(variable)
                .any(|e| matches!(e.kind, EventKind::Freed { .. }));
            (stars >= 1 && reference && only && !freed).then_some(position)
        }
    }

    /// A size over this function's names as one over its parameters (`#k`), when it depends on
    /// nothing but parameters the function never changes and `sizeof` of types.
    fn parameter_atoms(&self, bytes: &Sym) -> Option<Sym> {
        bytes.substitute(&|atom| {
            if atom.starts_with("sizeof(") {
                return Some(Sym::atom(atom));
            }
            if self.reassigned.contains(atom) {
                return None;
            }
            let position = self
                .function
                .parameters
                .iter()
                .position(|p| p.name == atom && !p.is_pointer)?;
            Some(Sym::atom(&format!("#{position}")))
        })
    }

    /// The name of the function a call names, and its explicit template arguments.
    fn callee(&self, call: Node<'t>) -> Option<(&'t str, Option<Node<'t>>)> {
        let function = call.field("function")?;
        let function = if function.node_kind() == "qualified_identifier" {
            function.field("name")?
        } else {
            function
        };
        match function.node_kind() {
            "identifier" => Some((self.text(function), None)),
            "template_function" => Some((
                self.text(function.field("name")?),
                function.field("arguments"),
            )),
            _ => None,
        }
    }

    /// The host function of this file a call with `arity` arguments calls, and its summary.
    /// Records the name (and what the summary read) as a dependency of these facts, found or not.
    fn helper_summary(&mut self, name: &str, arity: usize) -> Option<(usize, Rc<HelperSummary>)> {
        self.depends_on.push(name.to_string());
        let (index, summary) = self.lookup_helper(name, arity)?;
        self.depends_on.extend(summary.depends_on.iter().cloned());
        Some((index, summary))
    }

    fn lookup_helper(&self, name: &str, arity: usize) -> Option<(usize, Rc<HelperSummary>)> {
        let mut candidates = self
            .model
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.name == name && f.parameters.len() == arity);
        let (index, function) = candidates.next()?;
        if candidates.next().is_some() || function.kind != FunctionKind::Host {
            return None;
        }
        let summary = self
            .helpers
            .summary(self.model, index, self.helper_depth + 1)?;
        Some((index, summary))
    }

    /// What a call allocates and returns, when it calls a helper that returns a buffer; records
    /// the dependency.
    pub(super) fn returned_by_call(&mut self, call: Node<'t>) -> Option<CalledAllocation<'t>> {
        let (name, _) = self.callee(call)?;
        let arity = arguments(call).len();
        self.helper_summary(name, arity)?;
        self.returned_by_call_readonly(call)
    }

    fn returned_by_call_readonly(&self, call: Node<'t>) -> Option<CalledAllocation<'t>> {
        let (name, template_arguments) = self.callee(call)?;
        let args = arguments(call);
        let (index, summary) = self.lookup_helper(name, args.len())?;
        let allocation = summary
            .allocations
            .iter()
            .find(|a| a.target == HelperTarget::Returned)?;
        self.called_allocation(index, allocation, &args, template_arguments)
    }

    /// The allocations a helper call stores through its arguments, each with the argument's
    /// position; records the dependency.
    pub(super) fn stored_by_call(
        &mut self,
        call: Node<'t>,
        args: &[Node<'t>],
    ) -> Vec<(usize, CalledAllocation<'t>)> {
        let Some((name, template_arguments)) = self.callee(call) else {
            return Vec::new();
        };
        let Some((index, summary)) = self.helper_summary(name, args.len()) else {
            return Vec::new();
        };
        summary
            .allocations
            .iter()
            .filter_map(|a| match a.target {
                HelperTarget::Parameter(position) => self
                    .called_allocation(index, a, args, template_arguments)
                    .map(|called| (position, called)),
                HelperTarget::Returned => None,
            })
            .collect()
    }

    /// What the function a call names does with each argument (after `stored_by_call`, which
    /// records the dependency).
    pub(super) fn parameter_uses_of_call(
        &self,
        call: Node<'t>,
        arity: usize,
    ) -> Option<Vec<ParameterUse>> {
        let (name, _) = self.callee(call)?;
        let (_, summary) = self.lookup_helper(name, arity)?;
        Some(summary.parameters.clone())
    }

    fn called_allocation(
        &self,
        helper: usize,
        allocation: &HelperAllocation,
        args: &[Node<'t>],
        template_arguments: Option<Node<'t>>,
    ) -> Option<CalledAllocation<'t>> {
        let function = self.model.functions.get(helper)?;
        let types = self.template_bindings(function, args, template_arguments);
        let type_of = |name: &str| -> Option<String> {
            if function.template_parameters.iter().any(|t| t == name) {
                types.get(name).cloned()
            } else {
                Some(name.to_string())
            }
        };
        let bytes = allocation.bytes.as_ref().and_then(|bytes| {
            bytes.substitute(&|atom| {
                if let Some(position) = atom.strip_prefix('#') {
                    let argument = *args.get(position.parse::<usize>().ok()?)?;
                    return self.evaluate(argument, true);
                }
                let inner = atom.strip_prefix("sizeof(")?.strip_suffix(')')?;
                let element = type_of(inner)?;
                Some(match size::builtin_size(&element) {
                    Some(bytes) => Sym::constant(bytes),
                    None => Sym::atom(&format!("sizeof({})", size::normalize_type(&element))),
                })
            })
        });
        let size_node = allocation.bytes.as_ref().and_then(|bytes| {
            (0..args.len())
                .find(|k| *bytes == Sym::atom(&format!("#{k}")))
                .and_then(|k| args.get(k).copied())
        });
        Some(CalledAllocation {
            helper: function.name.clone(),
            api: allocation.api.clone(),
            memory: allocation.memory,
            bytes,
            size_node,
            sizeof_unit: allocation.sizeof_unit.as_deref().and_then(type_of),
            touched: allocation.touched,
        })
    }

    /// The helper's template parameters bound to types: explicit arguments (`f<float>(n)`), then
    /// parameters `T*`, `T**`, `T*&` deduced from the pointer variable an argument passes.
    fn template_bindings(
        &self,
        helper: &crate::model::Function<'t>,
        args: &[Node<'t>],
        template_arguments: Option<Node<'t>>,
    ) -> HashMap<String, String> {
        let mut types: HashMap<String, String> = HashMap::default();
        if helper.template_parameters.is_empty() {
            return types;
        }
        if let Some(list) = template_arguments {
            let explicit = named_children(list).filter(|c| c.node_kind() != "comment");
            for (name, argument) in helper.template_parameters.iter().zip(explicit) {
                types.insert(name.clone(), size::normalize_type(self.text(argument)));
            }
        }
        for (parameter, argument) in helper.parameters.iter().zip(args) {
            let declared = size::normalize_type(&parameter.type_text);
            if !helper.template_parameters.contains(&declared) || types.contains_key(&declared) {
                continue;
            }
            let (stars, _) = declarator_marks(self.source, parameter);
            let Some(argument_type) = self.argument_type(*argument) else {
                continue;
            };
            let Some(element) = strip_stars(&argument_type, stars) else {
                continue;
            };
            types.insert(declared, element);
        }
        types
    }

    /// The type of `v` or `&v` for a tracked pointer variable `v` (`float*`, `float**`).
    fn argument_type(&self, argument: Node<'t>) -> Option<String> {
        let (variable, address) = match address_of(argument, self.source) {
            Some(identifier) => (*self.by_name.get(self.text(identifier))?, true),
            None => (self.variable_of(argument)?, false),
        };
        let info = self.out.variables.get(variable)?;
        if !info.is_pointer {
            return None;
        }
        let pointer = if info.is_parameter {
            let parameter = self.function.parameters.get(variable)?;
            let (stars, _) = declarator_marks(self.source, parameter);
            format!("{}{}", info.pointee.as_deref()?, "*".repeat(stars))
        } else {
            format!("{}*", info.pointee.as_deref()?)
        };
        Some(if address {
            format!("{pointer}*")
        } else {
            pointer
        })
    }
}

/// `float**` less two stars is `float`; None when it has fewer.
fn strip_stars(type_text: &str, stars: usize) -> Option<String> {
    let mut rest = type_text;
    for _ in 0..stars {
        rest = rest.strip_suffix('*')?;
    }
    (!rest.is_empty()).then(|| rest.to_string())
}

#[cfg(test)]
mod tests {
    use crate::model::host::Memory;

    fn allocations_of(source: &str, function: &str) -> Vec<(String, Option<String>, Memory)> {
        crate::testing::with_host_function("helpers.cu", source, function, |_, host| {
            host.allocations
                .iter()
                .map(|a| {
                    (
                        a.variable
                            .map(|v| host.variables[v].name.clone())
                            .unwrap_or_default(),
                        a.bytes.as_ref().map(|b| b.display()),
                        a.memory,
                    )
                })
                .collect()
        })
    }

    const HELPERS: &str = "template <typename T> T* device_alloc(size_t n) { T* p; cudaMalloc(&p, n * sizeof(T)); return p; }\n\
        template <typename T> void alloc_buffer(T** out, size_t bytes) { cudaMalloc(out, bytes); }\n\
        void alloc_ref(float*& out, size_t n) { cudaMalloc(reinterpret_cast<void**>(&out), n * sizeof(float)); }\n\
        float* twice(size_t n) { return device_alloc<float>(2 * n); }\n\
        template <typename T> void deduced(T** out, size_t n) { cudaMallocManaged(out, n * sizeof(T)); }\n";

    #[test]
    fn helper_allocations_apply_at_the_call_with_the_arguments_put_in() {
        let source = format!(
            "{HELPERS}void f(size_t n) {{ float* a = device_alloc<float>(n / 2); double* b; alloc_buffer(&b, n); float* c; alloc_ref(c, n - 1); float* d = twice(n); double* e; deduced(&e, n); }}\n"
        );
        let found = allocations_of(&source, "f");
        let expected = [
            ("a", "2 * n", Memory::Device),
            ("b", "n", Memory::Device),
            ("c", "4 * n - 4", Memory::Device),
            ("d", "8 * n", Memory::Device),
            ("e", "8 * n", Memory::Managed),
        ];
        assert_eq!(
            found,
            expected
                .iter()
                .map(|(v, b, m)| (v.to_string(), Some(b.to_string()), *m))
                .collect::<Vec<_>>()
        );
    }
}
