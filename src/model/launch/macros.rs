//! Launches written in function-like macros: `#define LAUNCH(T, W) k<T><<<rows / W, 32 * W>>>(...)`
//! used as `LAUNCH(2, 4)` in a launcher's branches, and kernels launched from a dispatch
//! macro's block (`TYPE_SWITCH(dtype, T, k<T><<<g, b>>>(...););`). The preprocessor is not run,
//! so tree-sitter sees the macro's body as text and its use as a call. Each use in a function
//! body is expanded (its arguments put in for the macro's parameters) in a copy of the file's
//! text, which is parsed on its own; the launches found inside the expansions are the file's,
//! placed at the use.

use super::{launches_in, FileScope, GridHelpers, LaunchSite};
use crate::model::Function;
use crate::source::{LineIndex, MacroDefinition};
use crate::syntax::{self, named_children, text, NodeExt};
use std::ops::Range;
use std::path::Path;
use tree_sitter::Node;

/// A function-like macro whose body launches a kernel.
struct LaunchMacro<'t> {
    name: &'t str,
    /// Where the definition starts: a use expands the last definition above it.
    defined_at: usize,
    parameters: Vec<&'t str>,
    variadic: bool,
    body: String,
}

/// The most uses of launch macros expanded in one file.
const MAX_USES: usize = 256;

/// The launches inside the launch macros `functions` use: the file's own, and `included`, those
/// of the project headers it includes (a `CUDA_KERNEL_CALL` of a shared header). `root` and
/// `text` are the file's parsed tree and text (the view), `lines` its line index.
pub fn launches_in_macros<'t>(
    root: Node<'t>,
    text_parsed: &'t str,
    included: &'t [MacroDefinition],
    functions: &[Function<'t>],
    path: &Path,
    lines: &LineIndex,
    helpers: &dyn GridHelpers,
) -> Vec<LaunchSite> {
    let own = text_parsed.contains("#define") && text_parsed.contains("<<<");
    if !own && included.is_empty() {
        return Vec::new();
    }
    // a header's macros come before every line of the file
    let mut macros: Vec<LaunchMacro<'t>> = included
        .iter()
        .map(|definition| LaunchMacro {
            name: &definition.name,
            defined_at: 0,
            parameters: definition.parameters.iter().map(String::as_str).collect(),
            variadic: definition.variadic,
            body: definition.body.clone(),
        })
        .collect();
    if own {
        macros.extend(launch_macros(root, text_parsed));
    }
    if macros.is_empty() {
        return Vec::new();
    }
    let uses = uses_of(&macros, functions, text_parsed);
    if uses.is_empty() {
        return Vec::new();
    }
    // the file's text with each use replaced by `{ expansion }`; `placed` maps each expansion's
    // bytes in the new text to the use's bytes in the file
    let mut expanded = String::with_capacity(text_parsed.len() + uses.len() * 256);
    let mut placed: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut at = 0;
    for (call, expansion) in &uses {
        let range = call.byte_range();
        expanded.push_str(text_parsed.get(at..range.start).unwrap_or(""));
        let start = expanded.len();
        expanded.push_str("{ ");
        expanded.push_str(expansion);
        expanded.push_str("; }");
        placed.push((start..expanded.len(), range.clone()));
        at = range.end;
    }
    expanded.push_str(text_parsed.get(at..).unwrap_or(""));
    let Some(tree) = syntax::parse(&expanded) else {
        return Vec::new();
    };
    let expanded_lines = LineIndex::new(&expanded);
    let file = FileScope::new(tree.root_node(), &expanded);
    let mut expanding = Vec::new();
    syntax::walk_iterative(tree.root_node(), |node| {
        if node.node_kind() != "function_definition" {
            return true;
        }
        let range = node.byte_range();
        if placed
            .iter()
            .any(|(inside, _)| range.start <= inside.start && inside.end <= range.end)
        {
            expanding.push(node);
        }
        false
    });
    // the launches' reading walks these bodies many times (a fact per check before a launch)
    let _table = syntax::TreeTable::install_within(&tree, &expanding);
    let mut sites = Vec::new();
    for node in expanding {
        let template = node
            .up()
            .filter(|parent| parent.node_kind() == "template_declaration");
        let Some(function) = crate::model::function_from_definition(node, template, &expanded, &[])
        else {
            continue;
        };
        for mut site in launches_in(&function, &expanded, path, &expanded_lines, helpers, &file) {
            let Some((_, used)) = placed
                .iter()
                .find(|(inside, _)| inside.start <= site.span.start && site.span.end <= inside.end)
            else {
                continue; // a launch written out in the function: read already
            };
            site.line = lines.line_of(used.start) + 1;
            site.span = used.clone();
            sites.push(site);
        }
    }
    sites
}

/// How many macros deep a launch is followed: `DISPATCH(...)` expanding to `DISPATCH_INNER(...)`,
/// which holds the `<<<`.
const MAX_MACRO_NESTING: usize = 3;

/// The file's function-like macros whose body launches a kernel, directly or through the launch
/// macros it uses (`#define DISPATCH_SCAN(...) DISPATCH_SCAN_INNER(...)`, whose body is then that
/// use expanded). Macros defined inside a function body count too.
fn launch_macros<'t>(root: Node<'t>, source: &'t str) -> Vec<LaunchMacro<'t>> {
    let mut launching = Vec::new();
    let mut others = Vec::new();
    syntax::walk_iterative(root, |node| match node.node_kind() {
        "preproc_function_def" => {
            let Some((name, parameters, variadic, body)) =
                syntax::function_macro_parts(node, source)
            else {
                return false;
            };
            let found = LaunchMacro {
                name,
                defined_at: node.start_byte(),
                parameters,
                variadic,
                body: body.replace("\\\r\n", "\n").replace("\\\n", "\n"),
            };
            if launches(&found.body) {
                launching.push(found);
            } else {
                others.push(found);
            }
            false
        }
        // a function's body is read only where it defines a macro
        "function_definition" => text(node, source).contains("#define"),
        "comment" => false,
        _ => true,
    });
    for _ in 0..MAX_MACRO_NESTING {
        let mut found_one = false;
        let mut index = 0;
        while index < others.len() {
            match with_inner_launches(&others[index], &launching) {
                Some(body) => {
                    let mut outer = others.remove(index);
                    outer.body = body;
                    launching.push(outer);
                    found_one = true;
                }
                None => index += 1,
            }
        }
        if !found_one {
            break;
        }
    }
    launching
}

/// Whether a macro's body launches a kernel itself.
fn launches(body: &str) -> bool {
    body.contains("<<<") || body.contains("cudaLaunchKernel") || body.contains("hipLaunchKernelGGL")
}

/// The body of `outer` with each use of one of the `launching` macros in it expanded (its
/// arguments, still `outer`'s parameter names, put in); None when it uses none.
fn with_inner_launches(outer: &LaunchMacro, launching: &[LaunchMacro]) -> Option<String> {
    let body = &outer.body;
    let mut expanded = String::with_capacity(body.len() * 2);
    let mut at = 0;
    let mut used = false;
    while at < body.len() {
        let next = launching
            .iter()
            .filter_map(|inner| {
                let start = at + find_call(&body[at..], inner.name)?;
                Some((start, inner))
            })
            .min_by_key(|(start, _)| *start);
        let Some((start, inner)) = next else {
            break;
        };
        let open = start
            + inner.name.len()
            + (body[start + inner.name.len()..].len()
                - body[start + inner.name.len()..].trim_start().len());
        let close = closing_parenthesis(body, open)?;
        let arguments = syntax::split_arguments(body.get(open + 1..close)?);
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        expanded.push_str(&body[at..start]);
        expanded.push_str(&expand(inner, &arguments)?);
        used = true;
        at = close + 1;
    }
    expanded.push_str(body.get(at..).unwrap_or(""));
    used.then_some(expanded)
}

/// Where `name(` is first called in `text`, as a whole word.
fn find_call(text: &str, name: &str) -> Option<usize> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = text.get(from..)?.find(name) {
        let start = from + found;
        let end = start + name.len();
        let before_ok = !text[..start].chars().next_back().is_some_and(word);
        let after = text[end..].trim_start();
        if before_ok && after.starts_with('(') && !text[end..].starts_with(word) {
            return Some(start);
        }
        from = end;
    }
    None
}

/// The `)` that closes the `(` at `open`.
fn closing_parenthesis(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (offset, c) in text.get(open..)?.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset);
                }
            }
            _ => {}
        }
    }
    None
}

/// Each call of a launch macro in the functions' bodies (outermost only), in the order of the
/// text, with its expansion.
fn uses_of<'t>(
    macros: &[LaunchMacro<'t>],
    functions: &[Function<'t>],
    source: &'t str,
) -> Vec<(Node<'t>, String)> {
    let mut uses: Vec<(Node<'t>, String)> = Vec::new();
    for function in functions {
        let body = text(function.body, source);
        if !macros.iter().any(|m| body.contains(m.name)) {
            continue;
        }
        syntax::walk_iterative(function.body, |node| {
            if uses.len() >= MAX_USES {
                return false;
            }
            if node.node_kind() != "call_expression" {
                return true;
            }
            let Some(name) = node
                .field("function")
                .filter(|f| f.node_kind() == "identifier")
                .map(|f| text(f, source))
            else {
                return true;
            };
            let arguments: Vec<&str> = node
                .field("arguments")
                .map(|list| named_children(list).map(|a| text(a, source)).collect())
                .unwrap_or_default();
            let defined = |name: &str| {
                macros
                    .iter()
                    .rfind(|m| m.name == name && m.defined_at < node.start_byte())
            };
            let Some(launch_macro) = defined(name) else {
                // `DISPATCH_BY_DTYPE(dtype, CALL_KERNEL)`: a launch macro handed by name to a
                // dispatch macro, which calls it with each type. Its launch is written with the
                // launcher's grid and block whatever the type; its parameters stay names.
                if let Some(handed) = arguments.iter().find_map(|a| defined(a.trim())) {
                    if let Some(expansion) = expand(handed, &handed.parameters) {
                        uses.push((node, expansion));
                        return false;
                    }
                }
                return true;
            };
            match expand(launch_macro, &arguments) {
                Some(expansion) => {
                    uses.push((node, expansion));
                    false
                }
                None => true,
            }
        });
    }
    uses.sort_by_key(|(call, _)| call.start_byte());
    uses
}

/// The macro's body with `arguments` put in for its parameters (and `__VA_ARGS__`), `a ## b`
/// pasted; None when the count of arguments does not fit.
fn expand(launch_macro: &LaunchMacro, arguments: &[&str]) -> Option<String> {
    let fixed = launch_macro.parameters.len();
    let fits = if launch_macro.variadic {
        arguments.len() >= fixed
    } else {
        arguments.len() == fixed || (fixed == 0 && arguments.is_empty())
    };
    if !fits {
        return None;
    }
    let rest = arguments.get(fixed..).unwrap_or(&[]).join(", ");
    let body = &launch_macro.body;
    let mut expanded = String::with_capacity(body.len() * 2);
    let mut chars = body.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_ascii_alphabetic() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some((at, next)) = chars.peek().copied() {
                if next.is_ascii_alphanumeric() || next == '_' {
                    end = at + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let word = &body[start..end];
            match launch_macro.parameters.iter().position(|p| *p == word) {
                Some(position) => expanded.push_str(arguments.get(position)?),
                None if word == "__VA_ARGS__" && launch_macro.variadic => expanded.push_str(&rest),
                None => expanded.push_str(word),
            }
        } else {
            expanded.push(c);
        }
    }
    // token pasting: `k_ ## T` names `k_float`
    while let Some(at) = expanded.find("##") {
        let before = expanded[..at].trim_end().len();
        let after = at + 2 + (expanded[at + 2..].len() - expanded[at + 2..].trim_start().len());
        expanded.replace_range(before..after, "");
    }
    Some(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch_macro(
        parameters: &[&'static str],
        variadic: bool,
        body: &str,
    ) -> LaunchMacro<'static> {
        LaunchMacro {
            name: "LAUNCH",
            defined_at: 0,
            parameters: parameters.to_vec(),
            variadic,
            body: body.to_string(),
        }
    }

    #[test]
    fn arguments_replace_whole_parameter_names_only() {
        let m = launch_macro(
            &["W", "T"],
            false,
            "k<T, W><<<n / W, 32 * W>>>(p, WIDTH, n)",
        );
        assert_eq!(
            expand(&m, &["4", "float"]).as_deref(),
            Some("k<float, 4><<<n / 4, 32 * 4>>>(p, WIDTH, n)")
        );
        assert_eq!(expand(&m, &["4"]), None);
    }

    #[test]
    fn variadic_arguments_and_pasting() {
        let m = launch_macro(&["T"], true, "k_ ## T<<<g, b>>>(__VA_ARGS__)");
        assert_eq!(
            expand(&m, &["half", "p", "n"]).as_deref(),
            Some("k_half<<<g, b>>>(p, n)")
        );
    }

    #[test]
    fn a_macro_that_uses_a_launch_macro_launches_through_it() {
        let source = "#define INNER(g, b, p) k<<<g, b>>>(p)\n\
                      #define OUTER(n, p) INNER((n + 255) / 256, 256, p)\n\
                      #define OUTERMOST(p) OUTER(count, p)\n\
                      #define UNRELATED(x) (x + 1)\n\
                      void f(float* p, int count) {\n\
                      #define LOCAL(b) k<<<1, b>>>(p)\n\
                      LOCAL(32); }\n";
        let tree = syntax::parse(source).expect("parse");
        let found = launch_macros(tree.root_node(), source);
        let body = |name: &str| {
            found
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.body.trim().to_string())
        };
        assert_eq!(body("INNER").as_deref(), Some("k<<<g, b>>>(p)"));
        assert_eq!(
            body("OUTER").as_deref(),
            Some("k<<<(n + 255) / 256, 256>>>(p)")
        );
        assert_eq!(
            body("OUTERMOST").as_deref(),
            Some("k<<<(count + 255) / 256, 256>>>(p)")
        );
        assert_eq!(body("UNRELATED"), None);
        assert_eq!(body("LOCAL").as_deref(), Some("k<<<1, b>>>(p)"));
    }
}
