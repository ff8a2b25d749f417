//! Baselines for benchmarks: the operations of the backend written as plain MPI calls (no
//! registration cache, no counters, no tracing), so a benchmark can report the runtime's
//! overhead over raw MPI in the same run. Raw MPI lives only in this backend, so the baseline
//! does too; it is built only for the benchmark crate (feature `bench`).

use crate::comm::Strided;
use atoll_error::{Error, Result};

/// Plain MPI for baselines measured **outside** an Atoll job: its own communicator and dynamic
/// window over one buffer per rank, made and used while no runtime thread runs (before `run`,
/// or between two `run`s), with no registration cache, counters or tracing. Offsets are checked
/// against the buffer's length (a comparison, not a lookup). A benchmark alternates phases of
/// this with phases of an Atoll job, so both see the same machine.
///
/// Every method except [`PlainMpi::local_mut`] and [`PlainMpi::rank`]/[`PlainMpi::size`] is a
/// plain MPI call; the collective ones are marked.
pub struct PlainMpi {
    comm: super::raw::Comm,
    win: super::raw::Win,
    buf: Vec<u8>,
    /// Every rank's buffer address in the window.
    addrs: Vec<u64>,
    rank: usize,
    size: usize,
}

impl PlainMpi {
    /// Initializes MPI if needed (as the runtime does: `MPI_THREAD_MULTIPLE`), duplicates the
    /// world communicator, creates a dynamic window and attaches a zeroed buffer of `bytes`
    /// bytes on every rank. **Collective** over the world; call it outside any Atoll job.
    pub fn start(bytes: usize) -> Result<PlainMpi> {
        let (rank, size) = super::raw::init()?;
        let comm = super::raw::Comm::dup_world()?;
        let win = super::raw::Win::create_dynamic(&comm)?;
        let buf = vec![0u8; bytes.max(1)];
        let addr = buf.as_ptr() as u64;
        // SAFETY: `buf` is owned by the returned value, never reallocated (only written in
        // place through `local_mut`), and detached in `finish`/`drop` before it is freed.
        unsafe { win.attach(addr, buf.len())? };
        let addrs = comm
            .allgather(&addr.to_le_bytes())?
            .iter()
            .map(|b| {
                b.as_slice()
                    .try_into()
                    .map(u64::from_le_bytes)
                    .map_err(|_| atoll_error::invalid_arg!("bad address exchange"))
            })
            .collect::<Result<Vec<u64>>>()?;
        comm.blocking_barrier()?;
        Ok(PlainMpi { comm, win, buf, addrs, rank, size })
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.size
    }

    /// This rank's buffer, to fill before a [`PlainMpi::barrier`] that publishes it.
    pub fn local_mut(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    fn target(&self, target: usize, offset: usize, len: usize) -> Result<u64> {
        if target >= self.size {
            return Err(Error::InvalidLocale { locale: target, num_locales: self.size });
        }
        match offset.checked_add(len) {
            Some(end) if end <= self.buf.len() => Ok(self.addrs[target] + offset as u64),
            _ => Err(atoll_error::invalid_arg!(
                "bytes {offset}..+{len} are outside the {}-byte baseline buffer",
                self.buf.len()
            )),
        }
    }

    /// `MPI_Get` + `MPI_Win_flush` of `dst.len()` bytes at `offset` in `target`'s buffer.
    pub fn get(&self, target: usize, offset: usize, dst: &mut [u8]) -> Result<()> {
        let addr = self.target(target, offset, dst.len())?;
        // SAFETY: `dst` is borrowed until the flush below; the target range lies in the
        // buffer attached on `target` (checked just above, all buffers have the same length).
        unsafe { self.win.get_nb(target, addr, dst.as_mut_ptr(), dst.len())? };
        self.win.flush(target)
    }

    /// One `MPI_Get` with an hvector datatype (then `MPI_Win_flush`) of `shape` at `offset` in
    /// `target`'s buffer.
    pub fn get_strided(&self, target: usize, offset: usize, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        let addr = self.target(target, offset, shape.extent_bytes())?;
        if dst.len() != shape.total_bytes() {
            return Err(atoll_error::invalid_arg!("buffer does not match the strided shape"));
        }
        // SAFETY: checked target extent and buffer size just above.
        unsafe { self.win.get_strided(target, addr, shape, dst) }
    }

    /// Blocking `MPI_Barrier`. **Collective.**
    pub fn barrier(&self) -> Result<()> {
        self.comm.blocking_barrier()
    }

    /// `iters` round trips of a `len`-byte message with `peer` by blocking `MPI_Send`/`MPI_Recv`
    /// (both ranks call it, one with `initiator` true). The initiator's message carries the
    /// round number and the reply must carry it plus one: `Ok(false)` if any reply was wrong.
    pub fn ping_pong(&self, peer: usize, initiator: bool, iters: usize, len: usize) -> Result<bool> {
        const TAG: i32 = 78;
        let mut buf = vec![0u8; len.max(8)];
        let mut ok = true;
        for k in 0..iters as u64 {
            if initiator {
                buf[..8].copy_from_slice(&k.to_le_bytes());
                self.comm.blocking_send(peer, TAG, &buf)?;
                self.comm.blocking_recv(peer, TAG, &mut buf)?;
                ok &= buf[..8] == (k + 1).to_le_bytes();
            } else {
                self.comm.blocking_recv(peer, TAG, &mut buf)?;
                let v = u64::from_le_bytes(buf[..8].try_into().unwrap_or_default());
                buf[..8].copy_from_slice(&(v + 1).to_le_bytes());
                self.comm.blocking_send(peer, TAG, &buf)?;
            }
        }
        Ok(ok)
    }

    /// The sum of `v` over all ranks (`MPI_Allgather` of one word, summed: a check that a
    /// barrier phase really was collective). **Collective.**
    pub fn sum(&self, v: u64) -> Result<u64> {
        let all = self.comm.allgather(&v.to_le_bytes())?;
        Ok(all.iter().map(|b| b.as_slice().try_into().map(u64::from_le_bytes).unwrap_or(0)).sum())
    }

    /// Every rank's `data`, in rank order (`MPI_Allgatherv`). **Collective.**
    pub fn allgather(&self, data: &[u8]) -> Result<Vec<Vec<u8>>> {
        self.comm.allgather(data)
    }

    /// Blocking `MPI_Alltoall` of one word per rank: `send[r]` goes to rank `r`, the
    /// result's `r` came from rank `r`. **Collective.**
    pub fn alltoall(&self, send: &[u64]) -> Result<Vec<u64>> {
        self.comm.blocking_alltoall_u64(send)
    }

    /// Blocking `MPI_Alltoallv` of bytes: rank `r`'s part of `send` is the `send_lens[r]`
    /// bytes after those of lower ranks, and likewise in `recv`. **Collective.**
    pub fn alltoallv(&self, send: &[u8], send_lens: &[u64], recv: &mut [u8], recv_lens: &[u64]) -> Result<()> {
        self.comm.blocking_alltoallv(send, send_lens, recv, recv_lens)
    }

    /// `MPI_Put` + `MPI_Win_flush` of `src` at `offset` in `target`'s buffer.
    pub fn put(&self, target: usize, offset: usize, src: &[u8]) -> Result<()> {
        let addr = self.target(target, offset, src.len())?;
        // SAFETY: `src` is borrowed until the flush below; the target range lies in the
        // buffer attached on `target` (checked just above).
        unsafe { self.win.put_nb(target, addr, src.as_ptr(), src.len())? };
        self.win.flush(target)
    }

    /// Detaches the buffer and frees the window. **Collective.**
    pub fn finish(mut self) -> Result<()> {
        self.comm.blocking_barrier()?;
        let r = self.win.detach(self.buf.as_ptr() as u64).and_then(|()| self.win.free());
        self.buf = Vec::new();
        r
    }
}

impl Drop for PlainMpi {
    fn drop(&mut self) {
        // Not finished (an error path): detach before the buffer is freed, so the window never
        // names freed memory. The window itself is freed by MPI_Finalize.
        if !self.buf.is_empty() {
            let _ = self.win.detach(self.buf.as_ptr() as u64);
        }
    }
}
