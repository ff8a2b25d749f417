//! Strings from the lines of text files, read in parallel: locale `l` reads the lines that
//! start in its share of the files' bytes.

use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_error::{invalid_arg, Error, Result};
use atoll_runtime::Ctx;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

impl DistStrings {
    /// One string per line of the files, in file then line order (lines end at `\n`; a final
    /// `\r` is removed; a last line without `\n` counts, an empty file has none), as Rust's
    /// `str::lines`. The files (every locale must see them, e.g. on a shared file system) are
    /// seen as one stream of bytes cut into one contiguous share per locale; each locale reads
    /// the lines that start in its share (reading past its end to finish its last line), then
    /// the strings move to the Block layout. **Collective.**
    ///
    /// # Errors
    /// On every locale: [`Error::Io`] naming the file when one cannot be read;
    /// [`Error::InvalidArgument`] when a line is not valid UTF-8.
    pub fn from_lines<P: AsRef<Path>>(ctx: &Ctx, paths: &[P]) -> Result<DistStrings> {
        let paths: Vec<PathBuf> = paths.iter().map(|p| p.as_ref().to_path_buf()).collect();
        let local = ctx.agree(read_share(ctx, &paths));
        let local = local?;
        DistStrings::from_local_parts(ctx, local, "DistStrings::from_lines")
    }
}

fn io_err(p: &Path, e: std::io::Error) -> Error {
    Error::Io(format!("{}: {e}", p.display()))
}

fn read_share(ctx: &Ctx, paths: &[PathBuf]) -> Result<LocalStrings> {
    let mut sizes = Vec::with_capacity(paths.len());
    for p in paths {
        sizes.push(std::fs::metadata(p).map_err(|e| io_err(p, e))?.len());
    }
    let total: u64 = sizes.iter().sum();
    let (np, me) = (ctx.num_locales() as u128, ctx.id() as u128);
    let (a, b) = ((total as u128 * me / np) as u64, (total as u128 * (me + 1) / np) as u64);
    let mut out = LocalStrings::new();
    let mut start = 0u64;
    for (p, &size) in paths.iter().zip(&sizes) {
        let (fa, fb) = (a.max(start), b.min(start + size));
        if fa < fb {
            read_lines(p, fa - start, fb - start, &mut out)?;
        }
        start += size;
    }
    Ok(out)
}

/// Appends the lines of `p` that start in `a..b`.
fn read_lines(p: &Path, a: u64, b: u64, out: &mut LocalStrings) -> Result<()> {
    let mut f = std::fs::File::open(p).map_err(|e| io_err(p, e))?;
    let from = a.saturating_sub(1);
    f.seek(SeekFrom::Start(from)).map_err(|e| io_err(p, e))?;
    let mut buf = vec![0u8; (b - from) as usize];
    f.read_exact(&mut buf).map_err(|e| io_err(p, e))?;
    // Finish the last line: read on to the next newline or the end of the file.
    if buf.last() != Some(&b'\n') {
        let mut chunk = [0u8; 4096];
        loop {
            let k = f.read(&mut chunk).map_err(|e| io_err(p, e))?;
            if k == 0 {
                break;
            }
            if let Some(j) = memchr::memchr(b'\n', &chunk[..k]) {
                buf.extend_from_slice(&chunk[..=j]);
                break;
            }
            buf.extend_from_slice(&chunk[..k]);
        }
    }
    // The first line starting at or after `a`.
    let mut pos = if a == 0 {
        0
    } else if buf[0] == b'\n' {
        1
    } else {
        match memchr::memchr(b'\n', &buf) {
            Some(j) => j + 1,
            None => buf.len(),
        }
    };
    let end_start = (b - from) as usize; // lines must start before this position
    while pos < buf.len() && pos < end_start {
        let e = memchr::memchr(b'\n', &buf[pos..]).map_or(buf.len(), |j| pos + j);
        let mut line = &buf[pos..e];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        let s = std::str::from_utf8(line)
            .map_err(|_| invalid_arg!("{}: the line at byte {} is not valid UTF-8", p.display(), from + pos as u64))?;
        out.push(s);
        pos = e + 1;
    }
    Ok(())
}
