//! Search-order tests: which queued task does `find` hand out first?

use crate::{work_queues, GlobalQueues, Priority, TaskSource, WorkerQueues};

/// Where a test places a task, seen from worker 0.
#[derive(Debug, Clone, Copy)]
enum Place {
    Own,
    Injector,
    Peer,
}

const PLACES: [Place; 3] = [Place::Own, Place::Injector, Place::Peer];

fn place(
    global: &GlobalQueues<&'static str>,
    locals: &[WorkerQueues<&'static str>],
    at: Place,
    priority: Priority,
    task: &'static str,
) {
    match at {
        Place::Own => locals[0].push(priority, task),
        Place::Injector => global.push(priority, task),
        Place::Peer => locals[1].push(priority, task),
    }
}

/// `find`, as (task, source): what most tests look at.
fn find<T>(local: &WorkerQueues<T>, global: &GlobalQueues<T>) -> Option<(T, TaskSource)> {
    local.find(global).map(|found| (found.task, found.source))
}

#[test]
fn a_queued_high_task_wins_over_every_lower_one_wherever_that_one_sits() {
    for high_at in [Place::Own, Place::Injector] {
        for lower in [Priority::Normal, Priority::Background] {
            for lower_at in PLACES {
                let (global, locals) = work_queues(2);
                place(&global, &locals, lower_at, lower, "lower");
                place(&global, &locals, high_at, Priority::High, "high");
                let (task, _) = find(&locals[0], &global).unwrap();
                assert_eq!(
                    task, "high",
                    "High at {high_at:?} must beat {lower:?} at {lower_at:?}"
                );
            }
        }
    }
}

#[test]
fn normal_wins_over_background_wherever_the_background_task_sits() {
    for normal_at in [Place::Own, Place::Injector] {
        for bg_at in PLACES {
            let (global, locals) = work_queues(2);
            place(&global, &locals, bg_at, Priority::Background, "background");
            place(&global, &locals, normal_at, Priority::Normal, "normal");
            assert_eq!(find(&locals[0], &global).unwrap().0, "normal");
        }
    }
}

#[test]
fn a_high_task_submitted_after_a_batch_was_taken_runs_before_the_rest_of_the_batch() {
    let (global, locals) = work_queues(2);
    for _ in 0..500 {
        global.push(Priority::Normal, "normal");
    }
    // The first find moves a batch of Normal tasks into worker 0's own deque.
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("normal", TaskSource::Injector)
    );
    assert!(!locals[0].is_empty(), "a batch should have been taken");
    global.push(Priority::High, "high");
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("high", TaskSource::Injector)
    );
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("normal", TaskSource::OwnDeque)
    );
}

#[test]
fn own_deque_is_searched_before_the_injector_of_the_same_priority() {
    let (global, locals) = work_queues(1);
    global.push(Priority::Normal, "injected");
    locals[0].push(Priority::Normal, "own");
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("own", TaskSource::OwnDeque)
    );
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("injected", TaskSource::Injector)
    );
    assert_eq!(find(&locals[0], &global), None);
}

#[test]
fn peers_are_searched_last_and_high_first() {
    let (global, locals) = work_queues(3);
    locals[1].push(Priority::Background, "bg");
    locals[2].push(Priority::Normal, "normal");
    locals[2].push(Priority::High, "high");
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("high", TaskSource::Stolen)
    );
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("normal", TaskSource::Stolen)
    );
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("bg", TaskSource::Stolen)
    );
    assert_eq!(find(&locals[0], &global), None);
}

#[test]
fn own_deque_is_lifo_and_thieves_take_the_oldest() {
    let (global, locals) = work_queues(2);
    for task in ["first", "second", "third"] {
        locals[0].push(Priority::Normal, task);
    }
    assert_eq!(
        find(&locals[1], &global).unwrap(),
        ("first", TaskSource::Stolen)
    );
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("third", TaskSource::OwnDeque)
    );
}

#[test]
fn successive_peer_scans_start_at_different_victims() {
    let (global, locals) = work_queues::<usize>(4);
    for (victim, local) in locals.iter().enumerate().skip(1) {
        for _ in 0..3 {
            local.push(Priority::Normal, victim);
        }
    }
    let firsts: Vec<usize> = (0..3)
        .map(|_| find(&locals[0], &global).unwrap().0)
        .collect();
    let mut sorted = firsts.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        vec![1, 2, 3],
        "three scans hit three victims: {firsts:?}"
    );
}

#[test]
fn a_worker_never_steals_from_itself_and_a_lone_worker_has_no_peers() {
    let (global, locals) = work_queues::<u8>(1);
    assert_eq!(find(&locals[0], &global), None);
    locals[0].push(Priority::Background, 7);
    assert_eq!(find(&locals[0], &global), Some((7, TaskSource::OwnDeque)));
}

#[test]
fn len_counts_injectors_and_local_deques_per_priority() {
    let (global, locals) = work_queues(2);
    global.push(Priority::High, 1);
    locals[1].push(Priority::High, 2);
    locals[0].push(Priority::Background, 3);
    assert_eq!(global.len(Priority::High), 2);
    assert_eq!(global.len(Priority::Normal), 0);
    assert_eq!(global.len(Priority::Background), 1);
    assert!(locals[0].sees_work(&global));
}

#[test]
fn steal_any_drains_every_queue_most_urgent_first() {
    let (global, locals) = work_queues(2);
    locals[1].push(Priority::Background, "bg");
    global.push(Priority::Normal, "normal");
    locals[0].push(Priority::High, "high");
    let drained: Vec<_> = std::iter::from_fn(|| global.steal_any())
        .map(|found| (found.task, found.source, found.priority, found.victim))
        .collect();
    assert_eq!(
        drained,
        vec![
            ("high", TaskSource::Stolen, Priority::High, Some(0)),
            ("normal", TaskSource::Injector, Priority::Normal, None),
            ("bg", TaskSource::Stolen, Priority::Background, Some(1))
        ]
    );
    assert!(global.is_empty());
}

#[test]
fn high_tasks_are_taken_from_the_injector_one_at_a_time_so_peers_still_see_them() {
    let (global, locals) = work_queues(2);
    for _ in 0..10 {
        global.push(Priority::High, "high");
    }
    global.push(Priority::Normal, "normal");
    assert_eq!(
        find(&locals[0], &global).unwrap(),
        ("high", TaskSource::Injector)
    );
    assert!(
        locals[0].is_empty(),
        "no High batch parked in worker 0's deque"
    );
    assert_eq!(global.len(Priority::High), 9);
    // Worker 1 gets a High task, not the Normal one.
    assert_eq!(
        find(&locals[1], &global).unwrap(),
        ("high", TaskSource::Injector)
    );
}

#[test]
fn without_injector_batches_every_external_task_is_found_at_the_injector() {
    let (global, locals) = work_queues(1);
    let global = global.without_injector_batches();
    for i in 0..10 {
        global.push(Priority::Normal, i);
    }
    for _ in 0..10 {
        assert_eq!(find(&locals[0], &global).unwrap().1, TaskSource::Injector);
        assert!(locals[0].is_empty());
    }
}

mod weighted_shares {
    use crate::{ClassShares, Priority};

    /// Runs `rounds` tasks on one worker whose classes in `busy` always
    /// have work (tasks of `task_ns[class]`); returns CPU ns per class.
    fn simulate(
        shares: &ClassShares,
        busy: [bool; 3],
        task_ns: [u64; 3],
        rounds: usize,
    ) -> [u64; 3] {
        let mut used = [0u64; 3];
        for _ in 0..rounds {
            let class = shares.order(busy)[0];
            assert!(busy[class.index()], "a class with work comes first");
            shares.charge(class, task_ns[class.index()]);
            used[class.index()] += task_ns[class.index()];
        }
        used
    }

    fn fractions(used: [u64; 3]) -> [f64; 3] {
        let total: u64 = used.iter().sum();
        used.map(|u| u as f64 / total as f64)
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn saturated_classes_share_cpu_time_in_proportion_to_their_weights() {
        let shares = ClassShares::new([16, 4, 1]);
        let used = simulate(&shares, [true; 3], [50_000, 100_000, 200_000], 20_000);
        let got = fractions(used);
        let want = [16.0 / 21.0, 4.0 / 21.0, 1.0 / 21.0];
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < 0.01,
                "class {i}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn two_saturated_classes_share_by_their_weights_alone() {
        let shares = ClassShares::new([16, 4, 1]);
        let used = simulate(&shares, [false, true, true], [1, 100_000, 200_000], 10_000);
        let got = fractions(used);
        assert!((got[1] - 0.8).abs() < 0.01, "{got:?}");
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn a_class_alone_gets_all_the_time() {
        let shares = ClassShares::new([16, 4, 1]);
        let used = simulate(&shares, [false, false, true], [1, 1, 200_000], 1_000);
        assert_eq!(used[0] + used[1], 0);
        assert_eq!(used[2], 200_000_000);
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn a_class_that_was_idle_rejoins_without_banked_credit() {
        let shares = ClassShares::new([1, 1, 1]);
        // Background alone for a long time; then Normal returns.
        simulate(&shares, [false, false, true], [1, 1, 100_000], 10_000);
        let used = simulate(&shares, [false, true, true], [1, 100_000, 100_000], 1_000);
        // Equal weights: an even split from the return on, not a long run
        // of Normal paying back the time it was away.
        let got = fractions(used);
        assert!((got[1] - 0.5).abs() < 0.01, "{got:?}");
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn a_class_returning_after_the_worker_was_idle_rejoins_without_banked_credit() {
        let shares = ClassShares::new([1, 1, 1]);
        simulate(&shares, [true, false, false], [100_000, 1, 1], 10);
        // Background alone for a long time, then no work at all; then High
        // returns first, alone, and Background after it.
        simulate(&shares, [false, false, true], [1, 1, 100_000], 10_000);
        shares.order([false; 3]);
        simulate(&shares, [true, false, false], [100_000, 1, 1], 10);
        let used = simulate(&shares, [true, false, true], [100_000, 1, 100_000], 1_000);
        // High rejoined where the virtual time stood when the worker went
        // idle, not where it had left it: an even split, not a long run of
        // High paying back the time Background ran alone.
        let got = fractions(used);
        assert!((got[0] - 0.5).abs() < 0.01, "{got:?}");
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn saturated_classes_keep_their_shares_when_the_worker_often_finds_nothing() {
        // Every few tasks the worker sees no work at all (producers that
        // fell behind), then every class again: the gaps must not move
        // the shares (a returning class is placed against where the
        // virtual time stood when the worker last ran a task, not against
        // whichever class happened to leave last).
        let shares = ClassShares::new([16, 4, 1]);
        let mut used = [0u64; 3];
        for round in 0..4_000 {
            let got = simulate(
                &shares,
                [true; 3],
                [50_000, 100_000, 200_000],
                1 + round % 7,
            );
            for i in 0..3 {
                used[i] += got[i];
            }
            shares.order([false; 3]);
        }
        let got = fractions(used);
        let want = [16.0 / 21.0, 4.0 / 21.0, 1.0 / 21.0];
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < 0.01,
                "class {i}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn high_within_its_share_goes_first_every_time_it_has_work() {
        // High needs 1/5 of the time, far below its 16/21 share: every time
        // it has a task it is first.
        let shares = ClassShares::new([16, 4, 1]);
        for round in 0..10_000 {
            let busy = [round % 5 == 0, false, true];
            let class = shares.order(busy)[0];
            if busy[0] {
                assert_eq!(class, Priority::High, "round {round}");
            }
            shares.charge(class, 50_000);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn classes_of_weight_u32_max_share_microsecond_tasks_evenly() {
        let shares = ClassShares::new([u32::MAX; 3]);
        let used = simulate(&shares, [true; 3], [1_000; 3], 30_000);
        let got = fractions(used);
        for (i, share) in got.iter().enumerate() {
            assert!((share - 1.0 / 3.0).abs() < 0.01, "class {i}: {got:?}");
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn weights_near_u32_max_keep_their_ratios_with_nanosecond_tasks() {
        let shares = ClassShares::new([u32::MAX, u32::MAX / 4, u32::MAX / 16]);
        let used = simulate(&shares, [true; 3], [1, 1, 1], 42_000);
        let got = fractions(used);
        let want = [16.0 / 21.0, 4.0 / 21.0, 1.0 / 21.0];
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < 0.01,
                "class {i}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of thousands of rounds: slow under miri; no unsafe code"
    )]
    fn shares_still_follow_the_weights_after_thirty_days_of_simulated_time() {
        const SECOND: u64 = 1_000_000_000;
        const DAY: u64 = 86_400 * SECOND;
        // Weight 1 is the class whose virtual runtime grows fastest.
        let shares = ClassShares::new([4, 2, 1]);
        let task_ns = [2 * SECOND, 3 * SECOND, 5 * SECOND];
        // 29 days of saturated classes: about 3 s per task on average.
        let rounds = (29 * DAY / (3 * SECOND)) as usize;
        simulate(&shares, [true; 3], task_ns, rounds);
        // The 30th day is shared by the weights as the first was.
        let used = simulate(&shares, [true; 3], task_ns, (DAY / (3 * SECOND)) as usize);
        let got = fractions(used);
        let want = [4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0];
        for i in 0..3 {
            assert!(
                (got[i] - want[i]).abs() < 0.01,
                "class {i}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
    fn classes_without_work_come_last() {
        let shares = ClassShares::new([1, 1, 100]);
        assert_eq!(
            shares.order([true, false, false]),
            [Priority::High, Priority::Background, Priority::Normal]
        );
    }
}

/// A drain racing a worker that takes batches from the injector: every
/// task ends up either taken by the worker's `find` or handed to the
/// drain, and none is left behind in the worker's deque (a batch on its way
/// when the drain looked), however the two interleave.
#[test]
fn a_drain_takes_every_task_a_worker_has_not_taken_even_a_batch_in_flight() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    // Under miri, whose threads run thousands of times slower, a few
    // rounds of a few batches still interleave the drain with a batch.
    let (rounds, n) = if cfg!(miri) { (3, 70) } else { (3_000, 300) };
    for round in 0..rounds {
        let (global, mut locals) = work_queues::<u32>(1);
        let global = Arc::new(global);
        let local = locals.pop().unwrap();
        for i in 0..n {
            global.push(Priority::Normal, i);
        }
        let drained_all = Arc::new(AtomicBool::new(false));
        let worker = {
            let global = Arc::clone(&global);
            let drained_all = Arc::clone(&drained_all);
            std::thread::spawn(move || {
                // (task, whether the drain had returned before the take began)
                let mut taken = Vec::new();
                loop {
                    let after = drained_all.load(Ordering::Acquire);
                    match local.find(&global) {
                        Some(found) => taken.push((found.task, after)),
                        None if after => return taken,
                        None => std::hint::spin_loop(),
                    }
                }
            })
        };
        // Let the worker get going, by a varying amount.
        for _ in 0..(round % 64) * 16 {
            std::hint::spin_loop();
        }
        let mut drained = Vec::new();
        global.drain(|found| drained.push(found.task));
        drained_all.store(true, Ordering::Release);
        let taken = worker.join().unwrap();
        let late: Vec<u32> = taken.iter().filter(|t| t.1).map(|t| t.0).collect();
        assert!(
            late.is_empty(),
            "round {round}: the drain left {} tasks in the worker's deque",
            late.len()
        );
        let mut all: Vec<u32> = taken.iter().map(|t| t.0).chain(drained).collect();
        all.sort_unstable();
        assert_eq!(all, (0..n).collect::<Vec<_>>(), "round {round}");
    }
}

#[test]
fn a_scan_looks_only_at_classes_that_have_had_work() {
    let (global, locals) = work_queues::<&str>(2);
    assert!(global.classes_seen().is_empty());
    global.push(Priority::Background, "b");
    locals[1].push(Priority::High, "h");
    let seen: Vec<_> = global.classes_seen().iter().collect();
    assert_eq!(seen, [Priority::High, Priority::Background]);
    // The injector before the peers, as always.
    assert_eq!(locals[0].find(&global).unwrap().task, "b");
    assert_eq!(locals[0].find(&global).unwrap().task, "h");
    assert!(locals[0].find(&global).is_none());
}
