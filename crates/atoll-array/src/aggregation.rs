//! Static message aggregation: the per-locale mode (`ATOLL_AGGREGATION`), the `auto`
//! threshold, and the follower statistics the benchmarks report.
//!
//! In a zippered loop, each follower that is not aligned with the leader gets its elements for
//! one segment (a *chunk*) from the locales that own them. With [`Aggregation::Off`] every remote
//! element is one get (Chapel's original Cyclic follower). With [`Aggregation::Static`] the
//! chunk is split into per-locale strided pieces (the paper's modulo unrolling without
//! unrolling: on Cyclic and BlockCyclic data a piece has a fixed stride), and each piece is one
//! strided get (and, for a written follower, one strided put back). [`Aggregation::Auto`] (the
//! default) aggregates a piece only when the calibrated cost model says one strided transfer is
//! cheaper than its element gets (see [`CommModel`]).

use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

/// How followers fetch remote elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aggregation {
    /// One get (or put) per remote element: the baseline.
    Off,
    /// One strided get (or put) per remote piece of a chunk, always.
    Static,
    /// Strided transfers for pieces of at least [`CommModel::threshold`] elements, element
    /// gets below.
    Auto,
}

impl Aggregation {
    /// The name used by `ATOLL_AGGREGATION` and the benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Aggregation::Off => "off",
            Aggregation::Static => "static",
            Aggregation::Auto => "auto",
        }
    }

    fn code(self) -> u8 {
        self as u8 + 1
    }

    fn from_code(c: u8) -> Option<Self> {
        [Aggregation::Off, Aggregation::Static, Aggregation::Auto].get(usize::from(c).checked_sub(1)?).copied()
    }
}

impl std::fmt::Display for Aggregation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Aggregation {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(Aggregation::Off),
            "static" => Ok(Aggregation::Static),
            "auto" => Ok(Aggregation::Auto),
            other => Err(Error::InvalidArgument(format!("aggregation mode {other:?}: expected off, static or auto"))),
        }
    }
}

/// The process default: `ATOLL_AGGREGATION` (read once), `auto` when unset.
fn env_default() -> Result<Aggregation> {
    static ENV: OnceLock<std::result::Result<Aggregation, String>> = OnceLock::new();
    ENV.get_or_init(|| match std::env::var("ATOLL_AGGREGATION") {
        Ok(v) if !v.trim().is_empty() => v.parse::<Aggregation>().map_err(|e| format!("ATOLL_AGGREGATION: {e}")),
        _ => Ok(Aggregation::Auto),
    })
    .clone()
    .map_err(Error::InvalidArgument)
}

/// Per-locale state (a [`Ctx::locale_ext`]).
#[derive(Default)]
pub(crate) struct LocaleAgg {
    mode: AtomicU8,
    max_chunk: AtomicU64,
    chunks: AtomicU64,
    aggregated: AtomicU64,
    element_msgs: AtomicU64,
    model: OnceLock<Option<CommModel>>,
}

impl LocaleAgg {
    pub(crate) fn of(ctx: &Ctx) -> std::sync::Arc<LocaleAgg> {
        ctx.locale_ext::<LocaleAgg>()
    }

    /// The mode in force on this locale.
    pub(crate) fn mode(&self) -> Result<Aggregation> {
        match Aggregation::from_code(self.mode.load(Ordering::Relaxed)) {
            Some(m) => Ok(m),
            None => env_default(),
        }
    }

    /// Records one remote chunk of `elems` elements, fetched with `strided` strided transfers
    /// and `element` element transfers.
    pub(crate) fn record(&self, elems: usize, strided: u64, element: u64) {
        self.max_chunk.fetch_max(elems as u64, Ordering::Relaxed);
        self.chunks.fetch_add(1, Ordering::Relaxed);
        self.aggregated.fetch_add(strided, Ordering::Relaxed);
        self.element_msgs.fetch_add(element, Ordering::Relaxed);
    }

    /// The `auto` threshold for elements of `elem_bytes` bytes: `ATOLL_AGG_THRESHOLD`, or the
    /// calibrated model's (measured with `probe` the first time), or 2 when the probe's target
    /// was too small to measure (then the next call tries again).
    pub(crate) fn threshold_for(&self, ctx: &Ctx, elem_bytes: usize, probe: &dyn Fn(usize, usize) -> Result<bool>) -> usize {
        if let Ok(Some(k)) = threshold_override() {
            return k.max(2);
        }
        if let Some(m) = self.model.get() {
            return m.map_or(2, |m| m.threshold(elem_bytes));
        }
        match calibrate(ctx, elem_bytes, probe) {
            Some(m) => {
                let m = *self.model.get_or_init(|| Some(m));
                m.map_or(2, |m| m.threshold(elem_bytes))
            }
            None => 2,
        }
    }
}

/// The aggregation mode of this locale's loops. **Local.**
///
/// # Errors
/// [`Error::InvalidArgument`] when `ATOLL_AGGREGATION` holds something other than `off`,
/// `static` or `auto` and no mode was set with [`set_aggregation`].
pub fn aggregation(ctx: &Ctx) -> Result<Aggregation> {
    LocaleAgg::of(ctx).mode()
}

/// Sets the aggregation mode of this locale's loops from now on. **Local**: an SPMD program
/// calls it on every locale at the same point (each locale decides only how *it* fetches).
///
/// ```
/// use atoll_array::{aggregation, set_aggregation, Aggregation};
/// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
///     set_aggregation(ctx, Aggregation::Off);
///     assert_eq!(aggregation(ctx)?, Aggregation::Off);
///     Ok(())
/// }).unwrap();
/// ```
pub fn set_aggregation(ctx: &Ctx, mode: Aggregation) {
    LocaleAgg::of(ctx).mode.store(mode.code(), Ordering::Relaxed);
}

/// What this locale's followers fetched from other locales since the last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FollowerStats {
    /// The most elements a follower fetched remotely for one chunk (segment).
    pub max_chunk_elems: u64,
    /// Follower chunks that needed remote elements.
    pub remote_chunks: u64,
    /// Strided transfers made for them (one per aggregated piece; puts of written followers
    /// included).
    pub strided_transfers: u64,
    /// Element transfers made for them (one per remote element not aggregated).
    pub element_transfers: u64,
}

/// This locale's follower statistics. **Local.**
pub fn follower_stats(ctx: &Ctx) -> FollowerStats {
    let s = LocaleAgg::of(ctx);
    FollowerStats {
        max_chunk_elems: s.max_chunk.load(Ordering::Relaxed),
        remote_chunks: s.chunks.load(Ordering::Relaxed),
        strided_transfers: s.aggregated.load(Ordering::Relaxed),
        element_transfers: s.element_msgs.load(Ordering::Relaxed),
    }
}

/// Resets this locale's follower statistics. **Local.**
pub fn reset_follower_stats(ctx: &Ctx) {
    let s = LocaleAgg::of(ctx);
    for a in [&s.max_chunk, &s.chunks, &s.aggregated, &s.element_msgs] {
        a.store(0, Ordering::Relaxed);
    }
}

/// The cost model behind `auto`, measured once per locale (the first time a loop in `auto`
/// mode needs a remote element, against that array's storage on that locale, left out of the
/// communication counters): the time of a one-element get, and of a strided get of `k`
/// elements modeled as `strided_base_s + k * bytes * strided_per_byte_s`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CommModel {
    /// Seconds per one-element get.
    pub get_s: f64,
    /// Fixed seconds per strided get.
    pub strided_base_s: f64,
    /// Seconds per byte moved by a strided get.
    pub strided_per_byte_s: f64,
}

impl CommModel {
    /// The smallest number of elements of `elem_bytes` bytes for which one strided transfer is
    /// cheaper than one get per element (at least 2; `usize::MAX` if never).
    pub fn threshold(&self, elem_bytes: usize) -> usize {
        let gain = self.get_s - elem_bytes as f64 * self.strided_per_byte_s;
        if gain <= 0.0 {
            return usize::MAX;
        }
        // k * get > base + k * e * per_byte  <=>  k > base / gain.
        let k = (self.strided_base_s / gain).floor() + 1.0;
        if k.is_finite() && k < 1e15 { (k as usize).max(2) } else { usize::MAX }
    }
}

/// This locale's calibrated model, if a loop in `auto` mode has needed it yet. **Local.**
pub fn comm_model(ctx: &Ctx) -> Option<CommModel> {
    LocaleAgg::of(ctx).model.get().copied().flatten()
}

/// `ATOLL_AGG_THRESHOLD`: a fixed `auto` threshold in elements instead of the calibrated one.
pub(crate) fn threshold_override() -> Result<Option<usize>> {
    static ENV: OnceLock<std::result::Result<Option<usize>, String>> = OnceLock::new();
    ENV.get_or_init(|| match std::env::var("ATOLL_AGG_THRESHOLD") {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse::<usize>()
            .map(Some)
            .map_err(|_| format!("ATOLL_AGG_THRESHOLD={v:?}: expected a number of elements")),
        _ => Ok(None),
    })
    .clone()
    .map_err(Error::InvalidArgument)
}

/// The best of `reps` timings of `f` (seconds); `None` if `f` could not run.
fn best_time(reps: usize, f: &dyn Fn() -> Result<bool>) -> Option<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let t = std::time::Instant::now();
        match f() {
            Ok(true) => best = best.min(t.elapsed().as_secs_f64()),
            _ => return None,
        }
    }
    Some(best)
}

/// Measures the model with `probe(k, stride)` (one transfer of `k` elements at `stride`).
fn calibrate(ctx: &Ctx, elem_bytes: usize, probe: &dyn Fn(usize, usize) -> Result<bool>) -> Option<CommModel> {
    ctx.uncounted(|| {
        let get = best_time(16, &|| probe(1, 1))?;
        let small = best_time(8, &|| probe(2, 2))?;
        let big_k = 512;
        let big = best_time(4, &|| probe(big_k, 2)).unwrap_or(small);
        let per_byte = ((big - small) / ((big_k - 2) * elem_bytes) as f64).max(0.0);
        Some(CommModel { get_s: get, strided_base_s: (small - 2.0 * elem_bytes as f64 * per_byte).max(0.0), strided_per_byte_s: per_byte })
    })
}
