//! Arrays and expressions: the `Arr` handle, the `Ex` expression tree, and the bindings of the
//! session's commands on them (creation, transfers, evaluation, assignment, reductions,
//! scans, indexing, sorting, memory, the session's life).

use crate::errors::{type_err, value_err};
use crate::run;
use atoll_session::commands::{self as cmd, ScanOp};
use atoll_session::eval::RedOp;
use atoll_session::handoff::DriverSlice;
use atoll_session::ufuncs::F2;
use atoll_session::{session, ArrRef, Array, BinOp, DType, Node, Scal, UnOp};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;

/// A distributed array's handle: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Arr(pub(crate) Array);

impl Drop for Arr {
    fn drop(&mut self) {
        let a = self.0;
        Python::with_gil(|py| py.allow_threads(|| a.release()));
    }
}

#[pymethods]
impl Arr {
    /// The dtype's name.
    #[getter]
    fn dtype(&self) -> &'static str {
        self.0.dtype.name()
    }
    /// The number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.0.len
    }
    /// The id in the locales' registries.
    #[getter]
    fn id(&self) -> u64 {
        self.0.id
    }
}

/// An expression over arrays (a tree of operations), keeping its arrays alive.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Ex {
    pub(crate) node: Node,
    keep: Vec<Py<Arr>>,
}

#[pymethods]
impl Ex {
    /// The dtype's name of the value.
    #[getter]
    fn dtype(&self) -> &'static str {
        self.node.dtype().name()
    }
    /// True for a whole array or a selection of one.
    #[getter]
    fn is_leaf(&self) -> bool {
        matches!(self.node, Node::Leaf(..))
    }
    /// True when the expression reads `arr` (whole or a selection of it).
    fn reads(&self, arr: &Arr) -> bool {
        self.node.reads(arr.0.id)
    }
}

/// The dtype of a NumPy name; a `TypeError` naming it otherwise.
pub(crate) fn dtype_arg(s: &str) -> PyResult<DType> {
    DType::parse(s).ok_or_else(|| {
        type_err("dtype", format!("unsupported dtype {s:?} (expected int64, uint64, float64, bool or uint8)"))
    })
}

fn scal_of(v: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Scal> {
    Ok(match dtype {
        DType::I64 => Scal::I(v.extract()?),
        DType::U64 => Scal::U(v.extract()?),
        DType::F64 => Scal::F(v.extract()?),
        DType::Bool => Scal::B(v.extract()?),
        DType::U8 => Scal::U8(v.extract()?),
    })
}

fn scal_py(py: Python<'_>, s: Scal) -> PyResult<PyObject> {
    Ok(match s {
        Scal::I(v) => v.into_pyobject(py)?.into_any().unbind(),
        Scal::U(v) => v.into_pyobject(py)?.into_any().unbind(),
        Scal::F(v) => v.into_pyobject(py)?.into_any().unbind(),
        Scal::B(v) => v.into_pyobject(py)?.to_owned().into_any().unbind(),
        Scal::U8(v) => v.into_pyobject(py)?.into_any().unbind(),
    })
}

fn join(parts: &[&Ex]) -> Vec<Py<Arr>> {
    Python::with_gil(|py| parts.iter().flat_map(|e| e.keep.iter().map(|a| a.clone_ref(py))).collect())
}

/// A checked expression: a `TypeError` naming the problem if its dtypes do not fit.
fn checked(node: Node, keep: Vec<Py<Arr>>) -> PyResult<Ex> {
    node.validate().map_err(|e| type_err("operands", e))?;
    Ok(Ex { node, keep })
}

// ----- the session -----------------------------------------------------------------------

/// Starts (or restarts) the job: `locales` on the local backend, `backend` 'local' or 'mpi'.
#[pyfunction]
#[pyo3(signature = (locales=None, backend=None))]
fn init(py: Python<'_>, locales: Option<usize>, backend: Option<&str>) -> PyResult<()> {
    crate::errors::IntoPy::py(py.allow_threads(|| session::start(locales, backend)))
}

/// Ends the job (arrays of the session become invalid). Harmless when none runs.
#[pyfunction]
fn shutdown(py: Python<'_>) -> PyResult<()> {
    crate::errors::IntoPy::py(py.allow_threads(session::stop))
}

/// Whether the environment asks for eager evaluation (`ATOLL_EAGER`, a setting of the front
/// end that `atoll-session` reads, not the runtime).
#[pyfunction]
fn eager_by_default() -> bool {
    session::eager_by_default()
}

/// True while a job runs.
#[pyfunction]
fn is_running() -> bool {
    session::running()
}

/// (number of locales, backend name), starting the job if needed.
#[pyfunction]
fn job_info(py: Python<'_>) -> PyResult<(usize, String)> {
    run(py, |s| Ok((s.num_locales(), s.driver().ctx().backend_name().to_string())))
}

/// Every locale's (bytes in use, bytes available, limit).
#[pyfunction]
fn mem_status(py: Python<'_>) -> PyResult<Vec<(u64, u64, u64)>> {
    run(py, cmd::mem_status)
}

/// Turns the fused float64 kernels on or off on every locale; returns the previous setting.
#[pyfunction]
fn set_fused_kernels(py: Python<'_>, on: bool) -> PyResult<bool> {
    run(py, |s| atoll_session::fused::set_fused_kernels(s, on))
}

/// Sets the streaming-store threshold (bytes on one locale) on every locale; returns the
/// previous one.
#[pyfunction]
fn set_streaming_threshold(py: Python<'_>, bytes: u64) -> PyResult<u64> {
    run(py, |s| atoll_session::streaming::set_streaming_threshold(s, bytes))
}

// ----- transfers -------------------------------------------------------------------------

/// The driver slice of a held buffer (C-contiguous, and writable when `writable`).
fn slice_of<T: pyo3::buffer::Element>(buf: &PyBuffer<T>, writable: bool) -> PyResult<DriverSlice> {
    if !buf.is_c_contiguous() || (writable && buf.readonly()) {
        return Err(value_err("buffer", "expected a C-contiguous (and, for output, writable) buffer"));
    }
    Ok(DriverSlice::from_raw(buf.buf_ptr() as *const T, buf.item_count(), writable))
}

fn buffer_in<T: pyo3::buffer::Element>(py: Python<'_>, obj: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Arr> {
    // The buffer is held until the command ends (the handoff module's promise).
    let buf = PyBuffer::<T>::get(obj)?;
    let s = slice_of(&buf, false)?;
    run(py, |ss| cmd::from_slice(ss, dtype, s)).map(Arr)
}

/// An array with a copy of a contiguous buffer (a NumPy array) of `dtype` (bool as bytes).
#[pyfunction]
fn from_buffer(py: Python<'_>, obj: &Bound<'_, PyAny>, dtype: &str) -> PyResult<Arr> {
    match dtype_arg(dtype)? {
        DType::I64 => buffer_in::<i64>(py, obj, DType::I64),
        DType::U64 => buffer_in::<u64>(py, obj, DType::U64),
        DType::F64 => buffer_in::<f64>(py, obj, DType::F64),
        DType::Bool => buffer_in::<u8>(py, obj, DType::Bool),
        DType::U8 => buffer_in::<u8>(py, obj, DType::U8),
    }
}

fn buffer_out<T: pyo3::buffer::Element>(py: Python<'_>, e: &Ex, n: usize, out: &Bound<'_, PyAny>) -> PyResult<()> {
    // The buffer is held until the command ends (the handoff module's promise).
    let buf = PyBuffer::<T>::get(out)?;
    let s = slice_of(&buf, true)?;
    run(py, |ss| cmd::to_slice(ss, &e.node, n, s))
}

/// Copies an expression's value (`n` elements) into `out`, a writable contiguous buffer.
#[pyfunction]
fn to_buffer(py: Python<'_>, e: &Ex, n: usize, out: &Bound<'_, PyAny>) -> PyResult<()> {
    match e.node.dtype() {
        DType::I64 => buffer_out::<i64>(py, e, n, out),
        DType::U64 => buffer_out::<u64>(py, e, n, out),
        DType::F64 => buffer_out::<f64>(py, e, n, out),
        DType::Bool | DType::U8 => buffer_out::<u8>(py, e, n, out),
    }
}

// ----- creation --------------------------------------------------------------------------

/// `n` elements equal to `value`, of `dtype`.
#[pyfunction]
fn full(py: Python<'_>, n: usize, dtype: &str, value: &Bound<'_, PyAny>) -> PyResult<Arr> {
    let v = scal_of(value, dtype_arg(dtype)?)?;
    run(py, |s| cmd::full(s, n, v)).map(Arr)
}

/// The int64 values `start + i * step`, `i < n`.
#[pyfunction]
fn arange(py: Python<'_>, n: usize, start: i64, step: i64) -> PyResult<Arr> {
    run(py, |s| cmd::arange(s, n, start, step)).map(Arr)
}

/// `n` float64 values `start + i * step`, the last one `stop` when `endpoint`.
#[pyfunction]
fn linspace(py: Python<'_>, n: usize, start: f64, step: f64, stop: f64, endpoint: bool) -> PyResult<Arr> {
    run(py, |s| cmd::linspace(s, n, start, step, stop, endpoint)).map(Arr)
}

/// `n` uniform int64 values in `[lo, hi)` from `seed`.
#[pyfunction]
fn randint(py: Python<'_>, n: usize, lo: i64, hi: i64, seed: u64) -> PyResult<Arr> {
    run(py, |s| cmd::randint(s, n, lo, hi, seed)).map(Arr)
}

/// `n` uniform float64 values in `[lo, hi)` from `seed`.
#[pyfunction]
fn uniform(py: Python<'_>, n: usize, lo: f64, hi: f64, seed: u64) -> PyResult<Arr> {
    run(py, |s| cmd::uniform(s, n, lo, hi, seed)).map(Arr)
}

/// `n` standard normal float64 values from `seed`.
#[pyfunction]
fn standard_normal(py: Python<'_>, n: usize, seed: u64) -> PyResult<Arr> {
    run(py, |s| cmd::standard_normal(s, n, seed)).map(Arr)
}

// ----- expressions -----------------------------------------------------------------------

/// The expression reading `arr` at positions `start + k * step`, `k < len`.
#[pyfunction]
fn leaf(arr: Py<Arr>, start: i64, step: i64, len: usize) -> Ex {
    let a = arr.get().0;
    Ex { node: Node::Leaf(ArrRef { id: a.id, start, step, len, base_len: a.len }, a.dtype), keep: vec![arr] }
}

/// A scalar expression.
#[pyfunction]
fn scalar(value: &Bound<'_, PyAny>, dtype: &str) -> PyResult<Ex> {
    Ok(Ex { node: Node::Scalar(scal_of(value, dtype_arg(dtype)?)?), keep: vec![] })
}

/// `x.astype(dtype)`.
#[pyfunction]
fn cast(x: &Ex, dtype: &str) -> PyResult<Ex> {
    checked(Node::Cast(Box::new(x.node.clone()), dtype_arg(dtype)?), join(&[x]))
}

/// `a op b` on operands of one dtype (the Python layer promotes first).
#[pyfunction]
fn binary(op: &str, a: &Ex, b: &Ex) -> PyResult<Ex> {
    let o = BinOp::parse(op).ok_or_else(|| value_err("op", format!("unknown operator {op:?}")))?;
    checked(Node::Bin(o, Box::new(a.node.clone()), Box::new(b.node.clone())), join(&[a, b]))
}

/// A unary operation (`neg`, `abs`, `invert`, `log`, ...).
#[pyfunction]
fn unary(op: &str, x: &Ex) -> PyResult<Ex> {
    let o = UnOp::parse(op).ok_or_else(|| value_err("op", format!("unknown operation {op:?}")))?;
    checked(Node::Un(o, Box::new(x.node.clone())), join(&[x]))
}

/// `where(c, a, b)`.
#[pyfunction]
fn where_(c: &Ex, a: &Ex, b: &Ex) -> PyResult<Ex> {
    let node = Node::Where(Box::new(c.node.clone()), Box::new(a.node.clone()), Box::new(b.node.clone()));
    checked(node, join(&[c, a, b]))
}

/// `f(x)` for a function of one operand by NumPy's name (`trunc`, `tan`, `log2`, ...).
#[pyfunction]
fn ufunc1(f: &str, x: &Ex) -> PyResult<Ex> {
    let g = UnOp::parse(f).ok_or_else(|| value_err("f", format!("unknown function {f:?}")))?;
    checked(Node::Un(g, Box::new(x.node.clone())), join(&[x]))
}

/// `f(a, b)` for a function of two operands of one dtype (`arctan2`, `hypot`, `fmod`, ...).
#[pyfunction]
fn ufunc2(f: &str, a: &Ex, b: &Ex) -> PyResult<Ex> {
    let g = F2::parse(f).ok_or_else(|| value_err("f", format!("unknown function {f:?}")))?;
    checked(Node::Fn2(g, Box::new(a.node.clone()), Box::new(b.node.clone())), join(&[a, b]))
}

// ----- commands on expressions -------------------------------------------------------------

/// A new array holding the expression's value (`n` elements).
#[pyfunction]
fn evaluate(py: Python<'_>, e: &Ex, n: usize) -> PyResult<Arr> {
    run(py, |s| cmd::evaluate(s, &e.node, n)).map(Arr)
}

/// `arr[start::step][:len] = e` (in place; `step > 0`).
#[pyfunction]
fn assign(py: Python<'_>, arr: &Arr, start: i64, step: i64, len: usize, e: &Ex) -> PyResult<()> {
    let dst = ArrRef { id: arr.0.id, start, step, len, base_len: arr.0.len };
    run(py, |s| cmd::assign(s, dst, &e.node))
}

/// A reduction of an expression of `n` elements (sum, prod, min, max, argmin, argmax, any,
/// all, count_nonzero, is_sorted); `None` for an empty input.
#[pyfunction]
fn reduce(py: Python<'_>, e: &Ex, n: usize, op: &str) -> PyResult<Option<PyObject>> {
    let o = RedOp::parse(op).ok_or_else(|| value_err("op", format!("unknown reduction {op:?}")))?;
    run(py, |s| cmd::reduce(s, &e.node, n, o))?.map(|v| scal_py(py, v)).transpose()
}

/// Inclusive scan (`sum` or `prod`) of an expression into a new array.
#[pyfunction]
fn scan(py: Python<'_>, e: &Ex, n: usize, op: &str) -> PyResult<Arr> {
    let o = ScanOp::parse(op).ok_or_else(|| value_err("op", format!("unknown scan {op:?}")))?;
    run(py, |s| cmd::scan(s, &e.node, n, o)).map(Arr)
}

/// Element `pos` of a whole array.
#[pyfunction]
fn get(py: Python<'_>, arr: &Arr, pos: usize) -> PyResult<PyObject> {
    let v = run(py, |s| cmd::get(s, &arr.0, pos))?;
    scal_py(py, v)
}

/// Sets element `pos` of a whole array.
#[pyfunction]
fn set(py: Python<'_>, arr: &Arr, pos: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let v = scal_of(value, arr.0.dtype)?;
    run(py, |s| cmd::set(s, &arr.0, pos, v))
}

/// `arr[idx]` for a whole array and an int64 expression of `n` indices in range.
#[pyfunction]
fn gather(py: Python<'_>, arr: &Arr, idx: &Ex, n: usize) -> PyResult<Arr> {
    run(py, |s| cmd::gather(s, &arr.0, &idx.node, n)).map(Arr)
}

/// `op` ("sum", "prod", "min", "max") of `arr` seen as (`outer`, `n`, `inner`) over the middle
/// axis, as a new array of `outer * inner` elements (float64, int64 or uint64).
#[pyfunction]
fn reduce_axis(py: Python<'_>, arr: &Arr, outer: usize, n: usize, inner: usize, op: &str) -> PyResult<Arr> {
    let op = match op {
        "sum" => cmd::AxisOp::Sum,
        "prod" => cmd::AxisOp::Prod,
        "min" => cmd::AxisOp::Min,
        "max" => cmd::AxisOp::Max,
        other => return Err(value_err("op", format!("unknown reduction {other:?}"))),
    };
    run(py, |s| cmd::reduce_axis(s, &arr.0, outer, n, inner, op)).map(Arr)
}

/// `a @ b` of a row-major (`n` x `k`) and a (`k` x `m`) array of one dtype (float64 or int64).
#[pyfunction]
fn matmul(py: Python<'_>, a: &Arr, b: &Arr, n: usize, k: usize, m: usize) -> PyResult<Arr> {
    run(py, |s| cmd::matmul(s, &a.0, &b.0, n, k, m)).map(Arr)
}

/// The strided view of `arr` (source position `offset + sum(i_k * strides[k])` for each index
/// of `shape`, C order) as a new array.
#[pyfunction]
fn strided(py: Python<'_>, arr: &Arr, offset: i64, shape: Vec<usize>, strides: Vec<i64>) -> PyResult<Arr> {
    run(py, |s| cmd::strided(s, &arr.0, offset, &shape, &strides)).map(Arr)
}

/// `arr[idx] = vals` for a whole array, `n` int64 indices in range and values of arr's dtype.
#[pyfunction]
fn scatter(py: Python<'_>, arr: &Arr, idx: &Ex, vals: &Ex, n: usize) -> PyResult<()> {
    run(py, |s| cmd::scatter(s, &arr.0, &idx.node, &vals.node, n))
}

/// `x[mask]` for expressions of `n` elements.
#[pyfunction]
fn compress(py: Python<'_>, x: &Ex, mask: &Ex, n: usize) -> PyResult<Arr> {
    run(py, |s| cmd::compress(s, &x.node, &mask.node, n)).map(Arr)
}

/// The permutation (int64) that sorts an expression of `n` elements.
#[pyfunction]
fn argsort(py: Python<'_>, x: &Ex, n: usize) -> PyResult<Arr> {
    run(py, |s| cmd::argsort(s, &x.node, n)).map(Arr)
}

/// Adds the classes and functions of this module.
pub(crate) fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Arr>()?;
    m.add_class::<Ex>()?;
    for f in [
        wrap_pyfunction!(init, m)?,
        wrap_pyfunction!(strided, m)?,
        wrap_pyfunction!(matmul, m)?,
        wrap_pyfunction!(reduce_axis, m)?,
        wrap_pyfunction!(eager_by_default, m)?,
        wrap_pyfunction!(shutdown, m)?,
        wrap_pyfunction!(is_running, m)?,
        wrap_pyfunction!(job_info, m)?,
        wrap_pyfunction!(mem_status, m)?,
        wrap_pyfunction!(set_fused_kernels, m)?,
        wrap_pyfunction!(set_streaming_threshold, m)?,
        wrap_pyfunction!(from_buffer, m)?,
        wrap_pyfunction!(to_buffer, m)?,
        wrap_pyfunction!(full, m)?,
        wrap_pyfunction!(arange, m)?,
        wrap_pyfunction!(linspace, m)?,
        wrap_pyfunction!(randint, m)?,
        wrap_pyfunction!(uniform, m)?,
        wrap_pyfunction!(standard_normal, m)?,
        wrap_pyfunction!(leaf, m)?,
        wrap_pyfunction!(scalar, m)?,
        wrap_pyfunction!(cast, m)?,
        wrap_pyfunction!(binary, m)?,
        wrap_pyfunction!(unary, m)?,
        wrap_pyfunction!(where_, m)?,
        wrap_pyfunction!(ufunc1, m)?,
        wrap_pyfunction!(ufunc2, m)?,
        wrap_pyfunction!(evaluate, m)?,
        wrap_pyfunction!(assign, m)?,
        wrap_pyfunction!(reduce, m)?,
        wrap_pyfunction!(scan, m)?,
        wrap_pyfunction!(get, m)?,
        wrap_pyfunction!(set, m)?,
        wrap_pyfunction!(gather, m)?,
        wrap_pyfunction!(scatter, m)?,
        wrap_pyfunction!(compress, m)?,
        wrap_pyfunction!(argsort, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
