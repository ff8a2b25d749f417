//! Freeing arrays on every locale. Apart from the other commands: the handles
//! (`handles.rs`) free through it, so it names nothing of theirs.

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

commands! {
    /// Frees arrays.
    pub static FREE: Handler<Vec<u64>, ()> = Handler::new("atoll-session::free", free);
}
