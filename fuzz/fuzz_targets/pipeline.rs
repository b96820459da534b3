//! Bytes → preprocessing view → parse → model → every lint → every renderer, with and without
//! `-D` definitions; any panic or stack overflow is a bug.
#![no_main]

use cudalint::config::Settings;
use cudalint::engine::{self, FileReport, RunResult};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = PathBuf::from("fuzz.cu");
    let defined = Settings { defines: vec!["USE_A".into(), "N=4".into()], ..Settings::default() };
    for settings in [Settings::default(), defined] {
        let outcome = engine::lint_text(&path, &text, &settings);
        let report = FileReport {
            path: path.clone(),
            display_path: "fuzz.cu".into(),
            source: Arc::from(text.as_ref()),
            diagnostics: outcome.diagnostics,
            skipped_regions: outcome.skipped_regions,
            warning: std::str::from_utf8(data).is_err().then(|| "not valid UTF-8".to_string()),
            findings_on_broken_code: outcome.findings_on_broken_code,
        };
        let run = RunResult {
            reports: vec![report],
            errors: Vec::new(),
        };
        let _ = cudalint::render::json::render(&run);
        let _ = cudalint::render::terminal::render(&run, true);
        let _ = cudalint::render::terminal::render(&run, false);
    }
    let _ = cudalint::parse_stats::measure_text(&path, &text, &Settings::default());
});
