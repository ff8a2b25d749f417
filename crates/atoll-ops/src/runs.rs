//! Writing one locale's contiguous run of results into a Block array: the step that ends
//! [`segment_starts`](crate::segment_starts) and the segmented reductions, where each locale
//! computes the elements `off..off + vals.len()` of a Block result of `n` elements.

use crate::layout::Layout;
use atoll_array::DistArray;
use atoll_error::Result;
use atoll_runtime::{Ctx, Pod};

/// A new Block array of `n` elements in which every locale's `vals` land at global positions
/// `off..off + vals.len()` (the runs of the locales must cover `0..n` exactly, in any
/// placement). **Collective**: puts, then one barrier.
pub(crate) fn block_from_runs<T: atoll_array::Elem + Pod>(
    ctx: &Ctx,
    n: usize,
    off: usize,
    vals: &[T],
) -> Result<DistArray<T, 1>> {
    let layout = Layout::new(ctx, n)?;
    let out = DistArray::<T, 1>::zeros_lazy(ctx, layout.dist.clone())?;
    let mut r = Ok(());
    for l in 0..layout.locales() {
        let (blo, bhi) = (layout.bounds[l], layout.bounds[l + 1]);
        let lo = blo.max(off);
        let hi = bhi.min(off + vals.len());
        if lo < hi {
            let p = out.part_ptr(l)?;
            r = r.and(ctx.put(p.add(lo - blo), &vals[lo - off..hi - off]));
        }
    }
    let b = ctx.barrier();
    r.and(b)?;
    Ok(out)
}
