//! The Block layout of `n` strings over all locales.

use atoll_array::{dist, Block, Distribution};
use atoll_error::{invalid_arg, Result};
use atoll_runtime::Ctx;

/// The Block distribution of `0..n` and its bounds: locale `l` owns `bounds[l]..bounds[l + 1]`.
/// Pure index math: every locale computes the same one.
pub(crate) fn block(ctx: &Ctx, n: usize) -> Result<(Block<1>, Vec<usize>)> {
    let d = dist::block(ctx, [n])?;
    let mut bounds = Vec::with_capacity(ctx.num_locales() + 1);
    bounds.push(0usize);
    for l in 0..ctx.num_locales() {
        let here = *bounds.last().unwrap_or(&0);
        let len = if d.grid().contains(l) { d.local_domain(l)?.size() } else { 0 };
        if len > 0 {
            let first = d.local_domain(l)?.dims()[0].first().unwrap_or(0);
            if first != here as i64 {
                return Err(invalid_arg!("strings layout: locale {l} owns indices from {first}, expected {here}"));
            }
        }
        bounds.push(here + len);
    }
    if bounds.last() != Some(&n) {
        return Err(invalid_arg!("strings layout: the Block distribution of {n} covers {:?}", bounds.last()));
    }
    Ok((d, bounds))
}

/// The locale owning index `i` of `bounds` (`i < n`).
pub(crate) fn owner(bounds: &[usize], i: usize) -> usize {
    bounds.partition_point(|&b| b <= i) - 1
}
