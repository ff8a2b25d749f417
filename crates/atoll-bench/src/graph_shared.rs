//! `atoll-bench graph-shared` (approach 2 of the Chapel-Grafiki talk): the line
//! `hitting_shared_cpp`. Atoll builds the bcsstk29-sized FE pattern (the graph of
//! `atoll-bench graph`'s `hitting_bcsstk`), writes its edge list into shared arrays
//! (`atoll_graph::SharedEdges`), and the separate C++ process `examples/c/hitting_consumer`
//! (built by `make examples-c`) runs `--cg-iters` conjugate-gradient iterations of hitting
//! times on it in place. Reported in the same run: the consumer's `seconds_per_iter` (its own
//! timing of the solver iterations, best of `--reps` runs), Atoll's `hitting_times` on the CSR
//! matrix (`atoll_seconds_per_iter`, best of `--reps`), and the best one-core Rust CG on a CSR
//! copy (`graph_seq::hitting_cg`; `one_core_seconds_per_iter`, `speedup_vs_one_core` =
//! one core / consumer). `ok` when the consumer's and Atoll's times both match the one-core
//! result (norm-wise within 1e-6, the `inf` pattern equal).

use crate::graph_seq::{self, timed, SeqCsr};
use crate::report::Line;
use atoll::prelude::*;
use atoll_graph::{hitting_times, share_targets, CsrMatrix, HittingMethod, LocalEntries, SharedEdges};
use atoll_share::{ShareOptions, SharedArray};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Options of `atoll-bench graph-shared`.
#[derive(clap::Args)]
pub struct GraphSharedArgs {
    #[command(flatten)]
    pub common: crate::Common,
    /// Conjugate-gradient iterations of every solve.
    #[arg(long, default_value_t = 50)]
    pub cg_iters: usize,
    /// Repetitions (the best of each side is reported).
    #[arg(long, default_value_t = 3)]
    pub reps: usize,
    /// The consumer binary (`make examples-c` builds it).
    #[arg(long, default_value = "target/examples-c/hitting_consumer")]
    pub consumer: PathBuf,
    /// Directory of the shared files.
    #[arg(long, default_value = "/dev/shm")]
    pub dir: PathBuf,
}

/// Runs the consumer once (locale 0): its `seconds_per_iter`.
fn consume(args: &GraphSharedArgs, prefix: &str, out: &SharedArray<f64, 1>) -> Result<f64> {
    let k = args.cg_iters.to_string();
    let mut child = Command::new(&args.consumer)
        .args([
            "--dir",
            &args.dir.display().to_string(),
            "--edges",
            prefix,
            "--targets",
            &format!("{prefix}-targets"),
            "--out",
            &format!("{prefix}-h"),
        ])
        .args(["--method", "cg", "--tol", "0", "--max-iters", &k, "--timeout-ms", "60000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            Error::InvalidArgument(format!("cannot start {} (run `make examples-c`): {e}", args.consumer.display()))
        })?;
    out.signal(0)?.post(1)?;
    let t = Instant::now();
    loop {
        match out.signal(1)?.wait(Duration::from_millis(100)) {
            Ok(()) => break,
            Err(Error::Timeout { .. }) if t.elapsed() < Duration::from_secs(600) && child.try_wait()?.is_none() => {}
            Err(e) => {
                let _ = child.kill();
                let o = child.wait_with_output()?;
                return Err(Error::InvalidArgument(format!(
                    "hitting_consumer gave no result ({e}): {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                )));
            }
        }
    }
    let o = child.wait_with_output()?;
    let so = String::from_utf8_lossy(&o.stdout);
    let key = "\"seconds_per_iter\": ";
    let v = so
        .find(key)
        .and_then(|i| so[i + key.len()..].split([',', '}']).next())
        .and_then(|s| s.trim().parse::<f64>().ok());
    match (o.status.success(), v) {
        (true, Some(v)) => Ok(v),
        _ => Err(Error::InvalidArgument(format!(
            "hitting_consumer failed ({}): {so} {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ))),
    }
}

fn max_diff(got: &[f64], want: &[f64]) -> f64 {
    got.iter()
        .zip(want)
        .map(|(a, b)| {
            if a.is_infinite() && b.is_infinite() {
                0.0
            } else if a.is_infinite() != b.is_infinite() {
                f64::INFINITY
            } else {
                (a - b).abs()
            }
        })
        .fold(0.0, f64::max)
}

/// Runs the line on this job. **Collective.**
pub fn graph_shared(ctx: &Ctx, args: &GraphSharedArgs) -> Result<()> {
    let (a, b, c, d) = atoll_graph::BCSSTK29_LIKE;
    let (n, e) = atoll_graph::fe_entries(ctx, a, b, c, d)?;
    let e = LocalEntries { rows: e.rows, cols: e.cols, vals: None };
    let all_r = ctx.gather(0, &e.rows)?.concat();
    let all_c = ctx.gather(0, &e.cols)?.concat();
    let m = CsrMatrix::from_entries(ctx, n, n, e)?;
    let prefix = format!("bench-hit-{}", std::process::id());
    let opts = || ShareOptions::in_dir(&args.dir);
    let edges = SharedEdges::from_csr(ctx, &prefix, &m, true, opts())?;
    let targets = share_targets(ctx, &format!("{prefix}-targets"), &[0], opts())?;
    let out = SharedArray::<f64, 1>::create(ctx, &format!("{prefix}-h"), [n], opts())?;
    let k = args.cg_iters;
    let reps = args.reps.max(1);
    // Atoll on the CSR matrix, best of reps.
    let mut t_atoll = f64::INFINITY;
    let mut mine = Vec::new();
    for _ in 0..reps {
        ctx.barrier()?;
        let t = Instant::now();
        let h = hitting_times(ctx, &m, &[0], HittingMethod::ConjugateGradient, 0.0, k)?;
        ctx.barrier()?;
        t_atoll = t_atoll.min(ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)? / h.residuals.len().max(1) as f64);
        mine = h.times;
    }
    let atoll_all = ctx.gather(0, &mine)?.concat();
    // The C++ consumer, best of reps (locale 0 drives it; the others wait).
    let t_cpp = (ctx.id() == 0).then(|| {
        (0..reps)
            .map(|_| consume(args, &prefix, &out))
            .collect::<Result<Vec<f64>>>()
            .map(|v| v.into_iter().fold(f64::INFINITY, f64::min))
    });
    let t_cpp: Result<f64> = ctx.broadcast(0, t_cpp)?;
    let cpp = out.array().gather(0)?;
    if let (Some(cpp), 0) = (cpp, ctx.id()) {
        let t_cpp = t_cpp.clone()?;
        let g = SeqCsr::from_entries(n, &all_r, &all_c, None);
        let mut t_one = f64::INFINITY;
        let mut want = Vec::new();
        for _ in 0..reps {
            let sys = graph_seq::HittingSystem::new(&g, &[0]);
            let (t, (w, _, _)) = timed(|| graph_seq::hitting_cg(&g, &sys, 0.0, k));
            t_one = t_one.min(t / k.max(1) as f64);
            want = w;
        }
        let scale = want.iter().filter(|x| x.is_finite()).fold(1.0f64, |a, &b| a.max(b.abs()));
        let (d_cpp, d_atoll) = (max_diff(&cpp, &want), max_diff(&atoll_all, &want));
        let ok = k > 0 && d_cpp <= 1e-6 * scale && d_atoll <= 1e-6 * scale;
        Line::new("graph", "hitting_shared_cpp", ctx.backend_name(), ctx.num_locales(), n as u64, t_cpp * k as f64, ok)
            .with("nnz", all_r.len() as u64)
            .with("seconds_per_iter", t_cpp)
            .with("iters", k as u64)
            .with("atoll_seconds_per_iter", t_atoll)
            .with("one_core_seconds_per_iter", t_one)
            .with("speedup_vs_one_core", t_one / t_cpp)
            .with("atoll_speedup_vs_cpp", t_cpp / t_atoll)
            .with("max_abs_diff_vs_one_core", d_cpp)
            .with("atoll_max_abs_diff_vs_one_core", d_atoll)
            .print(args.common.json);
    }
    ctx.barrier()?;
    out.free()?;
    targets.free()?;
    edges.free()?;
    t_cpp.map(|_| ())
}
