//! Decoding a string (BYTE_ARRAY, UTF-8) column chunk into a locale's [`LocalStrings`].
//!
//! Plain and dictionary-encoded pages (as pyarrow, pandas and polars write them) are decoded by
//! the `parquet` crate; each value is checked to be valid UTF-8 (a column annotated as text
//! holding other bytes is a corrupt file). A null reads as the empty string, as in Arkouda
//! (its reader writes nothing but the terminator for a null).

use crate::meta::{corrupt, file_err};
use atoll_error::{FileErrorKind, Result};
use atoll_strings::LocalStrings;
use parquet::column::reader::{get_typed_column_reader, ColumnReader};
use parquet::data_type::{ByteArray, ByteArrayType};
use std::path::Path;

/// Values decoded per call into the decoder.
const BATCH: usize = 1 << 13;

/// Appends `len` strings of the column chunk `cr` to `out`, after skipping its first `skip`
/// rows. `max_def` is the column's maximum definition level (0: REQUIRED, no nulls).
pub(crate) fn read_strings(
    cr: ColumnReader,
    path: &Path,
    skip: usize,
    len: usize,
    max_def: i16,
    out: &mut LocalStrings,
) -> Result<()> {
    let short = || file_err(FileErrorKind::Corrupt, path, "a column chunk holds fewer rows than its row group");
    let bad_utf8 = |row: usize| {
        file_err(
            FileErrorKind::Corrupt,
            path,
            format!("a string column holds bytes that are not UTF-8 (row {row} of its row group)"),
        )
    };
    let mut r = get_typed_column_reader::<ByteArrayType>(cr);
    if skip > 0 && r.skip_records(skip).map_err(|e| corrupt(path, e))? != skip {
        return Err(short());
    }
    let mut vals: Vec<ByteArray> = Vec::with_capacity(BATCH.min(len));
    let mut defs: Vec<i16> = Vec::new();
    let mut pos = 0;
    while pos < len {
        let want = BATCH.min(len - pos);
        vals.clear();
        defs.clear();
        let levels = if max_def > 0 { Some(&mut defs) } else { None };
        let (recs, nvals, _) = r.read_records(want, levels, None, &mut vals).map_err(|e| corrupt(path, e))?;
        if recs == 0 || recs > want || nvals > recs || vals.len() != nvals {
            return Err(short());
        }
        if pos == 0 && out.is_empty() {
            // Sized once from the first batch: growing by doubling would copy every byte again,
            // and with the locales as threads of one process each large reallocation stalls
            // the other threads' page faults.
            let bytes: usize = vals.iter().map(|v| v.len()).sum();
            let est = bytes.saturating_mul(len) / recs;
            *out = LocalStrings::with_capacity(len, est.saturating_add(est / 16));
        }
        let row0 = skip + pos;
        if nvals == recs {
            for (k, v) in vals.iter().enumerate() {
                out.push(std::str::from_utf8(v.data()).map_err(|_| bad_utf8(row0 + k))?);
            }
        } else {
            if defs.len() != recs {
                return Err(short());
            }
            let mut k = 0;
            for (j, &dl) in defs.iter().enumerate() {
                if dl == max_def {
                    let v = vals.get(k).ok_or_else(short)?;
                    out.push(std::str::from_utf8(v.data()).map_err(|_| bad_utf8(row0 + j))?);
                    k += 1;
                } else {
                    out.push("");
                }
            }
        }
        pos += recs;
    }
    Ok(())
}
