//! Device resets in a function's callers. `cudaDeviceReset()` destroys the device's context and
//! every allocation on it, so a reset that runs after every call of a function releases what
//! the function left allocated, as a reset in the function itself would: `gpu_memory_malloc();
//! ...; cudaDeviceReset();` in `main`, or `addWithCuda(c, a, b); cudaDeviceReset();`. The pass
//! reads every host function of the file, whatever an editor reuses.

use super::*;

/// The file's functions whose every call is followed by a device reset in the caller, and those
/// that end in a reset themselves.
#[derive(Debug, Default)]
pub struct CallerResets<'t> {
    /// By function name: the reset after its first call.
    released: HashMap<String, Node<'t>>,
    /// By function name: a reset the function makes on every path through it, with no return
    /// before it (a teardown that frees some buffers and resets the device for the rest).
    resetting: HashMap<String, Node<'t>>,
}

impl<'t> CallerResets<'t> {
    /// The reset in a caller that releases what a call of `function` leaves allocated, when
    /// every call of it in the file is followed by one.
    pub fn releasing(&self, function: &str) -> Option<Node<'t>> {
        self.released.get(function).copied()
    }

    /// The reset `function` makes on every path through it, when it makes one.
    pub fn reset_in(&self, function: &str) -> Option<Node<'t>> {
        self.resetting.get(function).copied()
    }

    /// The functions released so, then those that reset the device themselves, each in name
    /// order (what reused findings depend on).
    pub(super) fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.released.keys().map(String::as_str).collect();
        names.sort_unstable();
        let mut resetting: Vec<&str> = self.resetting.keys().map(String::as_str).collect();
        resetting.sort_unstable();
        names.push("");
        names.extend(resetting);
        names
    }
}

/// One call of a function of the file: whether a reset of its caller runs after it on every
/// path.
pub(super) fn collect<'t>(model: &Model<'t>) -> CallerResets<'t> {
    let source = model.source;
    if !source.contains("DeviceReset") && !source.contains("cudaThreadExit") {
        return CallerResets::default();
    }
    let names: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
    let mut verdicts: HashMap<&str, Option<Node<'t>>> = HashMap::default();
    let mut resetting: HashMap<String, Node<'t>> = HashMap::default();
    for caller in &model.functions {
        if caller.kind != FunctionKind::Host || caller.has_parse_errors {
            continue;
        }
        let mut calls: Vec<(&str, Node<'t>)> = Vec::new();
        let mut resets: Vec<Node<'t>> = Vec::new();
        let mut returns: Vec<Node<'t>> = Vec::new();
        walk_iterative(caller.body, |node| {
            match node.node_kind() {
                "lambda_expression" => return false,
                "return_statement" => returns.push(node),
                "call_expression" => {
                    let name = callee(node, source);
                    if matches!(
                        name,
                        "cudaDeviceReset" | "hipDeviceReset" | "cudaThreadExit"
                    ) {
                        if runs_unconditionally(node, caller.body) {
                            resets.push(node);
                        }
                    } else if names.contains(name) && name != caller.name {
                        calls.push((name, node));
                    }
                }
                _ => {}
            }
            true
        });
        // in `main` a `return` ends the process, which releases everything as well
        let is_main = caller.name == "main";
        if let Some(reset) = resets
            .iter()
            .copied()
            .find(|reset| !returns.iter().any(|r| r.end_byte() <= reset.start_byte()))
        {
            resetting.entry(caller.name.clone()).or_insert(reset);
        }
        for (name, call) in calls {
            let reset = resets.iter().copied().find(|reset| {
                call.end_byte() <= reset.start_byte()
                    && (is_main
                        || !returns.iter().any(|r| {
                            call.end_byte() <= r.start_byte() && r.end_byte() <= reset.start_byte()
                        }))
            });
            // a call repeated by a loop leaks on every trip until the reset
            let reset = reset.filter(|_| !in_loop(call, caller.body));
            let verdict = verdicts.entry(name).or_insert(reset);
            if reset.is_none() {
                *verdict = None;
            }
        }
    }
    CallerResets {
        released: verdicts
            .into_iter()
            .filter_map(|(name, reset)| Some((name.to_string(), reset?)))
            .collect(),
        resetting,
    }
}

/// The name a call calls: `f(...)`, `ns::f(...)`, `object.f(...)`, `object->f(...)`.
fn callee<'a>(call: Node, source: &'a str) -> &'a str {
    match call.field("function") {
        Some(function) if function.node_kind() == "field_expression" => function
            .field("field")
            .map(|f| text(f, source))
            .unwrap_or(""),
        _ => call_name(call, source),
    }
}

/// Whether `node` runs whenever `body` does: no branch, loop or jump around it, only
/// statements, checks wrapping the call (`CUDA_CHECK(cudaDeviceReset())`) and assignments of
/// its result.
fn runs_unconditionally(node: Node, body: Node) -> bool {
    let mut current = node;
    for _ in 0..16 {
        let Some(parent) = current.up() else {
            return false;
        };
        if parent.id() == body.id() {
            return true;
        }
        if !matches!(
            parent.node_kind(),
            "expression_statement"
                | "call_expression"
                | "argument_list"
                | "parenthesized_expression"
                | "assignment_expression"
                | "init_declarator"
                | "declaration"
                | "cast_expression"
        ) {
            return false;
        }
        current = parent;
    }
    false
}

/// Whether `node` sits in a loop of `body`.
fn in_loop(node: Node, body: Node) -> bool {
    let mut current = node;
    while let Some(parent) = current.up() {
        if parent.id() == body.id() {
            return false;
        }
        if matches!(
            parent.node_kind(),
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
        ) {
            return true;
        }
        current = parent;
    }
    false
}

#[cfg(test)]
mod tests {
    /// The functions every call of which a caller's reset follows, with the line of that reset.
    fn released(source: &str) -> Vec<(String, usize)> {
        crate::verify::with_model(std::path::Path::new("resets.cu"), source, |model| {
            let mut out: Vec<(String, usize)> = model
                .functions
                .iter()
                .filter_map(|f| {
                    let reset = model.host.caller_resets.releasing(&f.name)?;
                    Some((f.name.clone(), reset.start_position().row + 1))
                })
                .collect();
            out.sort();
            out
        })
        .expect("parses")
    }

    #[test]
    fn a_function_that_resets_on_every_path_is_known_to_reset() {
        let resetting = |source: &str| {
            crate::verify::with_model(std::path::Path::new("resets.cu"), source, |model| {
                let mut names: Vec<String> = model
                    .functions
                    .iter()
                    .filter(|f| model.host.caller_resets.reset_in(&f.name).is_some())
                    .map(|f| f.name.clone())
                    .collect();
                names.sort();
                names
            })
            .expect("parses")
        };
        let source = "float *d_a, *d_b;\n\
            void stop() { cudaFree(d_a); CUDA_CHECK(cudaDeviceReset()); }\n\
            void stop_early(int n) { cudaFree(d_a); if (n) return; cudaDeviceReset(); }\n\
            void stop_on_error() { if (cudaGetLastError()) cudaDeviceReset(); }\n";
        assert_eq!(resetting(source), ["stop"]);
    }

    #[test]
    fn a_reset_after_every_call_releases_what_the_function_allocated() {
        let source = "void setup(float** d) { cudaMalloc(d, 64); }\n\
            void alloc_all() { float* d; cudaMalloc(&d, 64); }\n\
            struct W { float* d_; void Init(); };\n\
            void W::Init() { cudaMalloc(&d_, 64); }\n\
            int main(int argc, char** argv) {\n\
              alloc_all();\n\
              W* w = new W; w->Init();\n\
              if (argc > 2) return 1;\n\
              CUDA_CHECK(cudaDeviceReset());\n\
              return 0;\n\
            }\n";
        assert_eq!(
            released(source),
            [("Init".to_string(), 9), ("alloc_all".to_string(), 9)]
        );
        // a call with no reset after it, one in a loop, one whose caller returns before its
        // reset, and a reset only on an error path release nothing
        for caller in [
            "void run() { alloc_all(); }\nvoid other() { alloc_all(); cudaDeviceReset(); }",
            "int main() { for (int i = 0; i < 4; i++) alloc_all(); cudaDeviceReset(); }",
            "void run(int n) { alloc_all(); if (n) return; cudaDeviceReset(); }",
            "void run() { alloc_all(); if (cudaGetLastError()) cudaDeviceReset(); }",
        ] {
            let source = format!("void alloc_all() {{ float* d; cudaMalloc(&d, 64); }}\n{caller}");
            assert!(released(&source).is_empty(), "{caller}");
        }
    }
}
