//! Node-shared memory under MPI (`comm/mpi/shm.rs`): symmetric memory of ranks on
//! one host is mapped by its node peers, grows with every allocation, and is released by the
//! collective free (no mapping or descriptor left behind). Every value is checked against the
//! pattern that its owner wrote. Also runs on the local backend and with `ATOLL_MPI_SHM=0`,
//! where the same transfers go through the in-process copies or MPI RMA.

use atoll_runtime::{Ctx, Error, Result};

fn check(cond: bool, what: impl Into<String>) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what.into())))
    }
}

/// The value locale `l` writes at index `i` of allocation `k`.
fn pat(k: usize, l: usize, i: usize) -> u64 {
    ((k as u64) << 40) ^ ((l as u64) << 32) ^ (i as u64).wrapping_mul(0x9E37_79B9)
}

/// Lines of /proc/self/maps that map Atoll's node segments, and descriptors open on them.
fn segments_in_use() -> (usize, usize) {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mapped = maps.lines().filter(|l| l.contains("/memfd:atoll.")).count();
    let fds = std::fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| {
                    std::fs::read_link(e.path()).is_ok_and(|t| t.to_string_lossy().starts_with("/memfd:atoll."))
                })
                .count()
        })
        .unwrap_or(0);
    (mapped, fds)
}

/// Allocations at any time, of many sizes, reached by every kind of transfer from every
/// locale; frees and new allocations (at reused addresses) never show stale memory; nothing
/// stays mapped or open after the frees.
pub fn node_shared(ctx: &Ctx, shm_expected: bool) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    ctx.barrier()?;
    let base = segments_in_use();
    // The last two are segments of whole huge pages, 2 MiB aligned and collapsed into huge
    // pages by their owner where the kernel allows (`memory/shared_huge.rs`); the last is the largest.
    let sizes = [1usize, 3, 511, 512, 4097, 100_000, 5 << 17, 9 << 17];
    for round in 0..3 {
        let mut arrays = Vec::new();
        for (j, &s) in sizes.iter().enumerate() {
            let k = round * 100 + j;
            // Different lengths on different locales.
            let len = s + me * 7;
            let mut a = ctx.alloc_symmetric::<u64>(len)?;
            for (i, x) in a.local_mut().iter_mut().enumerate() {
                *x = pat(k, me, i);
            }
            arrays.push((k, a));
        }
        ctx.barrier()?;
        if shm_expected && round == 0 {
            let (mapped, fds) = segments_in_use();
            // Each allocation: this rank's segment (mapped, descriptor kept) and every node
            // peer's (the ranks of this host).
            let want = base.0 + sizes.len() * crate::common::scenarios::locales_on_my_host(ctx);
            check(mapped == want, format!("{mapped} segment mappings, expected {want} (base {base:?})"))?;
            check(fds == base.1 + sizes.len(), format!("{fds} segment descriptors, base {base:?}"))?;
        }
        for (k, a) in &arrays {
            for t in 0..n {
                let len = a.len_on(t);
                // Whole part, a piece near the end, a strided view.
                let mut all = vec![0u64; len];
                ctx.get(a.ptr(t), &mut all)?;
                check(
                    all.iter().enumerate().all(|(i, &v)| v == pat(*k, t, i)),
                    format!("get of allocation {k} from {t}"),
                )?;
                let tail = len.min(5);
                let mut end = vec![0u64; tail];
                ctx.get(a.ptr(t).add(len - tail), &mut end)?;
                check(end.iter().enumerate().all(|(i, &v)| v == pat(*k, t, len - tail + i)), "get of the end")?;
                let cnt = len.div_ceil(3);
                let mut st = vec![0u64; cnt];
                ctx.get_strided(a.ptr(t), &[cnt], &[3], &mut st)?;
                check(st.iter().enumerate().all(|(i, &v)| v == pat(*k, t, 3 * i)), "strided get")?;
                let p = ctx.direct_ptr(a.ptr(t), len)?;
                let peer = shm_expected && crate::common::scenarios::same_host(ctx, t);
                check(
                    p.is_some() == (t == me || peer || ctx.locales_share_process()),
                    format!("direct pointer to {t}: {p:?}"),
                )?;
                if let Some(p) = p {
                    // SAFETY: `len` registered elements of locale t, not written until the
                    // barrier below.
                    let v = unsafe { p.add(len - 1).read() };
                    check(v == pat(*k, t, len - 1), "direct read")?;
                }
            }
        }
        ctx.barrier()?;
        // Writes: each locale puts into the next one's part of the largest allocation, strided
        // puts into the one after, and everyone counts on locale 0's first word.
        let (kb, big) = arrays.last().expect("allocations");
        let t = (me + 1) % n;
        let mine = [pat(*kb, 1000 + me, 0), pat(*kb, 1000 + me, 1)];
        ctx.put(big.ptr(t).add(10 + 2 * me), &mine)?;
        let vals: Vec<u64> = (0..4).map(|i| pat(*kb, 2000 + me, i)).collect();
        ctx.put_strided(big.ptr((me + 2) % n).add(10_000 + me), &[4], &[n], &vals)?;
        let (_, small) = &arrays[2];
        for _ in 0..25 {
            ctx.fetch_add(small.ptr(0), 1)?;
        }
        let won = ctx.compare_exchange(small.ptr(0).add(1), pat(arrays[2].0, 0, 1), 7_000 + me as u64)?;
        ctx.barrier()?;
        let from = (me + n - 1) % n;
        let l = big.local();
        check(
            l[10 + 2 * from] == pat(*kb, 1000 + from, 0) && l[11 + 2 * from] == pat(*kb, 1000 + from, 1),
            "put landed",
        )?;
        let from2 = (me + 2 * n - 2) % n;
        for i in 0..4 {
            check(l[10_000 + from2 + i * n] == pat(*kb, 2000 + from2, i), format!("strided put landed ({i})"))?;
        }
        if me == 0 {
            let s = small.local();
            check(s[0] == pat(arrays[2].0, 0, 0).wrapping_add(25 * n as u64), format!("fetch_add total {}", s[0]))?;
            check((7_000..7_000 + n as u64).contains(&s[1]), "one compare_exchange won")?;
        }
        let winners = ctx.allreduce(u64::from(won == pat(arrays[2].0, 0, 1)), |a, b| a + b)?;
        check(winners == 1, format!("{winners} compare_exchange winners"))?;
        for (_, a) in arrays {
            a.free()?;
        }
    }
    ctx.barrier()?;
    let after = segments_in_use();
    check(after == base, format!("segments in use after the frees: {after:?}, before {base:?}"))?;
    // Many short-lived allocations (addresses reused): never stale.
    for k in 0..40 {
        let mut a = ctx.alloc_symmetric::<u64>(64 + (k % 5) * 1000)?;
        a.local_mut().iter_mut().enumerate().for_each(|(i, x)| *x = pat(500 + k, me, i));
        ctx.barrier()?;
        let t = (me + 1 + k) % n;
        let mut got = vec![0u64; a.len_on(t)];
        ctx.get(a.ptr(t), &mut got)?;
        check(got.iter().enumerate().all(|(i, &v)| v == pat(500 + k, t, i)), format!("reallocation {k}"))?;
        drop(a); // collective, like free
    }
    ctx.barrier()?;
    check(segments_in_use() == base, "segments in use after the reallocations")?;
    // The tracked memory counts a symmetric allocation wherever it lives (heap or segment).
    if atoll_runtime::atoll_mem::tracking_active() {
        let (size, slack) = (4u64 << 20, 512u64 << 10);
        let before = ctx.memory_used();
        let a = ctx.alloc_symmetric::<u64>((size / 8) as usize)?;
        let during = ctx.memory_used();
        a.free()?;
        let after = ctx.memory_used();
        check(during + slack >= before + size, format!("memory_used {before} -> {during} with a 4 MiB allocation"))?;
        check(after <= before + slack, format!("memory_used {before} -> {after} after its free"))?;
    }
    Ok(())
}

/// The node segment (`memfd:atoll.<rank>.<seq>`) and size of this process's mapping that
/// holds `addr`, from /proc/self/maps.
fn segment_at(addr: usize) -> Option<(String, usize)> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines().find_map(|l| {
        let (range, rest) = l.split_once(' ')?;
        let (lo, hi) = range.split_once('-')?;
        let (lo, hi) = (usize::from_str_radix(lo, 16).ok()?, usize::from_str_radix(hi, 16).ok()?);
        let name = rest.split_whitespace().find(|w| w.starts_with("/memfd:atoll."))?;
        (lo..hi).contains(&addr).then(|| (name.to_string(), hi - lo))
    })
}

/// Bytes of this process's mappings of Atoll node segments (its own and its peers').
fn segment_bytes() -> usize {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    maps.lines()
        .filter(|l| l.contains("/memfd:atoll."))
        .filter_map(|l| {
            let (lo, hi) = l.split_once(' ')?.0.split_once('-')?;
            Some(usize::from_str_radix(hi, 16).ok()? - usize::from_str_radix(lo, 16).ok()?)
        })
        .sum()
}

/// Freed segments kept for reuse (`comm/mpi/shm_pool.rs`), run with `ATOLL_MPI_SHM_KEEP=`
/// `cap` bytes: an allocation after a free of the same size reuses the segment (same
/// `memfd` name, on the owner and in every peer's mapping) and is **zeroed** (eager and lazy
/// allocations promise zeros), peers see the new owner's values through every transfer, and
/// what stays mapped after the frees never exceeds the cap per rank.
pub fn node_shared_keep(ctx: &Ctx, shm_expected: bool, cap: usize) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    ctx.barrier()?;
    let base = segment_bytes();
    // Sizes (u64s) of at least 64 KiB, different on each rank.
    let sizes = [8192usize + me * 512, 100_000 + me * 7, 3 << 17];
    let mut names: Vec<Option<String>> = vec![None; sizes.len()];
    for round in 0..4 {
        let lazy = round % 2 == 1;
        let mut arrays = Vec::new();
        for (j, &len) in sizes.iter().enumerate() {
            let a = if lazy {
                ctx.alloc_symmetric_lazy_for::<u64>("selftest::keep", len)?
            } else {
                ctx.alloc_symmetric::<u64>(len)?
            };
            // Zeros, here and as every peer sees them, whatever the segment held before.
            check(a.local().iter().all(|&v| v == 0), format!("round {round}: allocation {j} not zeroed here"))?;
            arrays.push(a);
        }
        ctx.barrier()?;
        for (j, a) in arrays.iter().enumerate() {
            for t in 0..n {
                let mut got = vec![1u64; a.len_on(t)];
                ctx.get(a.ptr(t), &mut got)?;
                check(got.iter().all(|&v| v == 0), format!("round {round}: allocation {j} of {t} not zeroed"))?;
            }
            if shm_expected {
                let seg = segment_at(a.local().as_ptr() as usize).map(|s| s.0);
                check(seg.is_some(), format!("allocation {j} is not in a node segment"))?;
                // Same sizes as the previous round's: the same segment again.
                if round > 0 {
                    check(
                        seg == names[j],
                        format!("round {round}: allocation {j} in {seg:?}, not the kept {:?}", names[j]),
                    )?;
                }
                names[j] = seg;
            }
        }
        ctx.barrier()?;
        for (j, a) in arrays.iter_mut().enumerate() {
            a.local_mut().iter_mut().enumerate().for_each(|(i, x)| *x = pat(round * 10 + j, me, i));
        }
        ctx.barrier()?;
        for (j, a) in arrays.iter().enumerate() {
            for t in 0..n {
                let len = a.len_on(t);
                let mut got = vec![0u64; len];
                ctx.get(a.ptr(t), &mut got)?;
                check(
                    got.iter().enumerate().all(|(i, &v)| v == pat(round * 10 + j, t, i)),
                    format!("round {round}: get of {j} from {t}"),
                )?;
                if let Some(p) = ctx.direct_ptr(a.ptr(t), len)? {
                    // SAFETY: `len` registered elements of locale t, not written until the
                    // frees below.
                    let v = unsafe { p.add(len - 1).read() };
                    check(v == pat(round * 10 + j, t, len - 1), format!("round {round}: direct read of {j} from {t}"))?;
                }
            }
        }
        for a in arrays {
            a.free()?;
        }
        ctx.barrier()?;
        let kept = segment_bytes().saturating_sub(base);
        check(kept <= cap * n, format!("round {round}: {kept} bytes of segments stay mapped, cap {cap} per rank"))?;
    }
    // More than the cap freed at once: the oldest leave, what stays fits the cap (for small
    // caps only: the test allocates twice the cap).
    let rounds = if cap <= 64 << 20 { 6 } else { 0 };
    let many: Vec<_> =
        (0..rounds).map(|k| ctx.alloc_symmetric::<u64>((cap / 8) / 3 + k * 100)).collect::<Result<_>>()?;
    for a in many {
        a.free()?;
    }
    ctx.barrier()?;
    let kept = segment_bytes().saturating_sub(base);
    check(kept <= cap * n, format!("{kept} bytes of segments stay mapped after many frees, cap {cap} per rank"))?;
    // Large segments ask for huge pages (effective only where shmem_enabled allows it), on
    // the owner's mapping and on every node peer's (the ranks of this host).
    if shm_expected && atoll_runtime::hugepages::enabled() {
        let a = ctx.alloc_symmetric::<u64>(1 << 19)?;
        for t in (0..n).filter(|&t| crate::common::scenarios::same_host(ctx, t)) {
            let p =
                ctx.direct_ptr(a.ptr(t), 1 << 19)?.ok_or_else(|| Error::InvalidArgument("no direct pointer".into()))?;
            let adv = atoll_runtime::hugepages::is_advised(p as *const u8);
            check(adv != Some(false), format!("segment of {t} not advised for huge pages here"))?;
        }
        a.free()?;
    }
    Ok(())
}
