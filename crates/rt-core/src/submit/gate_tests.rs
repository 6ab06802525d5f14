//! Unit tests of the submission gate on its own: the state changes each
//! call makes. They also run under miri (`cargo xtask miri`); the loom
//! model in `loom_shutdown.rs` covers the interleavings.

use crate::shared::gate::{AfterLeave, SubmitGate};

#[test]
fn an_open_gate_lets_submitters_through_and_counts_the_accepted_ones() {
    let gate = SubmitGate::new();
    assert_eq!(gate.enter(), Ok(()));
    assert!(!gate.is_closed_and_quiet());
    gate.count_accepted();
    assert_eq!(gate.leave(), AfterLeave::Nothing);
    assert_eq!(gate.accepted(), 1);
    assert!(!gate.is_closed());
}

#[test]
fn a_closed_gate_refuses_and_reads_quiet_once_nobody_is_inside() {
    let gate = SubmitGate::new();
    assert!(gate.close(), "the first close closes");
    assert!(!gate.close(), "a second close changes nothing");
    assert!(gate.is_closed_and_quiet());
    assert_eq!(gate.enter(), Err(AfterLeave::WakeAll));
    assert!(
        gate.is_closed_and_quiet(),
        "a refused submitter leaves again"
    );
    assert_eq!(gate.accepted(), 0);
}

#[test]
fn the_last_submitter_to_leave_a_gate_closed_behind_it_wakes_everyone() {
    let gate = SubmitGate::new();
    assert_eq!(gate.enter(), Ok(()));
    assert_eq!(gate.enter(), Ok(()));
    gate.close();
    assert!(!gate.is_closed_and_quiet(), "two pushes still in flight");
    gate.count_accepted();
    assert_eq!(gate.leave(), AfterLeave::Nothing);
    gate.count_accepted();
    assert_eq!(gate.leave(), AfterLeave::WakeAll);
    assert!(gate.is_closed_and_quiet());
    assert_eq!(gate.accepted(), 2);
}
