//! Deterministic scenarios with message-count assertions, run identically on every backend: by
//! `tests/comm_counts.rs` on the local backend with 1-5 locales, and by the
//! program of `tests/mpi_launch.rs` under `mpiexec`, which compares the
//! counts of both backends. Each scenario checks its results and its counts against values
//! computed here independently (by brute force over the distributions' `owner()`), and returns
//! every locale's counts for the measured region (`Ctx::comm_diagnostics`).
//!
//! Only the crate's normal dependencies are used here (the selftest binary cannot use
//! dev-dependencies).
#![allow(dead_code)]
// `a.slice([lo..hi])` is how 1-D arrays are sliced, not a mistaken `vec![lo..hi]`.
#![allow(clippy::single_range_in_vec_init)]

use atoll_array::{
    dist, Block, BlockCyclic, Cyclic, DistArray, Distribution, Domain, ExprReduce, SharedView, StridedRange,
};
use atoll_runtime::{CommCounts, Ctx, Error, Handler, Result};
use std::collections::BTreeSet;

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what())))
    }
}

/// Runs `f` with communication counted on every locale; returns its value and every locale's
/// counts of the region.
pub fn measure<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, Vec<CommCounts>)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    let r = r?;
    Ok((r, ctx.comm_diagnostics()?))
}

/// A value for index `idx` (exact in f64).
fn v1(i: i64) -> f64 {
    (i * 7 % 13) as f64 - 6.0
}

fn v2([i, j]: [i64; 2]) -> f64 {
    (i * 31 + j * 7) as f64
}

/// The pairs (destination locale, source locale) with the source remote that `dst[dst_dom] =
/// src[src_dom]` must move data between, by brute force.
fn remote_pairs<const D: usize>(
    dst: &impl Distribution<D>,
    dst_dom: &Domain<D>,
    src: &impl Distribution<D>,
    src_dom: &Domain<D>,
) -> BTreeSet<(usize, usize)> {
    dst_dom.iter().zip(src_dom.iter()).map(|(i, j)| (dst.owner(i), src.owner(j))).filter(|(d, s)| d != s).collect()
}

/// Per locale, how many elements of `follower[f_dom]` are owned elsewhere than the matching
/// element of `leader[l_dom]` (one get each for a misaligned follower).
fn remote_elements<const D: usize>(
    n: usize,
    leader: &impl Distribution<D>,
    l_dom: &Domain<D>,
    follower: &impl Distribution<D>,
    f_dom: &Domain<D>,
) -> Vec<u64> {
    let mut per = vec![0u64; n];
    for (i, j) in l_dom.iter().zip(f_dom.iter()) {
        let (l, f) = (leader.owner(i), follower.owner(j));
        if l != f {
            per[l] += 1;
        }
    }
    per
}

fn only(c: &CommCounts, what: &str, gets: u64, strided_gets: u64, puts: u64, ams: u64) -> Result<()> {
    check(
        c.gets == gets
            && c.strided_gets == strided_gets
            && c.puts == puts
            && c.strided_puts == 0
            && c.atomics == 0
            && c.ams == ams,
        || format!("{what}: counts {c:?}, want gets {gets}, strided gets {strided_gets}, puts {puts}, ams {ams}"),
    )
}

/// `c = a + b`, `c = b + 3 a`, an aligned zip and reductions, all Block (and all Cyclic) on
/// one domain, and the same over equal views: no remote operation on any locale.
pub fn aligned_expressions_make_no_messages(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let n = 1000;
    let a = DistArray::<f64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| v1(i))?;
    let b = DistArray::<f64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
    let mut c = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let x = DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [30, 20])?, |[i, j]| i - j)?;
    let mut y = DistArray::<i64, 2, Cyclic<2>>::zeros(ctx, dist::cyclic(ctx, [30, 20])?)?;
    let ((s, t, m), counts) = measure(ctx, || {
        c.assign_expr(&a + &b)?;
        c.assign_expr(&b + 3.0 * &a)?;
        c.zip_apply((a.view(), b.view()), |z, (p, q)| *z += p * q)?;
        c.slice_mut([10..990])?.assign_expr(a.slice([10..990])? + b.slice([10..990])?)?;
        y.assign_expr(&x * 2i64 - &x)?;
        y.slice_mut([0..30, 5..15])?.assign(&x.slice([0..30, 5..15])?)?;
        let s = (&a + &b).sum()?;
        let t = c.view().sum()?;
        let m = y.view().argmax()?;
        Ok((s, t, m))
    })?;
    let want_s: f64 = (0..n as i64).map(|i| v1(i) + i as f64).sum();
    let want_t: f64 = (0..n as i64)
        .map(|i| if (10..990).contains(&i) { v1(i) + i as f64 } else { i as f64 + 3.0 * v1(i) + v1(i) * i as f64 })
        .sum();
    check(s == want_s && t == want_t, || format!("aligned sums {s} {t}, want {want_s} {want_t}"))?;
    check(m == (29, [29, 0]), || format!("argmax {m:?}"))?;
    for (l, k) in counts.iter().enumerate() {
        check(k.total_ops() == 0, || format!("aligned expressions: locale {l} made {k:?}"))?;
    }
    Ok(counts)
}

/// Creating 1,000 slices (strided, views of views, writable ones, shared ones) makes no message.
pub fn creating_slices_makes_no_messages(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let mut a = DistArray::<f32, 2, BlockCyclic<2>>::zeros(ctx, dist::block_cyclic(ctx, [64, 48], [4, 3])?)?;
    let (made, counts) = measure(ctx, || {
        let mut made = 0usize;
        for k in 0..250i64 {
            let lo = k % 20;
            let v = a.slice([lo..lo + 40, 0..48])?;
            let w = v.slice(Domain::new([
                StridedRange::with_stride(lo + 1, lo + 40, 3)?,
                StridedRange::with_stride(k % 5, 48, 5)?,
            ])?)?;
            let s = w.share();
            made += 3 + usize::from(s.pin().is_ok());
            let mut m = a.slice_mut([lo..lo + 1, 0..48])?;
            let _ = m.slice_mut([lo..lo + 1, 1..47])?;
        }
        Ok(made)
    })?;
    check(made == 1000, || format!("{made} slices"))?;
    for (l, k) in counts.iter().enumerate() {
        check(k.total_ops() == 0 && k.bytes == 0, || format!("slices: locale {l} made {k:?}"))?;
    }
    Ok(counts)
}

/// `dst[view] = src[shifted view]` between Block arrays (1-D and 2-D halo-like shifts) and
/// between Cyclic ones: exactly one strided get per (source locale, destination locale) pair
/// that has data to move, and nothing else.
pub fn shifted_view_assign_is_one_strided_get_per_locale_pair(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let n = 100;
    let src = DistArray::<f64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| v1(i))?;
    let mut dst = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    let s2 = DistArray::<f64, 2>::from_fn(ctx, dist::block(ctx, [12, 10])?, v2)?;
    let mut d2 = DistArray::<f64, 2>::zeros(ctx, dist::block(ctx, [12, 10])?)?;
    let sc = DistArray::<f64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [12, 10])?, v2)?;
    let mut dc = DistArray::<f64, 2, Cyclic<2>>::zeros(ctx, dist::cyclic(ctx, [12, 10])?)?;
    let (d1, sd1) = (Domain::new([StridedRange::new(0, 93)])?, Domain::new([StridedRange::new(7, 100)])?);
    let (dd2, sdd2) =
        (Domain::from_shape([11, 9])?, Domain::new([StridedRange::new(1, 12), StridedRange::new(1, 10)])?);
    let mut all = Vec::new();
    for case in 0..3 {
        let (_, counts) = measure(ctx, || match case {
            0 => dst.slice_mut(d1)?.assign(&src.slice(sd1)?),
            1 => d2.slice_mut(dd2)?.assign(&s2.slice(sdd2)?),
            _ => dc.slice_mut(dd2)?.assign(&sc.slice(sdd2)?),
        })?;
        let pairs = match case {
            0 => remote_pairs(dst.dist(), &d1, src.dist(), &sd1),
            1 => remote_pairs(d2.dist(), &dd2, s2.dist(), &sdd2),
            _ => remote_pairs(dc.dist(), &dd2, sc.dist(), &sdd2),
        };
        let mine = pairs.iter().filter(|(d, _)| *d == me).count() as u64;
        only(&counts[me], &format!("shifted assign {case}"), 0, mine, 0, 0)?;
        check(nl > 1 || mine == 0, || "one locale: nothing remote".into())?;
        all.extend(counts);
    }
    if let Some(g) = dst.gather(0)? {
        check((0..93).all(|i| g[i] == v1(i as i64 + 7)) && g[93..].iter().all(|&x| x == 0.0), || {
            "1-D shifted assign".into()
        })?;
    }
    for (arr, name) in [(d2.gather(0)?, "Block"), (dc.gather(0)?, "Cyclic")] {
        if let Some(g) = arr {
            let ok = (0..12i64).all(|i| {
                (0..10i64).all(|j| g[(i * 10 + j) as usize] == if i < 11 && j < 9 { v2([i + 1, j + 1]) } else { 0.0 })
            });
            check(ok, || format!("2-D {name} shifted assign"))?;
        }
    }
    Ok(all)
}

/// `gather` of a Block array (1-D and 2-D) and of a Cyclic one: one strided get per remote
/// locale that owns elements, on the root only.
pub fn gather_is_one_strided_get_per_remote_locale(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let a = DistArray::<i32, 1>::from_fn(ctx, dist::block(ctx, [101])?, |[i]| i as i32 * 3)?;
    let b = DistArray::<u16, 2>::from_fn(ctx, dist::block(ctx, [9, 7])?, |[i, j]| (i * 7 + j) as u16)?;
    let c = DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [5, 8])?, |[i, j]| i * 8 + j)?;
    let mut all = Vec::new();
    for (case, root) in [(0, 0), (1, nl - 1), (2, nl / 2)] {
        let (ok, counts) = measure(ctx, || {
            Ok(match case {
                0 => a.gather(root)?.is_none_or(|g| g == (0..101).map(|i| i * 3).collect::<Vec<i32>>()),
                1 => b.gather(root)?.is_none_or(|g| g == (0..63).collect::<Vec<u16>>()),
                _ => c.gather(root)?.is_none_or(|g| g == (0..40).collect::<Vec<i64>>()),
            })
        })?;
        check(ok, || format!("gather {case}"))?;
        let owners: BTreeSet<usize> = match case {
            0 => a.domain().iter().map(|i| a.dist().owner(i)).collect(),
            1 => b.domain().iter().map(|i| b.dist().owner(i)).collect(),
            _ => c.domain().iter().map(|i| c.dist().owner(i)).collect(),
        };
        let want = if me == root { owners.iter().filter(|&&o| o != root).count() as u64 } else { 0 };
        only(&counts[me], &format!("gather {case} to {root}"), 0, want, 0, 0)?;
        all.extend(counts);
    }
    Ok(all)
}

/// Per locale, the transfers static aggregation must make for `leader[l_dom]` zipped with
/// `follower[f_dom]`, by brute force over `owner`/`locate`, for leaders whose elements on each
/// locale are one tile (Block, or 1-D Cyclic): a tile of at most `GROUP` elements (and rows of
/// at most `SEG`) is one chunk (checked); per
/// chunk and remote owner, one get for one element, else one strided get (these cases are
/// chosen so that each owner's elements of a chunk are at a fixed stride in its buffer, which
/// is checked).
fn static_transfers<const D: usize>(
    n: usize,
    leader: &impl Distribution<D>,
    l_dom: &Domain<D>,
    follower: &impl Distribution<D>,
    f_dom: &Domain<D>,
) -> Result<Vec<(u64, u64)>> {
    use std::collections::BTreeMap;
    check(l_dom.size() <= atoll_array::GROUP && l_dom.shape()[D - 1] <= atoll_array::SEG, || {
        format!("scenario assumption: {l_dom} is one chunk per locale")
    })?;
    // (leader locale, follower owner) -> follower local offsets in iteration order.
    let mut chunks: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, j) in l_dom.iter().zip(f_dom.iter()) {
        let (l, (f, off)) = (leader.owner(i), follower.locate(j));
        if l != f {
            chunks.entry((l, f)).or_default().push(off);
        }
    }
    let mut per = vec![(0u64, 0u64); n];
    for ((l, _), offs) in chunks {
        if offs.len() == 1 {
            per[l].0 += 1;
        } else {
            let step = offs[1] as i64 - offs[0] as i64;
            check(offs.windows(2).all(|w| w[1] as i64 - w[0] as i64 == step), || {
                format!("scenario assumption: offsets {offs:?} at a fixed stride")
            })?;
            per[l].1 += 1;
        }
    }
    Ok(per)
}

/// A misaligned follower (Cyclic follower of a Block leader, BlockCyclic of Block in 2-D,
/// strided views), in `zip_apply`, `assign_expr` and a reduction, in each aggregation mode:
/// `off` makes exactly one get per remote element; `static` one get or one strided get per
/// (chunk, remote owner); `auto` the same values with at most as many messages as `off`.
pub fn misaligned_follower_transfers_by_aggregation_mode(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    use atoll_array::{set_aggregation, Aggregation};
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let n = 60;
    let b = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| 1000 * i)?;
    let q = DistArray::<f64, 2, BlockCyclic<2>>::from_fn(ctx, dist::block_cyclic(ctx, [8, 6], [2, 3])?, v2)?;
    let lead_s = Domain::new([StridedRange::with_stride(0, 60, 2)?])?;
    let fol_s = Domain::new([StridedRange::with_stride(1, 60, 2)?])?;
    let mut all = Vec::new();
    for mode in [Aggregation::Off, Aggregation::Static, Aggregation::Auto] {
        set_aggregation(ctx, mode);
        let mut a = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i)?;
        let mut p = DistArray::<f64, 2>::zeros(ctx, dist::block(ctx, [8, 6])?)?;
        let whole = *a.domain();
        for case in 0..4 {
            let (total, counts) = measure(ctx, || {
                Ok(match case {
                    0 => {
                        a.zip_apply(b.view(), |x, y| *x += y)?;
                        0
                    }
                    1 => {
                        a.slice_mut(lead_s)?.assign_expr(b.slice(fol_s)? * 2i64)?;
                        0
                    }
                    2 => {
                        p.assign_expr(q.view())?;
                        0
                    }
                    _ => (a.view() + b.view()).sum()?,
                })
            })?;
            let (elems, transfers) = match case {
                0 | 3 => (
                    remote_elements(nl, a.dist(), &whole, b.dist(), &whole),
                    static_transfers(nl, a.dist(), &whole, b.dist(), &whole)?,
                ),
                1 => (
                    remote_elements(nl, a.dist(), &lead_s, b.dist(), &fol_s),
                    static_transfers(nl, a.dist(), &lead_s, b.dist(), &fol_s)?,
                ),
                _ => (
                    remote_elements(nl, p.dist(), p.domain(), q.dist(), q.domain()),
                    static_transfers(nl, p.dist(), p.domain(), q.dist(), q.domain())?,
                ),
            };
            let what = format!("misaligned follower {case}, aggregation {mode}");
            match mode {
                Aggregation::Off => only(&counts[me], &what, elems[me], 0, 0, 0)?,
                Aggregation::Static => only(&counts[me], &what, transfers[me].0, transfers[me].1, 0, 0)?,
                Aggregation::Auto => {
                    let c = &counts[me];
                    only(c, &what, c.gets, c.strided_gets, 0, 0)?;
                    check(c.gets + c.strided_gets <= elems[me], || {
                        format!("{what}: {c:?} is more than {} element gets", elems[me])
                    })?;
                }
            }
            if case == 3 {
                // a[i] = i + 1000 i, then the even ones 2000 (i + 1); the sum adds b once more.
                let want_sum: i64 =
                    (0..n as i64).map(|i| if i % 2 == 0 { 2000 * (i + 1) } else { 1001 * i } + 1000 * i).sum();
                check(total == want_sum, || format!("misaligned sum {total}, want {want_sum} ({mode})"))?;
            }
            // `auto` depends on a measured threshold: its counts are checked, not reported.
            if mode != Aggregation::Auto {
                all.extend(counts);
            }
        }
        if let Some(g) = p.gather(0)? {
            check(g == (0..48).map(|k| v2([k / 6, k % 6])).collect::<Vec<f64>>(), || {
                format!("BlockCyclic follower values ({mode})")
            })?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(all)
}

fn puts_gets(c: &CommCounts, what: &str, want: [u64; 4]) -> Result<()> {
    let got = [c.gets, c.strided_gets, c.puts, c.strided_puts];
    check(got == want && c.atomics == 0 && c.ams == 0, || {
        format!("{what}: counts {c:?}, want [gets, strided gets, puts, strided puts] = {want:?}")
    })
}

/// A written follower (`zip_apply_with_mut`: Cyclic `c[i+1]` written from a loop led by
/// `a[i]`) and the owning expression (`a[1..] = f(b[..n-1])`, led by `b`'s view, `a` written
/// remotely), in `off` (one get and one put per remote element) and `static` (one transfer
/// per chunk and remote owner each way) modes, values checked against sequential references.
pub fn written_follower_and_owning_expression(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    use atoll_array::{set_aggregation, Aggregation};
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let n = 50usize;
    let ni = n as i64;
    let b = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| 3 * i + 1)?;
    let (lo, hi) = (Domain::new([StridedRange::new(0, ni - 1)])?, Domain::new([StridedRange::new(1, ni)])?);
    let mut all = Vec::new();
    for mode in [Aggregation::Off, Aggregation::Static] {
        set_aggregation(ctx, mode);
        let mut a = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i + 1)?;
        let mut c = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
        // c[i + 1] = a[i] + b[i], a[i] = 2 b[i], for i < n - 1.
        let ((), counts) = measure(ctx, || {
            a.slice_mut(lo)?.zip_apply_with_mut(&mut c.slice_mut(hi)?, b.slice(lo)?, |x, y, v| {
                *y = *x + v;
                *x = 2 * v;
            })
        })?;
        let elems = remote_elements(nl, a.dist(), &lo, c.dist(), &hi)[me];
        let t = static_transfers(nl, a.dist(), &lo, c.dist(), &hi)?[me];
        let what = format!("written follower ({mode})");
        match mode {
            Aggregation::Off => puts_gets(&counts[me], &what, [elems, 0, elems, 0])?,
            _ => puts_gets(&counts[me], &what, [t.0, t.1, t.0, t.1])?,
        }
        all.extend(counts);
        let (ga, gc) = (a.gather(0)?, c.gather(0)?);
        if let (Some(ga), Some(gc)) = (ga, gc) {
            let want_a: Vec<i64> = (0..ni).map(|i| if i < ni - 1 { 2 * (3 * i + 1) } else { i + 1 }).collect();
            let want_c: Vec<i64> = (0..ni).map(|i| if i == 0 { 0 } else { i + 3 * (i - 1) + 1 }).collect();
            check(ga == want_a && gc == want_c, || format!("{what}: a {ga:?} c {gc:?}"))?;
        }
        // a[1..] = 2 b[..n-1] + b[..n-1]: b's view leads (two aligned operands against one).
        let mut a = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
        let ((), counts) = measure(ctx, || a.slice_mut(hi)?.assign_expr_owning(b.slice(lo)? * 2i64 + b.slice(lo)?))?;
        let elems = remote_elements(nl, b.dist(), &lo, a.dist(), &hi)[me];
        let t = static_transfers(nl, b.dist(), &lo, a.dist(), &hi)?[me];
        let what = format!("owning expression ({mode})");
        match mode {
            Aggregation::Off => puts_gets(&counts[me], &what, [0, 0, elems, 0])?,
            _ => puts_gets(&counts[me], &what, [0, 0, t.0, t.1])?,
        }
        all.extend(counts);
        if let Some(ga) = a.gather(0)? {
            let want: Vec<i64> = (0..ni).map(|i| if i == 0 { 0 } else { 3 * (3 * (i - 1) + 1) }).collect();
            check(ga == want, || format!("{what}: a {ga:?}"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(all)
}

/// Per locale, the transfers `static` makes for a 2-D Block `leader[l_dom]` zipped with a Block
/// `follower[f_dom]`, by brute force: each locale's elements are one tile (a box of rows of at
/// most `SEG`), cut into groups of `GROUP / row length` consecutive rows; per group and remote
/// owner, one get for one element, else one strided get (a Block owner's part of a box is one
/// box in its buffer).
fn block_group_transfers(
    n: usize,
    leader: &Block<2>,
    l_dom: &Domain<2>,
    follower: &Block<2>,
    f_dom: &Domain<2>,
) -> Result<Vec<(u64, u64)>> {
    use std::collections::BTreeMap;
    let last = l_dom.shape()[1];
    // Per leader locale: its first row of l_dom (a Block tile's rows are consecutive rows of
    // l_dom) and the length of its rows.
    let mut first_row = vec![usize::MAX; n];
    let mut row_len = vec![0usize; n];
    for (k, i) in l_dom.iter().enumerate() {
        let l = leader.owner(i);
        first_row[l] = first_row[l].min(k / last);
        if first_row[l] == k / last {
            row_len[l] += 1;
        }
    }
    check(row_len.iter().all(|&r| r <= atoll_array::SEG), || "scenario assumption: rows of at most SEG".into())?;
    let mut chunks: BTreeMap<(usize, usize, usize), u64> = BTreeMap::new();
    for (k, (i, j)) in l_dom.iter().zip(f_dom.iter()).enumerate() {
        let (l, f) = (leader.owner(i), follower.owner(j));
        if l != f {
            let group_rows = (atoll_array::GROUP / row_len[l]).max(1);
            let group = (k / last - first_row[l]) / group_rows;
            *chunks.entry((l, group, f)).or_default() += 1;
        }
    }
    let mut per = vec![(0u64, 0u64); n];
    for ((l, _, _), elems) in chunks {
        if elems == 1 {
            per[l].0 += 1;
        } else {
            per[l].1 += 1;
        }
    }
    Ok(per)
}

/// Halo exchange of a 2-D Block stencil: a 5-point average `a = (b + b_n + b_s + b_w + b_e) / 5`
/// over the interior, a column shift alone, and a written follower shifted by one column
/// (`c[i, j + 1] = a[i, j] + 1`), on a column grid (`1 x n`: column halos only) and on the
/// automatic grid. In `static` mode each group of rows of a leader tile fetches (and writes
/// back) its halo from each neighbour with **one strided get (put)**, where `off` makes one
/// get per row: checked against [`block_group_transfers`]; the values against a sequential
/// stencil. The 300 x 300 arrays make tiles of more than one group.
pub fn block_halos_are_one_strided_get_per_group(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    use atoll_array::{set_aggregation, Aggregation, LocaleGrid};
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let (n, m) = (300usize, 300usize);
    let whole = Domain::from_shape([n, m])?;
    let interior = |di: i64, dj: i64| {
        Domain::new([StridedRange::new(1 + di, n as i64 - 1 + di), StridedRange::new(1 + dj, m as i64 - 1 + dj)])
    };
    let ld = interior(0, 0)?;
    let shifts = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)];
    let mut all = Vec::new();
    for grid in [LocaleGrid::new(0..nl, [1, nl])?, LocaleGrid::auto(0..nl)?] {
        let bd = Block::new(whole, grid);
        let b = DistArray::<f64, 2>::from_fn(ctx, bd.clone(), v2)?;
        for mode in [Aggregation::Off, Aggregation::Static] {
            set_aggregation(ctx, mode);
            let mut a = DistArray::<f64, 2>::zeros(ctx, bd.clone())?;
            let mut c = DistArray::<f64, 2>::zeros(ctx, bd.clone())?;
            let [bn, bs, bw, be] = shifts.map(|(di, dj)| interior(di, dj));
            let ((), five) = measure(ctx, || {
                let v = |d: Result<Domain<2>>| d.and_then(|d| b.slice(d));
                a.slice_mut(ld)?.assign_expr((b.slice(ld)? + v(bn)? + v(bs)? + v(bw)? + v(be)?) * 0.2)
            })?;
            let east = interior(0, 1)?;
            let mut e = DistArray::<f64, 2>::zeros(ctx, bd.clone())?;
            let ((), col) = measure(ctx, || e.slice_mut(ld)?.assign_expr(b.slice(east)?))?;
            let ((), written) = measure(ctx, || {
                a.slice_mut(ld)?.zip_apply_with_mut(&mut c.slice_mut(east)?, 1.0f64, |x, y, one| *y = *x + one)
            })?;
            // References: per-locale transfers, then the values.
            let what = |case: &str| format!("Block halo {case}, grid {:?}, {mode}", bd.grid().shape());
            let mut want = (0u64, 0u64);
            let mut elems = 0u64;
            for (di, dj) in shifts {
                let fd = interior(di, dj)?;
                let t = block_group_transfers(nl, &bd, &ld, &bd, &fd)?[me];
                (want.0, want.1) = (want.0 + t.0, want.1 + t.1);
                elems += remote_elements(nl, &bd, &ld, &bd, &fd)[me];
            }
            let t_col = block_group_transfers(nl, &bd, &ld, &bd, &east)?[me];
            let e_col = remote_elements(nl, &bd, &ld, &bd, &east)[me];
            match mode {
                Aggregation::Off => {
                    only(&five[me], &what("5-point"), elems, 0, 0, 0)?;
                    only(&col[me], &what("east column"), e_col, 0, 0, 0)?;
                    puts_gets(&written[me], &what("written east column"), [e_col, 0, e_col, 0])?;
                }
                _ => {
                    // Not one message per row: a tile of 298 rows of at most 149 elements is at
                    // most two groups.
                    let msgs = col[me].gets + col[me].strided_gets;
                    check(msgs <= 2, || format!("{}: {msgs} messages for one column halo", what("east column")))?;
                    only(&five[me], &what("5-point"), want.0, want.1, 0, 0)?;
                    only(&col[me], &what("east column"), t_col.0, t_col.1, 0, 0)?;
                    puts_gets(&written[me], &what("written east column"), [t_col.0, t_col.1, t_col.0, t_col.1])?;
                }
            }
            all.extend(five);
            all.extend(col);
            all.extend(written);
            let (ga, gc, ge) = (a.gather(0)?, c.gather(0)?, e.gather(0)?);
            if let (Some(ga), Some(gc), Some(ge)) = (ga, gc, ge) {
                let at = |i: usize, j: usize| v2([i as i64, j as i64]);
                for i in 1..n - 1 {
                    for j in 1..m - 1 {
                        let avg = (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1)) * 0.2;
                        check(ga[i * m + j] == avg, || {
                            format!("{}: a[{i}, {j}] = {}, want {avg}", what("5-point"), ga[i * m + j])
                        })?;
                        check(ge[i * m + j] == at(i, j + 1), || format!("{}: e[{i}, {j}]", what("east column")))?;
                        check(gc[i * m + j + 1] == avg + 1.0, || {
                            format!("{}: c[{i}, {}]", what("written east column"), j + 1)
                        })?;
                    }
                }
                check(
                    gc.iter().enumerate().all(|(k, &x)| (k % m != 0 && k / m > 0 && k / m < n - 1) || x == 0.0),
                    || format!("{}: c outside the shifted interior", what("written east column")),
                )?;
            }
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    Ok(all)
}

/// `from_vec`: each locale pulls its Block part from the root with one strided get.
/// Single-element `get`/`set`: one get or put per remote element.
pub fn from_vec_and_single_elements(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let data: Vec<u32> = (0..77).map(|i| i * i).collect();
    let root = nl - 1;
    let (a, counts) = measure(ctx, || {
        DistArray::<u32, 1>::from_vec(ctx, dist::block(ctx, [77])?, root, (me == root).then(|| data.clone()))
    })?;
    let mine = a.local().len();
    only(&counts[me], "from_vec", 0, u64::from(me != root && mine > 0), 0, 0)?;
    let mut all = counts;
    let mut c = DistArray::<u8, 2, Cyclic<2>>::zeros(ctx, dist::cyclic(ctx, [4, 5])?)?;
    let (_, counts) = measure(ctx, || {
        for k in 0..77i64 {
            check(a.get([k])? == (k * k) as u32, || format!("get {k}"))?;
        }
        for i in 0..4 {
            for j in 0..5 {
                if (i + j) as usize % nl == me {
                    c.set([i, j], (i * 5 + j) as u8)?;
                }
            }
        }
        Ok(())
    })?;
    let remote_a = a.domain().iter().filter(|&i| a.dist().owner(i) != me).count() as u64;
    let remote_c =
        c.domain().iter().filter(|&[i, j]| (i + j) as usize % nl == me && c.dist().owner([i, j]) != me).count() as u64;
    only(&counts[me], "get/set", remote_a, 0, remote_c, 0)?;
    check(c.gather(0)?.is_none_or(|g| g == (0..20).collect::<Vec<u8>>()), || "set values".into())?;
    all.extend(counts);
    Ok(all)
}

/// `cumsum` of a Cyclic view: the values move to a Block layout with one strided get per
/// (source, destination) pair; the scan itself is local plus one collective.
pub fn scan_moves_data_once(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let me = ctx.id();
    let a = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [50])?, |[i]| i % 4)?;
    let v = a.slice([5..45])?;
    let (s, counts) = measure(ctx, || v.cumsum())?;
    let pairs = remote_pairs(s.dist(), s.domain(), a.dist(), v.domain());
    only(&counts[me], "cumsum", 0, pairs.iter().filter(|(d, _)| *d == me).count() as u64, 0, 0)?;
    let want: Vec<i64> = (5..45)
        .scan(0, |acc, i| {
            *acc += i % 4;
            Some(*acc)
        })
        .collect();
    check(s.gather(0)?.is_none_or(|g| g == want), || "cumsum values".into())?;
    Ok(counts)
}

/// Whether every locale's memory is addressable from every locale: the local backend, or MPI
/// ranks all on one host (read from the locales' names, `locale-<l>@<host>`) with node-shared
/// memory on (`Config::mpi_shm`).
pub fn all_mapped(ctx: &Ctx) -> bool {
    let host = |l: usize| ctx.locales()[l].name.split_once('@').map(|(_, h)| h.to_string());
    ctx.locales_share_process() || (ctx.config().mpi_shm && (0..ctx.num_locales()).all(|l| host(l) == host(0)))
}

/// `cumsum` of a large Block array into a Block array in one pass across locales
/// (`scan/wavefront.rs`), where every locale's parts are addressable from every locale (see
/// [`all_mapped`]): chunks of 16,384 elements in global order, dealt round-robin to the
/// locales and read and written where they live; a chunk in another locale's part counts as
/// one get and one put. Elsewhere (ranks on several hosts) the two-pass form runs, which moves
/// no element (one exscan of the locales' totals): no transfer is counted.
pub fn wavefront_scan(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let one_pass = all_mapped(ctx);
    let n = (1usize << 20) * nl + 777;
    let a = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| (i % 7) - 3)?;
    let (s, counts) = measure(ctx, || a.view().cumsum())?;
    let c = &counts[me];
    let mut remote = 0u64;
    let mut g = 0usize;
    for part in 0..nl {
        for _ in 0..a.dist().local_len(part)?.div_ceil(16_384) {
            remote += u64::from(one_pass && g % nl == me && part != me);
            g += 1;
        }
    }
    check(c.gets == remote && c.puts == remote && c.strided_gets == 0 && c.ams == 0 && c.atomics == 0, || {
        format!("wavefront scan on locale {me}: {remote} remote chunks, counts {c:?}")
    })?;
    let want: Vec<i64> = (0..n)
        .scan(0i64, |acc, i| {
            *acc += (i % 7) as i64 - 3;
            Some(*acc)
        })
        .collect();
    check(s.gather(0)?.is_none_or(|g| g == want), || "wavefront cumsum values".into())?;
    Ok(counts)
}

/// `reduce_with` folds in index order: associative, non-commutative operators
/// (concatenation, last non-zero) over a Block array on a 2-D grid, a Cyclic array and a 3-D
/// BlockCyclic array, and strided views, against a sequential fold. Leaders that are not
/// index-ordered are read by a row-Block leader (strided gets, counted); a strided view of a
/// 1-D Block array is folded in place (no message).
pub fn ordered_reduce_with(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let me = ctx.id();
    let b = DistArray::<i64, 2, Block<2>>::from_fn(ctx, dist::block(ctx, [7, 9])?, |[i, j]| i * 9 + j - 20)?;
    let c = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [50])?, |[i]| (i * 7) % 11 - 5)?;
    let k = DistArray::<i64, 3, BlockCyclic<3>>::from_fn(
        ctx,
        dist::block_cyclic(ctx, [4, 5, 6], [2, 2, 3])?,
        |[i, j, l]| i * 30 + j * 6 + l,
    )?;
    let a = DistArray::<i64, 1, Block<1>>::from_fn(ctx, dist::block(ctx, [60])?, |[i]| i - 30)?;
    let push = |mut s: Vec<i64>, x: i64| {
        s.push(x);
        s
    };
    let cat = |mut s: Vec<i64>, t: Vec<i64>| {
        s.extend(t);
        s
    };
    let last = |x: i64, y: i64| if y != 0 { y } else { x };
    let bdom = Domain::new([StridedRange::with_stride(1, 7, 2)?, StridedRange::with_stride(0, 9, 3)?])?;
    let cdom = StridedRange::with_stride(3, 50, 4)?;
    let adom = StridedRange::with_stride(2, 60, 5)?;
    let (got, counts) = measure(ctx, || {
        Ok((
            b.slice(bdom)?.reduce_with(Vec::new(), push, cat)?,
            c.slice(cdom)?.reduce_with(Vec::new(), push, cat)?,
            k.view().reduce_with(Vec::new(), push, cat)?,
            c.view().reduce_with(0, last, last)?,
        ))
    })?;
    let want_b: Vec<i64> = bdom.iter().map(|[i, j]| i * 9 + j - 20).collect();
    let want_c: Vec<i64> = cdom.iter().map(|i| (i * 7) % 11 - 5).collect();
    let want_k: Vec<i64> = (0..120).collect();
    let want_last = (0..50).map(|i| (i * 7) % 11 - 5).fold(0, last);
    check(got.0 == want_b, || format!("Block 2-D strided view: {:?}", got.0))?;
    check(got.1 == want_c, || format!("Cyclic strided view: {:?}", got.1))?;
    check(got.2 == want_k, || format!("BlockCyclic 3-D: {:?}", got.2))?;
    check(got.3 == want_last, || format!("last non-zero {}, want {want_last}", got.3))?;
    let (x, here) = measure(ctx, || a.slice(adom)?.reduce_with(Vec::new(), push, cat))?;
    check(x == adom.iter().map(|i| i - 30).collect::<Vec<i64>>(), || format!("Block strided view: {x:?}"))?;
    only(&here[me], "reduce_with of an index-ordered leader", 0, 0, 0, 0)?;
    Ok(counts)
}

/// Reads every element of the view it receives, on the locale it runs on.
fn read_view(_ctx: &Ctx, v: SharedView<i64, 2, Cyclic<2>>) -> Result<i64> {
    let p = v.pin()?;
    let view = p.view();
    view.domain().iter().map(|i| view.get(i)).sum()
}

/// The handler of [`view_sent_with_on`].
pub static READ_VIEW: Handler<SharedView<i64, 2, Cyclic<2>>, i64> =
    Handler::new("atoll_array_scenarios::read_view", read_view);

/// Registers the scenarios' handlers (every process, before running them).
pub fn register_all() {
    READ_VIEW.register();
}

/// A view sent with `on` to the next locale, read there: one active message per sender, and
/// one get per element the target does not own, counted on the target.
pub fn view_sent_with_on(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let a = DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [6, 7])?, |[i, j]| i * 7 + j)?;
    let dom = Domain::new([StridedRange::with_stride(1, 6, 2)?, StridedRange::new(2, 7)])?;
    let v = a.slice(dom)?;
    let (sum, counts) = measure(ctx, || {
        let s = ctx.on((me + 1) % nl, &READ_VIEW, v.share())?;
        ctx.barrier()?; // every handler has run before the counters stop
        Ok(s)
    })?;
    let want: i64 = dom.iter().map(|[i, j]| i * 7 + j).sum();
    check(sum == want, || format!("sum {sum}, want {want}"))?;
    let not_mine = dom.iter().filter(|&i| a.dist().owner(i) != me).count() as u64;
    let c = &counts[me];
    let ams = u64::from(nl > 1);
    check(c.ams == ams && c.gets == if nl > 1 { not_mine } else { 0 } && c.strided_gets == 0 && c.puts == 0, || {
        format!("view sent with on: {c:?}, want {ams} active message and {not_mine} gets")
    })?;
    Ok(counts)
}

/// Every scenario, in order, with its name.
pub fn all(ctx: &Ctx) -> Result<Vec<(&'static str, Vec<CommCounts>)>> {
    type Scenario = fn(&Ctx) -> Result<Vec<CommCounts>>;
    let list: [(&'static str, Scenario); 13] = [
        ("aligned_expressions", aligned_expressions_make_no_messages),
        ("slices", creating_slices_makes_no_messages),
        ("shifted_assign", shifted_view_assign_is_one_strided_get_per_locale_pair),
        ("gather", gather_is_one_strided_get_per_remote_locale),
        ("misaligned_follower", misaligned_follower_transfers_by_aggregation_mode),
        ("written_follower_owning", written_follower_and_owning_expression),
        ("block_halos", block_halos_are_one_strided_get_per_group),
        ("from_vec_get_set", from_vec_and_single_elements),
        ("scan", scan_moves_data_once),
        ("wavefront_scan", wavefront_scan),
        ("view_sent_with_on", view_sent_with_on),
        ("ordered_reduce_with", ordered_reduce_with),
        ("aligned_and_misaligned", aligned_and_misaligned_in_sequence),
    ];
    list.iter().map(|&(name, f)| Ok((name, f(ctx)?))).collect()
}

/// The report the selftest prints and the MPI test compares: one line per scenario.
pub fn report(results: &[(&'static str, Vec<CommCounts>)]) -> String {
    results.iter().map(|(name, c)| format!("counts {name} {c:?}\n")).collect()
}

/// Aligned loops (which take no leading barrier) and misaligned ones (reading and writing other
/// locales' parts) in sequence, many rounds, compared with the same sequence on plain vectors:
/// a loop that skipped a barrier it needs would read a value before its owner wrote it, or
/// overwrite one another locale still reads.
pub fn aligned_and_misaligned_in_sequence(ctx: &Ctx) -> Result<Vec<CommCounts>> {
    use atoll_array::{ExprExt, Scalar};
    let n = 997usize;
    let ni = n as i64;
    let m = |x: i64| x.rem_euclid(1_000_003);
    let mut a = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i)?;
    let mut c = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    let mut b = DistArray::<i64, 1, Block<1>>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 2 * i)?;
    let (mut ra, mut rb, mut rc): (Vec<i64>, Vec<i64>, Vec<i64>) =
        ((0..ni).collect(), (0..ni).map(|i| 2 * i).collect(), vec![0; n]);
    let ((), counts) = measure(ctx, || {
        for r in 0..40i64 {
            // Aligned, local: a = 3a + r.
            a.zip_apply(Scalar(r), |x, s| *x = m(*x * 3 + s))?;
            ra.iter_mut().for_each(|x| *x = m(*x * 3 + r));
            // Misaligned read of a (Cyclic into Block): sees every locale's write above.
            b.view_mut().assign(&a.view())?;
            rb.clone_from(&ra);
            // Aligned, local: overwrite a right after others read it.
            a.zip_apply(&c, |x, y| *x = m(*x + y + 1))?;
            ra.iter_mut().zip(&rc).for_each(|(x, y)| *x = m(*x + y + 1));
            // Aligned, local: c = a (bulk assignment of the same distribution).
            c.view_mut().assign(&a.view())?;
            rc.clone_from(&ra);
            // Misaligned write: a[1..] = b[..n-1] + c[1..] (led by a's view; b is fetched).
            a.slice_mut(1..ni)?.assign_expr(b.slice(0..ni - 1)? + c.slice(1..ni)?)?;
            for i in (1..n).rev() {
                ra[i] = rb[i - 1] + rc[i];
            }
            ra.iter_mut().for_each(|x| *x = m(*x));
            a.zip_apply(Scalar(0i64), |x, _| *x = m(*x))?;
            // Aligned reduction right after the misaligned write.
            let s = a.view().sum()?;
            check(s == ra.iter().sum::<i64>(), || format!("round {r}: sum {s}"))?;
            // Misaligned reduction: a shifted against c.
            let d = (a.slice(0..ni - 1)? - c.slice(1..ni)?).map(|x: i64| x.abs()).sum()?;
            let want: i64 = (0..n - 1).map(|i| (ra[i] - rc[i + 1]).abs()).sum();
            check(d == want, || format!("round {r}: shifted difference {d}, want {want}"))?;
        }
        Ok(())
    })?;
    for (name, got, want) in [("a", a.gather(0)?, &ra), ("b", b.gather(0)?, &rb), ("c", c.gather(0)?, &rc)] {
        if let Some(g) = got {
            check(&g == want, || format!("{name} differs from the sequential reference"))?;
        }
    }
    Ok(counts)
}
