//! Reductions over any expression (led by its first array operand): [`ExprReduce`].
//!
//! Each locale folds the elements it owns and the locales combine their results in locale
//! order, so the result is the same on every locale and from run to run. Commutative
//! reductions fold in storage order; `ordered.rs` keeps [`ExprReduce::reduce_with`] in index
//! order (directly when the leader is index-ordered, through a row-Block leader otherwise).

pub(crate) mod ordered;

use crate::elem::Elem;
use crate::expr::{Bound, Expr};
use crate::reduce::ordered::{fold_led, reduce_by_rows};
use crate::zip::{Plan, Row};
use atoll_error::{invalid_arg, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The plan of an expression's leader, or an error when it has no array operand.
fn lead<const D: usize, E: Expr<D>>(e: &E) -> Result<Plan<'_, D>> {
    e.lead().unwrap_or_else(|| Err(invalid_arg!("a reduction needs at least one array or view operand")))
}

/// Whether `b` is NaN (the only value not equal to itself).
#[inline(always)]
#[allow(clippy::eq_op)]
fn is_nan<T: PartialEq>(b: &T) -> bool {
    b != b
}

/// Reductions of an expression: **collective**, led by the expression's first array or view
/// (each locale reduces the elements it owns, then the locales combine in locale order, so the
/// result is the same on every locale and from run to run). [`reduce_with`](Self::reduce_with)
/// folds in index order (any associative operator); [`reduce_commutative`](Self::reduce_commutative)
/// and the built-in reductions fold in storage order (commutative operators), without moving
/// values.
///
/// ```
/// use atoll_array::{dist, DistArray, ExprExt, ExprReduce};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [4, 5])?, |[i, j]| (i * 5 + j) as i64)?;
///     assert_eq!(a.view().sum()?, 190);
///     assert_eq!(a.view().max()?, 19);
///     assert_eq!(a.view().argmin()?, (0, [0, 0]));
///     assert_eq!(a.slice([1..3, 0..5])?.map(|x| x % 2 == 0).count()?, 5);
///     assert_eq!((a.view() * 2i64).sum()?, 380);
///     Ok(())
/// }).unwrap();
/// ```
pub trait ExprReduce<const D: usize>: Expr<D> + Sized {
    /// Folds every value with `fold` from `identity`, **in index (row-major) order**, and
    /// combines partial results with `combine`, which must be associative (not necessarily
    /// commutative), with `identity` as its identity: the result is
    /// `fold(...fold(fold(identity, x0), x1)..., xn)` up to regrouping, for every
    /// distribution and view. **Collective.**
    ///
    /// When every locale's elements of the leader are one run of row-major positions in
    /// locale order (Block arrays split along the first dimension only, which includes every
    /// 1-D Block array and its views, strided or not), the locales fold their own elements in
    /// place and combine in locale order: no extra message. Otherwise (Cyclic, BlockCyclic,
    /// Block over a 2-D or 3-D grid of locales) the values are fetched, as by a zip, by a
    /// leader Block-distributed along the first dimension, which costs one bulk
    /// redistribution: use [`reduce_commutative`](Self::reduce_commutative) when the operator
    /// is also commutative (as `sum`, `min`, `max` do).
    ///
    /// ```
    /// use atoll_array::{dist, DistArray, ExprReduce};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let v = [1i64, 2, 3, 4, 5, 6, 7, 0];
    ///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [8])?, |[i]| v[i as usize])?;
    ///     // The last non-zero value: associative, not commutative.
    ///     let last = |a: i64, b: i64| if b != 0 { b } else { a };
    ///     assert_eq!(a.view().reduce_with(0, last, last)?, 7);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when the expression has no array operand; shape
    /// mismatches; communication errors.
    fn reduce_with<A: Clone + Send + Sync + Serialize + DeserializeOwned>(
        self,
        identity: A,
        fold: impl Fn(A, Self::Item) -> A + Sync,
        combine: impl Fn(A, A) -> A + Sync,
    ) -> Result<A> {
        let plan = lead(&self)?;
        if !plan.index_ordered()? {
            return reduce_by_rows(&self, &plan, identity, fold, combine);
        }
        fold_led(&self, plan, identity, fold, combine)
    }

    /// Folds every value with `fold` from `identity` per chunk, in storage order, and combines
    /// partial results with `combine`, which must be associative **and commutative**, with
    /// `identity` as its identity. The order is fixed by the distribution (each locale's
    /// elements in its storage order, then the locales in locale order), so the result is the
    /// same on every locale and from run to run, but it is not index order for Cyclic and
    /// BlockCyclic arrays: use [`reduce_with`](Self::reduce_with) for operators that are not
    /// commutative. It never moves values: the fast path of `sum`, `min`, `max`, `count`,
    /// `product` and `for_each`. **Collective.**
    ///
    /// # Errors
    /// As [`reduce_with`](Self::reduce_with).
    fn reduce_commutative<A: Clone + Send + Sync + Serialize + DeserializeOwned>(
        self,
        identity: A,
        fold: impl Fn(A, Self::Item) -> A + Sync,
        combine: impl Fn(A, A) -> A + Sync,
    ) -> Result<A> {
        let plan = lead(&self)?;
        fold_led(&self, plan, identity, fold, combine)
    }

    /// The sum (0 for no element).
    fn sum(self) -> Result<Self::Item>
    where
        Self::Item: Elem + std::ops::Add<Output = Self::Item>,
    {
        self.reduce_commutative(Self::Item::default(), |a, x| a + x, |a, b| a + b)
    }

    /// The product (1 for no element).
    fn product(self) -> Result<Self::Item>
    where
        Self::Item: Elem + std::ops::Mul<Output = Self::Item> + num_one::One,
    {
        self.reduce_commutative(<Self::Item as num_one::One>::ONE, |a, x| a * x, |a, b| a * b)
    }

    /// The smallest value (NaN if any value is NaN).
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when there is no element.
    fn min(self) -> Result<Self::Item>
    where
        Self::Item: Elem,
    {
        let pick = |a: Option<Self::Item>, b: Option<Self::Item>| match (a, b) {
            (Some(x), Some(y)) => Some(if is_nan(&x) || (!is_nan(&y) && x <= y) { x } else { y }),
            (x, None) => x,
            (None, y) => y,
        };
        self.reduce_commutative(None, move |a, x| pick(a, Some(x)), pick)?
            .ok_or_else(|| invalid_arg!("the minimum of no element"))
    }

    /// The largest value (NaN if any value is NaN).
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when there is no element.
    fn max(self) -> Result<Self::Item>
    where
        Self::Item: Elem,
    {
        let pick = |a: Option<Self::Item>, b: Option<Self::Item>| match (a, b) {
            (Some(x), Some(y)) => Some(if is_nan(&x) || (!is_nan(&y) && x >= y) { x } else { y }),
            (x, None) => x,
            (None, y) => y,
        };
        self.reduce_commutative(None, move |a, x| pick(a, Some(x)), pick)?
            .ok_or_else(|| invalid_arg!("the maximum of no element"))
    }

    /// The number of `true` values.
    fn count(self) -> Result<u64>
    where
        Self: Expr<D, Item = bool>,
    {
        self.reduce_commutative(0u64, |a, x| a + u64::from(x), |a, b| a + b)
    }

    /// The smallest value and the index (in the leader's index space) of its first occurrence in
    /// row-major order; NaN counts as smallest, as in NumPy.
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when there is no element.
    fn argmin(self) -> Result<(Self::Item, [i64; D])>
    where
        Self::Item: Elem,
    {
        arg(self, |x, y| (is_nan(x) && !is_nan(y)) || (!is_nan(x) && !is_nan(y) && x < y))
    }

    /// The largest value and the index of its first occurrence; NaN counts as largest.
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when there is no element.
    fn argmax(self) -> Result<(Self::Item, [i64; D])>
    where
        Self::Item: Elem,
    {
        arg(self, |x, y| (is_nan(x) && !is_nan(y)) || (!is_nan(x) && !is_nan(y) && x > y))
    }

    /// Runs `f(value)` for every value, on the owners of the leader's elements. **Collective.**
    ///
    /// # Errors
    /// As [`reduce_commutative`](Self::reduce_commutative).
    fn for_each(self, f: impl Fn(Self::Item) + Sync) -> Result<()> {
        self.reduce_commutative((), |_, x| f(x), |_, _| ())
    }
}

impl<const D: usize, E: Expr<D>> ExprReduce<D> for E {}

/// argmin/argmax: `better(x, y)` says whether `x` beats `y`; ties go to the first position.
fn arg<const D: usize, E: Expr<D>>(
    e: E,
    better: impl Fn(&E::Item, &E::Item) -> bool + Sync + Copy,
) -> Result<(E::Item, [i64; D])>
where
    E::Item: Elem,
{
    let plan = lead(&e)?;
    let ctx = plan.ctx;
    let dom = plan.dom;
    let shape = dom.shape();
    let bound = e.bind(&plan);
    // As in `reduce_with`: no barrier first when every operand is aligned.
    if !bound.as_ref().is_ok_and(|b| b.aligned()) {
        ctx.barrier()?;
    }
    let bound = bound?;
    let pick = move |a: Option<(E::Item, usize)>, b: Option<(E::Item, usize)>| match (a, b) {
        (Some(x), Some(y)) => Some(if better(&y.0, &x.0) || (!better(&x.0, &y.0) && y.1 < x.1) { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    };
    let mine = plan.fold(
        None,
        |acc, seg, scratch| {
            let row = bound.row(seg, scratch)?;
            let lin = shape[..D - 1].iter().zip(&seg.pos).fold(0usize, |l, (&n, &p)| l * n + p);
            let base = lin * shape[D - 1];
            Ok(crate::zip::unit_versioned!(row, |row| (0..seg.len)
                .fold(acc, |a, j| pick(a, Some((row.at(j), base + seg.pos[D - 1] + j * seg.step))))))
        },
        pick,
    )?;
    let (v, lin) = ctx.allreduce(mine, pick)?.ok_or_else(|| invalid_arg!("the arg-extremum of no element"))?;
    Ok((v, dom.index(lin)?))
}

/// The multiplicative identity of the numeric element types.
pub mod num_one {
    /// A type with a one.
    pub trait One {
        /// One.
        const ONE: Self;
    }
    macro_rules! one {
        ($($t:ty = $v:expr),*) => {$(impl One for $t { const ONE: Self = $v; })*};
    }
    one!(i8 = 1, i16 = 1, i32 = 1, i64 = 1, u8 = 1, u16 = 1, u32 = 1, u64 = 1, f32 = 1.0, f64 = 1.0);
}
