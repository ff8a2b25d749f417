//! Arrays whose locales' blocks are shared files (`atoll-share`): made by the session and
//! attached by other processes, and C functions called by every locale on its own block.

use crate::handles::{Array, Session};
use crate::registry::{Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use atoll_share::{ShareOptions, SharedArray};
use serde::{Deserialize, Serialize};

/// A new array `id` of `n` elements of `dtype` whose blocks are files `name` in `dir`
/// (removed with the array unless `keep`).
#[derive(Serialize, Deserialize)]
pub struct MakeShared {
    /// The new array's id.
    pub id: u64,
    /// The name of the shared files.
    pub name: String,
    /// Their folder.
    pub dir: String,
    /// The element type.
    pub dtype: DType,
    /// The number of elements.
    pub n: usize,
    /// Whether the files outlive the array.
    pub keep: bool,
}

fn make_shared_cmd(ctx: &Ctx, MakeShared { id, name, dir, dtype, n, keep }: MakeShared) -> Result<()> {
    let opts = ShareOptions::in_dir(dir).keep(keep);
    let col = match dtype {
        DType::I64 => Col::I(SharedArray::<i64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        DType::U64 => Col::U(SharedArray::<u64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        DType::F64 => Col::F(SharedArray::<f64, 1>::create(ctx, &name, [n], opts)?.into_array()),
        DType::U8 => Col::U8(SharedArray::<u8, 1>::create(ctx, &name, [n], opts)?.into_array()),
        DType::Bool => {
            return Err(Error::InvalidArgument("shared pdarrays hold int64, uint64, float64 or uint8, not bool".into()))
        }
    };
    Registry::of(ctx).insert_pinned(id, col);
    Ok(())
}

/// An array of `n` zeros (int64, uint64, float64 or uint8) whose every locale's block is a
/// memory-mapped file of shared array `name` in `dir` (removed with the array unless `keep`):
/// other processes attach it by name, and the session writes it in place. **Collective.**
pub fn make_shared(s: &Session, name: String, dir: String, dtype: DType, n: usize, keep: bool) -> Result<Array> {
    if dtype == DType::Bool {
        return Err(Error::InvalidArgument("dtype: shared pdarrays hold int64, uint64, float64 or uint8".into()));
    }
    s.new_array(dtype, n, |id| s.exec(&MAKE_SHARED, MakeShared { id, name, dir, dtype, n, keep }))
}

// ----- approach 1: every locale calls a C function with its block --------------------------

/// The C function `symbol` of `library` called by every locale on its block of array `id`, with `user`.
#[derive(Serialize, Deserialize)]
pub struct CallC {
    /// The array.
    pub id: u64,
    /// The shared library.
    pub library: String,
    /// The function's name in it.
    pub symbol: String,
    /// A value passed through to the function.
    pub user: u64,
}

fn call_c_cmd(ctx: &Ctx, CallC { id, library, symbol, user }: CallC) -> Result<()> {
    let col = Registry::of(ctx).get(id)?;
    let mut g = crate::registry::lock(&col);
    // SAFETY: the driver's caller of `call_c` promised a function of the CBlockFn signature
    // (its `# Safety`), as with any foreign call; nothing can check it from here.
    unsafe {
        match &mut *g {
            Col::I(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::U(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::F(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::U8(a) => atoll_share::call_c_symbol_per_locale(a, &library, &symbol, user),
            Col::B(_) => Err(Error::InvalidArgument("call_c: bool arrays have no C element type".into())),
        }
    }
}

/// Every locale loads `library` and calls `symbol(locale, nlocales, data, len, first, user)`
/// on its block of `a`, all at once (`coforall loc in Locales do on loc { f(c_ptrTo(block)) }`).
/// **Collective.**
///
/// # Safety
/// `symbol` must be a function of that signature (`atoll_share::CBlockFn`) that writes at most
/// `len` elements of the block and keeps no pointer to it, as with any foreign call.
pub unsafe fn call_c(s: &Session, a: &Array, library: String, symbol: String, user: u64) -> Result<()> {
    s.exec(&CALL_C, CallC { id: a.id, library, symbol, user })
}

commands! {
    /// A new zeroed array `id` whose locales' blocks are the files of shared array `name`.
    pub static MAKE_SHARED: Handler<MakeShared, ()> =
        Handler::new("atoll-session::make_shared", make_shared_cmd);

    /// Every locale calls `symbol` of `library` with its block.
    pub static CALL_C: Handler<CallC, ()> = Handler::new("atoll-session::call_c", call_c_cmd);
}
