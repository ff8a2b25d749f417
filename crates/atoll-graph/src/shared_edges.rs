//! Approach 2 of the Chapel-Grafiki talk: a graph's edge list written by Atoll into shared
//! arrays (`atoll_share::SharedArray`, per-locale blocks in memory-mapped files) that another
//! process (Rust, Python, or C/C++ through `include/atoll.h`, e.g.
//! `examples/c/hitting_consumer.cpp`) attaches to and computes on in place, plus the target set
//! of a hitting-time query.
//!
//! Layering: `atoll-graph` depends on `atoll-share` (never the reverse), so the crate graph
//! stays acyclic: `atoll-share` knows arrays and files only, and graphs stay out of it.
//!
//! The arrays of an edge list with prefix `P` are `P-rows` (`int64`), `P-cols` (`int64`) and
//! `P-vals` (`float64`), of equal length and Block layout, entry `k` being the edge
//! `rows[k] -> cols[k]` of weight `vals[k]` (1 for a pattern matrix).

use crate::csr::CsrMatrix;
use crate::edge_list::{spread, EdgeSource};
use crate::entries::LocalEntries;
use crate::partition::Partition;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use atoll_share::{ShareOptions, SharedArray};

/// The names of the three arrays of the edge list with prefix `prefix`:
/// `(prefix-rows, prefix-cols, prefix-vals)`.
pub fn shared_edge_names(prefix: &str) -> (String, String, String) {
    (format!("{prefix}-rows"), format!("{prefix}-cols"), format!("{prefix}-vals"))
}

/// A graph's edge list in three shared arrays (see the module docs), found by other processes
/// by name. It is also an [`EdgeSource`], so [`EdgeListMatrix`](crate::EdgeListMatrix) runs
/// Atoll's own products on the very same memory.
pub struct SharedEdges {
    /// Row (source vertex) of each entry.
    pub rows: SharedArray<i64, 1>,
    /// Column (target vertex) of each entry.
    pub cols: SharedArray<i64, 1>,
    /// Weight of each entry (1 for a pattern).
    pub vals: SharedArray<f64, 1>,
    num_vertices: usize,
}

impl EdgeSource for SharedEdges {
    fn local_rows(&self) -> &[i64] {
        self.rows.array().local()
    }
    fn local_cols(&self) -> &[i64] {
        self.cols.array().local()
    }
    fn local_vals(&self) -> Option<&[f64]> {
        Some(self.vals.array().local())
    }
}

/// Frees whatever was made before a failure (errors of the clean-up are secondary).
fn undo(rows: Option<SharedArray<i64, 1>>, cols: Option<SharedArray<i64, 1>>) {
    if let Some(a) = rows {
        let _ = a.free();
    }
    if let Some(a) = cols {
        let _ = a.free();
    }
}

impl SharedEdges {
    /// Writes every locale's `entries` (in locale order) into the shared arrays
    /// `prefix-rows`, `prefix-cols` and `prefix-vals` of a graph of `num_vertices` vertices.
    /// The values are the entries' (1 for a pattern) unless `unit_weights`, which writes 1
    /// everywhere (the pattern as an unweighted graph). **Collective.**
    ///
    /// # Errors
    /// On every locale: [`Error::IndexOutOfBounds`] for an entry outside
    /// `0..num_vertices`; the errors of [`SharedArray::create`] (a bad prefix, existing
    /// files); communication failures. Nothing is left behind on error.
    pub fn create(
        ctx: &Ctx,
        prefix: &str,
        num_vertices: usize,
        entries: &LocalEntries,
        unit_weights: bool,
        opts: ShareOptions,
    ) -> Result<Self> {
        let n = num_vertices as u64;
        let bad = (0..entries.len()).find(|&k| entries.rows[k] >= n || entries.cols[k] >= n).map(|k| {
            Error::IndexOutOfBounds {
                index: format!("({}, {})", entries.rows[k], entries.cols[k]),
                bounds: format!("0..{num_vertices} (SharedEdges::create)"),
            }
        });
        if let Some(e) = ctx.allgather(&bad)?.into_iter().flatten().next() {
            return Err(e);
        }
        if i64::try_from(num_vertices).is_err() {
            return Err(Error::InvalidArgument(format!(
                "SharedEdges::create: {num_vertices} vertices do not fit int64 ids"
            )));
        }
        let first = ctx.exscan(entries.len() as u64, 0u64, |a, b| a + b)? as usize;
        let total = ctx.allreduce(entries.len() as u64, |a, b| a + b)? as usize;
        let part = Partition::new(total, ctx.num_locales());
        let (rn, cn, vn) = shared_edge_names(prefix);
        let mut rows = SharedArray::<i64, 1>::create(ctx, &rn, [total], opts.clone())?;
        let mut cols = match SharedArray::<i64, 1>::create(ctx, &cn, [total], opts.clone()) {
            Ok(a) => a,
            Err(e) => {
                undo(Some(rows), None);
                return Err(e);
            }
        };
        let mut vals = match SharedArray::<f64, 1>::create(ctx, &vn, [total], opts) {
            Ok(a) => a,
            Err(e) => {
                undo(Some(rows), Some(cols));
                return Err(e);
            }
        };
        let r: Vec<i64> = entries.rows.iter().map(|&x| x as i64).collect();
        spread(ctx, &part, first, &r, rows.array_mut()?.local_mut())?;
        drop(r);
        let c: Vec<i64> = entries.cols.iter().map(|&x| x as i64).collect();
        spread(ctx, &part, first, &c, cols.array_mut()?.local_mut())?;
        drop(c);
        let v: Vec<f64> = (0..entries.len()).map(|k| if unit_weights { 1.0 } else { entries.val(k) }).collect();
        spread(ctx, &part, first, &v, vals.array_mut()?.local_mut())?;
        ctx.barrier()?;
        if ctx.id() == 0 {
            // The values changed since creation: a consumer may watch the counters.
            rows.bump_generation();
            cols.bump_generation();
            vals.bump_generation();
        }
        ctx.barrier()?;
        Ok(SharedEdges { rows, cols, vals, num_vertices })
    }

    /// The entries of `m` (a graph: square) into shared arrays, as [`create`](Self::create).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a non-square matrix; as [`create`](Self::create).
    pub fn from_csr(ctx: &Ctx, prefix: &str, m: &CsrMatrix, unit_weights: bool, opts: ShareOptions) -> Result<Self> {
        let (r, c) = m.shape();
        if r != c {
            return Err(Error::ShapeMismatch {
                context: "SharedEdges::from_csr".into(),
                left: format!("a {r} x {c} matrix"),
                right: "a square matrix (a graph)".into(),
            });
        }
        SharedEdges::create(ctx, prefix, r, &m.local_entries(), unit_weights, opts)
    }

    /// The number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.num_vertices
    }

    /// The number of entries (edges, each direction counted).
    pub fn num_entries(&self) -> usize {
        self.rows.array().len()
    }

    /// Unmaps the arrays and, unless kept, removes their files. **Collective.**
    pub fn free(self) -> Result<()> {
        let r = self.rows.free();
        let c = self.cols.free();
        let v = self.vals.free();
        r.and(c).and(v)
    }
}

/// The target set of a hitting-time query as the shared `int64` array `name` (vertex ids, in
/// the order given; the same `targets` on every locale). **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] for an empty set or ids beyond `i64`; as [`SharedArray::create`].
pub fn share_targets(ctx: &Ctx, name: &str, targets: &[u64], opts: ShareOptions) -> Result<SharedArray<i64, 1>> {
    if targets.is_empty() {
        return Err(Error::InvalidArgument("share_targets: the target set is empty".into()));
    }
    let t: Vec<i64> = targets
        .iter()
        .map(|&x| i64::try_from(x))
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| Error::InvalidArgument("share_targets: a vertex id beyond int64".into()))?;
    let mut a = SharedArray::<i64, 1>::create(ctx, name, [t.len()], opts)?;
    let r = Partition::new(t.len(), ctx.num_locales()).range(ctx.id());
    a.array_mut()?.local_mut().copy_from_slice(&t[r]);
    ctx.barrier()?;
    if ctx.id() == 0 {
        a.bump_generation();
    }
    ctx.barrier()?;
    Ok(a)
}
