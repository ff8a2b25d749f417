//! Compiling a regular expression for an operation: once per locale, when the operation starts,
//! on the locale's own thread; its tasks then share the compiled automaton (the `regex` crate
//! gives each thread its own scratch space), so matching never reaches another locale. This is
//! the localization the Chapel paper describes: Chapel's `regex` values lived on the locale
//! that made them, and every match from another locale paid a remote call.

use atoll_error::{invalid_arg, Result};
use regex::bytes::{Regex, RegexBuilder};
use regex_automata::nfa::thompson::{self, pikevm};

/// Flags of a regular expression (Python's `re.IGNORECASE`, `re.MULTILINE`, `re.DOTALL`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegexFlags {
    /// Letters match either case.
    pub ignore_case: bool,
    /// `^` and `$` match at line boundaries.
    pub multiline: bool,
    /// `.` matches `\n` too.
    pub dot_all: bool,
}

/// How a pattern is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// Anywhere (`re.search`).
    None,
    /// At the start of the string (`re.match`).
    Start,
    /// The whole string (`re.fullmatch`).
    Full,
}

macro_rules! compile_with {
    ($builder:ty, $pattern:expr, $flags:expr, $anchor:expr) => {{
        let (pattern, flags): (&str, RegexFlags) = ($pattern, $flags);
        let build = |p: &str| {
            <$builder>::new(p)
                .case_insensitive(flags.ignore_case)
                .multi_line(flags.multiline)
                .dot_matches_new_line(flags.dot_all)
                .build()
                .map_err(|e| invalid_arg!("invalid regular expression {pattern:?}: {e}"))
        };
        // The user's pattern first, so that an error message speaks of it.
        let plain = build(pattern)?;
        Ok(match $anchor {
            Anchor::None => plain,
            Anchor::Start => build(&format!(r"\A(?:{pattern})"))?,
            Anchor::Full => build(&format!(r"\A(?:{pattern})\z"))?,
        })
    }};
}

/// Compiles `pattern` (the `regex` crate's syntax, Unicode) with `flags` and `anchor`, for
/// matching bytes (the yes/no searches). Compilation is deterministic, so every locale gets
/// the same result for the same pattern: an invalid one fails on every locale with the same
/// error, before anything is computed.
///
/// # Errors
/// [`atoll_error::Error::InvalidArgument`] naming the pattern and the parser's message.
pub(crate) fn compile(pattern: &str, flags: RegexFlags, anchor: Anchor) -> Result<Regex> {
    compile_with!(RegexBuilder, pattern, flags, anchor)
}

/// [`compile`] for `&str` haystacks: matches (and the pieces between them) never split a
/// character, so the results of `findall`, `sub` and `split` are valid UTF-8.
///
/// # Errors
/// As [`compile`].
pub(crate) fn compile_str(pattern: &str, flags: RegexFlags, anchor: Anchor) -> Result<regex::Regex> {
    compile_with!(regex::RegexBuilder, pattern, flags, anchor)
}

/// The automaton behind [`compile`]'s regex, for yes/no searches with a cache per task (no
/// trip through the regex's shared pool of caches for every string). `pattern` must have been
/// checked by [`compile`] first (same syntax, same flags).
///
/// # Errors
/// [`atoll_error::Error::InvalidArgument`] if the automaton cannot be built.
pub(crate) fn automaton(pattern: &str, flags: RegexFlags) -> Result<regex_automata::meta::Regex> {
    let syntax = regex_automata::util::syntax::Config::new()
        .case_insensitive(flags.ignore_case)
        .multi_line(flags.multiline)
        .dot_matches_new_line(flags.dot_all)
        .utf8(false);
    regex_automata::meta::Regex::builder()
        .syntax(syntax)
        .build(pattern)
        .map_err(|e| invalid_arg!("invalid regular expression {pattern:?}: {e}"))
}

/// A pattern compiled for iterating its matches as Python's `re` does
/// (`re.finditer`'s order): the regex, and a matcher of its preferred
/// non-empty match at a position, which Python takes after an empty match there.
pub(crate) struct PyRegex {
    pub(crate) re: regex::Regex,
    nonempty: Option<pikevm::PikeVM>,
}

impl PyRegex {
    /// Compiles `pattern` with `flags` (unanchored).
    ///
    /// # Errors
    /// As [`compile`].
    pub(crate) fn new(pattern: &str, flags: RegexFlags) -> Result<PyRegex> {
        let re = compile_str(pattern, flags, Anchor::None)?;
        let syntax = regex_automata::util::syntax::Config::new()
            .case_insensitive(flags.ignore_case)
            .multi_line(flags.multiline)
            .dot_matches_new_line(flags.dot_all);
        // Without it (a pattern the construction does not cover) an empty match is followed by
        // a search from the next character.
        let nonempty = thompson::Compiler::new()
            .syntax(syntax)
            .configure(thompson::Config::new().shrink(false))
            .build(pattern)
            .ok()
            .and_then(|nfa| nonempty_nfa(&nfa))
            .and_then(|nfa| pikevm::PikeVM::new_from_nfa(nfa).ok());
        Ok(PyRegex { re, nonempty })
    }

    /// The end of the pattern's preferred non-empty match starting at `at`: the match a
    /// backtracking matcher (Python's) finds when it must not return an empty one there.
    /// `cache` is the matcher's scratch space, made on first use (one per string). `None` when
    /// the matcher could not be built (the caller moves on to the next character instead).
    pub(crate) fn nonempty_at(&self, cache: &mut Option<pikevm::Cache>, s: &str, at: usize) -> Option<Option<usize>> {
        let vm = self.nonempty.as_ref()?;
        let cache = cache.get_or_insert_with(|| vm.create_cache());
        let input = regex_automata::Input::new(s.as_bytes()).range(at..).anchored(regex_automata::Anchored::Yes);
        Some(vm.find(cache, input).map(|m| m.end()))
    }
}

/// The NFA of `nfa`'s non-empty matches, in `nfa`'s order of preference: the product of `nfa`
/// with a flag "a byte was consumed" (state `2 * s + flag`), whose match states accept only
/// with the flag set. Every transition keeps its place among its state's alternatives, so the
/// leftmost-first order of the remaining matches is `nfa`'s. `None` for an NFA with a state
/// kind the construction does not cover.
fn nonempty_nfa(nfa: &thompson::NFA) -> Option<thompson::NFA> {
    use regex_automata::nfa::thompson::{State, Transition};
    use regex_automata::util::primitives::StateID;
    use std::sync::Arc;

    let id = |s: StateID, f: usize| StateID::new(2 * s.as_usize() + f).ok();
    let mut b = thompson::Builder::new();
    b.set_utf8(nfa.is_utf8());
    b.set_reverse(nfa.is_reverse());
    b.set_look_matcher(nfa.look_matcher().clone());
    b.start_pattern().ok()?;
    for (i, st) in nfa.states().iter().enumerate() {
        for f in 0..2usize {
            let got = match st {
                State::ByteRange { trans } => {
                    b.add_range(Transition { start: trans.start, end: trans.end, next: id(trans.next, 1)? })
                }
                State::Sparse(sp) => {
                    let mut ts = Vec::with_capacity(sp.transitions.len());
                    for t in sp.transitions.iter() {
                        ts.push(Transition { start: t.start, end: t.end, next: id(t.next, 1)? });
                    }
                    b.add_sparse(ts)
                }
                State::Look { look, next } => b.add_look(id(*next, f)?, *look),
                State::Union { alternates } => {
                    let mut alts = Vec::with_capacity(alternates.len());
                    for &a in alternates.iter() {
                        alts.push(id(a, f)?);
                    }
                    b.add_union(alts)
                }
                State::BinaryUnion { alt1, alt2 } => b.add_union(vec![id(*alt1, f)?, id(*alt2, f)?]),
                State::Capture { next, pattern_id, group_index, slot } => {
                    if slot.as_usize() % 2 == 0 {
                        let name = nfa.group_info().to_name(*pattern_id, group_index.as_usize()).map(Arc::from);
                        b.add_capture_start(id(*next, f)?, group_index.as_u32(), name)
                    } else {
                        b.add_capture_end(id(*next, f)?, group_index.as_u32())
                    }
                }
                State::Fail => b.add_fail(),
                State::Match { .. } if f == 1 => b.add_match(),
                State::Match { .. } => b.add_fail(),
                State::Dense(_) => return None,
            }
            .ok()?;
            if Some(got) != id(StateID::new(i).ok()?, f) {
                return None;
            }
        }
    }
    let start = id(nfa.start_anchored(), 0)?;
    b.finish_pattern(start).ok()?;
    b.build(start, start).ok()
}

/// The spans (byte offsets) of the non-overlapping matches of `re` in `s`, left to right, as
/// Python's `re.finditer` finds them (Python 3.7 and later), empty matches included: after a
/// match ending at `p` the search resumes at `p`, where an empty match is allowed after a
/// non-empty one (the `regex` crate's own iterators skip it); after an empty match at `p` a
/// match starting at `p` must be non-empty, so the pattern's preferred non-empty match there
/// is taken (`|a` on `"a"` gives `""`, `"a"`, `""`), and without one the search goes on from
/// the next character.
pub(crate) fn python_matches<'r, 'h>(
    re: &'r PyRegex,
    s: &'h str,
) -> impl Iterator<Item = (usize, usize)> + use<'r, 'h> {
    let mut pos = 0usize;
    let mut after_empty = false;
    let mut done = false;
    let mut cache = None;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut m = re.re.find_at(s, pos).map(|x| (x.start(), x.end()));
        if let Some((a, b)) = m {
            if after_empty && a == b && a == pos {
                m = match re.nonempty_at(&mut cache, s, pos) {
                    Some(Some(end)) => Some((pos, end)),
                    // No non-empty match here (or no matcher): on from the next character.
                    _ => s[pos..]
                        .chars()
                        .next()
                        .and_then(|c| re.re.find_at(s, pos + c.len_utf8()))
                        .map(|x| (x.start(), x.end())),
                };
            }
        }
        match m {
            Some((a, b)) => {
                pos = b;
                after_empty = a == b;
                Some((a, b))
            }
            None => {
                done = true;
                None
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::python_matches;

    fn spans(p: &str, s: &str) -> Vec<(usize, usize)> {
        let re = super::PyRegex::new(p, Default::default()).unwrap();
        python_matches(&re, s).collect()
    }

    /// Expected spans from Python's `re.finditer`.
    #[test]
    fn empty_matches_as_python() {
        assert_eq!(spans("x*", "abxd"), [(0, 0), (1, 1), (2, 3), (3, 3), (4, 4)]);
        assert_eq!(spans("b*", ""), [(0, 0)]);
        assert_eq!(spans("", "\u{e9}a"), [(0, 0), (2, 2), (3, 3)]);
        assert_eq!(spans("a|b", "ab"), [(0, 1), (1, 2)]);
        assert_eq!(spans(r"\b", "ab cd"), [(0, 0), (2, 2), (3, 3), (5, 5)]);
        assert_eq!(spans("$", "ab"), [(2, 2)]);
        // After an empty match, the preferred non-empty match at the same place.
        assert_eq!(spans("|a", "a"), [(0, 0), (0, 1), (1, 1)]);
        assert_eq!(spans("x*|b", "b"), [(0, 0), (0, 1), (1, 1)]);
        assert_eq!(spans("a*?", "aa"), [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]);
    }
}
