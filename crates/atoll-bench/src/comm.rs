//! `atoll-bench comm`: latency and bandwidth of the communication layer, against plain MPI on
//! the MPI backend.
//!
//! Locale 0 measures operations that target locale 1; the other locales wait in barriers.
//! On `mpi` the run alternates `--rounds` phases: a plain-MPI phase ([`PlainMpi`](atoll_runtime::PlainMpi): its own
//! communicator and dynamic window, made while no Atoll runtime thread exists, no registration
//! lookup, no counters) and an Atoll job (`run`) measuring the same operations, so both see
//! the same machine state; each line reports `raw_mpi_seconds` and `overhead_vs_raw_mpi`.
//! Latencies are summed over the phases, bandwidths keep the best phase.
//!
//! `ok` comes from checks of every value read, every round-trip reply, and for `barrier` a
//! check that no locale leaves a barrier before every locale's write before it is visible.

use crate::report::Line;
use atoll::prelude::*;
use std::time::Instant;

/// Options of the comm benchmark.
pub struct CommOpts {
    /// Print JSON lines.
    pub json: bool,
    /// Iterations of the latency loops (get8, am_rtt), over all rounds.
    pub iters: usize,
    /// Alternating plain-MPI / Atoll phases (mpi backend).
    pub rounds: usize,
    /// The `--locales` the user asked for, checked against the job.
    pub locales: Option<usize>,
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

/// Words of the latency array, bytes of the bandwidth transfer, elements of the strided get.
const LEN: usize = 1 << 19;
const BIG: usize = 64 << 20;
const M: usize = 100_000;
/// The byte of the bandwidth buffer at `i` on locale `l`.
fn big_byte(l: usize, i: usize) -> u8 {
    ((i * 31 + l) % 251) as u8
}
/// The word offset of the `k`-th 8-byte get.
fn get8_index(k: usize) -> usize {
    k * 7 % LEN
}
/// Gets per batch, and reg_cache gets per phase.
const BATCH: usize = 1000;
const REG_GETS: usize = 10_000;
const BARRIERS: usize = 2000;
/// Rounds of the barrier check.
const BARRIER_CHECKS: usize = 50;

/// One phase's measurements (on locale 0; others report defaults). Seconds are totals for the
/// latency loops and best times for the bulk transfers.
#[derive(Clone, Debug)]
struct Phase {
    get8: f64,
    get8_ops: usize,
    get64m: f64,
    /// Best time of a plain memcpy of the same 64 MiB (locale 0's own part into the same
    /// destination buffer), measured between the gets.
    memcpy64m: f64,
    strided: f64,
    single_gets: f64,
    rtt: f64,
    rtt_ops: usize,
    barrier: f64,
    barrier_ops: usize,
    reg: f64,
    reg_ops: usize,
    reg_hits: u64,
    reg_misses: u64,
    local_regs: u64,
    /// Per variant: get8, get64m, strided_get, am_rtt, barrier, reg_cache.
    ok: [bool; 6],
}

impl Default for Phase {
    fn default() -> Phase {
        Phase {
            get8: 0.0,
            get8_ops: 0,
            get64m: f64::INFINITY,
            memcpy64m: f64::INFINITY,
            strided: f64::INFINITY,
            single_gets: f64::INFINITY,
            rtt: 0.0,
            rtt_ops: 0,
            barrier: 0.0,
            barrier_ops: 0,
            reg: 0.0,
            reg_ops: 0,
            reg_hits: 0,
            reg_misses: 0,
            local_regs: 0,
            ok: [true; 6],
        }
    }
}

impl Phase {
    /// Adds another phase (totals summed, best times kept, checks and-ed).
    fn add(&mut self, o: &Phase) {
        self.get8 += o.get8;
        self.get8_ops += o.get8_ops;
        self.get64m = self.get64m.min(o.get64m);
        self.memcpy64m = self.memcpy64m.min(o.memcpy64m);
        self.strided = self.strided.min(o.strided);
        self.single_gets = self.single_gets.min(o.single_gets);
        self.rtt += o.rtt;
        self.rtt_ops += o.rtt_ops;
        self.barrier += o.barrier;
        self.barrier_ops += o.barrier_ops;
        self.reg += o.reg;
        self.reg_ops += o.reg_ops;
        self.reg_hits += o.reg_hits;
        self.reg_misses += o.reg_misses;
        self.local_regs += o.local_regs;
        for (a, b) in self.ok.iter_mut().zip(o.ok) {
            *a &= b;
        }
    }
}

// ----- checks (unit-tested below) ----------------------------------------------------------

/// An 8-byte get of word `i` on locale `t` returned `x`.
fn word_ok(t: usize, i: usize, x: u64) -> bool {
    x == val(t, i)
}

/// A sample of the 64 MiB transfer from locale `t` is right.
fn big_ok(t: usize, d: &[u8]) -> bool {
    d.len() == BIG && (0..BIG).step_by(4099).chain([BIG - 1]).all(|i| d[i] == big_byte(t, i))
}

/// The strided get of every 4th word of locale `t` is right.
fn strided_ok(t: usize, d: &[u64]) -> bool {
    d.len() == M && d.iter().enumerate().all(|(k, &x)| x == val(t, 4 * k))
}

/// The barrier check of one round: every locale's slot, read after the barrier, holds the
/// round number that locale wrote before it.
fn barrier_round_ok(slots: &[u64], round: u64) -> bool {
    !slots.is_empty() && slots.iter().all(|&s| s == round)
}

/// The registration cache saw exactly the gets made.
fn reg_ok(hits: u64, misses: u64, gets: u64) -> bool {
    hits + misses == gets
}

// ----- the Atoll phase ---------------------------------------------------------------------

/// One Atoll phase: every variant once, `iters` latency iterations. **Collective.**
fn atoll_phase(ctx: &Ctx, iters: usize) -> Result<Phase> {
    NOOP.register();
    let (me, n) = (ctx.id(), ctx.num_locales());
    let t = 1;
    let mut ph = Phase::default();
    let mut a = ctx.alloc_symmetric::<u64>(LEN)?;
    for (i, x) in a.local_mut().iter_mut().enumerate() {
        *x = val(me, i);
    }
    ctx.barrier()?;

    if me == 0 {
        // get8
        let mut x = [0u64];
        let s = Instant::now();
        for k in 0..iters {
            let i = get8_index(k);
            ctx.get(a.ptr(t).add(i), &mut x)?;
            ph.ok[0] &= word_ok(t, i, x[0]);
        }
        ph.get8 = secs(s);
        ph.get8_ops = iters;
    }
    ctx.barrier()?;

    {
        let mut b = ctx.alloc_symmetric::<u8>(BIG)?;
        for (i, x) in b.local_mut().iter_mut().enumerate() {
            *x = big_byte(me, i);
        }
        ctx.barrier()?;
        if me == 0 {
            let mut dst = vec![0u8; BIG];
            for _ in 0..2 {
                dst.fill(0);
                let s = Instant::now();
                ctx.get(b.ptr(t), &mut dst)?;
                ph.get64m = ph.get64m.min(secs(s));
                ph.ok[1] &= big_ok(t, &dst);
                // The reference: a plain memcpy of this locale's own 64 MiB (the same kind of
                // memory) into the same destination.
                dst.fill(0);
                let s = Instant::now();
                dst.copy_from_slice(std::hint::black_box(b.local()));
                ph.memcpy64m = ph.memcpy64m.min(secs(s));
                ph.ok[1] &= big_ok(me, &dst);
            }
        }
        b.free()?;
    }

    if me == 0 {
        let mut dst = vec![0u64; M];
        for _ in 0..4 {
            dst.fill(0);
            let s = Instant::now();
            ctx.get_strided(a.ptr(t), &[M], &[4], &mut dst)?;
            ph.strided = ph.strided.min(secs(s));
            ph.ok[2] &= strided_ok(t, &dst);
        }
        dst.fill(0);
        let s = Instant::now();
        for (k, d) in dst.iter_mut().enumerate() {
            *d = ctx.get_value(a.ptr(t).add(4 * k))?;
        }
        ph.single_gets = secs(s);
        ph.ok[2] &= strided_ok(t, &dst);
    }
    ctx.barrier()?;

    // am_rtt
    {
        let rtt = (iters / 10).max(100);
        if me == 0 {
            for _ in 0..10 {
                ctx.on(t, &NOOP, 1)?;
            }
            let s = Instant::now();
            for k in 0..rtt as u64 {
                ph.ok[3] &= ctx.on(t, &NOOP, k)? == k + 1;
            }
            ph.rtt = secs(s);
            ph.rtt_ops = rtt;
        }
        ctx.barrier()?;
    }

    // barrier: timed, then checked (each locale writes the round into its slot before the
    // barrier; locale 0 reads every slot after it).
    {
        for _ in 0..50 {
            ctx.barrier()?;
        }
        let s = Instant::now();
        for _ in 0..BARRIERS {
            ctx.barrier()?;
        }
        ph.barrier = secs(s);
        ph.barrier_ops = BARRIERS;
        let mut slot = ctx.alloc_symmetric::<u64>(1)?;
        ctx.barrier()?;
        for round in 1..=BARRIER_CHECKS as u64 {
            slot.local_mut()[0] = round;
            ctx.barrier()?;
            if me == 0 {
                let slots = (0..n).map(|l| ctx.get_value(slot.ptr(l))).collect::<Result<Vec<u64>>>()?;
                ph.ok[4] &= barrier_round_ok(&slots, round);
            }
            ctx.barrier()?;
        }
        slot.free()?;
    }

    // reg_cache: gets to one freshly allocated array.
    {
        const R: usize = 1 << 16;
        let mut c = ctx.alloc_symmetric::<u64>(R)?;
        for (i, x) in c.local_mut().iter_mut().enumerate() {
            *x = val(me, i);
        }
        ctx.barrier()?;
        if me == 0 {
            let before = ctx.registration_stats();
            let mut x = [0u64];
            let s = Instant::now();
            for k in 0..REG_GETS {
                let i = k * 13 % R;
                ctx.get(c.ptr(t).add(i), &mut x)?;
                ph.ok[5] &= word_ok(t, i, x[0]);
            }
            ph.reg = secs(s);
            ph.reg_ops = REG_GETS;
            let after = ctx.registration_stats();
            ph.reg_hits = after.remote_hits - before.remote_hits;
            ph.reg_misses = after.remote_misses - before.remote_misses;
            ph.local_regs = after.local_misses;
            ph.ok[5] &= reg_ok(ph.reg_hits, ph.reg_misses, REG_GETS as u64);
        }
        c.free()?;
    }
    a.free()?;
    Ok(ph)
}

/// The get8 loop alone on the local backend with 2 locales (the in-run reference of the MPI
/// get8): per-get seconds and whether every value was right.
fn local_get8(cfg: &Config, iters: usize) -> Result<(f64, bool)> {
    let mut local = cfg.clone().with_locales(2);
    local.backend = BackendKind::Local;
    run(local, |ctx| {
        let me = ctx.id();
        let mut a = ctx.alloc_symmetric::<u64>(LEN)?;
        for (i, x) in a.local_mut().iter_mut().enumerate() {
            *x = val(me, i);
        }
        ctx.barrier()?;
        let (mut t, mut ok) = (0.0, true);
        if me == 0 {
            let mut x = [0u64];
            let s = Instant::now();
            for k in 0..iters {
                let i = get8_index(k);
                ctx.get(a.ptr(1).add(i), &mut x)?;
                ok &= word_ok(1, i, x[0]);
            }
            t = secs(s) / iters as f64;
        }
        ctx.barrier()?;
        a.free()?;
        Ok((t, ok))
    })
}

/// Whether this process is rank 0 of an MPI launch, from the launcher's environment (MPI has
/// not started yet); true when no launcher variable is set (a singleton).
fn launcher_rank0() -> bool {
    ["PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"]
        .iter()
        .find_map(|k| std::env::var(k).ok())
        .is_none_or(|r| r.trim() == "0")
}

// ----- the plain-MPI phase -----------------------------------------------------------------

/// One plain-MPI phase (no Atoll job running), the same operations. **Collective** over the
/// MPI world.
#[cfg(feature = "mpi")]
fn plain_phase(iters: usize) -> Result<Phase> {
    use atoll::runtime::{PlainMpi, Strided};
    let mut ph = Phase::default();
    // Words at offset 0 (LEN words), the 64 MiB buffer after them.
    let big_at = LEN * 8;
    let mut p = PlainMpi::start(big_at + BIG)?;
    let (me, n) = (p.rank(), p.size());
    if n < 2 {
        p.finish()?;
        return Err(Error::InvalidArgument("the comm benchmark needs at least 2 ranks".into()));
    }
    let t = 1;
    {
        let buf = p.local_mut();
        for i in 0..LEN {
            buf[i * 8..i * 8 + 8].copy_from_slice(&val(me, i).to_ne_bytes());
        }
        for i in 0..BIG {
            buf[big_at + i] = big_byte(me, i);
        }
    }
    p.barrier()?;
    if me == 0 {
        let mut x = [0u8; 8];
        let s = Instant::now();
        for k in 0..iters {
            let i = get8_index(k);
            p.get(t, i * 8, &mut x)?;
            ph.ok[0] &= word_ok(t, i, u64::from_ne_bytes(x));
        }
        ph.get8 = secs(s);
        ph.get8_ops = iters;

        let mut dst = vec![0u8; BIG];
        for _ in 0..2 {
            dst.fill(0);
            let s = Instant::now();
            p.get(t, big_at, &mut dst)?;
            ph.get64m = ph.get64m.min(secs(s));
            ph.ok[1] &= big_ok(t, &dst);
        }
        drop(dst);

        let shape = Strided::elems_1d(8, M, 4)?;
        let mut dst = vec![0u64; M];
        for _ in 0..4 {
            dst.fill(0);
            let s = Instant::now();
            p.get_strided(t, 0, &shape, atoll::runtime::bytemuck::cast_slice_mut(&mut dst))?;
            ph.strided = ph.strided.min(secs(s));
            ph.ok[2] &= strided_ok(t, &dst);
        }
    }
    p.barrier()?;
    let rtt = (iters / 10).max(100);
    if me <= 1 {
        let s = Instant::now();
        let ok = p.ping_pong(1 - me, me == 0, rtt, 8)?;
        ph.rtt = secs(s);
        ph.rtt_ops = rtt;
        ph.ok[3] &= ok || me != 0;
    }
    p.barrier()?;
    for _ in 0..50 {
        p.barrier()?;
    }
    let s = Instant::now();
    for _ in 0..BARRIERS {
        p.barrier()?;
    }
    ph.barrier = secs(s);
    ph.barrier_ops = BARRIERS;
    // The barrier check: each rank writes the round into its first word, then the barrier,
    // then rank 0 reads every rank's word.
    for round in 1..=BARRIER_CHECKS as u64 {
        p.local_mut()[..8].copy_from_slice(&round.to_ne_bytes());
        p.barrier()?;
        if me == 0 {
            let mut slots = Vec::with_capacity(n);
            for l in 0..n {
                let mut x = [0u8; 8];
                p.get(l, 0, &mut x)?;
                slots.push(u64::from_ne_bytes(x));
            }
            ph.ok[4] &= barrier_round_ok(&slots, round);
        }
        p.barrier()?;
    }
    // Restore word 0 for the reg_cache-like gets below.
    p.local_mut()[..8].copy_from_slice(&val(me, 0).to_ne_bytes());
    p.barrier()?;
    if me == 0 {
        const R: usize = 1 << 16;
        let mut x = [0u8; 8];
        let s = Instant::now();
        for k in 0..REG_GETS {
            let i = k * 13 % R;
            p.get(t, i * 8, &mut x)?;
            ph.ok[5] &= word_ok(t, i, u64::from_ne_bytes(x));
        }
        ph.reg = secs(s);
        ph.reg_ops = REG_GETS;
    }
    // Every rank learns whether rank 0's checks passed (it prints).
    let bad = p.sum(u64::from(ph.ok.iter().any(|&o| !o)))?;
    if bad != 0 {
        ph.ok = [false; 6];
    }
    p.finish()?;
    Ok(ph)
}

#[cfg(not(feature = "mpi"))]
fn plain_phase(_iters: usize) -> Result<Phase> {
    Err(Error::BackendUnavailable { backend: "mpi".into(), reason: "this build has no MPI backend".into() })
}

// ----- the benchmark -----------------------------------------------------------------------

/// Runs `f`, with this thread's stall reports off when `quiet` (a rank that waits while rank 0
/// measures alone: the local-backend reference, the plain-MPI phase, the get loops).
fn waiting<R>(quiet: bool, f: impl FnOnce() -> R) -> R {
    if quiet {
        atoll::runtime::quiet_waits(f)
    } else {
        f()
    }
}

/// Runs the benchmark; locale 0 prints the lines.
pub fn comm(cfg: &Config, o: &CommOpts) -> Result<()> {
    let mpi = cfg.backend == BackendKind::Mpi;
    let rounds = if mpi { o.rounds.max(1) } else { 1 };
    let iters = (o.iters / rounds).max(BATCH);
    let (mut ours, mut raw) = (Phase::default(), Phase::default());
    // get8's reference: the same gets on the local backend, in this process, before MPI starts
    // (rank 0 only; the other ranks wait in MPI's start-up meanwhile).
    let local_ref = if mpi && launcher_rank0() { Some(local_get8(cfg, iters)?) } else { None };
    let mut info = (0usize, String::new(), 0usize);
    for _ in 0..rounds {
        if mpi {
            // The other ranks wait while rank 0 measures (here and in the job below): long
            // waits by design, so without the stall report.
            raw.add(&waiting(!launcher_rank0(), || plain_phase(iters))?);
        }
        let (id, backend, n, ph) = run(cfg.clone(), |ctx| {
            if let Some(l) = o.locales {
                if l != ctx.num_locales() {
                    return Err(Error::InvalidArgument(format!(
                        "--locales {l} but the job has {} locales (under MPI the rank count decides)",
                        ctx.num_locales()
                    )));
                }
            }
            if ctx.num_locales() < 2 {
                return Err(Error::InvalidArgument("the comm benchmark needs at least 2 locales".into()));
            }
            let ph = waiting(ctx.id() != 0, || atoll_phase(ctx, iters))?;
            Ok((ctx.id(), ctx.backend_name().to_string(), ctx.num_locales(), ph))
        })?;
        ours.add(&ph);
        info = (id, backend, n);
    }
    let (id, backend, n) = info;
    if id != 0 {
        return Ok(());
    }
    let raw = mpi.then_some(&raw);
    let line = |variant: &str, ops: usize, s: f64, ok: bool| Line::new("comm", variant, &backend, n, ops as u64, s, ok);
    let with_raw = |l: Line, ours: f64, raw_s: Option<f64>| match raw_s {
        Some(r) => l
            .with("raw_mpi_seconds", r)
            .with("overhead_vs_raw_mpi", ours / r)
            .with("raw_mpi", "plain MPI, no Atoll job running, alternating phases")
            .with("rounds", rounds as u64),
        None => l,
    };
    let per = |s: f64, ops: usize| s / ops.max(1) as f64;
    let ok = |i: usize| ours.ok[i] && raw.is_none_or(|r| r.ok[i]);

    let g8 = per(ours.get8, ours.get8_ops);
    let mut l = line("get8", ours.get8_ops, g8, ok(0) && local_ref.is_none_or(|r| r.1));
    if let Some((local_s, _)) = local_ref {
        l = l.with("local_seconds", local_s).with("ratio_vs_local", g8 / local_s).with(
            "local_reference",
            "the same gets on the local backend (2 locales) in this process before MPI starts",
        );
    }
    with_raw(l, g8, raw.map(|r| per(r.get8, r.get8_ops))).print(o.json);
    let gib = BIG as f64 / (1u64 << 30) as f64;
    let l = line("get64m", BIG, ours.get64m, ok(1))
        .with("gibps", gib / ours.get64m)
        .with("memcpy_gibps", gib / ours.memcpy64m)
        .with("ratio_vs_memcpy", ours.memcpy64m / ours.get64m);
    with_raw(l, ours.get64m, raw.map(|r| r.get64m)).print(o.json);
    let l = line("strided_get", M, ours.strided, ok(2))
        .with("single_gets_seconds", ours.single_gets)
        .with("strided_speedup", ours.single_gets / ours.strided);
    with_raw(l, ours.strided, raw.map(|r| r.strided)).print(o.json);
    let rtt = per(ours.rtt, ours.rtt_ops);
    with_raw(line("am_rtt", ours.rtt_ops, rtt, ok(3)), rtt, raw.map(|r| per(r.rtt, r.rtt_ops))).print(o.json);
    let b = per(ours.barrier, ours.barrier_ops);
    with_raw(
        line("barrier", ours.barrier_ops, b, ok(4)).with("checked_rounds", (BARRIER_CHECKS * rounds) as u64),
        b,
        raw.map(|r| per(r.barrier, r.barrier_ops)),
    )
    .print(o.json);
    let rc = per(ours.reg, ours.reg_ops);
    let l = line("reg_cache", ours.reg_ops, rc, ok(5))
        .with("reg_cache_hit_rate", ours.reg_hits as f64 / (ours.reg_hits + ours.reg_misses).max(1) as f64)
        .with("reg_cache_misses", ours.reg_misses)
        .with("local_registrations", ours.local_regs);
    with_raw(l, rc, raw.map(|r| per(r.reg, r.reg_ops))).print(o.json);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_values_are_not_ok() {
        assert!(word_ok(1, 5, val(1, 5)));
        assert!(!word_ok(1, 5, val(0, 5)));
        let mut big: Vec<u8> = (0..BIG).map(|i| big_byte(1, i)).collect();
        assert!(big_ok(1, &big));
        big[BIG - 1] ^= 1;
        assert!(!big_ok(1, &big));
        assert!(!big_ok(1, &big[..10]));
        let mut st: Vec<u64> = (0..M).map(|k| val(1, 4 * k)).collect();
        assert!(strided_ok(1, &st));
        st[77] = 0;
        assert!(!strided_ok(1, &st));
        assert!(barrier_round_ok(&[3, 3, 3], 3));
        assert!(!barrier_round_ok(&[3, 2, 3], 3), "a locale's write before the barrier is missing");
        assert!(!barrier_round_ok(&[], 3));
        assert!(reg_ok(9999, 1, 10_000));
        assert!(!reg_ok(9999, 0, 10_000));
    }

    #[test]
    fn the_local_backend_checks_pass_and_the_barrier_check_can_fail() {
        let cfg = Config::local(2);
        let ph = run(cfg, |ctx| atoll_phase(ctx, 2000)).unwrap();
        assert_eq!(ph.ok, [true; 6]);
        // A "barrier" that does not wait: locale 1 writes its slot only after locale 0 read it.
        let bad = run(Config::local(2), |ctx| {
            let mut slot = ctx.alloc_symmetric::<u64>(1)?;
            ctx.barrier()?;
            let mut ok = true;
            if ctx.id() == 0 {
                slot.local_mut()[0] = 1;
                let slots = (0..2).map(|l| ctx.get_value(slot.ptr(l))).collect::<Result<Vec<u64>>>()?;
                ok = barrier_round_ok(&slots, 1);
            }
            ctx.barrier()?;
            slot.free()?;
            Ok(ok)
        })
        .unwrap();
        assert!(!bad);
    }
}
