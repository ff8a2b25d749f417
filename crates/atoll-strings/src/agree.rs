//! Collective agreement on errors: every locale returns the same error, or none.

use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// `r` on every locale if no locale failed; otherwise the lowest failing locale's error on
/// every locale (one allgather). **Collective.**
pub(crate) fn agree<T>(ctx: &Ctx, r: Result<T>) -> Result<T> {
    let mine: Option<Error> = r.as_ref().err().cloned();
    let all: Vec<Option<Error>> = ctx.allgather(&mine)?;
    match all.into_iter().flatten().next() {
        Some(e) => Err(e),
        None => r,
    }
}
