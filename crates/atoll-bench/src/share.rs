//! `atoll-bench share`: shared arrays (atoll-share) against what a skeptic would do
//! instead, in the same run. Local backend.
//!
//! - `attach`: an `n`-element f64 array (default 2^27 = 1 GiB) made by this process and
//!   attached and summed by another (a child process: `atoll-bench share-child attach`, an Atoll
//!   job of as many locales). `speedup_vs_file`: the file route (every locale writes its part
//!   to a regular file, the child reads it back into a private array, then sums it) over the
//!   shared route (attach, then the first sum, page faults included), end to end;
//!   `transfer_speedup_vs_file` compares the data movement alone (write + read back against
//!   the attach, which maps the blocks read-write with their page tables filled).
//!   `ratio_vs_private`: the best sum of a private array over the best warm sum of the attached
//!   one, in the child (1.0 = the same speed; `ratio_vs_private_first` uses the first sum).
//! - `triad_shared`: STREAM triad `a = b + 3 c` over three shared arrays against three private
//!   ones, interleaved repetitions, best of each; `ratio_vs_private` = private / shared time.
//! - `signal_rtt`: ping-pong with a child process through two shared signals (futex) against
//!   the same ping-pong of one byte through pipes; `ratio_vs_pipe` = signal / pipe round trip
//!   (lower is better).
//!
//! Every line's `ok` comes from a check of results: exact sums (the values are small integers),
//! the triad's every element, and the count of round trips on both sides.

use crate::report::Line;
use atoll::array::{dist, DistArray, ExprExt, ExprReduce};
use atoll::prelude::*;
use atoll_share::{Access, ShareOptions, SharedArray, SharedFile};
use std::io::{BufRead, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Options of `atoll-bench share`.
#[derive(clap::Args)]
pub struct ShareArgs {
    #[command(flatten)]
    common: crate::Common,
    /// Elements of the `attach` array (f64: 2^27 is 1 GiB).
    #[arg(long, default_value_t = 1 << 27)]
    n: usize,
    /// Elements per array of `triad_shared`.
    #[arg(long, default_value_t = 1 << 25)]
    triad_n: usize,
    /// Repetitions of the timed sums and triads (the best is reported).
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Round trips of `signal_rtt` (each way, per round; 2 rounds, best reported).
    #[arg(long, default_value_t = 20_000)]
    rtt_iters: usize,
    /// Directory of the shared arrays' files.
    #[arg(long, default_value = "/dev/shm")]
    dir: PathBuf,
    /// Directory of the `attach` file baseline (a regular file written and read back).
    #[arg(long, default_value = "/tmp")]
    file_dir: PathBuf,
    /// `attach` maps read-only (private pages, faulted in lazily by the first pass) instead of
    /// read-write with the page tables filled at attach (`MAP_POPULATE`).
    #[arg(long)]
    lazy_attach: bool,
    /// The parts to run.
    #[arg(long, value_delimiter = ',', default_value = "attach,triad_shared,signal_rtt")]
    only: Vec<String>,
}

/// The child side (`atoll-bench share-child ROLE ...`), started by `share`.
#[derive(clap::Args)]
pub struct ChildArgs {
    /// `attach`, `pong` or `pipe-pong`.
    role: String,
    #[arg(long, default_value = "")]
    name: String,
    #[arg(long, default_value = "/dev/shm")]
    dir: PathBuf,
    #[arg(long)]
    file: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    locales: usize,
    #[arg(long, default_value_t = 5)]
    reps: usize,
    #[arg(long, default_value_t = 0)]
    iters: usize,
    #[arg(long)]
    lazy: bool,
}

fn value(i: usize) -> f64 {
    (i % 1024) as f64
}

/// The exact sum of `value(i)` for `i < n` (small integers: every order gives it).
fn expected_sum(n: usize) -> f64 {
    let full = (n / 1024) as f64 * (1023.0 * 1024.0 / 2.0);
    let r = n % 1024;
    full + (r * r.saturating_sub(1) / 2) as f64
}

fn fill_local(a: &mut DistArray<f64, 1>) -> Result<()> {
    let lo = a.dist().local_domain(a.ctx().id())?.dims()[0].lo() as usize;
    for (k, x) in a.local_mut().iter_mut().enumerate() {
        *x = value(lo + k);
    }
    Ok(())
}

fn bench_err(what: impl std::fmt::Display) -> Error {
    Error::InvalidArgument(format!("share benchmark: {what}"))
}

/// Runs the benchmark; prints on locale 0.
pub fn share(args: &ShareArgs) -> Result<()> {
    if args.common.backend != crate::Backend::Local {
        return Err(bench_err("runs on the local backend (its child is a local job)"));
    }
    let cfg = crate::config(&args.common)?;
    let want = |p: &str| args.only.iter().any(|o| o == p);
    if want("attach") {
        attach(&cfg, args)?;
    }
    if want("triad_shared") {
        triad(&cfg, args)?;
    }
    if want("signal_rtt") {
        signal_rtt(args)?;
    }
    Ok(())
}

fn attach(cfg: &Config, args: &ShareArgs) -> Result<()> {
    let name = format!("bench-attach-{}", std::process::id());
    let file = args.file_dir.join(format!("atoll-bench-attach-{}.bin", std::process::id()));
    let n = args.n;
    let out = run(cfg.clone(), |ctx| {
        let mut a = SharedArray::<f64, 1>::create(ctx, &name, [n], ShareOptions::in_dir(&args.dir))?;
        fill_local(a.array_mut()?)?;
        // The file route's first half: every locale writes its part at its offset.
        if ctx.id() == 0 {
            std::fs::File::create(&file)?;
        }
        ctx.barrier()?;
        let s = Instant::now();
        let lo = a.array().dist().local_domain(ctx.id())?.dims()[0].lo() as u64;
        let f = std::fs::OpenOptions::new().write(true).open(&file)?;
        // No copy, no fsync: the page cache suffices to hand the data to another process.
        f.write_all_at(atoll::runtime::bytemuck::cast_slice(a.array().local()), lo * 8)?;
        let write_s = ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?;
        ctx.barrier()?;
        let child = if ctx.id() == 0 {
            let o = Command::new(std::env::current_exe()?)
                .args([
                    "share-child",
                    "attach",
                    "--name",
                    &name,
                    "--locales",
                    &ctx.num_locales().to_string(),
                    "--reps",
                    &args.reps.to_string(),
                ])
                .args(args.lazy_attach.then_some("--lazy"))
                .arg("--dir")
                .arg(&args.dir)
                .arg("--file")
                .arg(&file)
                .stderr(Stdio::inherit())
                .output()?;
            if !o.status.success() {
                return Err(bench_err(format!("the attach child failed: {:?}", o.status)));
            }
            Some(String::from_utf8_lossy(&o.stdout).to_string())
        } else {
            None
        };
        ctx.barrier()?;
        if ctx.id() == 0 {
            let _ = std::fs::remove_file(&file);
        }
        a.free()?;
        Ok((ctx.id(), ctx.num_locales(), write_s, child))
    })?;
    let (id, locales, write_s, child) = out;
    if id != 0 {
        return Ok(());
    }
    let v: serde_json::Value = serde_json::from_str(child.as_deref().unwrap_or("").trim())
        .map_err(|e| bench_err(format!("child output: {e}")))?;
    let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    let (attach_s, first_s, shared_s, private_s, read_s) =
        (f("attach_s"), f("first_sum_s"), f("shared_sum_s"), f("private_sum_s"), f("read_s"));
    let ok = v["ok"].as_bool() == Some(true);
    let file_route = write_s + read_s + private_s;
    let shared_route = attach_s + first_s;
    Line::new("share", "attach", "local", locales, n as u64, shared_route, ok)
        .with("attach_mode", if args.lazy_attach { "lazy_read_only" } else { "populated_read_write" })
        .with("attach_seconds", attach_s)
        .with("first_sum_seconds", first_s)
        .with("shared_sum_seconds", shared_s)
        .with("private_sum_seconds", private_s)
        .with("file_write_seconds", write_s)
        .with("file_read_seconds", read_s)
        .with("file_route_seconds", file_route)
        .with("speedup_vs_file", file_route / shared_route)
        .with("transfer_speedup_vs_file", (write_s + read_s) / attach_s)
        .with("ratio_vs_private", private_s / shared_s)
        .with("ratio_vs_private_first", private_s / first_s)
        .print(args.common.json);
    Ok(())
}

/// The child of `attach`: attach, sum (first and warm), a private array's sum, the file read.
fn attach_child(c: &ChildArgs) -> Result<()> {
    let mut cfg = Config::from_env()?;
    cfg.backend = BackendKind::Local;
    cfg.locales = c.locales;
    cfg.check_collectives = false;
    let file = c.file.clone().ok_or_else(|| bench_err("--file"))?;
    run(cfg, |ctx| {
        ctx.barrier()?;
        let s = Instant::now();
        let a = SharedArray::<f64, 1>::attach(
            ctx,
            &c.name,
            &c.dir,
            if c.lazy { Access::ReadOnly } else { Access::ReadWrite },
        )?;
        let attach_s = ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?;
        let n = a.array().len();
        let want = expected_sum(n);
        let s = Instant::now();
        let first = a.array().view().sum()?;
        let first_s = ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?;
        let mut ok = first == want;
        let mut p = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        fill_local(&mut p)?;
        ctx.barrier()?;
        let (mut shared_s, mut private_s) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..c.reps.max(1) {
            let s = Instant::now();
            ok &= a.array().view().sum()? == want;
            shared_s = shared_s.min(ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?);
            let s = Instant::now();
            ok &= p.view().sum()? == want;
            private_s = private_s.min(ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?);
        }
        // The file route's second half: every locale reads its part back into the private array.
        p.fill(-1.0)?;
        ctx.barrier()?;
        let s = Instant::now();
        let lo = p.dist().local_domain(ctx.id())?.dims()[0].lo() as u64;
        let f = std::fs::File::open(&file)?;
        f.read_exact_at(atoll::runtime::bytemuck::cast_slice_mut(p.local_mut()), lo * 8)?;
        let read_s = ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?;
        ok &= p.view().sum()? == want;
        let ok = ctx.allreduce(ok, |x, y| x && y)?;
        a.free()?;
        if ctx.id() == 0 {
            println!(
                "{}",
                serde_json::json!({"attach_s": attach_s, "first_sum_s": first_s, "shared_sum_s": shared_s,
                    "private_sum_s": private_s, "read_s": read_s, "ok": ok})
            );
        }
        Ok(())
    })
}

fn triad(cfg: &Config, args: &ShareArgs) -> Result<()> {
    let n = args.triad_n;
    let pid = std::process::id();
    let out = run(cfg.clone(), |ctx| {
        let opts = || ShareOptions::in_dir(&args.dir);
        let mut a = SharedArray::<f64, 1>::create(ctx, &format!("bench-triad-a-{pid}"), [n], opts())?;
        let mut b = SharedArray::<f64, 1>::create(ctx, &format!("bench-triad-b-{pid}"), [n], opts())?;
        let mut c = SharedArray::<f64, 1>::create(ctx, &format!("bench-triad-c-{pid}"), [n], opts())?;
        let mut ap = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        let mut bp = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        let cp = DistArray::<f64, 1>::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
        fill_local(&mut bp)?;
        fill_local(b.array_mut()?)?;
        c.array_mut()?.fill(2.0)?;
        a.array_mut()?.fill(0.0)?;
        let (mut ts, mut tp) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..args.reps.max(1) {
            ctx.barrier()?;
            let s = Instant::now();
            a.array_mut()?.assign_expr(b.array() + 3.0 * c.array())?;
            ts = ts.min(ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?);
            ctx.barrier()?;
            let s = Instant::now();
            ap.assign_expr(&bp + 3.0 * &cp)?;
            tp = tp.min(ctx.allreduce(s.elapsed().as_secs_f64(), f64::max)?);
        }
        let bad_shared = (a.array().view() - (&bp + 3.0 * &cp)).map(|d| u64::from(d != 0.0)).sum()?;
        let bad_private = (ap.view() - (b.array() + 3.0 * c.array())).map(|d| u64::from(d != 0.0)).sum()?;
        a.free()?;
        b.free()?;
        c.free()?;
        Ok((ctx.id(), ctx.num_locales(), ts, tp, bad_shared == 0 && bad_private == 0))
    })?;
    let (id, locales, ts, tp, ok) = out;
    if id == 0 {
        let gb = |s: f64| 24.0 * n as f64 / s / 1e9;
        Line::new("share", "triad_shared", "local", locales, n as u64, ts, ok)
            .with("gbps", gb(ts))
            .with("private_seconds", tp)
            .with("private_gbps", gb(tp))
            .with("ratio_vs_private", tp / ts)
            .print(args.common.json);
    }
    Ok(())
}

fn signal_rtt(args: &ShareArgs) -> Result<()> {
    let name = format!("bench-signal-{}", std::process::id());
    let iters = args.rtt_iters.max(1);
    let rounds = 2;
    let r = run(Config::local(1), |ctx| {
        let a = SharedArray::<u8, 1>::create(ctx, &name, [1], ShareOptions::in_dir(&args.dir))?;
        let exe = std::env::current_exe()?;
        let mut child = Command::new(&exe)
            .args(["share-child", "pong", "--name", &name, "--iters", &(iters * rounds).to_string()])
            .arg("--dir")
            .arg(&args.dir)
            .spawn()?;
        let mut pipe = Command::new(&exe)
            .args(["share-child", "pipe-pong"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let mut pin = pipe.stdin.take().ok_or_else(|| bench_err("pipe stdin"))?;
        let mut pout = pipe.stdout.take().ok_or_else(|| bench_err("pipe stdout"))?;
        let (ping, pong) = (a.signal(0)?, a.signal(1)?);
        let (mut t_sig, mut t_pipe, mut echoed) = (f64::INFINITY, f64::INFINITY, 0usize);
        for _ in 0..rounds {
            let s = Instant::now();
            for _ in 0..iters {
                ping.post(1)?;
                pong.wait(Duration::from_secs(30))?;
            }
            t_sig = t_sig.min(s.elapsed().as_secs_f64() / iters as f64);
            let s = Instant::now();
            let mut byte = [0u8; 1];
            for k in 0..iters {
                pin.write_all(&[k as u8])?;
                pout.read_exact(&mut byte)?;
                echoed += usize::from(byte[0] == k as u8);
            }
            t_pipe = t_pipe.min(s.elapsed().as_secs_f64() / iters as f64);
        }
        drop(pin);
        let sig_ok = child.wait()?.success()
            && ping.total_posted() == (iters * rounds) as u64
            && pong.total_posted() == (iters * rounds) as u64;
        let pipe_ok = pipe.wait()?.success() && echoed == iters * rounds;
        a.free()?;
        Ok((t_sig, t_pipe, sig_ok && pipe_ok))
    })?;
    let (t_sig, t_pipe, ok) = r;
    Line::new("share", "signal_rtt", "local", 2, iters as u64, t_sig, ok)
        .with("rtt_us", t_sig * 1e6)
        .with("pipe_rtt_us", t_pipe * 1e6)
        .with("ratio_vs_pipe", t_sig / t_pipe)
        .print(args.common.json);
    Ok(())
}

/// The child processes of `share`.
pub fn child(c: &ChildArgs) -> Result<()> {
    match c.role.as_str() {
        "attach" => attach_child(c),
        "pong" => {
            let f = SharedFile::open(&c.name, &c.dir, Access::ReadWrite)?;
            let (ping, pong) = (f.signal(0)?, f.signal(1)?);
            for _ in 0..c.iters {
                ping.wait(Duration::from_secs(30))?;
                pong.post(1)?;
            }
            Ok(())
        }
        "pipe-pong" => {
            let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
            let (mut i, mut o) = (stdin.lock(), stdout.lock());
            loop {
                let buf = i.fill_buf()?;
                if buf.is_empty() {
                    return Ok(());
                }
                let b = buf[0];
                i.consume(1);
                o.write_all(&[b])?;
                o.flush()?;
            }
        }
        other => Err(bench_err(format!("unknown child role {other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_sum_is_the_sum() {
        for n in [0, 1, 1023, 1024, 1025, 5000] {
            assert_eq!(expected_sum(n), (0..n).map(value).sum::<f64>(), "{n}");
        }
    }
}
