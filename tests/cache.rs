//! The persistent cache: a second run over unchanged inputs reads its findings back, byte for
//! byte what linting again gives, and any change a finding may depend on (a file, a header it
//! includes, a setting, the cudalint build) makes the run lint again.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/run.rs"]
mod run;
use run::cudalint;

const HIT: &str = "findings read from .cudalint_cache";

/// The two-file project of testdata/project/bad (a kernel calling a helper of a `.h` header that
/// is not linted) in a temporary directory with its own configuration.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().to_path_buf();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/project/bad");
    for name in ["launch_gather.cu", "gather.cuh", "device_helpers.h"] {
        std::fs::copy(source.join(name), root.join(name)).expect("copy fixture");
    }
    std::fs::write(root.join("cudalint.toml"), "check-macros = []\n").unwrap();
    (dir, root)
}

/// Runs with the cache (verbose, so a hit says so) and without it; the outputs must agree.
/// Returns the output and whether it came from the cache.
fn run_both(dir: &Path, extra: &[&str]) -> (String, bool) {
    let mut args = vec!["check", ".", "--verbose", "--output-format", "json"];
    args.extend_from_slice(extra);
    let cached = cudalint(dir, &args);
    let mut fresh_args = args.clone();
    fresh_args.push("--no-cache");
    let fresh = cudalint(dir, &fresh_args);
    assert_eq!(
        String::from_utf8_lossy(&cached.stdout),
        String::from_utf8_lossy(&fresh.stdout),
        "the cache changed the output"
    );
    assert_eq!(cached.status.code(), fresh.status.code());
    let stderr = String::from_utf8_lossy(&cached.stderr);
    assert!(
        !String::from_utf8_lossy(&fresh.stderr).contains(HIT),
        "--no-cache read the cache"
    );
    (
        String::from_utf8_lossy(&cached.stdout).into_owned(),
        stderr.contains(HIT),
    )
}

fn count(json: &str) -> usize {
    let value: serde_json::Value = serde_json::from_str(json).expect("json");
    value["diagnostics"].as_array().map(Vec::len).unwrap_or(0)
}

#[test]
fn second_run_reads_the_cache_and_gives_the_same_bytes() {
    let (_guard, dir) = project();
    let (first, hit) = run_both(&dir, &[]);
    assert!(!hit, "an empty cache cannot hit");
    assert_eq!(count(&first), 4, "{first}");
    let (second, hit) = run_both(&dir, &[]);
    assert!(hit, "unchanged inputs must be read from the cache");
    assert_eq!(first, second);
    let cache = dir.join(".cudalint_cache");
    assert_eq!(
        std::fs::read_to_string(cache.join(".gitignore")).unwrap(),
        "# created by cudalint\n*\n"
    );
    // every output format reads the same findings
    for format in ["terminal", "concise", "sarif", "github", "gitlab"] {
        let args = ["check", ".", "--output-format", format, "--color", "never"];
        let cached = cudalint(&dir, &args);
        let mut fresh_args = args.to_vec();
        fresh_args.push("--no-cache");
        let fresh = cudalint(&dir, &fresh_args);
        assert_eq!(cached.stdout, fresh.stdout, "{format}");
    }
}

#[test]
fn a_changed_header_outside_the_paths_invalidates() {
    let (_guard, dir) = project();
    run_both(&dir, &[]);
    assert!(run_both(&dir, &[]).1);
    // `put` in the header now writes nothing, so the call through it is no longer a finding
    let header = dir.join("device_helpers.h");
    let text = std::fs::read_to_string(&header).unwrap();
    let changed = text.replace("{ p[i] = v; }", "{ (void)p; (void)i; (void)v; }");
    assert_ne!(text, changed, "the fixture changed: update the test");
    std::fs::write(&header, changed).unwrap();
    let (after, hit) = run_both(&dir, &[]);
    assert!(!hit, "a changed header must lint again");
    assert_eq!(count(&after), 3, "{after}");
    // a header appearing where an include did not resolve before counts too
    std::fs::write(dir.join("extra.cuh"), "#include \"missing.h\"\n").unwrap();
    run_both(&dir, &[]);
    assert!(run_both(&dir, &[]).1);
    std::fs::write(dir.join("missing.h"), "// now here\n").unwrap();
    assert!(
        !run_both(&dir, &[]).1,
        "a newly resolvable include must lint again"
    );
}

#[test]
fn a_changed_file_or_setting_invalidates() {
    let (_guard, dir) = project();
    run_both(&dir, &[]);
    std::fs::write(
        dir.join("cudalint.toml"),
        "[severity]\nunguarded-thread-index = \"error\"\n",
    )
    .unwrap();
    let (json, hit) = run_both(&dir, &[]);
    assert!(!hit, "a changed configuration must lint again");
    assert!(json.contains("\"severity\": \"error\""), "{json}");
    assert!(run_both(&dir, &[]).1);
    // command-line settings are settings too
    let (selected, hit) = run_both(&dir, &["--select", "memory"]);
    assert!(!hit);
    assert_eq!(count(&selected), 0);
    assert!(!run_both(&dir, &["-D", "X=1"]).1);
    // and so is a file's text
    let kernel = dir.join("gather.cuh");
    let text = std::fs::read_to_string(&kernel).unwrap();
    std::fs::write(&kernel, format!("{text}\n// touched\n")).unwrap();
    assert!(!run_both(&dir, &[]).1, "a changed file must lint again");
}

#[test]
fn another_build_does_not_read_the_entries() {
    use cudalint::cache::RunCache;
    use cudalint::engine::{self, CheckOptions};
    let (_guard, dir) = project();
    let paths = [dir.clone()];
    let run = |version: &str| {
        let cache = RunCache::in_directory(&dir).with_version(version);
        let run = engine::check_cached(
            &paths,
            CheckOptions::default(),
            Some(&cache),
            &engine::NoProgress,
        );
        let findings: Vec<String> = run
            .reports
            .iter()
            .flat_map(|r| r.diagnostics.iter().map(|d| format!("{d:?}")))
            .collect();
        (findings, cache.was_hit())
    };
    let (first, hit) = run("1.0.0");
    assert!(!hit);
    assert_eq!(run("1.0.0"), (first.clone(), true));
    assert_eq!(
        run("1.0.1"),
        (first.clone(), false),
        "a new version lints again"
    );
    assert_eq!(
        run("1.0.0"),
        (first, true),
        "each build keeps its own entry"
    );
}

#[test]
fn concurrent_runs_and_a_damaged_entry_are_safe() {
    let (_guard, dir) = project();
    let fresh = cudalint(
        &dir,
        &["check", ".", "--output-format", "json", "--no-cache"],
    );
    let children: Vec<std::process::Child> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_cudalint"))
                .current_dir(&dir)
                .args(["check", ".", "--output-format", "json"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run cudalint")
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().expect("wait");
        assert_eq!(output.stdout, fresh.stdout, "a concurrent run differed");
    }
    let cache = dir.join(".cudalint_cache");
    let names: Vec<String> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".tmp-")),
        "a temporary file was left: {names:?}"
    );
    let entries: Vec<&String> = names.iter().filter(|n| n.starts_with("run-")).collect();
    assert_eq!(entries.len(), 1, "{names:?}");
    // a damaged entry is a miss, and is replaced
    let entry = cache.join(entries[0]);
    let bytes = std::fs::read(&entry).unwrap();
    std::fs::write(&entry, &bytes[..bytes.len() / 2]).unwrap();
    let (json, hit) = run_both(&dir, &[]);
    assert!(!hit);
    assert_eq!(json.as_bytes(), fresh.stdout.as_slice());
    assert!(run_both(&dir, &[]).1, "the damaged entry was replaced");
}

#[test]
fn an_unwritable_cache_still_lints() {
    let (_guard, dir) = project();
    // a file where the cache directory would go
    std::fs::write(dir.join(".cudalint_cache"), "not a directory").unwrap();
    let output = cudalint(&dir, &["check", ".", "--output-format", "concise"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("4 warnings"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// A header found only through the `-I` of a Makefile, and the Makefile itself, are inputs too.
#[test]
fn a_header_on_the_build_files_include_path_and_the_build_file_invalidate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().to_path_buf();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/project/build_file_includes");
    for name in [
        "hip/Makefile",
        "hip/scale.cu",
        "cuda/scale_config.h",
        "cuda/scale.cu",
    ] {
        let target = root.join(name);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(source.join(name), &target).expect("copy fixture");
    }
    let hip = root.join("hip");
    let (clean, hit) = run_both(&hip, &[]);
    assert!(!hit);
    assert_eq!(count(&clean), 0, "{clean}");
    assert!(
        run_both(&hip, &[]).1,
        "unchanged inputs must be read from the cache"
    );
    // a block that no longer divides the count: the early return now splits a block before its
    // barrier, which only the header on the Makefile's include path says
    let config = root.join("cuda/scale_config.h");
    let text = std::fs::read_to_string(&config).unwrap();
    let changed = text.replace("#define SCALE_BLOCK 256", "#define SCALE_BLOCK 384");
    assert_ne!(text, changed, "the fixture changed: update the test");
    std::fs::write(&config, changed).unwrap();
    let (after, hit) = run_both(&hip, &[]);
    assert!(!hit, "a changed header on the include path must lint again");
    assert!(after.contains("divergent-barrier"), "{after}");
    assert!(run_both(&hip, &[]).1);
    // without the `-I` the header is not found: the Makefile is an input of the run
    let makefile = hip.join("Makefile");
    let text = std::fs::read_to_string(&makefile).unwrap();
    std::fs::write(&makefile, text.replace(" -I../cuda", "")).unwrap();
    assert!(
        !run_both(&hip, &[]).1,
        "a changed build file must lint again"
    );
}
