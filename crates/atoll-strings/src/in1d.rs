//! `in1d`: membership of each string in another set of strings, exact (bytes compared), by
//! hash partitioning: every string goes to the locale `hash % locales`, which answers.

use crate::hash::hash128;
use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;
use std::collections::HashSet;

/// Per destination locale: the positions, lengths and bytes of the strings it owns.
type ByOwner = (Vec<Vec<u32>>, Vec<Vec<u64>>, Vec<Vec<u8>>);

/// Splits `l`'s strings by owner locale.
fn by_owner(l: &LocalStrings, p: usize) -> ByOwner {
    let (mut pos, mut lens, mut bytes) = (vec![Vec::new(); p], vec![Vec::new(); p], vec![Vec::new(); p]);
    for i in 0..l.len() {
        let s = l.get(i);
        let d = (hash128(s).0 % p as u64) as usize;
        pos[d].push(i as u32);
        lens[d].push(s.len() as u64);
        bytes[d].extend_from_slice(s);
    }
    (pos, lens, bytes)
}

impl DistStrings {
    /// Whether each string occurs in `other` (Arkouda's `ak.in1d`), aligned with `self`.
    /// Exact: strings meet at the locale their hash names and are compared byte for byte.
    /// **Collective** (five `alltoallv`).
    pub fn in1d(&self, other: &DistStrings) -> Result<DistArray<bool, 1>> {
        let ctx = self.ctx();
        let p = ctx.num_locales();
        // The set: other's strings at their owners.
        let (_, olens, obytes) = by_owner(other.local(), p);
        let olens = ctx.alltoallv(olens)?;
        let obytes = ctx.alltoallv(obytes)?;
        let sets: Vec<LocalStrings> =
            olens.iter().zip(obytes).map(|(l, b)| LocalStrings::from_lengths(b, l)).collect::<Result<_>>()?;
        let set: HashSet<&[u8]> = sets.iter().flat_map(|s| s.iter()).collect();
        // The queries.
        let (pos, qlens, qbytes) = by_owner(self.local(), p);
        let qlens = ctx.alltoallv(qlens)?;
        let qbytes = ctx.alltoallv(qbytes)?;
        let answers: Vec<Vec<u8>> = qlens
            .iter()
            .zip(qbytes)
            .map(|(l, b)| {
                LocalStrings::from_lengths(b, l).map(|q| q.iter().map(|s| u8::from(set.contains(s))).collect())
            })
            .collect::<Result<_>>()?;
        let got = ctx.alltoallv(answers)?;
        let mut out = vec![false; self.local().len()];
        for (d, a) in got.iter().enumerate() {
            for (k, &x) in a.iter().enumerate() {
                out[pos[d][k] as usize] = x != 0;
            }
        }
        self.array_from_local(&out)
    }
}
