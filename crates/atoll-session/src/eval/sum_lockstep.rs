//! The pairwise sums of [`LANES`] consecutive chunks computed in one loop: the same values as
//! `eval::pairwise_sum` of each chunk, bit for bit, in less time.
//!
//! A float64 `ak.sum` of an array is the pairwise sum of each [`CHUNK`] of a locale's part,
//! combined as a tree (`eval.rs`). Summed one chunk after another, a core reads one stream:
//! each 128-element block is a chain of dependent additions per accumulator, and the hardware
//! prefetcher starts afresh at each 4 KiB page. Here the chunks of a group of [`LANES`] are
//! walked in lockstep (the same recursion on every chunk, each 8-element step of every chunk in
//! one iteration): eight independent streams and eight times the independent additions. A
//! standalone two-thread probe on a 2-vCPU KVM guest (2^27 float64) took
//! 0.035-0.037 s of CPU per thread instead of 0.050-0.055 s (2 and 4 lanes: 0.049, 0.039-0.043;
//! the software prefetch of `fold8` made no difference there). Each chunk's additions happen in
//! exactly the order of `pairwise_sum`, so results do not change (the Python tests compare both
//! paths bit for bit).

use crate::eval::kernels::Num;
use crate::eval::{BNode, Part, Src, CHUNK, PAIRWISE_BLOCK};
use crate::types::BinOp;
use std::ops::Range;

/// Chunks summed together.
pub const LANES: usize = 8;

/// Pushes onto `out` the pairwise sum (`eval::pairwise_sum`'s rule) of each [`CHUNK`] of `s`,
/// in order (the last chunk may be shorter).
pub fn chunk_sums<T: Num>(s: &[T], out: &mut Vec<T>) {
    let mut groups = s.chunks_exact(LANES * CHUNK);
    for g in &mut groups {
        out.extend_from_slice(&pairwise_lanes::<T, LANES>(std::array::from_fn(|j| &g[j * CHUNK..(j + 1) * CHUNK])));
    }
    for c in groups.remainder().chunks(CHUNK) {
        out.push(pairwise_lanes::<T, 1>([c; 1])[0]);
    }
}

fn add<T: Num>(a: T, b: T) -> T {
    T::bin(BinOp::Add, a, b)
}

/// `pairwise_sum` of each of `K` slices of one length: the same splits on every lane.
fn pairwise_lanes<T: Num, const K: usize>(s: [&[T]; K]) -> [T; K] {
    let n = s[0].len();
    if n <= PAIRWISE_BLOCK {
        return fold8_lanes(s);
    }
    let half = (n / 2) & !7;
    let a = pairwise_lanes(s.map(|x| &x[..half]));
    let b = pairwise_lanes(s.map(|x| &x[half..]));
    std::array::from_fn(|j| add(a[j], b[j]))
}

/// `fold8(x, 0, +)` of each lane (8 accumulators over whole 8-element steps, summed from zero
/// in order, then the remainder added one by one), the lanes' steps interleaved.
#[inline]
fn fold8_lanes<T: Num, const K: usize>(s: [&[T]; K]) -> [T; K] {
    let n = s[0].len();
    let whole = n / 8 * 8;
    let mut acc = [[T::zero(); 8]; K];
    let mut i = 0;
    while i < whole {
        for (a, x) in acc.iter_mut().zip(&s) {
            let c = &x[i..i + 8];
            for k in 0..8 {
                a[k] = add(a[k], c[k]);
            }
        }
        i += 8;
    }
    std::array::from_fn(|j| {
        let r = acc[j].iter().fold(T::zero(), |r, &v| add(r, v));
        s[j][whole..].iter().fold(r, |r, &v| add(r, v))
    })
}

/// The partial sums of the [`CHUNK`]s of local positions `t` when `node` is an integer or
/// float64 array (the parts the chunk-by-chunk loop of `commands::reduce` makes for a sum);
/// `None` for any other tree (that loop then evaluates it).
pub fn leaf_chunk_parts(node: &BNode<'_>, t: &Range<usize>) -> Option<Vec<Part>> {
    fn parts<T: Num>(s: &[T]) -> Vec<Part> {
        let mut sums = Vec::with_capacity(s.len().div_ceil(CHUNK));
        chunk_sums(s, &mut sums);
        sums.into_iter().map(|x| Part::Val(x.scal())).collect()
    }
    match node {
        BNode::Leaf(Src::F(s)) => Some(parts(&s[t.clone()])),
        BNode::Leaf(Src::I(s)) => Some(parts(&s[t.clone()])),
        BNode::Leaf(Src::U(s)) => Some(parts(&s[t.clone()])),
        _ => None,
    }
}
