//! The only memory mapping code of the crate: files created exclusively (`O_EXCL`,
//! `O_NOFOLLOW`, mode 0600) or opened without following links, and `mmap`/`munmap` of them.

use atoll_error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;

fn file_err(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::SharedFile { path: path.display().to_string(), reason: reason.to_string() }
}

/// Creates `path` exclusively (never reusing or following an existing file or link), mode
/// 0600, of `len` zero bytes.
pub(crate) fn create_exclusive(path: &Path, len: u64) -> Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| file_err(path, format!("cannot create it exclusively: {e}")))?;
    if let Err(e) = f.set_len(len) {
        let _ = std::fs::remove_file(path);
        return Err(file_err(path, format!("cannot size it to {len} bytes: {e}")));
    }
    Ok(f)
}

/// Opens an existing regular file without following a symbolic link.
pub(crate) fn open_existing(path: &Path, write: bool) -> Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .write(write)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| file_err(path, format!("cannot open it: {e}")))?;
    let md = f.metadata().map_err(|e| file_err(path, e))?;
    let ft = md.file_type();
    if !md.is_file() || ft.is_fifo() || ft.is_socket() {
        return Err(file_err(path, "not a regular file"));
    }
    Ok(f)
}

/// How a file is mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MapMode {
    /// Shared, readable and writable: stores reach the file and every process mapping it.
    SharedWrite,
    /// As `SharedWrite`, with the page tables filled at once (`MAP_POPULATE`): for attaching
    /// to existing data, whose first pass then runs at the speed of a private array's.
    SharedPopulated,
    /// Private copy-on-write: the file is never changed; stores stay in this process (a
    /// read-only attach cannot crash on a store). Not populated: that would copy every page.
    Private,
}

/// A mapping of `len` bytes of a file, unmapped on drop.
pub(crate) struct Mapping {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: a mapping is plain memory; access to it follows the PGAS contract of its users.
unsafe impl Send for Mapping {}
// SAFETY: as above.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps `len > 0` bytes of `file` from `offset` (a multiple of the page size). The caller
    /// has checked that the file is at least `offset + len` bytes long.
    pub(crate) fn map(file: &File, path: &Path, offset: u64, len: usize, mode: MapMode) -> Result<Mapping> {
        if len == 0 {
            return Err(file_err(path, "cannot map 0 bytes"));
        }
        let flags = match mode {
            MapMode::SharedWrite => libc::MAP_SHARED,
            // MAP_POPULATE is Linux's; elsewhere the pages fault in on first use.
            #[cfg(target_os = "linux")]
            MapMode::SharedPopulated => libc::MAP_SHARED | libc::MAP_POPULATE,
            #[cfg(not(target_os = "linux"))]
            MapMode::SharedPopulated => libc::MAP_SHARED,
            MapMode::Private => libc::MAP_PRIVATE,
        };
        let off = libc::off_t::try_from(offset).map_err(|_| file_err(path, "offset out of range"))?;
        // SAFETY: a new mapping at an address the kernel chooses; it aliases no Rust object.
        // The fd is valid for the call (the mapping outlives it, as mmap allows).
        let p = unsafe {
            libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, flags, file.as_raw_fd(), off)
        };
        if p == libc::MAP_FAILED {
            return Err(file_err(path, format!("mmap failed: {}", std::io::Error::last_os_error())));
        }
        Ok(Mapping { ptr: p.cast(), len })
    }

    /// The first byte.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// The mapped bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: exactly the region `map` created; nothing borrows it past this value (users
        // hold the mapping alive while they use pointers into it).
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}
