//! The C ABI of shared arrays, declared in `include/atoll.h` (checked against this file by
//! `tests/header.rs`). No Rust type crosses the boundary: handles are opaque pointers, every
//! function returns an `atoll_status` code, and the message of the last error of the calling
//! thread is `atoll_last_error()`. Panics never unwind into C (they become `ATOLL_E_OTHER`).

use atoll_error::Error;
use atoll_share::{Access, CType, SharedFile};
use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// Success.
pub const ATOLL_OK: i32 = 0;
/// A bad argument (null pointer, index out of range, bad name).
pub const ATOLL_E_INVALID: i32 = 1;
/// A missing, truncated, foreign or corrupt shared-array file.
pub const ATOLL_E_FILE: i32 = 2;
/// A wait timed out (the peer may be gone).
pub const ATOLL_E_TIMEOUT: i32 = 3;
/// An operating-system error.
pub const ATOLL_E_IO: i32 = 4;
/// Any other failure (an internal error).
pub const ATOLL_E_OTHER: i32 = 5;

thread_local! {
    static LAST: RefCell<CString> = RefCell::new(CString::default());
}

fn fail(code: i32, msg: String) -> i32 {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST.with(|l| *l.borrow_mut() = c);
    code
}

fn status(e: Error) -> i32 {
    let code = match e {
        Error::InvalidArgument(_) => ATOLL_E_INVALID,
        Error::SharedFile { .. } => ATOLL_E_FILE,
        Error::Timeout { .. } => ATOLL_E_TIMEOUT,
        Error::Io(_) => ATOLL_E_IO,
        _ => ATOLL_E_OTHER,
    };
    fail(code, e.to_string())
}

/// Runs `f`, turning errors and panics into status codes.
fn guard(f: impl FnOnce() -> Result<(), Error>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => ATOLL_OK,
        Ok(Err(e)) => status(e),
        Err(_) => fail(ATOLL_E_OTHER, "internal error (panic) in the Atoll C API".into()),
    }
}

fn null(what: &str) -> Error {
    Error::InvalidArgument(format!("{what} is NULL"))
}

/// An open shared array (opaque to C).
pub struct AtollArray {
    file: SharedFile,
}

/// # Safety
/// `a` is NULL or a handle from `atoll_open` not yet closed.
unsafe fn handle<'a>(a: *const AtollArray) -> Result<&'a AtollArray, Error> {
    // SAFETY: by the caller's contract.
    unsafe { a.as_ref() }.ok_or_else(|| null("the array handle"))
}

/// # Safety
/// `p` is NULL or points to a writable `T`.
unsafe fn out<T>(p: *mut T, v: T, what: &str) -> Result<(), Error> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null and writable by the caller's contract.
    unsafe { p.write(v) };
    Ok(())
}

/// The message of the calling thread's last error ("" if none). Valid until the thread's next
/// failing call.
#[no_mangle]
pub extern "C" fn atoll_last_error() -> *const c_char {
    LAST.with(|l| l.borrow().as_ptr())
}

/// Opens shared array `name` in `dir` (NULL: `/dev/shm`), writable or not, into `*out`.
///
/// # Safety
/// `name` and `dir` (if not NULL) are NUL-terminated strings; `out` points to a writable handle.
#[no_mangle]
pub unsafe extern "C" fn atoll_open(
    name: *const c_char,
    dir: *const c_char,
    writable: i32,
    out_handle: *mut *mut AtollArray,
) -> i32 {
    guard(|| {
        if name.is_null() {
            return Err(null("name"));
        }
        // SAFETY: NUL-terminated by the caller's contract.
        let name =
            unsafe { CStr::from_ptr(name) }.to_str().map_err(|_| Error::InvalidArgument("name is not UTF-8".into()))?;
        let dir = if dir.is_null() {
            "/dev/shm".to_string()
        } else {
            // SAFETY: as above.
            unsafe { CStr::from_ptr(dir) }
                .to_str()
                .map_err(|_| Error::InvalidArgument("dir is not UTF-8".into()))?
                .to_string()
        };
        if out_handle.is_null() {
            return Err(null("out"));
        }
        let access = if writable != 0 { Access::ReadWrite } else { Access::ReadOnly };
        let file = SharedFile::open(name, &dir, access)?;
        // SAFETY: checked non-null, writable by contract.
        unsafe { out(out_handle, Box::into_raw(Box::new(AtollArray { file })), "out") }
    })
}

/// Closes a handle (unmaps the array; the files stay). NULL is a no-op.
///
/// # Safety
/// `a` is NULL or an open handle, not used after this call.
#[no_mangle]
pub unsafe extern "C" fn atoll_close(a: *mut AtollArray) -> i32 {
    guard(|| {
        if !a.is_null() {
            // SAFETY: a handle from `atoll_open`, closed once.
            drop(unsafe { Box::from_raw(a) });
        }
        Ok(())
    })
}

/// The element type code (`ATOLL_I8` ... `ATOLL_F64`) into `*dtype`.
///
/// # Safety
/// `a` is an open handle; `dtype` points to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn atoll_dtype(a: *const AtollArray, dtype: *mut u32) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { out(dtype, handle(a)?.file.dtype() as u32, "dtype") })
}

/// Bytes per element of type code `dtype` (0 for an unknown code).
#[no_mangle]
pub extern "C" fn atoll_dtype_size(dtype: u32) -> u64 {
    CType::from_code(dtype).map_or(0, |d| d.size() as u64)
}

/// The rank (1 to 3) into `*rank`.
///
/// # Safety
/// `a` is an open handle; `rank` points to a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn atoll_rank(a: *const AtollArray, rank: *mut u32) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { out(rank, handle(a)?.file.shape().len() as u32, "rank") })
}

/// The global shape into `shape[0..rank]`.
///
/// # Safety
/// `a` is an open handle; `shape` points to `rank` writable `uint64_t`s.
#[no_mangle]
pub unsafe extern "C" fn atoll_shape(a: *const AtollArray, shape: *mut u64) -> i32 {
    guard(|| {
        // SAFETY: by the caller's contract.
        let s = unsafe { handle(a)? }.file.shape();
        for (d, &x) in s.iter().enumerate() {
            // SAFETY: `shape` has `rank` entries by contract (null checked in `out`).
            unsafe { out(if shape.is_null() { shape } else { shape.add(d) }, x, "shape")? };
        }
        Ok(())
    })
}

/// The number of blocks into `*n`.
///
/// # Safety
/// `a` is an open handle; `n` points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn atoll_nblocks(a: *const AtollArray, n: *mut u64) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { out(n, handle(a)?.file.nblocks() as u64, "n") })
}

/// Block `b`: its global box `lo[d]..hi[d]` per dimension (each array of `rank` entries;
/// either may be NULL), its data pointer (row-major over the box) and its length in
/// elements. The pointer is valid until `atoll_close`.
///
/// # Safety
/// `a` is an open handle; non-NULL `lo`/`hi` point to `rank` writable `uint64_t`s; `data` and
/// `len` point to writable values.
#[no_mangle]
pub unsafe extern "C" fn atoll_block(
    a: *const AtollArray,
    b: u64,
    lo: *mut u64,
    hi: *mut u64,
    data: *mut *mut c_void,
    len: *mut u64,
) -> i32 {
    guard(|| {
        // SAFETY: by the caller's contract.
        let f = &unsafe { handle(a)? }.file;
        let (ptr, bytes) = f.block_raw(b as usize)?;
        let info = &f.meta().blocks[b as usize];
        for d in 0..info.lo.len() {
            // SAFETY: `rank` entries each, by contract.
            unsafe {
                if !lo.is_null() {
                    lo.add(d).write(info.lo[d]);
                }
                if !hi.is_null() {
                    hi.add(d).write(info.hi[d]);
                }
            }
        }
        // SAFETY: writable by contract (null checked).
        unsafe {
            out(data, ptr.cast::<c_void>(), "data")?;
            out(len, (bytes / f.dtype().size()) as u64, "len")
        }
    })
}

/// Adds `n` to signal `k` and wakes up to `n` waiters (in any process attached).
///
/// # Safety
/// `a` is an open handle.
#[no_mangle]
pub unsafe extern "C" fn atoll_signal_post(a: *const AtollArray, k: u32, n: u32) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { handle(a)? }.file.signal(k as usize)?.post(n))
}

/// Takes one post of signal `k`, sleeping at most `timeout_ms` (then `ATOLL_E_TIMEOUT`).
///
/// # Safety
/// `a` is an open handle.
#[no_mangle]
pub unsafe extern "C" fn atoll_signal_wait(a: *const AtollArray, k: u32, timeout_ms: u64) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { handle(a)? }.file.signal(k as usize)?.wait(Duration::from_millis(timeout_ms)))
}

/// The generation counter into `*g`.
///
/// # Safety
/// `a` is an open handle; `g` points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn atoll_generation(a: *const AtollArray, g: *mut u64) -> i32 {
    // SAFETY: by the caller's contract.
    guard(|| unsafe { out(g, handle(a)?.file.generation(), "g") })
}

/// Adds one to the generation counter; the new value into `*g` (may be NULL).
///
/// # Safety
/// `a` is an open handle; `g` is NULL or points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn atoll_bump_generation(a: *const AtollArray, g: *mut u64) -> i32 {
    guard(|| {
        // SAFETY: by the caller's contract.
        let v = unsafe { handle(a)? }.file.bump_generation();
        if !g.is_null() {
            // SAFETY: non-null, writable by contract.
            unsafe { g.write(v) };
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_set_codes_and_messages() {
        let mut h: *mut AtollArray = std::ptr::null_mut();
        // SAFETY: valid strings and out pointer.
        let rc = unsafe { atoll_open(c"no-such-array".as_ptr(), c"/nonexistent-dir".as_ptr(), 0, &mut h) };
        assert_eq!(rc, ATOLL_E_FILE);
        // SAFETY: the thread's message is a NUL-terminated string.
        let msg = unsafe { CStr::from_ptr(atoll_last_error()) }.to_str().unwrap().to_string();
        assert!(msg.contains("cannot open"), "{msg}");
        // SAFETY: null handle checks.
        assert_eq!(unsafe { atoll_signal_post(std::ptr::null(), 0, 1) }, ATOLL_E_INVALID);
        // SAFETY: a null name.
        assert_eq!(unsafe { atoll_open(std::ptr::null(), std::ptr::null(), 0, &mut h) }, ATOLL_E_INVALID);
        assert_eq!(atoll_dtype_size(10), 8);
        assert_eq!(atoll_dtype_size(77), 0);
        // SAFETY: NULL is a no-op.
        assert_eq!(unsafe { atoll_close(std::ptr::null_mut()) }, ATOLL_OK);
    }
}
