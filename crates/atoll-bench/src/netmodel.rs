//! The network model of a benchmark whose MPI ranks span several hosts: what a line would take
//! if Atoll did its one-host work and then moved exactly its counted cross-host traffic at
//! plain MPI's speed between the same ranks, measured in the same run:
//!
//! `model = one_host_seconds + max over hosts (link_seconds + messages_across x L)
//!          + collectives x C`
//!
//! `link_seconds = (max(out, in) - min(out, in)) / B + min(out, in) / D`
//!
//! - `one_host_seconds`: the same kernel on one host with as many locales (the local backend
//!   in rank 0's process, while the other ranks wait; the same job's binary and settings);
//! - `bytes_across`, `messages_across`: the operations of one repetition with locales on
//!   other hosts and their bytes (`Ctx::comm_counts_across_hosts`), summed over each host's
//!   ranks (the host's link carries them all);
//! - `out`, `in`: the bytes that leave and enter a host over its link: what its own
//!   operations send (puts, active message requests; `Ctx::comm_bytes_sent_across_hosts`) and
//!   receive (gets, replies), plus what the other hosts' operations receive from and send to
//!   it (with more than two hosts, taken as spread evenly over the hosts they reach);
//! - `B`: plain MPI's bandwidth between rank 0 and the first rank on another host, one way (a
//!   16 MiB `MPI_Get` while the other rank waits, best of 3), `D`: the same pair's bandwidth
//!   each way when both read 16 MiB from each other at once (best of 5, the slower of the
//!   two), `L`: the latency (an 8-byte `MPI_Get` with its flush, a round trip, the median of
//!   400); all outside any Atoll job, before it. While both directions are busy each runs at
//!   `D`, the rest of the larger one at `B`. On a full-duplex network `D = B` and
//!   `link_seconds` is `max(out, in) / B`; where the hosts' own CPUs move the bytes (a cluster
//!   simulated on one machine: the kernel's copies on each side), traffic both ways shares
//!   them and `D` is lower (`D` is taken as at most `B`);
//! - `collectives x C`: the collectives of one repetition at plain MPI's `MPI_Barrier` time
//!   over the same ranks (a collective is at least a barrier's latency across hosts; a
//!   model of bytes and messages alone leaves collectives out, which would let small kernels look worse than the
//!   network allows).
//!
//! `model_ratio` = measured / model: 1 means Atoll takes what the network and one host's work
//! need, above 1 what Atoll adds (extra messages, hops, waits, less overlap).
//! `full_duplex_model_ratio` leaves `D` out (the link taken as full duplex at `B`), for
//! comparison.

use atoll::prelude::*;
use atoll::util::sync::lock;

/// The traffic of one repetition on one locale.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Traffic {
    /// Operations with locales on other hosts.
    pub ops: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Of `bytes`, those that left this locale (the rest came in).
    pub sent: u64,
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
    Traffic {
        ops,
        bytes,
        sent: ctx.comm_bytes_sent_across_hosts(),
        colls: ctx.collectives_entered(),
        all_ops: c.total_ops(),
        all_bytes: c.bytes,
    }
}

impl Traffic {
    /// Rank `me`'s traffic from what it sends, for a program outside Atoll that counts its
    /// own (the plain MPI baselines): `sent[r]` bytes to rank `r` (`hosts[r]`: its host) in
    /// `messages` messages (none where it sends nothing), and `colls` collectives. Each
    /// message is its sender's operation, as a put is (what a rank receives is another's
    /// send).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn of_sends(hosts: &[String], me: usize, sent: &[u64], messages: u64, colls: u64) -> Traffic {
        let mut t = Traffic { colls, ..Traffic::default() };
        for (r, &s) in sent.iter().enumerate().filter(|&(r, &s)| r != me && s > 0) {
            t.all_ops += messages;
            t.all_bytes += s;
            if hosts.get(r) != hosts.get(me) {
                t.ops += messages;
                t.bytes += s;
                t.sent += s;
            }
        }
        t
    }

    /// The traffic from `earlier` to now.
    pub fn since(ctx: &Ctx, earlier: Traffic) -> Traffic {
        let now = snapshot(ctx);
        Traffic {
            ops: now.ops.saturating_sub(earlier.ops),
            bytes: now.bytes.saturating_sub(earlier.bytes),
            sent: now.sent.saturating_sub(earlier.sent),
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
    /// Bytes per second of a 16 MiB `MPI_Get` (best), one way.
    pub bandwidth: f64,
    /// Bytes per second each way when both ranks of the pair read 16 MiB from each other at
    /// once (best of 5, the slower of the two).
    pub duplex_bandwidth: f64,
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
    // Two reads share the link, so each figure varies more than the one-way one.
    const DUPLEX_REPS: usize = 5;
    let mut p = PlainMpi::start(BIG)?;
    let me = p.rank();
    let hosts: Vec<String> =
        p.allgather(hostname().as_bytes())?.into_iter().map(|b| String::from_utf8_lossy(&b).into_owned()).collect();
    let Some(t) = hosts.iter().position(|h| *h != hosts[0]) else {
        p.finish()?;
        return Ok(None);
    };
    // Each rank's window holds a pattern of its rank, checked by the readers.
    let holds = |buf: &[u8], rank: usize| buf.iter().enumerate().all(|(i, &b)| b == (i as u8) ^ (rank as u8));
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
        bandwidth = if holds(&big, t) { BIG as f64 / best } else { f64::NAN };
    }
    p.barrier()?;
    // Both ranks of the pair read 16 MiB from each other at once: each direction's bandwidth
    // while the other is busy too.
    let other = if me == 0 {
        Some(t)
    } else if me == t {
        Some(0)
    } else {
        None
    };
    let mut big = vec![0u8; if other.is_some() { BIG } else { 0 }];
    let mut best = f64::INFINITY;
    for _ in 0..DUPLEX_REPS {
        p.barrier()?;
        let s = std::time::Instant::now();
        if let Some(o) = other {
            p.get(o, 0, &mut big)?;
        }
        best = best.min(slowest(&p, s.elapsed().as_secs_f64())?);
    }
    let duplex = if other.is_none_or(|o| holds(&big, o)) { BIG as f64 / best } else { f64::NAN };
    let duplex_right = p.sum(u64::from(duplex.is_nan()))? == 0;
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
    let all = p.allgather(&[latency.to_le_bytes(), bandwidth.to_le_bytes(), duplex.to_le_bytes()].concat())?;
    let f = |i: usize| le_f64(&all[0], i);
    p.finish()?;
    if f(1).is_nan() || !duplex_right {
        return Err(Error::InvalidArgument("network model: the bandwidth probe read wrong bytes".into()));
    }
    let rank_cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    Ok(Some(Link {
        latency: f(0),
        bandwidth: f(1),
        duplex_bandwidth: f(2),
        barrier,
        pair: (0, t),
        hosts,
        rank_cores,
        one_host_cores: 0,
    }))
}

/// The slowest rank's seconds among every rank's `s`. **Collective** over `p`'s ranks.
#[cfg(feature = "mpi")]
pub(crate) fn slowest(p: &atoll::runtime::PlainMpi, s: f64) -> Result<f64> {
    Ok(p.allgather(&s.to_le_bytes())?.iter().map(|b| le_f64(b, 0)).fold(0.0, f64::max))
}

/// The `i`-th little-endian f64 of `b` (0 when short).
#[cfg(feature = "mpi")]
fn le_f64(b: &[u8], i: usize) -> f64 {
    b.get(i * 8..i * 8 + 8).and_then(|x| x.try_into().ok()).map_or(0.0, f64::from_le_bytes)
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
    // Each host's own operations: (host, messages, bytes, sent, received).
    let mut per_host: Vec<(&str, u64, u64, u64, u64)> = Vec::new();
    for (r, t) in traffic.iter().enumerate() {
        let h = link.hosts.get(r).map(String::as_str).unwrap_or("");
        let sent = t.sent.min(t.bytes);
        match per_host.iter_mut().find(|x| x.0 == h) {
            Some(x) => {
                x.1 += t.ops;
                x.2 += t.bytes;
                x.3 += sent;
                x.4 += t.bytes - sent;
            }
            None => per_host.push((h, t.ops, t.bytes, sent, t.bytes - sent)),
        }
    }
    // What crosses each host's link each way: its own operations' bytes, and the other
    // hosts' received (sent) bytes spread evenly over the hosts they reach.
    let others = per_host.len().saturating_sub(1).max(1) as f64;
    let (all_sent, all_received) = per_host.iter().fold((0u64, 0u64), |a, x| (a.0 + x.3, a.1 + x.4));
    // `D` at most `B`; unmeasured (0), taken as `B`.
    let duplex = if link.duplex_bandwidth > 0.0 { link.duplex_bandwidth.min(link.bandwidth) } else { link.bandwidth };
    // The busiest host's (messages, bytes, out, in, link and latency seconds), and the most
    // seconds of a host on a full-duplex link (`D = B`).
    let mut busiest = (0u64, 0u64, 0.0f64, 0.0f64, 0.0f64);
    let mut full_duplex_net = 0.0f64;
    for &(_, ops, bytes, sent, received) in &per_host {
        let out = sent as f64 + (all_received - received) as f64 / others;
        let inn = received as f64 + (all_sent - sent) as f64 / others;
        let (big, small) = (out.max(inn), out.min(inn));
        let lat = ops as f64 * link.latency;
        // Both directions at `D` while both are busy, the rest one way at `B`.
        let net = (big - small) / link.bandwidth + small / duplex + lat;
        if net >= busiest.4 {
            busiest = (ops, bytes, out, inn, net);
        }
        full_duplex_net = full_duplex_net.max(big / link.bandwidth + lat);
    }
    let (ops, bytes, out, inn, net) = busiest;
    let colls = traffic.iter().map(|t| t.colls).max().unwrap_or(0);
    let model = one_host + net + colls as f64 * link.barrier;
    let full_duplex_model = one_host + full_duplex_net + colls as f64 * link.barrier;
    vec![
        ("one_host_seconds", one_host.into()),
        ("messages_across", ops.into()),
        ("bytes_across", bytes.into()),
        ("bytes_across_out", (out.round() as u64).into()),
        ("bytes_across_in", (inn.round() as u64).into()),
        ("collectives", colls.into()),
        ("net_latency_seconds", link.latency.into()),
        ("net_bandwidth_gbps", (link.bandwidth / 1e9).into()),
        ("net_duplex_bandwidth_gbps", (link.duplex_bandwidth / 1e9).into()),
        ("net_barrier_seconds", link.barrier.into()),
        ("net_pair", format!("{}-{}", link.pair.0, link.pair.1).into()),
        ("hosts", per_host.len().into()),
        ("rank_cores", link.rank_cores.into()),
        ("one_host_cores", link.one_host_cores.into()),
        ("model_seconds", model.into()),
        ("model_ratio", (seconds / model).into()),
        ("full_duplex_model_ratio", (seconds / full_duplex_model).into()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(hosts: &[&str], bandwidth: f64, duplex_bandwidth: f64) -> Link {
        Link {
            latency: 1e-5,
            bandwidth,
            duplex_bandwidth,
            barrier: 2e-5,
            pair: (0, 1),
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            rank_cores: 1,
            one_host_cores: 2,
        }
    }

    fn get(f: &[(&'static str, serde_json::Value)], k: &str) -> serde_json::Value {
        f.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap()
    }

    #[test]
    fn the_model_takes_the_busiest_host() {
        let link = link(&["a", "a", "b", "b"], 1e9, 1e9);
        // Every byte received by the host's own operations (gets).
        let t = |ops, bytes| Traffic { ops, bytes, colls: 3, ..Traffic::default() };
        let f = fields(&link, &[t(1, 1000), t(1, 1000), t(10, 4000), t(0, 0)], 0.5, 1.2);
        // Host a: 2000 bytes in, 4000 out (host b's gets); host b: 4000 in, 2000 out, and 10
        // messages: the busiest.
        let model = 0.5 + 4000.0 / 1e9 + 10.0 * 1e-5 + 3.0 * 2e-5;
        assert_eq!(get(&f, "messages_across"), serde_json::json!(10));
        assert_eq!(get(&f, "bytes_across"), serde_json::json!(4000));
        assert_eq!(get(&f, "bytes_across_in"), serde_json::json!(4000));
        assert_eq!(get(&f, "bytes_across_out"), serde_json::json!(2000));
        assert!((get(&f, "model_seconds").as_f64().unwrap() - model).abs() < 1e-12);
        assert!((get(&f, "model_ratio").as_f64().unwrap() - 1.2 / model).abs() < 1e-12);
        assert!((get(&f, "full_duplex_model_ratio").as_f64().unwrap() - 1.2 / model).abs() < 1e-12);
    }

    #[test]
    fn traffic_both_ways_goes_at_the_duplex_bandwidth() {
        let link = link(&["a", "b"], 4e9, 1e9);
        let t = |bytes, sent| Traffic { ops: 0, bytes, sent, ..Traffic::default() };
        // Both hosts put 8000 bytes to each other: 8000 each way on each link.
        let f = fields(&link, &[t(8000, 8000), t(8000, 8000)], 0.0, 1e-5);
        assert!((get(&f, "model_seconds").as_f64().unwrap() - 8000.0 / 1e9).abs() < 1e-15);
        assert!((get(&f, "full_duplex_model_ratio").as_f64().unwrap() - 1e-5 / (8000.0 / 4e9)).abs() < 1e-9);
        // One way only (host a puts, host b waits): the one-way bandwidth.
        let f = fields(&link, &[t(8000, 8000), t(0, 0)], 0.0, 1e-5);
        assert!((get(&f, "model_seconds").as_f64().unwrap() - 8000.0 / 4e9).abs() < 1e-15);
        // Requests out and replies in (a gather): host a sends 1000 and receives 3000, host b
        // the same; each link carries 4000 each way.
        let f = fields(&link, &[t(4000, 1000), t(4000, 1000)], 0.0, 1e-5);
        assert_eq!(get(&f, "bytes_across_out"), serde_json::json!(4000));
        assert!((get(&f, "model_seconds").as_f64().unwrap() - 4000.0 / 1e9).abs() < 1e-15);
        // 6000 out and 2000 in: 2000 each way at D, the other 4000 at B.
        let f = fields(&link, &[t(6000, 5000), t(2000, 1000)], 0.0, 1e-5);
        assert!((get(&f, "model_seconds").as_f64().unwrap() - (2000.0 / 1e9 + 4000.0 / 4e9)).abs() < 1e-15);
        // A duplex figure above the one-way one is taken as the one-way one.
        let f = fields(&self::link(&["a", "b"], 1e9, 3e9), &[t(8000, 8000), t(8000, 8000)], 0.0, 1e-5);
        assert!((get(&f, "model_seconds").as_f64().unwrap() - 8000.0 / 1e9).abs() < 1e-15);
    }

    #[test]
    fn a_plain_program_counts_its_sends_across_hosts() {
        let hosts: Vec<String> = ["a", "a", "b"].iter().map(|h| h.to_string()).collect();
        // Rank 0 sends 10 bytes to its host's rank 1 and 20 to rank 2 on host b, in 2
        // messages each; what it sends itself is never counted.
        let t = Traffic::of_sends(&hosts, 0, &[99, 10, 20], 2, 3);
        assert_eq!(t, Traffic { ops: 2, bytes: 20, sent: 20, colls: 3, all_ops: 4, all_bytes: 30 });
        // Nothing sent to a rank: no message to it.
        assert_eq!(Traffic::of_sends(&hosts, 1, &[0, 0, 0], 2, 3), Traffic { colls: 3, ..Traffic::default() });
        // Two hosts sending 12 bytes each way: the link carries 12 each way, at the duplex
        // bandwidth (not 24: a rank's receives are the other's sends).
        let two: Vec<String> = ["a", "b"].iter().map(|h| h.to_string()).collect();
        let ts = [Traffic::of_sends(&two, 0, &[0, 12], 1, 0), Traffic::of_sends(&two, 1, &[12, 0], 1, 0)];
        let link = link(&["a", "b"], 4.0, 2.0);
        let f = fields(&link, &ts, 1.0, 9.0);
        assert_eq!(get(&f, "bytes_across_out"), serde_json::json!(12));
        assert_eq!(get(&f, "bytes_across_in"), serde_json::json!(12));
        let model = 1.0 + 12.0 / 2.0 + 1e-5;
        assert!((get(&f, "model_seconds").as_f64().unwrap() - model).abs() < 1e-12);
    }
}
