//! Statements as a block runs them: branches split the threads, loops are followed up to their
//! limits, and barriers move threads to the next interval.

use super::*;

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    // ---- statements -------------------------------------------------------------------

    pub(super) fn statement(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Jumps, Invalid> {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return Ok(Jumps::NONE);
        }
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        self.step(mask)?;
        match node.node_kind() {
            "compound_statement" => {
                self.frames.push(self.scopes.len());
                let jumps = self.sequence(named_children(node), mask, depth);
                if let Some(mark) = self.frames.pop() {
                    self.scopes.truncate(mark);
                }
                jumps
            }
            "declaration" => {
                self.declaration(node, mask, depth)?;
                Ok(Jumps::NONE)
            }
            "expression_statement" => {
                for child in named_children(node) {
                    self.eval(child, mask, depth + 1)?;
                }
                Ok(Jumps::NONE)
            }
            "if_statement" => {
                let Some(condition) = self.part(node, Part::Condition) else {
                    self.stop(mask);
                    return Ok(Jumps::NONE);
                };
                let value = self.condition(condition, mask, depth)?;
                let (yes, no, unknown) = self.split(&value, mask);
                let mut jumps = Jumps::NONE;
                if let Some(consequence) = self.part(node, Part::Consequence) {
                    jumps = jumps.or(self.statement(consequence, yes, depth + 1)?);
                }
                if let Some(alternative) = self.part(node, Part::Alternative) {
                    jumps = jumps.or(self.sequence(named_children(alternative), no, depth)?);
                }
                self.unknown_region(node, false, unknown);
                Ok(jumps)
            }
            "for_statement" => {
                self.frames.push(self.scopes.len());
                let result = self.for_loop(node, mask, depth);
                if let Some(mark) = self.frames.pop() {
                    self.scopes.truncate(mark);
                }
                result.map(|()| Jumps::NONE)
            }
            "while_statement" | "do_statement" => {
                let (Some(condition), Some(body)) = (
                    self.part(node, Part::Condition),
                    self.part(node, Part::Body),
                ) else {
                    self.stop(mask);
                    return Ok(Jumps::NONE);
                };
                let test_first = node.node_kind() == "while_statement";
                self.run_loop(node, mask, None, Some(condition), body, test_first, depth)?;
                Ok(Jumps::NONE)
            }
            "return_statement" => {
                for child in named_children(node) {
                    self.eval(child, mask, depth + 1)?;
                }
                if self.calls > 0 {
                    // they go on after the call
                    self.returned = self.returned.or(mask);
                }
                self.stop(mask);
                Ok(Jumps::NONE)
            }
            "break_statement" => Ok(Jumps {
                broke: mask,
                continued: Mask::NONE,
            }),
            "continue_statement" => Ok(Jumps {
                broke: Mask::NONE,
                continued: mask,
            }),
            "labeled_statement" => {
                match named_children(node).find(|c| c.node_kind() != "statement_identifier") {
                    Some(inner) => self.statement(inner, mask, depth + 1),
                    None => Ok(Jumps::NONE),
                }
            }
            "comment"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_include"
            | "preproc_call"
            | "type_definition"
            | "alias_declaration"
            | "using_declaration"
            | "static_assert_declaration" => Ok(Jumps::NONE),
            // switch, goto, range loops, try: not followed
            _ => {
                self.unknown_region(node, false, mask);
                Ok(Jumps::NONE)
            }
        }
    }

    /// Statements run in order by the threads that have not left them.
    pub(super) fn sequence(
        &mut self,
        statements: impl Iterator<Item = Node<'t>>,
        mask: Mask,
        depth: usize,
    ) -> Result<Jumps, Invalid> {
        let mut jumps = Jumps::NONE;
        for child in statements {
            let live = mask
                .and(self.alive)
                .without(jumps.broke)
                .without(jumps.continued);
            if live.is_empty() {
                break;
            }
            jumps = jumps.or(self.statement(child, live, depth + 1)?);
        }
        Ok(jumps)
    }

    pub(super) fn condition(
        &mut self,
        condition: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let condition = if condition.node_kind() == "condition_clause" {
            match self
                .part(condition, Part::Value)
                .or_else(|| named_children(condition).next())
            {
                Some(c) => c,
                None => return Ok(Lanes::Uni(Val::Unknown(true))),
            }
        } else {
            condition
        };
        if condition.node_kind() == "declaration" {
            return Ok(Lanes::Uni(Val::Unknown(true)));
        }
        self.eval(condition, mask, depth + 1)
    }

    /// A region whose execution is not known for the threads of `mask` (a branch on an unknown
    /// condition, a statement the run does not follow): what it assigns becomes unknown; if it
    /// can pass a barrier or leave the enclosing code, those threads stop.
    pub(super) fn unknown_region(&mut self, node: Node<'t>, is_loop: bool, mask: Mask) {
        let mask = mask.and(self.alive);
        if mask.is_empty() {
            return;
        }
        let region = self.program.region(node, is_loop);
        if region.leaves {
            self.stop(mask);
            return;
        }
        // what it writes is not followed
        self.unfollowed_write();
        let unknown = Lanes::Uni(Val::Unknown(true));
        for name in &region.assigned {
            self.assign_local(name, &unknown, mask);
        }
    }

    pub(super) fn for_loop(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<(), Invalid> {
        if let Some(initializer) = self.part(node, Part::Initializer) {
            if initializer.node_kind() == "declaration" {
                self.declaration(initializer, mask, depth)?;
            } else {
                self.eval(initializer, mask, depth + 1)?;
            }
        }
        let Some(body) = self.part(node, Part::Body) else {
            self.stop(mask);
            return Ok(());
        };
        let (condition, update) = (
            self.part(node, Part::Condition),
            self.part(node, Part::Update),
        );
        self.run_loop(node, mask, update, condition, body, true, depth)
    }

    /// The iterations of a loop, for the threads still in it; a thread that breaks, fails the
    /// condition or meets an unknown one (the rest then runs as unknown) goes on after it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_loop(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        update: Option<Node<'t>>,
        condition: Option<Node<'t>>,
        body: Node<'t>,
        test_first: bool,
        depth: usize,
    ) -> Result<(), Invalid> {
        let mut live = mask;
        let mut iterations = 0;
        loop {
            live = live.and(self.alive);
            if live.is_empty() {
                return Ok(());
            }
            iterations += 1;
            if iterations > FOLLOWED_SYNCHRONISED_ITERATIONS {
                let region = self.program.region(node, true);
                if region.warp_sync {
                    // the lanes' order depends on every `__syncwarp()` it passes
                } else if !region.leaves {
                    if iterations > FOLLOWED_ITERATIONS {
                        self.unknown_region(node, true, live);
                        return Ok(());
                    }
                } else if !region.exits && live == self.alive {
                    self.skip_synchronised_loop(node, live);
                    return Ok(());
                }
            }
            if iterations > MAX_ITERATIONS {
                self.stop(live);
                return Ok(());
            }
            if test_first || iterations > 1 {
                if let Some(condition) = condition {
                    let value = if test_first {
                        self.condition(condition, live, depth)?
                    } else {
                        self.eval(condition, live, depth + 1)?
                    };
                    let (yes, _, unknown) = self.split(&value, live);
                    self.unknown_region(node, true, unknown);
                    live = yes;
                    if live.is_empty() {
                        return Ok(());
                    }
                }
            }
            let jumps = self.statement(body, live, depth + 1)?;
            live = live.and(self.alive).without(jumps.broke);
            if let Some(update) = update {
                self.eval(update, live, depth + 1)?;
            }
        }
    }

    /// The rest of a loop with barriers that every running thread is in: what it assigns becomes
    /// unknown, and the threads go on after it in a new barrier interval (the loop stands for the
    /// barriers it would pass, so nothing before it pairs with anything after it).
    pub(super) fn skip_synchronised_loop(&mut self, node: Node<'t>, mask: Mask) {
        let region = self.program.region(node, true);
        self.unfollowed_write();
        let unknown = Lanes::Uni(Val::Unknown(true));
        for name in &region.assigned {
            self.assign_local(name, &unknown, mask);
        }
        let passing = mask.and(self.alive);
        self.passed.pass(passing, node);
        for lane in passing.lanes() {
            self.epoch[lane] += 1;
        }
        self.common.set(None);
        self.close_intervals();
    }

    /// Forgets the accesses of the intervals every running thread has left: nothing logged from
    /// now on can meet them.
    pub(super) fn close_intervals(&mut self) {
        let Some(open) = self.alive.lanes().map(|lane| self.epoch[lane]).min() else {
            return;
        };
        self.log.close_before(open);
    }

    pub(super) fn declaration(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<(), Invalid> {
        let source = self.source();
        if let Some(id) = self.program.declared.get(&node.id()).copied() {
            if let Some(name) = named_children(node).find_map(crate::syntax::declarator_name) {
                let value = match self.program.arrays.get(id as usize) {
                    // a scalar is a place: the name itself is looked up as one
                    Some(array) if array.scalar => Val::Ptr(Ptr {
                        kind: self.program.kinds.id(PtrKind {
                            array: id,
                            element: array.element,
                            shape: Shape::FLAT,
                            extent: None,
                        }),
                        byte: 0,
                    }),
                    _ => self.array_value(id),
                };
                self.scopes
                    .push((text(name, source), Lanes::Uni(value), ""));
            }
            return Ok(());
        }
        let type_text = self
            .part(node, Part::Type)
            .map(|t| text(t, source))
            .unwrap_or("");
        let integral = is_integer_type(type_text) || type_text == "auto";
        // read only for a pointer initialised from a pointer (it normalises the type's text)
        let element_size = std::cell::OnceCell::new();
        for declarator in named_children(node) {
            let (target, value) = match declarator.node_kind() {
                "init_declarator" => (
                    self.part(declarator, Part::Declarator),
                    self.part(declarator, Part::Value),
                ),
                "identifier"
                | "pointer_declarator"
                | "array_declarator"
                | "reference_declarator" => (Some(declarator), None),
                _ => continue,
            };
            let Some(target) = target else { continue };
            let Some(name) = crate::syntax::declarator_name(target) else {
                continue;
            };
            let pointer = crate::syntax::declarator_is_pointer(target)
                && target.node_kind() != "array_declarator";
            let reference = target.node_kind() == "reference_declarator";
            let mut stored = Lanes::Uni(Val::Unknown(true));
            if let Some(value) = value {
                let value = if matches!(value.node_kind(), "initializer_list" | "argument_list") {
                    let parts: Vec<Node<'t>> = named_children(value).collect();
                    match parts.as_slice() {
                        [single] => *single,
                        _ => {
                            for child in parts {
                                self.eval(child, mask, depth + 1)?;
                            }
                            self.scopes.push((
                                text(name, source),
                                Lanes::Uni(Val::Unknown(true)),
                                type_text,
                            ));
                            continue;
                        }
                    }
                } else {
                    value
                };
                let evaluated = self.eval(value, mask, depth + 1)?;
                let arrays = &self.program.arrays;
                let kinds = &self.program.kinds;
                stored = evaluated.convert(|v| match v {
                    Val::Ptr(p) if pointer => {
                        let kind = kinds.get(p.kind);
                        match *element_size.get_or_init(|| pointee_size(type_text)) {
                            Some(size) if kind.is_some_and(|k| size == k.element) => Val::Ptr(p),
                            _ if same_type(
                                type_text,
                                kind.and_then(|k| arrays.get(k.array as usize))
                                    .map_or("", |a| a.element_type.as_str()),
                            ) =>
                            {
                                Val::Ptr(p)
                            }
                            _ => Val::Unknown(true),
                        }
                    }
                    Val::Ptr(_) => Val::Unknown(true),
                    Val::Int(..) | Val::Chosen(_) if integral && !pointer && !reference => v,
                    Val::Load(..) | Val::Held(..) if !pointer && !reference => v,
                    other => Val::Unknown(other.varies()),
                });
                stored = self.held_as(&stored, type_text);
            }
            self.scopes.push((text(name, source), stored, type_text));
        }
        Ok(())
    }
}
