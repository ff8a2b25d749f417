//! Baselines for benchmarks: the same operations as the backend, written as plain MPI calls
//! (no registration cache, no counters, no tracing), so a benchmark can report the runtime's
//! overhead over raw MPI in the same run.

use super::MpiComm;
use crate::comm::Strided;
use crate::ctx::Ctx;
use atoll_error::{Error, Result};

/// Raw MPI operations on the job's window and communicators.
pub struct RawMpi<'a> {
    comm: &'a MpiComm,
}

impl Ctx {
    /// Raw MPI baselines, when this job runs on the MPI backend (for benchmarks).
    pub fn raw_mpi(&self) -> Option<RawMpi<'_>> {
        self.st.backend.as_any().downcast_ref::<MpiComm>().map(|comm| RawMpi { comm })
    }
}

impl RawMpi<'_> {
    /// `MPI_Get` + `MPI_Win_flush` of `dst.len()` bytes from `addr` on `target`.
    ///
    /// The range must lie in memory registered on `target` (it is checked against what this
    /// locale already knows of `target`, so a baseline cannot read unregistered memory).
    pub fn get(&self, ctx: &Ctx, target: usize, addr: u64, dst: &mut [u8]) -> Result<()> {
        self.check(ctx, target, addr, dst.len())?;
        // SAFETY: `dst` is borrowed until the flush; the target range was checked just above.
        unsafe { self.comm.inner.win.get_nb(target, addr, dst.as_mut_ptr(), dst.len())? };
        self.comm.inner.win.flush(target)
    }

    /// One `MPI_Get` with an hvector datatype, then `MPI_Win_flush`.
    pub fn get_strided(&self, ctx: &Ctx, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        self.check(ctx, target, addr, shape.extent_bytes())?;
        if dst.len() != shape.total_bytes() {
            return Err(atoll_error::invalid_arg!("buffer does not match the strided shape"));
        }
        // SAFETY: checked target extent and buffer size just above.
        unsafe { self.comm.inner.win.get_strided(target, addr, shape, dst) }
    }

    /// Blocking `MPI_Barrier`. **Collective.**
    pub fn barrier(&self) -> Result<()> {
        self.comm.inner.coll().blocking_barrier()
    }

    /// `iters` round trips of a `len`-byte message between this rank and `peer` with blocking
    /// `MPI_Send`/`MPI_Recv`: the raw equivalent of an active-message round trip. Both ranks
    /// call it, one with `initiator` true. Point-to-point traffic is matched separately from
    /// the collectives sharing the communicator.
    pub fn ping_pong(&self, peer: usize, initiator: bool, iters: usize, len: usize) -> Result<()> {
        const TAG: i32 = 77;
        let c = self.comm.inner.coll();
        let mut buf = vec![0u8; len];
        for _ in 0..iters {
            if initiator {
                c.blocking_send(peer, TAG, &buf)?;
                c.blocking_recv(peer, TAG, &mut buf)?;
            } else {
                c.blocking_recv(peer, TAG, &mut buf)?;
                c.blocking_send(peer, TAG, &buf)?;
            }
        }
        Ok(())
    }

    fn check(&self, ctx: &Ctx, target: usize, addr: u64, len: usize) -> Result<()> {
        ctx.check_locale(target)?;
        if ctx.knows_registered(target, addr, len) {
            Ok(())
        } else {
            Err(Error::NotRegistered { locale: target, addr, len })
        }
    }
}
