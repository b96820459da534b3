//! The language server's incremental lint (a kept tree, findings of unchanged functions reused)
//! gives exactly the diagnostics of a fresh lint of the same text, edit after edit.

use cudalint::config::Settings;
use cudalint::diagnostic::Diagnostic;
use cudalint::engine;
use cudalint::incremental::{relint, Kept};
use std::path::Path;

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Host and kernel code with findings of every rule: the fixtures of the bad cases.
fn mixed_file() -> String {
    let mut text = String::new();
    let mut names: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bad"))
            .unwrap_or_else(|e| panic!("testdata/bad: {e}"))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .collect();
    names.sort();
    // its findings sit in `__device__` functions, which keep no findings between lints: an edit
    // of a file holding them is linted whole (`a_finding_in_a_device_function_is_linted_whole`)
    names.retain(|name| !name.ends_with("legacy_warp_intrinsic.cu"));
    for name in names {
        text.push_str(&std::fs::read_to_string(&name).unwrap_or_else(|e| panic!("{e}")));
        text.push('\n');
    }
    text.push_str(&repo_file("testdata/clean/helpers_and_error_handling.cu"));
    text
}

/// Code typed at random places: statements, declarations, whole functions.
const FRAGMENTS: &[&str] = &[
    "if (i < n) ",
    "if (i >= n) return;\n",
    ";",
    "\n",
    "  ",
    "o[i] = 1;",
    "in[i + 1]",
    "__syncthreads();",
    "#define N 64\n",
    " // cudalint: ignore[unguarded-thread-index]",
    " // cudalint: ignore[double-free]",
    "cudaFree(d);",
    "float* d; cudaMalloc(&d, n * sizeof(float));",
    "cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);",
    "k<<<1, 256>>>(d, n);",
    "cudaGetLastError();",
    "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 0; }\n",
    "__global__ void k(const float* o, int n) { int i = threadIdx.x; if (i < n) { float v = o[i]; } }\n",
    "void host(int n) { float* d; cudaMalloc(&d, n); k<<<1, 1>>>(d, n); }\n",
    "cudaError_t cudaMalloc(void** p, size_t n) { return cudaSuccess; }\n",
    "template <typename T>\n",
    "__device__ ",
    "__global__ ",
    "static ",
    "é",
    "i",
    "n",
];

/// Code that breaks the structure around it; undone by the next edit, as a typist closes what
/// they opened.
const BREAKING: &[&str] = &[
    "{", "}", "(", ")", "/*", "\"", "#if 0\n", "#else\n", "#endif\n",
];

fn char_boundary(text: &str, rng: &mut fastrand::Rng) -> usize {
    let mut offset = rng.usize(..=text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Up to `chars` characters from `start`.
fn span(text: &str, start: usize, chars: usize) -> usize {
    let mut end = start;
    for _ in 0..chars {
        match text[end..].chars().next() {
            Some(c) => end += c.len_utf8(),
            None => break,
        }
    }
    end
}

/// Whether text holds a character that can unbalance what is around it.
fn structural(text: &str) -> bool {
    text.contains(['{', '}', '(', ')', '"', '\'', '/', '*', '#', '\\'])
}

/// An offset where a statement or declaration may start: a line start or after `;`, `{`, `}`.
fn statement_boundary(text: &str, rng: &mut fastrand::Rng) -> usize {
    let offset = char_boundary(text, rng);
    text[..offset]
        .rfind(['\n', ';', '{', '}'])
        .map(|i| i + 1)
        .unwrap_or(0)
}

/// One random edit: typed code where a statement may start, a deletion, a copy of whole lines
/// elsewhere (a duplicated function: the same text at another place), or code that breaks what
/// follows. Returns whether to undo the edit next, as a typist closes what they opened: edits
/// that may unbalance braces, comments or `#if` are (typed fragments are balanced, copied lines
/// need not be), so the file keeps most of its functions.
fn random_edit(text: &mut String, rng: &mut fastrand::Rng) -> bool {
    let (start, end, inserted, breaking) = match rng.u32(..20) {
        0..=10 => {
            let at = statement_boundary(text, rng);
            (
                at,
                at,
                FRAGMENTS[rng.usize(..FRAGMENTS.len())].to_string(),
                false,
            )
        }
        11..=13 => {
            let at = char_boundary(text, rng);
            (at, span(text, at, rng.usize(1..12)), String::new(), false)
        }
        14..=15 => {
            let from = text[..char_boundary(text, rng)]
                .rfind('\n')
                .map(|i| i + 1)
                .unwrap_or(0);
            let to = text[from..]
                .match_indices('\n')
                .nth(rng.usize(..12))
                .map(|(i, _)| from + i + 1)
                .unwrap_or(text.len());
            let at = text[..char_boundary(text, rng)]
                .rfind('\n')
                .map(|i| i + 1)
                .unwrap_or(0);
            (at, at, text[from..to].to_string(), false)
        }
        _ => {
            let at = char_boundary(text, rng);
            (
                at,
                at,
                BREAKING[rng.usize(..BREAKING.len())].to_string(),
                true,
            )
        }
    };
    let undo = breaking || structural(&text[start..end]) || structural(&inserted);
    text.replace_range(start..end, &inserted);
    undo
}

/// What the server does on a change, as `relint` runs it for the lint thread.
fn lint_edit(kept: Option<Kept>, text: &str, settings: &Settings) -> (Kept, Vec<Diagnostic>) {
    let (kept, outcome) = relint(kept, Path::new("edited.cu"), text, settings);
    (kept.unwrap_or_else(|| panic!("parse")), outcome.diagnostics)
}

const EDITS: usize = 400;

#[test]
fn incremental_lint_equals_fresh_lint_after_random_edits() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    let mut text = mixed_file();
    let mut rng = fastrand::Rng::with_seed(0x01ec_7a11);
    let (mut document, first) = lint_edit(None, &text, &settings);
    assert_eq!(first, engine::lint_text(path, &text, &settings).diagnostics);
    let (mut reused, mut compared) = (0, 0);
    let mut before_breaking = None;
    for edit in 0..EDITS {
        match before_breaking.take() {
            Some(unbroken) => text = unbroken,
            None => {
                let unbroken = text.clone();
                if random_edit(&mut text, &mut rng) {
                    before_breaking = Some(unbroken);
                }
            }
        }
        let (next, incremental) = lint_edit(Some(document), &text, &settings);
        document = next;
        let fresh = engine::lint_text(path, &text, &settings).diagnostics;
        assert_eq!(incremental, fresh, "after edit {edit}; text:\n{text}");
        let stats = document.last_lint();
        assert!(
            !stats.fell_back,
            "a finding outside its function after edit {edit}:\n{text}"
        );
        reused += stats.reused;
        compared += fresh.len();
    }
    assert!(compared >= EDITS * 20, "only {compared} findings compared");
    assert!(
        reused >= EDITS * 40,
        "only {reused} functions reused over {EDITS} edits"
    );
}

#[test]
fn a_finding_in_a_device_function_is_linted_whole() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    let mut text = repo_file("testdata/bad/legacy_warp_intrinsic.cu");
    let (mut document, first) = lint_edit(None, &text, &settings);
    assert!(first.iter().any(|d| d.rule == "legacy-warp-intrinsic"));
    assert_eq!(first, engine::lint_text(path, &text, &settings).diagnostics);
    for (at, typed) in [
        (0, "\n"),
        (0, "// a comment\n"),
        (0, "#include <cuda_runtime.h>\n"),
    ] {
        text.insert_str(at, typed);
        let (next, incremental) = lint_edit(Some(document), &text, &settings);
        document = next;
        assert_eq!(
            incremental,
            engine::lint_text(path, &text, &settings).diagnostics
        );
        assert!(
            document.last_lint().fell_back,
            "a device function's finding was kept"
        );
    }
}

#[test]
fn an_edit_in_one_function_reanalyses_only_it_and_what_reads_it() {
    let settings = Settings::every_rule();
    let kernel = "__global__ void k(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }\n";
    let host = "void f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); k<<<1, 1>>>(a, b, n); }\n";
    let other = "void g(int n) { float* d; cudaMalloc(&d, n); cudaFree(d); cudaFree(d); }\n";
    let text = format!("{kernel}{host}{other}");
    let (document, _) = lint_edit(None, &text, &settings);
    assert_eq!(document.last_lint().analysed, 3);

    // inside `g`: only `g` is analysed again, its double free moves with the inserted text
    let edited = text.replacen("cudaFree(d); cudaFree(d);", "cudaFree(d);  cudaFree(d);", 1);
    let (document, diagnostics) = lint_edit(Some(document), &edited, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(Path::new("edited.cu"), &edited, &settings).diagnostics
    );
    let stats = document.last_lint();
    assert_eq!((stats.analysed, stats.reused), (1, 2));

    // text above everything: all functions move, none is analysed again
    let moved = format!("// a comment\n{edited}");
    let (document, diagnostics) = lint_edit(Some(document), &moved, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(Path::new("edited.cu"), &moved, &settings).diagnostics
    );
    let stats = document.last_lint();
    assert_eq!((stats.analysed, stats.reused), (0, 3));

    // the kernel now writes `in` first: its summary changes, so `f` (which launches it) is
    // analysed again and `g` is not
    let rewritten = moved.replace("out[i] = in[i];", "in[i] = 0; out[i] = in[i];");
    let (document, diagnostics) = lint_edit(Some(document), &rewritten, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(Path::new("edited.cu"), &rewritten, &settings).diagnostics
    );
    let stats = document.last_lint();
    assert_eq!((stats.analysed, stats.reused), (2, 1));

    // a `#define` changes what every function may read: all analysed again
    let defined = format!("#define N 4\n{rewritten}");
    let (document, _) = lint_edit(Some(document), &defined, &settings);
    assert_eq!(document.last_lint().reused, 0);
}

/// Text outside a function can change how it reads: a qualifier macro decides whether it is a
/// kernel or host code, and a macro the view blanks inside it changes its parse, while its own
/// text stays the same.
#[test]
fn what_a_function_reads_outside_its_text_is_part_of_its_key() {
    let path = Path::new("edited.cu");
    let check = |kept: Option<Kept>, text: &str, settings: &Settings| {
        let (kept, diagnostics) = lint_edit(kept, text, settings);
        assert_eq!(
            diagnostics,
            engine::lint_text(path, text, settings).diagnostics,
            "{text}"
        );
        kept
    };
    let settings = Settings::every_rule();
    // the qualifier macros are blanked in the view, so the definition starts at `void`
    let kernel = "void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 0; float* d; cudaMalloc(&d, 4); }\n";
    let kernel_text = format!("CUTLASS_GLOBAL {kernel}");
    let host_text = format!("CUTE_HOST {kernel}");
    let kept = check(None, &kernel_text, &settings);
    let kept = check(Some(kept), &host_text, &settings);
    check(Some(kept), &kernel_text, &settings);

    // a qualifier macro from the configuration: the same text, another view
    let text = "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; BLANKED o[i] = 0; }\n";
    let blanking = Settings {
        qualifier_macros: vec!["BLANKED".into()],
        ..Settings::every_rule()
    };
    let kept = check(None, text, &blanking);
    let kept = check(Some(kept), text, &settings);
    check(Some(kept), text, &blanking);
}

/// `defines` from the configuration choose `#if` branches in the editor as in `cudalint check`.
#[test]
fn configured_defines_choose_branches() {
    let text = "__global__ void k(float* o, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n#if MODE == 2\n  if (i < n) o[i] = 0;\n#else\n  o[i] = 0;\n#endif\n}\n";
    let settings = Settings {
        defines: vec!["MODE=1".into()],
        ..Settings::default()
    };
    let expected = engine::lint_text(Path::new("edited.cu"), text, &settings).diagnostics;
    assert_eq!(
        expected.len(),
        1,
        "the #else branch is linted: {expected:?}"
    );
    let (_, diagnostics) = lint_edit(None, text, &settings);
    assert_eq!(diagnostics, expected);
}

/// A host finding's label in the kernel it launches follows the kernel when the kernel moves, and
/// an edit to an allocation helper re-analyses its callers.
#[test]
fn labels_in_a_launched_kernel_and_helper_summaries_stay_current() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    let kernel = "__global__ void k(int* c) { c[6] = 1; }\n";
    let helper = "int* make(size_t n) { int* p; cudaMalloc(&p, n * sizeof(int)); return p; }\n";
    let host = "void f(const int* h) { int* d = make(4); cudaMemcpy(d, h, 4 * sizeof(int), cudaMemcpyHostToDevice); k<<<1, 1>>>(d); cudaGetLastError(); cudaFree(d); }\n";
    let text = format!("{kernel}{helper}{host}");
    let (document, first) = lint_edit(None, &text, &settings);
    assert_eq!(first, engine::lint_text(path, &text, &settings).diagnostics);
    let slot = first
        .iter()
        .find(|d| d.rule == "out-of-range-access")
        .unwrap_or_else(|| panic!("no constant-slot finding: {first:?}"));
    assert!(slot.labels.iter().any(|l| &text[l.span.clone()] == "c[6]"));

    // the helper and the host move, the kernel does not: the label stays on `c[6]`
    let moved = format!("{kernel}// the helper\n{helper}{host}");
    let (document, diagnostics) = lint_edit(Some(document), &moved, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &moved, &settings).diagnostics
    );
    let stats = document.last_lint();
    assert_eq!(
        (stats.analysed, stats.reused, stats.fell_back),
        (0, 3, false)
    );

    // the helper now allocates half: its caller is analysed again and the copy is too large
    let halved = moved.replace("n * sizeof(int))", "n * sizeof(int) / 2)");
    let (document, diagnostics) = lint_edit(Some(document), &halved, &settings);
    let fresh = engine::lint_text(path, &halved, &settings).diagnostics;
    assert_eq!(diagnostics, fresh);
    assert!(fresh.iter().any(|d| d.rule == "alloc-smaller-than-copy"));
    let stats = document.last_lint();
    assert_eq!((stats.analysed, stats.reused), (2, 1));

    // the kernel's access moves inside it: its summary changes and the launch is analysed again
    let shifted = halved.replace("{ c[6] = 1; }", "{ c[0] = 0; c[6] = 1; }");
    let (document, diagnostics) = lint_edit(Some(document), &shifted, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &shifted, &settings).diagnostics
    );
    assert_eq!(document.last_lint().analysed, 2);
}

/// A kernel reads the summaries of the device functions it calls: editing one analyses again the
/// kernels that call it (and no other), and a finding's label inside the helper moves with the
/// helper, not with the kernel.
#[test]
fn editing_a_helper_reanalyses_the_kernels_that_call_it() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    let helper = "__device__ void put(float* p, int i, float v) { p[i] = v; }\n";
    let caller = "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; put(o, i, 1.0f); }\n";
    let other = "__global__ void q(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 0; }\n";
    let step = |kept: Option<Kept>, text: &str| {
        let (kept, diagnostics) = lint_edit(kept, text, &settings);
        assert_eq!(
            diagnostics,
            engine::lint_text(path, text, &settings).diagnostics,
            "{text}"
        );
        let stats = kept.last_lint();
        assert!(!stats.fell_back, "{text}");
        (kept, diagnostics, (stats.analysed, stats.reused))
    };
    let text = format!("{helper}{caller}{other}");
    let (kept, found, _) = step(None, &text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].rule, "unguarded-thread-index");
    let label_at = |d: &Diagnostic, t: &str| {
        d.labels
            .iter()
            .any(|l| t.get(l.span.clone()) == Some("p[i]"))
    };
    assert!(label_at(&found[0], &text), "{found:?}");

    // the helper guards its access now: `k` is analysed again and its finding is gone; `q` is not
    let guarded = text.replace("{ p[i] = v; }", "{ if (i < 4096) p[i] = v; }");
    let (kept, found, counts) = step(Some(kept), &guarded);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(counts, (1, 1));

    // and back
    let (kept, found, counts) = step(Some(kept), &text);
    assert_eq!((found.len(), counts), (1, (1, 1)));

    // a helper edit that leaves its summary as it was: nothing analysed again
    let spaced = text.replace("p[i] = v; }", "p[i] = v;   }");
    let (kept, _, counts) = step(Some(kept), &spaced);
    assert_eq!(counts, (0, 2));

    // text between the helper and the kernel, then the helper after the kernel: the kernel's
    // finding is reused, its label found in the helper where the helper now is
    let between = format!("{helper}// between\n{caller}{other}");
    let (kept, found, counts) = step(Some(kept), &between);
    assert_eq!(counts, (0, 2));
    assert!(label_at(&found[0], &between), "{found:?}");
    let after = format!("{caller}{other}{helper}");
    let (_, found, counts) = step(Some(kept), &after);
    assert_eq!(counts, (0, 2));
    assert!(label_at(&found[0], &after), "{found:?}");
}

/// The launch sites of unchanged functions are kept between lints: an edit of one launch's grid
/// reads that launch again (and analyses its kernel again), an edit of another kernel reads no
/// launch; the findings are a fresh lint's either way.
#[test]
fn a_changed_grid_in_one_function_and_a_changed_kernel_in_another() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    let k = "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 0; }\n";
    let f = "void f(float* d, int n) { k<<<n / 256, 256>>>(d, n); cudaGetLastError(); }\n";
    let h = "__global__ void h(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\n";
    let g = "void g(float* d, int n) { h<<<(n + 127) / 128, 128>>>(d, n); cudaGetLastError(); }\n";
    let text = format!("{k}{f}{h}{g}");
    let (document, first) = lint_edit(None, &text, &settings);
    assert_eq!(first, engine::lint_text(path, &text, &settings).diagnostics);
    assert_eq!(document.last_lint().launches.read, 2);

    // `f`'s grid now rounds up: `k` has threads past `n`
    let rounded = text.replace("n / 256", "(n + 255) / 256");
    let (document, diagnostics) = lint_edit(Some(document), &rounded, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &rounded, &settings).diagnostics
    );
    assert_ne!(diagnostics, first, "the grid's change changes k's findings");
    let stats = document.last_lint();
    assert_eq!((stats.launches.read, stats.launches.reused), (1, 1));
    assert!(!stats.fell_back);

    // `h` gets a guard: no launch is read again
    let guarded = rounded.replace("o[i] = 1;", "if (i < n) o[i] = 1;");
    let (document, guarded_diagnostics) = lint_edit(Some(document), &guarded, &settings);
    assert_eq!(
        guarded_diagnostics,
        engine::lint_text(path, &guarded, &settings).diagnostics
    );
    assert_ne!(guarded_diagnostics, diagnostics, "h's finding is gone");
    let stats = document.last_lint();
    assert_eq!((stats.launches.read, stats.launches.reused), (0, 2));

    // both at once, with everything moved down a line
    let both = format!(
        "\n{}",
        guarded
            .replace("(n + 255) / 256", "n / 256")
            .replace("if (i < n) o[i] = 1;", "o[i] = 1;")
    );
    let (document, diagnostics) = lint_edit(Some(document), &both, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &both, &settings).diagnostics
    );
    let stats = document.last_lint();
    assert_eq!((stats.launches.read, stats.launches.reused), (1, 1));

    // a file-scope constant the grid reads: the launch is read again
    let constant = format!(
        "const int THREADS = 256;\n{}",
        both.replace("256>>>", "THREADS>>>")
    );
    let (document, _) = lint_edit(Some(document), &constant, &settings);
    let changed = constant.replace("THREADS = 256", "THREADS = 128");
    let (document, diagnostics) = lint_edit(Some(document), &changed, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &changed, &settings).diagnostics
    );
    assert_eq!(document.last_lint().launches.read, 2);
}

#[test]
fn a_launch_that_passes_on_a_parameter_is_read_again_when_a_caller_changes() {
    let settings = Settings::every_rule();
    let path = Path::new("edited.cu");
    // `run` passes `paths` on to the kernel; what divides it comes from `main`'s call
    let text = "__global__ void k(float* o, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) o[i] = 0;\n  __syncthreads();\n}\n\
void run(float* d, int paths) { k<<<(paths + 255) / 256, 256>>>(d, paths); cudaGetLastError(); }\n\
int main(int argc, char** argv) { int paths = atoi(argv[1]); paths *= 1024; run(0, paths); return 0; }\n";
    let (document, first) = lint_edit(None, text, &settings);
    assert_eq!(first, engine::lint_text(path, text, &settings).diagnostics);
    // the caller no longer scales the count: `run`'s launch is read again, not reused
    let unscaled = text.replace("paths *= 1024; ", "");
    let (document, diagnostics) = lint_edit(Some(document), &unscaled, &settings);
    assert_eq!(
        diagnostics,
        engine::lint_text(path, &unscaled, &settings).diagnostics
    );
    assert_eq!(document.last_lint().launches.read, 1);
    // an edit elsewhere in `main` that leaves `run` and its callers' text alone reuses it
    let (document, _) = lint_edit(Some(document), &unscaled, &settings);
    assert_eq!(document.last_lint().launches.reused, 1);
}

/// Lints `text` after `kept`, checks the findings are a fresh lint's and that the lint reused
/// what it kept rather than falling back to the whole file; the document it leaves.
fn relint_as_fresh(kept: Option<Kept>, text: &str, settings: &Settings) -> Kept {
    let (document, incremental) = lint_edit(kept, text, settings);
    assert_eq!(
        incremental,
        engine::lint_text(Path::new("edited.cu"), text, settings).diagnostics
    );
    assert!(!document.last_lint().fell_back, "the lint fell back");
    document
}

#[test]
fn a_template_kernel_no_launch_instantiates_leaves_the_later_kernels_summaries_in_place() {
    let settings = Settings::every_rule();
    // the template has no summary, so the kernel after it is the file's first summary
    let unused = "template <typename T> __global__ void unused(T* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; p[i] = T(0); }\n";
    let kernel = "__global__ void gather(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }\n";
    let host = "void f(int n) { float *a, *b; cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); gather<<<(n + 255) / 256, 256>>>(a, b, n); }\n";
    let mut text = format!("{unused}{kernel}{host}");
    let document = relint_as_fresh(None, &text, &settings);
    // an edit of the host function reuses the kernel, whose summary it reads
    text.push_str("void g(int n) { float* d; cudaMalloc(&d, n); cudaFree(d); }\n");
    let document = relint_as_fresh(Some(document), &text, &settings);
    assert!(document.last_lint().reused >= 1);
}

#[test]
fn a_finding_dropped_for_resting_on_broken_code_does_not_stop_reuse() {
    let settings = Settings::every_rule();
    // a stray quote in a device helper opens a string the parser runs on to the next quote,
    // past a kernel and into a host function, so a function the parser no longer sees holds
    // the host function's `ceil(n / BN)`: that finding rests on broken code, and the outcome
    // drops it whichever way the file is linted
    let kernel = "__global__ void scale(float* v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) v[i] *= 2.0f; }\n";
    let helper =
        "__device__ __forceinline__ float loadValue(const float* src) { return src[0]; }\n";
    let host = "void gemm(int n, float* v) {\n    const int BN = 64;\n    dim3 grid = dim3(ceil(n / BN));\n    scale<<<grid, BN>>>(v, n);\n}\n";
    let tail = "int main() { printf(\"done\\n\"); return 0; }\n";
    let text = format!("{kernel}{helper}{kernel}{host}{tail}");
    let document = relint_as_fresh(None, &text, &settings);
    let broken = text.replace("return src[0];", "return s\"rc[0];");
    relint_as_fresh(Some(document), &broken, &settings);
}
