//! `atoll._atoll`: the native side of Atoll's Python package. Each binding is a line or two
//! through [`session::exec`] (GIL released, errors mapped in [`errors`]); the Python layer
//! (`python/atoll/`) normalises arguments and implements Arkouda's `pdarray` on top.
//!
//! Arrays are 1-D Block arrays kept on every locale between commands (a per-locale registry
//! keyed by id, [`registry`]); elementwise work goes through fused expression trees ([`types::Node`],
//! evaluated by [`eval`] in one owner-computes pass).

pub mod analytics;
pub mod commands;
pub mod dense_agg;
pub mod errors;
pub mod eval;
pub mod fused;
pub mod graph;
pub mod graph_share;
pub mod hdf5_io;
pub mod io;
pub mod kernels;
pub mod pandas_ops;
mod par;
mod prefetch;
mod raw;
pub mod registry;
pub mod session;
pub mod share;
pub mod str_groupby;
pub mod streaming;
pub mod strings;
mod sum_lockstep;
pub mod types;

use commands::{Data, Fill, ScanOp, INBOX, OUTBOX};
use errors::{type_err, value_err};
use eval::{Part, RedOp};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use session::{exec, exec_all, next_id};
use types::{ArrRef, BinOp, DType, Node, Scal, UnOp};

/// A distributed array's handle: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Arr {
    id: u64,
    dtype: DType,
    len: usize,
    generation: u64,
}

use session::DEFERRED_FREES;
const FREE_BATCH: usize = 64;
const SMALL_BYTES: usize = 1 << 20;

impl Drop for Arr {
    fn drop(&mut self) {
        if self.generation != session::generation() {
            return;
        }
        let ids = {
            let mut d = DEFERRED_FREES.lock().unwrap_or_else(|p| p.into_inner());
            d.push(self.id);
            if self.len.saturating_mul(8) < SMALL_BYTES && d.len() < FREE_BATCH {
                return;
            }
            std::mem::take(&mut *d)
        };
        Python::with_gil(|py| {
            let _ = exec(py, &commands::FREE, ids);
        });
    }
}

#[pymethods]
impl Arr {
    /// The dtype's name.
    #[getter]
    fn dtype(&self) -> &'static str {
        self.dtype.name()
    }
    /// The number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.len
    }
    /// The id in the locales' registries.
    #[getter]
    fn id(&self) -> u64 {
        self.id
    }
}

fn new_arr(py: Python<'_>, dtype: DType, len: usize, f: impl FnOnce(u64) -> PyResult<()>) -> PyResult<Arr> {
    let (_, generation) = session::driver(py)?;
    let id = next_id();
    f(id)?;
    Ok(Arr { id, dtype, len, generation })
}

/// An expression over arrays (a tree of operations), keeping its arrays alive.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct Ex {
    node: Node,
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
}

fn dtype_arg(s: &str) -> PyResult<DType> {
    DType::parse(s)
        .ok_or_else(|| type_err("dtype", format!("unsupported dtype {s:?} (expected int64, uint64, float64 or bool)")))
}

fn scal_of(v: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Scal> {
    Ok(match dtype {
        DType::I64 => Scal::I(v.extract()?),
        DType::U64 => Scal::U(v.extract()?),
        DType::F64 => Scal::F(v.extract()?),
        DType::Bool => Scal::B(v.extract()?),
    })
}

fn scal_py(py: Python<'_>, s: Scal) -> PyObject {
    match s {
        Scal::I(v) => v.into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
        Scal::U(v) => v.into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
        Scal::F(v) => v.into_pyobject(py).map(|o| o.into_any().unbind()).unwrap_or_else(|e| match e {}),
        Scal::B(v) => v.into_pyobject(py).map(|o| o.to_owned().into_any().unbind()).unwrap_or_else(|e| match e {}),
    }
}

fn join(parts: &[&Ex]) -> Vec<Py<Arr>> {
    Python::with_gil(|py| parts.iter().flat_map(|e| e.keep.iter().map(|a| a.clone_ref(py))).collect())
}

/// Starts (or restarts) the job: `locales` on the local backend, `backend` 'local' or 'mpi'.
#[pyfunction]
#[pyo3(signature = (locales=None, backend=None))]
fn init(py: Python<'_>, locales: Option<usize>, backend: Option<&str>) -> PyResult<()> {
    session::start(py, locales, backend)
}

/// Ends the job (arrays of the session become invalid). Harmless when none runs.
#[pyfunction]
fn shutdown(py: Python<'_>) -> PyResult<()> {
    session::stop(py)
}

/// True while a job runs.
#[pyfunction]
fn is_running() -> bool {
    session::running()
}

/// (number of locales, backend name), starting the job if needed.
#[pyfunction]
fn job_info(py: Python<'_>) -> PyResult<(usize, String)> {
    let (d, _) = session::driver(py)?;
    Ok((d.num_locales(), d.ctx().backend_name().to_string()))
}

/// An array with a copy of a contiguous buffer (a NumPy array) of `dtype`.
#[pyfunction]
fn from_buffer(py: Python<'_>, obj: &Bound<'_, PyAny>, dtype: &str) -> PyResult<Arr> {
    let dtype = dtype_arg(dtype)?;
    if is_local(py)? {
        // The locales of this process copy their parts straight from the buffer.
        return match dtype {
            DType::I64 => shared_in(py, PyBuffer::<i64>::get(obj)?, dtype),
            DType::U64 => shared_in(py, PyBuffer::<u64>::get(obj)?, dtype),
            DType::F64 => shared_in(py, PyBuffer::<f64>::get(obj)?, dtype),
            DType::Bool => shared_in(py, PyBuffer::<u8>::get(obj)?, dtype),
        };
    }
    let data = match dtype {
        DType::I64 => Data::I(PyBuffer::<i64>::get(obj)?.to_vec(py)?),
        DType::U64 => Data::U(PyBuffer::<u64>::get(obj)?.to_vec(py)?),
        DType::F64 => Data::F(PyBuffer::<f64>::get(obj)?.to_vec(py)?),
        DType::Bool => Data::B(PyBuffer::<u8>::get(obj)?.to_vec(py)?.into_iter().map(|b| b != 0).collect()),
    };
    let len = match &data {
        Data::I(v) => v.len(),
        Data::U(v) => v.len(),
        Data::F(v) => v.len(),
        Data::B(v) => v.len(),
    };
    *INBOX.lock().unwrap_or_else(|p| p.into_inner()) = Some(data);
    new_arr(py, dtype, len, |id| exec(py, &commands::FROM_INBOX, (id, dtype, len)))
}

fn is_local(py: Python<'_>) -> PyResult<bool> {
    Ok(session::driver(py)?.0.ctx().backend_name() == "local")
}

/// Runs `f` with [`raw::RAW`] describing `buf` (held by the caller for the whole command).
fn with_raw<T: pyo3::buffer::Element, R>(
    buf: &PyBuffer<T>,
    writable: bool,
    f: impl FnOnce() -> PyResult<R>,
) -> PyResult<R> {
    if !buf.is_c_contiguous() || (writable && buf.readonly()) {
        return Err(value_err("buffer", "expected a C-contiguous (and, for output, writable) buffer"));
    }
    // One shared buffer at a time (Python threads may call concurrently).
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    *raw::RAW.lock().unwrap_or_else(|p| p.into_inner()) =
        Some(raw::RawBuf::new(buf.buf_ptr() as *const T, buf.item_count()));
    let r = f();
    *raw::RAW.lock().unwrap_or_else(|p| p.into_inner()) = None;
    r
}

fn shared_in<T: pyo3::buffer::Element>(py: Python<'_>, buf: PyBuffer<T>, dtype: DType) -> PyResult<Arr> {
    let n = buf.item_count();
    with_raw(&buf, false, || new_arr(py, dtype, n, |id| exec(py, &commands::FROM_RAW, (id, dtype, n))))
}

/// Copies an expression's value (`n` elements) into `out`, a writable contiguous buffer.
#[pyfunction]
fn to_buffer(py: Python<'_>, e: &Ex, n: usize, out: &Bound<'_, PyAny>) -> PyResult<()> {
    if is_local(py)? {
        let run = |k: usize| -> PyResult<()> {
            if k != n {
                return Err(value_err("out", format!("expected {n} elements, got {k}")));
            }
            exec(py, &commands::TO_RAW, (e.node.clone(), n))
        };
        return match e.node.dtype() {
            DType::I64 => {
                let b = PyBuffer::<i64>::get(out)?;
                with_raw(&b, true, || run(b.item_count()))
            }
            DType::U64 => {
                let b = PyBuffer::<u64>::get(out)?;
                with_raw(&b, true, || run(b.item_count()))
            }
            DType::F64 => {
                let b = PyBuffer::<f64>::get(out)?;
                with_raw(&b, true, || run(b.item_count()))
            }
            DType::Bool => {
                let b = PyBuffer::<u8>::get(out)?;
                with_raw(&b, true, || run(b.item_count()))
            }
        };
    }
    exec(py, &commands::TO_OUTBOX, (e.node.clone(), n))?;
    let data = OUTBOX.lock().unwrap_or_else(|p| p.into_inner()).take();
    match data {
        Some(Data::I(v)) => PyBuffer::<i64>::get(out)?.copy_from_slice(py, &v),
        Some(Data::U(v)) => PyBuffer::<u64>::get(out)?.copy_from_slice(py, &v),
        Some(Data::F(v)) => PyBuffer::<f64>::get(out)?.copy_from_slice(py, &v),
        Some(Data::B(v)) => {
            PyBuffer::<u8>::get(out)?.copy_from_slice(py, &v.iter().map(|&b| b as u8).collect::<Vec<_>>())
        }
        None => Err(pyo3::exceptions::PyRuntimeError::new_err("atoll: no data came back from locale 0")),
    }
}

fn need<'a, 'py>(x: Option<&'a Bound<'py, PyAny>>, name: &str) -> PyResult<&'a Bound<'py, PyAny>> {
    x.ok_or_else(|| value_err(name, "missing"))
}

/// A new array of `n` elements by formula: kind is full, arange, linspace, randint, uniform, normal.
#[pyfunction]
#[pyo3(signature = (kind, n, dtype, a=None, b=None, c=None, d=None))]
#[allow(clippy::too_many_arguments)]
fn create(
    py: Python<'_>,
    kind: &str,
    n: usize,
    dtype: &str,
    a: Option<&Bound<'_, PyAny>>,
    b: Option<&Bound<'_, PyAny>>,
    c: Option<&Bound<'_, PyAny>>,
    d: Option<bool>,
) -> PyResult<Arr> {
    let dt = dtype_arg(dtype)?;
    let fill = match kind {
        "full" => Fill::Full(scal_of(need(a, "fill_value")?, dt)?),
        "arange" => Fill::Arange(need(a, "start")?.extract()?, need(b, "step")?.extract()?),
        "linspace" => Fill::Linspace(
            need(a, "start")?.extract()?,
            need(b, "step")?.extract()?,
            need(c, "stop")?.extract()?,
            d.unwrap_or(true),
        ),
        "randint" => {
            Fill::RandInt(need(a, "low")?.extract()?, need(b, "high")?.extract()?, need(c, "seed")?.extract()?)
        }
        "uniform" => {
            Fill::Uniform(need(a, "low")?.extract()?, need(b, "high")?.extract()?, need(c, "seed")?.extract()?)
        }
        "normal" => Fill::Normal(need(c, "seed")?.extract()?),
        other => return Err(value_err("kind", format!("unknown creation {other:?}"))),
    };
    new_arr(py, dt, n, |id| exec(py, &commands::CREATE, (id, n, fill)))
}

/// The expression reading `arr` at positions `start + k * step`, `k < len`.
#[pyfunction]
fn leaf(py: Python<'_>, arr: Py<Arr>, start: i64, step: i64, len: usize) -> Ex {
    let a = arr.get();
    let r = ArrRef { id: a.id, start, step, len, base_len: a.len };
    let node = Node::Leaf(r, a.dtype);
    let _ = py;
    Ex { node, keep: vec![arr] }
}

/// A scalar expression.
#[pyfunction]
fn scalar(value: &Bound<'_, PyAny>, dtype: &str) -> PyResult<Ex> {
    Ok(Ex { node: Node::Scalar(scal_of(value, dtype_arg(dtype)?)?), keep: vec![] })
}

/// `x.astype(dtype)`.
#[pyfunction]
fn cast(x: &Ex, dtype: &str) -> PyResult<Ex> {
    Ok(Ex { node: Node::Cast(Box::new(x.node.clone()), dtype_arg(dtype)?), keep: join(&[x]) })
}

/// `a op b` on operands of one dtype (the Python layer promotes first).
#[pyfunction]
fn binary(op: &str, a: &Ex, b: &Ex) -> PyResult<Ex> {
    let o = BinOp::parse(op).ok_or_else(|| value_err("op", format!("unknown operator {op:?}")))?;
    let (ta, tb) = (a.node.dtype(), b.node.dtype());
    if ta != tb {
        return Err(type_err("operands", format!("{op} needs one dtype, got {} and {}", ta.name(), tb.name())));
    }
    let ok = match ta {
        DType::I64 => <i64 as kernels::Num>::supports(o),
        DType::U64 => <u64 as kernels::Num>::supports(o),
        DType::F64 => <f64 as kernels::Num>::supports(o),
        DType::Bool => <bool as kernels::Num>::supports(o),
    };
    if !ok && !o.is_comparison() {
        return Err(type_err("operands", format!("unsupported operand dtype {} for {op}", ta.name())));
    }
    Ok(Ex { node: Node::Bin(o, Box::new(a.node.clone()), Box::new(b.node.clone())), keep: join(&[a, b]) })
}

/// A unary operation: neg, abs, invert, log, exp, sqrt, sin, cos, floor, ceil, round, isnan.
#[pyfunction]
fn unary(op: &str, x: &Ex) -> PyResult<Ex> {
    let o = UnOp::parse(op).ok_or_else(|| value_err("op", format!("unknown operation {op:?}")))?;
    let t = x.node.dtype();
    let float_only = matches!(o, UnOp::Log | UnOp::Exp | UnOp::Sqrt | UnOp::Sin | UnOp::Cos);
    if (float_only && t != DType::F64) || (o == UnOp::Invert && t == DType::F64) || (o == UnOp::Neg && t == DType::Bool)
    {
        return Err(type_err("x", format!("{op} is not supported for dtype {}", t.name())));
    }
    Ok(Ex { node: Node::Un(o, Box::new(x.node.clone())), keep: join(&[x]) })
}

/// `where(c, a, b)`.
#[pyfunction]
fn where_(c: &Ex, a: &Ex, b: &Ex) -> PyResult<Ex> {
    if c.node.dtype() != DType::Bool {
        return Err(type_err("condition", "must be bool"));
    }
    if a.node.dtype() != b.node.dtype() {
        return Err(type_err("A, B", "need one dtype"));
    }
    Ok(Ex {
        node: Node::Where(Box::new(c.node.clone()), Box::new(a.node.clone()), Box::new(b.node.clone())),
        keep: join(&[c, a, b]),
    })
}

/// A new array holding the expression's value (`n` elements).
#[pyfunction]
fn evaluate(py: Python<'_>, e: &Ex, n: usize) -> PyResult<Arr> {
    new_arr(py, e.node.dtype(), n, |id| exec(py, &commands::EVALUATE, (id, e.node.clone(), n)))
}

/// `arr[start::step][:len] = e` (in place; `step > 0`).
#[pyfunction]
fn assign(py: Python<'_>, arr: &Arr, start: i64, step: i64, len: usize, e: &Ex) -> PyResult<()> {
    let r = ArrRef { id: arr.id, start, step, len, base_len: arr.len };
    exec(py, &commands::ASSIGN, (r, e.node.clone()))
}

/// A reduction of an expression of `n` elements: sum, prod, min, max, argmin, argmax, any,
/// all, count_nonzero, is_sorted. `None` for an empty input.
#[pyfunction]
fn reduce(py: Python<'_>, e: &Ex, n: usize, op: &str) -> PyResult<Option<PyObject>> {
    let o = match op {
        "sum" => RedOp::Sum,
        "prod" => RedOp::Prod,
        "min" => RedOp::Min,
        "max" => RedOp::Max,
        "argmin" => RedOp::ArgMin,
        "argmax" => RedOp::ArgMax,
        "any" => RedOp::Any,
        "all" => RedOp::All,
        "count_nonzero" => RedOp::CountNonzero,
        "is_sorted" => RedOp::IsSorted,
        other => return Err(value_err("op", format!("unknown reduction {other:?}"))),
    };
    Ok(match exec(py, &commands::REDUCE, (e.node.clone(), n, o))? {
        Part::Empty => None,
        Part::Val(s) => Some(scal_py(py, s)),
        Part::Arg(_, i) => Some(scal_py(py, Scal::I(i as i64))),
        Part::Count(c) => Some(scal_py(py, Scal::I(c as i64))),
        Part::Sorted(_, _, ok) => Some(scal_py(py, Scal::B(ok))),
    })
}

/// Inclusive scan (`sum` or `prod`) of an expression into a new array.
#[pyfunction]
fn scan(py: Python<'_>, e: &Ex, n: usize, op: &str) -> PyResult<Arr> {
    let o = match op {
        "sum" => ScanOp::Sum,
        "prod" => ScanOp::Prod,
        other => return Err(value_err("op", format!("unknown scan {other:?}"))),
    };
    new_arr(py, e.node.dtype(), n, |id| exec(py, &commands::SCAN, (id, e.node.clone(), n, o)))
}

/// Element `pos` of a whole array.
#[pyfunction]
fn get(py: Python<'_>, arr: &Arr, pos: usize) -> PyResult<PyObject> {
    let all = exec_all(py, &commands::GET, (arr.id, pos))?;
    all.into_iter().flatten().next().map(|s| scal_py(py, s)).ok_or_else(|| {
        pyo3::exceptions::PyIndexError::new_err(format!("index {pos} is out of bounds for size {}", arr.len))
    })
}

/// Sets element `pos` of a whole array.
#[pyfunction]
fn set(py: Python<'_>, arr: &Arr, pos: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
    exec(py, &commands::SET, (arr.id, pos, scal_of(value, arr.dtype)?))
}

/// `arr[idx]` for a whole array and an int64 expression of `n` indices in range.
#[pyfunction]
fn gather(py: Python<'_>, arr: &Arr, idx: &Ex, n: usize) -> PyResult<Arr> {
    new_arr(py, arr.dtype, n, |id| exec(py, &commands::GATHER, (id, arr.id, idx.node.clone(), n)))
}

/// `arr[idx] = vals` for a whole array, `n` int64 indices in range and values of arr's dtype.
#[pyfunction]
fn scatter(py: Python<'_>, arr: &Arr, idx: &Ex, vals: &Ex, n: usize) -> PyResult<()> {
    exec(py, &commands::SCATTER, (arr.id, idx.node.clone(), vals.node.clone(), n))
}

/// `x[mask]` for expressions of `n` elements.
#[pyfunction]
fn compress(py: Python<'_>, x: &Ex, mask: &Ex, n: usize) -> PyResult<Arr> {
    let (_, generation) = session::driver(py)?;
    let id = next_id();
    let len = exec(py, &commands::COMPRESS, (id, x.node.clone(), mask.node.clone(), n))?;
    Ok(Arr { id, dtype: x.node.dtype(), len: len as usize, generation })
}

/// The permutation (int64) that sorts an expression of `n` elements.
#[pyfunction]
fn argsort(py: Python<'_>, x: &Ex, n: usize) -> PyResult<Arr> {
    new_arr(py, DType::I64, n, |id| exec(py, &commands::ARGSORT, (id, x.node.clone(), n)))
}

/// Every locale's (bytes in use, bytes available, limit).
#[pyfunction]
fn mem_status(py: Python<'_>) -> PyResult<Vec<(u64, u64, u64)>> {
    let ids = std::mem::take(&mut *DEFERRED_FREES.lock().unwrap_or_else(|p| p.into_inner()));
    if !ids.is_empty() {
        exec(py, &commands::FREE, ids)?;
    }
    exec_all(py, &commands::MEM, ())
}

/// The module.
#[pymodule]
fn _atoll(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Arr>()?;
    m.add_class::<Ex>()?;
    graph::add_to(m)?;
    m.add_class::<share::SharedHandle>()?;
    m.add_function(wrap_pyfunction!(share::make_shared_arr, m)?)?;
    m.add_function(wrap_pyfunction!(share::share_call_c, m)?)?;
    m.add("OutOfMemoryError", m.py().get_type::<errors::OutOfMemoryError>())?;
    m.add("AtollError", m.py().get_type::<errors::AtollError>())?;
    m.add_function(wrap_pyfunction!(init, m)?)?;
    m.add_function(wrap_pyfunction!(shutdown, m)?)?;
    m.add_function(wrap_pyfunction!(is_running, m)?)?;
    m.add_function(wrap_pyfunction!(job_info, m)?)?;
    m.add_function(wrap_pyfunction!(from_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(to_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(create, m)?)?;
    m.add_function(wrap_pyfunction!(leaf, m)?)?;
    m.add_function(wrap_pyfunction!(scalar, m)?)?;
    m.add_function(wrap_pyfunction!(cast, m)?)?;
    m.add_function(wrap_pyfunction!(binary, m)?)?;
    m.add_function(wrap_pyfunction!(unary, m)?)?;
    m.add_function(wrap_pyfunction!(where_, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(assign, m)?)?;
    m.add_function(wrap_pyfunction!(streaming::set_streaming_threshold, m)?)?;
    m.add_function(wrap_pyfunction!(fused::set_fused_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(get, m)?)?;
    m.add_function(wrap_pyfunction!(set, m)?)?;
    m.add_function(wrap_pyfunction!(gather, m)?)?;
    m.add_function(wrap_pyfunction!(scatter, m)?)?;
    m.add_function(wrap_pyfunction!(compress, m)?)?;
    m.add_function(wrap_pyfunction!(argsort, m)?)?;
    m.add_function(wrap_pyfunction!(mem_status, m)?)?;
    strings::add(m)?;
    str_groupby::add(m)?;
    analytics::add(m)?;
    dense_agg::add(m)?;
    pandas_ops::add(m)?;
    hdf5_io::add(m)?;
    m.add_function(wrap_pyfunction!(io::parquet_datasets, m)?)?;
    m.add_function(wrap_pyfunction!(io::read_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(io::write_parquet, m)?)?;
    Ok(())
}
