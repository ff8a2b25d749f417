//! Scenarios run identically on every backend: by `tests/spmd.rs` on the local backend with
//! 1-4 locales, and by the program of tests/mpi_launch.rs under `mpiexec`.
//! Each checks its results against values computed independently here.
#![allow(dead_code)]

use atoll_runtime::{CommCounts, Ctx, Driver, Error, Handler, Result};

fn add_one(_ctx: &Ctx, v: Vec<u64>) -> Result<Vec<u64>> {
    Ok(v.into_iter().map(|x| x + 1).collect())
}
pub static ADD_ONE: Handler<Vec<u64>, Vec<u64>> = Handler::new("scenarios::add_one", add_one);

fn where_am_i(ctx: &Ctx, _: ()) -> Result<(usize, String)> {
    Ok((ctx.id(), std::thread::current().name().unwrap_or("").to_string()))
}
pub static WHERE: Handler<(), (usize, String)> = Handler::new("scenarios::where_am_i", where_am_i);

fn fails(ctx: &Ctx, _: ()) -> Result<()> {
    Err(Error::InvalidArgument(format!("refused on locale {}", ctx.id())))
}
pub static FAILS: Handler<(), ()> = Handler::new("scenarios::fails", fails);

/// Nested: locale L asks locale L+1 to ask locale L+2 ... (a chain through every locale).
fn chain(ctx: &Ctx, hops: usize) -> Result<Vec<usize>> {
    if hops == 0 {
        return Ok(vec![ctx.id()]);
    }
    let next = (ctx.id() + 1) % ctx.num_locales();
    let mut v = ctx.on(next, &CHAIN, hops - 1)?;
    v.insert(0, ctx.id());
    Ok(v)
}
pub static CHAIN: Handler<usize, Vec<usize>> = Handler::new("scenarios::chain", chain);

/// Registered but deliberately never registered: used to test the error.
pub static NOT_REGISTERED: Handler<(), ()> = Handler::new("scenarios::never_registered", |_, _| Ok(()));

/// A collective command for driver mode: each locale returns the sum over locales of
/// (id + x), computed with an allreduce.
fn collective_sum(ctx: &Ctx, x: u64) -> Result<u64> {
    ctx.allreduce(ctx.id() as u64 + x, |a, b| a + b)
}
pub static COLLECTIVE_SUM: Handler<u64, u64> = Handler::new("scenarios::collective_sum", collective_sum);

/// A driver command whose part fails on locale `who` (a panic, or an error for mode 3) while
/// the others do something else; `mode` says what:
/// 0: the others return at once (no collective); 1: the others wait in an allreduce;
/// 2: every locale makes three collectives first, then the others make three more;
/// 3: as 1, with an error instead of a panic; 4: as 1, and the others go on calling
/// collectives after theirs failed; 5: every locale makes an allreduce, then every locale
/// panics (the same point everywhere); 6: the failing locale makes a barrier first (the
/// cleanup of a failed part) while the others end the command at once, so its collectives
/// and theirs differ (found by collective checking, which must then abandon the command).
fn fails_on(ctx: &Ctx, (who, mode): (usize, u8)) -> Result<u64> {
    let me = ctx.id();
    if mode == 2 || mode == 5 {
        let s = ctx.allreduce(me as u64, |a, b| a + b)?;
        if mode == 5 {
            panic!("every locale panics on purpose after the sum {s}");
        }
        ctx.broadcast(0, (me == 0).then_some(s))?;
        ctx.barrier()?;
    }
    if me == who {
        if mode == 6 {
            ctx.barrier()?;
            return Err(Error::InvalidArgument(format!("locale {me} refuses on purpose")));
        }
        if mode == 3 {
            return Err(Error::InvalidArgument(format!("locale {me} refuses on purpose")));
        }
        panic!("locale {me} panics on purpose (mode {mode})");
    }
    match mode {
        0 | 6 => Ok(me as u64),
        2 => {
            ctx.gather(0, &me)?;
            ctx.barrier()?;
            ctx.allreduce(1u64, |a, b| a + b)
        }
        4 => {
            let first = ctx.allreduce(1u64, |a, b| a + b);
            let again = ctx.allgather(&me).map(|_| ()).and(ctx.barrier());
            match (first, again) {
                (Err(Error::CommandFailed { .. }), Err(Error::CommandFailed { .. })) => Ok(0),
                other => Err(Error::InvalidArgument(format!("expected CommandFailed twice, got {other:?}"))),
            }
        }
        _ => ctx.allreduce(1u64, |a, b| a + b),
    }
}
pub static FAILS_ON: Handler<(usize, u8), u64> = Handler::new("scenarios::fails_on", fails_on);

/// Driver commands that fail on one locale (or all) in the given `modes` of [`FAILS_ON`],
/// each checked to return the failing locale's error and followed by a command that must
/// work: the session survives every failure.
pub fn driver_failures(d: &Driver, modes: &[u8]) -> Result<()> {
    let n = d.num_locales();
    let mut whos = vec![0, n - 1];
    if n > 2 {
        whos.push(1);
    }
    for &mode in modes {
        for &who in &whos {
            let got = d.exec(&FAILS_ON, (who, mode));
            let ok = match (&got, mode) {
                (Err(Error::InvalidArgument(m)), 3) => m == &format!("locale {who} refuses on purpose"),
                // The mismatch of the failing locale's barrier with the others' end of command.
                (Err(Error::CollectiveMismatch { .. } | Error::CommandFailed { .. }), 6) => true,
                (Err(Error::InvalidArgument(m)), 6) => m == &format!("locale {who} refuses on purpose"),
                (Err(Error::HandlerPanicked { locale: 0, handler, message }), 5) => {
                    handler == "scenarios::fails_on" && message.starts_with("every locale panics on purpose")
                }
                (Err(Error::HandlerPanicked { locale, handler, message }), _) => {
                    *locale == who
                        && handler == "scenarios::fails_on"
                        && message == &format!("locale {who} panics on purpose (mode {mode})")
                }
                _ => false,
            };
            check(ok, format!("mode {mode}, locale {who} failing: got {got:?}"))?;
            let x = (mode as u64) * 10 + who as u64;
            let s = d.exec(&COLLECTIVE_SUM, x)?;
            let want = (0..n as u64).map(|i| i + x).sum::<u64>();
            check(s == vec![want; n], format!("after mode {mode}, locale {who}: sum {s:?}, want {want}"))?;
        }
    }
    Ok(())
}

pub fn register_all() {
    FAILS_ON.register();
    ADD_ONE.register();
    WHERE.register();
    FAILS.register();
    CHAIN.register();
    COLLECTIVE_SUM.register();
}

fn check(cond: bool, what: impl Into<String>) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what.into())))
    }
}

/// Identity, names and every collective.
pub fn collectives(ctx: &Ctx) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    check(ctx.locales().len() == n, "locales() lists every locale")?;
    for (i, l) in ctx.locales().iter().enumerate() {
        check(l.id == i && l.name.starts_with(&format!("locale-{i}@")), format!("name of locale {i}: {}", l.name))?;
        check(l.sublocales >= 1 && l.threads >= 1, "every locale has a sublocale and a thread")?;
    }
    check(!ctx.here().children().is_empty(), "here has children")?;
    check(matches!(ctx.here().child(999), Err(Error::InvalidSublocale { .. })), "child(999) is an error")?;
    ctx.barrier()?;
    let all = ctx.allgather(&(me * 3))?;
    check(all == (0..n).map(|i| i * 3).collect::<Vec<_>>(), "allgather")?;
    for root in 0..n {
        let v = ctx.broadcast(root, (me == root).then(|| format!("hello from {root}")))?;
        check(v == format!("hello from {root}"), "broadcast")?;
    }
    let g = ctx.gather(n - 1, &(me as u32))?;
    check(if me == n - 1 { g == (0..n as u32).collect::<Vec<_>>() } else { g.is_empty() }, "gather")?;
    let s = ctx.allreduce(me as u64 + 1, |a, b| a + b)?;
    check(s == (n * (n + 1) / 2) as u64, "allreduce sum")?;
    let x = ctx.allreduce((me as f64) * 0.1, |a, b| a + b)?;
    let want = (0..n).map(|i| i as f64 * 0.1).fold(0.0, |a, b| a + b);
    check(x.to_bits() == want.to_bits(), "allreduce is bitwise deterministic")?;
    let e = ctx.exscan(me as u64 + 1, 0, |a, b| a + b)?;
    check(e == (me * (me + 1) / 2) as u64, "exscan")?;
    // alltoallv with uneven sizes, including empty buffers.
    let out: Vec<Vec<u64>> =
        (0..n).map(|d| (0..(me + d) % 3).map(|k| (me * 1000 + d * 10 + k) as u64).collect()).collect();
    let got = ctx.alltoallv(out)?;
    for (src, v) in got.iter().enumerate() {
        let want: Vec<u64> = (0..(src + me) % 3).map(|k| (src * 1000 + me * 10 + k) as u64).collect();
        check(v == &want, format!("alltoallv from {src}"))?;
    }
    // A large allgather (4 MiB per locale) goes through too.
    let big = vec![me as u8; 4 << 20];
    let all = ctx.allgather(&big)?;
    check(
        all.iter().enumerate().all(|(i, v)| v.len() == 4 << 20 && v.iter().all(|&b| b == i as u8)),
        "large allgather",
    )?;
    check(matches!(ctx.broadcast::<u8>(n, None), Err(Error::InvalidLocale { .. })), "broadcast from a bad root")?;
    Ok(())
}

/// One-sided RMA, strided in 1-3 dimensions, non-blocking, and atomics.
pub fn rma(ctx: &Ctx) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let len = 4096;
    let mut a = ctx.alloc_symmetric::<f64>(len)?;
    for (i, x) in a.local_mut().iter_mut().enumerate() {
        *x = (me * 100_000 + i) as f64;
    }
    ctx.barrier()?;
    let val = |l: usize, i: usize| (l * 100_000 + i) as f64;
    // The allocation told every locale where the others' parts are: no lookup on first access.
    let misses = ctx.registration_stats().remote_misses;
    for t in 0..n {
        let mut buf = vec![0.0; 100];
        ctx.get(a.ptr(t).add(50), &mut buf)?;
        check(ctx.registration_stats().remote_misses == misses, format!("the first get from {t} needed a lookup"))?;
        check(buf.iter().enumerate().all(|(k, &x)| x == val(t, 50 + k)), format!("get from {t}"))?;
        check(ctx.get_value(a.ptr(t).add(7))? == val(t, 7), "get_value")?;
        // 1-D strided: 100 elements at stride 4 from offset 3.
        let mut s = vec![0.0; 100];
        ctx.get_strided(a.ptr(t).add(3), &[100], &[4], &mut s)?;
        check(s.iter().enumerate().all(|(k, &x)| x == val(t, 3 + 4 * k)), "strided get 1-D")?;
        // 2-D: a 5x7 block of a 64x64 row-major matrix at (2, 3).
        let mut b = vec![0.0; 35];
        ctx.get_strided(a.ptr(t).add(2 * 64 + 3), &[5, 7], &[64, 1], &mut b)?;
        check(b.iter().enumerate().all(|(k, &x)| x == val(t, (2 + k / 7) * 64 + 3 + k % 7)), "strided get 2-D")?;
        // 3-D: 2x3x4 of a 16x16x16 array, every other element along the last dimension.
        let mut c = vec![0.0; 24];
        ctx.get_strided(a.ptr(t), &[2, 3, 4], &[256, 16, 2], &mut c)?;
        let want: Vec<f64> = (0..2)
            .flat_map(|i| (0..3).flat_map(move |j| (0..4).map(move |k| val(t, i * 256 + j * 16 + 2 * k))))
            .collect();
        check(c == want, "strided get 3-D")?;
    }
    ctx.barrier()?;
    // Each locale writes its id into its slot of every other locale's array: contiguous puts
    // at [1000 + me], strided puts at 2000 + me + 8k (k < 10).
    for t in 0..n {
        ctx.put(a.ptr(t).add(1000 + me), &[me as f64 + 0.5])?;
        ctx.put_strided(a.ptr(t).add(2000 + me), &[10], &[8], &[-(me as f64); 10])?;
    }
    ctx.barrier()?;
    for src in 0..n {
        check(a.local()[1000 + src] == src as f64 + 0.5, "put landed")?;
        check((0..10).all(|k| a.local()[2000 + src + 8 * k] == -(src as f64)), "strided put landed")?;
    }
    ctx.barrier()?;
    // Non-blocking gets of every locale's element 11, completed by the scope.
    let mut got = vec![[0.0f64]; n];
    ctx.nonblocking(|nb| {
        for (t, slot) in got.iter_mut().enumerate() {
            nb.get(a.ptr(t).add(11), slot)?;
        }
        Ok(())
    })?;
    check(got.iter().enumerate().all(|(t, v)| v[0] == val(t, 11)), "non-blocking gets")?;
    // Atomics: everyone adds to a counter on locale 0, 50 times each.
    let counter = ctx.alloc_symmetric::<u64>(2)?;
    for _ in 0..50 {
        ctx.fetch_add(counter.ptr(0), 1)?;
    }
    // A compare-exchange that only one locale can win.
    let prev = ctx.compare_exchange(counter.ptr(0).add(1), 0, me as u64 + 1)?;
    ctx.barrier()?;
    let total = ctx.get_value(counter.ptr(0))?;
    check(total == 50 * n as u64, format!("fetch_add total {total}"))?;
    let winners = ctx.allreduce(u64::from(prev == 0), |a, b| a + b)?;
    check(winners == 1, "exactly one compare_exchange wins")?;
    // Errors: unregistered memory, misalignment, bad locale, bad shape.
    let stack = [0u64; 4];
    let bad = atoll_runtime::GlobalPtr::<u64>::new((me + 1) % n, stack.as_ptr() as u64);
    let mut one = [0u64];
    check(matches!(ctx.get(bad, &mut one), Err(Error::NotRegistered { .. })), "get from unregistered memory")?;
    let mis = atoll_runtime::GlobalPtr::<u64>::new(counter.ptr(0).locale(), counter.ptr(0).addr() + 1);
    check(matches!(ctx.fetch_add(mis, 1), Err(Error::Misaligned { .. })), "misaligned atomic")?;
    check(
        matches!(ctx.get(atoll_runtime::GlobalPtr::<u64>::new(n + 3, 0), &mut one), Err(Error::InvalidLocale { .. })),
        "bad locale",
    )?;
    let past_end = a.ptr((me + 1) % n).add(len - 1);
    let mut two = [0.0; 2];
    check(matches!(ctx.get(past_end, &mut two), Err(Error::NotRegistered { .. })), "get past the end")?;
    let mut wrong = vec![0.0; 3];
    check(
        matches!(ctx.get_strided(a.ptr(0), &[4], &[2], &mut wrong), Err(Error::ShapeMismatch { .. })),
        "strided shape mismatch",
    )?;
    // Direct pointers: own memory always; other locales' on the local backend (they share
    // the process) and under MPI exactly for the ranks of this host (node-shared memory, on
    // unless ATOLL_MPI_SHM=0; the host is read from each locale's name, whatever the
    // placement); registered ranges only.
    let shared = |t: usize| ctx.locales_share_process() || (ctx.config().mpi_shm && same_host(ctx, t));
    for t in 0..n {
        let p = ctx.direct_ptr(a.ptr(t), len)?;
        check(p.is_some() == (t == me || shared(t)), format!("direct pointer to {t}: {p:?}"))?;
        if let Some(p) = p {
            // SAFETY: `len` registered elements of locale t; nobody writes `a` until the
            // barrier below.
            let v = unsafe { p.add(50).read() };
            check(v == val(t, 50), format!("direct read from {t}"))?;
        }
        check(
            matches!(ctx.direct_ptr(a.ptr(t), len + 1), Err(Error::NotRegistered { .. })),
            "direct pointer past the end",
        )?;
    }
    check(matches!(ctx.direct_ptr(bad, 1), Err(Error::NotRegistered { .. })), "direct pointer to unregistered memory")?;
    check(
        matches!(ctx.direct_ptr(atoll_runtime::GlobalPtr::<u64>::new(n + 3, 0), 1), Err(Error::InvalidLocale { .. })),
        "direct pointer to a bad locale",
    )?;
    ctx.barrier()?;
    // Stores through a direct pointer, counted as the puts they stand for.
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let t = (me + 1) % n;
    if let Some(p) = ctx.direct_ptr(a.ptr(t), len)? {
        // SAFETY: element 3000 + me of locale t is written by this locale only, and read after
        // the barrier.
        unsafe { p.add(3000 + me).write(me as f64 * 3.0) };
    } else {
        ctx.put(a.ptr(t).add(3000 + me), &[me as f64 * 3.0])?;
    }
    ctx.count_direct_put(a.ptr(t).add(3000 + me), if shared(t) { 1 } else { 0 });
    ctx.stop_comm_diagnostics()?;
    ctx.barrier()?;
    let from = (me + n - 1) % n;
    check(a.local()[3000 + from] == from as f64 * 3.0, "direct store landed")?;
    let c = ctx.comm_counts();
    check(c.puts == u64::from(n > 1), format!("one put counted whichever way it went: {c:?}"))?;
    counter.free()?;
    a.free()
}

/// The host of locale `t`, from its name (`locale-<t>@<host>`).
pub fn host_of(ctx: &Ctx, t: usize) -> String {
    let name = &ctx.locales()[t].name;
    name.split_once('@').map(|(_, h)| h.to_string()).unwrap_or_default()
}

/// Whether locale `t` runs on this locale's host: under MPI, its node peers (they map each
/// other's memory unless `ATOLL_MPI_SHM=0`); every locale on the local backend.
pub fn same_host(ctx: &Ctx, t: usize) -> bool {
    host_of(ctx, t) == host_of(ctx, ctx.id())
}

/// The number of locales on this locale's host (itself included).
pub fn locales_on_my_host(ctx: &Ctx) -> usize {
    (0..ctx.num_locales()).filter(|&t| same_host(ctx, t)).count()
}

/// Active messages: replies, errors, nesting, sublocales, coforall.
pub fn active_messages(ctx: &Ctx) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let t = (me + 1) % n;
    let r = ctx.on(t, &ADD_ONE, vec![1, 2, 3])?;
    check(r == vec![2, 3, 4], "on() reply")?;
    let (id, _) = ctx.on(t, &WHERE, ())?;
    check(id == t, "handler ran with the target's context")?;
    let (id, thread) = ctx.on_async(t, &WHERE, ())?.wait()?;
    check(id == t, "async handler ran with the target's context")?;
    if t != me {
        check(thread.starts_with(&format!("atoll-l{t}-am")), format!("async handler thread {thread}"))?;
    }
    let (id, thread) = ctx.on_sublocale(t, 0, &WHERE, ())?;
    check(id == t && thread.starts_with(&format!("atoll-l{t}-s0")), format!("sublocale thread {thread}"))?;
    check(matches!(ctx.on_sublocale(t, 999, &WHERE, ()), Err(Error::InvalidSublocale { .. })), "bad sublocale")?;
    match ctx.on(t, &FAILS, ()) {
        Err(Error::InvalidArgument(m)) => check(m == format!("refused on locale {t}"), "handler error text")?,
        other => check(false, format!("handler error came back: {other:?}"))?,
    }
    if t != me {
        match ctx.on(t, &NOT_REGISTERED, ()) {
            Err(Error::HandlerNotRegistered { name, locale, .. }) => {
                check(name == "scenarios::never_registered" && locale == t, "unregistered handler named")?
            }
            other => check(false, format!("unregistered handler: {other:?}"))?,
        }
    }
    check(matches!(ctx.on(n, &ADD_ONE, vec![]), Err(Error::InvalidLocale { .. })), "on a bad locale")?;
    let path = ctx.on(t, &CHAIN, 2 * n)?;
    check(path == (0..=2 * n).map(|k| (me + 1 + k) % n).collect::<Vec<_>>(), format!("chain {path:?}"))?;
    let pending: Vec<_> = (0..n).map(|l| ctx.on_async(l, &ADD_ONE, vec![l as u64])).collect::<Result<_>>()?;
    for (l, p) in pending.into_iter().enumerate() {
        check(p.wait()? == vec![l as u64 + 1], "on_async")?;
    }
    let who = ctx.coforall_locales(&WHERE, ())?;
    check(who.iter().map(|w| w.0).collect::<Vec<_>>() == (0..n).collect::<Vec<_>>(), "coforall_locales")?;
    ctx.barrier()
}

/// Active messages of every size, many in flight from several tasks of every locale to every
/// locale at once: under MPI between node peers they pass through byte rings of 256 KiB in
/// shared memory (`comm/mpi/shm_am.rs`), so the larger payloads cross a ring several times
/// over, and the replies interleave with the requests. Each reply is checked element by
/// element.
pub fn active_messages_of_every_size(ctx: &Ctx) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    // 32,768 elements fill a ring exactly (with the encoding's and the frame's bytes, a bit more).
    let sizes = [0usize, 1, 3, 2_000, 32_767, 32_768, 90_001];
    let payload = |task: usize, t: usize, k: usize| -> Vec<u64> {
        (0..sizes[k]).map(|i| ((me * 1_000 + task * 100 + t * 10 + k) as u64) << 32 | i as u64).collect()
    };
    let results = ctx.coforall_tasks(2, |task| -> Result<()> {
        for round in 0..2 {
            let mut pending = Vec::new();
            for t in 0..n {
                for k in 0..sizes.len() {
                    pending.push((t, k, ctx.on_async((t + round) % n, &ADD_ONE, payload(task, t, k))?));
                }
            }
            for (t, k, p) in pending {
                let got = p.wait()?;
                let want: Vec<u64> = payload(task, t, k).into_iter().map(|x| x + 1).collect();
                check(
                    got == want,
                    format!("reply of {} elements (task {task}, target {}, round {round})", sizes[k], (t + round) % n),
                )?;
            }
        }
        Ok(())
    });
    results.into_iter().collect::<Result<Vec<()>>>()?;
    ctx.barrier()
}

/// Tasks: forall with reductions, coforall over tasks, sublocale pinning.
pub fn tasks(ctx: &Ctx) -> Result<()> {
    let n = 100_003;
    let s = ctx.forall_reduce(0..n, 0u64, |a, i| a + (i as u64 * i as u64) % 97, |a, b| a + b);
    let want: u64 = (0..n as u64).map(|i| (i * i) % 97).sum();
    check(s == want, "forall_reduce")?;
    let hits: Vec<std::sync::atomic::AtomicU8> = (0..n).map(|_| std::sync::atomic::AtomicU8::new(0)).collect();
    ctx.forall(0..n, |i| {
        hits[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    check(hits.iter().all(|h| h.load(std::sync::atomic::Ordering::Relaxed) == 1), "forall visits each index once")?;
    let r = ctx.coforall_tasks(5, |t| t * t);
    check(r == vec![0, 1, 4, 9, 16], "coforall_tasks")?;
    // Tasks that wait for each other need real concurrency.
    let b = std::sync::Barrier::new(4);
    ctx.coforall_tasks(4, |_| {
        b.wait();
    });
    if ctx.config().pin {
        for sub in ctx.here().children() {
            let cpu = sub.run(atoll_runtime::current_cpu);
            check(
                cpu.is_none_or(|c| sub.cores().contains(&c)),
                format!("sublocale {} ran on cpu {cpu:?}, cores {:?}", sub.index(), sub.cores()),
            )?;
        }
    }
    let v = ctx.here().alloc_filled(1000, 7u32);
    check(v.len() == 1000 && v.iter().all(|&x| x == 7), "alloc_filled")?;
    Ok(())
}

/// A fixed communication pattern whose counts must be the same on every backend.
pub fn fixed_pattern(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let mut a = ctx.alloc_symmetric::<u64>(1024)?;
    a.local_mut().iter_mut().enumerate().for_each(|(i, x)| *x = i as u64);
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let t = (me + 1) % n;
    let mut buf = [0u64; 16];
    for _ in 0..3 {
        ctx.get(a.ptr(t), &mut buf)?;
    }
    ctx.put(a.ptr(t).add(100), &buf)?;
    let mut s = [0u64; 10];
    ctx.get_strided(a.ptr(t), &[10], &[3], &mut s)?;
    ctx.put_strided(a.ptr(t).add(200), &[10], &[3], &s)?;
    ctx.fetch_add(a.ptr(t).add(500), 1)?;
    ctx.compare_exchange(a.ptr(t).add(501), 0, 1)?;
    ctx.on(t, &ADD_ONE, vec![1, 2])?;
    // Own-memory access is not communication.
    ctx.get(a.ptr(me), &mut buf)?;
    ctx.stop_comm_diagnostics()?;
    let all = ctx.comm_diagnostics()?;
    a.free()?;
    Ok(all)
}

/// What `fixed_pattern` must count on every locale (with more than one locale).
pub fn expected_fixed_counts() -> CommCounts {
    // gets 3x128 B, put 128 B, strided get/put 80 B each, 2 atomics x 8 B, AM payload + reply.
    let am_bytes = (postcard_len(&[1u64, 2]) + postcard_len(&[2u64, 3])) as u64;
    CommCounts {
        gets: 3,
        puts: 1,
        strided_gets: 1,
        strided_puts: 1,
        atomics: 2,
        ams: 1,
        bytes: 3 * 128 + 128 + 80 + 80 + 16 + am_bytes,
    }
}

fn postcard_len(v: &[u64]) -> usize {
    // postcard: varint length, then varint elements (all < 128 here: one byte each).
    1 + v.len()
}

/// The memory limit `out_of_memory` expects its job to run with (`Config::mem_max`).
pub const OOM_LIMIT: &str = "64MiB";

/// Out-of-memory errors: every locale gets the same error, nothing is allocated, and the job
/// goes on. Run with `mem_max = OOM_LIMIT`.
pub fn out_of_memory(ctx: &Ctx) -> Result<()> {
    const MIB: u64 = 1 << 20;
    let (me, n) = (ctx.id(), ctx.num_locales());
    check(
        ctx.budget().limit() == 64 * MIB,
        format!("limit {} (run with mem_max = {OOM_LIMIT})", ctx.budget().limit()),
    )?;
    let same = |e: &Error| -> Result<()> {
        let all = ctx.allgather(e)?;
        check(all.iter().all(|x| x == e), format!("locale {me} got {e:?}; all: {all:?}"))
    };
    // Memory that must survive the failures.
    let mut keep = ctx.alloc_symmetric::<u64>(512 + me)?;
    keep.local_mut().iter_mut().enumerate().for_each(|(i, x)| *x = (me * 1_000_000 + i) as u64);
    ctx.barrier()?;
    let committed = ctx.budget().committed();
    check(committed >= (512 + me as u64) * 8, format!("the array is committed: {committed}"))?;

    // 1. The last locale asks for 80 MiB, over its limit; the others' requests would fit.
    let len = if me == n - 1 { (80 * MIB / 8) as usize } else { 100 * (me + 1) };
    let e = ctx.alloc_symmetric::<u64>(len).map(|_| ()).unwrap_err();
    same(&e)?;
    check(
        matches!(&e, Error::OutOfMemory { operation, locale, requested, limit, in_use }
            if operation == "alloc_symmetric" && *locale == n - 1 && *requested == 80 * MIB && *limit == 64 * MIB && *in_use < 64 * MIB),
        format!("{e:?}"),
    )?;
    let text = e.to_string();
    check(text.contains("alloc_symmetric") && text.contains("83886080") && text.contains("67108864"), text)?;
    check(ctx.budget().reserved() == 0 && ctx.budget().committed() == committed, "nothing reserved or committed")?;

    // 2. Two locales fail with different requests: the lowest one's error wins everywhere.
    let bytes = if me % 2 == 1 || n == 1 { (70 + me as u64) * MIB } else { MIB };
    let e = ctx.reserve("stage", bytes).map(|_| ()).unwrap_err();
    same(&e)?;
    if n > 1 {
        check(
            matches!(&e, Error::OutOfMemory { operation, locale: 1, requested, .. } if operation == "stage" && *requested == 71 * MIB),
            format!("{e:?}"),
        )?;
    } else {
        check(
            matches!(&e, Error::OutOfMemory { locale: 0, requested, .. } if *requested == 70 * MIB),
            format!("{e:?}"),
        )?;
    }
    check(ctx.budget().reserved() == 0, "the failed reserve left nothing")?;

    // 3. An impossible size on one locale: a typed error everywhere.
    let len = if me == 0 { usize::MAX / 4 } else { 1 };
    let e = ctx.alloc_symmetric_for::<u64>("scenario::huge", len).map(|_| ()).unwrap_err();
    same(&e)?;
    check(matches!(&e, Error::InvalidArgument(m) if m.contains("scenario::huge")), format!("{e:?}"))?;

    // The job goes on: a collective, a new allocation within the limit, the old data intact.
    let s = ctx.allreduce(1u64, |a, b| a + b)?;
    check(s == n as u64, "allreduce after the failures")?;
    let mut fresh = ctx.alloc_symmetric_for::<u64>("scenario::fresh", (32 * MIB / 8) as usize)?;
    check(fresh.committed_bytes() == 32 * MIB, "the new array is committed")?;
    fresh.local_mut()[0] = me as u64 + 7;
    ctx.barrier()?;
    for l in 0..n {
        let mut got = vec![0u64; 512 + l];
        ctx.get(keep.ptr(l), &mut got)?;
        check(
            got.iter().enumerate().all(|(i, &x)| x == (l * 1_000_000 + i) as u64),
            format!("locale {l}'s array is intact"),
        )?;
        check(ctx.get_value(fresh.ptr(l))? == l as u64 + 7, "the new array works")?;
    }
    fresh.free()?;
    check(ctx.budget().committed() == committed, "free released the commitment")?;

    // With the tracking allocator installed, this locale's memory is counted.
    if atoll_runtime::atoll_mem::tracking_active() {
        let before = ctx.memory_used();
        let block = std::hint::black_box(vec![1u8; 4 << 20]);
        let after = ctx.memory_used();
        let slack = 64 << 10;
        check(
            after + slack >= before + (4 << 20) && after <= before + (4 << 20) + slack,
            format!("memory_used {before} -> {after}"),
        )?;
        // Every locale holds its 4 MiB block now. (In `count` mode a locale's figure also moves
        // when its threads free blocks other locales allocated: allow 256 KiB each.)
        let total = ctx.memory_used_all()?;
        check(total + n as u64 * (256 << 10) >= n as u64 * (4 << 20), format!("memory_used_all {total}"))?;
        drop(block);
    }
    keep.free()
}

/// A job that keeps communicating for about `seconds` (rank 0's clock decides, so every
/// locale runs the same iterations): each iteration puts a word into the next locale's part
/// and gets one from it for 200 ms (each put and get completed by a flush), calls a handler on
/// it, and checks an allreduce and the word the previous locale put. For the cluster's fault tests (a link
/// down for a while, a host gone, the launcher stopped); returns the iterations run.
pub fn soak(ctx: &Ctx, seconds: f64) -> Result<u64> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let mut a = ctx.alloc_symmetric::<u64>(1024)?;
    a.local_mut().fill(0);
    ctx.barrier()?;
    if me == 0 {
        // The fault tests wait for this line before they cut a link or kill a host.
        println!("soak: every rank started");
    }
    let start = std::time::Instant::now();
    let mut it = 0u64;
    loop {
        let go = ctx.broadcast(0, (me == 0).then(|| start.elapsed().as_secs_f64() < seconds))?;
        if !go {
            break;
        }
        it += 1;
        let next = (me + 1) % n;
        let word = [it * 1000 + me as u64];
        // Mostly one-sided traffic to the next locale (puts and gets, each completed by a
        // flush: a second of it per iteration, against milliseconds for the rest), so a host
        // that stops answering stalls its neighbours in flushes first; then the active
        // message and the collectives.
        let burst = std::time::Instant::now();
        while burst.elapsed() < std::time::Duration::from_millis(1000) {
            ctx.nonblocking(|nb| nb.put(a.ptr(next).add(it as usize % 1024), &word))?;
            let mut got = [0u64];
            ctx.get(a.ptr(next).add(1023), &mut got)?;
        }
        let r = ctx.on(next, &ADD_ONE, vec![it])?;
        check(r == vec![it + 1], format!("iteration {it}: on() replied {r:?}"))?;
        let s = ctx.allreduce(it, |x, y| x + y)?;
        check(s == it * n as u64, format!("iteration {it}: allreduce {s}"))?;
        ctx.barrier()?;
        let from = (me + n - 1) % n;
        let v = a.local()[it as usize % 1024];
        check(v == it * 1000 + from as u64, format!("iteration {it}: word {v} from locale {from}"))?;
    }
    ctx.barrier()?;
    a.free()?;
    Ok(it)
}
