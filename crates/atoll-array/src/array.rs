//! [`DistArray`]: a distributed array; [`View`], [`ViewMut`] and [`SharedView`]: slices of it.

use crate::local_only;
use crate::elem::Elem;
use crate::expr::{Bound, Expr, IntoExpr};
use crate::storage::Storage;
use crate::zip::{Plan, Row, Seg};
use atoll_dist::{Block, Distribution, Domain, StridedRange};
use atoll_error::{ensure, invalid_arg, Error, Result};
use atoll_runtime::Ctx;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, Weak};

/// An array's state on one locale: its distribution, its storage, and its collective id.
pub(crate) struct Inner<T: Elem, const D: usize, M: Distribution<D>> {
    pub(crate) ctx: Ctx,
    pub(crate) dist: M,
    pub(crate) store: Storage<T>,
    /// Set when the pieces target sublocales (`sublocales.rs`).
    pub(crate) sub: std::sync::OnceLock<crate::sublocales::SubLayout<D>>,
    id: u64,
    _entry: RegistryEntry,
}

/// Removes an array's registry entry when its state is dropped.
struct RegistryEntry((usize, u64));

impl Drop for RegistryEntry {
    fn drop(&mut self) {
        registry().lock().unwrap_or_else(|p| p.into_inner()).remove(&self.0);
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
        write!(f, "DistArray<{}>({} over {}, locale {})", T::NAME, self.inner.dist.kind(), self.domain(), self.inner.ctx.id())
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> DistArray<T, D, M> {
    fn create(ctx: &Ctx, dist: M, operation: &str) -> Result<Self> {
        Self::create_with(ctx, dist, operation, false)
    }

    fn create_with(ctx: &Ctx, dist: M, operation: &str, lazy: bool) -> Result<Self> {
        Self::create_from(ctx, dist, |len| if lazy { Storage::alloc_lazy(ctx, operation, len) } else { Storage::alloc(ctx, operation, len) })
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
        let inner = Arc::new(Inner { ctx: ctx.clone(), dist, store, sub: std::sync::OnceLock::new(), id, _entry: RegistryEntry((ctx.job_key(), id)) });
        let weak: Weak<dyn Any + Send + Sync> = Arc::downgrade(&(inner.clone() as Arc<dyn Any + Send + Sync>));
        // The registry's table outlives every array (it is process-wide): its growth is marked
        // permanent so leak reports do not list it.
        atoll_runtime::atoll_mem::permanent(|| registry().lock().unwrap_or_else(|p| p.into_inner()).insert((ctx.job_key(), id), weak));
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

    /// An array with every element `value`. **Collective.**
    ///
    /// # Errors
    /// As [`zeros`](Self::zeros).
    pub fn filled(ctx: &Ctx, dist: M, value: T) -> Result<Self> {
        let mut a = Self::create(ctx, dist, "DistArray::filled")?;
        let local = a.local_mut();
        let chunks = crate::util::ChunksMut::new(local);
        ctx.forall_chunks(0..chunks.len(), |r| r.for_each(|c| chunks.get(c).fill(value)));
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
                right: if len == usize::MAX { format!("no data on locale {root}") } else { format!("{len} elements of data") },
            }
        );
        let mut a = Self::create(ctx, dist, "DistArray::from_vec")?;
        let staging = Storage::<T>::alloc(ctx, "DistArray::from_vec (staging)", if ctx.id() == root { size } else { 0 })?;
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
        // barriers (the PGAS contract of storage.rs); `&mut self` excludes every borrow of this
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

    /// Element `idx`: a local read, or one remote get (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn get(&self, idx: [i64; D]) -> Result<T> {
        self.view().get(idx)
    }

    /// Sets element `idx`: a local write, or one remote put (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the domain.
    pub fn set(&mut self, idx: [i64; D], value: T) -> Result<()> {
        self.view_mut().set(idx, value)
    }

    /// Gathers the whole array, in row-major order, on locale `root` (`None` elsewhere); on
    /// every locale: [`to_vec`](Self::to_vec); an indexed read `a[idx]`: [`take`](Self::take).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad `root`; a communication error.
    pub fn gather(&self, root: usize) -> Result<Option<Vec<T>>> {
        self.view().gather(root)
    }

    /// Sets every element to `value`. **Collective.**
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.view_mut().fill(value)
    }

    /// `self = expr`, elementwise, in one fused owner-computes pass. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when an operand's shape differs.
    pub fn assign_expr<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        self.view_mut().assign_expr(expr)
    }

    /// `self = src` with bulk transfers (see [`ViewMut::assign`]). **Collective.**
    ///
    /// # Errors
    /// As [`ViewMut::assign`].
    pub fn assign<M2: Distribution<D> + 'static>(&mut self, src: &View<'_, T, D, M2>) -> Result<()> {
        self.view_mut().assign(src)
    }

    /// Zippered `forall`: `f(&mut self[i], operands[i])` for every index, run by the owner of
    /// `self[i]` (the leader). **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply<E: IntoExpr<D>>(&mut self, operands: E, f: impl Fn(&mut T, <E::Expr as Expr<D>>::Item) + Sync) -> Result<()> {
        self.view_mut().zip_apply(operands, f)
    }

    /// `self = expr` led by the owning expression (see [`ViewMut::assign_expr_owning`]).
    /// **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn assign_expr_owning<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        self.view_mut().assign_expr_owning(expr)
    }

    /// Frees the array on every locale. **Collective.** (Dropping it does the same, without
    /// reporting errors.)
    pub fn free(self) -> Result<()> {
        // Views borrow the array, so none is alive here; a SharedView holds only a weak link.
        match Arc::try_unwrap(self.inner) {
            Ok(inner) => {
                let Inner { store, .. } = inner;
                store.free()
            }
            Err(_) => Err(invalid_arg!("the array is in use by a SharedView on this locale")),
        }
    }
}

// ----- views ----------------------------------------------------------------------------------

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

/// A read-only view of a [`DistArray`]: its elements at the indices of a sub-domain (strided
/// allowed), in the array's index space. O(1) to make and to copy, no message. It works
/// wherever an array does (as an operand of expressions, zips, assignments and reductions),
/// and it travels by value: serialized, it is the array's collective id and the sub-domain,
/// and it arrives as a [`SharedView`] on the receiving locale.
pub struct View<'a, T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    pub(crate) arr: &'a Inner<T, D, M>,
    pub(crate) dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Clone for View<'_, T, D, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Copy for View<'_, T, D, M> {}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> std::fmt::Debug for View<'_, T, D, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "View<{}>({} of {} over {})", T::NAME, self.dom, self.arr.dist.kind(), self.arr.dist.domain())
    }
}

impl<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> View<'a, T, D, M> {
    /// The view's indices.
    pub fn domain(&self) -> &Domain<D> {
        &self.dom
    }

    /// The shape.
    pub fn shape(&self) -> [usize; D] {
        self.dom.shape()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.dom.size()
    }

    /// Whether the view has no element.
    pub fn is_empty(&self) -> bool {
        self.dom.is_empty()
    }

    /// The array's distribution.
    pub fn dist(&self) -> &'a M {
        &self.arr.dist
    }

    /// The locale context.
    pub fn ctx(&self) -> &'a Ctx {
        &self.arr.ctx
    }

    pub(crate) fn inner(&self) -> &'a Inner<T, D, M> {
        self.arr
    }

    /// A view of this view: `sub` must lie inside it (indices are the array's). O(1).
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and this view's domain.
    pub fn slice(&self, sub: impl IntoDomain<D>) -> Result<View<'a, T, D, M>> {
        Ok(View { arr: self.arr, dom: self.dom.slice(&sub.into_domain()?)? })
    }

    /// Element `idx` (an index of the array inside the view). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the view.
    #[track_caller]
    pub fn get(&self, idx: [i64; D]) -> Result<T> {
        self.dom.ensure_contains(idx)?;
        let (owner, off) = self.arr.dist.locate(idx);
        let ctx = &self.arr.ctx;
        if owner == ctx.id() {
            // SAFETY: `locate` of an index of the domain gives an offset inside its owner's part.
            Ok(unsafe { self.arr.store.read(off) })
        } else {
            let mut v = [T::default()];
            self.arr.store.get(ctx, owner, off, &mut v)?;
            Ok(v[0])
        }
    }

    /// Gathers the view, in row-major order, on locale `root` (`None` elsewhere): one strided
    /// get per patch that a remote locale owns. On every locale: [`to_vec`](Self::to_vec).
    /// **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidLocale`] for a bad `root`; a communication error.
    pub fn gather(&self, root: usize) -> Result<Option<Vec<T>>> {
        let ctx = &self.arr.ctx;
        ctx.check_locale(root)?;
        ctx.barrier()?;
        let r = if ctx.id() == root { self.gather_here().map(Some) } else { Ok(None) };
        ctx.barrier()?;
        r
    }

    pub(crate) fn gather_here(&self) -> Result<Vec<T>> {
        let (arr, ctx) = (self.arr, &self.arr.ctx);
        let mut out = vec![T::default(); self.dom.size()];
        let mut buf = Vec::new();
        for &t in arr.dist.grid().targets() {
            let runs = arr.dist.runs(t, &self.dom)?;
            for p in runs.patches() {
                let shape = p.global.shape();
                if t == ctx.id() {
                    for (_, loc, sub) in p.iter() {
                        // SAFETY: `runs` gives offsets inside this locale's part.
                        out[sub] = unsafe { arr.store.read(loc) };
                    }
                    continue;
                }
                buf.clear();
                buf.resize(p.len(), T::default());
                arr.store.get_strided(ctx, t, p.local_offset, &shape, &p.local_strides, &mut buf)?;
                crate::util::scatter(&mut out, p.sub_offset, &p.sub_strides, &shape, &buf);
            }
        }
        Ok(out)
    }

    /// This view as a [`SharedView`], the form in which it travels: pass it to `ctx.on` (or
    /// `on_async`, `coforall_locales`) for a handler that takes a `SharedView` argument; it
    /// arrives as the same elements on the target. O(1), no message.
    pub fn share(&self) -> SharedView<T, D, M> {
        let key = (self.arr.ctx.job_key(), self.arr.id);
        let found = registry().lock().unwrap_or_else(|p| p.into_inner()).get(&key).and_then(Weak::upgrade);
        let arr = found.and_then(|a| a.downcast::<Inner<T, D, M>>().ok()).map(|a| Arc::downgrade(&a)).unwrap_or_default();
        SharedView { arr, id: self.arr.id, dom: self.dom }
    }

    /// The plan of a zip led by this view.
    pub(crate) fn plan(&self) -> Result<Plan<'a, D>> {
        crate::sublocales::plan(self.arr, self.dom)
    }
}

/// A writable view of a [`DistArray`] (see [`View`]); it borrows the array exclusively.
pub struct ViewMut<'a, T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    arr: &'a Inner<T, D, M>,
    dom: Domain<D>,
    _excl: PhantomData<&'a mut ()>,
}

impl<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> ViewMut<'a, T, D, M> {
    /// The read-only view of the same elements.
    pub fn as_view(&self) -> View<'_, T, D, M> {
        View { arr: self.arr, dom: self.dom }
    }

    /// A writable view of part of this view.
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] naming `sub` and this view's domain.
    pub fn slice_mut(&mut self, sub: impl IntoDomain<D>) -> Result<ViewMut<'_, T, D, M>> {
        Ok(ViewMut { arr: self.arr, dom: self.dom.slice(&sub.into_domain()?)?, _excl: PhantomData })
    }

    /// The view's indices.
    pub fn domain(&self) -> &Domain<D> {
        &self.dom
    }

    /// Sets element `idx`: a local write or one remote put (counted). **One-sided.**
    ///
    /// # Errors
    /// [`Error::IndexOutOfBounds`] when `idx` is not in the view.
    #[track_caller]
    pub fn set(&mut self, idx: [i64; D], value: T) -> Result<()> {
        self.dom.ensure_contains(idx)?;
        let (owner, off) = self.arr.dist.locate(idx);
        let ctx = &self.arr.ctx;
        if owner == ctx.id() {
            // SAFETY: in bounds (see `View::get`); `&mut self` excludes local readers.
            unsafe { self.arr.store.write(off, value) };
            Ok(())
        } else {
            self.arr.store.put(ctx, owner, off, &[value])
        }
    }

    /// Sets every element of the view to `value`. **Collective.**
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.assign_expr(crate::expr::Scalar(value))
    }

    /// `self = expr`, elementwise, in one fused owner-computes pass: each locale computes the
    /// elements of the view it owns; operands aligned with the view are read in place, others
    /// are fetched (see the crate docs). **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when an operand's shape differs.
    pub fn assign_expr<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        let expr = expr.into_expr();
        let plan = self.as_view().plan()?;
        // Large destinations: streaming stores (stream_store.rs).
        let stream = crate::stream_store::worth_it::<T>(plan.local_iterations());
        apply_led(self.arr, plan, &expr, |x, v| *x = v, stream)
    }

    /// Zippered `forall` led by this view: `f(&mut self[i], operands[i])`. **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply<E: IntoExpr<D>>(&mut self, operands: E, f: impl Fn(&mut T, <E::Expr as Expr<D>>::Item) + Sync) -> Result<()> {
        let expr = operands.into_expr();
        apply_led(self.arr, self.as_view().plan()?, &expr, f, false)
    }

    /// Zippered `forall` led by this view that also **writes a follower**:
    /// `f(&mut self[i], &mut other[i], operands[i])`. Each chunk of `other` is fetched like a
    /// read follower (aggregated by the [`Aggregation`](crate::Aggregation) mode), updated by
    /// `f`, and the elements of each remote patch are sent back after the chunk, with one
    /// strided put per patch in which something changed (element puts in `off` mode). Each
    /// element of `other` is visited by one iteration, so the loop writes it from one task
    /// only. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, Cyclic, DistArray};
    /// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
    ///     let n = 100;
    ///     let mut a = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i)?;
    ///     let mut b = DistArray::<i64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    ///     // b[i + 1] = 10 a[i] and a[i] += 1 for i < n - 1 (b's chunks are on the other locale).
    ///     a.slice_mut(0..n as i64 - 1)?.zip_apply_with_mut(&mut b.slice_mut(1..n as i64)?, 10i64, |x, y, k| {
    ///         *y = *x * k;
    ///         *x += 1;
    ///     })?;
    ///     assert_eq!((a.get([5])?, b.get([6])?, b.get([0])?), (6, 50, 0));
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `other` or an operand has another shape.
    pub fn zip_apply_with_mut<U: Elem, M2: Distribution<D> + 'static, E: IntoExpr<D>>(
        &mut self,
        other: &mut ViewMut<'_, U, D, M2>,
        operands: E,
        f: impl Fn(&mut T, &mut U, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        let expr = operands.into_expr();
        let (store, ctx) = (&self.arr.store, &self.arr.ctx);
        let (oarr, odom) = (other.arr, other.dom);
        let plan = self.as_view().plan()?;
        // Purely local (no leading barrier) when the written follower and every operand are
        // aligned.
        let local = plan.is_aligned(&oarr.dist, &odom) && expr.bind(&plan).is_ok_and(|b| b.aligned());
        local_only::fenced_unless(ctx, local, || {
            plan.check_shape(odom.shape(), || format!("the written follower over {odom}"))?;
            let bound = expr.bind(&plan)?;
            let follow = crate::follow::Follow::new(ctx)?;
            let aligned = plan.is_aligned(&oarr.dist, &odom);
            plan.for_each(|seg, (scratch, fb): &mut (_, crate::follow::FollowBuf<U>)| {
                let row = bound.row(seg, scratch)?;
                if aligned {
                    // The follower has the leader's local offsets.
                    crate::zip::unit_versioned!(row, |row| update_row(store, seg, #[inline(always)] |j, x| {
                        let o = seg.off + j * seg.off_step;
                        // SAFETY: an aligned operand's offsets are in bounds, and this task is
                        // the only one visiting iteration j of this segment.
                        unsafe {
                            let mut y = oarr.store.read(o);
                            f(x, &mut y, row.at(j));
                            oarr.store.write(o, y);
                        }
                    }));
                    return Ok(());
                }
                // The group's chunk is fetched at its first row and sent back after its last.
                if seg.row == 0 {
                    let sub = odom.slice_positions(&seg.group_positions())?;
                    crate::follow::fetch_into(oarr, &sub, seg.group_len(), &follow, fb)?;
                    fb.orig.clone_from(&fb.row);
                }
                let vals = &mut fb.row[seg.row * seg.len..(seg.row + 1) * seg.len];
                crate::zip::unit_versioned!(row, |row| update_row(store, seg, #[inline(always)] |j, x| f(x, &mut vals[j], row.at(j))));
                if seg.row + 1 < seg.rows {
                    return Ok(());
                }
                let sub = odom.slice_positions(&seg.group_positions())?;
                crate::follow::store(oarr, &sub, &fb.row, Some(&fb.orig), &follow, &mut fb.packed)
            })
        })
    }

    /// Zippered `forall` with the index: `f(idx, &mut self[idx], operands[i])`. **Collective.**
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn zip_apply_indexed<E: IntoExpr<D>>(
        &mut self,
        operands: E,
        f: impl Fn([i64; D], &mut T, <E::Expr as Expr<D>>::Item) + Sync,
    ) -> Result<()> {
        let expr = operands.into_expr();
        let (store, dom) = (&self.arr.store, self.dom);
        let ctx = &self.arr.ctx;
        let plan = self.as_view().plan()?;
        let local = expr.bind(&plan).is_ok_and(|b| b.aligned());
        local_only::fenced_unless(ctx, local, || {
        let bound = expr.bind(&plan)?;
        plan.for_each(|seg, scratch| {
            let row = bound.row(seg, scratch)?;
            let idx: [i64; D] = std::array::from_fn(|d| dom.dims()[d].nth(seg.pos[d]).unwrap_or(0));
            let stride = dom.dims()[D - 1].stride() as i64 * seg.step as i64;
            let first = idx[D - 1];
            crate::zip::unit_versioned!(row, |row| update_row(store, seg, #[inline(always)] |j, x| {
                let mut i = idx;
                i[D - 1] = first + j as i64 * stride;
                f(i, x, row.at(j))
            }));
            Ok(())
        })
        })
    }

    /// `self = expr` led by the **owning expression** (Section 6.3 of the modulo-unrolling
    /// paper): the leader is the operand, among this view and the expression's array operands,
    /// with which most operands are aligned, so that most accesses are local; this view on a
    /// tie. When the leader is not this view, each locale computes the values of the leader's
    /// elements it owns and writes them to their owners with aggregated puts (one strided put
    /// per remote patch in `static`/`auto` modes). The choice depends only on distributions and
    /// domains, so every locale makes the same. **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, Cyclic, DistArray};
    /// atoll_runtime::run(atoll_runtime::Config::local(2), |ctx| {
    ///     let n = 1000;
    ///     let b = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i as f64)?;
    ///     let mut a = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
    ///     let (lo, hi) = (0..n as i64 - 1, 1..n as i64);
    ///     ctx.reset_comm_diagnostics()?;
    ///     ctx.start_comm_diagnostics()?;
    ///     // a[1..] = b[..n-1] * b[..n-1] + b[..n-1]: led by b's view, a is written remotely.
    ///     a.slice_mut(hi)?.assign_expr_owning(b.slice(lo.clone())? * b.slice(lo.clone())? + b.slice(lo)?)?;
    ///     ctx.stop_comm_diagnostics()?;
    ///     assert_eq!(ctx.comm_counts().strided_puts, 1); // one put per locale, no get
    ///     assert_eq!(ctx.comm_counts().gets + ctx.comm_counts().strided_gets, 0);
    ///     assert_eq!(a.get([7])?, 6.0 * 6.0 + 6.0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`assign_expr`](Self::assign_expr).
    pub fn assign_expr_owning<E: IntoExpr<D>>(&mut self, expr: E) -> Result<()>
    where
        E::Expr: Expr<D, Item = T>,
    {
        let expr = expr.into_expr();
        let (arr, dom) = (self.arr, self.dom);
        let me = View { arr, dom };
        let mut cands: Vec<&dyn crate::expr::Operand<D>> = vec![&me];
        expr.operands(&mut |o| cands.push(o));
        let mut best: Option<(usize, Plan<'_, D>)> = None;
        let mut best_score = 0;
        for (k, c) in cands.iter().enumerate() {
            let plan = c.plan()?;
            let score = cands.iter().filter(|o| o.aligned_with(&plan)).count();
            if best.is_none() || score > best_score {
                (best, best_score) = (Some((k, plan)), score);
            }
        }
        let Some((k, plan)) = best else { return Err(Error::InvalidArgument("assign_expr_owning: no operand".into())) };
        if k == 0 {
            return apply_led(arr, plan, &expr, |x, v| *x = v, false);
        }
        let ctx = &arr.ctx;
        ctx.barrier()?;
        let r = (|| {
            plan.check_shape(dom.shape(), || format!("the destination view over {dom}"))?;
            let bound = expr.bind(&plan)?;
            let follow = crate::follow::Follow::new(ctx)?;
            plan.for_each(|seg, (scratch, fb): &mut (_, crate::follow::FollowBuf<T>)| {
                let row = bound.row(seg, scratch)?;
                // The group's values are sent after its last row.
                if seg.row == 0 {
                    fb.row.clear();
                }
                crate::zip::unit_versioned!(row, |row| fb.row.extend((0..seg.len).map(|j| row.at(j))));
                if seg.row + 1 < seg.rows {
                    return Ok(());
                }
                let sub = dom.slice_positions(&seg.group_positions())?;
                crate::follow::store(arr, &sub, &fb.row, None, &follow, &mut fb.packed)
            })
        })();
        ctx.barrier()?;
        r
    }

    /// `self = src`, with bulk transfers: each locale pulls the elements of its part of the
    /// view from their owners, one strided get per pair of (destination patch, source patch):
    /// for Block arrays one transfer per (source locale, destination locale) pair, for Cyclic
    /// one strided transfer per pair. Aligned operands copy locally. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] naming the shapes when they differ.
    pub fn assign<M2: Distribution<D> + 'static>(&mut self, src: &View<'_, T, D, M2>) -> Result<()> {
        crate::assign::assign(self.arr, &self.dom, src)
    }
}

// ----- views that traveled ------------------------------------------------------------------

/// The wire form of a view: the array's collective id, its element type, and the sub-domain.
#[derive(Serialize, Deserialize)]
struct ViewWire<const D: usize> {
    id: u64,
    elem: String,
    dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Serialize for View<'_, T, D, M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ViewWire { id: self.arr.id, elem: T::NAME.to_string(), dom: self.dom }.serialize(s)
    }
}

/// A view that traveled to this locale (deserialized from a [`View`] or another `SharedView`,
/// typically in a handler run by `on`): the same elements, found through this locale's part of
/// the array. It links to the array weakly: [`pin`](Self::pin) it to use it, and keep the
/// array alive meanwhile (freeing an array while a view of it is in use is a program error,
/// reported as [`Error::InvalidArgument`]). [`View::share`] makes one to send.
#[derive(Clone)]
pub struct SharedView<T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    arr: Weak<Inner<T, D, M>>,
    id: u64,
    dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Serialize for SharedView<T, D, M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        ViewWire { id: self.id, elem: T::NAME.to_string(), dom: self.dom }.serialize(s)
    }
}

impl<'de, T: Elem, const D: usize, M: Distribution<D> + 'static> Deserialize<'de> for SharedView<T, D, M> {
    fn deserialize<De: serde::Deserializer<'de>>(d: De) -> std::result::Result<Self, De::Error> {
        use serde::de::Error as _;
        let w = ViewWire::<D>::deserialize(d)?;
        if w.elem != T::NAME {
            return Err(De::Error::custom(format!("a view of {} arrays arrived as a view of {} arrays", w.elem, T::NAME)));
        }
        let ctx = Ctx::current().ok_or_else(|| De::Error::custom("a view can only arrive on a locale thread (in run or a handler)"))?;
        let weak = registry().lock().unwrap_or_else(|p| p.into_inner()).get(&(ctx.job_key(), w.id)).cloned();
        let any = weak
            .and_then(|w| w.upgrade())
            .ok_or_else(|| De::Error::custom(format!("the array of a view (id {}) no longer exists on locale {}", w.id, ctx.id())))?;
        let arr = any
            .downcast::<Inner<T, D, M>>()
            .map_err(|_| De::Error::custom("a view arrived with another distribution type than its array's"))?;
        Ok(SharedView { arr: Arc::downgrade(&arr), id: w.id, dom: w.dom })
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> SharedView<T, D, M> {
    /// Keeps the array alive while the view is used.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the array has been freed.
    pub fn pin(&self) -> Result<PinnedView<T, D, M>> {
        let arr = self.arr.upgrade().ok_or_else(|| invalid_arg!("the array of this view (id {}) was freed", self.id))?;
        Ok(PinnedView { arr, dom: self.dom })
    }
}

/// A [`SharedView`] in use: [`view`](Self::view) gives the [`View`].
pub struct PinnedView<T: Elem, const D: usize, M: Distribution<D> + 'static = Block<D>> {
    arr: Arc<Inner<T, D, M>>,
    dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> PinnedView<T, D, M> {
    /// The view.
    pub fn view(&self) -> View<'_, T, D, M> {
        View { arr: &self.arr, dom: self.dom }
    }
}

// ----- the view as an operand -----------------------------------------------------------------

/// A [`View`] bound to a leader.
pub struct ViewBound<'a, T: Elem, const D: usize, M: Distribution<D> + 'static> {
    arr: &'a Inner<T, D, M>,
    dom: Domain<D>,
    aligned: bool,
    follow: Option<crate::follow::Follow>,
    /// For a 1-D view of the leader's distribution shifted by a constant: the shift
    /// (`follow_shift.rs`).
    shift: Option<i64>,
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> Expr<D> for View<'v, T, D, M> {
    type Item = T;
    type Bound<'a>
        = ViewBound<'a, T, D, M>
    where
        Self: 'a;
    fn shape(&self) -> Option<[usize; D]> {
        Some(self.dom.shape())
    }
    fn lead(&self) -> Option<Result<Plan<'_, D>>> {
        Some(self.plan())
    }
    fn operands<'s>(&'s self, f: &mut dyn FnMut(&'s dyn crate::expr::Operand<D>)) {
        f(self);
    }
    fn bind<'a>(&'a self, plan: &Plan<'_, D>) -> Result<ViewBound<'a, T, D, M>> {
        plan.check_shape(self.dom.shape(), || format!("a view over {}", self.dom))?;
        let aligned = plan.is_aligned(&self.arr.dist, &self.dom);
        let follow = if aligned { None } else { Some(crate::follow::Follow::new(&self.arr.ctx)?) };
        let shift = if aligned { None } else { crate::follow_shift::shift_of(plan, &self.arr.dist, &self.dom) };
        Ok(ViewBound { arr: self.arr, dom: self.dom, aligned, follow, shift })
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> crate::expr::Operand<D> for View<'_, T, D, M> {
    fn plan(&self) -> Result<Plan<'_, D>> {
        crate::sublocales::plan(self.arr, self.dom)
    }
    fn aligned_with(&self, plan: &Plan<'_, D>) -> bool {
        plan.is_aligned(&self.arr.dist, &self.dom)
    }
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> Bound<D> for ViewBound<'_, T, D, M> {
    type Item = T;
    type Scratch = crate::follow::FollowBuf<T>;
    type Row<'s>
        = crate::StridedRow<'s, T>
    where
        Self: 's;
    fn aligned(&self) -> bool {
        self.aligned
    }
    fn local_order(&self) -> bool {
        self.aligned || self.shift.is_some()
    }
    #[inline]
    fn row<'s>(&'s self, seg: &Seg<D>, buf: &'s mut crate::follow::FollowBuf<T>) -> Result<crate::StridedRow<'s, T>> {
        if let (false, Some(follow)) = (self.aligned, &self.follow) {
            if let (true, Some(s)) = (seg.flat, self.shift) {
                return crate::follow_shift::fetch_shifted(self.arr, s, seg, follow, buf);
            }
            return crate::follow::fetch(self.arr, &self.dom, seg, follow, buf);
        }
        // An aligned operand reads the leader's local offsets in place, at the leader's step.
        crate::follow::local_row(&self.arr.store, seg.off, seg.off_step, seg.len)
    }
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> IntoExpr<D> for View<'v, T, D, M> {
    type Expr = Self;
    fn into_expr(self) -> Self {
        self
    }
}

impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static> IntoExpr<D> for &'v DistArray<T, D, M> {
    type Expr = View<'v, T, D, M>;
    fn into_expr(self) -> View<'v, T, D, M> {
        self.view()
    }
}

crate::impl_expr_ops!(['v, T: Elem, const D: usize, M: Distribution<D> + 'static] View<'v, T, D, M>);

/// Operators on `&DistArray` build expressions over its whole view.
macro_rules! array_ops {
    ($($tr:ident $m:ident $op:ident),*) => {$(
        impl<'v, T: Elem, const D: usize, M: Distribution<D> + 'static, Rhs: IntoExpr<D>> std::ops::$tr<Rhs> for &'v DistArray<T, D, M>
        where
            crate::expr::$op: crate::expr::BinOp<T, <Rhs::Expr as Expr<D>>::Item>,
        {
            type Output = crate::expr::Bin<View<'v, T, D, M>, Rhs::Expr, crate::expr::$op, D>;
            fn $m(self, rhs: Rhs) -> Self::Output {
                crate::expr::bin(self.view(), rhs.into_expr(), crate::expr::$op)
            }
        }
    )*};
}
array_ops!(Add add AddOp, Sub sub SubOp, Mul mul MulOp, Div div DivOp, Rem rem RemOp);

macro_rules! scalar_array_ops {
    ($($s:ty),*) => {$(
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Mul<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::MulOp, D>;
            fn mul(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::MulOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Add<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::AddOp, D>;
            fn add(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::AddOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Sub<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::SubOp, D>;
            fn sub(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::SubOp)
            }
        }
        impl<'v, const D: usize, M: Distribution<D> + 'static> std::ops::Div<&'v DistArray<$s, D, M>> for $s {
            type Output = crate::expr::Bin<crate::expr::Scalar<$s>, View<'v, $s, D, M>, crate::expr::DivOp, D>;
            fn div(self, rhs: &'v DistArray<$s, D, M>) -> Self::Output {
                crate::expr::bin(crate::expr::Scalar(self), rhs.view(), crate::expr::DivOp)
            }
        }
    )*};
}
scalar_array_ops!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

// ----- row writers ------------------------------------------------------------------------------

/// Writes `f(j)` to the leader's elements of `seg`.
#[inline]
pub(crate) fn write_row<T: Elem, const D: usize>(store: &Storage<T>, seg: &Seg<D>, f: impl Fn(usize) -> T) {
    if seg.off_step == 1 {
        // SAFETY: a segment is a run of the leader's own storage, and the segments of one loop
        // are disjoint, so no other task touches it.
        let out = unsafe { store.row_mut(seg.off, seg.len) };
        for (j, x) in out.iter_mut().enumerate() {
            *x = f(j);
        }
    } else {
        for j in 0..seg.len {
            // SAFETY: as above.
            unsafe { store.write(seg.off + j * seg.off_step, f(j)) };
        }
    }
}

/// The loop of `zip_apply`: `f(&mut leader[i], expr[i])` over `plan`, the leader's plan.
/// With `stream` (only for an `f` that overwrites its element, as assignment does), contiguous
/// rows are written with streaming stores (`stream_store.rs`). **Collective.**
fn apply_led<T: Elem, const D: usize, M: Distribution<D> + 'static, X: Expr<D>>(
    arr: &Inner<T, D, M>,
    mut plan: Plan<'_, D>,
    expr: &X,
    f: impl Fn(&mut T, X::Item) + Sync,
    stream: bool,
) -> Result<()> {
    let (store, ctx) = (&arr.store, &arr.ctx);
    let bound = expr.bind(&plan);
    let body = |plan: &Plan<'_, D>, bound: &X::Bound<'_>| {
        plan.for_each(|seg, scratch| {
            let row = bound.row(seg, scratch)?;
            if stream && seg.off_step == 1 {
                // SAFETY: as in `write_row` (a run of the leader's own storage; the segments of
                // one loop are disjoint).
                let out = unsafe { store.row_mut(seg.off, seg.len) };
                crate::zip::unit_versioned!(row, |row| crate::stream_store::write_streaming(out, #[inline(always)] |j| {
                    let mut x = T::default();
                    f(&mut x, row.at(j));
                    x
                }));
            } else {
                crate::zip::unit_versioned!(row, |row| update_row(store, seg, #[inline(always)] |j, x| f(x, row.at(j))));
            }
            Ok(())
        })
    };
    match &bound {
        // Every operand is aligned: a purely local loop, no leading barrier (`local_only.rs`).
        Ok(b) if b.aligned() => {
            plan.flatten();
            local_only::fenced_unless(ctx, true, || body(&plan, b))
        }
        // Every operand aligned or shifted: one pass in the leader's storage order
        // (`zip/local_order.rs`), after the leading barrier as any remote read.
        Ok(b) if b.local_order() && plan.flatten_local_order() => local_only::fenced(ctx, || body(&plan, b)),
        _ => local_only::fenced(ctx, || body(&plan, bound.as_ref().map_err(Clone::clone)?)),
    }
}

/// Applies `f(j, &mut x)` to the leader's elements of `seg`.
#[inline]
pub(crate) fn update_row<T: Elem, const D: usize>(store: &Storage<T>, seg: &Seg<D>, mut f: impl FnMut(usize, &mut T)) {
    if seg.off_step == 1 {
        // SAFETY: as in `write_row`.
        let out = unsafe { store.row_mut(seg.off, seg.len) };
        for (j, x) in out.iter_mut().enumerate() {
            f(j, x);
        }
    } else {
        for j in 0..seg.len {
            let o = seg.off + j * seg.off_step;
            // SAFETY: as in `write_row`.
            unsafe {
                let mut x = store.read(o);
                f(j, &mut x);
                store.write(o, x);
            }
        }
    }
}

/// Writes `buf` (packed, row-major over `shape`) to this locale's storage at offsets
/// `off + sum(t[d] * strides[d])`. The caller owns those elements (no other task writes them).
pub(crate) fn scatter_local<T: Elem, const D: usize>(store: &Storage<T>, off: usize, strides: &[usize; D], shape: &[usize; D], buf: &[T]) {
    crate::util::for_each_offset(off, strides, shape, |k, o| {
        // SAFETY: the offsets come from the distribution's runs of this locale, in bounds.
        unsafe { store.write(o, buf[k]) }
    });
}
