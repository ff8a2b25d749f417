//! One block file and its mapping: the owner of a locale's part of a shared array.

use crate::exit::Cleanup;
use crate::mmap::{self, MapMode, Mapping};
use atoll_error::Result;
use atoll_runtime::ExternalBlock;
use atoll_util::sync::lock;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A block file mapped into memory (`None` for an empty block), removed when dropped as its
/// [`Cleanup`] says.
pub(crate) struct BlockFile {
    map: Option<Mapping>,
    path: PathBuf,
    remove: Arc<Cleanup>,
}

impl BlockFile {
    /// Creates the file exclusively, `bytes` long (zeros), mapped shared. The returned flag
    /// says whether dropping the block removes the file (initially yes).
    pub(crate) fn create(path: &Path, bytes: usize) -> Result<(BlockFile, Arc<Cleanup>)> {
        let f = mmap::create_exclusive(path, bytes as u64)?;
        let remove = Arc::new(Cleanup { remove: AtomicBool::new(true), also: Mutex::new(None) });
        crate::exit::track(path.to_path_buf(), &remove);
        let mut block = BlockFile { map: None, path: path.to_path_buf(), remove: remove.clone() };
        if bytes > 0 {
            // On failure `block` is dropped: the new file is removed.
            block.map = Some(Mapping::map(&f, path, 0, bytes, MapMode::SharedWrite)?);
        }
        Ok((block, remove))
    }

    /// Opens an existing block file of exactly `bytes` bytes: shared (`write`) or private.
    pub(crate) fn open(path: &Path, bytes: u64, write: bool) -> Result<BlockFile> {
        let f = mmap::open_existing(path, write)?;
        let size = f.metadata().map_err(|e| crate::meta::bad(path, e))?.len();
        if size != bytes {
            return Err(crate::meta::bad(
                path,
                format!("truncated or foreign: {size} bytes, the metadata says {bytes}"),
            ));
        }
        let bytes = usize::try_from(bytes).map_err(|_| crate::meta::bad(path, "too large to map"))?;
        let mode = if write { MapMode::SharedPopulated } else { MapMode::Private };
        let map = if bytes > 0 { Some(Mapping::map(&f, path, 0, bytes, mode)?) } else { None };
        Ok(BlockFile { map, path: path.to_path_buf(), remove: Arc::new(Cleanup::default()) })
    }

    /// The first byte (dangling when empty).
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.map.as_ref().map_or(std::ptr::NonNull::<u64>::dangling().as_ptr().cast(), Mapping::ptr)
    }

    /// The block's bytes.
    pub(crate) fn len(&self) -> usize {
        self.map.as_ref().map_or(0, Mapping::len)
    }

    /// This block as the storage of an array's local part.
    pub(crate) fn into_external(self) -> ExternalBlock {
        let (ptr, len) = (self.ptr(), self.len());
        // SAFETY: the mapping is `len` readable, writable, initialized bytes (file contents),
        // page-aligned, and lives until the owner (this BlockFile) is dropped with the block.
        unsafe { ExternalBlock::new(ptr, len, Box::new(self)) }
    }
}

impl Drop for BlockFile {
    fn drop(&mut self) {
        self.map = None;
        crate::exit::forget(&self.remove);
        if self.remove.remove.load(Ordering::SeqCst) {
            let _ = std::fs::remove_file(&self.path);
            if let Some(also) = lock(&self.remove.also).take() {
                let _ = std::fs::remove_file(also);
            }
        }
    }
}
