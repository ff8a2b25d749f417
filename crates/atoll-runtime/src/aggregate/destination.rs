//! [`DstAggregator`]: buffered writes of values to remote places.

use super::apply::PUT;
use super::budget::charge;
use super::flight::Flight;
use super::wire::{new_message, ADDR, HEADER};
use crate::ctx::{Ctx, GlobalPtr};
use atoll_error::{invalid_arg, Error, Result};
use atoll_mem::Commitment;
use bytemuck::Pod;
use std::marker::PhantomData;

/// One destination's buffer: a put message being filled, and its memory charge.
struct Batch {
    msg: Vec<u8>,
    held: Commitment,
}

/// A destination aggregator: writes of values to remote places (`*dst = value`), buffered per
/// destination locale and sent as **one active message per buffer** whose handler writes every
/// value on the target. Make one per task; it is not shared between threads.
///
/// - Each destination gets a buffer of [`capacity`](Self::capacity) elements
///   (`ATOLL_AGG_BUFFER`, [`Config::agg_buffer`](crate::Config::agg_buffer), default 8192)
///   the first time it is used (buffers of unused destinations are never allocated), charged
///   to this locale's memory budget (`8 + size_of::<T>()` bytes per element, plus 4).
/// - A buffer that becomes full is sent at once; [`flush`](Self::flush) sends the others and
///   waits until every write has been applied. Writes are visible to the target after
///   `flush()` returns (then, as always, synchronize, e.g. with a barrier, before the target
///   reads them).
/// - Counting: each buffer sent to another locale is one active message
///   ([`CommCounts::ams`](crate::CommCounts::ams), and its bytes); writes to this locale's
///   own memory are applied at flush time without a message, uncounted. So `k` writes to one
///   remote locale cost `ceil(k / capacity)` messages, on every backend.
/// - The target checks that every address lies in its registered memory before writing any
///   value of the message ([`Error::NotRegistered`] otherwise).
/// - Dropping the aggregator flushes it too, but a drop cannot return an error: call
///   [`flush`](Self::flush) to see errors. A drop never panics (errors are discarded; during a
///   panic nothing is sent).
///
/// Several writes of the same place: within one buffer they land in the order they were made;
/// across buffers sent asynchronously (MPI) and across aggregators (tasks, locales) the last
/// writer is unspecified.
///
/// **One-sided.**
///
/// ```
/// use atoll_runtime::{run, Config, DstAggregator};
/// run(Config::local(2), |ctx| {
///     let mut a = ctx.alloc_symmetric::<u64>(100)?;
///     ctx.barrier()?;
///     let other = 1 - ctx.id();
///     let mut agg = DstAggregator::with_capacity(ctx, 16)?;
///     for i in 0..100 {
///         agg.put(a.ptr(other).add(i), 1000 * ctx.id() as u64 + i as u64)?;
///     }
///     agg.flush()?;                          // 100 writes, ceil(100 / 16) = 7 messages
///     assert_eq!(agg.messages(), 7);
///     ctx.barrier()?;
///     assert_eq!(a.local()[42], 1000 * other as u64 + 42);
///     drop(agg);
///     a.free()
/// }).unwrap();
/// ```
pub struct DstAggregator<T: Pod> {
    ctx: Ctx,
    cap: usize,
    /// Bytes of a full message.
    full: usize,
    bufs: Vec<Option<Batch>>,
    flight: Flight<u64, (usize, usize)>,
    messages: u64,
    _t: PhantomData<fn(T)>,
}

impl<T: Pod> std::fmt::Debug for DstAggregator<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DstAggregator<{}>(locale {}, capacity {}, {} messages)",
            std::any::type_name::<T>(),
            self.ctx.id(),
            self.cap,
            self.messages
        )
    }
}

impl<T: Pod> DstAggregator<T> {
    const ES: usize = std::mem::size_of::<T>();

    /// Bytes the communication diagnostics count for one message of `m` elements and its
    /// reply (postcard-encoded byte strings), for code that moves the same elements without
    /// messages (node-shared memory) and counts them as this aggregator would.
    pub fn message_bytes(m: usize) -> usize {
        super::wire::message_bytes(true, m, Self::ES)
    }

    /// An aggregator with buffers of [`Config::agg_buffer`](crate::Config::agg_buffer)
    /// elements (`ATOLL_AGG_BUFFER`, default 8192). Allocates nothing yet.
    pub fn new(ctx: &Ctx) -> Self {
        Self::build(ctx, ctx.config().agg_buffer.max(1))
    }

    /// An aggregator with buffers of `capacity` elements (at least 1).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a capacity of 0.
    pub fn with_capacity(ctx: &Ctx, capacity: usize) -> Result<Self> {
        if capacity == 0 {
            return Err(invalid_arg!("an aggregation buffer needs at least 1 element"));
        }
        Ok(Self::build(ctx, capacity))
    }

    fn build(ctx: &Ctx, cap: usize) -> Self {
        DstAggregator {
            ctx: ctx.clone(),
            cap,
            full: HEADER + cap * (ADDR + Self::ES),
            bufs: (0..ctx.num_locales()).map(|_| None).collect(),
            flight: Flight::new(ctx),
            messages: 0,
            _t: PhantomData,
        }
    }

    /// Elements per destination buffer.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Messages sent to other locales so far (one per flushed buffer).
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Bytes charged to the budget for one destination's buffer.
    pub fn buffer_bytes(&self) -> u64 {
        self.full as u64
    }

    /// Buffers `*dst = value`. **One-sided.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad locale; [`Error::OutOfMemory`] when a new buffer
    /// does not fit this locale's budget; the errors of a buffer sent because it became full
    /// (the target's [`Error::NotRegistered`], communication failures).
    #[inline]
    pub fn put(&mut self, dst: GlobalPtr<T>, value: T) -> Result<()> {
        self.put_at(dst.locale(), dst.addr(), value)
    }

    /// Buffers a write of `value` at address `addr` of `locale` (see [`DstAggregator::put`]).
    /// **One-sided.**
    ///
    /// # Errors
    /// As [`DstAggregator::put`].
    #[inline]
    pub fn put_at(&mut self, locale: usize, addr: u64, value: T) -> Result<()> {
        let n = self.bufs.len();
        let Some(slot) = self.bufs.get_mut(locale) else {
            return Err(Error::InvalidLocale { locale, num_locales: n });
        };
        let b = match slot {
            Some(b) => b,
            None => {
                let held = charge(&self.ctx, self.full as u64, "DstAggregator buffer")?;
                slot.insert(Batch { msg: new_message(Self::ES, self.cap, ADDR + Self::ES), held })
            }
        };
        b.msg.extend_from_slice(&addr.to_le_bytes());
        b.msg.extend_from_slice(bytemuck::bytes_of(&value));
        if b.msg.len() >= self.full {
            self.send(locale)?;
        }
        Ok(())
    }

    /// Sends `locale`'s buffer, if it holds anything.
    fn send(&mut self, locale: usize) -> Result<()> {
        let Some(Batch { msg, held }) = self.bufs.get_mut(locale).and_then(Option::take) else {
            return Ok(());
        };
        let count = (msg.len() - HEADER) / (ADDR + Self::ES);
        if count == 0 {
            return Ok(());
        }
        if locale != self.ctx.id() {
            self.messages += 1;
        }
        self.flight.send(&self.ctx, locale, &PUT, msg, (locale, count), held, &mut check_written)
    }

    /// Sends every buffer and waits until every write has been applied. **One-sided.**
    ///
    /// After an error, the writes of the failed message may or may not have been applied; the
    /// other buffers are still sent and waited for, and the first error is returned.
    ///
    /// # Errors
    /// The first error of a message: the target's [`Error::NotRegistered`], communication
    /// failures, [`Error::LocaleFailed`] when a locale ended the job.
    pub fn flush(&mut self) -> Result<()> {
        let mut first = Ok(());
        for l in 0..self.bufs.len() {
            let r = self.send(l);
            if first.is_ok() {
                first = r;
            }
        }
        let r = self.flight.drain(&mut check_written);
        first.and(r)
    }

    /// Flushes and drops the aggregator, returning the flush's errors.
    ///
    /// # Errors
    /// As [`DstAggregator::flush`].
    pub fn finish(mut self) -> Result<()> {
        self.flush()
    }
}

/// Checks a put reply: the number of values the target wrote.
fn check_written(written: u64, (locale, expected): (usize, usize)) -> Result<()> {
    if written == expected as u64 {
        Ok(())
    } else {
        Err(Error::Comm { locale, message: format!("aggregation: {written} of {expected} values were written") })
    }
}

impl<T: Pod> Drop for DstAggregator<T> {
    /// Flushes, discarding errors (call [`DstAggregator::flush`] to see them); sends nothing
    /// while the thread panics.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = self.flush();
        }
    }
}
