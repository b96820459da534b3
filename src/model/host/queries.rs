//! Questions the lints ask of a host function's events.

use super::*;

impl<'t> HostFunction<'t> {
    /// Events of `variable` that may run before `at`: earlier in the source, or anywhere in a
    /// loop around `at` (the previous iteration).
    pub fn events_before<'a>(
        &'a self,
        variable: usize,
        at: &'a Event<'t>,
    ) -> impl Iterator<Item = &'a Event<'t>> + 'a {
        self.events_of(variable).filter(move |e| {
            !std::ptr::eq(*e, at)
                && (e.node.end_byte() <= at.node.start_byte()
                    || at.enclosing_loop.is_some_and(|l| {
                        within(e.node, l) && e.node.start_byte() != at.node.start_byte()
                    }))
        })
    }

    /// The allocation that gives `variable` its value at `at`, when it is the only definition that
    /// can reach there (a local, not a parameter).
    pub fn reaching_allocation(&self, variable: usize, at: &Event<'t>) -> Option<&Allocation<'t>> {
        if self.variables.get(variable)?.is_parameter {
            return None;
        }
        let mut definitions = self
            .events_before(variable, at)
            .filter(|e| e.kind.defines());
        let first = definitions.next()?;
        if definitions.next().is_some() {
            return None;
        }
        match first.kind {
            EventKind::Allocated { allocation, .. }
                if first.node.end_byte() <= at.node.start_byte() =>
            {
                self.allocations.get(allocation)
            }
            _ => None,
        }
    }

    /// The event a launch or transfer recorded for `variable` at `node`.
    pub fn event_at(&self, variable: usize, node: Node<'t>) -> Option<&Event<'t>> {
        self.events
            .iter()
            .find(|e| e.variable == variable && e.node == node)
    }

    /// Where a pointer argument lives, when the model knows.
    pub fn side_of(&self, pointer: &PointerArg, at: Node<'t>) -> Option<Side> {
        let variable = self.variables.get(pointer.variable)?;
        if pointer.host_data || (variable.is_vector && !variable.is_pointer) {
            return Some(Side::Host);
        }
        let event = self
            .events
            .iter()
            .find(|e| e.variable == pointer.variable && e.node == at)?;
        match self.reaching_allocation(pointer.variable, event)?.memory {
            Memory::Device => Some(Side::Device),
            Memory::Host | Memory::Pinned => Some(Side::Host),
            Memory::Managed | Memory::Mapped => None,
        }
    }
}
