//! [`SrcAggregator`]: buffered reads of remote values into local places.

use super::apply::GET;
use super::budget::charge;
use super::flight::Flight;
use super::wire::{new_message, torn, Bytes, ADDR, HEADER};
use crate::ctx::{Ctx, GlobalPtr};
use atoll_error::{invalid_arg, Error, Result};
use atoll_mem::Commitment;
use bytemuck::Pod;

/// One destination's buffer: a get message being filled, the local places its values go to,
/// and its memory charge.
struct Batch<'a, T> {
    msg: Vec<u8>,
    slots: Vec<&'a mut T>,
    held: Commitment,
}

/// A source aggregator: reads of remote values into local places (`*slot = *src`), buffered
/// per source locale and sent as **one active message per buffer**; the reply carries the
/// values, which land in their places. Make one per task; it is not shared between threads.
///
/// The places are mutable borrows (`&'a mut T`) held until the value lands: they are written
/// when a buffer's reply arrives, at the latest in [`flush`](Self::flush) (or when the
/// aggregator is dropped), and the borrow checker lets the caller read them only after the
/// aggregator is gone.
///
/// - Each source locale gets a buffer of [`capacity`](Self::capacity) elements
///   (`ATOLL_AGG_BUFFER`, [`Config::agg_buffer`](crate::Config::agg_buffer), default 8192)
///   the first time it is used, charged to this locale's memory budget (16 bytes per element
///   for the address and the place, plus the reply's `size_of::<T>()`, plus 4).
/// - A full buffer is sent at once; `flush` sends the others and waits for every reply.
/// - Counting: each buffer sent to another locale is one active message
///   ([`CommCounts::ams`](crate::CommCounts::ams); the request's and the reply's bytes); reads
///   of this locale's own memory are served at flush time without a message, uncounted.
/// - The source locale checks that every address lies in its registered memory before
///   reading ([`Error::NotRegistered`] otherwise: the places of that buffer keep their values).
/// - Dropping the aggregator flushes it too, but cannot return an error: call `flush` to see
///   errors. A drop never panics (errors are discarded; during a panic nothing is sent, and
///   unfilled places keep their values).
///
/// **One-sided.**
///
/// ```
/// use atoll_runtime::{run, Config, SrcAggregator};
/// run(Config::local(3), |ctx| {
///     let mut a = ctx.alloc_symmetric::<u32>(10)?;
///     for (i, x) in a.local_mut().iter_mut().enumerate() {
///         *x = 100 * ctx.id() as u32 + i as u32;
///     }
///     ctx.barrier()?;
///     let mut got = vec![0u32; 30];
///     let mut agg = SrcAggregator::with_capacity(ctx, 4)?;
///     for (k, slot) in got.iter_mut().enumerate() {
///         agg.get(a.ptr(k % 3).add(k / 3), slot)?;   // element k/3 of locale k%3
///     }
///     agg.flush()?;
///     drop(agg);                                      // ends the borrows of `got`
///     assert_eq!(got[7], 100 + 2);
///     ctx.barrier()?;
///     a.free()
/// }).unwrap();
/// ```
pub struct SrcAggregator<'a, T: Pod> {
    ctx: Ctx,
    cap: usize,
    bufs: Vec<Option<Batch<'a, T>>>,
    flight: Flight<Bytes, (usize, Vec<&'a mut T>)>,
    messages: u64,
}

impl<T: Pod> std::fmt::Debug for SrcAggregator<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SrcAggregator<{}>(locale {}, capacity {}, {} messages)",
            std::any::type_name::<T>(),
            self.ctx.id(),
            self.cap,
            self.messages
        )
    }
}

impl<'a, T: Pod> SrcAggregator<'a, T> {
    const ES: usize = std::mem::size_of::<T>();

    /// Bytes the communication diagnostics count for one message of `m` elements and its
    /// reply (postcard-encoded byte strings), for code that moves the same elements without
    /// messages (node-shared memory) and counts them as this aggregator would.
    pub fn message_bytes(m: usize) -> usize {
        super::wire::message_bytes(false, m, Self::ES)
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
        SrcAggregator {
            ctx: ctx.clone(),
            cap,
            bufs: (0..ctx.num_locales()).map(|_| None).collect(),
            flight: Flight::new(ctx),
            messages: 0,
        }
    }

    /// Elements per source buffer.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Messages sent to other locales so far (one per flushed buffer).
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Bytes charged to the budget for one source's buffer.
    pub fn buffer_bytes(&self) -> u64 {
        (HEADER + self.cap * (ADDR + std::mem::size_of::<&mut T>() + Self::ES)) as u64
    }

    /// Buffers `*slot = *src`: the value lands in `slot` when its buffer is flushed.
    /// **One-sided.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad locale; [`Error::OutOfMemory`] when a new buffer
    /// does not fit this locale's budget; the errors of a buffer sent because it became full.
    #[inline]
    pub fn get(&mut self, src: GlobalPtr<T>, slot: &'a mut T) -> Result<()> {
        self.get_at(src.locale(), src.addr(), slot)
    }

    /// Buffers a read of the element at address `addr` of `locale` into `slot` (see
    /// [`SrcAggregator::get`]). **One-sided.**
    ///
    /// # Errors
    /// As [`SrcAggregator::get`].
    #[inline]
    pub fn get_at(&mut self, locale: usize, addr: u64, slot: &'a mut T) -> Result<()> {
        let n = self.bufs.len();
        let Some(entry) = self.bufs.get_mut(locale) else {
            return Err(Error::InvalidLocale { locale, num_locales: n });
        };
        let b = match entry {
            Some(b) => b,
            None => {
                let bytes = (HEADER + self.cap * (ADDR + std::mem::size_of::<&mut T>() + Self::ES)) as u64;
                let held = charge(&self.ctx, bytes, "SrcAggregator buffer")?;
                entry.insert(Batch {
                    msg: new_message(Self::ES, self.cap, ADDR),
                    slots: Vec::with_capacity(self.cap),
                    held,
                })
            }
        };
        b.msg.extend_from_slice(&addr.to_le_bytes());
        b.slots.push(slot);
        if b.slots.len() >= self.cap {
            self.send(locale)?;
        }
        Ok(())
    }

    /// Sends `locale`'s buffer, if it holds anything.
    fn send(&mut self, locale: usize) -> Result<()> {
        let Some(Batch { msg, slots, held }) = self.bufs.get_mut(locale).and_then(Option::take) else {
            return Ok(());
        };
        if slots.is_empty() {
            return Ok(());
        }
        if locale != self.ctx.id() {
            self.messages += 1;
        }
        self.flight.send(&self.ctx, locale, &GET, msg, (locale, slots), held, &mut land::<T>)
    }

    /// Sends every buffer and waits until every value has landed. **One-sided.**
    ///
    /// # Errors
    /// The first error of a message (the source's [`Error::NotRegistered`], communication
    /// failures); the places of a failed message keep their values, the other buffers are
    /// still sent and waited for.
    pub fn flush(&mut self) -> Result<()> {
        let mut first = Ok(());
        for l in 0..self.bufs.len() {
            let r = self.send(l);
            if first.is_ok() {
                first = r;
            }
        }
        let r = self.flight.drain(&mut land::<T>);
        first.and(r)
    }

    /// Flushes and drops the aggregator, returning the flush's errors (the places are then
    /// free to read).
    ///
    /// # Errors
    /// As [`SrcAggregator::flush`].
    pub fn finish(mut self) -> Result<()> {
        self.flush()
    }
}

/// Writes the values of a reply into their places.
fn land<T: Pod>(values: Bytes, (locale, slots): (usize, Vec<&mut T>)) -> Result<()> {
    let es = std::mem::size_of::<T>();
    if values.0.len() != slots.len() * es {
        return Err(torn(
            locale,
            &format!("a reply of {} bytes for {} values of {es} bytes", values.0.len(), slots.len()),
        ));
    }
    if es == 0 {
        return Ok(());
    }
    for (slot, v) in slots.into_iter().zip(values.0.chunks_exact(es)) {
        *slot = bytemuck::pod_read_unaligned(v);
    }
    Ok(())
}

impl<T: Pod> Drop for SrcAggregator<'_, T> {
    /// Flushes, discarding errors (call [`SrcAggregator::flush`] to see them); sends nothing
    /// while the thread panics.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = self.flush();
        }
    }
}
