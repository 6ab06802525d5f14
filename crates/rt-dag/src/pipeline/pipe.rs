//! Pipes: stages that carry no data, chosen at run time (Taskflow's
//! `Pipe` and `ScalablePipeline`). Each is a closure of the stage's
//! context; items are tokens, and data goes through buffers the user
//! indexes by [`StageContext::line`].

use std::cell::UnsafeCell;
use std::fmt;

use super::context::StageContext;
use super::stage::{Call, StageKind};

type SerialBody<'a> = Box<dyn FnMut(&mut StageContext) + Send + 'a>;
type ParallelBody<'a> = Box<dyn Fn(&mut StageContext) + Send + Sync + 'a>;

/// One stage of a pipeline of pipes ([`Pipeline::from_pipes`](crate::Pipeline::from_pipes)):
/// a closure of the [`StageContext`], serial or parallel. The first pipe
/// is the source, serial, and ends the stream with
/// [`StageContext::stop`].
///
/// ```
/// use rt_dag::{Pipe, StageKind};
///
/// let pipes: Vec<Pipe> = (0..4)
///     .map(|k| if k % 2 == 0 { Pipe::serial(|_| ()) } else { Pipe::parallel(|_| ()) })
///     .collect();
/// assert_eq!(pipes[1].kind(), StageKind::Parallel);
/// ```
pub struct Pipe<'a> {
    body: PipeBody<'a>,
}

enum PipeBody<'a> {
    Serial(UnsafeCell<SerialBody<'a>>),
    Parallel(ParallelBody<'a>),
}

impl<'a> Pipe<'a> {
    /// A serial pipe: one token at a time, in token order.
    pub fn serial(f: impl FnMut(&mut StageContext) + Send + 'a) -> Self {
        Self {
            body: PipeBody::Serial(UnsafeCell::new(Box::new(f))),
        }
    }

    /// A parallel pipe: any number of tokens at once.
    pub fn parallel(f: impl Fn(&mut StageContext) + Send + Sync + 'a) -> Self {
        Self {
            body: PipeBody::Parallel(Box::new(f)),
        }
    }

    /// Serial or parallel.
    pub fn kind(&self) -> StageKind {
        match self.body {
            PipeBody::Serial(_) => StageKind::Serial,
            PipeBody::Parallel(_) => StageKind::Parallel,
        }
    }

    /// Calls the pipe (the source's call, through `&mut`).
    pub(crate) fn call_mut(&mut self, ctx: &mut StageContext) {
        match &mut self.body {
            PipeBody::Serial(f) => (f.get_mut())(ctx),
            PipeBody::Parallel(f) => f(ctx),
        }
    }
}

// SAFETY: a serial pipe's closure is called by one task at a time, each call
// ordered after the previous one (`Call::call`'s contract); a parallel
// pipe's is `Sync`.
unsafe impl Sync for Pipe<'_> {}

impl Call<(), ()> for Pipe<'_> {
    fn kind(&self) -> StageKind {
        Pipe::kind(self)
    }

    unsafe fn call(&self, _item: (), ctx: &mut StageContext) {
        match &self.body {
            // SAFETY: no other call of a serial pipe runs meanwhile (the
            // caller's contract).
            PipeBody::Serial(f) => unsafe { (*f.get())(ctx) },
            PipeBody::Parallel(f) => f(ctx),
        }
    }
}

impl fmt::Debug for Pipe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipe").field("kind", &self.kind()).finish()
    }
}
