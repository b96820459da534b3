//! What a default run reports, how configurations combine and complain, and suppression comments,
//! through the command line as a user meets them.

use std::path::PathBuf;
use std::process::Output;

#[path = "support/run.rs"]
mod run;
use run::{cudalint, stderr};

/// An unguarded kernel (kernel category) launched from a `main` that checks nothing.
const PROGRAM: &str = "__global__ void scale(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 2.0f;\n}\nint main() {\n    float* d;\n    cudaMalloc(&d, 1000 * sizeof(float));\n    cudaMemset(d, 0, 1000 * sizeof(float));\n    scale<<<(1000 + 255) / 256, 256>>>(d, 1000);\n    cudaDeviceSynchronize();\n    cudaFree(d);\n    return 0;\n}\n";

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_path_buf();
    std::fs::write(path.join("prog.cu"), PROGRAM).unwrap();
    (dir, path)
}

/// The findings of the JSON output.
fn diagnostics(output: &Output) -> Vec<serde_json::Value> {
    let json: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", stderr(output)));
    json["diagnostics"].as_array().expect("diagnostics").clone()
}

/// (rule, 1-based line, number of labels) of each finding in the JSON output.
fn findings(output: &Output) -> Vec<(String, u64, usize)> {
    diagnostics(output)
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["labels"].as_array().map(Vec::len).unwrap_or_default(),
            )
        })
        .collect()
}

fn rules(output: &Output) -> Vec<String> {
    findings(output)
        .into_iter()
        .map(|(rule, _, _)| rule)
        .collect()
}

#[test]
fn error_handling_is_off_by_default_and_selected_by_category() {
    let (_guard, dir) = workspace();
    let default = cudalint(&dir, &["check", "prog.cu", "--format", "json"]);
    assert_eq!(rules(&default), ["unguarded-thread-index"]);

    let selected = cudalint(
        &dir,
        &[
            "check",
            "prog.cu",
            "--format",
            "json",
            "--select",
            "error-handling",
        ],
    );
    assert_eq!(
        findings(&selected),
        [
            ("unchecked-cuda-call".to_string(), 7, 2),
            ("unchecked-kernel-launch".to_string(), 9, 0)
        ],
        "one unchecked-cuda-call finding for main, its other calls as labels, cudaFree left out"
    );

    let extended = cudalint(
        &dir,
        &[
            "check",
            "prog.cu",
            "--format",
            "json",
            "--extend-select",
            "unchecked-cuda-call",
        ],
    );
    assert_eq!(
        rules(&extended),
        ["unguarded-thread-index", "unchecked-cuda-call"]
    );

    std::fs::write(
        dir.join("cudalint.toml"),
        "extend-select = [\"error-handling\"]\n",
    )
    .unwrap();
    let configured = cudalint(&dir, &["check", "prog.cu", "--format", "json"]);
    assert_eq!(
        rules(&configured),
        [
            "unguarded-thread-index",
            "unchecked-cuda-call",
            "unchecked-kernel-launch"
        ]
    );
}

#[test]
fn strict_error_checks_bring_back_teardown_calls() {
    let (_guard, dir) = workspace();
    std::fs::write(
        dir.join("cudalint.toml"),
        "select = [\"unchecked-cuda-call\"]\nstrict-error-checks = true\n",
    )
    .unwrap();
    let output = cudalint(&dir, &["check", "prog.cu", "--format", "json"]);
    assert_eq!(
        findings(&output),
        [("unchecked-cuda-call".to_string(), 7, 3)]
    );
}

#[test]
fn sarif_lists_only_the_rules_that_ran() {
    let (_guard, dir) = workspace();
    let output = cudalint(&dir, &["check", "prog.cu", "--format", "sarif"]);
    let sarif = String::from_utf8_lossy(&output.stdout);
    assert!(sarif.contains("\"unguarded-thread-index\""), "{sarif}");
    assert!(!sarif.contains("\"unchecked-cuda-call\""), "{sarif}");
}

#[test]
fn per_path_ignores_match_however_the_linted_path_is_spelled() {
    let (_guard, dir) = workspace();
    std::fs::create_dir_all(dir.join("vendor/lib")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("vendor/lib/prog.cu"), PROGRAM).unwrap();
    std::fs::write(dir.join("src/prog.cu"), PROGRAM).unwrap();
    std::fs::remove_file(dir.join("prog.cu")).unwrap();
    std::fs::write(
        dir.join("cudalint.toml"),
        "[per-path-ignores]\n\"vendor/**\" = [\"*\"]\n",
    )
    .unwrap();
    let paths = |output: &Output| -> Vec<String> {
        diagnostics(output)
            .iter()
            .map(|d| d["path"].as_str().unwrap_or_default().replace('\\', "/"))
            .collect()
    };
    let absolute = dir.to_string_lossy().to_string();
    for target in [".", "./", "src/..", absolute.as_str()] {
        let output = cudalint(&dir, &["check", target, "--format", "json", "--no-cache"]);
        let found = paths(&output);
        assert_eq!(found.len(), 1, "`check {target}`: {found:?}");
        assert!(
            found[0].ends_with("src/prog.cu"),
            "`check {target}`: {found:?}"
        );
    }
    // from inside the ignored folder too
    let inside = cudalint(
        &dir.join("vendor"),
        &["check", ".", "--format", "json", "--no-cache"],
    );
    assert_eq!(paths(&inside), Vec::<String>::new());
}

#[test]
fn extend_reads_the_parent_configuration_relative_to_the_file() {
    let (_guard, dir) = workspace();
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    std::fs::write(
        dir.join("base.toml"),
        "extend-select = [\"unchecked-cuda-call\"]\n[severity]\nunguarded-thread-index = \"error\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/deeper/prog.cu"), PROGRAM).unwrap();
    std::fs::write(
        dir.join("sub/cudalint.toml"),
        "extend = \"../base.toml\"\n[severity]\nunchecked-cuda-call = \"info\"\n",
    )
    .unwrap();
    let output = cudalint(&dir, &["check", "sub", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(&str, &str)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["rule"].as_str().unwrap(), d["severity"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("unguarded-thread-index", "error"),
            ("unchecked-cuda-call", "info")
        ]
    );
}

#[test]
fn extend_cycles_and_missing_files_are_errors_naming_the_file() {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("cudalint.toml"), "extend = \"other.toml\"\n").unwrap();
    std::fs::write(
        dir.join("other.toml"),
        "select = [\"all\"]\nextend = \"cudalint.toml\"\n",
    )
    .unwrap();
    let output = cudalint(&dir, &["check", "prog.cu"]);
    let err = stderr(&output);
    assert!(err.contains("`extend` makes a cycle"), "{err}");
    assert!(err.contains("other.toml: line 2, column 10"), "{err}");
    assert_eq!(output.status.code(), Some(2));

    std::fs::write(dir.join("cudalint.toml"), "extend = \"../nowhere.toml\"\n").unwrap();
    let output = cudalint(&dir, &["check", "prog.cu"]);
    let err = stderr(&output);
    assert!(
        err.contains("cudalint.toml: line 1, column 10: `extend` names")
            && err.contains("no such file"),
        "{err}"
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn mistyped_names_get_a_suggestion() {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("cudalint.toml"), "selet = [\"kernel\"]\n").unwrap();
    let err = stderr(&cudalint(&dir, &["check", "prog.cu"]));
    assert!(
        err.contains("unknown key `selet` (did you mean `select`?)"),
        "{err}"
    );

    std::fs::write(
        dir.join("cudalint.toml"),
        "[severity]\nunguarded-thread-indx = \"eror\"\n",
    )
    .unwrap();
    let err = stderr(&cudalint(&dir, &["check", "prog.cu"]));
    assert!(
        err.contains(
            "unknown rule `unguarded-thread-indx` (did you mean `unguarded-thread-index`?)"
        ),
        "{err}"
    );

    std::fs::write(dir.join("cudalint.toml"), "[severity]\nkernel = \"eror\"\n").unwrap();
    let err = stderr(&cudalint(&dir, &["check", "prog.cu"]));
    assert!(
        err.contains("unknown severity `eror` for `kernel` (did you mean `error`?)"),
        "{err}"
    );

    std::fs::remove_file(dir.join("cudalint.toml")).unwrap();
    let output = cudalint(&dir, &["check", "prog.cu", "--select", "error-handlin"]);
    assert!(
        stderr(&output).contains("(did you mean `error-handling`?)"),
        "{}",
        stderr(&output)
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn an_invalid_configuration_is_reported_once_before_anything_else() {
    let (_guard, dir) = workspace();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/cudalint.toml"), "bogus = 1\n").unwrap();
    for name in ["a.cu", "b.cu", "c.cuh"] {
        std::fs::write(dir.join("sub").join(name), PROGRAM).unwrap();
    }
    // a file with a note of its own (listed with --verbose), printed after the configuration error
    std::fs::write(dir.join("latin1.cu"), b"// caf\xe9\nint x;\n").unwrap();
    let output = cudalint(&dir, &["check", ".", "--verbose"]);
    let err = stderr(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(
            "cudalint: error: sub/cudalint.toml: line 1, column 1: unknown key `bogus`"
        ) && lines[0].ends_with("(3 files under it not linted)"),
        "{err}"
    );
    assert!(lines[1].contains("latin1.cu"), "{err}");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn info_findings_are_shown_as_info() {
    let (_guard, dir) = workspace();
    std::fs::write(
        dir.join("cudalint.toml"),
        "[severity]\nunguarded-thread-index = \"info\"\n",
    )
    .unwrap();
    let output = cudalint(&dir, &["check", "prog.cu", "--color", "never"]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.starts_with("info[unguarded-thread-index]: "), "{out}");
    assert!(out.ends_with("0 errors, 0 warnings, 1 info\n"), "{out}");
    assert_eq!(output.status.code(), Some(0), "info does not fail the run");
}

const TWO_KERNELS: &str = "__global__ void a(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 1.0f;\n}\n__global__ void b(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 2.0f;\n}\n__global__ void c(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 3.0f;\n}\n";

/// (rule, line) of each finding.
fn lint_suppressed(text: &str) -> Vec<(String, u64)> {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("k.cu"), text).unwrap();
    findings(&cudalint(&dir, &["check", "k.cu", "--format", "json"]))
        .into_iter()
        .map(|(rule, line, _)| (rule, line))
        .collect()
}

#[test]
fn a_range_suppression_covers_the_lines_between_start_and_end() {
    let text = TWO_KERNELS
        .replacen(
            "__global__ void a",
            "// cudalint: ignore-start[unguarded-thread-index]\n__global__ void a",
            1,
        )
        .replacen(
            "__global__ void c",
            "// cudalint: ignore-end\n__global__ void c",
            1,
        );
    // kernel c, after the range, is still reported (line 13 once the two comments are in)
    assert_eq!(
        lint_suppressed(&text),
        [("unguarded-thread-index".to_string(), 13)]
    );
}

#[test]
fn malformed_suppressions_are_reported_not_silently_ignored() {
    let bare = TWO_KERNELS.replacen(
        "    out[i] = 1.0f;",
        "    out[i] = 1.0f; // cudalint: ignore",
        1,
    );
    let found = lint_suppressed(&bare);
    assert!(
        found.contains(&("unused-suppression".to_string(), 3))
            && found.contains(&("unguarded-thread-index".to_string(), 3)),
        "{found:?}"
    );

    let unclosed = format!("// cudalint: ignore-start[unguarded-thread-index]\n{TWO_KERNELS}");
    let found = lint_suppressed(&unclosed);
    assert_eq!(
        found
            .iter()
            .filter(|f| f.0 == "unguarded-thread-index")
            .count(),
        3
    );
    assert!(
        found.contains(&("unused-suppression".to_string(), 1)),
        "{found:?}"
    );

    let stray_end = format!("{TWO_KERNELS}// cudalint: ignore-end\n");
    let found = lint_suppressed(&stray_end);
    assert!(
        found.contains(&("unused-suppression".to_string(), 13)),
        "{found:?}"
    );

    // clang-tidy's NOLINT is documented as not honoured
    let nolint = TWO_KERNELS.replacen("    out[i] = 1.0f;", "    out[i] = 1.0f; // NOLINT", 1);
    assert_eq!(lint_suppressed(&nolint).len(), 3);
}
