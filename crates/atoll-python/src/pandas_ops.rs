//! Engine commands of the pandas layer (`python/atoll/pandas/`, `segarray.py`): the bitwise
//! segmented reductions of `GroupBy.OR/AND/XOR`, the bit patterns of floats (for hashing
//! values), and a collective memory check that joins run before they allocate their result.
//! Each is one collective command; the Python layer builds DataFrame, SegArray and the joins
//! on these and on the general commands.

use crate::commands::Operand;
use crate::errors::value_err;
use crate::registry::{lock, Col, Registry};
use crate::session::exec;
use crate::types::{DType, Node};
use crate::{new_arr, Arr, Ex};
use atoll::array::DistArray;
use atoll::ops::{segmented_fold, SegFold};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};

/// A bitwise reduction.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum BitOp {
    /// Bitwise or.
    Or,
    /// Bitwise and.
    And,
    /// Bitwise exclusive or.
    Xor,
}

struct BitFold(BitOp);

macro_rules! bit_fold {
    ($t:ty) => {
        impl SegFold<$t> for BitFold {
            type Acc = $t;
            type Out = $t;
            fn init(&self) -> $t {
                match self.0 {
                    BitOp::And => !0,
                    BitOp::Or | BitOp::Xor => 0,
                }
            }
            fn step(&self, acc: &mut $t, v: $t, _rank: usize) {
                <Self as SegFold<$t>>::merge(self, acc, &v);
            }
            fn merge(&self, acc: &mut $t, later: &$t) {
                match self.0 {
                    BitOp::Or => *acc |= *later,
                    BitOp::And => *acc &= *later,
                    BitOp::Xor => *acc ^= *later,
                }
            }
            fn finish(&self, acc: &$t) -> $t {
                *acc
            }
        }
    };
}
bit_fold!(i64);
bit_fold!(u64);

fn seg_bitwise_cmd(ctx: &Ctx, (id, vals, flags, n, op): (u64, Node, u64, usize, BitOp)) -> Result<()> {
    let v = Operand::of(ctx, &vals, n)?;
    let f = Registry::of(ctx).get(flags)?;
    let out = v.with(|v| {
        let g = lock(&f);
        match (v, &*g) {
            (Col::I(a), Col::B(fl)) => segmented_fold(a, fl, &BitFold(op)).map(Col::I),
            (Col::U(a), Col::B(fl)) => segmented_fold(a, fl, &BitFold(op)).map(Col::U),
            _ => Err(Error::InvalidArgument("bitwise reductions take int64 or uint64 values".into())),
        }
    });
    v.free()?;
    Registry::of(ctx).insert(id, out?);
    Ok(())
}
/// A new array `id`: the bitwise reduction of the (grouped) values per group of the flags.
pub static SEG_BITWISE: Handler<(u64, Node, u64, usize, BitOp), ()> =
    Handler::new("atoll-python::seg_bitwise", seg_bitwise_cmd);

fn f64_bits_cmd(ctx: &Ctx, (id, vals, n): (u64, Node, usize)) -> Result<()> {
    let v = Operand::of(ctx, &vals, n)?;
    let out = v.with(|c| match c {
        Col::F(a) => {
            let mut out = DistArray::<u64, 1>::for_overwrite(ctx, a.dist().clone())?;
            for (o, x) in out.local_mut().iter_mut().zip(a.local()) {
                // -0.0 and 0.0 compare equal, so they hash equal; every NaN is one value.
                let y = if *x == 0.0 {
                    0.0
                } else if x.is_nan() {
                    f64::NAN
                } else {
                    *x
                };
                *o = y.to_bits();
            }
            Ok(Col::U(out))
        }
        _ => Err(Error::InvalidArgument("f64_bits takes float64 values".into())),
    });
    v.free()?;
    Registry::of(ctx).insert(id, out?);
    Ok(())
}
/// A new uint64 array `id`: the IEEE bits of each float64 value (0.0 for -0.0, one NaN).
pub static F64_BITS: Handler<(u64, Node, usize), ()> = Handler::new("atoll-python::f64_bits", f64_bits_cmd);

fn reserve_check_cmd(ctx: &Ctx, (operation, bytes): (String, u64)) -> Result<()> {
    // Every locale reserves its share in its budget (the same error everywhere when one
    // cannot), then gives it back: the caller allocates right after.
    let r = ctx.reserve(&operation, bytes)?;
    drop(r);
    Ok(())
}
/// Fails with the out-of-memory error of the locale that cannot reserve `bytes`.
pub static RESERVE_CHECK: Handler<(String, u64), ()> = Handler::new("atoll-python::reserve_check", reserve_check_cmd);

/// Registers the commands of this module.
pub fn register_commands() {
    SEG_BITWISE.register();
    F64_BITS.register();
    RESERVE_CHECK.register();
}

/// Bitwise `op` ("or", "and", "xor") of the values (an int64 or uint64 expression of `n`
/// elements, in grouped order) per group of `flags`.
#[pyfunction]
pub fn seg_bitwise(py: Python<'_>, values: &Ex, flags: &Arr, n: usize, groups: usize, op: &str) -> PyResult<Arr> {
    let op = match op {
        "or" => BitOp::Or,
        "and" => BitOp::And,
        "xor" => BitOp::Xor,
        other => return Err(value_err("op", format!("unsupported bitwise reduction {other:?}"))),
    };
    let vt = values.node.dtype();
    if vt != DType::I64 && vt != DType::U64 {
        return Err(value_err("values", "bitwise reductions take int64 or uint64 values"));
    }
    new_arr(py, vt, groups, |id| exec(py, &SEG_BITWISE, (id, values.node.clone(), flags.id, n, op)))
}

/// The bits of each float64 value as uint64 (for hashing).
#[pyfunction]
pub fn f64_bits(py: Python<'_>, values: &Ex, n: usize) -> PyResult<Arr> {
    if values.node.dtype() != DType::F64 {
        return Err(value_err("values", "f64_bits takes float64 values"));
    }
    new_arr(py, DType::U64, n, |id| exec(py, &F64_BITS, (id, values.node.clone(), n)))
}

/// Checks that every locale can take `bytes` more (out of memory otherwise, naming the locale
/// and `operation`), before an operation allocates them.
#[pyfunction]
pub fn reserve_check(py: Python<'_>, operation: &str, bytes: u64) -> PyResult<()> {
    exec(py, &RESERVE_CHECK, (operation.to_string(), bytes))
}

/// Adds this module's functions.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(seg_bitwise, m)?)?;
    m.add_function(wrap_pyfunction!(f64_bits, m)?)?;
    m.add_function(wrap_pyfunction!(reserve_check, m)?)?;
    Ok(())
}
