//! The cached communication plan of a fixed sparsity pattern: which remote vector entries
//! ("ghosts") a locale reads, and from whom. Built once (two `alltoallv`s); then every
//! [`Halo::gather`] sends **one put per remote locale that holds ghosts of another** and one
//! barrier, and every [`Halo::scatter_add`] (the transpose: ghost contributions summed into
//! their owners) the same.
//!
//! Buffers are registered symmetric memory of 8-byte words, double-buffered so one barrier per
//! exchange suffices: a sender writes half `k % 2` of a receiver's buffer in exchange `k`, and
//! can write that half again only in exchange `k + 2`, after the barrier of exchange `k + 1`,
//! which the receiver reaches only once it is done with exchange `k`'s values.

use crate::partition::Partition;
use atoll_error::{Error, Result};
use atoll_runtime::{Ctx, Pod, Symmetric};
use atoll_util::sync::lock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The plan and its buffers (one per matrix, shared by every exchange of 8-byte values).
pub struct Halo {
    /// Global indices of the ghosts, sorted (so grouped by owner).
    ghosts: Vec<u64>,
    /// Per owner: the ghosts' range `recv[q]` in `ghosts`.
    recv: Vec<std::ops::Range<usize>>,
    /// Per requester: local offsets (into the owner's part) of the values it reads.
    send_idx: Vec<Vec<u32>>,
    /// Per requester `p`: where this locale's segment starts in `p`'s ghost array.
    send_at: Vec<usize>,
    /// Per owner `q`: where this locale's segment starts in `q`'s reverse buffer.
    rev_at: Vec<usize>,
    /// Per requester `p`: where `p`'s segment starts in this locale's reverse buffer.
    rev_from: Vec<usize>,
    /// Ghost count per locale.
    ghost_len: Vec<usize>,
    /// Reverse buffer length per locale (the sum of its send lists).
    rev_len: Vec<usize>,
    fwd: Symmetric<u64>,
    rev: Symmetric<u64>,
    parity: AtomicUsize,
    scratch: Mutex<Vec<u64>>,
}

fn words<T: Pod>(what: &str) -> Result<()> {
    if std::mem::size_of::<T>() == 8 && std::mem::align_of::<T>() <= 8 {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "{what}: halo exchanges move 8-byte values, got {}",
            std::any::type_name::<T>()
        )))
    }
}

impl Halo {
    /// The plan for reading the global indices `needed` (sorted, deduplicated, none owned
    /// here) of a vector partitioned by `part`. **Collective.**
    ///
    /// # Errors
    /// As `alltoallv` and `alloc_symmetric`; [`Error::InvalidArgument`] when a locale owns more
    /// than `u32::MAX` entries.
    pub fn new(ctx: &Ctx, part: Partition, needed: Vec<u64>) -> Result<Self> {
        let p = ctx.num_locales();
        let me = ctx.id();
        let mut recv = vec![0..0; p];
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); p];
        let mut k = 0;
        while k < needed.len() {
            let q = part.owner(needed[k] as usize);
            let start = k;
            let end_q = part.range(q).end as u64;
            while k < needed.len() && needed[k] < end_q {
                k += 1;
            }
            recv[q] = start..k;
            let base = part.range(q).start as u64;
            out[q].push(start as u64);
            out[q].extend(needed[start..k].iter().map(|&g| g - base));
        }
        let got = ctx.alltoallv(out)?;
        let mut send_idx = vec![Vec::new(); p];
        let mut send_at = vec![0; p];
        let mut rev_from = vec![0; p];
        let mut rev_total = 0usize;
        for (src, v) in got.into_iter().enumerate() {
            if let Some((&at, idx)) = v.split_first() {
                send_at[src] = at as usize;
                rev_from[src] = rev_total;
                rev_total += idx.len();
                send_idx[src] = idx
                    .iter()
                    .map(|&i| {
                        u32::try_from(i).map_err(|_| {
                            Error::InvalidArgument("a locale owns more than u32::MAX vector entries".into())
                        })
                    })
                    .collect::<Result<_>>()?;
            }
        }
        // Tell each requester where its segment goes in our reverse buffer.
        let back: Vec<Vec<u64>> =
            (0..p).map(|src| if send_idx[src].is_empty() { vec![] } else { vec![rev_from[src] as u64] }).collect();
        let got = ctx.alltoallv(back)?;
        let rev_at: Vec<usize> = got.iter().map(|v| v.first().map_or(0, |&x| x as usize)).collect();
        let lens = ctx.allgather(&(needed.len() as u64, rev_total as u64))?;
        let ghost_len: Vec<usize> = lens.iter().map(|l| l.0 as usize).collect();
        let rev_len: Vec<usize> = lens.iter().map(|l| l.1 as usize).collect();
        let fwd = ctx.alloc_symmetric_for::<u64>("graph halo", 2 * needed.len())?;
        let rev = ctx.alloc_symmetric_for::<u64>("graph halo (transpose)", 2 * rev_total)?;
        let _ = me;
        Ok(Halo {
            ghosts: needed,
            recv,
            send_idx,
            send_at,
            rev_at,
            rev_from,
            ghost_len,
            rev_len,
            fwd,
            rev,
            parity: AtomicUsize::new(0),
            scratch: Mutex::new(Vec::new()),
        })
    }

    /// The ghosts' global indices, sorted.
    pub fn ghosts(&self) -> &[u64] {
        &self.ghosts
    }

    /// The remote locales this locale reads from (those it sends a message to in a transpose).
    pub fn sources(&self) -> impl Iterator<Item = usize> + '_ {
        self.recv.iter().enumerate().filter(|(_, r)| !r.is_empty()).map(|(q, _)| q)
    }

    /// Fills `out` with this locale's `local` values followed by the ghosts' values (in
    /// [`ghosts`](Self::ghosts) order). One put per remote locale that reads from here, then a
    /// barrier. **Collective.**
    ///
    /// # Errors
    /// A type that is not 8 bytes; communication failures.
    pub fn gather<T: Pod>(&self, ctx: &Ctx, local: &[T], out: &mut Vec<T>) -> Result<()> {
        words::<T>("Halo::gather")?;
        let par = self.parity.fetch_add(1, Ordering::Relaxed) & 1;
        let words: &[u64] = atoll_runtime::bytemuck::cast_slice(local);
        {
            let mut buf = lock(&self.scratch);
            for (dst, idx) in self.send_idx.iter().enumerate() {
                if idx.is_empty() {
                    continue;
                }
                buf.clear();
                buf.extend(idx.iter().map(|&i| words[i as usize]));
                let at = par * self.ghost_len[dst] + self.send_at[dst];
                ctx.put(self.fwd.ptr(dst).add(at), &buf)?;
            }
        }
        ctx.barrier()?;
        let ng = self.ghosts.len();
        let ghosts: &[T] = atoll_runtime::bytemuck::cast_slice(&self.fwd.local()[par * ng..par * ng + ng]);
        out.clear();
        out.reserve(local.len() + ng);
        out.extend_from_slice(local);
        out.extend_from_slice(ghosts);
        Ok(())
    }

    /// Adds the ghosts' contributions `ghost_vals` (in [`ghosts`](Self::ghosts) order) into
    /// their owners' `local` entries, in locale order (deterministic). One put per remote
    /// locale this locale has ghosts of, then a barrier. **Collective.**
    ///
    /// # Errors
    /// Lengths that do not match the plan; communication failures.
    pub fn scatter_add(&self, ctx: &Ctx, ghost_vals: &[f64], local: &mut [f64]) -> Result<()> {
        if ghost_vals.len() != self.ghosts.len() {
            return Err(Error::ShapeMismatch {
                context: "Halo::scatter_add".into(),
                left: format!("{} ghost values", ghost_vals.len()),
                right: format!("{} ghosts", self.ghosts.len()),
            });
        }
        let par = self.parity.fetch_add(1, Ordering::Relaxed) & 1;
        for (q, r) in self.recv.iter().enumerate() {
            if r.is_empty() {
                continue;
            }
            let at = par * self.rev_len[q] + self.rev_at[q];
            let src: &[u64] = atoll_runtime::bytemuck::cast_slice(&ghost_vals[r.clone()]);
            ctx.put(self.rev.ptr(q).add(at), src)?;
        }
        ctx.barrier()?;
        let base = par * self.rev_len[ctx.id()];
        let buf: &[f64] = atoll_runtime::bytemuck::cast_slice(&self.rev.local()[base..base + self.rev_len[ctx.id()]]);
        for (src, idx) in self.send_idx.iter().enumerate() {
            let seg = &buf[self.rev_from[src]..self.rev_from[src] + idx.len()];
            for (&i, &v) in idx.iter().zip(seg) {
                local[i as usize] += v;
            }
        }
        Ok(())
    }
}
