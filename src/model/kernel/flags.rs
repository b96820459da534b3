//! Boolean locals that hold comparisons (flags): what a flag read in a condition says, where
//! its tests still hold, and the tests of the values a local copies.

use super::*;

/// A boolean local read in a condition is the comparison it holds: `valid` in `if (valid)` after
/// `const bool valid = i < n;`, when neither `valid` nor `i` nor `n` is assigned again.
impl<'t> guards::Flags<'t> for Analyzer<'_, 't> {
    fn constant_truth(&self, condition: Node<'t>) -> Option<bool> {
        Analyzer::constant_truth(self, condition, 0)
    }

    fn predicate_facts(
        &self,
        call: Node<'t>,
        holds: bool,
    ) -> Vec<(Node<'t>, guards::Relation, Node<'t>)> {
        let Some((summary, arguments)) = self.helper_call(call).or_else(|| self.method_call(call))
        else {
            return Vec::new();
        };
        let Some(predicate) = &summary.predicate else {
            return Vec::new();
        };
        let comparisons = if holds {
            &predicate.when_true
        } else {
            &predicate.when_false
        };
        // `opts.off(i)`: a field of the method's object is bounded by the object, whose fields
        // the caller reads through it
        let receiver = call
            .field("function")
            .filter(|f| f.node_kind() == "field_expression")
            .and_then(|f| f.field("argument"));
        let side = |position: usize| match position {
            crate::model::helpers::RECEIVER => receiver.map(|r| strip(r, self.source)),
            // the callee's name stands for the constant value the helper compares with: no
            // thread's identity, and nothing the caller's ranges know
            crate::model::helpers::PROGRAM_CONSTANT => call.field("function"),
            _ => arguments.get(position).map(|a| strip(*a, self.source)),
        };
        comparisons
            .iter()
            .filter_map(|&(left, relation, right)| Some((side(left)?, relation, side(right)?)))
            .collect()
    }

    fn flag_value(&self, name: &str) -> Option<Node<'t>> {
        if !self.is_settled_local(name) {
            return None;
        }
        let [value] = self.definitions.get(name)?.as_slice() else {
            return None;
        };
        // defined by its declaration, so the value holds from there on
        let declarator = self.declarations.get(name)?;
        if !(declarator.start_byte() <= value.start_byte()
            && value.end_byte() <= declarator.end_byte())
        {
            return None;
        }
        self.reads_settled_values(*value).then_some(*value)
    }

    fn clearing_tests(&self, name: &str) -> Option<Vec<Condition<'t>>> {
        let declarator = self.declarations.get(name)?;
        let values = self.definitions.get(name)?;
        self.clearing_tests_of(name, *declarator, values, &|test| {
            self.reads_settled_values(test)
        })
    }

    fn flag_value_at(&self, name: &str, read: Node<'t>) -> Option<Node<'t>> {
        self.flag_value_until(name, read, self.facts_used_until(read))
    }

    fn clearing_tests_at(&self, name: &str, read: Node<'t>) -> Option<Vec<Condition<'t>>> {
        self.clearing_tests_until(name, read, self.facts_used_until(read))
    }

    fn setting_tests(&self, name: &str) -> Option<Vec<Node<'t>>> {
        self.set_under(name)
    }

    fn reaching_values_at(&self, name: &str, read: Node<'t>) -> Option<Vec<Node<'t>>> {
        if !self.is_settled_local(name) {
            return None;
        }
        let until = self.facts_used_until(read);
        let (_, reaching) = crate::model::ranges::RangeContext::reaching(self, read)?;
        if reaching.is_empty() || reaching.len() > MAX_REACHING_FLAG_VALUES {
            return None;
        }
        for value in &reaching {
            let store = value.up()?;
            let plain = match store.node_kind() {
                "init_declarator" => true,
                "assignment_expression" => {
                    operator(store, self.source) == "="
                        && store
                            .field("left")
                            .is_some_and(|left| syntax::same_text(left, self.source, name))
                }
                _ => false,
            };
            if !plain
                || !(self.reads_settled_values(*value)
                    || self.unchanged_until_read(*value, store, read, until))
            {
                return None;
            }
        }
        Some(reaching)
    }

    fn setting_test_failed_where_unset(&self, name: &str) -> Option<Node<'t>> {
        if !self.is_settled_local(name) {
            return None;
        }
        let declarator = *self.declarations.get(name)?;
        let mut declared_false = false;
        let mut test = None;
        for value in self.definitions.get(name)? {
            let declared_here = syntax::encloses(declarator, *value);
            match (literal_truth(self.text(*value).trim()), declared_here) {
                (Some(false), true) => declared_false = true,
                (Some(true), false) if test.is_none() => {
                    let branch = branch_setting_or_leaving(*value, name, self.source)?;
                    // the `if` runs on every path from the declaration
                    if !runs_whenever_declared(branch, declarator) {
                        return None;
                    }
                    test = Some(syntax::condition_value(branch.field("condition")?));
                }
                _ => return None,
            }
        }
        let test = test?;
        (declared_false && self.reads_settled_values(test)).then_some(test)
    }

    fn tests_of_copies(&self, name: &str, holds: bool) -> Vec<guards::Comparison<'t>> {
        let mut found = self.copies_tested(name, holds);
        found.extend(self.tests_of_earlier_values(name, holds));
        found
    }
}

/// How many values of one flag may reach a read for the flag to stand for what they share.
const MAX_REACHING_FLAG_VALUES: usize = 4;

/// The flags as a test that failed reads them on the path that skips its branch: that path
/// keeps the values the test saw, so a change made inside the branch does not stop the flag
/// standing for its comparison there (`int valid = id < n; if (!valid) id = 0;` leaves `id < n`
/// wherever the first `id` reaches, as `if (id >= n) id = 0;` does).
pub(super) struct SkippedBranch<'a, 'b, 't>(pub(super) &'a Analyzer<'b, 't>);

impl<'t> guards::Flags<'t> for SkippedBranch<'_, '_, 't> {
    fn constant_truth(&self, condition: Node<'t>) -> Option<bool> {
        self.0.constant_truth(condition, 0)
    }

    fn flag_value(&self, name: &str) -> Option<Node<'t>> {
        guards::Flags::flag_value(self.0, name)
    }

    fn clearing_tests(&self, name: &str) -> Option<Vec<Condition<'t>>> {
        guards::Flags::clearing_tests(self.0, name)
    }

    fn setting_tests(&self, name: &str) -> Option<Vec<Node<'t>>> {
        guards::Flags::setting_tests(self.0, name)
    }

    fn setting_test_failed_where_unset(&self, name: &str) -> Option<Node<'t>> {
        guards::Flags::setting_test_failed_where_unset(self.0, name)
    }

    fn flag_value_at(&self, name: &str, read: Node<'t>) -> Option<Node<'t>> {
        self.0.flag_value_until(name, read, read.start_byte())
    }

    fn clearing_tests_at(&self, name: &str, read: Node<'t>) -> Option<Vec<Condition<'t>>> {
        self.0.clearing_tests_until(name, read, read.start_byte())
    }

    fn tests_of_copies(&self, name: &str, holds: bool) -> Vec<guards::Comparison<'t>> {
        guards::Flags::tests_of_copies(self.0, name, holds)
    }

    fn predicate_facts(
        &self,
        call: Node<'t>,
        holds: bool,
    ) -> Vec<(Node<'t>, guards::Relation, Node<'t>)> {
        guards::Flags::predicate_facts(self.0, call, holds)
    }
}

impl<'t> Analyzer<'_, 't> {
    /// Where the facts a test read at `read` gives are used up to: the position the walk reads
    /// them at, when it lies after the read (`if (active) { key = r[i]; i += stride; }` uses
    /// `active` at `r[i]`, before `i` moves), else the whole reach of the test.
    fn facts_used_until(&self, read: Node<'t>) -> usize {
        let reach = facts_end(read);
        match self.position.get() {
            Some(position) if position >= read.end_byte() && position < reach => {
                self.position_read.set(true);
                position
            }
            _ => reach,
        }
    }

    /// How many changes of locals start before the position the walk reads facts at.
    pub(super) fn changes_before_position(&self) -> usize {
        let Some(position) = self.position.get() else {
            return usize::MAX;
        };
        let starts = self.change_starts.get_or_init(|| {
            let mut starts: Vec<usize> = self
                .definitions
                .values()
                .chain(self.steps.values())
                .flatten()
                .map(|change| change.start_byte())
                .collect();
            starts.sort_unstable();
            starts
        });
        starts.partition_point(|start| *start < position)
    }

    /// The value of the flag read at `read`, when the locals it reads cannot change between its
    /// declaration and `until` (where the read's facts stop being used).
    fn flag_value_until(&self, name: &str, read: Node<'t>, until: usize) -> Option<Node<'t>> {
        if let Some(value) = guards::Flags::flag_value(self, name) {
            return Some(value);
        }
        let (declarator, values) = self.scoped_flag(name, read)?;
        if let [value] = values.as_slice() {
            return (syntax::encloses(declarator, *value)
                && (self.reads_settled_values(*value)
                    || self.unchanged_until_read(*value, declarator, read, until)))
            .then_some(*value);
        }
        self.assigned_flag_value(declarator, &values, read, until)
    }

    /// `bool valid = false; ... valid = (w < W) && (n < N); if (valid)`: a flag declared with a
    /// literal and assigned once after, where only that assignment reaches the read, holds its
    /// value there, when nothing it reads changes between the assignment and the read.
    fn assigned_flag_value(
        &self,
        declarator: Node<'t>,
        values: &[Node<'t>],
        read: Node<'t>,
        until: usize,
    ) -> Option<Node<'t>> {
        let [declared, assigned] = values else {
            return None;
        };
        if !syntax::encloses(declarator, *declared)
            || literal_truth(self.text(*declared).trim()).is_none()
            || syntax::encloses(declarator, *assigned)
        {
            return None;
        }
        let (_, reaching) = crate::model::ranges::RangeContext::reaching(self, read)?;
        let [only] = reaching.as_slice() else {
            return None;
        };
        let statement = assigned.up()?;
        (only.id() == assigned.id()
            && (self.reads_settled_values(*assigned)
                || self.unchanged_until_read(*assigned, statement, read, until)))
        .then_some(*assigned)
    }

    fn clearing_tests_until(
        &self,
        name: &str,
        read: Node<'t>,
        until: usize,
    ) -> Option<Vec<Condition<'t>>> {
        // the tests whose values hold still until this read: at least those settled everywhere
        match self.scoped_flag(name, read) {
            Some((declarator, values)) => {
                self.clearing_tests_of(name, declarator, &values, &|test| {
                    self.reads_settled_values(test)
                        || self.unchanged_until_read(test, declarator, read, until)
                })
            }
            None => guards::Flags::clearing_tests(self, name),
        }
    }

    /// Whether `name` is a local the flag reasoning may follow: no parameter, never stepped,
    /// and not a loop variable re-initialised by an enclosing `for`.
    fn is_settled_local(&self, name: &str) -> bool {
        self.function.parameter(name).is_none()
            && !self.updated.contains(name)
            && !self.loop_scopes.iter().any(|(scoped, _)| scoped == name)
    }

    /// What holds where the flag `name`, declared by `declarator` with the definitions
    /// `values`, still does (see `Flags::clearing_tests`); `settled` says of a test whether the
    /// values it reads are still those the flag saw.
    fn clearing_tests_of(
        &self,
        name: &str,
        declarator: Node<'t>,
        values: &[Node<'t>],
        settled: &dyn Fn(Node<'t>) -> bool,
    ) -> Option<Vec<Condition<'t>>> {
        if !self.is_settled_local(name) {
            return None;
        }
        let mut tests = Vec::new();
        let mut declared = false;
        let mut cleared = false;
        for value in values {
            let literal = self.text(*value).trim();
            let declared_here = declarator.start_byte() <= value.start_byte()
                && value.end_byte() <= declarator.end_byte();
            if declared_here {
                // the value the flag starts with holds wherever it is still true
                declared = true;
                if literal_truth(literal) != Some(true) {
                    tests.push(Condition {
                        node: *value,
                        holds: true,
                    });
                }
                continue;
            }
            if !only_clears(*value, name, self.source) {
                return None;
            }
            cleared = true;
            // `if (x >= w) valid = false;`: where the flag holds, that test failed; a store of
            // `false` in another shape only narrows where the flag holds, and says nothing
            if literal_truth(literal) == Some(false) {
                tests.extend(clearing_test(*value).map(|node| Condition { node, holds: false }));
            }
            // `valid &= x < w;`, `valid = valid && x < w;` on every path from the declaration:
            // where the flag holds, the test held
            if runs_whenever_declared(*value, declarator) {
                tests.extend(
                    conjoined_test(*value, name, self.source)
                        .map(|node| Condition { node, holds: true }),
                );
            }
        }
        // a test of values that change later says nothing where the flag is read; leaving it
        // out only leaves the flag saying less
        tests.retain(|test| settled(test.node));
        (declared && cleared && !tests.is_empty()).then_some(tests)
    }

    /// The declaration of the flag `name` that the read `read` sees (the innermost one around
    /// it, above it), with the definitions of `name` inside its scope; None when another
    /// declaration of the name inside that scope could shadow it.
    fn scoped_flag(&self, name: &str, read: Node<'t>) -> Option<(Node<'t>, Vec<Node<'t>>)> {
        if !self.is_settled_local(name) {
            return None;
        }
        let declarators = self.all_declarations.get(name)?;
        let inside = syntax::encloses;
        let (declarator, scope) = declarators
            .iter()
            .filter_map(|d| Some((*d, declaration_scope(*d)?)))
            .filter(|(d, scope)| inside(*scope, read) && d.end_byte() <= read.start_byte())
            .max_by_key(|(d, _)| d.start_byte())?;
        if declarators
            .iter()
            .any(|other| other.id() != declarator.id() && inside(scope, *other))
        {
            return None;
        }
        let values = self
            .definitions
            .get(name)?
            .iter()
            .filter(|v| inside(scope, **v))
            .copied()
            .collect();
        Some((declarator, values))
    }

    /// Whether no local that `expression` (a flag's value or test) reads can change between the
    /// flag's declaration `declarator` and `until`, where the facts of the read `read` stop
    /// being used: none of its definitions or steps lies between the two, and none sits in a
    /// loop around the read that does not declare the flag anew on each trip.
    fn unchanged_until_read(
        &self,
        expression: Node<'t>,
        declarator: Node<'t>,
        read: Node<'t>,
        until: usize,
    ) -> bool {
        let mut unchanged = true;
        syntax::walk_iterative(expression, |node| {
            if node.node_kind() == "identifier" {
                let input = self.text(node);
                unchanged &= self
                    .definitions
                    .get(input)
                    .into_iter()
                    .chain(self.steps.get(input))
                    .flatten()
                    .all(|change| self.change_misses_read(*change, declarator, read, until));
            }
            unchanged && node.node_kind() != "lambda_expression"
        });
        unchanged
    }

    fn change_misses_read(
        &self,
        change: Node<'t>,
        declarator: Node<'t>,
        read: Node<'t>,
        until: usize,
    ) -> bool {
        if self.changed_where_flag_cleared(change, declarator, read) {
            return true;
        }
        if declarator.end_byte() <= change.start_byte() && change.start_byte() < until {
            return false;
        }
        let contains = syntax::encloses;
        let mut node = change;
        while let Some(parent) = node.up() {
            match parent.node_kind() {
                "function_definition" | "lambda_expression" => break,
                "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
                    if contains(parent, read) && !contains(parent, declarator) =>
                {
                    return false;
                }
                _ => {}
            }
            node = parent;
        }
        true
    }

    /// `if (v == 0) { valid = false; id = -1; }`: the change of a local the flag tested, made in
    /// a block that also clears the flag, leaves the flag false on every path through it, so the
    /// flag's test still holds wherever the flag does: at a read of the flag after that block,
    /// and at one before it unless the changed local is read after the change while that read's
    /// facts still hold (`id` read again in the same branch).
    fn changed_where_flag_cleared(
        &self,
        change: Node<'t>,
        declarator: Node<'t>,
        read: Node<'t>,
    ) -> bool {
        let Some(flag) = declarator
            .field("declarator")
            .or(Some(declarator))
            .and_then(syntax::declarator_name)
            .map(|n| self.text(n))
        else {
            return false;
        };
        let Some(assignment) = change
            .up()
            .filter(|a| a.node_kind() == "assignment_expression")
        else {
            return false;
        };
        let Some(changed) = assignment
            .field("left")
            .map(|l| strip(l, self.source))
            .filter(|l| l.node_kind() == "identifier")
            .map(|l| self.text(l))
        else {
            return false;
        };
        let Some(block) = assignment
            .up()
            .filter(|s| s.node_kind() == "expression_statement")
            .and_then(|s| s.up())
            .filter(|b| b.node_kind() == "compound_statement")
        else {
            return false;
        };
        let clears_flag = named_children(block).any(|statement| {
            statement.node_kind() == "expression_statement"
                && statement.named_child(0).is_some_and(|e| {
                    e.node_kind() == "assignment_expression"
                        && e.field("left")
                            .is_some_and(|l| self.text(strip(l, self.source)) == flag)
                        && e.field("right")
                            .is_some_and(|r| only_clears(r, flag, self.source))
                })
        });
        if !clears_flag {
            return false;
        }
        // read after the block: on every path through the change the flag is false there
        if read.start_byte() >= block.end_byte() {
            return true;
        }
        let (after, until) = (assignment.end_byte(), facts_end(read));
        let mut read_after = false;
        syntax::walk_iterative(self.function.definition, |node| {
            if node.node_kind() == "identifier"
                && node.start_byte() >= after
                && node.start_byte() < until
                && self.text(node) == changed
            {
                read_after = true;
            }
            !read_after && node.start_byte() < until
        });
        !read_after
    }

    /// `if (c) { flag = true; ... }` (or `flag = other_test;` there), the only value but `false`
    /// the local `name` is given: the conjuncts of `c` that read values never changed afterwards.
    fn set_under(&self, name: &str) -> Option<Vec<Node<'t>>> {
        if !self.is_settled_local(name) || !self.declarations.contains_key(name) {
            return None;
        }
        let mut test = None;
        for value in self.definitions.get(name)? {
            // `un = (partner[tid] == -1)` under the test sets the flag there as `true` does:
            // wherever it holds, that assignment ran
            match literal_truth(self.text(*value).trim()) {
                Some(false) => {}
                Some(true) | None if test.is_none() => test = Some(setting_tests(*value)?),
                _ => return None,
            }
        }
        let mut conjuncts = Vec::new();
        let mut pending = test?;
        while let Some(part) = pending.pop() {
            let part = strip(part, self.source);
            if conjuncts.len() + pending.len() > 16 {
                break;
            }
            match (part.node_kind(), part.field("left"), part.field("right")) {
                ("binary_expression", Some(left), Some(right))
                    if operator(part, self.source) == "&&" =>
                {
                    pending.push(right);
                    pending.push(left);
                }
                _ => conjuncts.push(part),
            }
        }
        conjuncts.retain(|c| self.reads_settled_values(*c));
        (!conjuncts.is_empty()).then_some(conjuncts)
    }

    /// The value a local is declared with, when that is its one definition and it is neither a
    /// parameter, updated in place, nor scoped to a loop: what it holds wherever it is read.
    fn declared_once(&self, name: &str) -> Option<Node<'t>> {
        if !self.is_settled_local(name) {
            return None;
        }
        let (Some([value]), Some(declarator)) = (
            self.definitions.get(name).map(Vec::as_slice),
            self.declarations.get(name),
        ) else {
            return None;
        };
        (declarator.start_byte() <= value.start_byte() && value.end_byte() <= declarator.end_byte())
            .then_some(*value)
    }

    /// `bool ok = i < n;` with `i` changed later: `ok`'s test of each local `out` given `i`'s
    /// value (`int out = i;`, defined once, never changed) while `i` still held what `ok` tested.
    fn copies_tested(&self, name: &str, holds: bool) -> Vec<guards::Comparison<'t>> {
        let mut found = Vec::new();
        let Some(value) = self.declared_once(name) else {
            return found;
        };
        let test = strip(value, self.source);
        let (Some(left), Some(right)) = (test.field("left"), test.field("right")) else {
            return found;
        };
        let Some(relation) = relation_of(operator(test, self.source)) else {
            return found;
        };
        let (tested, bound, relation) = match (strip(left, self.source), strip(right, self.source))
        {
            (l, r) if l.node_kind() == "identifier" && self.reads_settled_values(r) => {
                (l, r, relation)
            }
            (l, r) if r.node_kind() == "identifier" && self.reads_settled_values(l) => {
                (r, l, relation.flipped())
            }
            _ => return found,
        };
        let relation = if holds { relation } else { relation.negated() };
        let Some((_, seen)) = crate::model::ranges::RangeContext::reaching(self, tested) else {
            return found;
        };
        let tested_name = self.text(tested);
        for (copy, values) in &self.definitions {
            let [copied] = values.as_slice() else {
                continue;
            };
            let copied = strip(*copied, self.source);
            if copied.node_kind() != "identifier"
                || self.text(copied) != tested_name
                || self.updated.contains(copy.as_str())
                || self.function.parameter(copy).is_some()
            {
                continue;
            }
            let Some(copy_declarator) = self.declarations.get(copy.as_str()) else {
                continue;
            };
            let declared_so = copy_declarator.start_byte() <= copied.start_byte()
                && copied.end_byte() <= copy_declarator.end_byte();
            let same_value = crate::model::ranges::RangeContext::reaching(self, copied)
                .is_some_and(|(_, there)| {
                    there.len() == seen.len()
                        && there.iter().zip(&seen).all(|(a, b)| a.id() == b.id())
                });
            let Some(copy_name) = copy_declarator
                .field("declarator")
                .and_then(syntax::declarator_name)
            else {
                continue;
            };
            if declared_so && same_value {
                found.push(guards::Comparison {
                    left: copy_name,
                    relation,
                    right: bound,
                    origin: value,
                });
            }
        }
        found
    }

    /// `bool ok = (r < rows) && (c < cols);` with `c` stepped afterwards (`c += 1`): what the
    /// flag tested of the values it saw, which stays true of them wherever it holds. A test of
    /// settled values is kept as written; a test of a local that changes later is kept as a test
    /// of the one value reaching the flag, when that value itself never changes (`(blockIdx.x <<
    /// 5) + lane * 4 < cols`); any other test is dropped, as is a disjunction.
    fn tests_of_earlier_values(&self, name: &str, holds: bool) -> Vec<guards::Comparison<'t>> {
        let mut found = Vec::new();
        let Some(value) = self.declared_once(name) else {
            return found;
        };
        // flags inside are read only when they are settled (no way back to this one)
        let settled_flags = |inner: &str| guards::Flags::flag_value(self, inner);
        let mut split = Vec::new();
        guards::comparisons(
            Condition { node: value, holds },
            self.source,
            &settled_flags,
            &mut split,
            &mut Vec::new(),
        );
        // a side of settled values as it is; a local that changes later as the value it held
        let earlier = |side: Node<'t>| -> Option<Node<'t>> {
            let side = strip(side, self.source);
            if self.reads_settled_values(side) {
                return Some(side);
            }
            if side.node_kind() != "identifier" {
                return None;
            }
            let (_, reaching) = crate::model::ranges::RangeContext::reaching(self, side)?;
            let [held] = reaching.as_slice() else {
                return None;
            };
            (!crate::model::reaching::updates_itself(*held, self.source)
                && self.reads_settled_values(*held))
            .then(|| strip(*held, self.source))
        };
        for comparison in split {
            if let (Some(left), Some(right)) = (earlier(comparison.left), earlier(comparison.right))
            {
                found.push(guards::Comparison {
                    left,
                    right,
                    ..comparison
                });
            }
        }
        found
    }

    /// Whether every local `expression` reads keeps one value (assigned at most once, never
    /// stepped), so the expression means the same wherever a flag built from it is read.
    pub(super) fn reads_settled_values(&self, expression: Node<'t>) -> bool {
        let mut settled = true;
        syntax::walk_iterative(expression, |node| {
            if node.node_kind() == "identifier" {
                let input = self.text(node);
                settled &= !self.updated.contains(input)
                    && !self.is_stride_variable(node)
                    && self
                        .definitions
                        .get(input)
                        .is_none_or(|values| values.len() <= 1);
            }
            settled && node.node_kind() != "lambda_expression"
        });
        settled
    }
}

/// Whether `value` is the one a local is declared with (`int c = e;`, `int c{e}`), not a later
/// assignment or step.
pub(super) fn is_declared_value(value: Node) -> bool {
    let Some(parent) = value.up() else {
        return false;
    };
    match parent.node_kind() {
        "init_declarator" => true,
        "initializer_list" | "argument_list" => parent
            .up()
            .is_some_and(|p| p.node_kind() == "init_declarator"),
        _ => false,
    }
}

/// The facts that still speak of a local once it is followed through one of its later values
/// (`c = c * s;`, `c += 1`): those a flag holds of the values it saw before a change (a side
/// taken from outside the flag's test, see `tests_of_earlier_values` and `copies_tested`) may be
/// of the value it had before, so they go.
pub(super) fn without_earlier_values(mut facts: Vec<Comparison<'_>>) -> Vec<Comparison<'_>> {
    let inside = |side: Node, origin: Node| {
        origin.start_byte() <= side.start_byte() && side.end_byte() <= origin.end_byte()
    };
    facts.retain(|c| inside(c.left, c.origin) && inside(c.right, c.origin));
    facts
}

/// `if (test) { flag = true; ... }` (the assignment a statement of the branch taken when the
/// test holds): `test`.
/// The tests that hold wherever the flag's assignment `value` runs: the `if` it sits in, and
/// every `if` around that whose consequence holds it (`if (ispec < nspec) { if (is_acoustic[ispec])
/// active = 1; }` sets `active` only where both held).
fn setting_tests(value: Node) -> Option<Vec<Node>> {
    // the innermost `if` holds the assignment itself (or its block)
    setting_test(value)?;
    Some(
        syntax::ifs_taken_to(value)
            .filter_map(|(branch, _)| branch.field("condition").map(syntax::condition_value))
            .collect(),
    )
}

fn setting_test(value: Node) -> Option<Node> {
    let assignment = value.up()?;
    let statement = assignment.up()?;
    if assignment.node_kind() != "assignment_expression"
        || statement.node_kind() != "expression_statement"
    {
        return None;
    }
    let mut branch = statement.up()?;
    let mut taken = statement;
    if branch.node_kind() == "compound_statement" {
        taken = branch;
        branch = branch.up()?;
    }
    (branch.node_kind() == "if_statement"
        && branch
            .field("consequence")
            .is_some_and(|c| c.id() == taken.id()))
    .then(|| branch.field("condition"))
    .flatten()
    .map(syntax::condition_value)
}

/// The innermost `if` without an `else` around the assignment `value` of the flag `name` whose
/// branch, on every path through it, sets the flag or leaves the kernel: `if (i >= n)
/// inactive = true;`, or `if (i >= n) { if (compact) inactive = true; else return; }` (NCV's
/// Haar detector). Past such an `if`, a flag still unset says its test failed.
fn branch_setting_or_leaving<'t>(value: Node<'t>, name: &str, source: &str) -> Option<Node<'t>> {
    syntax::ifs_taken_to(value)
        .find(|(statement, taken)| {
            statement.field("alternative").is_none() && sets_or_leaves(*taken, name, source, 0)
        })
        .map(|(statement, _)| statement)
}

/// Whether every path through `statement` assigns `true` to `name` or returns.
fn sets_or_leaves(statement: Node, name: &str, source: &str, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match statement.node_kind() {
        "return_statement" => true,
        "expression_statement" => statement.named_child(0).is_some_and(|assignment| {
            assignment.node_kind() == "assignment_expression"
                && operator(assignment, source) == "="
                && assignment
                    .field("left")
                    .is_some_and(|left| syntax::same_text(left, source, name))
                && assignment
                    .field("right")
                    .and_then(|right| literal_truth(syntax::text(right, source)))
                    == Some(true)
        }),
        "compound_statement" => {
            for inner in named_children(statement) {
                if sets_or_leaves(inner, name, source, depth + 1) {
                    return true;
                }
                // a path may jump past what follows
                let mut jumps = false;
                syntax::walk_iterative(inner, |node| {
                    jumps |= matches!(
                        node.node_kind(),
                        "break_statement" | "continue_statement" | "goto_statement"
                    );
                    !jumps
                });
                if jumps {
                    return false;
                }
            }
            false
        }
        "if_statement" => {
            let alternative =
                statement
                    .field("alternative")
                    .and_then(|clause| match clause.node_kind() {
                        "else_clause" => clause.named_child(0),
                        _ => Some(clause),
                    });
            match (statement.field("consequence"), alternative) {
                (Some(taken), Some(other)) => {
                    sets_or_leaves(taken, name, source, depth + 1)
                        && sets_or_leaves(other, name, source, depth + 1)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

fn relation_of(op: &str) -> Option<Relation> {
    Some(match op {
        "<" => Relation::Less,
        "<=" => Relation::LessEqual,
        ">" => Relation::Greater,
        ">=" => Relation::GreaterEqual,
        _ => return None,
    })
}

/// Whether `value`, given to the flag `name` after its declaration, can only leave it false or
/// as it was: `name = false`, `name &= c`, `name = name && c` (either order).
fn only_clears(value: Node, name: &str, source: &str) -> bool {
    let Some(assignment) = value
        .up()
        .filter(|a| a.node_kind() == "assignment_expression")
    else {
        return false;
    };
    if assignment
        .field("right")
        .is_none_or(|r| r.id() != value.id())
    {
        return false;
    }
    (operator(assignment, source) == "="
        && literal_truth(text(strip(value, source), source)) == Some(false))
        || conjoined_test(value, name, source).is_some()
}

/// The truth a flag stored as this literal has when tested: `true`, `false`, and the integers
/// C-style flags hold (`int in_image = 0; ... in_image = 1;`).
fn literal_truth(literal: &str) -> Option<bool> {
    match literal.trim() {
        "true" => Some(true),
        "false" => Some(false),
        number => {
            let digits = number.trim_end_matches(['u', 'U', 'l', 'L']);
            let value: u64 = digits.parse().ok()?;
            Some(value != 0)
        }
    }
}

/// Whether the store whose value is `value` runs whenever the declaration `declarator` did: the
/// statements between them are plain blocks, no branch or loop.
fn runs_whenever_declared(value: Node, declarator: Node) -> bool {
    let Some(scope) = declaration_scope(declarator) else {
        return false;
    };
    let mut node = value;
    while let Some(parent) = node.up() {
        if parent.id() == scope.id() {
            return true;
        }
        // `if constexpr (!kAligned) { ok &= ...; }`: run by every instantiation that keeps it
        if !syntax::is_kept_constexpr_branch(parent, node)
            && !matches!(
                parent.node_kind(),
                "assignment_expression"
                    | "parenthesized_expression"
                    | "expression_statement"
                    | "compound_statement"
            )
        {
            return false;
        }
        node = parent;
    }
    false
}

/// Where the facts a test read at `read` gives stop being used: the end of the `if` whose
/// condition holds it, when neither branch leaves early; else the end of the block around it.
fn facts_end(read: Node) -> usize {
    let mut node = read;
    while let Some(parent) = node.up() {
        match parent.node_kind() {
            "if_statement" => {
                let in_condition = parent
                    .field("condition")
                    .is_some_and(|c| syntax::encloses(c, read));
                if in_condition && !leaves_early(parent) {
                    return parent.end_byte();
                }
            }
            "compound_statement" | "function_definition" | "lambda_expression" => {
                return parent.end_byte();
            }
            _ => {}
        }
        node = parent;
    }
    node.end_byte()
}

/// Whether a statement holds a `return`, `break`, `continue` or `goto`.
fn leaves_early(statement: Node) -> bool {
    let mut leaves = false;
    syntax::walk_iterative(statement, |node| {
        leaves |= matches!(
            node.node_kind(),
            "return_statement" | "break_statement" | "continue_statement" | "goto_statement"
        );
        !leaves && node.node_kind() != "lambda_expression"
    });
    leaves
}

/// The block (or loop header) a local declared by `declarator` is visible in.
fn declaration_scope(declarator: Node) -> Option<Node> {
    declarator.up()?.up()
}

/// The test a clearing store conjoins to the flag `name`: `c` in `name &= c` and in
/// `name = name && c` (either order).
fn conjoined_test<'t>(value: Node<'t>, name: &str, source: &str) -> Option<Node<'t>> {
    let assignment = value.up()?;
    let value = strip(value, source);
    match operator(assignment, source) {
        "&=" => Some(value),
        "=" if value.node_kind() == "binary_expression" && operator(value, source) == "&&" => {
            let (left, right) = (value.field("left")?, value.field("right")?);
            if text(strip(left, source), source) == name {
                Some(right)
            } else if text(strip(right, source), source) == name {
                Some(left)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `if (test) flag = false;` (the assignment alone in the branch, no `else`): `test`.
fn clearing_test(value: Node) -> Option<Node> {
    let assignment = value.up()?;
    let mut statement = assignment.up()?;
    if statement.node_kind() != "expression_statement" {
        return None;
    }
    let mut branch = statement.up()?;
    if branch.node_kind() == "compound_statement" {
        if syntax::sole_statement(branch)?.id() != statement.id() {
            return None;
        }
        statement = branch;
        branch = statement.up()?;
    }
    let is_consequence = branch.node_kind() == "if_statement"
        && branch
            .field("consequence")
            .is_some_and(|c| c.id() == statement.id())
        && branch.field("alternative").is_none();
    is_consequence
        .then(|| branch.field("condition"))
        .flatten()
        .map(syntax::condition_value)
}
