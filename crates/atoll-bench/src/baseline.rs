//! The memory-bandwidth limit of STREAM: the triad `a = b + alpha * c` by plain Rust threads over
//! `Vec`s, one per core, each owning a contiguous chunk (first touched by that thread). The
//! threads are started before any Atoll job, so they are not pinned to a locale's cores, and
//! they stay alive between repetitions (no thread start in the timed part).

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Instant;

/// Persistent worker threads running the triad on their chunks.
pub struct Baseline {
    go: Vec<Sender<bool>>,
    done: Mutex<Receiver<bool>>,
    workers: Vec<JoinHandle<()>>,
    n: usize,
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
            let (tx, rx) = channel::<bool>();
            let done_tx = done_tx.clone();
            go.push(tx);
            workers.push(std::thread::spawn(move || {
                let b: Vec<f64> = (lo..hi).map(|i| i as f64).collect();
                let c = vec![2.0f64; hi - lo];
                let mut a = vec![0.0f64; hi - lo];
                let _ = done_tx.send(true);
                // `true`: run the triad and report; `false`: check and report.
                while let Ok(run) = rx.recv() {
                    let ok = if run {
                        for ((x, &y), &z) in a.iter_mut().zip(&b).zip(&c) {
                            *x = y + alpha * z;
                        }
                        true
                    } else {
                        a.iter().zip(&b).zip(&c).all(|((&x, &y), &z)| x == y + alpha * z)
                    };
                    if done_tx.send(ok).is_err() {
                        return;
                    }
                }
            }));
        }
        let me = Baseline { go, done: Mutex::new(done), workers, n };
        me.collect();
        me
    }

    fn collect(&self) -> bool {
        let done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        (0..self.go.len()).all(|_| done.recv().unwrap_or(false))
    }

    fn broadcast(&self, run: bool) -> bool {
        let sent = self.go.iter().all(|g| g.send(run).is_ok());
        self.collect() && sent
    }

    /// One timed triad, in seconds.
    pub fn rep(&self) -> f64 {
        let t = Instant::now();
        self.broadcast(true);
        t.elapsed().as_secs_f64()
    }

    /// Whether the last triad is right.
    pub fn check(&self) -> bool {
        self.broadcast(false)
    }

    /// Elements per array.
    #[allow(dead_code)] // used by the demo binary, not by atoll-bench
    pub fn len(&self) -> usize {
        self.n
    }
}

impl Drop for Baseline {
    fn drop(&mut self) {
        self.go.clear();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}
