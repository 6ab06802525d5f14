//! The shared lifecycle hooks (`rt_handle::raw::hooks`), under the names this
//! crate's code uses.

pub(crate) use rt_handle::raw::hooks::{
    call_hook as call, contain_panic as contain, ExecutorHooks as Hooks, WorkerHook,
};
