//! The six configurations, each run on its own "shard" thread (two for the
//! two-runtime configuration), all on tokio current-thread runtimes as hosts.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tokio::task::{JoinHandle, LocalSet};

use super::report::Tail;
use super::workload::{
    foreground, ns, start_arrivals, Arrival, Background, Recorder, BACKGROUND_TASKS,
};

/// What one run of one configuration measured.
pub struct Outcome {
    /// Queue delay of every foreground request (ns).
    pub queue_delay: Vec<u64>,
    /// Total latency of every foreground request (ns).
    pub total: Vec<u64>,
    /// Background steps done while requests arrived.
    pub background_steps: u64,
    /// Arrival to the accept loop (ns).
    pub accept_delay: Vec<u64>,
    /// What ran while the slowest requests waited.
    pub tail: Tail,
}

impl Outcome {
    /// Call once the loops of `bg` have stopped; `background_steps` is the
    /// count taken when the arrivals ended.
    fn new(rec: &Recorder, background_steps: u64, bg: &Background) -> Self {
        Self {
            tail: Tail::of(&rec.waits.borrow(), &rec.steps.borrow(), &bg.take_spans()),
            queue_delay: rec
                .waits
                .borrow()
                .iter()
                .map(|&(sent, polled)| ns(polled - sent))
                .collect(),
            total: rec.total.take(),
            background_steps,
            accept_delay: rec.accept_delay.take(),
        }
    }
}

/// Parameters shared by every configuration in one round.
#[derive(Clone, Copy)]
pub struct Round {
    pub seed: u64,
    pub duration: Duration,
    /// CPU for the shard thread(s); `None`: not pinned.
    pub shard_cpu: Option<usize>,
    /// rt-fair's time slice, rejoin credit and host interval; `None`: the
    /// defaults.
    pub fair_slice: Option<Duration>,
    pub fair_rejoin_credit: Option<Duration>,
    pub fair_host_interval: Option<Duration>,
    /// Put rt-fair's accept loop on a queue of its own of this weight.
    pub fair_accept_weight: Option<u32>,
    /// rt-fair's foreground weight (the background's is 1).
    pub fair_weight: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    TokioFgOnly,
    TokioBoth,
    FairFgOnly,
    FairBoth,
    TwoRuntimes,
    ClockworkerBoth,
}

impl System {
    pub const ALL: [System; 6] = [
        System::TokioFgOnly,
        System::TokioBoth,
        System::FairFgOnly,
        System::FairBoth,
        System::TwoRuntimes,
        System::ClockworkerBoth,
    ];

    pub fn name(self) -> &'static str {
        match self {
            System::TokioFgOnly => "tokio, fg only",
            System::TokioBoth => "tokio, fg+bg",
            System::FairFgOnly => "rt-fair, fg only",
            System::FairBoth => "rt-fair 8:1, fg+bg",
            System::TwoRuntimes => "two tokio runtimes, fg+bg",
            System::ClockworkerBoth => "clockworker 8:1, fg+bg",
        }
    }

    pub fn has_background(self) -> bool {
        !matches!(self, System::TokioFgOnly | System::FairFgOnly)
    }

    pub fn run(self, round: Round) -> Outcome {
        match self {
            System::TokioFgOnly => on_shard(round, move || tokio_single(round, false)),
            System::TokioBoth => on_shard(round, move || tokio_single(round, true)),
            System::FairFgOnly => on_shard(round, move || rt_fair(round, false)),
            System::FairBoth => on_shard(round, move || rt_fair(round, true)),
            System::TwoRuntimes => two_runtimes(round),
            System::ClockworkerBoth => on_shard(round, move || clockworker(round)),
        }
    }
}

/// Pins the calling thread to one CPU; a no-op (with a note) where that is
/// not possible.
pub fn pin_to_cpu(cpu: usize) {
    #[cfg(target_os = "linux")]
    {
        // `cpu` is below CPU_SETSIZE: the caller picks it from the
        // available CPUs.
        // SAFETY: an all-zero `cpu_set_t` is the empty set; CPU_SET writes
        // inside it, and sched_setaffinity reads only its size in bytes.
        let ok = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        };
        if !ok {
            eprintln!("note: could not pin a thread to CPU {cpu}");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cpu;
}

/// Of `cpus`, the one that was idle longest over the next 100 ms (from
/// `/proc/stat`); `None` if that cannot be read.
pub fn idlest_cpu(cpus: &[usize]) -> Option<usize> {
    fn idle_times() -> Option<Vec<(usize, u64)>> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let mut out = Vec::new();
        for line in stat.lines() {
            let mut fields = line.split_whitespace();
            let Some(cpu) = fields.next()?.strip_prefix("cpu") else {
                continue;
            };
            let Ok(cpu) = cpu.parse::<usize>() else {
                continue; // the "cpu" total line
            };
            let ticks: Vec<u64> = fields.filter_map(|f| f.parse().ok()).collect();
            // idle + iowait
            out.push((cpu, ticks.get(3)? + ticks.get(4).unwrap_or(&0)));
        }
        Some(out)
    }
    let before = idle_times()?;
    std::thread::sleep(Duration::from_millis(100));
    let after = idle_times()?;
    cpus.iter().copied().max_by_key(|&c| {
        let at = |v: &[(usize, u64)]| v.iter().find(|(i, _)| *i == c).map_or(0, |(_, t)| *t);
        at(&after).saturating_sub(at(&before))
    })
}

/// The CPUs this process may run on.
pub fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: as in `pin_to_cpu`; sched_getaffinity fills the set, and
        // CPU_ISSET reads bits inside it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
                return (0..libc::CPU_SETSIZE as usize)
                    .filter(|&c| libc::CPU_ISSET(c, &set))
                    .collect();
            }
        }
    }
    Vec::new()
}

/// Runs `f` on a new thread pinned to the shard CPU.
fn on_shard<F: FnOnce() -> Outcome + Send + 'static>(round: Round, f: F) -> Outcome {
    std::thread::Builder::new()
        .name("shard".into())
        .spawn(move || {
            if let Some(cpu) = round.shard_cpu {
                pin_to_cpu(cpu);
            }
            f()
        })
        .expect("spawn the shard thread")
        .join()
        .expect("the shard thread panicked")
}

fn host() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("build a tokio current-thread runtime")
}

/// The request loop, the same on every system: receive each arrival and
/// spawn its request with `spawn`; returns the requests' handles.
async fn accept<H>(
    mut rx: UnboundedReceiver<Arrival>,
    mut spawn: impl FnMut(Arrival) -> H,
) -> Vec<H> {
    let mut handles = Vec::with_capacity(8_192);
    while let Some(mut arrival) = rx.recv().await {
        arrival.accepted = Some(std::time::Instant::now());
        handles.push(spawn(arrival));
    }
    handles
}

async fn await_all<H: Future>(handles: Vec<H>) {
    for h in handles {
        let _ = h.await;
    }
}

/// The requests' handles, once the accept loop has ended.
type Accepted<H> = Pin<Box<dyn Future<Output = Vec<H>>>>;

/// One round on the system under test, the same for every configuration:
/// starts the arrivals, lets `start_accept` spawn the accept loop there
/// (given the channel's receiver and the recorder), then, once the arrivals
/// end, stops the background (`bg`, whose local `loops` it awaits last) and
/// waits for every request.
async fn serve<H: Future, L: Future>(
    round: Round,
    bg: &Background,
    loops: Vec<L>,
    start_accept: impl FnOnce(UnboundedReceiver<Arrival>, Rc<Recorder>) -> Accepted<H>,
) -> Outcome {
    let rec = Rc::new(Recorder::default());
    let (tx, rx) = unbounded_channel();
    let arrivals = start_arrivals(round.seed, round.duration, tx);
    let requests = start_accept(rx, Rc::clone(&rec)).await;
    let steps = bg.finish();
    await_all(requests).await;
    await_all(loops).await;
    arrivals.join().expect("the arrival thread");
    Outcome::new(&rec, steps, bg)
}

/// `start_accept` for tokio: the accept loop and the requests are
/// `spawn_local` tasks.
fn tokio_accept(rx: UnboundedReceiver<Arrival>, rec: Rc<Recorder>) -> Accepted<JoinHandle<()>> {
    let accepted = tokio::task::spawn_local(accept(rx, move |a| {
        tokio::task::spawn_local(foreground(a, Rc::clone(&rec)))
    }));
    Box::pin(async { accepted.await.expect("the accept loop") })
}

/// One tokio current-thread runtime (with a `LocalSet`) runs everything;
/// background loops yield with `tokio::task::yield_now`.
fn tokio_single(round: Round, with_background: bool) -> Outcome {
    let local = LocalSet::new();
    local.block_on(&host(), async {
        let bg = Background::default();
        let loops: Vec<_> = (0..BACKGROUND_TASKS * u64::from(with_background))
            .map(|i| {
                tokio::task::spawn_local(bg.clone().run(round.seed + i, tokio::task::yield_now))
            })
            .collect();
        serve(round, &bg, loops, tokio_accept).await
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Foreground,
    Background,
    Accept,
}

/// rt-fair inside a tokio `LocalSet`: requests (and the accept loop, unless
/// `--fair-accept-weight` gives it a queue of its own) on a foreground
/// queue of weight 8 (or `--fair-weight`), background loops on a queue of
/// weight 1 yielding with `rt_fair::yield_maybe`.
fn rt_fair(round: Round, with_background: bool) -> Outcome {
    let mut builder = rt::fair::FairExecutorBuilder::new()
        .with_queue(Class::Foreground, round.fair_weight)
        .with_queue(Class::Background, 1);
    if let Some(slice) = round.fair_slice {
        builder = builder.with_time_slice(slice);
    }
    if let Some(credit) = round.fair_rejoin_credit {
        builder = builder.with_rejoin_credit(credit);
    }
    if let Some(interval) = round.fair_host_interval {
        builder = builder.with_host_interval(interval);
    }
    if let Some(weight) = round.fair_accept_weight {
        builder = builder.with_queue(Class::Accept, weight);
    }
    let executor = builder.build().expect("build the rt-fair executor");
    let fg = executor.queue(Class::Foreground).unwrap();
    let bgq = executor.queue(Class::Background).unwrap();
    let local = LocalSet::new();
    local.block_on(
        &host(),
        executor.run_until(async {
            let bg = Background::default();
            let loops: Vec<_> = (0..BACKGROUND_TASKS * u64::from(with_background))
                .map(|i| bgq.spawn(bg.clone().run(round.seed + i, rt::fair::yield_maybe)))
                .collect();
            let accept_queue = executor.queue(Class::Accept).unwrap_or_else(|| fg.clone());
            serve(round, &bg, loops, |rx, rec| {
                let accepted = accept_queue.spawn(accept(rx, move |a| {
                    fg.spawn(foreground(a, Rc::clone(&rec)))
                }));
                Box::pin(async { accepted.await.expect("the accept loop") })
            })
            .await
        }),
    )
}

/// clockworker 0.2 inside a tokio `LocalSet`, configured like rt-fair:
/// shares 8:1, background loops yield with `clockworker::yield_maybe`.
fn clockworker(round: Round) -> Outcome {
    let executor = clockworker::ExecutorBuilder::new()
        .with_queue(0u8, 8)
        .with_queue(1u8, 1)
        .build()
        .expect("build the clockworker executor");
    let fg = Rc::new(executor.queue(0).expect("queue 0"));
    let bgq = executor.queue(1).expect("queue 1");
    let local = LocalSet::new();
    local.block_on(
        &host(),
        executor.run_until(async {
            let bg = Background::default();
            let loops: Vec<_> = (0..BACKGROUND_TASKS)
                .map(|i| bgq.spawn(bg.clone().run(round.seed + i, clockworker::yield_maybe)))
                .collect();
            serve(round, &bg, loops, |rx, rec| {
                let spawner = Rc::clone(&fg);
                let accepted = fg.spawn(accept(rx, move |a| {
                    spawner.spawn(foreground(a, Rc::clone(&rec)))
                }));
                Box::pin(async { accepted.await.expect("the accept loop") })
            })
            .await
        }),
    )
}

/// Two tokio current-thread runtimes on two threads pinned to the same CPU:
/// the OS scheduler shares the core between foreground and background.
fn two_runtimes(round: Round) -> Outcome {
    let bg = Background::default();
    let background = {
        let bg = bg.clone();
        std::thread::Builder::new()
            .name("shard-bg".into())
            .spawn(move || {
                if let Some(cpu) = round.shard_cpu {
                    pin_to_cpu(cpu);
                }
                let local = LocalSet::new();
                local.block_on(&host(), async {
                    let loops: Vec<_> = (0..BACKGROUND_TASKS)
                        .map(|i| {
                            tokio::task::spawn_local(
                                bg.clone().run(round.seed + i, tokio::task::yield_now),
                            )
                        })
                        .collect();
                    await_all(loops).await;
                });
            })
            .expect("spawn the background shard thread")
    };
    // Let the background runtime start before requests arrive.
    while bg.steps() == 0 {
        std::thread::yield_now();
    }
    let outcome = on_shard(round, move || {
        let local = LocalSet::new();
        // The loops run on the other thread: nothing local to await.
        let loops = Vec::<std::future::Ready<()>>::new();
        local.block_on(&host(), serve(round, &bg, loops, tokio_accept))
    });
    background.join().expect("the background shard thread");
    outcome
}

/// Weighted shares with both queues saturated: 8 background-style loops on
/// each of rt-fair's two queues (weights 8:1) for `duration`. Returns the
/// ratio of the CPU time the executor charged to each queue, and the ratio
/// of the steps each queue's loops completed.
pub fn fair_shares(duration: Duration, cpu: Option<usize>) -> (f64, f64) {
    std::thread::spawn(move || {
        if let Some(cpu) = cpu {
            pin_to_cpu(cpu);
        }
        let executor = rt::fair::FairExecutorBuilder::new()
            .with_queue(Class::Foreground, 8)
            .with_queue(Class::Background, 1)
            .build()
            .expect("build the rt-fair executor");
        let (heavy, light) = (Background::default(), Background::default());
        let local = LocalSet::new();
        let (before, after) = local.block_on(
            &host(),
            executor.run_until(async {
                let mut loops = Vec::new();
                for (class, bg) in [(Class::Foreground, &heavy), (Class::Background, &light)] {
                    let queue = executor.queue(class).unwrap();
                    for i in 0..BACKGROUND_TASKS {
                        loops.push(queue.spawn(bg.clone().run(i, rt::fair::yield_maybe)));
                    }
                }
                // Measure from the first sample on, once both queues run.
                tokio::time::sleep(Duration::from_millis(20)).await;
                let before = (executor.stats(), heavy.steps(), light.steps());
                tokio::time::sleep(duration).await;
                let after = (executor.stats(), heavy.finish(), light.finish());
                await_all(loops).await;
                (before, after)
            }),
        );
        let cpu = |s: &rt::fair::Stats<Class>, c| s.queue(c).unwrap().cpu_time.as_secs_f64();
        let cpu_ratio = (cpu(&after.0, Class::Foreground) - cpu(&before.0, Class::Foreground))
            / (cpu(&after.0, Class::Background) - cpu(&before.0, Class::Background));
        let steps_ratio = (after.1 - before.1) as f64 / (after.2 - before.2) as f64;
        (cpu_ratio, steps_ratio)
    })
    .join()
    .expect("the shares thread panicked")
}
