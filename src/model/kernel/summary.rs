//! A device function's summary, from analyses of its body with its parameters as thread indices.
//!
//! Each scalar parameter in turn is taken as a global thread index (`Deps::GRID`), the others as
//! uniform: the parameter reaches the result when the returned value then derives from the grid,
//! the result absorbs it when every `return` is bounded then, and an access indexes by it when it
//! is unguarded then. A first analysis with no parameter seeded gives what the body derives
//! itself.

use super::barriers::Multiple;
use super::*;
use crate::model::helpers::{
    BarrierSite, CollectiveSite, HelperSummary, ParameterAccess, ReturnSummary,
};

/// Scalar parameters taken one at a time as thread indices; later ones are read as uniform.
const MAX_SEEDED_PARAMETERS: usize = 16;
/// Accesses kept in one summary.
const MAX_ACCESSES: usize = 32;

pub(crate) fn summarize_helper<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    known: &DeviceFunctions,
) -> HelperSummary {
    let arity = function.parameters.len();
    let mut summary = HelperSummary {
        name: function.name.clone(),
        arity,
        returns: None,
        accesses: Vec::new(),
        barrier: None,
        collective: None,
        straight_line: None,
        written_parameters: Vec::new(),
        predicate: None,
    };
    if function.has_parse_errors {
        return summary; // what it computes rests on code the parser could not read
    }
    summary.straight_line = straight_line_effect(model.source, function);
    summary.written_parameters = written_parameters(model.source, function);
    summary.predicate = predicate(model.source, function);
    summary.barrier = first_barrier(model.source, function, known);
    summary.collective = first_collective(model, function, known);
    let returned = returned_values(function.body);
    let has_pointers = function.parameters.iter().any(|p| p.is_pointer);
    if returned.is_empty() && !has_pointers {
        return summary;
    }
    let mut analyzer = Analyzer::new(model.source, function, known);
    analyzer.collect_definitions();
    analyzer.seed(None);
    let intrinsic = returned.iter().fold(Deps::NONE, |deps, value| {
        deps.union(analyzer.expression_deps(*value, 0))
    });
    let intrinsic_bounded = returned.is_empty()
        || !intrinsic.is_global_index()
        || analyzer.walk_returns_bounded(&returned);

    let start = function.definition.start_byte();
    let mut flowing = Vec::new();
    let mut absorbs = Vec::new();
    let mut accesses: Vec<ParameterAccess> = Vec::new();
    let scalars: Vec<usize> = (0..arity)
        .filter(|&i| function.parameters.get(i).is_some_and(|p| !p.is_pointer))
        .take(MAX_SEEDED_PARAMETERS)
        .collect();
    for &parameter in &scalars {
        analyzer.seed(Some(parameter));
        // with the body itself grid-wide, every argument may matter
        let flows = !returned.is_empty()
            && (intrinsic.contains(Deps::GRID)
                || returned
                    .iter()
                    .any(|v| analyzer.expression_deps(*v, 0).contains(Deps::GRID)));
        if flows {
            flowing.push(parameter);
        }
        if !flows && !has_pointers {
            continue;
        }
        let bounded = analyzer.walk_returns_bounded(&returned);
        if flows && bounded {
            absorbs.push(parameter);
        }
        for access in &analyzer.out.accesses {
            // out of range under a guard of the helper's (`if (i >= n) p[i] = 0;`) is unbounded
            // too: only a guard at the call can bound it
            if !matches!(
                access.status,
                IndexStatus::Unguarded { .. } | IndexStatus::OutOfRange { .. }
            ) {
                continue;
            }
            let site = match &access.via {
                Some(via) => via.site.clone(),
                None => Site {
                    function: function.name.clone(),
                    arity,
                    pointer: access.pointer.clone(),
                    span: access.node.start_byte().saturating_sub(start)
                        ..access.node.end_byte().saturating_sub(start),
                },
            };
            let known = accesses
                .iter()
                .position(|a| a.pointer == access.parameter_index && a.site == site);
            if let Some(known) = known.and_then(|at| accesses.get_mut(at)) {
                if !known.indices.contains(&parameter) {
                    known.indices.push(parameter);
                }
            } else if accesses.len() < MAX_ACCESSES {
                accesses.push(ParameterAccess {
                    pointer: access.parameter_index,
                    indices: vec![parameter],
                    kind: access.kind,
                    site,
                });
            }
        }
    }
    // an access through a pointer parameter at no index parameter (`*p = v`, `p[0]`, `p[k]`
    // under the helper's own guard): a caller that passes an advanced pointer (`out + i * n`,
    // or a local holding one) makes that advance the access's index
    for (position, parameter) in function.parameters.iter().enumerate() {
        if accesses.len() >= MAX_ACCESSES {
            break;
        }
        if !parameter.is_pointer
            || parameter.is_tensor_accessor()
            || accesses.iter().any(|a| a.pointer == position)
            || analyzer.definitions.contains_key(&parameter.name)
        {
            continue;
        }
        if let Some(node) = first_access_through(function.body, &parameter.name, model.source) {
            accesses.push(ParameterAccess {
                pointer: position,
                indices: Vec::new(),
                kind: access_kind(node, model.source),
                site: Site {
                    function: function.name.clone(),
                    arity,
                    pointer: parameter.name.clone(),
                    span: node.start_byte().saturating_sub(start)
                        ..node.end_byte().saturating_sub(start),
                },
            });
        }
    }
    accesses.sort_by_key(|a| (a.site.function != function.name, a.site.span.start));
    summary.accesses = accesses;
    if !returned.is_empty() {
        let multiple_of = function.parameters.iter().position(|p| {
            // a parameter assigned in the body is no longer the caller's argument
            !p.is_pointer
                && !analyzer.definitions.contains_key(&p.name)
                && !analyzer.updated.contains(&p.name)
                && returned
                    .iter()
                    .all(|v| analyzer.multiple_of(*v, p.name_node, 0) == Multiple::Shape)
        });
        summary.returns = Some(ReturnSummary {
            flowing,
            intrinsic,
            intrinsic_bounded,
            absorbs,
            multiple_of,
            range: returned_type_range(model, function),
        });
    }
    summary
}

/// The values `function`'s declared result type can hold, when it is narrower than `int`; a
/// function returning a pointer or a reference returns an address, not such a value.
fn returned_type_range(model: &Model, function: &Function) -> Option<(i128, i128)> {
    let declared = function.definition.field("type")?;
    let declarator = function.definition.field("declarator")?;
    if declarator.node_kind() != "function_declarator" {
        return None;
    }
    let written = syntax::text(declared, model.source);
    crate::model::ranges::Range::of_narrow_type(&model.resolve_type(written))
}

/// The first block-wide barrier in `function`'s body (outside lambdas): a `__syncthreads()`
/// of its own, or a call of a function already summarised that reaches one.
fn first_barrier(
    source: &str,
    function: &Function,
    known: &DeviceFunctions,
) -> Option<BarrierSite> {
    let start = function.definition.start_byte();
    let mut found = None;
    syntax::walk_iterative(function.body, |node| {
        if found.is_some() || node.node_kind() == "lambda_expression" {
            return false;
        }
        if node.node_kind() != "call_expression" {
            return true;
        }
        let Some(callee) = node.field("function") else {
            return true;
        };
        let name = syntax::text(callee, source);
        if matches!(
            name,
            "__syncthreads"
                | "__syncthreads_count"
                | "__syncthreads_and"
                | "__syncthreads_or"
                | "__barrier_sync"
        ) {
            found = Some(BarrierSite {
                function: function.name.clone(),
                arity: function.parameters.len(),
                span: node.start_byte().saturating_sub(start)
                    ..node.end_byte().saturating_sub(start),
            });
            return false;
        }
        found =
            summary_of_call(node, callee, function, known, source).and_then(|s| s.barrier.clone());
        found.is_none()
    });
    found
}

/// The first access of `body` (outside lambdas) through the pointer `name` itself: `name[e]`,
/// `*name`, `*(name + e)`.
fn first_access_through<'t>(body: Node<'t>, name: &str, source: &str) -> Option<Node<'t>> {
    let names = |node: Option<Node<'t>>| {
        node.map(|n| strip(n, source))
            .is_some_and(|n| n.node_kind() == "identifier" && text(n, source) == name)
    };
    let mut found = None;
    syntax::walk_iterative(body, |node| {
        if found.is_some() || node.node_kind() == "lambda_expression" {
            return false;
        }
        let access = match node.node_kind() {
            "subscript_expression" => names(node.field("argument")),
            "pointer_expression" if operator(node, source) == "*" => {
                let argument = node.field("argument").map(|a| strip(a, source));
                names(argument)
                    || argument.is_some_and(|a| {
                        a.node_kind() == "binary_expression"
                            && operator(a, source) == "+"
                            && (names(a.field("left")) || names(a.field("right")))
                    })
            }
            _ => false,
        };
        if access {
            found = Some(node);
        }
        found.is_none()
    });
    found
}

/// The first warp collective with a full mask in `function`'s body (outside lambdas): an
/// intrinsic of its own, or a call of a function already summarised that reaches one.
fn first_collective<'t>(
    model: &Model<'t>,
    function: &Function<'t>,
    known: &DeviceFunctions,
) -> Option<CollectiveSite> {
    let source = model.source;
    // the locals a mask may be held in are read only when an intrinsic is met
    let mut analyzer: Option<Analyzer> = None;
    let start = function.definition.start_byte();
    let mut found: Option<CollectiveSite> = None;
    // the widest group any collective reads inside, over all of them (None: one is unknown)
    let mut span: Option<u32> = Some(1);
    syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "lambda_expression" {
            return false;
        }
        if node.node_kind() != "call_expression" {
            return true;
        }
        let Some(callee) = node.field("function") else {
            return true;
        };
        let name = syntax::text(callee, source);
        if super::warps::is_collective(name) {
            let mask = node
                .field("arguments")
                .and_then(|a| named_children(a).find(|c| c.node_kind() != "comment"));
            let analyzer = analyzer.get_or_insert_with(|| {
                let mut analyzer = Analyzer::new(source, function, known);
                analyzer.model = Some(model);
                analyzer.collect_definitions();
                analyzer
            });
            if mask.is_some_and(|m| analyzer.names_all_lanes(m, 0)) {
                let partners = analyzer.partner_span(node);
                span = span.zip(partners).map(|(a, b)| a.max(b));
                if found.is_none() {
                    found = Some(CollectiveSite {
                        function: function.name.clone(),
                        arity: function.parameters.len(),
                        span: node.start_byte().saturating_sub(start)
                            ..node.end_byte().saturating_sub(start),
                        intrinsic: name.to_string(),
                        partner_span: None,
                    });
                }
            }
            return true;
        }
        if let Some(site) = summary_of_call(node, callee, function, known, source)
            .and_then(|s| s.collective.as_ref())
        {
            span = span.zip(site.partner_span).map(|(a, b)| a.max(b));
            if found.is_none() {
                found = Some(site.clone());
            }
        }
        true
    });
    found.map(|site| CollectiveSite {
        partner_span: span,
        ..site
    })
}

/// The summary of the device function a call reaches, by name and argument count; none for a
/// call of `function` itself (a recursive call reaches what the body reaches anyway).
fn summary_of_call<'k>(
    call: Node,
    callee: Node,
    function: &Function,
    known: &'k DeviceFunctions,
    source: &str,
) -> Option<&'k crate::model::helpers::HelperSummary> {
    let arity = syntax::argument_count(call);
    let called = super::calls::callee_name(callee, source)?;
    if called == function.name {
        return None;
    }
    known.get(called, arity)
}

/// The helper's effect when its body is straight-line arithmetic (`compute3DIndices` writing
/// three coordinates through references, `div_mod` returning a quotient).
fn straight_line_effect(
    source: &str,
    function: &Function,
) -> Option<crate::model::helper_values::StraightLine> {
    use crate::model::helper_values::{straight_line, ParameterShape};
    let shapes: Vec<ParameterShape> = function
        .parameters
        .iter()
        .map(|p| ParameterShape {
            name: &p.name,
            is_out_reference: is_out_reference(p, source),
            is_pointer: p.is_pointer,
        })
        .collect();
    straight_line(function.body, &shapes, source)
}

/// For a body that is one `return` of a test, the comparisons between by-value parameters it
/// guarantees when it returns true and when it returns false. The body assigns nothing, so each
/// parameter still holds its argument's value when the test is made.
fn predicate(source: &str, function: &Function) -> Option<crate::model::helpers::Predicate> {
    let (test, negated) = predicate_test(source, function)?;
    // a method defined in its class: a name that is no parameter is one of the object's fields
    // (the body declares nothing), `this->nthreads` too
    let is_method = std::iter::successors(function.definition.up(), |n| n.up())
        .take(4)
        .any(|a| a.node_kind() == "field_declaration_list");
    let position = |node: Node| {
        let node = strip(node, source);
        let is_this_field = node.node_kind() == "field_expression"
            && node
                .field("argument")
                .is_some_and(|a| text(a, source) == "this");
        if is_method && is_this_field {
            return Some(crate::model::helpers::RECEIVER);
        }
        if node.node_kind() != "identifier" {
            return None;
        }
        let name = text(node, source);
        let parameter = function.parameters.iter().position(|p| p.name == name);
        match parameter {
            Some(at) => {
                let p = &function.parameters[at];
                (!p.is_pointer && !is_out_reference(p, source)).then_some(at)
            }
            None if is_method => Some(crate::model::helpers::RECEIVER),
            None => None,
        }
    };
    let side = |node: Node| {
        position(node).or_else(|| {
            (!is_method && is_program_constant(node, source, function))
                .then_some(crate::model::helpers::PROGRAM_CONSTANT)
        })
    };
    let facts = |holds: bool| {
        let mut found = Vec::new();
        guards::comparisons(
            Condition {
                node: test,
                holds: holds != negated,
            },
            source,
            &guards::NoFlags,
            &mut found,
            &mut Vec::new(),
        );
        found
            .iter()
            .filter_map(|c| Some((side(c.left)?, c.relation, side(c.right)?)))
            // two fields of the object, or two constants, say nothing of the arguments
            .filter(|(left, _, right)| {
                let of_arguments = |at: &usize| {
                    *at != crate::model::helpers::RECEIVER
                        && *at != crate::model::helpers::PROGRAM_CONSTANT
                };
                of_arguments(left) || of_arguments(right)
            })
            .collect::<Vec<_>>()
    };
    let predicate = crate::model::helpers::Predicate {
        when_true: facts(true),
        when_false: facts(false),
    };
    (!predicate.when_true.is_empty() || !predicate.when_false.is_empty()).then_some(predicate)
}

/// The test a predicate's body returns, and whether it returns the test's negation: `return
/// i < n;`, or `if (i < n) return true; return false;` (`return false` first: negated), or the
/// same with `else`; after declarations of its own locals (`int ikx = get_ikx(idx);`), when the
/// body writes none of its parameters.
fn predicate_test<'t>(source: &str, function: &Function<'t>) -> Option<(Node<'t>, bool)> {
    let statements: Vec<Node<'t>> = named_children(function.body)
        .filter(|c| c.node_kind() != "comment")
        .skip_while(|c| c.node_kind() == "declaration")
        .collect();
    let mut writes_a_parameter = false;
    syntax::walk_iterative(function.body, |node| {
        writes_a_parameter |= syntax::assigned_target(node).is_some_and(|target| {
            let target = text(strip(target, source), source);
            function.parameters.iter().any(|p| p.name == target)
        });
        !writes_a_parameter
    });
    if writes_a_parameter {
        return None;
    }
    let returned = |statement: Node<'t>| {
        let statement = match statement.node_kind() {
            "compound_statement" => {
                let mut inner = named_children(statement).filter(|c| c.node_kind() != "comment");
                match (inner.next(), inner.next()) {
                    (Some(only), None) => only,
                    _ => return None,
                }
            }
            _ => statement,
        };
        (statement.node_kind() == "return_statement")
            .then(|| named_children(statement).find(|c| c.node_kind() != "comment"))
            .flatten()
    };
    let branching = |branch: Node<'t>, otherwise: Node<'t>| {
        let taken = text(returned(branch.field("consequence")?)?, source);
        let otherwise = text(returned(otherwise)?, source);
        let test = syntax::condition_value(branch.field("condition")?);
        match (taken, otherwise) {
            ("true", "false") => Some((test, false)),
            ("false", "true") => Some((test, true)),
            _ => None,
        }
    };
    match statements.as_slice() {
        [only] if only.node_kind() == "if_statement" => {
            let alternative = only.field("alternative")?;
            let otherwise = match alternative.node_kind() {
                "else_clause" => {
                    named_children(alternative).find(|c| c.node_kind() != "comment")?
                }
                _ => alternative,
            };
            branching(*only, otherwise)
        }
        [only] => Some((returned(*only)?, false)),
        [branch, last] if branch.node_kind() == "if_statement" => {
            if branch.field("alternative").is_some() {
                return None;
            }
            branching(*branch, *last)
        }
        _ => None,
    }
}

/// Whether `node` is a value every thread computes alike from the program's constants: number
/// literals and names that are neither the function's parameters nor its locals (file-scope
/// constants, `__constant__` globals, macros), joined by arithmetic.
fn is_program_constant(node: Node, source: &str, function: &Function) -> bool {
    let mut constant = true;
    let mut names = 0;
    syntax::walk_iterative(node, |n| {
        if !n.is_named() {
            return constant;
        }
        match n.node_kind() {
            "number_literal" | "parenthesized_expression" => {}
            "binary_expression" | "unary_expression" => {
                constant &= matches!(
                    syntax::operator(n, source),
                    "+" | "-" | "*" | "/" | "%" | "<<" | ">>"
                );
            }
            "identifier" => {
                let name = text(n, source);
                names += 1;
                constant &= !function.parameters.iter().any(|p| p.name == name)
                    && !crate::model::launch::declares(function.body, name, source);
            }
            _ => constant = false,
        }
        constant
    });
    constant && names > 0
}

/// The parameters through which a call may write the caller's variables: non-const
/// references and pointers.
fn written_parameters(source: &str, function: &Function) -> Vec<usize> {
    function
        .parameters
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_pointer || is_out_reference(p, source))
        .map(|(position, _)| position)
        .collect()
}

/// `int& r` is written back; `int const& n` and `const int& n` only pass a value.
fn is_out_reference(parameter: &crate::model::function::Parameter, source: &str) -> bool {
    parameter
        .declaration
        .field("declarator")
        .is_some_and(|d| d.node_kind() == "reference_declarator")
        && !named_children(parameter.declaration)
            .any(|c| c.node_kind() == "type_qualifier" && text(c, source) == "const")
}

/// The values of the `return` statements of `body` (outside lambdas).
fn returned_values(body: Node) -> Vec<Node> {
    let mut values = Vec::new();
    syntax::walk_iterative(body, |node| match node.node_kind() {
        "return_statement" => {
            values.extend(named_children(node).find(|c| c.node_kind() != "comment"));
            false
        }
        "lambda_expression" => false,
        _ => true,
    });
    values
}

impl<'a, 't> Analyzer<'a, 't> {
    /// Starts an analysis afresh with `parameter` (by position) as a global thread index.
    fn seed(&mut self, parameter: Option<usize>) {
        self.deps.clear();
        self.definition_deps.clear();
        self.clear_deps_caches();
        self.cache_deps = false;
        self.facts.clear();
        self.loop_scopes.clear();
        self.definition_guards.clear();
        *self.comparison_cache.borrow_mut() = None;
        self.out.accesses.clear();
        self.out.barriers.clear();
        self.out.skipped.clear();
        if let Some(name) = parameter.and_then(|i| self.function.parameters.get(i)) {
            self.deps.insert(name.name.clone(), Deps::GRID);
        }
        self.propagate_thread_deps();
    }

    /// Walks the body as seeded; whether every one of `returned` was met and bounded by the
    /// facts in force at its `return`.
    fn walk_returns_bounded(&mut self, returned: &[Node<'t>]) -> bool {
        self.out.accesses.clear();
        self.returns = Some(Vec::new());
        self.cache_deps = true;
        self.statement(self.function.body, 0);
        self.cache_deps = false;
        self.clear_deps_caches();
        let met = self.returns.take().unwrap_or_default();
        met.len() == returned.len() && met.iter().all(|bounded| *bounded)
    }

    /// While summarising: notes whether the value `statement` returns is bounded here.
    pub(super) fn note_return(&mut self, statement: Node<'t>) {
        if self.returns.is_none() {
            return;
        }
        let Some(value) = named_children(statement).find(|c| c.node_kind() != "comment") else {
            return;
        };
        let split = self.current_comparisons();
        let bounded = self.bounded(value, &split.0, &mut Vec::new(), 0).is_ok();
        if let Some(returns) = self.returns.as_mut() {
            returns.push(bounded);
        }
    }
}
