//! [`segmented_fold`]: one value per group of consecutive rows, the groups given by flags
//! (`true` where a group starts), both Block arrays over the same ranks.
//!
//! Each locale folds its rows piece by piece (a piece is the part of a group on one locale);
//! the first piece may continue a group that started on an earlier locale. One allgather of
//! those continuing pieces lets the locale where a group starts merge the rest of the group
//! into its last piece, so each locale owns the results of the groups that start on it: a
//! contiguous range of group numbers, written with puts into the Block result.

use crate::runs::block_from_runs;
use crate::segments::check_block;
use atoll_array::{DistArray, Elem};
use atoll_error::{Error, Result};
use atoll_runtime::Pod;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// How a segmented fold combines the values of a group: a start value, a step per row, the
/// merge of two consecutive partial results, and the final value.
pub trait SegFold<T>: Sync {
    /// The partial result (exchanged between locales).
    type Acc: Clone + Serialize + DeserializeOwned;
    /// The result per group.
    type Out: Elem + Pod;
    /// The partial result of no row.
    fn init(&self) -> Self::Acc;
    /// Folds the row at rank `rank` holding `v` into `acc` (rows come in increasing rank).
    fn step(&self, acc: &mut Self::Acc, v: T, rank: usize);
    /// Merges `later` (the following rows of the group) into `acc`.
    fn merge(&self, acc: &mut Self::Acc, later: &Self::Acc);
    /// The group's result.
    fn finish(&self, acc: &Self::Acc) -> Self::Out;
}

/// Per locale: whether it owns rows, the partial result of its first piece when that piece
/// continues an earlier group, and how many groups start on it.
#[derive(Serialize, serde::Deserialize, Clone)]
struct Edge<A> {
    rows: bool,
    head: Option<A>,
    starts: usize,
}

/// The fold `f` of each group of `values`, the groups starting where `flags` is `true` (rank 0
/// always starts one): element `g` of the result is group `g`'s value, Block over
/// `0..groups`. `values` and `flags` are Block arrays over `0..n` (as the sorts return).
/// **Collective.**
///
/// # Errors
/// On every locale: [`Error::ShapeMismatch`] when the lengths differ;
/// [`Error::InvalidArgument`] when an input is not a Block array; a communication error.
pub fn segmented_fold<T: Elem, F: SegFold<T>>(
    values: &DistArray<T, 1>,
    flags: &DistArray<bool, 1>,
    f: &F,
) -> Result<DistArray<F::Out, 1>> {
    let ctx = values.ctx();
    if values.len() != flags.len() {
        return Err(Error::ShapeMismatch {
            context: "segmented_fold".into(),
            left: format!("values of length {}", values.len()),
            right: format!("flags of length {}", flags.len()),
        });
    }
    let layout = check_block(ctx, values, "segmented_fold (values)")?;
    check_block(ctx, flags, "segmented_fold (flags)")?;
    let (vs, fs) = (values.local(), flags.local());
    let lo = layout.lo();
    let mut pieces: Vec<F::Acc> = Vec::new();
    let head_continues = !fs.is_empty() && !fs[0] && lo != 0;
    for (j, (&v, &s)) in vs.iter().zip(fs).enumerate() {
        if s || j == 0 {
            pieces.push(f.init());
        }
        if let Some(acc) = pieces.last_mut() {
            f.step(acc, v, lo + j);
        }
    }
    let starts = pieces.len() - usize::from(head_continues);
    let edge = Edge { rows: !fs.is_empty(), head: if head_continues { pieces.first().cloned() } else { None }, starts };
    let edges: Vec<Edge<F::Acc>> = ctx.allgather(&edge)?;
    let off = edges[..layout.me].iter().map(|e| e.starts).sum::<usize>();
    let total = edges.iter().map(|e| e.starts).sum::<usize>();
    if starts > 0 {
        // The last group starting here takes the continuing pieces of the next locales.
        let last = pieces.len() - 1;
        for e in &edges[layout.me + 1..] {
            if !e.rows {
                continue;
            }
            match &e.head {
                Some(h) => f.merge(&mut pieces[last], h),
                None => break,
            }
            if e.starts > 0 {
                break;
            }
        }
    }
    let mine: Vec<F::Out> = pieces[usize::from(head_continues)..].iter().map(|a| f.finish(a)).collect();
    block_from_runs(ctx, total, off, &mine)
}
