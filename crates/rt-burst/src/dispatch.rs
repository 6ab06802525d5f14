//! Choosing a worker for each item: round-robin from a cursor, preferring a
//! parked worker over a busy one.

use crate::error::SendError;
use crate::pool::BurstPool;
use crate::sync::Ordering;
use crate::wake_set::WakeSet;

impl<T: Send + 'static> BurstPool<T> {
    /// Gives `item` to one worker, chosen round-robin, and wakes it if it
    /// is parked.
    ///
    /// From the cursor (the worker after the last one chosen), the first
    /// *parked* worker gets it; if none is parked, the first worker whose
    /// queue has room does. So with every worker in the same state the order
    /// is exactly 0, 1, 2, …, and a worker still busy with a long item is
    /// skipped while another sits parked.
    ///
    /// Returns the item in [`SendError::Full`] when every queue is full (or
    /// there is no worker), and in [`SendError::Closed`] after
    /// [`shutdown`](Self::shutdown).
    ///
    /// ```
    /// use rt_burst::{BurstPool, SendError};
    ///
    /// let mut pool = BurstPool::new();
    /// assert!(matches!(pool.send("no worker yet"), Err(SendError::Full(_))));
    /// pool.spawn_worker(|line: &str| assert!(!line.is_empty()));
    /// pool.send("hello")?;
    /// pool.shutdown();
    /// assert_eq!(pool.send("too late"), Err(SendError::Closed("too late")));
    /// # Ok::<(), SendError<&str>>(())
    /// ```
    pub fn send(&self, item: T) -> Result<(), SendError<T>> {
        if self.closed.load(Ordering::Acquire) {
            return Err(SendError::Closed(item));
        }
        let mut look_for_parked = true;
        let target = self.place(item, &mut look_for_parked)?;
        self.workers[target].wake();
        Ok(())
    }

    /// Spreads `items` over the workers like repeated [`send`](Self::send)s
    /// (parked workers first, then round-robin), but queues *every* item
    /// before waking anyone, and wakes each target worker once, however many
    /// items it got.
    ///
    /// Stops at the first item no queue has room for: that item and all the
    /// ones after it come back, in order, in [`SendError::Full`]; after
    /// shutdown all of them come back in [`SendError::Closed`]. The items
    /// queued before the error are handled as usual.
    ///
    /// ```
    /// use rt_burst::{BurstPool, SendError};
    ///
    /// let mut pool = BurstPool::builder().queue_capacity(2).build().unwrap();
    /// let gate = std::sync::Arc::new(std::sync::Barrier::new(2));
    /// let g = gate.clone();
    /// pool.spawn_worker(move |first: bool| if first { g.wait(); });
    /// pool.send(true).unwrap();                 // the worker now waits on the barrier
    /// # while pool.stats().queued() > 0 { std::thread::yield_now(); }
    /// let rest = pool.send_burst([false, false, false]).unwrap_err();
    /// assert_eq!(rest, SendError::Full(vec![false])); // two fit, one came back
    /// gate.wait();
    /// ```
    pub fn send_burst<I>(&self, items: I) -> Result<(), SendError<Vec<T>>>
    where
        I: IntoIterator<Item = T>,
    {
        let mut items = items.into_iter();
        if self.closed.load(Ordering::Acquire) {
            return Err(SendError::Closed(items.collect()));
        }
        // Unparks every claimed worker when dropped: at the end, on an
        // error, or if `items` panics.
        let mut wake = WakeSet::new(&self.workers);
        let mut look_for_parked = true;
        while let Some(item) = items.next() {
            match self.place(item, &mut look_for_parked) {
                Ok(target) => {
                    if self.workers[target].mailbox.claim_wake() {
                        wake.insert(target);
                    }
                }
                Err(err) => {
                    drop(wake);
                    return Err(err.map(|first| std::iter::once(first).chain(items).collect()));
                }
            }
        }
        Ok(())
    }

    /// Queues `item` on the chosen worker and returns its index; does not
    /// wake it. `look_for_parked` is cleared once a search finds no parked
    /// worker, so a long burst stops scanning for them (a worker that parks
    /// meanwhile still gets its round-robin share and is woken).
    fn place(&self, mut item: T, look_for_parked: &mut bool) -> Result<usize, SendError<T>> {
        let n = self.workers.len();
        if n == 0 {
            return Err(SendError::Full(item));
        }
        let start = self.cursor.load(Ordering::Relaxed) % n;
        let order = (start..n).chain(0..start);
        if *look_for_parked {
            let mut saw_parked = false;
            for w in order.clone() {
                if !self.workers[w].mailbox.is_parked() {
                    continue;
                }
                saw_parked = true;
                match self.workers[w].mailbox.push(item) {
                    Ok(()) => return Ok(self.chose(w, n)),
                    // Another producer filled it since it parked.
                    Err(SendError::Full(back)) => item = back,
                    Err(closed) => return Err(closed),
                }
            }
            *look_for_parked = saw_parked;
        }
        for w in order {
            match self.workers[w].mailbox.push(item) {
                Ok(()) => return Ok(self.chose(w, n)),
                Err(SendError::Full(back)) => item = back,
                Err(closed) => return Err(closed),
            }
        }
        Err(SendError::Full(item))
    }

    /// Moves the cursor past the chosen worker. With several producers the
    /// cursor is shared and updated without a lock: each item still goes to
    /// exactly one worker, the rotation is merely approximate.
    #[inline]
    fn chose(&self, worker: usize, n: usize) -> usize {
        self.cursor.store((worker + 1) % n, Ordering::Relaxed);
        worker
    }
}
