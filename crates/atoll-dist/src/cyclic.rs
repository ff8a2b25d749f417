//! The Cyclic distribution: positions dealt round-robin to the targets along each dimension.

use atoll_error::{ensure, invalid_arg, Error, Result};
use serde::{Deserialize, Serialize};

use crate::dim_map::sub_positions;
use crate::math::Ap;
use crate::{DimMap, DistKind, Distribution, Domain, LocaleGrid, Piece, StridedRange};

/// One dimension of a [`Cyclic`] distribution: `n` positions dealt round-robin to `N` parts.
///
/// Position `p` is owned by part `p mod N`, at local position `floor(p / N)`; part `k` owns
/// `ceil((n - k) / N)` positions `k, k + N, k + 2N, ...`.
///
/// ```
/// use atoll_dist::{CyclicDim, DimMap, StridedRange};
/// let dim = CyclicDim::new(StridedRange::new(0, 8), 3)?;
/// let owners: Vec<usize> = (0..8).map(|p| dim.part_of(p)).collect();
/// assert_eq!(owners, [0, 1, 2, 0, 1, 2, 0, 1]);
/// assert_eq!((dim.local_len(2), dim.local_pos(7)), (2, 2));
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "CyclicDimRepr", into = "CyclicDimRepr")]
pub struct CyclicDim {
    range: StridedRange,
    parts: usize,
}

#[derive(Clone, Serialize, Deserialize)]
struct CyclicDimRepr {
    range: StridedRange,
    parts: usize,
}

impl From<CyclicDim> for CyclicDimRepr {
    fn from(d: CyclicDim) -> Self {
        CyclicDimRepr { range: d.range, parts: d.parts }
    }
}

impl TryFrom<CyclicDimRepr> for CyclicDim {
    type Error = Error;
    fn try_from(r: CyclicDimRepr) -> Result<Self> {
        CyclicDim::new(r.range, r.parts)
    }
}

impl CyclicDim {
    /// The cyclic map of `range` over `parts` grid coordinates.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `parts` is 0.
    pub fn new(range: StridedRange, parts: usize) -> Result<Self> {
        ensure!(parts > 0, invalid_arg!("a dimension map needs at least one part, got 0"));
        Ok(CyclicDim { range, parts })
    }

    /// The positions part `k` owns, as a progression.
    fn owned(&self, k: usize) -> Ap {
        Ap::new(k as i128, self.parts as u128, self.local_len(k) as u128)
    }
}

impl DimMap for CyclicDim {
    fn range(&self) -> &StridedRange {
        &self.range
    }

    fn parts(&self) -> usize {
        self.parts
    }

    #[inline]
    fn part_of(&self, pos: usize) -> usize {
        pos % self.parts
    }

    #[inline]
    fn local_pos(&self, pos: usize) -> usize {
        pos / self.parts
    }

    #[inline]
    fn locate(&self, pos: usize) -> (usize, usize) {
        (pos % self.parts, pos / self.parts)
    }

    fn global_pos(&self, part: usize, local: usize) -> Option<usize> {
        if part >= self.parts {
            return None;
        }
        let p = part as u128 + local as u128 * self.parts as u128;
        (p < self.range.len() as u128).then_some(p as usize)
    }

    fn local_len(&self, part: usize) -> usize {
        let n = self.range.len();
        if part >= self.parts || part >= n {
            return 0;
        }
        (n - part - 1) / self.parts + 1
    }

    fn pieces(&self, part: usize, sub: &StridedRange, out: &mut Vec<Piece>) {
        if part >= self.parts {
            return;
        }
        let owned = sub_positions(&self.range, sub).intersect(&self.owned(part));
        if owned.len > 0 {
            let first = owned.first as u128;
            let parts = self.parts as u128;
            out.push(Piece::from_positions(
                &self.range,
                sub,
                first,
                owned.step(),
                owned.len,
                (first - part as u128) / parts,
                // With two or more elements the step is lcm(q, N), a multiple of N.
                owned.step() / parts,
            ));
        }
    }
}

/// The Cyclic distribution (Chapel's `cyclicDist`): along each dimension `d`, the positions
/// of the domain's range are dealt round-robin to the `N = grid.shape()[d]` grid coordinates.
///
/// **Owner formula**, per dimension, for the index at position `p = (i - lo) / stride`:
/// `p mod N`, local position `floor(p / N)`. What a target owns is itself a strided domain
/// ([`local_domain`](Cyclic::local_domain)), so [`runs`](Distribution::runs) gives at most one
/// piece per dimension: the owned part of a strided range is a strided range (stride
/// `lcm(q, N)` in positions), which is what makes modulo unrolling's aggregated transfers work.
///
/// **Owner grid** of an 8x8 domain on 6 locales (grid 3x2):
///
/// ```
/// use atoll_dist::{Cyclic, Distribution, Domain, LocaleGrid};
///
/// let dist = Cyclic::new(Domain::from_shape([8, 8])?, LocaleGrid::auto(0..6)?);
/// assert_eq!(dist.owner_map(), "\
/// 0 1 0 1 0 1 0 1
/// 2 3 2 3 2 3 2 3
/// 4 5 4 5 4 5 4 5
/// 0 1 0 1 0 1 0 1
/// 2 3 2 3 2 3 2 3
/// 4 5 4 5 4 5 4 5
/// 0 1 0 1 0 1 0 1
/// 2 3 2 3 2 3 2 3
/// ");
/// assert_eq!(dist.local_shape(0)?, [3, 4]);
/// assert_eq!(dist.local_domain(5)?.to_string(), "{2..6 by 3, 1..8 by 2}");
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CyclicRepr<D>", into = "CyclicRepr<D>")]
pub struct Cyclic<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
    dims: [CyclicDim; D],
}

/// The serialized form of a [`Cyclic`]: its parameters, rebuilt when read.
#[derive(Clone, Serialize, Deserialize)]
struct CyclicRepr<const D: usize> {
    domain: Domain<D>,
    grid: LocaleGrid<D>,
}

impl<const D: usize> From<Cyclic<D>> for CyclicRepr<D> {
    fn from(c: Cyclic<D>) -> Self {
        CyclicRepr { domain: c.domain, grid: c.grid }
    }
}

impl<const D: usize> TryFrom<CyclicRepr<D>> for Cyclic<D> {
    type Error = Error;
    fn try_from(r: CyclicRepr<D>) -> Result<Self> {
        Ok(Cyclic::new(r.domain, r.grid))
    }
}

impl<const D: usize> Cyclic<D> {
    /// The Cyclic distribution of `domain` over `grid`, starting at the domain's low
    /// corner. (The rank was checked when the domain and the grid were built.)
    pub fn new(domain: Domain<D>, grid: LocaleGrid<D>) -> Self {
        let shape = grid.shape();
        let dims = std::array::from_fn(|d| CyclicDim { range: domain.dims()[d], parts: shape[d] });
        Cyclic { domain, grid, dims }
    }

    /// The indices `target` owns: a strided sub-domain (stride `N * stride` along each
    /// dimension), with empty dimensions when it owns nothing.
    ///
    /// # Errors
    /// A grid error when `target` is not in the grid.
    pub fn local_domain(&self, target: usize) -> Result<Domain<D>> {
        let coords = self.grid.coords(target)?;
        let mut dims = [StridedRange::empty(); D];
        for d in 0..D {
            let map = &self.dims[d];
            let len = map.local_len(coords[d]);
            let first = map.range.nth(coords[d]).unwrap_or(map.range.lo());
            // The product fits when there are two or more elements; otherwise it is unused.
            let stride = map.range.stride().saturating_mul(map.parts as u64);
            dims[d] = StridedRange::from_parts_unchecked(first, stride, len);
        }
        Ok(Domain::from_dims_unchecked(dims))
    }
}

impl<const D: usize> Distribution<D> for Cyclic<D> {
    type Dim = CyclicDim;

    fn kind(&self) -> DistKind {
        DistKind::Cyclic
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn grid(&self) -> &LocaleGrid<D> {
        &self.grid
    }

    fn dim_maps(&self) -> &[CyclicDim; D] {
        &self.dims
    }
}
