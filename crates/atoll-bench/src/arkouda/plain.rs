//! The skeptic's gather and scatter in plain MPI, in a bare process (no Atoll job, no runtime
//! thread): what a programmer who knows MPI writes for `out[j] = a[idx[j]]` and
//! `a[idx[j]] = v[j]` over a block distribution. Each rank counts its indices per owner, the
//! ranks exchange the counts (`MPI_Alltoall`), pack one contiguous region per owner (4-byte
//! local offsets; scatter: and the values), and exchange them with **one `MPI_Alltoallv`**;
//! the owners serve the requests, and for gather a second `MPI_Alltoallv` brings the values
//! back, which a pass puts in place. Buffers are allocated once and reused by every
//! repetition (the best case for the baseline). Same problem as the Atoll lines (the same
//! indices, values and checks), the same hosts and ranks, measured before the job: the
//! `mpi_alltoallv_*` fields of the `gather` and `scatter` lines.
//!
//! Across hosts each kernel also counts one repetition's traffic with ranks on other hosts
//! (its own bytes: 4 per offset and 8 per value, one message per destination and
//! `MPI_Alltoallv`, three collectives), for the network model over what the plain version
//! itself sends (`mpi_alltoallv_own_model_ratio`).

use super::{gather_index, gather_value_ok, scatter_value_ok, Perm, PlainTimed as Timed};
use crate::netmodel::{slowest, Traffic};
use atoll::prelude::*;
use atoll::runtime::{bytemuck, PlainMpi};
use std::time::Instant;

/// The elements of rank `r` of `n` over `size` ranks: `chunk = ceil(n / size)` each.
fn part(n: usize, size: usize, r: usize) -> (usize, std::ops::Range<usize>) {
    let chunk = n.div_ceil(size.max(1)).max(1);
    (chunk, (r * chunk).min(n)..((r + 1) * chunk).min(n))
}

/// The owner of an index, `i / chunk`, as a multiplication by a reciprocal (a division by a
/// value known only at run time costs tens of cycles; the loops do it per element).
#[derive(Clone, Copy)]
struct Owner {
    chunk: usize,
    /// `floor(2^64 / chunk) + 1`: exact for `i < 2^32` and `chunk < 2^32` (the error of
    /// `i * m / 2^64` is below `i / 2^64 <= 1 / chunk`).
    m: u128,
}

impl Owner {
    fn new(chunk: usize) -> Owner {
        Owner { chunk, m: (u128::from(u64::MAX) / chunk as u128) + 1 }
    }

    #[inline]
    fn of(self, i: u64) -> usize {
        ((u128::from(i) * self.m) >> 64) as usize
    }
}

/// Where each owner's records start in a buffer packed per owner, and the total.
fn starts(counts: &[u64]) -> Vec<usize> {
    let mut s = Vec::with_capacity(counts.len() + 1);
    let mut t = 0usize;
    for &c in counts {
        s.push(t);
        t += c as usize;
    }
    s.push(t);
    s
}

/// The counts per owner of `idx`, and each index's owner-local offset packed per owner.
fn pack(idx: &[u64], own: Owner, size: usize, counts: &mut [u64], offs: &mut [u32]) -> Vec<usize> {
    counts.iter_mut().for_each(|c| *c = 0);
    for &i in idx {
        counts[own.of(i)] += 1;
    }
    let st = starts(counts);
    let mut cur = st[..size].to_vec();
    for &i in idx {
        let o = own.of(i);
        offs[cur[o]] = (i as usize - o * own.chunk) as u32;
        cur[o] += 1;
    }
    st
}

/// `MPI_Alltoallv` of elements: `counts[r]` of `send` go to rank `r`, `incoming[r]` of `recv`
/// come from it (both packed in rank order). **Collective.**
fn alltoallv<T: bytemuck::Pod>(
    p: &PlainMpi,
    send: &[T],
    counts: &[u64],
    recv: &mut [T],
    incoming: &[u64],
) -> Result<()> {
    let bytes = |c: &[u64]| c.iter().map(|&c| c * std::mem::size_of::<T>() as u64).collect::<Vec<u64>>();
    p.alltoallv(bytemuck::cast_slice(send), &bytes(counts), bytemuck::cast_slice_mut(recv), &bytes(incoming))
}

/// The plain MPI job of one kernel: MPI started, this rank's part of `n` elements and the
/// owner of every index; `None` (MPI finished again) when the indices do not fit 4 bytes.
/// **Collective.**
fn start(n: usize) -> Result<Option<(PlainMpi, std::ops::Range<usize>, Owner)>> {
    let p = PlainMpi::start(8)?;
    let (chunk, mine) = part(n, p.size(), p.rank());
    if chunk > u32::MAX as usize || n > u32::MAX as usize {
        p.finish()?;
        return Ok(None);
    }
    Ok(Some((p, mine, Owner::new(chunk))))
}

/// Collectives of one repetition of either kernel: the counts' `MPI_Alltoall` and two
/// `MPI_Alltoallv`.
const COLLECTIVES: u64 = 3;

/// Point-to-point messages from a rank to each destination in one repetition: one per
/// `MPI_Alltoallv` (gather: the offsets, then the values back; scatter: the offsets, then
/// the values).
const MESSAGES: u64 = 2;

/// Rank `me`'s traffic of one repetition: `sent[r]` bytes to rank `r` (`hosts[r]` its host).
fn traffic(hosts: &[String], me: usize, sent: &[u64]) -> Traffic {
    Traffic::of_sends(hosts, me, sent, MESSAGES, COLLECTIVES)
}

/// Every rank's `mine`, in rank order, when `hosts` is given (else none). **Collective.**
fn all_traffic(p: &PlainMpi, hosts: Option<&[String]>, mine: Traffic) -> Result<Vec<Traffic>> {
    if hosts.is_none() {
        return Ok(Vec::new());
    }
    let bytes = serde_json::to_vec(&mine).map_err(|e| Error::InvalidArgument(format!("plain MPI: traffic: {e}")))?;
    p.allgather(&bytes)?
        .iter()
        .map(|b| {
            serde_json::from_slice(b).map_err(|e| Error::Comm {
                locale: 0,
                message: format!("plain MPI: a rank's traffic arrived torn: {e}"),
            })
        })
        .collect()
}

/// Bytes per element of `counts` (per rank).
fn times(counts: &[u64], bytes: u64) -> Vec<u64> {
    counts.iter().map(|&c| c * bytes).collect()
}

/// Ends a kernel's plain MPI job: its timing, with every rank's check, and every rank's
/// traffic across hosts. **Collective.**
fn finish(p: PlainMpi, seconds: f64, ok: bool, traffic: Vec<Traffic>) -> Result<Option<Timed>> {
    let ok = p.sum(u64::from(!ok))? == 0;
    p.finish()?;
    Ok(Some(Timed { seconds, ok, traffic }))
}

/// The gather of the `gather` line in plain MPI, best of `reps`; `None` when the indices are too
/// large for 4 bytes. With `hosts` (each rank's host), every rank's traffic across hosts.
/// **Collective** over the MPI world; call it outside any job.
pub fn gather(n: usize, reps: usize, hosts: Option<&[String]>) -> Result<Option<Timed>> {
    let Some((p, mine, own)) = start(n)? else { return Ok(None) };
    let size = p.size();
    let nn = n as u64;
    let a: Vec<u64> = (mine.start..mine.end).map(|i| i as u64 * 3 + 1).collect();
    let idx: Vec<u64> = mine.clone().map(|j| gather_index(j as u64, nn)).collect();
    let (mut counts, mut offs, mut reply) = (vec![0u64; size], vec![0u32; idx.len()], Vec::<u64>::new());
    let (mut req, mut got, mut out) = (Vec::<u32>::new(), vec![0u64; idx.len()], vec![0u64; idx.len()]);
    let (mut best, mut ok) = (f64::INFINITY, true);
    let mut mine_traffic = Traffic::default();
    for _ in 0..reps.max(1) {
        out.iter_mut().for_each(|x| *x = 0);
        p.barrier()?;
        let t = Instant::now();
        let st = pack(&idx, own, size, &mut counts, &mut offs);
        let incoming = p.alltoall(&counts)?;
        req.resize(incoming.iter().sum::<u64>() as usize, 0);
        alltoallv(&p, &offs, &counts, &mut req, &incoming)?;
        reply.clear();
        reply.extend(req.iter().map(|&o| a[o as usize]));
        alltoallv(&p, &reply, &incoming, &mut got, &counts)?;
        let mut cur = st[..size].to_vec();
        for (x, &i) in out.iter_mut().zip(&idx) {
            let o = own.of(i);
            *x = got[cur[o]];
            cur[o] += 1;
        }
        best = best.min(slowest(&p, t.elapsed().as_secs_f64())?);
        // Sent: 4-byte offsets to their owners, 8-byte values back to the requesters.
        let sent: Vec<u64> = times(&counts, 4).iter().zip(times(&incoming, 8)).map(|(a, b)| a + b).collect();
        mine_traffic = traffic(hosts.unwrap_or_default(), p.rank(), &sent);
        ok &= out.iter().enumerate().all(|(k, &x)| gather_value_ok((mine.start + k) as u64, x, nn));
    }
    let all = all_traffic(&p, hosts, mine_traffic)?;
    finish(p, best, ok, all)
}

/// The scatter of the `scatter` line in plain MPI, best of `reps`; `None` when the indices are
/// too large for 4 bytes. With `hosts`, every rank's traffic across hosts. **Collective** over
/// the MPI world; call it outside any job.
pub fn scatter(n: usize, reps: usize, hosts: Option<&[String]>) -> Result<Option<Timed>> {
    let Some((p, mine, own)) = start(n)? else { return Ok(None) };
    let size = p.size();
    let perm = Perm::new(n as u64);
    let idx: Vec<u64> = mine.clone().map(|j| perm.at(j as u64)).collect();
    let v: Vec<u64> = idx.iter().map(|&i| i * 2 + 1).collect();
    let (mut counts, mut offs, mut vals) = (vec![0u64; size], vec![0u32; idx.len()], vec![0u64; idx.len()]);
    let (mut req, mut got, mut a) = (Vec::<u32>::new(), Vec::<u64>::new(), vec![0u64; mine.len()]);
    let (mut best, mut ok) = (f64::INFINITY, true);
    let mut mine_traffic = Traffic::default();
    for _ in 0..reps.max(1) {
        a.iter_mut().for_each(|x| *x = 0);
        p.barrier()?;
        let t = Instant::now();
        let st = pack(&idx, own, size, &mut counts, &mut offs);
        let mut cur = st[..size].to_vec();
        for (&i, &x) in idx.iter().zip(&v) {
            let o = own.of(i);
            vals[cur[o]] = x;
            cur[o] += 1;
        }
        let incoming = p.alltoall(&counts)?;
        let total = incoming.iter().sum::<u64>() as usize;
        req.resize(total, 0);
        got.resize(total, 0);
        alltoallv(&p, &offs, &counts, &mut req, &incoming)?;
        alltoallv(&p, &vals, &counts, &mut got, &incoming)?;
        for (&o, &x) in req.iter().zip(&got) {
            a[o as usize] = x;
        }
        best = best.min(slowest(&p, t.elapsed().as_secs_f64())?);
        // Sent: a 4-byte offset and an 8-byte value per element.
        mine_traffic = traffic(hosts.unwrap_or_default(), p.rank(), &times(&counts, 12));
        ok &= a.iter().enumerate().all(|(k, &x)| scatter_value_ok((mine.start + k) as u64, x));
    }
    let all = all_traffic(&p, hosts, mine_traffic)?;
    finish(p, best, ok, all)
}
