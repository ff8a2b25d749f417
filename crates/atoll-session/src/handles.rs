//! The handles the commands use: the running job's [`Session`] (its driver, and the
//! generation that tells this session's arrays from an earlier one's), the ids of the arrays it
//! registers, and the [`Array`] handles that free them. Starting and stopping the job is
//! `session.rs`'s, above the commands.

use crate::commands::arrays::FREE;
use crate::types::DType;
use atoll::runtime::{Driver, Handler};
use atoll::util::sync::lock;
use atoll::Result;
use serde::{de::DeserializeOwned, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A running job, as the commands see it: its driver and its generation (arrays of an earlier
/// session of the process are not this one's).
#[derive(Clone)]
pub struct Session {
    pub(crate) driver: Arc<Driver>,
    pub(crate) generation: u64,
}

/// The running job, if any (set and taken by `session::start`/`stop`).
pub(crate) static SESSION: Mutex<Option<Session>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Small arrays dropped since the last batch: freeing is a collective command, so small
/// arrays (temporaries of short expressions) are freed in batches.
pub(crate) static DEFERRED_FREES: Mutex<Vec<u64>> = Mutex::new(Vec::new());
/// Arrays freed one by one: from this size up (bytes), the memory goes back at once.
const SMALL_BYTES: usize = 1 << 20;
/// Small arrays freed together.
const FREE_BATCH: usize = 64;

/// True while a job runs.
pub fn running() -> bool {
    lock(&SESSION).is_some()
}

/// The generation of the running session (0 when none runs).
pub fn generation() -> u64 {
    lock(&SESSION).as_ref().map_or(0, |s| s.generation)
}

impl Session {
    /// The running session, if any (none is started: what a handle's `Drop` uses).
    pub fn running() -> Option<Session> {
        lock(&SESSION).clone()
    }

    /// The driver.
    pub fn driver(&self) -> &Driver {
        &self.driver
    }

    /// The session's generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The number of locales.
    pub fn num_locales(&self) -> usize {
        self.driver.num_locales()
    }

    /// Runs command `h(args)` on every locale; returns locale 0's result. **Collective.**
    pub fn exec<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<R>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        Ok(self.exec_all(h, args)?.swap_remove(0))
    }

    /// Like [`Session::exec`], every locale's result.
    pub fn exec_all<A, R>(&self, h: &'static Handler<A, R>, args: A) -> Result<Vec<R>>
    where
        A: Serialize + DeserializeOwned + Send + 'static,
        R: Serialize + DeserializeOwned + Send + 'static,
    {
        self.driver.exec(h, args)
    }

    /// A new array of `len` elements registered as the id that `make` is given (it runs the
    /// command that registers it).
    pub fn new_array(&self, dtype: DType, len: usize, make: impl FnOnce(u64) -> Result<()>) -> Result<Array> {
        let id = next_id();
        make(id)?;
        Ok(Array { id, dtype, len, generation: self.generation })
    }

    /// As [`Session::new_array`], the command telling the length.
    pub fn new_array_len(&self, dtype: DType, make: impl FnOnce(u64) -> Result<u64>) -> Result<Array> {
        let id = next_id();
        let len = make(id)? as usize;
        Ok(Array { id, dtype, len, generation: self.generation })
    }

    /// Frees the arrays dropped since the last batch. **Collective** (a command).
    pub fn flush_frees(&self) -> Result<()> {
        let ids = std::mem::take(&mut *lock(&DEFERRED_FREES));
        if ids.is_empty() {
            return Ok(());
        }
        self.exec(&FREE, ids)
    }
}

/// A fresh array id.
pub fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// The first of `k` consecutive fresh ids (commands that register several results).
pub fn next_ids(k: u64) -> u64 {
    NEXT_ID.fetch_add(k, Ordering::Relaxed)
}

/// A registered array: its id on every locale, dtype, length and session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Array {
    /// The id in every locale's registry.
    pub id: u64,
    /// The element type.
    pub dtype: DType,
    /// The number of elements.
    pub len: usize,
    /// The session that registered it.
    pub generation: u64,
}

impl Array {
    /// Frees the array on every locale (small ones in batches), unless its session has ended.
    /// **Collective** (a command, when a batch is due). Errors are dropped: this is what a
    /// handle's `Drop` calls.
    pub fn release(&self) {
        if self.generation != generation() {
            return;
        }
        let ids = {
            let mut d = lock(&DEFERRED_FREES);
            d.push(self.id);
            if self.len.saturating_mul(8) < SMALL_BYTES && d.len() < FREE_BATCH {
                return;
            }
            std::mem::take(&mut *d)
        };
        if let Some(s) = Session::running() {
            let _ = s.exec(&FREE, ids);
        }
    }
}
