//! Zero-copy sharing of Atoll arrays with other processes.
//!
//! - [`SharedArray`]: a Block-distributed `DistArray` whose locales' parts are memory-mapped
//!   files (default under `/dev/shm`), named by a small metadata file (`meta.rs` documents the
//!   format). Files are created exclusively (`O_EXCL | O_NOFOLLOW`, mode 0600) and removed when
//!   the creator frees the array unless asked to keep them. Everything else about the array
//!   is the ordinary `DistArray` code: the only hook is `DistArray::from_external`.
//! - [`SharedArray::attach`] opens an existing one from another Atoll job; [`SharedFile`] from
//!   any process (its blocks as slices or raw pointers); both validate the files first and
//!   report a truncated, foreign or corrupt file as [`atoll_error::Error::SharedFile`].
//! - [`Signal`]: counting semaphores on futex words in the metadata file's control page, with
//!   timeouts (a dead peer is [`atoll_error::Error::Timeout`], not a hang), working across
//!   PID/IPC/mount namespaces.
//! - [`call_c_per_locale`]: each locale calls a C function with a pointer to its block (approach 1
//!   of the Chapel-Grafiki talk); [`call_c_symbol_per_locale`] names it by library and symbol.
//!
//! `unsafe` lives in `mmap.rs`, `futex.rs`, `exit.rs` (the `atexit` registration), `dl.rs` (dlopen/dlsym), and the few casts of `control.rs`, `block.rs`,
//! `file.rs` and `ffi_call.rs`, each with its `SAFETY` comment.

mod array;
mod block;
mod control;
mod dl;
mod dtype;
mod exit;
mod ffi_call;
mod file;
mod futex;
pub mod meta;
mod mmap;
mod options;
mod signal;

pub use array::SharedArray;
pub use dl::call_c_symbol_per_locale;
pub use dtype::{CType, ShareElem};
pub use ffi_call::{call_c_per_locale, CBlockFn};
pub use file::SharedFile;
pub use meta::Meta;
pub use options::{Access, ShareOptions};
pub use signal::{Signal, NUM_SIGNALS};
