//! A [`Block`] distribution whose locale blocks are divided among the locales' sublocales:
//! the targets are (locale, sublocale) pairs (Chapel's `dmapped Block(targetLocales =
//! sublocs)` over the hierarchical locales' sublocales).

use std::ops::Range;

use atoll_error::{ensure, invalid_arg, Result};

use crate::{Block, BlockDim, DimMap, Distribution, Domain, StridedRange};

/// A [`Block`] over locales whose every locale block is split again, Block-wise, among that
/// locale's sublocales along the **first dimension** (so each sublocale's piece is one
/// contiguous run of the locale's row-major buffer, in any rank).
///
/// **Owner formula.** For index `i`: the locale is the Block owner, `l = block.owner(i)`
/// (per dimension `floor(p * N / n)`). Let `m` be the extent of `l`'s block along dimension 0
/// and `q` the position of `i` in it (`0 <= q < m`). With `S` = `counts[l]` sublocales,
/// `i` belongs to sublocale `s = floor(q * S / m)`; sublocale `s` holds the block's rows
/// `ceil(s*m/S)..ceil((s+1)*m/S)`, i.e. the local offsets `rows * row_len` where `row_len` is
/// the product of the block's other extents. Sublocales past the rows (when `m < S`) hold
/// nothing. The locale-level layout is exactly `block`'s, so such an array is aligned with an
/// ordinary Block array over the same domain and locales.
///
/// ```
/// use atoll_dist::{Block, Domain, LocaleGrid, SublocaleBlock};
///
/// // 10 indices, 2 locales of 5 indices; locale 0 has 2 sublocales, locale 1 has 3.
/// let block = Block::new(Domain::from_shape([10])?, LocaleGrid::auto(0..2)?);
/// let sb = SublocaleBlock::new(block, vec![2, 3])?;
/// let owners: Vec<(usize, usize)> = (0..10).map(|i| sb.owner([i])).collect::<Result<_, _>>()?;
/// assert_eq!(owners, [(0, 0), (0, 0), (0, 0), (0, 1), (0, 1), (1, 0), (1, 0), (1, 1), (1, 1), (1, 2)]);
/// assert_eq!(sb.local_ranges(1)?, [0..2, 2..4, 4..5]);
/// assert_eq!(sb.sublocale_domain(1, 2)?.to_string(), "{9..10}");
/// # Ok::<(), atoll_dist::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SublocaleBlock<const D: usize> {
    block: Block<D>,
    counts: Vec<usize>,
}

impl<const D: usize> SublocaleBlock<D> {
    /// `block` with locale `l`'s block split among `counts[l]` sublocales (`counts` is indexed
    /// by locale id and must cover every target of the block's grid).
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] when a target of the grid has no count or a count of 0.
    pub fn new(block: Block<D>, counts: Vec<usize>) -> Result<Self> {
        for &t in block.grid().targets() {
            let c = counts.get(t).copied();
            ensure!(
                c.is_some_and(|c| c > 0),
                invalid_arg!("locale {t} of the grid needs a positive sublocale count, got {c:?} (counts {counts:?})")
            );
        }
        Ok(SublocaleBlock { block, counts })
    }

    /// The locale-level Block distribution.
    pub fn block(&self) -> &Block<D> {
        &self.block
    }

    /// The sublocale count of every locale, by locale id.
    pub fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// The row map of `locale`'s block: its rows (dimension 0) over its sublocales.
    fn rows(&self, locale: usize) -> Result<(BlockDim, usize)> {
        let shape = self.block.local_shape(locale)?;
        let row_len = shape[1..].iter().product::<usize>();
        Ok((BlockDim::new(StridedRange::new(0, shape[0] as i64), self.counts[locale])?, row_len))
    }

    /// The (locale, sublocale) that owns `idx` (see the owner formula).
    ///
    /// # Errors
    /// [`crate::Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn owner(&self, idx: [i64; D]) -> Result<(usize, usize)> {
        let (l, off) = self.block.checked_locate(idx)?;
        let (rows, row_len) = self.rows(l)?;
        Ok((l, rows.part_of(off / row_len.max(1))))
    }

    /// The local-offset ranges of `locale`'s sublocales in its buffer, in sublocale order: they
    /// partition `0..local_len(locale)`.
    ///
    /// # Errors
    /// A grid error when `locale` is not in the grid.
    pub fn local_ranges(&self, locale: usize) -> Result<Vec<Range<usize>>> {
        let (row_len, rows) = self.local_rows(locale)?;
        Ok(rows.into_iter().map(|r| r.start * row_len..r.end * row_len).collect())
    }

    /// The elements in one row of `locale`'s buffer (the product of its block's extents after
    /// the first), and the rows (dimension-0 positions in the block) of each sublocale.
    fn local_rows(&self, locale: usize) -> Result<(usize, Vec<Range<usize>>)> {
        let (rows, row_len) = self.rows(locale)?;
        Ok((row_len, (0..rows.parts()).map(|s| rows.bounds(s)).collect()))
    }

    /// The indices that sublocale `sub` of `locale` owns (a dense box; empty when it owns none).
    ///
    /// # Errors
    /// A grid error when `locale` is not in the grid; [`crate::Error::InvalidArgument`] when
    /// `sub` is not one of its sublocales.
    pub fn sublocale_domain(&self, locale: usize, sub: usize) -> Result<Domain<D>> {
        let mine = self.block.local_domain(locale)?;
        let (_, rows) = self.local_rows(locale)?;
        let r = rows
            .get(sub)
            .ok_or_else(|| invalid_arg!("locale {locale} has {} sublocales, not {}", rows.len(), sub + 1))?;
        let mut dims = *mine.dims();
        dims[0] = dims[0].slice_positions(&StridedRange::new(r.start as i64, r.end as i64))?;
        Domain::new(dims)
    }
}
