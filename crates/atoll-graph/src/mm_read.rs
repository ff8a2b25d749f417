//! Reading a Matrix Market file in parallel: every locale parses the header, then its own byte
//! range of the entries (split at line ends), and the locales agree on the outcome before
//! anything distributed is built.

use crate::entries::LocalEntries;
use crate::mm_header::{parse_header, MmField, MmHeader};
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// A file's header and this locale's entries (as listed: a symmetric file's one triangle).
#[derive(Clone, Debug)]
pub struct MmLocal {
    /// The header.
    pub header: MmHeader,
    /// This locale's entries, 0-based.
    pub entries: LocalEntries,
}

fn io_err(path: &str, e: std::io::Error) -> Error {
    Error::Io(format!("{path}: {e}"))
}

fn read_at(f: &mut File, path: &str, start: u64, len: usize) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; len];
    f.seek(SeekFrom::Start(start)).map_err(|e| io_err(path, e))?;
    f.read_exact(&mut buf).map_err(|e| io_err(path, e))?;
    Ok(buf)
}

/// The header, reading as much of the file's start as it needs.
fn read_header(f: &mut File, path: &str, size: u64) -> Result<MmHeader> {
    let mut want = 1usize << 16;
    loop {
        let n = (want as u64).min(size) as usize;
        let buf = read_at(f, path, 0, n)?;
        match parse_header(path, &buf) {
            Err(Error::Parse { .. }) if (n as u64) < size => want *= 4,
            r => {
                // A size line cut off by the end of the prefix would parse wrongly: accept the
                // header only when its last line ended with a newline inside the prefix.
                if let Ok(h) = &r {
                    if (n as u64) < size && (h.data_start == 0 || buf[h.data_start - 1] != b'\n') {
                        want *= 4;
                        continue;
                    }
                }
                return r;
            }
        }
    }
}

/// The first line start at or after `at` in the file (`at` itself when it follows a newline).
fn line_start(f: &mut File, path: &str, at: u64, size: u64, data_start: u64) -> Result<u64> {
    if at <= data_start {
        return Ok(data_start);
    }
    let mut pos = at - 1;
    let mut buf = vec![0u8; 1 << 16];
    while pos < size {
        let n = ((size - pos) as usize).min(buf.len());
        f.seek(SeekFrom::Start(pos)).map_err(|e| io_err(path, e))?;
        f.read_exact(&mut buf[..n]).map_err(|e| io_err(path, e))?;
        if let Some(i) = buf[..n].iter().position(|&b| b == b'\n') {
            return Ok(pos + i as u64 + 1);
        }
        pos += n as u64;
    }
    Ok(size)
}

/// The first error found in a locale's range: (line, message).
type LineError = Option<(u64, String)>;

/// Parses the entry lines of `chunk`, whose first line is line `first_line` of the file.
fn parse_chunk(
    h: &MmHeader,
    chunk: &[u8],
    first_line: u64,
    out: &mut LocalEntries,
    lines_of: &mut Vec<u64>,
) -> LineError {
    let fields = if h.field == MmField::Pattern { 2 } else { 3 };
    for (line, raw) in (first_line..).zip(chunk.split(|&b| b == b'\n')) {
        // The piece after a final newline is empty and is not a line.
        let Ok(text) = std::str::from_utf8(raw) else {
            return Some((line, "the line is not UTF-8".into()));
        };
        let t = text.trim();
        if !(t.is_empty() || t.starts_with('%')) {
            let mut it = t.split_whitespace();
            let mut idx = [0u64; 2];
            for (k, dim) in [(0usize, h.rows), (1, h.cols)] {
                let what = if k == 0 { "row" } else { "column" };
                let Some(w) = it.next() else {
                    return Some((
                        line,
                        format!(
                            "expected {fields} fields `row col{}`, got `{t}`",
                            if fields == 3 { " value" } else { "" }
                        ),
                    ));
                };
                match w.parse::<u64>() {
                    Ok(i) if i >= 1 && i <= dim as u64 => idx[k] = i - 1,
                    Ok(i) => return Some((line, format!("{what} index {i} is out of range 1..={dim}"))),
                    Err(_) => return Some((line, format!("{what} index `{w}` is not a positive integer"))),
                }
            }
            let v = if fields == 3 {
                let Some(w) = it.next() else {
                    return Some((line, format!("expected 3 fields `row col value`, got `{t}`")));
                };
                let v = if h.field == MmField::Integer {
                    w.parse::<i64>().map(|x| x as f64).ok()
                } else {
                    w.parse::<f64>().ok()
                };
                match v {
                    Some(v) => v,
                    None => {
                        return Some((
                            line,
                            format!(
                                "value `{w}` is not {}",
                                if h.field == MmField::Integer { "an integer" } else { "a number" }
                            ),
                        ))
                    }
                }
            } else {
                1.0
            };
            if let Some(extra) = it.next() {
                return Some((line, format!("unexpected field `{extra}` after {fields} fields")));
            }
            out.push(idx[0], idx[1], v);
            lines_of.push(line);
        }
    }
    None
}

/// Reads the Matrix Market file at `path`: every locale reads the header and its own byte range
/// of the entries (split at line ends). **Collective.**
///
/// # Errors
/// The same error on every locale: [`Error::Io`] when the file cannot be read,
/// [`Error::Parse`] naming the first bad line: a malformed or unsupported header, a malformed
/// entry, an index out of range, more entries than the size line declares (the first extra
/// one), or fewer (a truncated file: the line after the last).
pub fn read_local(ctx: &Ctx, path: impl AsRef<Path>) -> Result<MmLocal> {
    let path_s = path.as_ref().display().to_string();
    let local: Result<(MmHeader, Vec<u8>, u64)> = (|| {
        let mut f = File::open(path.as_ref()).map_err(|e| io_err(&path_s, e))?;
        let size = f.metadata().map_err(|e| io_err(&path_s, e))?.len();
        let h = read_header(&mut f, &path_s, size)?;
        let (p, me) = (ctx.num_locales() as u64, ctx.id() as u64);
        let ds = h.data_start as u64;
        let span = size - ds;
        let (a, b) = (ds + span * me / p, ds + span * (me + 1) / p);
        let start = line_start(&mut f, &path_s, a, size, ds)?;
        let end = if me + 1 == p { size } else { line_start(&mut f, &path_s, b, size, ds)? };
        let chunk = if end > start { read_at(&mut f, &path_s, start, (end - start) as usize)? } else { Vec::new() };
        let newlines = chunk.iter().filter(|&&b| b == b'\n').count() as u64;
        Ok((h, chunk, newlines))
    })();
    // Agree on I/O and header errors first (every locale sees the same header).
    let (h, chunk, newlines) = ctx.agree(local)?;
    let mut entries = LocalEntries::new(h.field == MmField::Pattern);
    let first_line = h.lines + 1 + ctx.exscan(newlines, 0u64, |a, b| a + b)?;
    let total_lines = h.lines + ctx.allreduce(newlines, |a, b| a + b)?;
    let mut lines_of = Vec::new();
    let bad = parse_chunk(&h, &chunk, first_line, &mut entries, &mut lines_of);
    drop(chunk);
    // Entries up to the first bad line count; the first entry past `nnz` is an error too.
    let count = entries.len() as u64;
    let before = ctx.exscan(count, 0u64, |a, b| a + b)?;
    let total = ctx.allreduce(count, |a, b| a + b)?;
    let extra = if before + count > h.nnz as u64 && before <= h.nnz as u64 {
        let k = (h.nnz as u64 - before) as usize;
        Some((lines_of[k], format!("entry {} is beyond the {} entries the size line declares", h.nnz + 1, h.nnz)))
    } else {
        None
    };
    let mine = [bad, extra].into_iter().flatten().min_by_key(|(l, _)| *l);
    let all = ctx.allgather(&mine)?;
    if let Some((line, message)) = all.into_iter().flatten().min_by_key(|(l, _)| *l) {
        return Err(Error::Parse { source_name: path_s, line, message });
    }
    if total < h.nnz as u64 {
        return Err(Error::Parse {
            source_name: path_s,
            line: total_lines + 1,
            message: format!(
                "the file ends after {total} of the {} entries the size line declares (truncated?)",
                h.nnz
            ),
        });
    }
    Ok(MmLocal { header: h, entries })
}
