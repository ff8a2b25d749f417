//! Gather into a preallocated output: [`DistArray::take_into`], the non-allocating form of
//! [`DistArray::take`] (the same aggregated reads, the output given).

use super::{admit, agree, as_store_mut, check_indices, parts, resolve, run_parts, split_parts, IndexElem, IrregularOptions, Locator};
use crate::array::DistArray;
use crate::elem::Elem;
use atoll_dist::Distribution;
use atoll_error::{Error, Result};
use atoll_runtime::SrcAggregator;

impl<T: Elem, M: Distribution<1> + 'static> DistArray<T, 1, M> {
    /// [`take`](Self::take) into `out`, an array distributed like `idx` (same
    /// distribution and domain): `out[j] = self[idx[j]]`, aggregated. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let a = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[i]| i as u64 * 2)?;
    ///     let idx = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[j]| 99 - j)?;
    ///     let mut out = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [100])?)?;
    ///     a.take_into(&idx, &mut out)?;
    ///     assert_eq!(out.get([0])?, 198);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `out` is not distributed like `idx`; otherwise as
    /// [`take_with`](Self::take_with).
    pub fn take_into<I: IndexElem, MI: Distribution<1> + 'static>(&self, idx: &DistArray<I, 1, MI>, out: &mut DistArray<T, 1, MI>) -> Result<()> {
        let ctx = self.ctx();
        if out.dist() != idx.dist() || out.domain() != idx.domain() {
            return Err(Error::ShapeMismatch {
                context: "DistArray::take_into (output and indices)".into(),
                left: format!("an output over {}", out.domain()),
                right: format!("indices over {}", idx.domain()),
            });
        }
        let (cap, tasks) = resolve(ctx, &IrregularOptions::default())?;
        check_indices(ctx, idx, self.domain(), "a gather")?;
        let len = idx.local().len();
        admit(ctx, "DistArray::take_into (aggregation buffers)", len, tasks, cap, 16 + size_of::<T>())?;
        // The values of `self` written before the call are complete everywhere, and every
        // locale is done reading `out` before anyone writes it.
        ctx.barrier()?;
        let view = self.view();
        let src = view.inner();
        let loc = Locator::new(&src.dist);
        let bases: Vec<u64> = (0..ctx.num_locales()).map(|l| src.store.base_addr(l)).collect();
        let es = size_of::<T>() as u64;
        let ranges = parts(len, tasks);
        let indices = idx.local();
        // SAFETY: only values read from `self`'s storage of `T` are written through it.
        let out_store = unsafe { as_store_mut(out.local_mut()) };
        let chunks = split_parts(out_store, &ranges);
        let failure = run_parts(ctx, tasks, |p| {
            let mut guard = chunks[p].lock().unwrap_or_else(|e| e.into_inner());
            let slots: &mut [T::Store] = &mut guard;
            let ids = &indices[ranges[p].clone()];
            let mut agg = SrcAggregator::<T::Store>::with_capacity(ctx, cap.min(ids.len().max(1)))?;
            for (slot, &i) in slots.iter_mut().zip(ids) {
                let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
                agg.get_at(owner, bases[owner] + off as u64 * es, slot)?;
            }
            agg.finish()
        });
        drop(chunks);
        agree(ctx, failure)?;
        ctx.barrier()
    }
}
