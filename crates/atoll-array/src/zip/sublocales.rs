//! Leaders whose pieces target sublocales (`crate::array::sublocales`): the tiles are cut at the
//! sublocales' row boundaries, and each sublocale's groups run on that sublocale's task pool
//! (a static split: the rows a sublocale first touched are the rows it processes).

use super::{Plan, Tile};
use std::ops::Range;

impl<const D: usize> Tile<D> {
    /// The part of this tile in the leader's local rows `rows` (dimension-0 positions of its
    /// buffer, rows of `row_len` elements), or `None` when that part is empty. Tile row `t` lies
    /// in buffer row `off0 / row_len + t * off_step[0] / row_len` (the other dimensions add less
    /// than a row to the offset).
    fn cut_rows(&self, row_len: usize, rows: &Range<usize>) -> Option<Tile<D>> {
        let n = self.shape[0];
        let (r0, k) = (self.off0 / row_len.max(1), self.off_step[0] / row_len.max(1));
        // The first tile row at or after buffer row `x`.
        let first = |x: usize| {
            if x <= r0 {
                0
            } else if k == 0 {
                n
            } else {
                n.min((x - r0).div_ceil(k))
            }
        };
        let (lo, hi) = (first(rows.start), first(rows.end));
        if n == 0 || hi <= lo {
            return None;
        }
        let mut t = *self;
        t.pos0[0] += lo * self.pos_step[0];
        t.off0 += lo * self.off_step[0];
        t.shape[0] = hi - lo;
        Some(t)
    }
}

impl<const D: usize> Plan<'_, D> {
    /// Cuts the tiles at the boundaries of the sublocales' rows `rows[s]` (dimension-0
    /// positions of the leader's local buffer, `row_len` elements per row) and makes every
    /// loop over this plan run sublocale `s`'s tiles on sublocale `s`'s pool. The tiles are
    /// listed sublocale by sublocale: a Block leader has one tile, so segment order stays index
    /// order (reductions combine in the same order as without the split).
    pub(crate) fn split_by_sublocales(&mut self, row_len: usize, rows: &[Range<usize>]) {
        let mut tiles = Vec::new();
        let mut firsts = Vec::with_capacity(rows.len() + 1);
        for r in rows {
            firsts.push(tiles.len());
            tiles.extend(self.tiles.iter().filter_map(|t| t.cut_rows(row_len, r)));
        }
        firsts.push(tiles.len());
        self.tiles = tiles;
        self.sub_tiles = Some(firsts);
        self.index();
    }

    /// The groups of each sublocale, when the leader's pieces target sublocales.
    pub(super) fn sublocale_groups(&self) -> Option<Vec<Range<usize>>> {
        let firsts = self.sub_tiles.as_ref()?;
        Some(firsts.windows(2).map(|w| self.prefix[w[0]]..self.prefix[w[1]]).collect())
    }
}
