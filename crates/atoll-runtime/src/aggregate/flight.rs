//! Messages in flight: how many flushes an aggregator lets run before it waits.
//!
//! On the local backend a flush runs its handler inline on the calling task (a blocking
//! active message costs ~0.1 us there, and the task's own core does the copies), so nothing is
//! ever in flight. Where messages really travel (MPI), a full buffer is sent with an
//! asynchronous active message and the aggregator keeps filling buffers; it waits for the
//! oldest reply when more than [`MAX_IN_FLIGHT`] are outstanding, and for all of them in
//! `flush`. The number of messages is the same either way: one per flushed buffer.

use super::wire::Bytes;
use crate::ctx::{Ctx, Pending};
use crate::handler::Handler;
use atoll_error::Result;
use atoll_mem::Commitment;
use serde::de::DeserializeOwned;
use std::collections::VecDeque;

/// Outstanding flushes per aggregator on backends where messages travel.
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// A sent flush: its reply, what the reply completes, and the memory charge it holds.
struct InFlight<R, E> {
    pending: Pending<R>,
    extra: E,
    _held: Commitment,
}

/// The outstanding flushes of one aggregator, oldest first.
pub(crate) struct Flight<R, E> {
    max: usize,
    queue: VecDeque<InFlight<R, E>>,
}

impl<R: DeserializeOwned, E> Flight<R, E> {
    /// The policy for `ctx`'s backend.
    pub(crate) fn new(ctx: &Ctx) -> Self {
        let max = if ctx.blocking_requests_run_inline() { 0 } else { MAX_IN_FLIGHT };
        Flight { max, queue: VecDeque::new() }
    }

    /// Sends one flushed buffer `msg` to `locale` with handler `h`: asynchronously (queued,
    /// completed later by `done`) where messages travel and the target is another locale,
    /// otherwise blocking, completed now. `held` (the buffer's memory charge) is released when
    /// the reply has been handled.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn send(
        &mut self,
        ctx: &Ctx,
        locale: usize,
        h: &'static Handler<Bytes, R>,
        msg: Vec<u8>,
        extra: E,
        held: Commitment,
        done: &mut impl FnMut(R, E) -> Result<()>,
    ) -> Result<()>
    where
        R: serde::Serialize + Send + 'static,
    {
        if self.max > 0 && locale != ctx.id() {
            let p = ctx.on_async(locale, h, Bytes(msg))?;
            self.push(p, extra, held, done)
        } else {
            let r = ctx.on(locale, h, Bytes(msg))?;
            drop(held);
            done(r, extra)
        }
    }

    /// Queues a sent flush; completes the oldest ones (with `done`) beyond the limit.
    fn push(
        &mut self,
        pending: Pending<R>,
        extra: E,
        held: Commitment,
        done: &mut impl FnMut(R, E) -> Result<()>,
    ) -> Result<()> {
        self.queue.push_back(InFlight { pending, extra, _held: held });
        while self.queue.len() > self.max {
            self.complete_oldest(done)?;
        }
        Ok(())
    }

    fn complete_oldest(&mut self, done: &mut impl FnMut(R, E) -> Result<()>) -> Result<()> {
        match self.queue.pop_front() {
            Some(f) => {
                let r = f.pending.wait()?;
                done(r, f.extra)
                // `_held` is released here: the message's memory is gone.
            }
            None => Ok(()),
        }
    }

    /// Completes every outstanding flush; the first error, after waiting for all of them.
    pub(crate) fn drain(&mut self, done: &mut impl FnMut(R, E) -> Result<()>) -> Result<()> {
        let mut first = Ok(());
        while !self.queue.is_empty() {
            let r = self.complete_oldest(done);
            if first.is_ok() {
                first = r;
            }
        }
        first
    }
}
