//! The Block distribution: one contiguous block of positions per target along each dimension.

use std::ops::Range;

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::dim_map::sub_positions;
use crate::math::div_ceil;
use crate::{DimMap, DistKind, Distribution, Domain, LocaleGrid, Piece, StridedRange};

/// One dimension of a [`Block`] distribution: `n` positions split into `N` contiguous blocks.
///
/// Position `p` is owned by part `floor(p * N / n)` (Chapel's formula); part `k` owns the
/// positions `ceil(k * n / N)..ceil((k + 1) * n / N)`, whose sizes differ by at most one
/// (parts are empty when `n < N`). Local position = `p - ceil(k * n / N)`.
///
/// ```
/// use atoll_dist::{BlockDim, DimMap, StridedRange};
/// let dim = BlockDim::new(StridedRange::new(0, 8), 3)?;
/// let owners: Vec<usize> = (0..8).map(|p| dim.part_of(p)).collect();
/// assert_eq!(owners, [0, 0, 0, 1, 1, 1, 2, 2]);
/// assert_eq!((dim.bounds(1), dim.local_pos(4)), (3..6, 1));
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "BlockDimRepr", into = "BlockDimRepr")]
pub struct BlockDim {
    range: StridedRange,
    parts: usize,
}

#[derive(Clone, Serialize, Deserialize)]
struct BlockDimRepr {
    range: StridedRange,
    parts: usize,
}

impl From<BlockDim> for BlockDimRepr {
    fn from(d: BlockDim) -> Self {
        BlockDimRepr { range: d.range, parts: d.parts }
    }
}

impl TryFrom<BlockDimRepr> for BlockDim {
    type Error = Error;
    fn try_from(r: BlockDimRepr) -> Result<Self> {
        BlockDim::new(r.range, r.parts)
    }
}

impl BlockDim {
    /// The block map of `range` over `parts` grid coordinates.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `parts` is 0.
    pub fn new(range: StridedRange, parts: usize) -> Result<Self> {
        ensure!(parts > 0, invalid_arg!("a dimension map needs at least one part, got 0"));
        Ok(BlockDim { range, parts })
    }

    /// The first position of part `k` (`k <= parts`): `ceil(k * n / N)`.
    #[inline]
    fn start(&self, k: usize) -> usize {
        div_ceil(k as u128 * self.range.len() as u128, self.parts as u128) as usize
    }

    /// The positions part `k` owns (empty for `k >= parts`).
    pub fn bounds(&self, k: usize) -> Range<usize> {
        if k >= self.parts {
            let n = self.range.len();
            return n..n;
        }
        self.start(k)..self.start(k + 1)
    }
}

impl DimMap for BlockDim {
    fn range(&self) -> &StridedRange {
        &self.range
    }

    fn parts(&self) -> usize {
        self.parts
    }

    #[inline]
    fn part_of(&self, pos: usize) -> usize {
        let (n, parts) = (self.range.len() as u64, self.parts as u64);
        if n == 0 {
            return 0;
        }
        let k = match (pos as u64).checked_mul(parts) {
            Some(x) => x / n,
            None => (pos as u128 * parts as u128 / n as u128) as u64,
        };
        k.min(parts - 1) as usize
    }

    #[inline]
    fn local_pos(&self, pos: usize) -> usize {
        pos.saturating_sub(self.start(self.part_of(pos)))
    }

    fn global_pos(&self, part: usize, local: usize) -> Option<usize> {
        let b = self.bounds(part);
        (local < b.len()).then(|| b.start + local)
    }

    fn local_len(&self, part: usize) -> usize {
        self.bounds(part).len()
    }

    fn pieces(&self, part: usize, sub: &StridedRange, out: &mut Vec<Piece>) {
        if part >= self.parts {
            return;
        }
        let b = self.bounds(part);
        let owned = sub_positions(&self.range, sub).clip(b.start as i128, b.end as i128);
        if owned.len > 0 {
            let first = owned.first as u128;
            out.push(Piece::from_positions(
                &self.range,
                sub,
                first,
                owned.step(),
                owned.len,
                first - b.start as u128,
                owned.step(),
            ));
        }
    }
}

/// The Block distribution (Chapel's `blockDist`): along each dimension `d`, the `n`
/// positions of the domain's range are split into `N = grid.shape()[d]` contiguous blocks,
/// and the target at grid coordinates `c` owns the product of blocks `c[d]`.
///
/// **Owner formula**, per dimension, for the index at position `p = (i - lo) / stride`:
/// `floor(p * N / n)`. Block `k` holds the positions `ceil(k*n/N)..ceil((k+1)*n/N)`.
///
/// **Owner grid** of an 8x8 domain on 6 locales (grid 3x2): each target owns one 3x4 or
/// 2x4 block; [`runs`](Distribution::runs) gives at most one piece per dimension.
///
/// ```
/// use atoll_dist::{Block, Distribution, Domain, LocaleGrid};
///
/// let dist = Block::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?);
/// assert_eq!(dist.grid().shape(), [3, 2]);
/// assert_eq!(dist.owner_map(), "\
/// 0 0 0 0 1 1 1 1
/// 0 0 0 0 1 1 1 1
/// 0 0 0 0 1 1 1 1
/// 2 2 2 2 3 3 3 3
/// 2 2 2 2 3 3 3 3
/// 2 2 2 2 3 3 3 3
/// 4 4 4 4 5 5 5 5
/// 4 4 4 4 5 5 5 5
/// ");
/// assert_eq!(dist.local_shape(4)?, [2, 4]);
/// assert_eq!(dist.local_domain(3)?.to_string(), "{3..6, 4..8}");
/// # Ok::<(), atoll_dist::Error>(())
/// ```
///
/// Targets can be any ids, for example the sublocales of one locale: distributing a
/// locale's own block over its 4 NUMA domains (ids 20..24 here) is a Block over that block.
///
/// ```
/// use atoll_dist::{Block, Distribution, Domain, LocaleGrid};
///
/// let dist = Block::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?);
/// let mine = dist.local_domain(3)?;                      // {3..6, 4..8}
/// let numa = Block::new(mine, LocaleGrid::new(20..24, [2, 2])?);
/// assert_eq!(numa.owner_map(), "\
/// 20 20 21 21
/// 20 20 21 21
/// 22 22 23 23
/// ");
/// assert_eq!(numa.owner([3, 7]), 21);
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "BlockRepr<D>", into = "BlockRepr<D>")]
pub struct Block<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
    dims: [BlockDim; D],
}

/// The serialized form of a [`Block`]: its parameters, rebuilt (and so validated) when read.
#[derive(Clone, Serialize, Deserialize)]
#[serde(bound = "")]
struct BlockRepr<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
}

impl<const D: usize> From<Block<D>> for BlockRepr<D> {
    fn from(b: Block<D>) -> Self {
        BlockRepr { domain: b.domain, grid: b.grid }
    }
}

impl<const D: usize> TryFrom<BlockRepr<D>> for Block<D> {
    type Error = Error;
    fn try_from(r: BlockRepr<D>) -> Result<Self> {
        Ok(Block::new(r.domain, r.grid))
    }
}

impl<const D: usize> Block<D> {
    /// The Block distribution of `domain` over `grid`. (The rank was checked when the domain
    /// and the grid were built, so this cannot fail.)
    pub fn new(domain: Domain<D>, grid: LocaleGrid<D>) -> Self {
        let shape = grid.shape();
        let dims = std::array::from_fn(|d| BlockDim { range: domain.dims()[d], parts: shape[d] });
        Block { domain, grid, dims }
    }

    /// The sub-domain `target` owns (a dense box of the domain; empty dimensions when it
    /// owns nothing).
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    pub fn local_domain(&self, target: usize) -> Result<Domain<D>> {
        let coords = self.grid.coords(target)?;
        let mut dims = [StridedRange::empty(); D];
        for d in 0..D {
            let map = &self.dims[d];
            let b = map.bounds(coords[d]);
            let first = map.range.nth(b.start).unwrap_or(map.range.lo());
            dims[d] = StridedRange::from_parts_unchecked(first, map.range.stride(), b.len());
        }
        Ok(Domain::from_dims_unchecked(dims))
    }
}

impl<const D: usize> Distribution<D> for Block<D> {
    type Dim = BlockDim;

    fn kind(&self) -> DistKind {
        DistKind::Block
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn grid(&self) -> &LocaleGrid<D> {
        &self.grid
    }

    fn dim_maps(&self) -> &[BlockDim; D] {
        &self.dims
    }
}
