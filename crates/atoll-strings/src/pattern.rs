//! Compiling a regular expression for an operation: once per locale, when the operation starts,
//! on the locale's own thread; its tasks then share the compiled automaton (the `regex` crate
//! gives each thread its own scratch space), so matching never reaches another locale. This is
//! the localization the Chapel paper describes: Chapel's `regex` values lived on the locale
//! that made them, and every match from another locale paid a remote call.

use atoll_error::{invalid_arg, Result};
use regex::bytes::{Regex, RegexBuilder};

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
