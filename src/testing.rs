//! Test support: run one lint on a snippet, as the pass/fail cases beside each lint do.

use crate::diagnostic::Diagnostic;
use crate::lint::Lint;

/// The findings of `lint` on `source`, linted as the file `snippet.cu` with every rule selected
/// (a rule that is off by default is still tested).
pub fn run_on_snippet(lint: &Lint, source: &str) -> Vec<Diagnostic> {
    run_with_settings(lint, source, &crate::config::Settings::every_rule())
}

/// The findings of `lint` on `source` under `settings`.
pub fn run_with_settings(
    lint: &Lint,
    source: &str,
    settings: &crate::config::Settings,
) -> Vec<Diagnostic> {
    let outcome = crate::engine::lint_text(std::path::Path::new("snippet.cu"), source, settings);
    outcome
        .diagnostics
        .into_iter()
        .filter(|d| d.rule == lint.name)
        .collect()
}

/// Asserts every pass case reports nothing and every fail case reports at least once.
pub fn assert_cases(lint: &Lint, pass: &[&str], fail: &[&str]) {
    for case in pass {
        let found = run_on_snippet(lint, case);
        assert!(
            found.is_empty(),
            "{}: expected no finding, got {:?}\n--- in ---\n{}",
            lint.name,
            found.iter().map(|d| &d.message).collect::<Vec<_>>(),
            case
        );
    }
    for case in fail {
        let found = run_on_snippet(lint, case);
        assert!(
            !found.is_empty(),
            "{}: expected a finding in\n{}",
            lint.name,
            case
        );
    }
}

/// Runs `with` on the host facts of `function` in `source`, read as the file `path`.
pub fn with_host_function<R>(
    path: &str,
    source: &str,
    function: &str,
    with: impl FnOnce(&crate::model::Model, &crate::model::host::HostFunction) -> R,
) -> R {
    crate::verify::with_model(std::path::Path::new(path), source, |model| {
        let host = model
            .host
            .functions
            .iter()
            .find(|h| model.functions[h.function_index].name == function)
            .unwrap_or_else(|| panic!("no host function {function}"));
        with(model, host)
    })
    .unwrap_or_else(|| panic!("{path} does not parse"))
}
