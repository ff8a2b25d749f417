//! The streaming-store threshold of fused assignments, set on every locale: the bench compares
//! both store paths in one run, and the tests force the streaming path on small arrays.
//! Results never depend on it.

use crate::handles::Session;
use atoll::array::stream_store;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;

fn set(_ctx: &Ctx, bytes: u64) -> Result<()> {
    stream_store::set_streaming_store_threshold(usize::try_from(bytes).unwrap_or(usize::MAX));
    Ok(())
}
/// Sets the threshold on every locale (in-process locales share one). **Collective.**
pub static SET_STREAMING: Handler<u64, ()> = Handler::new("atoll-session::set_streaming", set);

/// Registers the command.
pub fn register() {
    SET_STREAMING.register();
}

/// Sets the smallest destination (bytes on one locale) that fused assignments write with
/// streaming stores, on every locale (`u64::MAX`: never; 0: always, for rows of at least 256
/// bytes); returns the previous value. The default is
/// `atoll::array::stream_store::DEFAULT_STREAMING_THRESHOLD`. **Collective.**
pub fn set_streaming_threshold(s: &Session, bytes: u64) -> Result<u64> {
    // The driver's value (locale 0's; every locale holds the same one).
    let old = stream_store::streaming_store_threshold() as u64;
    s.exec(&SET_STREAMING, bytes)?;
    Ok(old)
}
