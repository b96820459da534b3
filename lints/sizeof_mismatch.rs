use super::support::{snippet, variable_name};
use crate::lint::LintContext;
use crate::model::size::{builtin_size, component_size, is_scalar_element, normalize_type};
use crate::model::Model;
use crate::syntax::NodeExt;

crate::declare_lint!(
    SIZEOF_MISMATCH,
    "sizeof-mismatch",
    Memory,
    Warning,
    "byte count computed with sizeof of a different element type than the buffer's",
    check
);

/// The buffer's element type when it and `unit` are numbers, half or vector types of different
/// sizes, each read through the file's typedefs and aliases: (element as written, element
/// size, unit size, what the aliases made of the element and of the unit, when they changed).
fn mismatch(
    model: &Model,
    element: Option<&str>,
    unit: &str,
) -> Option<(String, i128, i128, Option<String>)> {
    let element = element?;
    let (resolved_element, resolved_unit) = (model.resolve_type(element), model.resolve_type(unit));
    if !is_scalar_element(&resolved_element) || !is_scalar_element(&resolved_unit) {
        return None;
    }
    let (element_size, unit_size) = (
        builtin_size(&resolved_element)?,
        builtin_size(&resolved_unit)?,
    );
    // `float` storage counted in `float4`s holds four floats per count: a view, not a mistake
    if component_size(&resolved_unit) == Some(element_size) {
        return None;
    }
    let through_alias = [(element, &resolved_element), (unit, &resolved_unit)]
        .iter()
        .filter(|(written, resolved)| normalize_type(written) != **resolved)
        .map(|(written, resolved)| format!("`{written}` is `{resolved}`"))
        .collect::<Vec<_>>();
    let note = (!through_alias.is_empty()).then(|| through_alias.join(" and "));
    (element_size != unit_size).then(|| (element.to_string(), element_size, unit_size, note))
}

/// Whether the byte count `size_node`, written with `sizeof(unit)` for a buffer of the vector
/// type `element` whose lanes are `unit`s, counts vectors: the same count is multiplied by
/// `sizeof(element)` elsewhere in the function (a sibling buffer, the buffer's own memset). A
/// count of lanes (`n` floats viewed as `n / 4` `float4`) is a view, not a mistake, and nothing
/// else tells the two apart.
fn counted_in_vectors(
    model: &Model,
    host: &crate::model::host::HostFunction,
    size_node: tree_sitter::Node,
    unit: &str,
    element: &str,
) -> bool {
    let compact = |node: tree_sitter::Node| -> String {
        crate::syntax::text(node, model.source)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    let written = compact(size_node);
    let counted_in_vectors = written.replace(
        &format!("sizeof({unit})"),
        &format!("sizeof({})", element.trim()),
    );
    // `sizeof(unit)` not written in the count (`half2_size`, a local holding `ndat * 2 *
    // sizeof(half)`): the buffer's own memset of the same count says nothing either way
    if counted_in_vectors == written {
        return false;
    }
    host.allocations
        .iter()
        .filter_map(|a| a.size_node)
        .chain(host.transfers.iter().filter_map(|t| t.size_node))
        .any(|other| other.id() != size_node.id() && compact(other) == counted_in_vectors)
}

/// The help, after what the file's aliases make of the types (`` `real` is `float` ``).
fn with_note(help: String, note: Option<String>) -> String {
    match note {
        Some(note) => format!("{note} in this file; {help}"),
        None => help,
    }
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
            let Some((element, element_size, unit_size, note)) = mismatch(model, pointee, unit)
            else {
                continue;
            };
            let of_lanes = component_size(&model.resolve_type(&element)) == Some(unit_size);
            if of_lanes && !counted_in_vectors(model, host, size_node, unit, &element) {
                continue;
            }
            let name = variable_name(host, variable);
            let help = format!("use `sizeof(*{name})` or `sizeof({element})`");
            cx.report(
                cx.diagnostic(size_node.byte_range(), format!("`{}` counts {unit_size}-byte `{unit}` elements, but `{name}` holds {element_size}-byte `{element}` elements, so the buffer has room for a different number of elements than intended", snippet(model, size_node)))
                    .with_label(host.variables[variable].declaration.byte_range(), format!("`{name}` declared as `{element}*` here"))
                    .with_help(with_note(help, note)),
            );
        }
        for transfer in &host.transfers {
            let (Some(unit), Some(size_node)) = (&transfer.sizeof_unit, transfer.size_node) else {
                continue;
            };
            let pointers: Vec<_> = [transfer.destination, transfer.source]
                .into_iter()
                .flatten()
                .collect();
            let unit_size = builtin_size(&model.resolve_type(unit));
            // a copy between a `float` buffer and a `float4` one counted in `float`s moves the
            // same bytes whichever way the vector side is viewed
            let other_matches = |this: usize| {
                pointers.iter().any(|p| {
                    p.variable != this
                        && host
                            .variables
                            .get(p.variable)
                            .and_then(|v| v.pointee.as_deref())
                            .and_then(|t| builtin_size(&model.resolve_type(t)))
                            == unit_size
                })
            };
            for pointer in pointers.iter().copied() {
                let Some(variable) = host.variables.get(pointer.variable) else {
                    continue;
                };
                let Some((element, element_size, unit_size, note)) =
                    mismatch(model, variable.pointee.as_deref(), unit)
                else {
                    continue;
                };
                let of_components =
                    component_size(&model.resolve_type(&element)) == Some(unit_size);
                // one component of the first element (`cudaMemcpy(&e, t, sizeof(float), ...)` with
                // `float2* t`): the copy reads `t[0].x`, as a kernel that leaves its result there
                // means it to
                let one_component = crate::syntax::strip(size_node, model.source).node_kind()
                    == "sizeof_expression";
                if of_components
                    && (other_matches(pointer.variable)
                        || one_component
                        || !counted_in_vectors(model, host, size_node, unit, &element))
                {
                    continue;
                }
                let name = &variable.name;
                let help = format!("count the bytes with `sizeof({element})`");
                cx.report(
                    cx.diagnostic(size_node.byte_range(), format!("{} moves `{}` bytes counted in {unit_size}-byte `{unit}` elements, but `{name}` holds {element_size}-byte `{element}` elements, so it copies the wrong number of elements", transfer.api, snippet(model, size_node)))
                        .with_label(variable.declaration.byte_range(), format!("`{name}` holds `{element}` elements"))
                        .with_help(with_note(help, note)),
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
                "typedef float real; void f(int n) { real* d; cudaMalloc(&d, n * sizeof(float)); }",
                // a float4 view of a float buffer, copied in floats
                "void f(const float* h, int n) { float4* d; cudaMalloc(&d, n / 4 * sizeof(float4)); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                // a type the build chooses is not judged
                "#ifdef USE_DOUBLE\ntypedef double real;\n#else\ntypedef float real;\n#endif\nvoid f(int n) { real* d; cudaMalloc(&d, n * sizeof(double)); }",
                "void f(int n) { __half2* d; cudaMalloc(&d, n * sizeof(float)); }",
                // `n` floats viewed as `n / 4` vectors: nothing counts it in vectors
                "void f(int n) { float4* d; cudaMalloc(&d, n * sizeof(float)); }",
                "void f(const float4* h, int n) { float4* d; cudaMalloc(&d, n * sizeof(float)); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                // one component of the first element: the scalar a kernel left in `t[0].x`
                "float energy(float2* t) { float e; cudaMemcpy(&e, t, sizeof(float), cudaMemcpyDeviceToHost); return e; }",
                // a count of lanes kept in a local, and the buffer's memset of that same count
                "void f(unsigned ndat, unsigned ndim, cudaStream_t s) { const unsigned half2_size = ndat * ndim * sizeof(half); half2* input_h2; cudaMalloc((void**)&input_h2, half2_size); cudaMemsetAsync((void*)input_h2, 0, half2_size, s); }",
            ],
            &[
                "void f(int n) { double* d; cudaMalloc(&d, n * sizeof(float)); }",
                "void f(float* h, int n) { double* d; cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                // the same count is a count of vectors beside it
                "void f(int n) { float4 *a, *d; cudaMalloc(&a, n * sizeof(float4)); cudaMalloc(&d, n * sizeof(float)); }",
                "void f(const float4* h, int n) { float4* d; cudaMalloc(&d, n * sizeof(float4)); cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); }",
                "void f(int n) { __half* d; cudaMalloc(&d, n * sizeof(float)); }",
                "typedef double real; void f(int n) { real* d; cudaMalloc(&d, n * sizeof(float)); }",
                "using acc_t = double; void f(int n) { acc_t* d; cudaMalloc(&d, n * sizeof(float)); }",
                "#define DTYPE double\nvoid f(int n) { float* d; cudaMalloc(&d, n * sizeof(DTYPE)); }",
                // no component of a `double2`, or more than one `float` of the vector buffer
                "float energy(double2* t) { float e; cudaMemcpy(&e, t, sizeof(float), cudaMemcpyDeviceToHost); return e; }",
                "void f(float2* t, int n) { double h[8]; cudaMemcpy(h, t, n * sizeof(float), cudaMemcpyDeviceToHost); }",
            ],
        );
    }
}
