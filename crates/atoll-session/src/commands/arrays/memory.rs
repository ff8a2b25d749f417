//! The locales' memory budgets.

use crate::handles::Session;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;

fn mem(ctx: &Ctx, _: ()) -> Result<(u64, u64, u64)> {
    let b = ctx.budget();
    Ok((b.in_use(), b.available(), b.limit()))
}

/// Every locale's (bytes in use, bytes available, limit), after the arrays dropped since the
/// last batch are freed. **Collective.**
pub fn mem_status(s: &Session) -> Result<Vec<(u64, u64, u64)>> {
    s.flush_frees()?;
    s.exec_all(&MEM, ())
}

commands! {
    /// Each locale's (bytes in use, bytes available, limit).
    pub static MEM: Handler<(), (u64, u64, u64)> = Handler::new("atoll-session::mem", mem);
}
