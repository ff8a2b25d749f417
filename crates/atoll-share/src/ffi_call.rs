//! Approach 1 of the Chapel-Grafiki talk: every locale calls a C function with a pointer to its own block
//! (Chapel's `coforall loc in Locales do on loc { call_C(c_ptrTo(A[localSubdomain.low])) }`).

use crate::dtype::ShareElem;
use atoll_array::{Block, DistArray};
use atoll_error::{Error, Result};
use std::ffi::c_void;

/// A C function called once per locale: `(locale, num_locales, block data, block length in
/// elements, global index of the block's first element, user pointer) -> 0 or an error code`.
pub type CBlockFn = unsafe extern "C" fn(u32, u32, *mut c_void, u64, u64, *mut c_void) -> i32;

/// Calls `f` on every locale (each with its own part of the 1-D Block array `a`), all
/// locales at once, and returns when all did. A non-zero return anywhere gives every locale
/// the same error. **Collective.**
///
/// # Safety
/// `f` must be a valid function that reads and writes at most `len` elements of its block
/// and nothing else of the array, keeps no pointer past its return, and is safe to call
/// from this locale's thread with `user`.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the lowest locale whose call returned non-zero.
pub unsafe fn call_c_per_locale<T: ShareElem>(
    a: &mut DistArray<T, 1, Block<1>>,
    f: CBlockFn,
    user: *mut c_void,
) -> Result<()> {
    let ctx = a.ctx().clone();
    let lo = a.dist().local_domain(ctx.id())?.dims()[0].lo() as u64;
    let part = a.local_mut();
    // SAFETY: the caller vouches for `f`; the pointer and length are this locale's part,
    // borrowed mutably for the call.
    let rc =
        unsafe { f(ctx.id() as u32, ctx.num_locales() as u32, part.as_mut_ptr().cast(), part.len() as u64, lo, user) };
    let all: Vec<i32> = ctx.allgather(&rc)?;
    match all.iter().position(|&r| r != 0) {
        Some(l) => Err(Error::InvalidArgument(format!("the C function returned {} on locale {l}", all[l]))),
        None => Ok(()),
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
    let loaded = crate::dl::Symbol::load(library, symbol);
    let sym = ctx.agree(loaded)?;
    // SAFETY: the caller vouches that the symbol has the CBlockFn signature and contract.
    unsafe { call_c_per_locale(a, sym.as_block_fn(), user as usize as *mut c_void) }
}
