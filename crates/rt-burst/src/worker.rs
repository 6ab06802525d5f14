//! The loop a worker thread runs: take an item, run the handler, park when
//! the queue is empty, exit when it is empty and closed.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rt_handle::raw::drop_quietly;

use crate::mailbox::{Mailbox, Next};

/// Runs `handler` on every item of `mailbox` until the mailbox is closed and
/// drained. A panicking handler is caught and counted; the same handler then
/// gets the next item (its own state is whatever the panic left).
///
/// No spinning before parking: bursts are separated by idle periods much
/// longer than any useful spin, so a spin would only burn CPU (`WAKE.md`).
pub(crate) fn run<T, F: FnMut(T)>(mailbox: &Mailbox<T>, mut handler: F) {
    loop {
        match mailbox.next() {
            Next::Item(item) => {
                let result = catch_unwind(AssertUnwindSafe(|| handler(item)));
                mailbox.count(result.is_err());
                if let Err(payload) = result {
                    drop_quietly(payload);
                }
            }
            Next::Park => mailbox.wait(),
            Next::Exit => return,
        }
    }
}
