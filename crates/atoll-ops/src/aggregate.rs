//! The aggregations of [`GroupBy`](crate::GroupBy) ([`Agg`]) as [`SegFold`]s over the value
//! types `i64`, `u64` and `f64` ([`AggValue`]), and [`aggregate`], which runs one of them.
//!
//! NaN rules (those of Arkouda's and pandas' GroupBy with `skipna=True`): `sum`, `prod`,
//! `min`, `max`, `mean`, `var`, `std`, `count`, `argmin` and `argmax` skip NaN values; a
//! group of NaNs only has sum 0, product 1, count 0, and NaN for min, max, mean, var, std;
//! its argmin/argmax is its first row. `any`/`all` test values against zero (NaN is
//! nonzero, as in NumPy); `first` is the group's first row, whatever its value.

use crate::segreduce::{segmented_fold, SegFold};
use atoll_array::{DistArray, Elem};
use atoll_error::Result;
use atoll_runtime::Pod;
use serde::{Deserialize, Serialize};

mod private {
    /// Seals [`super::AggValue`].
    pub trait Sealed {}
    impl Sealed for i64 {}
    impl Sealed for u64 {}
    impl Sealed for f64 {}
}

/// A value type of the aggregations: `i64`, `u64` (wrapping sums and products, as NumPy)
/// and `f64` (sealed).
pub trait AggValue: Elem + Pod + private::Sealed {
    /// The sum (wrapping for integers).
    fn add(self, b: Self) -> Self;
    /// The product (wrapping for integers).
    fn mul(self, b: Self) -> Self;
    /// Zero and one.
    fn zero() -> Self;
    /// See [`AggValue::zero`].
    fn one() -> Self;
    /// True for a NaN.
    fn nan(self) -> bool;
    /// The value as `f64`.
    fn f64(self) -> f64;
    /// The NaN of the type (`f64`), or zero.
    fn missing() -> Self;
    /// The smallest and the largest value (`-inf` and `+inf` for `f64`).
    fn lowest() -> Self;
    /// See [`AggValue::lowest`].
    fn highest() -> Self;
}

impl AggValue for i64 {
    fn add(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
    fn mul(self, b: Self) -> Self {
        self.wrapping_mul(b)
    }
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn nan(self) -> bool {
        false
    }
    fn f64(self) -> f64 {
        self as f64
    }
    fn missing() -> Self {
        0
    }
    fn lowest() -> Self {
        i64::MIN
    }
    fn highest() -> Self {
        i64::MAX
    }
}

impl AggValue for u64 {
    fn add(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
    fn mul(self, b: Self) -> Self {
        self.wrapping_mul(b)
    }
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
    fn nan(self) -> bool {
        false
    }
    fn f64(self) -> f64 {
        self as f64
    }
    fn missing() -> Self {
        0
    }
    fn lowest() -> Self {
        u64::MIN
    }
    fn highest() -> Self {
        u64::MAX
    }
}

impl AggValue for f64 {
    fn add(self, b: Self) -> Self {
        self + b
    }
    fn mul(self, b: Self) -> Self {
        self * b
    }
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn f64(self) -> f64 {
        self
    }
    fn missing() -> Self {
        f64::NAN
    }
    fn lowest() -> Self {
        f64::NEG_INFINITY
    }
    fn highest() -> Self {
        f64::INFINITY
    }
}

/// An aggregation of [`aggregate`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Agg {
    /// Sum of the non-NaN values (the value type).
    Sum,
    /// Product of the non-NaN values (the value type).
    Prod,
    /// Smallest non-NaN value (the value type; NaN when none).
    Min,
    /// Largest non-NaN value (the value type; NaN when none).
    Max,
    /// Number of non-NaN values (`i64`).
    Count,
    /// Mean of the non-NaN values (`f64`).
    Mean,
    /// Variance with `ddof` (`f64`).
    Var(u32),
    /// Standard deviation with `ddof` (`f64`).
    Std(u32),
    /// Rank of the first smallest non-NaN value (`i64`, a rank of the sorted rows).
    ArgMin,
    /// Rank of the first largest non-NaN value (`i64`).
    ArgMax,
    /// Some value nonzero (`bool`).
    Any,
    /// Every value nonzero (`bool`).
    All,
    /// The first value (the value type).
    First,
}

/// The result of [`aggregate`]: its type depends on the aggregation.
#[allow(missing_docs)]
pub enum AggResult<T: Elem> {
    Same(DistArray<T, 1>),
    I64(DistArray<i64, 1>),
    F64(DistArray<f64, 1>),
    Bool(DistArray<bool, 1>),
}

/// Sum or product.
struct Arith(bool);
impl<T: AggValue> SegFold<T> for Arith {
    type Acc = T;
    type Out = T;
    fn init(&self) -> T {
        if self.0 {
            T::one()
        } else {
            T::zero()
        }
    }
    #[inline]
    fn step(&self, acc: &mut T, v: T, _: usize) {
        if !v.nan() {
            *acc = if self.0 { acc.mul(v) } else { acc.add(v) };
        }
    }
    fn merge(&self, acc: &mut T, later: &T) {
        *acc = if self.0 { acc.mul(*later) } else { acc.add(*later) }
    }
    fn finish(&self, acc: &T) -> T {
        *acc
    }
}

/// Min, max, argmin, argmax: the best non-NaN value and its rank, or the first rank.
struct Extreme {
    max: bool,
}
impl Extreme {
    fn better<T: AggValue>(&self, v: T, than: T) -> bool {
        if self.max {
            v > than
        } else {
            v < than
        }
    }
    fn take<T: AggValue>(&self, acc: &mut (Option<(T, usize)>, usize), v: Option<(T, usize)>) {
        if let Some((v, r)) = v {
            if acc.0.is_none_or(|(b, _)| self.better(v, b)) {
                acc.0 = Some((v, r));
            }
        }
    }
}
impl<T: AggValue> SegFold<T> for Extreme {
    /// (best value and its rank, first rank of the piece).
    type Acc = (Option<(T, usize)>, usize);
    type Out = T;
    fn init(&self) -> Self::Acc {
        (None, usize::MAX)
    }
    #[inline]
    fn step(&self, acc: &mut Self::Acc, v: T, r: usize) {
        acc.1 = acc.1.min(r);
        if !v.nan() {
            self.take(acc, Some((v, r)))
        }
    }
    fn merge(&self, acc: &mut Self::Acc, later: &Self::Acc) {
        acc.1 = acc.1.min(later.1);
        self.take(acc, later.0);
    }
    fn finish(&self, acc: &Self::Acc) -> T {
        acc.0.map_or(T::missing(), |(v, _)| v)
    }
}

/// Argmin / argmax: the rank of [`Extreme`]'s best value.
struct ArgExtreme(Extreme);
impl<T: AggValue> SegFold<T> for ArgExtreme {
    type Acc = (Option<(T, usize)>, usize);
    type Out = i64;
    fn init(&self) -> Self::Acc {
        (None, usize::MAX)
    }
    #[inline]
    fn step(&self, acc: &mut Self::Acc, v: T, r: usize) {
        SegFold::<T>::step(&self.0, acc, v, r)
    }
    fn merge(&self, acc: &mut Self::Acc, later: &Self::Acc) {
        SegFold::<T>::merge(&self.0, acc, later)
    }
    fn finish(&self, acc: &Self::Acc) -> i64 {
        acc.0.map_or(acc.1, |(_, r)| r) as i64
    }
}

/// Count, mean, var, std: (count, mean, sum of squared deviations), merged as Chan et al.
struct Moments {
    out: Agg,
}
/// Count, running mean and sum of squared deviations (Welford's, for the variance), and the
/// plain sum: the mean is `sum / count` as pandas and the dense path compute it (the running
/// mean can differ in the last bit).
impl<T: AggValue> SegFold<T> for Moments {
    type Acc = (u64, f64, f64, f64);
    type Out = f64;
    fn init(&self) -> Self::Acc {
        (0, 0.0, 0.0, 0.0)
    }
    #[inline]
    fn step(&self, acc: &mut Self::Acc, v: T, _: usize) {
        if v.nan() {
            return;
        }
        let x = v.f64();
        acc.0 += 1;
        let d = x - acc.1;
        acc.1 += d / acc.0 as f64;
        acc.2 += d * (x - acc.1);
        acc.3 += x;
    }
    fn merge(&self, acc: &mut Self::Acc, b: &Self::Acc) {
        if b.0 == 0 {
            return;
        }
        let n = acc.0 + b.0;
        let d = b.1 - acc.1;
        let mean = acc.1 + d * b.0 as f64 / n as f64;
        acc.2 += b.2 + d * d * acc.0 as f64 * b.0 as f64 / n as f64;
        acc.0 = n;
        acc.1 = mean;
        acc.3 += b.3;
    }
    fn finish(&self, acc: &Self::Acc) -> f64 {
        let var = |ddof: u32| if acc.0 > ddof as u64 { acc.2 / (acc.0 - ddof as u64) as f64 } else { f64::NAN };
        match self.out {
            Agg::Count => acc.0 as f64,
            Agg::Mean => {
                if acc.0 == 0 {
                    f64::NAN
                } else {
                    acc.3 / acc.0 as f64
                }
            }
            Agg::Var(d) => var(d),
            Agg::Std(d) => var(d).sqrt(),
            _ => f64::NAN,
        }
    }
}

/// Count of non-NaN values.
struct Count;
impl<T: AggValue> SegFold<T> for Count {
    type Acc = i64;
    type Out = i64;
    fn init(&self) -> i64 {
        0
    }
    #[inline]
    fn step(&self, acc: &mut i64, v: T, _: usize) {
        *acc += i64::from(!v.nan())
    }
    fn merge(&self, acc: &mut i64, later: &i64) {
        *acc += later
    }
    fn finish(&self, acc: &i64) -> i64 {
        *acc
    }
}

/// Any / all nonzero.
struct Truth {
    all: bool,
}
impl<T: AggValue> SegFold<T> for Truth {
    type Acc = bool;
    type Out = u8;
    fn init(&self) -> bool {
        self.all
    }
    #[inline]
    fn step(&self, acc: &mut bool, v: T, _: usize) {
        let nz = v != T::zero();
        *acc = if self.all { *acc && nz } else { *acc || nz };
    }
    fn merge(&self, acc: &mut bool, later: &bool) {
        *acc = if self.all { *acc && *later } else { *acc || *later }
    }
    fn finish(&self, acc: &bool) -> u8 {
        u8::from(*acc)
    }
}

/// The first value.
struct First;
impl<T: AggValue> SegFold<T> for First {
    type Acc = Option<T>;
    type Out = T;
    fn init(&self) -> Option<T> {
        None
    }
    #[inline]
    fn step(&self, acc: &mut Option<T>, v: T, _: usize) {
        acc.get_or_insert(v);
    }
    fn merge(&self, acc: &mut Option<T>, later: &Option<T>) {
        if acc.is_none() {
            *acc = *later
        }
    }
    fn finish(&self, acc: &Option<T>) -> T {
        acc.unwrap_or_else(T::missing)
    }
}

/// The bool array of a 0/1 byte array (same distribution). **Collective.**
fn to_bool(a: DistArray<u8, 1>) -> Result<DistArray<bool, 1>> {
    let mut b = DistArray::<bool, 1>::zeros_lazy(a.ctx(), a.dist().clone())?;
    b.local_mut().iter_mut().zip(a.local()).for_each(|(d, &s)| *d = s != 0);
    a.free()?;
    Ok(b)
}

/// `agg` of each group of `values`, the groups starting where `flags` is `true` (see
/// [`segmented_fold`]; both Block arrays over `0..n`). Block over `0..groups`. **Collective.**
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_ops::{aggregate, Agg, AggResult};
/// use atoll_runtime::{run, Config};
/// run(Config::local(3), |ctx| {
///     let v = [1.0, f64::NAN, 3.0, 4.0, 5.0];
///     let s = [true, false, false, true, false];
///     let vals = DistArray::from_fn(ctx, dist::block(ctx, [5])?, |[i]| v[i as usize])?;
///     let flags = DistArray::from_fn(ctx, dist::block(ctx, [5])?, |[i]| s[i as usize])?;
///     let AggResult::Same(sum) = aggregate(&vals, &flags, Agg::Sum)? else { unreachable!() };
///     assert_eq!(sum.to_vec()?, vec![4.0, 9.0]);
///     let AggResult::I64(arg) = aggregate(&vals, &flags, Agg::ArgMax)? else { unreachable!() };
///     assert_eq!(arg.to_vec()?, vec![2, 4]);
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Errors
/// As [`segmented_fold`].
pub fn aggregate<T: AggValue>(values: &DistArray<T, 1>, flags: &DistArray<bool, 1>, agg: Agg) -> Result<AggResult<T>> {
    Ok(match agg {
        Agg::Sum => AggResult::Same(segmented_fold(values, flags, &Arith(false))?),
        Agg::Prod => AggResult::Same(segmented_fold(values, flags, &Arith(true))?),
        Agg::Min => AggResult::Same(segmented_fold(values, flags, &Extreme { max: false })?),
        Agg::Max => AggResult::Same(segmented_fold(values, flags, &Extreme { max: true })?),
        Agg::ArgMin => AggResult::I64(segmented_fold(values, flags, &ArgExtreme(Extreme { max: false }))?),
        Agg::ArgMax => AggResult::I64(segmented_fold(values, flags, &ArgExtreme(Extreme { max: true }))?),
        Agg::Count => AggResult::I64(segmented_fold(values, flags, &Count)?),
        Agg::Mean | Agg::Var(_) | Agg::Std(_) => AggResult::F64(segmented_fold(values, flags, &Moments { out: agg })?),
        Agg::Any | Agg::All => {
            AggResult::Bool(to_bool(segmented_fold(values, flags, &Truth { all: agg == Agg::All })?)?)
        }
        Agg::First => AggResult::Same(segmented_fold(values, flags, &First)?),
    })
}
