//! What a host function does with the pointers it is given, read from its own events: a
//! `free_buffer(p)` that releases its parameter, a launcher or a validation helper that only
//! copies, clears or launches on it, or code the model cannot follow. A call of the function
//! applies the answer to the caller's variable (`ParameterUse`), so handing a buffer to a
//! launcher is not handing it over.

use super::helpers::{declarator_marks, ParameterUse};
use super::*;

/// How a mention of a parameter outside its events uses it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mention {
    /// Compared, tested, measured or printed: the buffer is not touched.
    Inspected,
    /// Dereferenced on the host (`p[i]`, `*p`): read or written there.
    Accessed,
    /// Anything else: stored, offset into a local, handed to code the model does not follow.
    Kept,
}

impl<'m, 't> Builder<'m, 't> {
    /// Per parameter of this function, what it does with the pointer its caller passes.
    pub(super) fn parameter_uses(&self) -> Vec<ParameterUse> {
        (0..self.function.parameters.len())
            .map(|position| self.parameter_use(position))
            .collect()
    }

    fn parameter_use(&self, position: usize) -> ParameterUse {
        let Some(parameter) = self.function.parameters.get(position) else {
            return ParameterUse::Unknown;
        };
        // parameters are the first variables, in order; a name declared again inside the
        // function is no longer resolved by name and its events would be missing
        let tracked = self.by_name.get(&parameter.name) == Some(&position);
        if !parameter.is_pointer || !tracked {
            return ParameterUse::Unknown;
        }
        let events: Vec<&Event<'t>> = self.out.events_of(position).collect();
        let frees: Vec<&Event<'t>> = events
            .iter()
            .copied()
            .filter(|e| matches!(e.kind, EventKind::Freed { .. }))
            .collect();
        let (_, reference) = declarator_marks(self.source, parameter);
        let mut nulls = false;
        for event in &events {
            match event.kind {
                EventKind::Nulled
                    if frees
                        .iter()
                        .any(|f| f.node.end_byte() <= event.node.start_byte()) =>
                {
                    nulls |= reference && !event.conditional;
                }
                EventKind::Escaped
                | EventKind::AddressTaken
                | EventKind::Assigned
                | EventKind::Nulled
                | EventKind::Allocated { .. } => return ParameterUse::Unknown,
                _ => {}
            }
        }
        let mut accessed = false;
        for position_used in self.uses.get(parameter.name.as_str()).into_iter().flatten() {
            let in_event = events
                .iter()
                .any(|e| e.node.byte_range().contains(position_used));
            if in_event {
                continue;
            }
            match self.mention(*position_used) {
                Mention::Inspected => {}
                Mention::Accessed => accessed = true,
                Mention::Kept => return ParameterUse::Unknown,
            }
        }
        if !frees.is_empty() {
            let every_path = frees
                .iter()
                .all(|f| !f.conditional || self.guarded_by_null_test(f, &parameter.name));
            if !every_path {
                return ParameterUse::Unknown;
            }
            let device = frees
                .iter()
                .all(|f| matches!(f.kind, EventKind::Freed { device: true }));
            return ParameterUse::Frees { device, nulls };
        }
        let mut writes = accessed;
        let mut reads = None;
        for event in &events {
            let (event_reads, event_writes) = match &event.kind {
                // a copy out of it neither writes it nor is a kernel's read
                EventKind::Read { .. } => (false, false),
                EventKind::Written { .. } => (false, true),
                EventKind::Launched {
                    launch, argument, ..
                } => {
                    let parameter = self
                        .out
                        .launches
                        .get(*launch)
                        .and_then(|l| self.model.host.kernel(&l.kernel, l.arguments.len()))
                        .and_then(|k| k.parameters.get(*argument));
                    let whole = matches!(event.kind, EventKind::Launched { whole: true, .. });
                    match parameter {
                        Some(p) => (whole && p.reads && !p.plain_writes, !p.is_const),
                        None => (false, true),
                    }
                }
                EventKind::Borrowed { reads, writes } => (*reads, *writes),
                _ => (false, false),
            };
            writes |= event_writes;
            if reads.is_none() && (event_reads || event_writes) {
                reads = Some(event_reads && !event.conditional && !accessed);
            }
        }
        ParameterUse::Borrows {
            reads: reads.unwrap_or(false),
            writes,
        }
    }

    /// How the identifier at `position` is used, judged by what encloses it.
    fn mention(&self, position: usize) -> Mention {
        let Some(node) = self
            .function
            .body
            .descendant_for_byte_range(position, position)
            .filter(|n| n.node_kind() == "identifier")
        else {
            return Mention::Kept;
        };
        let mut child = node;
        let mut parent = node.up();
        // `(p)`, `(float*)p`: what the cast or parentheses are used for
        while let Some(p) = parent {
            if !matches!(
                p.node_kind(),
                "parenthesized_expression" | "cast_expression"
            ) {
                break;
            }
            child = p;
            parent = p.up();
        }
        let Some(parent) = parent else {
            return Mention::Kept;
        };
        match parent.node_kind() {
            "subscript_expression" if parent.field("argument") == Some(child) => Mention::Accessed,
            "pointer_expression" if operator(parent, self.source) == "*" => Mention::Accessed,
            "binary_expression"
                if matches!(
                    operator(parent, self.source),
                    "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||"
                ) =>
            {
                Mention::Inspected
            }
            "unary_expression" if operator(parent, self.source) == "!" => Mention::Inspected,
            "condition_clause" | "sizeof_expression" => Mention::Inspected,
            "argument_list" => {
                let printed = parent.up().is_some_and(|call| {
                    matches!(call_name(call, self.source), "printf" | "fprintf")
                });
                if printed {
                    Mention::Inspected
                } else {
                    Mention::Kept
                }
            }
            _ => Mention::Kept,
        }
    }

    /// Whether a conditional free sits directly under `if (p)` / `if (p != nullptr)`: it frees
    /// on every path where there is something to free.
    fn guarded_by_null_test(&self, free: &Event<'t>, name: &str) -> bool {
        let Some(branch) = free.region.up() else {
            return false;
        };
        if branch.node_kind() != "if_statement" || branch.field("consequence") != Some(free.region)
        {
            return false;
        }
        // the test itself runs on every path through the function
        if branch.up() != Some(self.function.body) {
            return false;
        }
        let Some(condition) = branch.field("condition") else {
            return false;
        };
        let compact: String = self
            .text(condition)
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '(' | ')'))
            .collect();
        [
            name.to_string(),
            format!("{name}!=nullptr"),
            format!("{name}!=NULL"),
            format!("{name}!=0"),
            format!("nullptr!={name}"),
            format!("NULL!={name}"),
        ]
        .contains(&compact)
    }
}

#[cfg(test)]
mod tests {
    use crate::model::host::{EventKind, ParameterUse};

    /// The events `function` records, as (variable, kind) in source order.
    fn events_of(source: &str, function: &str) -> Vec<(String, String)> {
        crate::testing::with_host_function("parameters.cu", source, function, |_, host| {
            host.events
                .iter()
                .map(|e| {
                    let kind = match &e.kind {
                        EventKind::Borrowed { reads, writes } => {
                            format!("borrowed reads={reads} writes={writes}")
                        }
                        EventKind::Freed { device } => format!("freed device={device}"),
                        other => format!("{other:?}")
                            .split([' ', '{'])
                            .next()
                            .unwrap_or("")
                            .to_string(),
                    };
                    (host.variables[e.variable].name.clone(), kind)
                })
                .collect()
        })
    }

    const KERNELS: &str = "__global__ void fill(float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1.0f; }\n\
        __global__ void copy(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }\n";

    #[test]
    fn calls_of_this_files_functions_free_or_borrow_their_arguments() {
        let source = format!(
            "{KERNELS}\
             void release(float* p) {{ if (p) cudaFree(p); }}\n\
             void release_and_null(float*& p) {{ cudaFree(p); p = nullptr; }}\n\
             void init(float* p, int n) {{ fill<<<(n + 255) / 256, 256>>>(p, n); }}\n\
             void run(const float* in, float* out, int n) {{ copy<<<(n + 255) / 256, 256>>>(in, out, n); }}\n\
             bool verify(const float* d, const float* ref, int n) {{ float* h = (float*)malloc(n * 4); cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost); bool ok = h[0] == ref[0]; free(h); return ok; }}\n\
             float* g_keep;\n\
             void keep(float* p) {{ g_keep = p; }}\n\
             void f(const float* ref, int n) {{ float *a, *b, *c; cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&c, n * 4);\n\
               init(a, n); run(a, b, n); verify(b, ref, n); keep(c); release(a); release_and_null(b); }}\n"
        );
        let events = events_of(&source, "f");
        let of = |name: &str| -> Vec<String> {
            events
                .iter()
                .filter(|(v, _)| v == name)
                .map(|(_, k)| k.clone())
                .collect()
        };
        assert_eq!(
            of("a"),
            [
                "Allocated",
                "borrowed reads=false writes=true",
                "borrowed reads=true writes=false",
                "freed device=true"
            ]
        );
        assert_eq!(
            of("b"),
            [
                "Allocated",
                "borrowed reads=false writes=true",
                "borrowed reads=false writes=false",
                "freed device=true",
                "Nulled"
            ]
        );
        assert_eq!(of("c"), ["Allocated", "Escaped"]);
    }

    #[test]
    fn a_conditional_free_is_not_a_free_on_every_path() {
        let source = "void maybe(float* p, bool owns) { if (owns) cudaFree(p); }\n\
            void f(int n, bool owns) { float* a; cudaMalloc(&a, n * 4); maybe(a, owns); }\n";
        assert_eq!(events_of(source, "f")[1].1, "Escaped");
        let _ = ParameterUse::Unknown;
    }
}
