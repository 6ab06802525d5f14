//! Empty tasks on a 1-worker runtime, for counting what one task costs the
//! worker with an instruction counter: `execute` submits 20,000 tasks
//! without a handle from the main thread, `spawn` drops each handle at
//! once, and `spawn-join` and `scope` run fib(21) on the worker with a task
//! per call (17,710 of them), spawned and joined, or spawned into a scope
//! per call. The commands and figures are in `docs/BENCHMARKS.md`.

use rt_core::Runtime;

const TASKS: usize = 20_000;
/// fib(21) = 10,946 forks 17,710 tasks (fib(n - 1) of every call with n ≥ 2).
const FIB: u32 = 21;

fn fib_spawn_join(rt: &'static Runtime, n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let h = rt.spawn(move || fib_spawn_join(rt, n - 1));
    let b = fib_spawn_join(rt, n - 2);
    h.join().expect("a fib task failed") + b
}

fn fib_scope(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let mut a = 0;
    let b = rt_core::scope(|s| {
        s.spawn(|| a = fib_scope(n - 1));
        fib_scope(n - 2)
    });
    a + b
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "execute".into());
    let rt: &'static Runtime = Box::leak(Box::new(Runtime::new(1).expect("a 1-worker runtime")));
    match mode.as_str() {
        "spawn-join" => {
            let v = rt.spawn(move || fib_spawn_join(rt, FIB)).join().unwrap();
            assert_eq!(v, 10_946);
        }
        "scope" => assert_eq!(rt.install(|| fib_scope(FIB)), 10_946),
        _ => {
            for _ in 0..TASKS {
                let task = || {};
                match mode.as_str() {
                    "spawn" => drop(rt.spawn(task)),
                    _ => rt.execute(task).expect("the runtime accepts tasks"),
                }
            }
        }
    }
    rt.shutdown();
}
