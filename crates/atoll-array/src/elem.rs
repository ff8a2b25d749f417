//! [`Elem`]: the element types of distributed arrays, and the only byte-level casts of them.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

mod private {
    /// Seals [`super::Elem`] and names the plain-old-data type that stores it.
    pub trait Sealed {
        /// The registered storage type: the same size and alignment as the element, any bit
        /// pattern valid (`u8` for `bool`).
        type Store: atoll_runtime::Pod + Send + Sync;
        /// Whether every bit pattern of the store is a valid element (not `bool`'s): only
        /// then may a new array's part keep an earlier array's bytes until overwritten
        /// (`Storage::alloc_for_overwrite`).
        const ANY_BITS: bool;
    }
}

/// An element type of a [`DistArray`](crate::DistArray): `i8`..`i64`, `u8`..`u64`, `f32`,
/// `f64`, `bool`, and `[f64; 2]` (a complex number as (re, im), the layout of
/// `num_complex::Complex<f64>` and of C's and Fortran's double complex: arrays of it can be
/// cast to complex slices with `bytemuck`). Sealed: these are plain values without padding, so
/// they can be copied byte for byte between locales.
pub trait Elem:
    private::Sealed + Copy + Send + Sync + PartialEq + PartialOrd + Debug + Default + Serialize + DeserializeOwned + 'static
{
    /// The type's name, for messages.
    const NAME: &'static str;
}

macro_rules! pod_elem {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {
            type Store = $t;
            const ANY_BITS: bool = true;
        }
        impl Elem for $t {
            const NAME: &'static str = stringify!($t);
        }
    )*};
}
pod_elem!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// Complex numbers as (re, im) pairs: moved, assigned and compared (`PartialOrd` is
/// lexicographic) like the other elements; arithmetic is the caller's (no operators).
impl private::Sealed for [f64; 2] {
    type Store = [f64; 2];
    const ANY_BITS: bool = true;
}
impl Elem for [f64; 2] {
    const NAME: &'static str = "c128";
}

impl private::Sealed for bool {
    type Store = u8;
    const ANY_BITS: bool = false;
}
impl Elem for bool {
    const NAME: &'static str = "bool";
}

/// The storage of `T` seen as elements: a pointer cast. Size and alignment are equal (checked
/// here at compile time for every `Elem`).
pub(crate) fn store_ptr<T: Elem>(p: *mut T::Store) -> *mut T {
    const { assert!(size_of::<T>() == size_of::<T::Store>() && align_of::<T>() == align_of::<T::Store>()) };
    p.cast()
}

/// The bytes of a slice of elements.
pub(crate) fn as_bytes<T: Elem>(s: &[T]) -> &[u8] {
    // SAFETY: every `Elem` is a primitive without padding or uninitialized bytes, so all
    // `size_of_val(s)` bytes behind `s` are initialized; the lifetime is `s`'s.
    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), std::mem::size_of_val(s)) }
}

/// The bytes of a slice of elements, writable.
///
/// # Safety
/// The caller writes into the returned bytes only byte images of valid `T` values (bytes read
/// from other `T`s, such as the registered storage of an array of `T`): any pattern for the
/// numeric types, but only 0 or 1 for `bool`.
pub(crate) unsafe fn as_bytes_mut<T: Elem>(s: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `as_bytes`, and the caller keeps every element valid (see above).
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(s)) }
}
