//! `atoll-bench stream`: the STREAM triad `a = b + alpha * c` on Block-distributed arrays over
//! all locales, against the memory-bandwidth limit measured in the same run by a plain
//! multi-threaded loop over one `Vec` per array (one thread per core, static chunks, pages
//! first touched by the thread that uses them). Reported with sublocale pinning on (`triad`) and
//! off (`triad_unpinned`).

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

/// The baseline: `threads` threads, each running the triad over its contiguous chunk of plain
/// `Vec`s (pages first touched by the thread that uses them).
pub struct Baseline {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    chunk: usize,
}

impl Baseline {
    /// Allocates and first-touches the three vectors.
    pub fn new(n: usize, threads: usize) -> Baseline {
        let chunk = n.div_ceil(threads.max(1)).max(1);
        let mut a: Vec<f64> = Vec::with_capacity(n);
        let mut b: Vec<f64> = Vec::with_capacity(n);
        let mut c: Vec<f64> = Vec::with_capacity(n);
        {
            let (sa, sb, sc) = (&mut a.spare_capacity_mut()[..n], &mut b.spare_capacity_mut()[..n], &mut c.spare_capacity_mut()[..n]);
            std::thread::scope(|s| {
                for (i, ((pa, pb), pc)) in sa.chunks_mut(chunk).zip(sb.chunks_mut(chunk)).zip(sc.chunks_mut(chunk)).enumerate() {
                    s.spawn(move || {
                        for x in pa.iter_mut() {
                            x.write(0.0);
                        }
                        for (k, x) in pb.iter_mut().enumerate() {
                            x.write((i * chunk + k) as f64);
                        }
                        for x in pc.iter_mut() {
                            x.write(2.0);
                        }
                    });
                }
            });
        }
        // SAFETY: the scope above initialized every element of 0..n of the three vectors.
        unsafe {
            a.set_len(n);
            b.set_len(n);
            c.set_len(n);
        }
        Baseline { a, b, c, chunk }
    }

    /// One timed triad (seconds).
    pub fn rep(&mut self) -> f64 {
        let t = Instant::now();
        let chunk = self.chunk;
        std::thread::scope(|s| {
            for ((pa, pb), pc) in self.a.chunks_mut(chunk).zip(self.b.chunks(chunk)).zip(self.c.chunks(chunk)) {
                s.spawn(move || {
                    for ((x, &y), &z) in pa.iter_mut().zip(pb).zip(pc) {
                        *x = y + ALPHA * z;
                    }
                });
            }
        });
        t.elapsed().as_secs_f64()
    }

    /// Whether the last triad is right.
    pub fn check(&self) -> bool {
        self.a.iter().zip(&self.b).zip(&self.c).all(|((&x, &y), &z)| x == y + ALPHA * z)
    }
}

/// The triad on Block arrays over all locales, each repetition followed by one of the baseline
/// on locale 0 (interleaved, so both see the same machine): best times and whether both checked.
fn triad(ctx: &Ctx, n: usize, reps: usize, base: &mut Option<Baseline>) -> Result<(f64, f64, bool)> {
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
        if let Some(bl) = base.as_mut() {
            best_base = best_base.min(bl.rep());
        }
        ctx.barrier()?;
    }
    // Check every element against the formula (a reduction over the expression).
    let bad = (a.view() - (&b + ALPHA * &c)).map(|d| u64::from(d != 0.0)).sum()?;
    let base_ok = base.as_ref().is_none_or(Baseline::check);
    Ok((best, best_base, bad == 0 && base_ok))
}

/// Runs the benchmark; locale 0 prints.
pub fn stream(cfg: &Config, opts: &StreamOpts) -> Result<()> {
    let (n, reps) = (opts.n, opts.reps.max(1));
    let threads = std::thread::available_parallelism().map(|x| x.get()).unwrap_or(1);
    for (variant, pin) in [("triad", true), ("triad_unpinned", false)] {
        let mut c = cfg.clone();
        c.pin = pin;
        let out = run(c, |ctx| {
            // The baseline lives on locale 0 (under MPI: rank 0, while the others wait).
            let mut base = (ctx.id() == 0).then(|| Baseline::new(n, threads));
            let r = triad(ctx, n, reps, &mut base)?;
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
