//! Collective operations: every locale calls them, in the same order.

use super::Ctx;
use crate::comm::wire::{decode, encode};
use crate::sync::Ordering;
use atoll_error::{invalid_arg, Error, Result};
use bytemuck::Pod;
use serde::{de::DeserializeOwned, Serialize};

impl Ctx {
    /// Starts a collective: numbers it and, when checking is on, verifies that every locale
    /// reached the same one; when it is off, notes the collective for the backend's cheap
    /// order check (`comm/coll_note.rs`).
    #[track_caller]
    pub(crate) fn coll_enter(&self, kind: &'static str) -> Result<()> {
        let seq = self.st.coll_seq.fetch_add(1, Ordering::Relaxed);
        if !self.st.config.check_collectives {
            self.st.backend.note_collective(seq, kind, std::panic::Location::caller());
            return Ok(());
        }
        let all = self.st.backend.allgather(&encode(&(seq, kind))?)?;
        let mut first: Option<(u64, String)> = None;
        for (l, h) in all.iter().enumerate() {
            let (s, k): (u64, String) = decode(h)?;
            match &first {
                None => first = Some((s, k)),
                Some((s0, k0)) if *s0 != s || *k0 != k => {
                    let e = Error::CollectiveMismatch {
                        locale: l,
                        seq: *s0,
                        expected: format!("{k0} (#{s0})"),
                        found: format!("{k} (#{s})"),
                    };
                    crate::ctx::command::abandon_on_mismatch(self, &e);
                    return Err(e);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Waits until every locale has reached the barrier. **Collective.**
    #[track_caller]
    pub fn barrier(&self) -> Result<()> {
        self.coll_enter("barrier")?;
        self.st.backend.barrier()
    }

    /// Returns `value` of locale `root` on every locale. **Collective.** Locale `root` passes
    /// `Some(value)`; the others' argument is ignored (pass `None`).
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let v = ctx.broadcast(2, (ctx.id() == 2).then(|| "from two".to_string()))?;
    ///     assert_eq!(v, "from two");
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn broadcast<T: Serialize + DeserializeOwned>(&self, root: usize, value: Option<T>) -> Result<T> {
        self.check_locale(root)?;
        self.coll_enter("broadcast")?;
        let mine = if self.st.id == root { encode(&value)? } else { Vec::new() };
        let got: Option<T> = decode(&self.st.backend.broadcast(root, mine)?)?;
        got.ok_or_else(|| invalid_arg!("broadcast: the root locale {root} passed no value"))
    }

    /// Every locale's `value`, in locale order. **Collective.**
    #[track_caller]
    pub fn allgather<T: Serialize + DeserializeOwned>(&self, value: &T) -> Result<Vec<T>> {
        self.coll_enter("allgather")?;
        self.allgather_raw(value)
    }

    pub(crate) fn allgather_raw<T: Serialize + DeserializeOwned>(&self, value: &T) -> Result<Vec<T>> {
        let mut out = Vec::with_capacity(self.st.n);
        self.st.backend.allgather_visit(&encode(value)?, &mut |b| {
            out.push(decode(b)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// Every locale's `value` on `root`, in locale order; an empty vector elsewhere.
    /// **Collective.**
    #[track_caller]
    pub fn gather<T: Serialize + DeserializeOwned>(&self, root: usize, value: &T) -> Result<Vec<T>> {
        self.check_locale(root)?;
        self.coll_enter("gather")?;
        self.st.backend.gather(root, &encode(value)?)?.iter().map(|b| decode(b)).collect()
    }

    /// Combines every locale's `value` with `op`, in locale order, and returns the result on
    /// every locale (the same bits everywhere, floating point included). **Collective.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(4), |ctx| {
    ///     let s = ctx.allreduce(ctx.id() as u64 + 1, |a, b| a + b)?;
    ///     assert_eq!(s, 10);
    ///     let m = ctx.allreduce(ctx.id() as f64, f64::max)?;
    ///     assert_eq!(m, 3.0);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn allreduce<T: Serialize + DeserializeOwned>(&self, value: T, op: impl Fn(T, T) -> T) -> Result<T> {
        self.coll_enter("allreduce")?;
        crate::comm::combine::allreduce(&*self.st.backend, value, op)
    }

    /// One outcome for every locale: `r` where every locale's `r` is `Ok`, else the error of
    /// the lowest failing locale, on every locale. **Collective** (an allgather of the errors
    /// only). After a step that may fail on some locales only (opening a file, decoding one's
    /// part), so that every locale takes the same branch from then on.
    ///
    /// ```
    /// use atoll_runtime::{run, Config, Error};
    /// run(Config::local(3), |ctx| {
    ///     let mine = if ctx.id() == 1 { Err(Error::InvalidArgument("locale 1's file".into())) } else { Ok(ctx.id()) };
    ///     assert_eq!(ctx.agree(mine), Err(Error::InvalidArgument("locale 1's file".into())));
    ///     assert_eq!(ctx.agree(Ok(ctx.id()))?, ctx.id());
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// The lowest failing locale's error, or the allgather's own failure.
    #[track_caller]
    pub fn agree<T>(&self, r: Result<T>) -> Result<T> {
        let mine: Option<Error> = r.as_ref().err().cloned();
        match self.allgather(&mine)?.into_iter().flatten().next() {
            Some(e) => Err(e),
            None => r,
        }
    }

    /// The combination with `op` of the values of the locales before this one (`identity` on
    /// locale 0): an exclusive scan. **Collective.**
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(4), |ctx| {
    ///     let offset = ctx.exscan(10u64, 0, |a, b| a + b)?;
    ///     assert_eq!(offset, 10 * ctx.id() as u64);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn exscan<T: Serialize + DeserializeOwned>(&self, value: T, identity: T, op: impl Fn(T, T) -> T) -> Result<T> {
        self.coll_enter("exscan")?;
        crate::comm::combine::exscan(&*self.st.backend, self.st.id, value, identity, op)
    }

    /// Sends `out[d]` to locale `d` and returns what every locale sent here, in locale order.
    /// **Collective.** `out` must have one entry per locale.
    ///
    /// ```
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let me = ctx.id() as u64;
    ///     let out: Vec<Vec<u64>> = (0..3).map(|d| vec![me * 10 + d; d as usize + 1]).collect();
    ///     let got = ctx.alltoallv(out)?;
    ///     for (src, v) in got.iter().enumerate() {
    ///         assert_eq!(v, &vec![src as u64 * 10 + me; ctx.id() + 1]);
    ///     }
    ///     Ok(())
    /// }).unwrap();
    /// ```
    #[track_caller]
    pub fn alltoallv<T: Pod>(&self, out: Vec<Vec<T>>) -> Result<Vec<Vec<T>>> {
        if out.len() != self.st.n {
            return Err(Error::ShapeMismatch {
                context: "alltoallv".into(),
                left: format!("{} outgoing buffers", out.len()),
                right: format!("{} locales", self.st.n),
            });
        }
        self.coll_enter("alltoallv")?;
        let bytes: Vec<Vec<u8>> = out.iter().map(|v| bytemuck::cast_slice::<T, u8>(v).to_vec()).collect();
        drop(out);
        let got = self.st.backend.alltoallv(bytes)?;
        let es = std::mem::size_of::<T>().max(1);
        got.into_iter()
            .map(|b| {
                if b.len() % es != 0 {
                    return Err(Error::Comm {
                        locale: self.st.id,
                        message: "alltoallv: a torn element arrived".into(),
                    });
                }
                Ok(bytemuck::pod_collect_to_vec::<u8, T>(&b))
            })
            .collect()
    }
}
