//! [`SharedFile`]: a shared array opened by any process (no Atoll job): its metadata, every
//! block mapped, and its signals. The C ABI (`atoll-capi`) and Python's zero-copy NumPy view
//! are built on it.

use crate::block::BlockFile;
use crate::control::Control;
use crate::dtype::{CType, ShareElem};
use crate::meta::{self, Meta};
use crate::options::Access;
use crate::signal::Signal;
use atoll_error::{Error, Result};
use std::path::{Path, PathBuf};

/// A shared array's files, mapped in this process.
pub struct SharedFile {
    meta: Meta,
    blocks: Vec<BlockFile>,
    control: Control,
    access: Access,
    path: PathBuf,
    /// Remove the metadata file when dropped (made by `create` without `keep`).
    remove_meta: bool,
}

impl Drop for SharedFile {
    fn drop(&mut self) {
        // Block files go with their mappings (their own flags).
        if self.remove_meta {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl SharedFile {
    /// Opens array `name` in `dir`: validates the metadata and every block file's size, and
    /// maps them (shared for [`Access::ReadWrite`], private copy-on-write for
    /// [`Access::ReadOnly`]). **One-sided**, no collective.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a bad name; [`Error::SharedFile`] for a missing,
    /// truncated, foreign or corrupt file.
    pub fn open(name: &str, dir: impl AsRef<Path>, access: Access) -> Result<SharedFile> {
        meta::check_name(name)?;
        Self::open_path(&meta::meta_path(dir.as_ref(), name), access)
    }

    /// Opens the array whose metadata file is `path` (see [`open`](Self::open)).
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn open_path(path: &Path, access: Access) -> Result<SharedFile> {
        let meta = Meta::read(path)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let blocks = meta
            .blocks
            .iter()
            .map(|b| BlockFile::open(&dir.join(&b.file), b.bytes, access == Access::ReadWrite))
            .collect::<Result<Vec<_>>>()?;
        let control = Control::open(path, meta.control_offset)?;
        Ok(SharedFile { meta, blocks, control, access, path: path.to_path_buf(), remove_meta: false })
    }

    /// Creates array `name` in `dir` from this process alone (no Atoll job): `nblocks` zeroed
    /// block files laid out as a Block distribution over `nblocks` locales (so a job of that
    /// many locales can [`attach`](crate::SharedArray::attach) it as a `DistArray`), mapped
    /// read-write, and the metadata file. The files are removed when it is dropped, unless
    /// `keep`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a bad name, rank (1 to 3) or `nblocks == 0`;
    /// [`Error::SharedFile`] when a file exists or cannot be made (nothing is left behind).
    pub fn create(
        name: &str,
        dir: impl AsRef<Path>,
        dtype: CType,
        shape: &[u64],
        nblocks: usize,
        keep: bool,
    ) -> Result<SharedFile> {
        use atoll_dist::{Block, Domain, LocaleGrid};
        meta::check_name(name)?;
        if nblocks == 0 || nblocks > 1 << 16 {
            return Err(Error::InvalidArgument(format!("{nblocks} blocks: use 1 to 65536")));
        }
        let ext = |d: usize| usize::try_from(shape[d]).map_err(|_| Error::InvalidArgument("shape too large".into()));
        let meta = match shape.len() {
            1 => meta::layout(
                name,
                dtype,
                &Block::new(Domain::from_shape([ext(0)?])?, LocaleGrid::auto(0..nblocks)?),
                nblocks,
            )?,
            2 => meta::layout(
                name,
                dtype,
                &Block::new(Domain::from_shape([ext(0)?, ext(1)?])?, LocaleGrid::auto(0..nblocks)?),
                nblocks,
            )?,
            3 => meta::layout(
                name,
                dtype,
                &Block::new(Domain::from_shape([ext(0)?, ext(1)?, ext(2)?])?, LocaleGrid::auto(0..nblocks)?),
                nblocks,
            )?,
            r => return Err(Error::InvalidArgument(format!("rank {r}: shared arrays have rank 1 to 3"))),
        };
        let dir = dir.as_ref();
        let mut blocks = Vec::with_capacity(nblocks);
        let mut flags = Vec::with_capacity(nblocks);
        for b in &meta.blocks {
            let bytes = usize::try_from(b.bytes).map_err(|_| Error::InvalidArgument("block too large".into()))?;
            // On an error, the blocks made so far are dropped: their files removed.
            let (block, flag) = BlockFile::create(&dir.join(&b.file), bytes)?;
            blocks.push(block);
            flags.push(flag);
        }
        let path = meta::meta_path(dir, name);
        meta.write(&path)?;
        let control = match Control::open(&path, meta.control_offset) {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(e);
            }
        };
        control.bump_generation();
        for (b, f) in flags.iter().enumerate() {
            // Block 0 also takes the metadata file with it if the process exits first.
            f.set(!keep, (b == 0 && !keep).then(|| path.clone()));
        }
        Ok(SharedFile { meta, blocks, control, access: Access::ReadWrite, path, remove_meta: !keep })
    }

    /// The metadata.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The element type.
    pub fn dtype(&self) -> CType {
        self.meta.dtype
    }

    /// The global shape.
    pub fn shape(&self) -> &[u64] {
        &self.meta.shape
    }

    /// The number of blocks.
    pub fn nblocks(&self) -> usize {
        self.blocks.len()
    }

    /// The access it was opened with.
    pub fn access(&self) -> Access {
        self.access
    }

    fn check_block(&self, b: usize) -> Result<()> {
        if b < self.blocks.len() {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!("block {b}: the array has {} blocks", self.blocks.len())))
        }
    }

    fn check_type<T: ShareElem>(&self) -> Result<()> {
        if T::CTYPE == self.meta.dtype {
            Ok(())
        } else {
            Err(meta::bad(&self.path, format!("holds {}, not {}", self.meta.dtype.name(), T::CTYPE.name())))
        }
    }

    /// Block `b`'s elements (row-major over its box, see [`Meta::blocks`]).
    ///
    /// The values may change while the slice lives if another process writes them: order
    /// reads after writes with a [`Signal`], as with any PGAS memory.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for `b` out of range; [`Error::SharedFile`] when `T` is not
    /// the array's element type.
    pub fn block<T: ShareElem>(&self, b: usize) -> Result<&[T]> {
        self.check_block(b)?;
        self.check_type::<T>()?;
        let k = &self.blocks[b];
        // SAFETY: the mapping holds `len` bytes of `T`s (size checked against the metadata,
        // page-aligned), valid for any bit pattern, and lives as long as `self`.
        Ok(unsafe { std::slice::from_raw_parts(k.ptr().cast::<T>(), k.len() / size_of::<T>()) })
    }

    /// Block `b`'s elements, writable (stores reach the file for [`Access::ReadWrite`]).
    ///
    /// # Errors
    /// As [`block`](Self::block).
    pub fn block_mut<T: ShareElem>(&mut self, b: usize) -> Result<&mut [T]> {
        self.check_block(b)?;
        self.check_type::<T>()?;
        let k = &self.blocks[b];
        // SAFETY: as in `block`; `&mut self` makes the slice exclusive in this process.
        Ok(unsafe { std::slice::from_raw_parts_mut(k.ptr().cast::<T>(), k.len() / size_of::<T>()) })
    }

    /// Block `b`'s first byte and its length in bytes, for foreign code (the C ABI).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for `b` out of range.
    pub fn block_raw(&self, b: usize) -> Result<(*mut u8, usize)> {
        self.check_block(b)?;
        Ok((self.blocks[b].ptr(), self.blocks[b].len()))
    }

    /// Every element in global row-major order (a copy; for checks and small arrays).
    ///
    /// # Errors
    /// As [`block`](Self::block).
    pub fn to_vec<T: ShareElem>(&self) -> Result<Vec<T>> {
        self.check_type::<T>()?;
        let shape = &self.meta.shape;
        let total: u64 = shape.iter().product();
        let mut out = vec![T::default(); total as usize];
        for b in 0..self.blocks.len() {
            let info = &self.meta.blocks[b];
            let data = self.block::<T>(b)?;
            let ext: Vec<u64> = info.lo.iter().zip(&info.hi).map(|(l, h)| h - l).collect();
            for (k, &v) in data.iter().enumerate() {
                let (mut rem, mut g) = (k as u64, 0u64);
                let mut idx = vec![0u64; ext.len()];
                for d in (0..ext.len()).rev() {
                    idx[d] = info.lo[d] + rem % ext[d];
                    rem /= ext[d];
                }
                for d in 0..ext.len() {
                    g = g * shape[d] + idx[d];
                }
                out[g as usize] = v;
            }
        }
        Ok(out)
    }

    /// Signal `k` of the array.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for `k` out of range.
    pub fn signal(&self, k: usize) -> Result<Signal<'_>> {
        self.control.signal(k)
    }

    /// The generation counter.
    pub fn generation(&self) -> u64 {
        self.control.generation()
    }

    /// Adds one to the generation counter; returns the new value.
    pub fn bump_generation(&self) -> u64 {
        self.control.bump_generation()
    }
}
