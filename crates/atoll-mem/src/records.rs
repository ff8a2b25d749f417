//! The plain records of the tracking tables: [`Entry`], one live block of `table.rs`, and
//! [`Site`], one interned call stack of `sites.rs`. They are defined apart from their tables so
//! that `raw.rs` can vouch for them (all-zero bytes are a valid value of each, its `Zeroable`)
//! without depending on the tables, which depend on it.

/// The most return addresses kept per site.
pub(crate) const DEPTH: usize = 32;

/// One live block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Entry {
    /// The block's address; 0 marks an empty slot.
    pub addr: usize,
    /// Its size in bytes.
    pub size: usize,
    /// Its interned allocation site (0 = not recorded; [`PERMANENT_SITE`](crate::table::PERMANENT_SITE): a block meant to
    /// live until the process ends, never reported as a leak).
    pub site: u32,
    /// The locale that allocated it.
    pub locale: u32,
}

/// An interned call stack.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Site {
    /// The hash of the used frames (the interning key).
    pub hash: u64,
    /// The number of frames used.
    pub len: usize,
    /// The return addresses as captured; `frames[len..]` are zero.
    pub frames: [usize; DEPTH],
}
