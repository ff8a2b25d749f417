//! The Matrix Market header: the banner line, comments and the size line.

use atoll_error::{Error, Result};

/// The value field of a coordinate Matrix Market file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmField {
    /// Floating-point values.
    Real,
    /// Integer values (read as `f64`).
    Integer,
    /// No values: every entry is 1.
    Pattern,
}

/// The symmetry of a Matrix Market file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmSymmetry {
    /// Every entry is listed.
    General,
    /// Only one triangle is listed; `(i, j)` stands for `(j, i)` too.
    Symmetric,
}

/// A parsed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmHeader {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Entries listed in the file (one triangle for a symmetric matrix).
    pub nnz: usize,
    /// The value field.
    pub field: MmField,
    /// The symmetry.
    pub symmetry: MmSymmetry,
    /// The number of lines up to and including the size line.
    pub lines: u64,
    /// The byte offset of the first entry line.
    pub data_start: usize,
}

fn err(src: &str, line: u64, message: impl Into<String>) -> Error {
    Error::Parse { source_name: src.to_string(), line, message: message.into() }
}

/// Parses the header at the start of `text` (`src` names the input in errors).
///
/// # Errors
/// [`Error::Parse`] naming the line: a missing or malformed banner, an unsupported format
/// (array, complex, hermitian, skew-symmetric), a missing or malformed size line.
pub fn parse_header(src: &str, text: &[u8]) -> Result<MmHeader> {
    let mut pos = 0usize;
    let mut line = 0u64;
    let next_line = |pos: &mut usize| -> Option<&[u8]> {
        if *pos >= text.len() {
            return None;
        }
        let end = text[*pos..].iter().position(|&b| b == b'\n').map_or(text.len(), |e| *pos + e);
        let l = &text[*pos..end];
        *pos = end + 1;
        Some(l)
    };
    line += 1;
    let banner = next_line(&mut pos).ok_or_else(|| err(src, 1, "empty file: expected the %%MatrixMarket banner"))?;
    let banner = std::str::from_utf8(banner).map_err(|_| err(src, 1, "the banner is not UTF-8"))?;
    let words: Vec<String> = banner.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
    if words.first().map(String::as_str) != Some("%%matrixmarket") {
        return Err(err(
            src,
            1,
            format!(
                "expected the banner `%%MatrixMarket matrix coordinate <field> <symmetry>`, got `{}`",
                banner.trim()
            ),
        ));
    }
    if words.len() != 5 || words[1] != "matrix" {
        return Err(err(
            src,
            1,
            format!(
                "malformed banner `{}`: expected 5 words `%%MatrixMarket matrix coordinate <field> <symmetry>`",
                banner.trim()
            ),
        ));
    }
    if words[2] != "coordinate" {
        return Err(err(src, 1, format!("unsupported format `{}`: only `coordinate` is read", words[2])));
    }
    let field = match words[3].as_str() {
        "real" | "double" => MmField::Real,
        "integer" => MmField::Integer,
        "pattern" => MmField::Pattern,
        other => return Err(err(src, 1, format!("unsupported field `{other}`: expected real, integer or pattern"))),
    };
    let symmetry = match words[4].as_str() {
        "general" => MmSymmetry::General,
        "symmetric" => MmSymmetry::Symmetric,
        other => return Err(err(src, 1, format!("unsupported symmetry `{other}`: expected general or symmetric"))),
    };
    loop {
        line += 1;
        let l = next_line(&mut pos)
            .ok_or_else(|| err(src, line, "the file ends before the size line `rows cols entries`"))?;
        let l = std::str::from_utf8(l).map_err(|_| err(src, line, "the line is not UTF-8"))?;
        let t = l.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        let nums: Vec<&str> = t.split_whitespace().collect();
        let parse = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| err(src, line, format!("malformed size line `{t}`: `{s}` is not a non-negative integer")))
        };
        if nums.len() != 3 {
            return Err(err(src, line, format!("malformed size line `{t}`: expected `rows cols entries`")));
        }
        let (rows, cols, nnz) = (parse(nums[0])?, parse(nums[1])?, parse(nums[2])?);
        if symmetry == MmSymmetry::Symmetric && rows != cols {
            return Err(err(src, line, format!("a symmetric matrix must be square, got {rows} x {cols}")));
        }
        return Ok(MmHeader { rows, cols, nnz, field, symmetry, lines: line, data_start: pos.min(text.len()) });
    }
}
