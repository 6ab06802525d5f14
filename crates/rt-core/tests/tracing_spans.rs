//! With the `tracing` feature, each task runs in an `rt.task` span whose
//! parent is the span current where it was spawned: a request's span
//! follows its CPU work onto the pool, through nested spawns too.
#![cfg(feature = "tracing")]

mod support;

use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use support::without_hanging;
use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// A span's name and its parent's name.
type Created = (String, Option<String>);

/// Every span created.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<Created>>>);

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, _attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let span = ctx.span(id).expect("the registry knows the new span");
        let parent = span.parent().map(|p| p.name().to_owned());
        self.0
            .lock()
            .unwrap()
            .push((span.name().to_owned(), parent));
    }
}

#[test]
fn a_task_runs_in_a_span_whose_parent_is_the_spawners_span_even_when_nested() {
    let spans = Spans::default();
    // Global: the workers' threads must see the same subscriber.
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(spans.clone()))
        .expect("the only subscriber of this test binary");
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
        let spans = spans.0.lock().unwrap().clone();
        let parent_of = |name: &str| -> Vec<Option<String>> {
            spans
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, p)| p.clone())
                .collect()
        };
        let tasks = parent_of("rt.task");
        assert_eq!(tasks.len(), 2, "{spans:?}");
        assert!(tasks.contains(&Some("request".into())), "{spans:?}");
        assert!(tasks.contains(&Some("parse".into())), "{spans:?}");
        assert_eq!(parent_of("parse"), vec![Some("rt.task".into())]);
        assert_eq!(parent_of("hash"), vec![Some("rt.task".into())]);
    });
}
