//! The fused expression engine: a [`Node`] tree evaluated chunk by chunk (at most [`CHUNK`]
//! elements into small buffers, the numexpr way) over each locale's own part of the output,
//! on the locale's task pool. Operands aligned with the output are read in place; others are
//! first copied into aligned temporaries (bulk transfers).

pub mod fused;
pub mod kernels;
pub(crate) mod sum_lockstep;
pub mod ufuncs;

pub use crate::values::{Access, Arg, Src, Val};

use crate::eval::kernels::{max_of, min_of, Num};
use crate::types::{BinOp, DType, Node, Scal, UnOp};
use atoll::{Error, Result};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Elements per chunk: the buffers of a whole tree stay in L1/L2.
pub const CHUNK: usize = 2048;

/// A tree bound to local data.
pub enum BNode<'a> {
    /// Local part of an aligned operand.
    Leaf(Src<'a>),
    /// A scalar.
    Scalar(Scal),
    /// A conversion.
    Cast(Box<BNode<'a>>, DType),
    /// A binary operation.
    Bin(BinOp, Box<BNode<'a>>, Box<BNode<'a>>),
    /// A unary operation.
    Un(UnOp, Box<BNode<'a>>),
    /// A selection.
    Where(Box<BNode<'a>>, Box<BNode<'a>>, Box<BNode<'a>>),
    /// A function of two operands ([`crate::eval::ufuncs`]).
    Fn2(crate::eval::ufuncs::F2, Box<BNode<'a>>, Box<BNode<'a>>),
}

impl<'a> BNode<'a> {
    /// The dtype of the node's values (as [`Node::dtype`]).
    pub fn dtype(&self) -> DType {
        match self {
            BNode::Leaf(s) => s.dtype(),
            BNode::Scalar(s) => s.dtype(),
            BNode::Cast(_, t) => *t,
            BNode::Bin(op, l, _) => {
                if op.is_comparison() {
                    DType::Bool
                } else {
                    l.dtype()
                }
            }
            BNode::Un(op, x) => op.out(x.dtype()),
            BNode::Where(_, a, _) => a.dtype(),
            BNode::Fn2(f, a, _) => f.out(a.dtype()),
        }
    }

    /// Whether the node computes its values (not an operand read in place or a scalar).
    fn computed(&self) -> bool {
        !matches!(self, BNode::Leaf(_) | BNode::Scalar(_))
    }

    /// Binds `node`, whose leaves are looked up with `leaf` in order of [`Node::leaves`].
    pub fn bind(node: &Node, leaf: &mut impl FnMut() -> Src<'a>) -> BNode<'a> {
        match node {
            Node::Leaf(..) => BNode::Leaf(leaf()),
            Node::Scalar(s) => BNode::Scalar(*s),
            Node::Cast(x, t) => BNode::Cast(Box::new(Self::bind(x, leaf)), *t),
            Node::Bin(op, a, b) => {
                let a = Self::bind(a, leaf);
                BNode::Bin(*op, Box::new(a), Box::new(Self::bind(b, leaf)))
            }
            Node::Un(op, x) => BNode::Un(*op, Box::new(Self::bind(x, leaf))),
            Node::Where(c, a, b) => {
                let c = Self::bind(c, leaf);
                let a = Self::bind(a, leaf);
                BNode::Where(Box::new(c), Box::new(a), Box::new(Self::bind(b, leaf)))
            }
            Node::Fn2(f, a, b) => {
                let a = Self::bind(a, leaf);
                BNode::Fn2(*f, Box::new(a), Box::new(Self::bind(b, leaf)))
            }
        }
    }
}

fn mismatch(what: &str) -> Error {
    Error::InvalidArgument(format!("internal: operand dtypes do not match in {what}"))
}

#[inline]
fn map1<A: Copy, O: Clone>(x: &Arg<A>, n: usize, f: impl Fn(A) -> O) -> Vec<O> {
    match x {
        Arg::S(a) => a.iter().map(|&a| f(a)).collect(),
        Arg::C(a) => vec![f(*a); n],
    }
}

#[inline]
fn zip2<A: Copy, B: Copy, O: Clone>(x: &Arg<A>, y: &Arg<B>, n: usize, f: impl Fn(A, B) -> O) -> Vec<O> {
    match (x, y) {
        (Arg::S(a), Arg::S(b)) => a.iter().zip(b.iter()).map(|(&a, &b)| f(a, b)).collect(),
        (Arg::S(a), Arg::C(b)) => a.iter().map(|&a| f(a, *b)).collect(),
        (Arg::C(a), Arg::S(b)) => b.iter().map(|&b| f(*a, b)).collect(),
        (Arg::C(a), Arg::C(b)) => vec![f(*a, *b); n],
    }
}

/// Evaluation state shared by a loop's tasks: errors found in the data.
#[derive(Default)]
pub struct Flags {
    /// An integer raised to a negative power.
    pub neg_pow: AtomicBool,
}

fn bin_t<'a, T: Access>(op: BinOp, a: &Val, b: &Val, n: usize, flags: &Flags) -> Result<Val<'a>> {
    let (x, y) = (
        T::arg(a).ok_or_else(|| mismatch("a binary operation"))?,
        T::arg(b).ok_or_else(|| mismatch("a binary operation"))?,
    );
    use BinOp::*;
    Ok(match op {
        Lt => Val::B(zip2(&x, &y, n, |a, b| a < b)),
        Le => Val::B(zip2(&x, &y, n, |a, b| a <= b)),
        Gt => Val::B(zip2(&x, &y, n, |a, b| a > b)),
        Ge => Val::B(zip2(&x, &y, n, |a, b| a >= b)),
        Eq => Val::B(zip2(&x, &y, n, |a, b| a == b)),
        Ne => Val::B(zip2(&x, &y, n, |a, b| a != b)),
        _ if !T::supports(op) => {
            return Err(Error::InvalidArgument(format!("internal: {op:?} is not defined for this dtype")))
        }
        Add => T::wrap(zip2(&x, &y, n, |a, b| T::bin(Add, a, b))),
        Sub => T::wrap(zip2(&x, &y, n, |a, b| T::bin(Sub, a, b))),
        Mul => T::wrap(zip2(&x, &y, n, |a, b| T::bin(Mul, a, b))),
        Pow => {
            if let Some(Arg::S(e)) = T::arg(b) {
                if e.iter().any(|&e| e < T::zero()) {
                    flags.neg_pow.store(true, Ordering::Relaxed);
                }
            } else if let Some(Arg::C(e)) = T::arg(b) {
                if e < T::zero() {
                    flags.neg_pow.store(true, Ordering::Relaxed);
                }
            }
            T::wrap(zip2(&x, &y, n, |a, b| T::bin(Pow, a, b)))
        }
        op => T::wrap(zip2(&x, &y, n, |a, b| T::bin(op, a, b))),
    })
}

fn cast_t<'a, T: Access>(v: &Val, to: DType, n: usize) -> Result<Val<'a>> {
    let x = T::arg(v).ok_or_else(|| mismatch("a conversion"))?;
    Ok(match to {
        DType::I64 => Val::I(map1(&x, n, T::to_i64)),
        DType::U64 => Val::U(map1(&x, n, T::to_u64)),
        DType::F64 => Val::F(map1(&x, n, T::to_f64)),
        DType::Bool => Val::B(map1(&x, n, T::to_bool)),
        DType::U8 => Val::U8(map1(&x, n, T::to_u8)),
    })
}

fn where_t<'a, T: Access>(c: &Arg<bool>, a: &Val, b: &Val, n: usize) -> Result<Val<'a>> {
    let (x, y) = (T::arg(a).ok_or_else(|| mismatch("where"))?, T::arg(b).ok_or_else(|| mismatch("where"))?);
    let pick = |i: usize| -> T {
        let ci = match c {
            Arg::S(s) => s[i],
            Arg::C(v) => *v,
        };
        let v = if ci { &x } else { &y };
        match v {
            Arg::S(s) => s[i],
            Arg::C(v) => *v,
        }
    };
    Ok(T::wrap((0..n).map(pick).collect()))
}

fn sub<'a>(s: Src<'a>, r: &Range<usize>) -> Src<'a> {
    match s {
        Src::I(x) => Src::I(&x[r.clone()]),
        Src::U(x) => Src::U(&x[r.clone()]),
        Src::F(x) => Src::F(&x[r.clone()]),
        Src::B(x) => Src::B(&x[r.clone()]),
        Src::U8(x) => Src::U8(&x[r.clone()]),
    }
}

/// The value of `node` at local positions `r`.
pub fn eval<'a>(node: &BNode<'a>, r: &Range<usize>, flags: &Flags) -> Result<Val<'a>> {
    let n = r.len();
    Ok(match node {
        BNode::Leaf(s) => Val::R(sub(*s, r)),
        BNode::Scalar(s) => Val::S(*s),
        BNode::Cast(x, t) => {
            let v = eval(x, r, flags)?;
            if v.dtype() == *t {
                return Ok(v);
            }
            atoll::array::with_dtype!(v.dtype(), T => cast_t::<T>(&v, *t, n)?)
        }
        BNode::Bin(op, a, b) => {
            let (a, b) = (eval(a, r, flags)?, eval(b, r, flags)?);
            atoll::array::with_dtype!(a.dtype(), T => bin_t::<T>(*op, &a, &b, n, flags)?)
        }
        BNode::Un(op, x) => crate::eval::ufuncs::eval1(*op, &eval(x, r, flags)?, n)?,
        BNode::Where(c, a, b) => {
            let c = eval(c, r, flags)?;
            let c = bool::arg(&c).ok_or_else(|| mismatch("where's condition"))?;
            let (a, b) = (eval(a, r, flags)?, eval(b, r, flags)?);
            atoll::array::with_dtype!(a.dtype(), T => where_t::<T>(&c, &a, &b, n)?)
        }
        BNode::Fn2(f, a, b) => crate::eval::ufuncs::eval2(*f, &eval(a, r, flags)?, &eval(b, r, flags)?, n)?,
    })
}

#[inline]
fn zip2_into<A: Copy, B: Copy, O>(x: &Arg<A>, y: &Arg<B>, out: &mut [O], f: impl Fn(A, B) -> O) {
    match (x, y) {
        (Arg::S(a), Arg::S(b)) => out.iter_mut().zip(a.iter().zip(b.iter())).for_each(|(o, (&a, &b))| *o = f(a, b)),
        (Arg::S(a), Arg::C(b)) => out.iter_mut().zip(a.iter()).for_each(|(o, &a)| *o = f(a, *b)),
        (Arg::C(a), Arg::S(b)) => out.iter_mut().zip(b.iter()).for_each(|(o, &b)| *o = f(*a, b)),
        (Arg::C(a), Arg::C(b)) => out.iter_mut().for_each(|o| *o = f(*a, *b)),
    }
}

/// `out[i] = f(x[i], out[i])` (`out_is_right`) or `f(out[i], x[i])`.
#[inline]
fn apply_in_place<T: Copy>(x: &Arg<T>, out: &mut [T], out_is_right: bool, f: impl Fn(T, T) -> T) {
    match (x, out_is_right) {
        (Arg::S(a), true) => out.iter_mut().zip(a.iter()).for_each(|(o, &a)| *o = f(a, *o)),
        (Arg::S(a), false) => out.iter_mut().zip(a.iter()).for_each(|(o, &a)| *o = f(*o, a)),
        (Arg::C(a), true) => out.iter_mut().for_each(|o| *o = f(*a, *o)),
        (Arg::C(a), false) => out.iter_mut().for_each(|o| *o = f(*o, *a)),
    }
}

/// Evaluates `node` at local positions `r` straight into `out` (the root operation writes
/// the output without a buffer when it can). `node` must not read `out` (the output may be
/// filled with an operand's value before the other operand is read; the commands evaluate a
/// tree that reads its target into a new array).
pub fn eval_store<T: Access>(node: &BNode<'_>, r: &Range<usize>, flags: &Flags, out: &mut [T]) -> Result<()> {
    if let BNode::Bin(op, a, b) = node {
        let op = *op;
        if !op.is_comparison() && op != BinOp::Pow && T::supports(op) {
            // A computed operand of the output's dtype is evaluated straight into `out`, and the
            // operation then applied in place: `b + 3.0 * c` allocates no buffer.
            if a.dtype() == T::DTYPE && b.dtype() == T::DTYPE && (a.computed() || b.computed()) {
                let (computed, other, out_is_right) = if b.computed() { (b, a, true) } else { (a, b, false) };
                eval_store(computed, r, flags, out)?;
                let v = eval(other, r, flags)?;
                let x = T::arg(&v).ok_or_else(|| mismatch("a binary operation"))?;
                match op {
                    BinOp::Add => apply_in_place(&x, out, out_is_right, |a, b| T::bin(BinOp::Add, a, b)),
                    BinOp::Sub => apply_in_place(&x, out, out_is_right, |a, b| T::bin(BinOp::Sub, a, b)),
                    BinOp::Mul => apply_in_place(&x, out, out_is_right, |a, b| T::bin(BinOp::Mul, a, b)),
                    BinOp::Div => apply_in_place(&x, out, out_is_right, |a, b| T::bin(BinOp::Div, a, b)),
                    op => apply_in_place(&x, out, out_is_right, |a, b| T::bin(op, a, b)),
                }
                return Ok(());
            }
            let (va, vb) = (eval(a, r, flags)?, eval(b, r, flags)?);
            if let (Some(x), Some(y)) = (T::arg(&va), T::arg(&vb)) {
                match op {
                    BinOp::Add => zip2_into(&x, &y, out, |a, b| T::bin(BinOp::Add, a, b)),
                    BinOp::Sub => zip2_into(&x, &y, out, |a, b| T::bin(BinOp::Sub, a, b)),
                    BinOp::Mul => zip2_into(&x, &y, out, |a, b| T::bin(BinOp::Mul, a, b)),
                    BinOp::Div => zip2_into(&x, &y, out, |a, b| T::bin(BinOp::Div, a, b)),
                    op => zip2_into(&x, &y, out, |a, b| T::bin(op, a, b)),
                }
                return Ok(());
            }
        }
    }
    store(&eval(node, r, flags)?, out)
}

/// Writes `v` (`out.len()` values) into `out`.
pub fn store<T: Access>(v: &Val, out: &mut [T]) -> Result<()> {
    match T::arg(v).ok_or_else(|| mismatch("an assignment"))? {
        Arg::S(s) => out.copy_from_slice(s),
        Arg::C(c) => out.fill(c),
    }
    Ok(())
}

/// A reduction's partial result (per chunk, per locale), combined in index order.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub enum Part {
    /// No element yet.
    Empty,
    /// A sum, product, minimum, maximum, any or all.
    Val(Scal),
    /// A value and its (global) index: argmin/argmax.
    Arg(Scal, u64),
    /// A count.
    Count(u64),
    /// First and last element and whether the elements are in order.
    Sorted(Scal, Scal, bool),
}

/// The reductions.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum RedOp {
    Sum,
    Prod,
    Min,
    Max,
    ArgMin,
    ArgMax,
    Any,
    All,
    CountNonzero,
    IsSorted,
}

impl RedOp {
    /// The reduction of a name: sum, prod, min, max, argmin, argmax, any, all, count_nonzero,
    /// is_sorted.
    pub fn parse(s: &str) -> Option<RedOp> {
        use RedOp::*;
        Some(match s {
            "sum" => Sum,
            "prod" => Prod,
            "min" => Min,
            "max" => Max,
            "argmin" => ArgMin,
            "argmax" => ArgMax,
            "any" => Any,
            "all" => All,
            "count_nonzero" => CountNonzero,
            "is_sorted" => IsSorted,
            _ => return None,
        })
    }
}

/// Elements [`fold8`] reads ahead with a software prefetch (512 bytes of float64, the distance
/// of NumPy's pairwise sum): 2 locales' sums read at about half of NumPy's one-core rate per
/// core, and the hardware prefetcher stops at each 4 KiB page. The gain is not measured yet
/// (the one attempt ran on a loaded host); the values do not depend on it.
const PREFETCH_AHEAD: usize = 64;

/// `f`-fold of `s` from `id` with 8 independent accumulators (vectorizable, and as
/// deterministic as the sequential fold: the order depends only on the chunk).
#[inline]
fn fold8<T: Num>(s: &[T], id: T, f: impl Fn(T, T) -> T) -> T {
    let mut acc = [id; 8];
    let mut it = s.chunks_exact(8);
    for c in &mut it {
        atoll::util::prefetch::read(c.as_ptr().wrapping_add(PREFETCH_AHEAD));
        for k in 0..8 {
            acc[k] = f(acc[k], c[k]);
        }
    }
    let mut r = acc.iter().fold(id, |a, &b| f(a, b));
    for &x in it.remainder() {
        r = f(r, x);
    }
    r
}

/// Elements that [`pairwise_sum`] adds with [`fold8`] before it splits (NumPy's block).
pub(crate) const PAIRWISE_BLOCK: usize = 128;

/// Pairwise sum of `s`, NumPy's rule: blocks of at most [`PAIRWISE_BLOCK`] elements summed by 8
/// interleaved accumulators, halves (split at a multiple of 8) added recursively; the rounding
/// error grows with `log2(len / 128)`, not `len`.
fn pairwise_sum<T: Num>(s: &[T]) -> T {
    if s.len() <= PAIRWISE_BLOCK {
        return fold8(s, T::zero(), |a, b| T::bin(BinOp::Add, a, b));
    }
    let half = (s.len() / 2) & !7;
    T::bin(BinOp::Add, pairwise_sum(&s[..half]), pairwise_sum(&s[half..]))
}

fn fold_t<T: Access>(op: RedOp, x: &Arg<T>, n: usize, base: u64) -> Part {
    if n == 0 {
        return Part::Empty;
    }
    let at = |i: usize| match x {
        Arg::S(s) => s[i],
        Arg::C(c) => *c,
    };
    if let Arg::S(s) = x {
        match op {
            RedOp::Sum => return Part::Val(pairwise_sum(s).scal()),
            RedOp::Prod => return Part::Val(fold8(s, T::one(), |a, b| T::bin(BinOp::Mul, a, b)).scal()),
            RedOp::Min => return Part::Val(fold8(&s[1..], s[0], min_of).scal()),
            RedOp::Max => return Part::Val(fold8(&s[1..], s[0], max_of).scal()),
            _ => {}
        }
    }
    match op {
        RedOp::Sum => Part::Val((0..n).fold(T::zero(), |a, i| T::bin(BinOp::Add, a, at(i))).scal()),
        RedOp::Prod => Part::Val((0..n).fold(T::one(), |a, i| T::bin(BinOp::Mul, a, at(i))).scal()),
        RedOp::Min => Part::Val((1..n).fold(at(0), |a, i| min_of(a, at(i))).scal()),
        RedOp::Max => Part::Val((1..n).fold(at(0), |a, i| max_of(a, at(i))).scal()),
        RedOp::ArgMin | RedOp::ArgMax => {
            let mut best = (at(0), 0usize);
            for i in 1..n {
                let v = at(i);
                let m = if op == RedOp::ArgMin { min_of(best.0, v) } else { max_of(best.0, v) };
                let changed = !(best.0.is_nan()) && (m.is_nan() || m != best.0);
                if changed {
                    best = (v, i);
                }
            }
            Part::Arg(best.0.scal(), base + best.1 as u64)
        }
        RedOp::Any => Part::Val(Scal::B((0..n).any(|i| at(i).to_bool()))),
        RedOp::All => Part::Val(Scal::B((0..n).all(|i| at(i).to_bool()))),
        RedOp::CountNonzero => Part::Count((0..n).filter(|&i| at(i).to_bool()).count() as u64),
        RedOp::IsSorted => Part::Sorted(
            at(0).scal(),
            at(n - 1).scal(),
            (1..n).all(|i| at(i).partial_cmp(&at(i - 1)) != Some(std::cmp::Ordering::Less)),
        ),
    }
}

/// Folds a chunk's value.
pub fn fold(op: RedOp, v: &Val, n: usize, base: u64) -> Result<Part> {
    Ok(
        atoll::array::with_dtype!(v.dtype(), T => fold_t(op, &T::arg(v).ok_or_else(|| mismatch("a reduction"))?, n, base)),
    )
}

fn combine_t<T: Num>(op: RedOp, a: Part, b: Part) -> Part {
    let v = |s: Scal| T::of(s).unwrap_or_default();
    match (a, b) {
        (Part::Empty, x) | (x, Part::Empty) => x,
        (Part::Val(x), Part::Val(y)) => Part::Val(match op {
            RedOp::Sum => T::bin(BinOp::Add, v(x), v(y)).scal(),
            RedOp::Prod => T::bin(BinOp::Mul, v(x), v(y)).scal(),
            RedOp::Min => min_of(v(x), v(y)).scal(),
            RedOp::Max => max_of(v(x), v(y)).scal(),
            RedOp::Any => Scal::B(v(x).to_bool() || v(y).to_bool()),
            _ => Scal::B(v(x).to_bool() && v(y).to_bool()),
        }),
        (Part::Arg(x, i), Part::Arg(y, j)) => {
            let (x, y) = (v(x), v(y));
            let m = if op == RedOp::ArgMin { min_of(x, y) } else { max_of(x, y) };
            let take_right = !x.is_nan() && (m.is_nan() || m != x);
            if take_right {
                Part::Arg(y.scal(), j)
            } else {
                Part::Arg(x.scal(), i)
            }
        }
        (Part::Count(x), Part::Count(y)) => Part::Count(x + y),
        (Part::Sorted(f, l, ok), Part::Sorted(f2, l2, ok2)) => {
            Part::Sorted(f, l2, ok && ok2 && v(f2).partial_cmp(&v(l)) != Some(std::cmp::Ordering::Less))
        }
        (a, _) => a,
    }
}

/// Combines partial results given in index order as a balanced tree (pairwise: a sum's
/// rounding error grows with the log of their count).
pub fn combine_tree(op: RedOp, dtype: DType, mut parts: Vec<Part>) -> Part {
    while parts.len() > 1 {
        let mut next = Vec::with_capacity(parts.len().div_ceil(2));
        let mut it = parts.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => combine(op, dtype, a, b),
                None => a,
            });
        }
        parts = next;
    }
    parts.pop().unwrap_or(Part::Empty)
}

/// Combines two partial results in index order (`a` before `b`).
pub fn combine(op: RedOp, dtype: DType, a: Part, b: Part) -> Part {
    atoll::array::with_dtype!(dtype, T => combine_t::<T>(op, a, b))
}
