//! Views that traveled: the wire form of a [`View`], [`SharedView`] and [`PinnedView`].

use super::{registry, Inner, View};
use crate::elem::Elem;
use atoll_dist::{Block, Distribution, Domain};
#[cfg(doc)]
use atoll_error::Error;
use atoll_error::{invalid_arg, Result};
use atoll_runtime::Ctx;
use atoll_util::sync::lock;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Weak};

/// The wire form of a view: the array's collective id, its element type, and the sub-domain.
#[derive(Serialize, Deserialize)]
struct ViewWire<const D: usize> {
    id: u64,
    elem: String,
    dom: Domain<D>,
}

impl<T: Elem, const D: usize, M: Distribution<D> + 'static> View<'_, T, D, M> {
    /// This view as a [`SharedView`], the form in which it travels: pass it to `ctx.on` (or
    /// `on_async`, `coforall_locales`) for a handler that takes a `SharedView` argument; it
    /// arrives as the same elements on the target. O(1), no message.
    pub fn share(&self) -> SharedView<T, D, M> {
        let key = (self.arr.ctx.job_key(), self.arr.id);
        let found = lock(registry()).get(&key).and_then(Weak::upgrade);
        let arr =
            found.and_then(|a| a.downcast::<Inner<T, D, M>>().ok()).map(|a| Arc::downgrade(&a)).unwrap_or_default();
        SharedView { arr, id: self.arr.id, dom: self.dom }
    }
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
    pub(super) arr: Weak<Inner<T, D, M>>,
    pub(super) id: u64,
    pub(super) dom: Domain<D>,
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
            return Err(De::Error::custom(format!(
                "a view of {} arrays arrived as a view of {} arrays",
                w.elem,
                T::NAME
            )));
        }
        let ctx = Ctx::current()
            .ok_or_else(|| De::Error::custom("a view can only arrive on a locale thread (in run or a handler)"))?;
        let weak = lock(registry()).get(&(ctx.job_key(), w.id)).cloned();
        let any = weak.and_then(|w| w.upgrade()).ok_or_else(|| {
            De::Error::custom(format!("the array of a view (id {}) no longer exists on locale {}", w.id, ctx.id()))
        })?;
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
        let arr =
            self.arr.upgrade().ok_or_else(|| invalid_arg!("the array of this view (id {}) was freed", self.id))?;
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
