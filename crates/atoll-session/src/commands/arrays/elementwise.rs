//! Evaluating an expression into a new array, and assigning one into (a selection of) an array.

use super::{eval_into, materialize};
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{ArrRef, Node};
use atoll::array::{DistArray, Elem, StridedRange};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};

fn evaluate_cmd(ctx: &Ctx, (id, node, n): (u64, Node, usize)) -> Result<()> {
    let col = materialize(ctx, &node, n)?;
    Registry::of(ctx).insert(id, col);
    Ok(())
}

fn assign_t<T: Elem>(dst: &mut DistArray<T, 1>, r: &ArrRef, src: &DistArray<T, 1>) -> Result<()> {
    let dom = StridedRange::from_parts(r.start, r.step as u64, r.len)?;
    dst.slice_mut(dom)?.assign(&src.view())
}

fn assign_cmd(ctx: &Ctx, (dst, node): (ArrRef, Node)) -> Result<()> {
    let reg = Registry::of(ctx);
    let mut refs = Vec::new();
    node.leaves(&mut refs);
    let aliased = refs.iter().any(|r| r.id == dst.id);
    if dst.is_whole() && !aliased {
        let target = reg.get(dst.id)?;
        let mut g = lock(&target);
        return eval_into(ctx, &node, &mut g);
    }
    let val = materialize(ctx, &node, dst.len)?;
    if dst.is_whole() && !reg.is_pinned(dst.id) {
        // The tree read the target: the new value replaces it.
        let target = reg.get(dst.id)?;
        let old = std::mem::replace(&mut *lock(&target), val);
        return old.free();
    }
    let target = reg.get(dst.id)?;
    let r = {
        let mut g = lock(&target);
        match (&mut *g, &val) {
            (Col::I(d), Col::I(s)) => assign_t(d, &dst, s),
            (Col::U(d), Col::U(s)) => assign_t(d, &dst, s),
            (Col::F(d), Col::F(s)) => assign_t(d, &dst, s),
            (Col::B(d), Col::B(s)) => assign_t(d, &dst, s),
            (Col::U8(d), Col::U8(s)) => assign_t(d, &dst, s),
            _ => Err(Error::InvalidArgument("internal: assignment between dtypes".into())),
        }
    };
    val.free()?;
    r
}

/// A new array holding `node`'s value (`n` elements). **Collective.**
pub fn evaluate(s: &Session, node: &Node, n: usize) -> Result<Array> {
    s.new_array(node.dtype(), n, |id| s.exec(&EVALUATE, (id, node.clone(), n)))
}

/// `dst = node`: a whole array, or a selection of one with a positive step. **Collective.**
pub fn assign(s: &Session, dst: ArrRef, node: &Node) -> Result<()> {
    s.exec(&ASSIGN, (dst, node.clone()))
}

commands! {
    /// A new array `id` holding an expression's value.
    pub static EVALUATE: Handler<(u64, Node, usize), ()> = Handler::new("atoll-session::evaluate", evaluate_cmd);

    /// `dst = node` (a whole array or a positive-step selection).
    pub static ASSIGN: Handler<(ArrRef, Node), ()> = Handler::new("atoll-session::assign", assign_cmd);
}
