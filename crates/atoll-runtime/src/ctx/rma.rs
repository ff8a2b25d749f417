//! One-sided communication: gets, puts (contiguous and strided) and atomics.

use super::{Ctx, GlobalPtr};
use crate::comm::{local_copy, Strided};
use crate::diagnostics::Op;
use crate::sync::Ordering;
use atoll_error::{Error, Result};
use bytemuck::Pod;
use std::panic::Location;

impl Ctx {
    /// Checks that `addr..addr+len` on a remote `target` is registered (registration cache).
    #[inline]
    fn resolve(&self, target: usize, addr: u64, len: usize) -> Result<()> {
        self.check_locale(target)?;
        let b = &self.st.backend;
        self.st.remote.resolve(target, addr, len, || b.lookup_remote(target, addr, len))
    }

    /// What every remote access does before the backend moves bytes: check the target range
    /// against the registration cache, count the operation, and wake the target if needed.
    #[inline]
    pub(super) fn remote_access(
        &self,
        op: Op,
        target: usize,
        addr: u64,
        span: usize,
        bytes: usize,
        at: &'static Location<'static>,
    ) -> Result<()> {
        self.resolve(target, addr, span)?;
        self.st.diag.record(op, target, bytes, at);
        crate::comm::waits::note_site(at);
        // Memory this process maps (a node peer's, under MPI) needs no progress on the target:
        // waking it would only keep its progress thread polling on a core the caller needs.
        if self.st.needs_wake && self.st.backend.direct_addr(target, addr).is_none() {
            self.wake(target);
        }
        Ok(())
    }

    /// A pointer through which this process may load and store the `len` elements at `ptr`
    /// directly: `Some` for this locale's own memory, on the `local` backend for every
    /// locale's (they share the process), and under MPI for the symmetric allocations of ranks
    /// on this node (node-shared memory, see `comm/mpi/shm.rs`); `None` for other MPI ranks'
    /// memory, reached only with gets and puts. The range is checked to be registered memory of `ptr`'s locale first.
    /// **One-sided**, no message.
    ///
    /// Loads and stores through the pointer are not messages (the communication diagnostics do
    /// not count them) and follow the PGAS contract of gets and puts: an element written
    /// through it must not be read or written by another locale without a barrier or
    /// collective operation in between. Dereferencing the pointer is `unsafe`; it is valid
    /// while the memory stays registered.
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<u64>(4)?;
    ///     let other = a.ptr(1 - ctx.id());
    ///     let p = ctx.direct_ptr(other, 4)?.expect("locales of the local backend share memory");
    ///     // SAFETY: 4 registered elements of the other locale; each locale writes only
    ///     // element `id` of the other's part until the barrier.
    ///     unsafe { p.add(ctx.id()).write(10 + ctx.id() as u64) };
    ///     ctx.barrier()?;
    ///     assert_eq!(a.local()[1 - ctx.id()], 11 - ctx.id() as u64);
    ///     ctx.barrier()?;
    ///     a.free()
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a locale outside the job; [`Error::NotRegistered`] when
    /// the range is not inside one registered region of that locale; [`Error::InvalidArgument`]
    /// when `len` elements overflow.
    pub fn direct_ptr<T: Pod>(&self, ptr: GlobalPtr<T>, len: usize) -> Result<Option<*mut T>> {
        let (target, addr) = (ptr.locale, ptr.addr);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| Error::InvalidArgument(format!("direct_ptr: {len} elements overflow")))?;
        if target == self.st.id {
            self.check_locale(target)?;
            if bytes > 0 && self.st.regions.find(addr, bytes).is_none() {
                return Err(Error::NotRegistered { locale: target, addr, len: bytes });
            }
            return Ok(Some(addr as usize as *mut T));
        }
        if bytes > 0 {
            self.resolve(target, addr, bytes)?;
        } else {
            self.check_locale(target)?;
        }
        Ok(self.st.backend.direct_addr(target, addr).map(|a| a as *mut T))
    }

    /// Counts one put of `len` elements to `dst` that the caller made with stores through
    /// [`Ctx::direct_ptr`], so that an algorithm which moves a run of data to another locale
    /// by direct stores on one backend and by a put on another shows the same communication
    /// diagnostics on both. Nothing is transferred; own-locale runs are not counted (as with
    /// [`Ctx::put`]). **One-sided**, no message.
    #[track_caller]
    pub fn count_direct_put<T>(&self, dst: GlobalPtr<T>, len: usize) {
        if dst.locale != self.st.id && len > 0 {
            self.st.diag.record(Op::Put, dst.locale, len * std::mem::size_of::<T>(), Location::caller());
        }
    }

    #[inline]
    pub(super) fn wake(&self, target: usize) {
        if self.st.needs_wake {
            let now = self.st.epoch.elapsed().as_millis() as u64 + 1;
            let last = self.st.last_wake[target].load(Ordering::Relaxed);
            let half = (self.st.config.progress_hot_ms / 2).max(1);
            if now >= last + half
                && self.st.last_wake[target].compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
            {
                self.st.backend.wake(target);
            }
        }
    }

    /// Copies `dst.len()` elements from `src` into `dst`. **One-sided.**
    ///
    /// An access to this locale's own memory is a plain copy and is not counted.
    #[track_caller]
    pub fn get<T: Pod>(&self, src: GlobalPtr<T>, dst: &mut [T]) -> Result<()> {
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(dst);
        self.get_bytes(src.locale, src.addr, bytes, Location::caller())
    }

    /// Reads one element. **One-sided.**
    #[track_caller]
    pub fn get_value<T: Pod>(&self, src: GlobalPtr<T>) -> Result<T> {
        let mut v = [T::zeroed()];
        self.get_bytes(src.locale, src.addr, bytemuck::cast_slice_mut(&mut v), Location::caller())?;
        Ok(v[0])
    }

    /// Copies `src` to `dst`. **One-sided.**
    #[track_caller]
    pub fn put<T: Pod>(&self, dst: GlobalPtr<T>, src: &[T]) -> Result<()> {
        self.put_bytes(dst.locale, dst.addr, bytemuck::cast_slice(src), Location::caller())
    }

    /// Writes one element. **One-sided.**
    #[track_caller]
    pub fn put_value<T: Pod>(&self, dst: GlobalPtr<T>, v: T) -> Result<()> {
        self.put_bytes(dst.locale, dst.addr, bytemuck::bytes_of(&v), Location::caller())
    }

    fn get_bytes(&self, target: usize, addr: u64, dst: &mut [u8], at: &'static Location<'static>) -> Result<()> {
        if dst.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            // Own memory: a plain checked copy, uncounted.
            return local_copy::read(&self.st.regions, target, addr, dst);
        }
        self.remote_access(Op::Get, target, addr, dst.len(), dst.len(), at)?;
        self.st.backend.get(target, addr, dst)
    }

    fn put_bytes(&self, target: usize, addr: u64, src: &[u8], at: &'static Location<'static>) -> Result<()> {
        if src.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::write(&self.st.regions, target, addr, src);
        }
        self.remote_access(Op::Put, target, addr, src.len(), src.len(), at)?;
        self.st.backend.put(target, addr, src)
    }

    /// Gathers a strided block of up to 3 dimensions from `src` into `dst` in one operation.
    /// `counts` and `strides` (in elements) are outermost first; `dst` receives the elements
    /// packed in row-major order and must hold exactly their number. **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<f64>(100)?;
    ///     for (i, x) in a.local_mut().iter_mut().enumerate() { *x = i as f64; }
    ///     ctx.barrier()?;
    ///     let mut every_fourth = vec![0.0; 25];
    ///     ctx.get_strided(a.ptr(1 - ctx.id()), &[25], &[4], &mut every_fourth)?;
    ///     assert_eq!(every_fourth[3], 12.0);
    ///     a.free()
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn get_strided<T: Pod>(
        &self,
        src: GlobalPtr<T>,
        counts: &[usize],
        strides: &[usize],
        dst: &mut [T],
    ) -> Result<()> {
        let shape = Strided::elems(std::mem::size_of::<T>(), counts, strides)?;
        self.get_strided_bytes(src.locale, src.addr, &shape, bytemuck::cast_slice_mut(dst), Location::caller())
    }

    /// Scatters `src` (packed, row-major) to a strided block at `dst` in one operation.
    /// **One-sided.**
    #[track_caller]
    pub fn put_strided<T: Pod>(&self, dst: GlobalPtr<T>, counts: &[usize], strides: &[usize], src: &[T]) -> Result<()> {
        let shape = Strided::elems(std::mem::size_of::<T>(), counts, strides)?;
        self.put_strided_bytes(dst.locale, dst.addr, &shape, bytemuck::cast_slice(src), Location::caller())
    }

    /// Byte-level strided get with an explicit shape. **One-sided.**
    #[track_caller]
    pub fn get_strided_raw(&self, target: usize, addr: u64, shape: &Strided, dst: &mut [u8]) -> Result<()> {
        self.get_strided_bytes(target, addr, shape, dst, Location::caller())
    }

    /// Byte-level strided put with an explicit shape. **One-sided.**
    #[track_caller]
    pub fn put_strided_raw(&self, target: usize, addr: u64, shape: &Strided, src: &[u8]) -> Result<()> {
        self.put_strided_bytes(target, addr, shape, src, Location::caller())
    }

    fn check_shape(shape: &Strided, buf: usize) -> Result<()> {
        if shape.total_bytes() != buf {
            return Err(Error::ShapeMismatch {
                context: "strided transfer".into(),
                left: format!("{} bytes described by {:?}", shape.total_bytes(), &shape.counts[..shape.dims]),
                right: format!("a buffer of {buf} bytes"),
            });
        }
        Ok(())
    }

    fn get_strided_bytes(
        &self,
        target: usize,
        addr: u64,
        shape: &Strided,
        dst: &mut [u8],
        at: &'static Location<'static>,
    ) -> Result<()> {
        Self::check_shape(shape, dst.len())?;
        if dst.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::read_strided(&self.st.regions, target, addr, shape, dst);
        }
        self.remote_access(Op::StridedGet, target, addr, shape.extent_bytes(), dst.len(), at)?;
        self.st.backend.get_strided(target, addr, shape, dst)
    }

    fn put_strided_bytes(
        &self,
        target: usize,
        addr: u64,
        shape: &Strided,
        src: &[u8],
        at: &'static Location<'static>,
    ) -> Result<()> {
        Self::check_shape(shape, src.len())?;
        if src.is_empty() {
            return self.check_locale(target);
        }
        if target == self.st.id {
            return local_copy::write_strided(&self.st.regions, target, addr, shape, src);
        }
        self.remote_access(Op::StridedPut, target, addr, shape.extent_bytes(), src.len(), at)?;
        self.st.backend.put_strided(target, addr, shape, src)
    }

    // ----- atomics ----------------------------------------------------------------------

    fn atomic_target(&self, p: GlobalPtr<u64>, at: &'static Location<'static>) -> Result<()> {
        self.check_locale(p.locale)?;
        if p.addr % 8 != 0 {
            return Err(Error::Misaligned { locale: p.locale, addr: p.addr });
        }
        self.remote_access(Op::Atomic, p.locale, p.addr, 8, 8, at)
    }

    /// Atomically adds `v` (wrapping) to the word at `p`; returns the previous value.
    /// **One-sided.** Atomic with respect to every other Atoll atomic on that word, whichever
    /// locale issues it (including the owner, which goes through the same path).
    #[track_caller]
    pub fn fetch_add(&self, p: GlobalPtr<u64>, v: u64) -> Result<u64> {
        if p.locale == self.st.id {
            return local_copy::fetch_add(&self.st.regions, p.locale, p.addr, v);
        }
        self.atomic_target(p, Location::caller())?;
        self.st.backend.fetch_add_u64(p.locale, p.addr, v)
    }

    /// Atomically replaces the word at `p` with `new` if it equals `current`; returns the
    /// previous value (the exchange happened if it equals `current`). **One-sided.**
    #[track_caller]
    pub fn compare_exchange(&self, p: GlobalPtr<u64>, current: u64, new: u64) -> Result<u64> {
        if p.locale == self.st.id {
            return local_copy::compare_exchange(&self.st.regions, p.locale, p.addr, current, new);
        }
        self.atomic_target(p, Location::caller())?;
        self.st.backend.compare_exchange_u64(p.locale, p.addr, current, new)
    }
}
