//! With the `tracing` feature, each task runs in an `rt.task` span whose
//! parent is the span current where it was spawned: a request's span
//! follows its CPU work onto the pool, through nested spawns too.
#![cfg(feature = "tracing")]

mod support;

use std::sync::Arc;

use rt_core::Runtime;
use support::spans::Spans;
use support::without_hanging;

#[test]
fn a_task_runs_in_a_span_whose_parent_is_the_spawners_span_even_when_nested() {
    let spans = Spans::install_globally();
    without_hanging(move || {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let request = tracing::info_span!("request");
        let inner = rt.clone();
        let outcome = request.in_scope(|| {
            rt.spawn(move || {
                // Inside the task: a span of its own, and a nested spawn.
                let _work = tracing::info_span!("parse").entered();
                inner
                    .spawn(|| tracing::info_span!("hash").in_scope(|| 7))
                    .join()
            })
            .join()
        });
        assert_eq!(outcome, Ok(Ok(7)));
        let tasks = spans.parents_of("rt.task");
        assert_eq!(tasks.len(), 2, "{:?}", spans.all());
        assert!(tasks.contains(&Some("request".into())), "{:?}", spans.all());
        assert!(tasks.contains(&Some("parse".into())), "{:?}", spans.all());
        assert_eq!(spans.parents_of("parse"), vec![Some("rt.task".into())]);
        assert_eq!(spans.parents_of("hash"), vec![Some("rt.task".into())]);
    });
}
