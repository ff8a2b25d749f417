//! [`IntoDomain`]: the sub-domain argument of the `slice` methods.

use atoll_dist::{Domain, StridedRange};
use atoll_error::Result;

/// Conversion into a [`Domain`] for slicing: a domain, or one range per dimension
/// (`[0..4, 2..8]`, [`StridedRange`]s for strides).
pub trait IntoDomain<const D: usize> {
    /// Converts.
    ///
    /// # Errors
    /// As [`Domain::new`].
    fn into_domain(self) -> Result<Domain<D>>;
}

impl<const D: usize> IntoDomain<D> for Domain<D> {
    fn into_domain(self) -> Result<Domain<D>> {
        Ok(self)
    }
}

impl<const D: usize> IntoDomain<D> for [StridedRange; D] {
    fn into_domain(self) -> Result<Domain<D>> {
        Domain::new(self)
    }
}

impl IntoDomain<1> for std::ops::Range<i64> {
    fn into_domain(self) -> Result<Domain<1>> {
        Domain::new([StridedRange::from(self)])
    }
}

impl IntoDomain<1> for StridedRange {
    fn into_domain(self) -> Result<Domain<1>> {
        Domain::new([self])
    }
}

impl<const D: usize> IntoDomain<D> for [std::ops::Range<i64>; D] {
    fn into_domain(self) -> Result<Domain<D>> {
        Domain::new(self.map(StridedRange::from))
    }
}
