//! Checks of arrays whose pieces target sublocales ([`Targets::Sublocales`]), run identically
//! on every backend: by `tests/sublocales.rs` on the local backend (1, 2, 4 locales, each
//! sublocale mode) and by the program of `tests/mpi_launch_sublocales.rs` under `mpiexec`.
//! Every result is compared with a sequential reference and with the same operation on an
//! ordinary Block array; every loop records which sublocale's thread ran each element and
//! compares it with the owner formula.
#![allow(dead_code)]
#![allow(clippy::single_range_in_vec_init)]

use atoll_array::{dist, Block, DistArray, Distribution, Domain, ExprReduce, Scalar, StridedRange, Targets};
use atoll_runtime::{current_sublocale, Ctx, Error, Result};

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what())))
    }
}

/// The code of a (locale, sublocale) pair, -1 for a thread of no sublocale.
fn code(who: Option<(usize, usize)>) -> i64 {
    who.map_or(-1, |(l, s)| (l * 1000 + s) as i64)
}

/// A value for index `idx` (exact in f64 and i64).
fn val<const D: usize>(idx: [i64; D]) -> i64 {
    idx.iter().fold(0i64, |a, &x| a * 131 + x) % 1009 - 500
}

/// The (locale, sublocale) of every index of `block`'s domain, in row-major order, from the
/// definition: each locale's block rows handed to its `counts[l]` sublocales at the boundaries
/// `ceil(s * m / S)`, found by scanning (not by `SublocaleBlock`'s code).
fn reference_owners<const D: usize>(block: &Block<D>, counts: &[usize]) -> Result<Vec<(usize, usize)>> {
    let dom = *block.domain();
    let mut out = vec![(usize::MAX, usize::MAX); dom.size()];
    for &l in block.grid().targets() {
        let mine = block.local_domain(l)?;
        let m = mine.shape()[0];
        let row_len: usize = mine.shape()[1..].iter().product::<usize>().max(1);
        for (k, idx) in mine.iter().enumerate() {
            let q = k / row_len;
            let s = (0..counts[l]).find(|&s| q < ((s + 1) * m).div_ceil(counts[l])).unwrap_or(usize::MAX);
            out[dom.position(idx)?] = (l, s);
        }
    }
    Ok(out)
}

/// All checks for one domain shape; returns the number of elements checked here.
fn check_shape<const D: usize>(ctx: &Ctx, shape: [usize; D]) -> Result<usize> {
    let me = ctx.id();
    let what = format!("shape {shape:?}, locale {me}");
    let counts = ctx.sublocale_counts()?;
    let dom = Domain::from_shape(shape)?;
    let n = dom.size();

    // Made by their sublocales: every element computed on its owner sublocale's thread.
    let who = DistArray::<i64, D>::from_fn_on(ctx, dist::block(ctx, shape)?, Targets::Sublocales, |_| {
        code(current_sublocale())
    })?;
    let a = DistArray::<i64, D>::from_fn_on(ctx, dist::block(ctx, shape)?, Targets::Sublocales, val)?;
    let b = DistArray::<i64, D>::from_fn(ctx, dist::block(ctx, shape)?, |i| 3 * val(i) + 1)?;
    check(a.targets() == Targets::Sublocales && b.targets() == Targets::Locales, || format!("{what}: targets"))?;

    // The owner formula against the sequential reference, on every index.
    let want = reference_owners(a.dist(), &counts)?;
    for (pos, idx) in dom.iter().enumerate() {
        let got = a.owner_sublocale(idx)?;
        check(got == want[pos], || format!("{what}: owner_sublocale({idx:?}) = {got:?}, want {:?}", want[pos]))?;
    }
    // This locale's pieces partition its part, and match the sublocale domains.
    if a.dist().grid().contains(me) {
        let ranges = a.sublocale_ranges(me)?;
        check(ranges.len() == counts[me], || format!("{what}: {} ranges for {} sublocales", ranges.len(), counts[me]))?;
        let mut next = 0;
        for (s, r) in ranges.iter().enumerate() {
            check(r.start == next, || format!("{what}: ranges {ranges:?} not contiguous"))?;
            next = r.end;
            for idx in a.sublocale_domain(me, s)?.iter() {
                let off = a.dist().local_index(idx);
                check(r.contains(&off) && want[dom.position(idx)?] == (me, s), || {
                    format!("{what}: {idx:?} at {off} not in sublocale {s}'s {r:?}")
                })?;
            }
        }
        check(next == a.local().len(), || format!("{what}: ranges {ranges:?} cover {next} of {}", a.local().len()))?;
    }

    // Who made each element: its owner sublocale (gathered, checked on locale 0).
    if let Some(w) = who.gather(0)? {
        for (pos, (&got, &(l, s))) in w.iter().zip(&want).enumerate() {
            check(got == code(Some((l, s))), || {
                format!("{what}: element {pos} (owner {l}.{s}) was computed by {got}")
            })?;
        }
    }

    // zip_apply over the whole array and over strided views: each element on its owner's thread.
    let mut seen = DistArray::<i64, D>::zeros_on(ctx, dist::block(ctx, shape)?, Targets::Sublocales)?;
    seen.view_mut().zip_apply_indexed(Scalar(()), |_, x, ()| *x = code(current_sublocale()))?;
    let mismatches =
        (seen.view(), who.view()).reduce_commutative(0u64, |acc, (x, w)| acc + u64::from(x != w), |p, q| p + q)?;
    check(mismatches == 0, || {
        format!("{what}: {mismatches} elements processed by another sublocale than their owner")
    })?;
    let sub = Domain::new(std::array::from_fn(|d| {
        let len = shape[d] as i64;
        if d == 0 {
            StridedRange::with_stride(1.min(len), len, 3).unwrap_or(StridedRange::empty())
        } else {
            StridedRange::new(len / 3, len)
        }
    }))?;
    seen.slice_mut(sub)?.zip_apply_indexed(Scalar(()), |_, x, ()| *x = -2 - code(current_sublocale()))?;
    // Reductions run on the owners' threads too: count elements whose fold ran elsewhere.
    let elsewhere =
        who.view().reduce_commutative(0u64, |acc, w| acc + u64::from(w != code(current_sublocale())), |p, q| p + q)?;
    check(elsewhere == 0, || format!("{what}: {elsewhere} elements folded by another sublocale than their owner"))?;
    if let Some(s) = seen.gather(0)? {
        for (pos, idx) in dom.iter().enumerate() {
            let owner = code(Some(want[pos]));
            let expect = if sub.contains(idx) { -2 - owner } else { owner };
            check(s[pos] == expect, || format!("{what}: strided view element {idx:?} = {}, want {expect}", s[pos]))?;
        }
    }

    // Results equal to the ordinary Block array's and to the sequential reference.
    let ref_a: Vec<i64> = dom.iter().map(val).collect();
    let ref_b: Vec<i64> = dom.iter().map(|i| 3 * val(i) + 1).collect();
    let mut c_sub = DistArray::<i64, D>::zeros_on(ctx, dist::block(ctx, shape)?, Targets::Sublocales)?;
    let mut c_blk = DistArray::<i64, D>::zeros(ctx, dist::block(ctx, shape)?)?;
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    c_sub.assign_expr(&a + 2 * &b)?;
    c_blk.assign_expr(&a + 2 * &b)?;
    ctx.stop_comm_diagnostics()?;
    check(ctx.comm_counts().total_ops() == 0, || {
        format!("{what}: aligned expressions over sublocale and Block arrays made messages: {:?}", ctx.comm_counts())
    })?;
    let ref_c: Vec<i64> = ref_a.iter().zip(&ref_b).map(|(x, y)| x + 2 * y).collect();
    let (gs, gb) = (c_sub.gather(0)?, c_blk.gather(0)?);
    if let (Some(gs), Some(gb)) = (gs, gb) {
        check(gs == ref_c && gb == ref_c, || format!("{what}: c = a + 2b differs from the reference"))?;
    }
    let (sum_s, sum_b) = (c_sub.view().sum()?, c_blk.view().sum()?);
    let want_sum: i64 = ref_c.iter().sum();
    check(sum_s == want_sum && sum_b == want_sum, || format!("{what}: sums {sum_s} {sum_b}, want {want_sum}"))?;
    if n > 0 {
        let (min_s, max_s) = (c_sub.view().min()?, c_sub.view().max()?);
        let (wmin, wmax) = (*ref_c.iter().min().unwrap_or(&0), *ref_c.iter().max().unwrap_or(&0));
        check(min_s == wmin && max_s == wmax, || format!("{what}: min/max {min_s}/{max_s}, want {wmin}/{wmax}"))?;
        // An index-ordered, non-commutative reduction: the last odd value.
        let last = |p: i64, q: i64| if q % 2 != 0 { q } else { p };
        let got = c_sub.view().reduce_with(0, last, last)?;
        let exp = ref_c.iter().copied().fold(0, last);
        check(got == exp, || format!("{what}: last odd value {got}, want {exp}"))?;
    }

    // Bulk assignment: aligned (a copy by the owners) and shifted (gets from other locales).
    let mut d_sub = DistArray::<i64, D>::zeros_on(ctx, dist::block(ctx, shape)?, Targets::Sublocales)?;
    d_sub.view_mut().assign(&b.view())?;
    if shape[0] > 1 {
        let lo = Domain::new(std::array::from_fn(|d| {
            if d == 0 {
                StridedRange::new(0, shape[0] as i64 - 1)
            } else {
                dom.dims()[d]
            }
        }))?;
        let hi = Domain::new(std::array::from_fn(|d| {
            if d == 0 {
                StridedRange::new(1, shape[0] as i64)
            } else {
                dom.dims()[d]
            }
        }))?;
        d_sub.slice_mut(hi)?.assign(&a.slice(lo)?)?;
    }
    if let Some(g) = d_sub.gather(0)? {
        let row: usize = shape[1..].iter().product();
        for (pos, idx) in dom.iter().enumerate() {
            let e = if shape[0] > 1 && idx[0] >= 1 { ref_a[pos - row] } else { ref_b[pos] };
            check(g[pos] == e, || format!("{what}: shifted assign at {idx:?} = {}, want {e}", g[pos]))?;
        }
    }

    // One-sided get and set of other locales' elements.
    if n > 0 {
        let last = dom.index(n - 1)?;
        check(a.get(last)? == val(last), || format!("{what}: get({last:?})"))?;
        ctx.barrier()?;
        if me == ctx.num_locales() - 1 {
            d_sub.set(dom.index(0)?, 77)?;
        }
        ctx.barrier()?;
        check(d_sub.get(dom.index(0)?)? == 77, || format!("{what}: set then get"))?;
        ctx.barrier()?;
    }

    // Errors: the queries of an ordinary array, and an index outside the domain.
    check(matches!(b.owner_sublocale([0; D]), Err(Error::InvalidArgument(_))), || {
        format!("{what}: owner_sublocale of a Block array")
    })?;
    check(matches!(a.owner_sublocale([shape[0] as i64; D]), Err(Error::IndexOutOfBounds { .. })), || {
        format!("{what}: owner_sublocale out of bounds")
    })?;
    check(a.sublocale_domain(me, counts[me]).is_err(), || format!("{what}: sublocale_domain past the last sublocale"))?;

    for arr in [who, a, b, seen, c_sub, c_blk, d_sub] {
        arr.free()?;
    }
    Ok(n)
}

/// Every check, on 1-D arrays (empty, shorter than the sublocale count, several segments) and
/// 2-D ones; returns a one-line report.
pub fn all(ctx: &Ctx) -> Result<String> {
    let mut total = 0;
    for n in [0usize, 1, 3, 1000, 3 * 8192 + 17] {
        total += check_shape(ctx, [n])?;
    }
    for shape in [[1usize, 5], [37, 300], [5, 20000]] {
        total += check_shape(ctx, shape)?;
    }
    total += check_shape(ctx, [6, 5, 4])?;
    let subs = ctx.sublocale_counts()?;
    Ok(format!("sublocale checks: {total} elements, sublocales per locale {subs:?}"))
}
