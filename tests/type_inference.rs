//! Code that depends on `rt` keeps the standard library's type inference:
//! the default dependency tree brings no crate (serde_json, say) whose
//! `PartialEq` impls for integers make `sum()` or `collect()` ambiguous.
//! With the `chrome-trace` feature serde_json is in the tree, so this file
//! is built only without it.
#![cfg(not(feature = "chrome-trace"))]

use rt::Runtime;
use rt_testkit::without_hanging;

#[test]
fn a_sum_compared_with_a_task_result_needs_no_type_annotation() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let xs = [1_u64, 2, 3];
        let total = rt.spawn(|| 6_u64).join().unwrap();
        let sum = xs.iter().sum();
        assert_eq!(total, sum);
    });
}
