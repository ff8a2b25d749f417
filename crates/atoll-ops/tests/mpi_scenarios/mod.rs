//! Deterministic sort scenarios run identically on every backend: by the program of
//! `tests/mpi_launch.rs` under `mpiexec` and, in the same test, on the local backend
//! with as many locales. Each scenario checks its result against a sequential stable sort of
//! the same keys (computed on every locale) and reports every locale's message counts, which
//! must be the same on both backends.
//!
//! Only the crate's normal dependencies are used here (the selftest binary cannot use
//! dev-dependencies).
#![allow(dead_code)]

use atoll_array::{dist, DistArray};
use atoll_ops::{coargsort, SortColumn, SortKey};
use atoll_runtime::{CommCounts, Ctx, Error, Result};
use atoll_util::mix;

fn reference<K: SortKey>(keys: &[K]) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by(|&a, &b| keys[a].to_ordered().cmp(&keys[b].to_ordered()).then(a.cmp(&b)));
    idx.into_iter().map(|i| i as i64).collect()
}

fn check(cond: bool, what: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {what}")))
    }
}

/// Every locale's counts of `f`'s communication.
fn measure<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, Vec<CommCounts>)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    let r = r?;
    Ok((r, ctx.comm_diagnostics()?))
}

/// Checks `perm` (gathered on locale 0) against `want()` (computed there only).
fn check_perm(perm: &DistArray<i64, 1>, want: impl FnOnce() -> Vec<i64>, what: &str) -> Result<()> {
    if let Some(p) = perm.gather(0)? {
        check(p == want(), what)?;
    }
    Ok(())
}

/// Every scenario: (name, every locale's counts).
pub fn all(ctx: &Ctx) -> Result<Vec<(String, Vec<CommCounts>)>> {
    let mut out = Vec::new();
    // Packed records, 8-bit digits, Block input.
    let n = 5000;
    let k1: Vec<i64> = (0..n as u64).map(|i| (mix(i) % 1000) as i64 - 500).collect();
    let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| k1[i as usize])?;
    let (p, c) = measure(ctx, || atoll_ops::argsort(&a.view()))?;
    check_perm(&p, || reference(&k1), "argsort of i64 on a Block array")?;
    out.push(("argsort_block_i64".to_string(), c));
    // Full-range u64 (two-word records), Cyclic input.
    let k2: Vec<u64> = (0..n as u64).map(mix).collect();
    let b = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| k2[i as usize])?;
    let (p, c) = measure(ctx, || atoll_ops::argsort(&b.view()))?;
    check_perm(&p, || reference(&k2), "argsort of u64 on a Cyclic array")?;
    out.push(("argsort_cyclic_u64".to_string(), c));
    // Floats with NaN and signed zeros, sort, BlockCyclic input.
    let k3: Vec<f64> = (0..n as u64)
        .map(|i| match i % 7 {
            0 => f64::NAN,
            1 => -0.0,
            2 => 0.0,
            _ => (mix(i) % 100) as f64 - 50.5,
        })
        .collect();
    let f = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [64])?, |[i]| k3[i as usize])?;
    let (s, c) = measure(ctx, || atoll_ops::sort(&f.view()))?;
    if let Some(v) = s.gather(0)? {
        let want: Vec<u64> = reference(&k3).iter().map(|&i| k3[i as usize].to_ordered()).collect();
        check(v.iter().map(|x| x.to_ordered()).collect::<Vec<_>>() == want, "sort of f64 on a BlockCyclic array")?;
    }
    out.push(("sort_block_cyclic_f64".to_string(), c));
    // Two keys of different types and distributions.
    let (p, c) = measure(ctx, || coargsort(&[&f as &dyn SortColumn, &a]))?;
    let want = || {
        let rows: Vec<(u64, u64)> = (0..n).map(|i| (k3[i].to_ordered(), k1[i].to_ordered())).collect();
        let mut want: Vec<usize> = (0..n).collect();
        want.sort_by(|&x, &y| rows[x].cmp(&rows[y]).then(x.cmp(&y)));
        want.iter().map(|&i| i as i64).collect()
    };
    check_perm(&p, want, "coargsort of (f64, i64)")?;
    out.push(("coargsort_f64_i64".to_string(), c));
    // 16-bit digits (2^17 keys per locale and more), packed records.
    let big = (1usize << 17) * ctx.num_locales() + 3;
    let k4: Vec<i64> = (0..big as u64).map(|i| (mix(i) >> 30) as i64).collect();
    let g = DistArray::from_fn(ctx, dist::block(ctx, [big])?, |[i]| k4[i as usize])?;
    let (p, c) = measure(ctx, || atoll_ops::argsort(&g.view()))?;
    check_perm(&p, || reference(&k4), "argsort with 16-bit digits")?;
    out.push(("argsort_16bit_digits".to_string(), c));
    // Indices, not positions: a Cyclic array over the strided, offset domain
    // -40, -37, ..., 59 and a strided view of it; `a.take(&argsort(..))` sorts them.
    let dom = atoll_array::Domain::new([atoll_array::StridedRange::with_stride(-40, 60, 3)?])?;
    let grid = atoll_array::LocaleGrid::auto(0..ctx.num_locales())?;
    let h = DistArray::from_fn(ctx, atoll_array::Cyclic::new(dom, grid), |[i]| (mix(i as u64) % 9) as i64)?;
    let view = h.slice(atoll_array::StridedRange::with_stride(-34, 60, 6)?)?;
    // Counted: the sorts (take's aggregators depend on the task count, not counted here).
    let ((p_all, p_view, q_view), c) = measure(ctx, || {
        Ok((atoll_ops::argsort(&h.view())?, atoll_ops::argsort(&view)?, atoll_ops::argsort_positions(&view)?))
    })?;
    let all = (p_all.to_vec()?, h.take(&p_all)?.to_vec()?);
    let part = (p_view.to_vec()?, q_view.to_vec()?, h.take(&p_view)?.to_vec()?);
    for (v, label) in [(h.view(), "the whole array"), (view, "a strided view")] {
        let idx: Vec<i64> = v.domain().iter().map(|[i]| i).collect();
        let keys: Vec<i64> = idx.iter().map(|&i| (mix(i as u64) % 9) as i64).collect();
        let pos = reference(&keys);
        let want_idx: Vec<i64> = pos.iter().map(|&p| idx[p as usize]).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        let (got_idx, got_sorted) = if label == "a strided view" { (&part.0, &part.2) } else { (&all.0, &all.1) };
        check(*got_idx == want_idx, &format!("argsort indices of {label}"))?;
        check(*got_sorted == sorted, &format!("take of argsort of {label}"))?;
    }
    check(
        part.1 == reference(&view.domain().iter().map(|[i]| (mix(i as u64) % 9) as i64).collect::<Vec<_>>()),
        "argsort_positions of a strided view",
    )?;
    out.push(("argsort_indices_offset_strided".to_string(), c));
    // Errors are the same everywhere and the job goes on.
    let short = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n - 1])?)?;
    let e = coargsort(&[&a as &dyn SortColumn, &short]).err();
    check(matches!(e, Some(Error::ShapeMismatch { .. })), "coargsort of different lengths")?;
    Ok(out)
}

/// The report of the scenarios: one `counts <name> [puts/bytes per locale]` line each.
pub fn report(results: &[(String, Vec<CommCounts>)]) -> String {
    let mut s = String::new();
    for (name, counts) in results {
        let per: Vec<String> = counts.iter().map(|c| format!("{}/{}/{}", c.puts, c.bytes, c.total_ops())).collect();
        s.push_str(&format!("counts {name} [{}]\n", per.join(" ")));
    }
    s
}
