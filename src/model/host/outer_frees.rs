//! Frees of storage a function does not declare: a class's members freed in its destructor, a
//! global, a field of a structure. Their pointers outlive the call, so no allocation in sight
//! pairs with them; what matters is whether one free follows another with nothing between that
//! may store a new pointer there.

use super::*;
use crate::syntax::normalized;

impl<'m, 't> Builder<'m, 't> {
    pub(super) fn record_outer_free(
        &mut self,
        call: Node<'t>,
        argument: Node<'t>,
        context: Context<'t>,
    ) {
        let Some(place) = self.outer_place(argument) else {
            return;
        };
        let freed_before = self
            .out
            .outer_frees
            .iter()
            .rev()
            .find(|earlier| {
                earlier.place == place
                    && earlier.region.start_byte() <= call.start_byte()
                    && call.end_byte() <= earlier.region.end_byte()
            })
            .map(|earlier| earlier.call)
            .filter(|earlier| {
                !self.may_store_between(&place, earlier.end_byte(), call.start_byte())
            });
        self.out.outer_frees.push(OuterFree {
            call,
            place,
            freed_before,
            region: context.region,
        });
    }

    /// `d_pos`, `this->d_pos`, `s.d`, `p->buffers.d`: storage named by identifiers and fields
    /// only, read without `this->`. A name the function declares is no outer storage.
    fn outer_place(&self, argument: Node<'t>) -> Option<String> {
        let argument = strip(argument, self.source);
        match argument.node_kind() {
            "identifier"
                if self.variable_of(argument).is_none() && !self.declared_anywhere(argument) => {}
            "field_expression" => {
                let mut base = argument;
                while base.node_kind() == "field_expression" {
                    base = strip(base.field("argument")?, self.source);
                }
                if !matches!(base.node_kind(), "identifier" | "this") {
                    return None;
                }
            }
            _ => return None,
        }
        let place = normalized(argument, self.source);
        Some(place.strip_prefix("this->").unwrap_or(&place).to_string())
    }

    /// Whether the function declares the name somewhere (a local the variables do not track).
    fn declared_anywhere(&self, identifier: Node<'t>) -> bool {
        let name = self.text(identifier);
        let mut found = false;
        walk_iterative(self.function.body, |node| {
            if found {
                return false;
            }
            if let Some(declarator) = node.field("declarator") {
                if matches!(node.node_kind(), "init_declarator" | "declaration")
                    && crate::syntax::declarator_name(declarator)
                        .is_some_and(|n| self.text(n) == name)
                {
                    found = true;
                }
            }
            true
        });
        found
    }

    /// Whether code between the byte offsets may put a new pointer in `place`: an assignment to
    /// it or to what holds it, its address taken, a call of code other than the CUDA runtime
    /// (a method may reallocate a member), or a label a jump may reach.
    fn may_store_between(&self, place: &str, from: usize, to: usize) -> bool {
        let source = self.source;
        let holds = |target: Node<'t>| {
            let target = normalized(target, source);
            let target = target.strip_prefix("this->").unwrap_or(&target);
            target == place
                || [".", "->", "["]
                    .iter()
                    .any(|joint| place.starts_with(&format!("{target}{joint}")))
        };
        let mut stores = false;
        walk_iterative(self.function.body, |node| {
            if stores || node.end_byte() <= from || node.start_byte() >= to {
                return false;
            }
            if node.start_byte() < from || node.end_byte() > to {
                return true;
            }
            stores = match node.node_kind() {
                "assignment_expression" => node.field("left").is_some_and(holds),
                "update_expression" => node.field("argument").is_some_and(holds),
                "pointer_expression" => {
                    operator(node, source) == "&" && node.field("argument").is_some_and(holds)
                }
                "call_expression" => !self.leaves_storage_alone(node),
                "labeled_statement" | "lambda_expression" => true,
                _ => false,
            };
            true
        });
        stores
    }

    /// A CUDA runtime call, a check wrapped around one, or a C library call that prints or frees
    /// host memory: none of them stores into the program's own storage.
    fn leaves_storage_alone(&self, call: Node<'t>) -> bool {
        let name = call_name(call, self.source);
        let wraps_cuda = || {
            arguments(call).first().is_some_and(|first| {
                let first = strip(*first, self.source);
                first.node_kind() == "call_expression" && is_cuda_api(call_name(first, self.source))
            })
        };
        is_cuda_api(name)
            || matches!(name, "printf" | "fprintf" | "puts" | "free" | "fflush")
            || wraps_cuda()
    }
}
