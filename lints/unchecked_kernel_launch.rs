use super::support::{callers_named, list, shown};
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::lint::LintContext;
use crate::model::errors::{EventKind, FunctionErrors, Origin, Site, Verdict};
use crate::model::host::{is_check_name, HostFunction, ResultUse};
use crate::model::Model;
use crate::syntax::NodeExt;
use std::collections::BTreeMap;
use tree_sitter::Node;

crate::declare_lint!(
    UNCHECKED_KERNEL_LAUNCH,
    "unchecked-kernel-launch",
    ErrorHandling,
    Warning,
    "kernel launch not followed by a cudaGetLastError/cudaPeekAtLastError check, in its function or by its callers",
    check
);

const SILENT: &str = "so a bad configuration or missing kernel image fails silently";

fn check(model: &Model, cx: &mut LintContext) {
    // only the functions analysed by this lint: the language server keeps the others' findings
    for &index in &model.host.analysed {
        let Some(errors) = model.errors.of(index) else {
            continue;
        };
        let host = model
            .host
            .functions
            .iter()
            .find(|h| h.function_index == index);
        let check_macro = host.and_then(|h| check_macro_in_use(model, h));
        for (event, verdict) in errors.events.iter().zip(&errors.verdicts) {
            let diagnostic = match (event.kind, verdict) {
                (EventKind::Launch, Verdict::NoCallerChecks { callers }) if callers.is_empty() => {
                    unchecked_here(model, cx, errors, event.node, &event.name)
                }
                (EventKind::Launch, Verdict::NoCallerChecks { callers }) => {
                    no_caller_checks(model, cx, errors, event.node, &event.name, callers)
                }
                (EventKind::Call, Verdict::CallMisses { origins }) => {
                    let launches: Vec<&Origin> =
                        origins.iter().filter(|o| !o.is_returned()).collect();
                    if launches.is_empty() {
                        continue;
                    }
                    call_misses(model, cx, event.node, &event.name, &launches)
                }
                _ => continue,
            };
            let fix = check_macro
                .as_deref()
                .and_then(|name| insert_check(model, event.node, name));
            cx.report(match fix {
                Some(fix) => diagnostic.with_fix(fix),
                None => diagnostic,
            });
        }
    }
}

fn unchecked_here(
    model: &Model,
    cx: &LintContext,
    errors: &FunctionErrors,
    launch: Node,
    kernel: &str,
) -> Diagnostic {
    let diagnostic = cx
        .diagnostic(launch.byte_range(), format!("the launch of `{kernel}` is not followed by a cudaGetLastError() check{}, {SILENT}", synchronization_note(model.source, errors, launch)))
        .with_help("check cudaGetLastError() (or cudaPeekAtLastError()) right after the launch, e.g. CUDA_CHECK(cudaGetLastError())");
    with_synchronization_label(model.source, diagnostic, errors, launch)
}

/// A tested synchronization after the launch in its function: it reads like a check, but a
/// launch that never started (a bad configuration, no kernel image) leaves it returning success.
/// Only the first one, and only when no other launch comes between (it would be about that one).
fn synchronization_after<'t>(errors: &FunctionErrors<'t>, launch: Node) -> Option<Node<'t>> {
    let sync = errors
        .tested_synchronizations
        .iter()
        .copied()
        .find(|s| s.start_byte() >= launch.end_byte())?;
    let launch_between = errors.events.iter().any(|e| {
        e.kind == EventKind::Launch
            && e.node.start_byte() >= launch.end_byte()
            && e.node.end_byte() <= sync.start_byte()
    });
    (!launch_between).then_some(sync)
}

fn synchronization_note(source: &str, errors: &FunctionErrors, launch: Node) -> String {
    match synchronization_after(errors, launch) {
        Some(sync) => format!(
            " (the tested `{}` after it reports errors of the kernel's execution, and returns success for a launch that never started)",
            crate::model::host::called_name(sync, source)
        ),
        None => String::new(),
    }
}

fn with_synchronization_label(
    source: &str,
    diagnostic: Diagnostic,
    errors: &FunctionErrors,
    launch: Node,
) -> Diagnostic {
    match synchronization_after(errors, launch) {
        Some(sync) => diagnostic.with_label(
            sync.byte_range(),
            format!(
                "`{}` does not report a launch that did not start",
                crate::model::host::called_name(sync, source)
            ),
        ),
        None => diagnostic,
    }
}

/// The launch is unchecked to the end of its function, and no caller checks after calling it.
fn no_caller_checks(
    model: &Model,
    cx: &LintContext,
    errors: &FunctionErrors,
    launch: Node,
    kernel: &str,
    callers: &[Site],
) -> Diagnostic {
    let function = &errors.name;
    let (named, labels) = callers_named(model, callers, |caller| {
        format!("`{caller}` calls `{function}` here with no check after it")
    });
    let mut diagnostic = cx
        .diagnostic(
            launch.byte_range(),
            format!("the launch of `{kernel}` is not followed by a cudaGetLastError() check{}, and no caller of `{function}` checks after calling it ({}), {SILENT}", synchronization_note(model.source, errors, launch), list(&named)),
        )
        .with_help(format!("check cudaGetLastError() right after the launch, or in every caller right after it calls `{function}`"));
    diagnostic = with_synchronization_label(model.source, diagnostic, errors, launch);
    for (span, message) in labels {
        diagnostic = diagnostic.with_label(span, message);
    }
    diagnostic
}

/// A call that leaves launches unchecked while the callee's other callers check them.
fn call_misses(
    model: &Model,
    cx: &LintContext,
    call: Node,
    callee: &str,
    origins: &[&Origin],
) -> Diagnostic {
    let mut kernels = Vec::new();
    let mut labels = Vec::new();
    for origin in origins {
        match origin {
            Origin::Local { function, item, .. } => {
                let Some(launcher) = model.errors.functions.get(*function) else {
                    continue;
                };
                let Some(launch) = launcher.events.get(*item) else {
                    continue;
                };
                kernels.push(format!("`{}`", launch.name));
                labels.push((
                    launch.node.byte_range(),
                    format!(
                        "`{}` is launched here and left for the callers of `{}` to check",
                        launch.name, launcher.name
                    ),
                ));
            }
            Origin::Foreign {
                path,
                function,
                name,
                line,
                ..
            } => kernels.push(format!(
                "`{name}` (launched in `{function}` at {}:{line})",
                shown(model.path, path)
            )),
        }
    }
    kernels.dedup();
    let what = if kernels.len() == 1 {
        "launch"
    } else {
        "launches"
    };
    let mut diagnostic = cx
        .diagnostic(
            call.byte_range(),
            format!("the call of `{callee}` leaves the {what} of {} unchecked: no cudaGetLastError() check follows it here, while the other callers check after calling `{callee}`", list(&kernels)),
        )
        .with_help(format!("check cudaGetLastError() right after calling `{callee}`, as the other callers do"));
    for (span, message) in labels {
        diagnostic = diagnostic.with_label(span, message);
    }
    diagnostic
}

/// The macro the function already wraps runtime calls in (`CUDA_CHECK(cudaMalloc(...))`), the
/// most used one: a check in the project's own style, which reports the way the project wants.
fn check_macro_in_use(model: &Model, host: &HostFunction) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for call in &host.calls {
        // runtime calls only: they return cudaError_t, which the macro is known to take
        if call.result != ResultUse::Checked || !call.name.starts_with("cuda") {
            continue;
        }
        let Some(list) = call
            .call
            .parent()
            .filter(|p| p.node_kind() == "argument_list")
        else {
            continue;
        };
        let Some(outer) = list.parent().filter(|p| p.node_kind() == "call_expression") else {
            continue;
        };
        let Some(function) = outer
            .field("function")
            .filter(|f| f.node_kind() == "identifier")
        else {
            continue;
        };
        let name = model.text(function);
        if list.named_child_count() == 1 && is_check_name(name, model.check_macros) {
            *counts.entry(name).or_default() += 1;
        }
    }
    let most = counts.values().copied().max()?;
    counts
        .into_iter()
        .find(|(_, count)| *count == most)
        .map(|(name, _)| name.to_string())
}

/// `NAME(cudaGetLastError());` on the line after the launch's (or call's) statement, at its
/// indentation; only for a statement of its own in a block, so the check runs exactly when the
/// launch does.
fn insert_check(model: &Model, launch: Node, name: &str) -> Option<Fix> {
    let statement = launch
        .parent()
        .filter(|p| p.node_kind() == "expression_statement")?;
    statement
        .parent()
        .filter(|p| p.node_kind() == "compound_statement")?;
    let start = statement.start_byte();
    let line_start = model.source[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = model.source[line_start..start]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    if indent.len() != start - line_start {
        return None; // another statement shares the line
    }
    let end = statement.end_byte();
    Some(Fix {
        title: format!("check the launch with `{name}(cudaGetLastError())`"),
        edits: vec![Edit {
            span: end..end,
            replacement: format!("\n{indent}{name}(cudaGetLastError());"),
        }],
        safe: true,
    })
}

#[cfg(test)]
mod tests {
    use super::UNCHECKED_KERNEL_LAUNCH;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out) { out[threadIdx.x] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(float* d) { k<<<1, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
            "void f(float* d) { k<<<1, 32>>>(d); getLastCudaError(\"k failed\"); }",
            "void f(float* d) { k<<<1, 32>>>(d); cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) abort(); }",
            "void f(float* d) { k<<<1, 32>>>(d); if (cudaPeekAtLastError() != cudaSuccess) abort(); }",
            "void g(float* d) { k<<<1, 32>>>(d); } void f(float* d) { g(d); CUDA_CHECK(cudaGetLastError()); }",
            "void f(float* d, bool a) { if (a) k<<<1, 32>>>(d); else k<<<2, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
            // the error of the first launch is still the last error at the check
            "void f(float* d) { k<<<1, 32>>>(d); k<<<1, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
            // an object-like macro that tests the last error, used as a statement
            "#define CHECK_KERNEL { cudaError_t e = cudaGetLastError(); if (e) abort(); }\nvoid f(float* d) { k<<<1, 32>>>(d); CHECK_KERNEL; }",
        ];
        let fail = [
            "void f(float* d) { k<<<1, 32>>>(d); }",
            "void f(float* d) { k<<<1, 32>>>(d); cudaGetLastError(); }",
            "void f(float* d, int n) { k<<<1, 32>>>(d); assert(n > 0); }",
            "#define DONE { puts(\"done\"); }\nvoid f(float* d) { k<<<1, 32>>>(d); DONE; }",
            "void g(float* d) { k<<<1, 32>>>(d); } void f(float* d) { g(d); CUDA_CHECK(cudaGetLastError()); } void h(float* d) { g(d); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &UNCHECKED_KERNEL_LAUNCH,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }

    /// A tested synchronization is no check, and the finding names it, unless another launch
    /// comes between (the synchronization is then about that one).
    #[test]
    fn a_tested_synchronization_is_named_only_next_to_its_launch() {
        let run = |body: &str| {
            let code = format!("{KERNEL}void f(float* d) {{ {body} }}\n");
            crate::testing::run_with_settings(
                &UNCHECKED_KERNEL_LAUNCH,
                &code,
                &crate::config::Settings::every_rule(),
            )
        };
        let next = run("k<<<1, 32>>>(d); CHECK(cudaDeviceSynchronize());");
        assert_eq!(next.len(), 1, "{next:?}");
        assert!(
            next[0].message.contains("`cudaDeviceSynchronize`"),
            "{}",
            next[0].message
        );
        assert_eq!(next[0].labels.len(), 1);
        let apart = run("k<<<1, 32>>>(d); k<<<2, 32>>>(d); CHECK(cudaDeviceSynchronize());");
        assert_eq!(apart.len(), 2, "{apart:?}");
        assert!(
            !apart[0].message.contains("Synchronize"),
            "{}",
            apart[0].message
        );
        assert!(apart[0].labels.is_empty());
        assert!(apart[1].message.contains("`cudaDeviceSynchronize`"));
    }

    /// A configured check macro counts as a check whatever it is given.
    #[test]
    fn configured_check_macros_still_count() {
        let code = format!("{KERNEL}void f(float* d) {{ k<<<1, 32>>>(d); LAUNCHED(d); }}\n");
        let plain = crate::testing::run_with_settings(
            &UNCHECKED_KERNEL_LAUNCH,
            &code,
            &crate::config::Settings::every_rule(),
        );
        assert_eq!(
            plain.len(),
            1,
            "an unknown macro given a pointer is no check"
        );
        let configured = crate::config::Settings {
            check_macros: vec!["LAUNCHED".to_string()],
            ..crate::config::Settings::every_rule()
        };
        let found = crate::testing::run_with_settings(&UNCHECKED_KERNEL_LAUNCH, &code, &configured);
        assert!(found.is_empty(), "{found:?}");
    }

    /// The finding for a caller that does not check sits on its call, with the launch as label,
    /// and its fix checks right after the call.
    #[test]
    fn a_caller_that_does_not_check_carries_the_finding() {
        let code = format!("{KERNEL}void g(float* d) {{\n    k<<<1, 32>>>(d);\n}}\nvoid a(float* d) {{\n    g(d);\n    MY_CHECK(cudaGetLastError());\n}}\nvoid b(float* d) {{\n    MY_CHECK(cudaMalloc(&d, 4));\n    g(d);\n}}\n");
        let found = crate::testing::run_on_snippet(&UNCHECKED_KERNEL_LAUNCH, &code);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(&code[found[0].span.clone()], "g(d)");
        assert!(found[0]
            .message
            .starts_with("the call of `g` leaves the launch of `k` unchecked"));
        assert_eq!(found[0].labels.len(), 1);
        assert_eq!(&code[found[0].labels[0].span.clone()], "k<<<1, 32>>>(d)");
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(
            fix.edits[0].replacement,
            "\n    MY_CHECK(cudaGetLastError());"
        );
    }

    /// The fix uses the check macro the file already uses, and only when there is one.
    #[test]
    fn the_fix_checks_with_the_projects_own_macro() {
        let code = format!("{KERNEL}void f(float* d) {{\n    MY_CHECK(cudaMalloc(&d, 4));\n    k<<<1, 32>>>(d);\n}}\n");
        let found = crate::testing::run_on_snippet(&UNCHECKED_KERNEL_LAUNCH, &code);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert!(fix.safe);
        assert_eq!(
            fix.edits[0].replacement,
            "\n    MY_CHECK(cudaGetLastError());"
        );
        assert_eq!(
            &code[..fix.edits[0].span.start],
            &code[..code.find("(d);\n}").unwrap() + 4]
        );
        let plain = format!(
            "{KERNEL}void f(float* d) {{\n    cudaMalloc(&d, 4);\n    k<<<1, 32>>>(d);\n}}\n"
        );
        let found = crate::testing::run_on_snippet(&UNCHECKED_KERNEL_LAUNCH, &plain);
        assert!(found[0].fix.is_none(), "no macro in use, no fix");
    }
}
