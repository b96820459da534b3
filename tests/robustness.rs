//! The pipeline never panics: on mutated fixtures (a bounded property test, the CI smoke run of
//! the fuzzer in fuzz/), and on every input the fuzzer or the corpora ever broke it with
//! (testdata/regressions/). Also: findings that rest on unparsable code are dropped and counted.

use cudalint::config::Settings;
use cudalint::engine::{self, FileReport, RunResult};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Lints, then renders with every renderer: the whole pipeline after reading the file.
fn run_pipeline(path: &Path, text: &str, settings: &Settings) -> usize {
    let outcome = engine::lint_text(path, text, settings);
    let count = outcome.diagnostics.len();
    let report = FileReport {
        path: path.to_path_buf(),
        display_path: path.display().to_string(),
        source: Arc::from(text),
        diagnostics: outcome.diagnostics,
        skipped_regions: outcome.skipped_regions,
        findings_on_broken_code: outcome.findings_on_broken_code,
        warning: None,
    };
    let run = RunResult {
        reports: vec![report],
        errors: Vec::new(),
        ..Default::default()
    };
    assert!(cudalint::render::json::render(&run).starts_with('{'));
    let _ = cudalint::render::terminal::render(&run, true);
    let _ = cudalint::render::terminal::render(&run, false);
    let _ = cudalint::parse_stats::measure_text(path, text, settings);
    count
}

fn files_under(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = ignore::WalkBuilder::new(root)
        .build()
        .flatten()
        .map(|e| e.path().to_path_buf())
        .filter(|p| p.extension().is_some_and(|e| e == "cu" || e == "cuh"))
        .collect();
    files.sort();
    files
}

#[test]
fn regression_inputs_lint_without_panic() {
    let files = files_under("testdata/regressions");
    assert!(
        files.len() >= 4,
        "regression inputs missing: {}",
        files.len()
    );
    let defined = Settings {
        defines: vec!["A".into(), "B=0".into()],
        ..Settings::every_rule()
    };
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        run_pipeline(&path, &text, &Settings::every_rule());
        run_pipeline(&path, &text, &defined);
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    Insert(usize, &'static str),
    Truncate(usize),
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for mutation in mutations {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let at_boundary = |offset: usize, text: &str| {
            cudalint::source::floor_char_boundary(text, offset % (text.len() + 1))
        };
        text = match mutation {
            Mutation::DeleteLine(n) if !lines.is_empty() => {
                let n = n % lines.len();
                lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != n)
                    .map(|(_, l)| *l)
                    .collect()
            }
            Mutation::DuplicateLine(n) if !lines.is_empty() => {
                let n = n % lines.len();
                lines
                    .iter()
                    .enumerate()
                    .flat_map(|(i, l)| if i == n { vec![*l, *l] } else { vec![*l] })
                    .collect()
            }
            Mutation::Insert(offset, piece) => {
                let offset = at_boundary(*offset, &text);
                format!("{}{}{}", &text[..offset], piece, &text[offset..])
            }
            Mutation::Truncate(offset) => text[..at_boundary(*offset, &text)].to_string(),
            _ => text,
        };
    }
    text
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pieces = prop::sample::select(vec![
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        "#if 0\n",
        "#else\n",
        "#endif\n",
        "\n#define X(a) a\n",
        "<<<",
        ">>>",
        "\"",
        "/*",
        "\\\n",
        "CHECK(x)\n",
        "__global__ ",
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), pieces).prop_map(|(o, p)| Mutation::Insert(o, p)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_never_panic(index in any::<usize>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let mut files = files_under("testdata");
        files.extend(files_under("kernels"));
        let path = &files[index % files.len()];
        let text = std::fs::read_to_string(path).unwrap();
        run_pipeline(path, &mutate(&text, &mutations), &Settings::every_rule());
    }
}

#[test]
fn findings_resting_on_unparsable_code_are_dropped_and_counted() {
    let clean = "__global__ void k(float* o, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 0;\n}\n";
    let outcome = engine::lint_text(Path::new("a.cu"), clean, &Settings::default());
    assert_eq!(
        outcome
            .diagnostics
            .iter()
            .filter(|d| d.rule == "unguarded-thread-index")
            .count(),
        1
    );
    assert_eq!(outcome.findings_on_broken_code, 0);

    // a statement before the access is unreadable (it may be a guard), so nothing is reported
    let broken = "__global__ void k(float* o, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float v = (1 + ) * 2 @ 3;\n  o[i] = 0;\n}\n";
    let outcome = engine::lint_text(Path::new("b.cu"), broken, &Settings::default());
    assert!(
        outcome
            .diagnostics
            .iter()
            .all(|d| d.rule != "unguarded-thread-index"),
        "{:?}",
        outcome.diagnostics
    );
    assert_eq!(outcome.findings_on_broken_code, 1);

    // broken code after the access, outside any loop around it, changes nothing before it
    let after = "__global__ void k(float* o, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  o[i] = 0;\n  float v = (1 + ) * 2 @ 3;\n}\n";
    let outcome = engine::lint_text(Path::new("c.cu"), after, &Settings::default());
    assert_eq!(
        outcome
            .diagnostics
            .iter()
            .filter(|d| d.rule == "unguarded-thread-index")
            .count(),
        1
    );
}
