//! Gather and scatter by loads and stores in the owners' memory, when every locale's part of the
//! indexed array is directly addressable from this process ([`Ctx::direct_ptr`]: the local
//! backend; MPI node peers once the backend maps their memory). The aggregated transfer then
//! needs no buffers: a task reads (gather) or writes (scatter) each element where it lives, in
//! one loop whose independent cache misses overlap, as the one-core loop does.
//!
//! Diagnostics: each task counts the active messages its aggregator would have sent
//! (`ceil(k / buffer)` per remote destination that `k` of its elements name, with the records'
//! bytes), so counts are the same whether or not memory is addressable. Where any part is not
//! addressable, the dynamic aggregators of `irregular.rs` are used.

use super::wire_bytes;
use crate::elem::Elem;
use crate::storage::Storage;
use atoll_dist::Distribution;
use atoll_error::Result;
use atoll_runtime::Ctx;

/// Element pointers of every locale's part of `store` (`dist`'s parts), or `None` when one is
/// not directly addressable. **One-sided**, no message.
pub(super) fn parts<T: Elem, M: Distribution<1>>(ctx: &Ctx, store: &Storage<T>, dist: &M) -> Result<Option<Vec<usize>>> {
    let mut out = Vec::with_capacity(ctx.num_locales());
    for l in 0..ctx.num_locales() {
        let len = if dist.grid().contains(l) { dist.local_len(l)? } else { 0 };
        match store.direct(ctx, l, 0, len)? {
            Some(p) => out.push(p as usize),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Counts, for one task, the messages its aggregator would have sent: `per_dest[t]` elements
/// named on locale `t`, buffers of `cap` elements, `record` bytes per element on the wire.
pub(super) fn count_as_aggregated(ctx: &Ctx, per_dest: &[usize], cap: usize, record: usize) {
    for (t, &k) in per_dest.iter().enumerate() {
        let mut left = k;
        while left > 0 {
            let m = left.min(cap);
            ctx.count_direct_am(t, wire_bytes(m, record));
            left -= m;
        }
    }
}
