//! Where shared arrays' files go and what happens to them when the array is freed.

use std::path::PathBuf;

/// How a shared array is opened: writable (stores reach every process attached) or
/// read-only (a private copy-on-write mapping: the files never change, stores stay local).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read-only.
    ReadOnly,
    /// Read-write.
    ReadWrite,
}

/// Options of [`SharedArray`](crate::SharedArray) and [`SharedFile`](crate::SharedFile).
#[derive(Clone, Debug)]
pub struct ShareOptions {
    /// The directory of the files (default `/dev/shm`, memory-backed).
    pub dir: PathBuf,
    /// Keep the files when the creating array is freed (default: remove them).
    pub keep: bool,
}

impl Default for ShareOptions {
    fn default() -> Self {
        ShareOptions { dir: PathBuf::from("/dev/shm"), keep: false }
    }
}

impl ShareOptions {
    /// Files in `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        ShareOptions { dir: dir.into(), ..Default::default() }
    }

    /// Keep the files after the array is freed.
    pub fn keep(mut self, keep: bool) -> Self {
        self.keep = keep;
        self
    }
}
