//! The leak report: `full` mode's live blocks, grouped by size and allocation site.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::stats::human_bytes;
use crate::table::{self, SysVec};
use crate::{sites, Mode};

/// Live blocks of one size allocated at one site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeakGroup {
    /// The size of each block in bytes.
    pub size: u64,
    /// How many blocks.
    pub count: u64,
    /// `size * count`.
    pub bytes: u64,
    /// The first frame of the allocating stack that belongs to the program (not to the
    /// allocator or the standard library), as `function (file:line)`; `None` when sites are not
    /// recorded (`ATOLL_MEM_TRACK_SITES` unset).
    pub site: Option<String>,
    /// Every captured frame, innermost first (empty when sites are not recorded).
    pub backtrace: Vec<String>,
    /// The locales that allocated these blocks, ascending.
    pub locales: Vec<usize>,
}

/// The blocks still live, grouped by (size, site), largest groups first.
///
/// Available in `full` mode (`ATOLL_MEM_TRACK=full`); sites need `ATOLL_MEM_TRACK_SITES=1`.
/// In other modes the report is empty and says why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeakReport {
    /// The mode when the report was made.
    pub mode: Mode,
    /// Whether sites were being recorded.
    pub sites_tracked: bool,
    /// The groups, by decreasing `bytes` (then size, then site).
    pub groups: Vec<LeakGroup>,
    /// Live blocks in all groups.
    pub total_count: u64,
    /// Live bytes in all groups.
    pub total_bytes: u64,
    /// Whether the report covers every recorded block (false only if memory ran out while
    /// copying the table).
    pub complete: bool,
    /// Live blocks marked permanent ([`permanent`](crate::permanent),
    /// [`mark_live_blocks_permanent`](crate::mark_live_blocks_permanent)): meant to live until
    /// the process ends, so not listed as leaks.
    pub permanent_count: u64,
    /// Their bytes.
    pub permanent_bytes: u64,
}

impl LeakReport {
    /// Whether the report could be made (the mode is `full`).
    pub fn is_available(&self) -> bool {
        self.mode == Mode::Full
    }

    /// The groups of blocks of exactly `size` bytes.
    pub fn groups_of_size(&self, size: u64) -> impl Iterator<Item = &LeakGroup> + '_ {
        self.groups.iter().filter(move |g| g.size == size)
    }
}

impl fmt::Display for LeakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_available() {
            return writeln!(
                f,
                "atoll-mem leak report: unavailable in {} mode (run with ATOLL_MEM_TRACK=full, and ATOLL_MEM_TRACK_SITES=1 for sites)",
                self.mode
            );
        }
        writeln!(
            f,
            "atoll-mem leak report: {} live blocks, {} bytes ({}) in {} groups{}",
            self.total_count,
            self.total_bytes,
            human_bytes(self.total_bytes),
            self.groups.len(),
            if self.complete { "" } else { " (incomplete: out of memory while copying the table)" }
        )?;
        if self.permanent_count != 0 {
            writeln!(
                f,
                "  (not listed: {} blocks, {} bytes ({}) marked permanent, meant to live until the process ends)",
                self.permanent_count,
                self.permanent_bytes,
                human_bytes(self.permanent_bytes)
            )?;
        }
        for g in &self.groups {
            let site = match &g.site {
                Some(s) => s.as_str(),
                None => "<site not recorded: set ATOLL_MEM_TRACK_SITES=1>",
            };
            writeln!(f, "{:>10} x {:>12} B = {:>14} B  locales {:?}  at {site}", g.count, g.size, g.bytes, g.locales)?;
        }
        Ok(())
    }
}

/// The leak report with the settings `mode` and `sites_tracked` (the public reader, which
/// reads the settings first, is [`leak_report`](crate::leak_report) in `report.rs`).
pub(crate) fn report(mode: Mode, sites_tracked: bool) -> LeakReport {
    let mut report = LeakReport {
        mode,
        sites_tracked,
        groups: Vec::new(),
        total_count: 0,
        total_bytes: 0,
        complete: true,
        permanent_count: 0,
        permanent_bytes: 0,
    };
    if mode != Mode::Full {
        return report;
    }
    // Copy the table first (into system-allocated storage), then build the report with
    // ordinary allocations, which may enter the table again without deadlock.
    let mut entries = SysVec::new();
    report.complete = table::snapshot(&mut entries);
    let mut groups: HashMap<(usize, u32), (u64, Vec<usize>)> = HashMap::new();
    for e in entries.as_slice() {
        if e.site == table::PERMANENT_SITE {
            report.permanent_count += 1;
            report.permanent_bytes += e.size as u64;
            continue;
        }
        let g = groups.entry((e.size, e.site)).or_default();
        g.0 += 1;
        if !g.1.contains(&(e.locale as usize)) {
            g.1.push(e.locale as usize);
        }
    }
    drop(entries);
    let mut described: HashMap<u32, sites::Described> = HashMap::new();
    for ((size, site), (count, mut locales)) in groups {
        locales.sort_unstable();
        let (site_text, backtrace) = if site == 0 {
            (None, Vec::new())
        } else {
            let d = described.entry(site).or_insert_with(|| sites::describe(site));
            (Some(d.site.clone()), d.frames.clone())
        };
        let size = size as u64;
        report.total_count += count;
        report.total_bytes += size * count;
        report.groups.push(LeakGroup { size, count, bytes: size * count, site: site_text, backtrace, locales });
    }
    report.groups.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(b.size.cmp(&a.size)).then(a.site.cmp(&b.site)));
    report
}
