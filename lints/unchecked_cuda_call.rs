use super::support::{callers_named, list, shown};
use crate::diagnostic::Diagnostic;
use crate::lint::LintContext;
use crate::model::errors::{EventKind, FunctionErrors, Origin, Site, Verdict};
use crate::model::host::{HostFunction, ResultUse};
use crate::model::runtime::cuda_name;
use crate::model::Model;

crate::declare_lint!(
    UNCHECKED_CUDA_CALL,
    "unchecked-cuda-call",
    ErrorHandling,
    Warning,
    "runtime or driver API call whose error code is discarded",
    check,
    merge = merge_per_function
);

/// Calls that release what the program no longer needs: by the end of `main` or in a destructor
/// nothing can act on their failure, so a discarded result there is the norm, not a bug.
const TEARDOWN: &[&str] = &[
    "cudaFree",
    "cudaFreeHost",
    "cudaFreeArray",
    "cudaFreeMipmappedArray",
    "cudaFreeAsync",
    "cudaHostUnregister",
    "cudaStreamDestroy",
    "cudaEventDestroy",
    "cudaGraphDestroy",
    "cudaGraphExecDestroy",
    "cudaDestroyTextureObject",
    "cudaDestroySurfaceObject",
    "cudaDeviceReset",
    "cuMemFree",
    "cuMemFree_v2",
    "cuMemFreeHost",
    "cuStreamDestroy",
    "cuStreamDestroy_v2",
    "cuEventDestroy",
    "cuEventDestroy_v2",
    "cuModuleUnload",
    "cuCtxDestroy",
    "cuCtxDestroy_v2",
];

const STORED: &str = "is stored but never tested";
const RETURNED: &str = "is returned, but no caller";

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        let name = model
            .functions
            .get(host.function_index)
            .map(|f| f.name.as_str())
            .unwrap_or("");
        let destructor = name.starts_with('~') || name.contains("::~");
        let end_of_main = if name == "main" {
            end_of_work(host)
        } else {
            usize::MAX
        };
        for call in &host.calls {
            let teardown = TEARDOWN.contains(&cuda_name(&call.name).as_ref());
            // a destructor's calls count as an error path in the model; only teardown calls
            // come back under strict checks, a real error branch stays exempt
            if call.on_error_path && !(destructor && teardown && cx.options.strict_error_checks) {
                continue;
            }
            if teardown && !cx.options.strict_error_checks && call.call.start_byte() > end_of_main {
                continue;
            }
            let message = match call.result {
                ResultUse::Discarded => format!("the error code of `{}` is discarded, so a failure here goes unnoticed and surfaces later, far from its cause", call.name),
                ResultUse::StoredUnread => format!("the error code of `{}` {STORED}, so a failure here goes unnoticed and surfaces later", call.name),
                _ => continue,
            };
            cx.report(
                cx.diagnostic(call.call.byte_range(), message)
                    .with_help("wrap the call in an error-checking macro (e.g. CUDA_CHECK), or cast it to (void) if ignoring the error is intended"),
            );
        }
    }
    // error codes handed to the callers: a returned code is handled when every visible caller
    // tests it (only the functions analysed by this lint: the language server keeps the others')
    for &index in &model.host.analysed {
        let Some(errors) = model.errors.of(index) else {
            continue;
        };
        for (returned, verdict) in errors.returned.iter().zip(&errors.returned_verdicts) {
            if let Verdict::NoCallerChecks { callers } = verdict {
                if !callers.is_empty() {
                    cx.report(returned_unchecked(
                        model,
                        cx,
                        errors,
                        returned.node,
                        &returned.name,
                        callers,
                    ));
                }
            }
        }
        for (event, verdict) in errors.events.iter().zip(&errors.verdicts) {
            let (EventKind::Call, Verdict::CallMisses { origins }) = (event.kind, verdict) else {
                continue;
            };
            let codes: Vec<&Origin> = origins.iter().filter(|o| o.is_returned()).collect();
            if !codes.is_empty() {
                cx.report(result_discarded(model, cx, event.node, &event.name, &codes));
            }
        }
    }
}

/// A CUDA call whose error code the function returns, and no caller tests.
fn returned_unchecked(
    model: &Model,
    cx: &LintContext,
    errors: &FunctionErrors,
    call: tree_sitter::Node,
    api: &str,
    callers: &[Site],
) -> Diagnostic {
    let function = &errors.name;
    let (named, labels) = callers_named(model, callers, |caller| {
        format!("`{caller}` drops the error code `{function}` returns")
    });
    let mut diagnostic = cx
        .diagnostic(
            call.byte_range(),
            format!("the error code of `{api}` {RETURNED} of `{function}` tests it ({}), so a failure here goes unnoticed and surfaces later", list(&named)),
        )
        .with_help(format!("test the code `{function}` returns in its callers (e.g. CUDA_CHECK({function}(...))), or check it here"));
    for (span, message) in labels {
        diagnostic = diagnostic.with_label(span, message);
    }
    diagnostic
}

/// A call that drops the error code its callee returns, while the callee's other callers test it.
fn result_discarded(
    model: &Model,
    cx: &LintContext,
    call: tree_sitter::Node,
    callee: &str,
    origins: &[&Origin],
) -> Diagnostic {
    let mut apis = Vec::new();
    let mut labels = Vec::new();
    for origin in origins {
        match origin {
            Origin::Local { function, item, .. } => {
                let Some(returning) = model.errors.functions.get(*function) else {
                    continue;
                };
                let Some(returned) = returning.returned.get(*item) else {
                    continue;
                };
                apis.push(format!("`{}`", returned.name));
                labels.push((
                    returned.node.byte_range(),
                    format!(
                        "`{}` returns the error code of `{}` here",
                        returning.name, returned.name
                    ),
                ));
            }
            Origin::Foreign {
                path, name, line, ..
            } => apis.push(format!("`{name}` ({}:{line})", shown(model.path, path))),
        }
    }
    apis.dedup();
    let mut diagnostic = cx
        .diagnostic(
            call.byte_range(),
            format!("the error code of `{callee}` is discarded, while its other callers test it (it returns the code of {}), so a failure here goes unnoticed and surfaces later", list(&apis)),
        )
        .with_help(format!("test the result as the other callers do, e.g. CUDA_CHECK({callee}(...))"));
    for (span, message) in labels {
        diagnostic = diagnostic.with_label(span, message);
    }
    diagnostic
}

/// Where the last CUDA call or launch of `main` that is not teardown starts: the teardown
/// calls after it are the end of the program.
fn end_of_work(host: &HostFunction) -> usize {
    let calls = host
        .calls
        .iter()
        .filter(|c| !TEARDOWN.contains(&cuda_name(&c.name).as_ref()))
        .map(|c| c.call.start_byte());
    let launches = host.launches.iter().map(|l| l.call.start_byte());
    calls.chain(launches).max().unwrap_or(0)
}

/// One finding per function: the first unchecked call carries it, the others are its labels.
/// Runs after suppressions, so `ignore[unchecked-cuda-call]` still works call by call.
fn merge_per_function(model: &Model, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let function_of = |d: &Diagnostic| {
        model.functions.iter().position(|f| {
            let range = f.definition.byte_range();
            range.start <= d.span.start && d.span.end <= range.end
        })
    };
    let mut groups: Vec<(Option<usize>, Vec<Diagnostic>)> = Vec::new();
    for diagnostic in diagnostics {
        let function = function_of(&diagnostic);
        match groups
            .iter_mut()
            .find(|(f, _)| function.is_some() && *f == function)
        {
            Some((_, group)) => group.push(diagnostic),
            None => groups.push((function, vec![diagnostic])),
        }
    }
    groups
        .into_iter()
        .filter_map(|(function, mut group)| {
            group.sort_by_key(|d| d.span.start);
            if group.len() < 2 {
                return group.pop();
            }
            let name = function
                .and_then(|f| model.functions.get(f))
                .map(|f| f.name.as_str())
                .unwrap_or("this function");
            let calls: Vec<String> = group
                .iter()
                .map(|d| called(&d.message).to_string())
                .collect();
            let mut shown: Vec<String> = calls.iter().take(3).map(|c| format!("`{c}`")).collect();
            if calls.len() > 3 {
                shown.push(format!("{} more", calls.len() - 3));
            }
            let mut merged = group.remove(0);
            merged.message = format!(
                "`{name}` ignores the error codes of {} {} calls ({}), so a failure goes unnoticed and surfaces later, far from its cause",
                calls.len(),
                model.runtime.name(),
                shown.join(", ")
            );
            for other in group {
                let how = if other.message.contains(STORED) {
                    "stored, never tested"
                } else if other.message.contains(RETURNED) {
                    "returned, tested by no caller"
                } else {
                    "discarded"
                };
                merged = merged.with_label(
                    other.span.clone(),
                    format!("`{}`: error code {how}", called(&other.message)),
                );
            }
            Some(merged)
        })
        .collect()
}

/// The call a per-call message of this lint names (its first backquoted word).
fn called(message: &str) -> &str {
    message.split('`').nth(1).unwrap_or("call")
}

#[cfg(test)]
mod tests {
    use super::UNCHECKED_CUDA_CALL;
    use crate::config::Settings;
    use crate::testing::{assert_cases, run_with_settings};

    #[test]
    fn cases() {
        assert_cases(
            &UNCHECKED_CUDA_CALL,
            &[
                "void f(float* d) { CUDA_CHECK(cudaFree(d)); }",
                "void f(float* d) { (void)cudaFree(d); }",
                "cudaError_t f(float* d) { return cudaFree(d); }",
                "void f(float* d) { cudaError_t e = cudaFree(d); if (e != cudaSuccess) abort(); }",
                "void f(float* d) { cudaError_t e = cudaMalloc(&d, 4); if (e != cudaSuccess) { cudaFree(d); } }",
                "void f() { cudaGetLastError(); }",
                "void f(float* d) { if (cudaFree(d) != cudaSuccess) abort(); }",
                "void f(float* d) { MY_WRAP(cudaFree(d)); }",
                "int main() { float* d; CUDA_CHECK(cudaMalloc(&d, 4)); CUDA_CHECK(cudaMemset(d, 0, 4)); cudaFree(d); cudaDeviceReset(); return 0; }",
                "struct B { float* d; ~B() { cudaFree(d); } };",
                "cudaError_t f(float* d) { return cudaFree(d); } void g(float* d) { CUDA_CHECK(f(d)); }",
            ],
            &[
                "void f(float* d) { cudaFree(d); }",
                "void f(float* d) { cudaError_t e = cudaFree(d); }",
                "int main() { float* d; cudaMalloc(&d, 4); CUDA_CHECK(cudaFree(d)); return 0; }",
                "int main() { float* d; CUDA_CHECK(cudaMalloc(&d, 4)); cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice); return 0; }",
                "int main() { float* d; CUDA_CHECK(cudaMalloc(&d, 4)); cudaFree(d); CUDA_CHECK(cudaMalloc(&d, 8)); return 0; }",
                "cudaError_t f(float* d) { return cudaFree(d); } void g(float* d) { f(d); }",
                "cudaError_t f(float* d) { return cudaFree(d); } void g(float* d) { CUDA_CHECK(f(d)); } void h(float* d) { f(d); }",
            ],
        );
    }

    const SEVERAL: &str = "void f(float* a, float* b) {\n  cudaMalloc(&a, 4);\n  cudaMemset(a, 0, 4);\n  cudaError_t e = cudaMemcpy(b, a, 4, cudaMemcpyDeviceToDevice);\n}\nvoid g(float* a) {\n  cudaMemset(a, 0, 4);\n}\n";

    #[test]
    fn one_finding_per_function_with_the_other_calls_as_labels() {
        let found = run_with_settings(&UNCHECKED_CUDA_CALL, SEVERAL, &Settings::every_rule());
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            found[0].message,
            "`f` ignores the error codes of 3 CUDA calls (`cudaMalloc`, `cudaMemset`, `cudaMemcpy`), so a failure goes unnoticed and surfaces later, far from its cause"
        );
        assert_eq!(&SEVERAL[found[0].span.clone()], "cudaMalloc(&a, 4)");
        let labels: Vec<&str> = found[0].labels.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(
            labels,
            [
                "`cudaMemset`: error code discarded",
                "`cudaMemcpy`: error code stored, never tested"
            ]
        );
        assert!(found[1]
            .message
            .starts_with("the error code of `cudaMemset`"));
        assert!(found[1].labels.is_empty());
    }

    #[test]
    fn a_suppression_silences_one_call_of_the_group() {
        let text = SEVERAL.replace(
            "cudaMalloc(&a, 4);",
            "cudaMalloc(&a, 4); // cudalint: ignore[unchecked-cuda-call]",
        );
        let settings = Settings::every_rule();
        let outcome = crate::engine::lint_text(std::path::Path::new("s.cu"), &text, &settings);
        let rules: Vec<&str> = outcome.diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, ["unchecked-cuda-call", "unchecked-cuda-call"]);
        assert!(outcome.diagnostics[0]
            .message
            .contains("2 CUDA calls (`cudaMemset`, `cudaMemcpy`)"));
    }

    const TEARDOWN_AT_END: &str = "int main() {\n  float* d; cudaStream_t s; cudaEvent_t e;\n  CUDA_CHECK(cudaMalloc(&d, 4));\n  k<<<1, 1>>>(d);\n  cudaFree(d);\n  cudaStreamDestroy(s);\n  cudaEventDestroy(e);\n  cudaDeviceReset();\n  return 0;\n}\nstruct Buffer { float* d; ~Buffer() { cudaFree(d); } };\n";

    #[test]
    fn teardown_at_the_end_of_main_and_in_destructors_needs_strict_checks() {
        let relaxed = run_with_settings(
            &UNCHECKED_CUDA_CALL,
            TEARDOWN_AT_END,
            &Settings::every_rule(),
        );
        assert!(relaxed.is_empty(), "{relaxed:?}");
        let strict = Settings {
            strict_error_checks: true,
            ..Settings::every_rule()
        };
        let found = run_with_settings(&UNCHECKED_CUDA_CALL, TEARDOWN_AT_END, &strict);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0]
            .message
            .contains("`main` ignores the error codes of 4 CUDA calls"));
        assert!(found[1].message.contains("`cudaFree`"));
    }
}
