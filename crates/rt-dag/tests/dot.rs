//! `to_dot` renders every node and edge for Graphviz.

use rt_dag::{Priority, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn to_dot_renders_every_node_and_every_edge() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let fetch = graph.add_task(|_| ());
        let compile = graph.add_task_after(&[fetch], |_| ()).unwrap();
        let test = graph
            .add_task_after_with_priority(&[compile], Priority::Background, |_| ())
            .unwrap();
        let docs = graph.add_task_after(&[fetch], |_| ()).unwrap();
        graph.set_label(fetch, "fetch").unwrap();
        graph.set_label(compile, "compile").unwrap();
        graph.set_label(test, "test").unwrap();
        let _ = docs;

        let dot = graph.to_dot();
        let expected = format!(
        "digraph \"graph_{}\" {{\n    rankdir=LR;\n    node [shape=box];\n    n0 [label=\"fetch\"];\n    n1 [label=\"compile\"];\n    n2 [label=\"test\\n(background)\"];\n    n3 [label=\"node 3\"];\n    n0 -> n1;\n    n1 -> n2;\n    n0 -> n3;\n}}\n",
        graph.id().as_u64()
    );
        assert_eq!(dot, expected);
    })
}

#[test]
fn an_empty_graph_renders_as_an_empty_digraph() {
    without_hanging(|| {
        let dot = TaskGraph::new().to_dot();
        assert!(dot.starts_with("digraph"));
        assert!(!dot.contains("->"));
        assert!(dot.trim_end().ends_with('}'));
    })
}

#[test]
fn to_dot_draws_conditions_as_diamonds_with_numbered_dashed_branches() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = graph.add_subgraph_after(&[init], |_, _| ()).unwrap();
        let check = graph.add_condition_after(&[body], |_| 0).unwrap();
        let inner = graph.add_graph(TaskGraph::new());
        graph.set_branches(check, &[body, inner]).unwrap();
        let dot = graph.to_dot();
        assert!(
            dot.contains("n2 [label=\"node 2\", shape=diamond];"),
            "{dot}"
        );
        assert!(
            dot.contains("n1 [label=\"node 1\", style=dashed];"),
            "{dot}"
        );
        assert!(dot.contains("n3 [label=\"node 3\", shape=box3d];"), "{dot}");
        assert!(
            dot.contains("n2 -> n1 [style=dashed, label=\"0\"];"),
            "{dot}"
        );
        assert!(
            dot.contains("n2 -> n3 [style=dashed, label=\"1\"];"),
            "{dot}"
        );
        assert!(dot.contains("n1 -> n2;"), "{dot}");
    })
}
