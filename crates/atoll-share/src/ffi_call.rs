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
