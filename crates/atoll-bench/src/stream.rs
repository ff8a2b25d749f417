//! `atoll-bench stream`: the STREAM triad `a = b + alpha * c` on Block-distributed arrays over
//! all locales, against the memory-bandwidth limit measured in the same run by a plain
//! multi-threaded loop over one `Vec` per array (one thread per core, static chunks, pages
//! first touched by the thread that uses them). Reported with sublocale pinning on (`triad`) and
//! off (`triad_unpinned`).

use crate::baseline::Baseline;
use crate::report::Line;
use atoll::array::{dist, DistArray, ExprExt, ExprReduce};
use atoll::prelude::*;
use std::time::Instant;

/// Options of the stream benchmark.
pub struct StreamOpts {
    pub json: bool,
    pub n: usize,
    pub reps: usize,
}

const ALPHA: f64 = 3.0;
/// Bytes moved per element: read b and c, write a.
const BYTES: f64 = 24.0;

/// The triad on Block arrays over all locales, each repetition followed by one of the baseline
/// on locale 0 (interleaved, so both see the same machine): best times and whether both checked.
fn triad(ctx: &Ctx, n: usize, reps: usize, base: Option<&Baseline>) -> Result<(f64, f64, bool)> {
    let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
    let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let (mut best, mut best_base) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..reps {
        ctx.barrier()?;
        let t = Instant::now();
        a.assign_expr(&b + ALPHA * &c)?;
        let dt = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
        best = best.min(dt);
        if let Some(bl) = base {
            best_base = best_base.min(bl.rep());
        }
        ctx.barrier()?;
    }
    // Check every element against the formula (a reduction over the expression).
    let bad = (a.view() - (&b + ALPHA * &c)).map(|d| u64::from(d != 0.0)).sum()?;
    let base_ok = base.is_none_or(Baseline::check);
    Ok((best, best_base, bad == 0 && base_ok))
}

/// Runs the benchmark; locale 0 prints.
pub fn stream(cfg: &Config, opts: &StreamOpts) -> Result<()> {
    let (n, reps) = (opts.n, opts.reps.max(1));
    let threads = std::thread::available_parallelism().map(|x| x.get()).unwrap_or(1);
    // Started before the jobs, so its threads are not pinned to locale 0's cores.
    let baseline = Baseline::new(n, threads, ALPHA);
    for (variant, pin) in [("triad", true), ("triad_unpinned", false)] {
        let mut c = cfg.clone();
        c.pin = pin;
        let out = run(c, |ctx| {
            // Locale 0 drives the baseline (under MPI: rank 0, while the others wait).
            let r = triad(ctx, n, reps, (ctx.id() == 0).then_some(&baseline))?;
            Ok((ctx.id(), ctx.backend_name(), ctx.num_locales(), r))
        })?;
        let (id, backend, locales, (s, base_s, ok)) = out;
        if id != 0 {
            continue;
        }
        let (gbps, limit) = (BYTES * n as f64 / s / 1e9, BYTES * n as f64 / base_s / 1e9);
        Line::new("stream", variant, backend, locales, n as u64, s, ok)
            .with("gbps", gbps)
            .with("limit_gbps", limit)
            .with("limit_threads", threads as u64)
            .with("ratio_vs_limit", gbps / limit)
            .print(opts.json);
    }
    Ok(())
}
