//! A waker that counts its wakes, to poll futures by hand in tests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Wake, Waker};

/// How many times the waker of [`counting_waker`] was woken.
#[derive(Debug, Default)]
pub struct WakeCount(AtomicUsize);

impl WakeCount {
    /// The wakes so far.
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

impl Wake for WakeCount {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A fresh waker and the count of its wakes.
///
/// ```
/// let (count, waker) = rt_testkit::counting_waker();
/// waker.wake_by_ref();
/// assert_eq!(count.get(), 1);
/// ```
pub fn counting_waker() -> (Arc<WakeCount>, Waker) {
    let count = Arc::new(WakeCount::default());
    (count.clone(), Waker::from(count))
}
