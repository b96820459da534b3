//! Global-memory accesses and the status of their index.

use super::*;

impl<'a, 't> Analyzer<'a, 't> {
    // ---- accesses ----------------------------------------------------------------------

    pub(super) fn record_subscript(&mut self, node: Node<'t>) {
        let Some(mut base) = node.field("argument").map(|a| strip(a, self.source)) else {
            return;
        };
        // `acc[n][c][h][w]` on a tensor accessor: every subscript indexes one dimension of the
        // accessor's tensor
        let mut dimension = 0;
        while base.node_kind() == "subscript_expression" && dimension < 16 {
            let Some(inner) = base.field("argument").map(|a| strip(a, self.source)) else {
                return;
            };
            base = inner;
            dimension += 1;
        }
        if base.node_kind() != "identifier" {
            return;
        }
        if let Some(rows) = self
            .extern_shared
            .get(self.text(base))
            .map(|a| usize::from(a.rows))
        {
            // a pointer to rows (`rows[j][i]`) reaches an element through both subscripts; the
            // inner one alone is a row's address
            if dimension == rows {
                if let Some(index) = subscript_index(node) {
                    self.record_extern_shared(node, self.text(base), index);
                }
            }
            if dimension <= rows {
                return;
            }
        }
        if dimension > 0 && !self.is_accessor(self.text(base)) {
            return;
        }
        if self.is_accessor(self.text(base))
            && !reaches_accessor_element(
                node,
                dimension + 1,
                self.accessor_rank(self.text(base)),
                self.source,
            )
        {
            return;
        }
        let Some(index) = subscript_index(node) else {
            return;
        };
        if self.address_kept_in_a_local(node) {
            return;
        }
        self.record_access(node, self.text(base).to_string(), Some(base), index);
    }

    /// `T* row = &p[r * width + c];`: the element's address is only kept in a local pointer,
    /// whose own accesses are read with this offset (`row[k]` is `p[r * width + c + k]`);
    /// forming the address touches no memory.
    fn address_kept_in_a_local(&self, subscript: Node<'t>) -> bool {
        let Some(address) = subscript
            .up()
            .filter(|p| p.node_kind() == "pointer_expression" && operator(*p, self.source) == "&")
        else {
            return false;
        };
        let mut value = address;
        for _ in 0..4 {
            match value.up() {
                Some(parent)
                    if matches!(
                        parent.node_kind(),
                        "parenthesized_expression" | "cast_expression"
                    ) =>
                {
                    value = parent
                }
                _ => break,
            }
        }
        let target = match value.up() {
            Some(declarator) if declarator.node_kind() == "init_declarator" => declarator
                .field("value")
                .filter(|v| v.id() == value.id())
                .and_then(|_| declarator.field("declarator"))
                .and_then(syntax::declarator_name),
            Some(assignment) if assignment.node_kind() == "assignment_expression" => assignment
                .field("right")
                .filter(|v| v.id() == value.id())
                .and_then(|_| assignment.field("left"))
                .map(|left| strip(left, self.source))
                .filter(|left| left.node_kind() == "identifier"),
            _ => None,
        };
        target.is_some_and(|name| {
            self.pointer_at(name)
                .is_some_and(|origin| origin.offset.is_some())
        })
    }

    /// The number of dimensions of accessor parameter `name`, where its type spells it.
    fn accessor_rank(&self, name: &str) -> Option<usize> {
        self.function
            .parameter(name)
            .and_then(|p| crate::model::tensor_accessor_rank(&p.type_text))
    }

    /// Whether `name` is a tensor accessor parameter of the function.
    fn is_accessor(&self, name: &str) -> bool {
        self.function
            .parameter(name)
            .is_some_and(|p| p.is_tensor_accessor())
    }

    pub(super) fn record_dereference(&mut self, node: Node<'t>) {
        let Some(argument) = node.field("argument").map(|a| strip(a, self.source)) else {
            return;
        };
        // `*row` where `row = &p[k]`: the element `p[k]`, reached where the dereference stands
        if argument.node_kind() == "identifier" {
            let name = self.text(argument);
            let origin = self
                .pointer_at(argument)
                .filter(|_| !self.updated.contains(name));
            if let Some((parameter_index, Some(offset))) =
                origin.map(|o| (o.parameter_index, o.offset))
            {
                if let Some(parameter) = self.function.parameters.get(parameter_index) {
                    let name = parameter.name.clone();
                    self.record_access(node, name, None, offset);
                }
            }
            return;
        }
        if argument.node_kind() != "binary_expression" || operator(argument, self.source) != "+" {
            return;
        }
        let (Some(left), Some(right)) = (argument.field("left"), argument.field("right")) else {
            return;
        };
        let (left, right) = (strip(left, self.source), strip(right, self.source));
        if left.node_kind() == "identifier" && self.pointers.contains_key(self.text(left)) {
            self.record_access(node, self.text(left).to_string(), Some(left), right);
        } else if right.node_kind() == "identifier" && self.pointers.contains_key(self.text(right))
        {
            self.record_access(node, self.text(right).to_string(), Some(right), left);
        }
    }

    /// An access of `pointer` at `index`; `read` is where the access names the pointer (`row` in
    /// `row[k]`), so that of several pointers of that name the one in scope there is taken.
    pub(super) fn record_access(
        &mut self,
        node: Node<'t>,
        pointer: String,
        read: Option<Node<'t>>,
        index: Node<'t>,
    ) {
        let origin = match read {
            Some(read) => self.pointer_at(read),
            None => self.pointers.get(&pointer).copied(),
        };
        let Some(origin) = origin else {
            return;
        };
        let parameter_index = origin.parameter_index;
        let pointer_offset = origin.offset;
        let mut deps = self.expression_deps(index, 0);
        if let Some(offset) = pointer_offset {
            deps = deps.union(self.expression_deps(offset, 0));
        }
        // per launch, whether its buffer holds what the index (from the pointer's offset)
        // reaches: read once, when first asked
        let holds_per_launch: std::cell::OnceCell<Option<Vec<bool>>> = std::cell::OnceCell::new();
        let holds_per_launch = || {
            holds_per_launch
                .get_or_init(|| {
                    subscript_element(node, &pointer, self.source).and_then(|element| {
                        self.buffer_holds_it_per_launch(
                            parameter_index,
                            index,
                            pointer_offset,
                            element.as_deref(),
                        )
                    })
                })
                .clone()
        };
        let fits_every_buffer =
            || holds_per_launch().is_some_and(|fits| fits.iter().all(|fits| *fits));
        let status = if deps.is_global_index() {
            match self.index_status(index, pointer_offset) {
                IndexStatus::Unguarded { .. }
                    if pointer_offset.is_none()
                        && (self.holds_a_thread_each(parameter_index, index)
                            || self.launched_to_fit(parameter_index, index)
                            || self.slot_per_launched_thread(&pointer, parameter_index)) =>
                {
                    IndexStatus::Bounded { bound: None }
                }
                IndexStatus::Unguarded { .. }
                    if pointer_offset.is_none() && fits_every_buffer() =>
                {
                    IndexStatus::Bounded { bound: None }
                }
                // the values that reach the index here are not the thread's position (a
                // permutation read back from shared memory, chosen per thread): not a thread index
                IndexStatus::Unguarded { .. }
                    if !self.reaches_as_global_index(index, pointer_offset) =>
                {
                    IndexStatus::NotThreadIndexed
                }
                // a thread's slab of the buffer (`p = &buf[warp * S]; p[i]`)
                IndexStatus::Unguarded { .. }
                    if pointer_offset.is_some() && fits_every_buffer() =>
                {
                    IndexStatus::Bounded { bound: None }
                }
                status => status,
            }
        } else {
            IndexStatus::NotThreadIndexed
        };
        // `offsets[n]` read elsewhere in the kernel: the buffer holds `n + 1` elements (the fence
        // posts of `n` segments), so `i <= n` is its bound, not one past it
        let status = match status {
            IndexStatus::OutOfRange {
                guard,
                admits_bound: true,
            } if self.reads_at_the_bound(&pointer, index, guard) => {
                IndexStatus::Bounded { bound: None }
            }
            // `i <= n` on a buffer every launch passes with `n + 1` elements (CSR row offsets)
            IndexStatus::OutOfRange {
                admits_bound: true, ..
            } if pointer_offset.is_none() && fits_every_buffer() => {
                IndexStatus::Bounded { bound: None }
            }
            status => status,
        };
        // of the launches that leave the access unsafe, those whose buffer still holds it
        let launches_holding_it = match status {
            IndexStatus::Unguarded { .. } if self.out.launches.len() > 1 => holds_per_launch()
                .map(|fits| {
                    fits.iter()
                        .enumerate()
                        .filter_map(|(launch, fits)| fits.then_some(launch))
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if matches!(status, IndexStatus::Bounded { .. }) && pointer_offset.is_none() {
            self.note_vector_tail(node, &pointer, parameter_index, index);
        }
        let every_thread_at_global_x = matches!(status, IndexStatus::Bounded { bound: None })
            && pointer_offset.is_none()
            && self.facts.is_empty()
            && !super::thread_values::in_loop(node)
            && self.thread_term(index, 0) == Some(ThreadTerm::GlobalX { strides: 0 });
        self.out.accesses.push(Access {
            node,
            pointer,
            parameter_index,
            index,
            pointer_offset,
            kind: access_kind(node, self.source),
            deps,
            status,
            statement: enclosing_statement(node),
            every_thread_at_global_x,
            via: None,
            launches_holding_it,
        });
    }

    /// Whether the kernel subscripts `pointer` anywhere at exactly the bound that the `<=` of
    /// `guard` admits for `index` itself (`if (i <= n) offsets[i]; else offsets[n]`; not
    /// `offsets[i + 1]`, which reaches past it).
    fn reads_at_the_bound(&self, pointer: &str, index: Node<'t>, guard: Node<'t>) -> bool {
        let split = self.current_comparisons();
        let index = normalized_text(index, self.source);
        let bounds: Vec<String> = split
            .0
            .iter()
            .filter(|c| c.origin.id() == guard.id())
            .flat_map(|c| [c.oriented(true), c.oriented(false)])
            .filter(|c| {
                c.relation == Relation::LessEqual && syntax::same_text(c.left, self.source, &index)
            })
            .map(|c| normalized_text(c.right, self.source).into_owned())
            .collect();
        if bounds.is_empty() {
            return false;
        }
        let mut found = false;
        syntax::walk_iterative(self.function.body, |node| {
            if found {
                return false;
            }
            if node.node_kind() == "subscript_expression"
                && node
                    .field("argument")
                    .is_some_and(|a| self.text(strip(a, self.source)) == pointer)
            {
                found = subscript_index(node).is_some_and(|index| {
                    bounds
                        .iter()
                        .any(|b| syntax::same_text(index, self.source, b))
                });
            }
            !found
        });
        found
    }

    /// Whether `index` is the thread's global `x` index (plus whole grid strides) and every
    /// visible launch passes, for the parameter, a buffer allocated with enough elements per
    /// thread of that axis (per-thread random states, one output slot per thread): then no
    /// thread reaches past its end.
    fn holds_a_thread_each(&self, parameter: usize, index: Node<'t>) -> bool {
        if self.out.launches.is_empty() {
            return false;
        }
        let strides = match self.thread_term(index, 0) {
            Some(ThreadTerm::GlobalX { strides }) => strides,
            // a grid group's rank is the global `x` index of a one-dimensional launch
            _ if self.ranks_a_flat_grid(index, 0) => 0,
            _ => return false,
        };
        let Some(declared) = self.function.parameters.get(parameter) else {
            return false;
        };
        let element = declared.type_text.as_str();
        let generic = self
            .function
            .template_parameters
            .iter()
            .any(|t| crate::model::size::normalize_type(element) == *t);
        let element = (!generic).then_some(element);
        self.out
            .launches
            .iter()
            .all(|launch| launch.elements_per_thread(parameter, element) > strides)
    }

    /// Whether `index` is a grid group's `thread_rank()` (`cg::this_grid().thread_rank()`, or
    /// through a local holding it) and every visible launch has one dimension, grid and block:
    /// the rank is then the global `x` index.
    fn ranks_a_flat_grid(&self, index: Node<'t>, depth: usize) -> bool {
        let index = strip(index, self.source);
        match index.node_kind() {
            "identifier" if depth < 4 => self
                .one_value_reaching(index)
                .is_some_and(|value| self.ranks_a_flat_grid(value, depth + 1)),
            "call_expression" => {
                let Some(function) = index.field("function") else {
                    return false;
                };
                let name = self.text(function);
                name.ends_with("thread_rank")
                    && self.group_rank_deps(function, name) == Deps::GRID
                    && self.out.launches.iter().all(|launch| {
                        launch.grid_blocks[1..] == [Some(1), Some(1)]
                            && launch.block[1..] == [Some(1), Some(1)]
                    })
            }
            _ => false,
        }
    }

    /// Whether `index` is the thread's global `x` index in a kernel given no extent to test it
    /// against (every parameter a pointer or a floating-point value, no template parameters):
    /// its launches are then its only contract, kept unless a visible launch rounds its grid up
    /// or passes a buffer allocated in sight with fewer elements than threads. A tile per block
    /// (`threadIdx.x + M1W * blockIdx.x`, `M1W` a constant or a template argument) is such an
    /// index too, in a kernel that tests no thread's position.
    fn launched_to_fit(&self, parameter: usize, index: Node<'t>) -> bool {
        let takes_no_extent = self.function.kind == crate::model::FunctionKind::Kernel
            && self.function.parameters.iter().all(|p| {
                p.is_pointer || {
                    let ty = p.type_text.replace("const", "");
                    matches!(ty.trim(), "float" | "double" | "half" | "__half" | "bool")
                }
            });
        if !takes_no_extent {
            return false;
        }
        // no launch rounds an axis up, and none passes a buffer allocated in sight for `parameter`
        let every_launch_whole_with_no_buffer_in_sight = || {
            self.out.launches.iter().all(|launch| {
                launch
                    .grid
                    .iter()
                    .all(|axis| !matches!(axis, crate::model::launch::GridAxis::RoundedUp(_)))
                    && !launch
                        .allocated_in_sight
                        .get(parameter)
                        .copied()
                        .unwrap_or(false)
            })
        };
        if !self.function.template_parameters.is_empty() || self.made_of_constant_tiles(index) {
            // a tile of its own per block (`blockIdx.x * C + threadIdx.x`, `C` a template
            // argument), in a kernel that tests no thread's position against anything: every
            // launch must give each tile a block, none rounded up, none with a buffer in sight.
            // A cooperative grid is sized by occupancy, not to fit, and stays reported.
            return !self.tests_a_thread_position()
                && !self.group_kinds_include_grid()
                && every_launch_whole_with_no_buffer_in_sight();
        }
        let Some(ThreadTerm::GlobalX { strides: 0 }) = self.thread_term(index, 0) else {
            // a rank over the grid's own extents (`gridDim.x * blockDim.x * y + x`): every launch
            // must give whole grids, none rounded up, with no buffer allocated in sight
            return self.ranks_within_the_grid(index)
                && every_launch_whole_with_no_buffer_in_sight();
        };
        self.launched_with_a_slot_per_thread(parameter)
    }

    /// Whether no visible launch rounds its grid's `x` up, and each that allocates the buffer of
    /// `parameter` in sight gives it an element per thread of the grid.
    fn launched_with_a_slot_per_thread(&self, parameter: usize) -> bool {
        self.out.launches.iter().all(|launch| {
            !matches!(launch.grid[0], crate::model::launch::GridAxis::RoundedUp(_))
                && (!launch
                    .allocated_in_sight
                    .get(parameter)
                    .copied()
                    .unwrap_or(false)
                    || launch.elements_per_thread(parameter, None) > 0)
        })
    }

    /// Whether `pointer` is a slot per launched thread in a kernel written for whatever grid it is
    /// launched with: the kernel divides its work by the grid's thread count (it reads
    /// `gridDim.x`), and every subscript of the buffer is the thread's global `x` index, give or
    /// take a constant (`counts[t]`, `carry[t - 1]`). The launcher sizes such a buffer to the grid;
    /// a visible launch must not round its grid up and, where the buffer is allocated in sight,
    /// must give it a thread each. A buffer also read at other indices (`x[t]` beside `x[i]` in
    /// the loop) is the problem's, and stays reported.
    fn slot_per_launched_thread(&self, pointer: &str, parameter: usize) -> bool {
        if self.function.kind != crate::model::FunctionKind::Kernel || !self.reads_the_grid_width()
        {
            return false;
        }
        let mut every_slot_is_the_thread = true;
        let mut subscripts = 0;
        syntax::walk_iterative(self.function.body, |node| {
            if !every_slot_is_the_thread {
                return false;
            }
            if node.node_kind() != "identifier" || self.text(node) != pointer {
                return true;
            }
            let subscript = node
                .up()
                .filter(|p| p.node_kind() == "subscript_expression")
                .filter(|p| p.field("argument").is_some_and(|a| a.id() == node.id()));
            let index = subscript.and_then(|s| subscript_index(s));
            every_slot_is_the_thread = index.is_some_and(|index| {
                let index = without_constant_offset(index, self.source);
                matches!(
                    self.thread_term(index, 0),
                    Some(ThreadTerm::GlobalX { strides: 0 })
                )
            });
            subscripts += 1;
            false
        });
        every_slot_is_the_thread
            && subscripts > 0
            && self.launched_with_a_slot_per_thread(parameter)
    }

    /// Whether the kernel reads `gridDim.x`: it sizes its work (a stride, a span per thread) by
    /// the grid it is launched with.
    fn reads_the_grid_width(&self) -> bool {
        let mut reads = false;
        syntax::walk_iterative(self.function.body, |node| {
            if node.node_kind() == "field_expression"
                && node
                    .field("argument")
                    .is_some_and(|a| self.text(a) == "gridDim")
                && node.field("field").is_some_and(|f| self.text(f) == "x")
            {
                reads = true;
            }
            !reads
        });
        reads
    }

    /// Whether `index` stays below the grid's thread count on the axes it reads (`gridDim.x *
    /// blockDim.x * y + x`, the thread's rank in a two-dimensional grid): its range, with no
    /// test in force, ends below the product of the grid's and the block's extents.
    fn ranks_within_the_grid(&self, index: Node<'t>) -> bool {
        use crate::model::ranges::{RangeContext, Ranges};
        // `rank * S + c` with `0 <= c < S`: slot `c` of the rank's `S` (a pixel's four channels)
        if let Some(rank) = slot_of_rank(index, self.source) {
            return self.ranks_within_the_grid(rank);
        }
        use crate::model::size::Sym;
        let extent = |known: Option<Sym>, name: &str| known.unwrap_or_else(|| Sym::atom(name));
        // the axes the index reads: threads that differ on another axis share its values
        let axes = self.thread_axes(index, 0);
        let mut threads = Sym::constant(1);
        for (axis, field) in ["x", "y", "z"].into_iter().enumerate() {
            if !axes.iter().any(|used| used == axis) {
                continue;
            }
            let grid = extent(self.grid_dim(axis), &format!("gridDim.{field}"));
            let block = extent(self.block_dim(axis), &format!("blockDim.{field}"));
            let Some(more) = threads.mul(&grid).and_then(|t| t.mul(&block)) else {
                return false;
            };
            threads = more;
        }
        let Some(last) = threads.sub(&Sym::constant(1)) else {
            return false;
        };
        Ranges::new(self)
            .range(index, &[])
            .upper_bounds()
            .any(|hi| hi.at_most(&last))
    }

    /// Whether what differs between threads in `index` is a tile index of a constant width
    /// alone (`p1 * NDIM + d` with `p1 = threadIdx.x + M1W * blockIdx.x`).
    fn made_of_constant_tiles(&self, index: Node<'t>) -> bool {
        if self.is_constant_tile_index(index, 0) {
            return true;
        }
        let (mut tiles, mut other) = (false, false);
        syntax::walk_iterative(index, |node| match node.node_kind() {
            "identifier" | "field_expression" | "call_expression" | "subscript_expression" => {
                if !self.expression_deps(node, 0).is_uniform() {
                    if node.node_kind() == "identifier" && self.is_constant_tile_index(node, 0) {
                        tiles = true;
                    } else {
                        other = true;
                    }
                }
                false
            }
            _ => !other,
        });
        tiles && !other
    }

    /// `threadIdx.x + C * blockIdx.x` with `C` a constant of the file (`#define M1W 128`), directly
    /// or through locals each given it once: a tile of `C` places per block.
    fn is_constant_tile_index(&self, node: Node<'t>, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" => self
                .one_value_reaching(node)
                .is_some_and(|value| self.is_constant_tile_index(value, depth + 1)),
            "binary_expression" if operator(node, self.source) == "+" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return false;
                };
                let is_tile_base = |side: Node<'t>| {
                    let side = strip(side, self.source);
                    side.node_kind() == "binary_expression"
                        && operator(side, self.source) == "*"
                        && match (side.field("left"), side.field("right")) {
                            (Some(a), Some(b)) => [(a, b), (b, a)].into_iter().any(|(c, block)| {
                                syntax::same_text(block, self.source, "blockIdx.x")
                                    && self.constant_value(c, 0).is_some_and(|c| c > 0)
                            }),
                            _ => false,
                        }
                };
                [(left, right), (right, left)]
                    .into_iter()
                    .any(|(thread, base)| {
                        syntax::same_text(thread, self.source, "threadIdx.x") && is_tile_base(base)
                    })
            }
            _ => false,
        }
    }

    /// Whether the function takes the whole grid as a cooperative group (`this_grid()`, held
    /// in a local or called in place).
    fn group_kinds_include_grid(&self) -> bool {
        self.groups.values().any(|kind| *kind == GroupKind::Grid)
            || self.text(self.function.body).contains("this_grid")
    }

    /// Whether any condition of the function (an `if`, a loop's test, a choice) reads a value
    /// that differs between threads: a test of some thread's position against a bound.
    fn tests_a_thread_position(&self) -> bool {
        let mut tests = false;
        syntax::walk_iterative(self.function.body, |node| {
            let condition = match node.node_kind() {
                "if_statement"
                | "while_statement"
                | "do_statement"
                | "for_statement"
                | "conditional_expression" => node.field("condition"),
                _ => None,
            };
            // a comparison's outcome is no thread index itself: its sides are read
            if let Some(condition) = condition {
                syntax::walk_iterative(condition, |part| {
                    if part.node_kind() == "binary_expression"
                        && matches!(
                            operator(part, self.source),
                            "<" | "<=" | ">" | ">=" | "==" | "!="
                        )
                    {
                        tests |= [part.field("left"), part.field("right")]
                            .into_iter()
                            .flatten()
                            .any(|side| !self.expression_deps(side, 0).is_uniform());
                    }
                    !tests
                });
            }
            !tests
        });
        tests
    }

    /// The one value of the local read at `read` that reaches it, when that value is not an
    /// update in place.
    fn one_value_reaching(&self, read: Node<'t>) -> Option<Node<'t>> {
        match crate::model::reaching::reaching(
            self.definitions.get(self.text(read))?,
            read,
            self.function.definition,
            self.source,
        )
        .as_slice()
        {
            [value] if !crate::model::reaching::updates_itself(*value, self.source) => Some(*value),
            _ => None,
        }
    }

    /// What part of `blockIdx.x * blockDim.x + threadIdx.x (+ gridDim.x * blockDim.x ...)`
    /// `node` is, directly or through locals each given it once.
    pub(super) fn thread_term(&self, node: Node<'t>, depth: usize) -> Option<ThreadTerm> {
        if depth > 8 {
            return None;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "identifier" => self.thread_term(self.one_value_reaching(node)?, depth + 1),
            "field_expression" => {
                let object = node.field("argument").map(|a| self.text(a))?;
                if node.field("field").map(|f| self.text(f)) != Some("x") {
                    return None;
                }
                match object {
                    "threadIdx" => Some(ThreadTerm::ThreadX),
                    "blockIdx" => Some(ThreadTerm::BlockX),
                    "blockDim" => Some(ThreadTerm::BlockDimX),
                    "gridDim" => Some(ThreadTerm::GridDimX),
                    _ => None,
                }
            }
            "binary_expression" => {
                let left = self.thread_term(node.field("left")?, depth + 1)?;
                let right = self.thread_term(node.field("right")?, depth + 1)?;
                ThreadTerm::combine(operator(node, self.source), left, right)
            }
            "call_expression" => {
                let name = node.field("function").map(|f| self.text(f))?;
                let arguments: Vec<Node<'t>> = node
                    .field("arguments")
                    .map(|a| named_children(a).collect())
                    .unwrap_or_default();
                match (name, arguments.as_slice()) {
                    ("__umul24" | "__mul24", [a, b]) => ThreadTerm::combine(
                        "*",
                        self.thread_term(*a, depth + 1)?,
                        self.thread_term(*b, depth + 1)?,
                    ),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The comparisons the current facts guarantee; consecutive accesses under the same facts
    /// share one split (while no local a flag among them tested changes between them).
    pub(super) fn current_comparisons(&self) -> std::rc::Rc<SplitFacts<'t>> {
        let identity = |f: &Fact<'t>| (f.condition.node.id(), f.condition.holds);
        let changes = self.changes_before_position();
        if let Some(((cached_key, cached_changes), split)) = self.comparison_cache.borrow().as_ref()
        {
            // a split that no flag read at a position holds wherever the same facts are in force
            if (*cached_changes == changes || *cached_changes == ANY_POSITION)
                && cached_key
                    .iter()
                    .copied()
                    .eq(self.facts.iter().map(identity))
            {
                return split.clone();
            }
        }
        self.position_read.set(false);
        let mut comparisons = Vec::new();
        let mut disjunctions = Vec::new();
        for fact in &self.facts {
            guards::comparisons(
                fact.condition,
                self.source,
                self,
                &mut comparisons,
                &mut disjunctions,
            );
        }
        guards::tighten(&mut comparisons, self.source);
        let split = std::rc::Rc::new((comparisons, disjunctions));
        let changes = if self.position_read.get() {
            changes
        } else {
            ANY_POSITION
        };
        let key = (self.facts.iter().map(identity).collect(), changes);
        *self.comparison_cache.borrow_mut() = Some((key, split.clone()));
        split
    }

    pub(super) fn index_status(
        &self,
        index: Node<'t>,
        offset: Option<Node<'t>>,
    ) -> IndexStatus<'t> {
        let split = self.current_comparisons();
        let (comparisons, disjunctions) = (&split.0, &split.1);
        if let Some(status) = self.out_of_range(index, comparisons, disjunctions) {
            return status;
        }
        // `p = y + off; p[i * B]` under `i < cnt`, a count of the steps of `B` from `off`
        if let Some(bound) = offset.and_then(|o| self.step_within_count(o, index, comparisons)) {
            return IndexStatus::Bounded { bound: Some(bound) };
        }
        let mut visiting = Vec::new();
        let bound = match self.bounded(index, comparisons, &mut visiting, 0) {
            Ok(bound) => bound,
            // the case split covers the offset too
            Err(_) if self.bounded_in_each_case(index, offset, comparisons, disjunctions) => {
                return IndexStatus::Bounded { bound: None };
            }
            Err(leaf) => return self.unguarded(leaf, index, comparisons),
        };
        if let Some(offset) = offset {
            if let Err(leaf) = self.bounded(offset, comparisons, &mut visiting, 0) {
                if !self.bounded_in_each_case(index, Some(offset), comparisons, disjunctions) {
                    return self.unguarded(leaf, offset, comparisons);
                }
            }
        }
        IndexStatus::Bounded { bound }
    }

    /// Whether one of the tests in force that holds in either of two ways (`full || cid < k`)
    /// bounds the index, and the offset, whichever way it holds: `blockIdx.y != gridDim.y - 1 ||
    /// cid < k` keeps `cid` inside `k` in a full block and under its own test alike.
    fn bounded_in_each_case(
        &self,
        index: Node<'t>,
        offset: Option<Node<'t>>,
        comparisons: &[Comparison<'t>],
        disjunctions: &[guards::Disjunction<'t>],
    ) -> bool {
        disjunctions.iter().any(|alternatives| {
            !alternatives.is_empty()
                && alternatives.iter().all(|alternative| {
                    let mut case = comparisons.to_vec();
                    case.extend(alternative.iter().copied());
                    let mut visiting = Vec::new();
                    self.bounded(index, &case, &mut visiting, 0).is_ok()
                        && offset.is_none_or(|offset| {
                            self.bounded(offset, &case, &mut visiting, 0).is_ok()
                        })
                })
        })
    }

    /// `leaf` is unguarded in `index`; the other variables of `index` that nothing bounds come
    /// along, so a fix can guard them all (`row < M && col < N`).
    pub(super) fn unguarded(
        &self,
        leaf: Node<'t>,
        index: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> IndexStatus<'t> {
        let declaration = (leaf.node_kind() == "identifier")
            .then(|| self.declarations.get(self.text(leaf)).copied())
            .flatten();
        let leaf_text = self.text(leaf);
        let mut also: Vec<(Node<'t>, Axes)> = Vec::new();
        syntax::walk_iterative(index, |node| match node.node_kind() {
            "identifier" => {
                let name = self.text(node);
                if name != leaf_text
                    && !also.iter().any(|(seen, _)| self.text(*seen) == name)
                    && self.expression_deps(node, 0).is_global_index()
                    && self.bounded(node, comparisons, &mut Vec::new(), 0).is_err()
                {
                    also.push((node, self.thread_axes(node, 0)));
                }
                false
            }
            "subscript_expression" | "call_expression" => false,
            _ => true,
        });
        let scaled = std::iter::once(leaf)
            .chain(also.iter().map(|(variable, _)| *variable))
            .filter(|variable| crate::model::ranges::scales_thread_index(*variable, self))
            .collect();
        IndexStatus::Unguarded {
            leaf,
            declaration,
            axes: self.thread_axes(leaf, 0),
            also,
            scaled,
        }
    }

    /// The comparisons in force now plus those in force where `value` was assigned.
    pub(super) fn with_definition_guards(
        &self,
        value: Node<'t>,
        comparisons: &[Comparison<'t>],
    ) -> Vec<Comparison<'t>> {
        let mut all = comparisons.to_vec();
        all.extend_from_slice(&self.definition_comparisons(value));
        all
    }

    /// The comparisons in force where `value` was assigned, split once per definition while the
    /// thread identities (and loop scopes the flags read) hold.
    fn definition_comparisons(&self, value: Node<'t>) -> std::rc::Rc<[Comparison<'t>]> {
        let Some(conditions) = self.definition_guards.get(&value.id()) else {
            return std::rc::Rc::new([]);
        };
        if let Some(known) = self.definition_comparisons_cache.borrow().get(&value.id()) {
            return known.clone();
        }
        let mut split = Vec::new();
        let mut disjunctions = Vec::new();
        // split as anywhere in the conditions' reach: the cached split serves every later read
        let position = self.position.take();
        for condition in conditions {
            guards::comparisons(*condition, self.source, self, &mut split, &mut disjunctions);
        }
        self.position.set(position);
        guards::tighten(&mut split, self.source);
        let split: std::rc::Rc<[Comparison<'t>]> = split.into();
        if self.cache_deps {
            self.definition_comparisons_cache
                .borrow_mut()
                .insert(value.id(), split.clone());
        }
        split
    }
}

/// `p[i]` on the pointer `p` itself (not through a cast to another element type).
/// For `pointer[i]`, `Some(None)`; for `reinterpret_cast<const int4*>(pointer)[i]` or
/// `((int4*)pointer)[i]`, the element type the subscript reads, `Some(Some("int4"))`; None for
/// any other subscript (or a cast to something not a pointer).
pub(super) fn subscript_element(node: Node, pointer: &str, source: &str) -> Option<Option<String>> {
    if node.node_kind() != "subscript_expression" {
        return None;
    }
    let mut argument = node.field("argument")?;
    let mut element = None;
    for _ in 0..8 {
        match argument.node_kind() {
            "identifier" => return (text(argument, source) == pointer).then_some(element),
            "parenthesized_expression" => argument = argument.named_child(0)?,
            _ => {
                let (pointee, value) = pointer_cast(argument, source)?;
                // the outermost cast is the type the subscript reads
                element.get_or_insert(pointee);
                argument = value;
            }
        }
    }
    None
}

/// A cast to a pointer type (`(T*)p`, `reinterpret_cast<const T*>(p)`): the type pointed to,
/// as written (`const T`), and the value cast.
pub(super) fn pointer_cast<'t>(node: Node<'t>, source: &str) -> Option<(String, Node<'t>)> {
    let (target, value) = match node.node_kind() {
        "cast_expression" => (text(node.field("type")?, source), node.field("value")?),
        "call_expression" if syntax::is_functional_cast(node, source) => {
            let target = node
                .field("function")?
                .field("arguments")
                .and_then(|a| a.named_child(0))
                .map(|t| text(t, source))?;
            (target, node.field("arguments")?.named_child(0)?)
        }
        _ => return None,
    };
    let compact: String = target.split_whitespace().collect::<Vec<_>>().join(" ");
    Some((compact.strip_suffix('*')?.trim().to_string(), value))
}

/// `x * S + c` (or `x * S`, `S * x`) with constants `0 <= c < S`: `x`, whose `S` slots the
/// index picks one of.
fn slot_of_rank<'t>(index: Node<'t>, source: &str) -> Option<Node<'t>> {
    let constant = |n: Node| crate::model::size::parse_number(text(strip(n, source), source));
    let index = strip(index, source);
    if index.node_kind() != "binary_expression" {
        return None;
    }
    let (left, right) = (index.field("left")?, index.field("right")?);
    let (scaled, slot) = match operator(index, source) {
        "+" => match (constant(left), constant(right)) {
            (None, Some(c)) => (strip(left, source), c),
            (Some(c), None) => (strip(right, source), c),
            _ => return None,
        },
        "*" => (index, 0),
        _ => return None,
    };
    if scaled.node_kind() != "binary_expression" || operator(scaled, source) != "*" {
        return None;
    }
    let (a, b) = (scaled.field("left")?, scaled.field("right")?);
    let (rank, slots) = match (constant(a), constant(b)) {
        (None, Some(s)) => (a, s),
        (Some(s), None) => (b, s),
        _ => return None,
    };
    (slots > 1 && (0..slots).contains(&slot)).then_some(rank)
}

/// `i - 1`, `i + 2`: `i`; anything else as it is.
fn without_constant_offset<'t>(index: Node<'t>, source: &str) -> Node<'t> {
    let index = strip(index, source);
    if index.node_kind() == "binary_expression" && matches!(operator(index, source), "+" | "-") {
        if let (Some(left), Some(right)) = (index.field("left"), index.field("right")) {
            if strip(right, source).node_kind() == "number_literal" {
                return strip(left, source);
            }
        }
    }
    index
}

/// The parts the global `x` index is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ThreadTerm {
    ThreadX,
    BlockX,
    BlockDimX,
    GridDimX,
    BlockBaseX,
    /// `gridDim.x * blockDim.x`, times a count.
    Strides(u32),
    /// The global `x` index plus `strides` whole grid strides.
    GlobalX {
        strides: u32,
    },
}

impl ThreadTerm {
    fn combine(operator: &str, left: ThreadTerm, right: ThreadTerm) -> Option<ThreadTerm> {
        use ThreadTerm::*;
        match (operator, left, right) {
            ("*", BlockX, BlockDimX) | ("*", BlockDimX, BlockX) => Some(BlockBaseX),
            ("*", GridDimX, BlockDimX) | ("*", BlockDimX, GridDimX) => Some(Strides(1)),
            ("+", BlockBaseX, ThreadX) | ("+", ThreadX, BlockBaseX) => Some(GlobalX { strides: 0 }),
            ("+", GlobalX { strides }, Strides(more))
            | ("+", Strides(more), GlobalX { strides }) => Some(GlobalX {
                strides: strides.checked_add(more)?,
            }),
            ("+", Strides(a), Strides(b)) => Some(Strides(a.checked_add(b)?)),
            _ => None,
        }
    }
}

/// Whether the accessor subscript `node`, the `subscripts`-th of its chain, is part of a chain
/// that reads or writes an element: one that applies every dimension (`acc[n][c][h][w]` on a
/// 4-dimensional accessor; a shorter chain is a view of a sub-tensor and touches no memory), and
/// whose element is not only taken the address of (`&acc[n][c]` reads nothing where it stands).
/// With the rank unknown, any chain counts.
fn reaches_accessor_element(
    node: Node,
    subscripts: usize,
    rank: Option<usize>,
    source: &str,
) -> bool {
    let mut outermost = node;
    let mut length = subscripts;
    for _ in 0..MAX_DEPTH {
        match outermost.up() {
            Some(parent)
                if parent.node_kind() == "subscript_expression"
                    && parent.field("argument") == Some(outermost) =>
            {
                outermost = parent;
                length += 1;
            }
            _ => break,
        }
    }
    if rank.is_some_and(|rank| length < rank) {
        return false;
    }
    !outermost.up().is_some_and(|parent| {
        parent.node_kind() == "pointer_expression" && operator(parent, source) == "&"
    })
}
