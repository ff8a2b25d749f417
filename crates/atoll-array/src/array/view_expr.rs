//! The view as an operand: [`ViewBound`], the [`Expr`], [`Bound`] and [`IntoExpr`] impls of
//! [`View`] and `&DistArray`, and the operators on `&DistArray`.

use super::{DistArray, Inner, View};
use crate::elem::Elem;
use crate::expr::{Bound, Expr, IntoExpr};
use crate::zip::{Plan, Seg};
use atoll_dist::{Distribution, Domain};
use atoll_error::Result;

/// A [`View`] bound to a leader.
pub struct ViewBound<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> {
    arr: &'a Inner<T, D, M>,
    dom: Domain<D>,
    aligned: bool,
    follow: Option<crate::follow::Follow>,
    /// For a 1-D view of the leader's distribution shifted by a constant: the shift
    /// (`follow/shift.rs`).
    shift: Option<i64>,
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> Expr<D> for View<'v, T, D, M> {
    type Item = T;
    type Bound<'a>
        = ViewBound<'a, T, D, M>
    where
        Self: 'a;
    fn shape(&self) -> Option<[usize; D]> {
        Some(self.dom.shape())
    }
    fn lead(&self) -> Option<Result<Plan<'_, D>>> {
        Some(self.plan())
    }
    fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn crate::expr::Operand<D>)) {
        f(self);
    }
    fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<ViewBound<'a, T, D, M>> {
        plan.check_shape(self.dom.shape(), || format!("a view over {}", self.dom))?;
        let aligned = plan.is_aligned(&self.arr.dist, &self.dom);
        let follow = if aligned { None } else { Some(crate::follow::Follow::new(&self.arr.ctx)?) };
        let shift = if aligned { None } else { crate::follow::shift::shift_of(plan, &self.arr.dist, &self.dom) };
        Ok(ViewBound { arr: self.arr, dom: self.dom, aligned, follow, shift })
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> crate::expr::Operand<D> for View<'_, T, D, M> {
    fn plan(&self) -> Result<Plan<'_, D>> {
        crate::array::sublocales::plan(self.arr, self.dom)
    }
    fn aligned_with(&self, plan: &Plan<'_, D>) -> bool {
        plan.is_aligned(&self.arr.dist, &self.dom)
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Bound<D> for ViewBound<'_, T, D, M> {
    type Item = T;
    type Scratch = crate::follow::FollowBuf<T>;
    type Row<'s>
        = crate::StridedRow<'s, T>
    where
        Self: 's;
    fn aligned(&self) -> bool {
        self.aligned
    }
    fn local_order(&self) -> bool {
        self.aligned || self.shift.is_some()
    }
    #[inline]
    fn row<'s>(&'s self, seg: &Seg<D>, buf: &'s mut crate::follow::FollowBuf<T>) -> Result<crate::StridedRow<'s, T>> {
        if let (false, Some(follow)) = (self.aligned, &self.follow) {
            if let (true, Some(s)) = (seg.flat, self.shift) {
                return crate::follow::shift::fetch_shifted(self.arr, s, seg, follow, buf);
            }
            return crate::follow::fetch(self.arr, &self.dom, seg, follow, buf);
        }
        // An aligned operand reads the leader's local offsets in place, at the leader's step.
        crate::follow::local_row(&self.arr.store, seg.off, seg.off_step, seg.len)
    }
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> IntoExpr<D> for View<'v, T, D, M> {
    type Expr = Self;
    fn into_expr(self) -> Self {
        self
    }
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> IntoExpr<D> for &'v DistArray<T, D, M> {
    type Expr = View<'v, T, D, M>;
    fn into_expr(self) -> View<'v, T, D, M> {
        self.view()
    }
}

crate::impl_expr_ops!(['v, T: Elem, const D: usize, M: Distribution<D> + 'static] View<'v, T, D, M>);

/// Operators on `&DistArray` build expressions over its whole view.
macro_rules! array_ops {
    ($($tr:ident $m:ident $op:ident),*) => {$(
        impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static, Rhs: IntoExpr<D>> std::ops::$tr<Rhs> for &'v DistArray<T, D, M>
        where
            crate::expr::$op: crate::expr::BinOp<T, <Rhs::Expr as Expr<D>>::Item>,
        {
            type Output = crate::expr::Bin<View<'v, T, D, M>, Rhs::Expr, crate::expr::$op, D>;
            fn $m(self, rhs: Rhs) -> Self::Output {
                crate::expr::bin(self.view(), rhs.into_expr(), crate::expr::$op)
            }
        }
    )*};
}
array_ops!(Add add AddOp, Sub sub SubOp, Mul mul MulOp, Div div DivOp, Rem rem RemOp);

macro_rules! scalar_array_ops {
    ($($s:ty),*) => {$(
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Mul<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::MulOp, D>;
            fn mul(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::MulOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Add<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::AddOp, D>;
            fn add(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::AddOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Sub<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::SubOp, D>;
            fn sub(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::SubOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Div<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::DivOp, D>;
            fn div(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::DivOp)
            }
        }
    )*};
}
scalar_array_ops!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// `Scalar(x) op &array`, as `x op &array`: an expression over the array's whole view.
macro_rules! scalar_lhs_array_ops {
    ($($tr:ident $m:ident $op:ident),*) => {$(
        impl<'v, S: Copy + Send + Sync, T: Elem, const D: usize, M: Distribution<D> + 'static>
            std::ops::$tr<&'v DistArray<T, D, M>> for crate::expr::Scalar<S>
        where
            crate::expr::$op: crate::expr::BinOp<S, T>,
        {
            type Output = crate::expr::Bin<crate::expr::Scalar<S>, View<'v, T, D, M>, crate::expr::$op, D>;
            fn $m(self, rhs: &'v DistArray<T, D, M>) -> Self::Output {
                crate::expr::bin(self, rhs.view(), crate::expr::$op)
            }
        }
    )*};
}
scalar_lhs_array_ops!(Add add AddOp, Sub sub SubOp, Mul mul MulOp, Div div DivOp, Rem rem RemOp);
