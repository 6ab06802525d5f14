//! A unit that waits takes back its own queued work even after thieves took
//! older entries from under it: the deque is then no longer than when the
//! unit began, yet its top is the unit's.

mod support;

use std::sync::mpsc;
use std::sync::Arc;

use rt_core::Runtime;
use support::{without_hanging, Gate, Latch};

#[test]
fn a_scope_runs_its_own_queued_task_after_a_thief_took_an_older_one() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        // One worker is held in `hold` until the scope below has queued its
        // task; then it is free, and its first steal takes the oldest entry
        // of the other worker's deque: `older`.
        let (hold_started, release_hold) = (Latch::new(1), Gate::new());
        let hold = {
            let (started, release) = (hold_started.clone(), release_hold.clone());
            rt.spawn(move || {
                started.count_down();
                release.wait();
            })
        };
        hold_started.wait();
        let (mine_ran_tx, mine_ran_rx) = mpsc::channel::<()>();
        let (older_started_tx, older_started_rx) = mpsc::channel::<()>();
        let inner = rt.clone();
        let outer = rt.spawn(move || {
            // `older` needs `mine` to have run: the thief that takes it is
            // blocked until then, so only this worker can run `mine`.
            let older = inner.spawn(move || {
                older_started_tx.send(()).unwrap();
                mine_ran_rx.recv().unwrap();
            });
            // Joined at once: popped back from the top and run nested, so
            // it begins with `older` below it in the deque.
            let nested = inner.spawn(move || {
                rt_core::scope(|s| {
                    s.spawn(move || mine_ran_tx.send(()).unwrap());
                    release_hold.open();
                    // Wait until the thief took `older`: the deque is now
                    // as long as when this unit began, with `mine` on top.
                    older_started_rx.recv().unwrap();
                });
            });
            nested.join().unwrap();
            older.join().unwrap();
        });
        assert_eq!(outer.join(), Ok(()));
        assert_eq!(hold.join(), Ok(()));
    });
}
