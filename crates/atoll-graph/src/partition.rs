//! The row (and column) partition of a matrix: Block over all locales, the same formula as
//! `atoll_dist::Block` on a 1-D domain (`start(k) = ceil(k * n / p)`), so the local part of a
//! Block-distributed `DistArray` of length `n` is exactly a locale's rows.

use std::ops::Range;

/// `0..n` split in `parts` contiguous blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    n: usize,
    parts: usize,
}

impl Partition {
    /// `0..n` over `parts` locales (`parts >= 1`).
    pub fn new(n: usize, parts: usize) -> Self {
        Partition { n, parts: parts.max(1) }
    }

    /// The length of the whole range.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The number of parts.
    pub fn parts(&self) -> usize {
        self.parts
    }

    fn start(&self, k: usize) -> usize {
        ((k as u128 * self.n as u128).div_ceil(self.parts as u128)) as usize
    }

    /// The indices part `k` owns.
    pub fn range(&self, k: usize) -> Range<usize> {
        if k >= self.parts {
            return self.n..self.n;
        }
        self.start(k)..self.start(k + 1)
    }

    /// The part that owns index `i < n`.
    #[inline]
    pub fn owner(&self, i: usize) -> usize {
        // floor(i * p / n) is within one of the answer; fix it up.
        let mut k = ((i as u128 * self.parts as u128) / self.n.max(1) as u128) as usize;
        k = k.min(self.parts - 1);
        while self.start(k) > i {
            k -= 1;
        }
        while self.start(k + 1) <= i {
            k += 1;
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_agrees_with_ranges() {
        for n in [0usize, 1, 5, 7, 100, 1001] {
            for p in 1..6 {
                let part = Partition::new(n, p);
                let mut covered = 0;
                for k in 0..p {
                    for i in part.range(k) {
                        assert_eq!(part.owner(i), k, "n {n} p {p} i {i}");
                        covered += 1;
                    }
                }
                assert_eq!(covered, n);
            }
        }
    }
}
