//! Every error and status names a node by its index and its label
//! (`set_label`), in its message and in `Debug`; a skipped node names the
//! prerequisite that failed.

mod common;

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_dag::{run_graph, DependencyError, GraphError, GraphOutcome, Limit, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn errors_of_building_a_graph_name_the_node_by_its_label() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let task = graph.add_task(|_| ());
        graph.set_label(task, "fetch").unwrap();
        let error = graph.set_branches(task, &[]).unwrap_err();
        assert_eq!(error, GraphError::NotACondition { node: task.into() });
        assert_eq!(
            error.to_string(),
            r#"node 0 "fetch" is not a condition node: only conditions have branches"#
        );

        let check = graph.add_condition_after(&[task], |_| 0).unwrap();
        let error = graph.set_branches(check, &[task]).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"node 0 "fetch" could never start: every way to it waits on a cycle"#
        );
        assert!(
            format!("{error:?}").contains(r#"node 0 "fetch""#),
            "{error:?}"
        );

        let module = graph.add_graph(TaskGraph::new());
        graph.set_label(module, "module").unwrap();
        let error = graph
            .set_limit(module, &Limit::new(1).unwrap())
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(r#"node 2 "module" is a graph node"#),
            "{error}"
        );
    })
}

#[test]
fn errors_of_reading_a_prerequisite_name_both_nodes_by_their_labels() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let text = graph.add_task(|_| String::from("hello"));
        graph.set_label(text, "text").unwrap();
        let other = graph.add_task(|_| 1_u8);
        graph.set_label(other, "other").unwrap();
        let reader = graph
            .add_task_after(&[text], move |deps| {
                (
                    deps.get::<u64>(text).unwrap_err(),
                    deps.get::<u8>(other).unwrap_err(),
                )
            })
            .unwrap();
        graph.set_label(reader, "reader").unwrap();
        let mut outcome = run_graph(&Inline, graph);
        let (wrong_type, not_a_dependency) = outcome
            .take::<(DependencyError, DependencyError)>(reader)
            .unwrap();
        assert_eq!(
            wrong_type.to_string(),
            format!(
                r#"node 0 "text" produced a `{}`, not the `u64` node 2 "reader" asked for"#,
                std::any::type_name::<String>()
            )
        );
        assert_eq!(
            not_a_dependency.to_string(),
            r#"node 1 "other" is not a declared dependency of node 2 "reader" (asked for a `u8`)"#
        );
        assert!(format!("{not_a_dependency:?}").contains(r#"node 1 "other""#));
    })
}

#[test]
fn errors_of_reading_an_outcome_name_the_node_by_its_label() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| -> u32 { panic!("{EXPECTED}: broken") });
        graph.set_label(bad, "bad").unwrap();
        let fine = graph.add_task(|_| 5_u32);
        graph.set_label(fine, "fine").unwrap();
        let mut outcome = run_graph(&Inline, graph);

        let error = outcome.get::<u32>(bad).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(r#"node 0 "bad" has no output"#),
            "{error}"
        );
        let error = outcome.get::<i8>(fine).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(r#"node 1 "fine" produced a `u32`"#),
            "{error}"
        );
        assert_eq!(outcome.take::<u32>(fine), Ok(5));
        let error = outcome.take::<u32>(fine).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"the output of node 1 "fine" was already taken"#
        );
        let error = outcome.take_panic(fine).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"node 1 "fine" did not fail with a panic; its status: completed"#
        );
        assert_eq!(outcome.name(bad).unwrap().label(), Some("bad"));
    })
}

#[test]
fn a_skipped_node_names_the_prerequisite_that_failed_in_its_message_and_debug() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let fine = graph.add_task(|_| ());
        let bad = graph.add_task(|_| panic!("{EXPECTED}: broken"));
        graph.set_label(bad, "compile").unwrap();
        let link = graph.add_task_after(&[fine, bad], |_| ()).unwrap();
        graph.set_label(link, "link").unwrap();
        let package = graph.add_task_after(&[link], |_| ()).unwrap();
        let outcome = run_graph(&Inline, graph);

        let status = outcome.status(link).unwrap();
        assert_eq!(
            status,
            &NodeStatus::Skipped {
                prerequisite: bad.into()
            }
        );
        assert_eq!(
            format!("{status:?}"),
            r#"Skipped { prerequisite: node 1 "compile" }"#
        );
        assert_eq!(
            status.to_string(),
            r#"skipped: node 1 "compile", which it waits for, failed or was skipped"#
        );
        assert_eq!(
            outcome.status(package),
            Ok(&NodeStatus::Skipped {
                prerequisite: link.into()
            })
        );
    })
}

#[test]
fn a_failed_subgraph_s_status_names_the_inner_node_by_its_label() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut inner = TaskGraph::new();
        let broken = inner.add_task(|_| panic!("{EXPECTED}: inside"));
        inner.set_label(broken, "unpack").unwrap();
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let outcome = run_graph(&Inline, outer);
        let status = outcome.status(module).unwrap();
        let debug = format!("{status:?}");
        assert!(
            debug.starts_with(r#"SubgraphFailed { node: node 0 "unpack", status: Panicked("#),
            "{debug}"
        );
        assert!(
            status.to_string().contains(r#"node 0 "unpack""#),
            "{status}"
        );
        // The inner outcome keeps the label too.
        let inner_outcome = outcome.get::<GraphOutcome>(module).unwrap();
        assert_eq!(
            inner_outcome.name(broken).unwrap().to_string(),
            r#"node 0 "unpack""#
        );
    })
}

#[test]
fn a_node_without_a_label_is_named_by_its_index_and_a_foreign_one_by_its_graph() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        other.set_label(foreign, "elsewhere").unwrap();
        let mut graph = TaskGraph::new();
        let plain = graph.add_task(|_| 1_u8);
        let error = graph.add_task_after(&[foreign], |_| ()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("node 0 of {} does not belong to {}", other.id(), graph.id())
        );
        let outcome = run_graph(&Inline, graph);
        assert_eq!(outcome.name(plain).unwrap().to_string(), "node 0");
        assert_eq!(outcome.name(plain).unwrap().label(), None);
    })
}

#[test]
fn errors_of_building_in_any_order_placeholders_and_holds_name_nodes_by_their_labels() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let fetch = graph.add_task(|_| ());
        graph.set_label(fetch, "fetch").unwrap();
        let build = graph.add_task_after(&[fetch], |_| ()).unwrap();
        graph.set_label(build, "build").unwrap();

        let error = graph.precede(build, &[fetch]).unwrap_err();
        let GraphError::Cycle { from, to } = &error else {
            panic!("{error:?}");
        };
        assert_eq!((from.label(), to.label()), (Some("build"), Some("fetch")));
        assert_eq!(
            error.to_string(),
            r#"an edge from node 1 "build" to node 0 "fetch" would close a cycle: node 0 "fetch" already comes before node 1 "build""#
        );

        let error = graph.set_task(fetch, |_| ()).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"node 0 "fetch" is not a placeholder: its work is set already"#
        );

        let limit = Limit::new(1).unwrap();
        graph.add_limit(fetch, &limit).unwrap();
        let error = graph.add_limit(fetch, &limit).unwrap_err();
        assert!(
            format!("{error:?}").contains(r#"node 0 "fetch""#),
            "{error:?}"
        );
        let error = graph.add_limit_until(build, &limit, fetch).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"node 0 "fetch" does not run after node 1 "build": it cannot give back the permit node 1 "build" takes"#
        );

        let pipeline = graph.add_pipeline(rt_dag::Pipeline::from_iter(1, 0..1u8).parallel(|x| x));
        graph.set_label(pipeline, "stream").unwrap();
        let error = graph.set_limit(pipeline, &limit).unwrap_err();
        assert_eq!(
            error,
            GraphError::GraphNodeLimited {
                node: pipeline.into()
            }
        );
        assert!(
            error.to_string().starts_with(r#"node 2 "stream""#),
            "{error}"
        );
    })
}

#[test]
fn an_invalid_node_names_itself_and_its_dependents_name_it() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let compile = graph.add_placeholder();
        graph.set_label(compile, "compile").unwrap();
        let link = graph.add_task_after(&[compile], |_| ()).unwrap();
        let outcome = run_graph(&Inline, graph);
        let status = outcome.status(compile).unwrap();
        let NodeStatus::Invalid(GraphError::NoWork { node }) = status else {
            panic!("{status:?}");
        };
        assert_eq!(node.label(), Some("compile"));
        assert_eq!(
            status.to_string(),
            r#"could not run: node 0 "compile" is a placeholder whose work was never set"#
        );
        let NodeStatus::Skipped { prerequisite } = outcome.status(link).unwrap() else {
            panic!("{:?}", outcome.status(link));
        };
        assert_eq!(*prerequisite, compile);
        assert_eq!(prerequisite.label(), Some("compile"));
        let cause = outcome.root_cause(link).unwrap().unwrap();
        assert_eq!(cause.node().id(), compile);
        assert!(matches!(cause.status(), NodeStatus::Invalid(_)));
    })
}
