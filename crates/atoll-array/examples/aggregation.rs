//! Static aggregation on a Cyclic 1-D Jacobi step, in the three modes: time, messages, the
//! largest remote chunk and the calibrated `auto` model.
//!
//! `cargo run --release -p atoll-array --example aggregation [n] [steps]` (the local backend,
//! `ATOLL_LOCALES` locales, default 2; under MPI set `ATOLL_BACKEND=mpi` and use mpiexec).

use atoll_array::{
    comm_model, dist, follower_stats, reset_follower_stats, set_aggregation, Aggregation, Cyclic, DistArray, ExprReduce,
};
use atoll_runtime::{run, CommCounts, Config, Result};
use std::time::Instant;

fn main() -> Result<()> {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(1 << 20);
    let steps = args.get(1).copied().unwrap_or(10);
    let mut cfg = Config::from_env()?;
    if std::env::var("ATOLL_LOCALES").is_err() {
        cfg.locales = 2;
    }
    run(cfg, |ctx| {
        let ni = n as i64;
        let mut a = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i % 17) as f64)?;
        let mut b = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
        let mut first: Option<f64> = None;
        for mode in [Aggregation::Off, Aggregation::Static, Aggregation::Auto] {
            set_aggregation(ctx, mode);
            a.assign_expr(
                DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i % 17) as f64)?.view(),
            )?;
            reset_follower_stats(ctx);
            ctx.reset_comm_diagnostics()?;
            ctx.start_comm_diagnostics()?;
            ctx.barrier()?;
            let t = Instant::now();
            for _ in 0..steps {
                b.slice_mut(1..ni - 1)?
                    .assign_expr((a.slice(0..ni - 2)? + a.slice(1..ni - 1)? + a.slice(2..ni)?) * (1.0 / 3.0))?;
                a.slice_mut(1..ni - 1)?
                    .assign_expr((b.slice(0..ni - 2)? + b.slice(1..ni - 1)? + b.slice(2..ni)?) * (1.0 / 3.0))?;
            }
            ctx.barrier()?;
            let secs = t.elapsed().as_secs_f64();
            ctx.stop_comm_diagnostics()?;
            let msgs: u64 = ctx.comm_diagnostics()?.iter().map(CommCounts::total_ops).sum();
            let s = a.view().sum()?;
            let same = *first.get_or_insert(s) == s;
            if ctx.id() == 0 {
                println!(
                    "{mode:>6}: {secs:.4} s, {msgs} messages, largest remote chunk {} elements, checksum {s} ({})",
                    follower_stats(ctx).max_chunk_elems,
                    if same { "same as off" } else { "DIFFERS" }
                );
            }
        }
        if ctx.id() == 0 {
            if let Some(m) = comm_model(ctx) {
                println!(
                    "auto model: get {:.3} us, strided base {:.3} us, {:.4} ns/byte: threshold {} f64 elements",
                    m.get_s * 1e6,
                    m.strided_base_s * 1e6,
                    m.strided_per_byte_s * 1e9,
                    m.threshold(8)
                );
            }
        }
        Ok(())
    })
}
