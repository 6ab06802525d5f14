//! `use rt::*` brings the runtime's items into scope and shadows none of
//! the names every Rust file may use for the standard crates: the facade has
//! no item called `core`, `alloc` or `std` (rt-core is `rt::runtime`). A
//! glob import would otherwise win over those crates' names, and
//! `core::mem::size_of` would fail with "cannot find `mem` in `core`".

// `alloc` is not in the extern prelude of a `std` crate by default; naming
// it here puts it there for every module, where a glob import could shadow
// it.
extern crate alloc;

/// A module whose only import is the glob: the paths below resolve as they
/// would in a user's file that starts with `use rt::*;`.
mod user_code {
    use rt::*;
    use rt_testkit::without_hanging;

    #[test]
    fn core_still_names_the_core_library() {
        without_hanging(|| {
            assert_eq!(core::mem::size_of::<u8>(), 1);
            assert_eq!(core::cmp::max(1, 2), 2);
        });
    }

    #[test]
    fn std_still_names_the_standard_library() {
        without_hanging(|| {
            assert_eq!(std::mem::size_of::<u16>(), 2);
            let _: std::sync::Arc<u8> = std::sync::Arc::new(1);
        });
    }

    #[test]
    fn alloc_still_names_the_alloc_library() {
        without_hanging(|| {
            let v: alloc::vec::Vec<u8> = alloc::vec![1, 2];
            assert_eq!(alloc::string::String::from("ab").len(), v.len());
        });
    }

    #[test]
    fn the_glob_brings_the_runtime_and_its_crates() {
        without_hanging(|| {
            let rt = Runtime::new(1).unwrap();
            assert_eq!(rt.spawn(|| 6 * 7).join(), Ok(42));
            assert_eq!(
                rt.spawn_with_priority(Priority::Background, || 1).join(),
                Ok(1)
            );
            let _: Option<runtime::Source> = None;
        });
    }
}
