//! Single-pass kernels for the small float64 arithmetic trees (`b + 3.0 * c`, `x * y - z`,
//! `(a - b) / c`, `a + b`): one loop reads every operand and writes each output element once,
//! the loop of the Rust `assign_expr` (with the same streaming stores for large outputs).
//!
//! The chunked evaluator (`eval.rs`) makes one pass over each chunk per operation: for the
//! triad it reads `c` for a chunk, then `b`, then (streaming) copies the buffer out, so the
//! memory streams take turns instead of flowing together. Here the operations of a tree of one
//! or two of `+ - * /` over float64 operands and scalars are fixed at compile time (one
//! instance per pair of operations) and run element by element. The values are those of the
//! evaluator (and NumPy's): the same IEEE operations in the same order, no contraction.
//!
//! Scalars are read from a constant buffer of [`CHUNK`] elements (in L1), so every kernel reads
//! slices only and one instance serves every mix of operands and scalars.
//!
//! [`set_fused_kernels`](crate::commands::arrays::tuning::set_fused_kernels)`(false)` (on
//! every locale) sends these trees back to the chunked evaluator: the bench times both paths in
//! one run and the tests compare them.

use crate::eval::{BNode, Src, CHUNK};
use crate::types::{BinOp, Scal};
use atoll::array::stream_store::{self, Streamer};
use atoll::runtime::Ctx;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether [`Fused::of`] recognizes trees (in-process locales share it; every rank sets its own).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the kernels on (the default) or off in this process.
pub(crate) fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the kernels are on in this process.
pub(crate) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// An operand of a fused tree: this locale's part of an aligned array, or a scalar.
#[derive(Clone, Copy, Debug)]
enum Leaf<'a> {
    S(&'a [f64]),
    C(f64),
}

/// How the (up to three) operands combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `x o1 y`.
    Two,
    /// `x o1 (y o2 z)`.
    Right,
    /// `(x o2 y) o1 z`.
    Left,
}

/// A tree the fused kernels evaluate.
#[derive(Debug)]
pub struct Fused<'a> {
    shape: Shape,
    o1: BinOp,
    o2: BinOp,
    leaves: [Leaf<'a>; 3],
}

fn arith(op: BinOp) -> bool {
    matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div)
}

fn leaf<'a>(n: &BNode<'a>) -> Option<Leaf<'a>> {
    match n {
        BNode::Leaf(Src::F(s)) => Some(Leaf::S(s)),
        BNode::Scalar(Scal::F(c)) => Some(Leaf::C(*c)),
        _ => None,
    }
}

/// `x o2 y` of two leaves, not both scalars.
fn inner<'a>(n: &BNode<'a>) -> Option<(BinOp, Leaf<'a>, Leaf<'a>)> {
    match n {
        BNode::Bin(op, a, b) if arith(*op) => match (leaf(a)?, leaf(b)?) {
            (Leaf::C(_), Leaf::C(_)) => None,
            (x, y) => Some((*op, x, y)),
        },
        _ => None,
    }
}

/// Runs `$body` with the const `$name` (a `u8`) naming the operation `$op` (`+ - * /`).
macro_rules! with_op {
    ($op:expr, $name:ident, $body:expr) => {
        match $op {
            BinOp::Add => {
                const $name: u8 = ADD;
                $body
            }
            BinOp::Sub => {
                const $name: u8 = SUB;
                $body
            }
            BinOp::Mul => {
                const $name: u8 = MUL;
                $body
            }
            _ => {
                const $name: u8 = DIV;
                $body
            }
        }
    };
}

const ADD: u8 = 0;
const SUB: u8 = 1;
const MUL: u8 = 2;
const DIV: u8 = 3;

/// The operation `O` (folded at compile time).
#[inline(always)]
fn ap<const O: u8>(a: f64, b: f64) -> f64 {
    match O {
        ADD => a + b,
        SUB => a - b,
        MUL => a * b,
        _ => a / b,
    }
}

impl<'a> Fused<'a> {
    /// The fused form of `node`, when it is one or two of `+ - * /` over float64 operands and
    /// scalars (at least one operand, at most three leaves); `None` for any other tree.
    pub fn of(node: &BNode<'a>) -> Option<Fused<'a>> {
        if !ENABLED.load(Ordering::Relaxed) {
            return None;
        }
        let BNode::Bin(o1, a, b) = node else { return None };
        if !arith(*o1) {
            return None;
        }
        let o1 = *o1;
        let zero = Leaf::C(0.0);
        match (leaf(a), leaf(b)) {
            (Some(Leaf::C(_)), Some(Leaf::C(_))) => None,
            (Some(x), Some(y)) => Some(Fused { shape: Shape::Two, o1, o2: BinOp::Add, leaves: [x, y, zero] }),
            (Some(x), None) => {
                let (o2, y, z) = inner(b)?;
                Some(Fused { shape: Shape::Right, o1, o2, leaves: [x, y, z] })
            }
            (None, Some(z)) => {
                let (o2, x, y) = inner(a)?;
                Some(Fused { shape: Shape::Left, o1, o2, leaves: [x, y, z] })
            }
            (None, None) => None,
        }
    }

    /// The operand slices for local positions `r`, scalars read from `consts` (a buffer per
    /// leaf, filled by [`Fused::consts`]).
    fn slices<'b>(&'b self, r: &Range<usize>, consts: &'b [Vec<f64>; 3]) -> [&'b [f64]; 3] {
        let n = r.len();
        let pick = |k: usize| match self.leaves[k] {
            _ if k == 2 && self.shape == Shape::Two => &[][..],
            Leaf::S(s) => &s[r.clone()],
            Leaf::C(_) => &consts[k][..n],
        };
        [pick(0), pick(1), pick(2)]
    }

    /// One task's constant buffers: [`CHUNK`] copies of each scalar leaf (empty for operands
    /// and for the third leaf of `x o1 y`).
    fn consts(&self) -> [Vec<f64>; 3] {
        let mut k = 0;
        self.leaves.map(|l| {
            k += 1;
            match l {
                Leaf::C(c) if !(k == 3 && self.shape == Shape::Two) => vec![c; CHUNK],
                _ => Vec::new(),
            }
        })
    }

    /// `out = tree` at local positions `r` (`out.len() == r.len() <= CHUNK`), streamed through
    /// `s` when given.
    fn fill(&self, r: &Range<usize>, consts: &[Vec<f64>; 3], out: &mut [f64], s: Option<&mut Streamer>) {
        let [x, y, z] = self.slices(r, consts);
        match self.shape {
            Shape::Two => with_op!(self.o1, A, two::<A>(x, y, out, s)),
            Shape::Right => with_op!(self.o1, A, with_op!(self.o2, B, right::<A, B>(x, y, z, out, s))),
            Shape::Left => with_op!(self.o1, A, with_op!(self.o2, B, left::<A, B>(x, y, z, out, s))),
        }
    }
}

/// `out[j] = f(j)`: streamed through `s`, or a plain loop.
#[inline(always)]
fn write(out: &mut [f64], s: Option<&mut Streamer>, f: impl Fn(usize) -> f64) {
    match s {
        Some(s) => s.write(out, f),
        None => {
            for (j, o) in out.iter_mut().enumerate() {
                *o = f(j);
            }
        }
    }
}

fn two<const A: u8>(x: &[f64], y: &[f64], out: &mut [f64], s: Option<&mut Streamer>) {
    let n = out.len();
    let (x, y) = (&x[..n], &y[..n]);
    write(out, s, |j| ap::<A>(x[j], y[j]));
}

fn right<const A: u8, const B: u8>(x: &[f64], y: &[f64], z: &[f64], out: &mut [f64], s: Option<&mut Streamer>) {
    let n = out.len();
    let (x, y, z) = (&x[..n], &y[..n], &z[..n]);
    write(out, s, |j| ap::<A>(x[j], ap::<B>(y[j], z[j])));
}

fn left<const A: u8, const B: u8>(x: &[f64], y: &[f64], z: &[f64], out: &mut [f64], s: Option<&mut Streamer>) {
    let n = out.len();
    let (x, y, z) = (&x[..n], &y[..n], &z[..n]);
    write(out, s, |j| ap::<A>(ap::<B>(x[j], y[j]), z[j]));
}

/// Elements per task of the locale's pool (as the evaluator's loop).
const TASK: usize = 1 << 16;

/// `out = f` (this locale's part) on the locale's task pool, [`CHUNK`] elements at a time, with
/// streaming stores when the output is large (`stream_store::worth_it`, the rule of the Rust
/// `assign_expr`): one store fence per task.
pub fn run_loop(ctx: &Ctx, f: &Fused<'_>, out: &mut [f64]) {
    let stream = stream_store::worth_it::<f64>(out.len());
    ctx.forall_chunks_mut_with(out, TASK, |t, part| {
        let consts = f.consts();
        let chunks = (t.start..t.end).step_by(CHUNK).map(|s| s..(s + CHUNK).min(t.end));
        let chunks = chunks.zip(part.chunks_mut(CHUNK));
        if stream {
            stream_store::with_streaming(|s| {
                for (r, o) in chunks {
                    f.fill(&r, &consts, o, Some(s));
                }
            });
        } else {
            for (r, o) in chunks {
                f.fill(&r, &consts, o, None);
            }
        }
    });
}
