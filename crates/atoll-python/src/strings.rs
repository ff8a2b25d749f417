//! Bindings of `atoll-strings` (issue 17): `ak.Strings`. Strings live in a per-locale registry
//! of their own (like the arrays' [`Registry`]); operations that give numbers or booleans put
//! their arrays in the arrays' registry, so Python sees them as `pdarray`s.

use crate::errors::value_err;
use crate::handoff::DriverRef;
use crate::registry::{Col, Registry};
use crate::session::{self, exec, next_id};
use crate::types::DType;
use crate::{new_arr, Arr};
use atoll::runtime::{Ctx, Handler};
use atoll::strings::{random_strings_uniform, Charset, DistStrings, RegexFlags};
use atoll::{Error, Result};
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One locale's live strings.
#[derive(Default)]
struct StrRegistry {
    map: Mutex<HashMap<u64, Arc<DistStrings>>>,
}

fn reg(ctx: &Ctx) -> Arc<StrRegistry> {
    ctx.locale_ext::<StrRegistry>()
}

pub(crate) fn get(ctx: &Ctx, id: u64) -> Result<Arc<DistStrings>> {
    reg(ctx)
        .map
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&id)
        .cloned()
        .ok_or_else(|| Error::InvalidArgument(format!("internal: no strings {id}")))
}

pub(crate) fn put(ctx: &Ctx, id: u64, s: DistStrings) {
    reg(ctx).map.lock().unwrap_or_else(|p| p.into_inner()).insert(id, Arc::new(s));
}

fn from_list(ctx: &Ctx, (id, list): (u64, DriverRef<Vec<String>>)) -> Result<()> {
    // SAFETY: locale 0 lives in the driver's process, which holds the list for the command.
    let data = if ctx.id() == 0 { unsafe { list.get_mut() }.map(std::mem::take) } else { None };
    let s = DistStrings::from_root(ctx, 0, data.as_deref())?;
    put(ctx, id, s);
    Ok(())
}
static FROM_LIST: Handler<(u64, DriverRef<Vec<String>>), ()> = Handler::new("atoll-python::str_from_list", from_list);

fn to_list(ctx: &Ctx, (id, out): (u64, DriverRef<Vec<String>>)) -> Result<()> {
    let v = get(ctx, id)?.gather(0)?;
    if ctx.id() == 0 {
        // SAFETY: as in `from_list`: the driver holds the output slot for the command.
        if let (Some(slot), Some(v)) = (unsafe { out.get_mut() }, v) {
            *slot = v;
        }
    }
    Ok(())
}
static TO_LIST: Handler<(u64, DriverRef<Vec<String>>), ()> = Handler::new("atoll-python::str_to_list", to_list);

fn free(ctx: &Ctx, ids: Vec<u64>) -> Result<()> {
    let r = reg(ctx);
    let mut m = r.map.lock().unwrap_or_else(|p| p.into_inner());
    for id in ids {
        m.remove(&id);
    }
    Ok(())
}
static FREE: Handler<Vec<u64>, ()> = Handler::new("atoll-python::str_free", free);

fn random(ctx: &Ctx, (id, minlen, maxlen, n, chars, seed): (u64, usize, usize, usize, String, u64)) -> Result<()> {
    let s = random_strings_uniform(ctx, minlen, maxlen, n, Charset::from_name(&chars)?, seed)?;
    put(ctx, id, s);
    Ok(())
}
static RANDOM: Handler<(u64, usize, usize, usize, String, u64), ()> = Handler::new("atoll-python::str_random", random);

/// An operation giving new strings.
#[derive(Serialize, Deserialize, Clone, Debug)]
enum StrOp {
    Lower,
    Upper,
    Title,
    Strip(Option<String>),
    Sub(String, String, usize),
    Take(u64),
    Stick(u64, String, bool),
}

fn str_op(ctx: &Ctx, (out, id, op): (u64, u64, StrOp)) -> Result<()> {
    let s = get(ctx, id)?;
    let r = match op {
        StrOp::Lower => s.lower()?,
        StrOp::Upper => s.upper()?,
        StrOp::Title => s.title()?,
        StrOp::Strip(c) => s.strip(c.as_deref())?,
        StrOp::Sub(p, r, k) => s.sub(&p, &r, k)?,
        StrOp::Take(idx) => {
            let g = Registry::of(ctx).get(idx)?;
            let c = crate::registry::lock(&g);
            match &*c {
                Col::I(a) => s.take(a)?,
                _ => return Err(Error::InvalidArgument("index: expected an int64 array".into())),
            }
        }
        StrOp::Stick(other, d, left) => {
            let o = get(ctx, other)?;
            if left {
                s.lstick(&o, &d)?
            } else {
                s.stick(&o, &d)?
            }
        }
    };
    put(ctx, out, r);
    Ok(())
}
static STR_OP: Handler<(u64, u64, StrOp), ()> = Handler::new("atoll-python::str_op", str_op);

/// An operation giving one number or boolean per string.
#[derive(Serialize, Deserialize, Clone, Debug)]
enum ValOp {
    Lengths,
    Contains(String, bool),
    StartsWith(String),
    EndsWith(String),
    EqStr(String),
    NeStr(String),
    Eq(u64),
    Ne(u64),
    Search(String, u8, u8),
    Argsort,
    In1d(u64),
}

fn val_op(ctx: &Ctx, (out, id, op): (u64, u64, ValOp)) -> Result<()> {
    let s = get(ctx, id)?;
    let col = match op {
        ValOp::Lengths => Col::I(s.lengths()?),
        ValOp::Contains(p, true) => Col::B(s.contains_regex(&p)?),
        ValOp::Contains(p, false) => Col::B(s.contains(&p)?),
        ValOp::StartsWith(p) => Col::B(s.startswith(&p)?),
        ValOp::EndsWith(p) => Col::B(s.endswith(&p)?),
        ValOp::EqStr(p) => Col::B(s.eq_str(&p)?),
        ValOp::NeStr(p) => Col::B(s.ne_str(&p)?),
        ValOp::Eq(o) => Col::B(s.eq(&*get(ctx, o)?)?),
        ValOp::Ne(o) => Col::B(s.ne(&*get(ctx, o)?)?),
        ValOp::Search(p, kind, flags) => {
            let f = RegexFlags { ignore_case: flags & 1 != 0, multiline: flags & 2 != 0, dot_all: flags & 4 != 0 };
            let m = match kind {
                0 => s.search(&p, f)?,
                1 => s.match_(&p, f)?,
                _ => s.fullmatch(&p, f)?,
            };
            // Three results: matched (out), starts (out + 1), lengths (out + 2).
            Registry::of(ctx).insert(out + 1, Col::I(m.starts));
            Registry::of(ctx).insert(out + 2, Col::I(m.lengths));
            Col::B(m.matched)
        }
        ValOp::Argsort => Col::I(s.argsort()?),
        ValOp::In1d(o) => Col::B(s.in1d(&*get(ctx, o)?)?),
    };
    Registry::of(ctx).insert(out, col);
    Ok(())
}
static VAL_OP: Handler<(u64, u64, ValOp), ()> = Handler::new("atoll-python::str_val_op", val_op);

fn split(
    ctx: &Ctx,
    (out_s, out_seg, id, sep, regex, maxsplit, findall): (u64, u64, u64, String, bool, Option<usize>, bool),
) -> Result<()> {
    let s = get(ctx, id)?;
    let p = if findall { s.findall(&sep, RegexFlags::default())? } else { s.split(&sep, regex, maxsplit)? };
    put(ctx, out_s, p.pieces);
    Registry::of(ctx).insert(out_seg, Col::I(p.segments));
    Ok(())
}
static SPLIT: Handler<(u64, u64, u64, String, bool, Option<usize>, bool), ()> =
    Handler::new("atoll-python::str_split", split);

fn peel(
    ctx: &Ctx,
    (l, r, id, d, times, incl, keep, right): (u64, u64, u64, String, usize, bool, bool, bool),
) -> Result<()> {
    let s = get(ctx, id)?;
    let (a, b) = if right { s.rpeel(&d, times, incl, keep)? } else { s.peel(&d, times, incl, keep)? };
    put(ctx, l, a);
    put(ctx, r, b);
    Ok(())
}
static PEEL: Handler<(u64, u64, u64, String, usize, bool, bool, bool), ()> =
    Handler::new("atoll-python::str_peel", peel);

fn hash(ctx: &Ctx, (h1, h2, id): (u64, u64, u64)) -> Result<()> {
    let (a, b) = get(ctx, id)?.hash()?;
    Registry::of(ctx).insert(h1, Col::U(a));
    Registry::of(ctx).insert(h2, Col::U(b));
    Ok(())
}
static HASH: Handler<(u64, u64, u64), ()> = Handler::new("atoll-python::str_hash", hash);

/// Group-by by string keys: permutation, segments, unique keys (strings), counts.
fn groupby(ctx: &Ctx, (perm, segs, keys, counts, id): (u64, u64, u64, u64, u64)) -> Result<usize> {
    let g = get(ctx, id)?.groupby()?;
    let k = g.unique_keys.len();
    Registry::of(ctx).insert(perm, Col::I(g.permutation));
    Registry::of(ctx).insert(segs, Col::I(g.segments));
    Registry::of(ctx).insert(counts, Col::I(g.counts));
    put(ctx, keys, g.unique_keys);
    Ok(k)
}
static GROUPBY: Handler<(u64, u64, u64, u64, u64), usize> = Handler::new("atoll-python::str_groupby", groupby);

fn concatenate(ctx: &Ctx, (out, ids): (u64, Vec<u64>)) -> Result<()> {
    let all: Vec<Arc<DistStrings>> = ids.iter().map(|&i| get(ctx, i)).collect::<Result<_>>()?;
    let refs: Vec<&DistStrings> = all.iter().map(|a| &**a).collect();
    put(ctx, out, DistStrings::concatenate(&refs)?);
    Ok(())
}
static CONCATENATE: Handler<(u64, Vec<u64>), ()> = Handler::new("atoll-python::str_concatenate", concatenate);

/// Registers the strings' commands (called by `commands::register_all`).
pub fn register() {
    FROM_LIST.register();
    TO_LIST.register();
    FREE.register();
    RANDOM.register();
    STR_OP.register();
    VAL_OP.register();
    SPLIT.register();
    PEEL.register();
    HASH.register();
    GROUPBY.register();
    CONCATENATE.register();
    LEN.register();
}

/// Distributed strings' handle: freed on every locale when the last reference goes.
#[pyclass(module = "atoll._atoll", frozen)]
pub struct StrArr {
    pub(crate) id: u64,
    pub(crate) len: usize,
    pub(crate) generation: u64,
}

impl Drop for StrArr {
    fn drop(&mut self) {
        if self.generation != session::generation() {
            return;
        }
        let id = self.id;
        Python::with_gil(|py| {
            let _ = exec(py, &FREE, vec![id]);
        });
    }
}

#[pymethods]
impl StrArr {
    /// The number of strings.
    #[getter]
    fn size(&self) -> usize {
        self.len
    }
}

fn new_str(py: Python<'_>, len: usize, f: impl FnOnce(u64) -> PyResult<()>) -> PyResult<StrArr> {
    let (_, generation) = session::driver(py)?;
    let id = next_id();
    f(id)?;
    Ok(StrArr { id, len, generation })
}

/// Strings from a list of `str` (on the driver).
#[pyfunction]
fn str_from_list(py: Python<'_>, mut v: Vec<String>) -> PyResult<StrArr> {
    let n = v.len();
    // `v` is held until the command ends (the handoff module's promise).
    let list = DriverRef::of_mut(&mut v);
    new_str(py, n, |id| exec(py, &FROM_LIST, (id, list)))
}

/// Every string, on the driver.
#[pyfunction]
fn str_to_list(py: Python<'_>, s: &StrArr) -> PyResult<Vec<String>> {
    let mut out = Vec::new();
    // `out` is held until the command ends (the handoff module's promise).
    let slot = DriverRef::of_mut(&mut out);
    exec(py, &TO_LIST, (s.id, slot))?;
    Ok(out)
}

/// `random_strings_uniform`.
#[pyfunction]
fn str_random_uniform(
    py: Python<'_>,
    minlen: usize,
    maxlen: usize,
    n: usize,
    characters: String,
    seed: u64,
) -> PyResult<StrArr> {
    new_str(py, n, |id| exec(py, &RANDOM, (id, minlen, maxlen, n, characters, seed)))
}

/// An operation giving strings: `op` names it, `a`/`b`/`k` are its arguments.
#[pyfunction]
#[pyo3(signature = (s, op, a=None, b=None, k=0, other=None, idx=None))]
#[allow(clippy::too_many_arguments)]
fn str_op_py(
    py: Python<'_>,
    s: &StrArr,
    op: &str,
    a: Option<String>,
    b: Option<String>,
    k: usize,
    other: Option<&StrArr>,
    idx: Option<&Arr>,
) -> PyResult<StrArr> {
    let arg = |x: Option<String>, name: &str| x.ok_or_else(|| value_err(name, "missing"));
    let (op, len) = match op {
        "lower" => (StrOp::Lower, s.len),
        "upper" => (StrOp::Upper, s.len),
        "title" => (StrOp::Title, s.len),
        "strip" => (StrOp::Strip(a), s.len),
        "sub" => (StrOp::Sub(arg(a, "pat")?, arg(b, "repl")?, k), s.len),
        "take" => {
            let i = idx.ok_or_else(|| value_err("idx", "missing"))?;
            (StrOp::Take(i.id), i.len)
        }
        "stick" | "lstick" => {
            let o = other.ok_or_else(|| value_err("other", "missing"))?;
            (StrOp::Stick(o.id, a.unwrap_or_default(), op == "lstick"), s.len)
        }
        _ => return Err(value_err("op", format!("unknown strings operation {op:?}"))),
    };
    new_str(py, len, |id| exec(py, &STR_OP, (id, s.id, op)))
}

/// An operation giving a pdarray (int64 or bool) per string.
#[pyfunction]
#[pyo3(signature = (s, op, a=None, regex=false, other=None, flags=0))]
fn str_val_py(
    py: Python<'_>,
    s: &StrArr,
    op: &str,
    a: Option<String>,
    regex: bool,
    other: Option<&StrArr>,
    flags: u8,
) -> PyResult<Vec<Arr>> {
    let pat = || a.clone().ok_or_else(|| value_err("pat", "missing"));
    let oth = || other.map(|o| o.id).ok_or_else(|| value_err("other", "missing"));
    let (op, dt, outs) = match op {
        "lengths" => (ValOp::Lengths, DType::I64, 1),
        "contains" => (ValOp::Contains(pat()?, regex), DType::Bool, 1),
        "startswith" => (ValOp::StartsWith(pat()?), DType::Bool, 1),
        "endswith" => (ValOp::EndsWith(pat()?), DType::Bool, 1),
        "eq_str" => (ValOp::EqStr(pat()?), DType::Bool, 1),
        "ne_str" => (ValOp::NeStr(pat()?), DType::Bool, 1),
        "eq" => (ValOp::Eq(oth()?), DType::Bool, 1),
        "ne" => (ValOp::Ne(oth()?), DType::Bool, 1),
        "search" => (ValOp::Search(pat()?, 0, flags), DType::Bool, 3),
        "match" => (ValOp::Search(pat()?, 1, flags), DType::Bool, 3),
        "fullmatch" => (ValOp::Search(pat()?, 2, flags), DType::Bool, 3),
        "argsort" => (ValOp::Argsort, DType::I64, 1),
        "in1d" => (ValOp::In1d(oth()?), DType::Bool, 1),
        _ => return Err(value_err("op", format!("unknown strings operation {op:?}"))),
    };
    let (_, generation) = session::driver(py)?;
    // Consecutive ids for the results (search's starts and lengths follow its flags).
    let id = next_id();
    for _ in 1..outs {
        next_id();
    }
    exec(py, &VAL_OP, (id, s.id, op))?;
    let mut out = vec![Arr { id, dtype: dt, len: s.len, generation }];
    for k in 1..outs {
        out.push(Arr { id: id + k as u64, dtype: DType::I64, len: s.len, generation });
    }
    Ok(out)
}

/// `split` (or `findall` when `findall`): the pieces and the segments.
#[pyfunction]
#[pyo3(signature = (s, sep, regex=false, maxsplit=None, findall=false))]
fn str_split_py(
    py: Python<'_>,
    s: &StrArr,
    sep: String,
    regex: bool,
    maxsplit: Option<usize>,
    findall: bool,
) -> PyResult<(StrArr, Arr)> {
    let seg = new_arr(py, DType::I64, s.len, |_| Ok(()))?;
    let pieces_id = next_id();
    let (_, generation) = session::driver(py)?;
    exec(py, &SPLIT, (pieces_id, seg.id, s.id, sep, regex, maxsplit, findall))?;
    let n = exec(py, &LEN, pieces_id)?;
    Ok((StrArr { id: pieces_id, len: n, generation }, seg))
}

fn len_of(ctx: &Ctx, id: u64) -> Result<usize> {
    Ok(get(ctx, id)?.len())
}
static LEN: Handler<u64, usize> = Handler::new("atoll-python::str_len", len_of);

/// `peel` / `rpeel`.
#[pyfunction]
fn str_peel_py(
    py: Python<'_>,
    s: &StrArr,
    delimiter: String,
    times: usize,
    include_delimiter: bool,
    keep_partial: bool,
    from_right: bool,
) -> PyResult<(StrArr, StrArr)> {
    let (_, generation) = session::driver(py)?;
    let (l, r) = (next_id(), next_id());
    exec(py, &PEEL, (l, r, s.id, delimiter, times, include_delimiter, keep_partial, from_right))?;
    Ok((StrArr { id: l, len: s.len, generation }, StrArr { id: r, len: s.len, generation }))
}

/// `hash`: two uint64 pdarrays.
#[pyfunction]
fn str_hash_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, Arr)> {
    let (_, generation) = session::driver(py)?;
    let (a, b) = (next_id(), next_id());
    exec(py, &HASH, (a, b, s.id))?;
    Ok((
        Arr { id: a, dtype: DType::U64, len: s.len, generation },
        Arr { id: b, dtype: DType::U64, len: s.len, generation },
    ))
}

/// Group-by by string keys: (permutation, segments, unique keys, counts). The entry point for
/// `ak.GroupBy(strings)`.
#[pyfunction]
fn str_groupby_py(py: Python<'_>, s: &StrArr) -> PyResult<(Arr, Arr, StrArr, Arr)> {
    let (_, generation) = session::driver(py)?;
    let (p, g, k, c) = (next_id(), next_id(), next_id(), next_id());
    let groups = exec(py, &GROUPBY, (p, g, k, c, s.id))?;
    Ok((
        Arr { id: p, dtype: DType::I64, len: s.len, generation },
        Arr { id: g, dtype: DType::I64, len: groups, generation },
        StrArr { id: k, len: groups, generation },
        Arr { id: c, dtype: DType::I64, len: groups, generation },
    ))
}

/// `ak.concatenate` of Strings.
#[pyfunction]
fn str_concatenate_py(py: Python<'_>, all: Vec<PyRef<'_, StrArr>>) -> PyResult<StrArr> {
    let n = all.iter().map(|s| s.len).sum();
    let ids: Vec<u64> = all.iter().map(|s| s.id).collect();
    new_str(py, n, |id| exec(py, &CONCATENATE, (id, ids)))
}

/// Adds the strings' class and functions to the module.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StrArr>()?;
    m.add_function(wrap_pyfunction!(str_from_list, m)?)?;
    m.add_function(wrap_pyfunction!(str_to_list, m)?)?;
    m.add_function(wrap_pyfunction!(str_random_uniform, m)?)?;
    m.add_function(wrap_pyfunction!(str_op_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_val_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_split_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_peel_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_hash_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_groupby_py, m)?)?;
    m.add_function(wrap_pyfunction!(str_concatenate_py, m)?)?;
    Ok(())
}
