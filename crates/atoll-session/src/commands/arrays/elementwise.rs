//! Evaluating an expression into a new array, and assigning one into (a selection of) an array.

use super::{eval_into, materialize};
use crate::handles::{Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{ArrRef, Node};
use atoll::array::{DistArray, Elem, StridedRange};
use atoll::runtime::{Ctx, Handler};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

/// An expression of `n` elements evaluated into a new array `id`.
#[derive(Serialize, Deserialize)]
pub struct Evaluate {
    /// The new array's id.
    pub id: u64,
    /// The expression.
    pub node: Node,
    /// The number of elements.
    pub n: usize,
}

fn evaluate_cmd(ctx: &Ctx, Evaluate { id, node, n }: Evaluate) -> Result<()> {
    let col = materialize(ctx, &node, n)?;
    Registry::of(ctx).insert(id, col);
    Ok(())
}

fn assign_t<T: Elem>(dst: &mut DistArray<T, 1>, r: &ArrRef, src: &DistArray<T, 1>) -> Result<()> {
    let dom = StridedRange::from_parts(r.start, r.step as u64, r.len)?;
    dst.slice_mut(dom)?.assign(&src.view())
}

/// An expression assigned into `dst`, (a selection of) an array.
#[derive(Serialize, Deserialize)]
pub struct Assign {
    /// The array, or the selection of it, written.
    pub dst: ArrRef,
    /// The value, aligned with `dst`.
    pub node: Node,
}

fn assign_cmd(ctx: &Ctx, Assign { dst, node }: Assign) -> Result<()> {
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
    s.new_array(node.dtype(), n, |id| s.exec(&EVALUATE, Evaluate { id, node: node.clone(), n }))
}

/// `dst = node`: a whole array, or a selection of one with a positive step. **Collective.**
pub fn assign(s: &Session, dst: ArrRef, node: &Node) -> Result<()> {
    s.exec(&ASSIGN, Assign { dst, node: node.clone() })
}

commands! {
    /// A new array `id` holding an expression's value.
    pub static EVALUATE: Handler<Evaluate, ()> = Handler::new("atoll-session::evaluate", evaluate_cmd);

    /// `dst = node` (a whole array or a positive-step selection).
    pub static ASSIGN: Handler<Assign, ()> = Handler::new("atoll-session::assign", assign_cmd);
}
