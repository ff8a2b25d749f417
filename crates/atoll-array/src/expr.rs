//! Promoted elementwise expressions: arrays, views and scalars combined with `+ - * /`,
//! [`ExprExt::map`] and [`zip`](crate::zip()) tuples, evaluated in one fused pass by the zip engine
//! (no temporary array).

use crate::zip::{Plan, Row, Seg};
use atoll_error::Result;
use std::marker::PhantomData;
use std::ops::{Add, Div, Mul, Rem, Sub};

/// Something that yields one value per iteration of a zip of rank `D`: an array, a view, a
/// scalar (broadcast), or an expression of them.
pub trait Expr<const D: usize>: Sync {
    /// The value type.
    type Item: Copy + Send + Sync;
    /// The expression bound to a leader for one loop.
    type Bound<'a>: Bound<D, Item = Self::Item>
    where
        Self: 'a;
    /// The shape, or `None` for a scalar.
    fn shape(&self) -> Option<[usize; D]>;
    /// The plan of the first array operand, which leads when the expression is reduced.
    fn lead(&self) -> Option<Result<Plan<'_, D>>>;
    /// Binds the expression to a leader: checks shapes and decides how each operand fetches
    /// its values.
    fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<Self::Bound<'a>>;
    /// Calls `f` with each array operand, left to right (the candidates for the leader of
    /// the owning expression); scalars have none.
    fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn Operand<D>)) {
        let _ = f;
    }
}

/// An array operand as a possible leader (see [`Expr::operands`]).
pub trait Operand<const D: usize>: Sync {
    /// The plan this operand would lead.
    fn plan(&self) -> Result<Plan<'_, D>>;
    /// Whether the operand has `plan`'s local offsets (same distribution and domain).
    fn aligned_with(&self, plan: &Plan<'_, D>) -> bool;
}

/// An expression bound to a leader (see [`Expr::bind`]).
pub trait Bound<const D: usize>: Sync {
    /// The value type.
    type Item: Copy + Send + Sync;
    /// Per-task scratch space (buffers for values that are not in local storage in order).
    type Scratch: Default + Send;
    /// The values of one segment.
    type Row<'s>: Row<Item = Self::Item>
    where
        Self: 's;
    /// Whether every operand is aligned with the leader (then segments may cross rows).
    fn aligned(&self) -> bool;
    /// Whether every operand can read the flat segments of a local-order plan (aligned, or a
    /// shifted view of the leader's distribution: `zip/local_order.rs`).
    fn local_order(&self) -> bool {
        self.aligned()
    }
    /// The values of segment `seg`.
    fn row<'s>(&'s self, seg: &Seg<D>, scratch: &'s mut Self::Scratch) -> Result<Self::Row<'s>>;
}

/// Conversion into an [`Expr`]: expressions themselves, and the element types as scalars.
pub trait IntoExpr<const D: usize> {
    /// The expression.
    type Expr: Expr<D>;
    /// Converts.
    fn into_expr(self) -> Self::Expr;
}

// ----- scalars ----------------------------------------------------------------------------

/// A scalar broadcast to every iteration.
#[derive(Clone, Copy, Debug)]
pub struct Scalar<T>(pub T);

/// The row of a scalar.
#[derive(Clone, Copy, Debug)]
pub struct ScalarRow<T>(T);

impl<T: Copy> Row for ScalarRow<T> {
    type Item = T;
    #[inline(always)]
    fn at(&self, _: usize) -> T {
        self.0
    }
    type Unit<'r>
        = ScalarRow<T>
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<ScalarRow<T>> {
        Some(*self)
    }
}

impl<T: Copy + Send + Sync, const D: usize> Expr<D> for Scalar<T> {
    type Item = T;
    type Bound<'a>
        = Scalar<T>
    where
        T: 'a;
    fn shape(&self) -> Option<[usize; D]> {
        None
    }
    fn lead(&self) -> Option<Result<Plan<'_, D>>> {
        None
    }
    fn bind(&self, _: &Plan<'_, D>) -> Result<Scalar<T>> {
        Ok(*self)
    }
}

impl<T: Copy + Send + Sync, const D: usize> Bound<D> for Scalar<T> {
    type Item = T;
    type Scratch = ();
    type Row<'s>
        = ScalarRow<T>
    where
        T: 's;
    fn aligned(&self) -> bool {
        true
    }
    fn row<'s>(&'s self, _: &Seg<D>, _: &'s mut ()) -> Result<ScalarRow<T>> {
        Ok(ScalarRow(self.0))
    }
}

impl<T: Copy + Send + Sync, const D: usize> IntoExpr<D> for Scalar<T> {
    type Expr = Scalar<T>;
    fn into_expr(self) -> Scalar<T> {
        self
    }
}

macro_rules! scalar_into_expr {
    ($($t:ty),*) => {$(
        impl<const D: usize> IntoExpr<D> for $t {
            type Expr = Scalar<$t>;
            fn into_expr(self) -> Scalar<$t> {
                Scalar(self)
            }
        }
    )*};
}
scalar_into_expr!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool);

// ----- binary and unary nodes ---------------------------------------------------------------

/// A binary operation applied elementwise.
pub trait BinOp<A, B>: Copy + Send + Sync {
    /// The result type.
    type Output: Copy + Send + Sync;
    /// Applies the operation.
    fn apply(self, a: A, b: B) -> Self::Output;
}

macro_rules! std_op {
    ($name:ident, $tr:ident, $m:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;
        impl<A: $tr<B>, B> BinOp<A, B> for $name
        where
            A::Output: Copy + Send + Sync,
        {
            type Output = A::Output;
            #[inline(always)]
            fn apply(self, a: A, b: B) -> A::Output {
                a.$m(b)
            }
        }
    };
}
std_op!(AddOp, Add, add, "`a + b`.");
std_op!(SubOp, Sub, sub, "`a - b`.");
std_op!(MulOp, Mul, mul, "`a * b`.");
std_op!(DivOp, Div, div, "`a / b`.");
std_op!(RemOp, Rem, rem, "`a % b`.");

/// A closure applied to two operands (see [`ExprExt::zip_map`]).
#[derive(Clone, Copy)]
pub struct FnOp<F>(F);

impl<A, B, O: Copy + Send + Sync, F: Fn(A, B) -> O + Copy + Send + Sync> BinOp<A, B> for FnOp<F> {
    type Output = O;
    #[inline(always)]
    fn apply(self, a: A, b: B) -> O {
        (self.0)(a, b)
    }
}

/// `op(l, r)` elementwise: made by the arithmetic operators and [`ExprExt::zip_map`].
#[derive(Clone, Copy)]
pub struct Bin<L, R, O, const D: usize> {
    l: L,
    r: R,
    op: O,
    _rank: PhantomData<[(); D]>,
}

/// The row of a [`Bin`].
pub struct BinRow<L, R, O>(L, R, O);

impl<L: Row, R: Row, O: BinOp<L::Item, R::Item>> Row for BinRow<L, R, O> {
    type Item = O::Output;
    #[inline(always)]
    fn at(&self, j: usize) -> O::Output {
        self.2.apply(self.0.at(j), self.1.at(j))
    }
    type Unit<'r>
        = BinRow<L::Unit<'r>, R::Unit<'r>, O>
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<Self::Unit<'_>> {
        Some(BinRow(self.0.unit()?, self.1.unit()?, self.2))
    }
}

impl<const D: usize, L: Expr<D>, R: Expr<D>, O: BinOp<L::Item, R::Item>> Expr<D> for Bin<L, R, O, D> {
    type Item = O::Output;
    type Bound<'a>
        = Bin<L::Bound<'a>, R::Bound<'a>, O, D>
    where
        Self: 'a;
    fn shape(&self) -> Option<[usize; D]> {
        self.l.shape().or(self.r.shape())
    }
    fn lead(&self) -> Option<Result<Plan<'_, D>>> {
        self.l.lead().or_else(|| self.r.lead())
    }
    fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<Self::Bound<'a>> {
        Ok(bin(self.l.bind(plan)?, self.r.bind(plan)?, self.op))
    }
    fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn Operand<D>)) {
        self.l.operands(f);
        self.r.operands(f);
    }
}

impl<const D: usize, L: Bound<D>, R: Bound<D>, O: BinOp<L::Item, R::Item>> Bound<D> for Bin<L, R, O, D> {
    type Item = O::Output;
    type Scratch = (L::Scratch, R::Scratch);
    type Row<'s>
        = BinRow<L::Row<'s>, R::Row<'s>, O>
    where
        Self: 's;
    fn aligned(&self) -> bool {
        self.l.aligned() && self.r.aligned()
    }
    fn local_order(&self) -> bool {
        self.l.local_order() && self.r.local_order()
    }
    fn row<'s>(&'s self, seg: &Seg<D>, scratch: &'s mut Self::Scratch) -> Result<Self::Row<'s>> {
        let (a, b) = scratch;
        Ok(BinRow(self.l.row(seg, a)?, self.r.row(seg, b)?, self.op))
    }
}

/// `f(e)` elementwise: made by [`ExprExt::map`] and unary minus.
#[derive(Clone, Copy)]
pub struct Map<E, F, const D: usize> {
    e: E,
    f: F,
    _rank: PhantomData<[(); D]>,
}

/// The row of a [`Map`].
pub struct MapRow<R, F>(R, F);

impl<R: Row, O, F: Fn(R::Item) -> O + Copy> Row for MapRow<R, F> {
    type Item = O;
    #[inline(always)]
    fn at(&self, j: usize) -> O {
        (self.1)(self.0.at(j))
    }
    type Unit<'r>
        = MapRow<R::Unit<'r>, F>
    where
        Self: 'r;
    #[inline(always)]
    fn unit(&self) -> Option<Self::Unit<'_>> {
        Some(MapRow(self.0.unit()?, self.1))
    }
}

impl<const D: usize, E: Expr<D>, O: Copy + Send + Sync, F: Fn(E::Item) -> O + Copy + Send + Sync> Expr<D>
    for Map<E, F, D>
{
    type Item = O;
    type Bound<'a>
        = Map<E::Bound<'a>, F, D>
    where
        Self: 'a;
    fn shape(&self) -> Option<[usize; D]> {
        self.e.shape()
    }
    fn lead(&self) -> Option<Result<Plan<'_, D>>> {
        self.e.lead()
    }
    fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<Self::Bound<'a>> {
        Ok(Map { e: self.e.bind(plan)?, f: self.f, _rank: PhantomData })
    }
    fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn Operand<D>)) {
        self.e.operands(f);
    }
}

impl<const D: usize, E: Bound<D>, O: Copy + Send + Sync, F: Fn(E::Item) -> O + Copy + Send + Sync> Bound<D>
    for Map<E, F, D>
{
    type Item = O;
    type Scratch = E::Scratch;
    type Row<'s>
        = MapRow<E::Row<'s>, F>
    where
        Self: 's;
    fn aligned(&self) -> bool {
        self.e.aligned()
    }
    fn local_order(&self) -> bool {
        self.e.local_order()
    }
    fn row<'s>(&'s self, seg: &Seg<D>, scratch: &'s mut Self::Scratch) -> Result<Self::Row<'s>> {
        Ok(MapRow(self.e.row(seg, scratch)?, self.f))
    }
}

// ----- tuples (zip) -------------------------------------------------------------------------

macro_rules! tuple_expr {
    ($($n:ident $i:tt),+) => {
        impl<const D: usize, $($n: Expr<D>),+> Expr<D> for ($($n,)+) {
            type Item = ($($n::Item,)+);
            type Bound<'a> = ($($n::Bound<'a>,)+) where Self: 'a;
            fn shape(&self) -> Option<[usize; D]> {
                None$(.or(self.$i.shape()))+
            }
            fn lead(&self) -> Option<Result<Plan<'_, D>>> {
                None$(.or_else(|| self.$i.lead()))+
            }
            fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<Self::Bound<'a>> {
                Ok(($(self.$i.bind(plan)?,)+))
            }
            fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn Operand<D>)) {
                $(self.$i.operands(f);)+
            }
        }
        impl<const D: usize, $($n: Bound<D>),+> Bound<D> for ($($n,)+) {
            type Item = ($($n::Item,)+);
            type Scratch = ($($n::Scratch,)+);
            type Row<'s> = ($($n::Row<'s>,)+) where Self: 's;
            fn aligned(&self) -> bool {
                true $(&& self.$i.aligned())+
            }
            fn local_order(&self) -> bool {
                true $(&& self.$i.local_order())+
            }
            fn row<'s>(&'s self, seg: &Seg<D>, scratch: &'s mut Self::Scratch) -> Result<Self::Row<'s>> {
                #[allow(non_snake_case)]
                let ($($n,)+) = scratch;
                Ok(($(self.$i.row(seg, $n)?,)+))
            }
        }
        impl<$($n: Row),+> Row for ($($n,)+) {
            type Item = ($($n::Item,)+);
            #[inline(always)]
            fn at(&self, j: usize) -> Self::Item {
                ($(self.$i.at(j),)+)
            }
            type Unit<'r>
                = ($($n::Unit<'r>,)+)
            where
                Self: 'r;
            #[inline(always)]
            fn unit(&self) -> Option<Self::Unit<'_>> {
                Some(($(self.$i.unit()?,)+))
            }
        }
        impl<const D: usize, $($n: Expr<D>),+> IntoExpr<D> for ($($n,)+) {
            type Expr = ($($n,)+);
            fn into_expr(self) -> Self {
                self
            }
        }
    };
}
tuple_expr!(A 0);
tuple_expr!(A 0, B 1);
tuple_expr!(A 0, B 1, C 2);
tuple_expr!(A 0, B 1, C 2, E 3);
tuple_expr!(A 0, B 1, C 2, E 3, F 4);

/// Combinators on every expression.
pub trait ExprExt<const D: usize>: Expr<D> + Sized {
    /// `f(x)` for every value.
    fn map<O: Copy + Send + Sync, F: Fn(Self::Item) -> O + Copy + Send + Sync>(self, f: F) -> Map<Self, F, D> {
        Map { e: self, f, _rank: PhantomData }
    }

    /// `f(x, y)` for every pair of values of `self` and `other`.
    fn zip_map<
        R: IntoExpr<D>,
        O: Copy + Send + Sync,
        F: Fn(Self::Item, <R::Expr as Expr<D>>::Item) -> O + Copy + Send + Sync,
    >(
        self,
        other: R,
        f: F,
    ) -> Bin<Self, R::Expr, FnOp<F>, D> {
        bin(self, other.into_expr(), FnOp(f))
    }
}

impl<const D: usize, E: Expr<D>> ExprExt<D> for E {}

/// Builds a [`Bin`] node (used by the operator impls).
#[doc(hidden)]
pub fn bin<L, R, O, const D: usize>(l: L, r: R, op: O) -> Bin<L, R, O, D> {
    Bin { l, r, op, _rank: PhantomData }
}

/// Implements `+ - * / %` and unary `-` for an expression type, with any [`IntoExpr`] on the
/// right and the numeric scalars on the left.
#[macro_export]
#[doc(hidden)]
macro_rules! impl_expr_ops {
    ([$($g:tt)*] $ty:ty) => {
        $crate::impl_expr_ops!(@op [$($g)*] $ty, Add, add, AddOp);
        $crate::impl_expr_ops!(@op [$($g)*] $ty, Sub, sub, SubOp);
        $crate::impl_expr_ops!(@op [$($g)*] $ty, Mul, mul, MulOp);
        $crate::impl_expr_ops!(@op [$($g)*] $ty, Div, div, DivOp);
        $crate::impl_expr_ops!(@op [$($g)*] $ty, Rem, rem, RemOp);
        impl<$($g)*> ::std::ops::Neg for $ty
        where
            $ty: $crate::Expr<D>,
            <$ty as $crate::Expr<D>>::Item: ::std::ops::Neg<Output = <$ty as $crate::Expr<D>>::Item>,
        {
            type Output = $crate::expr::Map<$ty, fn(<$ty as $crate::Expr<D>>::Item) -> <$ty as $crate::Expr<D>>::Item, D>;
            fn neg(self) -> Self::Output {
                $crate::ExprExt::map(self, (|x: <$ty as $crate::Expr<D>>::Item| -x) as fn(<$ty as $crate::Expr<D>>::Item) -> <$ty as $crate::Expr<D>>::Item)
            }
        }
        $crate::impl_expr_ops!(@scalars [$($g)*] $ty; i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
        $crate::impl_expr_ops!(@lhs [$($g)*] $ty, Add, add, AddOp);
        $crate::impl_expr_ops!(@lhs [$($g)*] $ty, Sub, sub, SubOp);
        $crate::impl_expr_ops!(@lhs [$($g)*] $ty, Mul, mul, MulOp);
        $crate::impl_expr_ops!(@lhs [$($g)*] $ty, Div, div, DivOp);
        $crate::impl_expr_ops!(@lhs [$($g)*] $ty, Rem, rem, RemOp);
    };
    // `Scalar(x) op e`, as `x op e` (any scalar type the operator accepts).
    (@lhs [$($g:tt)*] $ty:ty, $tr:ident, $m:ident, $op:ident) => {
        impl<$($g)*, __S: Copy + Send + Sync> ::std::ops::$tr<$ty> for $crate::expr::Scalar<__S>
        where
            $ty: $crate::Expr<D>,
            $crate::expr::$op: $crate::expr::BinOp<__S, <$ty as $crate::Expr<D>>::Item>,
        {
            type Output = $crate::expr::Bin<$crate::expr::Scalar<__S>, $ty, $crate::expr::$op, D>;
            fn $m(self, rhs: $ty) -> Self::Output {
                $crate::expr::bin(self, rhs, $crate::expr::$op)
            }
        }
    };
    (@op [$($g:tt)*] $ty:ty, $tr:ident, $m:ident, $op:ident) => {
        impl<$($g)*, Rhs: $crate::IntoExpr<D>> ::std::ops::$tr<Rhs> for $ty
        where
            $ty: $crate::Expr<D>,
            $crate::expr::$op: $crate::expr::BinOp<<$ty as $crate::Expr<D>>::Item, <Rhs::Expr as $crate::Expr<D>>::Item>,
        {
            type Output = $crate::expr::Bin<$ty, Rhs::Expr, $crate::expr::$op, D>;
            fn $m(self, rhs: Rhs) -> Self::Output {
                $crate::expr::bin(self, rhs.into_expr(), $crate::expr::$op)
            }
        }
    };
    (@scalars $g:tt $ty:ty; $($s:ty),*) => {$(
        $crate::impl_expr_ops!(@scalar $g $ty; $s);
    )*};
    (@scalar [$($g:tt)*] $ty:ty; $s:ty) => {
        impl<$($g)*> ::std::ops::Add<$ty> for $s where $ty: $crate::Expr<D, Item = $s> {
            type Output = $crate::expr::Bin<$crate::expr::Scalar<$s>, $ty, $crate::expr::AddOp, D>;
            fn add(self, rhs: $ty) -> Self::Output { $crate::expr::bin($crate::expr::Scalar(self), rhs, $crate::expr::AddOp) }
        }
        impl<$($g)*> ::std::ops::Sub<$ty> for $s where $ty: $crate::Expr<D, Item = $s> {
            type Output = $crate::expr::Bin<$crate::expr::Scalar<$s>, $ty, $crate::expr::SubOp, D>;
            fn sub(self, rhs: $ty) -> Self::Output { $crate::expr::bin($crate::expr::Scalar(self), rhs, $crate::expr::SubOp) }
        }
        impl<$($g)*> ::std::ops::Mul<$ty> for $s where $ty: $crate::Expr<D, Item = $s> {
            type Output = $crate::expr::Bin<$crate::expr::Scalar<$s>, $ty, $crate::expr::MulOp, D>;
            fn mul(self, rhs: $ty) -> Self::Output { $crate::expr::bin($crate::expr::Scalar(self), rhs, $crate::expr::MulOp) }
        }
        impl<$($g)*> ::std::ops::Div<$ty> for $s where $ty: $crate::Expr<D, Item = $s> {
            type Output = $crate::expr::Bin<$crate::expr::Scalar<$s>, $ty, $crate::expr::DivOp, D>;
            fn div(self, rhs: $ty) -> Self::Output { $crate::expr::bin($crate::expr::Scalar(self), rhs, $crate::expr::DivOp) }
        }
    };
}

impl_expr_ops!([const D: usize, L: Expr<D>, R: Expr<D>, O: BinOp<L::Item, R::Item>] Bin<L, R, O, D>);
impl_expr_ops!([const D: usize, E: Expr<D>, O: Copy + Send + Sync, F: Fn(E::Item) -> O + Copy + Send + Sync] Map<E, F, D>);

impl<const D: usize, L: Expr<D>, R: Expr<D>, O: BinOp<L::Item, R::Item>> IntoExpr<D> for Bin<L, R, O, D> {
    type Expr = Self;
    fn into_expr(self) -> Self {
        self
    }
}

impl<const D: usize, E: Expr<D>, O: Copy + Send + Sync, F: Fn(E::Item) -> O + Copy + Send + Sync> IntoExpr<D>
    for Map<E, F, D>
{
    type Expr = Self;
    fn into_expr(self) -> Self {
        self
    }
}
