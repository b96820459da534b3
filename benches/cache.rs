//! The persistent cache: a cold `cudalint check` (empty cache) against a second, cached one, over
//! the generated corpus and any directories given, in the same run. Each is the whole process
//! (walk, read, lint or read back, render the terminal report), timed from outside; the two
//! outputs must be identical byte for byte.
//!
//!     cargo bench --bench cache                  # the generated corpus of the throughput bench
//!     cargo bench --bench cache -- DIR [DIR..]   # the generated corpus, then each directory

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[allow(dead_code)]
#[path = "throughput.rs"]
mod throughput;

fn main() {
    let args: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .map(PathBuf::from)
        .collect();
    let corpus = std::env::temp_dir().join("cudalint-bench-corpus");
    let lines = throughput::generate_corpus(&corpus, 330_000);
    eprintln!("generated {lines} lines in {}", corpus.display());
    let mut roots = vec![corpus];
    roots.extend(args);
    println!(
        "{:<50} {:>10} {:>10} {:>8}  identical",
        "corpus", "cold", "cached", "speedup"
    );
    let mut failed = false;
    for root in &roots {
        let Ok(root) = std::fs::canonicalize(root) else {
            eprintln!("no such directory: {}", root.display());
            failed = true;
            continue;
        };
        // a fresh working directory with nothing above it marking a project, so the cache
        // starts empty and lives there
        let work = tempfile::tempdir().expect("temp dir");
        let (cold_seconds, cold) = timed(work.path(), &root);
        let (cached_seconds, cached) = timed(work.path(), &root);
        let identical = cold == cached;
        failed |= !identical;
        println!(
            "{:<50} {:>9.2}s {:>9.2}s {:>7.1}x  {}",
            root.display(),
            cold_seconds,
            cached_seconds,
            cold_seconds / cached_seconds,
            if identical { "yes" } else { "NO" }
        );
    }
    if failed {
        std::process::exit(1);
    }
}

fn timed(work: &Path, root: &Path) -> (f64, Vec<u8>) {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .current_dir(work)
        .args(["check", "--exit-zero", "--color", "never"])
        .arg(root)
        .output()
        .expect("run cudalint");
    let seconds = start.elapsed().as_secs_f64();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (seconds, output.stdout)
}
