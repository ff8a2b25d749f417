//! Agreeing on one outcome across locales.

use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// Every locale's `r` combined: `Ok` everywhere when every locale succeeded, otherwise the
/// lowest failing locale's error on every locale. **Collective.**
pub(crate) fn agree<T>(ctx: &Ctx, r: Result<T>) -> Result<T> {
    let mine: Option<Error> = r.as_ref().err().cloned();
    let all = ctx.allgather(&mine)?;
    match all.into_iter().flatten().next() {
        Some(e) => Err(e),
        None => r,
    }
}
