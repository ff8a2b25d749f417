//! `atoll-bench overhead`: the fixed cost of one small operation (the
//! per-operation overhead), against the same fork/join shape with rayon in the same run.
//!
//! Every locale runs each operation `iters` times per sample; a sample's time is the slowest
//! locale's, divided by `iters`; `seconds` is the best sample and `median_seconds` the median.
//! The operations work on aligned Block arrays of [`PER_LOCALE`] `f64` per locale:
//!
//! | line | Atoll | rayon (a pool of one thread per locale, built before the job) |
//! |---|---|---|
//! | `barrier` | `ctx.barrier()` | `rayon::broadcast(|_| ())` (every thread joins once) |
//! | `allreduce` | `ctx.allreduce(x, +)` of one f64 | `rayon::broadcast(|c| x_c)` then the sum |
//! | `zip_empty` | `a.zip_apply(Scalar(1.0), |x, s| *x += s)` | `par_chunks_mut(PER_LOCALE)` doing the same |
//! | `sum_small` | `a.view().sum()` | `par_chunks(PER_LOCALE).map(sum).sum()` |
//! | `assign_small` | `b.view_mut().assign(&a.view())` | `par_chunks_mut` copying chunks |
//! | `on` | `ctx.on(1, noop, x)` from locale 0 | `pool.install(|| x + 1)` from outside the pool |
//!
//! The rayon timing loops run inside the pool (`install` around the whole loop), so each
//! operation is one fork/join between the pool's threads, as an Atoll operation is one between
//! the locales' threads; only `on` enters the pool from outside once per operation (the round
//! trip to another thread). Lines with a data loop also report `seq_seconds`: the same loop
//! over all the elements on one core. The rayon loops run on locale 0 while the other locales wait in a barrier; under
//! MPI only rank 0 runs them. `ok` checks every operation's result.

use crate::report::Line;
use atoll::array::{dist, DistArray, ExprReduce, Scalar};
use atoll::prelude::*;
use rayon::prelude::*;
use std::time::Instant;

/// Elements per locale of the small arrays.
pub const PER_LOCALE: usize = 1024;

/// Options of the overhead benchmark.
pub struct OverheadOpts {
    /// Print JSON lines.
    pub json: bool,
    /// Operations per sample.
    pub iters: usize,
    /// Samples (best and median reported).
    pub samples: usize,
}

fn noop(_ctx: &Ctx, x: u64) -> Result<u64> {
    Ok(x + 1)
}
static NOOP: Handler<u64, u64> = Handler::new("bench::overhead_noop", noop);

/// Best and median of per-operation times.
fn best_median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v.first().copied().unwrap_or(f64::NAN), v.get(v.len() / 2).copied().unwrap_or(f64::NAN))
}

/// Times `op` on every locale: per sample, the slowest locale's time per operation.
fn time_all(ctx: &Ctx, o: &OverheadOpts, mut op: impl FnMut() -> Result<bool>) -> Result<(f64, f64, bool)> {
    let mut ok = true;
    let mut per = Vec::with_capacity(o.samples);
    // One warm-up sample.
    for s in 0..=o.samples {
        ctx.barrier()?;
        let t = Instant::now();
        for _ in 0..o.iters {
            ok &= op()?;
        }
        let dt = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
        if s > 0 {
            per.push(dt / o.iters as f64);
        }
    }
    let ok = ctx.allreduce(u8::from(ok), u8::min)? == 1;
    let (b, m) = best_median(per);
    Ok((b, m, ok))
}

/// Times `op` on this thread only (best and median per operation).
fn time_here(o: &OverheadOpts, mut op: impl FnMut() -> bool) -> (f64, f64, bool) {
    let mut ok = true;
    let mut per = Vec::with_capacity(o.samples);
    for s in 0..=o.samples {
        let t = Instant::now();
        for _ in 0..o.iters {
            ok &= op();
        }
        if s > 0 {
            per.push(t.elapsed().as_secs_f64() / o.iters as f64);
        }
    }
    let (b, m) = best_median(per);
    (b, m, ok)
}

/// The rayon and one-core references, measured on locale 0 while the others wait.
struct Refs<'p> {
    pool: &'p rayon::ThreadPool,
}

impl Refs<'_> {
    /// Runs `f` (a whole timing loop) on a thread of the pool, as the locales' loops run on
    /// their own threads: each operation is then one fork/join inside the pool.
    fn inside<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Runs `f` on locale 0 between two barriers; `None` elsewhere.
    fn on0<R>(ctx: &Ctx, f: impl FnOnce() -> R) -> Result<Option<R>> {
        ctx.barrier()?;
        let r = (ctx.id() == 0).then(f);
        ctx.barrier()?;
        Ok(r)
    }
}

/// A result line with its references.
#[allow(clippy::too_many_arguments)]
fn emit(
    ctx: &Ctx,
    o: &OverheadOpts,
    variant: &str,
    ours: (f64, f64, bool),
    rayon: Option<(f64, f64, bool)>,
    seq: Option<(f64, f64, bool)>,
) {
    if ctx.id() != 0 {
        return;
    }
    let n = ctx.num_locales();
    let refs_ok = rayon.is_none_or(|r| r.2) && seq.is_none_or(|s| s.2);
    let mut l =
        Line::new("overhead", variant, ctx.backend_name(), n, (PER_LOCALE * n) as u64, ours.0, ours.2 && refs_ok)
            .with("median_seconds", ours.1)
            .with("iters", o.iters as u64)
            .with("samples", o.samples as u64);
    if let Some(r) = rayon {
        l = l.with("rayon_seconds", r.0).with("rayon_median_seconds", r.1).with("ratio_vs_rayon", ours.0 / r.0);
    }
    if let Some(s) = seq {
        l = l.with("seq_seconds", s.0).with("ratio_vs_seq", ours.0 / s.0);
    }
    l.print(o.json);
}

/// Runs every line on this locale's part of the job; locale 0 prints.
pub fn overhead(ctx: &Ctx, pool: &rayon::ThreadPool, o: &OverheadOpts) -> Result<()> {
    NOOP.register();
    let (me, n) = (ctx.id(), ctx.num_locales());
    let total = PER_LOCALE * n;
    let refs = Refs { pool };
    // Data of the rayon and one-core references (locale 0 only uses it).
    let mut data: Vec<f64> = (0..total).map(|i| i as f64).collect();
    let mut out = vec![0.0f64; total];

    // barrier. Check first (untimed): after barrier k every locale sees every locale's k.
    let mut flags = ctx.alloc_symmetric::<u64>(1)?;
    let mut barrier_ok = true;
    for k in 1..=200u64 {
        flags.local_mut()[0] = k;
        ctx.barrier()?;
        for l in 0..n {
            barrier_ok &= ctx.get_value(flags.ptr(l))? == k;
        }
        ctx.barrier()?;
    }
    flags.free()?;
    let ours = time_all(ctx, o, || ctx.barrier().map(|()| true))?;
    let ray = Refs::on0(ctx, || {
        refs.inside(|| {
            time_here(o, || {
                rayon::broadcast(|_| ());
                true
            })
        })
    })?;
    emit(ctx, o, "barrier", (ours.0, ours.1, ours.2 && barrier_ok), ray, None);

    // allreduce of one f64.
    let want: f64 = (1..=n).map(|l| l as f64).sum();
    let ours = time_all(ctx, o, || ctx.allreduce(me as f64 + 1.0, |a, b| a + b).map(|s| s == want))?;
    let ray = Refs::on0(ctx, || {
        refs.inside(|| {
            time_here(o, || rayon::broadcast(|c| c.index() as f64 + 1.0).into_iter().fold(0.0, |a, b| a + b) == want)
        })
    })?;
    emit(ctx, o, "allreduce", ours, ray, None);

    // zip_empty: a += 1 over an aligned array of PER_LOCALE elements per locale.
    let mut a = DistArray::<f64, 1>::from_fn(ctx, dist::block(ctx, [total])?, |[i]| i as f64)?;
    let mut b = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [total])?)?;
    let ours = time_all(ctx, o, || a.zip_apply(Scalar(1.0), |x, s| *x += s).map(|()| true))?;
    // Every element was incremented once per operation (warm-up sample included).
    let bumps = ((o.samples + 1) * o.iters) as f64;
    let zip_ok = a.local().iter().enumerate().all(|(j, &x)| x == (me * PER_LOCALE + j) as f64 + bumps);
    let zip_ok = ctx.allreduce(u8::from(zip_ok), u8::min)? == 1;
    let ray = Refs::on0(ctx, || {
        let r = refs.inside(|| {
            time_here(o, || {
                data.par_chunks_mut(PER_LOCALE).for_each(|c| c.iter_mut().for_each(|x| *x += 1.0));
                true
            })
        });
        let ok = data.iter().enumerate().all(|(i, &x)| x == i as f64 + bumps);
        (r.0, r.1, ok)
    })?;
    let seq = Refs::on0(ctx, || {
        let r = time_here(o, || {
            data.iter_mut().for_each(|x| *x += 1.0);
            true
        });
        let ok = data.iter().enumerate().all(|(i, &x)| x == i as f64 + 2.0 * bumps);
        (r.0, r.1, ok)
    })?;
    emit(ctx, o, "zip_empty", (ours.0, ours.1, ours.2 && zip_ok), ray, seq);

    // sum_small: the sum of the same array (exact: small integers in f64).
    let want: f64 = (0..total).map(|i| i as f64 + bumps).sum();
    let ours = time_all(ctx, o, || a.view().sum().map(|s| s == want))?;
    let want_ref: f64 = data.iter().sum();
    let ray = Refs::on0(ctx, || {
        refs.inside(|| {
            time_here(o, || data.par_chunks(PER_LOCALE).map(|c| c.iter().sum::<f64>()).sum::<f64>() == want_ref)
        })
    })?;
    let seq = Refs::on0(ctx, || time_here(o, || std::hint::black_box(&data).iter().sum::<f64>() == want_ref))?;
    emit(ctx, o, "sum_small", ours, ray, seq);

    // assign_small: b = a (aligned bulk assignment).
    let ours = time_all(ctx, o, || b.view_mut().assign(&a.view()).map(|()| true))?;
    let assign_ok = ctx.allreduce(u8::from(b.local() == a.local()), u8::min)? == 1;
    let ray = Refs::on0(ctx, || {
        let r = refs.inside(|| {
            time_here(o, || {
                out.par_chunks_mut(PER_LOCALE).zip(data.par_chunks(PER_LOCALE)).for_each(|(d, s)| d.copy_from_slice(s));
                true
            })
        });
        (r.0, r.1, out == data)
    })?;
    let seq = Refs::on0(ctx, || {
        out.fill(0.0);
        let r = time_here(o, || {
            std::hint::black_box(&mut out).copy_from_slice(&data);
            true
        });
        (r.0, r.1, out == data)
    })?;
    emit(ctx, o, "assign_small", (ours.0, ours.1, ours.2 && assign_ok), ray, seq);

    // on: a round trip from locale 0 to locale 1 (to itself on one locale).
    let target = 1 % n;
    let mut x = 0u64;
    let ours = time_all(ctx, o, || {
        if me != 0 {
            return Ok(true);
        }
        x += 1;
        ctx.on(target, &NOOP, x).map(|r| r == x + 1)
    })?;
    let ray = Refs::on0(ctx, || {
        let mut y = 0u64;
        time_here(o, || {
            y += 1;
            refs.pool.install(|| y + 1) == y + 1
        })
    })?;
    emit(ctx, o, "on", ours, ray, None);
    ctx.barrier()
}
