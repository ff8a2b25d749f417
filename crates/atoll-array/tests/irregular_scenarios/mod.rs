//! Deterministic gather/scatter scenarios, shared by `tests/irregular.rs` (local backend,
//! 1-4 locales) and the MPI program `tests/programs/irregular_selftest.rs`: each checks its
//! results against a sequential reference and its message counts against the count computed
//! from the indices and the buffer size, and returns every locale's counts.
#![allow(dead_code)]

use atoll_array::{dist, DistArray, Distribution, IrregularOptions};
use atoll_runtime::{CommCounts, Ctx, Error, Result};
use atoll_util::{mix, GOLDEN_GAMMA};

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        let z = mix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        z
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `m` random indices of `0..n`, duplicates included.
pub fn random_indices(n: usize, m: usize, seed: u64) -> Vec<i64> {
    let mut r = Rng(seed);
    (0..m).map(|_| r.below(n) as i64).collect()
}

/// A random permutation of `0..n`.
pub fn permutation(n: usize, seed: u64) -> Vec<i64> {
    let mut p: Vec<i64> = (0..n as i64).collect();
    let mut r = Rng(seed);
    for i in (1..n).rev() {
        p.swap(i, r.below(i + 1));
    }
    p
}

pub fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

/// The messages this locale sends for its part of `idx` into an array distributed by `da`:
/// per task part (see `atoll_array::irregular`) and remote owner, `ceil(k / cap)`.
pub fn expected_messages<MA: Distribution<1>>(ctx: &Ctx, da: &MA, local_idx: &[i64], tasks: usize, cap: usize) -> u64 {
    let (me, len) = (ctx.id(), local_idx.len());
    let mut total = 0;
    for p in 0..tasks {
        let mut per = vec![0usize; ctx.num_locales()];
        for &i in &local_idx[p * len / tasks..(p + 1) * len / tasks] {
            per[da.owner([i])] += 1;
        }
        total += per.iter().enumerate().filter(|&(d, _)| d != me).map(|(_, &k)| k.div_ceil(cap) as u64).sum::<u64>();
    }
    total
}

/// The transfers each kind of an exchange sends for this locale's part of `idx` into an array
/// distributed by `da`, rounds of `round`: one per round and remote owner named in it (gather:
/// a put of offsets and a get of values; scatter: two puts).
pub fn expected_exchange<MA: Distribution<1>>(ctx: &Ctx, da: &MA, local_idx: &[i64], round: usize) -> u64 {
    let me = ctx.id();
    local_idx
        .chunks(round)
        .map(|c| {
            let mut named = vec![false; ctx.num_locales()];
            c.iter().for_each(|&i| named[da.owner([i])] = true);
            named.iter().enumerate().filter(|&(d, &x)| x && d != me).count() as u64
        })
        .sum()
}

/// The rounds of the exchange cases: a few indices, so that the scenarios take several.
pub fn exchange_round(cap: usize) -> usize {
    3 * cap + 1
}

/// The remote elements of this locale's part of `idx`: one get or put each, per element.
pub fn expected_per_element<MA: Distribution<1>>(ctx: &Ctx, da: &MA, local_idx: &[i64]) -> u64 {
    local_idx.iter().filter(|&&i| da.owner([i]) != ctx.id()).count() as u64
}

/// Counts of `f`'s communication on every locale. **Collective.**
pub fn counted<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, CommCounts)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    Ok((r?, ctx.comm_counts()))
}

fn value(i: i64) -> f64 {
    i as f64 * 1.5 - 7.0
}

/// Gather `a[idx]` with `m` random indices (duplicates) into an array of `n`, aggregated
/// (buffers of `cap`, `tasks` tasks) and per element; checks values and counts.
pub fn gather_case<MA: Distribution<1> + 'static, MI: Distribution<1> + 'static>(
    ctx: &Ctx,
    da: MA,
    di: MI,
    cap: usize,
    tasks: usize,
    seed: u64,
) -> Result<Vec<CommCounts>> {
    let (n, m) = (da.domain().size(), di.domain().size());
    let all_idx = random_indices(n, m, seed);
    let a = DistArray::from_fn(ctx, da.clone(), |[i]| value(i))?;
    let idx = DistArray::from_fn(ctx, di.clone(), |[j]| all_idx[j as usize])?;
    let opts = IrregularOptions::aggregated().with_buffer(cap).with_tasks(tasks);
    let (b, c) = counted(ctx, || a.take_with(&idx, &opts))?;
    let want = expected_messages(ctx, &da, idx.local(), tasks, cap);
    check(c.ams == want && c.total_ops() == want, || {
        format!("locale {}: gather counts {c:?}, expected {want} messages", ctx.id())
    })?;
    check_gathered(ctx, &b, &all_idx)?;
    let round = exchange_round(cap);
    let (b3, c3) =
        counted(ctx, || a.take_with(&idx, &IrregularOptions::exchanged().with_round(round).with_tasks(tasks)))?;
    let want3 = expected_exchange(ctx, &da, idx.local(), round);
    let remote = expected_per_element(ctx, &da, idx.local());
    check(c3.puts == want3 && c3.gets == want3 && c3.total_ops() == 2 * want3 && c3.bytes == 16 * remote, || {
        format!("locale {}: exchange counts {c3:?}, expected {want3} puts and gets, {} bytes", ctx.id(), 16 * remote)
    })?;
    check_gathered(ctx, &b3, &all_idx)?;
    let (b2, c2) = counted(ctx, || a.take_with(&idx, &IrregularOptions::per_element()))?;
    let want2 = expected_per_element(ctx, &da, idx.local());
    check(c2.gets == want2 && c2.total_ops() == want2, || {
        format!("locale {}: per-element counts {c2:?}, expected {want2} gets", ctx.id())
    })?;
    check_gathered(ctx, &b2, &all_idx)?;
    Ok(ctx.allgather(&vec![c, c2, c3])?.concat())
}

fn check_gathered<MI: Distribution<1>>(ctx: &Ctx, b: &DistArray<f64, 1, MI>, all_idx: &[i64]) -> Result<()> {
    for (k, &x) in b.local().iter().enumerate() {
        let [j] = b.dist().global_index(ctx.id(), k)?;
        let want = value(all_idx[j as usize]);
        check(x == want, || format!("locale {}: gathered[{j}] = {x}, expected {want}", ctx.id()))?;
    }
    Ok(())
}

/// Scatter `a[perm] = v` (a permutation of `0..n`), aggregated and per element; checks
/// values (every element written once) and counts.
pub fn scatter_case<MA: Distribution<1> + 'static, MI: Distribution<1> + 'static>(
    ctx: &Ctx,
    da: MA,
    di: MI,
    cap: usize,
    tasks: usize,
    seed: u64,
) -> Result<Vec<CommCounts>> {
    let n = da.domain().size();
    let perm = permutation(n, seed);
    let mut inv = vec![0i64; n];
    for (j, &i) in perm.iter().enumerate() {
        inv[i as usize] = j as i64;
    }
    let idx = DistArray::from_fn(ctx, di.clone(), |[j]| perm[j as usize])?;
    let v = DistArray::from_fn(ctx, di.clone(), |[j]| j as u64 * 3 + 1)?;
    let mut out = Vec::new();
    let round = exchange_round(cap);
    for opts in [
        IrregularOptions::aggregated().with_buffer(cap).with_tasks(tasks),
        IrregularOptions::per_element(),
        IrregularOptions::exchanged().with_round(round).with_tasks(tasks),
    ] {
        let mut a = DistArray::<u64, 1, MA>::zeros(ctx, da.clone())?;
        let ((), c) = counted(ctx, || a.scatter_at_with(&idx, &v, &opts))?;
        use atoll_array::Transfer;
        let remote = expected_per_element(ctx, &da, idx.local());
        let (got, want) = match opts.transfer {
            Transfer::Aggregated => (c.ams, expected_messages(ctx, &da, idx.local(), tasks, cap)),
            Transfer::PerElement => (c.puts, remote),
            // Two puts per destination and round: offsets and values, 16 bytes per element.
            Transfer::Exchange => (c.puts, 2 * expected_exchange(ctx, &da, idx.local(), round)),
        };
        let bytes_ok = opts.transfer != Transfer::Exchange || c.bytes == 16 * remote;
        check(got == want && c.total_ops() == want && bytes_ok, || {
            format!("locale {}: scatter {opts:?} counts {c:?}, expected {want}", ctx.id())
        })?;
        for (k, &x) in a.local().iter().enumerate() {
            let [i] = a.dist().global_index(ctx.id(), k)?;
            let w = inv[i as usize] as u64 * 3 + 1;
            check(x == w, || format!("locale {}: a[{i}] = {x}, expected {w}", ctx.id()))?;
        }
        out.push(c);
        a.free()?;
    }
    Ok(ctx.allgather(&out)?.concat())
}

/// Scatter with duplicate indices: each element ends with one of the values written to it.
pub fn scatter_duplicates(ctx: &Ctx, n: usize, m: usize, cap: usize) -> Result<()> {
    let all_idx = random_indices(n, m, 99);
    let idx = DistArray::from_fn(ctx, dist::cyclic(ctx, [m])?, |[j]| all_idx[j as usize])?;
    // Values distributed unlike the indices: copied first.
    let v = DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[j]| j as i32 + 1)?;
    let mut a = DistArray::<i32, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    a.scatter_at_with(&idx, &v, &IrregularOptions::default().with_buffer(cap))?;
    for (k, &x) in a.local().iter().enumerate() {
        let [i] = a.dist().global_index(ctx.id(), k)?;
        let writers: Vec<i32> =
            all_idx.iter().enumerate().filter(|&(_, &t)| t == i).map(|(j, _)| j as i32 + 1).collect();
        let ok = if writers.is_empty() { x == 0 } else { writers.contains(&x) };
        check(ok, || format!("locale {}: a[{i}] = {x}, written {writers:?}", ctx.id()))?;
    }
    Ok(())
}

/// Gathers of other element and index types (bool values, u32 indices, i8 values).
pub fn other_types(ctx: &Ctx, n: usize) -> Result<()> {
    let a = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [4])?, |[i]| i % 3 == 0)?;
    let all_idx = random_indices(n, 2 * n, 5);
    let idx = DistArray::from_fn(ctx, dist::block(ctx, [2 * n])?, |[j]| all_idx[j as usize] as u32)?;
    let b = a.take_with(&idx, &IrregularOptions::default().with_buffer(5))?;
    for (k, &x) in b.local().iter().enumerate() {
        let [j] = b.dist().global_index(ctx.id(), k)?;
        check(x == (all_idx[j as usize] % 3 == 0), || format!("bool gather at {j}"))?;
    }
    let mut c = DistArray::<i8, 1, _>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    let perm = permutation(n, 3);
    let pidx = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| perm[j as usize] as u32)?;
    let vals = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| (j % 100) as i8)?;
    c.scatter_at_with(&pidx, &vals, &IrregularOptions::default().with_buffer(3))?;
    for (k, &x) in c.local().iter().enumerate() {
        let [i] = c.dist().global_index(ctx.id(), k)?;
        let j = perm.iter().position(|&p| p == i).unwrap_or(usize::MAX);
        check(x == (j % 100) as i8, || format!("i8 scatter at {i}: {x}"))?;
    }
    Ok(())
}

/// Out-of-bounds indices (negative, n, at any locale): the same error on every locale, and
/// nothing written.
pub fn out_of_bounds(ctx: &Ctx, n: usize) -> Result<()> {
    let nl = ctx.num_locales() as i64;
    for bad in [-1i64, n as i64, i64::MAX] {
        // The bad index sits in the part of the last locale.
        let m = 4 * nl as usize;
        let idx =
            DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[j]| if j == m as i64 - 1 { bad } else { j % n as i64 })?;
        let v = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [m])?, 9.0)?;
        let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        let e = a.scatter_at(&idx, &v).unwrap_err();
        let all = ctx.allgather(&e)?;
        check(all.iter().all(|x| *x == e), || format!("different errors: {all:?}"))?;
        check(matches!(&e, Error::IndexOutOfBounds { index, .. } if index.contains(&bad.to_string())), || {
            format!("{e}")
        })?;
        check(a.local().iter().all(|&x| x == 0.0), || "a failed scatter wrote".into())?;
        let e2 = a.take(&idx).unwrap_err();
        check(matches!(&e2, Error::IndexOutOfBounds { .. }), || format!("{e2}"))?;
    }
    // u64 indices beyond i64::MAX.
    let idx = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [3])?, u64::MAX)?;
    let a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    check(matches!(a.take(&idx), Err(Error::IndexOutOfBounds { .. })), || "u64::MAX".into())?;
    // Shapes, buffer 0, and the job goes on.
    let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let idx = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [5])?)?;
    let v = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [6])?)?;
    check(matches!(a.scatter_at(&idx, &v), Err(Error::ShapeMismatch { .. })), || "shape".into())?;
    let e = a.take_with(&idx, &IrregularOptions::default().with_buffer(0)).unwrap_err();
    check(matches!(e, Error::InvalidArgument(_)), || format!("{e}"))?;
    check(a.take(&idx)?.len() == 5, || "the job goes on".into())
}

/// Empty arrays: no index, or an empty indexed array with no index.
pub fn empty(ctx: &Ctx) -> Result<()> {
    let a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [10])?)?;
    let idx = DistArray::<i64, 1, _>::zeros(ctx, dist::cyclic(ctx, [0])?)?;
    check(a.take(&idx)?.is_empty(), || "empty gather".into())?;
    let mut e = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [0])?)?;
    let v = DistArray::<f64, 1, _>::zeros(ctx, dist::cyclic(ctx, [0])?)?;
    e.scatter_at(&idx, &v)?;
    let one = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [1])?)?;
    check(matches!(e.take(&one), Err(Error::IndexOutOfBounds { .. })), || "index into an empty array".into())
}

/// Every counted scenario, in order: (name, every locale's counts). **Collective.**
pub fn all(ctx: &Ctx) -> Result<Vec<(String, Vec<CommCounts>)>> {
    let mut out = Vec::new();
    let (n, m) = (1001usize, 777usize);
    for (cap, tasks) in [(7, 3), (64, 2), (8192, 1)] {
        let name = |what: &str| format!("{what}-cap{cap}-tasks{tasks}");
        out.push((
            name("gather-block-block"),
            gather_case(ctx, dist::block(ctx, [n])?, dist::block(ctx, [m])?, cap, tasks, 1)?,
        ));
        out.push((
            name("gather-cyclic-blockcyclic"),
            gather_case(ctx, dist::cyclic(ctx, [n])?, dist::block_cyclic(ctx, [m], [5])?, cap, tasks, 2)?,
        ));
        out.push((
            name("gather-blockcyclic-cyclic"),
            gather_case(ctx, dist::block_cyclic(ctx, [n], [3])?, dist::cyclic(ctx, [m])?, cap, tasks, 3)?,
        ));
        out.push((
            name("scatter-block-cyclic"),
            scatter_case(ctx, dist::block(ctx, [n])?, dist::cyclic(ctx, [n])?, cap, tasks, 4)?,
        ));
        out.push((
            name("scatter-cyclic-block"),
            scatter_case(ctx, dist::cyclic(ctx, [n])?, dist::block(ctx, [n])?, cap, tasks, 5)?,
        ));
        out.push((
            name("scatter-blockcyclic-blockcyclic"),
            scatter_case(ctx, dist::block_cyclic(ctx, [n], [2])?, dist::block_cyclic(ctx, [n], [7])?, cap, tasks, 6)?,
        ));
    }
    scatter_duplicates(ctx, 101, 1000, 4)?;
    other_types(ctx, 203)?;
    out_of_bounds(ctx, 50)?;
    empty(ctx)?;
    tiny(ctx)?;
    Ok(out)
}

/// Arrays with fewer elements than locales (some locales own none of the indexed array, of
/// the indices, or of both), with every transfer: results against the sequential reference.
pub fn tiny(ctx: &Ctx) -> Result<()> {
    let opts = [IrregularOptions::aggregated(), IrregularOptions::exchanged(), IrregularOptions::per_element()];
    for n in 1..=3usize {
        for m in [1usize, 2, 5] {
            let all_idx = random_indices(n, m, (7 * n + m) as u64);
            let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| value(i))?;
            let idx = DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[j]| all_idx[j as usize])?;
            for o in &opts {
                check_gathered(ctx, &a.take_with(&idx, o)?, &all_idx)?;
                let mut b = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
                let v = DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[j]| value(all_idx[j as usize]))?;
                b.scatter_at_with(&idx, &v, o)?;
                for (k, &x) in b.local().iter().enumerate() {
                    let [i] = b.dist().global_index(ctx.id(), k)?;
                    let want = if all_idx.contains(&i) { value(i) } else { 0.0 };
                    check(x == want, || format!("locale {}: tiny scatter {o:?} n {n} m {m}: b[{i}] = {x}", ctx.id()))?;
                }
            }
        }
    }
    Ok(())
}

/// The report locale 0 prints: one `counts <scenario> [...]` line per counted scenario.
pub fn report(all: &[(String, Vec<CommCounts>)]) -> String {
    all.iter().map(|(name, c)| format!("counts {name} {c:?}\n")).collect()
}
