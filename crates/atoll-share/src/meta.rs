//! The metadata file that names a shared array: `atoll-<name>.meta` in the array's directory.
//!
//! Layout (little endian): a header (magic `ATOLLSHM`, version, dtype, rank, number of
//! blocks, shape padded to 3 dimensions, control-page offset, header length), one entry per
//! block (global box `lo..hi` per dimension, bytes, file name), and an FNV-1a checksum of all
//! that. The header never changes after creation. At the control-page offset (a multiple of
//! 4096) follows one page of atomics: the generation counter and the signals (`control.rs`).
//! The file is written under a temporary name and linked to its final name, so no reader sees
//! it half written.

use crate::dtype::CType;
use atoll_error::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"ATOLLSHM";
/// The format version this crate reads and writes.
pub const VERSION: u32 = 1;
/// Size of the control page.
pub const CONTROL_BYTES: usize = 4096;
const FIXED: usize = 64;
const MAX_BLOCKS: usize = 1 << 16;

/// One block: the global box it holds (row-major inside the file) and its file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlockInfo {
    /// First global index per dimension.
    pub lo: Vec<u64>,
    /// One past the last global index per dimension.
    pub hi: Vec<u64>,
    /// The block's size in bytes.
    pub bytes: u64,
    /// The block's file name, in the metadata file's directory.
    pub file: String,
}

/// A shared array's metadata.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// Element type.
    pub dtype: CType,
    /// Global shape (its length is the rank, 1 to 3).
    pub shape: Vec<u64>,
    /// Blocks, one per locale of the job that made the array.
    pub blocks: Vec<BlockInfo>,
    /// Offset of the control page in the metadata file.
    pub control_offset: u64,
}

/// Checks a shared array's name: 1 to 100 of `[A-Za-z0-9_.-]`, not starting with `.`.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "shared array name {name:?}: use 1 to 100 of A-Z a-z 0-9 _ - . (not starting with .)"
        )))
    }
}

/// The metadata file of array `name` in `dir`.
pub fn meta_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("atoll-{name}.meta"))
}

/// The file name of block `b` of array `name`.
pub fn block_file(name: &str, b: usize) -> String {
    format!("atoll-{name}-{b}")
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

impl Meta {
    /// Elements of block `b`.
    pub fn block_len(&self, b: usize) -> u64 {
        let k = &self.blocks[b];
        k.lo.iter().zip(&k.hi).map(|(l, h)| h - l).product()
    }

    /// The header's bytes, checksum included.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(256);
        v.extend_from_slice(MAGIC);
        for x in [VERSION, self.dtype.code(), self.shape.len() as u32, self.blocks.len() as u32] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        for d in 0..3 {
            v.extend_from_slice(&self.shape.get(d).copied().unwrap_or(1).to_le_bytes());
        }
        let len = self.header_len();
        v.extend_from_slice(&self.control_offset.to_le_bytes());
        v.extend_from_slice(&(len as u64).to_le_bytes());
        for b in &self.blocks {
            for d in 0..3 {
                v.extend_from_slice(&b.lo.get(d).copied().unwrap_or(0).to_le_bytes());
            }
            for d in 0..3 {
                v.extend_from_slice(&b.hi.get(d).copied().unwrap_or(1).to_le_bytes());
            }
            v.extend_from_slice(&b.bytes.to_le_bytes());
            v.extend_from_slice(&(b.file.len() as u16).to_le_bytes());
            v.extend_from_slice(b.file.as_bytes());
        }
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(v.len(), len);
        v
    }

    /// The header's length in bytes.
    pub fn header_len(&self) -> usize {
        FIXED + self.blocks.iter().map(|b| 56 + 2 + b.file.len()).sum::<usize>() + 8
    }

    /// Reads and validates the metadata file at `path`: magic, version, dtype, rank, block
    /// boxes and sizes, names, checksum, and the file's length. Every defect is a
    /// [`Error::SharedFile`] naming it.
    pub fn read(path: &Path) -> Result<Meta> {
        let mut f = crate::mmap::open_existing(path, false)?;
        let size = f.metadata().map_err(|e| bad(path, e))?.len();
        let mut head = Vec::new();
        (&mut f).take(FIXED as u64).read_to_end(&mut head).map_err(|e| bad(path, e))?;
        if head.len() < 8 || &head[..8] != MAGIC {
            return Err(bad(path, "not an Atoll shared array (bad magic)"));
        }
        if head.len() < FIXED {
            return Err(bad(path, format!("truncated: {size} bytes, shorter than the {FIXED}-byte header")));
        }
        let u32_at = |o: usize| u32::from_le_bytes(head[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(head[o..o + 8].try_into().unwrap());
        let version = u32_at(8);
        if version != VERSION {
            return Err(bad(path, format!("format version {version}, this library reads version {VERSION}")));
        }
        let dtype =
            CType::from_code(u32_at(12)).ok_or_else(|| bad(path, format!("unknown dtype code {}", u32_at(12))))?;
        let rank = u32_at(16) as usize;
        let nblocks = u32_at(20) as usize;
        if !(1..=3).contains(&rank) {
            return Err(bad(path, format!("rank {rank} outside 1..=3")));
        }
        if !(1..=MAX_BLOCKS).contains(&nblocks) {
            return Err(bad(path, format!("{nblocks} blocks, outside 1..={MAX_BLOCKS}")));
        }
        let shape: Vec<u64> = (0..rank).map(|d| u64_at(24 + 8 * d)).collect();
        let control_offset = u64_at(48);
        let header_len = u64_at(56);
        if header_len < FIXED as u64 + 8
            || header_len > size
            || header_len > (FIXED + 8 + nblocks * (58 + u16::MAX as usize)) as u64
        {
            return Err(bad(path, format!("truncated or corrupt: header of {header_len} bytes in a file of {size}")));
        }
        let mut rest = Vec::new();
        (&mut f).take(header_len - FIXED as u64).read_to_end(&mut rest).map_err(|e| bad(path, e))?;
        let mut all = head.clone();
        all.extend_from_slice(&rest);
        if all.len() as u64 != header_len {
            return Err(bad(path, "truncated header"));
        }
        let body = &all[..all.len() - 8];
        let sum = u64::from_le_bytes(all[all.len() - 8..].try_into().unwrap());
        if fnv1a(body) != sum {
            return Err(bad(path, "corrupt: checksum mismatch"));
        }
        let mut o = FIXED;
        let mut blocks = Vec::with_capacity(nblocks);
        let rd = |o: &mut usize, n: usize| -> Result<&[u8]> {
            let s = body.get(*o..*o + n).ok_or_else(|| bad(path, "corrupt: block table overruns the header"))?;
            *o += n;
            Ok(s)
        };
        for b in 0..nblocks {
            let mut lo = Vec::new();
            let mut hi = Vec::new();
            for d in 0..6 {
                let x = u64::from_le_bytes(rd(&mut o, 8)?.try_into().unwrap());
                if d % 3 < rank {
                    if d < 3 {
                        lo.push(x)
                    } else {
                        hi.push(x)
                    }
                }
            }
            let bytes = u64::from_le_bytes(rd(&mut o, 8)?.try_into().unwrap());
            let n = u16::from_le_bytes(rd(&mut o, 2)?.try_into().unwrap()) as usize;
            let file = std::str::from_utf8(rd(&mut o, n)?)
                .map_err(|_| bad(path, format!("block {b}: file name is not UTF-8")))?
                .to_string();
            if file.is_empty() || file.contains('/') || file.starts_with('.') || file.contains('\0') {
                return Err(bad(path, format!("block {b}: file name {file:?} is not a plain name")));
            }
            for d in 0..rank {
                if lo[d] > hi[d] || hi[d] > shape[d] {
                    return Err(bad(
                        path,
                        format!("block {b}: range {}..{} outside dimension {d} of extent {}", lo[d], hi[d], shape[d]),
                    ));
                }
            }
            blocks.push(BlockInfo { lo, hi, bytes, file });
        }
        if o != body.len() {
            return Err(bad(path, "corrupt: trailing bytes in the header"));
        }
        let meta = Meta { dtype, shape, blocks, control_offset };
        let mut total = 0u128;
        for b in 0..nblocks {
            let n = meta.block_len(b);
            total += n as u128;
            if Some(meta.blocks[b].bytes) != n.checked_mul(dtype.size() as u64) {
                return Err(bad(
                    path,
                    format!("block {b}: {} bytes for {n} elements of {}", meta.blocks[b].bytes, dtype.name()),
                ));
            }
        }
        let volume: u128 = meta.shape.iter().map(|&s| s as u128).product();
        if total != volume {
            return Err(bad(path, format!("corrupt: blocks hold {total} elements, the shape {volume}")));
        }
        if control_offset % CONTROL_BYTES as u64 != 0 || control_offset < header_len {
            return Err(bad(path, format!("corrupt: control page offset {control_offset}")));
        }
        if size < control_offset + CONTROL_BYTES as u64 {
            return Err(bad(
                path,
                format!("truncated: {size} bytes, the control page ends at {}", control_offset + CONTROL_BYTES as u64),
            ));
        }
        Ok(meta)
    }

    /// Writes the file at `path` (exclusively: an existing file or link is an error), under a
    /// temporary name first, then linked into place.
    pub fn write(&self, path: &Path) -> Result<()> {
        use std::io::Write;
        let dir = path.parent().unwrap_or(Path::new("."));
        let tmp = dir.join(format!(
            ".{}.{}.tmp",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("meta"),
            std::process::id()
        ));
        let f = crate::mmap::create_exclusive(&tmp, self.control_offset + CONTROL_BYTES as u64)?;
        let r = (|| {
            (&f).write_all(&self.encode()).map_err(|e| bad(&tmp, e))?;
            std::fs::hard_link(&tmp, path).map_err(|e| bad(path, format!("cannot create it exclusively: {e}")))
        })();
        let _ = std::fs::remove_file(&tmp);
        r
    }
}

pub(crate) fn bad(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::SharedFile { path: path.display().to_string(), reason: reason.to_string() }
}

/// The metadata of array `name` of `dtype` over the Block distribution `dist` of `nblocks`
/// targets (block `l` is target `l`'s part), its control page placed after the header.
pub(crate) fn layout<const D: usize>(
    name: &str,
    dtype: CType,
    dist: &atoll_dist::Block<D>,
    nblocks: usize,
) -> Result<Meta> {
    use atoll_dist::Distribution;
    let mut blocks = Vec::with_capacity(nblocks);
    for l in 0..nblocks {
        let dom = dist.local_domain(l)?;
        let (lo, hi): (Vec<u64>, Vec<u64>) =
            dom.dims().iter().map(|r| (r.lo() as u64, r.lo() as u64 + r.len() as u64)).unzip();
        let n: u64 = lo.iter().zip(&hi).map(|(l, h)| h - l).product();
        blocks.push(BlockInfo { lo, hi, bytes: n * dtype.size() as u64, file: block_file(name, l) });
    }
    let shape = dist.domain().dims().iter().map(|r| r.len() as u64).collect();
    let mut meta = Meta { dtype, shape, blocks, control_offset: 0 };
    meta.control_offset = control_offset_for(meta.header_len());
    Ok(meta)
}

/// The control-page offset for a header of `len` bytes.
pub(crate) fn control_offset_for(len: usize) -> u64 {
    len.div_ceil(CONTROL_BYTES) as u64 * CONTROL_BYTES as u64
}
