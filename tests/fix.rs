//! `--fix`, `--diff` and `--add-ignore`: each change applied to real files, and the result linted
//! again and found clean.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/run.rs"]
mod run;
use run::cudalint;

fn text(output: &[u8]) -> String {
    String::from_utf8_lossy(output).into_owned()
}

/// The kernel indexes past `n`; the launch rounds the grid up from `n`, so the guard is known.
const LAUNCHED: &str = "__global__ void scale(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 2.0f;\n}\n\nvoid run(float* d, int n) {\n    scale<<<(n + 255) / 256, 256>>>(d, n);\n}\n";
/// No launch in sight: `n` is only a guess at the bound, so the fix is not applied unasked.
const ALONE: &str = "__global__ void alone(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 2.0f;\n}\n";

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_path_buf();
    std::fs::write(path.join("launched.cu"), LAUNCHED).unwrap();
    std::fs::write(path.join("alone.cu"), ALONE).unwrap();
    (dir, path)
}

#[test]
fn fix_wraps_the_access_in_the_launch_guard_and_the_result_lints_clean() {
    let (_guard, dir) = workspace();
    let output = cudalint(
        &dir,
        &[
            "check",
            ".",
            "--fix",
            "--select",
            "kernel",
            "--output-format",
            "concise",
        ],
    );
    assert!(
        text(&output.stderr).contains("fixed 1 finding(s) in 1 file(s)"),
        "{}",
        text(&output.stderr)
    );
    let fixed = std::fs::read_to_string(dir.join("launched.cu")).unwrap();
    assert_eq!(
        fixed,
        LAUNCHED.replace("    out[i] = 2.0f;", "    if (i < n) { out[i] = 2.0f; }")
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("alone.cu")).unwrap(),
        ALONE,
        "an unsafe fix was applied"
    );
    // what is reported is what is left: the unfixed file only
    let report = text(&output.stdout);
    assert!(
        report.starts_with("alone.cu:3:5: unguarded-thread-index"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 2, "{report}");
    assert_eq!(output.status.code(), Some(1));
    let again = cudalint(&dir, &["check", "launched.cu", "--select", "kernel"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}

#[test]
fn diff_shows_the_fix_and_writes_nothing() {
    let (_guard, dir) = workspace();
    let output = cudalint(&dir, &["check", ".", "--diff"]);
    assert_eq!(output.status.code(), Some(1), "a fix is there to apply");
    assert_eq!(
        text(&output.stdout),
        "--- a/launched.cu\n+++ b/launched.cu\n@@ -1,6 +1,6 @@\n __global__ void scale(float* out, int n) {\n     int i = blockIdx.x * blockDim.x + threadIdx.x;\n-    out[i] = 2.0f;\n+    if (i < n) { out[i] = 2.0f; }\n }\n \n void run(float* d, int n) {\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("launched.cu")).unwrap(),
        LAUNCHED
    );
    // the diff applied by patch gives what --fix writes
    let patched = dir.join("patched");
    std::fs::create_dir(&patched).unwrap();
    std::fs::write(patched.join("launched.cu"), LAUNCHED).unwrap();
    let mut patch = Command::new("patch")
        .current_dir(&patched)
        .args(["-p1", "--quiet"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("patch");
    use std::io::Write;
    patch
        .stdin
        .take()
        .unwrap()
        .write_all(&output.stdout)
        .unwrap();
    assert!(patch.wait().unwrap().success());
    cudalint(&dir, &["check", "launched.cu", "--fix"]);
    assert_eq!(
        std::fs::read(patched.join("launched.cu")).unwrap(),
        std::fs::read(dir.join("launched.cu")).unwrap()
    );
    let none = cudalint(&dir, &["check", "launched.cu", "--diff"]);
    assert_eq!(
        (none.status.code(), text(&none.stdout)),
        (Some(0), String::new())
    );
}

#[test]
fn add_ignore_silences_every_fixture_finding_and_the_result_lints_clean() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/bad");
    let mut copied = 0;
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
            copied += 1;
        }
    }
    assert!(copied > 10);
    let before = cudalint(dir.path(), &["check", ".", "--statistics"]);
    assert_eq!(before.status.code(), Some(1));
    let added = cudalint(dir.path(), &["check", ".", "--add-ignore"]);
    assert_eq!(added.status.code(), Some(0), "{}", text(&added.stderr));
    assert!(
        text(&added.stderr).contains("added ignore comments for"),
        "{}",
        text(&added.stderr)
    );
    let after = cudalint(dir.path(), &["check", ".", "--output-format", "concise"]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stdout));
    // a second pass has nothing to add
    let again = cudalint(dir.path(), &["check", ".", "--add-ignore"]);
    assert_eq!(text(&again.stderr), "");
}

#[test]
fn add_ignore_extends_an_existing_comment_and_keeps_stray_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut source = b"// caf\xe9\n".to_vec();
    source.extend_from_slice(b"void release(float* d) {\n    cudaFree(d);\n    cudaFree(d); // cudalint: ignore[unchecked-cuda-call]\n}\n");
    std::fs::write(dir.path().join("free.cu"), &source).unwrap();
    let added = cudalint(dir.path(), &["check", ".", "--add-ignore"]);
    assert_eq!(added.status.code(), Some(0), "{}", text(&added.stderr));
    let written = std::fs::read(dir.path().join("free.cu")).unwrap();
    assert!(
        written.starts_with(b"// caf\xe9\n"),
        "the Latin-1 byte was lost"
    );
    let written = String::from_utf8_lossy(&written);
    assert!(
        written.contains("    cudaFree(d);\n    cudaFree(d); // cudalint: ignore[double-free, unchecked-cuda-call]\n"),
        "{written}"
    );
    let after = cudalint(dir.path(), &["check", "."]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stdout));
}

#[test]
fn fix_checks_an_unchecked_launch_with_the_projects_macro_and_the_result_lints_clean() {
    let dir = tempfile::tempdir().unwrap();
    let source = "#define SAFE_CALL(call) do { if ((call) != cudaSuccess) abort(); } while (0)\n__global__ void k(float* out) { out[threadIdx.x] = 1; }\nvoid f(float* d) {\n    SAFE_CALL(cudaMalloc(&d, 32 * sizeof(float)));\n    k<<<1, 32>>>(d);\n    for (int i = 0; i < 3; ++i) {\n        k<<<1, 32>>>(d);\n    }\n    SAFE_CALL(cudaFree(d));\n}\n";
    std::fs::write(dir.path().join("m.cu"), source).unwrap();
    let before = cudalint(
        dir.path(),
        &[
            "check",
            ".",
            "--output-format",
            "concise",
            "--select",
            "all",
        ],
    );
    assert_eq!(
        text(&before.stdout)
            .matches("unchecked-kernel-launch")
            .count(),
        2,
        "{}",
        text(&before.stdout)
    );
    let fixed = cudalint(dir.path(), &["check", ".", "--fix", "--select", "all"]);
    assert_eq!(fixed.status.code(), Some(0), "{}", text(&fixed.stdout));
    let written = std::fs::read_to_string(dir.path().join("m.cu")).unwrap();
    assert_eq!(
        written,
        source
            .replace(
                "    k<<<1, 32>>>(d);\n    for",
                "    k<<<1, 32>>>(d);\n    SAFE_CALL(cudaGetLastError());\n    for"
            )
            .replace(
                "        k<<<1, 32>>>(d);\n",
                "        k<<<1, 32>>>(d);\n        SAFE_CALL(cudaGetLastError());\n"
            )
    );
    let again = cudalint(dir.path(), &["check", ".", "--select", "all"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}
