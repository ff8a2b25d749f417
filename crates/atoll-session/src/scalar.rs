//! The leaves of the values that cross from the driver to every locale: dtypes, scalars,
//! array references and operators (re-exported by `types.rs`, beside the expression trees).

use serde::{Deserialize, Serialize};

/// An element type of a `pdarray`: the one dtype of every crate (`atoll-array`'s).
pub use atoll::array::dtype::DType;

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
    /// A `uint8`.
    U8(u8),
}

impl Scal {
    /// The scalar's dtype.
    pub fn dtype(self) -> DType {
        match self {
            Scal::I(_) => DType::I64,
            Scal::U(_) => DType::U64,
            Scal::F(_) => DType::F64,
            Scal::B(_) => DType::Bool,
            Scal::U8(_) => DType::U8,
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
            (Neg | Abs | Invert | Floor | Ceil | Round, DType::I64 | DType::U64 | DType::U8) => Some(t),
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
