//! The values that cross from the driver to every locale: dtypes, scalars, array references
//! and expression trees (all serializable: a command's arguments travel in the wire format).

use serde::{Deserialize, Serialize};

/// An element type of a `pdarray`.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub enum DType {
    /// `int64`
    I64,
    /// `uint64`
    U64,
    /// `float64`
    F64,
    /// `bool`
    Bool,
}

impl DType {
    /// NumPy's name of the dtype.
    pub fn name(self) -> &'static str {
        match self {
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::F64 => "float64",
            DType::Bool => "bool",
        }
    }

    /// The dtype of a NumPy name (`int64`, `uint64`, `float64`, `bool`).
    pub fn parse(s: &str) -> Option<DType> {
        Some(match s {
            "int64" => DType::I64,
            "uint64" => DType::U64,
            "float64" => DType::F64,
            "bool" => DType::Bool,
            _ => return None,
        })
    }
}

/// A scalar of one of the dtypes.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum Scal {
    /// An `int64`.
    I(i64),
    /// A `uint64`.
    U(u64),
    /// A `float64`.
    F(f64),
    /// A `bool`.
    B(bool),
}

impl Scal {
    /// The scalar's dtype.
    pub fn dtype(self) -> DType {
        match self {
            Scal::I(_) => DType::I64,
            Scal::U(_) => DType::U64,
            Scal::F(_) => DType::F64,
            Scal::B(_) => DType::Bool,
        }
    }
}

/// A strided selection of a registered array: positions `start + k * step` for `k < len`
/// (`step` may be negative, as in NumPy).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrRef {
    /// The array's id in every locale's registry.
    pub id: u64,
    /// The first position.
    pub start: i64,
    /// The step between positions.
    pub step: i64,
    /// The number of positions.
    pub len: usize,
    /// The length of the whole array.
    pub base_len: usize,
}

impl ArrRef {
    /// True when this is the whole array in order.
    pub fn is_whole(&self) -> bool {
        self.start == 0 && self.step == 1 && self.len == self.base_len
    }
}

/// Elementwise binary operations (operands of one dtype; comparisons give `bool`).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Minimum,
    Maximum,
}

impl BinOp {
    /// True for the comparisons (whose result is `bool`).
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The operator's name as the Python layer writes it.
    pub fn name(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            FloorDiv => "//",
            Mod => "%",
            Pow => "**",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&",
            Or => "|",
            Xor => "^",
            Shl => "<<",
            Shr => ">>",
            Minimum => "minimum",
            Maximum => "maximum",
        }
    }

    /// The operation of a name used by the Python layer.
    pub fn parse(s: &str) -> Option<BinOp> {
        use BinOp::*;
        Some(match s {
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "//" => FloorDiv,
            "%" => Mod,
            "**" => Pow,
            "<" => Lt,
            "<=" => Le,
            ">" => Gt,
            ">=" => Ge,
            "==" => Eq,
            "!=" => Ne,
            "&" => And,
            "|" => Or,
            "^" => Xor,
            "<<" => Shl,
            ">>" => Shr,
            "minimum" => Minimum,
            "maximum" => Maximum,
            _ => return None,
        })
    }
}

/// Elementwise unary operations.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnOp {
    Neg,
    Abs,
    Invert,
    Log,
    Exp,
    Sqrt,
    Sin,
    Cos,
    Floor,
    Ceil,
    Round,
    IsNan,
}

impl UnOp {
    /// The dtype of the result on an operand of dtype `t`, or `None` where the operation is not
    /// defined (NumPy's TypeError): float-only functions on integers (the Python layer casts
    /// first), `invert` on floats, arithmetic on bools.
    pub fn result(self, t: DType) -> Option<DType> {
        use UnOp::*;
        match (self, t) {
            (IsNan, _) => Some(DType::Bool),
            (Invert, DType::F64) => None,
            (_, DType::F64) => Some(DType::F64),
            (Neg | Abs | Invert | Floor | Ceil | Round, DType::I64 | DType::U64) => Some(t),
            (Invert | Abs | Floor | Ceil, DType::Bool) => Some(DType::Bool),
            _ => None,
        }
    }

    /// The operation's name as the Python layer writes it.
    pub fn name(self) -> &'static str {
        use UnOp::*;
        match self {
            Neg => "neg",
            Abs => "abs",
            Invert => "invert",
            Log => "log",
            Exp => "exp",
            Sqrt => "sqrt",
            Sin => "sin",
            Cos => "cos",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            IsNan => "isnan",
        }
    }

    /// The operation of a name used by the Python layer.
    pub fn parse(s: &str) -> Option<UnOp> {
        use UnOp::*;
        Some(match s {
            "neg" => Neg,
            "abs" => Abs,
            "invert" => Invert,
            "log" => Log,
            "exp" => Exp,
            "sqrt" => Sqrt,
            "sin" => Sin,
            "cos" => Cos,
            "floor" => Floor,
            "ceil" => Ceil,
            "round" => Round,
            "isnan" => IsNan,
            _ => return None,
        })
    }
}

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
    /// A unary operation.
    Un(UnOp, Box<Node>),
    /// `where(cond, a, b)`: `cond` is `bool`, `a` and `b` one dtype.
    Where(Box<Node>, Box<Node>, Box<Node>),
    /// A function of one operand ([`crate::ufuncs`]).
    Fn1(crate::ufuncs::F1, Box<Node>),
    /// A function of two operands of one dtype ([`crate::ufuncs`]).
    Fn2(crate::ufuncs::F2, Box<Node>, Box<Node>),
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
            Node::Un(UnOp::IsNan, _) => DType::Bool,
            Node::Un(_, x) => x.dtype(),
            Node::Where(_, a, _) => a.dtype(),
            Node::Fn1(f, x) => f.out(x.dtype()),
            Node::Fn2(f, a, _) => f.out(a.dtype()),
        }
    }

    /// Every array reference of the tree.
    pub fn leaves(&self, out: &mut Vec<ArrRef>) {
        match self {
            Node::Leaf(r, _) => out.push(*r),
            Node::Scalar(_) => {}
            Node::Cast(x, _) | Node::Un(_, x) | Node::Fn1(_, x) => x.leaves(out),
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
                if !op.is_comparison() && !crate::kernels::supports(ta, *op) {
                    return Err(format!("unsupported operand dtype {} for {}", ta.name(), op.name()));
                }
                Ok(())
            }
            Node::Fn1(f, x) => {
                x.validate()?;
                let t = x.dtype();
                if f.accepts(t) {
                    Ok(())
                } else {
                    Err(format!("{f:?} is not supported for dtype {}", t.name()))
                }
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
            Node::Cast(x, _) | Node::Un(_, x) | Node::Fn1(_, x) => x.has_int_pow(),
            Node::Fn2(_, a, b) => a.has_int_pow() || b.has_int_pow(),
            Node::Bin(op, a, b) => (*op == BinOp::Pow && a.dtype() == DType::I64) || a.has_int_pow() || b.has_int_pow(),
            Node::Where(c, a, b) => c.has_int_pow() || a.has_int_pow() || b.has_int_pow(),
        }
    }
}
