//! [`Layout`]: the Block distribution of `n` positions over all locales, in which every pass
//! of the sorts writes its output (and the sorts return theirs).

use atoll_array::{dist, Block, Distribution};
use atoll_error::{invalid_arg, Result};
use atoll_runtime::Ctx;

/// The Block distribution of `0..n` over all locales: locale `l` owns the positions
/// `bounds[l]..bounds[l + 1]`.
pub(crate) struct Layout {
    /// The distribution itself (for the output arrays).
    pub(crate) dist: Block<1>,
    /// `num_locales + 1` increasing positions.
    pub(crate) bounds: Vec<usize>,
    /// This locale.
    pub(crate) me: usize,
}

impl Layout {
    /// The layout of `n` positions. Pure index math: every locale computes the same one.
    ///
    /// # Errors
    /// A distribution error (an extent beyond `i64::MAX`), or [`atoll_error::Error::InvalidArgument`]
    /// if the Block distribution did not give locale `l` the `l`-th contiguous piece.
    pub(crate) fn new(ctx: &Ctx, n: usize) -> Result<Self> {
        let dist = dist::block(ctx, [n])?;
        let mut bounds = Vec::with_capacity(ctx.num_locales() + 1);
        bounds.push(0);
        for l in 0..ctx.num_locales() {
            let here = *bounds.last().unwrap_or(&0);
            let len = if dist.grid().contains(l) { dist.local_domain(l)?.size() } else { 0 };
            if len > 0 {
                let first = dist.local_domain(l)?.dims()[0].first().unwrap_or(0);
                if first != here as i64 {
                    return Err(invalid_arg!("sort layout: locale {l} owns positions from {first}, expected {here}"));
                }
            }
            bounds.push(here + len);
        }
        if bounds.last() != Some(&n) {
            return Err(invalid_arg!(
                "sort layout: the Block distribution of {n} positions covers {:?}",
                bounds.last()
            ));
        }
        Ok(Layout { dist, bounds, me: ctx.id() })
    }

    /// This locale's first position.
    pub(crate) fn lo(&self) -> usize {
        self.bounds[self.me]
    }

    /// One past this locale's last position.
    pub(crate) fn hi(&self) -> usize {
        self.bounds[self.me + 1]
    }

    /// This locale's number of positions.
    pub(crate) fn len_here(&self) -> usize {
        self.hi() - self.lo()
    }

    /// The number of locales.
    pub(crate) fn locales(&self) -> usize {
        self.bounds.len() - 1
    }
}
