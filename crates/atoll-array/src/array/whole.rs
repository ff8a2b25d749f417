//! The whole-array operations of [`DistArray`]: element access, gather, fill, assignment,
//! zips, and `free` (each the same operation on the whole [`View`] or [`ViewMut`]).

#[cfg(doc)]
use super::ViewMut;
use super::{DistArray, Inner, View};
use crate::elem::Elem;
use crate::expr::{Expr, IntoExpr};
use atoll_dist::Distribution;
#[cfg(doc)]
use atoll_error::Error;
use atoll_error::{invalid_arg, Result};
use std::sync::Arc;

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    /// Element `idx`: a local read, or one remote get (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn get(&self, idx: [i64; D]) -> Result<T> {
        self.view().get(idx)
    }

    /// Sets element `idx`: a local write, or one remote put (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn set(&mut self, idx: [i64; D], value: T) -> Result<()> {
        self.view_mut().set(idx, value)
    }

    /// Gathers the whole array, in row-major order, on locale `root` (`None` elsewhere); on
    /// every locale: [`to_vec`](Self::to_vec); an indexed read `a[idx]`: [`take`](Self::take).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad `root`; a communication error.
    pub fn gather(&self, root: usize) -> Result<Option<Vec<T>>> {
        self.view().gather(root)
    }

    /// Sets every element to `value`. **Collective.**
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.view_mut().fill(value)
    }

    /// `self = expr`, elementwise, in one fused owner-computes pass. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when an operand's shape differs.
    pub fn assign_expr<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        self.view_mut().assign_expr(expr)
    }

    /// `self = src` with bulk transfers (see [`ViewMut::assign`]). **Collective.**
    ///
    /// # Errors
    /// As [`ViewMut::assign`].
    pub fn assign<M2: Distribution<D> + 'static>(&mut self, src: &View<'_, T, D, M2>) -> Result<()> {
        self.view_mut().assign(src)
    }

    /// Zippered `forall`: `f(&mut self[i], operands[i])` for every index, run by the owner of
    /// `self[i]` (the leader). **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply<E: IntoExpr<D>>(
        &mut self,
        operands: E,
        f: impl Fn(&mut T, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        self.view_mut().zip_apply(operands, f)
    }

    /// `self = expr` led by the owning expression (see [`ViewMut::assign_expr_owning`]).
    /// **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn assign_expr_owning<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        self.view_mut().assign_expr_owning(expr)
    }

    /// Frees the array on every locale. **Collective.** (Dropping it does the same, without
    /// reporting errors.)
    pub fn free(self) -> Result<()> {
        // Views borrow the array, so none is alive here; a SharedView holds only a weak link.
        match Arc::try_unwrap(self.inner) {
            Ok(inner) => {
                let Inner { store, .. } = inner;
                store.free()
            }
            Err(_) => Err(invalid_arg!("the array is in use by a SharedView on this locale")),
        }
    }
}
