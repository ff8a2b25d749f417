//! The memory-bandwidth limit of STREAM: the triad `a = b + alpha * c` by plain Rust threads over
//! `Vec`s, one per core, each owning a contiguous chunk (first touched by that thread). The
//! threads are started before any Atoll job, so they are not pinned to a locale's cores, and
//! they stay alive between repetitions (no thread start in the timed part). Two kernels: plain
//! stores, and non-temporal stores (`atoll::array::stream_store::write_streaming`, faster where
//! writing around the cache pays); the limit is the faster of the two.

use atoll::array::stream_store::write_streaming;
use atoll::util::sync::lock;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Instant;

/// What the workers are asked to do.
#[derive(Clone, Copy)]
enum Job {
    Plain,
    Streaming,
    Check,
}

/// Persistent worker threads running the triad on their chunks.
pub struct Baseline {
    go: Vec<Sender<Job>>,
    done: Mutex<Receiver<bool>>,
    workers: Vec<JoinHandle<()>>,
    n: usize,
    failed: std::sync::atomic::AtomicBool,
}

impl Baseline {
    /// Starts `threads` workers over `n` elements per array, with `alpha`.
    pub fn new(n: usize, threads: usize, alpha: f64) -> Baseline {
        let threads = threads.max(1);
        let chunk = n.div_ceil(threads).max(1);
        let (done_tx, done) = channel();
        let mut go = Vec::new();
        let mut workers = Vec::new();
        for t in 0..threads {
            let lo = (t * chunk).min(n);
            let hi = ((t + 1) * chunk).min(n);
            let (tx, rx) = channel::<Job>();
            let done_tx = done_tx.clone();
            go.push(tx);
            workers.push(std::thread::spawn(move || {
                let b: Vec<f64> = (lo..hi).map(|i| i as f64).collect();
                let c = vec![2.0f64; hi - lo];
                let mut a = vec![0.0f64; hi - lo];
                let _ = done_tx.send(true);
                while let Ok(job) = rx.recv() {
                    let ok = match job {
                        Job::Plain => {
                            for ((x, &y), &z) in a.iter_mut().zip(&b).zip(&c) {
                                *x = y + alpha * z;
                            }
                            true
                        }
                        Job::Streaming => {
                            write_streaming(&mut a, |i| b[i] + alpha * c[i]);
                            true
                        }
                        Job::Check => {
                            let ok = triad_ok(&a, &b, &c, alpha);
                            a.fill(0.0);
                            ok
                        }
                    };
                    if done_tx.send(ok).is_err() {
                        return;
                    }
                }
            }));
        }
        let me = Baseline { go, done: Mutex::new(done), workers, n, failed: false.into() };
        me.collect();
        me
    }

    fn collect(&self) -> bool {
        let done = lock(&self.done);
        (0..self.go.len()).all(|_| done.recv().unwrap_or(false))
    }

    fn broadcast(&self, job: Job) -> bool {
        let sent = self.go.iter().all(|g| g.send(job).is_ok());
        self.collect() && sent
    }

    fn timed(&self, job: Job) -> f64 {
        let t = Instant::now();
        self.broadcast(job);
        t.elapsed().as_secs_f64()
    }

    /// One timed triad with plain stores and one with streaming stores, in seconds, each
    /// checked (untimed; the check also clears the result, so each kernel must write it).
    pub fn rep_each(&self) -> (f64, f64, bool) {
        let plain = self.timed(Job::Plain);
        let ok = self.broadcast(Job::Check);
        let streaming = self.timed(Job::Streaming);
        let ok = ok && self.broadcast(Job::Check);
        if !ok {
            self.failed.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        (plain, streaming, ok)
    }

    /// The faster of the two kernels in one repetition (see [`Baseline::rep_each`]), in
    /// seconds; its checks feed [`Baseline::check`].
    #[allow(dead_code)] // used by the demo binary, not by atoll-bench
    pub fn rep(&self) -> f64 {
        let (p, s, _) = self.rep_each();
        p.min(s)
    }

    /// Whether every triad so far was right (each is checked after it runs).
    pub fn check(&self) -> bool {
        !self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Elements per array.
    #[allow(dead_code)] // used by the demo binary, not by atoll-bench
    pub fn len(&self) -> usize {
        self.n
    }
}

/// The triad's check over one worker's chunk.
fn triad_ok(a: &[f64], b: &[f64], c: &[f64], alpha: f64) -> bool {
    a.len() == b.len() && a.len() == c.len() && a.iter().zip(b).zip(c).all(|((&x, &y), &z)| x == y + alpha * z)
}

impl Drop for Baseline {
    fn drop(&mut self) {
        self.go.clear();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_triad_is_not_ok() {
        let b = [1.0, 2.0, 3.0];
        let c = [2.0; 3];
        assert!(triad_ok(&[7.0, 8.0, 9.0], &b, &c, 3.0));
        assert!(!triad_ok(&[7.0, 8.5, 9.0], &b, &c, 3.0));
        assert!(!triad_ok(&[0.0; 3], &b, &c, 3.0), "a kernel that wrote nothing");
    }

    #[test]
    fn both_kernels_check_and_the_check_clears_the_result() {
        let bl = Baseline::new(10_001, 3, 3.0);
        let (_, _, ok) = bl.rep_each();
        assert!(ok);
        assert!(bl.rep() > 0.0);
        assert!(bl.check());
        // After a check the result is cleared: checking again without a kernel fails, and
        // the failure sticks.
        assert!(!bl.broadcast(Job::Check));
        bl.failed.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(!bl.check());
    }
}
