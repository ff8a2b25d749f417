//! The allocator's configuration word, its lazy start-up from the environment, and runtime
//! switching; and the end-of-run report that the start-up registers ([`report_at_exit`]).
//!
//! The configuration is one atomic word, so the allocator reads a consistent configuration
//! with a single relaxed load: bit 0 COUNTING (`count` or `full`), bit 1 FULL, bit 2 "record
//! sites", and bits 3.. the size below which blocks are passed straight to the system: the
//! threshold in `count` and `full` mode, and the largest value the field holds in `off` mode.
//! So one comparison of the block's size with `word >> 3` sends both `off` mode and small
//! blocks to the system. The word is 0 until the environment has been read.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering::*};
use std::sync::Mutex;

use atoll_error::Error;

use crate::config::{ParseFail, Settings, SETTING_KEYS, SETTING_KEYS_C};
use crate::stats::MemStats;
use crate::{counters, leaks, raw, table, Mode};
use atoll_util::sync::lock;

/// The word before start-up.
pub(crate) const UNINIT: usize = 0;
/// `count` or `full` mode.
pub(crate) const COUNTING: usize = 1;
/// `full` mode.
pub(crate) const FULL: usize = 2;
/// Record allocation sites.
pub(crate) const SITES_BIT: usize = 4;
/// Where the size field starts.
pub(crate) const SKIP_SHIFT: u32 = 3;
/// The largest threshold the configuration word can hold (also `off` mode's size field).
pub(crate) const MAX_THRESHOLD: usize = usize::MAX >> SKIP_SHIFT;

static STATE: AtomicUsize = AtomicUsize::new(UNINIT);
/// The configured threshold (the word's size field is the maximum in `off` mode).
static THRESHOLD: AtomicUsize = AtomicUsize::new(0);

/// Whether start-up ran (its side effects: recording a bad value, the exit hook).
static STARTED: AtomicBool = AtomicBool::new(false);
/// Whether start-up finished (the recorded error is readable).
static START_DONE: AtomicBool = AtomicBool::new(false);
/// The settings read at start-up that are not part of the word.
static PRINT_STATS: AtomicBool = AtomicBool::new(false);
static REPORT_LEAKS: AtomicBool = AtomicBool::new(false);
/// Serialises `set_mode` and `set_track_sites`.
static SWITCH: Mutex<()> = Mutex::new(());

/// The first invalid setting seen at start-up, recorded without allocating.
struct BadSetting {
    /// Index into `SETTING_KEYS` + 1 (0 = none).
    key: AtomicU8,
    fail: AtomicU8,
    len: AtomicUsize,
    value: [AtomicU8; BAD_VALUE_MAX],
}

const BAD_VALUE_MAX: usize = 120;

static BAD: BadSetting = BadSetting {
    key: AtomicU8::new(0),
    fail: AtomicU8::new(0),
    len: AtomicUsize::new(0),
    value: [const { AtomicU8::new(0) }; BAD_VALUE_MAX],
};

/// Packs a configuration into a word.
pub(crate) fn encode(mode: Mode, threshold: usize, sites: bool) -> usize {
    let sites = if sites { SITES_BIT } else { 0 };
    let threshold = threshold.min(MAX_THRESHOLD);
    match mode {
        Mode::Off => (MAX_THRESHOLD << SKIP_SHIFT) | sites,
        Mode::Count => (threshold << SKIP_SHIFT) | sites | COUNTING,
        Mode::Full => (threshold << SKIP_SHIFT) | sites | COUNTING | FULL,
    }
}

/// The mode of an initialised word.
pub(crate) fn mode_of(word: usize) -> Mode {
    if word & COUNTING == 0 {
        Mode::Off
    } else if word & FULL != 0 {
        Mode::Full
    } else {
        Mode::Count
    }
}

/// The size below which blocks go straight to the system.
#[inline(always)]
pub(crate) fn skip_below(word: usize) -> usize {
    word >> SKIP_SHIFT
}

/// The configured threshold (also in `off` mode).
pub(crate) fn threshold() -> usize {
    word();
    THRESHOLD.load(Acquire)
}

/// The configuration word, as the allocator reads it (may be `M_UNINIT`).
#[inline(always)]
pub(crate) fn load() -> usize {
    STATE.load(Relaxed)
}

/// The configuration word, reading the environment first if nobody has yet.
pub(crate) fn word() -> usize {
    let w = STATE.load(Acquire);
    if w != UNINIT {
        w
    } else {
        start()
    }
}

/// Reads the settings from the environment, without allocating, and publishes them; returns
/// the configuration word.
///
/// Any number of threads may race here: each computes the same word from the same environment
/// and only the first store wins; the one-time side effects are guarded separately.
#[cold]
#[inline(never)]
pub(crate) fn start() -> usize {
    let mut settings = Settings::default();
    let mut first_failure = false;
    let record = !STARTED.swap(true, AcqRel);
    for (index, key) in SETTING_KEYS_C.iter().enumerate() {
        raw::with_env(key, |value| {
            let Some(value) = value else { return };
            if let Err(fail) = settings.apply(index, value) {
                if record && !first_failure {
                    first_failure = true;
                    record_bad(index, fail, value);
                }
            }
        });
    }
    let word = encode(settings.mode, settings.threshold, settings.track_sites);
    // The threshold first: a reader that sees the word (acquire) sees it too.
    let _ = THRESHOLD.compare_exchange(0, settings.threshold.min(MAX_THRESHOLD), AcqRel, Acquire);
    let published = match STATE.compare_exchange(UNINIT, word, AcqRel, Acquire) {
        Ok(_) => word,
        Err(current) => current,
    };
    if record {
        PRINT_STATS.store(settings.print_stats, Relaxed);
        REPORT_LEAKS.store(settings.report_leaks, Relaxed);
        if settings.print_stats || settings.report_leaks {
            register_exit_hook();
        }
        START_DONE.store(true, Release);
    }
    published
}

fn record_bad(index: usize, fail: ParseFail, value: &[u8]) {
    let n = value.len().min(BAD_VALUE_MAX);
    for (slot, &b) in BAD.value.iter().zip(&value[..n]) {
        slot.store(b, Relaxed);
    }
    BAD.len.store(value.len(), Relaxed);
    BAD.fail.store(fail as u8, Relaxed);
    BAD.key.store(index as u8 + 1, Release);
}

/// The error for the first invalid `ATOLL_MEM_*` value seen when the allocator started, if any.
pub(crate) fn config_error() -> Option<Error> {
    word();
    while !START_DONE.load(Acquire) {
        std::thread::yield_now();
    }
    let key = BAD.key.load(Acquire);
    if key == 0 {
        return None;
    }
    let fail = ParseFail::from_u8(BAD.fail.load(Relaxed))?;
    let len = BAD.len.load(Relaxed);
    let bytes: Vec<u8> = BAD.value.iter().take(len.min(BAD_VALUE_MAX)).map(|b| b.load(Relaxed)).collect();
    let mut value = String::from_utf8_lossy(&bytes).into_owned();
    if len > BAD_VALUE_MAX {
        value.push_str("...");
    }
    Some(fail.into_error(SETTING_KEYS[key as usize - 1], &value))
}

/// Whether `ATOLL_MEM_STATS` asked for the statistics at exit.
pub(crate) fn print_stats_at_exit() -> bool {
    word();
    PRINT_STATS.load(Relaxed)
}

/// Whether `ATOLL_MEM_LEAKS` asked for the leak report at exit.
pub(crate) fn report_leaks_at_exit() -> bool {
    word();
    REPORT_LEAKS.load(Relaxed)
}

/// Switches the mode and threshold; see [`crate::set_mode`].
pub(crate) fn set_mode(mode: Mode, threshold: usize) {
    let _g = lock(&SWITCH);
    let old = word();
    THRESHOLD.store(threshold.min(MAX_THRESHOLD), SeqCst);
    STATE.store(encode(mode, threshold, old & SITES_BIT != 0), SeqCst);
    table::clear();
    counters::rebase();
}

/// Turns site recording on or off; see [`crate::set_track_sites`].
pub(crate) fn set_track_sites(on: bool) {
    let _g = lock(&SWITCH);
    let old = word();
    STATE.store(if on { old | SITES_BIT } else { old & !SITES_BIT }, SeqCst);
}

/// The settings in effect, read from the environment first if nobody has yet: the mode, the
/// threshold and whether sites are recorded.
pub(crate) fn current() -> (Mode, usize, bool) {
    let word = word();
    (mode_of(word), threshold(), word & SITES_BIT != 0)
}

static REPORTED: AtomicBool = AtomicBool::new(false);
static HOOKED: AtomicBool = AtomicBool::new(false);

/// The end-of-run report: prints the statistics table if `ATOLL_MEM_STATS=1` and the leak
/// report if `ATOLL_MEM_LEAKS=1` (values read at start-up), to standard error. Runs once: later
/// calls (and the exit hook, after an explicit call) do nothing. The exit hook calls it at
/// normal process exit (after `main` returns and the standard library has flushed and freed
/// its output buffers).
pub fn report_at_exit() {
    let stats = print_stats_at_exit();
    let leaks = report_leaks_at_exit();
    if !(stats || leaks) || REPORTED.swap(true, AcqRel) {
        return;
    }
    let (mode, threshold, sites) = current();
    let mut text = String::new();
    if stats {
        text.push_str(&MemStats::read(mode, threshold, sites).to_string());
    }
    if leaks {
        text.push_str(&leaks::report(mode, sites).to_string());
    }
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

extern "C" fn exit_hook() {
    // Never unwind into libc.
    let _ = std::panic::catch_unwind(report_at_exit);
}

/// Registers (once) a libc `atexit` hook that calls [`report_at_exit`] at normal process exit.
/// The allocator does this by itself on its first call when `ATOLL_MEM_STATS=1` or
/// `ATOLL_MEM_LEAKS=1`. Returns whether the hook is registered.
pub fn install_exit_hook() -> bool {
    register_exit_hook()
}

fn register_exit_hook() -> bool {
    if HOOKED.swap(true, AcqRel) {
        return true;
    }
    if raw::register_atexit(exit_hook) {
        true
    } else {
        HOOKED.store(false, Release);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for mode in [Mode::Off, Mode::Count, Mode::Full] {
            for (threshold, sites) in [(0, false), (1024, true), (usize::MAX, false)] {
                let w = encode(mode, threshold, sites);
                assert_ne!(w, UNINIT);
                assert_eq!(mode_of(w), mode);
                assert_eq!(w & SITES_BIT != 0, sites);
                if mode == Mode::Off {
                    assert_eq!(skip_below(w), MAX_THRESHOLD, "off: every block goes to the system");
                } else {
                    assert_eq!(skip_below(w), threshold.min(MAX_THRESHOLD));
                }
            }
        }
    }
}
