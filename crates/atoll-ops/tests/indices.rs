//! Positions and indices: `argsort` and `coargsort` return indices of the
//! input's index space, so `a.take(&argsort(&a.view())?)` is `a` sorted on offset and strided
//! domains and on views; `argsort_positions` and `coargsort_positions` return positions
//! `0..len`. Checked on every distribution, 1-4 locales, against a sequential stable sort.

use atoll_array::{Block, BlockCyclic, Cyclic, DistArray, Distribution, Domain, LocaleGrid, StridedRange};
use atoll_ops::{argsort, argsort_positions, coargsort, coargsort_positions, SortColumn};
use atoll_runtime::{run, Config, Ctx, Error, Result};

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

/// A key for index `i` (with repeats, so stability matters).
fn key(i: i64) -> i64 {
    (i * 7919).rem_euclid(23) - 11
}

/// The stable sorting permutation of `keys`, as positions.
fn positions(keys: &[i64]) -> Vec<i64> {
    let mut p: Vec<usize> = (0..keys.len()).collect();
    p.sort_by_key(|&i| (keys[i], i));
    p.into_iter().map(|i| i as i64).collect()
}

/// The idiom and both spaces for one array `a` and one view `v` of it.
fn check_array<M: Distribution<1> + 'static>(ctx: &Ctx, dist: M, what: &str) -> Result<()> {
    let a = DistArray::from_fn(ctx, dist, |[i]| key(i))?;
    let dom = a.domain().dims()[0];
    // A strided view of the array: every second index from its third.
    let sub =
        StridedRange::from_parts(dom.nth(2).unwrap_or(0), dom.stride() * 2, dom.len().saturating_sub(2).div_ceil(2))?;
    for (label, view) in [("whole", a.view()), ("strided view", a.slice(sub)?)] {
        let idx: Vec<i64> = view.domain().iter().map(|[i]| i).collect();
        let keys: Vec<i64> = idx.iter().map(|&i| key(i)).collect();
        let pos = positions(&keys);
        let what = format!("{what}, {label} over {}, {} locales", view.domain(), ctx.num_locales());
        let perm = argsort(&view)?;
        let want: Vec<i64> = pos.iter().map(|&p| idx[p as usize]).collect();
        check(perm.to_vec()? == want, || format!("argsort indices: {what}"))?;
        // The idiom: the sorted keys, read through the array's own indices.
        let sorted = a.take(&perm)?.to_vec()?;
        let mut want_sorted = keys.clone();
        want_sorted.sort();
        check(sorted == want_sorted, || format!("a.take(&argsort(..)): {what}: {sorted:?}"))?;
        check(argsort_positions(&view)?.to_vec()? == pos, || format!("argsort_positions: {what}"))?;
        // sort: ranks 0..len, as take of the permutation.
        check(atoll_ops::sort(&view)?.to_vec()? == want_sorted, || format!("sort: {what}"))?;
        // coargsort: indices of the first column (the view), positions beside.
        let cperm = coargsort(&[&view as &dyn SortColumn])?;
        check(cperm.to_vec()? == want, || format!("coargsort indices: {what}"))?;
        check(coargsort_positions(&[&view as &dyn SortColumn])?.to_vec()? == pos, || {
            format!("coargsort_positions: {what}")
        })?;
    }
    Ok(())
}

#[test]
fn take_of_argsort_sorts_offset_and_strided_domains() {
    for n in 1..=4 {
        run(Config::local(n), |ctx| {
            let grid = LocaleGrid::auto(0..n)?;
            let domains = [
                Domain::new([StridedRange::new(-3, 7)])?,               // offset: -3..7
                Domain::new([StridedRange::with_stride(-40, 61, 3)?])?, // strided, offset
                Domain::new([StridedRange::with_stride(5, 90, 2)?])?,   // positions in range
                Domain::from_shape([33])?,
            ];
            for dom in domains {
                check_array(ctx, Block::new(dom, grid.clone()), "Block")?;
                check_array(ctx, Cyclic::new(dom, grid.clone()), "Cyclic")?;
                check_array(ctx, BlockCyclic::new(dom, grid.clone(), [4])?, "BlockCyclic")?;
            }
            Ok(())
        })
        .unwrap();
    }
}
