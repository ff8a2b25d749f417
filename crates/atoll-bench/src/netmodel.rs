//! The network model of a benchmark whose MPI ranks span several hosts: what a line would take
//! if Atoll did its one-host work and then moved exactly its counted cross-host traffic at
//! plain MPI's speed between the same ranks, measured in the same run:
//!
//! `model = one_host_seconds + max over hosts (bytes_across / B + messages_across x L)
//!          + collectives x C`
//!
//! - `one_host_seconds`: the same kernel on one host with as many locales (the local backend
//!   in rank 0's process, while the other ranks wait; the same job's binary and settings);
//! - `bytes_across`, `messages_across`: the operations of one repetition with locales on
//!   other hosts and their bytes (`Ctx::comm_counts_across_hosts`), summed over each host's
//!   ranks (the host's link carries them all);
//! - `B`: plain MPI's bandwidth between rank 0 and the first rank on another host (a 16 MiB
//!   `MPI_Get`, best of 3), `L`: its latency (an 8-byte `MPI_Get` with its flush, a round
//!   trip, the median of 400); both outside any Atoll job, before it;
//! - `collectives x C`: the collectives of one repetition at plain MPI's `MPI_Barrier` time
//!   over the same ranks (a collective is at least a barrier's latency across hosts; a
//!   model of bytes and messages alone leaves collectives out, which would let small kernels look worse than the
//!   network allows).
//!
//! `model_ratio` = measured / model: 1 means Atoll takes what the network and one host's work
//! need, above 1 what Atoll adds (extra messages, hops, waits, less overlap).

use atoll::prelude::*;
use atoll::util::sync::lock;

/// The traffic of one repetition on one locale.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Traffic {
    /// Operations with locales on other hosts.
    pub ops: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Collectives entered.
    pub colls: u64,
    /// Operations with any other locale (the same on every placement).
    pub all_ops: u64,
    /// Their bytes.
    pub all_bytes: u64,
}

/// A counter snapshot, to subtract ([`Traffic::since`]).
pub fn snapshot(ctx: &Ctx) -> Traffic {
    let (ops, bytes) = ctx.comm_counts_across_hosts();
    let c = ctx.comm_counts();
    Traffic { ops, bytes, colls: ctx.collectives_entered(), all_ops: c.total_ops(), all_bytes: c.bytes }
}

impl Traffic {
    /// The traffic from `earlier` to now.
    pub fn since(ctx: &Ctx, earlier: Traffic) -> Traffic {
        let now = snapshot(ctx);
        Traffic {
            ops: now.ops.saturating_sub(earlier.ops),
            bytes: now.bytes.saturating_sub(earlier.bytes),
            colls: now.colls.saturating_sub(earlier.colls),
            all_ops: now.all_ops.saturating_sub(earlier.all_ops),
            all_bytes: now.all_bytes.saturating_sub(earlier.all_bytes),
        }
    }
}

/// Per-locale figures of one repetition, on every line (any placement, any backend): the most
/// operations, bytes and collectives of one locale (for the scale table, docs/cluster.md).
pub fn per_locale_fields(traffic: &[Traffic]) -> Vec<(&'static str, serde_json::Value)> {
    let max = |f: fn(&Traffic) -> u64| traffic.iter().map(f).max().unwrap_or(0);
    vec![
        ("messages_per_locale", max(|t| t.all_ops).into()),
        ("bytes_per_locale", max(|t| t.all_bytes).into()),
        ("collectives_per_locale", max(|t| t.colls).into()),
    ]
}

/// The traffic of this locale's latest timed repetition ([`record`], [`last`]).
#[derive(Default)]
struct Latest(std::sync::Mutex<Traffic>);

/// Records `t` as this locale's latest repetition's traffic.
pub fn record(ctx: &Ctx, t: Traffic) {
    *lock(&ctx.locale_ext::<Latest>().0) = t;
}

/// This locale's latest repetition's traffic.
pub fn last(ctx: &Ctx) -> Traffic {
    *lock(&ctx.locale_ext::<Latest>().0)
}

/// Plain MPI between the job's hosts, measured before the job.
#[derive(Clone, Debug)]
pub struct Link {
    /// Seconds of an 8-byte `MPI_Get` round trip (median).
    pub latency: f64,
    /// Bytes per second of a 16 MiB `MPI_Get` (best).
    pub bandwidth: f64,
    /// Seconds of an `MPI_Barrier` over every rank (median).
    pub barrier: f64,
    /// The ranks compared: 0 and the first rank on another host.
    pub pair: (usize, usize),
    /// Each rank's host.
    pub hosts: Vec<String>,
    /// The CPUs rank 0 may run on in the job (its affinity).
    pub rank_cores: usize,
    /// The CPUs of the one-host run ([`on_one_host`]; 0 before it).
    pub one_host_cores: usize,
}

/// The name of the host this process runs on.
#[cfg(feature = "mpi")]
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default()
}

/// Measures [`Link`] with plain MPI, outside any Atoll job: `None` when every rank is on one
/// host (no model then). **Collective** over the MPI world.
#[cfg(feature = "mpi")]
pub fn measure() -> Result<Option<Link>> {
    use atoll::runtime::PlainMpi;
    const BIG: usize = 16 << 20;
    let mut p = PlainMpi::start(BIG)?;
    let me = p.rank();
    let hosts: Vec<String> =
        p.allgather(hostname().as_bytes())?.into_iter().map(|b| String::from_utf8_lossy(&b).into_owned()).collect();
    let Some(t) = hosts.iter().position(|h| *h != hosts[0]) else {
        p.finish()?;
        return Ok(None);
    };
    for (i, b) in p.local_mut().iter_mut().enumerate() {
        *b = (i as u8) ^ (me as u8);
    }
    p.barrier()?;
    let (mut latency, mut bandwidth) = (0.0, 0.0);
    if me == 0 {
        let mut x = [0u8; 8];
        let mut lat: Vec<f64> = (0..400)
            .map(|k| {
                let s = std::time::Instant::now();
                p.get(t, (k * 8) % BIG, &mut x).map(|()| s.elapsed().as_secs_f64())
            })
            .collect::<Result<_>>()?;
        lat.sort_by(f64::total_cmp);
        latency = lat[lat.len() / 2];
        let mut big = vec![0u8; BIG];
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let s = std::time::Instant::now();
            p.get(t, 0, &mut big)?;
            best = best.min(s.elapsed().as_secs_f64());
        }
        // A wrong byte makes the figure NaN, an error on every rank below.
        let right = big.iter().enumerate().all(|(i, &b)| b == (i as u8) ^ (t as u8));
        bandwidth = if right { BIG as f64 / best } else { f64::NAN };
    }
    p.barrier()?;
    let mut bar: Vec<f64> = (0..50)
        .map(|_| {
            let s = std::time::Instant::now();
            p.barrier().map(|()| s.elapsed().as_secs_f64())
        })
        .collect::<Result<_>>()?;
    bar.sort_by(f64::total_cmp);
    let barrier = bar[bar.len() / 2];
    // Rank 0's figures everywhere (the model is computed where lines are printed, rank 0).
    let all = p.allgather(&[latency.to_le_bytes(), bandwidth.to_le_bytes()].concat())?;
    let f = |i: usize| f64::from_le_bytes(all[0][i * 8..i * 8 + 8].try_into().unwrap_or_default());
    p.finish()?;
    if f(1).is_nan() {
        return Err(Error::InvalidArgument("network model: the bandwidth probe read wrong bytes".into()));
    }
    let rank_cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    Ok(Some(Link { latency: f(0), bandwidth: f(1), barrier, pair: (0, t), hosts, rank_cores, one_host_cores: 0 }))
}

#[cfg(not(feature = "mpi"))]
pub fn measure() -> Result<Option<Link>> {
    Ok(None)
}

/// Runs `f` on one host with as many locales as `link` has ranks (the local backend, `cfg`'s
/// other settings) in rank 0's process while the other ranks wait politely, outside any MPI
/// job; `f`'s result on rank 0, `None` elsewhere. The run may use every CPU of the machine
/// that the process may use ([`with_every_cpu`](atoll::runtime::with_every_cpu)): on a
/// cluster simulated on one machine whose hosts have CPUs of their own, as many as the hosts
/// together, so that the one-host run never has fewer cores per locale than the job; the
/// count is `link.one_host_cores`. **Collective** over the MPI world.
#[cfg(feature = "mpi")]
pub fn on_one_host<R: Send>(
    cfg: &Config,
    link: &mut Link,
    f: impl Fn(&Ctx) -> Result<R> + Send + Sync,
) -> Result<Option<R>> {
    use atoll::runtime::PlainMpi;
    let p = PlainMpi::start(8)?;
    let r = if p.rank() == 0 {
        let mut local = cfg.clone().with_locales(link.hosts.len());
        local.backend = BackendKind::Local;
        let (r, cores) = atoll::runtime::with_every_cpu(|| run(local, f));
        link.one_host_cores = cores;
        Some(r)
    } else {
        None
    };
    // A polite wait (MPI's non-blocking allgather, polled with pauses) for rank 0's run.
    p.sum(u64::from(matches!(r, Some(Err(_)))))?;
    p.finish()?;
    r.transpose()
}

#[cfg(not(feature = "mpi"))]
pub fn on_one_host<R: Send>(
    _cfg: &Config,
    _link: &mut Link,
    _f: impl Fn(&Ctx) -> Result<R> + Send + Sync,
) -> Result<Option<R>> {
    Ok(None)
}

/// The model's fields for one line: `traffic` is every locale's traffic of one repetition
/// (locale order), `one_host` the line's one-host seconds, `seconds` its measured time.
pub fn fields(link: &Link, traffic: &[Traffic], one_host: f64, seconds: f64) -> Vec<(&'static str, serde_json::Value)> {
    let mut per_host: Vec<(&str, u64, u64)> = Vec::new();
    for (r, t) in traffic.iter().enumerate() {
        let h = link.hosts.get(r).map(String::as_str).unwrap_or("");
        match per_host.iter_mut().find(|x| x.0 == h) {
            Some(x) => {
                x.1 += t.ops;
                x.2 += t.bytes;
            }
            None => per_host.push((h, t.ops, t.bytes)),
        }
    }
    let (ops, bytes, net) = per_host
        .iter()
        .map(|&(_, o, b)| (o, b, b as f64 / link.bandwidth + o as f64 * link.latency))
        .fold((0, 0, 0.0f64), |acc, x| if x.2 >= acc.2 { x } else { acc });
    let colls = traffic.iter().map(|t| t.colls).max().unwrap_or(0);
    let model = one_host + net + colls as f64 * link.barrier;
    vec![
        ("one_host_seconds", one_host.into()),
        ("messages_across", ops.into()),
        ("bytes_across", bytes.into()),
        ("collectives", colls.into()),
        ("net_latency_seconds", link.latency.into()),
        ("net_bandwidth_gbps", (link.bandwidth / 1e9).into()),
        ("net_barrier_seconds", link.barrier.into()),
        ("net_pair", format!("{}-{}", link.pair.0, link.pair.1).into()),
        ("hosts", per_host.len().into()),
        ("rank_cores", link.rank_cores.into()),
        ("one_host_cores", link.one_host_cores.into()),
        ("model_seconds", model.into()),
        ("model_ratio", (seconds / model).into()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_takes_the_busiest_host() {
        let link = Link {
            latency: 1e-5,
            bandwidth: 1e9,
            barrier: 2e-5,
            pair: (0, 1),
            hosts: vec!["a".into(), "a".into(), "b".into(), "b".into()],
            rank_cores: 1,
            one_host_cores: 2,
        };
        let t = |ops, bytes| Traffic { ops, bytes, colls: 3, ..Traffic::default() };
        let f = fields(&link, &[t(1, 1000), t(1, 1000), t(10, 4000), t(0, 0)], 0.5, 1.2);
        let get = |k: &str| f.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap();
        // Host b: 4000 bytes and 10 messages; host a: 2000 bytes and 2 messages.
        let model = 0.5 + 4000.0 / 1e9 + 10.0 * 1e-5 + 3.0 * 2e-5;
        assert_eq!(get("messages_across"), serde_json::json!(10));
        assert_eq!(get("bytes_across"), serde_json::json!(4000));
        assert!((get("model_seconds").as_f64().unwrap() - model).abs() < 1e-12);
        assert!((get("model_ratio").as_f64().unwrap() - 1.2 / model).abs() < 1e-12);
    }
}
