//! The error flow of whole files: which launches and returned error codes are checked, where,
//! and by which callers.

use super::{EventKind, Verdict};
use crate::model::index::{CheckHelper, FileIndex, ProjectIndex, Step};
use crate::model::Model;
use std::path::Path;

const KERNEL: &str = "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n";

/// Per event: (kind, name, checked, last, verdict kind).
type EventFlow = (EventKind, String, bool, bool, &'static str);

#[test]
fn tested_synchronizations_are_kept_apart_from_checks() {
    let text = format!(
        "{KERNEL}void f(float* p, cudaStream_t s) {{\n\
             k<<<1, 1>>>(p); CHECK(cudaDeviceSynchronize());\n\
             cudaError_t e = cudaStreamSynchronize(s); if (e) abort();\n\
             cudaDeviceSynchronize();\n\
             }}\n"
    );
    let found = crate::verify::with_model(Path::new("sync.cu"), &text, |model: &Model| {
        let f = &model.errors.functions[0];
        let names: Vec<String> = f
            .tested_synchronizations
            .iter()
            .map(|n| crate::model::host::called_name(*n, model.source).to_string())
            .collect();
        (names, f.flows.first().map(|flow| flow.checked))
    });
    assert_eq!(
        found,
        Some((
            vec![
                "cudaDeviceSynchronize".to_string(),
                "cudaStreamSynchronize".to_string()
            ],
            Some(false)
        ))
    );
}

/// Per host function (by name), its events' flows.
fn flows(source: &str) -> Vec<(String, Vec<EventFlow>)> {
    let text = format!("{KERNEL}{source}");
    crate::verify::with_model(Path::new("flow.cu"), &text, |model: &Model| {
        model
            .errors
            .functions
            .iter()
            .map(|f| {
                let events = f
                    .events
                    .iter()
                    .zip(&f.flows)
                    .zip(&f.verdicts)
                    .map(|((e, flow), verdict)| {
                        (
                            e.kind,
                            e.name.clone(),
                            flow.checked,
                            flow.last,
                            kind(verdict),
                        )
                    })
                    .collect();
                (f.name.clone(), events)
            })
            .collect()
    })
    .unwrap_or_default()
}

fn kind(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Fine => "fine",
        Verdict::NoCallerChecks { callers } if callers.is_empty() => "alone",
        Verdict::NoCallerChecks { .. } => "no caller checks",
        Verdict::CallersMissing => "callers missing",
        Verdict::CallMisses { .. } => "call misses",
    }
}

fn launches_of(
    found: &[(String, Vec<EventFlow>)],
    function: &str,
) -> Vec<(bool, bool, &'static str)> {
    found
        .iter()
        .find(|(name, _)| name == function)
        .map(|(_, events)| {
            events
                .iter()
                .filter(|e| e.0 == EventKind::Launch)
                .map(|e| (e.2, e.3, e.4))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_check_after_the_branches_covers_each_arm_and_what_came_before() {
    let found = flows(
        "void f(float* p, bool a, int op) {\n\
               k<<<1, 1>>>(p);\n\
               if (a) { k<<<1, 1>>>(p); } else { k<<<2, 1>>>(p); }\n\
               CHECK(cudaGetLastError());\n\
               switch (op) { case 0: k<<<1, 1>>>(p); break; case 1: k<<<2, 1>>>(p); break; }\n\
               cudaError_t e = cudaPeekAtLastError(); if (e != cudaSuccess) abort();\n\
             }\n",
    );
    assert_eq!(
        launches_of(&found, "f"),
        [
            (true, false, "fine"),
            (true, false, "fine"),
            (true, false, "fine"),
            (true, true, "fine"),
            (true, true, "fine"),
        ]
    );
}

#[test]
fn a_return_ends_what_can_follow() {
    let found = flows(
        "void f(float* p, bool a) {\n\
               if (a) { k<<<1, 1>>>(p); return; }\n\
               k<<<2, 1>>>(p);\n\
               CHECK(cudaGetLastError());\n\
             }\n",
    );
    // the first launch is left for the callers (none: judged alone), not followed by the second
    assert_eq!(
        launches_of(&found, "f"),
        [(false, true, "alone"), (true, true, "fine")]
    );
}

#[test]
fn only_tests_of_the_last_error_are_checks() {
    let found = flows(
            "#define LAUNCH_CHECK(s) do { cudaError_t e = cudaGetLastError(); if (e) abort(); } while (0)\n\
             void report(const char* what) { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) puts(what); }\n\
             cudaError_t status() { return cudaPeekAtLastError(); }\n\
             bool check_values(const float* h, int n) { return n > 0 && h[0] == 0; }\n\
             void a(float* p, int n) { k<<<1, 1>>>(p); assert(n > 0); }\n\
             void b(float* p, int n) { k<<<1, 1>>>(p); CHECK(n > 0); }\n\
             void c(float* p, float* h, int n) { k<<<1, 1>>>(p); check_values(h, n); }\n\
             void d(float* p) { k<<<1, 1>>>(p); getLastCudaError(\"k failed\"); }\n\
             void e(float* p, cudaStream_t s) { k<<<1, 1, 0, s>>>(p); LAUNCH_CHECK(s); }\n\
             void f(float* p, const char* name) { k<<<1, 1>>>(p); report(name); }\n\
             void g(float* p) { k<<<1, 1>>>(p); CUDA_CHECK(status()); }\n\
             void h(float* p) { k<<<1, 1>>>(p); status(); }\n\
             void i(float* p) { k<<<1, 1>>>(p); cudaCheckError(); }\n\
             void j(float* p) { k<<<1, 1>>>(p); CHECK(cudaDeviceSynchronize()); }\n",
        );
    for (function, checked) in [
        ("a", false),
        ("b", false),
        ("c", false),
        ("d", true),
        ("e", true),
        ("f", true),
        ("g", true),
        ("h", false),
        ("i", true),
        ("j", false),
    ] {
        assert_eq!(
            launches_of(&found, function).first().map(|l| l.0),
            Some(checked),
            "{function}"
        );
    }
    let text = format!(
            "{KERNEL}void report(const char* w) {{ cudaError_t e = cudaGetLastError(); if (e) puts(w); }}\n\
             cudaError_t status() {{ return cudaPeekAtLastError(); }}\n"
        );
    let helpers = crate::verify::with_model(Path::new("h.cu"), &text, |model: &Model| {
        model
            .errors
            .functions
            .iter()
            .map(|f| (f.name.clone(), f.check_helper))
            .collect::<Vec<_>>()
    });
    assert_eq!(
        helpers,
        Some(vec![
            ("report".to_string(), Some(CheckHelper::Reports)),
            ("status".to_string(), Some(CheckHelper::Returns)),
        ])
    );
}

#[test]
fn callers_decide_what_a_launcher_leaves() {
    let found = flows(
        "void launch(float* p) { k<<<1, 1>>>(p); }\n\
             void lone(float* p) { k<<<1, 1>>>(p); }\n\
             void entry(float* p) { k<<<1, 1>>>(p); }\n\
             void a(float* p) { launch(p); CHECK(cudaGetLastError()); }\n\
             void b(float* p) { launch(p); CHECK(cudaGetLastError()); }\n\
             void c(float* p) { launch(p); }\n\
             void d(float* p) { lone(p); cudaDeviceSynchronize(); }\n",
    );
    assert_eq!(
        launches_of(&found, "launch"),
        [(false, true, "callers missing")]
    );
    assert_eq!(
        launches_of(&found, "lone"),
        [(false, true, "no caller checks")]
    );
    assert_eq!(launches_of(&found, "entry"), [(false, true, "alone")]);
    let calls = |function: &str| -> Vec<&'static str> {
        found
            .iter()
            .find(|(name, _)| name == function)
            .map(|(_, events)| events.iter().map(|e| e.4).collect())
            .unwrap_or_default()
    };
    assert_eq!(calls("c"), ["call misses"]);
    assert_eq!(calls("a"), ["fine"]);
}

#[test]
fn a_caller_that_calls_last_leaves_it_to_its_own_callers() {
    let found = flows(
        "void launch(float* p) { k<<<1, 1>>>(p); }\n\
             void middle(float* p) { launch(p); }\n\
             void top(float* p) { middle(p); CHECK(cudaGetLastError()); }\n",
    );
    assert_eq!(launches_of(&found, "launch"), [(false, true, "fine")]);
}

#[test]
fn a_table_of_launchers_is_called_through() {
    let found = flows(
            "static void a(float* p) { k<<<1, 1>>>(p); }\n\
             static void b(float* p) { k<<<2, 1>>>(p); }\n\
             static void (*const table[])(float*) = {a, b};\n\
             void run(int op, float* p) { table[op](p); CHECK(cudaGetLastError()); }\n\
             void run_one(bool first, float* p) { auto fn = first ? a : b; fn(p); CHECK(cudaGetLastError()); }\n",
        );
    assert_eq!(launches_of(&found, "a"), [(false, true, "fine")]);
    assert_eq!(launches_of(&found, "b"), [(false, true, "fine")]);
}

/// What a file offers: its launchers, and each call out of it with the steps after it; the
/// callee's file reads the steps with what the index says of the calls in them.
#[test]
fn calls_into_another_file_are_judged_there() {
    let offers = |path: &str, source: &str| -> FileIndex {
        crate::verify::with_model(Path::new(path), source, |model: &Model| model.file_index())
            .unwrap_or_default()
    };
    let kernels = offers(
            "split/kernels.cu",
            &format!("{KERNEL}void launch(float* p) {{ k<<<1, 1>>>(p); }}\nvoid other(float* p) {{ k<<<2, 1>>>(p); }}\n"),
        );
    assert_eq!(kernels.error_functions.len(), 2);
    assert_eq!(kernels.error_functions[0].pending, [("k".to_string(), 2)]);
    let main_text =
        "void main_loop(float* p) { launch(p); other(p); CHECK(cudaGetLastError()); }\n";
    let main = offers("split/main.cu", main_text);
    let first = &main.error_calls[0];
    assert_eq!(first.callee, "launch");
    assert_eq!(
        first.following,
        [
            Step::Call {
                callee: "other".into(),
                arity: 1,
                result_tested: false,
                configured: false,
                checks_undefined: false
            },
            Step::Check
        ]
    );
    // with both files, `other` launches, and the check after it still reads what `launch`
    // left (a launch error stays the last error until something reads it)
    let index = ProjectIndex::new(vec![kernels, main]);
    let text = format!("{KERNEL}void launch(float* p) {{ k<<<1, 1>>>(p); }}\nvoid other(float* p) {{ k<<<2, 1>>>(p); }}\n");
    let view = crate::source::preprocess(&text, &[]);
    let tree = crate::engine::parse(&view.text, None).unwrap_or_else(|| panic!("parse"));
    let lines = crate::source::LineIndex::new(&text);
    let path = Path::new("split/kernels.cu");
    let model = Model::build_reusing(
        path,
        &text,
        &view,
        &tree,
        &lines,
        &[],
        true,
        &index,
        &mut crate::model::AnalyseAll,
    );
    let verdicts: Vec<&'static str> = model
        .errors
        .functions
        .iter()
        .map(|f| kind(&f.verdicts[0]))
        .collect();
    assert_eq!(verdicts, ["fine", "fine"]);
}
