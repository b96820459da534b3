//! Runs every fixture under testdata/ and every example under kernels/, comparing the findings
//! with the `// expect: rule` comments written on the offending lines.

use cudalint::config::Settings;
use cudalint::engine;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["testdata", "kernels"] {
        for entry in ignore::WalkBuilder::new(root.join(dir)).build().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "cu" || e == "cuh")
                && !path.to_string_lossy().contains("/regressions/")
                && !path.to_string_lossy().contains("/project/")
            {
                files.push(path.to_path_buf());
            }
        }
    }
    files.sort();
    assert!(files.len() > 40, "fixtures missing: found {}", files.len());
    files
}

/// (1-based line, rule) → count, from `// expect: a, b` comments.
fn expectations(text: &str) -> BTreeMap<(usize, String), usize> {
    marked(text, "// expect:")
}

/// (1-based line, rule) → count, from `// expect-label: rule` comments: a line that a finding of
/// the rule starting elsewhere points at (a rule that reports once per function).
fn label_expectations(text: &str) -> BTreeMap<(usize, String), usize> {
    marked(text, "// expect-label:")
}

fn marked(text: &str, marker: &str) -> BTreeMap<(usize, String), usize> {
    let mut expected = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(position) = line.find(marker) {
            let rest = &line[position + marker.len()..];
            // another marker may follow on the same line
            let rest = rest.split("//").next().unwrap_or(rest);
            for rule in rest.split(',') {
                let rule = rule.trim();
                if !rule.is_empty() {
                    *expected.entry((index + 1, rule.to_string())).or_insert(0) += 1;
                }
            }
        }
    }
    expected
}

/// Findings and, for the rules `labelled` names, the lines of their labels. Fixtures document
/// each rule, so every rule runs, including those off by default.
type Found = BTreeMap<(usize, String), usize>;

fn findings_and_labels(path: &Path, text: &str, labelled: &[String]) -> (Found, Found) {
    let outcome = engine::lint_text(path, text, &Settings::every_rule());
    let lines = cudalint::source::LineIndex::new(text);
    let mut found = BTreeMap::new();
    let mut labels = BTreeMap::new();
    for diagnostic in outcome.diagnostics {
        let (line, _) = lines.position(text, diagnostic.span.start);
        *found
            .entry((line, diagnostic.rule.to_string()))
            .or_insert(0) += 1;
        if labelled.iter().any(|r| r == diagnostic.rule) {
            for label in &diagnostic.labels {
                let (line, _) = lines.position(text, label.span.start);
                *labels
                    .entry((line, diagnostic.rule.to_string()))
                    .or_insert(0) += 1;
            }
        }
    }
    (found, labels)
}

fn findings(path: &Path, text: &str) -> Found {
    findings_and_labels(path, text, &[]).0
}

#[test]
fn every_fixture_reports_exactly_its_expectations() {
    let mut failures = Vec::new();
    for path in fixture_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = expectations(&text);
        let expected_labels = label_expectations(&text);
        let mut labelled: Vec<String> = expected_labels.keys().map(|(_, r)| r.clone()).collect();
        labelled.dedup();
        let (found, labels) = findings_and_labels(&path, &text, &labelled);
        let shown = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(&path)
            .display()
            .to_string();
        for (key, count) in &expected {
            let got = found.get(key).copied().unwrap_or(0);
            if got < *count {
                failures.push(format!(
                    "{shown}:{}: missing {} (expected {count}, got {got})",
                    key.0, key.1
                ));
            }
        }
        for (key, count) in &found {
            let want = expected.get(key).copied().unwrap_or(0);
            if *count > want {
                failures.push(format!(
                    "{shown}:{}: unexpected {} (expected {want}, got {count})",
                    key.0, key.1
                ));
            }
        }
        if labels != expected_labels {
            failures.push(format!(
                "{shown}: labels expected at {expected_labels:?}, found at {labels:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Each folder under testdata/project is one project: its files are linted together, as
/// `cudalint check DIR` does, so kernels in headers meet their launches in other files.
#[test]
fn project_fixtures_report_exactly_their_expectations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/project");
    let mut projects: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    projects.sort();
    assert!(projects.len() >= 2, "project fixtures missing");
    let mut failures = Vec::new();
    for project in projects {
        let run = engine::check(
            std::slice::from_ref(&project),
            engine::CheckOptions::default(),
        );
        assert!(run.errors.is_empty(), "{:?}", run.errors);
        assert!(
            run.reports.len() >= 2,
            "{}: {} files",
            project.display(),
            run.reports.len()
        );
        for report in &run.reports {
            let expected = expectations(&report.source);
            let lines = cudalint::source::LineIndex::new(&report.source);
            let mut found = BTreeMap::new();
            for diagnostic in &report.diagnostics {
                let (line, _) = lines.position(&report.source, diagnostic.span.start);
                *found
                    .entry((line, diagnostic.rule.to_string()))
                    .or_insert(0) += 1;
            }
            if found != expected {
                failures.push(format!(
                    "{}: expected {expected:?}, found {found:?}",
                    report.path.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn clean_fixtures_report_nothing() {
    for path in fixture_files()
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/clean/") || p.ends_with("good.cu"))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            expectations(&text).is_empty(),
            "{} is a clean fixture but has expectations",
            path.display()
        );
        let found = findings(&path, &text);
        assert!(found.is_empty(), "{}: {:?}", path.display(), found);
    }
}

#[test]
fn every_expected_rule_exists() {
    for path in fixture_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (_, rule) in expectations(&text).keys() {
            assert!(
                cudalint::lints::find(rule).is_some(),
                "{}: expects unknown rule `{rule}`",
                path.display()
            );
        }
    }
}

#[test]
fn every_rule_has_a_bad_fixture_and_kernel_pair() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for lint in cudalint::lints::ALL {
        if lint.name == "unused-suppression" {
            continue;
        }
        let fixture = root
            .join("testdata/bad")
            .join(format!("{}.cu", lint.name.replace('-', "_")));
        assert!(fixture.is_file(), "no bad fixture for {}", lint.name);
        let text = std::fs::read_to_string(&fixture).unwrap();
        assert!(
            expectations(&text).keys().any(|(_, r)| r == lint.name),
            "{} does not expect {}",
            fixture.display(),
            lint.name
        );
        for side in ["bad.cu", "good.cu"] {
            assert!(
                root.join("kernels").join(lint.name).join(side).is_file(),
                "kernels/{}/{side} missing",
                lint.name
            );
        }
    }
}

#[test]
fn every_rule_has_documentation_with_the_standard_headings() {
    for lint in cudalint::lints::ALL {
        for heading in [
            "## What it finds",
            "## Why is this bad",
            "## Example",
            "## Fix",
        ] {
            assert!(
                lint.docs.contains(heading),
                "lints/{}.md lacks `{heading}`",
                lint.name
            );
        }
        assert!(
            !lint.summary.ends_with('.')
                && lint
                    .summary
                    .chars()
                    .next()
                    .is_some_and(|c| !c.is_uppercase()),
            "{}: summary style",
            lint.name
        );
    }
}

/// The second phase lints again only the files whose lookups another file answers; the result
/// must be what linting every file with the whole project index gives.
#[test]
fn two_phases_give_what_the_whole_index_gives() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let settings = Settings::every_rule();
    for dir in [
        "project/bad",
        "project/clean",
        "project/errors_split",
        "bad",
        "clean",
    ] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "cu" || e == "cuh"))
            .collect();
        paths.sort();
        let texts: Vec<String> = paths
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        let sources: Vec<engine::SourceFile> = paths
            .iter()
            .zip(&texts)
            .map(|(path, text)| engine::SourceFile {
                path,
                text,
                settings: &settings,
            })
            .collect();
        let project = engine::lint_project(&sources);
        // the first phase again, file by file: the project run moves these indexes into its own
        let first: Vec<engine::FileOutcome> = paths
            .iter()
            .zip(&texts)
            .map(|(path, text)| engine::lint_text_offering(path, text, &settings))
            .collect();
        let offered: Vec<&cudalint::model::index::FileIndex> =
            first.iter().map(|f| &f.index).collect();
        let mut whole: Vec<cudalint::model::index::FileIndex> =
            offered.iter().map(|i| (*i).clone()).collect();
        let linted: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let wanted = engine::wanted_names(first.iter().map(|f| &f.lookups));
        whole.extend(engine::index_of_headers_outside(
            &offered, &linted, &settings, &wanted,
        ));
        let index = cudalint::model::index::ProjectIndex::new(whole);
        for ((path, text), outcome) in paths.iter().zip(&texts).zip(&project.files) {
            let whole = engine::lint_text_with(path, text, &settings, &index);
            assert_eq!(outcome.diagnostics, whole.diagnostics, "{}", path.display());
        }
        if dir.starts_with("project") {
            assert!(project.relinted > 0, "{dir}: nothing linted again");
        }
    }
}

/// The CUDA fixture a HIP twin under testdata/hip was generated from
/// (`scripts/hipify-fixtures.py`).
fn cuda_original(twin: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let relative = twin
        .strip_prefix(root.join("testdata/hip"))
        .expect("a twin lies under testdata/hip");
    if relative.starts_with("kernels") {
        root.join(relative)
    } else {
        root.join("testdata").join(relative)
    }
}

/// The rules whose messages name threads by their warp: HIP's warps (wavefronts) hold 64 lanes.
const WARP_WIDTH_RULES: &[&str] = &["shared-memory-race", "warp-synchronous-without-sync"];

/// Every HIP twin reports what its CUDA original reports, at the same lines, worded in HIP's
/// names (`hipMalloc`, `hipGetLastError`, "HIP calls"): the expectations are the original's, and
/// `every_fixture_reports_exactly_its_expectations` checks them on both. Where a finding depends
/// on the warp's width, the twin's line is marked `// wavefront:` and expects what a wavefront of
/// 64 lanes makes of it; the messages of the race rules, which name threads by warp, are not
/// compared.
#[test]
fn hip_twins_report_what_their_cuda_originals_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let twins: Vec<PathBuf> = fixture_files()
        .into_iter()
        .filter(|p| p.starts_with(root.join("testdata/hip")))
        .collect();
    assert!(twins.len() > 80, "HIP twins missing: found {}", twins.len());
    let hip = cudalint::model::runtime::Runtime::Hip;
    let mut failures = Vec::new();
    for twin in &twins {
        let original = cuda_original(twin);
        let twin_text = std::fs::read_to_string(twin).unwrap();
        let original_text = std::fs::read_to_string(&original).unwrap();
        // lines marked `wavefront:` expect what HIP's 64-lane warps make of the line
        let width_dependent: Vec<usize> = twin_text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("// wavefront:"))
            .map(|(i, _)| i + 1)
            .collect();
        let outside = |e: BTreeMap<(usize, String), usize>| -> BTreeMap<(usize, String), usize> {
            e.into_iter()
                .filter(|((line, _), _)| !width_dependent.contains(line))
                .collect()
        };
        assert_eq!(
            outside(expectations(&twin_text)),
            outside(expectations(&original_text)),
            "{} has other expectations than {}",
            twin.display(),
            original.display()
        );
        let settings = Settings::every_rule();
        let worded = |path: &Path, text: &str, translate: bool| -> Vec<(usize, String, String)> {
            let lines = cudalint::source::LineIndex::new(text);
            let mut found: Vec<(usize, String, String)> = engine::lint_text(path, text, &settings)
                .diagnostics
                .into_iter()
                .map(|d| {
                    let line = lines.position(text, d.span.start).0;
                    // which threads a race names depends on the warp's width
                    let message =
                        if WARP_WIDTH_RULES.contains(&d.rule) || width_dependent.contains(&line) {
                            String::new()
                        } else if translate {
                            hip.translate(&d.message)
                        } else {
                            d.message
                        };
                    (line, d.rule.to_string(), message)
                })
                .filter(|(line, _, _)| !width_dependent.contains(line))
                .collect();
            found.sort();
            found
        };
        let expected = worded(&original, &original_text, true);
        let found = worded(twin, &twin_text, false);
        if expected != found {
            failures.push(format!(
                "{}:\n  expected {expected:?}\n  found    {found:?}",
                twin.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} twins differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A run over many programs reads each program's headers: the limit on headers read holds per
/// linted file, not for the run. Seventy programs each launch their kernel from a header that
/// only their `main.cu` includes, with an exact grid; every kernel sees its launch.
#[test]
fn headers_outside_the_paths_are_read_for_every_program_of_a_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    // the launchers' headers declare the kernel, so a walk would lint them as sources
    std::fs::write(dir.path().join("cudalint.toml"), "kernel-headers = false\n").unwrap();
    for program in 0..70 {
        let folder = dir.path().join(format!("program{program:02}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("kernel.cu"),
            "__global__ void scale(float* data, float factor, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    data[i] *= factor;\n}\n",
        )
        .unwrap();
        std::fs::write(
            folder.join("launch.h"),
            "__global__ void scale(float* data, float factor, int n);\nvoid run_scale(float* data, int n) {\n    int blocks = n / 256;\n    scale<<<blocks, 256>>>(data, 2.0f, n);\n}\n",
        )
        .unwrap();
        std::fs::write(
            folder.join("main.cu"),
            "#include \"launch.h\"\nint main() {\n    float* d;\n    cudaMalloc(&d, 4096 * sizeof(float));\n    run_scale(d, 4096);\n    cudaFree(d);\n    return 0;\n}\n",
        )
        .unwrap();
    }
    let run = engine::check(&[dir.path().to_path_buf()], engine::CheckOptions::default());
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert_eq!(run.reports.len(), 140);
    let unguarded: Vec<String> = run
        .reports
        .iter()
        .flat_map(|r| {
            r.diagnostics
                .iter()
                .filter(|d| d.rule == "unguarded-thread-index")
                .map(move |_| r.path.display().to_string())
        })
        .collect();
    assert!(unguarded.is_empty(), "{unguarded:?}");
}
