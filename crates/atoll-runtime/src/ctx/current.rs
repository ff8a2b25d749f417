//! The locale context of the calling thread ([`Ctx::current`]), so values that travel between
//! locales (array views, for instance) can be rebuilt on arrival without a `Ctx` argument.

use crate::sync::lock;
use crate::Ctx;
use std::cell::RefCell;

thread_local! {
    static CURRENT: RefCell<Option<Ctx>> = const { RefCell::new(None) };
}

/// Runs `f` with `ctx` as the calling thread's current context, restoring the previous one
/// afterwards (also on panic).
pub(crate) fn with_current<R>(ctx: &Ctx, f: impl FnOnce() -> R) -> R {
    let prev = CURRENT.with(|c| c.replace(Some(ctx.clone())));
    struct Restore(Option<Ctx>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = prev);
        }
    }
    let _r = Restore(prev);
    f()
}

impl Ctx {
    /// The context of the locale the calling thread works for: set on each locale's main
    /// thread (inside [`run`](crate::run) and the driver) and while a handler runs; `None` on
    /// other threads (task-pool threads included: pass the `Ctx` there).
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Ctx};
    /// run(Config::local(2), |ctx| {
    ///     assert_eq!(Ctx::current().unwrap().id(), ctx.id());
    ///     Ok(())
    /// }).unwrap();
    /// assert!(Ctx::current().is_none());
    /// ```
    pub fn current() -> Option<Ctx> {
        CURRENT.with(|c| c.borrow().clone())
    }
}

impl Ctx {
    /// A key unique to this locale of this job among the live jobs of the process (for
    /// per-locale registries of objects that several jobs in one process may create).
    pub fn job_key(&self) -> usize {
        crate::sync::Arc::as_ptr(&self.st) as usize
    }

    /// How many collective operations this locale has started. Every locale has the same
    /// count at the same point of an SPMD program, so it can name collectively created objects.
    pub fn collectives_started(&self) -> u64 {
        self.st.coll_seq.load(crate::sync::Ordering::Relaxed)
    }

    /// This locale's value of type `T`, made with `T::default()` on first use and dropped with
    /// the job: per-locale state of the layers above the runtime (settings, statistics), so
    /// that N locales in one process, and successive jobs, never share it. **Local.**
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// #[derive(Default)]
    /// struct Hits(AtomicU64);
    /// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
    ///     ctx.locale_ext::<Hits>().0.fetch_add(ctx.id() as u64 + 1, Ordering::Relaxed);
    ///     assert_eq!(ctx.locale_ext::<Hits>().0.load(Ordering::Relaxed), ctx.id() as u64 + 1);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    pub fn locale_ext<T: std::any::Any + Default + Send + Sync>(&self) -> crate::sync::Arc<T> {
        let mut g = lock(&self.st.ext);
        if let Some(v) = g.iter().find_map(|e| e.clone().downcast::<T>().ok()) {
            return v;
        }
        let v = crate::sync::Arc::new(T::default());
        g.push(v.clone());
        v
    }
}
