//! `atoll-bench stream --sublocales`: the STREAM triad `a = b + alpha * c` on Block arrays
//! whose pieces target sublocales ([`Targets::Sublocales`]: each (locale, sublocale) piece first
//! touched and processed by that sublocale's pinned pool) beside the same triad on ordinary
//! Block arrays over locales (each locale's part split among its sublocales per loop, in
//! proportion to their threads), in one job with the same `n`, repetitions interleaved, and the
//! sequential triad on one core (plain `Vec`s on locale 0) as the one-core reference. Every
//! result is checked element by element.
//!
//! Lines: `triad_locales`, `triad_sublocales` (with `ratio_vs_locales`, the sublocale triad's
//! bandwidth over the locale-level one's), both with `speedup_vs_one_core` and
//! `one_core_gbps`. On a machine with one NUMA domain, `ATOLL_SUBLOCALES=core` gives one
//! sublocale per core (more than one per locale with one locale).

use crate::report::Line;
use crate::stream::{triad_ok, ALPHA, BYTES};
use atoll::array::{dist, DistArray, ExprExt, ExprReduce, Targets};
use atoll::prelude::*;
use std::time::Instant;

/// The three arrays of one triad.
struct Triad {
    a: DistArray<f64, 1>,
    b: DistArray<f64, 1>,
    c: DistArray<f64, 1>,
}

impl Triad {
    fn new(ctx: &Ctx, n: usize, targets: Targets) -> Result<Self> {
        let b = DistArray::from_fn_on(ctx, dist::block(ctx, [n])?, targets, |[i]| i as f64)?;
        let c = DistArray::<f64, 1>::filled_on(ctx, dist::block(ctx, [n])?, targets, 2.0)?;
        let a = DistArray::<f64, 1>::zeros_on(ctx, dist::block(ctx, [n])?, targets)?;
        Ok(Triad { a, b, c })
    }

    /// One timed triad: seconds on the slowest locale.
    fn rep(&mut self, ctx: &Ctx) -> Result<f64> {
        ctx.barrier()?;
        let s = Instant::now();
        self.a.assign_expr(&self.b + ALPHA * &self.c)?;
        ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)
    }

    /// The number of elements of `a` that differ from `b + alpha * c`.
    fn bad(&self) -> Result<u64> {
        (self.a.view() - (&self.b + ALPHA * &self.c)).map(|d| u64::from(d != 0.0)).sum()
    }

    fn free(self) -> Result<()> {
        self.a.free()?;
        self.b.free()?;
        self.c.free()
    }
}

/// The sequential triad on one core: best seconds over `reps` and whether it checked.
fn one_core(n: usize, reps: usize) -> (f64, bool) {
    let b: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let c = vec![2.0f64; n];
    let mut a = vec![0.0f64; n];
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let s = Instant::now();
        for ((x, &y), &z) in a.iter_mut().zip(&b).zip(&c) {
            *x = y + ALPHA * z;
        }
        best = best.min(s.elapsed().as_secs_f64());
        std::hint::black_box(&a);
    }
    let ok = a.iter().enumerate().all(|(i, &x)| x == i as f64 + ALPHA * 2.0);
    (best, ok)
}

/// Runs the pair of triads in one job; locale 0 prints.
pub fn sublocale_triads(cfg: &Config, n: usize, reps: usize, json: bool) -> Result<()> {
    let reps = reps.max(1);
    let out = run(cfg.clone(), |ctx| {
        let mut loc = Triad::new(ctx, n, Targets::Locales)?;
        let mut sub = Triad::new(ctx, n, Targets::Sublocales)?;
        let (mut t_loc, mut t_sub) = (f64::INFINITY, f64::INFINITY);
        for r in 0..reps {
            // Alternate which goes first, so neither always follows the other.
            if r % 2 == 0 {
                t_loc = t_loc.min(loc.rep(ctx)?);
                t_sub = t_sub.min(sub.rep(ctx)?);
            } else {
                t_sub = t_sub.min(sub.rep(ctx)?);
                t_loc = t_loc.min(loc.rep(ctx)?);
            }
        }
        let (bad_loc, bad_sub) = (loc.bad()?, sub.bad()?);
        loc.free()?;
        sub.free()?;
        let seq = if ctx.id() == 0 { Some(one_core(n, reps)) } else { None };
        ctx.barrier()?;
        let subs = ctx.sublocale_counts()?;
        Ok((ctx.id(), ctx.backend_name(), ctx.num_locales(), t_loc, t_sub, bad_loc, bad_sub, seq, subs))
    })?;
    let (id, backend, locales, t_loc, t_sub, bad_loc, bad_sub, seq, subs) = out;
    let Some((t_seq, seq_ok)) = seq.filter(|_| id == 0) else { return Ok(()) };
    let gb = |s: f64| BYTES * n as f64 / s / 1e9;
    let subs = format!("{subs:?}");
    for (variant, t, bad) in [("triad_locales", t_loc, bad_loc), ("triad_sublocales", t_sub, bad_sub)] {
        let mut line = Line::new("stream", variant, backend, locales, n as u64, t, triad_ok(bad, seq_ok))
            .with("gbps", gb(t))
            .with("one_core_gbps", gb(t_seq))
            .with("speedup_vs_one_core", t_seq / t)
            .with("sublocales", subs.as_str());
        if variant == "triad_sublocales" {
            line = line.with("ratio_vs_locales", gb(t) / gb(t_loc));
        }
        line.print(json);
    }
    Ok(())
}
