//! The systems a burst wakes, behind one trait: the physical floor and
//! rt-burst here, the peers in `peers.rs` (which implement the trait from
//! here); the list of them all is `all` in `mod.rs`.

use std::iter;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rt::burst::BurstPool;

use super::recorder::Recorder;

/// A set of `k` parked workers that one burst hands one item each.
pub trait System {
    fn name(&self) -> &'static str;
    /// Reads the send clock, then sends one item per worker in the system's
    /// own way; returns how many handler calls to expect (`k`, unless the
    /// system refused some: burst-pool hands an item back when no receiver
    /// waits).
    fn burst(&mut self) -> usize;
    fn recorder(&self) -> &'static Recorder;
}

pub const FLOOR: &str = "floor: park/unpark";
pub const RT_BURST: &str = "rt-burst";

/// The physical floor: `k` threads blocked in `thread::park`, each woken by
/// `Thread::unpark` after its flag is set. The send clock is published in an
/// atomic (nanoseconds since a common origin) before the flags.
pub struct Floor {
    k: usize,
    shared: Arc<FloorShared>,
    threads: Vec<JoinHandle<()>>,
}

struct FloorShared {
    origin: Instant,
    sent_ns: AtomicU64,
    go: Box<[AtomicBool]>,
    stop: AtomicBool,
    recorder: &'static Recorder,
}

impl Floor {
    pub fn new(k: usize) -> Self {
        let shared = Arc::new(FloorShared {
            origin: Instant::now(),
            sent_ns: AtomicU64::new(0),
            go: (0..k).map(|_| AtomicBool::new(false)).collect(),
            stop: AtomicBool::new(false),
            recorder: Recorder::leak(k),
        });
        let threads = (0..k)
            .map(|i| {
                let shared = shared.clone();
                thread::Builder::new()
                    .name(format!("floor-{i}"))
                    .spawn(move || loop {
                        thread::park();
                        if shared.go[i].swap(false, Ordering::Acquire) {
                            let sent = shared.origin
                                + Duration::from_nanos(shared.sent_ns.load(Ordering::Relaxed));
                            shared.recorder.record(sent);
                        } else if shared.stop.load(Ordering::Acquire) {
                            return;
                        }
                    })
                    .expect("spawn a floor thread")
            })
            .collect();
        Self { k, shared, threads }
    }
}

impl System for Floor {
    fn name(&self) -> &'static str {
        FLOOR
    }

    fn burst(&mut self) -> usize {
        let sent = Instant::now();
        let ns = (sent - self.shared.origin).as_nanos() as u64;
        self.shared.sent_ns.store(ns, Ordering::Relaxed);
        for go in self.shared.go.iter() {
            go.store(true, Ordering::Release);
        }
        for t in &self.threads {
            t.thread().unpark();
        }
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.shared.recorder
    }
}

impl Drop for Floor {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        for t in self.threads.drain(..) {
            t.thread().unpark();
            t.join().expect("floor thread");
        }
    }
}

/// rt-burst: `k` workers, one `send_burst` of `k` copies of the send clock.
pub struct RtBurst {
    k: usize,
    pool: BurstPool<Instant>,
    recorder: &'static Recorder,
}

impl RtBurst {
    pub fn new(k: usize) -> Self {
        let recorder = Recorder::leak(k);
        let mut pool = BurstPool::builder()
            .thread_name("bench-burst")
            .build()
            .expect("valid configuration");
        for _ in 0..k {
            pool.spawn_worker(move |sent: Instant| recorder.record(sent));
        }
        Self { k, pool, recorder }
    }
}

impl System for RtBurst {
    fn name(&self) -> &'static str {
        RT_BURST
    }

    fn burst(&mut self) -> usize {
        let sent = Instant::now();
        self.pool
            .send_burst(iter::repeat_n(sent, self.k))
            .expect("queues have room");
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}
