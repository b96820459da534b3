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

/// What host code needs to know of a kernel: per parameter, whether it is read or written and how
/// much of it is read.
pub fn summarize_kernel<'t>(
    model: &Model<'t>,
    function: &crate::model::Function<'t>,
    facts: &crate::model::KernelFacts<'t>,
) -> KernelSummary {
    let mut parameters: Vec<ParameterSummary> = function
        .parameters
        .iter()
        .map(|p| ParameterSummary {
            is_pointer: p.is_pointer,
            is_const: p.type_text.split_whitespace().any(|w| w == "const"),
            element_type: p.is_pointer.then(|| pointee_of_parameter(p)),
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
    // a pointer handed whole to another function (`f(p)`, `atomicAdd(p, v)`) may be written there
    walk_iterative(function.body, |node| {
        if node.node_kind() == "argument_list" {
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
        // `&p[i]` handed on, or `p[i].field` / `p[i].method()`: may write, not a definite read
        let parent = strip_parents(access.node);
        let handed_on = parent.is_some_and(|p| {
            (p.node_kind() == "pointer_expression" && operator(p, model.source) == "&")
                || p.node_kind() == "field_expression"
                || (p.node_kind() == "init_declarator"
                    && p.field("declarator")
                        .is_some_and(|d| d.node_kind() == "reference_declarator"))
        });
        if handed_on {
            summary.plain_writes = true;
            continue;
        }
        if access.kind.reads() {
            summary.reads = true;
        }
        if access.kind == AccessKind::Write {
            summary.plain_writes = true;
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
