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

/// The element-wise functions of one operand: NumPy's unary operators and ufuncs (one table;
/// [`crate::eval::ufuncs::eval1`] evaluates them).
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
    Trunc,
    Tan,
    Sinh,
    Cosh,
    Tanh,
    Arcsin,
    Arccos,
    Arctan,
    Arcsinh,
    Arccosh,
    Arctanh,
    Log2,
    Log10,
    Log1p,
    Expm1,
    Sign,
    Square,
    IsInf,
    IsFinite,
    Rad2deg,
    Deg2rad,
    Popcount,
    Parity,
    Clz,
    Ctz,
}

impl UnOp {
    /// Every operation with its name as the Python layer writes it (NumPy's, `neg` for `-`).
    pub const NAMES: [(UnOp, &'static str); 37] = {
        use UnOp::*;
        [
            (Neg, "neg"),
            (Abs, "abs"),
            (Invert, "invert"),
            (Log, "log"),
            (Exp, "exp"),
            (Sqrt, "sqrt"),
            (Sin, "sin"),
            (Cos, "cos"),
            (Floor, "floor"),
            (Ceil, "ceil"),
            (Round, "round"),
            (IsNan, "isnan"),
            (Trunc, "trunc"),
            (Tan, "tan"),
            (Sinh, "sinh"),
            (Cosh, "cosh"),
            (Tanh, "tanh"),
            (Arcsin, "arcsin"),
            (Arccos, "arccos"),
            (Arctan, "arctan"),
            (Arcsinh, "arcsinh"),
            (Arccosh, "arccosh"),
            (Arctanh, "arctanh"),
            (Log2, "log2"),
            (Log10, "log10"),
            (Log1p, "log1p"),
            (Expm1, "expm1"),
            (Sign, "sign"),
            (Square, "square"),
            (IsInf, "isinf"),
            (IsFinite, "isfinite"),
            (Rad2deg, "rad2deg"),
            (Deg2rad, "deg2rad"),
            (Popcount, "popcount"),
            (Parity, "parity"),
            (Clz, "clz"),
            (Ctz, "ctz"),
        ]
    };

    /// The dtype of the result on an operand of dtype `t`, or `None` where the operation is not
    /// defined (NumPy's TypeError; the Python layer casts first where NumPy would): the
    /// transcendental functions on float64 only, `invert` on integers and bools, arithmetic
    /// (`neg`, `round`, `sign`, `square`) on numbers, the bit counts on 64-bit integers, the
    /// tests (`isnan`, `isinf`, `isfinite`) on every dtype, giving bool.
    pub fn result(self, t: DType) -> Option<DType> {
        use UnOp::*;
        let ok = match self {
            IsNan | IsInf | IsFinite => return Some(DType::Bool),
            Invert => t != DType::F64,
            Abs | Floor | Ceil | Trunc => true,
            Neg | Round | Sign | Square => t != DType::Bool,
            Popcount | Parity | Clz | Ctz => matches!(t, DType::I64 | DType::U64),
            Log | Exp | Sqrt | Sin | Cos | Tan | Sinh | Cosh | Tanh | Arcsin | Arccos | Arctan | Arcsinh | Arccosh
            | Arctanh | Log2 | Log10 | Log1p | Expm1 | Rad2deg | Deg2rad => t == DType::F64,
        };
        ok.then_some(t)
    }

    /// The dtype of the result on an operand of dtype `t` where it is defined (`bool` for
    /// the tests, `t` otherwise).
    pub fn out(self, t: DType) -> DType {
        self.result(t).unwrap_or(t)
    }

    /// The operation's name as the Python layer writes it.
    pub fn name(self) -> &'static str {
        UnOp::NAMES.iter().find(|(o, _)| *o == self).map_or("?", |(_, n)| n)
    }

    /// The operation of a name used by the Python layer.
    pub fn parse(s: &str) -> Option<UnOp> {
        UnOp::NAMES.iter().find(|(_, n)| *n == s).map(|(o, _)| *o)
    }
}
