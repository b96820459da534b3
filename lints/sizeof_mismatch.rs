use super::support::{snippet, variable_name};
use crate::lint::LintContext;
use crate::model::size::{builtin_size, is_scalar_element};
use crate::model::Model;

crate::declare_lint!(
    SIZEOF_MISMATCH,
    "sizeof-mismatch",
    Memory,
    Warning,
    "byte count computed with sizeof of a different element type than the buffer's",
    check
);

/// The buffer's element type when it and `unit` are scalars of different sizes.
fn mismatch(element: Option<&str>, unit: &str) -> Option<(String, i128, i128)> {
    let element = element?;
    if !is_scalar_element(element) || !is_scalar_element(unit) {
        return None;
    }
    let (element_size, unit_size) = (builtin_size(element)?, builtin_size(unit)?);
    (element_size != unit_size).then(|| (element.to_string(), element_size, unit_size))
}

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        for allocation in &host.allocations {
            let (Some(unit), Some(variable), Some(size_node)) = (
                &allocation.sizeof_unit,
                allocation.variable,
                allocation.size_node,
            ) else {
                continue;
            };
            let pointee = host
                .variables
                .get(variable)
                .and_then(|v| v.is_pointer.then_some(v.pointee.as_deref()).flatten());
            let Some((element, element_size, unit_size)) = mismatch(pointee, unit) else {
                continue;
            };
            let name = variable_name(host, variable);
            cx.report(
                cx.diagnostic(size_node.byte_range(), format!("`{}` counts {unit_size}-byte `{unit}` elements, but `{name}` holds {element_size}-byte `{element}` elements, so the buffer has room for a different number of elements than intended", snippet(model, size_node)))
                    .with_label(host.variables[variable].declaration.byte_range(), format!("`{name}` declared as `{element}*` here"))
                    .with_help(format!("use `sizeof(*{name})` or `sizeof({element})`")),
            );
        }
        for transfer in &host.transfers {
            let (Some(unit), Some(size_node)) = (&transfer.sizeof_unit, transfer.size_node) else {
                continue;
            };
            for pointer in [transfer.destination, transfer.source]
                .into_iter()
                .flatten()
            {
                let Some(variable) = host.variables.get(pointer.variable) else {
                    continue;
                };
                let Some((element, element_size, unit_size)) =
                    mismatch(variable.pointee.as_deref(), unit)
                else {
                    continue;
                };
                let name = &variable.name;
                cx.report(
                    cx.diagnostic(size_node.byte_range(), format!("{} moves `{}` bytes counted in {unit_size}-byte `{unit}` elements, but `{name}` holds {element_size}-byte `{element}` elements, so it copies the wrong number of elements", transfer.api, snippet(model, size_node)))
                        .with_label(variable.declaration.byte_range(), format!("`{name}` holds `{element}` elements"))
                        .with_help(format!("count the bytes with `sizeof({element})`")),
                );
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SIZEOF_MISMATCH;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &SIZEOF_MISMATCH,
            &[
                "void f(int n) { double* d; cudaMalloc(&d, n * sizeof(double)); }",
                "void f(int n) { double* d; cudaMalloc(&d, n * 2 * sizeof(float)); }",
                "void f(int n) { char* d; cudaMalloc(&d, n * sizeof(float)); }",
                "void f(int n) { float2* d; cudaMalloc(&d, n * sizeof(float2)); }",
            ],
            &["void f(int n) { double* d; cudaMalloc(&d, n * sizeof(float)); }", "void f(float* h, int n) { double* d; cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }"],
        );
    }
}
