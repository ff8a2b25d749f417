//! Groups of sorted rows: [`group_flags`] marks the rows (in the order of a sorting
//! permutation) where the key row changes, [`segment_starts`] lists those rows. Both are the
//! first steps of [`GroupBy`](crate::GroupBy), of `unique` and of the set operations.
//!
//! Keys are [`SortColumn`]s: the flags compare the columns' order-preserving `u64` images,
//! so two keys are equal exactly when they sort as equal (every NaN is one key, `-0.0` and
//! `+0.0` are two).

use crate::column::SortColumn;
use crate::layout::Layout;
use crate::runs::block_from_runs;
use atoll_array::DistArray;
use atoll_error::{invalid_arg, Error, Result};
use atoll_runtime::Ctx;

/// Checks that `a` is laid out as the Block distribution of its length (the layout of every
/// result of the sorts).
pub(crate) fn check_block<T: atoll_array::Elem>(ctx: &Ctx, a: &DistArray<T, 1>, what: &str) -> Result<Layout> {
    let layout = Layout::new(ctx, a.len())?;
    if a.dist() != &layout.dist || a.domain().dims()[0].lo() != 0 {
        return Err(invalid_arg!("{what}: expected a Block array over 0..{} on all locales", a.len()));
    }
    Ok(layout)
}

/// For the rows of `keys` read in the order of `perm` (a permutation of **positions**, as
/// [`coargsort_positions`](crate::coargsort_positions) returns), `true` at each rank where the
/// key row differs from the previous rank's (and at rank 0): the starts of the groups of
/// equal keys, when `perm` sorts the keys. Block over `0..len`. **Collective.**
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for no key column or a `perm` that is not a
/// Block array; [`Error::ShapeMismatch`] when lengths differ; an index error when `perm`
/// holds a position out of range; a communication error.
pub fn group_flags(keys: &[&dyn SortColumn], perm: &DistArray<i64, 1>) -> Result<DistArray<bool, 1>> {
    let Some(first) = keys.first() else {
        return Err(invalid_arg!("group_flags: no key column"));
    };
    let ctx = first.ctx();
    let n = perm.len();
    if let Some((j, k)) = keys.iter().enumerate().find(|(_, k)| k.len() != n) {
        return Err(Error::ShapeMismatch {
            context: "group_flags".into(),
            left: format!("permutation of length {n}"),
            right: format!("key column {j} ({}) of length {}", k.key_name(), k.len()),
        });
    }
    let layout = check_block(ctx, perm, "group_flags (permutation)")?;
    let m = layout.len_here();
    let mut flags = vec![false; m];
    // The last and first key row of each locale (None when it owns no row), to compare each
    // locale's first row with the row before it.
    let mut last_row = Vec::with_capacity(keys.len());
    for k in keys {
        let mut images = DistArray::<u64, 1>::zeros_lazy(ctx, layout.dist.clone())?;
        k.write_images(n, images.local_mut(), 1, 0)?;
        let sorted = images.take(perm);
        images.free()?;
        let sorted = sorted?;
        let s = sorted.local();
        for j in 1..m {
            flags[j] |= s[j] != s[j - 1];
        }
        // Entries 2c and 2c + 1: column c's last and first image on this locale.
        last_row.push(s.last().copied());
        last_row.push(s.first().copied());
        sorted.free()?;
    }
    let all: Vec<Vec<Option<u64>>> = ctx.allgather(&last_row)?;
    if m > 0 {
        let me = layout.me;
        // The nearest earlier locale that owns rows: its last row precedes ours.
        let prev = (0..me).rev().find(|&l| layout.bounds[l + 1] > layout.bounds[l]);
        flags[0] = match prev {
            None => true,
            Some(p) => (0..keys.len()).any(|c| all[p][2 * c] != all[me][2 * c + 1]),
        };
    }
    let mut out = DistArray::<bool, 1>::zeros_lazy(ctx, layout.dist.clone())?;
    out.local_mut().copy_from_slice(&flags);
    Ok(out)
}

/// The ranks where `flags` is `true`, in increasing order: the start of each group, Block over
/// `0..groups`. **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] when `flags` is not a Block array; a communication error.
pub fn segment_starts(flags: &DistArray<bool, 1>) -> Result<DistArray<i64, 1>> {
    let ctx = flags.ctx();
    let layout = check_block(ctx, flags, "segment_starts")?;
    let lo = layout.lo() as i64;
    let mine: Vec<i64> = flags.local().iter().enumerate().filter(|(_, &f)| f).map(|(j, _)| lo + j as i64).collect();
    let off = ctx.exscan(mine.len(), 0, |a, b| a + b)?;
    let total = ctx.allreduce(mine.len(), |a, b| a + b)?;
    block_from_runs(ctx, total, off, &mine)
}
