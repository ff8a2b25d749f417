//! The locales' memory: freeing arrays, and the budgets.

use crate::handles::Session;
use crate::registry::Registry;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;

fn free(ctx: &Ctx, ids: Vec<u64>) -> Result<()> {
    let reg = Registry::of(ctx);
    let mut r = Ok(());
    for id in ids {
        if let Some(c) = reg.remove(id) {
            r = r.and(c.free());
        }
    }
    r
}

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
    /// Frees arrays.
    pub static FREE: Handler<Vec<u64>, ()> = Handler::new("atoll-session::free", free);

    /// Each locale's (bytes in use, bytes available, limit).
    pub static MEM: Handler<(), (u64, u64, u64)> = Handler::new("atoll-session::mem", mem);
}
