//! Non-blocking gets and puts, completed when their scope ends.

use super::{Ctx, GlobalPtr};
use crate::comm::local_copy;
use crate::diagnostics::Op;
use atoll_error::Result;
use bytemuck::Pod;
use std::marker::PhantomData;
use std::panic::Location;

impl Ctx {
    /// Runs `f` with a scope in which gets and puts are started without waiting; they all
    /// complete (are flushed) before this returns, and buffers lent to them stay borrowed until
    /// then. **One-sided.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let mut a = ctx.alloc_symmetric::<u32>(1)?;
    ///     a.local_mut()[0] = ctx.id() as u32 + 100;
    ///     ctx.barrier()?;
    ///     let mut got = vec![[0u32; 1]; ctx.num_locales()];
    ///     ctx.nonblocking(|nb| {
    ///         for (l, slot) in got.iter_mut().enumerate() {
    ///             nb.get(a.ptr(l), slot)?;
    ///         }
    ///         Ok(())
    ///     })?;
    ///     assert_eq!(got, vec![[100], [101], [102]]);
    ///     a.free()
    /// }).unwrap();
    /// ```
    pub fn nonblocking<'buf, R>(&self, f: impl FnOnce(&NbScope<'buf, '_>) -> Result<R>) -> Result<R> {
        let scope = NbScope { ctx: self, _buf: PhantomData };
        let r = f(&scope);
        let flushed = self.st.backend.flush_all();
        let r = r?;
        flushed?;
        Ok(r)
    }
}

/// A scope for non-blocking transfers; see [`Ctx::nonblocking`].
pub struct NbScope<'buf, 'c> {
    ctx: &'c Ctx,
    _buf: PhantomData<std::cell::Cell<&'buf mut ()>>,
}

impl<'buf> NbScope<'buf, '_> {
    /// Starts a get into `dst`, complete when the scope ends. **One-sided.**
    #[track_caller]
    pub fn get<T: Pod>(&self, src: GlobalPtr<T>, dst: &'buf mut [T]) -> Result<()> {
        let ctx = self.ctx;
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(dst);
        if bytes.is_empty() {
            return ctx.check_locale(src.locale);
        }
        if src.locale == ctx.st.id {
            return local_copy::read(&ctx.st.regions, src.locale, src.addr, bytes);
        }
        ctx.remote_access(Op::Get, src.locale, src.addr, bytes.len(), bytes.len(), Location::caller())?;
        // SAFETY: `dst` is mutably borrowed for 'buf, which outlives the enclosing
        // `Ctx::nonblocking` call, and that call flushes every transfer before returning; so
        // the buffer is valid and unaliased until completion.
        unsafe { ctx.st.backend.get_nb(src.locale, src.addr, bytes.as_mut_ptr(), bytes.len()) }
    }

    /// Starts a put from `src`, complete when the scope ends. **One-sided.**
    #[track_caller]
    pub fn put<T: Pod>(&self, dst: GlobalPtr<T>, src: &'buf [T]) -> Result<()> {
        let ctx = self.ctx;
        let bytes: &[u8] = bytemuck::cast_slice(src);
        if bytes.is_empty() {
            return ctx.check_locale(dst.locale);
        }
        if dst.locale == ctx.st.id {
            return local_copy::write(&ctx.st.regions, dst.locale, dst.addr, bytes);
        }
        ctx.remote_access(Op::Put, dst.locale, dst.addr, bytes.len(), bytes.len(), Location::caller())?;
        // SAFETY: `src` is borrowed for 'buf, beyond the flush at the end of the scope.
        unsafe { ctx.st.backend.put_nb(dst.locale, dst.addr, bytes.as_ptr(), bytes.len()) }
    }

    /// Completes every transfer started so far in this scope.
    pub fn flush(&self) -> Result<()> {
        self.ctx.st.backend.flush_all()
    }
}
