//! The per-task fold of [`dense_aggregate`](crate::dense_aggregate): rows folded into a table
//! indexed by `key - lo`, checked and grown **per block of rows**, not per row: the block's
//! smallest and largest key are found first (a pass over a few KiB in L1), the table moved or
//! grown once if they fall outside it, then the block is folded without a range check.
//!
//! Two layouts (structure of arrays, so that a fold touches only what it needs):
//! - [`Table`] with `rows` (rows per key) and one accumulator per key: every fold, and
//!   `unique`/`size` (no accumulator);
//! - the **uncounted `f64` sum** ([`fold_sum_f64`]): one `f64` per key and nothing else
//!   (`GroupBy.sum` needs which keys have rows, not how many). The sums start at `-0.0`,
//!   which every added value other than `-0.0` turns into something else (`-0.0 + x == x`,
//!   `-0.0 + 0.0 == +0.0`); NaN rows add `-0.0`. A key whose sum is still `-0.0` has no rows
//!   or only NaN/`-0.0` values: only when such a key lies inside the span of the keys seen
//!   does the task read its keys once more to mark the keys with rows ([`Presence::Marked`]).

/// Rows per block: the block's keys are read twice (range, then fold) while in L1.
const BLOCK: usize = 1024;

/// The first table a task allocates (slots) at least.
const FIRST_TABLE: usize = 1 << 12;

/// `-0.0`, the empty sum of the uncounted `f64` sum.
pub(crate) const NEG_ZERO: f64 = -0.0;

/// The smallest and largest of `ks` (not empty).
#[inline]
fn min_max(ks: &[i64]) -> (i64, i64) {
    // Independent lanes so that the compiler keeps several compares in flight.
    let mut mn = [i64::MAX; 4];
    let mut mx = [i64::MIN; 4];
    let mut it = ks.chunks_exact(4);
    for c in &mut it {
        for l in 0..4 {
            mn[l] = mn[l].min(c[l]);
            mx[l] = mx[l].max(c[l]);
        }
    }
    for &k in it.remainder() {
        mn[0] = mn[0].min(k);
        mx[0] = mx[0].max(k);
    }
    (mn.into_iter().min().unwrap_or(i64::MAX), mx.into_iter().max().unwrap_or(i64::MIN))
}

/// Where a table's keys `lo..lo + cap` go when they must hold `kmin..=kmax` (the keys seen so
/// far and the new block's): `None` when those span more than `limit`. The table keeps its
/// size while the keys fill at most 3/4 of it (it only moves), else it grows to at least
/// twice its size and 3/2 of the keys' span, at most `limit`: O(log) moves for keys in any
/// order. The keys are centred (room on both sides).
fn placement(cap: usize, kmin: i64, kmax: i64, limit: usize) -> Option<(i64, usize)> {
    let span = kmax as i128 - kmin as i128 + 1;
    if span > limit as i128 {
        return None;
    }
    let cap = cap as i128;
    let cap2 = if 4 * span <= 3 * cap { cap } else { (span + span / 2).max(2 * cap).max(FIRST_TABLE as i128).min(limit as i128) };
    let lo2 = (kmin as i128 - (cap2 - span) / 2).max(i64::MIN as i128);
    Some((lo2 as i64, cap2 as usize))
}

/// A task's table over keys `lo..lo + rows.len()` (or `acc.len()` without rows).
pub(crate) struct Table<A> {
    pub(crate) lo: i64,
    /// Rows per key (empty for the uncounted sum).
    pub(crate) rows: Vec<i64>,
    /// One accumulator per key (empty without values).
    pub(crate) acc: Vec<A>,
    /// The smallest and largest key read.
    pub(crate) seen: Option<(i64, i64)>,
}

impl<A: Copy> Table<A> {
    fn new() -> Self { Table { lo: 0, rows: Vec::new(), acc: Vec::new(), seen: None } }

    fn cap(&self) -> usize { self.rows.len().max(self.acc.len()) }

    /// Makes the table hold `kmin..=kmax` (with the keys seen so far); `false` when they would
    /// span more than `limit`. `counted`/`valued`: which of `rows`/`acc` the table has.
    fn cover(&mut self, kmin: i64, kmax: i64, limit: usize, init: A, counted: bool, valued: bool) -> bool {
        let (a, b) = self.seen.map_or((kmin, kmax), |(a, b)| (a.min(kmin), b.max(kmax)));
        let cap = self.cap();
        let inside = |k: i64| (k.wrapping_sub(self.lo) as u64) < cap as u64;
        if inside(a) && inside(b) {
            self.seen = Some((a, b));
            return true;
        }
        let Some((lo2, cap2)) = placement(cap, a, b, limit) else { return false };
        fn moved<X: Copy>(old: &[X], lo: i64, lo2: i64, seen: Option<(i64, i64)>, cap2: usize, fill: X) -> Vec<X> {
            let mut v = vec![fill; cap2];
            if let Some((a, b)) = seen {
                let (from, to, at) = (a.wrapping_sub(lo) as usize, b.wrapping_sub(lo) as usize + 1, a.wrapping_sub(lo2) as usize);
                v[at..at + (to - from)].copy_from_slice(&old[from..to]);
            }
            v
        }
        if counted {
            self.rows = moved(&self.rows, self.lo, lo2, self.seen, cap2, 0);
        }
        if valued {
            self.acc = moved(&self.acc, self.lo, lo2, self.seen, cap2, init);
        }
        self.lo = lo2;
        self.seen = Some((a, b));
        true
    }

    /// The slots `lo..=hi` of the keys seen, as offsets into the table.
    pub(crate) fn seen_slots(&self) -> Option<std::ops::Range<usize>> {
        self.seen.map(|(a, b)| a.wrapping_sub(self.lo) as usize..b.wrapping_sub(self.lo) as usize + 1)
    }
}

/// The keys with rows of an uncounted sum's task.
pub(crate) enum Presence {
    /// Exactly the keys whose sum is not `-0.0`.
    Sums,
    /// One flag per slot of the table (some key of the span has a sum of `-0.0`).
    Marked(Vec<u8>),
}

/// Folds the rows `r` with a per-row `step(slot, row)` into a table with rows (`counted`)
/// and/or accumulators (`valued`); `None` when the keys span more than `limit`.
pub(crate) fn fold_table<A: Copy>(
    ks: &[i64],
    r: std::ops::Range<usize>,
    limit: usize,
    init: A,
    counted: bool,
    valued: bool,
    mut step: impl FnMut(&mut A, usize),
) -> Option<Table<A>> {
    let mut t = Table::new();
    let mut start = r.start;
    while start < r.end {
        let end = (start + BLOCK).min(r.end);
        let kb = &ks[start..end];
        let (mn, mx) = min_max(kb);
        if !t.cover(mn, mx, limit, init, counted, valued) {
            return None;
        }
        let lo = t.lo;
        if counted {
            let rows = &mut t.rows[..];
            for &k in kb {
                rows[k.wrapping_sub(lo) as usize] += 1;
            }
        }
        if valued {
            let acc = &mut t.acc[..];
            for (i, &k) in (start..end).zip(kb) {
                step(&mut acc[k.wrapping_sub(lo) as usize], i);
            }
        }
        start = end;
    }
    Some(t)
}

/// The uncounted `f64` sum of the rows `r` (module doc): the table (no `rows`) and which keys
/// have rows; `None` when the keys span more than `limit`.
pub(crate) fn fold_sum_f64(ks: &[i64], vs: &[f64], r: std::ops::Range<usize>, limit: usize) -> Option<(Table<f64>, Presence)> {
    let mut t = Table::new();
    let mut start = r.start;
    while start < r.end {
        let end = (start + BLOCK).min(r.end);
        let (kb, vb) = (&ks[start..end], &vs[start..end]);
        let (mn, mx) = min_max(kb);
        if !t.cover(mn, mx, limit, NEG_ZERO, false, true) {
            return None;
        }
        scatter_add(&mut t.acc, t.lo, kb, vb);
        start = end;
    }
    let p = match t.seen_slots() {
        Some(s) if t.acc[s.clone()].iter().any(|x| x.to_bits() == NEG_ZERO.to_bits()) => {
            let mut m = vec![0u8; t.acc.len()];
            for &k in &ks[r] {
                m[k.wrapping_sub(t.lo) as usize] = 1;
            }
            Presence::Marked(m)
        }
        _ => Presence::Sums,
    };
    Some((t, p))
}

/// `acc[k - lo] += v` (NaN rows adding `-0.0`, a select, not a branch) for the rows of a
/// block whose keys all lie in `lo..lo + acc.len()`.
#[inline]
fn scatter_add(acc: &mut [f64], lo: i64, kb: &[i64], vb: &[f64]) {
    let n = acc.len();
    debug_assert!(kb.iter().all(|&k| (k.wrapping_sub(lo) as u64) < n as u64));
    for (&k, &v) in kb.iter().zip(vb) {
        let j = k.wrapping_sub(lo) as usize;
        let x = if v.is_nan() { NEG_ZERO } else { v };
        // SAFETY: the caller covered the block's smallest and largest key (`Table::cover`),
        // so every `k - lo` of the block is below `acc.len()`.
        unsafe { *acc.get_unchecked_mut(j) += x };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_grows_and_centres() {
        let (lo, cap) = placement(0, 10, 10, 1 << 20).unwrap();
        assert!(lo <= 10 && 10 < lo + cap as i64 && cap >= FIRST_TABLE);
        assert!(placement(0, 0, 99, 100).is_some());
        assert!(placement(0, 0, 100, 100).is_none());
        assert!(placement(0, i64::MIN, i64::MAX, usize::MAX).is_none());
        let (lo, cap) = placement(FIRST_TABLE, i64::MAX - 5, i64::MAX, 1 << 20).unwrap();
        assert!(lo <= i64::MAX - 5 && cap >= 6);
    }

    #[test]
    fn sums_mark_presence_only_when_ambiguous() {
        let ks = [3i64, 5, 3, 9];
        let vs = [1.0, f64::NAN, 2.0, -0.0];
        let (t, p) = fold_sum_f64(&ks, &vs, 0..4, 100).unwrap();
        assert_eq!(t.seen, Some((3, 9)));
        assert_eq!(t.acc[(3 - t.lo) as usize], 3.0);
        let Presence::Marked(m) = p else { panic!("key 4 has no rows: marked") };
        let with_rows: Vec<i64> = (0..m.len()).filter(|&j| m[j] == 1).map(|j| t.lo + j as i64).collect();
        assert_eq!(with_rows, vec![3, 5, 9]);
        let (_, p) = fold_sum_f64(&[1, 2, 1], &[0.0, 1.0, -1.0], 0..3, 100).unwrap();
        assert!(matches!(p, Presence::Sums));
    }
}
