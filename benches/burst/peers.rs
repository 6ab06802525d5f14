//! The peers: the runtime's `spawn`, the burst-pool crate, threadpool,
//! rayon, and crossbeam-channel with `k` receivers.

use std::thread::{self, JoinHandle};
use std::time::Instant;

use super::recorder::Recorder;
use super::systems::System;

/// The runtime (`rt::Runtime`, `k` workers): `k` `spawn`s of a closure that
/// reads the clock. The handles are kept until the next burst, so that
/// dropping them is not part of the send.
pub struct RtSpawn {
    k: usize,
    rt: rt::Runtime,
    handles: Vec<rt::JoinHandle<()>>,
    recorder: &'static Recorder,
}

impl RtSpawn {
    pub fn new(k: usize) -> Self {
        let rt = rt::Runtime::builder()
            .threads(k)
            .thread_name("bench-rt")
            .build()
            .expect("runtime");
        Self {
            k,
            rt,
            handles: Vec::with_capacity(k),
            recorder: Recorder::leak(k),
        }
    }
}

impl System for RtSpawn {
    fn name(&self) -> &'static str {
        "rt spawn"
    }

    fn burst(&mut self) -> usize {
        self.handles.clear();
        let recorder = self.recorder;
        let sent = Instant::now();
        for _ in 0..self.k {
            self.handles
                .push(self.rt.spawn(move || recorder.record(sent)));
        }
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}

/// burst-pool 0.5: `k` receivers; `enqueue` the boxed send clock once per
/// receiver, then one `wake_all`. `enqueue` hands the value back when no
/// receiver waits; such items are not waited for (the report counts them).
pub struct BurstPoolCrate {
    k: usize,
    sender: Option<burst_pool::Sender<Instant>>,
    threads: Vec<JoinHandle<()>>,
    recorder: &'static Recorder,
}

impl BurstPoolCrate {
    pub fn new(k: usize) -> Self {
        let recorder = Recorder::leak(k);
        let mut sender = burst_pool::Sender::new();
        let threads = (0..k)
            .map(|i| {
                let mut receiver = sender.mk_receiver();
                thread::Builder::new()
                    .name(format!("bench-bp-{i}"))
                    .spawn(move || {
                        // Err(Orphaned) once the sender is dropped.
                        while let Ok(sent) = receiver.recv() {
                            recorder.record(*sent);
                        }
                    })
                    .expect("spawn a burst-pool receiver")
            })
            .collect();
        Self {
            k,
            sender: Some(sender),
            threads,
            recorder,
        }
    }
}

impl System for BurstPoolCrate {
    fn name(&self) -> &'static str {
        "burst-pool"
    }

    fn burst(&mut self) -> usize {
        let sender = self.sender.as_mut().expect("live until drop");
        let sent = Instant::now();
        let mut accepted = 0;
        for _ in 0..self.k {
            if sender.enqueue(Box::new(sent)).is_none() {
                accepted += 1;
            }
        }
        sender.wake_all();
        accepted
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}

impl Drop for BurstPoolCrate {
    fn drop(&mut self) {
        drop(self.sender.take());
        for t in self.threads.drain(..) {
            t.join().expect("burst-pool receiver");
        }
    }
}

/// threadpool 1.8 (`k` threads): `k` `execute`s.
pub struct Threadpool {
    k: usize,
    pool: threadpool::ThreadPool,
    recorder: &'static Recorder,
}

impl Threadpool {
    pub fn new(k: usize) -> Self {
        Self {
            k,
            pool: threadpool::ThreadPool::new(k),
            recorder: Recorder::leak(k),
        }
    }
}

impl System for Threadpool {
    fn name(&self) -> &'static str {
        "threadpool"
    }

    fn burst(&mut self) -> usize {
        let recorder = self.recorder;
        let sent = Instant::now();
        for _ in 0..self.k {
            self.pool.execute(move || recorder.record(sent));
        }
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}

/// rayon 1.12 (a `ThreadPool` of `k` threads): `k` `spawn`s.
pub struct Rayon {
    k: usize,
    pool: rayon::ThreadPool,
    recorder: &'static Recorder,
}

impl Rayon {
    pub fn new(k: usize) -> Self {
        Self {
            k,
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .expect("rayon pool"),
            recorder: Recorder::leak(k),
        }
    }
}

impl System for Rayon {
    fn name(&self) -> &'static str {
        "rayon"
    }

    fn burst(&mut self) -> usize {
        let recorder = self.recorder;
        let sent = Instant::now();
        for _ in 0..self.k {
            self.pool.spawn(move || recorder.record(sent));
        }
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}

/// crossbeam-channel 0.5: `k` threads blocked in `recv` on one unbounded
/// channel; `k` `send`s of the send clock.
pub struct CrossbeamChannel {
    k: usize,
    tx: Option<crossbeam_channel::Sender<Instant>>,
    threads: Vec<JoinHandle<()>>,
    recorder: &'static Recorder,
}

impl CrossbeamChannel {
    pub fn new(k: usize) -> Self {
        let recorder = Recorder::leak(k);
        let (tx, rx) = crossbeam_channel::unbounded::<Instant>();
        let threads = (0..k)
            .map(|i| {
                let rx = rx.clone();
                thread::Builder::new()
                    .name(format!("bench-cb-{i}"))
                    .spawn(move || {
                        for sent in rx.iter() {
                            recorder.record(sent);
                        }
                    })
                    .expect("spawn a crossbeam receiver")
            })
            .collect();
        Self {
            k,
            tx: Some(tx),
            threads,
            recorder,
        }
    }
}

impl System for CrossbeamChannel {
    fn name(&self) -> &'static str {
        "crossbeam-channel"
    }

    fn burst(&mut self) -> usize {
        let tx = self.tx.as_ref().expect("live until drop");
        let sent = Instant::now();
        for _ in 0..self.k {
            tx.send(sent).expect("receivers live");
        }
        self.k
    }

    fn recorder(&self) -> &'static Recorder {
        self.recorder
    }
}

impl Drop for CrossbeamChannel {
    fn drop(&mut self) {
        drop(self.tx.take());
        for t in self.threads.drain(..) {
            t.join().expect("crossbeam receiver");
        }
    }
}
