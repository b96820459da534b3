//! The kernel's answers to the range analysis: which values reach a use, which are uniform, the
//! tests a definition passed, locals stepped alongside each other, and `__launch_bounds__`.

use super::*;
use crate::model::launch::AXIS_NAMES;
use crate::model::ranges::{self, Companion, RangeContext, Ranges};
use crate::model::size::Sym;

impl<'t> RangeContext<'t> for Analyzer<'_, 't> {
    fn source(&self) -> &str {
        self.source
    }

    fn reaching(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        if let Some(known) = self.reaching_cache.borrow().get(&use_.id()) {
            return known.clone();
        }
        let found = self.reaching_uncached(use_);
        self.reaching_cache
            .borrow_mut()
            .insert(use_.id(), found.clone());
        found
    }

    fn is_uniform(&self, node: Node<'t>) -> bool {
        self.expression_deps(node, 0).is_uniform()
    }

    fn varies_within_block(&self, node: Node<'t>) -> bool {
        self.expression_deps(node, 0).varies_within_block()
    }

    fn shared_helper_result(&self, call: Node<'t>) -> bool {
        // made from its arguments: a result with none flowing in is made some other way (an
        // assembly `%laneid`), which the summary does not read
        self.helper_call(call)
            .and_then(|(summary, _)| summary.returns.as_ref())
            .is_some_and(|returns| !returns.flowing.is_empty())
            && self
                .helper_call_deps(call, 0)
                .is_some_and(|deps| deps.is_uniform())
    }

    fn call_result_range(&self, call: Node<'t>) -> Option<(i128, i128)> {
        self.helper_call(call)?.0.returns.as_ref()?.range
    }

    fn helper_result(
        &self,
        call: Node<'t>,
    ) -> Option<(crate::model::helper_values::HelperValue, Vec<Node<'t>>)> {
        let (summary, arguments) = self.helper_call(call)?;
        let returned = summary.straight_line.as_ref()?.returned.clone()?;
        Some((returned, arguments))
    }

    fn facts_at_definition(
        &self,
        value: Node<'t>,
        facts: &[Comparison<'t>],
    ) -> Vec<Comparison<'t>> {
        let facts = self.with_definition_guards(value, facts);
        if !is_declared_value(value) {
            return without_earlier_values(facts);
        }
        facts
    }

    fn facts_between(&self, value: Node<'t>, use_: Node<'t>) -> Vec<Comparison<'t>> {
        let key = (value.id(), use_.id());
        if let Some(known) = self.passed_cache.borrow().get(&key) {
            return known.clone();
        }
        let mut facts = Vec::new();
        let skipping = super::flags::SkippedBranch(self);
        for condition in ranges::skipped_replacements(value, use_, self.source) {
            guards::comparisons(
                condition,
                self.source,
                &skipping,
                &mut facts,
                &mut Vec::new(),
            );
        }
        self.passed_cache.borrow_mut().insert(key, facts.clone());
        facts
    }

    fn companion(&self, value: Node<'t>) -> Option<Companion<'t>> {
        self.stepped_alongside(value)
    }

    fn constant(&self, node: Node<'t>) -> Option<i128> {
        self.constant_value(node, 0).map(i128::from)
    }

    fn grid_dim(&self, axis: usize) -> Option<Sym> {
        let launches = &self.out.launches;
        // an exact axis covers the problem: its block count is the problem's, whatever it is
        let exact = !launches.is_empty() && launches.iter().all(|l| l.exact_on(Axes::of(axis)));
        self.in_parameters_at_every_launch(|launch| launch.grid_in_arguments.get(axis))
            .or_else(|| exact.then(|| Sym::atom(&format!("blocks.{}", AXIS_NAMES[axis.min(2)]))))
    }

    fn block_dim(&self, axis: usize) -> Option<Sym> {
        self.in_parameters_at_every_launch(|launch| launch.block_in_arguments.get(axis))
            // the same constant at every launch (`<<<n, TILE>>>` with `TILE` 128)
            .or_else(|| self.block_width(axis).map(Sym::constant))
    }

    fn block_limit(&self, axis: usize) -> Option<i128> {
        (axis == 0).then_some(self.launch_bound).flatten()
    }

    fn least_passed_constant(&self, parameter: &str) -> Option<i128> {
        let position = self
            .function
            .parameters
            .iter()
            .position(|p| p.name == parameter && !p.is_pointer)?;
        if self.definitions.contains_key(parameter) || self.updated.contains(parameter) {
            return None;
        }
        let arity = self.function.parameters.len();
        let mut passed = self.out.launches.iter().map(|launch| {
            // a launch whose arguments do not line up with the parameters says nothing
            (launch.arity == Some(arity))
                .then(|| launch.argument_value(position))
                .flatten()
        });
        let first = passed.next()??;
        passed.try_fold(first, |least, value| Some(least.min(value?)))
    }
}

impl Analyzer<'_, '_> {
    /// A launch size every visible launch gives as the same polynomial in the kernel's scalar
    /// parameters (none reassigned in the kernel), in their names.
    fn in_parameters_at_every_launch(
        &self,
        size: impl Fn(&LaunchSite) -> Option<&Option<crate::model::launch::ArgumentPolynomial>>,
    ) -> Option<Sym> {
        let launches = &self.out.launches;
        let in_parameters = |launch: &LaunchSite| -> Option<Sym> {
            let terms = size(launch)?.as_ref()?;
            let named: Option<Vec<(i128, Vec<String>)>> = terms
                .iter()
                .map(|(coefficient, positions)| {
                    let names = positions
                        .iter()
                        .map(|p| {
                            let parameter = self.function.parameters.get(*p)?;
                            (!parameter.is_pointer
                                && !self.definitions.contains_key(&parameter.name))
                            .then(|| parameter.name.clone())
                        })
                        .collect::<Option<Vec<String>>>()?;
                    Some((*coefficient, names))
                })
                .collect();
            Sym::from_integer_terms(&named?)
        };
        let value = in_parameters(launches.first()?);
        (value.is_some() && launches.iter().skip(1).all(|l| in_parameters(l) == value))
            .then_some(value)
            .flatten()
    }
}

/// The kernel's answers with the launch's sizes left as `gridDim` and `blockDim`: the range of
/// an index in terms of the launch's own sizes, to be set against a buffer each launch sizes
/// from them. `grid_from_launches` keeps what the launches say of the grid (for a check that
/// puts each launch's block in itself).
pub(super) struct OwnSizes<'k, 'a, 't> {
    pub(super) analyzer: &'k Analyzer<'a, 't>,
    pub(super) grid_from_launches: bool,
}

impl<'k, 'a, 't> OwnSizes<'k, 'a, 't> {
    pub(super) fn grid_and_block(analyzer: &'k Analyzer<'a, 't>) -> Self {
        OwnSizes {
            analyzer,
            grid_from_launches: false,
        }
    }
    pub(super) fn block(analyzer: &'k Analyzer<'a, 't>) -> Self {
        OwnSizes {
            analyzer,
            grid_from_launches: true,
        }
    }
}

impl<'t> RangeContext<'t> for OwnSizes<'_, '_, 't> {
    fn source(&self) -> &str {
        self.analyzer.source
    }
    fn reaching(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        RangeContext::reaching(self.analyzer, use_)
    }
    fn is_uniform(&self, node: Node<'t>) -> bool {
        RangeContext::is_uniform(self.analyzer, node)
    }
    fn varies_within_block(&self, node: Node<'t>) -> bool {
        RangeContext::varies_within_block(self.analyzer, node)
    }
    fn shared_helper_result(&self, call: Node<'t>) -> bool {
        RangeContext::shared_helper_result(self.analyzer, call)
    }
    fn call_result_range(&self, call: Node<'t>) -> Option<(i128, i128)> {
        RangeContext::call_result_range(self.analyzer, call)
    }
    fn helper_result(
        &self,
        call: Node<'t>,
    ) -> Option<(crate::model::helper_values::HelperValue, Vec<Node<'t>>)> {
        RangeContext::helper_result(self.analyzer, call)
    }
    fn facts_at_definition(
        &self,
        value: Node<'t>,
        facts: &[Comparison<'t>],
    ) -> Vec<Comparison<'t>> {
        RangeContext::facts_at_definition(self.analyzer, value, facts)
    }
    fn facts_between(&self, value: Node<'t>, use_: Node<'t>) -> Vec<Comparison<'t>> {
        RangeContext::facts_between(self.analyzer, value, use_)
    }
    fn companion(&self, value: Node<'t>) -> Option<Companion<'t>> {
        RangeContext::companion(self.analyzer, value)
    }
    fn constant(&self, node: Node<'t>) -> Option<i128> {
        RangeContext::constant(self.analyzer, node)
    }
    fn grid_dim(&self, axis: usize) -> Option<Sym> {
        if self.grid_from_launches {
            RangeContext::grid_dim(self.analyzer, axis)
        } else {
            None
        }
    }
    // a width every launch gives as one constant is each launch's own: put in before the bounds
    // are bound launch by launch, it lets `(gridDim.x * 32 - 1) >> 5` read as `gridDim.x - 1`
    fn block_dim(&self, axis: usize) -> Option<Sym> {
        self.analyzer.block_width(axis).map(Sym::constant)
    }
    fn block_limit(&self, axis: usize) -> Option<i128> {
        RangeContext::block_limit(self.analyzer, axis)
    }
    fn least_passed_constant(&self, parameter: &str) -> Option<i128> {
        RangeContext::least_passed_constant(self.analyzer, parameter)
    }
}

impl<'t> Analyzer<'_, 't> {
    /// Whether the access of the buffer parameter `parameter` at `index` stays inside the buffer
    /// every visible launch passes for it: the index's largest value, with each launch's grid,
    /// block and arguments put in for `gridDim`, `blockDim` and the kernel's parameters, is below
    /// the elements that launch's allocation of the buffer holds (`grid * 450` floats for a grid
    /// of `grid` blocks that each index 450 of them). Every launch must show its allocation.
    /// `element` is the type the access reads when a cast names another than the parameter's
    /// (`reinterpret_cast<const int4*>(in)[i]` reads `int4`).
    pub(super) fn fits_every_buffer(
        &self,
        parameter: usize,
        index: Node<'t>,
        offset: Option<Node<'t>>,
        element: Option<&str>,
    ) -> bool {
        self.buffer_holds_it_per_launch(parameter, index, offset, element)
            .is_some_and(|fits| fits.iter().all(|fits| *fits))
    }

    /// For each launch, in order, whether its allocation of the buffer holds every element the
    /// access reaches (see `fits_every_buffer`); None where the sizes cannot be read at all.
    pub(super) fn buffer_holds_it_per_launch(
        &self,
        parameter: usize,
        index: Node<'t>,
        offset: Option<Node<'t>>,
        element: Option<&str>,
    ) -> Option<Vec<bool>> {
        if self.out.launches.is_empty() || self.out.launches.iter().any(|l| l.sizes.is_empty()) {
            return None;
        }
        let declared = self.function.parameters.get(parameter)?;
        let element = crate::model::size::normalize_type(element.unwrap_or(&declared.type_text));
        let element = element.trim_start_matches("const ").trim();
        if self
            .function
            .template_parameters
            .iter()
            .any(|t| t == element)
        {
            return None;
        }
        let per_element = |bytes: &Sym| -> Option<Sym> {
            match crate::model::size::builtin_size(element) {
                Some(size) => bytes.divided_exactly(size),
                None => bytes.divided_by_atom_exactly(&format!("sizeof({element})")),
            }
        };
        let split = self.current_comparisons();
        let own_sizes = OwnSizes::grid_and_block(self);
        let ranges = Ranges::new(&own_sizes);
        let mut range = ranges.range(index, &split.0);
        if let Some(offset) = offset {
            // `p = base + w * S; p[k]` with `k` chosen by no thread index and bounded by
            // nothing in sight: the thread's own slab of `S` elements is what it reaches, as an
            // index the thread does not choose is no concern of a thread-index bound elsewhere
            if range.hi.is_none() && !self.expression_deps(index, 0).is_global_index() {
                if let Some(stride) = self.slab_stride(offset) {
                    let stride = stride
                        .iter()
                        .map(|factor| ranges.range(*factor, &split.0))
                        .reduce(|a, b| crate::model::ranges::multiply(&a, &b));
                    if let Some(last) = stride
                        .and_then(|s| s.hi)
                        .and_then(|s| s.sub(&Sym::constant(1)))
                    {
                        range = crate::model::ranges::Range::exactly(last);
                        range.lo = Some(Sym::constant(0));
                    }
                }
            }
            range = range.plus(&ranges.range(offset, &split.0), false);
        }
        let tops: Vec<Sym> = range
            .upper_bounds()
            .filter_map(|top| self.with_file_constants(top))
            .collect();
        if tops.is_empty() {
            return None;
        }
        let names = self.function.parameter_names();
        let fits = self.out.launches.iter().map(|launch| {
            launch.sizes.iter().any(|sizes| {
                let Some(Some(bytes)) = sizes.buffers.get(parameter) else {
                    return false;
                };
                let Some(last) = per_element(bytes).and_then(|e| e.sub(&Sym::constant(1))) else {
                    return false;
                };
                tops.iter().any(|top| {
                    sizes
                        .bind(top, &names)
                        .is_some_and(|top| sizes.at_most(&top, &last))
                })
            })
        });
        Some(fits.collect())
    }

    /// The factors of a thread's slab in the product `offset` (`warp_id * max_deg * 2`): those
    /// that no thread index reaches, when exactly the others do (`max_deg`, `2`).
    fn slab_stride(&self, offset: Node<'t>) -> Option<Vec<Node<'t>>> {
        let mut factors = Vec::new();
        let mut pending = vec![strip(offset, self.source)];
        while let Some(node) = pending.pop() {
            if factors.len() > 8 {
                return None;
            }
            if node.node_kind() == "binary_expression" && operator(node, self.source) == "*" {
                pending.push(strip(node.field("left")?, self.source));
                pending.push(strip(node.field("right")?, self.source));
            } else {
                factors.push(node);
            }
        }
        let (threaded, stride): (Vec<_>, Vec<_>) = factors
            .into_iter()
            .partition(|f| !self.expression_deps(*f, 0).is_uniform());
        (threaded.len() == 1 && !stride.is_empty()).then_some(stride)
    }

    fn reaching_uncached(&self, use_: Node<'t>) -> Option<Reaching<'t>> {
        let name = self.text(use_);
        let defined = self.definitions.get(name);
        let stepped = self.steps.get(name);
        if defined.is_none() && stepped.is_none() {
            return None;
        }
        let all: Vec<Node<'t>> = defined
            .into_iter()
            .chain(stepped)
            .flatten()
            .copied()
            .collect();
        let values =
            crate::model::reaching::reaching(&all, use_, self.function.definition, self.source);
        let first = values.first().map_or(use_.start_byte(), |v| v.start_byte());
        // the values before an update in place are fewer than those after it: another set
        Some((format!("{name}@{first}#{}", values.len()), values))
    }
}

impl<'t> Analyzer<'_, 't> {
    /// `value` with the names the file gives values (`const int N = 10;`, `#define S 10`) put
    /// in; other names are kept.
    pub(super) fn with_file_constants(&self, value: &Sym) -> Option<Sym> {
        let constants = self.model.and_then(|model| self.file_constants(model));
        value.substitute(&|atom| {
            let value = match (constants, self.model) {
                (Some(constants), Some(model)) if !atom.contains('.') => {
                    constants.value(atom, model)
                }
                _ => None,
            };
            Some(value.map_or_else(|| Sym::atom(atom), Sym::constant))
        })
    }

    /// The constants of the kernel's file, read once.
    pub(super) fn file_constants(
        &self,
        model: &crate::model::Model<'t>,
    ) -> Option<&crate::model::launch::FileConstants<'t>> {
        self.file_constants
            .get_or_init(|| {
                Some(crate::model::launch::FileConstants::of(
                    self.function.body,
                    model.source,
                ))
            })
            .as_ref()
    }

    /// Whether the value range of `node` under `comparisons` stays inside the sizes the kernel
    /// is given and the block's shape.
    pub(super) fn range_bounded(&self, node: Node<'t>, comparisons: &[Comparison<'t>]) -> bool {
        Ranges::new(self).range(node, comparisons).is_bounded()
    }

    /// Whether a test other than the condition `apart_from` bounds `node` from above by sizes
    /// the kernel is given (or a constant), the launch's sizes left open: then the test
    /// `apart_from` splits a range the index already keeps (the inputs from the logic nodes of
    /// `id < nObjs`, the two halves of a table of `2 * N`) rather than marking a buffer's end.
    pub(super) fn bounded_apart_from(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
        apart_from: Node<'t>,
    ) -> bool {
        let others = without_condition(comparisons, apart_from);
        let range = Ranges::new(&OwnSizes::grid_and_block(self)).range(node, &others);
        let is_size = |atom: &String| {
            let base = atom.split(['.', '-', '[']).next().unwrap_or(atom);
            self.function.parameter(base).is_some_and(|p| !p.is_pointer)
        };
        let bounded = range.upper_bounds().any(|hi| hi.atoms().all(is_size));
        bounded
    }

    /// Whether `node >= bound` (`node > bound` when `strict`) holds whatever the thread, by the
    /// ranges under the other tests: `nodeIdx >= nodeOffset` for `nodeIdx = nodeOffset + tid` is
    /// the lower side of a window, no test against its end.
    pub(super) fn always_at_least(
        &self,
        node: Node<'t>,
        bound: Node<'t>,
        strict: bool,
        comparisons: &[Comparison<'t>],
        apart_from: Node<'t>,
    ) -> bool {
        let others = without_condition(comparisons, apart_from);
        let sizes = OwnSizes::grid_and_block(self);
        let ranges = Ranges::new(&sizes);
        let (value, bound) = (ranges.range(node, &others), ranges.range(bound, &others));
        let margin = Sym::constant(i128::from(strict));
        let holds = value.lower_bounds().any(|lo| {
            bound.upper_bounds().any(|hi| {
                hi.add(&margin)
                    .is_some_and(|least| least.integer_at_most(lo))
            })
        });
        holds
    }

    /// Whether the value range of `node` under `comparisons` stays below a size the kernel is
    /// given (`L - 1` for `j` in `for (j = L - blockDim.x + tx; j >= 0; j -= blockDim.x)`): as
    /// good as a guard `j < L`. Only a parameter less a constant is such a size: a bound that
    /// scales with the block (`verts * threadIdx.x` is below `31 * verts` in blocks of 32) says
    /// nothing of the buffer.
    pub(super) fn range_below_a_size(
        &self,
        node: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> bool {
        // the launch's sizes left as they are: `threadIdx.x` under blocks of `klon` is below
        // `klon` only because of the launch, and says nothing of how the code bounds it
        let range = Ranges::new(&OwnSizes::grid_and_block(self)).range(node, comparisons);
        let below = range.upper_bounds().any(|hi| {
            let Some(terms) = hi.integer_terms() else {
                return false;
            };
            let (sizes, constants): (Vec<_>, Vec<_>) =
                terms.iter().partition(|(_, monomial)| !monomial.is_empty());
            matches!(sizes.as_slice(), [(1, monomial)]
                if monomial.len() == 1 && self.function.parameter(&monomial[0]).is_some())
                && constants.iter().map(|(c, _)| *c).sum::<i128>() < 0
        });
        below
    }

    /// For the step `g += s` of a local that starts as `base + u` where `u` is a local taking
    /// the same steps `u += s` at the same places, the starting expression: `g` always equals it
    /// with `u`'s current value.
    pub(super) fn stepped_alongside(&self, step: Node<'t>) -> Option<Companion<'t>> {
        let assignment = step.up()?;
        if assignment.node_kind() != "assignment_expression"
            || operator(assignment, self.source) != "+="
        {
            return None;
        }
        let target = strip(assignment.field("left")?, self.source);
        let name = self.text(target);
        let (start, steps, lifetime_end) = self.start_and_steps(name, target)?;
        let step_text = normalized(step, self.source);
        if steps
            .iter()
            .any(|s| normalized(*s, self.source) != step_text)
        {
            return None;
        }
        let start_node = strip(start, self.source);
        let mut companion = None;
        syntax::walk_iterative(start_node, |node| {
            if companion.is_some() {
                return false;
            }
            if node.node_kind() == "identifier" && self.text(node) != name {
                let other = self.text(node);
                if let Some(other_steps) = self.steps_between(other, start, &steps, lifetime_end) {
                    let other_step = other_steps.first().map(|s| normalized(*s, self.source));
                    let same_places = other_steps.len() == steps.len()
                        && steps.iter().all(|mine| {
                            other_steps.iter().any(|theirs| {
                                Some(normalized(*theirs, self.source)) == other_step
                                    && in_step_with(*mine, *theirs, name, self.source)
                            })
                        });
                    let in_step = other_step.as_deref().is_some_and(|other_step| {
                        if other_step == step_text {
                            appears_added(start_node, node, self.source)
                        } else {
                            self.scaled_alike(start_node, node, step, other_step)
                        }
                    });
                    if same_places && in_step {
                        companion = Some(Companion {
                            expression: start,
                            stepped: other.to_string(),
                        });
                    }
                }
            }
            matches!(
                node.node_kind(),
                "binary_expression" | "parenthesized_expression" | "identifier"
            )
        });
        companion
    }

    /// `a = m * cols + c` stepped `a += s * cols` (or by a local `inc = s * cols`) while `m +=
    /// s`: the term `m * F` of the start grows by `F` times `m`'s step, so `a` keeps equal to its
    /// start with `m`'s current value.
    fn scaled_alike(
        &self,
        start: Node<'t>,
        mention: Node<'t>,
        step: Node<'t>,
        other_step: &str,
    ) -> bool {
        let mut term = mention;
        while let Some(parent) = term
            .up()
            .filter(|p| p.node_kind() == "parenthesized_expression")
        {
            term = parent;
        }
        let Some(product) = term
            .up()
            .filter(|p| p.node_kind() == "binary_expression" && operator(*p, self.source) == "*")
        else {
            return false;
        };
        let (Some(left), Some(right)) = (product.field("left"), product.field("right")) else {
            return false;
        };
        let factor = if left.id() == term.id() { right } else { left };
        if !appears_added(start, product, self.source) {
            return false;
        }
        let factor = normalized(factor, self.source);
        let mut step = strip(step, self.source);
        if step.node_kind() == "identifier" {
            match self.definitions.get(self.text(step)).map(Vec::as_slice) {
                Some([only]) if !self.steps.contains_key(self.text(step)) => {
                    step = strip(*only, self.source)
                }
                _ => return false,
            }
        }
        if step.node_kind() != "binary_expression" || operator(step, self.source) != "*" {
            return false;
        }
        let (Some(a), Some(b)) = (step.field("left"), step.field("right")) else {
            return false;
        };
        let (a, b) = (normalized(a, self.source), normalized(b, self.source));
        (a == other_step && b == factor) || (b == other_step && a == factor)
    }

    /// The `+=` steps of `name` from `start` to `lifetime_end` (where the local stepped with it
    /// is defined anew), when nothing else assigns it from `start` to the last of `until`.
    /// Steps outside that stretch belong to another lifetime of a local of the same name (a
    /// sibling block declaring its own).
    fn steps_between(
        &self,
        name: &str,
        start: Node<'t>,
        until: &[Node<'t>],
        lifetime_end: usize,
    ) -> Option<Vec<Node<'t>>> {
        if self.steps.contains_key(name) {
            return None;
        }
        let from = start.start_byte();
        let to = until.iter().map(|s| s.end_byte()).max()?;
        let mut steps = Vec::new();
        for value in self.definitions.get(name)? {
            if crate::model::reaching::updates_itself(*value, self.source) {
                let plus = value.up().is_some_and(|p| {
                    p.node_kind() == "assignment_expression" && operator(p, self.source) == "+="
                });
                if !plus {
                    return None;
                }
                if value.start_byte() >= from && value.start_byte() < lifetime_end {
                    steps.push(*value);
                }
            } else if value.end_byte() > from && value.start_byte() < to {
                return None;
            }
        }
        Some(steps)
    }

    /// The plain definition of a local that reaches the step whose target is `target`, and the
    /// steps (`+=` right-hand sides) it takes before the local is defined again: a local set
    /// again after its loop (`group_index = i * blockDim.x + id` in a later loop) keeps its
    /// first start for the steps of the first loop.
    /// Also where that run of steps ends: the start of the next plain definition, if any.
    fn start_and_steps(
        &self,
        name: &str,
        target: Node<'t>,
    ) -> Option<(Node<'t>, Vec<Node<'t>>, usize)> {
        if self.steps.contains_key(name) {
            return None;
        }
        let values = self.definitions.get(name)?;
        let plain = |v: &Node<'t>| !crate::model::reaching::updates_itself(*v, self.source);
        let reaching =
            crate::model::reaching::reaching(values, target, self.function.definition, self.source);
        let mut starts = reaching.iter().filter(|v| plain(v));
        let start = *starts.next()?;
        if starts.next().is_some() {
            return None;
        }
        // the steps between this start and the next plain definition after it
        let until = values
            .iter()
            .filter(|v| plain(v) && v.start_byte() > start.end_byte())
            .map(|v| v.start_byte())
            .min()
            .unwrap_or(usize::MAX);
        let mut steps = Vec::new();
        for value in values {
            if plain(value) || value.start_byte() < start.end_byte() || value.start_byte() > until {
                continue;
            }
            let plus = value.up().is_some_and(|p| {
                p.node_kind() == "assignment_expression" && operator(p, self.source) == "+="
            });
            if !plus {
                return None;
            }
            steps.push(*value);
        }
        Some((start, steps, until)).filter(|(_, steps, _)| !steps.is_empty())
    }
}

/// Whether the steps `a` and `b` of two locals run together: in the same block, or one at the
/// top of a `for` body and the other in its header's update (which runs after the body's last
/// statement, and always: no `continue` skips a step of the body), with no read of `name`
/// where one has stepped and the other not yet.
fn in_step_with(a: Node, b: Node, name: &str, source: &str) -> bool {
    let (Some((container, at_a)), Some((other, at_b))) = (step_site(a), step_site(b)) else {
        return false;
    };
    if container.id() != other.id() {
        return false;
    }
    let in_header = |step: Node| for_updated_by(step).is_some();
    if (in_header(a) || in_header(b)) && continues_its_loop(container) {
        return false;
    }
    !read_between(container, at_a, at_b, name, source)
}

/// Where a step takes effect, in the order a loop runs it: the block it sits in and its offset
/// there; a `for` header's update takes effect at the end of the loop's body.
fn step_site(step: Node) -> Option<(Node, usize)> {
    if let Some(body) = for_updated_by(step).and_then(|f| f.field("body")) {
        if body.node_kind() == "compound_statement" {
            return Some((syntax::through_constexpr_branch(body), body.end_byte()));
        }
        return None;
    }
    let assignment = step.up().unwrap_or(step);
    let container = std::iter::successors(step.up(), |n| n.up())
        .find(|n| matches!(n.node_kind(), "compound_statement" | "for_statement"))?;
    Some((
        syntax::through_constexpr_branch(container),
        assignment.start_byte(),
    ))
}

/// The `for` loop whose header's update is the step `step` (`i += s`, or one of a comma list).
fn for_updated_by(step: Node) -> Option<Node> {
    let mut node = step.up()?;
    for _ in 0..4 {
        let parent = node.up()?;
        if parent.node_kind() == "for_statement" {
            return parent
                .field("update")
                .is_some_and(|u| u.id() == node.id())
                .then_some(parent);
        }
        if parent.node_kind() != "comma_expression" {
            return None;
        }
        node = parent;
    }
    None
}

/// Whether a `continue` of the loop whose body is `body` sits in it (not in a nested loop).
fn continues_its_loop(body: Node) -> bool {
    let mut found = false;
    syntax::walk_iterative(body, |node| {
        found |= node.node_kind() == "continue_statement";
        !found
            && (node.id() == body.id()
                || !matches!(
                    node.node_kind(),
                    "for_statement" | "while_statement" | "do_statement" | "for_range_loop"
                ))
    });
    found
}

/// Whether `name` is read in `container` between the offsets `a` and `b` (in either order):
/// there one of the locals has taken its step and the other not yet, so they are not in step.
fn read_between(container: Node, a: usize, b: usize, name: &str, source: &str) -> bool {
    let (from, to) = (a.min(b), a.max(b));
    let mut read = false;
    syntax::walk_iterative(container, |node| {
        if read || node.end_byte() <= from || node.start_byte() >= to {
            return false;
        }
        // a step's own target is no read
        let is_target = node.up().is_some_and(|p| {
            p.node_kind() == "assignment_expression"
                && p.field("left").is_some_and(|l| l.id() == node.id())
        });
        read |= node.node_kind() == "identifier"
            && !is_target
            && node.start_byte() >= from
            && node.end_byte() <= to
            && syntax::text(node, source) == name;
        !read
    });
    read
}

/// Whether `part` is added (not subtracted, multiplied or divided) into `sum`.
fn appears_added(sum: Node, part: Node, source: &str) -> bool {
    let mut node = part;
    while node.id() != sum.id() {
        let Some(parent) = node.up() else {
            return false;
        };
        let fine = match parent.node_kind() {
            "parenthesized_expression" => true,
            "binary_expression" => {
                let op = operator(parent, source);
                op == "+"
                    || (op == "-" && parent.field("left").is_some_and(|l| l.id() == node.id()))
            }
            _ => false,
        };
        if !fine {
            return false;
        }
        node = parent;
    }
    true
}

/// The facts of `comparisons` that do not come from the condition `condition`.
fn without_condition<'t>(
    comparisons: &[Comparison<'t>],
    condition: Node<'t>,
) -> Vec<Comparison<'t>> {
    comparisons
        .iter()
        .filter(|c| c.origin.id() != condition.id())
        .copied()
        .collect()
}

/// `__launch_bounds__(256)` before the kernel's name: the largest block it may be launched with.
pub(super) fn declared_launch_bound(function: &Function, source: &str) -> Option<i128> {
    crate::model::size::parse_number(declared_launch_bound_text(function, source)?)
        .filter(|v| *v > 0)
}

/// `__launch_bounds__(kThreads)`: the name of the constant the bound is written as.
pub(super) fn declared_launch_bound_name<'s>(
    function: &Function,
    source: &'s str,
) -> Option<&'s str> {
    let first = declared_launch_bound_text(function, source)?;
    let is_name = first.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    is_name.then_some(first)
}

/// The text of `__launch_bounds__`'s first argument, before the kernel's name.
fn declared_launch_bound_text<'s>(function: &Function, source: &'s str) -> Option<&'s str> {
    let head = source.get(function.definition.start_byte()..function.body.start_byte())?;
    let after = head.split("__launch_bounds__").nth(1)?;
    let inside = after.trim_start().strip_prefix('(')?;
    Some(inside.split([',', ')']).next()?.trim())
}
