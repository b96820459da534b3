//! Block-wide barriers and whether the conditions that reach them split a block.

use super::*;

impl<'a, 't> Analyzer<'a, 't> {
    // ---- barriers ----------------------------------------------------------------------

    pub(super) fn is_barrier(&self, call: Node<'t>) -> bool {
        let Some(function) = call.field("function") else {
            return false;
        };
        let name = self.text(function);
        match name {
            "__syncthreads"
            | "__syncthreads_count"
            | "__syncthreads_and"
            | "__syncthreads_or"
            | "__barrier_sync" => true,
            "cg::sync" | "cooperative_groups::sync" | "sync" => {
                let argument = call.field("arguments").and_then(|a| a.named_child(0));
                argument
                    .map(|a| self.groups.contains_key(self.text(strip(a, self.source))))
                    .unwrap_or(false)
            }
            _ if function.node_kind() == "field_expression" => {
                let method = function.field("field").map(|f| self.text(f));
                let object = function
                    .field("argument")
                    .map(|o| self.text(strip(o, self.source)));
                method == Some("sync")
                    && object
                        .map(|o| {
                            self.groups.contains_key(o)
                                || o.contains("this_thread_block")
                                || o.contains("this_grid")
                        })
                        .unwrap_or(false)
            }
            _ => false,
        }
    }

    /// `for (j = threadIdx.x; j < padded_width; j += blockDim.x)`: the bound is rounded up to a
    /// multiple of the stride so every thread runs the same number of iterations.
    pub(super) fn has_padded_trip_count(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .parent()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let text = self.text(condition).to_ascii_lowercase();
        in_loop && (text.contains("pad") || text.contains("round") || text.contains("aligned"))
    }

    /// `blockDim.x`, or a local defined as it (`int localSize = blockDim.x;`).
    pub(super) fn is_block_size(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        match node.node_kind() {
            "field_expression" => syntax::same_text(node, self.source, "blockDim.x"),
            "identifier" => matches!(
                self.definitions.get(self.text(node)).map(Vec::as_slice),
                Some([value]) if syntax::same_text(*value, self.source, "blockDim.x")
            ),
            _ => false,
        }
    }

    /// `for (m = start; m < stop; ...)` with both `start` and `stop` per-thread: every thread may
    /// well run the same number of iterations, so the loop is not known to split the block.
    pub(super) fn compares_two_thread_values(&self, condition: Node<'t>) -> bool {
        let in_loop = condition
            .parent()
            .is_some_and(|p| matches!(p.node_kind(), "for_statement" | "while_statement"));
        let condition = match condition.node_kind() {
            "condition_clause" => condition.field("value").unwrap_or(condition),
            _ => condition,
        };
        let condition = strip(condition, self.source);
        in_loop
            && condition.node_kind() == "binary_expression"
            && matches!(
                operator(condition, self.source),
                "<" | "<=" | ">" | ">=" | "!="
            )
            && [condition.field("left"), condition.field("right")]
                .into_iter()
                .all(|side| side.is_some_and(|s| self.expression_deps(s, 0).varies_within_block()))
    }

    pub(super) fn record_barrier(&mut self, node: Node<'t>) {
        // Threads that returned early have exited; since Volta a barrier does not wait for them,
        // so only enclosing conditions and skipped loop iterations split the block.
        let divergent = self
            .facts
            .iter()
            .filter(|fact| {
                fact.exit != Exit::Return
                    && !self.has_padded_trip_count(fact.condition.node)
                    && !self.compares_two_thread_values(fact.condition.node)
            })
            .find(|fact| {
                self.expression_deps(fact.condition.node, 0)
                    .varies_within_block()
            })
            .copied();
        self.out.barriers.push(Barrier {
            node,
            divergent_condition: divergent.map(|f| f.condition.node),
            after_early_exit: divergent.map(|f| f.exit == Exit::Skip).unwrap_or(false),
        });
    }

}
