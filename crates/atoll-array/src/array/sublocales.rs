//! Block arrays whose pieces target sublocales (as in the Chapel hierarchical-locales talk:
//! `dmapped Block(targetLocales = sublocs)`).
//!
//! [`Targets::Sublocales`] keeps the array's locale-level [`Block`] layout (so it is aligned
//! with, and zips without messages against, an ordinary Block array over the same domain) and
//! divides each locale's block among that locale's sublocales by [`SublocaleBlock`]'s formula
//! (along the first dimension). Each sublocale's piece is first touched by that sublocale's
//! pinned pool when the array is made, and every loop the array leads (`zip_apply`,
//! `assign_expr`, `assign`, `fill`, reductions) runs each piece on the pool of the sublocale
//! that owns it: a static split, where ordinary arrays split their local part among the
//! sublocales in proportion to their threads. Everything else (views, remote `get`/`set`,
//! `gather`, followers) sees an ordinary Block array.

use crate::array::{DistArray, Inner, SubLayout};
use crate::elem::Elem;
use crate::storage::Storage;
use crate::zip::Plan;
use atoll_dist::{Block, Distribution, Domain, SublocaleBlock};
use atoll_error::Result;
use atoll_runtime::Ctx;
use std::ops::Range;

/// Which targets hold the pieces of a Block array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Targets {
    /// One piece per locale, split among its sublocales per loop in proportion to their
    /// threads (what `zeros`, `filled` and `from_fn` make).
    #[default]
    Locales,
    /// One piece per (locale, sublocale) pair ([`SublocaleBlock`]'s formula), first touched and
    /// processed by the sublocale's own pool.
    Sublocales,
}

/// The plan of a loop led by `arr` over `dom`: split by sublocale when the array's pieces
/// target sublocales.
pub(crate) fn plan<'a, T: Elem, const D: usize, M: Distribution<D> + 'static>(
    arr: &'a Inner<T, D, M>,
    dom: Domain<D>,
) -> Result<Plan<'a, D>> {
    let mut plan = Plan::new(&arr.ctx, &arr.dist, dom)?;
    if let Some(sub) = arr.sub.get() {
        plan.split_by_sublocales(sub.row_len, &sub.rows);
    }
    Ok(plan)
}

impl<T: Elem, const D: usize> DistArray<T, D, Block<D>> {
    /// An array of zeros over `dist` whose pieces target `targets`. With
    /// [`Targets::Sublocales`] each sublocale's pool writes (first touches) its own piece.
    /// **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray, ExprReduce, Targets};
    /// use atoll_runtime::{run, Config, SublocaleMode};
    /// run(Config::local(2).with_sublocales(SublocaleMode::Core), |ctx| {
    ///     let n = 1000;
    ///     let b = DistArray::from_fn_on(ctx, dist::block(ctx, [n])?, Targets::Sublocales, |[i]| i as f64)?;
    ///     let mut a = DistArray::<f64, 1>::zeros_on(ctx, dist::block(ctx, [n])?, Targets::Sublocales)?;
    ///     a.assign_expr(&b + 1.0)?; // each sublocale updates the piece it touched
    ///     assert_eq!(a.view().sum()?, (1..=n).sum::<usize>() as f64);
    ///     let (l, s) = a.owner_sublocale([n as i64 - 1])?;
    ///     assert_eq!(l, 1);
    ///     assert_eq!(s + 1, a.sublocale_ranges(1)?.len());
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`DistArray::zeros`].
    pub fn zeros_on(ctx: &Ctx, dist: Block<D>, targets: Targets) -> Result<Self> {
        Self::filled_on(ctx, dist, targets, T::default())
    }

    /// An array with every element `value` whose pieces target `targets`; with
    /// [`Targets::Sublocales`] each piece is first written by its sublocale's pool.
    /// **Collective.**
    ///
    /// # Errors
    /// As [`DistArray::zeros`].
    pub fn filled_on(ctx: &Ctx, dist: Block<D>, targets: Targets, value: T) -> Result<Self> {
        if targets == Targets::Locales {
            return Self::filled(ctx, dist, value);
        }
        let split = SublocaleBlock::new(dist.clone(), ctx.sublocale_counts()?)?;
        let a = Self::create_from(ctx, dist, |len| Storage::alloc_lazy(ctx, "DistArray::filled_on", len))?;
        let inner = a.view().inner();
        let layout = if inner.dist.grid().contains(ctx.id()) {
            let row_len: usize = inner.dist.local_shape(ctx.id())?[1..].iter().product();
            let ranges = split.local_ranges(ctx.id())?;
            let rows = ranges.iter().map(|r| r.start / row_len.max(1)..r.end / row_len.max(1)).collect();
            SubLayout { split, row_len, rows, ranges }
        } else {
            // Not in the grid: no piece here; every sublocale has nothing to do.
            let empty = vec![0..0; ctx.here().children().len()];
            SubLayout { split, row_len: 1, rows: empty.clone(), ranges: empty }
        };
        let store = &inner.store;
        ctx.forall_chunks_on_sublocales(&layout.ranges, 0, |_, r| {
            // SAFETY: the chunks of the sublocales' ranges are disjoint runs of this locale's
            // buffer (in bounds: the ranges partition it), each written by one task, and no
            // other reference to the buffer exists yet.
            unsafe { store.row_mut(r.start, r.len()) }.fill(value);
        })?;
        // The array was made just above: its layout is not set yet, so this cannot fail.
        let _ = inner.sub.set(layout);
        // Every locale has written its part before any locale reads it.
        ctx.barrier()?;
        Ok(a)
    }

    /// An array with element `idx` equal to `f(idx)`, whose pieces target `targets`, each
    /// element computed by the sublocale (or locale) that owns it. **Collective.**
    ///
    /// # Errors
    /// As [`DistArray::zeros`].
    pub fn from_fn_on(ctx: &Ctx, dist: Block<D>, targets: Targets, f: impl Fn([i64; D]) -> T + Sync) -> Result<Self> {
        if targets == Targets::Locales {
            return Self::from_fn(ctx, dist, f);
        }
        let mut a = Self::zeros_on(ctx, dist, targets)?;
        a.view_mut().zip_apply_indexed(crate::expr::Scalar(()), |i, x, ()| *x = f(i))?;
        Ok(a)
    }

    /// The targets of this array's pieces.
    pub fn targets(&self) -> Targets {
        if self.view().inner().sub.get().is_some() {
            Targets::Sublocales
        } else {
            Targets::Locales
        }
    }

    /// The (locale, sublocale) that owns `idx` ([`SublocaleBlock::owner`]'s formula).
    ///
    /// # Errors
    /// [`atoll_error::Error::IndexOutOfBounds`] outside the domain; [`atoll_error::Error::InvalidArgument`] when the
    /// array's pieces target locales.
    pub fn owner_sublocale(&self, idx: [i64; D]) -> Result<(usize, usize)> {
        self.split()?.owner(idx)
    }

    /// The local-offset ranges (in [`DistArray::local`] of that locale) of each sublocale of
    /// `locale`, in sublocale order; they partition the locale's part. **One-sided**, no message.
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when the array's pieces target locales, a grid error when
    /// `locale` holds no part.
    pub fn sublocale_ranges(&self, locale: usize) -> Result<Vec<Range<usize>>> {
        self.split()?.local_ranges(locale)
    }

    /// The indices that sublocale `sub` of `locale` owns.
    ///
    /// # Errors
    /// As [`DistArray::sublocale_ranges`], and [`atoll_error::Error::InvalidArgument`] for a bad `sub`.
    pub fn sublocale_domain(&self, locale: usize, sub: usize) -> Result<Domain<D>> {
        self.split()?.sublocale_domain(locale, sub)
    }

    fn split(&self) -> Result<&SublocaleBlock<D>> {
        match self.view().inner().sub.get() {
            Some(l) => Ok(&l.split),
            None => Err(atoll_error::invalid_arg!(
                "this array's pieces target locales, not sublocales (see Targets::Sublocales)"
            )),
        }
    }
}
