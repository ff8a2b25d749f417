//! Disjoint parallel writes into one slice from a locale's task pool (the one `unsafe` of the
//! crate, fenced here).

use atoll_runtime::Ctx;
use std::ops::Range;

struct SyncPtr<T>(*mut T);
// SAFETY: the pointer is only used to form disjoint sub-slices (one per chunk) below.
unsafe impl<T: Send> Sync for SyncPtr<T> {}

/// Runs `f(range, &mut out[range])` over chunks of `0..out.len()` on this locale's task pool.
pub fn for_chunks_mut<T: Send>(ctx: &Ctx, out: &mut [T], f: impl Fn(Range<usize>, &mut [T]) + Sync) {
    let len = out.len();
    let p = SyncPtr(out.as_mut_ptr());
    let p = &p;
    ctx.forall_chunks(0..len, |r| {
        // SAFETY: `forall_chunks` hands out disjoint sub-ranges of `0..len`, so the slices are
        // disjoint, in bounds of `out`, and `out` is exclusively borrowed for this call.
        let s = unsafe { std::slice::from_raw_parts_mut(p.0.add(r.start), r.len()) };
        f(r, s)
    });
}
