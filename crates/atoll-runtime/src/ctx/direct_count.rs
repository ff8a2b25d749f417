//! Counting loads made through [`Ctx::direct_ptr`] as the gets they replace, so that an
//! algorithm that reads another locale's memory in place where the backend allows it (the
//! local backend; node peers under MPI once their memory is mapped) and with gets elsewhere
//! shows the same communication diagnostics on every backend (the read-side twin of
//! [`Ctx::count_direct_put`]).

use crate::ctx::Ctx;
use crate::diagnostics::Op;
use crate::GlobalPtr;
use std::panic::Location;

impl Ctx {
    /// Counts one get of `len` elements from `src` that the caller made with loads through
    /// [`Ctx::direct_ptr`]. Nothing is transferred; own-locale reads are not counted (as with
    /// [`Ctx::get`]). **One-sided**, no message.
    #[track_caller]
    pub fn count_direct_get<T>(&self, src: GlobalPtr<T>, len: usize) {
        if src.locale() != self.st.id && len > 0 {
            self.st.diag.record(Op::Get, src.locale(), len * std::mem::size_of::<T>(), Location::caller());
        }
    }

    /// Counts one strided get of `len` elements (packed) from `src`'s locale that the caller
    /// made with loads through [`Ctx::direct_ptr`]. **One-sided**, no message.
    #[track_caller]
    pub fn count_direct_strided_get<T>(&self, src: GlobalPtr<T>, len: usize) {
        if src.locale() != self.st.id && len > 0 {
            self.st.diag.record(Op::StridedGet, src.locale(), len * std::mem::size_of::<T>(), Location::caller());
        }
    }
}

impl Ctx {
    /// Counts one active message of `payload` bytes to `target` that an algorithm replaced with
    /// loads and stores through [`Ctx::direct_ptr`] (a dynamic aggregator's buffer, when the
    /// destination's memory is addressable), so its diagnostics equal those of a backend where
    /// the aggregator sends it. Nothing is sent; own-locale messages are not counted.
    /// **One-sided**, no message.
    #[track_caller]
    pub fn count_direct_am(&self, target: usize, payload: usize) {
        if target != self.st.id {
            self.st.diag.record(Op::Am, target, payload, Location::caller());
        }
    }
}
