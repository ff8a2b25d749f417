//! `atoll-bench ft`: the NAS Parallel Benchmarks' FT (a 3-D FFT PDE solver) written over
//! Atoll's arrays, verified by NPB's published checksums.
//!
//! NPB FT: a complex field on an `nx x ny x nz` grid drawn from NPB's generator
//! ([`random`]), its forward 3-D FFT, then at each of `niter` steps the transformed field
//! times the evolution factors, the inverse 3-D FFT and a checksum of 1024 of its elements
//! (all timed, as NPB does). Here the field lives in two Block distributions of one
//! `DistArray` shape: whole z-planes per locale (the 2-D transforms are local), and whole
//! z-pencils per locale (the transforms down z are local); a transpose moves the field between
//! them, in two versions over the same kernel ([`transpose`]): `global_view`, an array
//! assignment between the two arrays, and `explicit`, packed blocks put to their
//! destinations. A one-core run of the same algorithm ([`one_core`]) is the baseline; NPB's own
//! MPI FT is measured beside it by `tools/npb/ft_side_by_side.py` and passed in with
//! `--npb-mops`. With ranks on several hosts, each version's line carries the network model
//! (`netmodel.rs`: plain MPI between the hosts and the same versions on one host, measured
//! before the job).

mod class;
mod fft;
mod job;
mod kernel;
mod one_core;
mod random;
mod report;
mod transpose;

use crate::netmodel;
use atoll::prelude::*;
use class::Class;

/// Options of `atoll-bench ft`.
#[derive(clap::Args)]
pub struct FtArgs {
    #[command(flatten)]
    pub(crate) common: crate::Common,
    /// NPB class: S, W, A or B.
    #[arg(long, default_value = "S")]
    class: String,
    /// Transpose versions (comma-separated: explicit, global_view).
    #[arg(long, value_delimiter = ',', default_values_t = ["explicit".to_string(), "global_view".to_string()])]
    variants: Vec<String>,
    /// Timed runs of each version and of the one-core baseline (the best is reported).
    #[arg(long, default_value_t = 1)]
    reps: usize,
    /// Leaves out the one-core baseline.
    #[arg(long)]
    no_one_core: bool,
    /// NPB's MPI FT on as many ranks, in Mop/s (from tools/npb/ft_side_by_side.py).
    #[arg(long)]
    npb_mops: Option<f64>,
    /// NPB's MPI FT's time in seconds (with --npb-mops).
    #[arg(long)]
    npb_seconds: Option<f64>,
    /// Why NPB's MPI FT is not given (reported instead of its speedup).
    #[arg(long)]
    npb_note: Option<String>,
}

/// One transpose version's runs.
struct Version {
    explicit: bool,
    best: job::JobOut,
    all: Vec<f64>,
    all_ok: bool,
}

/// Each transpose version of `explicit_first` (explicit or global view), `reps` runs each,
/// every run verified. **Collective.**
fn versions(ctx: &Ctx, class: &Class, explicit_first: &[bool], reps: usize) -> Result<Vec<Version>> {
    let mut arrays = job::Arrays::new(ctx, class)?;
    let mut out = Vec::new();
    for &explicit in explicit_first {
        let s = transpose::Slabs { nx: class.nx, ny: class.ny, nz: class.nz, p: ctx.num_locales() };
        let mut tr = transpose::Transpose::new(ctx, explicit, s)?;
        let mut all = Vec::new();
        let mut all_ok = true;
        let mut best: Option<job::JobOut> = None;
        for _ in 0..reps.max(1) {
            let out = job::run_once(ctx, class, &mut arrays, &mut tr)?;
            all.push(out.seconds);
            all_ok &= class.verify(&out.sums); // every run must verify
            if best.as_ref().is_none_or(|b| out.seconds < b.seconds) {
                best = Some(out);
            }
        }
        tr.free()?;
        let best = best.ok_or_else(|| Error::InvalidArgument("ft: no run".into()))?;
        out.push(Version { explicit, best, all, all_ok });
    }
    arrays.free()?;
    Ok(out)
}

/// Runs FT; locale 0 prints the lines.
pub fn ft(args: &FtArgs) -> Result<()> {
    let class = Class::parse(&args.class)?;
    let explicit_first: Vec<bool> = args
        .variants
        .iter()
        .map(|v| match v.as_str() {
            "explicit" => Ok(true),
            "global_view" => Ok(false),
            o => Err(Error::InvalidArgument(format!("ft: unknown variant {o:?} (explicit, global_view)"))),
        })
        .collect::<Result<_>>()?;
    let npb = match (args.npb_mops, args.npb_seconds) {
        (Some(mops), s) => Some(report::Npb { mops, seconds: s.unwrap_or(0.0) }),
        (None, _) => None,
    };
    let cfg = crate::config(&args.common)?;
    // Ranks on several hosts: the network model (plain MPI between the hosts, then the same
    // versions on one host), before the job.
    let model = match args.common.backend {
        crate::Backend::Mpi => match netmodel::measure()? {
            Some(mut link) => {
                let one = netmodel::on_one_host(&cfg, &mut link, |ctx| {
                    Ok(versions(ctx, &class, &explicit_first, args.reps)?
                        .iter()
                        .map(|v| v.best.seconds)
                        .collect::<Vec<f64>>())
                })?;
                Some((link, one.unwrap_or_default()))
            }
            None => None,
        },
        crate::Backend::Local => None,
    };
    run(cfg, |ctx| {
        crate::check_locales(ctx, &args.common)?;
        let me = ctx.id();
        let one = if args.no_one_core {
            None
        } else {
            // Locale 0 alone; the others wait (seconds for class A, by design).
            let r = if me == 0 { Some(one_core::one_core(&class, args.reps)) } else { None };
            atoll::runtime::quiet_waits(|| ctx.barrier())?;
            Some(r)
        };
        let rr = report::Run {
            class: &class,
            backend: ctx.backend_name(),
            locales: ctx.num_locales(),
            threads: ctx.here().cores().len(),
            one_core: one.as_ref().and_then(|o| o.as_ref().map(|(s, _)| *s)),
            npb,
            npb_note: if npb.is_none() { args.npb_note.clone() } else { None },
        };
        if let Some(Some((s, sums))) = &one {
            report::one_core_line(&rr, *s, sums).print(args.common.json);
        }
        let runs = versions(ctx, &class, &explicit_first, args.reps)?;
        // Every locale's traffic of each version's best run, for the model (rank 0 prints).
        let traffic: Vec<Vec<netmodel::Traffic>> =
            ctx.allgather(&runs.iter().map(|v| v.best.traffic).collect::<Vec<_>>())?;
        if me == 0 {
            for (k, v) in runs.iter().enumerate() {
                let name = if v.explicit { "explicit" } else { "global_view" };
                let ok = v.all_ok && class.verify(&v.best.sums);
                let mut line =
                    report::variant_line(&rr, name, v.best.seconds, &v.all, ok, &v.best.sums, &v.best.counts);
                let per_locale: Vec<netmodel::Traffic> = traffic.iter().map(|t| t[k]).collect();
                for (f, x) in netmodel::per_locale_fields(&per_locale) {
                    line = line.with(f, x);
                }
                if let Some((link, one)) = &model {
                    if let Some(&o) = one.get(k) {
                        for (f, x) in netmodel::fields(link, &per_locale, o, v.best.seconds) {
                            line = line.with(f, x);
                        }
                    }
                }
                line.print(args.common.json);
            }
        }
        Ok(())
    })
}
