//! `atoll-bench comm`: latency and bandwidth of the communication layer, against raw MPI in
//! the same run on the MPI backend.
//!
//! Locale 0 measures operations that target locale 1; the other locales wait in barriers.
//! Runtime and raw-MPI measurements are interleaved in batches so both see the same machine
//! state (the target's progress thread, other load).

use crate::report::Line;
use atoll::prelude::*;
use atoll::runtime::Strided;
use std::time::Instant;

/// Options of the comm benchmark.
pub struct CommOpts {
    /// Print JSON lines.
    pub json: bool,
    /// Iterations of the latency loops (get8, am_rtt); barrier and reg_cache use their own.
    pub iters: usize,
}

fn noop(_ctx: &Ctx, x: u64) -> Result<u64> {
    Ok(x + 1)
}
static NOOP: Handler<u64, u64> = Handler::new("bench::noop", noop);

/// The value stored at element `i` of locale `l`'s part of the test array.
fn val(l: usize, i: usize) -> u64 {
    (l as u64) << 40 | i as u64
}

fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

/// Runs every variant on this locale's part of the job; locale 0 prints the lines.
pub fn comm(ctx: &Ctx, o: &CommOpts) -> Result<()> {
    NOOP.register();
    let (me, n) = (ctx.id(), ctx.num_locales());
    if n < 2 {
        return Err(Error::InvalidArgument("the comm benchmark needs at least 2 locales".into()));
    }
    let backend = ctx.backend_name();
    let t = 1;
    let raw = ctx.raw_mpi_available();
    let line = |variant: &str, n_: u64, s: f64, ok: bool| Line::new("comm", variant, backend, n, n_, s, ok);
    let with_raw = |l: Line, ours: f64, raw_s: Option<f64>| match raw_s {
        Some(r) => l.with("raw_mpi_seconds", r).with("overhead_vs_raw_mpi", ours / r),
        None => l,
    };

    const LEN: usize = 1 << 19;
    let mut a = ctx.alloc_symmetric::<u64>(LEN)?;
    for (i, x) in a.local_mut().iter_mut().enumerate() {
        *x = val(me, i);
    }
    ctx.barrier()?;

    // get8: 8-byte get latency.
    if me == 0 {
        let batch = 1000;
        let rounds = (o.iters / batch).max(1);
        let (mut ours, mut raws, mut ok) = (0.0, 0.0, true);
        let mut x = [0u64];
        for r in 0..rounds {
            let s = Instant::now();
            for k in 0..batch {
                let i = (r * batch + k) * 7 % LEN;
                ctx.get(a.ptr(t).add(i), &mut x)?;
                ok &= x[0] == val(t, i);
            }
            ours += secs(s);
            if raw {
                let s = Instant::now();
                for k in 0..batch {
                    let i = (r * batch + k) * 7 % LEN;
                    ctx.raw_get(t, a.ptr(t).add(i).addr(), bytes_of_mut(&mut x))?;
                    ok &= x[0] == val(t, i);
                }
                raws += secs(s);
            }
        }
        let ops = (rounds * batch) as f64;
        with_raw(line("get8", ops as u64, ours / ops, ok), ours / ops, raw.then_some(raws / ops)).print(o.json);
    }
    ctx.barrier()?;

    // get64m: one 64 MiB get.
    {
        const BIG: usize = 64 << 20;
        let mut b = ctx.alloc_symmetric::<u8>(BIG)?;
        for (i, x) in b.local_mut().iter_mut().enumerate() {
            *x = ((i * 31 + me) % 251) as u8;
        }
        ctx.barrier()?;
        if me == 0 {
            let mut dst = vec![0u8; BIG];
            let (mut best, mut best_raw, mut ok) = (f64::MAX, f64::MAX, true);
            let check = |d: &[u8]| (0..BIG).step_by(4099).all(|i| d[i] == ((i * 31 + t) % 251) as u8);
            for _ in 0..5 {
                dst.fill(0);
                let s = Instant::now();
                ctx.get(b.ptr(t), &mut dst)?;
                best = best.min(secs(s));
                ok &= check(&dst);
                if raw {
                    dst.fill(0);
                    let s = Instant::now();
                    ctx.raw_get(t, b.ptr(t).addr(), &mut dst)?;
                    best_raw = best_raw.min(secs(s));
                    ok &= check(&dst);
                }
            }
            let gib = BIG as f64 / (1u64 << 30) as f64;
            with_raw(line("get64m", BIG as u64, best, ok).with("gibps", gib / best), best, raw.then_some(best_raw)).print(o.json);
        }
        b.free()?;
    }

    // strided_get: one strided get of 100k doubles at stride 4, against 100k single gets.
    if me == 0 {
        const M: usize = 100_000;
        let mut dst = vec![0u64; M];
        let check = |d: &[u64]| d.iter().enumerate().all(|(k, &x)| x == val(t, 4 * k));
        let (mut best, mut best_raw, mut ok) = (f64::MAX, f64::MAX, true);
        let shape = Strided::elems_1d(8, M, 4)?;
        for _ in 0..10 {
            dst.fill(0);
            let s = Instant::now();
            ctx.get_strided(a.ptr(t), &[M], &[4], &mut dst)?;
            best = best.min(secs(s));
            ok &= check(&dst);
            if raw {
                dst.fill(0);
                let s = Instant::now();
                ctx.raw_get_strided(t, a.ptr(t).addr(), &shape, bytes_of_slice_mut(&mut dst))?;
                best_raw = best_raw.min(secs(s));
                ok &= check(&dst);
            }
        }
        dst.fill(0);
        let s = Instant::now();
        for (k, d) in dst.iter_mut().enumerate() {
            *d = ctx.get_value(a.ptr(t).add(4 * k))?;
        }
        let single = secs(s);
        ok &= check(&dst);
        let l = line("strided_get", M as u64, best, ok)
            .with("single_gets_seconds", single)
            .with("strided_speedup", single / best);
        with_raw(l, best, raw.then_some(best_raw)).print(o.json);
    }
    ctx.barrier()?;

    // am_rtt: active-message round trip, against a blocking send/recv ping-pong.
    {
        let iters = (o.iters / 10).max(100);
        let (mut ours, mut ok) = (0.0, true);
        if me == 0 {
            for _ in 0..10 {
                ctx.on(t, &NOOP, 1)?;
            }
            let s = Instant::now();
            for k in 0..iters as u64 {
                ok &= ctx.on(t, &NOOP, k)? == k + 1;
            }
            ours = secs(s) / iters as f64;
        }
        ctx.barrier()?;
        let mut raw_s = None;
        if raw && me <= 1 {
            let s = Instant::now();
            ctx.raw_ping_pong(1 - me, me == 0, iters, 8)?;
            raw_s = Some(secs(s) / iters as f64);
        }
        if me == 0 {
            with_raw(line("am_rtt", iters as u64, ours, ok), ours, raw_s).print(o.json);
        }
        ctx.barrier()?;
    }

    // barrier: all locales, ours (non-blocking + polite polling) against MPI_Barrier.
    {
        let iters = 2000;
        for _ in 0..50 {
            ctx.barrier()?;
        }
        let s = Instant::now();
        for _ in 0..iters {
            ctx.barrier()?;
        }
        let ours = secs(s) / iters as f64;
        let mut raw_s = None;
        if raw {
            let s = Instant::now();
            for _ in 0..iters {
                ctx.raw_barrier()?;
            }
            raw_s = Some(secs(s) / iters as f64);
        }
        if me == 0 {
            with_raw(line("barrier", iters as u64, ours, true), ours, raw_s).print(o.json);
        }
    }

    // reg_cache: 10,000 gets to one freshly allocated array.
    {
        const R: usize = 1 << 16;
        let mut c = ctx.alloc_symmetric::<u64>(R)?;
        for (i, x) in c.local_mut().iter_mut().enumerate() {
            *x = val(me, i);
        }
        ctx.barrier()?;
        if me == 0 {
            let gets = 10_000;
            let before = ctx.registration_stats();
            let mut x = [0u64];
            let (mut ok, mut ours, mut raws) = (true, 0.0, 0.0);
            // Batches of ours and raw alternate, so both see the same target state.
            for b in 0..gets / 1000 {
                let s = Instant::now();
                for k in b * 1000..(b + 1) * 1000 {
                    let i = k * 13 % R;
                    ctx.get(c.ptr(t).add(i), &mut x)?;
                    ok &= x[0] == val(t, i);
                }
                ours += secs(s);
                if raw {
                    let s = Instant::now();
                    for k in b * 1000..(b + 1) * 1000 {
                        let i = k * 13 % R;
                        ctx.raw_get(t, c.ptr(t).add(i).addr(), bytes_of_mut(&mut x))?;
                        ok &= x[0] == val(t, i);
                    }
                    raws += secs(s);
                }
            }
            let ours = ours / gets as f64;
            let after = ctx.registration_stats();
            let hits = after.remote_hits - before.remote_hits;
            let misses = after.remote_misses - before.remote_misses;
            ok &= hits + misses == gets as u64;
            let raw_s = raw.then_some(raws / gets as f64);
            let l = line("reg_cache", gets as u64, ours, ok)
                .with("reg_cache_hit_rate", hits as f64 / (hits + misses).max(1) as f64)
                .with("reg_cache_misses", misses)
                .with("local_registrations", after.local_misses);
            with_raw(l, ours, raw_s).print(o.json);
        }
        c.free()?;
    }
    a.free()
}

fn bytes_of_mut(x: &mut [u64; 1]) -> &mut [u8] {
    bytes_of_slice_mut(x)
}

fn bytes_of_slice_mut(x: &mut [u64]) -> &mut [u8] {
    atoll::runtime::bytemuck::cast_slice_mut(x)
}

/// Raw-MPI baselines through the runtime's MPI backend, or unavailable.
trait RawBaselines {
    fn raw_mpi_available(&self) -> bool;
    fn raw_get(&self, target: usize, addr: u64, dst: &mut [u8]) -> Result<()>;
    fn raw_get_strided(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()>;
    fn raw_ping_pong(&self, peer: usize, initiator: bool, iters: usize, len: usize) -> Result<()>;
    fn raw_barrier(&self) -> Result<()>;
}

#[cfg(feature = "mpi")]
impl RawBaselines for Ctx {
    fn raw_mpi_available(&self) -> bool {
        self.raw_mpi().is_some()
    }
    fn raw_get(&self, target: usize, addr: u64, dst: &mut [u8]) -> Result<()> {
        self.raw_mpi().ok_or_else(no_mpi)?.get(self, target, addr, dst)
    }
    fn raw_get_strided(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        self.raw_mpi().ok_or_else(no_mpi)?.get_strided(self, target, addr, shape, dst)
    }
    fn raw_ping_pong(&self, peer: usize, initiator: bool, iters: usize, len: usize) -> Result<()> {
        self.raw_mpi().ok_or_else(no_mpi)?.ping_pong(peer, initiator, iters, len)
    }
    fn raw_barrier(&self) -> Result<()> {
        self.raw_mpi().ok_or_else(no_mpi)?.barrier()
    }
}

#[cfg(feature = "mpi")]
fn no_mpi() -> Error {
    Error::BackendUnavailable { backend: "mpi".into(), reason: "raw MPI baselines need the MPI backend".into() }
}

#[cfg(not(feature = "mpi"))]
impl RawBaselines for Ctx {
    fn raw_mpi_available(&self) -> bool {
        false
    }
    fn raw_get(&self, _: usize, _: u64, _: &mut [u8]) -> Result<()> {
        unreachable_raw()
    }
    fn raw_get_strided(&self, _: usize, _: u64, _: &Strided, _: &mut [u8]) -> Result<()> {
        unreachable_raw()
    }
    fn raw_ping_pong(&self, _: usize, _: bool, _: usize, _: usize) -> Result<()> {
        unreachable_raw()
    }
    fn raw_barrier(&self) -> Result<()> {
        unreachable_raw()
    }
}

#[cfg(not(feature = "mpi"))]
fn unreachable_raw() -> Result<()> {
    Err(Error::BackendUnavailable { backend: "mpi".into(), reason: "this build has no MPI backend".into() })
}
