//! A `tracing` layer that records every span made: its name and its
//! parent's name.

use std::sync::{Arc, Mutex};

use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// A span's name and its parent's name.
pub type Created = (String, Option<String>);

/// Every span made while the layer was installed.
#[derive(Clone, Default)]
pub struct Spans(Arc<Mutex<Vec<Created>>>);

impl Spans {
    /// Installs a registry with this layer as the global default: workers'
    /// threads must see the same subscriber. Once per test binary.
    pub fn install_globally() -> Self {
        let spans = Spans::default();
        tracing::subscriber::set_global_default(tracing_subscriber::registry().with(spans.clone()))
            .expect("the only subscriber of this test binary");
        spans
    }

    /// Every span made so far.
    pub fn all(&self) -> Vec<Created> {
        self.0.lock().unwrap().clone()
    }

    /// The parents of every span called `name`, in the order they were made.
    pub fn parents_of(&self, name: &str) -> Vec<Option<String>> {
        self.all()
            .into_iter()
            .filter(|(n, _)| n == name)
            .map(|(_, p)| p)
            .collect()
    }
}

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
