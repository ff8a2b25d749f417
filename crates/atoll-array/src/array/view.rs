//! [`View`]: a read-only view of a [`DistArray`].

#[cfg(doc)]
use super::DistArray;
use super::{Inner, IntoDomain};
use crate::elem::Elem;
use crate::zip::Plan;
use atoll_dist::{Block, Distribution, Domain};
#[cfg(doc)]
use atoll_error::Error;
use atoll_error::Result;
use atoll_runtime::Ctx;

/// A read-only view of a [`DistArray`]: its elements at the indices of a sub-domain (strided
/// allowed), in the array's index space. O(1) to make and to copy, no message. It works
/// wherever an array does (as an operand of expressions, zips, assignments and reductions),
/// and it travels by value: serialized, it is the array's collective id and the sub-domain,
/// and it arrives as a [`SharedView`](super::SharedView) on the receiving locale.
pub struct View<'a, T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    pub(crate) arr: &'a Inner<T, D, M>,
    pub(crate) dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Clone for View<'_, T, D, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Copy for View<'_, T, D, M> {}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> std::fmt::Debug for View<'_, T, D, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "View<{}>({} of {} over {})", T::NAME, self.dom, self.arr.dist.kind(), self.arr.dist.domain())
    }
}

impl<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> View<'a, T, D, M> {
    /// The view's indices.
    pub fn domain(&self) -> &Domain<D> {
        &self.dom
    }

    /// The shape.
    pub fn shape(&self) -> [usize; D] {
        self.dom.shape()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.dom.size()
    }

    /// Whether the view has no element.
    pub fn is_empty(&self) -> bool {
        self.dom.is_empty()
    }

    /// The array's distribution.
    pub fn dist(&self) -> &'a M {
        &self.arr.dist
    }

    /// The locale context.
    pub fn ctx(&self) -> &'a Ctx {
        &self.arr.ctx
    }

    pub(crate) fn inner(&self) -> &'a Inner<T, D, M> {
        self.arr
    }

    /// A view of this view: `sub` must lie inside it (indices are the array's). O(1).
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and this view's domain.
    pub fn slice(&self, sub: impl IntoDomain<D>) -> Result<View<'a, T, D, M>> {
        Ok(View { arr: self.arr, dom: self.dom.slice(&sub.into_domain()?)? })
    }

    /// Element `idx` (an index of the array inside the view). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the view.
    #[track_caller]
    pub fn get(&self, idx: [i64; D]) -> Result<T> {
        self.dom.ensure_contains(idx)?;
        let (owner, off) = self.arr.dist.locate(idx);
        let ctx = &self.arr.ctx;
        if owner == ctx.id() {
            // SAFETY: `locate` of an index of the domain gives an offset inside its owner's part.
            Ok(unsafe { self.arr.store.read(off) })
        } else {
            let mut v = [T::default()];
            self.arr.store.get(ctx, owner, off, &mut v)?;
            Ok(v[0])
        }
    }

    /// Gathers the view, in row-major order, on locale `root` (`None` elsewhere): one strided
    /// get per patch that a remote locale owns. On every locale: [`to_vec`](Self::to_vec).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad `root`; a communication error.
    pub fn gather(&self, root: usize) -> Result<Option<Vec<T>>> {
        let ctx = &self.arr.ctx;
        ctx.check_locale(root)?;
        ctx.barrier()?;
        let r = if ctx.id() == root { self.gather_here().map(Some) } else { Ok(None) };
        ctx.barrier()?;
        r
    }

    pub(crate) fn gather_here(&self) -> Result<Vec<T>> {
        let (arr, ctx) = (self.arr, &self.arr.ctx);
        let mut out = vec![T::default(); self.dom.size()];
        let mut buf = Vec::new();
        for &t in arr.dist.grid().targets() {
            let runs = arr.dist.runs(t, &self.dom)?;
            for p in runs.patches() {
                let shape = p.global.shape();
                if t == ctx.id() {
                    for (_, loc, sub) in p.iter() {
                        // SAFETY: `runs` gives offsets inside this locale's part.
                        out[sub] = unsafe { arr.store.read(loc) };
                    }
                    continue;
                }
                buf.clear();
                buf.resize(p.len(), T::default());
                arr.store.get_strided(ctx, t, p.local_offset, &shape, &p.local_strides, &mut buf)?;
                crate::util::scatter(&mut out, p.sub_offset, &p.sub_strides, &shape, &buf);
            }
        }
        Ok(out)
    }

    /// The plan of a zip led by this view.
    pub(crate) fn plan(&self) -> Result<Plan<'a, D>> {
        crate::array::sublocales::plan(self.arr, self.dom)
    }
}
