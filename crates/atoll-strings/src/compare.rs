//! Comparisons and literal searches, element-wise: one `bool` per string, no communication.

use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;

impl DistStrings {
    /// Whether each string equals `other`. **Collective.**
    pub fn eq_str(&self, other: &str) -> Result<DistArray<bool, 1>> {
        let o = other.as_bytes();
        self.map_values(|s| s == o)
    }

    /// Whether each string differs from `other`. **Collective.**
    pub fn ne_str(&self, other: &str) -> Result<DistArray<bool, 1>> {
        let o = other.as_bytes();
        self.map_values(|s| s != o)
    }

    /// Whether string `i` equals string `i` of `other` (same length). Both are
    /// Block-distributed by index, however they were made, so each locale compares its own
    /// blocks. **Collective.**
    ///
    /// # Errors
    /// [`atoll_error::Error::ShapeMismatch`] when the lengths differ.
    pub fn eq(&self, other: &DistStrings) -> Result<DistArray<bool, 1>> {
        self.zip_values(other, "DistStrings::eq", |a, b| a == b)
    }

    /// Whether string `i` differs from string `i` of `other`. **Collective.**
    ///
    /// # Errors
    /// As [`DistStrings::eq`].
    pub fn ne(&self, other: &DistStrings) -> Result<DistArray<bool, 1>> {
        self.zip_values(other, "DistStrings::ne", |a, b| a != b)
    }

    pub(crate) fn zip_values<T: atoll_array::Elem + Send + Copy>(
        &self,
        other: &DistStrings,
        op: &str,
        f: impl Fn(&[u8], &[u8]) -> T + Sync,
    ) -> Result<DistArray<T, 1>> {
        self.check_same_len(other, op)?;
        let (a, b) = (self.local(), other.local());
        let mut v = vec![T::default(); a.len()];
        crate::par::fill(self.ctx(), &mut v, |i| f(a.get(i), b.get(i)));
        self.array_from_local(&v)
    }

    /// Whether each string starts with `prefix`. **Collective.**
    pub fn startswith(&self, prefix: &str) -> Result<DistArray<bool, 1>> {
        let p = prefix.as_bytes();
        self.map_values(|s| s.starts_with(p))
    }

    /// Whether each string ends with `suffix`. **Collective.**
    pub fn endswith(&self, suffix: &str) -> Result<DistArray<bool, 1>> {
        let p = suffix.as_bytes();
        self.map_values(|s| s.ends_with(p))
    }

    /// Whether each string contains `needle` (a literal; see
    /// [`contains_regex`](DistStrings::contains_regex)). **Collective.**
    pub fn contains(&self, needle: &str) -> Result<DistArray<bool, 1>> {
        let f = memchr::memmem::Finder::new(needle.as_bytes()).into_owned();
        self.map_values(|s| f.find(s).is_some())
    }
}
