use crate::diagnostic::{Edit, Fix};
use crate::lint::LintContext;
use crate::model::host::{is_check_name, HostFunction, Launch, ResultUse};
use crate::model::Model;
use crate::syntax::NodeExt;
use std::collections::BTreeMap;

crate::declare_lint!(
    UNCHECKED_KERNEL_LAUNCH,
    "unchecked-kernel-launch",
    ErrorHandling,
    Warning,
    "kernel launch not followed by a cudaGetLastError/cudaPeekAtLastError check",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        // the function's own calls only: the language server keeps an unchanged function's
        // findings, fixes included, so they may depend on nothing outside it
        let check_macro = check_macro_in_use(model, host);
        for launch in &host.launches {
            if launch.checked || launch.wrapped {
                continue;
            }
            let mut diagnostic = cx.diagnostic(launch.call.byte_range(), format!("the launch of `{}` is not followed by a cudaGetLastError() check, so a bad configuration or missing kernel image fails silently", launch.kernel))
                .with_help("check cudaGetLastError() (or cudaPeekAtLastError()) right after the launch, e.g. CUDA_CHECK(cudaGetLastError())");
            if let Some(fix) = check_macro
                .as_deref()
                .and_then(|name| insert_check(model, launch, name))
            {
                diagnostic = diagnostic.with_fix(fix);
            }
            cx.report(diagnostic);
        }
    }
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

/// `NAME(cudaGetLastError());` on the line after the launch's statement, at its indentation;
/// only for a statement of its own in a block, so the check runs exactly when the launch does.
fn insert_check(model: &Model, launch: &Launch, name: &str) -> Option<Fix> {
    let statement = launch
        .call
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
        ];
        let fail = [
            "void f(float* d) { k<<<1, 32>>>(d); }",
            "void f(float* d) { k<<<1, 32>>>(d); cudaGetLastError(); }",
            "void f(float* d) { k<<<1, 32>>>(d); k<<<1, 32>>>(d); CUDA_CHECK(cudaGetLastError()); }",
        ];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &UNCHECKED_KERNEL_LAUNCH,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
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
