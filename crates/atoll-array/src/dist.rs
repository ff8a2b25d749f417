//! Shorthands for the three distributions over all locales, with an automatic (as square as
//! possible) locale grid: `dist::block(ctx, [n, m])`.

use atoll_dist::{Block, BlockCyclic, Cyclic, Domain, LocaleGrid};
use atoll_error::Result;
use atoll_runtime::Ctx;

/// The dense domain of `shape`, Block-distributed over all locales.
///
/// # Errors
/// A rank outside 1..=3 or an extent beyond `i64::MAX`.
pub fn block<const D: usize>(ctx: &Ctx, shape: [usize; D]) -> Result<Block<D>> {
    Ok(Block::new(Domain::from_shape(shape)?, LocaleGrid::auto(0..ctx.num_locales())?))
}

/// The dense domain of `shape`, Cyclic over all locales.
///
/// # Errors
/// As [`block`].
pub fn cyclic<const D: usize>(ctx: &Ctx, shape: [usize; D]) -> Result<Cyclic<D>> {
    Ok(Cyclic::new(Domain::from_shape(shape)?, LocaleGrid::auto(0..ctx.num_locales())?))
}

/// The dense domain of `shape`, BlockCyclic with block sizes `block` over all locales.
///
/// # Errors
/// As [`block`], and a block size of 0.
pub fn block_cyclic<const D: usize>(ctx: &Ctx, shape: [usize; D], block: [usize; D]) -> Result<BlockCyclic<D>> {
    BlockCyclic::new(Domain::from_shape(shape)?, LocaleGrid::auto(0..ctx.num_locales())?, block)
}
