//! The walk of one host function that records its events and checks in source order, with the
//! arms of the branches each sits in and the `return` that ends its block.

use super::*;

/// One node of the walk's ancestry.
struct Frame<'t> {
    node: Node<'t>,
    /// For a branch: its arms' ranges (an arm index per `case`, cases that fall through share
    /// one).
    arms: Vec<(Range<usize>, usize)>,
}

fn branch_arms(node: Node) -> Vec<(Range<usize>, usize)> {
    match node.node_kind() {
        "if_statement" | "conditional_expression" => ["consequence", "alternative"]
            .iter()
            .enumerate()
            .filter_map(|(arm, field)| node.field(field).map(|n| (n.byte_range(), arm)))
            .collect(),
        "switch_statement" => {
            let Some(body) = node.field("body") else {
                return Vec::new();
            };
            let mut arms = Vec::new();
            let mut arm = 0;
            for case in named_children(body).filter(|c| c.node_kind() == "case_statement") {
                arms.push((case.byte_range(), arm));
                // a case that ends in `break`, `return` or `throw` does not fall into the next
                let ends = named_children(case).any(|s| {
                    matches!(
                        s.node_kind(),
                        "break_statement" | "return_statement" | "continue_statement"
                    ) || is_throw(s)
                });
                if ends {
                    arm += 1;
                }
            }
            arms
        }
        _ => Vec::new(),
    }
}

fn is_throw(statement: Node) -> bool {
    statement.node_kind() == "expression_statement"
        && statement
            .named_child(0)
            .is_some_and(|e| e.node_kind() == "throw_expression")
}

/// Where a node sits among the arms of its enclosing branches.
fn arms_of(stack: &[Frame], node: Node) -> Arms {
    stack
        .iter()
        .filter(|f| !f.arms.is_empty())
        .filter_map(|f| {
            f.arms
                .iter()
                .find(|(range, _)| range.start <= node.start_byte() && node.end_byte() <= range.end)
                .map(|(_, arm)| (f.node.id(), *arm))
        })
        .collect()
}

/// The innermost enclosing block that a `return` or `throw` after `node` ends. `exits` keeps,
/// per block (by node id), where its last `return` or `throw` starts.
fn exits_within(
    stack: &[Frame],
    node: Node,
    exits: &mut HashMap<usize, Option<usize>>,
) -> Option<Range<usize>> {
    for frame in stack.iter().rev() {
        match frame.node.node_kind() {
            // a `return` in a lambda leaves the lambda only
            "lambda_expression" => return None,
            "compound_statement" | "case_statement" => {
                let last_exit = *exits.entry(frame.node.id()).or_insert_with(|| {
                    named_children(frame.node)
                        .filter(|s| s.node_kind() == "return_statement" || is_throw(*s))
                        .map(|s| s.start_byte())
                        .last()
                });
                if last_exit.is_some_and(|at| at >= node.end_byte()) {
                    return Some(frame.node.byte_range());
                }
            }
            _ => {}
        }
    }
    None
}

/// A call result stored in a variable, waiting for a later read of it.
struct Stored {
    name: String,
    /// The end of the storing statement.
    after: usize,
    /// The event whose result it is, or the check site it becomes once read.
    waiting: Waiting,
}

enum Waiting {
    Event(usize),
    Check(CheckSite),
}

/// The events, checks and returned calls of one host function, in one walk of its body.
pub(super) fn walk_function<'t>(
    model: &Model<'t>,
    names: &HashSet<&str>,
    index: usize,
) -> FunctionErrors<'t> {
    let function = &model.functions[index];
    let mut events = Vec::new();
    let mut checks = Vec::new();
    let mut returned = Vec::new();
    let mut synchronizations = Vec::new();
    let mut exits: HashMap<usize, Option<usize>> = HashMap::default();
    // results stored in variables: read later, they count as tested
    let stored: std::cell::RefCell<Vec<Stored>> = std::cell::RefCell::default();
    let note_store = std::cell::Cell::new(None::<(String, usize)>);
    let read_later = |name: &str, after: usize| {
        note_store.set(Some((name.to_string(), after)));
        false
    };
    let mut stack: Vec<Frame<'t>> = Vec::new();
    let mut cursor = function.body.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        stack.truncate(depth);
        let descend = visit_node(
            node,
            &stack,
            model,
            names,
            &read_later,
            &note_store,
            &stored,
            &mut exits,
            &mut events,
            &mut checks,
            &mut returned,
            &mut synchronizations,
        );
        // a call needs a `(`: code without one holds no event or check (unless a stored result
        // is waiting for a read); only what the walk goes into is an ancestor of later nodes
        let descend = descend
            && (!stored.borrow().is_empty()
                || model
                    .source
                    .get(node.byte_range())
                    .is_none_or(|t| t.contains('(')));
        if descend && cursor.goto_first_child() {
            let arms = branch_arms(node);
            stack.push(Frame { node, arms });
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                break;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
        if depth == 0 {
            break;
        }
    }
    let has_launch = events.iter().any(|e| e.kind == EventKind::Launch);
    let check_helper = (!checks.is_empty() && !has_launch).then(|| {
        if returns_void(model, function) {
            CheckHelper::Reports
        } else {
            CheckHelper::Returns
        }
    });
    FunctionErrors {
        function_index: index,
        name: function.name.clone(),
        arity: function.parameters.len(),
        events,
        checks,
        returned,
        tested_synchronizations: synchronizations,
        check_helper,
        flows: Vec::new(),
        local_flows: Vec::new(),
        returns_void: returns_void(model, function),
        verdicts: Vec::new(),
        returned_verdicts: Vec::new(),
    }
}

/// A call that waits for work already queued and returns its errors.
fn is_synchronization(name: &str) -> bool {
    let name = name
        .strip_prefix("cuda")
        .or_else(|| name.strip_prefix("hip"))
        .unwrap_or("");
    matches!(
        name,
        "DeviceSynchronize" | "StreamSynchronize" | "ThreadSynchronize" | "EventSynchronize"
    )
}

/// One node of the walk: records what it is, and says whether to look inside.
#[allow(clippy::too_many_arguments)]
fn visit_node<'t>(
    node: Node<'t>,
    stack: &[Frame<'t>],
    model: &Model<'t>,
    names: &HashSet<&str>,
    read_later: &dyn Fn(&str, usize) -> bool,
    note_store: &std::cell::Cell<Option<(String, usize)>>,
    stored: &std::cell::RefCell<Vec<Stored>>,
    exits: &mut HashMap<usize, Option<usize>>,
    events: &mut Vec<ErrorEvent<'t>>,
    checks: &mut Vec<CheckSite>,
    returned: &mut Vec<ReturnedCall<'t>>,
    synchronizations: &mut Vec<Node<'t>>,
) -> bool {
    if !node.is_named() {
        return false;
    }
    let source = model.source;
    let kind = node.node_kind();
    match kind {
        // `CHECK_KERNEL` alone as a statement: an object-like macro that tests the last error
        "expression_statement" => {
            let names_check = node.named_child(0).is_some_and(|word| {
                word.node_kind() == "identifier"
                    && model
                        .view
                        .last_error_macros
                        .binary_search_by(|m| m.as_str().cmp(text(word, source)))
                        .is_ok()
            });
            if names_check {
                checks.push(CheckSite {
                    at: node.start_byte(),
                    arms: arms_of(stack, node),
                });
                return false;
            }
            return true;
        }
        "identifier" => {
            let mut waiting = stored.borrow_mut();
            if !waiting.is_empty() {
                let name = text(node, source);
                let start = node.start_byte();
                let mut index = 0;
                while index < waiting.len() {
                    if waiting[index].name == name && start >= waiting[index].after {
                        match waiting.swap_remove(index).waiting {
                            Waiting::Event(e) => {
                                if let Some(event) = events.get_mut(e) {
                                    event.result = ResultUse::Checked;
                                }
                            }
                            Waiting::Check(site) => checks.push(site),
                        }
                    } else {
                        index += 1;
                    }
                }
            }
            return false;
        }
        // run elsewhere, at some other time
        "function_definition" | "class_specifier" | "struct_specifier" => return false,
        // data, not calls (tables of constants can be long)
        "initializer_list" | "string_literal" | "concatenated_string" | "number_literal" => {
            return false
        }
        // a lambda passed to a call (`AT_DISPATCH_...(..., [&] { ... })`) runs there
        "lambda_expression" => {
            return stack.last().map(|f| f.node.node_kind()) == Some("argument_list")
        }
        "call_expression" => {}
        _ => return true,
    }
    let ancestors = || stack.iter().rev().map(|f| f.node);
    if let Some(form) = crate::model::runtime::launch_form(node, source) {
        let kernel = crate::model::launch::launched_kernel(form.kernel, source).to_string();
        let wrapped = !matches!(outer_kind(stack), Some("expression_statement"));
        events.push(ErrorEvent {
            node,
            kind: EventKind::Launch,
            arity: form.arguments.len(),
            name: kernel,
            wrapped,
            result: ResultUse::Discarded,
            returned: false,
            check_named: false,
            literal_arguments: false,
            arms: arms_of(stack, node),
            exits_within: exits_within(stack, node, exits),
        });
        return true;
    }
    let Some(name) = project_call_name(node, source) else {
        return true;
    };
    if crate::syntax::is_functional_cast(node, source) {
        return true;
    }
    if is_last_error_query(name) {
        note_store.set(None);
        let result = result_use_among(ancestors(), source, read_later);
        let site = CheckSite {
            at: node.start_byte(),
            arms: arms_of(stack, node),
        };
        match (result, note_store.take()) {
            (ResultUse::StoredUnread, Some((name, after))) => stored.borrow_mut().push(Stored {
                name,
                after,
                waiting: Waiting::Check(site),
            }),
            (ResultUse::Checked, _) => checks.push(site),
            _ => {}
        }
        return true;
    }
    if is_cuda_or_hip_api(name) && !project_check(name) {
        if is_synchronization(name) {
            note_store.set(None);
            // an error code kept in a variable is there to be tested
            let tested = match result_use_among(ancestors(), source, read_later) {
                ResultUse::Checked => true,
                ResultUse::StoredUnread => note_store.take().is_some(),
                _ => false,
            };
            if tested {
                synchronizations.push(node);
            }
        }
        if (name.starts_with("cu") || crate::model::runtime::is_hip_name(name))
            && !returns_no_error(name)
            && is_returned_among(ancestors())
        {
            returned.push(ReturnedCall {
                node,
                name: name.to_string(),
            });
        }
        return true;
    }
    let check_named = is_check_name(name, model.check_macros);
    let method = is_method_call(node);
    let may_matter = names.contains(name)
        || (!method && (check_named || offered_callee(name)))
        || model
            .view
            .last_error_macros
            .binary_search_by(|m| m.as_str().cmp(name))
            .is_ok();
    if !may_matter {
        return true;
    }
    let arguments = call_arguments(node);
    // a check around a call checks that call's result
    let wraps_call = check_named
        && arguments.iter().any(|a| {
            let mut found = false;
            walk_iterative(*a, |n| {
                if n.node_kind() == "call_expression" {
                    found = true;
                }
                !found
            });
            found
        });
    if wraps_call {
        return true;
    }
    note_store.set(None);
    let result = result_use_among(ancestors(), source, read_later);
    if let (ResultUse::StoredUnread, Some((name, after))) = (result, note_store.take()) {
        stored.borrow_mut().push(Stored {
            name,
            after,
            waiting: Waiting::Event(events.len()),
        });
    }
    events.push(ErrorEvent {
        node,
        kind: EventKind::Call,
        name: name.to_string(),
        arity: arguments.len(),
        wrapped: inside_check(stack, source, model),
        result,
        returned: is_returned_among(ancestors()),
        check_named,
        literal_arguments: arguments
            .iter()
            .all(|a| is_literal(strip(*a, source), source)),
        arms: arms_of(stack, node),
        exits_within: exits_within(stack, node, exits),
    });
    true
}

/// The kind of what holds a call, past parentheses: `expression_statement` for a call of its
/// own.
fn outer_kind(stack: &[Frame]) -> Option<&'static str> {
    stack
        .iter()
        .rev()
        .map(|f| f.node.node_kind())
        .find(|k| *k != "parenthesized_expression")
}

/// Whether a call is an argument of a call named like a check (`CHECK_CUDA(render(...), debug)`).
fn inside_check(stack: &[Frame], source: &str, model: &Model) -> bool {
    let mut frames = stack.iter().rev();
    let mut holder = frames.next();
    while holder.is_some_and(|f| f.node.node_kind() == "parenthesized_expression") {
        holder = frames.next();
    }
    if holder.is_none_or(|f| f.node.node_kind() != "argument_list") {
        return false;
    }
    frames
        .next()
        .filter(|f| f.node.node_kind() == "call_expression")
        .and_then(|f| call_name(f.node, source))
        .is_some_and(|name| is_check_name(name, model.check_macros))
}

/// Whether a function's declared result is `void`.
fn returns_void(model: &Model, function: &crate::model::Function) -> bool {
    let head = model
        .source
        .get(function.definition.start_byte()..function.name_node.start_byte())
        .unwrap_or("");
    !head.contains('*')
        && head
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "void")
}
