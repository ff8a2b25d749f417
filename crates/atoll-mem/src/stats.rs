//! The counters' figures: [`MemStats`] and its table, and the per-locale queries. (The readers
//! that read the settings first, such as [`MemStats::snapshot`], are in `report.rs`.)

use std::fmt;

use atoll_error::{Error, Result};
use serde::{Deserialize, Serialize};

use crate::counters::{self, Figures, MAX_LOCALES};
use crate::{table, Mode};

/// One locale's (or the whole process's) figures since the last [`set_mode`](crate::set_mode)
/// (or since start-up).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocaleStats {
    /// Bytes in use: `net` clamped at zero.
    pub used: u64,
    /// Bytes allocated minus bytes freed. In `count` mode a free is charged to the freeing
    /// thread's locale, so a locale that frees blocks another allocated can go negative; the
    /// process total is exact. In `full` mode a free is charged to the allocating locale.
    pub net: i64,
    /// The highest use seen: never below `used`, and within the peak granule per allocating
    /// thread of the true peak (see the crate documentation).
    pub peak: u64,
    /// Counted allocations (a `realloc` counts as a free plus an allocation).
    pub allocs: u64,
    /// Counted frees.
    pub frees: u64,
}

impl LocaleStats {
    fn from_figures(f: Figures) -> Self {
        LocaleStats {
            used: f.net.max(0) as u64,
            net: f.net,
            peak: f.peak.max(0) as u64,
            allocs: f.allocs,
            frees: f.frees,
        }
    }

    /// Whether anything was counted for this locale.
    pub fn is_active(&self) -> bool {
        self.allocs != 0 || self.frees != 0 || self.net != 0
    }
}

/// A snapshot of the tracking counters, per locale and for the process.
///
/// ```
/// # #[global_allocator]
/// # static ALLOC: atoll_mem::TrackingAllocator = atoll_mem::TrackingAllocator::new();
/// # fn main() {
/// atoll_mem::set_mode(atoll_mem::Mode::Count, 0);
/// let v = vec![0u8; 4096];
/// let stats = atoll_mem::MemStats::snapshot();
/// assert!(stats.total.used >= 4096 && stats.total.peak >= stats.total.used);
/// assert!(stats.locale(0).unwrap().allocs >= 1);
/// println!("{stats}"); // the table that `print_stats_table` prints
/// # drop(v);
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemStats {
    /// The tracking mode when the snapshot was taken.
    pub mode: Mode,
    /// The threshold in bytes.
    pub threshold: usize,
    /// Whether allocation sites are recorded.
    pub track_sites: bool,
    /// Whether the tracking allocator is installed (has counted anything).
    pub installed: bool,
    /// The whole process.
    pub total: LocaleStats,
    /// Locale `i` at index `i`, for every locale id below [`MAX_LOCALES`].
    pub locales: Vec<LocaleStats>,
    /// Blocks recorded in the `full`-mode table (0 in the other modes).
    pub table_entries: u64,
}

impl MemStats {
    /// Reads every counter, with the settings `mode`, `threshold` and `track_sites` (the
    /// public reader, which reads the settings first, is in `report.rs`).
    pub(crate) fn read(mode: Mode, threshold: usize, track_sites: bool) -> MemStats {
        let (per, total) = counters::all_figures();
        MemStats {
            mode,
            threshold,
            track_sites,
            installed: counters::installed(),
            total: LocaleStats::from_figures(total),
            locales: per.iter().map(|&f| LocaleStats::from_figures(f)).collect(),
            table_entries: if mode == Mode::Full { table::len() as u64 } else { 0 },
        }
    }

    /// The figures of `locale`, or `None` beyond [`MAX_LOCALES`].
    pub fn locale(&self, locale: usize) -> Option<&LocaleStats> {
        self.locales.get(locale)
    }
}

/// Formats a byte count with a binary unit (`1.50 MiB`).
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.2} {}", UNITS[unit])
}

impl fmt::Display for MemStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "atoll-mem: mode {}, threshold {} B, sites {}{}",
            self.mode,
            self.threshold,
            if self.track_sites { "on" } else { "off" },
            if self.installed { "" } else { " (tracking allocator not installed)" }
        )?;
        writeln!(f, "{:>7} {:>26} {:>26} {:>12} {:>12}", "locale", "in use", "peak", "allocs", "frees")?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, s: &LocaleStats| {
            writeln!(
                f,
                "{:>7} {:>26} {:>26} {:>12} {:>12}",
                name,
                format!("{} ({})", s.used, human_bytes(s.used)),
                format!("{} ({})", s.peak, human_bytes(s.peak)),
                s.allocs,
                s.frees
            )
        };
        for (i, s) in self.locales.iter().enumerate().filter(|(_, s)| s.is_active()) {
            row(f, &i.to_string(), s)?;
        }
        row(f, "total", &self.total)?;
        if self.mode == Mode::Full {
            writeln!(f, "{} blocks recorded", self.table_entries)?;
        }
        Ok(())
    }
}

/// Checks a locale id.
pub(crate) fn check_locale(locale: usize) -> Result<()> {
    if locale < MAX_LOCALES {
        Ok(())
    } else {
        Err(Error::InvalidLocale { locale, num_locales: MAX_LOCALES })
    }
}

/// Bytes in use by the whole process (allocations counted since start-up or the last
/// [`set_mode`](crate::set_mode), minus frees; clamped at zero).
///
/// Exact in `count` and `full` mode whenever no other thread is allocating or freeing; 0 in
/// `off` mode, or when the tracking allocator is not installed.
pub fn memory_used() -> u64 {
    counters::total_figures().net.max(0) as u64
}

/// Bytes in use by `locale` (see [`LocaleStats::net`] for how frees are attributed).
///
/// # Errors
///
/// [`Error::InvalidLocale`] for `locale >= MAX_LOCALES`.
pub fn memory_used_by(locale: usize) -> Result<u64> {
    check_locale(locale)?;
    Ok(counters::locale_figures(locale).net.max(0) as u64)
}

/// The figures of one locale, without allocating (unlike [`MemStats::snapshot`]).
///
/// # Errors
///
/// [`Error::InvalidLocale`] for `locale >= MAX_LOCALES`.
pub fn locale_stats(locale: usize) -> Result<LocaleStats> {
    check_locale(locale)?;
    Ok(LocaleStats::from_figures(counters::locale_figures(locale)))
}

/// The process's figures (all locales), without allocating.
pub fn total_stats() -> LocaleStats {
    LocaleStats::from_figures(counters::total_figures())
}

/// The highest process-wide use seen since start-up, the last [`set_mode`](crate::set_mode)
/// or [`reset_peak`]. Never below [`memory_used`] at the moment of the call; see the crate
/// documentation for its precision.
pub fn peak_memory() -> u64 {
    counters::total_figures().peak.max(0) as u64
}

/// The highest use of `locale` seen (same guarantees as [`peak_memory`]).
///
/// # Errors
///
/// [`Error::InvalidLocale`] for `locale >= MAX_LOCALES`.
pub fn peak_memory_by(locale: usize) -> Result<u64> {
    check_locale(locale)?;
    Ok(counters::locale_figures(locale).peak.max(0) as u64)
}

/// Counted allocations since start-up or the last [`set_mode`](crate::set_mode).
pub fn allocation_count() -> u64 {
    counters::total_figures().allocs
}

/// Counted frees since start-up or the last [`set_mode`](crate::set_mode).
pub fn free_count() -> u64 {
    counters::total_figures().frees
}

/// Restarts the peaks (process and locales) at the current use.
pub fn reset_peak() {
    counters::reset_peaks();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(64 << 20), "64.00 MiB");
    }

    #[test]
    fn table_lists_active_locales_and_total() {
        let mut locales = vec![LocaleStats::default(); MAX_LOCALES];
        locales[3] = LocaleStats { used: 2048, net: 2048, peak: 4096, allocs: 3, frees: 1 };
        let s = MemStats {
            mode: Mode::Count,
            threshold: 0,
            track_sites: false,
            installed: true,
            total: locales[3],
            locales,
            table_entries: 0,
        };
        let text = s.to_string();
        assert!(text.contains("mode count"), "{text}");
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 4, "{text}");
        assert!(rows[2].trim_start().starts_with("3 ") && rows[2].contains("2048 (2.00 KiB)"), "{text}");
        assert!(rows[3].trim_start().starts_with("total"), "{text}");
    }

    #[test]
    fn bad_locales_are_errors() {
        assert_eq!(memory_used_by(MAX_LOCALES), Err(Error::InvalidLocale { locale: 64, num_locales: 64 }));
        assert!(peak_memory_by(1000).is_err());
        assert_eq!(memory_used_by(5), Ok(0));
    }
}
