//! Progress of long benchmark runs, drawn on stderr only when stderr is a terminal (never into
//! the JSON on stdout, never into a log file): a thin wrapper around `indicatif`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar over a known number of steps; hidden when stderr is not a terminal or when
/// `visible` is false (e.g. on every locale but 0, so that one process draws it).
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `total` steps, labeled `label`, shown only if `visible` and stderr is a
    /// terminal.
    pub fn new(total: u64, label: &str, visible: bool) -> Progress {
        let target = if visible && std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        let style = ProgressStyle::with_template("{prefix} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Progress { bar }
    }

    /// Says what runs now (the bar does not advance).
    pub fn working_on(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }

    /// Runs `f` (which prints to stdout) with the bar cleared, then redraws it: on a terminal
    /// the output's lines do not mix with the bar's.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// One step done.
    pub fn step(&self) {
        self.bar.inc(1);
    }

    /// Removes the bar (what follows on stderr starts on a clean line).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn hidden_bar_counts_without_drawing() {
        let p = Progress::new(3, "test", false);
        assert!(p.bar.is_hidden());
        p.working_on("a");
        p.step();
        p.step();
        assert_eq!(p.bar.position(), 2);
        assert_eq!(p.suspend(|| 7), 7);
        p.finish();
    }
}
