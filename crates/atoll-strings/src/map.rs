//! Element-wise operations that give one string or one number per string: lengths, case,
//! stripping. Each locale works on its own strings with its tasks; no communication.

use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;

/// Unicode's title-case letters (category Lt): cased, though neither upper nor lower case.
fn is_titlecase_letter(c: char) -> bool {
    matches!(
        c,
        '\u{1C5}'
            | '\u{1C8}'
            | '\u{1CB}'
            | '\u{1F2}'
            | '\u{1F88}'..='\u{1F8F}'
            | '\u{1F98}'..='\u{1F9F}'
            | '\u{1FA8}'..='\u{1FAF}'
            | '\u{1FBC}'
            | '\u{1FCC}'
            | '\u{1FFC}'
    )
}

/// Unicode's `Cased` property (lower case, upper case or a title-case letter), which
/// Python's `str.title` reads to decide whether a character starts a word.
pub fn is_cased(c: char) -> bool {
    c.is_lowercase() || c.is_uppercase() || is_titlecase_letter(c)
}

/// Appends the title case of `c` (Unicode's full titlecase mapping, as Python's `str.title`
/// and `str.capitalize` apply it to a word's first character). Most characters' title case
/// is the first character of their upper case followed by the rest in lower case (`ß` ->
/// `Ss`, `ﬁ` -> `Fi`); the exceptions are the characters whose titlecase mapping differs from
/// that: the digraphs and Greek letters with a title-case form of their own, Georgian letters
/// (their own title case), and `ŉ`.
pub fn push_titlecase(c: char, o: &mut String) {
    let own = match c {
        '\u{1C4}'..='\u{1C6}' => Some('\u{1C5}'),
        '\u{1C7}'..='\u{1C9}' => Some('\u{1C8}'),
        '\u{1CA}'..='\u{1CC}' => Some('\u{1CB}'),
        '\u{1F1}'..='\u{1F3}' => Some('\u{1F2}'),
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => Some(c),
        // Greek with ypogegrammeni: the title-case letter with prosgegrammeni.
        '\u{1F80}'..='\u{1FAF}' => char::from_u32(c as u32 | 0x8),
        '\u{1FB3}' | '\u{1FBC}' => Some('\u{1FBC}'),
        '\u{1FC3}' | '\u{1FCC}' => Some('\u{1FCC}'),
        '\u{1FF3}' | '\u{1FFC}' => Some('\u{1FFC}'),
        _ => None,
    };
    if let Some(t) = own {
        o.push(t);
        return;
    }
    let mut up = c.to_uppercase();
    match c {
        '\u{149}' => {
            // ŉ: apostrophe and capital N.
            o.extend(up);
        }
        '\u{1FB2}' | '\u{1FB4}' | '\u{1FB7}' | '\u{1FC2}' | '\u{1FC4}' | '\u{1FC7}' | '\u{1FF2}' | '\u{1FF4}'
        | '\u{1FF7}' => {
            // Upper case ends with a capital iota; title case keeps the iota subscript.
            let v: Vec<char> = up.collect();
            o.extend(&v[..v.len() - 1]);
            o.push('\u{345}');
        }
        _ => {
            if let Some(first) = up.next() {
                o.push(first);
                for rest in up {
                    o.extend(rest.to_lowercase());
                }
            }
        }
    }
}

/// The lower case of the characters of one string, each in its context, as Python's `str`
/// methods lower them: every character by its own full lowercase mapping except the capital
/// sigma, which is `ς` at the end of a word (Unicode's `Final_Sigma` condition: a cased letter
/// before it and none after it, case-ignorable characters skipped). Rust's `str::to_lowercase`
/// applies the same condition; it is asked once per string that has a capital sigma.
pub struct Lowering {
    /// The byte offsets of the capital sigmas that end a word.
    finals: Vec<usize>,
}

impl Lowering {
    /// The context of the string `s`.
    pub fn new(s: &str) -> Lowering {
        let mut finals = Vec::new();
        if s.contains('\u{3A3}') {
            let lowered = s.to_lowercase();
            let mut l = lowered.chars();
            // Every character but the capital sigma lowers to its own mapping's characters.
            for (i, c) in s.char_indices() {
                if c == '\u{3A3}' {
                    if l.next() == Some('\u{3C2}') {
                        finals.push(i);
                    }
                } else {
                    for _ in c.to_lowercase() {
                        l.next();
                    }
                }
            }
        }
        Lowering { finals }
    }

    /// Appends the lower case of `c`, the character at byte `i` of the string.
    pub fn push(&self, i: usize, c: char, o: &mut String) {
        if c == '\u{3A3}' && self.finals.binary_search(&i).is_ok() {
            o.push('\u{3C2}');
        } else {
            o.extend(c.to_lowercase());
        }
    }
}

/// Python's `str.title` of `s`, appended to `o`: a character after a cased one in lower case
/// (in context), every other one in title case.
pub fn push_title(s: &str, o: &mut String) {
    let low = Lowering::new(s);
    let mut prev_cased = false;
    for (i, c) in s.char_indices() {
        if prev_cased {
            low.push(i, c, o);
        } else {
            push_titlecase(c, o);
        }
        prev_cased = is_cased(c);
    }
}

/// Python's `str.capitalize` of `s`, appended to `o`: the first character in title case, the
/// others in lower case (in context).
pub fn push_capitalize(s: &str, o: &mut String) {
    let low = Lowering::new(s);
    let mut it = s.char_indices();
    if let Some((_, c)) = it.next() {
        push_titlecase(c, o);
    }
    for (i, c) in it {
        low.push(i, c, o);
    }
}

/// Python's `str.swapcase` of `s`, appended to `o`: upper-case characters lowered (in context),
/// lower-case ones upper-cased, the others kept.
pub fn push_swapcase(s: &str, o: &mut String) {
    let low = Lowering::new(s);
    for (i, c) in s.char_indices() {
        if c.is_uppercase() {
            low.push(i, c, o);
        } else if c.is_lowercase() {
            o.extend(c.to_uppercase());
        } else {
            o.push(c);
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

    /// Each string in title case, as Python's `str.title`. **Collective.**
    pub fn title(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::title", push_title)
    }

    /// Each string capitalized, as Python's `str.capitalize`.
    /// **Collective.**
    pub fn capitalize(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::capitalize", push_capitalize)
    }

    /// Each string with its cases swapped, as Python's `str.swapcase`.
    /// **Collective.**
    pub fn swapcase(&self) -> Result<DistStrings> {
        self.map_strings("DistStrings::swapcase", push_swapcase)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn title(s: &str) -> String {
        let mut o = String::new();
        push_title(s, &mut o);
        o
    }

    fn capitalize(s: &str) -> String {
        let mut o = String::new();
        push_capitalize(s, &mut o);
        o
    }

    fn swapcase(s: &str) -> String {
        let mut o = String::new();
        push_swapcase(s, &mut o);
        o
    }

    /// Expected values from Python 3's `str` methods.
    #[test]
    fn final_sigma_in_title_capitalize_swapcase() {
        assert_eq!(title("a\u{3A3}"), "A\u{3C2}");
        assert_eq!(capitalize("a\u{3A3}"), "A\u{3C2}");
        assert_eq!(title("\u{3A3}\u{3A3}\u{3A3} \u{3A3}"), "\u{3A3}\u{3C3}\u{3C2} \u{3A3}");
        assert_eq!(capitalize("\u{3A3}A\u{3A3}.x"), "\u{3A3}a\u{3C3}.x");
        assert_eq!(swapcase("a\u{3A3}"), "A\u{3C2}");
        assert_eq!(swapcase("\u{3A3}a"), "\u{3C3}A");
    }

    #[test]
    fn titlecase_letters_and_special_mappings() {
        // ǅ is cased: the letter after it is lowered.
        assert_eq!(title("\u{1C5}A"), "\u{1C5}a");
        assert_eq!(capitalize("\u{1C6}X"), "\u{1C5}x");
        assert_eq!(title("\u{149}a"), "\u{2BC}Na");
        assert_eq!(title("\u{1FB3}"), "\u{1FBC}");
        assert_eq!(title("\u{1FB7}"), "\u{391}\u{342}\u{345}");
        assert_eq!(title("\u{10D0}\u{10D1}"), "\u{10D0}\u{10D1}");
        assert_eq!(title("\u{DF}x \u{FB01}"), "Ssx Fi");
    }
}
