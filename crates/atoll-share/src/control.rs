//! The control page of a shared array (in its metadata file, after the header): a
//! generation counter and [`NUM_SIGNALS`] signals, mapped shared by every process attached.

use crate::meta::CONTROL_BYTES;
use crate::mmap::{MapMode, Mapping};
use crate::signal::{Signal, Slot, NUM_SIGNALS};
use atoll_error::{Error, Result};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

#[repr(C)]
struct Page {
    generation: AtomicU64,
    _pad: [u64; 7],
    slots: [Slot; NUM_SIGNALS],
}

const _: () = assert!(std::mem::size_of::<Page>() <= CONTROL_BYTES);

/// The mapped control page.
pub(crate) struct Control {
    map: Mapping,
}

impl Control {
    /// Maps the control page of the metadata file at `path`, at `offset`.
    pub(crate) fn open(path: &Path, offset: u64) -> Result<Control> {
        let f = crate::mmap::open_existing(path, true)?;
        let map = Mapping::map(&f, path, offset, CONTROL_BYTES, MapMode::SharedWrite)?;
        Ok(Control { map })
    }

    fn page(&self) -> &Page {
        debug_assert!(self.map.len() >= std::mem::size_of::<Page>());
        // SAFETY: the mapping is page-aligned, at least `size_of::<Page>()` bytes, lives as
        // long as `self`, and `Page` is only atomics (valid for every bit pattern, and the
        // right way to share words with other processes).
        unsafe { &*self.map.ptr().cast::<Page>() }
    }

    /// The generation counter.
    pub(crate) fn generation(&self) -> u64 {
        self.page().generation.load(SeqCst)
    }

    /// Adds one to the generation counter and returns the new value.
    pub(crate) fn bump_generation(&self) -> u64 {
        self.page().generation.fetch_add(1, SeqCst) + 1
    }

    /// Signal `k`.
    pub(crate) fn signal(&self, k: usize) -> Result<Signal<'_>> {
        let slot = self.page().slots.get(k).ok_or_else(|| {
            Error::InvalidArgument(format!("signal {k}: a shared array has signals 0..{NUM_SIGNALS}"))
        })?;
        Ok(Signal::new(slot, k))
    }
}
