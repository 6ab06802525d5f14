//! The elastic pool (`rt::elastic::ElasticPool`) through the same generic
//! `Executor` adapter as the runtime and the baselines.
//!
//! Configuration: `core_threads = workers`, `max_threads = 2 × workers`,
//! and a bounded queue of 1,024 tasks, the same bound as the `rt bounded`
//! column. An unbounded queue would never let the pool grow past its core,
//! making it a plain mutex-and-condvar pool (the `global queue` column); the
//! bound exercises what is particular to this pool: once a burst fills the
//! queue it starts extra workers (up to twice the CPU-bound worker count, so
//! they oversubscribe the cores) and then blocks the submitter. The keep-alive
//! is left at its default (60 s), so the extra workers, once started, stay for
//! the whole run, as they would in a service under steady load.

use rt::elastic::ElasticPool;

use super::Strategy;

/// The bound on queued tasks: the same as `rt bounded`.
const QUEUE_CAPACITY: usize = 1_024;

pub fn new(workers: usize) -> Box<dyn Strategy> {
    let pool = ElasticPool::builder()
        .core_threads(workers)
        .max_threads(workers * 2)
        .queue_capacity(QUEUE_CAPACITY)
        .thread_name("bench-elastic")
        .build()
        .unwrap();
    super::executor::leak("elastic", pool)
}
