//! [`SharedArray`]: a Block-distributed [`DistArray`] whose locales' parts are mapped files.

use crate::block::BlockFile;
use crate::control::Control;
use crate::dtype::ShareElem;
use crate::meta::{self, Meta};
use crate::options::{Access, ShareOptions};
use crate::signal::Signal;
use atoll_array::{dist, Block, DistArray};
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;
use std::path::PathBuf;

/// A Block-distributed array of `T` whose locale `l`'s part lives in the file
/// `<dir>/atoll-<name>-<l>`, found by other processes through `<dir>/atoll-<name>.meta`.
/// [`array`](Self::array) is an ordinary [`DistArray`]: views, zips, expressions and sorts
/// work on it unchanged.
///
/// ```
/// use atoll_array::ExprReduce;
/// use atoll_runtime::{run, Config};
/// use atoll_share::{Access, SharedArray, SharedFile, ShareOptions};
/// let dir = std::env::temp_dir();
/// let name = format!("doc-{}", std::process::id());
/// run(Config::local(2), |ctx| {
///     let mut a = SharedArray::<f64, 1>::create(ctx, &name, [10], ShareOptions::in_dir(&dir))?;
///     a.array_mut()?.assign_expr(2.5)?;
///     // Any process can now open the files, as a plain mapping:
///     if ctx.id() == 0 {
///         let f = SharedFile::open(&name, &dir, Access::ReadOnly)?;
///         assert_eq!(f.to_vec::<f64>()?, vec![2.5; 10]);
///     }
///     assert_eq!(a.array().view().sum()?, 25.0);
///     a.free() // removes the files
/// }).unwrap();
/// ```
pub struct SharedArray<T: ShareElem, const D: usize> {
    array: Option<DistArray<T, D, Block<D>>>,
    control: Control,
    meta: Meta,
    meta_path: PathBuf,
    access: Access,
}

impl<T: ShareElem, const D: usize> SharedArray<T, D> {
    /// Creates a zeroed shared array `name` of `shape`: each locale creates and maps its
    /// block file, then locale 0 writes the metadata file. **Collective.**
    ///
    /// # Errors
    /// On every locale: [`Error::InvalidArgument`] for a bad name, [`Error::SharedFile`]
    /// when a file exists already or cannot be made (nothing is left behind), an
    /// out-of-memory refusal of the memory budget.
    pub fn create(ctx: &Ctx, name: &str, shape: [usize; D], opts: ShareOptions) -> Result<Self> {
        meta::check_name(name)?;
        let dist = dist::block(ctx, shape)?;
        let meta = meta::layout(name, T::CTYPE, &dist, ctx.num_locales())?;
        let mut remove_flag = None;
        let path = opts.dir.join(meta::block_file(name, ctx.id()));
        let array = DistArray::from_external(ctx, dist, "SharedArray::create", |len| {
            let (block, flag) = BlockFile::create(&path, len * size_of::<T>())?;
            remove_flag = Some(flag);
            Ok(block.into_external())
        })?;
        let meta_path = meta::meta_path(&opts.dir, name);
        let written = if ctx.id() == 0 { Some(meta.write(&meta_path)) } else { None };
        // Only the file this call wrote may be removed on a later failure.
        let wrote_meta = matches!(written, Some(Ok(())));
        let written: Result<()> = ctx.broadcast(0, written)?;
        let opened = written.and_then(|()| Control::open(&meta_path, meta.control_offset));
        // Every locale must have its control page before any of them goes on.
        let control = match ctx.agree(opened) {
            Ok(c) => c,
            Err(e) => {
                if wrote_meta {
                    let _ = std::fs::remove_file(&meta_path);
                }
                array.free()?;
                return Err(e);
            }
        };
        if ctx.id() == 0 {
            control.bump_generation();
        }
        if let Some(f) = remove_flag {
            // Locale 0's block takes the metadata file with it.
            f.set(!opts.keep, (ctx.id() == 0 && !opts.keep).then(|| meta_path.clone()));
        }
        ctx.barrier()?;
        Ok(SharedArray { array: Some(array), control, meta, meta_path, access: Access::ReadWrite })
    }

    /// Attaches to the existing shared array `name` in `dir` from a job with as many locales
    /// as the array has blocks: locale `l` maps block `l`, after the metadata was checked
    /// (element type `T`, rank `D`, and the same Block layout as this job's). With
    /// [`Access::ReadOnly`] the blocks are private copy-on-write mappings and
    /// [`array_mut`](Self::array_mut) is refused. The files stay when it is freed.
    /// **Collective.**
    ///
    /// # Errors
    /// On every locale: [`Error::SharedFile`] for a missing, truncated, foreign or corrupt
    /// file or a metadata file that does not match `T`, `D` or the job.
    pub fn attach(ctx: &Ctx, name: &str, dir: impl Into<PathBuf>, access: Access) -> Result<Self> {
        meta::check_name(name)?;
        let dir = dir.into();
        let meta_path = meta::meta_path(&dir, name);
        let m = if ctx.id() == 0 { Some(Meta::read(&meta_path)) } else { None };
        let meta: Meta = ctx.broadcast(0, m)??;
        let bad = |reason: String| Error::SharedFile { path: meta_path.display().to_string(), reason };
        if meta.dtype != T::CTYPE {
            return Err(bad(format!("holds {}, not {}", meta.dtype.name(), T::CTYPE.name())));
        }
        if meta.shape.len() != D {
            return Err(bad(format!("has rank {}, not {D}", meta.shape.len())));
        }
        if meta.blocks.len() != ctx.num_locales() {
            return Err(bad(format!(
                "has {} blocks; attach it from a job of as many locales (this one has {})",
                meta.blocks.len(),
                ctx.num_locales()
            )));
        }
        let mut shape = [0usize; D];
        for (s, &m) in shape.iter_mut().zip(&meta.shape) {
            *s = usize::try_from(m).map_err(|_| bad("shape too large".into()))?;
        }
        let dist = dist::block(ctx, shape)?;
        for l in 0..ctx.num_locales() {
            let dom = dist.local_domain(l)?;
            let b = &meta.blocks[l];
            let same = dom
                .dims()
                .iter()
                .enumerate()
                .all(|(d, r)| r.lo() as u64 == b.lo[d] && r.lo() as u64 + r.len() as u64 == b.hi[d]);
            if !same {
                return Err(bad(format!(
                    "block {l} holds a different part than this job's Block layout gives locale {l}"
                )));
            }
        }
        let me = &meta.blocks[ctx.id()];
        let path = dir.join(&me.file);
        let array = DistArray::from_external(ctx, dist, "SharedArray::attach", |_| {
            Ok(BlockFile::open(&path, me.bytes, access == Access::ReadWrite)?.into_external())
        })?;
        let control = match ctx.agree(Control::open(&meta_path, meta.control_offset)) {
            Ok(c) => c,
            Err(e) => {
                array.free()?;
                return Err(e);
            }
        };
        Ok(SharedArray { array: Some(array), control, meta, meta_path, access })
    }

    /// The array.
    pub fn array(&self) -> &DistArray<T, D, Block<D>> {
        self.array.as_ref().expect("present until freed")
    }

    /// The array, writable.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an array attached read-only.
    pub fn array_mut(&mut self) -> Result<&mut DistArray<T, D, Block<D>>> {
        if self.access == Access::ReadOnly {
            return Err(Error::InvalidArgument(format!(
                "shared array {} is attached read-only",
                self.meta_path.display()
            )));
        }
        Ok(self.array.as_mut().expect("present until freed"))
    }

    /// Signal `k` (`0..NUM_SIGNALS`) of the array, shared with every process attached.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for `k` out of range.
    pub fn signal(&self, k: usize) -> Result<Signal<'_>> {
        self.control.signal(k)
    }

    /// The generation counter (1 after creation; [`bump_generation`](Self::bump_generation)
    /// adds one, e.g. after each update of the values).
    pub fn generation(&self) -> u64 {
        self.control.generation()
    }

    /// Adds one to the generation counter; returns the new value. **One-sided.**
    pub fn bump_generation(&self) -> u64 {
        self.control.bump_generation()
    }

    /// The metadata.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The metadata file.
    pub fn meta_path(&self) -> &std::path::Path {
        &self.meta_path
    }

    /// Unmaps the array and, for the creator without `keep`, removes its files. **Collective.**
    pub fn free(mut self) -> Result<()> {
        self.array.take().map_or(Ok(()), DistArray::free)
    }

    /// The array alone, for code that keeps `DistArray`s (Python's registry): its files are
    /// still removed when it is freed (unless `keep`); the signals stay reachable through
    /// [`SharedFile`](crate::SharedFile). A read-only attach gives its private copy.
    pub fn into_array(mut self) -> DistArray<T, D, Block<D>> {
        self.array.take().expect("present until freed")
    }
}
