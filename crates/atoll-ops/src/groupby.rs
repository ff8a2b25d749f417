//! [`GroupBy`]: the rows of one or several key columns grouped by equal keys (Arkouda's
//! `GroupBy`), and aggregations of value arrays per group.
//!
//! **Keys.** A GroupBy takes its keys as [`SortColumn`]s: anything that gives each row an
//! order-preserving `u64` image (today `i64`, `u64`, `f64` arrays and views of any
//! distribution). Grouping only sorts by those images and compares them, so another key type
//! (such as a Strings column: its rows' ranks, or several image words per row) joins by
//! implementing `SortColumn`; nothing else here depends on the key type.

use crate::aggregate::{aggregate, Agg, AggResult, AggValue};
use crate::coargsort::coargsort_positions;
use crate::column::SortColumn;
use crate::segments::{group_flags, segment_starts};
use atoll_array::DistArray;
use atoll_error::{Error, Result};

/// Rows grouped by equal keys. All arrays are Block over all locales.
pub struct GroupBy {
    perm: DistArray<i64, 1>,
    flags: DistArray<bool, 1>,
    segments: DistArray<i64, 1>,
}

impl GroupBy {
    /// Groups the rows of `keys` (one or several columns of one length, first most
    /// significant). **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_ops::{Agg, AggResult, GroupBy, SortColumn};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let k = [3i64, 1, 3, 2, 1, 3];
    ///     let keys = DistArray::from_fn(ctx, dist::cyclic(ctx, [6])?, |[i]| k[i as usize])?;
    ///     let vals = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| i as f64)?;
    ///     let g = GroupBy::new(&[&keys as &dyn SortColumn])?;
    ///     assert_eq!(g.segments().to_vec()?, vec![0, 2, 3]);          // keys 1, 2, 3
    ///     assert_eq!(g.permutation().to_vec()?, vec![1, 4, 3, 0, 2, 5]);
    ///     let AggResult::Same(s) = g.aggregate(&vals, Agg::Sum)? else { unreachable!() };
    ///     assert_eq!(s.to_vec()?, vec![5.0, 3.0, 7.0]);
    ///     g.free()
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`coargsort`](crate::coargsort) and [`group_flags`].
    pub fn new(keys: &[&dyn SortColumn]) -> Result<GroupBy> {
        let perm = coargsort_positions(keys)?;
        let flags = group_flags(keys, &perm)?;
        let segments = segment_starts(&flags)?;
        Ok(GroupBy { perm, flags, segments })
    }

    /// The permutation (positions of the key rows) that sorts the keys, stably.
    pub fn permutation(&self) -> &DistArray<i64, 1> {
        &self.perm
    }

    /// `true` at the ranks (of the sorted rows) where a group starts.
    pub fn flags(&self) -> &DistArray<bool, 1> {
        &self.flags
    }

    /// The rank where each group starts, in increasing order (groups in key order).
    pub fn segments(&self) -> &DistArray<i64, 1> {
        &self.segments
    }

    /// The number of groups.
    pub fn groups(&self) -> usize {
        self.segments.len()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.perm.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.perm.is_empty()
    }

    /// `agg` of `values` (a Block array of one value per key row, positions as the keys) per
    /// group, in key order. Argmin and argmax give positions of `values`. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `values` has another length than the keys; as
    /// [`aggregate`].
    pub fn aggregate<T: AggValue>(&self, values: &DistArray<T, 1>, agg: Agg) -> Result<AggResult<T>> {
        if values.len() != self.len() {
            return Err(Error::ShapeMismatch {
                context: "GroupBy::aggregate".into(),
                left: format!("{} key rows", self.len()),
                right: format!("{} values", values.len()),
            });
        }
        let sorted = values.take(&self.perm)?;
        let r = aggregate(&sorted, &self.flags, agg);
        sorted.free()?;
        Ok(match r? {
            AggResult::I64(ranks) if matches!(agg, Agg::ArgMin | Agg::ArgMax) => {
                let pos = self.perm.take(&ranks);
                ranks.free()?;
                AggResult::I64(pos?)
            }
            other => other,
        })
    }

    /// Frees the arrays. **Collective.**
    ///
    /// # Errors
    /// A communication error.
    pub fn free(self) -> Result<()> {
        self.perm.free()?;
        self.flags.free()?;
        self.segments.free()
    }
}
