//! Building an executor checks its configuration.

use std::time::Duration;

use rt_fair::{BuildError, FairExecutorBuilder};
use rt_testkit::without_hanging;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Foreground,
    Background,
}

#[test]
fn an_executor_without_queues_is_refused() {
    without_hanging(|| {
        let err = FairExecutorBuilder::<u8>::new().build().unwrap_err();
        assert_eq!(err, BuildError::NoQueues);
        assert_eq!(err.to_string(), "an executor needs at least one queue");
    })
}

#[test]
fn a_zero_weight_is_refused_with_the_queue_position() {
    without_hanging(|| {
        let err = FairExecutorBuilder::new()
            .with_queue(Class::Foreground, 8)
            .with_queue(Class::Background, 0)
            .build()
            .unwrap_err();
        assert_eq!(err, BuildError::ZeroWeight { index: 1 });
        assert!(err.to_string().contains("weight zero"));
    })
}

#[test]
fn a_duplicate_key_is_refused_with_both_positions() {
    without_hanging(|| {
        let err = FairExecutorBuilder::new()
            .with_queue(7u64, 1)
            .with_queue(8, 1)
            .with_queue(7, 2)
            .build()
            .unwrap_err();
        assert_eq!(err, BuildError::DuplicateKey { index: 2, first: 0 });
    })
}

#[test]
fn a_zero_time_slice_is_refused() {
    without_hanging(|| {
        let err = FairExecutorBuilder::new()
            .with_queue("q", 1)
            .with_time_slice(Duration::ZERO)
            .build()
            .unwrap_err();
        assert_eq!(err, BuildError::ZeroTimeSlice);
    })
}

#[test]
fn enums_integers_and_strings_all_work_as_keys() {
    without_hanging(|| {
        let by_enum = FairExecutorBuilder::new()
            .with_queue(Class::Foreground, 8)
            .with_queue(Class::Background, 1)
            .build()
            .unwrap();
        assert!(by_enum.queue(Class::Background).is_some());
        assert_eq!(by_enum.keys(), [Class::Foreground, Class::Background]);

        let by_int = FairExecutorBuilder::new()
            .with_queue(-3i32, 1)
            .build()
            .unwrap();
        assert!(by_int.queue(-3).is_some());
        assert!(by_int.queue(3).is_none());

        let by_str = FairExecutorBuilder::new()
            .with_queue("io", 2)
            .build()
            .unwrap();
        assert_eq!(by_str.queue("io").unwrap().index(), 0);
        assert!(by_str.queue("cpu").is_none());
    })
}
