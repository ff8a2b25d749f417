//! The row-Block-distributed CSR matrix: each locale owns whole rows (the Block partition of
//! the rows, aligned with 1-D Block `DistArray`s); column indices are global, stored as local
//! offsets into "this locale's part of x, then the ghosts" with the [`Halo`] plan built once.

use crate::entries::LocalEntries;
use crate::halo::Halo;
use crate::partition::Partition;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::ops::Range;

/// A distributed CSR matrix (this locale's rows). Build it with [`CsrMatrix::from_entries`].
pub struct CsrMatrix {
    pub(crate) nrows: usize,
    pub(crate) ncols: usize,
    pub(crate) rows: Partition,
    pub(crate) cols: Partition,
    pub(crate) me: usize,
    /// `row_ptr[i]..row_ptr[i+1]`: row `rows.start + i`'s entries.
    pub(crate) row_ptr: Vec<usize>,
    /// Column of each entry: `< local_cols` is the local column `cols.start + c`, else ghost
    /// `c - local_cols`.
    pub(crate) col: Vec<u32>,
    pub(crate) val: Option<Vec<f64>>,
    pub(crate) halo: Halo,
}

impl CsrMatrix {
    /// Builds the `nrows x ncols` matrix from every locale's `entries` (each entry sent to its
    /// row's owner; duplicates summed, or merged for a pattern). **Collective.**
    ///
    /// # Errors
    /// The same on every locale: [`Error::IndexOutOfBounds`] for an entry outside the shape;
    /// [`Error::InvalidArgument`] when a locale would hold more than `u32::MAX` columns and
    /// ghosts; out-of-memory and communication errors. Nothing is left allocated on error.
    pub fn from_entries(ctx: &Ctx, nrows: usize, ncols: usize, entries: LocalEntries) -> Result<Self> {
        let p = ctx.num_locales();
        let me = ctx.id();
        let rows = Partition::new(nrows, p);
        let cols = Partition::new(ncols, p);
        let pattern = ctx.allreduce(entries.vals.is_none(), |a, b| a && b)?;
        let bad = entries
            .rows
            .iter()
            .zip(&entries.cols)
            .find(|(&r, &c)| r >= nrows as u64 || c >= ncols as u64)
            .map(|(&r, &c)| (r, c));
        let bad = ctx.allgather(&bad)?.into_iter().flatten().next();
        if let Some((r, c)) = bad {
            return Err(Error::IndexOutOfBounds {
                index: format!("({r}, {c})"),
                bounds: format!("of a {nrows} x {ncols} matrix"),
            });
        }
        // Route (row, col[, val]) to the row owners.
        let w = if pattern { 2 } else { 3 };
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); p];
        for k in 0..entries.len() {
            let q = rows.owner(entries.rows[k] as usize);
            out[q].push(entries.rows[k]);
            out[q].push(entries.cols[k]);
            if !pattern {
                out[q].push(entries.val(k).to_bits());
            }
        }
        drop(entries);
        let got = ctx.alltoallv(out)?;
        let my = rows.range(me);
        let nl = my.len();
        // Counting sort by row.
        let mut count = vec![0usize; nl + 1];
        for v in &got {
            for e in v.chunks_exact(w) {
                count[e[0] as usize - my.start + 1] += 1;
            }
        }
        for i in 0..nl {
            count[i + 1] += count[i];
        }
        let total = count[nl];
        let mut gcol = vec![0u64; total];
        let mut gval = if pattern { Vec::new() } else { vec![0f64; total] };
        let mut fill = count.clone();
        for v in got {
            for e in v.chunks_exact(w) {
                let i = e[0] as usize - my.start;
                let at = fill[i];
                fill[i] += 1;
                gcol[at] = e[1];
                if !pattern {
                    gval[at] = f64::from_bits(e[2]);
                }
            }
        }
        // Sort each row by column and merge duplicates.
        let mut row_ptr = Vec::with_capacity(nl + 1);
        row_ptr.push(0usize);
        let mut wpos = 0usize;
        let mut pairs: Vec<(u64, f64)> = Vec::new();
        for i in 0..nl {
            let r = count[i]..count[i + 1];
            if pattern {
                let s = &mut gcol[r.clone()];
                s.sort_unstable();
                let mut last = u64::MAX;
                for k in r {
                    let c = gcol[k];
                    if c != last {
                        gcol[wpos] = c;
                        wpos += 1;
                        last = c;
                    }
                }
            } else {
                pairs.clear();
                pairs.extend(r.clone().map(|k| (gcol[k], gval[k])));
                pairs.sort_by_key(|e| e.0);
                let mut last = u64::MAX;
                for &(c, v) in &pairs {
                    if c == last {
                        gval[wpos - 1] += v;
                    } else {
                        gcol[wpos] = c;
                        gval[wpos] = v;
                        wpos += 1;
                        last = c;
                    }
                }
            }
            row_ptr.push(wpos);
        }
        gcol.truncate(wpos);
        gcol.shrink_to_fit();
        let val = if pattern {
            None
        } else {
            gval.truncate(wpos);
            gval.shrink_to_fit();
            Some(gval)
        };
        // Local column numbering and the ghosts.
        let mc = cols.range(me);
        let mut ghosts: Vec<u64> =
            gcol.iter().copied().filter(|&c| !(mc.start as u64..mc.end as u64).contains(&c)).collect();
        ghosts.sort_unstable();
        ghosts.dedup();
        let too_many = mc.len() + ghosts.len() > u32::MAX as usize;
        if ctx.allreduce(too_many, |a, b| a || b)? {
            return Err(Error::InvalidArgument("a locale would hold more than u32::MAX columns and ghosts".into()));
        }
        // Global column -> local offset: a dense table when it is not much larger than the
        // entries (one load per entry), else a binary search in the sorted ghosts.
        let local = |c: u64| (mc.start as u64..mc.end as u64).contains(&c);
        let col: Vec<u32> = if ncols <= 4 * gcol.len() + (1 << 20) {
            let mut table = vec![0u32; ncols];
            for (k, &g) in ghosts.iter().enumerate() {
                table[g as usize] = (mc.len() + k) as u32;
            }
            gcol.iter().map(|&c| if local(c) { (c as usize - mc.start) as u32 } else { table[c as usize] }).collect()
        } else {
            gcol.iter()
                .map(|&c| {
                    if local(c) {
                        (c as usize - mc.start) as u32
                    } else {
                        (mc.len() + ghosts.binary_search(&c).unwrap_or(0)) as u32
                    }
                })
                .collect()
        };
        drop(gcol);
        let halo = Halo::new(ctx, cols, ghosts)?;
        Ok(CsrMatrix { nrows, ncols, rows, cols, me, row_ptr, col, val, halo })
    }

    /// (rows, columns).
    pub fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }

    /// This locale's rows.
    pub fn local_rows(&self) -> Range<usize> {
        self.rows.range(self.me)
    }

    /// This locale's part of the column space (of an `x` it multiplies).
    pub fn local_cols(&self) -> Range<usize> {
        self.cols.range(self.me)
    }

    /// Entries stored here.
    pub fn local_nnz(&self) -> usize {
        self.col.len()
    }

    /// Entries of the whole matrix. **Collective.**
    ///
    /// # Errors
    /// Communication failures.
    pub fn nnz(&self, ctx: &Ctx) -> Result<u64> {
        ctx.allreduce(self.col.len() as u64, |a, b| a + b)
    }

    /// The communication plan.
    pub fn halo(&self) -> &Halo {
        &self.halo
    }

    /// The row partition.
    pub fn row_partition(&self) -> Partition {
        self.rows
    }

    /// Local row `i`'s (local column offsets, values or `None` for a pattern).
    #[inline]
    pub fn row(&self, i: usize) -> (&[u32], Option<&[f64]>) {
        let r = self.row_ptr[i]..self.row_ptr[i + 1];
        (&self.col[r.clone()], self.val.as_ref().map(|v| &v[r]))
    }

    /// The global column of local column offset `c`.
    #[inline]
    pub fn global_col(&self, c: u32) -> u64 {
        let nl = self.cols.range(self.me).len();
        if (c as usize) < nl {
            (self.cols.range(self.me).start + c as usize) as u64
        } else {
            self.halo.ghosts()[c as usize - nl]
        }
    }

    /// This locale's entries with global indices (for writing or checking).
    pub fn local_entries(&self) -> LocalEntries {
        let mut e = LocalEntries::new(self.val.is_none());
        let start = self.local_rows().start as u64;
        for i in 0..self.row_ptr.len() - 1 {
            let (cs, vs) = self.row(i);
            for (k, &c) in cs.iter().enumerate() {
                e.push(start + i as u64, self.global_col(c), vs.map_or(1.0, |v| v[k]));
            }
        }
        e
    }
}
