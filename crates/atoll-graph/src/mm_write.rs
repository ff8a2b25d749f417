//! Writing a Matrix Market file from every locale's entries: locale 0 writes the header, then
//! each locale writes its lines at its own offset (an `exscan` of the byte counts).

use crate::entries::LocalEntries;
use crate::mm_header::MmSymmetry;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

/// Writes the `rows x cols` matrix whose entries are spread over the locales' `entries`
/// (0-based) as a coordinate file: `pattern` when the values are `None`, else `real`; with
/// `Symmetric`, only entries with `row >= col` are written. **Collective.**
///
/// # Errors
/// The same on every locale: [`Error::Io`] when the file cannot be written.
pub fn write_matrix_market(
    ctx: &Ctx,
    path: impl AsRef<Path>,
    rows: usize,
    cols: usize,
    entries: &LocalEntries,
    symmetry: MmSymmetry,
) -> Result<()> {
    let path_s = path.as_ref().display().to_string();
    let pattern = ctx.allreduce(entries.vals.is_none(), |a, b| a && b)?;
    let mut text = String::new();
    let mut count = 0u64;
    for k in 0..entries.len() {
        let (r, c) = (entries.rows[k], entries.cols[k]);
        if symmetry == MmSymmetry::Symmetric && r < c {
            continue;
        }
        count += 1;
        if pattern {
            text.push_str(&format!("{} {}\n", r + 1, c + 1));
        } else {
            text.push_str(&format!("{} {} {:?}\n", r + 1, c + 1, entries.val(k)));
        }
    }
    let nnz = ctx.allreduce(count, |a, b| a + b)?;
    let header = format!(
        "%%MatrixMarket matrix coordinate {} {}\n% written by atoll-graph\n{rows} {cols} {nnz}\n",
        if pattern { "pattern" } else { "real" },
        if symmetry == MmSymmetry::Symmetric { "symmetric" } else { "general" }
    );
    let at = header.len() as u64 + ctx.exscan(text.len() as u64, 0u64, |a, b| a + b)?;
    let io = |e: std::io::Error| Error::Io(format!("{path_s}: {e}"));
    let created: Result<()> = if ctx.id() == 0 {
        (|| {
            let mut f = OpenOptions::new().write(true).create(true).truncate(true).open(path.as_ref()).map_err(io)?;
            f.write_all(header.as_bytes()).map_err(io)
        })()
    } else {
        Ok(())
    };
    ctx.agree(created)?;
    let wrote: Result<()> = (|| {
        if text.is_empty() {
            return Ok(());
        }
        let mut f = OpenOptions::new().write(true).open(path.as_ref()).map_err(io)?;
        f.seek(SeekFrom::Start(at)).map_err(io)?;
        f.write_all(text.as_bytes()).map_err(io)
    })();
    ctx.agree(wrote)
}
