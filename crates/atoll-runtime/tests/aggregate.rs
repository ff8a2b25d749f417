//! Dynamic aggregation (`atoll_runtime::aggregate`) on the local backend: results against
//! sequential references, exact message counts, buffer charges, errors, drop semantics.

use atoll_runtime::{run, Config, Ctx, DstAggregator, Error, Result, SrcAggregator};
use atoll_util::{mix, GOLDEN_GAMMA};

/// A small deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let z = mix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        z
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

/// Messages a locale sends for `per_dest[d]` accesses to each locale `d` with buffers of `cap`.
fn expected_messages(me: usize, per_dest: &[usize], cap: usize) -> u64 {
    per_dest.iter().enumerate().filter(|&(d, _)| d != me).map(|(_, &k)| k.div_ceil(cap) as u64).sum()
}

/// Every locale writes a permutation of the global index space `0..n*len` (element `g` lives
/// at offset `g % len` of locale `g / len`) with value `g * 10 + 1`.
fn scatter_permutation(ctx: &Ctx, len: usize, cap: usize) -> Result<()> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let total = nl * len;
    // A permutation of 0..total known to every locale (same seed), cut into one part each.
    let mut perm: Vec<usize> = (0..total).collect();
    let mut rng = Rng(42);
    for i in (1..total).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    let mine = &perm[me * len..(me + 1) * len];
    let a = ctx.alloc_symmetric::<u64>(len)?;
    ctx.barrier()?;
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let mut agg = DstAggregator::<u64>::with_capacity(ctx, cap)?;
    let mut per_dest = vec![0; nl];
    for &g in mine {
        per_dest[g / len] += 1;
        agg.put(a.ptr(g / len).add(g % len), g as u64 * 10 + 1)?;
    }
    agg.flush()?;
    let sent = agg.messages();
    drop(agg);
    ctx.stop_comm_diagnostics()?;
    let counts = ctx.comm_counts();
    let want = expected_messages(me, &per_dest, cap);
    check(sent == want && counts.ams == want && counts.total_ops() == want, || {
        format!("locale {me}, cap {cap}: {sent} messages, counts {counts:?}, expected {want}")
    })?;
    ctx.barrier()?;
    for (off, &x) in a.local().iter().enumerate() {
        let g = me * len + off;
        check(x == g as u64 * 10 + 1, || format!("locale {me}: element {g} is {x}"))?;
    }
    ctx.barrier()?;
    a.free()
}

/// Every locale reads random elements (duplicates included) of every locale.
fn gather_random(ctx: &Ctx, len: usize, reads: usize, cap: usize) -> Result<()> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let mut a = ctx.alloc_symmetric::<f64>(len)?;
    for (i, x) in a.local_mut().iter_mut().enumerate() {
        *x = (me * len + i) as f64 + 0.5;
    }
    ctx.barrier()?;
    let mut rng = Rng(7 + me as u64);
    let idx: Vec<usize> = (0..reads).map(|_| rng.below(nl * len)).collect();
    let mut got = vec![0.0f64; reads];
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let mut agg = SrcAggregator::with_capacity(ctx, cap)?;
    let mut per_dest = vec![0; nl];
    for (slot, &g) in got.iter_mut().zip(&idx) {
        per_dest[g / len] += 1;
        agg.get(a.ptr(g / len).add(g % len), slot)?;
    }
    agg.flush()?;
    let sent = agg.messages();
    drop(agg);
    ctx.stop_comm_diagnostics()?;
    let counts = ctx.comm_counts();
    let want = expected_messages(me, &per_dest, cap);
    check(sent == want && counts.ams == want, || {
        format!("locale {me}, cap {cap}: {sent} messages, {counts:?}, expected {want}")
    })?;
    for (k, &g) in idx.iter().enumerate() {
        check(got[k] == g as f64 + 0.5, || format!("locale {me}: read {k} of element {g} gave {}", got[k]))?;
    }
    ctx.barrier()?;
    a.free()
}

fn each_size(f: impl Fn(usize)) {
    for n in 1..=4 {
        f(n);
    }
}

#[test]
fn destination_aggregator_writes_a_permutation_with_exact_message_counts() {
    each_size(|n| {
        for (len, cap) in [(0, 4), (1, 1), (37, 1), (37, 3), (1000, 64), (1000, 8192)] {
            run(Config::local(n), |ctx| scatter_permutation(ctx, len, cap))
                .unwrap_or_else(|e| panic!("{n} locales, len {len}, cap {cap}: {e}"));
        }
    });
}

#[test]
fn source_aggregator_reads_random_elements_with_exact_message_counts() {
    each_size(|n| {
        for (len, reads, cap) in [(1, 5, 1), (13, 100, 1), (13, 100, 7), (1000, 5000, 256), (1000, 5000, 8192)] {
            run(Config::local(n), |ctx| gather_random(ctx, len, reads, cap))
                .unwrap_or_else(|e| panic!("{n} locales, len {len}, reads {reads}, cap {cap}: {e}"));
        }
    });
}

#[test]
fn one_aggregator_per_task_in_a_forall() {
    run(Config::local(3).with_threads_per_locale(2), |ctx| {
        let (me, nl, len) = (ctx.id(), ctx.num_locales(), 4096usize);
        let a = ctx.alloc_symmetric::<u32>(len)?;
        ctx.barrier()?;
        // Locale l writes the elements g with g % nl == l of the whole space, in 8 chunks.
        let total = nl * len;
        let errors = std::sync::Mutex::new(Vec::new());
        ctx.forall_chunks_with(0..total, total.div_ceil(8), |r| {
            let mut agg = DstAggregator::with_capacity(ctx, 100).expect("capacity");
            for g in r.filter(|g| g % nl == me) {
                if let Err(e) = agg.put(a.ptr(g / len).add(g % len), g as u32) {
                    errors.lock().unwrap().push(e);
                }
            }
            if let Err(e) = agg.flush() {
                errors.lock().unwrap().push(e);
            }
        });
        check(errors.lock().unwrap().is_empty(), || format!("{:?}", errors.lock().unwrap()))?;
        ctx.barrier()?;
        for (off, &x) in a.local().iter().enumerate() {
            check(x == (me * len + off) as u32, || format!("locale {me} offset {off}: {x}"))?;
        }
        ctx.barrier()?;
        a.free()
    })
    .unwrap();
}

#[test]
fn element_sizes_1_2_3_4_8_16_bytes() {
    fn roundtrip<T: atoll_runtime::Pod + Send + Sync + PartialEq + std::fmt::Debug>(
        ctx: &Ctx,
        make: impl Fn(usize) -> T,
    ) -> Result<()> {
        let (me, nl, len) = (ctx.id(), ctx.num_locales(), 50usize);
        let a = ctx.alloc_symmetric::<T>(len)?;
        ctx.barrier()?;
        let next = (me + 1) % nl;
        let mut agg = DstAggregator::with_capacity(ctx, 8)?;
        for i in 0..len {
            agg.put(a.ptr(next).add(len - 1 - i), make(next * 1000 + len - 1 - i))?;
        }
        agg.finish()?;
        ctx.barrier()?;
        let mut back: Vec<T> = (0..len).map(|_| make(0)).collect();
        let mut get = SrcAggregator::with_capacity(ctx, 8)?;
        for (i, slot) in back.iter_mut().enumerate() {
            get.get(a.ptr(next).add(i), slot)?;
        }
        get.finish()?;
        for (i, v) in back.iter().enumerate() {
            check(*v == make(next * 1000 + i), || format!("{} element {i}: {v:?}", std::any::type_name::<T>()))?;
        }
        ctx.barrier()?;
        a.free()
    }
    run(Config::local(2), |ctx| {
        roundtrip(ctx, |i| i as u8)?;
        roundtrip(ctx, |i| i as u16)?;
        roundtrip(ctx, |i| [i as u8, (i >> 8) as u8, 7u8])?;
        roundtrip(ctx, |i| i as f32)?;
        roundtrip(ctx, |i| i as i64 - 5)?;
        roundtrip(ctx, |i| [i as u32, 1, 2, i as u32 * 3])?;
        roundtrip(ctx, |i| [i as u8; 5])
    })
    .unwrap();
}

#[test]
fn buffers_are_lazy_and_charged_to_the_budget_until_flushed() {
    run(Config::local(4), |ctx| {
        let a = ctx.alloc_symmetric::<u64>(16)?;
        ctx.barrier()?;
        let before = ctx.budget().committed();
        let mut agg = DstAggregator::<u64>::with_capacity(ctx, 1000)?;
        check(ctx.budget().committed() == before, || "a new aggregator allocates nothing".into())?;
        // Two destinations used: two buffers.
        agg.put(a.ptr((ctx.id() + 1) % 4), 1)?;
        agg.put(a.ptr((ctx.id() + 2) % 4), 2)?;
        agg.put(a.ptr((ctx.id() + 1) % 4).add(1), 3)?;
        let charged = ctx.budget().committed() - before;
        check(charged == 2 * agg.buffer_bytes() && agg.buffer_bytes() == 4 + 1000 * 16, || {
            format!("charged {charged}")
        })?;
        agg.flush()?;
        check(ctx.budget().committed() == before, || "flushed buffers are released".into())?;
        let mut x = 0u64;
        let mut get = SrcAggregator::with_capacity(ctx, 10)?;
        get.get(a.ptr((ctx.id() + 3) % 4), &mut x)?;
        check(ctx.budget().committed() - before == get.buffer_bytes(), || "one source buffer".into())?;
        get.finish()?;
        check(ctx.budget().committed() == before, || "released".into())?;
        ctx.barrier()?;
        a.free()
    })
    .unwrap();
}

#[test]
fn a_buffer_over_the_budget_is_out_of_memory_on_that_locale() {
    run(Config::local(2).with_mem_max("1MiB"), |ctx| {
        let a = ctx.alloc_symmetric::<u64>(4)?;
        ctx.barrier()?;
        // 2^20 elements of 16 bytes: 16 MiB, over the 1 MiB limit.
        let mut agg = DstAggregator::<u64>::with_capacity(ctx, 1 << 20)?;
        match agg.put(a.ptr(1 - ctx.id()), 5) {
            Err(Error::OutOfMemory { locale, operation, .. }) => {
                check(locale == ctx.id() && operation.contains("DstAggregator"), || {
                    format!("locale {locale}, {operation}")
                })?
            }
            other => return Err(Error::InvalidArgument(format!("expected out of memory, got {other:?}"))),
        }
        agg.flush()?; // nothing buffered
        ctx.barrier()?;
        a.free()
    })
    .unwrap();
}

#[test]
fn unregistered_addresses_are_refused_by_the_target_and_nothing_is_written() {
    run(Config::local(2), |ctx| {
        let a = ctx.alloc_symmetric::<u64>(8)?;
        ctx.barrier()?;
        let other = 1 - ctx.id();
        let mut agg = DstAggregator::<u64>::with_capacity(ctx, 100)?;
        agg.put(a.ptr(other), 11)?;
        agg.put(a.ptr(other).add(8), 12)?; // one past the end
        let e = agg.flush().unwrap_err();
        check(matches!(e, Error::NotRegistered { locale, .. } if locale == other), || format!("{e}"))?;
        let mut x = 0u64;
        let mut get = SrcAggregator::with_capacity(ctx, 100)?;
        get.get(a.ptr(other).add(1 << 30), &mut x)?;
        let e = get.finish().unwrap_err();
        check(matches!(e, Error::NotRegistered { .. }), || format!("{e}"))?;
        ctx.barrier()?;
        check(a.local()[0] == 0, || "the refused message wrote nothing".into())?;
        // A bad locale id and a zero capacity are refused at once.
        let e = agg.put(atoll_runtime::GlobalPtr::new(9, 0), 1).unwrap_err();
        check(e == Error::InvalidLocale { locale: 9, num_locales: 2 }, || format!("{e}"))?;
        check(matches!(DstAggregator::<u8>::with_capacity(ctx, 0), Err(Error::InvalidArgument(_))), || "cap 0".into())?;
        check(matches!(SrcAggregator::<u8>::with_capacity(ctx, 0), Err(Error::InvalidArgument(_))), || "cap 0".into())?;
        // Drop flushes, and swallows errors without panicking.
        let mut bad = DstAggregator::<u64>::with_capacity(ctx, 100)?;
        bad.put(a.ptr(other).add(100), 1)?;
        drop(bad);
        let mut good = DstAggregator::<u64>::with_capacity(ctx, 100)?;
        good.put(a.ptr(other).add(3), 33)?;
        drop(good);
        ctx.barrier()?;
        check(a.local()[3] == 33, || "drop flushed".into())?;
        ctx.barrier()?;
        a.free()
    })
    .unwrap();
}

#[test]
fn the_buffer_size_comes_from_atoll_agg_buffer() {
    run(Config::local(2).with_agg_buffer(5), |ctx| {
        check(DstAggregator::<u64>::new(ctx).capacity() == 5, || "dst".into())?;
        check(SrcAggregator::<u64>::new(ctx).capacity() == 5, || "src".into())
    })
    .unwrap();
    let e = run(Config::local(2).with_agg_buffer(0), |_| Ok(())).unwrap_err();
    assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_AGG_BUFFER"), "{e}");
    let e = Config::from_vars(|k| (k == "ATOLL_AGG_BUFFER").then(|| "many".to_string())).unwrap_err();
    assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_AGG_BUFFER" && value == "many"), "{e}");
    assert_eq!(Config::from_vars(|_| None).unwrap().agg_buffer, atoll_runtime::DEFAULT_AGG_BUFFER);
}
