//! GPU tests of `--verify`: ignored by `cargo test` (CI has no GPU); tests/gpu.sh runs them.
//! Without a CUDA driver they say "skipped: no GPU" on stderr.

use std::process::Command;

fn driver_present() -> bool {
    // SAFETY: probing only loads the library.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

#[test]
#[ignore = "needs an NVIDIA GPU; run tests/gpu.sh"]
fn every_verifiable_fixture_finding_is_confirmed() {
    if !driver_present() {
        eprintln!("skipped: no GPU");
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .args([
            "check",
            "--verify",
            "--format",
            "json",
            "testdata/bad/unguarded_thread_index.cu",
            "testdata/bad/out_of_range_access.cu",
            "kernels/unguarded-thread-index/bad.cu",
            "kernels/out-of-range-access/bad.cu",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert!(!diagnostics.is_empty());
    for diagnostic in diagnostics {
        let verification = &diagnostic["verification"];
        // an access made inside a device function the kernel calls is not instrumented (only the
        // kernel's own accesses are): verify says so rather than guessing
        let inside_helper = verification["status"] == "not-verifiable"
            && verification["detail"]
                .as_str()
                .is_some_and(|d| d.contains("inside the device function"));
        if inside_helper {
            continue;
        }
        assert_eq!(verification["status"], "confirmed", "{diagnostic}");
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU; run tests/gpu.sh"]
fn good_reproductions_stay_clean() {
    if !driver_present() {
        eprintln!("skipped: no GPU");
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .args([
            "verify-file",
            "kernels/unguarded-thread-index/good.cu",
            "kernels/out-of-range-access/good.cu",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.contains("clean in")), "{text}");
}
