//! Kernel summaries: what host code needs to know of each kernel's parameters.

use super::*;

struct KernelScope<'a, 't> {
    parameters: &'a [crate::model::Parameter<'t>],
    model: &'a Model<'t>,
}

impl<'t> Scope<'t> for KernelScope<'_, 't> {
    fn definition(&self, _: &str) -> Option<Node<'t>> {
        None
    }
    fn pointee(&self, _: &str) -> Option<String> {
        None
    }
    fn scalar_type(&self, _: &str) -> Option<String> {
        None
    }
    fn atom(&self, name: &str) -> Option<Sym> {
        let index = self
            .parameters
            .iter()
            .position(|p| p.name == name && !p.is_pointer)?;
        Some(Sym::atom(&format!("#{index}")))
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.model.define(name)
    }
}

/// `T* p` (one `*`, no reference or array): the element of `p[k]` is the declared type.
fn is_single_pointer(source: &str, parameter: &crate::model::Parameter) -> bool {
    let Some(declarator) = parameter.declaration.field("declarator") else {
        return false;
    };
    let marks = source
        .get(declarator.start_byte()..parameter.name_node.start_byte())
        .unwrap_or("");
    parameter.is_pointer
        && marks.chars().filter(|c| *c == '*').count() == 1
        && !marks.contains('&')
        && !text(declarator, source).contains('[')
}

fn pointee_of_parameter(parameter: &crate::model::Parameter) -> String {
    size::normalize_type(&parameter.type_text)
}

/// The address an atomic read-modify-write updates (`atomicAdd(p, v)`, `atomicMax(&p[i], v)`,
/// `atomicCAS(lock, 0, 1)`): the old value matters, so the memory must hold one. Not
/// `atomicExch`, which writes without reading.
fn atomic_update_target<'t>(call: Node<'t>, source: &str) -> Option<Node<'t>> {
    let function = call.field("function")?;
    let name = text(function, source);
    let base = name.trim_end_matches("_system").trim_end_matches("_block");
    let updates = matches!(
        base,
        "atomicAdd"
            | "atomicSub"
            | "atomicMax"
            | "atomicMin"
            | "atomicAnd"
            | "atomicOr"
            | "atomicXor"
            | "atomicInc"
            | "atomicDec"
            | "atomicCAS"
    );
    if !updates {
        return None;
    }
    let target = strip(named_children(call.field("arguments")?).next()?, source);
    Some(target)
}

/// How `*p` is used: assigned (`*p = v`), updated (`*p += v`, `++*p`) or read.
fn dereference_kind(node: Node, source: &str) -> AccessKind {
    crate::model::kernel::access_kind(node, source)
}

/// Of `parameters`, those `body` names somewhere, in one walk.
fn parameters_named<'s>(
    body: tree_sitter::Node,
    parameters: &'s [crate::model::Parameter],
    source: &str,
) -> std::collections::HashSet<&'s str> {
    let mut named = std::collections::HashSet::new();
    syntax::walk_iterative(body, |node| {
        if node.node_kind() == "identifier" {
            let name = text(node, source);
            if let Some(parameter) = parameters.iter().find(|p| p.name == name) {
                named.insert(parameter.name.as_str());
            }
        }
        named.len() < parameters.len()
    });
    named
}

/// Whether `element`, an argument of the call whose argument list is `list`, is bound to a
/// parameter that device function writes its caller's variables through (a non-const
/// reference: `decompose(n, s[i], d[i])` with `uint64_t& s` fills `s[i]`).
fn bound_to_a_written_parameter(model: &Model, element: Node, list: Node) -> bool {
    if list.node_kind() != "argument_list" {
        return false;
    }
    let Some(callee) = list
        .up()
        .filter(|call| call.node_kind() == "call_expression")
        .and_then(|call| call.field("function"))
        .and_then(|f| crate::model::kernel::callee_name(f, model.source))
    else {
        return false;
    };
    let arguments: Vec<Node> = named_children(list)
        .filter(|a| a.node_kind() != "comment")
        .collect();
    let Some(position) = arguments
        .iter()
        .position(|a| strip(*a, model.source).id() == element.id())
    else {
        return false;
    };
    model
        .device_functions
        .get(callee, arguments.len())
        .is_some_and(|summary| summary.written_parameters.contains(&position))
}

/// What host code needs to know of a kernel: per parameter, whether it is read or written and how
/// much of it is read.
pub fn summarize_kernel<'t>(
    model: &Model<'t>,
    function: &crate::model::Function<'t>,
    facts: &crate::model::KernelFacts<'t>,
) -> KernelSummary {
    let named = parameters_named(function.body, &function.parameters, model.source);
    let mut parameters: Vec<ParameterSummary> = function
        .parameters
        .iter()
        .map(|p| ParameterSummary {
            is_pointer: p.is_pointer,
            // `const float* in`: the qualifier is the declaration's, beside its type
            is_const: p.type_text.split_whitespace().any(|w| w == "const")
                || syntax::children(p.declaration)
                    .any(|c| c.node_kind() == "type_qualifier" && text(c, model.source) == "const"),
            element_type: p.is_pointer.then(|| pointee_of_parameter(p)),
            unused: !p.name.is_empty() && !named.contains(p.name.as_str()),
            ..Default::default()
        })
        .collect();
    let scope = KernelScope {
        parameters: &function.parameters,
        model,
    };
    let evaluator = Evaluator {
        source: model.source,
        scope: &scope,
        fold_sizeof: true,
    };
    let pointer_parameter = |node: Node| -> Option<usize> {
        let node = strip(node, model.source);
        if node.node_kind() != "identifier" {
            return None;
        }
        let name = text(node, model.source);
        function
            .parameters
            .iter()
            .position(|p| p.is_pointer && p.name == name)
    };
    // the parameter an address is computed from: `p`, `p + k`, `k + p`, `p - k`
    let address_base = |node: Node| -> Option<usize> {
        let node = strip(node, model.source);
        if node.node_kind() == "binary_expression" {
            return match operator(node, model.source) {
                "+" => node
                    .field("left")
                    .and_then(pointer_parameter)
                    .or_else(|| node.field("right").and_then(pointer_parameter)),
                "-" => node.field("left").and_then(pointer_parameter),
                _ => None,
            };
        }
        pointer_parameter(node)
    };
    // a local pointer set from a parameter (`T* slot = out + k`), or such a local plus an offset
    // (of several locals of one name, each one's parameter)
    let derived_bases = |node: Node| -> Vec<usize> {
        let mut node = strip(node, model.source);
        if node.node_kind() == "binary_expression" && operator(node, model.source) == "+" {
            match node.field("left") {
                Some(left) => node = strip(left, model.source),
                None => return Vec::new(),
            }
        }
        if node.node_kind() != "identifier" {
            return Vec::new();
        }
        let name = text(node, model.source);
        facts
            .derived_pointers
            .iter()
            .filter(|(local, _)| local == name)
            .map(|(_, index)| *index)
            .collect()
    };
    // a pointer handed whole to another function (`f(p)`) may be written there; an atomic
    // read-modify-write (`atomicAdd(p, v)`, `atomicAdd(p + k, v)`, `atomicMax(&p[i], v)`) reads
    // what it holds first
    walk_iterative(function.body, |node| {
        // the kind read once per node: this walk visits every node of every kernel
        let kind = node.node_kind();
        if kind == "call_expression" {
            if let Some(target) = atomic_update_target(node, model.source) {
                if let Some(index) = address_base(target) {
                    parameters[index].reads = true;
                }
                return false;
            }
        }
        // `*p += v`, `v = *(p + k)`: the element the address points at, read; `*p = v` writes it
        if kind == "pointer_expression" && operator(node, model.source) == "*" {
            if let Some(index) = node.field("argument").and_then(address_base) {
                match dereference_kind(node, model.source) {
                    AccessKind::Write => parameters[index].plain_writes = true,
                    AccessKind::Read | AccessKind::ReadWrite => parameters[index].reads = true,
                }
            }
            // through a local set from a parameter, writes count (what the kernel reads through
            // it, its accesses hold): `*slot = v`, `fill(*slot)` with `fill(T& out)`
            let bases = node
                .field("argument")
                .map(derived_bases)
                .unwrap_or_default();
            let written = !bases.is_empty()
                && (dereference_kind(node, model.source) == AccessKind::Write
                    || strip_parents(node)
                        .is_some_and(|list| bound_to_a_written_parameter(model, node, list)));
            if written {
                for index in bases {
                    parameters[index].plain_writes = true;
                }
            }
        }
        if kind == "argument_list" {
            for argument in named_children(node) {
                let mut argument = strip(argument, model.source);
                if argument.node_kind() == "binary_expression" {
                    argument = argument
                        .field("left")
                        .map(|l| strip(l, model.source))
                        .unwrap_or(argument);
                }
                if argument.node_kind() == "identifier" {
                    let name = text(argument, model.source);
                    if let Some(index) = function
                        .parameters
                        .iter()
                        .position(|p| p.is_pointer && p.name == name)
                    {
                        parameters[index].plain_writes = true;
                    }
                    for index in derived_bases(argument) {
                        parameters[index].plain_writes = true;
                    }
                }
            }
        }
        true
    });
    let single_pointer: Vec<bool> = function
        .parameters
        .iter()
        .map(|p| is_single_pointer(model.source, p))
        .collect();
    for access in &facts.accesses {
        if access.via.is_some() {
            continue; // made by a device function: the pointer handed to it is counted above
        }
        let Some(summary) = parameters.get_mut(access.parameter_index) else {
            continue;
        };
        // `counters[6]`, `atomicAdd(&counters[5], 1)`: a fixed slot of the buffer
        if access.pointer_offset.is_none()
            && single_pointer
                .get(access.parameter_index)
                .copied()
                .unwrap_or(false)
        {
            let constant = evaluator
                .eval(access.index)
                .filter(|s| !s.floored)
                .and_then(|s| s.as_constant())
                .filter(|c| *c >= 0);
            if let Some(index) = constant {
                let larger = summary
                    .max_constant_index
                    .as_ref()
                    .is_none_or(|known| known.index < index);
                let start = function.definition.start_byte();
                if larger && access.node.start_byte() >= start {
                    summary.max_constant_index = Some(ConstantIndex {
                        index,
                        span: access.node.start_byte() - start..access.node.end_byte() - start,
                    });
                }
            }
        }
        if access.every_thread_at_global_x
            && access.pointer_offset.is_none()
            && summary.global_x_access.is_none()
            && single_pointer
                .get(access.parameter_index)
                .copied()
                .unwrap_or(false)
        {
            let start = function.definition.start_byte();
            if access.node.start_byte() >= start {
                summary.global_x_access =
                    Some(access.node.start_byte() - start..access.node.end_byte() - start);
            }
        }
        // `&p[i]` handed on (but to an atomic update, which reads it), `p[i].method()`, a
        // reference bound to `p[i]`: may write, not a definite read. A field is read or
        // written as the element would be (`p[i].x += v` reads, `p[i].x = v` writes).
        let parent = strip_parents(access.node);
        let field = parent.filter(|p| {
            p.node_kind() == "field_expression"
                && strip_parents(*p).is_none_or(|g| g.node_kind() != "call_expression")
        });
        let kind = match field {
            Some(field) => crate::model::kernel::access_kind(field, model.source),
            None => access.kind,
        };
        let atomic_target = parent
            .filter(|p| p.node_kind() == "pointer_expression" && operator(*p, model.source) == "&")
            .and_then(strip_parents)
            .filter(|list| list.node_kind() == "argument_list")
            .and_then(|list| list.up())
            .and_then(|call| atomic_update_target(call, model.source))
            .is_some_and(|target| {
                strip_parents(access.node)
                    .is_some_and(|address| address.byte_range() == target.byte_range())
            });
        let handed_on = !atomic_target
            && field.is_none()
            && parent.is_some_and(|p| {
                (p.node_kind() == "pointer_expression" && operator(p, model.source) == "&")
                    || p.node_kind() == "field_expression"
                    || (p.node_kind() == "init_declarator"
                        && p.field("declarator")
                            .is_some_and(|d| d.node_kind() == "reference_declarator"))
                    || bound_to_a_written_parameter(model, access.node, p)
            });
        if handed_on {
            summary.plain_writes = true;
            continue;
        }
        if kind.reads() {
            summary.reads = true;
        }
        if kind == AccessKind::Write {
            summary.plain_writes = true;
        }
        if field.is_some() {
            continue;
        }
        if !access.kind.reads() || access.pointer_offset.is_some() {
            continue;
        }
        let IndexStatus::Bounded { bound: Some(bound) } = &access.status else {
            continue;
        };
        if normalized(bound.left, model.source) != normalized(access.index, model.source) {
            continue;
        }
        let extent = match bound.relation {
            crate::model::guards::Relation::Less => evaluator.eval(bound.right),
            crate::model::guards::Relation::LessEqual => evaluator
                .eval(bound.right)
                .and_then(|s| s.add(&Sym::constant(1))),
            _ => None,
        };
        if let Some(extent) = extent {
            // keep the largest extent that is provably no smaller than the others
            let replace = match &summary.read_extent {
                None => true,
                Some(existing) => existing.compare(&extent) == size::Order::ProvablySmaller,
            };
            if replace {
                summary.read_extent = Some(extent);
            }
        }
    }
    KernelSummary {
        name: function.name.clone(),
        parameters,
    }
}
