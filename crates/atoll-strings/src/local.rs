//! [`LocalStrings`]: one locale's block of whole strings in the Arrow layout (the UTF-8 bytes
//! of every string back to back, and `len + 1` `u64` offsets).

/// One locale's strings: string `i` is `bytes[offsets[i]..offsets[i + 1]]`, valid UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalStrings {
    bytes: Vec<u8>,
    offsets: Vec<u64>,
}

impl Default for LocalStrings {
    fn default() -> Self {
        LocalStrings::new()
    }
}

impl LocalStrings {
    /// No strings.
    pub fn new() -> Self {
        LocalStrings { bytes: Vec::new(), offsets: vec![0] }
    }

    /// Room for `strings` strings of `bytes` bytes in all.
    pub fn with_capacity(strings: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(strings + 1);
        offsets.push(0);
        LocalStrings { bytes: Vec::with_capacity(bytes), offsets }
    }

    /// The strings of an iterator.
    pub fn from_strs<S: AsRef<str>>(it: impl IntoIterator<Item = S>) -> Self {
        let mut s = LocalStrings::new();
        for x in it {
            s.push(x.as_ref());
        }
        s
    }

    /// Appends a string.
    pub fn push(&mut self, s: &str) {
        self.push_bytes_unchecked_utf8(s.as_bytes());
    }

    /// Appends bytes that the caller knows are valid UTF-8 (a piece of a string cut at a
    /// character boundary, or the output of a string operation).
    pub(crate) fn push_bytes_unchecked_utf8(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
        self.offsets.push(self.bytes.len() as u64);
    }

    /// Appends the concatenation of `parts` as one string (all valid UTF-8).
    pub(crate) fn push_concat(&mut self, parts: &[&[u8]]) {
        for p in parts {
            self.bytes.extend_from_slice(p);
        }
        self.offsets.push(self.bytes.len() as u64);
    }

    /// The number of strings.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of string `i` (panics when `i >= len`, like slice indexing).
    #[inline]
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// String `i` as `&str`.
    pub fn get_str(&self, i: usize) -> &str {
        // Every constructor keeps the bytes valid UTF-8; an invalid string cannot be built.
        std::str::from_utf8(self.get(i)).unwrap_or_default()
    }

    /// Every string's bytes, back to back.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `len + 1` offsets.
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// The bytes this block holds (bytes and offsets), as the memory budget counts them.
    pub fn footprint(&self) -> u64 {
        (self.bytes.len() + 8 * self.offsets.len()) as u64
    }

    /// The strings as owned `String`s.
    pub fn to_strings(&self) -> Vec<String> {
        (0..self.len()).map(|i| self.get_str(i).to_string()).collect()
    }

    /// The strings in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The concatenation of blocks, in order.
    pub fn concat(parts: Vec<LocalStrings>) -> LocalStrings {
        if parts.len() == 1 {
            return parts.into_iter().next().unwrap_or_default();
        }
        let n: usize = parts.iter().map(LocalStrings::len).sum();
        let b: usize = parts.iter().map(|p| p.bytes.len()).sum();
        let mut out = LocalStrings::with_capacity(n, b);
        for p in parts {
            let base = out.bytes.len() as u64;
            out.bytes.extend_from_slice(&p.bytes);
            out.offsets.extend(p.offsets[1..].iter().map(|o| o + base));
        }
        out
    }

    /// Strings from bytes and per-string lengths whose sum is `bytes.len()` (whole strings of
    /// other blocks).
    pub(crate) fn from_lengths(bytes: Vec<u8>, lengths: &[u64]) -> atoll_error::Result<LocalStrings> {
        let mut offsets = Vec::with_capacity(lengths.len() + 1);
        let mut o = 0u64;
        offsets.push(0);
        for &l in lengths {
            o += l;
            offsets.push(o);
        }
        if o as usize != bytes.len() {
            return Err(atoll_error::Error::Comm {
                locale: usize::MAX,
                message: format!("strings: {} bytes arrived for lengths summing to {o}", bytes.len()),
            });
        }
        // The bytes are whole strings of other blocks (cut at string boundaries, lengths
        // checked above), so they stay valid UTF-8; in debug builds this is verified.
        let s = LocalStrings { bytes, offsets };
        debug_assert!(
            (0..s.len()).all(|i| std::str::from_utf8(s.get(i)).is_ok()),
            "strings: a block received invalid UTF-8"
        );
        Ok(s)
    }

    /// The strings `range` as a new block.
    pub(crate) fn sub(&self, r: std::ops::Range<usize>) -> LocalStrings {
        if r.is_empty() {
            return LocalStrings::new();
        }
        let (a, b) = (self.offsets[r.start], self.offsets[r.end]);
        LocalStrings {
            bytes: self.bytes[a as usize..b as usize].to_vec(),
            offsets: self.offsets[r.start..=r.end].iter().map(|o| o - a).collect(),
        }
    }

    /// The per-string byte lengths of `range`.
    pub(crate) fn lengths(&self, r: std::ops::Range<usize>) -> Vec<u64> {
        self.offsets[r.start..=r.end].windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// The bytes of the strings `range`.
    pub(crate) fn range_bytes(&self, r: std::ops::Range<usize>) -> &[u8] {
        if r.is_empty() {
            return &[];
        }
        &self.bytes[self.offsets[r.start] as usize..self.offsets[r.end] as usize]
    }
}
