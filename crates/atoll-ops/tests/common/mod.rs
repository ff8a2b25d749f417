//! Shared helpers of the sort tests: the sequential reference and input makers.
#![allow(dead_code)]

use atoll_array::{dist, Block, BlockCyclic, Cyclic, DistArray, Elem};
use atoll_ops::SortKey;
use atoll_runtime::{Ctx, Result};

/// The stable sequential argsort: positions ordered by (key image, position).
pub fn reference<K: SortKey>(keys: &[K]) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by(|&a, &b| keys[a].to_ordered().cmp(&keys[b].to_ordered()).then(a.cmp(&b)));
    idx.into_iter().map(|i| i as i64).collect()
}

/// The stable sequential argsort of rows of key images.
pub fn reference_rows(rows: &[Vec<u64>]) -> Vec<i64> {
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&a, &b| rows[a].cmp(&rows[b]).then(a.cmp(&b)));
    idx.into_iter().map(|i| i as i64).collect()
}

/// The three distributions.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Block,
    Cyclic,
    BlockCyclic(usize),
}

pub const KINDS: [Kind; 3] = [Kind::Block, Kind::Cyclic, Kind::BlockCyclic(3)];

/// Runs `f` over an array holding `data` with distribution `kind`.
pub fn with_array<K: Elem, R>(
    ctx: &Ctx,
    kind: Kind,
    data: &[K],
    f: impl FnOnce(ArrayRef<'_, K>) -> Result<R>,
) -> Result<R> {
    let n = data.len();
    match kind {
        Kind::Block => {
            let a: DistArray<K, 1, Block<1>> = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| data[i as usize])?;
            f(ArrayRef::Block(&a))
        }
        Kind::Cyclic => {
            let a: DistArray<K, 1, Cyclic<1>> =
                DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| data[i as usize])?;
            f(ArrayRef::Cyclic(&a))
        }
        Kind::BlockCyclic(b) => {
            let a: DistArray<K, 1, BlockCyclic<1>> =
                DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [b])?, |[i]| data[i as usize])?;
            f(ArrayRef::BlockCyclic(&a))
        }
    }
}

/// An array of one of the three distributions.
pub enum ArrayRef<'a, K: Elem> {
    Block(&'a DistArray<K, 1, Block<1>>),
    Cyclic(&'a DistArray<K, 1, Cyclic<1>>),
    BlockCyclic(&'a DistArray<K, 1, BlockCyclic<1>>),
}

impl<K: SortKey> ArrayRef<'_, K> {
    pub fn argsort(&self) -> Result<DistArray<i64, 1>> {
        match self {
            ArrayRef::Block(a) => atoll_ops::argsort(&a.view()),
            ArrayRef::Cyclic(a) => atoll_ops::argsort(&a.view()),
            ArrayRef::BlockCyclic(a) => atoll_ops::argsort(&a.view()),
        }
    }
    pub fn sort(&self) -> Result<DistArray<K, 1>> {
        match self {
            ArrayRef::Block(a) => atoll_ops::sort(&a.view()),
            ArrayRef::Cyclic(a) => atoll_ops::sort(&a.view()),
            ArrayRef::BlockCyclic(a) => atoll_ops::sort(&a.view()),
        }
    }
    pub fn column(&self) -> &dyn atoll_ops::SortColumn {
        match self {
            ArrayRef::Block(a) => *a,
            ArrayRef::Cyclic(a) => *a,
            ArrayRef::BlockCyclic(a) => *a,
        }
    }
}

/// Checks that `perm` (gathered on locale 0) is the reference argsort of `keys`, and that it
/// is Block-distributed with one part per locale.
pub fn check_perm<K: SortKey>(ctx: &Ctx, perm: &DistArray<i64, 1>, keys: &[K], what: &str) -> Result<()> {
    assert_eq!(perm.len(), keys.len(), "{what}: length");
    let layout = dist::block(ctx, [keys.len()])?;
    assert_eq!(perm.dist(), &layout, "{what}: the result is Block over all locales");
    if let Some(p) = perm.gather(0)? {
        assert_eq!(p, reference(keys), "{what}: keys {keys:?}");
    }
    Ok(())
}
