//! Function-like macros that allocate or free through a parameter: `#define
//! SAFE_ALOC_GPU(X, Y) cudaSafeCall(cudaMalloc((void **)&(X), (Y)));` allocates the caller's
//! `X` with `Y` bytes, and `#define SAFE_FREE_GPU(X) cudaFree((X))` frees it. A call of such a
//! macro acts on its arguments as the CUDA call in its body does on the parameters.

use super::stored::{allocation_memory, is_device_free};
use super::Memory;

/// What a macro's body does with one of its parameters (by position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum MacroEffect {
    /// The CUDA call `api` allocates the parameter `target`, with the byte count the parameter
    /// `size` gives when it is one.
    Allocates {
        api: String,
        memory: Memory,
        target: usize,
        size: Option<usize>,
    },
    Frees {
        target: usize,
    },
    /// The body sets the parameter `target` to null after freeing it (`ptr = NULL;`): a second
    /// call frees nothing.
    Clears {
        target: usize,
    },
}

/// The allocations and frees a macro body makes through its parameters, in body order.
pub(super) fn macro_effects(parameters: &[&str], body: &str) -> Vec<MacroEffect> {
    let mut effects = Vec::new();
    let parameter = |argument: &str| {
        let name = bare_operand(argument)?;
        parameters.iter().position(|p| *p == name)
    };
    for (name, arguments) in calls_in(body) {
        let Some(first) = arguments.first() else {
            continue;
        };
        if is_device_free(name) {
            if let Some(target) = parameter(first) {
                effects.push(MacroEffect::Frees { target });
                if clears(body, parameters[target]) {
                    effects.push(MacroEffect::Clears { target });
                }
            }
            continue;
        }
        let Some(memory) = allocation_memory(name, arguments.get(2).map(String::as_str)) else {
            continue;
        };
        // `&(X)` behind any cast: the macro's parameter is the variable allocated
        let Some(address) = without_casts(first).strip_prefix('&') else {
            continue;
        };
        let Some(target) = parameter(address) else {
            continue;
        };
        let size = match name {
            "cudaMallocPitch" => None,
            _ => arguments.get(1).and_then(|s| parameter(s)),
        };
        effects.push(MacroEffect::Allocates {
            api: name.to_string(),
            memory,
            target,
            size,
        });
    }
    effects
}

/// Whether `body` assigns null to the parameter `name` (`ptr = NULL`, `(X) = nullptr`, `p = 0`).
fn clears(body: &str, name: &str) -> bool {
    body.split(';').any(|statement| {
        let Some((target, value)) = statement.split_once('=') else {
            return false;
        };
        // `==`, `!=`, `<=`, `>=` are tests, not assignments
        if value.starts_with('=') || target.ends_with(['!', '<', '>', '=']) {
            return false;
        }
        let target = target.rsplit(['{', '}', '\\']).next().unwrap_or(target);
        bare_operand(target) == Some(name)
            && matches!(
                value.trim().trim_end_matches(['}', ')', ' ']).trim(),
                "NULL" | "nullptr" | "0"
            )
    })
}

/// Each call `name(arguments)` written in `text`, with its top-level arguments.
fn calls_in(text: &str) -> Vec<(&str, Vec<String>)> {
    let bytes = text.as_bytes();
    let mut calls = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if !(bytes[at].is_ascii_alphabetic() || bytes[at] == b'_') {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        let name = &text[start..at];
        let mut open = at;
        while open < bytes.len() && bytes[open].is_ascii_whitespace() {
            open += 1;
        }
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        // the balanced argument list
        let mut depth = 0usize;
        let end = bytes[open..].iter().position(|byte| {
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ => return false,
            }
            depth == 0
        });
        let Some(end) = end.map(|offset| open + offset) else {
            break;
        };
        calls.push((name, crate::syntax::split_arguments(&text[open + 1..end])));
        // the calls inside the arguments are read too
        at = open + 1;
    }
    calls
}

/// `(void **)&(X)`, `reinterpret_cast<void**>(&X)`, `(X)`: what is left without casts and
/// parentheses around the whole.
fn without_casts(argument: &str) -> &str {
    let mut text = argument.trim();
    for _ in 0..8 {
        if let Some(inner) = text
            .strip_prefix("reinterpret_cast<")
            .or_else(|| text.strip_prefix("static_cast<"))
            .and_then(|rest| rest.split_once(">"))
            .map(|(_, rest)| rest.trim())
        {
            text = inner;
            continue;
        }
        if let Some(rest) = text.strip_prefix('(') {
            // a C cast `(void **)` before the operand, or parentheses around the whole
            match rest.find(')') {
                Some(close) if rest[..close].contains('*') && !rest[..close].contains('&') => {
                    text = rest[close + 1..].trim();
                    continue;
                }
                _ if text.ends_with(')') => {
                    text = text[1..text.len() - 1].trim();
                    continue;
                }
                _ => {}
            }
        }
        break;
    }
    text
}

/// The one name an operand is, behind casts and parentheses: `(X)` and `X` are `X`.
fn bare_operand(argument: &str) -> Option<&str> {
    let text = without_casts(argument);
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_that_nulls_its_parameter_clears_it() {
        for body in [
            "do { if (ptr != NULL) call(cudaFree(ptr)); ptr = NULL; } while (0)",
            "{ if (ptr) { cudaFree(ptr); (ptr) = nullptr; } }",
            "do { \\\n if (ptr != NULL) CHECK(cudaFree(ptr)); \\\n ptr = NULL; \\\n } while (0)",
        ] {
            assert_eq!(
                macro_effects(&["ptr"], body),
                [
                    MacroEffect::Frees { target: 0 },
                    MacroEffect::Clears { target: 0 }
                ],
                "{body}"
            );
        }
        // a test against null, or another variable nulled, clears nothing
        for body in [
            "if (ptr != NULL) cudaFree(ptr);",
            "cudaFree(ptr); other = NULL;",
        ] {
            assert_eq!(
                macro_effects(&["ptr"], body),
                [MacroEffect::Frees { target: 0 }],
                "{body}"
            );
        }
    }

    #[test]
    fn allocations_and_frees_through_parameters() {
        let effects = macro_effects(&["X", "Y"], "cudaSafeCall(cudaMalloc((void **)&(X), (Y)));");
        assert_eq!(
            effects,
            [MacroEffect::Allocates {
                api: "cudaMalloc".into(),
                memory: Memory::Device,
                target: 0,
                size: Some(1)
            }]
        );
        let effects = macro_effects(
            &["ptr", "n"],
            "do { CHECK(cudaMallocManaged(reinterpret_cast<void**>(&ptr), n * sizeof(float))); } while (0)",
        );
        assert_eq!(
            effects,
            [MacroEffect::Allocates {
                api: "cudaMallocManaged".into(),
                memory: Memory::Managed,
                target: 0,
                size: None
            }]
        );
        assert_eq!(
            macro_effects(
                &["X"],
                "if ((X) != NULL) { cudaSafeCall(cudaFree((X))); (X) = NULL; }"
            ),
            [
                MacroEffect::Frees { target: 0 },
                MacroEffect::Clears { target: 0 }
            ]
        );
        // a buffer the body names, not a parameter, is no effect through the call
        assert!(macro_effects(&["n"], "cudaMalloc(&d_buf, n)").is_empty());
        assert!(macro_effects(&["X"], "cudaFree(X + 1)").is_empty());
        assert!(macro_effects(&["X", "Y"], "cudaMalloc((void**)X, Y)").is_empty());
    }
}
