//! Sort inputs: [`SortColumn`] (a 1-D array or view of [`SortKey`]s, any distribution) and how
//! each locale gets the keys of its Block part, in place when the input is already laid out
//! that way, else through one bulk assignment into a Block array.

use crate::key::SortKey;
use crate::layout::Layout;
use atoll_array::{DistArray, Distribution, StridedRange, View};
use atoll_error::Result;
use atoll_runtime::Ctx;

/// This locale's keys of the Block layout: borrowed from the input, or a redistributed copy.
pub(crate) enum LocalKeys<'a, K: SortKey> {
    /// The input's own storage (it was laid out as the Block layout).
    Borrowed(&'a [K]),
    /// A Block copy of the input.
    Owned(DistArray<K, 1>),
}

impl<K: SortKey> LocalKeys<'_, K> {
    /// The keys of this locale's positions, in order.
    pub(crate) fn as_slice(&self) -> &[K] {
        match self {
            LocalKeys::Borrowed(s) => s,
            LocalKeys::Owned(a) => a.local(),
        }
    }
}

/// Where this locale's Block part of `view` starts in its array's local storage, if every
/// locale owns exactly its Block part of the view, contiguously. Pure index math (the same
/// answer on every locale).
fn aligned_start<K: SortKey, M: Distribution<1> + 'static>(view: &View<'_, K, 1, M>, layout: &Layout) -> Result<Option<usize>> {
    let dist = view.dist();
    let mut mine = None;
    for l in 0..layout.locales() {
        let (blo, bhi) = (layout.bounds[l], layout.bounds[l + 1]);
        let runs = if dist.grid().contains(l) { Some(dist.runs(l, view.domain())?) } else { None };
        let pieces = runs.as_ref().map_or(&[][..], |r| &r.pieces()[0][..]);
        let start = match pieces {
            [] if blo == bhi => 0,
            [p] if p.sub_start == blo && p.len() == bhi - blo && (p.len() == 1 || p.local_stride == 1) => p.local_start,
            _ => return Ok(None),
        };
        if l == layout.me {
            mine = Some(start);
        }
    }
    Ok(mine)
}

/// This locale's keys of `view` at its Block positions. **Collective** (a bulk assignment
/// when the view is not laid out as the Block layout).
pub(crate) fn block_keys<'a, K: SortKey, M: Distribution<1> + 'static>(
    view: &View<'a, K, 1, M>,
    layout: &Layout,
) -> Result<LocalKeys<'a, K>> {
    if let Some(start) = aligned_start(view, layout)? {
        return Ok(LocalKeys::Borrowed(&view.array_local()[start..start + layout.len_here()]));
    }
    let mut copy = DistArray::<K, 1>::zeros_lazy(view.ctx(), layout.dist.clone())?;
    copy.assign(view)?;
    Ok(LocalKeys::Owned(copy))
}

mod private {
    /// Seals [`super::SortColumn`].
    pub trait Sealed {}
}

/// A key column of [`coargsort`](crate::coargsort): a 1-D [`DistArray`] or [`View`] of `i64`,
/// `u64` or `f64` over any distribution (sealed; use `&a` or `&a.view()` as a `&dyn
/// SortColumn`).
pub trait SortColumn: private::Sealed {
    /// The number of keys.
    fn len(&self) -> usize;
    /// Whether there is no key.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The locale context of the column.
    fn ctx(&self) -> &Ctx;
    /// The key type's name (`i64`, `u64`, `f64`).
    fn key_name(&self) -> &'static str;
    /// The column's indices (its index space: position `p` is index `index_range().nth(p)`).
    fn index_range(&self) -> StridedRange;
    /// Writes the order-preserving images of this locale's keys of the Block layout into
    /// `out[offset + j * stride]` for position `j`. **Collective.**
    #[doc(hidden)]
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()>;
}

impl<K: SortKey, M: Distribution<1> + 'static> private::Sealed for View<'_, K, 1, M> {}
impl<K: SortKey, M: Distribution<1> + 'static> private::Sealed for DistArray<K, 1, M> {}

impl<K: SortKey, M: Distribution<1> + 'static> SortColumn for View<'_, K, 1, M> {
    fn len(&self) -> usize {
        View::len(self)
    }
    fn ctx(&self) -> &Ctx {
        View::ctx(self)
    }
    fn key_name(&self) -> &'static str {
        K::NAME
    }
    fn index_range(&self) -> StridedRange {
        View::domain(self).dims()[0]
    }
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()> {
        let layout = Layout::new(View::ctx(self), layout_n)?;
        let keys = block_keys(self, &layout)?;
        let keys = keys.as_slice();
        let ctx = View::ctx(self);
        let chunks = crate::raw::ChunksStrided::new(out, stride);
        chunks.check(keys.len(), offset)?;
        ctx.forall_chunks(0..keys.len(), |r| {
            for j in r {
                // SAFETY: each position j is written by one task only (the chunks partition
                // the range), and j * stride + offset is inside `out` (checked in `new`).
                unsafe { chunks.write(j, offset, keys[j].to_ordered()) };
            }
        });
        Ok(())
    }
}

impl<K: SortKey, M: Distribution<1> + 'static> SortColumn for DistArray<K, 1, M> {
    fn len(&self) -> usize {
        DistArray::len(self)
    }
    fn ctx(&self) -> &Ctx {
        DistArray::ctx(self)
    }
    fn key_name(&self) -> &'static str {
        K::NAME
    }
    fn index_range(&self) -> StridedRange {
        DistArray::domain(self).dims()[0]
    }
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()> {
        self.view().write_images(layout_n, out, stride, offset)
    }
}
