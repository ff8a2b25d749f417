//! `atoll-bench graph`: label propagation and hitting times on the bcsstk29-sized
//! 3-D finite-element pattern (13,992 vertices, ~627k entries), and label propagation, hitting
//! times and connected components on a Kronecker graph (`--scale`, 22 by default: 4M vertices,
//! ~64M generated edges, both directions stored). Each line reports Atoll's `seconds_per_iter`
//! and `iters`, the best one-core Rust implementation of the same algorithm on the same graph
//! in the same run (`graph_seq.rs`; `one_core_seconds_per_iter`, `speedup_vs_one_core`), and
//! `ok` from comparing the two results (labels equal; hitting times: both solves converged to
//! `--tol`, Atoll's answer has a small residual recomputed on one core, and the two agree to
//! 1e-6 of the largest hitting time).
//! Graphs are patterns (every edge weight 1); self loops are ignored by both sides.
//!
//! `--dump DIR` also writes each graph's entries as raw little-endian `u32` (row, col) pairs
//! (`DIR/bcsstk.u32pairs`, `DIR/kron<scale>.u32pairs`) for the Python peer
//! (`tools/graph_peer.py`: scipy.sparse hitting times, networkx label propagation).

use crate::graph_seq::{self, timed, SeqCsr};
use crate::report::Line;
use atoll::prelude::*;
use atoll_graph::{connected_components, hitting_times, label_propagation, CsrMatrix, HittingMethod, LocalEntries};
use std::time::Instant;

/// Options of `atoll-bench graph`.
#[derive(clap::Args)]
pub struct GraphArgs {
    #[command(flatten)]
    pub common: crate::Common,
    /// Kronecker scale (2^scale vertices, 16 x 2^scale generated edges).
    #[arg(long, default_value_t = 22)]
    pub scale: u32,
    /// Label propagation iterations (at most; it stops at a fixed point).
    #[arg(long, default_value_t = 10)]
    pub lp_iters: usize,
    /// At most this many conjugate-gradient iterations in the hitting-time solves.
    #[arg(long, default_value_t = 2000)]
    pub cg_iters: usize,
    /// Hitting-time solves stop when the residual is below `tol` times the right-hand side's.
    #[arg(long, default_value_t = 1e-10)]
    pub tol: f64,
    /// Seed of the Kronecker graph.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these lines (comma-separated: lp_bcsstk,hitting_bcsstk,lp_kron,hitting_kron,cc_kron).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Writes the graphs' (row, col) pairs as raw u32 files in this directory.
    #[arg(long)]
    pub dump: Option<std::path::PathBuf>,
}

/// Slowest locale's seconds of a collective `f`, between barriers.
fn collective_time<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(f64, R)> {
    ctx.barrier()?;
    let t = Instant::now();
    let r = f()?;
    ctx.barrier()?;
    let s = t.elapsed().as_secs_f64();
    Ok((ctx.allreduce(s, f64::max)?, r))
}

/// Every locale's `v`, concatenated on locale 0.
fn gather0<T: serde::Serialize + serde::de::DeserializeOwned + Clone>(ctx: &Ctx, v: &[T]) -> Result<Option<Vec<T>>> {
    let all = ctx.gather(0, &v.to_vec())?;
    Ok((ctx.id() == 0).then(|| all.concat()))
}

fn dump(dir: &std::path::Path, name: &str, g: &SeqCsr) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut bytes = Vec::with_capacity(g.nnz() * 8);
    for i in 0..g.n {
        for &c in &g.col[g.row_ptr[i]..g.row_ptr[i + 1]] {
            bytes.extend_from_slice(&(i as u32).to_le_bytes());
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    std::fs::write(dir.join(format!("{name}.u32pairs")), bytes)?;
    Ok(())
}

/// The highest-degree vertex (ties: smallest id), the hitting-time target of the Kronecker lines.
fn top_vertex(ctx: &Ctx, m: &CsrMatrix) -> Result<u64> {
    let start = m.local_rows().start;
    let best = (0..m.local_rows().len())
        .map(|i| (m.row(i).0.len() as u64, u64::MAX - (start + i) as u64))
        .max()
        .unwrap_or((0, u64::MAX));
    let b = ctx.allreduce(best, |a, b| a.max(b))?;
    Ok(u64::MAX - b.1)
}

struct Ctxt<'a> {
    ctx: &'a Ctx,
    args: &'a GraphArgs,
}

impl Ctxt<'_> {
    fn want(&self, name: &str) -> bool {
        self.args.only.is_empty() || self.args.only.iter().any(|o| o == name)
    }

    #[allow(clippy::too_many_arguments)]
    fn line(&self, name: &str, n: usize, nnz: u64, per_iter: f64, iters: usize, one_core: f64, ok: bool) -> Line {
        Line::new("graph", name, self.ctx.backend_name(), self.ctx.num_locales(), n as u64, per_iter * iters as f64, ok)
            .with("nnz", nnz)
            .with("seconds_per_iter", per_iter)
            .with("iters", iters as u64)
            .with("one_core_seconds_per_iter", one_core)
            .with("speedup_vs_one_core", one_core / per_iter)
    }

    fn lp(&self, name: &str, m: &CsrMatrix, g: Option<&SeqCsr>) -> Result<()> {
        let ctx = self.ctx;
        let (t, lp) = collective_time(ctx, || label_propagation(ctx, m, None, self.args.lp_iters))?;
        let got = gather0(ctx, &lp.labels)?;
        let nnz = m.nnz(ctx)?;
        if let (Some(g), Some(got)) = (g, got) {
            let (ts, (ls, is)) = timed(|| graph_seq::lp_sort(g, self.args.lp_iters));
            let (tc, (lc, ic)) = timed(|| graph_seq::lp_count(g, self.args.lp_iters));
            let ok = got == ls && lp.iters == is && lc == ls && ic == is;
            let one = ts.min(tc) / is.max(1) as f64;
            self.line(name, g.n, nnz, t / lp.iters.max(1) as f64, lp.iters, one, ok)
                .with("one_core_sort_seconds", ts)
                .with("one_core_count_seconds", tc)
                .with("converged", lp.converged)
                .print(self.args.common.json);
        }
        ctx.barrier()
    }

    fn hitting(&self, name: &str, m: &CsrMatrix, g: Option<&SeqCsr>, target: u64) -> Result<()> {
        let ctx = self.ctx;
        let (k, tol) = (self.args.cg_iters, self.args.tol);
        let (t, h) =
            collective_time(ctx, || hitting_times(ctx, m, &[target], HittingMethod::ConjugateGradient, tol, k))?;
        // The solve includes a components pass (reachability); time it alone to report the
        // iterations' own cost too.
        let (tcc, _) = collective_time(ctx, || connected_components(ctx, m))?;
        let got = gather0(ctx, &h.times)?;
        let nnz = m.nnz(ctx)?;
        if let (Some(g), Some(got)) = (g, got) {
            // One core: the same setup (union-find components, degrees) and the same method.
            let (tsys, sys) = timed(|| graph_seq::HittingSystem::new(g, &[target]));
            let (tcg, (want, res, conv)) = timed(|| graph_seq::hitting_cg(g, &sys, tol, k));
            let ts = tsys + tcg;
            // Both solves converged to `tol`; the distributed one's residual, recomputed here
            // from its answer, is within 10 tol of the right-hand side's norm; and the two
            // answers agree to 1e-6 of the largest hitting time (CG in another summation
            // order: equal up to the conditioning times `tol`).
            let (true_res, bnorm) = sys.residual(g, &got);
            let scale = want.iter().filter(|x| x.is_finite()).fold(1.0f64, |a, &b| a.max(b.abs()));
            let same_inf = got.iter().zip(&want).all(|(a, b)| a.is_infinite() == b.is_infinite());
            let diff = got
                .iter()
                .zip(&want)
                .map(|(a, b)| if a.is_infinite() && b.is_infinite() { 0.0 } else { (a - b).abs() })
                .fold(0.0, f64::max);
            let iters = h.residuals.len();
            let ok =
                h.converged && conv && same_inf && true_res <= 10.0 * tol * bnorm && diff <= 1e-6 * scale && iters > 0;
            let (tuf, _) = timed(|| graph_seq::cc_union_find(g));
            self.line(name, g.n, nnz, t / iters.max(1) as f64, iters, ts / res.len().max(1) as f64, ok)
                .with("target", target)
                .with("tol", tol)
                .with("converged", h.converged)
                .with("one_core_iters", res.len() as u64)
                .with("one_core_converged", conv)
                .with("relative_residual_recomputed", true_res / bnorm.max(f64::MIN_POSITIVE))
                .with("max_hitting_time", scale)
                .with("max_abs_diff_vs_one_core", diff)
                .with("first_residual", h.residuals.first().copied().unwrap_or(0.0))
                .with("last_residual", h.residuals.last().copied().unwrap_or(0.0))
                .with("components_seconds", tcc)
                .with("one_core_union_find_seconds", tuf)
                .with("seconds_per_iter_without_components", ((t - tcc) / iters.max(1) as f64).max(0.0))
                .with("one_core_seconds_per_iter_without_setup", tcg / res.len().max(1) as f64)
                .print(self.args.common.json);
        }
        ctx.barrier()
    }

    fn cc(&self, name: &str, m: &CsrMatrix, g: Option<&SeqCsr>) -> Result<()> {
        let ctx = self.ctx;
        let (t, cc) = collective_time(ctx, || connected_components(ctx, m))?;
        let got = gather0(ctx, &cc.labels)?;
        let nnz = m.nnz(ctx)?;
        if let (Some(g), Some(got)) = (g, got) {
            let (ts, want) = timed(|| graph_seq::cc_union_find(g));
            let ok = got == want;
            // Whole solves compared: union-find has no iterations.
            self.line(name, g.n, nnz, t / cc.iters.max(1) as f64, cc.iters, ts / cc.iters.max(1) as f64, ok)
                .with("seconds_total", t)
                .with("one_core_seconds_total", ts)
                .print(self.args.common.json);
        }
        ctx.barrier()
    }
}

/// Runs the lines on this job. **Collective.**
pub fn graph(ctx: &Ctx, args: &GraphArgs) -> Result<()> {
    let c = Ctxt { ctx, args };
    if c.want("lp_bcsstk") || c.want("hitting_bcsstk") {
        let (a, b, cz, d) = atoll_graph::BCSSTK29_LIKE;
        let (n, e) = atoll_graph::fe_entries(ctx, a, b, cz, d)?;
        let e = LocalEntries { rows: e.rows, cols: e.cols, vals: None };
        let all_r = gather0(ctx, &e.rows)?;
        let all_c = gather0(ctx, &e.cols)?;
        let m = CsrMatrix::from_entries(ctx, n, n, e)?;
        let g = all_r.zip(all_c).map(|(r, cc)| SeqCsr::from_entries(n, &r, &cc, None));
        if let (Some(dir), Some(g)) = (&args.dump, &g) {
            dump(dir, "bcsstk", g)?;
        }
        if c.want("lp_bcsstk") {
            c.lp("lp_bcsstk", &m, g.as_ref())?;
        }
        if c.want("hitting_bcsstk") {
            c.hitting("hitting_bcsstk", &m, g.as_ref(), 0)?;
        }
    }
    if c.want("lp_kron") || c.want("hitting_kron") || c.want("cc_kron") {
        if args.scale > 31 {
            return Err(Error::InvalidArgument(format!(
                "graph: --scale {} is above 31 (the one-core baseline stores u32 vertex ids)",
                args.scale
            )));
        }
        let (tb, m) = collective_time(ctx, || atoll_graph::kronecker(ctx, args.scale, 16, args.seed))?;
        let g = if ctx.id() == 0 {
            let n = 1usize << args.scale;
            let edges = 16u64 << args.scale;
            let (tg, g) = timed(|| {
                // Scale <= 32 here (u32 vertex ids, like the CSR columns).
                let pairs: Vec<(u32, u32)> = (0..edges)
                    .map(|k| {
                        let (u, v) = atoll_graph::kronecker_edge(k, args.scale, args.seed);
                        (u as u32, v as u32)
                    })
                    .collect();
                SeqCsr::from_undirected(n, &pairs)
            });
            eprintln!(
                "graph: Kronecker scale {} built in {tb:.2} s on {} locales, {tg:.2} s on one core",
                args.scale,
                ctx.num_locales()
            );
            Some(g)
        } else {
            None
        };
        if let (Some(dir), Some(g)) = (&args.dump, &g) {
            dump(dir, &format!("kron{}", args.scale), g)?;
        }
        let target = top_vertex(ctx, &m)?;
        if c.want("lp_kron") {
            c.lp("lp_kron", &m, g.as_ref())?;
        }
        if c.want("hitting_kron") {
            c.hitting("hitting_kron", &m, g.as_ref(), target)?;
        }
        if c.want("cc_kron") {
            c.cc("cc_kron", &m, g.as_ref())?;
        }
    }
    Ok(())
}
