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
//! gets, see `follow/mod.rs`), so each locale folds one contiguous range of positions in order and
//! the locale-order combination is index order. That costs one bulk redistribution of the
//! values (as `assign` into a Block array would) but works for every value type, since only the
//! accumulators travel. Commutative reductions (`sum`, `min`, `max`, `count`, `product`,
//! `for_each`, and [`reduce_commutative`](crate::ExprReduce::reduce_commutative)) never need
//! it and combine in storage order.

use crate::expr::{Bound, Expr};
use crate::zip::{Plan, Row};
use atoll_dist::{Block, Distribution, Domain, LocaleGrid};
use atoll_error::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;

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
    fold_led(e, plan, identity, fold, combine)
}

/// Folds `e` over the leader `plan` on this locale (segments in order) and combines the
/// locales' results in locale order. **Collective**; it starts with a barrier unless every
/// operand is aligned with the leader (only local reads then).
pub(crate) fn fold_led<const D: usize, E: Expr<D>, A: Clone + Send + Sync + Serialize + DeserializeOwned>(
    e: &E,
    mut plan: Plan<'_, D>,
    identity: A,
    fold: impl Fn(A, E::Item) -> A + Sync,
    combine: impl Fn(A, A) -> A + Sync,
) -> Result<A> {
    let ctx = plan.ctx;
    let bound = e.bind(&plan);
    // Every operand aligned: only local reads, no barrier first (`zip/local_only.rs`); the
    // combine below is the rendezvous.
    if !bound.as_ref().is_ok_and(|b| b.aligned()) {
        ctx.barrier()?;
    }
    let bound = bound?;
    if bound.aligned() {
        plan.flatten();
    }
    let mine = plan.fold(
        identity.clone(),
        |acc, seg, scratch| {
            let row = bound.row(seg, scratch)?;
            Ok(crate::zip::unit_versioned!(row, |row| (0..seg.len).fold(acc, |a, j| fold(a, row.at(j)))))
        },
        &combine,
    )?;
    ctx.allreduce(mine, &combine)
}
