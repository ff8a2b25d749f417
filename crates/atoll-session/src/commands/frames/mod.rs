//! Engine commands of the pandas layer (`python/atoll/pandas/`, `segarray.py`): the bitwise
//! segmented reductions of `GroupBy.OR/AND/XOR`, the bit patterns of floats (for hashing
//! values), a collective memory check that joins run before they allocate their result, and
//! the joins' kernels ([`joins`]).
//! Each is one collective command; the Python layer builds DataFrame, SegArray and the joins
//! on these and on the general commands.

use crate::commands::Operand;
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{DType, Node};
use atoll::array::DistArray;
use atoll::ops::{segmented_fold, SegFold};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
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

/// The bitwise fold `op` of `n` values over the segments that `flags` starts, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct SegBitwise {
    /// The new array's id.
    pub id: u64,
    /// The values.
    pub vals: Node,
    /// The bool array that starts each segment.
    pub flags: u64,
    /// The number of values.
    pub n: usize,
    /// The bitwise operation.
    pub op: BitOp,
}

fn seg_bitwise_cmd(ctx: &Ctx, SegBitwise { id, vals, flags, n, op }: SegBitwise) -> Result<()> {
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

/// The bit patterns of `n` float64 values as a new uint64 array `id`.
#[derive(Serialize, Deserialize)]
pub struct F64Bits {
    /// The new array's id.
    pub id: u64,
    /// The float64 values.
    pub vals: Node,
    /// Their number.
    pub n: usize,
}

fn f64_bits_cmd(ctx: &Ctx, F64Bits { id, vals, n }: F64Bits) -> Result<()> {
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

/// Whether every locale can take `bytes` more for `operation` (an error names it if not).
#[derive(Serialize, Deserialize)]
pub struct ReserveCheck {
    /// The operation named in the error.
    pub operation: String,
    /// The bytes each locale is to take.
    pub bytes: u64,
}

fn reserve_check_cmd(ctx: &Ctx, ReserveCheck { operation, bytes }: ReserveCheck) -> Result<()> {
    // Every locale reserves its share in its budget (the same error everywhere when one
    // cannot), then gives it back: the caller allocates right after.
    let r = ctx.reserve(&operation, bytes)?;
    drop(r);
    Ok(())
}

commands! {
    modules {
        /// The joins' kernels: string columns gathered together, a counting sort of codes,
        /// a hashed lookup of string keys.
        pub mod joins;
    }

    /// A new array `id`: the bitwise reduction of the (grouped) values per group of the flags.
    pub static SEG_BITWISE: Handler<SegBitwise, ()> =
        Handler::new("atoll-session::seg_bitwise", seg_bitwise_cmd);

    /// A new uint64 array `id`: the IEEE bits of each float64 value (0.0 for -0.0, one NaN).
    pub static F64_BITS: Handler<F64Bits, ()> = Handler::new("atoll-session::f64_bits", f64_bits_cmd);

    /// Fails with the out-of-memory error of the locale that cannot reserve `bytes`.
    pub static RESERVE_CHECK: Handler<ReserveCheck, ()> =
        Handler::new("atoll-session::reserve_check", reserve_check_cmd);
}

impl BitOp {
    /// The reduction of a name: or, and, xor.
    pub fn parse(s: &str) -> Option<BitOp> {
        match s {
            "or" => Some(BitOp::Or),
            "and" => Some(BitOp::And),
            "xor" => Some(BitOp::Xor),
            _ => None,
        }
    }
}

/// Bitwise `op` of the values (an int64 or uint64 expression of `n` elements, in grouped
/// order) per group of `flags` (`groups` groups). **Collective.**
pub fn seg_bitwise(s: &Session, values: &Node, flags: &Array, n: usize, groups: usize, op: BitOp) -> Result<Array> {
    let vt = values.dtype();
    if vt != DType::I64 && vt != DType::U64 {
        return Err(Error::InvalidArgument("values: bitwise reductions take int64 or uint64 values".into()));
    }
    s.new_array(vt, groups, |id| s.exec(&SEG_BITWISE, SegBitwise { id, vals: values.clone(), flags: flags.id, n, op }))
}

/// The bits of each float64 value as uint64 (for hashing). **Collective.**
pub fn f64_bits(s: &Session, values: &Node, n: usize) -> Result<Array> {
    if values.dtype() != DType::F64 {
        return Err(Error::InvalidArgument("values: f64_bits takes float64 values".into()));
    }
    s.new_array(DType::U64, n, |id| s.exec(&F64_BITS, F64Bits { id, vals: values.clone(), n }))
}

/// Checks that every locale can take `bytes` more (an agreed OutOfMemory otherwise, naming the
/// locale and `operation`), before an operation allocates them. **Collective.**
pub fn reserve_check(s: &Session, operation: &str, bytes: u64) -> Result<()> {
    s.exec(&RESERVE_CHECK, ReserveCheck { operation: operation.to_string(), bytes })
}
