//! Distributed strings (`atoll-strings`, Python's `ak.Strings`). Strings live in a per-locale
//! registry of their own (like the arrays' [`Registry`]); operations that give numbers or
//! booleans put their arrays in the arrays' registry, so the driver sees them as arrays.

use crate::handles::{self, next_ids, Array, Session};
use crate::handoff::DriverRef;
use crate::registry::{lock, Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::strings::{random_strings_uniform, Charset, DistStrings, RegexFlags};
use atoll::{Error, Result};
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
    lock(&reg(ctx).map).get(&id).cloned().ok_or_else(|| Error::InvalidArgument(format!("internal: no strings {id}")))
}

pub(crate) fn put(ctx: &Ctx, id: u64, s: DistStrings) {
    lock(&reg(ctx).map).insert(id, Arc::new(s));
}

/// New strings `id` from the driver's `list`.
#[derive(Serialize, Deserialize)]
pub struct FromList {
    /// The new strings' id.
    pub id: u64,
    /// The driver's list.
    pub list: DriverRef<Vec<String>>,
}

fn from_list_cmd(ctx: &Ctx, FromList { id, list }: FromList) -> Result<()> {
    // SAFETY: locale 0 lives in the driver's process, which holds the list for the command.
    let data = if ctx.id() == 0 { unsafe { list.get_mut() }.map(std::mem::take) } else { None };
    let s = DistStrings::from_root(ctx, 0, data.as_deref())?;
    put(ctx, id, s);
    Ok(())
}

/// Strings `id` copied into the driver's list `out`.
#[derive(Serialize, Deserialize)]
pub struct ToList {
    /// The strings.
    pub id: u64,
    /// The driver's list, filled.
    pub out: DriverRef<Vec<String>>,
}

fn to_list_cmd(ctx: &Ctx, ToList { id, out }: ToList) -> Result<()> {
    let v = get(ctx, id)?.gather(0)?;
    if ctx.id() == 0 {
        // SAFETY: as in `from_list`: the driver holds the output slot for the command.
        if let (Some(slot), Some(v)) = (unsafe { out.get_mut() }, v) {
            *slot = v;
        }
    }
    Ok(())
}

fn free_cmd(ctx: &Ctx, ids: Vec<u64>) -> Result<()> {
    let r = reg(ctx);
    let mut m = lock(&r.map);
    for id in ids {
        m.remove(&id);
    }
    Ok(())
}

/// `n` random strings `id` of uniform lengths in `[minlen, maxlen)` over `chars`, from `seed`.
#[derive(Serialize, Deserialize)]
pub struct RandomUniform {
    /// The new strings' id.
    pub id: u64,
    /// The shortest length.
    pub minlen: usize,
    /// One past the longest length.
    pub maxlen: usize,
    /// The number of strings.
    pub n: usize,
    /// The characters drawn from.
    pub chars: String,
    /// The seed.
    pub seed: u64,
}

fn random_cmd(ctx: &Ctx, RandomUniform { id, minlen, maxlen, n, chars, seed }: RandomUniform) -> Result<()> {
    let s = random_strings_uniform(ctx, minlen, maxlen, n, Charset::from_name(&chars)?, seed)?;
    put(ctx, id, s);
    Ok(())
}

/// An operation giving new strings.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[allow(missing_docs)]
pub enum StrOp {
    Lower,
    Upper,
    Title,
    Strip(Option<String>),
    Sub(String, String, usize),
    Take(u64),
    Stick(u64, String, bool),
}

/// New strings `out` made from strings `id` by `op`.
#[derive(Serialize, Deserialize)]
pub struct Transform {
    /// The new strings' id.
    pub out: u64,
    /// The strings read.
    pub id: u64,
    /// The operation.
    pub op: StrOp,
}

fn str_op_cmd(ctx: &Ctx, Transform { out, id, op }: Transform) -> Result<()> {
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

/// An operation giving one number or boolean per string.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[allow(missing_docs)]
pub enum ValOp {
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

/// New arrays, ids from `out` on: one value per string of strings `id`, by `op`.
#[derive(Serialize, Deserialize)]
pub struct Values {
    /// The first new array's id (the others follow).
    pub out: u64,
    /// The strings read.
    pub id: u64,
    /// The operation.
    pub op: ValOp,
}

fn val_op_cmd(ctx: &Ctx, Values { out, id, op }: Values) -> Result<()> {
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

/// Strings `id` split at `sep` (a regular expression when `regex`): the pieces and their segments.
#[derive(Serialize, Deserialize)]
pub struct Split {
    /// The pieces' new id.
    pub out_s: u64,
    /// The new segments' id.
    pub out_seg: u64,
    /// The strings split.
    pub id: u64,
    /// The separator.
    pub sep: String,
    /// Whether `sep` is a regular expression.
    pub regex: bool,
    /// The most splits per string.
    pub maxsplit: Option<usize>,
    /// Whether the pieces are the matches (`findall`) rather than what lies between them.
    pub findall: bool,
}

fn split_cmd(ctx: &Ctx, Split { out_s, out_seg, id, sep, regex, maxsplit, findall }: Split) -> Result<()> {
    let s = get(ctx, id)?;
    let p = if findall { s.findall(&sep, RegexFlags::default())? } else { s.split(&sep, regex, maxsplit)? };
    put(ctx, out_s, p.pieces);
    Registry::of(ctx).insert(out_seg, Col::I(p.segments));
    Ok(())
}

/// Strings `id` cut at the `times`-th occurrence of `d`: the parts left and right of it.
#[derive(Serialize, Deserialize)]
pub struct Peel {
    /// The left parts' new id.
    pub l: u64,
    /// The right parts' new id.
    pub r: u64,
    /// The strings cut.
    pub id: u64,
    /// The delimiter.
    pub d: String,
    /// Which occurrence cuts.
    pub times: usize,
    /// Whether the parts keep the delimiter.
    pub incl: bool,
    /// Whether strings with fewer occurrences keep a partial result.
    pub keep: bool,
    /// Whether occurrences count from the right.
    pub right: bool,
}

fn peel_cmd(ctx: &Ctx, Peel { l, r, id, d, times, incl, keep, right }: Peel) -> Result<()> {
    let s = get(ctx, id)?;
    let (a, b) = if right { s.rpeel(&d, times, incl, keep)? } else { s.peel(&d, times, incl, keep)? };
    put(ctx, l, a);
    put(ctx, r, b);
    Ok(())
}

/// The two uint64 hashes of strings `id`, as new arrays `h1` and `h2`.
#[derive(Serialize, Deserialize)]
pub struct HashStrings {
    /// The first hashes' new id.
    pub h1: u64,
    /// The second hashes' new id.
    pub h2: u64,
    /// The strings.
    pub id: u64,
}

fn hash_cmd(ctx: &Ctx, HashStrings { h1, h2, id }: HashStrings) -> Result<()> {
    let (a, b) = get(ctx, id)?.hash()?;
    Registry::of(ctx).insert(h1, Col::U(a));
    Registry::of(ctx).insert(h2, Col::U(b));
    Ok(())
}

/// Strings `id` grouped: the permutation, segments, unique keys and counts as new ids.
#[derive(Serialize, Deserialize)]
pub struct GroupStrings {
    /// The permutation's new id.
    pub perm: u64,
    /// The segments' new id.
    pub segs: u64,
    /// The unique keys' new id.
    pub keys: u64,
    /// The counts' new id.
    pub counts: u64,
    /// The strings grouped.
    pub id: u64,
}

/// Group-by by string keys: permutation, segments, unique keys (strings), counts.
fn groupby_cmd(ctx: &Ctx, GroupStrings { perm, segs, keys, counts, id }: GroupStrings) -> Result<usize> {
    let g = get(ctx, id)?.groupby()?;
    let k = g.unique_keys.len();
    Registry::of(ctx).insert(perm, Col::I(g.permutation));
    Registry::of(ctx).insert(segs, Col::I(g.segments));
    Registry::of(ctx).insert(counts, Col::I(g.counts));
    put(ctx, keys, g.unique_keys);
    Ok(k)
}

/// New strings `out`: the strings `ids`, one after another.
#[derive(Serialize, Deserialize)]
pub struct Concatenate {
    /// The new strings' id.
    pub out: u64,
    /// The strings, in order.
    pub ids: Vec<u64>,
}

fn concatenate_cmd(ctx: &Ctx, Concatenate { out, ids }: Concatenate) -> Result<()> {
    let all: Vec<Arc<DistStrings>> = ids.iter().map(|&i| get(ctx, i)).collect::<Result<_>>()?;
    let refs: Vec<&DistStrings> = all.iter().map(|a| &**a).collect();
    put(ctx, out, DistStrings::concatenate(&refs)?);
    Ok(())
}

commands! {
    modules {
        pub mod categorical;
        pub mod extra;
    }

    static FROM_LIST: Handler<FromList, ()> =
        Handler::new("atoll-session::str_from_list", from_list_cmd);

    static TO_LIST: Handler<ToList, ()> =
        Handler::new("atoll-session::str_to_list", to_list_cmd);

    static FREE: Handler<Vec<u64>, ()> = Handler::new("atoll-session::str_free", free_cmd);

    static RANDOM: Handler<RandomUniform, ()> =
        Handler::new("atoll-session::str_random", random_cmd);

    static STR_OP: Handler<Transform, ()> = Handler::new("atoll-session::str_op", str_op_cmd);

    static VAL_OP: Handler<Values, ()> = Handler::new("atoll-session::str_val_op", val_op_cmd);

    static SPLIT: Handler<Split, ()> =
        Handler::new("atoll-session::str_split", split_cmd);

    static PEEL: Handler<Peel, ()> =
        Handler::new("atoll-session::str_peel", peel_cmd);

    static HASH: Handler<HashStrings, ()> = Handler::new("atoll-session::str_hash", hash_cmd);

    static GROUPBY: Handler<GroupStrings, usize> = Handler::new("atoll-session::str_groupby", groupby_cmd);

    static CONCATENATE: Handler<Concatenate, ()> = Handler::new("atoll-session::str_concatenate", concatenate_cmd);

    static LEN: Handler<u64, usize> = Handler::new("atoll-session::str_len", len_of_cmd);
}

fn len_of_cmd(ctx: &Ctx, id: u64) -> Result<usize> {
    Ok(get(ctx, id)?.len())
}

/// Registered strings: their id on every locale, count and session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strs {
    /// The id in every locale's strings registry.
    pub id: u64,
    /// The number of strings.
    pub len: usize,
    /// The session that registered them.
    pub generation: u64,
}

impl Strs {
    /// Frees the strings on every locale, unless their session has ended. **Collective** (a
    /// command). Errors are dropped: this is what a handle's `Drop` calls.
    pub fn release(&self) {
        if self.generation != handles::generation() {
            return;
        }
        if let Some(s) = Session::running() {
            let _ = s.exec(&FREE, vec![self.id]);
        }
    }
}

fn new_strs(s: &Session, len: usize, make: impl FnOnce(u64) -> Result<()>) -> Result<Strs> {
    let id = next_ids(1);
    make(id)?;
    Ok(Strs { id, len, generation: s.generation() })
}

fn arr(s: &Session, id: u64, dtype: DType, len: usize) -> Array {
    Array { id, dtype, len, generation: s.generation() }
}

/// Strings of a list of `str` on the driver (taken: the list is left empty). **Collective.**
pub fn from_list(s: &Session, list: &mut Vec<String>) -> Result<Strs> {
    let n = list.len();
    // The list is held until the command ends (the handoff module's promise).
    let r = DriverRef::of_mut(list);
    new_strs(s, n, |id| s.exec(&FROM_LIST, FromList { id, list: r }))
}

/// Every string, on the driver. **Collective.**
pub fn to_list(s: &Session, x: &Strs) -> Result<Vec<String>> {
    let mut out = Vec::new();
    // `out` is held until the command ends (the handoff module's promise).
    let slot = DriverRef::of_mut(&mut out);
    s.exec(&TO_LIST, ToList { id: x.id, out: slot })?;
    Ok(out)
}

/// `n` random strings of lengths in `minlen..maxlen` of the characters `charset` names, from
/// `seed` (the same on any locale count). **Collective.**
pub fn random_uniform(s: &Session, minlen: usize, maxlen: usize, n: usize, charset: &str, seed: u64) -> Result<Strs> {
    new_strs(s, n, |id| s.exec(&RANDOM, RandomUniform { id, minlen, maxlen, n, chars: charset.to_string(), seed }))
}

impl StrOp {
    /// The operation of a name (`lower`, `upper`, `title`, `strip`, `sub`, `take`, `stick`,
    /// `lstick`) with its arguments, and the number of strings it gives for `len` inputs.
    pub fn of_name(
        op: &str,
        len: usize,
        a: Option<String>,
        b: Option<String>,
        k: usize,
        other: Option<&Strs>,
        idx: Option<&Array>,
    ) -> Result<(StrOp, usize)> {
        let arg = |x: Option<String>, name: &str| x.ok_or_else(|| Error::InvalidArgument(format!("{name}: missing")));
        Ok(match op {
            "lower" => (StrOp::Lower, len),
            "upper" => (StrOp::Upper, len),
            "title" => (StrOp::Title, len),
            "strip" => (StrOp::Strip(a), len),
            "sub" => (StrOp::Sub(arg(a, "pat")?, arg(b, "repl")?, k), len),
            "take" => {
                let i = idx.ok_or_else(|| Error::InvalidArgument("idx: missing".into()))?;
                (StrOp::Take(i.id), i.len)
            }
            "stick" | "lstick" => {
                let o = other.ok_or_else(|| Error::InvalidArgument("other: missing".into()))?;
                (StrOp::Stick(o.id, a.unwrap_or_default(), op == "lstick"), len)
            }
            _ => return Err(Error::InvalidArgument(format!("op: unknown strings operation {op:?}"))),
        })
    }
}

/// New strings by `op` from `x` (`len` of them). **Collective.**
pub fn transform(s: &Session, x: &Strs, op: StrOp, len: usize) -> Result<Strs> {
    new_strs(s, len, |id| s.exec(&STR_OP, Transform { out: id, id: x.id, op }))
}

impl ValOp {
    /// The operation of a name (`lengths`, `contains`, `startswith`, `endswith`, `eq_str`,
    /// `ne_str`, `eq`, `ne`, `search`, `match`, `fullmatch`, `argsort`, `in1d`), its result's
    /// dtype and how many arrays it gives (a regex search: matched, starts, lengths).
    pub fn of_name(
        op: &str,
        pat: Option<String>,
        regex: bool,
        other: Option<&Strs>,
        flags: u8,
    ) -> Result<(ValOp, DType, usize)> {
        let pat = || pat.clone().ok_or_else(|| Error::InvalidArgument("pat: missing".into()));
        let oth = || other.map(|o| o.id).ok_or_else(|| Error::InvalidArgument("other: missing".into()));
        Ok(match op {
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
            _ => return Err(Error::InvalidArgument(format!("op: unknown strings operation {op:?}"))),
        })
    }
}

/// Arrays of one value per string by `op` (of dtype `dtype`; a regex search gives three:
/// matched, then the int64 starts and lengths). **Collective.**
pub fn values(s: &Session, x: &Strs, op: ValOp, dtype: DType, outs: usize) -> Result<Vec<Array>> {
    // Consecutive ids for the results (a search's starts and lengths follow its flags).
    let id = next_ids(outs as u64);
    s.exec(&VAL_OP, Values { out: id, id: x.id, op })?;
    let mut out = vec![arr(s, id, dtype, x.len)];
    out.extend((1..outs as u64).map(|k| arr(s, id + k, DType::I64, x.len)));
    Ok(out)
}

/// `split` (or `findall` when `findall`): the pieces and the segments. **Collective.**
pub fn split(
    s: &Session,
    x: &Strs,
    sep: &str,
    regex: bool,
    maxsplit: Option<usize>,
    findall: bool,
) -> Result<(Strs, Array)> {
    let ids = next_ids(2);
    s.exec(&SPLIT, Split { out_s: ids, out_seg: ids + 1, id: x.id, sep: sep.to_string(), regex, maxsplit, findall })?;
    let n = s.exec(&LEN, ids)?;
    Ok((Strs { id: ids, len: n, generation: s.generation() }, arr(s, ids + 1, DType::I64, x.len)))
}

/// `peel` / `rpeel` (`from_right`): the two parts. **Collective.**
pub fn peel(
    s: &Session,
    x: &Strs,
    delimiter: &str,
    times: usize,
    include_delimiter: bool,
    keep_partial: bool,
    from_right: bool,
) -> Result<(Strs, Strs)> {
    let l = next_ids(2);
    let args = Peel {
        l,
        r: l + 1,
        id: x.id,
        d: delimiter.to_string(),
        times,
        incl: include_delimiter,
        keep: keep_partial,
        right: from_right,
    };
    s.exec(&PEEL, args)?;
    let g = s.generation();
    Ok((Strs { id: l, len: x.len, generation: g }, Strs { id: l + 1, len: x.len, generation: g }))
}

/// The two uint64 hashes of each string. **Collective.**
pub fn hash(s: &Session, x: &Strs) -> Result<(Array, Array)> {
    let a = next_ids(2);
    s.exec(&HASH, HashStrings { h1: a, h2: a + 1, id: x.id })?;
    Ok((arr(s, a, DType::U64, x.len), arr(s, a + 1, DType::U64, x.len)))
}

/// Group-by by string keys: (permutation, segments, unique keys, counts). **Collective.**
pub fn groupby(s: &Session, x: &Strs) -> Result<(Array, Array, Strs, Array)> {
    let p = next_ids(4);
    let groups = s.exec(&GROUPBY, GroupStrings { perm: p, segs: p + 1, keys: p + 2, counts: p + 3, id: x.id })?;
    Ok((
        arr(s, p, DType::I64, x.len),
        arr(s, p + 1, DType::I64, groups),
        Strs { id: p + 2, len: groups, generation: s.generation() },
        arr(s, p + 3, DType::I64, groups),
    ))
}

/// The strings of `all`, one after another. **Collective.**
pub fn concatenate(s: &Session, all: &[Strs]) -> Result<Strs> {
    let n = all.iter().map(|x| x.len).sum();
    let ids: Vec<u64> = all.iter().map(|x| x.id).collect();
    new_strs(s, n, |id| s.exec(&CONCATENATE, Concatenate { out: id, ids }))
}
