//! The workload: foreground requests arriving from another thread at
//! 1,000 per second, each 1-3 steps of 100-500 µs of CPU work followed by a
//! 100-500 µs sleep; and 8 background loops of 100-500 µs of CPU work and a
//! yield, enough to saturate the core.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;

/// Foreground arrivals per second (Poisson).
pub const ARRIVALS_PER_SEC: f64 = 1_000.0;
/// Background loops in the configurations that have them.
pub const BACKGROUND_TASKS: u64 = 8;
/// CPU work of one step, foreground and background (µs, uniform).
const CPU_US: (u64, u64) = (100, 500);
/// Sleep after each foreground step (µs, uniform).
const SLEEP_US: (u64, u64) = (100, 500);

/// xorshift64*: small, seedable, good enough for workload shapes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    pub fn uniform(&mut self, (lo, hi): (u64, u64)) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// Uniform in `(0, 1]`.
    fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }
}

/// One foreground request: when it was sent and what it will do.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub sent: Instant,
    /// When the accept loop received it.
    pub accepted: Option<Instant>,
    /// (CPU work, then sleep) per step, in µs; `steps` of them are used.
    work: [(u32, u32); 3],
    steps: u8,
}

/// Sends Poisson arrivals for `duration` from a new thread (left to the
/// OS's placement: it sleeps between arrivals); the channel closes when the
/// thread is done.
pub fn start_arrivals(
    seed: u64,
    duration: Duration,
    tx: UnboundedSender<Arrival>,
) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name("arrivals".into())
        .spawn(move || {
            let mut rng = Rng::new(seed);
            let mean_gap = 1.0 / ARRIVALS_PER_SEC;
            let start = Instant::now();
            let mut at = start;
            loop {
                at += Duration::from_secs_f64(-rng.unit().ln() * mean_gap);
                if at >= start + duration {
                    break;
                }
                let now = Instant::now();
                if at > now {
                    std::thread::sleep(at - now);
                }
                let steps = rng.uniform((1, 3)) as u8;
                let mut work = [(0, 0); 3];
                for w in work.iter_mut().take(steps as usize) {
                    *w = (rng.uniform(CPU_US) as u32, rng.uniform(SLEEP_US) as u32);
                }
                let arrival = Arrival {
                    sent: Instant::now(),
                    accepted: None,
                    work,
                    steps,
                };
                if tx.send(arrival).is_err() {
                    break;
                }
            }
        })
        .expect("spawn the arrival thread")
}

/// Burns the CPU for `d` of wall time (the same wall time on every system,
/// however busy the machine is).
pub fn spin(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// A stretch of wall time: (start, end).
pub type Span = (Instant, Instant);

/// Per-request latencies of one run, in ns, and the spans that show what
/// ran while requests waited.
#[derive(Default)]
pub struct Recorder {
    /// The part of the queue delay until the accept loop received the
    /// request (shown with `--verbose`).
    pub accept_delay: RefCell<Vec<u64>>,
    pub total: RefCell<Vec<u64>>,
    /// Each request's wait (its queue delay): arrival to first poll.
    pub waits: RefCell<Vec<Span>>,
    /// Each foreground CPU step.
    pub steps: RefCell<Vec<ForegroundStep>>,
}

/// One foreground CPU step, and since when it was due: its request's
/// arrival for the first step, the end of the sleep before it otherwise.
#[derive(Clone, Copy)]
pub struct ForegroundStep {
    pub span: Span,
    pub due: Instant,
}

pub fn ns(d: Duration) -> u64 {
    d.as_nanos() as u64
}

/// A foreground request: its queue delay is the time from `sent` to this
/// body's first poll, its total latency from `sent` to the end.
pub async fn foreground(arrival: Arrival, rec: Rc<Recorder>) {
    let first_poll = Instant::now();
    let mut due = arrival.sent;
    for &(cpu, sleep) in &arrival.work[..arrival.steps as usize] {
        let start = Instant::now();
        spin(Duration::from_micros(cpu.into()));
        let end = Instant::now();
        rec.steps.borrow_mut().push(ForegroundStep {
            span: (start, end),
            due,
        });
        let sleep = Duration::from_micros(sleep.into());
        due = end + sleep;
        tokio::time::sleep(sleep).await;
    }
    rec.waits.borrow_mut().push((arrival.sent, first_poll));
    if let Some(accepted) = arrival.accepted {
        rec.accept_delay
            .borrow_mut()
            .push(ns(accepted - arrival.sent));
    }
    rec.total.borrow_mut().push(ns(arrival.sent.elapsed()));
}

/// The background loops' shared stop flag, step counter and step spans.
#[derive(Clone, Default)]
pub struct Background {
    stop: Arc<AtomicBool>,
    steps: Arc<AtomicU64>,
    /// Every step's span (a mutex: the two-runtime configuration runs the
    /// loops on another thread; one lock per 100-500 µs step is noise).
    spans: Arc<Mutex<Vec<Span>>>,
}

impl Background {
    /// Stops the loops (at their next step) and returns the steps done.
    pub fn finish(&self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.steps.load(Ordering::Relaxed)
    }

    /// One background loop: CPU work, count it, yield with `yield_fn`.
    pub async fn run<Y, F>(self, seed: u64, yield_fn: F)
    where
        F: Fn() -> Y,
        Y: Future<Output = ()>,
    {
        let mut rng = Rng::new(seed);
        while !self.stop.load(Ordering::Relaxed) {
            let start = Instant::now();
            spin(Duration::from_micros(rng.uniform(CPU_US)));
            let span = (start, Instant::now());
            self.spans.lock().unwrap().push(span);
            self.steps.fetch_add(1, Ordering::Relaxed);
            yield_fn().await;
        }
    }

    /// Steps done so far.
    pub fn steps(&self) -> u64 {
        self.steps.load(Ordering::Relaxed)
    }

    /// Takes the spans of the steps done so far.
    pub fn take_spans(&self) -> Vec<Span> {
        std::mem::take(&mut *self.spans.lock().unwrap())
    }
}
