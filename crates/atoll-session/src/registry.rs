//! The arrays of a Python session, kept on every locale between commands: a per-locale map
//! (`Ctx::locale_ext`) from the id that the Python object holds to the locale's handle.

use crate::types::DType;
use atoll::array::{dist, DistArray};
use atoll::runtime::Ctx;
use atoll::util::sync::into_inner;
use atoll::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A 1-D Block array of one of the dtypes.
#[allow(missing_docs)]
pub enum Col {
    I(DistArray<i64, 1>),
    U(DistArray<u64, 1>),
    F(DistArray<f64, 1>),
    B(DistArray<bool, 1>),
    U8(DistArray<u8, 1>),
}

/// Runs `$body` with `$a` bound to the typed array inside a [`Col`].
#[macro_export]
macro_rules! with_col {
    ($col:expr, $a:ident => $body:expr) => {
        match $col {
            $crate::registry::Col::I($a) => $body,
            $crate::registry::Col::U($a) => $body,
            $crate::registry::Col::F($a) => $body,
            $crate::registry::Col::B($a) => $body,
            $crate::registry::Col::U8($a) => $body,
        }
    };
}

/// `$body`, a `Result` of a typed array made from `$a` (the typed array inside a [`Col`]), as
/// a `Result` of a [`Col`] of the same dtype.
#[macro_export]
macro_rules! map_col {
    ($col:expr, $a:ident => $body:expr) => {
        match $col {
            $crate::registry::Col::I($a) => $body.map($crate::registry::Col::I),
            $crate::registry::Col::U($a) => $body.map($crate::registry::Col::U),
            $crate::registry::Col::F($a) => $body.map($crate::registry::Col::F),
            $crate::registry::Col::B($a) => $body.map($crate::registry::Col::B),
            $crate::registry::Col::U8($a) => $body.map($crate::registry::Col::U8),
        }
    };
}

impl Col {
    /// A zeroed array of `n` elements. **Collective.**
    pub fn zeros(ctx: &Ctx, dtype: DType, n: usize) -> Result<Col> {
        Self::make(ctx, dtype, n, false)
    }

    /// An array of `n` elements for a command that writes every one of them before anything
    /// reads it ([`DistArray::for_overwrite`]: a reused part is not zeroed first).
    /// **Collective.**
    pub fn for_overwrite(ctx: &Ctx, dtype: DType, n: usize) -> Result<Col> {
        Self::make(ctx, dtype, n, true)
    }

    fn make(ctx: &Ctx, dtype: DType, n: usize, overwrite: bool) -> Result<Col> {
        fn one<T: atoll::array::Elem>(
            ctx: &Ctx,
            d: atoll::array::Block<1>,
            overwrite: bool,
        ) -> Result<DistArray<T, 1>> {
            if overwrite {
                DistArray::for_overwrite(ctx, d)
            } else {
                DistArray::zeros_lazy(ctx, d)
            }
        }
        let d = dist::block(ctx, [n])?;
        Ok(match dtype {
            DType::I64 => Col::I(one(ctx, d, overwrite)?),
            DType::U64 => Col::U(one(ctx, d, overwrite)?),
            DType::F64 => Col::F(one(ctx, d, overwrite)?),
            DType::Bool => Col::B(one(ctx, d, overwrite)?),
            DType::U8 => Col::U8(one(ctx, d, overwrite)?),
        })
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        match self {
            Col::I(_) => DType::I64,
            Col::U(_) => DType::U64,
            Col::F(_) => DType::F64,
            Col::B(_) => DType::Bool,
            Col::U8(_) => DType::U8,
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        with_col!(self, a => a.len())
    }

    /// Whether the column has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frees the storage. **Collective.**
    pub fn free(self) -> Result<()> {
        with_col!(self, a => a.free())
    }
}

/// One locale's live arrays.
#[derive(Default)]
pub struct Registry {
    arrays: Mutex<HashMap<u64, Arc<Mutex<Col>>>>,
    /// Arrays whose storage others see (shared files): written in place, never replaced.
    pinned: Mutex<std::collections::HashSet<u64>>,
}

impl Registry {
    /// This locale's registry.
    pub fn of(ctx: &Ctx) -> Arc<Registry> {
        ctx.locale_ext::<Registry>()
    }

    /// The array `id`.
    pub fn get(&self, id: u64) -> Result<Arc<Mutex<Col>>> {
        let g = lock(&self.arrays);
        g.get(&id).cloned().ok_or_else(|| {
            Error::InvalidArgument(format!("no array with id {id} (it was freed, or belongs to an earlier session)"))
        })
    }

    /// Registers `col` as `id`.
    pub fn insert(&self, id: u64, col: Col) {
        lock(&self.arrays).insert(id, Arc::new(Mutex::new(col)));
    }

    /// Registers `col` as `id`, an array whose storage must stay in place (other processes
    /// map it): an assignment writes into it rather than replacing it.
    pub fn insert_pinned(&self, id: u64, col: Col) {
        lock(&self.pinned).insert(id);
        self.insert(id, col);
    }

    /// Whether `id`'s storage must stay in place.
    pub fn is_pinned(&self, id: u64) -> bool {
        lock(&self.pinned).contains(&id)
    }

    /// Removes `id` (its storage is freed by the caller).
    pub fn remove(&self, id: u64) -> Option<Col> {
        lock(&self.pinned).remove(&id);
        let a = lock(&self.arrays).remove(&id)?;
        Arc::try_unwrap(a).ok().map(into_inner)
    }
}

/// Locks a column (or any of the crate's locks): the poison-tolerant lock of `atoll-util`.
pub use atoll::util::sync::lock;
