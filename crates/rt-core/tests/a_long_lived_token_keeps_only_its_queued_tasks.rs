//! A token given to many tasks over a long time keeps only the tasks
//! queued at the moment: every task that ran (or ended otherwise) leaves
//! it, so its memory stays bounded by what is queued, not by what it was
//! ever given. (`CancellationToken::queued_tasks` is a hidden accessor for
//! tests and diagnostics.)

mod support;

use rt_core::{CancellationToken, Priority, Runtime};
use support::{scaled, without_hanging};

#[test]
fn a_token_whose_hundred_thousand_tasks_all_ran_keeps_none_of_them() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let n = scaled(100_000);
        let mut peak = 0;
        for round in 0..10 {
            let handles: Vec<_> = (0..n / 10)
                .map(|i| {
                    let priority = Priority::ALL[(round + i) % 3];
                    rt.spawn_cancellable(priority, &token, move |_| i)
                })
                .collect();
            peak = peak.max(token.queued_tasks());
            // Half joined, half dropped (they run alone).
            for (i, h) in handles.into_iter().enumerate() {
                if i % 2 == 0 {
                    assert_eq!(h.join(), Ok(i));
                }
            }
        }
        rt.shutdown();
        // A round's dropped handles may still be queued when the next
        // round starts: at most two rounds' tasks at once, of the ten
        // rounds the token was given.
        assert!(
            peak < 2 * n / 10,
            "at most two rounds queued at once: {peak}"
        );
        assert_eq!(
            token.queued_tasks(),
            0,
            "every task that ran left the token"
        );
        let m = rt.metrics();
        assert_eq!(m.completed, n as u64, "{m:?}");
        assert_eq!(m.cancelled, 0);
        token.cancel(); // nothing left to cancel
        assert_eq!(rt.metrics().cancelled, 0);
    })
}
