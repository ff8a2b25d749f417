//! Loading a C function by library path and symbol name (`dlopen`/`dlsym`), and
//! [`call_c_symbol_per_locale`], which calls it on every locale.

use crate::dtype::ShareElem;
use crate::ffi_call::{call_c_per_locale, CBlockFn};
use atoll_array::{Block, DistArray};
use atoll_error::{Error, Result};
use std::ffi::{c_void, CStr, CString};

/// A symbol of a loaded library; the library is released when this is dropped.
pub(crate) struct Symbol {
    handle: *mut c_void,
    addr: *mut c_void,
}

fn dl_error(what: String) -> Error {
    // SAFETY: dlerror returns NULL or a NUL-terminated message owned by the loader, valid
    // until the next loader call on this thread (it is copied at once).
    let detail = unsafe {
        let msg = libc::dlerror();
        if msg.is_null() {
            String::new()
        } else {
            CStr::from_ptr(msg).to_string_lossy().into_owned()
        }
    };
    Error::InvalidArgument(format!("{what}: {detail}"))
}

impl Symbol {
    /// Loads `library` (now, locally) and finds `symbol` in it.
    pub(crate) fn load(library: &str, symbol: &str) -> Result<Symbol> {
        let lib = CString::new(library).map_err(|_| Error::InvalidArgument("library path contains NUL".into()))?;
        let sym = CString::new(symbol).map_err(|_| Error::InvalidArgument("symbol contains NUL".into()))?;
        // SAFETY: a valid NUL-terminated path; loading runs the library's initializers, which
        // the caller of `call_c_symbol_per_locale` accepted.
        let handle = unsafe { libc::dlopen(lib.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(dl_error(format!("cannot load {library}")));
        }
        // SAFETY: a live handle and a NUL-terminated name.
        let addr = unsafe { libc::dlsym(handle, sym.as_ptr()) };
        if addr.is_null() {
            let e = dl_error(format!("no symbol {symbol} in {library}"));
            // SAFETY: the handle from dlopen above, released once.
            unsafe { libc::dlclose(handle) };
            return Err(e);
        }
        Ok(Symbol { handle, addr })
    }

    /// The symbol as a block function.
    ///
    /// # Safety
    /// The symbol is a function of the [`CBlockFn`] signature.
    pub(crate) unsafe fn as_block_fn(&self) -> CBlockFn {
        // SAFETY: a non-null code address of the loaded library (kept loaded by `self`, which
        // outlives the call in `call_c_symbol_per_locale`); the signature is the caller's word.
        unsafe { std::mem::transmute::<*mut c_void, CBlockFn>(self.addr) }
    }
}

impl Drop for Symbol {
    fn drop(&mut self) {
        // SAFETY: the handle from dlopen, released once; no pointer into it is used afterwards.
        unsafe { libc::dlclose(self.handle) };
    }
}

/// [`call_c_per_locale`] with the function named by `symbol` in the shared library `library`,
/// loaded on every locale (`dlopen`: under MPI each rank loads it, so no address crosses
/// processes) and `user` passed as the pointer argument. For callers that cannot hold a
/// function pointer valid on every locale (Python: `atoll.share.call_c`). **Collective.**
///
/// # Safety
/// `symbol` must be a function of the [`CBlockFn`] signature with the contract of
/// [`call_c_per_locale`] (given `user` cast to a pointer); loading `library` runs its
/// initializers.
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] when a locale cannot load the library or find
/// the symbol (with the loader's message), or as [`call_c_per_locale`].
pub unsafe fn call_c_symbol_per_locale<T: ShareElem>(
    a: &mut DistArray<T, 1, Block<1>>,
    library: &str,
    symbol: &str,
    user: u64,
) -> Result<()> {
    let ctx = a.ctx().clone();
    let loaded = Symbol::load(library, symbol);
    let sym = ctx.agree(loaded)?;
    // SAFETY: the caller vouches that the symbol has the CBlockFn signature and contract.
    unsafe { call_c_per_locale(a, sym.as_block_fn(), user as usize as *mut c_void) }
}
