//! What a cancellation token keeps besides its flag: the tasks queued with
//! it, so that [`cancel`](crate::CancellationToken::cancel) ends each of
//! them before it returns (`JOIN_STATE.md`, "Tasks queued with a token").
//!
//! A task made by [`Job::cancellable`](crate::Job::cancellable) is a cell
//! whose completion is a [`TokenLink`]: the context its body receives and
//! its links in the token's list. The list is intrusive (the token links,
//! inside the cells, are its nodes; each names its cell while it is on the
//! list), so the token holds no memory of its own per task, and a task is
//! on it only from its creation until its queue side is consumed: a token
//! that lives for hours with millions of tasks holds only the tasks queued
//! right now.
//!
//! Why a cell on the list is always live: the queue side leaves the list
//! (`TokenLink::leave`, under the token's lock) as the first step of every
//! consumption of the `Job` (run, run for its joiner, discard, cancel,
//! drop), and the cell is freed only after the queue side let go. A cancel
//! takes cells off the list and claims them under the same lock, so a cell
//! it claims is live; it then finishes them (drops their bodies, completes
//! them, wakes their joiners) outside the lock, holding a pin (`PINNED`)
//! that keeps the queue side from letting go under it
//! (`header::release_queue_side`, `header::unpin`). So no user code
//! (a capture's `Drop`, a joiner's waker) runs under the token's lock.

use std::cell::Cell;
use std::ptr::{self, NonNull};

use crate::header::unpin;
use crate::header::{Header, TaskRef, CANCELLED, PINNED, TOLD};
use crate::poison::unpoison;
use crate::raw::listeners;
use crate::sync::{AtomicBool, Condvar, Mutex, Ordering, UnsafeCell};
use crate::{CancellationContext, JoinError};

/// How many tasks a cancel takes off the list and claims under the lock
/// before it finishes them outside it.
const BATCH: usize = 64;

/// The shared state of a token and its clones.
pub(crate) struct TokenState {
    /// Set once, by the first `cancel`.
    cancelled: AtomicBool,
    /// The tasks queued with the token whose queue side was not consumed.
    queued: Mutex<Queued>,
    /// Signalled when no cancel has a batch in flight any more.
    batches_finished: Condvar,
}

/// The token's list of queued tasks, behind its lock.
struct Queued {
    /// The newest task's link; each links to the next older one.
    head: Option<NonNull<TokenLink>>,
    /// How many tasks are on the list.
    len: usize,
    /// Batches taken off the list and claimed by a cancel that has not yet
    /// finished them (outside the lock).
    in_flight: usize,
}

// SAFETY: the pointers are to cells of `Send` tasks, reached only under
// the token's lock while they are on the list (hence live).
unsafe impl Send for Queued {}

/// What a task queued with a token keeps in its cell (its completion): the
/// context its body receives, and its links in the token's list.
pub(crate) struct TokenLink {
    context: CancellationContext,
    /// Whether the task was put on the list when it was made (the token
    /// was not cancelled then): if not, it never is, and leaving costs no
    /// lock. Written before the job is handed out; read-only after.
    listed: bool,
    /// Written and read only under the token's lock.
    links: UnsafeCell<Links>,
}

// SAFETY: `context` is `Send + Sync`; `links` is touched only under the
// token's lock; `listed` is read-only once the job is shared.
unsafe impl Send for TokenLink {}
// SAFETY: as above.
unsafe impl Sync for TokenLink {}

#[derive(Clone, Copy)]
struct Links {
    prev: Option<NonNull<TokenLink>>,
    next: Option<NonNull<TokenLink>>,
    /// The cell this link is in, while it is on the list (`None` off it).
    task: Option<NonNull<Header>>,
}

const UNLINKED: Links = Links {
    prev: None,
    next: None,
    task: None,
};

/// Where this thread finishes a cancel's batch: a chain through the stack
/// frames of nested finishes (a capture's `Drop` may cancel a token too).
struct Finishing {
    token: *const TokenState,
    outer: *const Finishing,
}

#[cfg(not(loom))]
std::thread_local! {
    static FINISHING: Cell<*const Finishing> = const { Cell::new(ptr::null()) };
}

#[cfg(loom)]
loom::thread_local! {
    static FINISHING: Cell<*const Finishing> = Cell::new(ptr::null());
}

impl TokenState {
    pub(crate) fn new() -> Self {
        Self {
            cancelled: AtomicBool::new(false),
            queued: Mutex::new(Queued {
                head: None,
                len: 0,
                in_flight: 0,
            }),
            batches_finished: Condvar::new(),
        }
    }

    /// True once `cancel` has begun.
    #[inline]
    pub(crate) fn is_cancelled(&self) -> bool {
        // Acquire pairs with the Release of `cancel`: a body that sees the
        // flag sees what the canceller wrote before.
        self.cancelled.load(Ordering::Acquire)
    }

    /// How many tasks are on the list now.
    pub(crate) fn queued_tasks(&self) -> usize {
        unpoison(self.queued.lock()).len
    }

    /// Puts `link`, in the cell `task` just made, on the list, unless the
    /// token is cancelled.
    ///
    /// # Safety
    ///
    /// `task` heads a live cell holding `link` (whose `listed` is true),
    /// whose queue side the caller holds and has not handed out.
    unsafe fn register(&self, link: &TokenLink, task: NonNull<Header>) {
        let mut queued = unpoison(self.queued.lock());
        // Relaxed: `cancel` sets the flag under this lock, so either it did
        // before (seen here: the task stays off the list, and its body's
        // check cancels it) or it will take the task off the list.
        if self.cancelled.load(Ordering::Relaxed) {
            return;
        }
        let next = queued.head;
        let this = NonNull::from(link);
        // SAFETY: the cells are live (the caller's; those on the list), and
        // their links are touched only under the lock, which we hold.
        unsafe {
            link.links.with_mut(|l| {
                *l = Links {
                    prev: None,
                    next,
                    task: Some(task),
                }
            });
            if let Some(next) = next {
                next.as_ref().links.with_mut(|l| (*l).prev = Some(this));
            }
        }
        queued.head = Some(this);
        queued.len += 1;
    }

    /// Takes `link` off the list; returns the cell it is in.
    ///
    /// # Safety
    ///
    /// The caller holds the lock (`queued` is its guard's contents), and
    /// `link` is on the list.
    unsafe fn unlink(queued: &mut Queued, link: NonNull<TokenLink>) -> NonNull<Header> {
        // SAFETY: the cells on the list are live, their links are touched
        // only under the lock.
        let task = unsafe {
            let Links { prev, next, task } = link.as_ref().links.with_mut(|l| {
                let old = *l;
                *l = UNLINKED;
                old
            });
            match prev {
                Some(prev) => prev.as_ref().links.with_mut(|l| (*l).next = next),
                None => queued.head = next,
            }
            if let Some(next) = next {
                next.as_ref().links.with_mut(|l| (*l).prev = prev);
            }
            task.expect("a link on the list names its cell")
        };
        queued.len -= 1;
        task
    }

    /// Cancels every task on the list (see
    /// [`CancellationToken::cancel`](crate::CancellationToken::cancel)):
    /// under the lock, sets the flag and takes the tasks off the list,
    /// claiming each that nobody claimed before (a joiner running it, its
    /// handle's cancel); outside it, finishes them. Returns once no cancel
    /// of this token has a batch in flight, unless this thread is itself
    /// finishing one (a capture's `Drop` that cancels the token again).
    pub(crate) fn cancel(&self) {
        let mut found = listeners::Found::default();
        let mut queued = unpoison(self.queued.lock());
        // Release pairs with the Acquire of `is_cancelled`; under the lock,
        // for `register`.
        self.cancelled.store(true, Ordering::Release);
        loop {
            let mut batch = [None; BATCH];
            let mut claimed = 0;
            while claimed < BATCH {
                let Some(link) = queued.head else { break };
                // SAFETY: we hold the lock, and the link is on the list.
                let task = unsafe { Self::unlink(&mut queued, link) };
                // SAFETY: on the list under the lock we still hold, so its
                // queue side is unconsumed (that unlinks it first): live.
                if unsafe { claim(task, &mut found) } {
                    batch[claimed] = Some(task);
                    claimed += 1;
                }
            }
            if claimed == 0 {
                break;
            }
            queued.in_flight += 1;
            drop(queued);
            self.finish(&batch[..claimed]);
            queued = unpoison(self.queued.lock());
            queued.in_flight -= 1;
            if queued.in_flight == 0 {
                self.batches_finished.notify_all();
            }
        }
        if !self.finished_here() {
            while queued.in_flight > 0 {
                queued = unpoison(self.batches_finished.wait(queued));
            }
        }
        drop(queued);
        // The listeners, dropped outside the lock.
        drop(found);
    }

    /// Finishes the tasks of a batch this cancel claimed: drops each body
    /// (a panic of a capture's `Drop` is contained), completes the task as
    /// cancelled (waking its joiner), and unpins it. No lock is held.
    fn finish(&self, batch: &[Option<NonNull<Header>>]) {
        let frame = Finishing {
            token: self,
            outer: FINISHING.with(Cell::get),
        };
        FINISHING.with(|f| f.set(&frame));
        for &task in batch.iter().flatten() {
            // SAFETY: claimed with PINNED: the queue side does not let go
            // before `unpin`, so the cell is live until then.
            unsafe { TaskRef::new(task) }.drop_body_and_complete(CANCELLED);
            // SAFETY: claimed with PINNED by this cancel; the last access.
            unsafe { unpin(task) };
        }
        FINISHING.with(|f| f.set(frame.outer));
    }

    /// Whether this thread is inside `finish` for this token.
    fn finished_here(&self) -> bool {
        let mut frame = FINISHING.with(Cell::get);
        while !frame.is_null() {
            // SAFETY: the frames on the chain live on this thread's stack,
            // in `finish` calls that have not returned.
            let Finishing { token, outer } = unsafe { &*frame };
            if ptr::eq(*token, self) {
                return true;
            }
            frame = *outer;
        }
        false
    }
}

impl Drop for TokenState {
    fn drop(&mut self) {
        // Every task on the list holds a reference to the token.
        debug_assert_eq!(unpoison(self.queued.lock()).len, 0);
    }
}

/// A token's cancel claims `task`, just taken off the list: `PINNED`, and
/// `TOLD` if the executor that accepted it registered a listener, which
/// then counts it here (still under the lock: the queue side, which takes
/// the lock before it looks at the state, finds `COUNTED`). False if
/// somebody claimed it before (a joiner runs it inline; its handle
/// cancelled it).
///
/// # Safety
///
/// `task` heads a live cell, which the caller took off its token's list
/// under the lock it still holds.
unsafe fn claim(task: NonNull<Header>, found: &mut listeners::Found) -> bool {
    // SAFETY: per the contract; the pin of a successful claim keeps it
    // live after the lock is released.
    let task = unsafe { TaskRef::new(task) };
    let header = task.header();
    let told = header
        .owner_and_class()
        .and_then(|(pool, class)| Some((found.get(pool)?, class)));
    let extra = PINNED | if told.is_some() { TOLD } else { 0 };
    if header.claim(extra).is_err() {
        return false;
    }
    if let Some((listener, class)) = told {
        task.count_told(&**listener, class);
    }
    true
}

impl TokenLink {
    /// The link of a new task queued with the token of `context`.
    pub(crate) fn new(context: CancellationContext) -> Self {
        Self {
            listed: !context.is_cancelled(),
            context,
            links: UnsafeCell::new(UNLINKED),
        }
    }

    /// The token's shared state.
    fn token(&self) -> &TokenState {
        self.context.token().state()
    }

    /// Puts the new task this link belongs to on its token's list (unless
    /// the token is cancelled by now).
    ///
    /// # Safety
    ///
    /// `task` heads the live cell of this link, whose queue side the
    /// caller holds and has not handed out.
    pub(crate) unsafe fn register(&self, task: NonNull<Header>) {
        if self.listed {
            // SAFETY: per this function's contract.
            unsafe { self.token().register(self, task) };
        }
    }

    /// The queue side of this link's cell is being consumed: the task
    /// leaves its token's list if it is on it. Taking the lock also orders
    /// a claim a cancel made before, under it, before what the caller does
    /// next.
    pub(crate) fn leave(&self) {
        if !self.listed {
            return;
        }
        let token = self.token();
        let mut queued = unpoison(token.queued.lock());
        // SAFETY: we hold the lock.
        if self.links.with(|l| unsafe { (*l).task.is_some() }) {
            // SAFETY: we hold the lock, and the link is on the list.
            unsafe { TokenState::unlink(&mut queued, NonNull::from(self)) };
        }
    }
}

/// The body of a task queued with a token: the caller's closure, given
/// the context kept in the task's [`TokenLink`] (so that the task holds one
/// reference to the token, not two). Skipped if the token was cancelled
/// by the time the body starts (it may be, without the task being on the
/// token's list: cancelled before it was made, or while it started).
pub(crate) struct WithToken<F>(pub(crate) F);

impl TokenLink {
    /// Runs `body` with the context this link keeps, unless the token was
    /// cancelled by the time it starts: the body of a task queued with a
    /// token (`WithToken`, the cell's `Body`, in `task_cell.rs`).
    #[inline]
    pub(crate) fn call<T>(
        &self,
        body: impl FnOnce(&CancellationContext) -> T,
    ) -> Result<T, JoinError> {
        if self.context.is_cancelled() {
            Err(JoinError::Cancelled)
        } else {
            Ok(body(&self.context))
        }
    }
}
