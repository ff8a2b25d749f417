//! `atoll-bench`: Atoll's benchmarks. Each prints, with `--json`, one JSON object per line on
//! locale 0 (DESIGN.md section 5). See docs/BENCHMARKS.md for the commands and results.

mod arkouda;
mod arkouda_sort;
mod baseline;
mod comm;
mod ft;
mod graph;
mod graph_seq;
mod graph_shared;
mod hugevec;
mod isx;
mod memtrack;
mod netmodel;
mod overhead;
mod polybench;
mod progress;
mod report;
mod share;
mod slices;
mod stencil;
mod stream;
mod stream_sub;
mod strings;

use atoll::prelude::*;
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "atoll-bench", about = "Atoll benchmarks")]
struct Cli {
    #[command(subcommand)]
    bench: Bench,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Backend {
    Local,
    Mpi,
}

#[derive(clap::Args)]
/// The options every benchmark takes.
pub struct Common {
    /// Communication backend (`mpi` must run under mpiexec).
    #[arg(long, value_enum, default_value = "local")]
    backend: Backend,
    /// Number of locales (local backend; for mpi it must match the rank count if given).
    #[arg(long)]
    locales: Option<usize>,
    /// Print one JSON object per line.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum Bench {
    /// Communication latency and bandwidth (get8, get64m, strided_get, am_rtt, barrier, reg_cache).
    Comm {
        #[command(flatten)]
        common: Common,
        /// Iterations of the latency loops (over all rounds).
        #[arg(long, default_value_t = 100_000)]
        iters: usize,
        /// mpi: alternating phases of plain MPI (no Atoll job running) and of an Atoll job.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
    /// STREAM triad on Block arrays against a plain multi-threaded loop (the bandwidth limit).
    Stream {
        #[command(flatten)]
        common: Common,
        /// Elements per array (3 arrays of f64).
        #[arg(long, default_value_t = 1 << 26)]
        n: usize,
        /// Repetitions (the best time is reported).
        #[arg(long, default_value_t = 10)]
        reps: usize,
        /// Also the triad on arrays whose pieces target sublocales, beside the locale-level one.
        #[arg(long)]
        sublocales: bool,
    },
    /// The cost of views: creation (ns, messages) and expressions over views vs whole arrays.
    Slices {
        #[command(flatten)]
        common: Common,
        /// Elements per array of the expression test.
        #[arg(long, default_value_t = 1 << 24)]
        n: usize,
        /// Views created.
        #[arg(long, default_value_t = 1_000_000)]
        slices: usize,
        /// Repetitions of the expression test (the best time is reported).
        #[arg(long, default_value_t = 10)]
        reps: usize,
    },
    /// The paper's 16-kernel suite (PolyBench and others) with aggregation off/static/auto, and its scaling sweeps.
    Polybench {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        args: polybench::PolyArgs,
    },
    /// Arkouda's kernels (stream, copy, gather, scatter, reduce, scan) on Block arrays vs one core; scatter with and without aggregation.
    Arkouda {
        #[command(flatten)]
        common: Common,
        /// Elements per array.
        #[arg(long, default_value_t = 1 << 27)]
        n: usize,
        /// Repetitions (the best time is reported).
        #[arg(long, default_value_t = 3)]
        reps: usize,
        /// The element-wise scatter baseline flushes after this many non-blocking puts (0: once, at the end; on
        /// MPICH one flush after 2^15 puts was 15x slower than one every 64, see BENCHMARKS).
        #[arg(long, default_value_t = 64)]
        flush_every: usize,
        /// Only these kernels (comma-separated: stream, copy, gather, scatter, reduce, scan, argsort); default all.
        #[arg(long, value_delimiter = ',')]
        kernels: Vec<String>,
    },
    /// Arkouda's argsort alone (the `argsort` line of `arkouda`): atoll_ops::argsort vs the best single-core radix argsort.
    Argsort {
        #[command(flatten)]
        common: Common,
        /// Keys (i64, random in 0..2^32).
        #[arg(long, default_value_t = 1 << 27)]
        n: usize,
        /// Repetitions (the best time is reported).
        #[arg(long, default_value_t = 3)]
        reps: usize,
    },
    /// Per-operation overhead (barrier, allreduce, small zip/sum/assign, `on`) against the same fork/join shape with rayon.
    Overhead {
        #[command(flatten)]
        common: Common,
        /// Operations per sample.
        #[arg(long, default_value_t = 2000)]
        iters: usize,
        /// Samples (the best and the median are reported).
        #[arg(long, default_value_t = 30)]
        samples: usize,
    },
    /// Distributed strings: contains_regex, argsort, groupby_count, hash, split vs the best single-core loop.
    Strings {
        #[command(flatten)]
        common: Common,
        /// Strings (random, length 1-32).
        #[arg(long, default_value_t = 1 << 24)]
        n: usize,
        /// Repetitions (the best time is reported).
        #[arg(long, default_value_t = 3)]
        reps: usize,
    },
    /// 1-D Jacobi (three shifted views) on Cyclic and Block arrays per sweep, beside the sequential loop (`cyclic_vs_block`).
    Stencil {
        #[command(flatten)]
        common: Common,
        /// Problem sizes (comma-separated).
        #[arg(long, value_delimiter = ',', default_values_t = [100_000usize, 10_000_000])]
        n: Vec<usize>,
        /// Sweeps per repetition (0: about 2*10^8 point updates).
        #[arg(long, default_value_t = 0)]
        steps: usize,
        /// Repetitions (the best is reported).
        #[arg(long, default_value_t = 3)]
        reps: usize,
    },
    /// ISx: integer sort by bucket exchange, weak scaling (keys per locale fixed).
    Isx(isx::IsxArgs),
    /// NPB FT: a distributed 3-D FFT (global-view and explicit transposes) verified by NPB's checksums.
    Ft(ft::FtArgs),
    /// Graph analytics: label propagation, hitting times, components.
    Graph(graph::GraphArgs),
    /// Hitting times by a separate C++ process on an edge list in shared arrays (hitting_shared_cpp).
    GraphShared(graph_shared::GraphSharedArgs),
    /// The cost of memory tracking (off/count/full/threshold vs untracked), small strings and 64 MiB blocks.
    Memtrack(memtrack::MemtrackArgs),
    /// Shared arrays (atoll-share): attach vs file and private, triad over shared vs private, signal vs pipe round trip.
    Share(share::ShareArgs),
    /// The child processes of `share` (started by it).
    #[command(hide = true)]
    ShareChild(share::ChildArgs),
}

fn config(c: &Common) -> Result<Config> {
    let mut cfg = Config::from_env()?;
    match c.backend {
        Backend::Local => {
            cfg.backend = BackendKind::Local;
            cfg.locales = c.locales.unwrap_or(cfg.locales);
        }
        Backend::Mpi => cfg.backend = BackendKind::Mpi,
    }
    // Benchmarks measure the runtime as shipped: no debug-only checks.
    cfg.check_collectives = false;
    Ok(cfg)
}

fn check_locales(ctx: &Ctx, c: &Common) -> Result<()> {
    match c.locales {
        Some(n) if n != ctx.num_locales() => Err(Error::InvalidArgument(format!(
            "--locales {n} but the job has {} locales (under MPI the rank count decides)",
            ctx.num_locales()
        ))),
        _ => Ok(()),
    }
}

fn main() {
    let cli = Cli::parse();
    let r = match &cli.bench {
        Bench::Memtrack(args) => memtrack::memtrack(args),
        Bench::Stream { common, n, reps, sublocales } => config(common).and_then(|cfg| {
            if common.backend == Backend::Local {
                if let Some(l) = common.locales {
                    if l == 0 {
                        return Err(Error::InvalidArgument("--locales must be at least 1".into()));
                    }
                }
            }
            stream::stream(&cfg, &stream::StreamOpts { json: common.json, n: *n, reps: *reps })?;
            if *sublocales {
                // The sublocale-target triad beside the locale-level one (`stream_sub.rs`).
                stream_sub::sublocale_triads(&cfg, *n, (*reps).max(1), common.json)?;
            }
            Ok(())
        }),
        Bench::Polybench { common, args } => config(common).and_then(|cfg| {
            polybench::polybench(&cfg, args, common.json, common.locales, common.backend == Backend::Local)
        }),
        Bench::Slices { common, n, slices, reps } => config(common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                slices::slices(ctx, &slices::SlicesOpts { json: common.json, n: *n, slices: *slices, reps: *reps })
            })
        }),
        Bench::Arkouda { common, n, reps, flush_every, kernels } => config(common).and_then(|cfg| {
            let o = arkouda::ArkoudaOpts {
                json: common.json,
                n: *n,
                reps: *reps,
                flush_every: *flush_every,
                kernels: kernels.clone(),
            };
            // Ranks on several hosts: the network model (plain MPI between the hosts, then the
            // kernels on one host), before the job; under MPI, the plain MPI gather and
            // scatter too.
            let (model, plain) = match common.backend {
                Backend::Mpi => {
                    let model = match netmodel::measure()? {
                        Some(mut link) => {
                            let one = netmodel::on_one_host(&cfg, &mut link, |ctx| arkouda::seconds(ctx, &o))?;
                            Some(arkouda::Model { link, one_host: one.unwrap_or_default() })
                        }
                        None => None,
                    };
                    let hosts = model.as_ref().map(|m| m.link.hosts.as_slice());
                    let plain = arkouda::plain_mpi(&o, hosts)?;
                    (model, plain)
                }
                Backend::Local => (None, Vec::new()),
            };
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                arkouda::arkouda(ctx, &o, model.as_ref(), &plain)
            })
        }),
        Bench::Argsort { common, n, reps } => config(common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                arkouda_sort::argsort_line(ctx, *n, *reps, common.json)
            })
        }),
        Bench::Overhead { common, iters, samples } => config(common).and_then(|cfg| {
            // The rayon reference: one thread per locale, built before the job so that its
            // threads are not pinned to locale 0's cores. Under MPI the rank count comes from
            // the launcher's PMI_SIZE.
            let size = match common.backend {
                Backend::Local => cfg.locales,
                Backend::Mpi => {
                    std::env::var("PMI_SIZE").ok().and_then(|s| s.parse().ok()).or(common.locales).unwrap_or(1)
                }
            };
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(size.max(1))
                .build()
                .map_err(|e| Error::InvalidArgument(format!("the rayon reference pool: {e}")))?;
            let opts = overhead::OverheadOpts { json: common.json, iters: (*iters).max(1), samples: (*samples).max(1) };
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                overhead::overhead(ctx, &pool, &opts)
            })
        }),
        Bench::Strings { common, n, reps } => config(common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                strings::strings(ctx, &strings::StringsOpts { json: common.json, n: *n, reps: *reps })
            })
        }),
        Bench::Stencil { common, n, steps, reps } => config(common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, common)?;
                stencil::stencil(
                    ctx,
                    &stencil::StencilOpts { json: common.json, sizes: n.clone(), steps: *steps, reps: *reps },
                )
            })
        }),
        Bench::Isx(args) => isx::isx(args),
        Bench::Ft(args) => ft::ft(args),
        Bench::Share(args) => share::share(args),
        Bench::ShareChild(args) => share::child(args),
        Bench::Graph(args) => config(&args.common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, &args.common)?;
                graph::graph(ctx, args)
            })
        }),
        Bench::GraphShared(args) => config(&args.common).and_then(|cfg| {
            run(cfg, |ctx| {
                check_locales(ctx, &args.common)?;
                graph_shared::graph_shared(ctx, args)
            })
        }),
        Bench::Comm { common, iters, rounds } => config(common).and_then(|cfg| {
            comm::comm(
                &cfg,
                &comm::CommOpts { json: common.json, iters: *iters, rounds: *rounds, locales: common.locales },
            )
        }),
    };
    if let Err(e) = r {
        eprintln!("atoll-bench: {e}");
        std::process::exit(1);
    }
}
