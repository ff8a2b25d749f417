//! Allreduce and exscan without copies: each locale's value is serialized once (into a stack
//! buffer when small), and every locale decodes the others' values straight from the
//! backend's slots (`Collectives::allgather_visit`) and combines them in locale order, so the
//! result has the same bits on every locale.

use super::wire::{decode, encode};
use super::Backend;
use atoll_error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Values that serialize to at most this many bytes skip the heap.
const STACK: usize = 64;

/// Calls `f` with `value` serialized.
fn with_bytes<T: Serialize, R>(value: &T, f: impl FnOnce(&[u8]) -> Result<R>) -> Result<R> {
    let mut buf = [0u8; STACK];
    match postcard::to_slice(value, &mut buf) {
        Ok(b) => f(b),
        Err(_) => f(&encode(value)?),
    }
}

/// The combination with `op` of every locale's `value`, in locale order. **Collective.**
pub(crate) fn allreduce<T: Serialize + DeserializeOwned>(
    b: &dyn Backend,
    value: T,
    op: impl Fn(T, T) -> T,
) -> Result<T> {
    let mut acc: Option<T> = None;
    with_bytes(&value, |bytes| {
        b.allgather_visit(bytes, &mut |from| {
            let v: T = decode(from)?;
            acc = Some(match acc.take() {
                None => v,
                Some(a) => op(a, v),
            });
            Ok(())
        })
    })?;
    acc.ok_or(Error::ZeroLocales)
}

/// The combination with `op` of the values of locales `0..me` (`identity` on locale 0).
/// **Collective.**
pub(crate) fn exscan<T: Serialize + DeserializeOwned>(
    b: &dyn Backend,
    me: usize,
    value: T,
    identity: T,
    op: impl Fn(T, T) -> T,
) -> Result<T> {
    let mut acc = Some(identity);
    let mut l = 0;
    with_bytes(&value, |bytes| {
        b.allgather_visit(bytes, &mut |from| {
            if l < me {
                let v: T = decode(from)?;
                acc = acc.take().map(|a| op(a, v));
            }
            l += 1;
            Ok(())
        })
    })?;
    acc.ok_or(Error::ZeroLocales)
}
