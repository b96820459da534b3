//! A progress bar on stderr for `cudalint check`: only on a terminal, never in CI, and only once
//! a run has taken about a second, so quick runs and pipes stay exactly as they were.

use crate::engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a run goes before the bar appears.
pub const DEFAULT_DELAY: Duration = Duration::from_secs(1);

pub struct TerminalProgress {
    bar: ProgressBar,
    started: Instant,
    delay: Duration,
    shown: AtomicBool,
}

/// Whether a bar belongs on this stderr: a terminal, not CI (`CI` is set by GitHub Actions,
/// GitLab CI and most others), not a dumb terminal.
pub fn wanted(stderr_is_terminal: bool, ci: bool, term: Option<&str>) -> bool {
    stderr_is_terminal && !ci && term != Some("dumb")
}

impl TerminalProgress {
    /// A bar for this process's stderr, or `None` when it does not belong there.
    /// `CUDALINT_PROGRESS_DELAY_MS` changes the delay (the tests use 0).
    pub fn for_stderr() -> Option<TerminalProgress> {
        let term = std::env::var("TERM").ok();
        if !wanted(
            std::io::stderr().is_terminal(),
            std::env::var_os("CI").is_some(),
            term.as_deref(),
        ) {
            return None;
        }
        let delay = std::env::var("CUDALINT_PROGRESS_DELAY_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_DELAY);
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("linting {bar:30} {pos}/{len} files {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(TerminalProgress {
            bar,
            started: Instant::now(),
            delay,
            shown: AtomicBool::new(false),
        })
    }

    fn show_when_due(&self) {
        if self.shown.load(Ordering::Relaxed) || self.started.elapsed() < self.delay {
            return;
        }
        if !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.tick();
        }
    }
}

impl Progress for TerminalProgress {
    fn start(&self, files: usize) {
        self.bar.set_length(files as u64);
        self.show_when_due();
    }

    fn file_done(&self) {
        self.bar.inc(1);
        self.show_when_due();
    }

    fn second_phase(&self) {
        self.bar.set_message("(cross-file pass)");
        self.show_when_due();
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::wanted;

    #[test]
    fn only_an_interactive_terminal_gets_a_bar() {
        assert!(wanted(true, false, Some("xterm-256color")));
        assert!(wanted(true, false, None));
        assert!(!wanted(false, false, Some("xterm")), "a pipe or a file");
        assert!(!wanted(true, true, Some("xterm")), "CI");
        assert!(!wanted(true, false, Some("dumb")));
    }
}
