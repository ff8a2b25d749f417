//! Reductions in index (row-major) order, for operators that are associative but not
//! commutative ([`ExprReduce::reduce_with`](crate::ExprReduce::reduce_with)).
//!
//! A reduction folds each locale's elements and then combines the locales' partial results in
//! locale order. That is index order exactly when the leader is *index-ordered*: every locale
//! owns one contiguous range of row-major positions of the leader's domain (one tile, iterated
//! row-major), and those ranges increase with the locale id. Block arrays whose locale grid
//! splits only the first dimension (every 1-D Block array, and views of them, strided or not),
//! and any distribution whose grid has a single locale and one piece per dimension, are
//! index-ordered: they keep the fast path (no extra message, no copy).
//!
//! Any other leader (Cyclic, BlockCyclic, Block over a 2-D or 3-D locale grid) is reduced
//! through a *row-Block leader*: the Block distribution of the leader's shape over a grid that
//! splits only the first dimension over all locales. The expression is bound to that leader
//! like any zip (its operands are followers that fetch their values with aggregated strided
//! gets, see `follow.rs`), so each locale folds one contiguous range of positions in order and
//! the locale-order combination is index order. That costs one bulk redistribution of the
//! values (as `assign` into a Block array would) but works for every value type, since only the
//! accumulators travel. Commutative reductions (`sum`, `min`, `max`, `count`, `product`,
//! `for_each`, and [`reduce_commutative`](crate::ExprReduce::reduce_commutative)) never need
//! it and combine in storage order.

use crate::expr::Expr;
use crate::zip::Plan;
use atoll_dist::{Block, Distribution, Domain, LocaleGrid};
use atoll_error::{invalid_arg, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Whether the leader `dist` over `dom` is index-ordered (see the module docs): pure index
/// math, the same answer on every locale.
pub(crate) fn index_ordered<M: Distribution<D>, const D: usize>(dist: &M, dom: &Domain<D>) -> Result<bool> {
    if dom.is_empty() {
        return Ok(true);
    }
    let shape = dom.shape();
    let strides = dom.row_major_strides();
    let mut next = 0usize;
    let mut targets = dist.grid().targets().to_vec();
    targets.sort_unstable();
    for t in targets {
        let runs = dist.runs(t, dom)?;
        let pieces = runs.pieces();
        if pieces.iter().any(Vec::is_empty) {
            continue;
        }
        if pieces.iter().any(|p| p.len() != 1) {
            return Ok(false);
        }
        let p: [atoll_dist::Piece; D] = std::array::from_fn(|d| pieces[d][0]);
        let full =
            |d: usize| p[d].sub_start == 0 && p[d].len() == shape[d] && (p[d].len() == 1 || p[d].sub_stride == 1);
        // The dimensions after k are whole, k is one run of positions, the ones before are single.
        let mut k = D - 1;
        while k > 0 && full(k) {
            k -= 1;
        }
        if !(p[k].len() == 1 || p[k].sub_stride == 1) || (0..k).any(|d| p[d].len() != 1) {
            return Ok(false);
        }
        let start: usize = (0..D).map(|d| p[d].sub_start * strides[d]).sum();
        let len: usize = p.iter().map(atoll_dist::Piece::len).product();
        if start != next {
            return Ok(false);
        }
        next = start + len;
    }
    Ok(next == dom.size())
}

/// The type-erased [`index_ordered`] a [`Plan`] keeps for its leader.
pub(crate) fn plan_index_ordered<M: Distribution<D> + 'static, const D: usize>(plan: &Plan<'_, D>) -> Result<bool> {
    let dist = plan
        .dist
        .downcast_ref::<M>()
        .ok_or_else(|| invalid_arg!("a plan's distribution has another type than its leader's"))?;
    index_ordered(dist, &plan.dom)
}

/// Folds `e` in row-major order through a row-Block leader (see the module docs) and combines
/// the locales' results in locale order. **Collective** (it reads through followers, so it
/// starts with a barrier).
pub(crate) fn reduce_by_rows<const D: usize, E: Expr<D>, A: Clone + Send + Sync + Serialize + DeserializeOwned>(
    e: &E,
    lead: &Plan<'_, D>,
    identity: A,
    fold: impl Fn(A, E::Item) -> A + Sync,
    combine: impl Fn(A, A) -> A + Sync,
) -> Result<A> {
    let ctx = lead.ctx;
    let n = ctx.num_locales();
    let mut grid = [1usize; D];
    grid[0] = n;
    let rows = Block::new(Domain::from_shape(lead.shape)?, LocaleGrid::new(0..n, grid)?);
    let plan = Plan::new(ctx, &rows, *rows.domain())?;
    crate::reduce::fold_led(e, plan, identity, fold, combine)
}
