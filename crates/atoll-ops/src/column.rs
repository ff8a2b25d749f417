//! Sort inputs: [`SortColumn`] (the key-column trait: 1-D arrays and views of [`SortKey`]s of
//! any distribution here, other key types such as strings in their own crates) and how
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
fn aligned_start<K: SortKey, M: Distribution<1> + 'static>(
    view: &View<'_, K, 1, M>,
    layout: &Layout,
) -> Result<Option<usize>> {
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

/// A key column of [`coargsort`](crate::coargsort), [`GroupBy`](crate::GroupBy) and
/// [`group_flags`](crate::group_flags): anything that gives each row an order-preserving `u64`
/// image. Implemented here for 1-D [`DistArray`]s and [`View`]s of `i64`, `u64` and `f64` over
/// any distribution (use `&a` or `&a.view()` as a `&dyn SortColumn`); other crates implement it
/// for their own key types (`atoll-strings` for strings and categoricals: each string's rank
/// among the distinct strings), so that one `coargsort` sorts strings and numbers together.
///
/// # Contract of an implementation
/// - Row `p` (`0 <= p < len()`) has one image `u64`; rows sort as their images do (smaller
///   image first) and two rows are the same key exactly when their images are equal. Images
///   need only be comparable within one column of one call: each column has its own slot in
///   the sort records (a column may recompute them, e.g. ranks, on every call).
/// - [`write_images`](Self::write_images) is **collective**: every locale calls it with the
///   same `layout_n` (the column's length), and locale `l` writes the images of the positions
///   it owns in the Block distribution of `0..layout_n` (`dist::block`), in order: position
///   `lo + j` goes to `out[offset + j * stride]`. It writes nothing else, and on error it
///   returns the same error on every locale.
pub trait SortColumn {
    /// The number of keys.
    fn len(&self) -> usize;
    /// Whether there is no key.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The locale context of the column.
    fn ctx(&self) -> &Ctx;
    /// The key type's name (`i64`, `u64`, `f64`, `str`, ...), for error messages.
    fn key_name(&self) -> &'static str;
    /// The column's indices (its index space: position `p` is index `index_range().nth(p)`).
    fn index_range(&self) -> StridedRange;
    /// Writes the order-preserving images of this locale's keys of the Block layout of
    /// `0..layout_n` into `out[offset + j * stride]` for its `j`-th position (see the trait's
    /// contract). **Collective.**
    ///
    /// # Errors
    /// On every locale: an error of the column (a failed redistribution, an out-of-memory),
    /// or [`atoll_error::Error::InvalidArgument`] when `out` is too short.
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()>;
}

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
