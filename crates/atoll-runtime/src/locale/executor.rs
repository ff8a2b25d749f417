//! The threads that run incoming active messages on a locale.
//!
//! A handler may itself wait (for a reply from another locale, for a lock), so a fixed number
//! of handler threads could deadlock on a chain of nested requests. The executor therefore
//! grows: when a request arrives and no thread is idle, it starts one more (up to a cap);
//! an idle thread polls the queue for 50 us (yielding the core), then sleeps on a condition
//! variable and costs nothing.

use crate::sync::wait;
use crate::sync::{lock, Arc, AtomicBool, AtomicUsize, Condvar, Mutex, Ordering};
use std::collections::VecDeque;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The most handler threads one locale starts.
const MAX_THREADS: usize = 256;

/// How long an idle handler thread polls for the next job before it sleeps.
const POLL: std::time::Duration = std::time::Duration::from_micros(50);

struct Inner {
    queue: Mutex<VecDeque<Job>>,
    cv: Condvar,
    idle: AtomicUsize,
    threads: Mutex<Vec<std::thread::JoinHandle<()>>>,
    shutdown: AtomicBool,
    name: String,
    on_start: Box<dyn Fn() + Send + Sync>,
    /// Called by an idle thread at each poll (see [`Executor::set_idle_poll`]).
    idle_poll: crate::sync::OnceLock<Box<dyn Fn() + Send + Sync>>,
}

/// A growable pool of handler threads.
pub(crate) struct Executor {
    inner: Arc<Inner>,
}

impl Executor {
    /// An executor whose threads are called `name-N` and run `on_start` first (pinning,
    /// memory attribution).
    pub(crate) fn new(name: String, on_start: impl Fn() + Send + Sync + 'static) -> Self {
        Executor {
            inner: Arc::new(Inner {
                queue: Mutex::new(VecDeque::new()),
                cv: Condvar::new(),
                idle: AtomicUsize::new(0),
                threads: Mutex::new(Vec::new()),
                shutdown: AtomicBool::new(false),
                name,
                on_start: Box::new(on_start),
                idle_poll: crate::sync::OnceLock::new(),
            }),
        }
    }

    /// Has an idle thread call `poll` at each of its polls, before it looks at the queue: the
    /// MPI backend's idle handler threads take requests from the node's inbox themselves
    /// (`poll` queues them with [`Executor::spawn`], and the polling thread runs them next),
    /// saving the hand-off from the progress thread. Set once; later calls are ignored.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(crate) fn set_idle_poll(&self, poll: Box<dyn Fn() + Send + Sync>) {
        let _ = self.inner.idle_poll.set(poll);
    }

    /// Runs `job` on a handler thread.
    pub(crate) fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        let inner = &self.inner;
        let mut q = lock(&inner.queue);
        q.push_back(Box::new(job));
        let need_thread = inner.idle.load(Ordering::SeqCst) < q.len();
        drop(q);
        if need_thread {
            let mut threads = lock(&inner.threads);
            if threads.len() < MAX_THREADS && !inner.shutdown.load(Ordering::SeqCst) {
                let me = Arc::clone(inner);
                let name = format!("{}-{}", inner.name, threads.len());
                match std::thread::Builder::new().name(name).spawn(move || worker(me)) {
                    Ok(h) => threads.push(h),
                    Err(_) if !threads.is_empty() => {}
                    Err(e) => panic!("atoll: cannot start a handler thread: {e}"),
                }
                return;
            }
        }
        inner.cv.notify_one();
    }

    /// Stops the threads once the queued jobs have run, and waits for them.
    pub(crate) fn shutdown(&self) {
        self.inner.shutdown.store(true, Ordering::SeqCst);
        {
            let _q = lock(&self.inner.queue);
            self.inner.cv.notify_all();
        }
        let threads = std::mem::take(&mut *lock(&self.inner.threads));
        let me = std::thread::current().id();
        for h in threads {
            if h.thread().id() != me {
                let _ = h.join();
            }
        }
    }
}

fn worker(inner: Arc<Inner>) {
    (inner.on_start)();
    loop {
        let job = {
            let mut q = lock(&inner.queue);
            loop {
                if let Some(j) = q.pop_front() {
                    break Some(j);
                }
                if inner.shutdown.load(Ordering::SeqCst) {
                    break None;
                }
                inner.idle.fetch_add(1, Ordering::SeqCst);
                // Polls (yielding the core) for a moment before sleeping: a request that
                // follows soon, as in a loop of `on` calls, then needs no wake-up (a futex
                // wake costs several microseconds on a small VM). Idle while polling, so
                // `spawn` starts no thread for it.
                drop(q);
                let start = std::time::Instant::now();
                q = loop {
                    std::thread::yield_now();
                    if let Some(poll) = inner.idle_poll.get() {
                        poll();
                    }
                    let q = lock(&inner.queue);
                    if !q.is_empty() || inner.shutdown.load(Ordering::SeqCst) || start.elapsed() >= POLL {
                        break q;
                    }
                };
                if q.is_empty() && !inner.shutdown.load(Ordering::SeqCst) {
                    q = wait(&inner.cv, q);
                }
                inner.idle.fetch_sub(1, Ordering::SeqCst);
            }
        };
        match job {
            // A job reports its own errors (handler panics are caught by the job itself).
            Some(j) => j(),
            None => return,
        }
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::mpsc;

    #[test]
    fn nested_waits_do_not_deadlock() {
        let ex = Arc::new(Executor::new("t".into(), || {}));
        let (tx, rx) = mpsc::channel();
        // Each job waits for the next one: a chain that needs 20 threads at once.
        fn chain(ex: Arc<Executor>, depth: usize, done: mpsc::Sender<usize>) {
            if depth == 0 {
                done.send(0).unwrap();
                return;
            }
            let (tx, rx) = mpsc::channel();
            let ex2 = Arc::clone(&ex);
            ex.spawn(move || chain(ex2, depth - 1, tx));
            let d = rx.recv().unwrap();
            done.send(d + 1).unwrap();
        }
        let ex2 = Arc::clone(&ex);
        ex.spawn(move || chain(ex2, 20, tx));
        assert_eq!(rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap(), 20);
    }
}
