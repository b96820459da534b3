//! Calls to device functions with a summary: the thread identity and bounds of what they return,
//! and the accesses they make through the pointers they are given.

use super::*;
use crate::model::helpers::HelperSummary;

/// The name a call's function is known by in the file's definitions: `f`, `ns::f`, `f<T>` are
/// `f`; a method call (`obj.f()`) names no free function.
pub(crate) fn callee_name<'s>(function: Node, source: &'s str) -> Option<&'s str> {
    let mut node = function;
    for _ in 0..8 {
        match node.node_kind() {
            "identifier" => return Some(text(node, source)),
            "qualified_identifier" | "template_function" => node = node.field("name")?,
            _ => return None,
        }
    }
    None
}

/// The names of the functions called in `body` (outside lambdas), sorted and without repeats.
pub(crate) fn called_names(body: Node, source: &str) -> Vec<String> {
    names_of_calls(body, |call| {
        call.field("function").and_then(|f| callee_name(f, source))
    })
}

/// The names of the methods called on objects in `body` (`opts.inactive(i)` calls
/// `inactive`), outside lambdas: a method defined in a header is summarised there.
pub(crate) fn called_method_names(body: Node, source: &str) -> Vec<String> {
    names_of_calls(body, |call| {
        call.field("function")
            .filter(|f| f.node_kind() == "field_expression")
            .and_then(|f| f.field("field"))
            .map(|method| text(method, source))
    })
}

/// The names `name` reads off the calls in `body` (outside lambdas), sorted and without
/// repeats.
fn names_of_calls<'s>(body: Node, name: impl Fn(Node) -> Option<&'s str>) -> Vec<String> {
    let mut names = Vec::new();
    syntax::walk_iterative(body, |node| match node.node_kind() {
        "call_expression" => {
            if let Some(called) = name(node) {
                names.push(called.to_string());
            }
            true
        }
        "lambda_expression" => false,
        _ => true,
    });
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether `call` calls the free function `name`.
fn callee_name_is(call: Node, name: &str, source: &str) -> bool {
    call.field("function")
        .and_then(|f| callee_name(f, source))
        .is_some_and(|called| called == name)
}

/// `&p[e]`: the address of an element, which the walk records as an access of its own.
fn is_address_of_element(argument: Node, source: &str) -> bool {
    let argument = strip(argument, source);
    argument.node_kind() == "pointer_expression"
        && operator(argument, source) == "&"
        && argument
            .field("argument")
            .is_some_and(|a| strip(a, source).node_kind() == "subscript_expression")
}

impl<'a, 't> Analyzer<'a, 't> {
    /// The summary of the device function `call` calls, with the call's arguments.
    pub(super) fn helper_call(&self, call: Node<'t>) -> Option<(&'a HelperSummary, Vec<Node<'t>>)> {
        let name = callee_name(call.field("function")?, self.source)?;
        let arguments: Vec<Node<'t>> = named_children(call.field("arguments")?)
            .filter(|a| a.node_kind() != "comment")
            .collect();
        let helpers: &'a DeviceFunctions = self.helpers;
        let summary = helpers.get(name, arguments.len())?;
        Some((summary, arguments))
    }

    /// A call of a method of an object (`opts.inactive(i)`) whose summary is a method's: one
    /// whose predicate compares with the object's fields, which no free function's does.
    pub(super) fn method_call(&self, call: Node<'t>) -> Option<(&'a HelperSummary, Vec<Node<'t>>)> {
        let function = call.field("function")?;
        if function.node_kind() != "field_expression" {
            return None;
        }
        let name = text(function.field("field")?, self.source);
        let arguments = syntax::call_arguments(call);
        let summary = self.helpers.get(name, arguments.len())?;
        let predicate = summary.predicate.as_ref()?;
        let on_receiver = |&(left, _, right): &crate::model::helpers::ParameterComparison| {
            left == crate::model::helpers::RECEIVER || right == crate::model::helpers::RECEIVER
        };
        (predicate
            .when_true
            .iter()
            .chain(&predicate.when_false)
            .any(on_receiver))
        .then_some((summary, arguments))
    }

    /// The value a straight-line helper call leaves in the local `name`, with the call's
    /// arguments: when exactly one call in the kernel passes `name` (or `&name`) and that call's
    /// helper is straight-line and assigns it arithmetic over its parameters. A local also passed
    /// to a call that may write it (no straight-line summary, or one that writes it with an
    /// unknown value) has no such value.
    pub(super) fn written_by_call(
        &self,
        name: &str,
    ) -> Option<(&'a crate::model::helper_values::HelperValue, Vec<Node<'t>>)> {
        let written = self.written_by_calls.get_or_init(|| {
            let mut written: HashMap<String, Option<Node<'t>>> = HashMap::default();
            let source = self.source;
            syntax::walk_iterative(self.function.body, |node| {
                if node.node_kind() == "lambda_expression" {
                    return false;
                }
                if node.node_kind() != "call_expression" {
                    return true;
                }
                let Some(arguments) = node.field("arguments") else {
                    return true;
                };
                let summary = self.helper_call(node).map(|(summary, _)| summary);
                let line = summary.and_then(|summary| summary.straight_line.as_ref());
                // `printf` is variadic: it takes its arguments by value
                let reads_only = |position: usize| {
                    summary.map_or_else(
                        || callee_name_is(node, "printf", source),
                        |summary| !summary.written_parameters.contains(&position),
                    )
                };
                let passed = named_children(arguments).filter(|a| a.node_kind() != "comment");
                for (position, argument) in passed.enumerate() {
                    let mut argument = strip(argument, source);
                    if argument.node_kind() == "pointer_expression"
                        && operator(argument, source) == "&"
                    {
                        match argument.field("argument") {
                            Some(inner) => argument = strip(inner, source),
                            None => continue,
                        }
                    }
                    if argument.node_kind() != "identifier" {
                        continue;
                    }
                    if line.is_none() && reads_only(position) {
                        continue;
                    }
                    let writes = match line {
                        // read only: the helper assigns that parameter nothing
                        Some(line) if !line.assigned.iter().any(|(p, _)| *p == position) => {
                            continue
                        }
                        Some(line) => line
                            .assigned
                            .iter()
                            .any(|(p, value)| *p == position && value.is_some()),
                        None => false,
                    };
                    let name = text(argument, source).to_string();
                    // a second call that may write it, or one that writes it unknown: no value
                    let call = (writes && !written.contains_key(&name)).then_some(node);
                    written.insert(name, call);
                }
                true
            });
            written
        });
        let call = (*written.get(name)?)?;
        let (summary, arguments) = self.helper_call(call)?;
        let line = summary.straight_line.as_ref()?;
        let position = arguments.iter().position(|a| {
            let a = strip(*a, self.source);
            let a = if a.node_kind() == "pointer_expression" {
                a.field("argument")
                    .map_or(a, |inner| strip(inner, self.source))
            } else {
                a
            };
            text(a, self.source) == name
        })?;
        let value = line
            .assigned
            .iter()
            .find(|(p, _)| *p == position)
            .and_then(|(_, value)| value.as_ref())?;
        Some((value, arguments))
    }

    /// `flat_index(row, col, w)`: the identity of the arguments that reach the result, with what
    /// the body derives itself. None for a call with no summary or no value.
    pub(super) fn helper_call_deps(&self, call: Node<'t>, depth: usize) -> Option<Deps> {
        let (summary, arguments) = self.helper_call(call)?;
        let returns = summary.returns.as_ref()?;
        let mut deps = returns.intrinsic;
        for parameter in &returns.flowing {
            if let Some(argument) = arguments.get(*parameter) {
                deps = deps.union(self.expression_deps(*argument, depth + 1));
            }
        }
        Some(deps)
    }

    /// Whether a call's result is bounded: every argument that reaches it is (or the one that is
    /// not is absorbed by construction, `wrap(i, n)` returning `i % n`), and what the body
    /// derives itself is bounded. None for a call with no summary or no value.
    pub(super) fn bounded_helper_call(
        &self,
        call: Node<'t>,
        comparisons: &[Comparison<'t>],
        visiting: &mut Vec<String>,
        depth: usize,
    ) -> Option<Result<Option<Comparison<'t>>, Node<'t>>> {
        let (summary, arguments) = self.helper_call(call)?;
        let returns = summary.returns.as_ref()?;
        if returns.intrinsic.is_global_index() && !returns.intrinsic_bounded {
            return Some(Err(call)); // `global_id()`: a fresh global index
        }
        let mut bound = None;
        let mut unbounded = Vec::new();
        for &parameter in &returns.flowing {
            let Some(argument) = arguments.get(parameter) else {
                return Some(Err(call));
            };
            match self.bounded(*argument, comparisons, visiting, depth + 1) {
                Ok(b) => bound = bound.or(b),
                Err(leaf) => unbounded.push((parameter, leaf)),
            }
        }
        Some(match unbounded.as_slice() {
            [] => Ok(bound),
            [(parameter, _)] if returns.absorbs.contains(parameter) => Ok(None),
            [(_, leaf), ..] => Err(*leaf),
        })
    }

    /// `store(out, i, v)`: each access the helper makes through a pointer parameter at an index
    /// parameter it does not guard, made here through the kernel's pointer at the call's
    /// arguments, whose guards are the ones in force at the call.
    pub(super) fn record_helper_accesses(&mut self, call: Node<'t>) {
        let Some((summary, arguments)) = self.helper_call(call) else {
            return;
        };
        for access in &summary.accesses {
            let Some(&pointer) = arguments.get(access.pointer) else {
                continue;
            };
            // `row + c` with `row = out + r * cols` has no origin of its own: it is `row`'s,
            // advanced again, which only an access at no index of the helper's follows
            let again = self.advanced_again(pointer);
            let origin = match (self.pointer_origin(pointer), &again) {
                (Some(origin), _) => origin,
                (None, Some((_, base))) if access.indices.is_empty() => PointerOrigin {
                    parameter_index: base.parameter_index,
                    offset: base.offset,
                },
                _ => continue,
            };
            let mut indices: Vec<Node<'t>> = access
                .indices
                .iter()
                .filter_map(|parameter| arguments.get(*parameter).copied())
                .collect();
            let mut offset = origin.offset;
            if access.indices.is_empty() {
                // the helper accesses at no index of the caller's: the pointer's advance is the
                // index (`&out[i]` is the kernel's own access of `out[i]` already)
                if is_address_of_element(pointer, self.source) {
                    continue;
                }
                match (offset, again) {
                    // `row + c` with `row = out + r * cols`: `c` past the row's start
                    (_, Some((step, base))) => {
                        indices = vec![step];
                        offset = base.offset;
                    }
                    (Some(advance), None) => {
                        indices = vec![advance];
                        offset = None;
                    }
                    (None, None) => continue,
                }
            }
            let Some(&first) = indices.first() else {
                continue;
            };
            let file = self
                .helpers
                .foreign_file(&access.site.function, access.site.arity)
                .map(std::path::Path::to_path_buf);
            let start = self.helpers.start(&access.site.function, access.site.arity);
            if start.is_none() && file.is_none() {
                continue;
            }
            let mut deps = indices.iter().fold(Deps::NONE, |deps, index| {
                deps.union(self.expression_deps(*index, 0))
            });
            if let Some(offset) = offset {
                deps = deps.union(self.expression_deps(offset, 0));
            }
            let (status, index) = if deps.is_global_index() {
                match self.helper_index_status(first, &indices, offset) {
                    // `init(states + i)`: every launch's buffer holds what `i` reaches
                    (IndexStatus::Unguarded { .. }, index)
                        if offset.is_none()
                            && indices.len() == 1
                            && self.fits_every_buffer(
                                origin.parameter_index,
                                first,
                                None,
                                None,
                            ) =>
                    {
                        (IndexStatus::Bounded { bound: None }, index)
                    }
                    found => found,
                }
            } else {
                (IndexStatus::NotThreadIndexed, first)
            };
            let pointer_name = strip(pointer, self.source);
            self.out.accesses.push(Access {
                node: call,
                pointer: self.text(pointer_name).to_string(),
                parameter_index: origin.parameter_index,
                index,
                pointer_offset: offset,
                kind: access.kind,
                deps,
                status,
                statement: enclosing_statement(call),
                every_thread_at_global_x: false,
                launches_holding_it: Vec::new(),
                via: Some(Via {
                    helper: summary.name.clone(),
                    site: access.site.clone(),
                    span: start
                        .map(|start| start + access.site.span.start..start + access.site.span.end),
                    file,
                }),
            });
        }
    }

    /// `q + e` where `q` is itself advanced from a parameter (`row + c` with `row = out + r * n`,
    /// `out + r * n + c`): `e` and `q`'s advance.
    fn advanced_again(&self, pointer: Node<'t>) -> Option<(Node<'t>, PointerOrigin<'t>)> {
        let pointer = strip(pointer, self.source);
        if pointer.node_kind() != "binary_expression" || operator(pointer, self.source) != "+" {
            return None;
        }
        let base = self.pointer_origin(pointer.field("left")?)?;
        base.offset?;
        Some((pointer.field("right")?, base))
    }

    /// The status of an access through a helper at the index arguments `indices` (and the
    /// pointer's offset), with the argument that names it. Only bounds count here: how the helper
    /// computes its index from them is not known, so no guard reads as out of range.
    fn helper_index_status(
        &self,
        first: Node<'t>,
        indices: &[Node<'t>],
        offset: Option<Node<'t>>,
    ) -> (IndexStatus<'t>, Node<'t>) {
        let split = self.current_comparisons();
        let comparisons = &split.0;
        let mut visiting = Vec::new();
        let mut bound = None;
        for index in indices {
            match self.bounded(*index, comparisons, &mut visiting, 0) {
                Ok(b) => bound = bound.or(b),
                Err(leaf) => return (self.unguarded(leaf, *index, comparisons), *index),
            }
        }
        if let Some(offset) = offset {
            if let Err(leaf) = self.bounded(offset, comparisons, &mut visiting, 0) {
                return (self.unguarded(leaf, offset, comparisons), first);
            }
        }
        (IndexStatus::Bounded { bound }, first)
    }
}
