//! What the host knows of a loop without running it: for a counted `for` loop, the value its
//! counter holds on the first trip, so a branch of the body that tests for that value
//! (`if (run == 0)`, `!run`, `run < 1`) is taken then, and whether the loop runs at least once (a
//! constant start that passes a constant bound); for any loop, whether it runs again only after a
//! CUDA call of the trip failed.
//!
//! Code that allocates its buffers "on the first run only" inside a timing loop relies on the
//! first two: every later trip, and the code after a loop that runs, sees what the first trip
//! allocated. Code that shrinks a request until an allocation succeeds relies on the third: only
//! the last trip's allocation holds memory.

use super::*;

/// Whether the `if` statement `branch` takes its consequence on the first trip of the `for`
/// loop whose body it is a statement of: its test holds for the values the loop's initializer
/// gives its counters, nothing in the loop's condition or body changes those counters (the step
/// runs after the first trip), and no `break` or `continue` of that loop comes before the
/// branch's allocations, so the first trip reaches them.
pub(super) fn taken_on_first_trip(branch: Node, source: &str) -> bool {
    if branch.node_kind() != "if_statement" {
        return false;
    }
    let Some(looped) = loop_of_body_statement(branch) else {
        return false;
    };
    let Some(condition) = branch.field("condition") else {
        return false;
    };
    // the test first, on the initializer alone: most branches of a loop's body do not test its
    // counter, and telling whether nothing changes one reads the whole function
    let test = syntax::condition_value(condition);
    if value_at_start(test, &initial_values(looped, source), source) != Some(true) {
        return false;
    }
    let Some(body) = looped.field("body") else {
        return false;
    };
    let statements: Vec<Node> = if body.node_kind() == "compound_statement" {
        named_children(body)
            .take_while(|s| s.start_byte() <= branch.start_byte())
            .collect()
    } else {
        vec![body]
    };
    if statements.iter().any(|s| leaves_loop_trip(*s)) {
        return false;
    }
    value_at_start(test, &unchanged_counters(looped, source), source) == Some(true)
}

/// Whether a `for` loop's condition holds before its first trip: `for (run = 0; run < 1; run++)`
/// runs its body at least once; `for (i = 0; i < n; i++)` may not.
pub(super) fn runs_at_least_once(looped: Node, source: &str) -> bool {
    if looped.node_kind() != "for_statement" {
        return false;
    }
    let Some(condition) = looped.field("condition") else {
        // `for (;;)`
        return true;
    };
    // the condition is read before anything else can change the counters
    let counters = initial_values(looped, source);
    value_at_start(syntax::condition_value(condition), &counters, source) == Some(true)
}

/// Whether `looped` starts another trip only after `call`, made in it, failed: the loop's test
/// holds only on a failure of the CUDA status it reads (`cudaGetLastError() != cudaSuccess`,
/// `err != cudaSuccess`, `cudaMalloc(&d, n) != cudaSuccess`, `while (err)`, alone or beside other
/// conditions joined by `&&`), and that status is `call`'s: `call` is the test's own call (or the
/// value it assigns), the value the trip last gives the status variable (`err = cudaMalloc(..)`),
/// or, for a last-error query, the only CUDA call of the trip.
///
/// A retry loop (`while (cudaGetLastError() != cudaSuccess) { shrink; cudaMalloc(&d, n); }`):
/// every trip that is followed by another made a call that failed, and so allocated nothing.
pub(super) fn retries_after_failure(looped: Node, call: Node, source: &str) -> bool {
    if !matches!(
        looped.node_kind(),
        "while_statement" | "do_statement" | "for_statement"
    ) {
        return false;
    }
    let Some(condition) = looped.field("condition") else {
        return false;
    };
    let mut statuses = Vec::new();
    failure_statuses(syntax::condition_value(condition), source, &mut statuses);
    statuses
        .into_iter()
        .any(|status| status_of_call(looped, status, call, source))
}

/// The CUDA statuses whose failure `test` requires: `S != cudaSuccess` (or `hipSuccess`,
/// `CUDA_SUCCESS`, `0`, either side), a status alone (`while (err)`), and those of each side of
/// `&&`.
fn failure_statuses<'t>(test: Node<'t>, source: &str, statuses: &mut Vec<Node<'t>>) {
    let test = strip(test, source);
    match test.node_kind() {
        "binary_expression" => {
            let (Some(left), Some(right)) = (test.field("left"), test.field("right")) else {
                return;
            };
            match operator(test, source) {
                "&&" => {
                    failure_statuses(left, source, statuses);
                    failure_statuses(right, source, statuses);
                }
                "!=" => {
                    let is_success = |node: Node| {
                        matches!(
                            text(strip(node, source), source),
                            "cudaSuccess" | "hipSuccess" | "CUDA_SUCCESS" | "0"
                        )
                    };
                    if is_success(right) {
                        statuses.push(strip(left, source));
                    } else if is_success(left) {
                        statuses.push(strip(right, source));
                    }
                }
                _ => {}
            }
        }
        "identifier" | "call_expression" | "assignment_expression" => statuses.push(test),
        _ => {}
    }
}

/// Whether the status the loop's test reads (`status`) is the result of `call` on the trip just
/// made.
fn status_of_call(looped: Node, status: Node, call: Node, source: &str) -> bool {
    let is_call = |node: Node| strip(node, source) == call;
    match status.node_kind() {
        "call_expression" if status == call => true,
        "assignment_expression" => {
            operator(status, source) == "=" && status.field("right").is_some_and(is_call)
        }
        "call_expression" if is_last_error_query(call_name(status, source)) => {
            // the query reports any call's failure, so the trip makes no other CUDA call
            let trip_calls = trip_parts(looped)
                .flat_map(|part| cuda_calls(part, source))
                .collect::<Vec<_>>();
            trip_calls == [call]
        }
        "identifier" => {
            let name = text(status, source);
            let mut last = None;
            let mut declared_again = false;
            for part in trip_parts(looped) {
                walk_iterative(part, |node| {
                    match node.node_kind() {
                        "assignment_expression"
                            if node
                                .field("left")
                                .is_some_and(|l| syntax::same_text(l, source, name)) =>
                        {
                            last = Some(node)
                        }
                        "declaration" => declared_again |= declares_value(node, name, source),
                        "lambda_expression" => return false,
                        _ => {}
                    }
                    true
                });
            }
            !declared_again
                && last.is_some_and(|assignment| {
                    operator(assignment, source) == "="
                        && assignment.field("right").is_some_and(is_call)
                })
        }
        _ => false,
    }
}

/// The parts of a loop that run between two of its tests: the body, then a `for`'s step.
fn trip_parts<'t>(looped: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    ["body", "update"]
        .into_iter()
        .filter_map(move |field| looped.field(field))
}

/// The calls under `node` that may leave a CUDA error: CUDA's API (not `cudaGetErrorString` and
/// the like; last-error queries included) and kernel launches, in source order.
fn cuda_calls<'t>(node: Node<'t>, source: &str) -> Vec<Node<'t>> {
    let mut calls = Vec::new();
    walk_iterative(node, |n| {
        if n.node_kind() == "call_expression" {
            let name = call_name(n, source);
            let may_fail =
                is_cuda_api(name) && (!returns_no_error(name) || is_last_error_query(name));
            if may_fail || crate::model::runtime::is_launch(n, source) {
                calls.push(n);
            }
        }
        n.node_kind() != "lambda_expression"
    });
    calls
}

/// Whether a statement of a loop's body may end the current trip early: a `break` or
/// `continue` of that loop (not of a loop or `switch` inside the statement).
pub(super) fn leaves_loop_trip(statement: Node) -> bool {
    let mut leaves = false;
    // the spans of the loops and `switch`es inside the statement, which their own `break`s leave
    let mut inner_loops: Vec<std::ops::Range<usize>> = Vec::new();
    let mut inner_switches: Vec<std::ops::Range<usize>> = Vec::new();
    walk_iterative(statement, |node| {
        let inside =
            |spans: &[std::ops::Range<usize>]| spans.iter().any(|s| s.contains(&node.start_byte()));
        let (in_loop, in_switch) = (inside(&inner_loops), inside(&inner_switches));
        match node.node_kind() {
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                inner_loops.push(node.byte_range())
            }
            "switch_statement" => inner_switches.push(node.byte_range()),
            "break_statement" => leaves |= !in_loop && !in_switch,
            "continue_statement" => leaves |= !in_loop,
            "lambda_expression" => return false,
            _ => {}
        }
        !leaves
    });
    leaves
}

/// The `for` loop whose body `statement` is, or is a statement of.
fn loop_of_body_statement(statement: Node) -> Option<Node> {
    let parent = statement.up()?;
    let (looped, body) = if parent.node_kind() == "compound_statement" {
        (parent.up()?, parent)
    } else {
        (parent, statement)
    };
    (looped.node_kind() == "for_statement" && looped.field("body") == Some(body)).then_some(looped)
}

/// The counters a `for` loop's initializer sets (`run = 0`, `int run = 0, j = k`) with the
/// values it gives them.
fn initial_values<'t>(looped: Node<'t>, source: &str) -> Vec<(String, Node<'t>)> {
    let Some(initializer) = looped.field("initializer") else {
        return Vec::new();
    };
    let mut counters = Vec::new();
    match initializer.node_kind() {
        "declaration" => {
            for declarator in
                named_children(initializer).filter(|d| d.node_kind() == "init_declarator")
            {
                let (Some(name), Some(value)) =
                    (declarator.field("declarator"), declarator.field("value"))
                else {
                    continue;
                };
                // `int run(0)`, `int run{0}`: initialised directly
                let value = match value.node_kind() {
                    "argument_list" | "initializer_list" if value.named_child_count() == 1 => {
                        value.named_child(0)
                    }
                    "argument_list" | "initializer_list" => None,
                    _ => Some(value),
                };
                if let (Some(value), "identifier") = (value, name.node_kind()) {
                    counters.push((text(name, source).to_string(), value));
                }
            }
        }
        "assignment_expression" if operator(initializer, source) == "=" => {
            if let (Some(left), Some(right)) =
                (initializer.field("left"), initializer.field("right"))
            {
                let left = strip(left, source);
                if left.node_kind() == "identifier" {
                    counters.push((text(left, source).to_string(), right));
                }
            }
        }
        _ => {}
    }
    counters
}

/// The counters of `initial_values` that still hold those values when the first trip reaches any
/// statement of the body: locals (declared by the initializer or in the function, not as
/// references, so no call or alias reaches them) that the condition and body do not assign, step,
/// take the address of or declare again, set from a value nothing there changes either.
fn unchanged_counters<'t>(looped: Node<'t>, source: &str) -> Vec<(String, Node<'t>)> {
    let mut counters = initial_values(looped, source);
    counters.retain(|(name, start)| {
        let start = strip(*start, source);
        let start_is_stable = match start.node_kind() {
            "number_literal" => true,
            "identifier" => {
                let start = text(start, source);
                !changed_in_loop(looped, start, source) && is_local_value(looped, start, source)
            }
            _ => false,
        };
        start_is_stable
            && !changed_in_loop(looped, name, source)
            && is_local_value(looped, name, source)
    });
    counters
}

/// Whether the loop's condition or body may change `name`: assigns or steps it, takes its
/// address, binds a reference to it, or declares another variable of that name.
fn changed_in_loop(looped: Node, name: &str, source: &str) -> bool {
    let mut changed = false;
    for part in ["condition", "body"] {
        let Some(part) = looped.field(part) else {
            continue;
        };
        walk_iterative(part, |node| {
            changed |= match node.node_kind() {
                "assignment_expression" => node
                    .field("left")
                    .is_some_and(|t| syntax::same_text(t, source, name)),
                "update_expression" => node
                    .field("argument")
                    .is_some_and(|t| syntax::same_text(t, source, name)),
                "pointer_expression" => {
                    syntax::address_operand(node, source).is_some_and(|t| text(t, source) == name)
                }
                // `int& alias = run;`
                "init_declarator" => {
                    declares_value(node, name, source)
                        || (node
                            .field("declarator")
                            .is_some_and(|d| d.node_kind() == "reference_declarator")
                            && node
                                .field("value")
                                .is_some_and(|v| syntax::same_text(v, source, name)))
                }
                "declaration" => declares_value(node, name, source),
                _ => false,
            };
            !changed
        });
    }
    changed
}

/// Whether `name` is a plain local of the function around the loop (or a parameter passed by
/// value): the loop's initializer or a declaration in the function declares it, not as a
/// reference.
fn is_local_value(looped: Node, name: &str, source: &str) -> bool {
    let mut function = looped;
    for _ in 0..MAX_DEPTH {
        match function.up() {
            Some(parent) => function = parent,
            None => return false,
        }
        if matches!(
            function.node_kind(),
            "function_definition" | "lambda_expression"
        ) {
            break;
        }
    }
    if !matches!(
        function.node_kind(),
        "function_definition" | "lambda_expression"
    ) {
        return false;
    }
    let mut declared = false;
    walk_iterative(function, |node| {
        if matches!(node.node_kind(), "declaration" | "parameter_declaration") {
            declared |= declares_value(node, name, source);
            return false;
        }
        !declared
    });
    declared
}

/// Whether a declaration (or one of its declarators) declares `name` as a plain value, with or
/// without an initializer (`int run;`, `int i, run = 0;`, `int run`): not a pointer, array or
/// reference.
fn declares_value(declaration: Node, name: &str, source: &str) -> bool {
    let declarators: Vec<Node> = match declaration.node_kind() {
        "init_declarator" => declaration.field("declarator").into_iter().collect(),
        _ => named_children(declaration)
            .map(|d| {
                if d.node_kind() == "init_declarator" {
                    d.field("declarator").unwrap_or(d)
                } else {
                    d
                }
            })
            .collect(),
    };
    declarators
        .into_iter()
        .any(|d| d.node_kind() == "identifier" && text(d, source) == name)
}

/// The number a name stands for where it is read: a `const`/`constexpr` declared with a literal
/// before it in a block around it or at file scope (`const int REPEAT = 1;`), or an object-like
/// macro defined as one (`#define REPEAT 1`). A plain variable may change: None.
fn named_constant(name: Node, source: &str) -> Option<i128> {
    let wanted = text(name, source);
    let mut scope = name.up();
    while let Some(block) = scope {
        if matches!(
            block.node_kind(),
            "compound_statement" | "translation_unit" | "namespace_definition" | "declaration_list"
        ) {
            for statement in
                named_children(block).take_while(|s| s.start_byte() < name.start_byte())
            {
                if let Some(value) = constant_declared(statement, wanted, source) {
                    return Some(value);
                }
            }
        }
        scope = block.up();
    }
    None
}

/// The literal `statement` gives `name`, when it declares it constant or defines it as a macro.
fn constant_declared(statement: Node, name: &str, source: &str) -> Option<i128> {
    match statement.node_kind() {
        "preproc_def" => {
            (text(statement.field("name")?, source) == name).then_some(())?;
            size::parse_number(text(statement.field("value")?, source).trim())
        }
        "declaration" => {
            let constant = named_children(statement).any(|c| {
                matches!(c.node_kind(), "type_qualifier" | "storage_class_specifier")
                    && matches!(text(c, source), "const" | "constexpr")
            });
            if !constant {
                return None;
            }
            named_children(statement)
                .filter(|d| d.node_kind() == "init_declarator")
                .find(|d| {
                    d.field("declarator")
                        .is_some_and(|n| text(n, source) == name)
                })
                .and_then(|d| d.field("value"))
                .map(|v| strip(v, source))
                .filter(|v| v.node_kind() == "number_literal")
                .and_then(|v| size::parse_number(text(v, source)))
        }
        _ => None,
    }
}

/// The truth of `test` when each counter holds its start value, when the model can tell: a
/// counter compared with its own start (`run == start`) or, both constant, with a constant
/// (`run < 1`, `0 == run`); a counter alone (`!run`); `&&`, `||` and `!` of those.
fn value_at_start(test: Node, counters: &[(String, Node)], source: &str) -> Option<bool> {
    let test = strip(test, source);
    let start_of = |node: Node| {
        counters
            .iter()
            .find(|(name, _)| syntax::same_text(node, source, name))
            .map(|(_, start)| strip(*start, source))
    };
    let constant = |node: Node| {
        let node = strip(node, source);
        match node.node_kind() {
            "number_literal" => size::parse_number(text(node, source)),
            "identifier" => named_constant(node, source),
            _ => None,
        }
    };
    match test.node_kind() {
        "identifier" => constant(start_of(test)?).map(|start| start != 0),
        "unary_expression" if operator(test, source) == "!" => {
            value_at_start(test.field("argument")?, counters, source).map(|v| !v)
        }
        "binary_expression" => {
            let (left, right) = (test.field("left")?, test.field("right")?);
            let operator = operator(test, source);
            match operator {
                "&&" | "||" => {
                    let left = value_at_start(left, counters, source);
                    let right = value_at_start(right, counters, source);
                    let decisive = operator == "||";
                    if left == Some(decisive) || right == Some(decisive) {
                        Some(decisive)
                    } else if left.is_some() && right.is_some() {
                        Some(!decisive)
                    } else {
                        None
                    }
                }
                "==" | "!=" | "<" | "<=" | ">" | ">=" => {
                    // read as `counter OP other`
                    let (start, other, operator) = match (start_of(left), start_of(right)) {
                        (Some(start), _) => (start, right, operator),
                        (None, Some(start)) => (start, left, mirrored(operator)),
                        (None, None) => return None,
                    };
                    if syntax::normalized(other, source) == syntax::normalized(start, source) {
                        return Some(matches!(operator, "==" | "<=" | ">="));
                    }
                    let (start, other) = (constant(start)?, constant(other)?);
                    Some(match operator {
                        "==" => start == other,
                        "!=" => start != other,
                        "<" => start < other,
                        "<=" => start <= other,
                        ">" => start > other,
                        _ => start >= other,
                    })
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The comparison with its sides swapped: `0 < run` is `run > 0`.
fn mirrored(operator: &str) -> &str {
    match operator {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        ">=" => "<=",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::{retries_after_failure, runs_at_least_once, taken_on_first_trip};
    use crate::syntax::{walk_iterative, NodeExt};

    /// For each `if` statement of `source`, in order, whether it is taken on its loop's first trip.
    fn first_trip_branches(source: &str) -> Vec<bool> {
        let tree = crate::syntax::parse(source).expect("parses");
        let mut found = Vec::new();
        walk_iterative(tree.root_node(), |node| {
            if node.node_kind() == "if_statement" {
                found.push(taken_on_first_trip(node, source));
            }
            true
        });
        found
    }

    fn loops_run_at_least_once(source: &str) -> Vec<bool> {
        let tree = crate::syntax::parse(source).expect("parses");
        let mut found = Vec::new();
        walk_iterative(tree.root_node(), |node| {
            if node.node_kind() == "for_statement" {
                found.push(runs_at_least_once(node, source));
            }
            true
        });
        found
    }

    #[test]
    fn a_test_for_the_counters_start_is_taken_on_the_first_trip() {
        let taken = [
            "void f(int n) { int run; for (run = 0; run < n; run++) { if (run == 0) g(); } }",
            "void f(int n) { for (int run = 0; run < n; ++run) { h(); if (!run) g(); } }",
            "void f(int n) { for (int run = 0; run < n; run++) if (0 == run) g(); }",
            "void f() { int run; for (run = 0; run < 3; run++) { if (run < 1) g(); } }",
            "void f(int lo, int hi) { for (int run = lo; run < hi; run++) { if (run == lo) g(); } }",
            "void f(int n, bool v) { for (int run = 1; run <= n; run++) { if (run == 1 || v) g(); } }",
            // a loop of its own inside the body may break out of itself
            "void f(int n) { for (int run = 0; run < n; run++) { for (int i = 0; i < 4; i++) { if (i == n) break; } if (run == 0) g(); } }",
        ];
        for case in taken {
            assert_eq!(first_trip_branches(case).last(), Some(&true), "{case}");
        }
        let not_taken = [
            // another value, or another variable
            "void f(int n) { int run; for (run = 0; run < n; run++) { if (run == 1) g(); } }",
            "void f(int n, int m) { for (int run = 0; run < n; run++) { if (m == 0) g(); } }",
            "void f(int n, bool v) { for (int run = 0; run < n; run++) { if (run == 0 && v) g(); } }",
            // the body changes the counter, or may skip the branch on the first trip
            "void f(int n) { int run; for (run = 0; run < n; run++) { if (run == 0) g(); run += 2; } }",
            "void f(int n) { for (int run = 0; run < n; run++) { bump(&run); if (run == 0) g(); } }",
            "void f(int n, bool s) { for (int run = 0; run < n; run++) { if (s) continue; if (run == 0) g(); } }",
            "void f(int n, bool s) { for (int run = 0; run < n; run++) { if (run == 0) { if (s) continue; g(); } } }",
            // not a plain local: a call may change it
            "int run; void f(int n) { for (run = 0; run < n; run++) { h(); if (run == 0) g(); } }",
            "void f(int& run, int n) { for (run = 0; run < n; run++) { h(); if (run == 0) g(); } }",
            // the counter's start changes in the body
            "void f(int lo, int n) { for (int run = lo; run < n; run++) { lo = 3; if (run == lo) g(); } }",
            // nested under another statement of the body, or in an inner loop
            "void f(int n, bool v) { for (int run = 0; run < n; run++) { if (v) { if (run == 0) g(); } } }",
            "void f(int n) { for (int run = 0; run < n; run++) { for (int j = run; j < n; j++) { if (run == 0) g(); } } }",
            "void f(int n) { int run = 0; while (run < n) { if (run == 0) g(); run++; } }",
        ];
        for case in not_taken {
            assert_eq!(first_trip_branches(case).last(), Some(&false), "{case}");
        }
    }

    #[test]
    fn a_loop_from_a_constant_that_passes_a_constant_bound_runs_at_least_once() {
        let source = "void f(int n) {\n\
            for (int run = 0; run < 1; run++) {}\n\
            for (int run = 2; 5 >= run; run++) {}\n\
            for (;;) { break; }\n\
            for (int run = 0; run < n; run++) {}\n\
            for (int run = 1; run < 1; run++) {}\n\
            int i; for (i = n; i < 4; i++) {}\n\
            }";
        assert_eq!(
            loops_run_at_least_once(source),
            [true, true, true, false, false, false]
        );
    }

    #[test]
    fn a_bound_named_by_a_constant_is_read_as_its_value() {
        let source = "#define TRIALS 3\n\
            static const int WARMUP = 0;\n\
            void f(int n) {\n\
            const int REPEAT = 1;\n\
            int runs = 1;\n\
            for (int i = 0; i < REPEAT; i++) {}\n\
            for (int i = 0; i < TRIALS; i++) {}\n\
            for (int i = 0; i < WARMUP; i++) {}\n\
            for (int i = 0; i < runs; i++) {}\n\
            for (int i = 0; i < LATER; i++) {}\n\
            const int LATER = 2;\n\
            }";
        assert_eq!(
            loops_run_at_least_once(source),
            [true, true, false, false, false]
        );
    }

    /// Whether the loop around the last `cudaMalloc` of `source` runs again only after it failed.
    fn retried(source: &str) -> bool {
        let tree = crate::syntax::parse(source).expect("parses");
        let mut allocation = None;
        walk_iterative(tree.root_node(), |node| {
            if node.node_kind() == "call_expression"
                && node
                    .field("function")
                    .is_some_and(|f| f.utf8_text(source.as_bytes()) == Ok("cudaMalloc"))
            {
                allocation = Some(node);
            }
            true
        });
        let allocation = allocation.expect("an allocation");
        let mut looped = allocation;
        while !matches!(
            looped.node_kind(),
            "while_statement" | "do_statement" | "for_statement"
        ) {
            looped = looped.up().expect("a loop around the allocation");
        }
        retries_after_failure(looped, allocation, source)
    }

    #[test]
    fn a_loop_that_runs_again_only_when_its_allocation_failed_retries_it() {
        let retries = [
            // shoc's BusSpeedDownload: shrink and try again while the last call failed
            "void f(int n) { float* d; cudaMalloc(&d, n); while (cudaGetLastError() != cudaSuccess) { n /= 2; cudaMalloc(&d, n); } }",
            "void f(int n) { float* d; cudaError_t err = cudaMalloc(&d, n); while (err != cudaSuccess && n > 1) { n /= 2; err = cudaMalloc(&d, n); } }",
            "void f(int n) { float* d; do { n /= 2; } while (cudaMalloc(&d, n) != cudaSuccess); }",
            "void f(int n) { float* d; cudaError_t e; while ((e = cudaMalloc(&d, n)) != cudaSuccess) n /= 2; }",
            "void f(int n) { float* d; cudaError_t e; do { e = cudaMalloc(&d, n); n /= 2; } while (e); }",
            "void f(int n) { float* d; do { cudaMalloc(&d, n); n /= 2; } while (cudaSuccess != cudaPeekAtLastError()); }",
            "void f(int n) { float* d; hipError_t e = hipErrorOutOfMemory; while (e != hipSuccess) { n /= 2; e = cudaMalloc(&d, n); } }",
        ];
        for case in retries {
            assert!(retried(case), "{case}");
        }
        let does_not = [
            // the test does not ask whether the allocation failed
            "void f(int n) { float* d; while (n > 1) { n /= 2; cudaMalloc(&d, n); } }",
            "void f(int n) { float* d; while (cudaGetLastError() == cudaSuccess) { n /= 2; cudaMalloc(&d, n); } }",
            "void f(int n, bool more) { float* d; while (cudaGetLastError() != cudaSuccess || more) { n /= 2; cudaMalloc(&d, n); } }",
            // the status tested is another call's
            "void f(int n, float* s) { float* d; cudaError_t err = cudaSuccess; while (err != cudaSuccess) { cudaMalloc(&d, n); err = cudaMemcpy(d, s, n, cudaMemcpyHostToDevice); } }",
            "void f(int n) { float* d; float* e; while (cudaGetLastError() != cudaSuccess) { cudaMalloc(&d, n); cudaMalloc(&e, n); } }",
            "__global__ void k(float*); void f(int n) { float* d; while (cudaGetLastError() != cudaSuccess) { cudaMalloc(&d, n); k<<<1, 1>>>(d); } }",
            "void f(int n) { float* d; cudaError_t err = cudaErrorMemoryAllocation; while (err != cudaSuccess) { cudaError_t err = cudaMalloc(&d, n); n /= 2; } }",
        ];
        for case in does_not {
            assert!(!retried(case), "{case}");
        }
    }
}
