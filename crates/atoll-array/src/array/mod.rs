//! [`DistArray`]: a distributed array; [`View`], [`ViewMut`] and [`SharedView`]: slices of it.
//!
//! The code is split by capability:
//! - this file: the registry of live arrays, [`DistArray`], its constructors and accessors;
//! - `whole.rs`: the whole-array operations of [`DistArray`] (element access, gather, fill,
//!   assignment, zips, `free`);
//! - `domain_arg.rs`: [`IntoDomain`], the sub-domain argument of the `slice` methods;
//! - `view.rs`: [`View`], a read-only view;
//! - `view_mut.rs`: [`ViewMut`], a writable view, and the loop of its zips (`apply_led`);
//! - `shared.rs`: views that traveled: their wire form, [`View::share`], [`SharedView`] and
//!   [`PinnedView`];
//! - `view_expr.rs`: a view as an expression operand ([`ViewBound`]), operators on `&DistArray`;
//! - `rows.rs`: the row writers of the loops (`write_row`, `update_row`, `scatter_local`);
//! - `assign.rs`: bulk assignment between views of any two distributions (strided gets);
//! - `collect.rs`: [`View::to_vec`] and [`DistArray::to_vec`], every element on every locale;
//! - `external.rs`: arrays whose local parts live in memory that something else owns;
//! - `sublocales.rs`: Block arrays whose pieces target sublocales ([`Targets`](crate::Targets)).

pub(crate) mod assign;
mod collect;
mod domain_arg;
mod external;
mod rows;
mod shared;
pub(crate) mod sublocales;
mod view;
mod view_expr;
mod view_mut;
mod whole;

pub use domain_arg::IntoDomain;
pub(crate) use rows::{scatter_local, write_row};
pub use shared::{PinnedView, SharedView};
pub use view::View;
pub use view_expr::ViewBound;
pub use view_mut::ViewMut;

use crate::elem::Elem;
use crate::storage::Storage;
use atoll_dist::{Block, Distribution, Domain, SublocaleBlock};
use atoll_error::{ensure, Error, Result};
use atoll_runtime::Ctx;
use atoll_util::sync::lock;
use std::any::Any;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, Weak};

/// An array's state on one locale: its distribution, its storage, and its collective id.
pub(crate) struct Inner<T: Elem, const D: usize, M: Distribution<D>> {
    pub(crate) ctx: Ctx,
    pub(crate) dist: M,
    pub(crate) store: Storage<T>,
    /// Set when the pieces target sublocales (`array/sublocales.rs`).
    pub(crate) sub: std::sync::OnceLock<SubLayout<D>>,
    id: u64,
    _entry: RegistryEntry,
}

/// The sublocale layout of an array whose pieces target sublocales (`array/sublocales.rs`), with
/// this locale's rows per sublocale.
pub(crate) struct SubLayout<const D: usize> {
    pub(crate) split: SublocaleBlock<D>,
    /// Elements per row (dimension-0 position) of this locale's buffer.
    pub(crate) row_len: usize,
    /// This locale's buffer rows of each of its sublocales.
    pub(crate) rows: Vec<std::ops::Range<usize>>,
    /// This locale's buffer offsets of each of its sublocales.
    pub(crate) ranges: Vec<std::ops::Range<usize>>,
}

/// Removes an array's registry entry when its state is dropped.
struct RegistryEntry((usize, u64));

impl Drop for RegistryEntry {
    fn drop(&mut self) {
        lock(registry()).remove(&self.0);
    }
}

type Registry = Mutex<HashMap<(usize, u64), Weak<dyn Any + Send + Sync>>>;

/// The live arrays of every locale of every job in the process, by (locale key, array id): how
/// a view that traveled finds its array's storage on arrival.
fn registry() -> &'static Registry {
    static R: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    R.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A distributed array of `T` over a [`Distribution`] `M` of rank `D` (Block by default).
///
/// Each locale stores the elements it owns, densely, in registered memory (remote locales read
/// and write it with one-sided gets and puts). Creating, assigning, reducing and freeing an
/// array are **collective**: every locale calls them in the same order, each with its own
/// `DistArray` handle. Slices ([`slice`](Self::slice), [`slice_mut`](Self::slice_mut)) are O(1)
/// views that make no message.
///
/// ```
/// use atoll_array::{DistArray, ExprReduce, dist};
/// use atoll_runtime::{run, Config};
/// run(Config::local(3), |ctx| {
///     let n = 1000;
///     let b = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
///     let c = DistArray::filled(ctx, dist::block(ctx, [n])?, 2.0)?;
///     let mut a = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
///     a.assign_expr(&b + 0.5 * &c)?;                      // one fused pass, no message
///     assert_eq!(a.get([10])?, 11.0);
///     assert_eq!(a.view().sum()?, (0..n).map(|i| i as f64 + 1.0).sum::<f64>());
///     let inner = a.slice([1..n as i64 - 1])?;             // a view: O(1), no message
///     assert_eq!(inner.min()?, 2.0);
///     Ok(())
/// }).unwrap();
/// ```
pub struct DistArray<T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    inner: Arc<Inner<T, D, M>>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> std::fmt::Debug for DistArray<T, D, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DistArray<{}>({} over {}, locale {})",
            T::NAME,
            self.inner.dist.kind(),
            self.domain(),
            self.inner.ctx.id()
        )
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    fn create(ctx: &Ctx, dist: M, operation: &str) -> Result<Self> {
        Self::create_with(ctx, dist, operation, false)
    }

    fn create_with(ctx: &Ctx, dist: M, operation: &str, lazy: bool) -> Result<Self> {
        Self::create_from(ctx, dist, |len| {
            if lazy {
                Storage::alloc_lazy(ctx, operation, len)
            } else {
                Storage::alloc(ctx, operation, len)
            }
        })
    }

    /// An array over `dist` whose local part (of the length given) `store` makes. **Collective.**
    pub(crate) fn create_from(ctx: &Ctx, dist: M, store: impl FnOnce(usize) -> Result<Storage<T>>) -> Result<Self> {
        let n = ctx.num_locales();
        if let Some(&bad) = dist.grid().targets().iter().find(|&&t| t >= n) {
            return Err(Error::InvalidLocale { locale: bad, num_locales: n });
        }
        let len = if dist.grid().contains(ctx.id()) { dist.local_len(ctx.id())? } else { 0 };
        let store = store(len)?;
        let id = ctx.collectives_started();
        let inner = Arc::new(Inner {
            ctx: ctx.clone(),
            dist,
            store,
            sub: std::sync::OnceLock::new(),
            id,
            _entry: RegistryEntry((ctx.job_key(), id)),
        });
        let weak: Weak<dyn Any + Send + Sync> = Arc::downgrade(&(inner.clone() as Arc<dyn Any + Send + Sync>));
        // The registry's table outlives every array (it is process-wide): its growth is marked
        // permanent so leak reports do not list it.
        atoll_runtime::atoll_mem::permanent(|| lock(registry()).insert((ctx.job_key(), id), weak));
        Ok(DistArray { inner })
    }

    /// An array of zeros (`false` for `bool`). **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] when the distribution's grid names a locale that does not
    /// exist; [`Error::OutOfMemory`] (on every locale) when a locale's part does not fit in
    /// its memory budget.
    pub fn zeros(ctx: &Ctx, dist: M) -> Result<Self> {
        Self::create(ctx, dist, "DistArray::zeros")
    }

    /// An array of zeros whose pages are not written here: each is first touched (and placed,
    /// on a NUMA machine) by whichever thread writes it first, as with NumPy's `zeros`. For an
    /// array that a parallel pass overwrites right away (a sort's result): it saves one write
    /// of every element. [`zeros`](Self::zeros) first-touches each locale's part with that
    /// locale's own threads. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = DistArray::<f64, 1>::zeros_lazy(ctx, dist::block(ctx, [1000])?)?;
    ///     if let Some(v) = a.gather(0)? {
    ///         assert!(v.iter().all(|&x| x == 0.0));
    ///     }
    ///     a.local_mut().fill(1.5); // the pages of this locale's part are touched here
    ///     ctx.barrier()?;
    ///     assert_eq!(a.get([999])?, 1.5);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`zeros`](Self::zeros).
    pub fn zeros_lazy(ctx: &Ctx, dist: M) -> Result<Self> {
        Self::create_with(ctx, dist, "DistArray::zeros_lazy", true)
    }

    /// An array whose elements are unspecified until written, like NumPy's `empty`: for a
    /// result that the caller overwrites entirely before reading any element (Atoll's own
    /// `cumsum`, `take`, `argsort` and the Python package's results are made so). Its parts
    /// are made as by [`zeros_lazy`](Self::zeros_lazy), except that a part reused from the
    /// page pool is not zeroed first and holds values of an earlier array of this process
    /// (`bool` parts are zeroed: not every byte is a `bool`); that saves a write of the whole
    /// part. Every element is a valid value of `T` at any time. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let mut a = DistArray::<u64, 1>::for_overwrite(ctx, dist::block(ctx, [1000])?)?;
    ///     a.view_mut().zip_apply_indexed(atoll_array::expr::Scalar(()), |[i], x, ()| *x = 2 * i as u64)?;
    ///     assert_eq!(a.get([999])?, 1998);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`zeros`](Self::zeros).
    pub fn for_overwrite(ctx: &Ctx, dist: M) -> Result<Self> {
        Self::create_from(ctx, dist, |len| Storage::alloc_for_overwrite(ctx, "DistArray::for_overwrite", len))
    }

    /// An array with every element `value`. **Collective.**
    ///
    /// # Errors
    /// As [`zeros`](Self::zeros).
    pub fn filled(ctx: &Ctx, dist: M, value: T) -> Result<Self> {
        let mut a = Self::create(ctx, dist, "DistArray::filled")?;
        ctx.forall_chunks_mut(a.local_mut(), |_, part| part.fill(value));
        // Every locale has filled its part before any locale reads the array.
        ctx.barrier()?;
        Ok(a)
    }

    /// An array with element `idx` equal to `f(idx)`, computed by its owner. **Collective.**
    ///
    /// # Errors
    /// As [`zeros`](Self::zeros).
    pub fn from_fn(ctx: &Ctx, dist: M, f: impl Fn([i64; D]) -> T + Sync) -> Result<Self> {
        let mut a = Self::create(ctx, dist, "DistArray::from_fn")?;
        a.view_mut().zip_apply_indexed(crate::expr::Scalar(()), |i, x, ()| *x = f(i))?;
        Ok(a)
    }

    /// An array holding `data` (the elements in row-major order of the domain), given on locale
    /// `root` (`None` elsewhere). Each locale pulls its part with strided gets. **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad `root`, [`Error::ShapeMismatch`] (on every locale)
    /// when `data` does not have one element per index, and as [`zeros`](Self::zeros).
    pub fn from_vec(ctx: &Ctx, dist: M, root: usize, data: Option<Vec<T>>) -> Result<Self> {
        ctx.check_locale(root)?;
        let size = dist.domain().size();
        let len = ctx.broadcast(root, (ctx.id() == root).then(|| data.as_ref().map_or(usize::MAX, Vec::len)))?;
        ensure!(
            len == size,
            Error::ShapeMismatch {
                context: "DistArray::from_vec".into(),
                left: format!("{} elements in the domain {}", size, dist.domain()),
                right: if len == usize::MAX {
                    format!("no data on locale {root}")
                } else {
                    format!("{len} elements of data")
                },
            }
        );
        let mut a = Self::create(ctx, dist, "DistArray::from_vec")?;
        let staging =
            Storage::<T>::alloc(ctx, "DistArray::from_vec (staging)", if ctx.id() == root { size } else { 0 })?;
        if let Some(d) = data.filter(|_| ctx.id() == root) {
            // SAFETY: `staging` is owned here and not yet shared with any locale (the barrier
            // below publishes it).
            unsafe { staging.local_mut() }.copy_from_slice(&d);
        }
        ctx.barrier()?;
        let r = a.pull_from(&staging, root);
        let b = ctx.barrier();
        staging.free()?;
        r.and(b)?;
        Ok(a)
    }

    /// Copies this locale's part from `staging` (the whole domain, row-major, on `root`).
    fn pull_from(&mut self, staging: &Storage<T>, root: usize) -> Result<()> {
        let inner = &*self.inner;
        let me = inner.ctx.id();
        if !inner.dist.grid().contains(me) {
            return Ok(());
        }
        let runs = inner.dist.runs(me, inner.dist.domain())?;
        let mut buf = Vec::new();
        for p in runs.patches() {
            buf.clear();
            buf.resize(p.len(), T::default());
            staging.get_strided(&inner.ctx, root, p.sub_offset, &p.global.shape(), &p.sub_strides, &mut buf)?;
            scatter_local(&inner.store, p.local_offset, &p.local_strides, &p.global.shape(), &buf);
        }
        Ok(())
    }

    /// The distribution.
    pub fn dist(&self) -> &M {
        &self.inner.dist
    }

    /// The array's domain.
    pub fn domain(&self) -> &Domain<D> {
        self.inner.dist.domain()
    }

    /// The shape.
    pub fn shape(&self) -> [usize; D] {
        self.domain().shape()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.domain().size()
    }

    /// Whether the array has no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The locale context the array was made on.
    pub fn ctx(&self) -> &Ctx {
        &self.inner.ctx
    }

    /// This locale's elements, in the distribution's local order (row-major over the indices
    /// it owns; [`Distribution::global_index`] maps an offset back to its index).
    pub fn local(&self) -> &[T] {
        self.inner.store.local()
    }

    /// This locale's elements, writable.
    pub fn local_mut(&mut self) -> &mut [T] {
        // SAFETY: `Inner` is shared only with the registry (weakly), with views borrowed from
        // `self` and with pinned SharedViews, which only read through loops bracketed by
        // barriers (the PGAS contract of storage/mod.rs); `&mut self` excludes every borrow of this
        // handle, so no other local reference is used while the slice lives.
        unsafe { self.inner.store.local_mut() }
    }

    /// A view of the whole array.
    pub fn view(&self) -> View<'_, T, D, M> {
        View { arr: &self.inner, dom: *self.domain() }
    }

    /// A writable view of the whole array.
    pub fn view_mut(&mut self) -> ViewMut<'_, T, D, M> {
        let dom = *self.domain();
        ViewMut { arr: &self.inner, dom, _excl: PhantomData }
    }

    /// The view of the indices `sub` (a sub-domain, or one range per dimension, with strides
    /// allowed): O(1), no message, no registration.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and the domain when `sub` is not inside it.
    pub fn slice(&self, sub: impl IntoDomain<D>) -> Result<View<'_, T, D, M>> {
        self.view().slice(sub)
    }

    /// The writable view of the indices `sub` (see [`slice`](Self::slice)).
    ///
    /// # Errors
    /// As [`slice`](Self::slice).
    pub fn slice_mut(&mut self, sub: impl IntoDomain<D>) -> Result<ViewMut<'_, T, D, M>> {
        let dom = self.domain().slice(&sub.into_domain()?)?;
        Ok(ViewMut { arr: &self.inner, dom, _excl: PhantomData })
    }
}
