//! The command line on good and bad input: exit codes, messages naming the file and the problem,
//! and every other file still linted.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "support/run.rs"]
mod run;
use run::{cudalint, stderr, stdout};

const BAD_KERNEL: &str = "__global__ void scale(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = 2.0f;\n}\n";
const CLEAN_KERNEL: &str = "__global__ void scale(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = 2.0f;\n}\n";

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_path_buf();
    std::fs::write(path.join("bad.cu"), BAD_KERNEL).unwrap();
    (dir, path)
}

/// The finding in bad.cu is still reported whatever else went wrong.
fn assert_other_file_linted(output: &Output) {
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json output");
    let rules: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"unguarded-thread-index"),
        "bad.cu not linted: {rules:?}"
    );
}

#[test]
fn exit_codes_follow_findings_and_fail_on() {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("clean.cu"), CLEAN_KERNEL).unwrap();
    assert_eq!(
        cudalint(&dir, &["check", "clean.cu"]).status.code(),
        Some(0)
    );
    assert_eq!(cudalint(&dir, &["check", "bad.cu"]).status.code(), Some(1));
    assert_eq!(
        cudalint(&dir, &["check", "bad.cu", "--fail-on", "error"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        cudalint(&dir, &["check", "bad.cu", "--exit-zero"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        cudalint(&dir, &["check", "--bogus-flag"]).status.code(),
        Some(2)
    );
    assert_eq!(
        cudalint(&dir, &["check", "--select", "no-such-rule", "bad.cu"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn terminal_output_shows_rule_span_labels_help_and_summary() {
    let (_guard, dir) = workspace();
    let output = cudalint(&dir, &["check", "bad.cu", "--color", "never"]);
    let text = stdout(&output);
    assert!(text.contains("warning[unguarded-thread-index]"), "{text}");
    assert!(text.contains("bad.cu:3:5"), "{text}");
    assert!(
        text.contains("`i` is computed from the thread index here"),
        "{text}"
    );
    assert!(
        text.contains("help: guard the access with `if (i < n)`"),
        "{text}"
    );
    assert!(
        text.contains("1 file checked: 0 errors, 1 warning"),
        "{text}"
    );
}

#[test]
fn json_output_has_the_documented_shape() {
    let (_guard, dir) = workspace();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["version"], 1);
    let finding = &json["diagnostics"][0];
    assert_eq!(finding["rule"], "unguarded-thread-index");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["path"], "bad.cu");
    assert_eq!(
        (finding["line"].as_u64(), finding["column"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(
        (finding["end_line"].as_u64(), finding["end_column"].as_u64()),
        (Some(3), Some(11))
    );
    assert_eq!(finding["labels"][0]["line"], 2);
    assert!(finding["help"].as_str().unwrap().contains("i < n"));
}

#[test]
fn file_that_is_not_utf8_is_linted_silently_and_listed_on_request() {
    let (_guard, dir) = workspace();
    let mut bytes = b"// caf\xe9 au lait\n".to_vec();
    bytes.extend_from_slice(BAD_KERNEL.as_bytes());
    std::fs::write(dir.join("latin1.cu"), bytes).unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    assert_eq!(stderr(&output), "", "a linted file is not worth a warning");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let lines: Vec<(String, u64)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(lines.contains(&("latin1.cu".to_string(), 4)), "{lines:?}");
    assert_eq!(json["notes"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(json["notes"][0]["path"], "latin1.cu");
    assert!(json["notes"][0]["message"]
        .as_str()
        .unwrap()
        .contains("not valid UTF-8 (invalid byte at offset 6)"));
    assert_eq!(output.status.code(), Some(1));

    let verbose = cudalint(&dir, &["check", ".", "--verbose"]);
    assert!(
        stderr(&verbose).contains("latin1.cu: not valid UTF-8 (invalid byte at offset 6)"),
        "{}",
        stderr(&verbose)
    );
    let clean = cudalint(&dir, &["check", "bad.cu", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&clean.stdout).unwrap();
    assert!(json.get("notes").is_none(), "{json}");
}

/// Runs cudalint, failing (not hanging) if it has not finished within 30 seconds.
#[cfg(unix)]
fn cudalint_with_deadline(dir: &Path, args: &[&str]) -> Output {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cudalint");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cudalint {args:?} still running after 30 s: it opened a special file");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn fifo_in_a_walk_is_skipped_with_one_message() {
    let (_guard, dir) = workspace();
    std::fs::create_dir(dir.join("sub")).unwrap();
    make_fifo(&dir.join("pipe.cu"));
    make_fifo(&dir.join("sub/other.cuh"));
    make_fifo(&dir.join("not-cuda.txt"));
    std::os::unix::fs::symlink("pipe.cu", dir.join("link.cu")).unwrap();
    let output = cudalint_with_deadline(&dir, &["check", ".", "--format", "json"]);
    let err = stderr(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("cudalint: skipped 3 special files")
            && lines[0].contains("pipe.cu (FIFO (named pipe))")
            && lines[0].contains("link.cu (FIFO (named pipe))")
            && lines[0].contains("sub/other.cuh")
            && !lines[0].contains("not-cuda.txt"),
        "{err}"
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(1), "findings, no error");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["notes"].as_array().map(Vec::len), Some(3), "{json}");
}

#[cfg(unix)]
#[test]
fn special_file_named_explicitly_is_an_error() {
    let (_guard, dir) = workspace();
    make_fifo(&dir.join("pipe.cu"));
    let output = cudalint_with_deadline(&dir, &["check", "pipe.cu", "bad.cu", "--format", "json"]);
    assert!(
        stderr(&output).contains("pipe.cu: is a FIFO (named pipe), not a regular file; not linted"),
        "{}",
        stderr(&output)
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
    let device = cudalint_with_deadline(&dir, &["check", "/dev/zero"]);
    assert!(
        stderr(&device).contains("/dev/zero: is a character device"),
        "{}",
        stderr(&device)
    );
    assert_eq!(device.status.code(), Some(2));
}

#[test]
fn binary_file_is_reported_and_the_rest_linted() {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("blob.cu"), [0x7f, b'E', b'L', b'F', 0, 0, 1, 2, 3]).unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    assert!(
        stderr(&output).contains("blob.cu: binary file"),
        "{}",
        stderr(&output)
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn empty_file_is_clean() {
    let (_guard, dir) = workspace();
    std::fs::write(dir.join("empty.cu"), "").unwrap();
    let output = cudalint(&dir, &["check", "empty.cu"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn large_file_of_30_mb_is_linted() {
    let (_guard, dir) = workspace();
    let mut text = String::with_capacity(31 << 20);
    let mut k = 0;
    while text.len() < 30 << 20 {
        text.push_str(&format!("__global__ void k{k}(float* out, int n) {{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = {k}.0f;\n}}\n"));
        k += 1;
    }
    text.push_str(BAD_KERNEL);
    std::fs::write(dir.join("large.cu"), &text).unwrap();
    let output = cudalint(&dir, &["check", "large.cu", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["diagnostics"].as_array().unwrap().len(),
        1,
        "{}",
        stderr(&output)
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn deep_nesting_neither_panics_nor_overflows() {
    let (_guard, dir) = workspace();
    let parens = format!(
        "__global__ void p(float* out, int n) {{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = {}1{};\n}}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    std::fs::write(dir.join("parens.cu"), parens).unwrap();
    let mut ifs = String::from("__global__ void f(float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n");
    ifs.push_str(&"if (i < n) {\n".repeat(20_000));
    ifs.push_str("out[i] = 1;\n");
    ifs.push_str(&"}\n".repeat(20_000));
    ifs.push_str("}\n");
    std::fs::write(dir.join("ifs.cu"), ifs).unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    assert!(
        output.status.code() == Some(1),
        "status {:?}: {}",
        output.status,
        stderr(&output)
    );
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    assert_other_file_linted(&output);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let in_parens = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["path"] == "parens.cu");
    assert!(
        in_parens,
        "the access after 10,000 parentheses is still analysed"
    );
}

#[test]
fn missing_path_is_an_error_and_the_rest_is_linted() {
    let (_guard, dir) = workspace();
    let output = cudalint(
        &dir,
        &["check", "bad.cu", "no/such/file.cu", "--format", "json"],
    );
    assert!(
        stderr(&output).contains("no/such/file.cu: no such file or directory"),
        "{}",
        stderr(&output)
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn unreadable_files_and_symlink_loops_are_reported() {
    use std::os::unix::fs::symlink;
    let (_guard, dir) = workspace();
    symlink("missing-target.cu", dir.join("dangling.cu")).unwrap();
    symlink("loop.cu", dir.join("loop.cu")).unwrap();
    let output = cudalint(
        &dir,
        &[
            "check",
            "bad.cu",
            "dangling.cu",
            "loop.cu",
            "--format",
            "json",
        ],
    );
    let err = stderr(&output);
    assert!(
        err.contains("dangling.cu: no such file or directory"),
        "{err}"
    );
    assert!(
        err.contains("loop.cu: too many levels of symbolic links"),
        "{err}"
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));

    // a directory walk that meets the same links reports them too
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    assert!(
        stderr(&output).contains("dangling.cu"),
        "{}",
        stderr(&output)
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn permission_denied_is_reported_when_not_root() {
    use std::os::unix::fs::PermissionsExt;
    let (_guard, dir) = workspace();
    let locked = dir.join("locked.cu");
    std::fs::write(&locked, CLEAN_KERNEL).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        // root reads any file; the dangling-symlink test covers unreadable files there
        eprintln!("skipped: running as root, a mode-000 file is still readable");
        return;
    }
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    assert!(
        stderr(&output).contains("locked.cu: permission denied"),
        "{}",
        stderr(&output)
    );
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn broken_config_names_file_and_line_and_the_rest_is_linted() {
    let (_guard, dir) = workspace();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/cudalint.toml"),
        "select = [\"unguarded-thread-index\"\nignore = 3\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/k.cu"), BAD_KERNEL).unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    let err = stderr(&output);
    assert!(
        err.contains("sub/cudalint.toml: line 2, column 1: missing comma"),
        "{err}"
    );
    assert!(err.contains("(1 file under it not linted)"), "{err}");
    assert_eq!(err.matches("cudalint.toml").count(), 1, "{err}");
    assert_other_file_linted(&output);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn unknown_rule_and_key_in_config_name_file_line_and_key() {
    let (_guard, dir) = workspace();
    std::fs::write(
        dir.join("cudalint.toml"),
        "ignore = [\n  \"unguarded-thread-indx\",\n]\n",
    )
    .unwrap();
    let output = cudalint(&dir, &["check", "bad.cu"]);
    let err = stderr(&output);
    assert!(
        err.contains("cudalint.toml: line 2, column 3: unknown rule `unguarded-thread-indx`"),
        "{err}"
    );
    assert_eq!(output.status.code(), Some(2));

    std::fs::write(dir.join("cudalint.toml"), "select = []\nmax-alloc = 3\n").unwrap();
    let output = cudalint(&dir, &["check", "bad.cu"]);
    let err = stderr(&output);
    assert!(
        err.contains("cudalint.toml: line 2") && err.contains("max-alloc"),
        "{err}"
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn config_applies_nearest_first_and_suppressions_work() {
    let (_guard, dir) = workspace();
    std::fs::write(
        dir.join("cudalint.toml"),
        "[severity]\nunguarded-thread-index = \"error\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("legacy")).unwrap();
    std::fs::write(
        dir.join("legacy/cudalint.toml"),
        "ignore = [\"unguarded-thread-index\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("legacy/old.cu"), BAD_KERNEL).unwrap();
    std::fs::write(
        dir.join("suppressed.cu"),
        BAD_KERNEL.replace(
            "out[i] = 2.0f;",
            "out[i] = 2.0f; // cudalint: ignore[unguarded-thread-index]",
        ),
    )
    .unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(String, String, String)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().into(),
                d["rule"].as_str().unwrap().into(),
                d["severity"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![(
            "bad.cu".into(),
            "unguarded-thread-index".into(),
            "error".into()
        )]
    );
}

#[test]
fn gitignore_and_cudalintignore_are_honoured_but_named_files_are_linted() {
    let (_guard, dir) = workspace();
    std::fs::create_dir_all(dir.join("build")).unwrap();
    std::fs::create_dir_all(dir.join("vendor")).unwrap();
    std::fs::write(dir.join("build/gen.cu"), BAD_KERNEL).unwrap();
    std::fs::write(dir.join("vendor/lib.cu"), BAD_KERNEL).unwrap();
    std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    std::fs::write(dir.join(".cudalintignore"), "vendor/\n").unwrap();
    let output = cudalint(&dir, &["check", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let paths: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["bad.cu"]);
    let output = cudalint(&dir, &["check", "vendor/lib.cu", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn headers_that_define_kernels_are_linted_in_a_walk_unless_configured_off() {
    let (_guard, dir) = workspace();
    std::fs::create_dir_all(dir.join("include")).unwrap();
    std::fs::create_dir_all(dir.join("plain")).unwrap();
    std::fs::write(dir.join("include/scale.h"), BAD_KERNEL).unwrap();
    std::fs::write(dir.join("include/scale_impl.hpp"), BAD_KERNEL).unwrap();
    // a host header with the same subscript and no kernel is no CUDA source
    std::fs::write(
        dir.join("include/host.h"),
        "inline void scale(float* out, int i) { out[i] = 2.0f; }\n",
    )
    .unwrap();
    let paths = |output: &Output| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let mut paths: Vec<String> = json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["path"].as_str().unwrap().to_string())
            .collect();
        paths.sort();
        paths
    };
    let output = cudalint(&dir, &["check", ".", "--format", "json", "--no-cache"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        paths(&output),
        vec!["bad.cu", "include/scale.h", "include/scale_impl.hpp"]
    );
    std::fs::write(dir.join("plain/cudalint.toml"), "kernel-headers = false\n").unwrap();
    std::fs::copy(dir.join("include/scale.h"), dir.join("plain/scale.h")).unwrap();
    let output = cudalint(&dir, &["check", "plain", "--format", "json", "--no-cache"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    // named explicitly, a header is linted whatever the setting
    let output = cudalint(
        &dir,
        &["check", "plain/scale.h", "--format", "json", "--no-cache"],
    );
    assert_eq!(paths(&output), vec!["plain/scale.h"]);
}

#[test]
fn rule_command_lists_and_documents_rules() {
    let (_guard, dir) = workspace();
    let list = stdout(&cudalint(&dir, &["rule"]));
    for lint in cudalint::lints::ALL {
        assert!(
            list.contains(lint.name),
            "{} missing from `cudalint rule`",
            lint.name
        );
    }
    let doc = cudalint(&dir, &["rule", "out-of-range-access"]);
    let text = stdout(&doc);
    for heading in [
        "## What it finds",
        "## Why is this bad",
        "## Example",
        "## Fix",
    ] {
        assert!(text.contains(heading), "{heading} missing");
    }
    assert_eq!(cudalint(&dir, &["rule", "nope"]).status.code(), Some(2));
}

const DOUBLE_FREE: &str = "void release(int n) {\n    float* d;\n    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return;\n    cudaFree(d);\n    cudaFree(d);\n}\n";

/// bad.cu, a double free and a clean file, in a temporary directory.
fn three_files() -> (tempfile::TempDir, PathBuf) {
    let (guard, dir) = workspace();
    std::fs::write(dir.join("free.cu"), DOUBLE_FREE).unwrap();
    std::fs::write(dir.join("clean.cu"), CLEAN_KERNEL).unwrap();
    (guard, dir)
}

#[test]
fn concise_output_is_one_line_per_finding() {
    let (_guard, dir) = three_files();
    let output = cudalint(
        &dir,
        &[
            "check",
            ".",
            "--output-format",
            "concise",
            "--select",
            "kernel,memory",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("concise_output", stdout(&output));
    // `--format` and ruff's `--output-format` are one option
    let same = cudalint(
        &dir,
        &[
            "check",
            ".",
            "--format",
            "concise",
            "--select",
            "kernel,memory",
        ],
    );
    assert_eq!(stdout(&same), stdout(&output));
}

#[test]
fn statistics_count_findings_per_rule_with_the_fixable_ones() {
    let (_guard, dir) = three_files();
    // launched with the grid rounded up from `n`: the guard is known, so --fix may apply it
    let launched = format!(
        "{}\nvoid run(float* d, int n) {{\n    scale2<<<(n + 255) / 256, 256>>>(d, n);\n}}\n",
        BAD_KERNEL.replace("scale", "scale2")
    );
    std::fs::write(dir.join("bad2.cu"), launched).unwrap();
    let output = cudalint(
        &dir,
        &["check", ".", "--statistics", "--ignore", "error-handling"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    insta::assert_snapshot!("statistics", stdout(&output));
    let json = cudalint(
        &dir,
        &[
            "check",
            ".",
            "--statistics",
            "--output-format",
            "json",
            "--select",
            "kernel",
        ],
    );
    let counts: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        counts,
        serde_json::json!([{"rule": "unguarded-thread-index", "count": 2, "fixable": 1}])
    );
}

#[test]
fn category_selection_runs_only_the_categorys_rules() {
    let (_guard, dir) = three_files();
    let rules = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["check", ".", "--format", "json"];
        all.extend_from_slice(args);
        let output = cudalint(&dir, &all);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let mut rules: Vec<String> = json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect();
        rules.sort();
        rules.dedup();
        rules
    };
    assert_eq!(rules(&["--select", "memory"]), ["double-free"]);
    assert_eq!(rules(&["--select", "kernel"]), ["unguarded-thread-index"]);
    assert!(!rules(&["--ignore", "error-handling"])
        .iter()
        .any(|r| r.starts_with("unchecked")));
    assert!(rules(&["--select", "all"])
        .iter()
        .any(|r| r == "unchecked-cuda-call"));
    std::fs::write(dir.join("cudalint.toml"), "select = [\"memory\"]\n").unwrap();
    assert_eq!(rules(&[]), ["double-free"]);
    let unknown = cudalint(&dir, &["check", ".", "--select", "kernels"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("unknown rule `kernels`"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn format_name_given_to_output_is_refused_with_a_hint() {
    let (_guard, dir) = workspace();
    for name in ["json", "sarif", "Concise"] {
        let output = cudalint(&dir, &["check", "bad.cu", "-o", name]);
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains(&format!(
                "use `--output-format {}`",
                name.to_ascii_lowercase()
            )),
            "{}",
            stderr(&output)
        );
        assert!(!dir.join(name).exists(), "a file named {name} was written");
    }
    let written = cudalint(
        &dir,
        &["check", "bad.cu", "--format", "json", "-o", "./json"],
    );
    assert_eq!(written.status.code(), Some(1), "{}", stderr(&written));
    assert!(dir.join("json").is_file());
    let report = cudalint(&dir, &["check", "bad.cu", "-o", "report.json"]);
    assert_eq!(report.status.code(), Some(1));
    assert!(dir.join("report.json").is_file());
}

#[test]
fn show_files_and_show_settings_lint_nothing() {
    let (_guard, dir) = three_files();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/k.cu"), BAD_KERNEL).unwrap();
    std::fs::write(
        dir.join("sub/cudalint.toml"),
        "ignore = [\"error-handling\"]\ncheck-macros = [\"CHECK\"]\n[severity]\nunguarded-thread-index = \"error\"\n",
    )
    .unwrap();
    let files = cudalint(&dir, &["check", ".", "--show-files"]);
    assert_eq!(files.status.code(), Some(0), "no findings are reported");
    assert_eq!(stdout(&files), "bad.cu\nclean.cu\nfree.cu\nsub/k.cu\n");
    let settings = cudalint(&dir, &["check", "sub/k.cu", "--show-settings"]);
    assert_eq!(settings.status.code(), Some(0));
    let text = stdout(&settings);
    assert!(
        text.starts_with("sub/k.cu\n  configuration: sub/cudalint.toml\n"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["unguarded-thread-index", "kernel", "error"]),
        "{text}"
    );
    assert!(
        text.contains("rules off: unchecked-cuda-call, unchecked-kernel-launch"),
        "{text}"
    );
    assert!(text.contains("check-macros: CHECK"), "{text}");
    let defaults = cudalint(&dir, &["check", "bad.cu", "--show-settings"]);
    assert!(stdout(&defaults).contains("configuration: none (defaults)"));
}

/// What a run prints on a terminal (through `script`, which gives it a pseudo-terminal), the
/// report itself written to report.txt.
#[cfg(unix)]
fn on_a_terminal(dir: &Path, env: &[(&str, &str)]) -> String {
    let command = format!(
        "'{}' check . --no-cache -o report.txt",
        env!("CARGO_BIN_EXE_cudalint")
    );
    let mut script = Command::new("script");
    script
        .current_dir(dir)
        .args(["-qec", &command, "/dev/null"])
        .env_remove("CI")
        .env("TERM", "xterm");
    for (key, value) in env {
        script.env(key, value);
    }
    let output = script
        .output()
        .expect("`script` (util-linux) gives the test a terminal");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(dir.join("report.txt").is_file());
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn progress_bar_only_on_a_terminal_outside_ci_after_the_delay() {
    let (_guard, dir) = three_files();
    let shown = on_a_terminal(&dir, &[("CUDALINT_PROGRESS_DELAY_MS", "0")]);
    assert!(
        shown.contains("linting") && shown.contains("/3 files"),
        "{shown:?}"
    );
    let ci = on_a_terminal(&dir, &[("CUDALINT_PROGRESS_DELAY_MS", "0"), ("CI", "true")]);
    assert!(!ci.contains("linting"), "{ci:?}");
    // three small files take far less than the default second
    let quick = on_a_terminal(&dir, &[]);
    assert!(!quick.contains("linting"), "{quick:?}");
    let piped = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .current_dir(&dir)
        .args(["check", ".", "--no-cache", "--output-format", "concise"])
        .env("CUDALINT_PROGRESS_DELAY_MS", "0")
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(stderr(&piped), "", "no bar in a pipe");
}

#[test]
fn a_device_function_defined_in_another_file_through_a_shared_header_is_summarised() {
    let (_guard, dir) = workspace();
    std::fs::remove_file(dir.join("bad.cu")).unwrap();
    std::fs::write(
        dir.join("utils.h"),
        "#pragma once\n__host__ __device__ void decompose(unsigned long n, unsigned long& s, unsigned long& d);\n__host__ __device__ unsigned long odd_part(unsigned long n, const unsigned long& s);\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("utils.cu"),
        "#include \"utils.h\"\n__host__ __device__ void decompose(unsigned long n, unsigned long& s, unsigned long& d) {\n    s = 0; d = n;\n    while (d % 2 == 0) { d /= 2; s++; }\n}\n__host__ __device__ unsigned long odd_part(unsigned long n, const unsigned long& s) { return n >> s; }\n",
    )
    .unwrap();
    // `s[i]` and `d[i]` are filled through the references `decompose` takes; `odd_part` only
    // reads the element it is given
    std::fs::write(
        dir.join("kernel.cu"),
        "#include \"utils.h\"\n__global__ void split(const unsigned long* num, unsigned long* s, unsigned long* d, unsigned long* odd, const unsigned long* shift, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) { decompose(num[i] - 1, s[i], d[i]); odd[i] = odd_part(num[i], shift[i]); }\n}\nvoid run(const unsigned long* h, int n) {\n    unsigned long *num, *s, *d, *odd, *shift;\n    cudaMalloc(&num, n * 8); cudaMalloc(&s, n * 8); cudaMalloc(&d, n * 8); cudaMalloc(&odd, n * 8); cudaMalloc(&shift, n * 8);\n    cudaMemcpy(num, h, n * 8, cudaMemcpyHostToDevice);\n    split<<<(n + 255) / 256, 256>>>(num, s, d, odd, shift, n);\n    cudaFree(num); cudaFree(s); cudaFree(d); cudaFree(odd); cudaFree(shift);\n}\n",
    )
    .unwrap();
    let output = cudalint(
        &dir,
        &[
            "check",
            ".",
            "--select",
            "uninitialized-device-read",
            "--format",
            "json",
            "--no-cache",
        ],
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json output");
    let messages: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("reads `shift`"), "{messages:?}");
}
