//! Graph scenarios run identically on every backend: by the program of `tests/mpi_launch.rs` under `mpiexec`
//! (`tests/mpi_launch.rs`) and, in the same test, on the local backend with as many locales.
//! Each checks its result against a sequential reference (tests/common) computed on every
//! locale and reports every locale's message counts of its SpMV, which must be the same on both
//! backends and at most one put per remote locale per product.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

use atoll_graph::{
    bfs, connected_components, hitting_times, kronecker, kronecker_edges, label_propagation, pagerank,
    read_matrix_market, read_matrix_market_edges, write_matrix_market, EdgeListMatrix, HittingMethod, MmSymmetry,
    RowMatrix,
};
use atoll_runtime::{CommCounts, Ctx, Error, Result};
use common::*;

fn check(cond: bool, what: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {what}")))
    }
}

fn all<T: atoll_runtime::Pod>(ctx: &Ctx, v: &[T]) -> Result<Vec<T>> {
    // Pod values travel as u64 words (all the scenario's vectors are 8-byte types).
    let w: Vec<u64> = v.iter().map(|x| atoll_runtime::bytemuck::cast::<T, u64>(*x)).collect();
    Ok(ctx.allgather(&w)?.concat().into_iter().map(atoll_runtime::bytemuck::cast::<u64, T>).collect())
}

fn measure<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, Vec<CommCounts>)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    let r = r?;
    Ok((r, ctx.comm_diagnostics()?))
}

/// Every scenario: (name, every locale's counts).
pub fn all_scenarios(ctx: &Ctx) -> Result<Vec<(String, Vec<CommCounts>)>> {
    let mut out = Vec::new();
    let p = ctx.num_locales();
    let scale = 8;
    let n = 1usize << scale;
    let raw = kronecker_edges(ctx, scale, 16, 5)?;
    let pairs: Vec<(u64, u64)> =
        ctx.allgather(&raw.rows.iter().copied().zip(raw.cols.iter().copied()).collect::<Vec<_>>())?.concat();
    let sym: Vec<(u64, u64)> = pairs.iter().flat_map(|&(u, v)| [(u, v), (v, u)]).filter(|(u, v)| u != v).collect();
    let adj = adjacency(n, &sym);
    let m = kronecker(ctx, scale, 16, 5)?;
    // SpMV: one put per remote reader, nothing else but the barrier.
    let x: Vec<f64> = m.local_cols().map(|j| (j % 7) as f64).collect();
    let mut y = vec![0.0; x.len()];
    let ((), c) = measure(ctx, || m.spmv(ctx, &x, &mut y))?;
    let want: Vec<f64> = (0..n).map(|i| adj[i].iter().map(|&j| (j % 7) as f64).sum()).collect();
    check(all(ctx, &y)? == want, "spmv of the Kronecker graph")?;
    let readers = ctx.allgather(&m.halo().sources().collect::<Vec<_>>())?;
    for (l, cl) in c.iter().enumerate() {
        let r = readers.iter().filter(|s| s.contains(&l)).count() as u64;
        check(cl.puts == r && r < p as u64 && cl.gets == 0, "one put per remote reader")?;
    }
    out.push(("spmv_kron".to_string(), c));
    let (lp, c) = measure(ctx, || label_propagation(ctx, &m, None, 20))?;
    let (want, it, conv) = lp_reference(&adj, 20);
    check(all(ctx, &lp.labels)? == want && lp.iters == it && lp.converged == conv, "label propagation")?;
    out.push(("lp_kron".to_string(), c));
    let cc = connected_components(ctx, &m)?;
    check(all(ctx, &cc.labels)? == cc_reference(&adj), "connected components")?;
    let (lv, _) = bfs(ctx, &m, 3)?;
    check(all(ctx, &lv)? == bfs_reference(&adj, 3), "bfs")?;
    let targets = [1u64, 17];
    let h = hitting_times(ctx, &m, &targets, HittingMethod::ConjugateGradient, 1e-11, 1000)?;
    let want = hitting_reference(&adj, &targets);
    let got = all(ctx, &h.times)?;
    check(
        h.converged
            && got
                .iter()
                .zip(&want)
                .all(|(a, b)| (a.is_infinite() && b.is_infinite()) || (a - b).abs() <= 1e-6 * b.max(1.0)),
        "hitting times",
    )?;
    // Each CG iteration of the hitting-time solve: one SpMV, hence one put per remote reader
    // and nothing else (the reductions are collectives, not counted messages): the counts of
    // 7 iterations minus those of 2 (the setup, components included, cancels).
    let cg = |k: usize| measure(ctx, || hitting_times(ctx, &m, &targets, HittingMethod::ConjugateGradient, 0.0, k));
    let ((h2, c2), (h7, c7)) = (cg(2)?, cg(7)?);
    check(h2.residuals.len() == 2 && h7.residuals.len() == 7, "fixed CG iteration counts")?;
    let per5: Vec<CommCounts> = c7.iter().zip(&c2).map(|(a, b)| a.since(b)).collect();
    for (l, cl) in per5.iter().enumerate() {
        let r = readers.iter().filter(|s| s.contains(&l)).count() as u64;
        check(cl.puts == 5 * r && cl.total_ops() == 5 * r, "one put per remote reader per CG iteration")?;
    }
    out.push(("hitting_cg_per_5_iters".to_string(), per5));
    let (pr, _, conv) = pagerank(ctx, &m, 0.85, 1e-12, 1000)?;
    let want = pagerank_reference(&adj, 0.85, 1e-12, 1000);
    check(conv && all(ctx, &pr)?.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-9), "pagerank")?;
    // Matrix Market round trip through a file that every rank reads in parallel.
    let path = ctx.broadcast(0, (ctx.id() == 0).then(|| tmp("mpi-kron.mtx").display().to_string()))?;
    write_matrix_market(ctx, &path, n, n, &m.local_entries(), MmSymmetry::Symmetric)?;
    let m2 = read_matrix_market(ctx, &path)?;
    check(m2.local_entries() == m.local_entries(), "Matrix Market round trip")?;
    let (h2, edges) = read_matrix_market_edges(ctx, &path)?;
    let e = EdgeListMatrix::new(ctx, h2.rows, h2.cols, edges)?;
    let mut y2 = vec![0.0; x.len()];
    let ((), c) = measure(ctx, || e.spmv(ctx, &x, &mut y2))?;
    check(y2 == y, "edge-list spmv")?;
    out.push(("spmv_edge_list".to_string(), c));
    // A malformed file: the same typed error on every rank, and the job goes on.
    if ctx.id() == 0 {
        std::fs::write(&path, "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 2\n5 1\n2 2\n")
            .map_err(Error::from)?;
    }
    ctx.barrier()?;
    let err = read_matrix_market(ctx, &path).err();
    check(matches!(&err, Some(Error::Parse { line: 4, .. })), "parse error on line 4")?;
    ctx.barrier()?;
    if ctx.id() == 0 {
        let _ = std::fs::remove_file(&path);
    }
    Ok(out)
}

/// One `counts <name> [puts/bytes/ops per locale]` line per scenario.
pub fn report(results: &[(String, Vec<CommCounts>)]) -> String {
    let mut s = String::new();
    for (name, counts) in results {
        let per: Vec<String> = counts.iter().map(|c| format!("{}/{}/{}", c.puts, c.bytes, c.total_ops())).collect();
        s.push_str(&format!("counts {name} [{}]\n", per.join(" ")));
    }
    s
}
