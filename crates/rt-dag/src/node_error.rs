//! The error a fallible task returned, kept typed for the caller.

use std::any::type_name;
use std::error::Error;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The error a fallible task's closure returned
/// ([`TaskGraph::add_fallible_task`](crate::TaskGraph::add_fallible_task)),
/// as [`NodeStatus::Failed`](crate::NodeStatus::Failed) keeps it: the error
/// itself, shared, readable as its own type with
/// [`downcast_ref`](Self::downcast_ref).
///
/// It displays as the error does, and is an [`Error`] whose source is the
/// error's own source. Two are equal when they were returned as the same
/// type and display the same text. A clone shares the error.
///
/// ```
/// use rt_dag::{NodeStatus, TaskGraph};
///
/// #[derive(Debug, thiserror::Error)]
/// #[error("disk full: {free} bytes left")]
/// struct DiskFull {
///     free: u64,
/// }
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let mut graph = TaskGraph::new();
/// let write = graph.add_fallible_task(|_| -> Result<u64, DiskFull> { Err(DiskFull { free: 12 }) });
/// let outcome = graph.run(&rt);
/// let NodeStatus::Failed(error) = outcome.status(write).unwrap() else { unreachable!() };
/// assert_eq!(error.to_string(), "disk full: 12 bytes left");
/// assert_eq!(error.downcast_ref::<DiskFull>().unwrap().free, 12);
/// assert!(error.type_name().ends_with("DiskFull"));
/// ```
#[derive(Clone)]
pub struct NodeError {
    error: Arc<dyn Error + Send + Sync + 'static>,
    type_name: &'static str,
}

impl NodeError {
    /// Keeps `error`, returned by a closure as an `E`.
    pub(crate) fn new<E>(error: E) -> Self
    where
        E: Into<Box<dyn Error + Send + Sync + 'static>>,
    {
        let boxed: Box<dyn Error + Send + Sync + 'static> = error.into();
        Self {
            error: Arc::from(boxed),
            type_name: type_name::<E>(),
        }
    }

    /// The error as an `E`, if it is one: the closure returned an `E` (an
    /// error type), or a `Box<dyn Error>` holding one. A `String` or `&str`
    /// error is kept as a boxed error with its text, which is not a
    /// `String`: read it with `to_string`.
    pub fn downcast_ref<E: Error + 'static>(&self) -> Option<&E> {
        self.error.downcast_ref::<E>()
    }

    /// The error, as a trait object.
    pub fn as_error(&self) -> &(dyn Error + Send + Sync + 'static) {
        &*self.error
    }

    /// The name of the type the closure returned as its error (as
    /// [`std::any::type_name`] gives it).
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl fmt::Debug for NodeError {
    /// The error's own `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.error, f)
    }
}

impl Error for NodeError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.error.source()
    }
}

impl PartialEq for NodeError {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && self.to_string() == other.to_string()
    }
}

impl Eq for NodeError {}

impl Hash for NodeError {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.type_name.hash(state);
        self.to_string().hash(state);
    }
}
