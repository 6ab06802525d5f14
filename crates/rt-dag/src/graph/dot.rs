//! Rendering a graph for Graphviz.

use std::fmt::Write;

use rt_queue::Priority;

use crate::{NodeKind, TaskGraph};

impl TaskGraph {
    /// The graph in Graphviz's DOT language: one box per node, labelled with
    /// its [label](TaskGraph::set_label) or `node N`, its priority when it is
    /// not `Normal`, and one edge from each prerequisite to its dependent.
    /// Condition and multi-condition nodes are diamonds, with a dashed edge
    /// to each branch labelled by its index; subgraph nodes are dashed
    /// boxes, graph and module nodes 3-D boxes (their inner graphs are not
    /// drawn), pipeline nodes `cds` shapes (their stages are not drawn),
    /// placeholders dotted boxes.
    ///
    /// ```
    /// use rt_dag::{Priority, TaskGraph};
    ///
    /// let mut graph = TaskGraph::new();
    /// let fetch = graph.add_task(|_| ());
    /// graph.set_label(fetch, "fetch \"deps\"").unwrap();
    /// let build = graph.add_task_after_with_priority(&[fetch], Priority::High, |_| ()).unwrap();
    ///
    /// let dot = graph.to_dot();
    /// assert!(dot.starts_with("digraph"));
    /// assert!(dot.contains(r#"n0 [label="fetch \"deps\""];"#));
    /// assert!(dot.contains(r#"n1 [label="node 1\n(high)"];"#));
    /// assert!(dot.contains("n0 -> n1;"));
    /// # let _ = build;
    /// ```
    ///
    /// Render it with `dot -Tsvg graph.dot > graph.svg`.
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        // Writing into a `String` cannot fail.
        let _ = self.write_dot(&mut out);
        out
    }

    fn write_dot(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "digraph \"graph_{}\" {{", self.id().as_u64())?;
        writeln!(out, "    rankdir=LR;")?;
        writeln!(out, "    node [shape=box];")?;
        for (index, node) in self.nodes().iter().enumerate() {
            let mut label = match self.label_of(index) {
                Some(label) => label.to_string(),
                None => format!("node {index}"),
            };
            if self.priority_of(index) != Priority::Normal {
                write!(label, "\n({})", self.priority_of(index))?;
            }
            let shape = match node.kind() {
                NodeKind::Task => "",
                NodeKind::Condition | NodeKind::MultiCondition => ", shape=diamond",
                NodeKind::Subgraph => ", style=dashed",
                NodeKind::Graph | NodeKind::Module => ", shape=box3d",
                NodeKind::Pipeline => ", shape=cds",
                NodeKind::Placeholder => ", style=dotted",
            };
            writeln!(out, "    n{index} [label=\"{}\"{shape}];", escape(&label))?;
        }
        for index in 0..self.len() {
            for dep in self.deps_of(index) {
                writeln!(out, "    n{dep} -> n{index};")?;
            }
        }
        for (index, node) in self.nodes().iter().enumerate() {
            for (branch, target) in node.branches().iter().enumerate() {
                writeln!(
                    out,
                    "    n{index} -> n{target} [style=dashed, label=\"{branch}\"];"
                )?;
            }
        }
        writeln!(out, "}}")
    }
}

/// Escapes a label for a DOT double-quoted string.
fn escape(label: &str) -> String {
    let mut escaped = String::with_capacity(label.len());
    for c in label.chars() {
        match c {
            '"' => escaped.push_str("\\\""),
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            '\r' => {}
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn quotes_backslashes_and_newlines_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd\r"), "a\\\"b\\\\c\\nd");
    }
}
