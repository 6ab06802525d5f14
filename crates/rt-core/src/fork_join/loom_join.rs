//! Loom models of fork-join (`JOIN_HELPING.md`): a shared `join` half
//! stolen and completed while its owner waits for it, or given back by
//! `stop`; a latch counted down by several tasks while its waiting thread
//! parks; and the lease that keeps a leapfrogger from taking work of a unit
//! that has ended.
//!
//! What runs is the runtime's own code for the protocols: the real
//! `StackJob` (shared with `share`, run by the thief with `run_stolen`,
//! waited for through its `Latch`: `is_set`, `park_once`, then `outcome`;
//! given back by `stop` through its frame entry), the real `Latch`, and the
//! real `WorkerSlot` (`register_thread`, `unpark`, `enter_clean`,
//! `leave_clean`, `lease`). The worker's deque is a stand-in (a
//! mutex-guarded list: loom cannot run crossbeam-deque), and the owner's
//! wait is the order of `helping::wait_for` written out: pop its own work
//! back if it is still there, else run one piece of its own work if it has
//! any, else check the latch and park once, until the latch is set.
//!
//! Interleavings covered: the thief's steal before or after the owner pops
//! back (only one of them gets the entry); the thief's count-down before,
//! between and after the owner's `is_set` check and its `SLEEPING`
//! registration, so the unpark comes before the park (a token) or after;
//! the owner helping with its own work while the half runs; `stop` giving
//! the half back instead of a thief running it. In the lease model: a
//! leapfrogger's lease against the end of the clean unit and the push of
//! unrelated work after it, in every order.
//!
//! A lost wake-up shows as a deadlock; a half run twice or never, or a
//! result seen twice, fails the assertions; an entry of ended work taken by
//! a leapfrogger fails the lease model's assertion.
//!
//! Run: `cargo xtask loom`.

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::{Arc, Mutex};
use loom::thread;

use crate::fork_join::latch::Latch;
use crate::fork_join::stack_job::{share, FnContext, Outcome, StackJob};
use crate::fork_join::worker_slot::{CleanUnit, LeaseFor, WorkerSlot};
use crate::idle::loom_idle_signal::check_bounded;
use crate::worker::entry::WorkId;
use crate::worker::entry::{FrameAction, FrameRef};

/// A deque stand-in: the owner pushes and pops at the back, a thief takes
/// from the front.
struct Deque<T>(Mutex<Vec<T>>);

impl<T> Deque<T> {
    fn new() -> Self {
        Self(Mutex::new(Vec::new()))
    }
    fn push(&self, item: T) {
        self.0.lock().unwrap().push(item);
    }
    fn pop(&self) -> Option<T> {
        self.0.lock().unwrap().pop()
    }
    fn steal(&self) -> Option<T> {
        let mut items = self.0.lock().unwrap();
        (!items.is_empty()).then(|| items.remove(0))
    }
}

/// What the owner's deque holds: its shared half, or a piece of its own
/// work (a child it spawned) that it may run while it waits.
enum Item {
    Half(FrameRef),
    Child,
}

/// Worker 0 shares its half (pushes it), then a child of its own, worker 1
/// steals what it can, and worker 0 finishes the join the way
/// `finish_shared` and `wait_for` do. With `stop`, a third thread drains
/// the deque and gives the half back instead.
fn stolen_half_racing_its_owner(with_stop: bool) {
    let slots: Arc<[WorkerSlot; 2]> = Arc::new([WorkerSlot::new(), WorkerSlot::new()]);
    let deque = Arc::new(Deque::new());
    let runs = Arc::new(AtomicUsize::new(0));
    let children = Arc::new(AtomicUsize::new(0));

    slots[0].register_thread();
    let job = {
        let runs = runs.clone();
        StackJob::new(move |_: FnContext| {
            runs.fetch_add(1, Ordering::Relaxed);
            7u32
        })
    };
    let frame = job.frame(std::ptr::null());
    // SAFETY: `job` outlives both other threads (joined below) and this
    // function only returns after it popped the entry back or saw the latch
    // settled.
    let entry = unsafe { share(&frame, slots[0].thread()) };
    let id = entry.id();
    // The half was shared when `a` began; `a` then pushed a child of
    // its own on top of it.
    deque.push(Item::Half(entry));
    deque.push(Item::Child);

    let job_addr = std::ptr::from_ref(&job).addr();
    let run_stolen = runner_for(&job);
    let other = {
        let (deque, children) = (deque.clone(), children.clone());
        thread::spawn(move || match deque.steal() {
            // `stop` drains it and gives it back: the owner runs it.
            Some(Item::Half(entry)) if with_stop => entry.execute(FrameAction::GiveBack),
            Some(Item::Half(entry)) => {
                // What `FrameRef::run` does on a worker (minus the unit it
                // opens): the one consumer of the entry runs the job.
                let _ = entry;
                run_stolen(job_addr);
            }
            Some(Item::Child) => {
                children.fetch_add(1, Ordering::Relaxed);
            }
            None => {}
        })
    };

    // The owner: `a` is done; take the half back if it is still on top,
    // else help with its own work and wait.
    let value = loop {
        match deque.pop() {
            Some(Item::Half(entry)) => {
                // Taken back by its owner, which runs the job itself.
                assert_eq!(entry.id(), id);
                let _ = entry;
                break job.run_here(FnContext::MIGRATED).unwrap();
            }
            Some(Item::Child) => {
                children.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            None => {}
        }
        while !job.latch().is_set() {
            job.latch().park_once();
        }
        break match job.outcome() {
            Outcome::Ran(result) => result.unwrap(),
            Outcome::Returned => job.run_here(FnContext::MIGRATED).unwrap(),
        };
    };
    other.join().unwrap();
    assert_eq!(value, 7);
    assert_eq!(runs.load(Ordering::Relaxed), 1, "the half ran exactly once");
    assert_eq!(
        children.load(Ordering::Relaxed),
        1,
        "the child ran exactly once"
    );
}

/// `StackJob::run_stolen` for worker 1, on a job of `job`'s type given by
/// address (so a `'static` thread closure can carry it).
fn runner_for<F: FnOnce(FnContext) -> u32 + Send>(_job: &StackJob<F, u32>) -> fn(usize) {
    |address| {
        // SAFETY: the address is that of a `StackJob<F, u32>` its owner keeps
        // alive until the latch is settled, which `run_stolen` does last.
        let job = unsafe { &*(address as *const StackJob<F, u32>) };
        job.run_stolen(1);
    }
}

/// A thief completes a stolen half while its owner pops, helps and parks.
#[test]
fn a_stolen_half_completing_while_its_owner_waits_is_seen_once_and_wakes_it() {
    check_bounded(3, || stolen_half_racing_its_owner(false));
}

/// `stop` gives the half back while its owner pops, helps and parks.
#[test]
fn a_half_given_back_by_stop_is_run_once_by_its_owner() {
    check_bounded(3, || stolen_half_racing_its_owner(true));
}

/// The lease: a leapfrogger steals from worker R only while R runs the
/// clean unit it checked for; R ends the unit and then pushes unrelated
/// work, which the leapfrogger must never take.
#[test]
fn a_leapfrogger_never_takes_work_pushed_after_the_unit_it_leased_ended() {
    loom::model(|| {
        let slot = Arc::new(WorkerSlot::new());
        // Items are the unit that pushed them: 1 for the clean unit, 2 for
        // the unrelated work after it.
        let deque = Arc::new(Deque::new());
        let unit = WorkId::of_frame(std::ptr::NonNull::from(&*slot).cast());
        let outer = slot.enter_clean(CleanUnit { unit, scope: None });
        deque.push(1u32);
        let leapfrogger = {
            let (slot, deque) = (slot.clone(), deque.clone());
            thread::spawn(move || slot.lease(LeaseFor::Unit(unit), || deque.steal()))
        };
        // The unit takes its own work back, ends, and its worker moves on
        // to other work.
        let _ = deque.pop();
        slot.leave_clean(outer);
        deque.push(2);
        if let Some(stolen) = leapfrogger.join().unwrap() {
            assert_eq!(
                stolen, 1,
                "a leapfrogger took work of a unit that had ended"
            );
        }
    });
}

/// The latch of a scope (or of an install, with one piece): two tasks count
/// it down on their threads while its waiter, a plain thread, checks it and
/// parks; the waiter is woken once both finished, sees both tasks' effects,
/// and its frame (the latch with the `Thread` it points to) may go the
/// moment the count reads zero.
#[test]
fn a_latch_counted_down_by_two_tasks_wakes_its_waiting_thread_after_both() {
    check_bounded(3, || {
        let effects = Arc::new(AtomicUsize::new(0));
        let waiter = thread::current();
        let latch = Arc::new(Latch::new(2));
        latch.set_waiter_in_frame(&waiter);
        let tasks: Vec<_> = (0..2)
            .map(|_| {
                let (latch, effects) = (latch.clone(), effects.clone());
                // The latch outlives the tasks here only because the model
                // needs an `Arc` to share it; the count-down touches nothing
                // after its decrement, as if it could be freed then.
                thread::spawn(move || {
                    effects.fetch_add(1, Ordering::Relaxed);
                    latch.count_down();
                })
            })
            .collect();
        while !latch.is_set() {
            latch.park_once();
        }
        assert_eq!(
            effects.load(Ordering::Relaxed),
            2,
            "both tasks' effects are visible"
        );
        for task in tasks {
            task.join().unwrap();
        }
    });
}
