//! Operations that cut strings into pieces or join them: `split`, `findall`'s matches,
//! `peel`/`rpeel`, `stick`/`lstick`, `concatenate`.

use crate::local::LocalStrings;
use crate::pattern::{PyRegex, RegexFlags};
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::{invalid_arg, Error, Result};

/// Strings cut into pieces: every string's pieces in order, and per string (aligned with the
/// strings) the index of its first piece, so string `i`'s pieces are
/// `segments[i]..segments[i + 1]` (the last ones end at `pieces.len()`), Arkouda's
/// `(Strings, segments)`.
#[derive(Debug)]
pub struct Pieces {
    /// Every piece, Block-distributed over its own length.
    pub pieces: DistStrings,
    /// The index of each string's first piece.
    pub segments: DistArray<i64, 1>,
}

impl DistStrings {
    /// Pieces made by `f(string, out) -> number of pieces pushed` on this locale's tasks.
    /// **Collective.**
    pub(crate) fn pieces(&self, op: &str, f: impl Fn(&str, &mut LocalStrings) -> usize + Sync) -> Result<Pieces> {
        let l = self.local();
        let parts = crate::par::map_parts(self.ctx(), l.len(), |r| {
            let mut out = LocalStrings::with_capacity(r.len(), l.range_bytes(r.clone()).len());
            let mut counts = Vec::with_capacity(r.len());
            for i in r {
                counts.push(f(l.get_str(i), &mut out) as i64);
            }
            (out, counts)
        });
        let mut counts = Vec::with_capacity(l.len());
        let mut blocks = Vec::with_capacity(parts.len());
        for (b, c) in parts {
            blocks.push(b);
            counts.extend(c);
        }
        let local = LocalStrings::concat(blocks);
        let base = self.ctx().exscan(local.len() as i64, 0, |a, b| a + b)?;
        let mut acc = base;
        for c in counts.iter_mut() {
            let k = *c;
            *c = acc;
            acc += k;
        }
        let segments = self.array_from_local(&counts)?;
        let pieces = DistStrings::from_local_parts(self.ctx(), local, op)?;
        Ok(Pieces { pieces, segments })
    }

    /// Each string split at every occurrence of `sep` (a literal, or a regular expression when
    /// `regex`), at most `maxsplit` times when given, as Python's `str.split(sep, maxsplit)` /
    /// `re.split(sep, s, maxsplit)` (groups are not returned). **Collective.**
    ///
    /// # Errors
    /// On every locale: [`atoll_error::Error::InvalidArgument`] for an empty literal
    /// separator or an invalid pattern.
    pub fn split(&self, sep: &str, regex: bool, maxsplit: Option<usize>) -> Result<Pieces> {
        let limit = maxsplit.map_or(usize::MAX, |m| m.saturating_add(1));
        if regex {
            let re = PyRegex::new(sep, RegexFlags::default())?;
            self.pieces("DistStrings::split", |s, out| {
                // The text between matches, empty matches included (`re.split` since Python 3.7).
                let mut last = 0;
                let mut k = 1;
                for (a, b) in crate::pattern::python_matches(&re, s).take(limit - 1) {
                    out.push(&s[last..a]);
                    last = b;
                    k += 1;
                }
                out.push(&s[last..]);
                k
            })
        } else {
            if sep.is_empty() {
                return Err(invalid_arg!("split: empty separator"));
            }
            self.pieces("DistStrings::split", |s, out| {
                let mut k = 0;
                for p in s.splitn(limit, sep) {
                    out.push(p);
                    k += 1;
                }
                k
            })
        }
    }

    /// Cuts each string at the `times`-th occurrence of `delimiter` from the left, returning
    /// `(left, right)`, Arkouda's `peel`: with `include_delimiter` the delimiter ends `left`,
    /// otherwise it is dropped. A string with fewer than `times` delimiters goes whole to
    /// `left` when `keep_partial`, else whole to `right` (and `""` to the other).
    /// **Collective.**
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] for an empty delimiter or `times == 0`.
    pub fn peel(
        &self,
        delimiter: &str,
        times: usize,
        include_delimiter: bool,
        keep_partial: bool,
    ) -> Result<(DistStrings, DistStrings)> {
        self.peel_impl(delimiter, times, include_delimiter, keep_partial, false)
    }

    /// [`peel`](DistStrings::peel) from the right (Arkouda's `rpeel`): `right` is the field
    /// after the `times`-th delimiter from the end (starting with the delimiter when
    /// `include_delimiter`), `left` the rest; a string with fewer delimiters goes whole to
    /// `right` when `keep_partial`, else whole to `left`. **Collective.**
    ///
    /// # Errors
    /// As [`peel`](DistStrings::peel).
    pub fn rpeel(
        &self,
        delimiter: &str,
        times: usize,
        include_delimiter: bool,
        keep_partial: bool,
    ) -> Result<(DistStrings, DistStrings)> {
        self.peel_impl(delimiter, times, include_delimiter, keep_partial, true)
    }

    fn peel_impl(
        &self,
        d: &str,
        times: usize,
        incl: bool,
        keep: bool,
        from_right: bool,
    ) -> Result<(DistStrings, DistStrings)> {
        if d.is_empty() || times == 0 {
            return Err(invalid_arg!(
                "peel: the delimiter must not be empty and times must be positive (got {d:?}, {times})"
            ));
        }
        let l = self.local();
        let parts = crate::par::map_parts(self.ctx(), l.len(), |r| {
            let mut left = LocalStrings::with_capacity(r.len(), 0);
            let mut right = LocalStrings::with_capacity(r.len(), 0);
            for i in r {
                let s = l.get_str(i);
                let at =
                    if from_right { s.rmatch_indices(d).nth(times - 1) } else { s.match_indices(d).nth(times - 1) };
                match at {
                    Some((j, _)) => {
                        let (a, b) = (&s[..j], &s[j + d.len()..]);
                        match (incl, from_right) {
                            (false, _) => (left.push(a), right.push(b)),
                            (true, false) => (left.push(&s[..j + d.len()]), right.push(b)),
                            (true, true) => (left.push(a), right.push(&s[j..])),
                        };
                    }
                    None => {
                        // The peeled field takes the whole string when keep_partial.
                        let whole_left = keep != from_right;
                        left.push(if whole_left { s } else { "" });
                        right.push(if whole_left { "" } else { s });
                    }
                }
            }
            (left, right)
        });
        let (ls, rs): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
        Ok((
            self.with_local(LocalStrings::concat(ls), "DistStrings::peel")?,
            self.with_local(LocalStrings::concat(rs), "DistStrings::peel")?,
        ))
    }

    /// `self[i] + delimiter + other[i]` for every `i` (Arkouda's `stick`). **Collective.**
    ///
    /// # Errors
    /// [`atoll_error::Error::ShapeMismatch`] when the lengths differ.
    pub fn stick(&self, other: &DistStrings, delimiter: &str) -> Result<DistStrings> {
        self.join2(other, delimiter, false)
    }

    /// `other[i] + delimiter + self[i]` for every `i` (Arkouda's `lstick`). **Collective.**
    ///
    /// # Errors
    /// As [`stick`](DistStrings::stick).
    pub fn lstick(&self, other: &DistStrings, delimiter: &str) -> Result<DistStrings> {
        self.join2(other, delimiter, true)
    }

    fn join2(&self, other: &DistStrings, d: &str, left: bool) -> Result<DistStrings> {
        self.check_same_len(other, "DistStrings::stick")?;
        let (a, b) = (self.local(), other.local());
        let parts = crate::par::map_parts(self.ctx(), a.len(), |r| {
            let mut out =
                LocalStrings::with_capacity(r.len(), a.range_bytes(r.clone()).len() + b.range_bytes(r.clone()).len());
            for i in r {
                let (x, y) = if left { (b.get(i), a.get(i)) } else { (a.get(i), b.get(i)) };
                out.push_concat(&[x, d.as_bytes(), y]);
            }
            out
        });
        self.with_local(LocalStrings::concat(parts), "DistStrings::stick")
    }

    /// The strings of every element of `all`, one after the other (Arkouda's
    /// `ak.concatenate`), Block-distributed over the total length. **Collective.**
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] when `all` is empty.
    pub fn concatenate(all: &[&DistStrings]) -> Result<DistStrings> {
        let first = all.first().ok_or_else(|| invalid_arg!("concatenate: no strings"))?;
        let ctx = first.ctx();
        // Locale l's part of the result: its block of each input in order would interleave
        // the inputs, so move each input's strings to their place in the result's layout.
        let n: usize = all.iter().map(|s| s.len()).sum();
        let (_, to) = crate::layout::block(ctx, n)?;
        let mut blocks = Vec::with_capacity(all.len());
        let mut start = 0usize;
        for s in all {
            // The positions start..start + len of the result, seen from this input.
            let to_here: Vec<usize> = to.iter().map(|&b| b.clamp(start, start + s.len()) - start).collect();
            blocks.push(crate::exchange::redistribute(ctx, s.local(), s.bounds(), &to_here)?);
            start += s.len();
        }
        DistStrings::from_block(ctx, n, LocalStrings::concat(blocks), "DistStrings::concatenate")
    }

    /// The strings at the indices `idx` (a Block array of indices of these strings), in its
    /// order and layout (`result[j] = self[idx[j]]`, Arkouda's `s[idx]`). **Collective.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] on every locale for an index outside `0..len` (nothing
    /// moves).
    pub fn take(&self, idx: &DistArray<i64, 1>) -> Result<DistStrings> {
        let bad = idx.local().iter().find(|&&i| i < 0);
        let check = match bad {
            Some(&i) => {
                Err(Error::IndexOutOfBounds { index: i.to_string(), bounds: format!("0..{} (strings)", self.len()) })
            }
            None => Ok(()),
        };
        self.ctx().agree(check)?;
        let ix: Vec<u64> = idx.local().iter().map(|&i| i as u64).collect();
        let local = crate::exchange::take_indices(self.ctx(), self.local(), self.bounds(), &ix)?;
        DistStrings::from_block(self.ctx(), idx.len(), local, "DistStrings::take")
    }
}
