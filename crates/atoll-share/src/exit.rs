//! Files of arrays still alive when the process exits (a Python session that ends with its
//! shared pdarrays referenced, an MPI rank that leaves through `exit`) are removed then too,
//! unless they were to be kept: the block files' owners are listed here while they live, and
//! one `atexit` handler removes what is left.

use atoll_util::sync::lock;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, Weak};

/// What a block file's owner removes when dropped: its file if `remove` is set, and then
/// `also` (the metadata file, for the creator's locale 0: the array's files go with its
/// memory however the array is freed).
#[derive(Default)]
pub(crate) struct Cleanup {
    pub(crate) remove: AtomicBool,
    pub(crate) also: Mutex<Option<PathBuf>>,
}

impl Cleanup {
    /// Sets whether the file goes, and what else goes with it.
    pub(crate) fn set(&self, remove: bool, also: Option<PathBuf>) {
        self.remove.store(remove, Ordering::SeqCst);
        *lock(&self.also) = also;
    }
}

type Live = Vec<(PathBuf, Weak<Cleanup>)>;
static LIVE: Mutex<Live> = Mutex::new(Vec::new());
static REGISTER: Once = Once::new();

extern "C" fn at_exit() {
    // At exit nothing waits for this lock: skip (rather than block) if a thread holds it.
    let Ok(live) = LIVE.try_lock() else { return };
    for (path, weak) in live.iter() {
        if let Some(c) = weak.upgrade() {
            if c.remove.load(Ordering::SeqCst) {
                let _ = std::fs::remove_file(path);
                if let Ok(also) = c.also.try_lock() {
                    if let Some(p) = also.as_ref() {
                        let _ = std::fs::remove_file(p);
                    }
                }
            }
        }
    }
}

/// Lists a created block file (with its cleanup) until [`forget`] is called for it.
pub(crate) fn track(path: PathBuf, cleanup: &Arc<Cleanup>) {
    REGISTER.call_once(|| {
        // SAFETY: `at_exit` is a plain `extern "C"` function with no arguments that never
        // unwinds (it only takes a lock without blocking and removes files).
        unsafe { libc::atexit(at_exit) };
    });
    lock(&LIVE).push((path, Arc::downgrade(cleanup)));
}

/// Drops the entry of `cleanup` (its block file's owner is gone).
pub(crate) fn forget(cleanup: &Arc<Cleanup>) {
    let mut live = lock(&LIVE);
    live.retain(|(_, w)| !std::ptr::eq(w.as_ptr(), Arc::as_ptr(cleanup)) && w.strong_count() > 0);
}
