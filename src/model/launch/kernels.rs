//! Which kernel a launch runs, however it names it: by name (`k<T>`, `ns::k`), through a local
//! that holds one, a table of specialisations or a function-like macro. Kept apart from reading
//! the launch, since every one of these ways ends in the same kernel name.

use super::*;

/// The kernel a launch names: `k`, `k<T>`, `ns::k`, `outer::inner::k<T>`.
pub fn launched_kernel<'t>(function: Node<'t>, source: &'t str) -> &'t str {
    let mut name = function;
    // each `::` level nests one qualified_identifier; a name is at most a few levels deep
    for _ in 0..16 {
        match name.node_kind() {
            "template_function" | "qualified_identifier" => match name.field("name") {
                Some(inner) => name = inner,
                None => return "",
            },
            _ => return text(name, source),
        }
    }
    ""
}

/// The kernel a local launched as `k<<<...>>>` holds: one kernel name, or a choice between
/// specialisations of one kernel (`auto k = c ? f<true> : f<false>;`), as the first of them.
pub(super) fn kernel_held_by_local<'t>(
    classifier: &Classifier<'_, 't>,
    function: Node<'t>,
) -> Option<Node<'t>> {
    let source = classifier.source;
    if function.node_kind() != "identifier" {
        return None;
    }
    let Held::One(value) = classifier
        .locals
        .value_at(text(function, source), function, source)
    else {
        return None;
    };
    let named = |node: Node<'t>| -> Option<Node<'t>> {
        let mut node = strip(node, source);
        if node.node_kind() == "pointer_expression" {
            node = strip(node.field("argument")?, source);
        }
        matches!(
            node.node_kind(),
            "identifier" | "template_function" | "qualified_identifier"
        )
        .then_some(node)
    };
    let value = strip(value, source);
    if value.node_kind() != "conditional_expression" {
        return named(value);
    }
    let first = named(value.field("consequence")?)?;
    let second = named(value.field("alternative")?)?;
    (launched_kernel(first, source) == launched_kernel(second, source)).then_some(first)
}

/// The kernel a launch through a table names: `kernels[i]<<<...>>>` where the local array is
/// initialised with specialisations of one kernel (`{keep<1>, keep<2>}`), written directly or
/// through a function-like macro of the file (`#define P(n) keep<T, (n)>` and `{P(1), P(2)}`).
pub(super) fn kernel_of_table<'t>(
    classifier: &Classifier<'_, 't>,
    function: Node<'t>,
) -> Option<String> {
    let source = classifier.source;
    if function.node_kind() != "subscript_expression" {
        return None;
    }
    let table = strip(function.field("argument")?, source);
    if table.node_kind() != "identifier" {
        return None;
    }
    let lists = classifier.locals.dim3.get(text(table, source))?;
    let [list] = lists.as_slice() else {
        return None;
    };
    if list.node_kind() != "initializer_list" {
        return None;
    }
    let mut kernel: Option<String> = None;
    for element in named_children(*list) {
        let element = strip(element, source);
        let name = match element.node_kind() {
            "identifier" | "template_function" | "qualified_identifier" => {
                launched_kernel(element, source).to_string()
            }
            "pointer_expression" => {
                launched_kernel(strip(element.field("argument")?, source), source).to_string()
            }
            "call_expression" => macro_kernel(source, text(element.field("function")?, source))?,
            _ => return None,
        };
        if name.is_empty() || kernel.as_ref().is_some_and(|k| *k != name) {
            return None;
        }
        kernel = Some(name);
    }
    kernel
}

/// The name a function-like macro of the text expands to at its start (`#define P(n)
/// keep<T, (n)>` gives `keep`).
fn macro_kernel(source: &str, name: &str) -> Option<String> {
    let definition = crate::source::function_macro_definitions(source)
        .into_iter()
        .rfind(|m| m.name == name)?;
    let body = definition.body.as_str();
    let end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(body.len());
    let short = body[..end].rsplit("::").next().unwrap_or("");
    (!short.is_empty()).then(|| short.to_string())
}
