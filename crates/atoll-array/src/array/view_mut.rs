//! [`ViewMut`]: a writable view of a [`DistArray`], and the loop of its zips (`apply_led`).

use super::rows::update_row;
#[cfg(doc)]
use super::DistArray;
use super::{Inner, IntoDomain, View};
use crate::elem::Elem;
use crate::expr::{Bound, Expr, IntoExpr};
use crate::zip::local_only;
use crate::zip::{Plan, Row};
use atoll_dist::{Block, Distribution, Domain};
use atoll_error::{Error, Result};
use std::marker::PhantomData;

/// A writable view of a [`DistArray`] (see [`View`]); it borrows the array exclusively.
pub struct ViewMut<'a, T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    pub(super) arr: &'a Inner<T, D, M>,
    pub(super) dom: Domain<D>,
    pub(super) _excl: PhantomData<&'a mut ()>,
}

impl<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> ViewMut<'a, T, D, M> {
    /// The read-only view of the same elements.
    pub fn as_view(&self) -> View<'_, T, D, M> {
        View { arr: self.arr, dom: self.dom }
    }

    /// A writable view of part of this view.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and this view's domain.
    pub fn slice_mut(&mut self, sub: impl IntoDomain<D>) -> Result<ViewMut<'_, T, D, M>> {
        Ok(ViewMut { arr: self.arr, dom: self.dom.slice(&sub.into_domain()?)?, _excl: PhantomData })
    }

    /// The view's indices.
    pub fn domain(&self) -> &Domain<D> {
        &self.dom
    }

    /// Sets element `idx`: a local write or one remote put (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the view.
    #[track_caller]
    pub fn set(&mut self, idx: [i64; D], value: T) -> Result<()> {
        self.dom.ensure_contains(idx)?;
        let (owner, off) = self.arr.dist.locate(idx);
        let ctx = &self.arr.ctx;
        if owner == ctx.id() {
            // SAFETY: in bounds (see `View::get`); `&mut self` excludes local readers.
            unsafe { self.arr.store.write(off, value) };
            Ok(())
        } else {
            self.arr.store.put(ctx, owner, off, &[value])
        }
    }

    /// Sets every element of the view to `value`. **Collective.**
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.assign_expr(crate::expr::Scalar(value))
    }

    /// `self = expr`, elementwise, in one fused owner-computes pass: each locale computes the
    /// elements of the view it owns; operands aligned with the view are read in place, others
    /// are fetched (see the crate docs). **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when an operand's shape differs.
    pub fn assign_expr<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        let expr = expr.into_expr();
        let plan = self.as_view().plan()?;
        // Large destinations: streaming stores (storage/stream_store.rs).
        let stream = crate::storage::stream_store::worth_it::<T>(plan.local_iterations());
        apply_led(self.arr, plan, &expr, |x, v| *x = v, stream)
    }

    /// Zippered `forall` led by this view: `f(&mut self[i], operands[i])`. **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply<E: IntoExpr<D>>(
        &mut self,
        operands: E,
        f: impl Fn(&mut T, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        let expr = operands.into_expr();
        apply_led(self.arr, self.as_view().plan()?, &expr, f, false)
    }

    /// Zippered `forall` led by this view that also **writes a follower**:
    /// `f(&mut self[i], &mut other[i], operands[i])`. Each chunk of `other` is fetched like a
    /// read follower (aggregated by the [`Aggregation`](crate::Aggregation) mode), updated by
    /// `f`, and the elements of each remote patch are sent back after the chunk, with one
    /// strided put per patch in which something changed (element puts in `off` mode). Each
    /// element of `other` is visited by one iteration, so the loop writes it from one task
    /// only. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, Cyclic, DistArray};
    /// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
    ///     let n = 100;
    ///     let mut a = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i)?;
    ///     let mut b = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    ///     // b[i + 1] = 10 a[i] and a[i] += 1 for i < n - 1 (b's chunks are on the other locale).
    ///     a.slice_mut(0..n as i64 - 1)?.zip_apply_with_mut(&mut b.slice_mut(1..n as i64)?, 10i64, |x, y, k| {
    ///         *y = *x * k;
    ///         *x += 1;
    ///     })?;
    ///     assert_eq!((a.get([5])?, b.get([6])?, b.get([0])?), (6, 50, 0));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `other` or an operand has another shape.
    pub fn zip_apply_with_mut<U: Elem, M2: Distribution<D> + 'static, E: IntoExpr<D>>(
        &mut self,
        other: &mut ViewMut<'_, U, D, M2>,
        operands: E,
        f: impl Fn(&mut T, &mut U, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        let expr = operands.into_expr();
        let (store, ctx) = (&self.arr.store, &self.arr.ctx);
        let (oarr, odom) = (other.arr, other.dom);
        let plan = self.as_view().plan()?;
        // Purely local (no leading barrier) when the written follower and every operand are
        // aligned.
        let local = plan.is_aligned(&oarr.dist, &odom) && expr.bind(&plan).is_ok_and(|b| b.aligned());
        local_only::fenced_unless(ctx, local, || {
            plan.check_shape(odom.shape(), || format!("the written follower over {odom}"))?;
            let bound = expr.bind(&plan)?;
            let follow = crate::follow::Follow::new(ctx)?;
            let aligned = plan.is_aligned(&oarr.dist, &odom);
            plan.for_each(|seg, (scratch, fb): &mut (_, crate::follow::FollowBuf<U>)| {
                let row = bound.row(seg, scratch)?;
                if aligned {
                    // The follower has the leader's local offsets.
                    crate::zip::unit_versioned!(row, |row| update_row(
                        store,
                        seg,
                        #[inline(always)]
                        |j, x| {
                            let o = seg.off + j * seg.off_step;
                            // SAFETY: an aligned operand's offsets are in bounds, and this task is
                            // the only one visiting iteration j of this segment.
                            unsafe {
                                let mut y = oarr.store.read(o);
                                f(x, &mut y, row.at(j));
                                oarr.store.write(o, y);
                            }
                        }
                    ));
                    return Ok(());
                }
                // The group's chunk is fetched at its first row and sent back after its last.
                if seg.row == 0 {
                    let sub = odom.slice_positions(&seg.group_positions())?;
                    crate::follow::fetch_into(oarr, &sub, seg.group_len(), &follow, fb)?;
                    fb.orig.clone_from(&fb.row);
                }
                let vals = &mut fb.row[seg.row * seg.len..(seg.row + 1) * seg.len];
                crate::zip::unit_versioned!(row, |row| update_row(
                    store,
                    seg,
                    #[inline(always)]
                    |j, x| f(x, &mut vals[j], row.at(j))
                ));
                if seg.row + 1 < seg.rows {
                    return Ok(());
                }
                let sub = odom.slice_positions(&seg.group_positions())?;
                crate::follow::store(oarr, &sub, &fb.row, Some(&fb.orig), &follow, &mut fb.packed)
            })
        })
    }

    /// Zippered `forall` with the index: `f(idx, &mut self[idx], operands[i])`. **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply_indexed<E: IntoExpr<D>>(
        &mut self,
        operands: E,
        f: impl Fn([i64; D], &mut T, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        let expr = operands.into_expr();
        let (store, dom) = (&self.arr.store, self.dom);
        let ctx = &self.arr.ctx;
        let plan = self.as_view().plan()?;
        let local = expr.bind(&plan).is_ok_and(|b| b.aligned());
        local_only::fenced_unless(ctx, local, || {
            let bound = expr.bind(&plan)?;
            plan.for_each(|seg, scratch| {
                let row = bound.row(seg, scratch)?;
                let idx: [i64; D] = std::array::from_fn(|d| dom.dims()[d].nth(seg.pos[d]).unwrap_or(0));
                let stride = dom.dims()[D - 1].stride() as i64 * seg.step as i64;
                let first = idx[D - 1];
                crate::zip::unit_versioned!(row, |row| update_row(
                    store,
                    seg,
                    #[inline(always)]
                    |j, x| {
                        let mut i = idx;
                        i[D - 1] = first + j as i64 * stride;
                        f(i, x, row.at(j))
                    }
                ));
                Ok(())
            })
        })
    }

    /// `self = expr` led by the **owning expression** (Section 6.3 of the modulo-unrolling
    /// paper): the leader is the operand, among this view and the expression's array operands,
    /// with which most operands are aligned, so that most accesses are local; this view on a
    /// tie. When the leader is not this view, each locale computes the values of the leader's
    /// elements it owns and writes them to their owners with aggregated puts (one strided put
    /// per remote patch in `static`/`auto` modes). The choice depends only on distributions and
    /// domains, so every locale makes the same. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, Cyclic, DistArray};
    /// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
    ///     let n = 1000;
    ///     let b = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i as f64)?;
    ///     let mut a = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    ///     let (lo, hi) = (0..n as i64 - 1, 1..n as i64);
    ///     ctx.reset_comm_diagnostics()?;
    ///     ctx.start_comm_diagnostics()?;
    ///     // a[1..] = b[..n-1] * b[..n-1] + b[..n-1]: led by b's view, a is written remotely.
    ///     a.slice_mut(hi)?.assign_expr_owning(b.slice(lo.clone())? * b.slice(lo.clone())? + b.slice(lo)?)?;
    ///     ctx.stop_comm_diagnostics()?;
    ///     assert_eq!(ctx.comm_counts().strided_puts, 1); // one put per locale, no get
    ///     assert_eq!(ctx.comm_counts().gets + ctx.comm_counts().strided_gets, 0);
    ///     assert_eq!(a.get([7])?, 6.0 * 6.0 + 6.0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn assign_expr_owning<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        let expr = expr.into_expr();
        let (arr, dom) = (self.arr, self.dom);
        let me = View { arr, dom };
        let mut cands: Vec<&dyn crate::expr::Operand<D>> = vec![&me];
        expr.operands(&mut |o| cands.push(o));
        let mut best: Option<(usize, Plan<'_, D>)> = None;
        let mut best_score = 0;
        for (k, c) in cands.iter().enumerate() {
            let plan = c.plan()?;
            let score = cands.iter().filter(|o| o.aligned_with(&plan)).count();
            if best.is_none() || score > best_score {
                (best, best_score) = (Some((k, plan)), score);
            }
        }
        let Some((k, plan)) = best else { return Err(Error::InvalidArgument("assign_expr_owning: no operand".into())) };
        if k == 0 {
            return apply_led(arr, plan, &expr, |x, v| *x = v, false);
        }
        let ctx = &arr.ctx;
        ctx.barrier()?;
        let r = (|| {
            plan.check_shape(dom.shape(), || format!("the destination view over {dom}"))?;
            let bound = expr.bind(&plan)?;
            let follow = crate::follow::Follow::new(ctx)?;
            plan.for_each(|seg, (scratch, fb): &mut (_, crate::follow::FollowBuf<T>)| {
                let row = bound.row(seg, scratch)?;
                // The group's values are sent after its last row.
                if seg.row == 0 {
                    fb.row.clear();
                }
                crate::zip::unit_versioned!(row, |row| fb.row.extend((0..seg.len).map(|j| row.at(j))));
                if seg.row + 1 < seg.rows {
                    return Ok(());
                }
                let sub = dom.slice_positions(&seg.group_positions())?;
                crate::follow::store(arr, &sub, &fb.row, None, &follow, &mut fb.packed)
            })
        })();
        ctx.barrier()?;
        r
    }

    /// `self = src`, with bulk transfers: each locale pulls the elements of its part of the
    /// view from their owners, one strided get per pair of (destination patch, source patch):
    /// for Block arrays one transfer per (source locale, destination locale) pair, for Cyclic
    /// one strided transfer per pair. Aligned operands copy locally. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when they differ.
    pub fn assign<M2: Distribution<D> + 'static>(&mut self, src: &View<'_, T, D, M2>) -> Result<()> {
        crate::array::assign::assign(self.arr, &self.dom, src)
    }
}

/// The loop of `zip_apply`: `f(&mut leader[i], expr[i])` over `plan`, the leader's plan.
/// With `stream` (only for an `f` that overwrites its element, as assignment does), contiguous
/// rows are written with streaming stores (`storage/stream_store.rs`). **Collective.**
fn apply_led<T: Elem, const D: usize, M: Distribution<D> + 'static, X: Expr<D>>(
    arr: &Inner<T, D, M>,
    mut plan: Plan<'_, D>,
    expr: &X,
    f: impl Fn(&mut T, X::Item) + Sync,
    stream: bool,
) -> Result<()> {
    let (store, ctx) = (&arr.store, &arr.ctx);
    let bound = expr.bind(&plan);
    let body = |plan: &Plan<'_, D>, bound: &X::Bound<'_>| {
        plan.for_each(|seg, scratch| {
            let row = bound.row(seg, scratch)?;
            if stream && seg.off_step == 1 {
                // SAFETY: as in `write_row` (a run of the leader's own storage; the segments of
                // one loop are disjoint).
                let out = unsafe { store.row_mut(seg.off, seg.len) };
                crate::zip::unit_versioned!(row, |row| crate::storage::stream_store::write_streaming(
                    out,
                    #[inline(always)]
                    |j| {
                        let mut x = T::default();
                        f(&mut x, row.at(j));
                        x
                    }
                ));
            } else {
                crate::zip::unit_versioned!(row, |row| update_row(
                    store,
                    seg,
                    #[inline(always)]
                    |j, x| f(x, row.at(j))
                ));
            }
            Ok(())
        })
    };
    match &bound {
        // Every operand is aligned: a purely local loop, no leading barrier (`zip/local_only.rs`).
        Ok(b) if b.aligned() => {
            plan.flatten();
            local_only::fenced_unless(ctx, true, || body(&plan, b))
        }
        // Every operand aligned or shifted: one pass in the leader's storage order
        // (`zip/local_order.rs`), after the leading barrier as any remote read.
        Ok(b) if b.local_order() && plan.flatten_local_order() => local_only::fenced(ctx, || body(&plan, b)),
        _ => local_only::fenced(ctx, || body(&plan, bound.as_ref().map_err(Clone::clone)?)),
    }
}
