//! Unit marks: what a unit of work that began at some marks may pop back
//! from its worker's own deques, whatever thieves took meanwhile.

use crate::{work_queues, Priority};

const N: Priority = Priority::Normal;

#[test]
fn a_units_own_task_is_popped_even_after_thieves_took_every_older_one() {
    let (global, locals) = work_queues::<&str>(2);
    let owner = &locals[0];
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
    let (global, locals) = work_queues::<&str>(2);
    let owner = &locals[0];
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
    let (global, locals) = work_queues::<&str>(2);
    let owner = &locals[0];
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
    let (_global, locals) = work_queues::<&str>(1);
    let owner = &locals[0];
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
