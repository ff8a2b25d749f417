//! Local-order plans: a 1-D leader whose elements on this locale fill one contiguous run of its
//! buffer, but as several tiles (on BlockCyclic data the residue classes of its blocks, each at
//! the block's stride), runs that run as flat segments in storage order, when every operand
//! can read in that order: aligned operands, and views of the leader's distribution shifted by
//! a constant (a stencil's `A[i - 1]`, `A[i + 1]`: `follow/shift.rs`, which reads them as a
//! copy of the locale's own storage plus one halo element per block edge). One vectorizable
//! pass over the storage replaces a scalar pass per residue class.

use super::{Plan, Tile};

impl<const D: usize> Plan<'_, D> {
    /// Replaces the tiles by one flat tile over the leader's local run when the leader is 1-D,
    /// has several tiles, they fill one contiguous run of local offsets, and no sublocale
    /// split applies. Returns whether it did (else the plan is unchanged).
    pub(crate) fn flatten_local_order(&mut self) -> bool {
        if D != 1 || self.tiles.len() < 2 || self.sub_tiles.is_some() {
            return false;
        }
        let (mut lo, mut hi, mut total) = (usize::MAX, 0usize, 0usize);
        for t in &self.tiles {
            let n = t.len();
            if n == 0 {
                continue;
            }
            lo = lo.min(t.off0);
            hi = hi.max(t.off0 + (n - 1) * t.off_step[0]);
            total += n;
        }
        // The tiles are disjoint (pieces of a distribution): `total` offsets in `lo..=hi`
        // fill it exactly when it has `total` offsets.
        if total == 0 || hi - lo + 1 != total {
            return false;
        }
        self.tiles = vec![Tile {
            pos0: [0; D],
            pos_step: [0; D],
            off0: lo,
            off_step: [1; D],
            shape: [total; D],
            flat: true,
            group_rows: 1,
        }];
        self.index();
        true
    }

    /// The leader's distribution, for operands that compare theirs with it.
    pub(crate) fn leader_dist<M: 'static>(&self) -> Option<&M> {
        self.dist.downcast_ref::<M>()
    }
}
