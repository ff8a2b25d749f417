//! FT's result lines: the one-core baseline's, then one per transpose version with its
//! speedups over the one-core run and, when given, over NPB's MPI FT on the same ranks.

use super::class::Class;
use crate::report::Line;
use atoll::prelude::*;
use num_complex::Complex64;

/// NPB's own MPI FT, measured beside this run by `tools/npb/ft_side_by_side.py`.
#[derive(Clone, Copy)]
pub struct Npb {
    /// Its Mop/s.
    pub mops: f64,
    /// Its time in seconds.
    pub seconds: f64,
}

/// What every line of a run shares.
pub struct Run<'a> {
    /// The class.
    pub class: &'a Class,
    /// `local` or `mpi`.
    pub backend: &'a str,
    /// Locales.
    pub locales: usize,
    /// Threads of each locale's task pool.
    pub threads: usize,
    /// The one-core baseline's best time (none when skipped).
    pub one_core: Option<f64>,
    /// NPB's MPI FT on as many ranks, if measured.
    pub npb: Option<Npb>,
    /// Why there is no NPB figure.
    pub npb_note: Option<String>,
}

fn base(r: &Run<'_>, variant: &str, seconds: f64, ok: bool, last: Option<&Complex64>) -> Line {
    let mut l = Line::new("ft", variant, r.backend, r.locales, r.class.ntotal() as u64, seconds, ok)
        .with("class", r.class.name.to_string())
        .with("niter", r.class.niter as u64)
        .with("mops", r.class.mops(seconds));
    if let Some(c) = last {
        l = l.with("checksum_re", c.re).with("checksum_im", c.im);
    }
    l
}

/// The one-core baseline's line.
pub fn one_core_line(r: &Run<'_>, seconds: f64, sums: &[Complex64]) -> Line {
    base(r, "one_core", seconds, r.class.verify(sums), sums.last()).with("locales", 1u64).with("threads", 1u64)
}

/// A transpose version's line.
pub fn variant_line(
    r: &Run<'_>,
    variant: &str,
    seconds: f64,
    seconds_all: &[f64],
    ok: bool,
    sums: &[Complex64],
    counts: &CommCounts,
) -> Line {
    let mut l = base(r, variant, seconds, ok, sums.last())
        .with("threads", r.threads as u64)
        .with("seconds_all", seconds_all.to_vec())
        .with("messages", counts.total_ops())
        .with("bytes", counts.bytes)
        .with("puts", counts.puts + counts.strided_puts)
        .with("gets", counts.gets + counts.strided_gets);
    if let Some(one) = r.one_core {
        l = l.with("one_core_seconds", one).with("speedup_vs_one_core", one / seconds);
    }
    match (r.npb, &r.npb_note) {
        (Some(n), _) => {
            l = l
                .with("npb_mpi_mops", n.mops)
                .with("npb_mpi_seconds", n.seconds)
                .with("speedup_vs_npb_mpi", r.class.mops(seconds) / n.mops);
        }
        (None, Some(note)) => l = l.with("npb_note", note.clone()),
        (None, None) => {}
    }
    l
}
