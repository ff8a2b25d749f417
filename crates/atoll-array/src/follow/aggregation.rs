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

use atoll_error::Result;
use atoll_runtime::Ctx;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::OnceLock;

/// How followers fetch remote elements: the runtime's [`atoll_runtime::Aggregation`], set by
/// `ATOLL_AGGREGATION` or [`atoll_runtime::Config::with_aggregation`] (checked when the job
/// starts) and per locale by [`set_aggregation`].
pub use atoll_runtime::Aggregation;

fn code(m: Aggregation) -> u8 {
    match m {
        Aggregation::Off => 1,
        Aggregation::Static => 2,
        Aggregation::Auto => 3,
    }
}

fn from_code(c: u8) -> Option<Aggregation> {
    [Aggregation::Off, Aggregation::Static, Aggregation::Auto].get(usize::from(c).checked_sub(1)?).copied()
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
    /// The job's configured mode and `auto` threshold (`Config::aggregation`, `agg_threshold`).
    configured: OnceLock<(Aggregation, Option<usize>)>,
}

impl LocaleAgg {
    pub(crate) fn of(ctx: &Ctx) -> std::sync::Arc<LocaleAgg> {
        let a = ctx.locale_ext::<LocaleAgg>();
        a.configured.get_or_init(|| (ctx.config().aggregation, ctx.config().agg_threshold));
        a
    }

    /// The mode in force on this locale: the one set with [`set_aggregation`], else the job's
    /// configured one. (Always `Ok`: the configuration was checked when the job started.)
    pub(crate) fn mode(&self) -> Result<Aggregation> {
        Ok(from_code(self.mode.load(Ordering::Relaxed))
            .unwrap_or_else(|| self.configured.get().map_or(Aggregation::Auto, |c| c.0)))
    }

    /// Records one remote chunk of `elems` elements, fetched with `strided` strided transfers
    /// and `element` element transfers.
    pub(crate) fn record(&self, elems: usize, strided: u64, element: u64) {
        self.max_chunk.fetch_max(elems as u64, Ordering::Relaxed);
        self.chunks.fetch_add(1, Ordering::Relaxed);
        self.aggregated.fetch_add(strided, Ordering::Relaxed);
        self.element_msgs.fetch_add(element, Ordering::Relaxed);
    }

    /// The `auto` threshold for elements of `elem_bytes` bytes: `Config::agg_threshold`
    /// (`ATOLL_AGG_THRESHOLD`), or the
    /// calibrated model's (measured with `probe` the first time), or 2 when the probe's target
    /// was too small to measure (then the next call tries again).
    pub(crate) fn threshold_for(
        &self,
        ctx: &Ctx,
        elem_bytes: usize,
        probe: &dyn Fn(usize, usize) -> Result<bool>,
    ) -> usize {
        if let Some(&(_, Some(k))) = self.configured.get() {
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
/// None: an invalid `ATOLL_AGGREGATION` makes the job refuse to start (the `Result` is kept
/// for compatibility).
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
    LocaleAgg::of(ctx).mode.store(code(mode), Ordering::Relaxed);
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
        if k.is_finite() && k < 1e15 {
            (k as usize).max(2)
        } else {
            usize::MAX
        }
    }
}

/// This locale's calibrated model, if a loop in `auto` mode has needed it yet. **Local.**
pub fn comm_model(ctx: &Ctx) -> Option<CommModel> {
    LocaleAgg::of(ctx).model.get().copied().flatten()
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
        Some(CommModel {
            get_s: get,
            strided_base_s: (small - 2.0 * elem_bytes as f64 * per_byte).max(0.0),
            strided_per_byte_s: per_byte,
        })
    })
}
