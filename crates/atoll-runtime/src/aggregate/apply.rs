//! The target side of an aggregation message: validate every address against this locale's
//! registered regions, then write (put) or read (get) the elements.
//!
//! Validation comes first and covers the whole message, so a message with one bad address
//! changes nothing and comes back as [`Error::NotRegistered`] naming it. The common case costs
//! one lookup: the span from the lowest to the highest address lies in one registered region
//! (an array's part). Otherwise each address is looked up, remembering the last region found.

use super::wire::{addr_at, split, torn, Bytes, ADDR};
use crate::comm::memcopy;
use crate::ctx::Ctx;
use crate::handler::Handler;
use atoll_error::{Error, Result};

/// Applies a destination aggregator's flush: writes every record; returns how many.
fn serve_put(ctx: &Ctx, msg: Bytes) -> Result<u64> {
    apply_puts(ctx, &msg.0)
}

/// Serves a source aggregator's flush: the elements at every address, packed.
fn serve_get(ctx: &Ctx, msg: Bytes) -> Result<Bytes> {
    read_gets(ctx, &msg.0).map(Bytes)
}

/// The handler of destination aggregators' messages.
pub(crate) static PUT: Handler<Bytes, u64> = Handler::new("atoll::aggregate::put", serve_put);
/// The handler of source aggregators' messages.
pub(crate) static GET: Handler<Bytes, Bytes> = Handler::new("atoll::aggregate::get", serve_get);

/// Writes the records of a put message to this locale's registered memory.
pub(crate) fn apply_puts(ctx: &Ctx, msg: &[u8]) -> Result<u64> {
    let (es, body) = split(ctx.id(), msg)?;
    let rec = ADDR + es;
    if body.len() % rec != 0 {
        return Err(torn(ctx.id(), "a put message with a partial record"));
    }
    validate(ctx, body.chunks_exact(rec).map(addr_at), es)?;
    // SAFETY: every record's `addr..addr+es` was just checked to lie in memory registered on
    // this locale, which stays allocated while registered.
    unsafe { memcopy::write_records(body, es) };
    Ok((body.len() / rec) as u64)
}

/// Reads the elements named by a get message from this locale's registered memory.
pub(crate) fn read_gets(ctx: &Ctx, msg: &[u8]) -> Result<Vec<u8>> {
    let (es, body) = split(ctx.id(), msg)?;
    if body.len() % ADDR != 0 {
        return Err(torn(ctx.id(), "a get message with a partial address"));
    }
    let n = body.len() / ADDR;
    let len = n.checked_mul(es).ok_or_else(|| torn(ctx.id(), "a get message too large to answer"))?;
    validate(ctx, body.chunks_exact(ADDR).map(addr_at), es)?;
    let mut out = vec![0u8; len];
    // SAFETY: every `addr..addr+es` was just checked to lie in memory registered on this
    // locale; `out` holds `es` bytes per address.
    unsafe { memcopy::read_indexed(body, es, &mut out) };
    Ok(out)
}

/// Checks that `addr..addr+es` is registered on this locale for every address.
fn validate(ctx: &Ctx, addrs: impl Iterator<Item = u64> + Clone, es: usize) -> Result<()> {
    let (lo, hi) = addrs.clone().fold((u64::MAX, 0u64), |(lo, hi), a| (lo.min(a), hi.max(a)));
    if lo > hi {
        return Ok(()); // no element
    }
    let regions = &ctx.st.regions;
    let span = (hi - lo).checked_add(es as u64).and_then(|s| usize::try_from(s).ok());
    if let Some(span) = span {
        if regions.find(lo, span).is_some() {
            return Ok(());
        }
    }
    let mut known: Option<(u64, u64)> = None;
    for a in addrs {
        let end = a.checked_add(es as u64).ok_or(Error::NotRegistered { locale: ctx.id(), addr: a, len: es })?;
        if known.is_some_and(|(s, e)| a >= s && end <= e) {
            continue;
        }
        match regions.find(a, es) {
            Some((s, l)) => known = Some((s, s + l as u64)),
            None => return Err(Error::NotRegistered { locale: ctx.id(), addr: a, len: es }),
        }
    }
    Ok(())
}
