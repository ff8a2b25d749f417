//! The arrays of a Python session, kept on every locale between commands: a per-locale map
//! (`Ctx::locale_ext`) from the id that the Python object holds to the locale's handle.

use atoll::runtime::Ctx;
use atoll::util::sync::into_inner;
use atoll::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A 1-D Block array of one of the dtypes (`atoll-array`'s numeric column).
pub use atoll::array::dtype::Col;

/// One locale's live arrays.
#[derive(Default)]
pub struct Registry {
    arrays: Mutex<HashMap<u64, Arc<Mutex<Col>>>>,
    /// Arrays whose storage others see (shared files): written in place, never replaced.
    pinned: Mutex<std::collections::HashSet<u64>>,
}

impl Registry {
    /// This locale's registry.
    pub fn of(ctx: &Ctx) -> Arc<Registry> {
        ctx.locale_ext::<Registry>()
    }

    /// The array `id`.
    pub fn get(&self, id: u64) -> Result<Arc<Mutex<Col>>> {
        let g = lock(&self.arrays);
        g.get(&id).cloned().ok_or_else(|| {
            Error::InvalidArgument(format!("no array with id {id} (it was freed, or belongs to an earlier session)"))
        })
    }

    /// Registers `col` as `id`.
    pub fn insert(&self, id: u64, col: Col) {
        lock(&self.arrays).insert(id, Arc::new(Mutex::new(col)));
    }

    /// Registers `col` as `id`, an array whose storage must stay in place (other processes
    /// map it): an assignment writes into it rather than replacing it.
    pub fn insert_pinned(&self, id: u64, col: Col) {
        lock(&self.pinned).insert(id);
        self.insert(id, col);
    }

    /// Whether `id`'s storage must stay in place.
    pub fn is_pinned(&self, id: u64) -> bool {
        lock(&self.pinned).contains(&id)
    }

    /// Removes `id` (its storage is freed by the caller).
    pub fn remove(&self, id: u64) -> Option<Col> {
        lock(&self.pinned).remove(&id);
        let a = lock(&self.arrays).remove(&id)?;
        Arc::try_unwrap(a).ok().map(into_inner)
    }
}

/// Locks a column (or any of the crate's locks): the poison-tolerant lock of `atoll-util`.
pub use atoll::util::sync::lock;
