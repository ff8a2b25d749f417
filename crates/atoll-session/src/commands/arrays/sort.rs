//! The permutation that sorts an expression.

use super::materialize;
use crate::handles::{Array, Session};
use crate::registry::{Col, Registry};
use crate::types::{DType, Node};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

/// The permutation that sorts an expression of `n` elements, as a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Argsort {
    /// The new array's id.
    pub id: u64,
    /// The values.
    pub src: Node,
    /// Their number.
    pub n: usize,
}

fn argsort_cmd(ctx: &Ctx, Argsort { id, src, n }: Argsort) -> Result<()> {
    let s = materialize(ctx, &src, n)?;
    let r = match &s {
        Col::I(a) => atoll::ops::argsort(&a.view()),
        Col::U(a) => atoll::ops::argsort(&a.view()),
        Col::F(a) => atoll::ops::argsort(&a.view()),
        Col::U8(a) => atoll::ops::argsort(&a.view()),
        Col::B(_) => Err(Error::InvalidArgument("internal: argsort of bool".into())),
    };
    s.free()?;
    Registry::of(ctx).insert(id, Col::I(r?));
    Ok(())
}

/// The int64 permutation that sorts an expression of `n` elements (stable). **Collective.**
pub fn argsort(s: &Session, x: &Node, n: usize) -> Result<Array> {
    s.new_array(DType::I64, n, |id| s.exec(&ARGSORT, Argsort { id, src: x.clone(), n }))
}

commands! {
    /// A new int64 array `id`: the permutation that sorts an expression's value.
    pub static ARGSORT: Handler<Argsort, ()> = Handler::new("atoll-session::argsort", argsort_cmd);
}
