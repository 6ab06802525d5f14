//! Unit marks: what a unit of work that began at some marks may pop back
//! from its worker's own deques, whatever thieves took meanwhile.

use rt_queue::{work_queues, GlobalQueues, Priority};

use super::OwnDeques;

const N: Priority = Priority::Normal;

/// Two workers' queues: worker 0's deques with their counts, and the
/// global half through which a test steals from them.
fn owner_and_queues() -> (OwnDeques<&'static str>, GlobalQueues<&'static str>) {
    let (global, mut locals) = work_queues(2);
    drop(locals.pop());
    (OwnDeques::new(locals.pop().unwrap()), global)
}

#[test]
fn a_units_own_task_is_popped_even_after_thieves_took_every_older_one() {
    let (owner, global) = owner_and_queues();
    let owner = &owner;
    owner.push(N, "older 1");
    owner.push(N, "older 2");
    let marks = owner.marks();
    owner.push(N, "mine");
    // Thieves take from the old end: both older tasks go first, leaving the
    // deque exactly as long as when the unit began.
    assert_eq!(global.steal_from(0), Some(("older 1", N)));
    assert_eq!(global.steal_from(0), Some(("older 2", N)));
    assert!(owner.holds_above(N, marks));
    assert_eq!(owner.pop_above_any(marks), Some(("mine", N)));
    assert_eq!(owner.pop_above_any(marks), None);
}

#[test]
fn tasks_pushed_before_the_marks_are_never_popped_above_them() {
    let (owner, global) = owner_and_queues();
    let owner = &owner;
    owner.push(N, "older 1");
    owner.push(N, "older 2");
    let marks = owner.marks();
    assert!(!owner.holds_above(N, marks));
    assert_eq!(owner.pop_above(N, marks), None);
    owner.push(N, "mine");
    assert_eq!(owner.pop_above(N, marks), Some("mine"));
    assert_eq!(owner.pop_above(N, marks), None);
    // The older tasks are still there for thieves (and for the unit around).
    assert_eq!(global.steal_from(0), Some(("older 1", N)));
    assert_eq!(global.steal_from(0), Some(("older 2", N)));
}

#[test]
fn once_thieves_took_the_units_own_tasks_too_nothing_is_left_to_pop() {
    let (owner, global) = owner_and_queues();
    let owner = &owner;
    owner.push(N, "older");
    let marks = owner.marks();
    owner.push(N, "mine 1");
    owner.push(N, "mine 2");
    assert_eq!(global.steal_from(0), Some(("older", N)));
    assert_eq!(global.steal_from(0), Some(("mine 1", N)));
    assert_eq!(global.steal_from(0), Some(("mine 2", N)));
    assert!(!owner.holds_above(N, marks));
    assert_eq!(owner.pop_above_any(marks), None);
    // A push after that is the unit's again.
    owner.push(N, "mine 3");
    assert_eq!(owner.pop_above_any(marks), Some(("mine 3", N)));
}

#[test]
fn nested_marks_pop_only_what_the_inner_unit_pushed() {
    let (owner, _global) = owner_and_queues();
    let owner = &owner;
    let outer = owner.marks();
    owner.push(N, "outer's");
    let inner = owner.marks();
    owner.push(Priority::High, "inner's high");
    owner.push(N, "inner's");
    assert_eq!(
        owner.pop_above_any(inner),
        Some(("inner's high", Priority::High))
    );
    assert_eq!(owner.pop_above_any(inner), Some(("inner's", N)));
    assert_eq!(owner.pop_above_any(inner), None);
    assert_eq!(owner.pop_above_any(outer), Some(("outer's", N)));
}
