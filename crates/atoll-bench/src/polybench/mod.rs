//! `atoll-bench polybench`: the 16-kernel suite of the modulo-unrolling paper (its Figure 11):
//! zippered owner-computes loops over views (slices, some strided) of Cyclic or BlockCyclic
//! arrays. The written view leads; the other operands follow, and followers shifted with
//! respect to the leader need remote elements: what static message aggregation optimizes. The
//! stencils, pascal and folding are whole-array loops inside a sequential time loop, as in the
//! paper; the linear-algebra kernels are written as a careful user writes them (matrices
//! distributed by rows, each owner updating its rows locally, the rows it reads copied onto
//! every locale by a few zippered loops: `linalg.rs`, `owned.rs`), not with one collective
//! operation per row or element of an outer loop.
//!
//! Every kernel runs for each distribution (`cyclic`, `blockcyclic`; `--dists block` adds Block
//! arrays, whose remote accesses are halo rows and columns) and aggregation mode
//! (`off`, `static`, `auto`, set on every locale with [`set_aggregation`]), and is checked
//! against a sequential reference computed in plain Rust in the same run. Per run: seconds
//! (locale 0, between barriers), remote operations and bytes (all locales), the largest number
//! of elements a follower fetched remotely for one chunk, `ok`, and the one-core reference's
//! time (`seq_seconds`, the check's sequential loop, timed) with `speedup_vs_sequential`. Per
//! distribution: the geometric means over kernels of auto/off and static/off (messages and
//! time) and of the speedups over one core (with the worst kernel).
//!
//! `--sweep strong|weak|block` runs the scaling experiments of the paper's Figures 14-23.

mod linalg;
mod misc;
mod owned;
mod stencils;

use crate::progress::Progress;
use crate::report::Line;
use atoll::array::{dist, follower_stats, reset_follower_stats, set_aggregation, Aggregation};
use atoll::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Which distribution family a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum DistName {
    /// `Cyclic` in every dimension.
    Cyclic,
    /// `BlockCyclic` with `--block` in every dimension.
    Blockcyclic,
    /// `Block` (not in the paper's suite: its remote accesses are halo rows and columns).
    Block,
}

impl DistName {
    /// The name printed in the results.
    pub fn name(self) -> &'static str {
        match self {
            DistName::Cyclic => "cyclic",
            DistName::Blockcyclic => "blockcyclic",
            DistName::Block => "block",
        }
    }
}

/// The scaling experiments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Sweep {
    /// Fixed sizes, 2..8 locales (Figures 14-17).
    Strong,
    /// Sizes growing with the locale count (Figures 18-21).
    Weak,
    /// BlockCyclic block sizes (Figures 22-23).
    Block,
}

/// Options of `atoll-bench polybench`.
#[derive(clap::Args, Clone, Debug)]
pub struct PolyArgs {
    /// Shrinks every dimension of the paper's sizes by this factor (minimum sizes apply).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Kernels to run (comma-separated; default: all 16, or the sweep's).
    #[arg(long, value_delimiter = ',')]
    pub kernels: Vec<String>,
    /// Distributions (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [DistName::Cyclic, DistName::Blockcyclic])]
    pub dists: Vec<DistName>,
    /// Aggregation modes (comma-separated: off, static, auto).
    #[arg(long, value_delimiter = ',', default_values_t = vec!["off".to_string(), "static".to_string(), "auto".to_string()])]
    pub modes: Vec<String>,
    /// Repetitions of each run (the best time is reported).
    #[arg(long, default_value_t = 1)]
    pub reps: usize,
    /// BlockCyclic block size, in every dimension.
    #[arg(long, default_value_t = 4)]
    pub block: usize,
    /// Overrides every kernel's time-step count.
    #[arg(long)]
    pub steps: Option<usize>,
    /// Runs a scaling experiment instead of the suite.
    #[arg(long, value_enum)]
    pub sweep: Option<Sweep>,
    /// Locale counts of the strong and weak sweeps (local backend; under MPI the rank count).
    #[arg(long, value_delimiter = ',', default_values_t = vec![2usize, 3, 4, 5, 6, 7, 8])]
    pub sweep_locales: Vec<usize>,
    /// Block sizes of the block sweep.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1usize, 2, 4, 8, 16, 32, 64])]
    pub blocks: Vec<usize>,
}

/// A family of distributions, one per rank: what the kernels are generic over.
pub trait Dists: Sync {
    /// The distribution of a `D`-dimensional array.
    type M<const D: usize>: Distribution<D> + 'static;
    /// The distribution of an array of `shape` over all locales.
    ///
    /// # Errors
    /// As [`dist::cyclic`] and [`dist::block_cyclic`].
    fn make<const D: usize>(&self, ctx: &Ctx, shape: [usize; D]) -> Result<Self::M<D>>;
    /// The same distribution of a matrix over a `locales x 1` grid: every locale owns whole
    /// rows (what the owner-computes linear-algebra kernels choose, as a Chapel user would
    /// with `targetLocales = reshape(Locales, {0..#L, 0..0})`).
    ///
    /// # Errors
    /// As [`make`](Self::make).
    fn make_rows(&self, ctx: &Ctx, shape: [usize; 2]) -> Result<Self::M<2>>;
}

fn row_grid(ctx: &Ctx) -> Result<LocaleGrid<2>> {
    LocaleGrid::new(0..ctx.num_locales(), [ctx.num_locales(), 1])
}

/// `Cyclic` over all locales (an automatic, as square as possible, grid).
pub struct CyclicDists;

impl Dists for CyclicDists {
    type M<const D: usize> = Cyclic<D>;
    fn make<const D: usize>(&self, ctx: &Ctx, shape: [usize; D]) -> Result<Cyclic<D>> {
        dist::cyclic(ctx, shape)
    }
    fn make_rows(&self, ctx: &Ctx, shape: [usize; 2]) -> Result<Cyclic<2>> {
        Ok(Cyclic::new(Domain::from_shape(shape)?, row_grid(ctx)?))
    }
}

/// `BlockCyclic` with the same block size in every dimension.
pub struct BlockCyclicDists {
    /// The block size.
    pub block: usize,
}

impl Dists for BlockCyclicDists {
    type M<const D: usize> = BlockCyclic<D>;
    fn make<const D: usize>(&self, ctx: &Ctx, shape: [usize; D]) -> Result<BlockCyclic<D>> {
        dist::block_cyclic(ctx, shape, [self.block; D])
    }
    fn make_rows(&self, ctx: &Ctx, shape: [usize; 2]) -> Result<BlockCyclic<2>> {
        BlockCyclic::new(Domain::from_shape(shape)?, row_grid(ctx)?, [self.block; 2])
    }
}

/// `Block` over all locales (an automatic grid).
pub struct BlockDists;

impl Dists for BlockDists {
    type M<const D: usize> = Block<D>;
    fn make<const D: usize>(&self, ctx: &Ctx, shape: [usize; D]) -> Result<Block<D>> {
        dist::block(ctx, shape)
    }
    fn make_rows(&self, ctx: &Ctx, shape: [usize; 2]) -> Result<Block<2>> {
        Ok(Block::new(Domain::from_shape(shape)?, row_grid(ctx)?))
    }
}

/// Sizes of one run: the paper's, shrunk per rank by a factor.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Factor applied to the dimensions of 1-D problems.
    pub scale1: f64,
    /// Factor applied to each dimension of 2-D problems.
    pub scale2: f64,
    /// Factor applied to each dimension of 3-D problems.
    pub scale3: f64,
    /// Overrides the kernels' time-step counts.
    pub steps: Option<usize>,
}

impl Params {
    /// The same factor for every rank.
    pub fn uniform(scale: f64, steps: Option<usize>) -> Params {
        Params { scale1: scale, scale2: scale, scale3: scale, steps }
    }

    fn scaled(n: usize, f: f64, min: usize) -> usize {
        ((n as f64 * f).round() as usize).max(min)
    }

    /// A dimension of a 1-D problem (the paper's `n`, at least `min`).
    pub fn d1(&self, n: usize, min: usize) -> usize {
        Self::scaled(n, self.scale1, min)
    }

    /// A dimension of a 2-D problem.
    pub fn d2(&self, n: usize, min: usize) -> usize {
        Self::scaled(n, self.scale2, min)
    }

    /// A dimension of a 3-D problem.
    pub fn d3(&self, n: usize, min: usize) -> usize {
        Self::scaled(n, self.scale3, min)
    }

    /// The time-step count: `default`, or `--steps`.
    pub fn steps(&self, default: usize) -> usize {
        self.steps.unwrap_or(default).max(1)
    }
}

/// What one measured region cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Meter {
    /// Locale 0's seconds between the barriers around the region.
    pub seconds: f64,
    /// Remote operations of all locales.
    pub messages: u64,
    /// Payload bytes of all locales.
    pub bytes: u64,
    /// The most elements one follower fetched remotely for one chunk, over all locales.
    pub chunk_elems: u64,
    /// Seconds of the sequential reference's computation (one core, locale 0, its input
    /// already built), summed over the references of the run; the same on every locale.
    pub seq_seconds: f64,
    /// This locale's traffic across hosts in the region (the network model, `netmodel`).
    pub traffic: crate::netmodel::Traffic,
}

impl Meter {
    /// Runs the kernel's computation `f` (collective) between barriers, counting its
    /// communication and follower chunks on every locale.
    ///
    /// # Errors
    /// What `f` returns; communication errors.
    pub fn measure<R>(&mut self, ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<R> {
        reset_follower_stats(ctx);
        ctx.reset_comm_diagnostics()?;
        ctx.start_comm_diagnostics()?;
        ctx.barrier()?;
        let before = crate::netmodel::snapshot(ctx);
        let t = Instant::now();
        let r = f()?;
        ctx.barrier()?;
        let seconds = t.elapsed().as_secs_f64();
        self.traffic = crate::netmodel::Traffic::since(ctx, before);
        ctx.stop_comm_diagnostics()?;
        let all = ctx.comm_diagnostics()?;
        self.messages = all.iter().map(CommCounts::total_ops).sum();
        self.bytes = all.iter().map(|c| c.bytes).sum();
        self.chunk_elems = ctx.allreduce(follower_stats(ctx).max_chunk_elems, u64::max)?;
        self.seconds = ctx.broadcast(0, (ctx.id() == 0).then_some(seconds))?;
        Ok(r)
    }
}

/// A kernel's result: checked or not, its size.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The result matched the sequential reference (the same on every locale).
    pub ok: bool,
    /// Elements of the main array(s).
    pub n: u64,
    /// The problem size, as the paper writes it (`400x400`, `10000 t=100`).
    pub size: String,
}

/// Compares the gathered result (`Some` on locale 0) with the sequential reference, computed
/// on locale 0 only: `setup` builds its input (not timed, as the distributed arrays are built
/// before [`Meter::measure`]), `compute` is the plain one-core loop, timed and added to
/// `meter.seq_seconds`. Every locale gets the verdict and the time. **Collective.**
///
/// # Errors
/// Communication errors.
pub fn verify<S>(
    ctx: &Ctx,
    meter: &mut Meter,
    got: Option<Vec<f64>>,
    setup: impl FnOnce() -> S,
    compute: impl FnOnce(S) -> Vec<f64>,
    tol: f64,
) -> Result<bool> {
    let mine = got.map(|g| {
        let input = std::hint::black_box(setup());
        let t = Instant::now();
        let r = std::hint::black_box(compute(input));
        let seconds = t.elapsed().as_secs_f64();
        (g.len() == r.len() && g.iter().zip(&r).all(|(a, b)| (a - b).abs() <= tol * b.abs().max(1.0)), seconds)
    });
    let (ok, seq) = ctx.broadcast(0, if ctx.id() == 0 { Some(mine.unwrap_or((false, 0.0))) } else { None })?;
    meter.seq_seconds += seq;
    Ok(ok)
}

/// Several arrays gathered on locale 0 (`Some` there, `None` elsewhere), concatenated in
/// order: the result [`verify`] compares for kernels with several outputs.
pub fn concat_gathered(parts: Vec<Option<Vec<f64>>>) -> Option<Vec<f64>> {
    parts.into_iter().collect::<Option<Vec<_>>>().map(|v| v.concat())
}

/// A kernel, generic over the distribution family.
pub type KernelFn<X> = fn(&Ctx, &X, &Params, &mut Meter) -> Result<Outcome>;

/// The suite, in the paper's order (Figure 11).
pub const KERNELS: [&str; 16] = [
    "2mm",
    "fw",
    "trmm",
    "correlation",
    "covariance",
    "cholesky",
    "lu",
    "mvt",
    "syrk",
    "fdtd-2d",
    "fdtd-apml",
    "jacobi1D",
    "jacobi2D",
    "stencil9",
    "pascal",
    "folding",
];

fn kernel<X: Dists>(name: &str) -> Option<KernelFn<X>> {
    Some(match name {
        "2mm" => linalg::two_mm::<X>,
        "fw" => linalg::fw::<X>,
        "trmm" => linalg::trmm::<X>,
        "correlation" => linalg::correlation::<X>,
        "covariance" => linalg::covariance::<X>,
        "cholesky" => linalg::cholesky::<X>,
        "lu" => linalg::lu::<X>,
        "mvt" => linalg::mvt::<X>,
        "syrk" => linalg::syrk::<X>,
        "fdtd-2d" => stencils::fdtd_2d::<X>,
        "fdtd-apml" => stencils::fdtd_apml::<X>,
        "jacobi1D" => stencils::jacobi_1d::<X>,
        "jacobi2D" => stencils::jacobi_2d::<X>,
        "stencil9" => stencils::stencil9::<X>,
        "pascal" => misc::pascal::<X>,
        "folding" => misc::folding::<X>,
        _ => return None,
    })
}

/// The canonical name of a kernel given on the command line (case-insensitive).
fn canonical(name: &str) -> Result<&'static str> {
    KERNELS.iter().find(|k| k.eq_ignore_ascii_case(name.trim())).copied().ok_or_else(|| {
        Error::InvalidArgument(format!("unknown kernel {name:?}; the kernels are {}", KERNELS.join(",")))
    })
}

/// One measured run.
#[derive(Clone, Debug)]
struct RunResult {
    kernel: &'static str,
    dist: DistName,
    mode: Aggregation,
    meter: Meter,
    outcome: Outcome,
}

/// Runs `kernel` once on every locale with `mode`.
fn run_kernel<X: Dists>(
    ctx: &Ctx,
    x: &X,
    name: &'static str,
    p: &Params,
    mode: Aggregation,
) -> Result<(Meter, Outcome)> {
    let f = kernel::<X>(name).ok_or_else(|| Error::InvalidArgument(format!("unknown kernel {name}")))?;
    set_aggregation(ctx, mode);
    let mut m = Meter::default();
    let out = f(ctx, x, p, &mut m)?;
    Ok((m, out))
}

fn run_dist(
    ctx: &Ctx,
    d: DistName,
    block: usize,
    name: &'static str,
    p: &Params,
    mode: Aggregation,
) -> Result<(Meter, Outcome)> {
    match d {
        DistName::Cyclic => run_kernel(ctx, &CyclicDists, name, p, mode),
        DistName::Blockcyclic => run_kernel(ctx, &BlockCyclicDists { block }, name, p, mode),
        DistName::Block => run_kernel(ctx, &BlockDists, name, p, mode),
    }
}

/// Every mode of `modes` on one kernel and dist, at least `reps` rounds with the modes
/// interleaved in each round (so that drift of a shared machine hits every mode alike): per
/// mode the best time, the last counts, `ok` only if every run was checked correct.
#[allow(clippy::too_many_arguments)]
fn run_modes(
    ctx: &Ctx,
    d: DistName,
    block: usize,
    name: &'static str,
    p: &Params,
    modes: &[Aggregation],
    reps: usize,
) -> Result<Vec<(Aggregation, Meter, Outcome)>> {
    let mut best: Vec<Option<(Meter, Outcome)>> = vec![None; modes.len()];
    // Short kernels get more rounds (while the slowest mode has run less than 0.3 s in all, at
    // most 50 rounds): the best of a few 1 ms runs is noise on a shared machine. Every locale
    // decides alike, from locale 0's times (broadcast).
    let mut round = 0;
    loop {
        let slowest = best.iter().flatten().map(|(m, _)| m.seconds).fold(0.0, f64::max);
        let more = round < reps.max(1) || (round < 50 && slowest * (round as f64) < 0.3);
        if !ctx.broadcast(0, (ctx.id() == 0).then_some(more))? {
            break;
        }
        round += 1;
        for (slot, &mode) in best.iter_mut().zip(modes) {
            let (m, out) = run_dist(ctx, d, block, name, p, mode)?;
            *slot = Some(match slot.take() {
                None => (m, out),
                Some((b, o)) => {
                    let ok = o.ok && out.ok;
                    let mut m2 = m;
                    m2.seconds = m.seconds.min(b.seconds);
                    m2.seq_seconds = m.seq_seconds.min(b.seq_seconds);
                    (m2, Outcome { ok, ..out })
                }
            });
        }
    }
    // The sequential reference ran once per run: its best over every mode and round is the
    // kernel's one-core time, the same for every mode's line.
    let seq = best.iter().flatten().map(|(m, _)| m.seq_seconds).fold(f64::INFINITY, f64::min);
    modes
        .iter()
        .zip(best)
        .map(|(&mode, b)| {
            b.map(|(mut m, o)| {
                m.seq_seconds = seq;
                (mode, m, o)
            })
            .ok_or_else(|| Error::InvalidArgument("no repetition".into()))
        })
        .collect()
}

/// `seq / seconds`: how many times faster than the one-core reference (above 1: faster).
fn speedup(m: &Meter) -> f64 {
    if m.seconds > 0.0 {
        m.seq_seconds / m.seconds
    } else {
        f64::NAN
    }
}

fn parse_modes(modes: &[String]) -> Result<Vec<Aggregation>> {
    modes.iter().map(|m| m.parse::<Aggregation>()).collect()
}

fn kernel_list(args: &PolyArgs, default: &[&'static str]) -> Result<Vec<&'static str>> {
    if args.kernels.is_empty() {
        Ok(default.to_vec())
    } else {
        args.kernels.iter().map(|k| canonical(k)).collect()
    }
}

fn run_line(ctx: &Ctx, r: &RunResult) -> Line {
    Line::new("polybench", r.kernel, ctx.backend_name(), ctx.num_locales(), r.outcome.n, r.meter.seconds, r.outcome.ok)
        .with("kernel", r.kernel)
        .with("dist", r.dist.name())
        .with("mode", r.mode.name())
        .with("messages", r.meter.messages)
        .with("bytes", r.meter.bytes)
        .with("chunk_elems", r.meter.chunk_elems)
        .with("seq_seconds", r.meter.seq_seconds)
        .with("speedup_vs_sequential", speedup(&r.meter))
        .with("size", r.outcome.size.clone())
}

fn print_table_header() {
    println!(
        "{:<12} {:<12} {:<7} {:>11} {:>11} {:>8} {:>12} {:>14} {:>8} {:>5}  size",
        "kernel", "dist", "mode", "seconds", "seq s", "vs seq", "messages", "bytes", "chunk", "ok"
    );
}

fn print_table_row(r: &RunResult, extra: &str) {
    println!(
        "{:<12} {:<12} {:<7} {:>11.4e} {:>11.4e} {:>8.3} {:>12} {:>14} {:>8} {:>5}  {}{extra}",
        r.kernel,
        r.dist.name(),
        r.mode.name(),
        r.meter.seconds,
        r.meter.seq_seconds,
        speedup(&r.meter),
        r.meter.messages,
        r.meter.bytes,
        r.meter.chunk_elems,
        r.outcome.ok,
        r.outcome.size
    );
}

/// `a / b` for counts, with 0/0 = 1.
fn msg_ratio(a: u64, b: u64) -> f64 {
    if a == 0 && b == 0 {
        1.0
    } else {
        a as f64 / (b.max(1)) as f64
    }
}

fn geomean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    (xs.iter().map(|x| x.max(1e-300).ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// The speedups over the one-core reference of one distribution's kernels, in one mode.
#[derive(Clone, Debug, PartialEq)]
struct SpeedupSummary {
    /// The mode: the default (auto) or else the first of static, off that ran.
    mode: &'static str,
    /// Kernels counted.
    kernels: usize,
    /// Their geometric mean.
    geomean: f64,
    /// The smallest, and its kernel.
    worst: f64,
    worst_kernel: &'static str,
}

fn speedup_summary(results: &[RunResult], d: DistName) -> Option<SpeedupSummary> {
    let of = |m: &str| results.iter().filter(|r| r.dist == d && r.mode.name() == m).collect::<Vec<_>>();
    let (mode, runs) = ["auto", "static", "off"].into_iter().map(|m| (m, of(m))).find(|(_, rs)| !rs.is_empty())?;
    let sp: Vec<f64> = runs.iter().map(|r| speedup(&r.meter)).collect();
    let (worst, worst_kernel) =
        runs.iter()
            .map(|r| (speedup(&r.meter), r.kernel))
            .fold((f64::INFINITY, ""), |a, b| if b.0 < a.0 { b } else { a });
    Some(SpeedupSummary { mode, kernels: runs.len(), geomean: geomean(&sp), worst, worst_kernel })
}

/// The geometric-mean lines, one per distribution (auto over off; static over off as extras).
fn geomean_lines(ctx: &Ctx, results: &[RunResult]) -> Vec<Line> {
    let mut by: BTreeMap<(DistName, &'static str), BTreeMap<&'static str, &RunResult>> = BTreeMap::new();
    for r in results {
        by.entry((r.dist, r.kernel)).or_default().insert(r.mode.name(), r);
    }
    let dists: Vec<DistName> = by.keys().map(|k| k.0).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let mut out = Vec::new();
    for d in dists {
        let (mut am, mut at, mut sm, mut st) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut worst, mut worst_k) = (f64::NEG_INFINITY, "");
        let mut all_ok = true;
        let speed = speedup_summary(results, d);
        for ((_, k), modes) in by.iter().filter(|((dd, _), _)| *dd == d) {
            all_ok &= modes.values().all(|r| r.outcome.ok);
            let Some(off) = modes.get("off") else { continue };
            if let Some(a) = modes.get("auto") {
                am.push(msg_ratio(a.meter.messages, off.meter.messages));
                let tr = a.meter.seconds / off.meter.seconds;
                at.push(tr);
                if tr > worst {
                    (worst, worst_k) = (tr, k);
                }
            }
            if let Some(s) = modes.get("static") {
                sm.push(msg_ratio(s.meter.messages, off.meter.messages));
                st.push(s.meter.seconds / off.meter.seconds);
            }
        }
        let kernels = am.len().max(sm.len()).max(speed.as_ref().map_or(0, |s| s.kernels));
        if kernels == 0 {
            continue;
        }
        let mut l = Line::bare("polybench")
            .with("variant", "geomean")
            .with("dist", d.name())
            .with("backend", ctx.backend_name())
            .with("locales", ctx.num_locales())
            .with("kernels", kernels)
            .with("ok", all_ok);
        if !am.is_empty() {
            l = l
                .with("msg_ratio", geomean(&am))
                .with("time_ratio", geomean(&at))
                .with("worst_time_ratio", worst)
                .with("worst_kernel", worst_k);
        }
        if !sm.is_empty() {
            l = l.with("static_msg_ratio", geomean(&sm)).with("static_time_ratio", geomean(&st));
        }
        if let Some(s) = speed {
            l = l
                .with("speedup_mode", s.mode)
                .with("geomean_speedup_vs_sequential", s.geomean)
                .with("worst_speedup_vs_sequential", s.worst)
                .with("worst_speedup_kernel", s.worst_kernel);
        }
        out.push(l);
    }
    out
}

/// The network model of a run across hosts: plain MPI between the hosts, and each run's
/// one-host seconds by (kernel, dist, mode) (`netmodel`).
pub struct Model {
    link: crate::netmodel::Link,
    one_host: Vec<SuiteTime>,
}

/// One measurement of the suite: (kernel, dist, mode) and its best seconds.
type SuiteTime = ((&'static str, DistName, Aggregation), f64);

/// The suite's best seconds by (kernel, dist, mode), printing nothing. **Collective.**
fn suite_seconds(ctx: &Ctx, args: &PolyArgs) -> Result<Vec<SuiteTime>> {
    let kernels = kernel_list(args, &KERNELS)?;
    let modes = parse_modes(&args.modes)?;
    let p = Params::uniform(args.scale, args.steps);
    let mut out = Vec::new();
    for &d in &args.dists {
        for &k in &kernels {
            for (mode, meter, _) in run_modes(ctx, d, args.block, k, &p, &modes, args.reps)? {
                out.push(((k, d, mode), meter.seconds));
            }
        }
    }
    Ok(out)
}

/// The model's fields of one run (`traffic`: every locale's), and its ratio.
fn model_fields(
    m: &Model,
    r: &RunResult,
    traffic: &[crate::netmodel::Traffic],
) -> Option<(Vec<(&'static str, serde_json::Value)>, f64)> {
    let &(_, one) = m.one_host.iter().find(|(key, _)| *key == (r.kernel, r.dist, r.mode))?;
    let f = crate::netmodel::fields(&m.link, traffic, one, r.meter.seconds);
    let ratio = f.iter().find(|(k, _)| *k == "model_ratio").and_then(|(_, v)| v.as_f64())?;
    Some((f, ratio))
}

/// The suite on this job's locales (collective; locale 0 prints), with `model` the network
/// model's fields on every run line and its ratios in the geometric-mean lines.
fn suite(ctx: &Ctx, args: &PolyArgs, json: bool, model: Option<&Model>) -> Result<()> {
    let kernels = kernel_list(args, &KERNELS)?;
    let modes = parse_modes(&args.modes)?;
    let p = Params::uniform(args.scale, args.steps);
    let mut results = Vec::new();
    if ctx.id() == 0 && !json {
        println!(
            "polybench: {} locales ({} backend), scale {}, block {}",
            ctx.num_locales(),
            ctx.backend_name(),
            args.scale,
            args.block
        );
        print_table_header();
    }
    let progress = Progress::new((args.dists.len() * kernels.len()) as u64, "polybench", ctx.id() == 0);
    let mut model_ratios: Vec<(DistName, Aggregation, &'static str, f64)> = Vec::new();
    for &d in &args.dists {
        for &k in &kernels {
            progress.working_on(&format!("{k} ({})", d.name()));
            let runs = run_modes(ctx, d, args.block, k, &p, &modes, args.reps)?;
            progress.step();
            let traffic: Vec<Vec<crate::netmodel::Traffic>> =
                ctx.allgather(&runs.iter().map(|r| r.1.traffic).collect::<Vec<_>>())?;
            for (i, (mode, meter, outcome)) in runs.into_iter().enumerate() {
                let r = RunResult { kernel: k, dist: d, mode, meter, outcome };
                let per_locale: Vec<crate::netmodel::Traffic> = traffic.iter().map(|t| t[i]).collect();
                let modeled = model.and_then(|m| model_fields(m, &r, &per_locale));
                if ctx.id() == 0 {
                    progress.suspend(|| {
                        if json {
                            let mut l = run_line(ctx, &r);
                            for (f, v) in modeled.iter().flat_map(|(f, _)| f.iter().cloned()) {
                                l = l.with(f, v);
                            }
                            l.print(true)
                        } else {
                            let extra =
                                modeled.as_ref().map_or(String::new(), |(_, x)| format!("  model_ratio={x:.3}"));
                            print_table_row(&r, &extra)
                        }
                    });
                }
                if let Some((_, x)) = modeled {
                    model_ratios.push((d, r.mode, r.kernel, x));
                }
                results.push(r);
            }
        }
    }
    progress.finish();
    if ctx.id() == 0 {
        for l in geomean_lines(ctx, &results) {
            l.print(json);
        }
        // The network model's ratios, per distribution and mode: geometric mean and worst.
        let mut keys: Vec<(DistName, Aggregation)> = Vec::new();
        for x in &model_ratios {
            if !keys.contains(&(x.0, x.1)) {
                keys.push((x.0, x.1));
            }
        }
        for (d, mode) in keys {
            let of: Vec<&(DistName, Aggregation, &str, f64)> =
                model_ratios.iter().filter(|x| x.0 == d && x.1 == mode).collect();
            let xs: Vec<f64> = of.iter().map(|x| x.3).collect();
            let worst = of.iter().fold((f64::NEG_INFINITY, ""), |a, x| if x.3 > a.0 { (x.3, x.2) } else { a });
            Line::bare("polybench")
                .with("variant", "model_geomean")
                .with("dist", d.name())
                .with("mode", mode.name())
                .with("backend", ctx.backend_name())
                .with("locales", ctx.num_locales())
                .with("kernels", xs.len())
                .with("geomean_model_ratio", geomean(&xs))
                .with("worst_model_ratio", worst.0)
                .with("worst_model_kernel", worst.1)
                .print(json);
        }
    }
    Ok(())
}

/// One point of a sweep: every kernel, dist and mode at these sizes (collective; locale 0
/// prints the run lines and a summary per kernel and dist).
/// What one sweep point runs.
struct Point<'a> {
    sweep: Sweep,
    kernels: &'a [&'static str],
    dists: &'a [DistName],
    block: usize,
    params: Params,
}

fn sweep_point(ctx: &Ctx, args: &PolyArgs, json: bool, pt: &Point<'_>) -> Result<()> {
    let (sweep, kernels, dists, block, p) = (pt.sweep, pt.kernels, pt.dists, pt.block, &pt.params);
    let modes = parse_modes(&args.modes)?;
    let name = match sweep {
        Sweep::Strong => "strong",
        Sweep::Weak => "weak",
        Sweep::Block => "block",
    };
    let label = format!("polybench {name} sweep, {} locales, block {block}", ctx.num_locales());
    let progress = Progress::new((dists.len() * kernels.len()) as u64, &label, ctx.id() == 0);
    for &d in dists {
        for &k in kernels {
            let mut rs = Vec::new();
            progress.working_on(&format!("{k} ({})", d.name()));
            let runs = run_modes(ctx, d, block, k, p, &modes, args.reps)?;
            progress.step();
            for (mode, meter, outcome) in runs {
                let r = RunResult { kernel: k, dist: d, mode, meter, outcome };
                if ctx.id() == 0 {
                    progress.suspend(|| {
                        if json {
                            run_line(ctx, &r).with("sweep", name).with("block", block).print(true);
                        } else {
                            print_table_row(&r, &format!("  sweep={name} locales={} block={block}", ctx.num_locales()));
                        }
                    });
                }
                rs.push(r);
            }
            if ctx.id() == 0 {
                let get = |m: &str| rs.iter().find(|r| r.mode.name() == m);
                if let Some(off) = get("off") {
                    let mut l = Line::bare("polybench")
                        .with("variant", "sweep_point")
                        .with("sweep", name)
                        .with("kernel", k)
                        .with("dist", d.name())
                        .with("backend", ctx.backend_name())
                        .with("locales", ctx.num_locales())
                        .with("block", block)
                        .with("n", off.outcome.n)
                        .with("size", off.outcome.size.clone())
                        .with("seq_seconds", off.meter.seq_seconds)
                        .with("off_speedup_vs_sequential", speedup(&off.meter))
                        .with("ok", rs.iter().all(|r| r.outcome.ok));
                    for m in ["static", "auto"] {
                        if let Some(r) = get(m) {
                            l = l
                                .with(&format!("{m}_msg_ratio"), msg_ratio(r.meter.messages, off.meter.messages))
                                .with(&format!("{m}_time_ratio"), r.meter.seconds / off.meter.seconds)
                                .with(&format!("{m}_chunk_elems"), r.meter.chunk_elems)
                                .with(&format!("{m}_speedup_vs_sequential"), speedup(&r.meter));
                        }
                    }
                    progress.suspend(|| l.print(json));
                }
            }
        }
    }
    progress.finish();
    Ok(())
}

/// The strong and weak sweeps' kernels (the paper's Figures 14-21).
const SCALING_KERNELS: [&str; 4] = ["pascal", "folding", "jacobi2D", "fdtd-2d"];
/// The block sweep's kernels (Figures 22-23).
const BLOCK_KERNELS: [&str; 2] = ["folding", "jacobi1D"];

/// Runs the benchmark (or a sweep) with `cfg`; `locales` is `--locales`, `local` whether the
/// backend is the embedded one (which can start jobs of any size).
///
/// # Errors
/// Bad options; a kernel's or the runtime's errors.
pub fn polybench(cfg: &Config, args: &PolyArgs, json: bool, locales: Option<usize>, local: bool) -> Result<()> {
    if !(args.scale > 0.0 && args.scale.is_finite()) {
        return Err(Error::InvalidArgument(format!("--scale must be positive, got {}", args.scale)));
    }
    if args.block == 0 || args.blocks.contains(&0) {
        return Err(Error::InvalidArgument("block sizes must be at least 1".into()));
    }
    parse_modes(&args.modes)?;
    let check = |ctx: &Ctx| -> Result<()> {
        match locales {
            Some(n) if n != ctx.num_locales() => Err(Error::InvalidArgument(format!(
                "--locales {n} but the job has {} locales (under MPI the rank count decides)",
                ctx.num_locales()
            ))),
            _ => Ok(()),
        }
    };
    let Some(sweep) = args.sweep else {
        if local && locales == Some(0) {
            return Err(Error::InvalidArgument("--locales must be at least 1".into()));
        }
        // Ranks on several hosts: the network model (plain MPI between the hosts, then the
        // suite on one host), before the job.
        let model = if local {
            None
        } else {
            match crate::netmodel::measure()? {
                Some(mut link) => {
                    let one = crate::netmodel::on_one_host(cfg, &mut link, |ctx| suite_seconds(ctx, args))?;
                    Some(Model { link, one_host: one.unwrap_or_default() })
                }
                None => None,
            }
        };
        return run(cfg.clone(), |ctx| {
            check(ctx)?;
            suite(ctx, args, json, model.as_ref())
        });
    };
    if ctx_free_header(json) {
        println!("polybench sweep {sweep:?}, scale {}", args.scale);
        print_table_header();
    }
    match sweep {
        Sweep::Strong | Sweep::Weak => {
            let kernels = kernel_list(args, &SCALING_KERNELS)?;
            let counts: Vec<usize> = if local { args.sweep_locales.clone() } else { vec![0] };
            for l in counts {
                let mut c = cfg.clone();
                if local {
                    if l == 0 {
                        return Err(Error::InvalidArgument("--sweep-locales must be at least 1".into()));
                    }
                    c.locales = l;
                }
                run(c, |ctx| {
                    let f = ctx.num_locales() as f64 / 2.0;
                    let p = match sweep {
                        // Weak: the work (elements) grows with the locale count, from the
                        // paper's size at 2 locales.
                        Sweep::Weak => Params {
                            scale1: args.scale * f,
                            scale2: args.scale * f.sqrt(),
                            scale3: args.scale * f.cbrt(),
                            steps: args.steps,
                        },
                        _ => Params::uniform(args.scale, args.steps),
                    };
                    sweep_point(
                        ctx,
                        args,
                        json,
                        &Point { sweep, kernels: &kernels, dists: &args.dists, block: args.block, params: p },
                    )
                })?;
            }
            Ok(())
        }
        Sweep::Block => {
            let kernels = kernel_list(args, &BLOCK_KERNELS)?;
            run(cfg.clone(), |ctx| {
                check(ctx)?;
                let p = Params::uniform(args.scale, args.steps);
                for &b in &args.blocks {
                    let pt = Point {
                        sweep: Sweep::Block,
                        kernels: &kernels,
                        dists: &[DistName::Blockcyclic],
                        block: b,
                        params: p,
                    };
                    sweep_point(ctx, args, json, &pt)?;
                }
                Ok(())
            })
        }
    }
}

/// Whether to print the readable header of a sweep: without `--json`, on one process only
/// (under MPI, rank 0).
fn ctx_free_header(json: bool) -> bool {
    !json && std::env::var("PMI_RANK").map_or(true, |r| r == "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(kernel: &'static str, mode: Aggregation, seconds: f64, seq_seconds: f64, messages: u64) -> RunResult {
        RunResult {
            kernel,
            dist: DistName::Cyclic,
            mode,
            meter: Meter { seconds, messages, seq_seconds, ..Meter::default() },
            outcome: Outcome { ok: true, n: 1, size: "1".into() },
        }
    }

    #[test]
    fn verify_rejects_wrong_results_and_shares_the_reference_time() {
        run(Config::local(2), |ctx| {
            let mut m = Meter::default();
            let got = |v: Vec<f64>| (ctx.id() == 0).then_some(v);
            let reference = |n: usize| (1..=n).map(|x| x as f64).collect::<Vec<f64>>();
            assert!(verify(ctx, &mut m, got(vec![1.0, 2.0]), || 2, reference, 0.0)?);
            assert!(!verify(ctx, &mut m, got(vec![1.0, 2.5]), || 2, reference, 1e-9)?, "a wrong value");
            assert!(!verify(ctx, &mut m, got(vec![1.0]), || 2, reference, 1e-9)?, "a wrong length");
            // Within the tolerance.
            assert!(verify(ctx, &mut m, got(vec![1.0, 2.0 + 1e-12]), || 2, reference, 1e-9)?);
            assert!(m.seq_seconds.is_finite() && m.seq_seconds >= 0.0);
            let all = ctx.allgather(&m.seq_seconds)?;
            assert!(all.iter().all(|&s| s == all[0]), "every locale has locale 0's time: {all:?}");
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn speedups_are_summarized_in_the_default_mode() {
        let (off, auto) = (Aggregation::Off, Aggregation::Auto);
        let mut rs = vec![result("2mm", off, 4.0, 2.0, 100), result("lu", off, 8.0, 1.0, 100)];
        let s = speedup_summary(&rs, DistName::Cyclic).unwrap();
        assert_eq!((s.mode, s.kernels, s.worst, s.worst_kernel), ("off", 2, 0.125, "lu"), "off alone: {s:?}");
        rs.push(result("2mm", auto, 1.0, 2.0, 10));
        rs.push(result("lu", auto, 4.0, 1.0, 1));
        let s = speedup_summary(&rs, DistName::Cyclic).unwrap();
        // auto: 2.0 (2mm) and 0.25 (lu).
        assert_eq!((s.mode, s.kernels, s.worst, s.worst_kernel), ("auto", 2, 0.25, "lu"));
        assert!((s.geomean - 0.5f64.sqrt()).abs() < 1e-12, "{s:?}");
        assert_eq!(speedup_summary(&rs, DistName::Blockcyclic), None);
    }
}
