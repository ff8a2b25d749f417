//! The BlockCyclic distribution: blocks of `B` consecutive positions dealt round-robin to the
//! targets along each dimension.

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::dim_map::sub_positions;
use crate::math::{div_ceil, gcd, mod_inverse, Ap};
use crate::{DimMap, DistKind, Distribution, Domain, LocaleGrid, Piece, StridedRange};

/// One dimension of a [`BlockCyclic`] distribution: `n` positions cut into blocks of `B`,
/// the blocks dealt round-robin to `N` parts.
///
/// Position `p` is in block `floor(p / B)`, owned by part `floor(p / B) mod N`, at local
/// position `floor(p / (B*N)) * B + p mod B` (the part's blocks are stored one after the
/// other). A *cycle* is `B*N` consecutive positions; part `k` owns the window
/// `k*B..(k+1)*B` of each cycle.
///
/// ```
/// use atoll_dist::{BlockCyclicDim, DimMap, StridedRange};
/// let dim = BlockCyclicDim::new(StridedRange::new(0, 10), 2, 3)?;
/// let owners: Vec<usize> = (0..10).map(|p| dim.part_of(p)).collect();
/// assert_eq!(owners, [0, 0, 0, 1, 1, 1, 0, 0, 0, 1]);
/// assert_eq!((dim.local_len(0), dim.local_len(1), dim.local_pos(7)), (6, 4, 4));
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "BlockCyclicDimRepr", into = "BlockCyclicDimRepr")]
pub struct BlockCyclicDim {
    range: StridedRange,
    parts: usize,
    block: usize,
}

#[derive(Clone, Serialize, Deserialize)]
struct BlockCyclicDimRepr {
    range: StridedRange,
    parts: usize,
    block: usize,
}

impl From<BlockCyclicDim> for BlockCyclicDimRepr {
    fn from(d: BlockCyclicDim) -> Self {
        BlockCyclicDimRepr { range: d.range, parts: d.parts, block: d.block }
    }
}

impl TryFrom<BlockCyclicDimRepr> for BlockCyclicDim {
    type Error = Error;
    fn try_from(r: BlockCyclicDimRepr) -> Result<Self> {
        BlockCyclicDim::new(r.range, r.parts, r.block)
    }
}

impl BlockCyclicDim {
    /// The block-cyclic map of `range` over `parts` grid coordinates with blocks of `block`
    /// positions.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `parts` or `block` is 0.
    pub fn new(range: StridedRange, parts: usize, block: usize) -> Result<Self> {
        ensure!(parts > 0, invalid_arg!("a dimension map needs at least one part, got 0"));
        ensure!(block > 0, invalid_arg!("the block size of a block-cyclic dimension must be positive, got 0"));
        Ok(BlockCyclicDim { range, parts, block })
    }

    /// The block size `B`.
    pub fn block(&self) -> usize {
        self.block
    }

    /// The cycle length `B * N` (as u128: it may exceed `u64`).
    #[inline]
    fn cycle(&self) -> u128 {
        self.block as u128 * self.parts as u128
    }

    /// The local position of `p` in 128-bit arithmetic.
    #[inline]
    fn local_pos_wide(&self, p: u128) -> u128 {
        let b = self.block as u128;
        p / self.cycle() * b + p % b
    }

    /// Pieces by owned block: one per block of `part` that the positions `p` touch, each
    /// with stride `q` both globally and locally.
    fn block_pieces(&self, part: usize, sub: &StridedRange, p: &Ap, out: &mut Vec<Piece>) {
        let (b, c) = (self.block as u128, self.cycle());
        let (p0, plast) = (p.first as u128, p.last() as u128);
        let window = part as u128 * b;
        for cyc in p0 / c..=plast / c {
            // cyc * c <= plast, so start only exceeds plast (and 2^64) in the last cycle.
            let start = cyc * c + window;
            if start > plast {
                break;
            }
            let end = (start + b).min(plast + 1);
            let run = p.clip(start as i128, end as i128);
            if run.len > 0 {
                let first = run.first as u128;
                out.push(Piece::from_positions(
                    &self.range,
                    sub,
                    first,
                    p.step(),
                    run.len,
                    cyc * b + (first - start),
                    p.step(),
                ));
            }
        }
    }

    /// Pieces by residue class modulo the cycle (modulo unrolling): the positions
    /// `p0 + j*q` with the same `j mod T`, `T = B*N / gcd(q, B*N)`, fall at the same place of
    /// every `lcm(q, B*N)` positions, so each class that `part` owns is one piece with global
    /// stride `lcm(q, B*N)` and local stride `lcm(q, B*N) / N`.
    /// Requires the cycle to be below `2^64` (the positions span at least one cycle).
    fn residue_pieces(&self, part: usize, sub: &StridedRange, p: &Ap, out: &mut Vec<Piece>) {
        let (b, c) = (self.block as u128, self.cycle());
        let (p0, q, m) = (p.first as u128, p.step(), p.len);
        let g = gcd(q, c);
        let period = c / g;
        let lcm = q * period;
        let local_step = lcm / c * b;
        let window = part as u128 * b;
        let mut starts = Vec::new();
        if m.min(period) <= div_ceil(b, g) {
            // Few elements per period: look at each one.
            for j in 0..m.min(period) {
                if (p0 + j * q) % c / b == part as u128 {
                    starts.push(j);
                }
            }
        } else {
            // The residues p0 + j*q (mod c) are the values ≡ p0 (mod g); solve for j at each
            // such value in the window: (q/g) j ≡ (rho - p0)/g (mod period).
            let inv = mod_inverse((q / g) % period, period);
            let mut rho = window + (p0 % g + g - window % g) % g;
            while rho < window + b {
                let d = (rho + c - p0 % c) % c / g;
                let j = d % period * inv % period;
                if j < m {
                    starts.push(j);
                }
                rho += g;
            }
            starts.sort_unstable();
        }
        for j in starts {
            let first = p0 + j * q;
            let len = (m - 1 - j) / period + 1;
            out.push(Piece::from_positions(&self.range, sub, first, lcm, len, self.local_pos_wide(first), local_step));
        }
    }
}

impl DimMap for BlockCyclicDim {
    fn range(&self) -> &StridedRange {
        &self.range
    }

    fn parts(&self) -> usize {
        self.parts
    }

    #[inline]
    fn part_of(&self, pos: usize) -> usize {
        (pos / self.block) % self.parts
    }

    #[inline]
    fn local_pos(&self, pos: usize) -> usize {
        // pos / (B*N) is 0 when B*N overflows usize; the result is at most pos.
        let cycles = self.block.checked_mul(self.parts).map_or(0, |c| pos / c);
        cycles * self.block + pos % self.block
    }

    fn global_pos(&self, part: usize, local: usize) -> Option<usize> {
        if part >= self.parts {
            return None;
        }
        let b = self.block as u128;
        let l = local as u128;
        // (l / B) * B * N <= l * N < 2^128.
        let p = l / b * self.cycle() + part as u128 * b + l % b;
        (p < self.range.len() as u128).then_some(p as usize)
    }

    fn shifted_moves(
        &self,
        part: usize,
        start: usize,
        len: usize,
        shift: i64,
        out: &mut Vec<crate::ShiftMove>,
    ) -> bool {
        crate::shift::block_cyclic_moves(
            self.range.len(),
            self.parts,
            self.block,
            part,
            self.local_len(part),
            start,
            len,
            shift,
            out,
        )
    }

    fn local_len(&self, part: usize) -> usize {
        if part >= self.parts {
            return 0;
        }
        let (n, b, c) = (self.range.len() as u128, self.block as u128, self.cycle());
        let rest = n % c;
        let extra = rest.saturating_sub(part as u128 * b).min(b);
        (n / c * b + extra) as usize
    }

    /// Two decompositions, choosing the one with fewer pieces:
    /// - by owned block (one piece per block of `part` that the positions touch; global and
    ///   local stride `q`), when that count is at most the residue bound below;
    /// - by residue class modulo the cycle `B*N` (modulo unrolling), at most
    ///   `min(ceil(B / gcd(q, B*N)), m)` pieces for `m` positions at stride `q`.
    fn pieces(&self, part: usize, sub: &StridedRange, out: &mut Vec<Piece>) {
        if part >= self.parts {
            return;
        }
        let p = sub_positions(&self.range, sub);
        if p.len == 0 {
            return;
        }
        let (b, c) = (self.block as u128, self.cycle());
        let (p0, plast) = (p.first as u128, p.last() as u128);
        let residue_bound = div_ceil(b, gcd(p.step(), c)).min(p.len);
        let blocks_touched = plast / c - p0 / c + 1;
        if blocks_touched <= residue_bound {
            self.block_pieces(part, sub, &p, out);
        } else {
            // blocks_touched >= 2, so c <= plast < 2^64.
            self.residue_pieces(part, sub, &p, out);
        }
    }
}

/// The BlockCyclic distribution (Chapel's `blockCycDist`): along each dimension `d`, the
/// positions of the domain's range are cut into blocks of `B[d]` positions, and the blocks
/// are dealt round-robin to the `N = grid.shape()[d]` grid coordinates, starting at the
/// domain's low corner.
///
/// **Owner formula**, per dimension, for the index at position `p = (i - lo) / stride`:
/// `floor(p / B) mod N`, local position `floor(p / (B*N)) * B + p mod B`. Cyclic is the case
/// `B = 1`.
///
/// [`runs`](Distribution::runs) describes the owned part of a strided range (stride `q` in
/// positions, `m` positions) with at most `min(ceil(B / gcd(q, B*N)), m)` pieces per
/// dimension, whatever its length: either one piece per owned block it touches, or, when
/// that is more, one piece per residue class modulo the cycle `B*N` (the modulo-unrolling
/// strip-mining by `lcm(B, n)` of the paper, generalized to `lcm(q, B*N)`).
///
/// **Owner grid** of an 8x8 domain on 6 locales (grid 3x2) with 2x2 blocks:
///
/// ```
/// use atoll_dist::{BlockCyclic, Distribution, Domain, LocaleGrid};
///
/// let dist = BlockCyclic::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?, [2, 2])?;
/// assert_eq!(dist.owner_map(), "\
/// 0 0 1 1 0 0 1 1
/// 0 0 1 1 0 0 1 1
/// 2 2 3 3 2 2 3 3
/// 2 2 3 3 2 2 3 3
/// 4 4 5 5 4 4 5 5
/// 4 4 5 5 4 4 5 5
/// 0 0 1 1 0 0 1 1
/// 0 0 1 1 0 0 1 1
/// ");
/// assert_eq!(dist.local_shape(0)?, [4, 4]);
/// assert_eq!(dist.local_shape(5)?, [2, 4]);
/// assert_eq!(dist.locate([6, 5]), (0, 2 * 4 + 3));
/// assert!(BlockCyclic::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?, [2, 0]).is_err());
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "BlockCyclicRepr<D>", into = "BlockCyclicRepr<D>")]
pub struct BlockCyclic<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
    dims: [BlockCyclicDim; D],
}

/// The serialized form of a [`BlockCyclic`]: its parameters, rebuilt when read.
#[derive(Clone, Serialize, Deserialize)]
struct BlockCyclicRepr<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
    #[serde(with = "crate::serde_array")]
    block: [usize; D],
}

impl<const D: usize> From<BlockCyclic<D>> for BlockCyclicRepr<D> {
    fn from(b: BlockCyclic<D>) -> Self {
        let block = b.block();
        BlockCyclicRepr { domain: b.domain, grid: b.grid, block }
    }
}

impl<const D: usize> TryFrom<BlockCyclicRepr<D>> for BlockCyclic<D> {
    type Error = Error;
    fn try_from(r: BlockCyclicRepr<D>) -> Result<Self> {
        BlockCyclic::new(r.domain, r.grid, r.block)
    }
}

impl<const D: usize> BlockCyclic<D> {
    /// The BlockCyclic distribution of `domain` over `grid` with blocks of `block[d]`
    /// positions along dimension `d`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when a block size is 0.
    pub fn new(domain: Domain<D>, grid: LocaleGrid<D>, block: [usize; D]) -> Result<Self> {
        ensure!(
            block.iter().all(|&b| b > 0),
            invalid_arg!("block sizes must be positive in every dimension, got {block:?}")
        );
        let shape = grid.shape();
        let dims =
            std::array::from_fn(|d| BlockCyclicDim { range: domain.dims()[d], parts: shape[d], block: block[d] });
        Ok(BlockCyclic { domain, grid, dims })
    }

    /// The block sizes, per dimension.
    pub fn block(&self) -> [usize; D] {
        self.dims.each_ref().map(|d| d.block)
    }
}

impl<const D: usize> Distribution<D> for BlockCyclic<D> {
    type Dim = BlockCyclicDim;

    fn kind(&self) -> DistKind {
        DistKind::BlockCyclic
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn grid(&self) -> &LocaleGrid<D> {
        &self.grid
    }

    fn dim_maps(&self) -> &[BlockCyclicDim; D] {
        &self.dims
    }
}

#[cfg(test)]
mod tests {
    //! `shifted_moves` (the moves of `crate::shift`) against the owner formula.
    use crate::{BlockCyclicDim, DimMap, StridedRange};

    /// Applies the moves to a row of (part, local position) pairs and compares every entry with
    /// the owner formula of `p + s`; a shift that leaves the dimension must be refused.
    #[test]
    fn moves_match_the_owner_formula() {
        let mut out = Vec::new();
        for n in [1usize, 7, 16, 37, 64] {
            for parts in 1..=4 {
                for b in 1..=5 {
                    let dim = BlockCyclicDim::new(StridedRange::new(0, n as i64), parts, b).unwrap();
                    for part in 0..parts {
                        let ll = dim.local_len(part);
                        for start in 0..=ll {
                            for len in 0..=ll - start {
                                for s in -6i64..=6 {
                                    let ok = dim.shifted_moves(part, start, len, s, &mut out);
                                    let want: Option<Vec<(usize, usize)>> = (start..start + len)
                                        .map(|l| {
                                            let q = dim.global_pos(part, l).unwrap() as i64 + s;
                                            (0..n as i64).contains(&q).then(|| dim.locate(q as usize))
                                        })
                                        .collect();
                                    match want {
                                        None => {
                                            assert!(!ok, "n={n} parts={parts} b={b} part={part} {start}+{len} s={s}")
                                        }
                                        Some(want) => {
                                            assert!(ok, "n={n} parts={parts} b={b} part={part} {start}+{len} s={s}");
                                            let mut row = vec![None; len];
                                            for m in &out {
                                                for k in 0..m.len {
                                                    row[m.dst + k * m.dst_step] =
                                                        Some((m.part, m.src + k * m.src_step));
                                                }
                                            }
                                            let got: Vec<(usize, usize)> = row
                                                .into_iter()
                                                .map(|x| x.expect("every row position written"))
                                                .collect();
                                            assert_eq!(
                                                got, want,
                                                "n={n} parts={parts} b={b} part={part} {start}+{len} s={s}"
                                            );
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A shift of one reads one halo element per block edge: one contiguous copy and one
    /// strided copy from the neighbour.
    #[test]
    fn shift_by_one_is_a_copy_and_a_halo_progression() {
        let dim = BlockCyclicDim::new(StridedRange::new(0, 10_000), 2, 4).unwrap();
        let mut out = Vec::new();
        assert!(dim.shifted_moves(0, 1, 4999, -1, &mut out));
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!((out[0].part, out[0].src, out[0].src_step, out[0].len), (0, 0, 1, 4999));
        assert_eq!((out[1].part, out[1].src, out[1].src_step, out[1].dst, out[1].dst_step), (1, 3, 4, 3, 4));
    }
}
