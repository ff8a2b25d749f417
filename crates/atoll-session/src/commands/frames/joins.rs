//! The joins' kernels (`python/atoll/pandas/join.py`): the rows of several string columns
//! gathered in one exchange, a stable counting sort of small int codes, and a hashed lookup of
//! string keys among a small side's distinct keys. Each is one collective command.

use crate::commands::strings::{self as st, Strs};
use crate::commands::Operand;
use crate::handles::{next_ids, Array, Session};
use crate::registry::{lock, Col, Registry};
use crate::types::{DType, Node};
use atoll::array::{dist, DistArray, Elem};
use atoll::array::with_col;
use atoll::runtime::{Ctx, GlobalPtr, Handler, Pod};
use atoll::strings::{DistStrings, LocalStrings};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The locale that holds global index `i` of a layout with `bounds` (`p + 1` of them).
fn owner(bounds: &[usize], i: usize) -> usize {
    bounds.partition_point(|&b| b <= i) - 1
}

/// The positions in `idx` checked against `0..n`: the same error on every locale when one is
/// outside.
fn check_positions(ctx: &Ctx, idx: &[i64], n: usize, what: &str) -> Result<()> {
    let bad = idx.iter().find(|&&i| i < 0 || i as usize >= n);
    let mine = match bad {
        Some(&i) => Err(Error::IndexOutOfBounds { index: i.to_string(), bounds: format!("0..{n} ({what})") }),
        None => Ok(()),
    };
    ctx.agree(mine)
}

/// The strings of columns `ids` at the positions `idx` (`n` of them), as new strings `out`
/// (ids `out..out + ids.len()`).
#[derive(Serialize, Deserialize)]
pub struct TakeStrings {
    /// The first new strings' id (one per column, in order).
    pub out: u64,
    /// The string columns read, all of one length.
    pub ids: Vec<u64>,
    /// The positions (an int64 expression).
    pub idx: Node,
    /// The number of positions.
    pub n: usize,
}

/// Appends the string `b` (bytes of a whole string of a [`LocalStrings`]).
fn push_whole(out: &mut LocalStrings, b: &[u8]) {
    // SAFETY: `b` is a whole string of a `LocalStrings`, which holds valid UTF-8 strings.
    out.push(unsafe { std::str::from_utf8_unchecked(b) });
}

fn take_strings_cmd(ctx: &Ctx, TakeStrings { out, ids, idx, n }: TakeStrings) -> Result<()> {
    let cols: Vec<_> = ids.iter().map(|&id| st::get(ctx, id)).collect::<Result<_>>()?;
    let Some(first) = cols.first() else { return Ok(()) };
    let bounds = first.bounds().to_vec();
    let len = first.len();
    if cols.iter().any(|c| c.len() != len) {
        return Err(Error::InvalidArgument("take_strings: the columns differ in length".into()));
    }
    let p = ctx.num_locales();
    let me = ctx.id();
    let lo = bounds[me];
    let op = Operand::of(ctx, &idx, n)?;
    let (dest, local_pos, got) = op.with(|c| -> Result<_> {
        let Col::I(a) = c else {
            return Err(Error::InvalidArgument("take_strings: positions must be int64".into()));
        };
        let ix = a.local();
        check_positions(ctx, ix, len, "strings")?;
        // Requests: each position's owner, the positions asked of every other locale; this
        // locale's own rows are read in place.
        let mut dest = Vec::with_capacity(ix.len());
        let mut req: Vec<Vec<u64>> = vec![Vec::new(); p];
        for &i in ix {
            let d = owner(&bounds, i as usize);
            dest.push(d as u32);
            if d != me {
                req[d].push(i as u64);
            }
        }
        let local_pos: Vec<u64> = ix.iter().map(|&i| i as u64).collect();
        Ok((dest, local_pos, ctx.alltoallv(req)?))
    })?;
    op.free()?;
    for (k, col) in cols.iter().enumerate() {
        let local = col.local();
        let offs = local.offsets();
        let mut lens: Vec<Vec<u64>> = Vec::with_capacity(p);
        let mut bytes: Vec<Vec<u8>> = Vec::with_capacity(p);
        for want in &got {
            let l: Vec<u64> = want
                .iter()
                .map(|&i| {
                    let j = i as usize - lo;
                    offs[j + 1] - offs[j]
                })
                .collect();
            let mut b = Vec::with_capacity(l.iter().sum::<u64>() as usize);
            for &i in want {
                b.extend_from_slice(local.get(i as usize - lo));
            }
            lens.push(l);
            bytes.push(b);
        }
        let lens = ctx.alltoallv(lens)?;
        let bytes = ctx.alltoallv(bytes)?;
        let own: u64 = dest
            .iter()
            .zip(&local_pos)
            .filter(|(&d, _)| d as usize == me)
            .map(|(_, &i)| {
                let j = i as usize - lo;
                offs[j + 1] - offs[j]
            })
            .sum();
        let cap = own as usize + bytes.iter().map(Vec::len).sum::<usize>();
        let mut res = LocalStrings::with_capacity(dest.len(), cap);
        let mut next = vec![(0usize, 0usize); p];
        for (&d, &i) in dest.iter().zip(&local_pos) {
            let d = d as usize;
            if d == me {
                push_whole(&mut res, local.get(i as usize - lo));
            } else {
                let (k2, o) = next[d];
                let l = lens[d][k2] as usize;
                push_whole(&mut res, &bytes[d][o..o + l]);
                next[d] = (k2 + 1, o + l);
            }
        }
        let s = DistStrings::from_local_parts(ctx, res, "take_strings")?;
        st::put(ctx, out + k as u64, s);
    }
    Ok(())
}

/// The bounds (`p + 1` of them) of the Block layout of `len` elements.
fn block_bounds(ctx: &Ctx, len: usize) -> Result<Vec<usize>> {
    let d = dist::block(ctx, [len])?;
    let mut b = Vec::with_capacity(ctx.num_locales() + 1);
    b.push(0);
    for l in 0..ctx.num_locales() {
        let dom = d.local_domain(l)?;
        let r = &dom.dims()[0];
        let prev = b[l];
        b.push(if r.is_empty() { prev } else { r.lo() as usize + r.len() });
    }
    Ok(b)
}

/// An element type moved between locales as a plain-data image (`bool` as a byte).
trait Wire: Elem {
    /// The image sent.
    type W: Pod;
    /// The image of `self`.
    fn to_wire(self) -> Self::W;
    /// The value of an image.
    fn from_wire(w: Self::W) -> Self;
}

macro_rules! wire_as_is {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            type W = $t;
            fn to_wire(self) -> $t {
                self
            }
            fn from_wire(w: $t) -> $t {
                w
            }
        }
    )*};
}
wire_as_is!(i64, u64, f64, u8);

impl Wire for bool {
    type W = u8;
    fn to_wire(self) -> u8 {
        u8::from(self)
    }
    fn from_wire(w: u8) -> bool {
        w != 0
    }
}

/// Where each of this locale's positions is read: the owner of its row and either the row's
/// offset in this locale's part (own rows) or its place in the owner's reply; and the offsets
/// of this locale's rows that every locale asked for.
struct Routing {
    /// Each position's owner.
    dest: Vec<u32>,
    /// Each position's local offset (own rows) or place in its owner's reply.
    slot: Vec<u64>,
    /// The local offsets each locale asked of this one, in its order.
    got: Vec<Vec<u64>>,
}

/// The routing of the positions `ix` (checked against `0..len`) among the Block parts of
/// `len` rows: with `direct` (every part addressable here) each position's owner and offset,
/// else one exchange of requests. **Collective.**
fn route(ctx: &Ctx, ix: &[i64], len: usize, direct: bool) -> Result<Routing> {
    check_positions(ctx, ix, len, "gather_many")?;
    let bounds = block_bounds(ctx, len)?;
    let me = ctx.id();
    let mut dest = Vec::with_capacity(ix.len());
    let mut slot = Vec::with_capacity(ix.len());
    let mut req: Vec<Vec<u64>> = vec![Vec::new(); ctx.num_locales()];
    for &i in ix {
        let i = i as usize;
        let d = owner(&bounds, i);
        dest.push(d as u32);
        if d == me || direct {
            slot.push((i - bounds[d]) as u64);
        } else {
            slot.push(req[d].len() as u64);
            req[d].push((i - bounds[d]) as u64);
        }
    }
    Ok(Routing { dest, slot, got: ctx.alltoallv(req)? })
}

/// Every locale's part of the Block array `a` (`len` elements), addressable from this locale
/// as images of `T` (shared memory), or `None`.
fn direct_parts<T: Wire>(ctx: &Ctx, a: &DistArray<T, 1>, len: usize) -> Result<Option<Vec<*const T::W>>> {
    if size_of::<T>() != size_of::<T::W>() {
        return Ok(None);
    }
    let bounds = block_bounds(ctx, len)?;
    let mut out = Vec::with_capacity(ctx.num_locales());
    for l in 0..ctx.num_locales() {
        let p = GlobalPtr::<T::W>::new(l, a.part_ptr(l)?.addr());
        // A part that cannot be addressed (or an error saying so) means the exchange instead.
        match ctx.direct_ptr(p, bounds[l + 1] - bounds[l]).ok().flatten() {
            Some(p) => out.push(p.cast_const()),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The rows of `a` (`len` of them) at the positions routed by `r` with `direct`, read in place
/// from every locale's part, distributed like the positions (Block of `n`). **One-sided.**
fn gather_direct<T: Wire>(ctx: &Ctx, a: &DistArray<T, 1>, len: usize, r: &Routing, n: usize) -> Result<DistArray<T, 1>> {
    let Some(parts) = direct_parts(ctx, a, len)? else {
        return Err(Error::InvalidArgument("internal: gather_many: a part is not addressable".into()));
    };
    let mut out = DistArray::<T, 1>::for_overwrite(ctx, dist::block(ctx, [n])?)?;
    for ((o, &d), &s) in out.local_mut().iter_mut().zip(&r.dest).zip(&r.slot) {
        // SAFETY: `parts[d]` addresses locale `d`'s whole part of `a` (`direct_ptr` checked
        // its length), `s` is the offset of a checked position inside it, and no locale writes
        // `a` during the command (barriers before and after the reads). A `T::W` image of the
        // same size as `T` is read: the value itself, or a bool's byte (0 or 1).
        *o = T::from_wire(unsafe { parts[d as usize].add(s as usize).read() });
    }
    Ok(out)
}

/// The rows of `a` at the positions routed by `r`, distributed like them (Block of `n`): one
/// exchange of values. **Collective.**
fn gather_routed<T: Wire>(ctx: &Ctx, a: &DistArray<T, 1>, r: &Routing, n: usize) -> Result<DistArray<T, 1>> {
    let local = a.local();
    let replies: Vec<Vec<T::W>> =
        r.got.iter().map(|w| w.iter().map(|&o| local[o as usize].to_wire()).collect()).collect();
    let recv = ctx.alltoallv(replies)?;
    let mut out = DistArray::<T, 1>::for_overwrite(ctx, dist::block(ctx, [n])?)?;
    let me = ctx.id() as u32;
    for ((o, &d), &s) in out.local_mut().iter_mut().zip(&r.dest).zip(&r.slot) {
        *o = if d == me { local[s as usize] } else { T::from_wire(recv[d as usize][s as usize]) };
    }
    Ok(out)
}

/// The rows of columns `ids` (1-D arrays of one length, any dtypes) at the positions `idx`
/// (`n` of them), as new arrays `out..out + ids.len()`.
#[derive(Serialize, Deserialize)]
pub struct GatherMany {
    /// The first new array's id (one per column, in order).
    pub out: u64,
    /// The columns read, all of one length.
    pub ids: Vec<u64>,
    /// The positions (an int64 expression).
    pub idx: Node,
    /// The number of positions.
    pub n: usize,
    /// Exchange the values even where every part is addressable in place.
    pub exchange: bool,
}

fn gather_many_cmd(ctx: &Ctx, GatherMany { out, ids, idx, n, exchange }: GatherMany) -> Result<()> {
    let reg = Registry::of(ctx);
    let cols: Vec<_> = ids.iter().map(|&id| reg.get(id)).collect::<Result<_>>()?;
    let Some(first) = cols.first() else { return Ok(()) };
    let len = lock(first).len();
    if cols.iter().any(|c| lock(c).len() != len) {
        return Err(Error::InvalidArgument("gather_many: the columns differ in length".into()));
    }
    // In shared memory every column is read in place, else each column's values are exchanged.
    let mut here = !exchange;
    for c in &cols {
        let g = lock(c);
        here &= with_col!(&*g, a => direct_parts(ctx, a, len).map(|p| p.is_some()))?;
    }
    let direct = ctx.allreduce(here, |a, b| a && b)?;
    let op = Operand::of(ctx, &idx, n)?;
    let routing = op.with(|c| match c {
        Col::I(a) => route(ctx, a.local(), len, direct),
        _ => Err(Error::InvalidArgument("gather_many: positions must be int64".into())),
    });
    op.free()?;
    let routing = routing?;
    // The columns' values written before the command are complete on every locale.
    ctx.barrier()?;
    for (k, c) in cols.iter().enumerate() {
        let g = lock(c);
        let col = if direct {
            atoll::array::map_col!(&*g, a => gather_direct(ctx, a, len, &routing, n))
        } else {
            atoll::array::map_col!(&*g, a => gather_routed(ctx, a, &routing, n))
        }?;
        reg.insert(out + k as u64, col);
    }
    // No locale writes or frees a column while another still reads it in place.
    if direct {
        ctx.barrier()?;
    }
    Ok(())
}

/// The stable permutation that sorts `n` int codes in `0..u` (a counting sort), as a new
/// int64 array `id`.
#[derive(Serialize, Deserialize)]
pub struct CodesArgsort {
    /// The new array's id.
    pub id: u64,
    /// The codes (an int64 expression).
    pub codes: Node,
    /// Their number.
    pub n: usize,
    /// One past the largest code.
    pub u: usize,
}

fn codes_argsort_cmd(ctx: &Ctx, CodesArgsort { id, codes, n, u }: CodesArgsort) -> Result<()> {
    let op = Operand::of(ctx, &codes, n)?;
    let pos = op.with(|c| -> Result<DistArray<i64, 1>> {
        let Col::I(a) = c else {
            return Err(Error::InvalidArgument("codes_argsort: codes must be int64".into()));
        };
        let cs = a.local();
        let bad = cs.iter().find(|&&c| c < 0 || c as usize >= u);
        ctx.agree(match bad {
            Some(&c) => Err(Error::InvalidArgument(format!("codes_argsort: code {c} outside 0..{u}"))),
            None => Ok(()),
        })?;
        let mut hist = vec![0u64; u];
        for &c in cs {
            hist[c as usize] += 1;
        }
        // Code c of locale l goes after every smaller code and after code c of locales < l.
        let all = ctx.allgather(&hist)?;
        let me = ctx.id();
        let mut next = vec![0i64; u];
        let mut start = 0u64;
        for (c, slot) in next.iter_mut().enumerate() {
            let before: u64 = all[..me].iter().map(|h| h[c]).sum();
            *slot = (start + before) as i64;
            start += all.iter().map(|h| h[c]).sum::<u64>();
        }
        let mut pos = DistArray::<i64, 1>::for_overwrite(ctx, a.dist().clone())?;
        for (o, &c) in pos.local_mut().iter_mut().zip(cs) {
            let s = &mut next[c as usize];
            *o = *s;
            *s += 1;
        }
        Ok(pos)
    });
    op.free()?;
    let pos = pos?;
    let d = dist::block(ctx, [n])?;
    let vals = DistArray::<i64, 1>::from_fn(ctx, pos.dist().clone(), |[j]| j)?;
    let mut perm = DistArray::<i64, 1>::for_overwrite(ctx, d)?;
    perm.scatter_at(&pos, &vals)?;
    Registry::of(ctx).insert(id, Col::I(perm));
    Ok(())
}

/// A multiplicative hash of bytes, for the small tables of a lookup (not for adversarial keys).
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let mut tail = [0u8; 8];
        let r = chunks.remainder();
        tail[..r.len()].copy_from_slice(r);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(tail) ^ ((r.len() as u64) << 56)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

type Table<'a> = HashMap<&'a [u8], i64, BuildHasherDefault<MulHasher>>;

/// Each string of `big`: its index among `keys` (distinct), -1 where none is equal, as a new
/// int64 array `id`.
#[derive(Serialize, Deserialize)]
pub struct StringsLookup {
    /// The new array's id.
    pub id: u64,
    /// The strings looked up.
    pub big: u64,
    /// The distinct keys.
    pub keys: Vec<String>,
}

fn strings_lookup_cmd(ctx: &Ctx, StringsLookup { id, big, keys }: StringsLookup) -> Result<()> {
    let s = st::get(ctx, big)?;
    let mut table = Table::with_capacity_and_hasher(keys.len(), Default::default());
    for (k, w) in keys.iter().enumerate() {
        table.insert(w.as_bytes(), k as i64);
    }
    let local = s.local();
    let mut out = DistArray::<i64, 1>::for_overwrite(ctx, s.dist().clone())?;
    for (o, w) in out.local_mut().iter_mut().zip(local.iter()) {
        *o = table.get(w).copied().unwrap_or(-1);
    }
    Registry::of(ctx).insert(id, Col::I(out));
    Ok(())
}

commands! {
    /// New strings, one per column: the column's strings at the positions.
    pub static TAKE_STRINGS: Handler<TakeStrings, ()> = Handler::new("atoll-session::take_strings", take_strings_cmd);

    /// New arrays, one per column: the column's rows at the positions.
    pub static GATHER_MANY: Handler<GatherMany, ()> = Handler::new("atoll-session::gather_many", gather_many_cmd);

    /// A new int64 array: the stable permutation that sorts small int codes.
    pub static CODES_ARGSORT: Handler<CodesArgsort, ()> =
        Handler::new("atoll-session::codes_argsort", codes_argsort_cmd);

    /// A new int64 array: each string's index among distinct keys, or -1.
    pub static STRINGS_LOOKUP: Handler<StringsLookup, ()> =
        Handler::new("atoll-session::strings_lookup", strings_lookup_cmd);
}

/// The strings of each column of `cols` (all of one length) at the positions `idx` (an int64
/// expression of `n` elements), gathered with one exchange of requests. **Collective.**
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for a position outside the columns; [`Error::InvalidArgument`]
/// for columns of different lengths or positions that are not int64.
pub fn take_strings(s: &Session, cols: &[Strs], idx: &Node, n: usize) -> Result<Vec<Strs>> {
    if idx.dtype() != DType::I64 {
        return Err(Error::InvalidArgument("take_strings: positions must be int64".into()));
    }
    if cols.windows(2).any(|w| w[0].len != w[1].len) {
        return Err(Error::InvalidArgument("take_strings: the columns differ in length".into()));
    }
    if cols.is_empty() {
        return Ok(Vec::new());
    }
    let k = cols.len() as u64;
    let out = next_ids(k);
    s.exec(&TAKE_STRINGS, TakeStrings { out, ids: cols.iter().map(|c| c.id).collect(), idx: idx.clone(), n })?;
    Ok((0..k).map(|j| Strs { id: out + j, len: n, generation: s.generation() }).collect())
}

/// The rows of each array of `arrs` (1-D, all of one length, any dtypes) at the positions
/// `idx` (an int64 expression of `n` elements), with one check and routing of the positions:
/// where every locale's part is addressable (shared memory) each column is read in place,
/// else one exchange of requests and one of each column's values. **Collective.**
///
/// # Errors
/// [`Error::IndexOutOfBounds`] for a position outside the arrays; [`Error::InvalidArgument`]
/// for arrays of different lengths or positions that are not int64.
pub fn gather_many(s: &Session, arrs: &[Array], idx: &Node, n: usize) -> Result<Vec<Array>> {
    gather_many_with(s, arrs, idx, n, false)
}

/// As [`gather_many`]; with `exchange` the values are exchanged even where every locale's part
/// is addressable in place (shared memory), as between nodes. **Collective.**
///
/// # Errors
/// As [`gather_many`].
pub fn gather_many_with(s: &Session, arrs: &[Array], idx: &Node, n: usize, exchange: bool) -> Result<Vec<Array>> {
    if idx.dtype() != DType::I64 {
        return Err(Error::InvalidArgument("gather_many: positions must be int64".into()));
    }
    if arrs.windows(2).any(|w| w[0].len != w[1].len) {
        return Err(Error::InvalidArgument("gather_many: the columns differ in length".into()));
    }
    if arrs.is_empty() {
        return Ok(Vec::new());
    }
    let k = arrs.len() as u64;
    let out = next_ids(k);
    s.exec(&GATHER_MANY, GatherMany { out, ids: arrs.iter().map(|a| a.id).collect(), idx: idx.clone(), n, exchange })?;
    Ok(arrs
        .iter()
        .zip(out..)
        .map(|(a, id)| Array { id, dtype: a.dtype, len: n, generation: s.generation() })
        .collect())
}

/// The stable permutation that sorts `n` int64 codes in `0..u`: a counting sort (one
/// histogram per locale, one scatter). **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] for a code outside `0..u` or codes that are not int64.
pub fn codes_argsort(s: &Session, codes: &Node, n: usize, u: usize) -> Result<Array> {
    if codes.dtype() != DType::I64 {
        return Err(Error::InvalidArgument("codes_argsort: codes must be int64".into()));
    }
    s.new_array(DType::I64, n, |id| s.exec(&CODES_ARGSORT, CodesArgsort { id, codes: codes.clone(), n, u }))
}

/// Each string of `big`: its index in `keys` (distinct strings), -1 where it is none of them.
/// **Collective.**
///
/// # Errors
/// [`Error::InvalidArgument`] when `keys` holds a string twice.
pub fn strings_lookup(s: &Session, big: &Strs, keys: Vec<String>) -> Result<Array> {
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    if let Some(w) = keys.iter().find(|w| !seen.insert(w.as_str())) {
        return Err(Error::InvalidArgument(format!("strings_lookup: the key {w:?} is there twice")));
    }
    s.new_array(DType::I64, big.len, |id| s.exec(&STRINGS_LOOKUP, StringsLookup { id, big: big.id, keys }))
}
