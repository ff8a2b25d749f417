//! A locale's share of a matrix's entries, as read or generated (0-based, global indices), in
//! no particular order.

/// Triples `(rows[k], cols[k], vals[k])`; `vals` is `None` for a pattern (every value 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalEntries {
    /// Row indices (0-based).
    pub rows: Vec<u64>,
    /// Column indices (0-based).
    pub cols: Vec<u64>,
    /// Values, or `None` for a pattern matrix.
    pub vals: Option<Vec<f64>>,
}

impl LocalEntries {
    /// No entries; `pattern` chooses whether values are kept.
    pub fn new(pattern: bool) -> Self {
        LocalEntries { rows: Vec::new(), cols: Vec::new(), vals: if pattern { None } else { Some(Vec::new()) } }
    }

    /// The number of entries here.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no entry here.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Appends one entry (`v` is ignored for a pattern).
    #[inline]
    pub fn push(&mut self, r: u64, c: u64, v: f64) {
        self.rows.push(r);
        self.cols.push(c);
        if let Some(vals) = &mut self.vals {
            vals.push(v);
        }
    }

    /// The value of entry `k` (1 for a pattern).
    #[inline]
    pub fn val(&self, k: usize) -> f64 {
        self.vals.as_ref().map_or(1.0, |v| v[k])
    }

    /// Adds the mirror `(c, r)` of every off-diagonal entry (a symmetric matrix's full form).
    pub fn mirror_off_diagonal(&mut self) {
        let n = self.len();
        for k in 0..n {
            let (r, c) = (self.rows[k], self.cols[k]);
            if r != c {
                let v = self.val(k);
                self.push(c, r, v);
            }
        }
    }
}
