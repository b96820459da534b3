//! Wording shared by lints: how accesses and kernels are named in messages.

use crate::model::{Access, Function, Model};

/// `reads` / `writes` / `updates` for an access.
pub fn verb(access: &Access) -> &'static str {
    match access.kind {
        crate::model::AccessKind::Read => "reads",
        crate::model::AccessKind::Write => "writes",
        crate::model::AccessKind::ReadWrite => "updates",
    }
}

/// The scalar integer parameter that most likely holds the element count (`n`, `size`, ...).
pub fn likely_bound_parameter<'m, 't>(
    function: &'m Function<'t>,
) -> Option<&'m crate::model::Parameter<'t>> {
    let integral: Vec<_> = function
        .parameters
        .iter()
        .filter(|p| !p.is_pointer && is_integral_type(&p.type_text))
        .collect();
    let by_name = integral.iter().find(|p| {
        let name = p.name.to_ascii_lowercase();
        matches!(
            name.as_str(),
            "n" | "size" | "count" | "len" | "length" | "total" | "numel"
        ) || name.starts_with("num")
            || name.ends_with("size")
            || name.ends_with("count")
            || name.ends_with("elements")
            || name.ends_with("len")
    });
    // the lone integer is the size only where no other parameter may carry one: a structure
    // passed by value (`N3 N` read as `N.x * N.z`) holds the sizes, the integer a flag
    // (`int backward`)
    let carries_sizes = function.parameters.iter().any(|p| {
        let t = p.type_text.trim_start_matches("const ").trim();
        !p.is_pointer
            && !is_integral_type(t)
            && !matches!(t, "float" | "double" | "half" | "__half" | "bool" | "char")
    });
    by_name
        .copied()
        .or(if integral.len() == 1 && !carries_sizes {
            integral.first().copied()
        } else {
            None
        })
}

pub fn is_integral_type(type_text: &str) -> bool {
    let t = type_text.trim_start_matches("const ").trim();
    matches!(
        t,
        "int"
            | "unsigned"
            | "unsigned int"
            | "long"
            | "long long"
            | "unsigned long"
            | "unsigned long long"
            | "size_t"
            | "int64_t"
            | "uint64_t"
            | "int32_t"
            | "uint32_t"
            | "ptrdiff_t"
            | "index_t"
            | "short"
            | "std::size_t"
            | "std::int64_t"
            | "uint"
            | "IndexType"
    )
}

/// Source text of a node, shortened for a message.
pub fn snippet(model: &Model, node: tree_sitter::Node) -> String {
    let text: String = model
        .text(node)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// The name of a tracked host variable.
pub fn variable_name<'a>(host: &'a crate::model::host::HostFunction, variable: usize) -> &'a str {
    host.variables
        .get(variable)
        .map(|v| v.name.as_str())
        .unwrap_or("?")
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Another file of the run as a message about the file `from` shows it: relative to `from`'s
/// folder when under it (messages do not depend on the working directory).
pub fn shown(from: &std::path::Path, path: &std::path::Path) -> String {
    let relative = from
        .parent()
        .and_then(|folder| path.strip_prefix(folder).ok())
        .unwrap_or(path);
    relative.to_string_lossy().replace('\\', "/")
}

/// The callers of a function as a finding names them (`\`main\``, `\`run\` at path:line`), and a
/// label at each call in this file, worded by `label` from the caller's name.
pub fn callers_named(
    model: &Model,
    callers: &[crate::model::errors::Site],
    label: impl Fn(&str) -> String,
) -> (Vec<String>, Vec<(std::ops::Range<usize>, String)>) {
    use crate::model::errors::Site;
    let mut named = Vec::new();
    let mut labels = Vec::new();
    for site in callers {
        match site {
            Site::Local {
                function: caller,
                event,
            } => {
                let Some(caller) = model.errors.functions.get(*caller) else {
                    continue;
                };
                let Some(call) = caller.events.get(*event) else {
                    continue;
                };
                named.push(format!("`{}`", caller.name));
                labels.push((call.node.byte_range(), label(&caller.name)));
            }
            Site::Foreign { path, site } => named.push(format!(
                "`{}` at {}:{}",
                site.caller,
                shown(model.path, path),
                site.line
            )),
        }
    }
    named.dedup();
    (named, labels)
}

/// A finding on a call of a device function, pointed at what the helper reaches (`what`: "the
/// barrier", "the collective"): a label when it is in this file, its file named otherwise.
pub fn with_site_in_helper(
    mut diagnostic: crate::diagnostic::Diagnostic,
    via: &crate::model::kernel::BarrierVia,
    what: &str,
) -> crate::diagnostic::Diagnostic {
    match (&via.span, &via.file) {
        (Some(span), _) => {
            diagnostic =
                diagnostic.with_label(span.clone(), format!("the {what} `{}` reaches", via.helper));
        }
        (None, Some(file)) => {
            diagnostic
                .message
                .push_str(&format!(" (`{}` is in {})", via.function, file.display()));
        }
        (None, None) => {}
    }
    diagnostic
}
