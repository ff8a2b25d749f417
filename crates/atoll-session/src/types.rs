//! The values that cross from the driver to every locale: dtypes, scalars, array references
//! and operators (`scalar.rs`, re-exported here), and expression trees (all serializable: a
//! command's arguments travel in the wire format).

pub use crate::scalar::{ArrRef, BinOp, DType, Scal, UnOp};

use serde::{Deserialize, Serialize};

/// An elementwise expression over arrays of one length, evaluated as one fused loop.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub enum Node {
    /// An array (or a strided selection of one) of the given dtype.
    Leaf(ArrRef, DType),
    /// A scalar broadcast to every position.
    Scalar(Scal),
    /// A conversion (NumPy's `astype`).
    Cast(Box<Node>, DType),
    /// A binary operation on two operands of one dtype.
    Bin(BinOp, Box<Node>, Box<Node>),
    /// A function of one operand ([`UnOp`]: the unary operators and NumPy's ufuncs).
    Un(UnOp, Box<Node>),
    /// `where(cond, a, b)`: `cond` is `bool`, `a` and `b` one dtype.
    Where(Box<Node>, Box<Node>, Box<Node>),
    /// A function of two operands of one dtype ([`crate::eval::ufuncs`]).
    Fn2(crate::eval::ufuncs::F2, Box<Node>, Box<Node>),
}

impl Node {
    /// The dtype of the expression's value.
    pub fn dtype(&self) -> DType {
        match self {
            Node::Leaf(_, t) | Node::Cast(_, t) => *t,
            Node::Scalar(s) => s.dtype(),
            Node::Bin(op, l, _) => {
                if op.is_comparison() {
                    DType::Bool
                } else {
                    l.dtype()
                }
            }
            Node::Un(op, x) => op.out(x.dtype()),
            Node::Where(_, a, _) => a.dtype(),
            Node::Fn2(f, a, _) => f.out(a.dtype()),
        }
    }

    /// Every array reference of the tree.
    pub fn leaves(&self, out: &mut Vec<ArrRef>) {
        match self {
            Node::Leaf(r, _) => out.push(*r),
            Node::Scalar(_) => {}
            Node::Cast(x, _) | Node::Un(_, x) => x.leaves(out),
            Node::Bin(_, a, b) | Node::Fn2(_, a, b) => {
                a.leaves(out);
                b.leaves(out);
            }
            Node::Where(c, a, b) => {
                c.leaves(out);
                a.leaves(out);
                b.leaves(out);
            }
        }
    }

    /// Checks the tree's dtypes (every operation defined on its operands' dtype): the same
    /// answer on every locale, before any data is read, so a bad tree fails at once and
    /// everywhere.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Node::Leaf(..) | Node::Scalar(_) => Ok(()),
            Node::Cast(x, _) => x.validate(),
            Node::Un(op, x) => {
                x.validate()?;
                let t = x.dtype();
                op.result(t).map(|_| ()).ok_or_else(|| format!("{} is not supported for dtype {}", op.name(), t.name()))
            }
            Node::Bin(op, a, b) => {
                a.validate()?;
                b.validate()?;
                let (ta, tb) = (a.dtype(), b.dtype());
                if ta != tb {
                    return Err(format!(
                        "{} needs operands of one dtype, got {} and {}",
                        op.name(),
                        ta.name(),
                        tb.name()
                    ));
                }
                if !op.is_comparison() && !crate::eval::kernels::supports(ta, *op) {
                    return Err(format!("unsupported operand dtype {} for {}", ta.name(), op.name()));
                }
                Ok(())
            }
            Node::Fn2(f, a, b) => {
                a.validate()?;
                b.validate()?;
                let (ta, tb) = (a.dtype(), b.dtype());
                if ta != tb {
                    return Err(format!("{f:?} needs operands of one dtype, got {} and {}", ta.name(), tb.name()));
                }
                if f.accepts(ta) {
                    Ok(())
                } else {
                    Err(format!("{f:?} is not supported for dtype {}", ta.name()))
                }
            }
            Node::Where(c, a, b) => {
                c.validate()?;
                a.validate()?;
                b.validate()?;
                if c.dtype() != DType::Bool {
                    return Err(format!("where's condition must be bool, got {}", c.dtype().name()));
                }
                if a.dtype() != b.dtype() {
                    return Err(format!(
                        "where needs A and B of one dtype, got {} and {}",
                        a.dtype().name(),
                        b.dtype().name()
                    ));
                }
                Ok(())
            }
        }
    }

    /// True when the tree reads array `id` (whole or a selection of it).
    pub fn reads(&self, id: u64) -> bool {
        let mut refs = Vec::new();
        self.leaves(&mut refs);
        refs.iter().any(|r| r.id == id)
    }

    /// True when the tree raises an integer to a power (whose negative exponents are an error).
    pub fn has_int_pow(&self) -> bool {
        match self {
            Node::Leaf(..) | Node::Scalar(_) => false,
            Node::Cast(x, _) | Node::Un(_, x) => x.has_int_pow(),
            Node::Fn2(_, a, b) => a.has_int_pow() || b.has_int_pow(),
            Node::Bin(op, a, b) => (*op == BinOp::Pow && a.dtype() == DType::I64) || a.has_int_pow() || b.has_int_pow(),
            Node::Where(c, a, b) => c.has_int_pow() || a.has_int_pow() || b.has_int_pow(),
        }
    }
}
