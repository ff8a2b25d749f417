//! Element-wise operations that give one string or one number per string: lengths, case,
//! stripping. Each locale works on its own strings with its tasks; no communication.

use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;

/// Appends the title case of `c` (Unicode's titlecase mapping, as Python's `str.title`): the
/// four digraphs with a title-case letter of their own, else the first character of the upper
/// case followed by the rest in lower case (`ß` -> `Ss`, `ﬁ` -> `Fi`).
fn titlecase(c: char, o: &mut String) {
    let t = match c {
        '\u{1C4}'..='\u{1C6}' => Some('\u{1C5}'),
        '\u{1C7}'..='\u{1C9}' => Some('\u{1C8}'),
        '\u{1CA}'..='\u{1CC}' => Some('\u{1CB}'),
        '\u{1F1}'..='\u{1F3}' => Some('\u{1F2}'),
        _ => None,
    };
    if let Some(t) = t {
        o.push(t);
        return;
    }
    let mut up = c.to_uppercase();
    if let Some(first) = up.next() {
        o.push(first);
        for rest in up {
            o.extend(rest.to_lowercase());
        }
    }
}

impl DistStrings {
    /// New strings `f(string)` per string, computed by this locale's tasks. **Collective**
    /// (the budget's reservation of the result).
    pub(crate) fn map_strings(&self, op: &str, f: impl Fn(&str, &mut String) + Sync) -> Result<DistStrings> {
        let l = self.local();
        let parts = crate::par::map_parts(self.ctx(), l.len(), |r| {
            let mut out = LocalStrings::with_capacity(r.len(), l.range_bytes(r.clone()).len());
            let mut buf = String::new();
            for i in r {
                buf.clear();
                f(l.get_str(i), &mut buf);
                out.push(&buf);
            }
            out
        });
        self.with_local(LocalStrings::concat(parts), op)
    }

    /// The number of characters (Unicode code points, as Python's `len`) of each string.
    /// **Collective.**
    pub fn lengths(&self) -> Result<DistArray<i64, 1>> {
        self.map_values(|s| {
            if s.is_ascii() {
                s.len() as i64
            } else {
                s.iter().filter(|&&b| (b as i8) >= -0x40).count() as i64
            }
        })
    }

    /// The number of UTF-8 bytes of each string. **Collective.**
    pub fn byte_lengths(&self) -> Result<DistArray<i64, 1>> {
        self.map_values(|s| s.len() as i64)
    }

    /// Each string in lower case (Unicode, as Rust's `str::to_lowercase`). **Collective.**
    pub fn lower(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::lower", |s, o| {
            if s.is_ascii() {
                o.push_str(s);
                o.make_ascii_lowercase();
            } else {
                o.push_str(&s.to_lowercase());
            }
        })
    }

    /// Each string in upper case (Unicode). **Collective.**
    pub fn upper(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::upper", |s, o| {
            if s.is_ascii() {
                o.push_str(s);
                o.make_ascii_uppercase();
            } else {
                o.push_str(&s.to_uppercase());
            }
        })
    }

    /// Each string in title case, as Python's `str.title`: a cased character that follows an
    /// uncased one is upper-cased, every other cased character lower-cased. **Collective.**
    pub fn title(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::title", |s, o| {
            let mut prev_cased = false;
            for c in s.chars() {
                let cased = c.is_lowercase() || c.is_uppercase();
                if prev_cased {
                    o.extend(c.to_lowercase());
                } else {
                    titlecase(c, o);
                }
                prev_cased = cased;
            }
        })
    }

    /// Each string without leading and trailing characters of `chars` (Unicode white space
    /// when `None`), as Python's `str.strip`. **Collective.**
    pub fn strip(&self, chars: Option<&str>) -> Result<DistStrings> {
        match chars {
            None => self.map_strings("DistStrings::strip", |s, o| o.push_str(s.trim())),
            Some(cs) => {
                let set: Vec<char> = cs.chars().collect();
                self.map_strings("DistStrings::strip", |s, o| o.push_str(s.trim_matches(|c| set.contains(&c))))
            }
        }
    }
}
