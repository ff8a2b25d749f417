//! Regular-expression operations, element-wise: the pattern is compiled once per locale per
//! operation (`pattern.rs`) and every locale matches its own strings; no communication during
//! matching.

use crate::local::LocalStrings;
use crate::pattern::{compile, compile_str, python_matches, Anchor, PyRegex, RegexFlags};
use crate::pieces::Pieces;
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;

/// The result of [`DistStrings::search`], [`DistStrings::match_`] and
/// [`DistStrings::fullmatch`], aligned with the strings: whether each matched, and where (in
/// characters, as Python's `re`): the start and length of the first match, `-1` and `0` when
/// there is none.
#[derive(Debug)]
pub struct Matches {
    /// Whether the string matched.
    pub matched: DistArray<bool, 1>,
    /// The match's first character, or -1.
    pub starts: DistArray<i64, 1>,
    /// The match's length in characters, or 0.
    pub lengths: DistArray<i64, 1>,
}

impl DistStrings {
    /// Whether each string contains a match of `pattern` (`re.search(pattern, s) is not None`).
    /// **Collective**, but without communication: the pattern is compiled on each locale.
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] on every locale for an invalid pattern
    /// (nothing is computed).
    pub fn contains_regex(&self, pattern: &str) -> Result<DistArray<bool, 1>> {
        self.contains_regex_with(pattern, RegexFlags::default())
    }

    /// [`contains_regex`](DistStrings::contains_regex) with flags. **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn contains_regex_with(&self, pattern: &str, flags: RegexFlags) -> Result<DistArray<bool, 1>> {
        // Checked (and the error worded) by the regex crate; matched by its automaton with one
        // cache per task.
        compile(pattern, flags, Anchor::None)?;
        let re = crate::pattern::automaton(pattern, flags)?;
        let l = self.local();
        let mut out = DistArray::<bool, 1>::zeros_lazy(self.ctx(), self.dist().clone())?;
        crate::par::fill_stateful(
            self.ctx(),
            out.local_mut(),
            || re.create_cache(),
            |cache, i| re.search_half_with(cache, &regex_automata::Input::new(l.get(i)).earliest(true)).is_some(),
        );
        self.ctx().barrier()?;
        Ok(out)
    }

    fn matches(&self, pattern: &str, flags: RegexFlags, anchor: Anchor) -> Result<Matches> {
        let re = compile_str(pattern, flags, anchor)?;
        let l = self.local();
        let mut found = vec![(false, -1i64, 0i64); l.len()];
        crate::par::fill(self.ctx(), &mut found, |i| {
            let s = l.get_str(i);
            match re.find(s) {
                Some(m) => (true, s[..m.start()].chars().count() as i64, m.as_str().chars().count() as i64),
                None => (false, -1, 0),
            }
        });
        let matched: Vec<bool> = found.iter().map(|f| f.0).collect();
        let starts: Vec<i64> = found.iter().map(|f| f.1).collect();
        let lengths: Vec<i64> = found.iter().map(|f| f.2).collect();
        Ok(Matches {
            matched: self.array_from_local(&matched)?,
            starts: self.array_from_local(&starts)?,
            lengths: self.array_from_local(&lengths)?,
        })
    }

    /// The first match of `pattern` anywhere in each string (`re.search`). **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn search(&self, pattern: &str, flags: RegexFlags) -> Result<Matches> {
        self.matches(pattern, flags, Anchor::None)
    }

    /// A match of `pattern` at the start of each string (`re.match`). **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn match_(&self, pattern: &str, flags: RegexFlags) -> Result<Matches> {
        self.matches(pattern, flags, Anchor::Start)
    }

    /// Whether `pattern` matches each whole string (`re.fullmatch`). **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn fullmatch(&self, pattern: &str, flags: RegexFlags) -> Result<Matches> {
        self.matches(pattern, flags, Anchor::Full)
    }

    /// Every non-overlapping match of `pattern` in each string, in order (`re.findall` of a
    /// pattern without groups: whole matches, empty ones included, `re.finditer`'s order): the
    /// matches and, per string, the index of its
    /// first match among them. **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn findall(&self, pattern: &str, flags: RegexFlags) -> Result<Pieces> {
        let re = PyRegex::new(pattern, flags)?;
        self.pieces("DistStrings::findall", |s, out| {
            let mut k = 0;
            for (a, b) in python_matches(&re, s) {
                out.push(&s[a..b]);
                k += 1;
            }
            k
        })
    }

    /// Each string with the first `count` matches of `pattern` (every match when `count` is
    /// 0; the matches in `re.finditer`'s order, empty ones included) replaced by `repl`, taken
    /// literally (no group references), as `re.sub` with a replacement without backslashes.
    /// **Collective.**
    ///
    /// # Errors
    /// As [`contains_regex`](DistStrings::contains_regex).
    pub fn sub(&self, pattern: &str, repl: &str, count: usize) -> Result<DistStrings> {
        let re = PyRegex::new(pattern, RegexFlags::default())?;
        let l = self.local();
        let parts = crate::par::map_parts(self.ctx(), l.len(), |r| {
            let mut out = LocalStrings::with_capacity(r.len(), l.range_bytes(r.clone()).len());
            let mut t = String::new();
            for i in r {
                let s = l.get_str(i);
                t.clear();
                let mut last = 0;
                let limit = if count == 0 { usize::MAX } else { count };
                for (a, b) in python_matches(&re, s).take(limit) {
                    t.push_str(&s[last..a]);
                    t.push_str(repl);
                    last = b;
                }
                t.push_str(&s[last..]);
                out.push(&t);
            }
            out
        });
        self.with_local(LocalStrings::concat(parts), "DistStrings::sub")
    }
}
