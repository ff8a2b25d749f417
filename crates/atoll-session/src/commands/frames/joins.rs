//! The joins' kernels (`python/atoll/pandas/join.py`): the rows of several string columns
//! gathered in one exchange, a stable counting sort of small int codes, and a hashed lookup of
//! string keys among a small side's distinct keys. Each is one collective command.

use crate::commands::strings::{self as st, Strs};
use crate::commands::Operand;
use crate::handles::{next_ids, Array, Session};
use crate::registry::{Col, Registry};
use crate::types::{DType, Node};
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
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
