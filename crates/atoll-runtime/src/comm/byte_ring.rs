//! A single-producer, single-consumer byte ring with a doorbell: the protocol of the MPI
//! backend's shared-memory active messages (`comm/mpi/shm_am.rs`, whose module docs describe
//! it), apart from the memory it lives in. Here it is tested without MPI, and model-checked
//! with loom (`make loom`: every interleaving of a producer and a consumer within the
//! preemption bound, and a consumer asleep on the doorbell).
//!
//! - A ring ([`RingMem`]) is `cap` data bytes and two words that count bytes since the start:
//!   the consumer's `head` and the producer's `tail`; `tail - head` bytes are unread.
//! - [`produce`] copies a message (a [`FRAME`] of tag and length, then the payload) as one byte
//!   stream, publishing `tail` (release) whenever the ring fills and at the end, so a message
//!   of any size passes; the consumer ([`Inbound::poll`]) copies what `tail` (acquire) covers,
//!   reassembles without ever waiting, and publishes `head` (release) as it copies.
//! - The doorbell ([`Bell`]): an idle consumer sets the word to 1 and looks once more before
//!   sleeping on it ([`park_on`]); a producer that has published swaps it to 0 and wakes the
//!   sleeper if it was 1 ([`ring_bell`]). A sequentially consistent fence on each side between
//!   its store and its load means that either the consumer sees the new `tail` or the producer
//!   sees the 1.

use crate::sync::model::{fence, AtomicU32, AtomicU64, Ordering};
use atoll_error::Result;
use std::time::Duration;

/// Bytes of a message's frame: the tag (4 bytes, then 4 unused) and the payload length.
pub(crate) const FRAME: usize = 16;

/// The memory of one ring: its two counters and its data bytes.
pub(crate) trait RingMem {
    /// Bytes consumed (written by the consumer).
    fn head(&self) -> &AtomicU64;
    /// Bytes produced (written by the producer).
    fn tail(&self) -> &AtomicU64;
    /// Data bytes.
    fn cap(&self) -> usize;
    /// Copies `src` into the data from stream position `pos` on, wrapping.
    ///
    /// # Safety
    /// The bytes `pos..pos + src.len()` are free (`head` is at least `pos + src.len() - cap`)
    /// and only this producer writes them.
    unsafe fn write_at(&self, pos: u64, src: &[u8]);
    /// Copies the data from stream position `pos` on into `dst`, wrapping.
    ///
    /// # Safety
    /// The bytes `pos..pos + dst.len()` were published (`tail` seen with acquire ordering at or
    /// past their end) and not yet released (`head` not past `pos`).
    unsafe fn read_at(&self, pos: u64, dst: &mut [u8]);
}

/// A doorbell: a word that an idle consumer sleeps on (a futex word between processes).
pub(crate) trait Bell {
    /// The word: 1 while a consumer is about to sleep or asleep.
    fn word(&self) -> &AtomicU32;
    /// Sleeps while the word is `expected`, for at most `timeout` (it may return earlier).
    fn sleep(&self, expected: u32, timeout: Duration);
    /// Wakes every thread sleeping on the word.
    fn wake_all(&self);
}

/// Wakes the consumer sleeping on `bell`, if it is (the caller has just published a `tail`).
pub(crate) fn ring_bell(bell: &impl Bell) {
    fence(Ordering::SeqCst);
    let w = bell.word();
    if w.load(Ordering::Relaxed) != 0 && w.swap(0, Ordering::SeqCst) != 0 {
        bell.wake_all();
    }
}

/// The consumer's side of the doorbell: announces the sleep on `bell`, then sleeps for at
/// most `timeout` unless `waiting` (whether a ring has unread bytes) says a message already
/// came.
pub(crate) fn park_on(bell: &impl Bell, waiting: impl Fn() -> bool, timeout: Duration) {
    bell.word().store(1, Ordering::Relaxed);
    fence(Ordering::SeqCst);
    if !waiting() {
        bell.sleep(1, timeout);
    }
    bell.word().store(0, Ordering::Relaxed);
}

/// Copies `parts` into `ring` as one stream, publishing `tail` (and ringing `bell`) whenever
/// the ring fills and at the end; while it is full, calls `wait` (which backs off, and may
/// give up with an error). The caller is the ring's only producer.
pub(crate) fn produce(
    ring: &impl RingMem,
    bell: &impl Bell,
    parts: [&[u8]; 2],
    mut wait: impl FnMut() -> Result<()>,
) -> Result<()> {
    let cap = ring.cap();
    let mut tail = ring.tail().load(Ordering::Relaxed);
    for mut bytes in parts {
        while !bytes.is_empty() {
            let head = ring.head().load(Ordering::Acquire);
            let free = cap - (tail - head) as usize;
            if free == 0 {
                ring.tail().store(tail, Ordering::Release);
                ring_bell(bell);
                wait()?;
                continue;
            }
            let n = free.min(bytes.len());
            // SAFETY: `n <= free` bytes from `tail` on are free (the consumer released them:
            // `head` seen with acquire ordering), and this is the ring's only producer.
            unsafe { ring.write_at(tail, &bytes[..n]) };
            tail += n as u64;
            bytes = &bytes[n..];
        }
    }
    ring.tail().store(tail, Ordering::Release);
    ring_bell(bell);
    Ok(())
}

/// The frame of a message of `len` bytes with `tag`.
pub(crate) fn frame(tag: u32, len: usize) -> [u8; FRAME] {
    let mut f = [0u8; FRAME];
    f[..4].copy_from_slice(&tag.to_le_bytes());
    f[8..].copy_from_slice(&(len as u64).to_le_bytes());
    f
}

/// The consumer's end of a ring.
pub(crate) struct Inbound<R> {
    ring: R,
    /// Bytes consumed (published as the ring's `head`).
    head: u64,
    /// The frame being read, and how many of its bytes have arrived.
    frame: [u8; FRAME],
    frame_have: usize,
    /// The message being read: its tag, its length and the payload so far.
    partial: Option<(u32, usize, Vec<u8>)>,
}

impl<R: RingMem> Inbound<R> {
    /// The consumer of `ring`, from its current `head` on.
    pub(crate) fn new(ring: R) -> Self {
        let head = ring.head().load(Ordering::Relaxed);
        Inbound { ring, head, frame: [0; FRAME], frame_have: 0, partial: None }
    }

    /// The ring.
    #[cfg(all(test, feature = "mpi"))]
    pub(crate) fn ring(&self) -> &R {
        &self.ring
    }

    /// Whether bytes have been published that this consumer has not read (a relaxed look, for
    /// the doorbell's last check).
    pub(crate) fn has_unread(&self) -> bool {
        self.ring.tail().load(Ordering::Relaxed) != self.head
    }

    /// Reads what has arrived; a whole message (tag, payload) when one is complete. Never
    /// waits.
    pub(crate) fn poll(&mut self) -> Option<(u32, Vec<u8>)> {
        let tail = self.ring.tail().load(Ordering::Acquire);
        let mut done = None;
        while self.head < tail && done.is_none() {
            let avail = (tail - self.head) as usize;
            match &mut self.partial {
                None => {
                    let n = (FRAME - self.frame_have).min(avail);
                    // SAFETY: `n <= avail` bytes from `head` on are published (`tail` loaded
                    // with acquire ordering) and not yet released.
                    unsafe { self.ring.read_at(self.head, &mut self.frame[self.frame_have..self.frame_have + n]) };
                    self.head += n as u64;
                    self.frame_have += n;
                    if self.frame_have == FRAME {
                        self.frame_have = 0;
                        let tag = u32::from_le_bytes([self.frame[0], self.frame[1], self.frame[2], self.frame[3]]);
                        let mut len = [0u8; 8];
                        len.copy_from_slice(&self.frame[8..]);
                        let len = u64::from_le_bytes(len) as usize;
                        if len == 0 {
                            done = Some((tag, Vec::new()));
                        } else {
                            self.partial = Some((tag, len, Vec::with_capacity(len)));
                        }
                    }
                }
                Some((tag, len, buf)) => {
                    let n = (*len - buf.len()).min(avail);
                    let old = buf.len();
                    buf.resize(old + n, 0);
                    // SAFETY: as above.
                    unsafe { self.ring.read_at(self.head, &mut buf[old..]) };
                    self.head += n as u64;
                    if buf.len() == *len {
                        let (tag, buf) = (*tag, std::mem::take(buf));
                        self.partial = None;
                        done = Some((tag, buf));
                    }
                }
            }
        }
        // Frees what was read for the producer.
        self.ring.head().store(self.head, Ordering::Release);
        done
    }
}

/// A ring and a doorbell on the heap, for tests and models.
#[cfg(test)]
pub(crate) mod heap {
    use super::*;
    use crate::sync::model::{lock, Condvar, Mutex};

    /// A ring of `cap` data bytes on the heap. Under loom every byte is a cell of its own, so
    /// a read that is not ordered after its write is reported.
    pub(crate) struct HeapRing {
        head: AtomicU64,
        tail: AtomicU64,
        #[cfg(not(loom))]
        data: Box<[std::cell::UnsafeCell<u8>]>,
        #[cfg(loom)]
        data: Box<[loom::cell::UnsafeCell<u8>]>,
    }

    // SAFETY: the data cells are accessed by one producer and one consumer under the ring's
    // protocol (the `RingMem` contract), the counters atomically.
    unsafe impl Sync for HeapRing {}

    impl HeapRing {
        pub(crate) fn new(cap: usize) -> HeapRing {
            HeapRing {
                head: AtomicU64::new(0),
                tail: AtomicU64::new(0),
                data: (0..cap).map(|_| Default::default()).collect(),
            }
        }
    }

    impl RingMem for &HeapRing {
        fn head(&self) -> &AtomicU64 {
            &self.head
        }
        fn tail(&self) -> &AtomicU64 {
            &self.tail
        }
        fn cap(&self) -> usize {
            self.data.len()
        }
        unsafe fn write_at(&self, pos: u64, src: &[u8]) {
            let cap = self.data.len();
            for (k, &b) in src.iter().enumerate() {
                let cell = &self.data[(pos as usize + k) % cap];
                #[cfg(not(loom))]
                // SAFETY: the producer owns these bytes (the caller's contract).
                unsafe {
                    *cell.get() = b
                };
                #[cfg(loom)]
                // SAFETY: as above; loom checks it.
                cell.with_mut(|p| unsafe { *p = b });
            }
        }
        unsafe fn read_at(&self, pos: u64, dst: &mut [u8]) {
            let cap = self.data.len();
            for (k, d) in dst.iter_mut().enumerate() {
                let cell = &self.data[(pos as usize + k) % cap];
                #[cfg(not(loom))]
                // SAFETY: these bytes were published to this consumer (the caller's contract).
                unsafe {
                    *d = *cell.get()
                };
                #[cfg(loom)]
                // SAFETY: as above; loom checks it.
                cell.with(|p| *d = unsafe { *p });
            }
        }
    }

    /// A doorbell whose sleep is a futex's: the word is checked and the sleeper queued under
    /// one lock, which a waker takes too. Without loom a sleep also ends at its timeout; the
    /// models sleep until woken (a lost wake-up is a deadlock, which loom reports).
    #[derive(Default)]
    pub(crate) struct HeapBell {
        word: AtomicU32,
        m: Mutex<()>,
        cv: Condvar,
    }

    impl Bell for HeapBell {
        fn word(&self) -> &AtomicU32 {
            &self.word
        }
        fn sleep(&self, expected: u32, timeout: Duration) {
            let g = lock(&self.m);
            if self.word.load(Ordering::SeqCst) == expected {
                let _ = crate::sync::model::wait_timeout(&self.cv, g, timeout);
            }
        }
        fn wake_all(&self) {
            let _g = lock(&self.m);
            self.cv.notify_all();
        }
    }

    /// Sends `(tag, payload)` through `ring`, yielding while it is full.
    pub(crate) fn send(ring: &HeapRing, bell: &HeapBell, tag: u32, payload: &[u8]) {
        let f = frame(tag, payload.len());
        produce(&ring, bell, [&f, payload], || {
            crate::sync::model::yield_now();
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::heap::{send, HeapBell, HeapRing};
    use super::*;
    use std::time::Instant;

    fn message(i: usize) -> (u32, Vec<u8>) {
        let len = match i % 5 {
            0 => 0,
            1 => 1,
            2 => 13,
            3 => 200,
            _ => 1000 + i * 7,
        };
        ((i % 7) as u32, (0..len).map(|k| (k * 31 + i) as u8).collect())
    }

    #[test]
    fn messages_of_any_size_pass_a_small_ring_in_order() {
        for cap in [16usize, 64, 100, 4096] {
            let ring = HeapRing::new(cap);
            let bell = HeapBell::default();
            let n = 300;
            std::thread::scope(|s| {
                s.spawn(|| {
                    for i in 0..n {
                        let (tag, p) = message(i);
                        send(&ring, &bell, tag, &p);
                    }
                });
                let mut inb = Inbound::new(&ring);
                let mut got = 0;
                while got < n {
                    if let Some((tag, buf)) = inb.poll() {
                        assert_eq!((tag, buf), message(got), "cap {cap}, message {got}");
                        got += 1;
                    }
                }
                assert!(inb.poll().is_none());
            });
        }
    }

    /// A consumer sleeping on the doorbell (with a timeout far longer than the test) wakes
    /// when a message is published, and does not sleep when one is already there: the bound
    /// below is only reached if a wake-up is lost.
    #[test]
    fn the_doorbell_wakes_a_parked_consumer_and_misses_no_message() {
        const LONG: Duration = Duration::from_secs(60);
        for round in 0..50 {
            let ring = HeapRing::new(4096);
            let bell = HeapBell::default();
            let start = Instant::now();
            std::thread::scope(|s| {
                s.spawn(|| {
                    // Sometimes before the consumer parks, sometimes after.
                    if round % 2 == 1 {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    send(&ring, &bell, 1, &[]);
                });
                let inb = Inbound::new(&ring);
                while !inb.has_unread() {
                    park_on(&bell, || inb.has_unread(), LONG);
                }
            });
            assert!(start.elapsed() < LONG / 2, "round {round}: the consumer slept through a message");
            assert_eq!(bell.word().load(Ordering::Relaxed), 0);
        }
    }

    #[test]
    fn a_producer_facing_a_full_ring_gets_the_error_of_its_wait() {
        let ring = HeapRing::new(64);
        let big = vec![7u8; 1000];
        let e = produce(&&ring, &HeapBell::default(), [&[], &big], || {
            Err(atoll_error::Error::Comm { locale: 1, message: "closed".into() })
        })
        .unwrap_err();
        assert!(matches!(e, atoll_error::Error::Comm { .. }), "{e}");
        // What fitted was published.
        assert_eq!((&ring).tail().load(Ordering::Relaxed), 64);
    }
}

/// The loom models (`make loom`).
#[cfg(all(test, loom))]
mod loom_models {
    use super::heap::{send, HeapBell, HeapRing};
    use super::*;
    use loom::sync::Arc;

    /// Two messages, the second longer than the ring, pass a producer and a consumer in every
    /// interleaving (within the preemption bound), whole and in order, and every byte read is
    /// ordered after its write (loom checks each byte's cell).
    #[test]
    fn loom_ring_delivers_in_order() {
        loom::model(|| {
            let ring = Arc::new(HeapRing::new(FRAME + 4));
            let bell = Arc::new(HeapBell::default());
            let (r2, b2) = (Arc::clone(&ring), Arc::clone(&bell));
            let producer = loom::thread::spawn(move || {
                send(&r2, &b2, 3, &[1, 2]);
                send(&r2, &b2, 4, &[5, 6, 7, 8, 9, 10]);
            });
            let mut inb = Inbound::new(&*ring);
            let mut got = Vec::new();
            while got.len() < 2 {
                match inb.poll() {
                    Some(m) => got.push(m),
                    None => loom::thread::yield_now(),
                }
            }
            producer.join().unwrap();
            assert_eq!(got, vec![(3, vec![1, 2]), (4, vec![5, 6, 7, 8, 9, 10])]);
        });
    }

    /// A consumer that parks on the doorbell is woken by the producer's message whatever the
    /// interleaving: a lost wake-up would leave it asleep forever (a deadlock loom reports).
    #[test]
    fn loom_doorbell_loses_no_wakeup() {
        loom::model(|| {
            let ring = Arc::new(HeapRing::new(2 * FRAME));
            let bell = Arc::new(HeapBell::default());
            let (r2, b2) = (Arc::clone(&ring), Arc::clone(&bell));
            let producer = loom::thread::spawn(move || send(&r2, &b2, 9, &[]));
            let mut inb = Inbound::new(&*ring);
            while !inb.has_unread() {
                park_on(&*bell, || inb.has_unread(), Duration::from_secs(3600));
            }
            assert_eq!(inb.poll(), Some((9, Vec::new())));
            producer.join().unwrap();
        });
    }
}
