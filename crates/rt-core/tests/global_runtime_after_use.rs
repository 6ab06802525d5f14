//! `build_global` after the global runtime was first used is an error, as
//! in rayon: the runtime already running keeps its configuration.

mod support;

use rt_core::{BuildError, Runtime};
use support::without_hanging;

#[test]
fn build_global_after_the_first_use_is_refused() {
    without_hanging(|| {
        let threads = rt_core::current_num_threads(); // starts the global runtime
        let late = Runtime::builder().threads(threads + 1).build_global();
        assert!(
            matches!(late, Err(BuildError::GlobalAlreadyBuilt)),
            "{late:?}"
        );
        assert_eq!(rt_core::current_num_threads(), threads);
        assert_eq!(rt_core::spawn(|| 5).join(), Ok(5));
    });
}
