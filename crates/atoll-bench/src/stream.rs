//! `atoll-bench stream`: the STREAM triad `a = b + alpha * c` on Block-distributed arrays over
//! all locales, against the memory-bandwidth limit measured in the same run by a plain
//! multi-threaded loop over one `Vec` per array (one thread per core, static chunks, pages
//! first touched by the thread that uses them), with plain stores and with non-temporal stores
//! (`limit_plain_gbps`, `limit_nt_gbps`; `limit_gbps` is the faster). Reported with sublocale
//! pinning on (`triad`) and off (`triad_unpinned`), and with Atoll's streaming stores turned off
//! (`triad_plain_stores`, pinned).

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

pub(crate) const ALPHA: f64 = 3.0;
/// Bytes moved per element: read b and c, write a.
pub(crate) const BYTES: f64 = 24.0;

/// Best seconds of each kernel and whether every result checked.
struct Timings {
    atoll: f64,
    plain: f64,
    nt: f64,
    ok: bool,
}

/// The triad's check: no element of Atoll's result differs and the baseline checked.
pub(crate) fn triad_ok(bad_elements: u64, baseline_ok: bool) -> bool {
    bad_elements == 0 && baseline_ok
}

/// The triad on Block arrays over all locales, each repetition followed by one of each baseline
/// kernel on locale 0 (interleaved, so all see the same machine): best times and whether all
/// checked.
fn triad(ctx: &Ctx, n: usize, reps: usize, base: Option<&Baseline>) -> Result<Timings> {
    let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
    let c = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let mut t = Timings { atoll: f64::INFINITY, plain: f64::INFINITY, nt: f64::INFINITY, ok: true };
    for _ in 0..reps {
        ctx.barrier()?;
        let s = Instant::now();
        a.assign_expr(&b + ALPHA * &c)?;
        let dt = ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?;
        t.atoll = t.atoll.min(dt);
        if let Some(bl) = base {
            let (p, q, ok) = bl.rep_each();
            (t.plain, t.nt, t.ok) = (t.plain.min(p), t.nt.min(q), t.ok && ok);
        }
        ctx.barrier()?;
    }
    // Check every element against the formula (a reduction over the expression).
    let bad = (a.view() - (&b + ALPHA * &c)).map(|d| u64::from(d != 0.0)).sum()?;
    t.ok = triad_ok(bad, t.ok && base.is_none_or(Baseline::check));
    Ok(t)
}

/// Runs the benchmark; locale 0 prints.
pub fn stream(cfg: &Config, opts: &StreamOpts) -> Result<()> {
    let (n, reps) = (opts.n, opts.reps.max(1));
    let threads = std::thread::available_parallelism().map(|x| x.get()).unwrap_or(1);
    // Started before the jobs, so its threads are not pinned to locale 0's cores.
    let baseline = Baseline::new(n, threads, ALPHA);
    let default_threshold = atoll::array::stream_store::streaming_store_threshold();
    for (variant, pin, threshold) in [
        ("triad", true, default_threshold),
        ("triad_unpinned", false, default_threshold),
        ("triad_plain_stores", true, usize::MAX),
    ] {
        let mut c = cfg.clone();
        c.pin = pin;
        atoll::array::stream_store::set_streaming_store_threshold(threshold);
        let out = run(c, |ctx| {
            // Locale 0 drives the baseline (under MPI: rank 0, while the others wait).
            let r = triad(ctx, n, reps, (ctx.id() == 0).then_some(&baseline))?;
            Ok((ctx.id(), ctx.backend_name(), ctx.num_locales(), r))
        });
        atoll::array::stream_store::set_streaming_store_threshold(default_threshold);
        let (id, backend, locales, t) = out?;
        if id != 0 {
            continue;
        }
        let gb = |s: f64| BYTES * n as f64 / s / 1e9;
        let (gbps, plain, nt) = (gb(t.atoll), gb(t.plain), gb(t.nt));
        let limit = plain.max(nt);
        let per_locale_bytes = 8 * n.div_ceil(locales);
        Line::new("stream", variant, backend, locales, n as u64, t.atoll, t.ok)
            .with("gbps", gbps)
            .with("limit_gbps", limit)
            .with("limit_plain_gbps", plain)
            .with("limit_nt_gbps", nt)
            .with("limit_threads", threads as u64)
            .with("ratio_vs_limit", gbps / limit)
            .with("ratio_vs_plain_limit", gbps / plain)
            .with("streaming_stores", per_locale_bytes >= threshold)
            .print(opts.json);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_triad_is_not_ok() {
        assert!(triad_ok(0, true));
        assert!(!triad_ok(1, true));
        assert!(!triad_ok(0, false));
    }
}
