//! A kernel prepared for runs: what every run of every block shape reads, found once per kernel
//! rather than once per run, per iteration or per thread.

use super::*;

pub(super) enum Run<'t> {
    /// Every thread ran without leaving its arrays, with aligned barriers, within the budget.
    Valid(Vec<Conflict<'t>>),
    /// The shape does not fit the kernel (an access outside its array, barriers that do not line
    /// up, too long to run): nothing is concluded from it.
    Invalid,
}

/// A call, as far as barriers go.
pub(super) enum Callee<'t> {
    /// A function of the file: whether it may synchronise is looked up by name.
    Named(&'t str),
    /// A barrier, a cooperative-groups sync, a library block primitive, or a call whose body is
    /// not visible.
    MaySync,
    /// A builtin or method that does not synchronise.
    Free,
}

/// A function of the file a kernel calls, as a run follows it.
pub(super) struct Helper<'t> {
    pub(super) body: Node<'t>,
    /// Per parameter: its name, its type, whether it is a pointer, whether a reference.
    pub(super) parameters: Vec<(&'t str, &'t str, bool, bool)>,
    /// Every parameter has a name (an unnamed one is not bound).
    pub(super) complete: bool,
    /// Whether it names a file-scope shared array, and whether it declares one of its own
    /// (found on the first call followed).
    pub(super) shared: std::cell::OnceCell<(bool, bool)>,
}

impl<'t> Helper<'t> {
    pub(super) fn new(function: &Function<'t>, source: &'t str) -> Self {
        let declared = function
            .definition
            .field("declarator")
            .and_then(|d| {
                let mut d = d;
                // through pointer or reference declarators to the function declarator
                for _ in 0..4 {
                    if d.node_kind() == "function_declarator" {
                        return Some(d);
                    }
                    d = d.field("declarator")?;
                }
                None
            })
            .and_then(|d| d.field("parameters"))
            .map_or(0, |list| {
                named_children(list)
                    .filter(|p| p.node_kind().ends_with("parameter_declaration"))
                    .count()
            });
        let parameters: Vec<(&'t str, &'t str, bool, bool)> = function
            .parameters
            .iter()
            .map(|p| {
                let declarator = p.declaration.field("declarator");
                (
                    text(p.name_node, source),
                    p.declaration.field("type").map_or("", |t| text(t, source)),
                    p.is_pointer,
                    declarator.is_some_and(|d| d.node_kind() == "reference_declarator"),
                )
            })
            .collect();
        Helper {
            body: function.body,
            complete: parameters.len() == declared,
            parameters,
            shared: std::cell::OnceCell::new(),
        }
    }
}

/// What a region run as unknown (a branch on an unknown condition, the rest of a loop) may do.
pub(super) struct Region<'t> {
    /// The locals it assigns.
    pub(super) assigned: Vec<&'t str>,
    /// It may pass a barrier or leave the enclosing code: a thread that runs it as unknown
    /// stops.
    pub(super) leaves: bool,
    /// It may leave the enclosing code or call what may hide a barrier (a barrier of its own
    /// aside).
    pub(super) exits: bool,
    /// It calls `__syncwarp`: the lanes' order depends on how many times it runs.
    pub(super) warp_sync: bool,
}

/// The kernel prepared for runs: its shared arrays and the facts every run reads.
pub(super) struct Program<'m, 't> {
    pub(super) scope: &'m FileScope<'t>,
    pub(super) function: &'m Function<'t>,
    /// The file's shared arrays, then the kernel's.
    pub(super) arrays: Vec<Array>,
    /// Shared declarations by node id → array.
    pub(super) declared: HashMap<usize, u32>,
    /// Every block-wide barrier of the kernel body, in source order.
    pub(super) barriers: Vec<Node<'t>>,
    /// What each region run as unknown assigns (None: it may pass a barrier or leave), by node
    /// and whether it is a loop: every thread meets the same regions many times.
    pub(super) regions: RefCell<HashMap<(usize, bool), Rc<Region<'t>>>>,
    /// The kinds of the pointers into shared memory the runs make.
    pub(super) kinds: Kinds,
    /// The children the runs have asked for, by node and part (`Program::part`).
    pub(super) parts: RefCell<HashMap<(usize, Part), Option<Node<'t>>>>,
    /// Operator tokens by node (`Program::operator`).
    pub(super) operators: RefCell<HashMap<usize, &'t str>>,
    /// The file's constants the runs have read, by name (`Program::named_constant`).
    pub(super) constants: RefCell<HashMap<&'t str, Option<i64>>>,
}

/// A child of a syntax node that the runs read: the one in a field, or a subscript's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Part {
    Left,
    Right,
    Argument,
    Field,
    Condition,
    Consequence,
    Alternative,
    Value,
    Type,
    Function,
    Arguments,
    Initializer,
    Update,
    Body,
    Declarator,
    Index,
}

impl Part {
    /// The child of `node` this part names, asked of the tree.
    pub(super) fn find(self, node: Node<'_>) -> Option<Node<'_>> {
        let field = match self {
            Part::Index => return subscript_index(node),
            Part::Left => "left",
            Part::Right => "right",
            Part::Argument => "argument",
            Part::Field => "field",
            Part::Condition => "condition",
            Part::Consequence => "consequence",
            Part::Alternative => "alternative",
            Part::Value => "value",
            Part::Type => "type",
            Part::Function => "function",
            Part::Arguments => "arguments",
            Part::Initializer => "initializer",
            Part::Update => "update",
            Part::Body => "body",
            Part::Declarator => "declarator",
        };
        node.field(field)
    }
}

impl<'m, 't> Program<'m, 't> {
    /// The child of `node` that `part` names. Every thread meets the same nodes on every
    /// iteration of a loop, and a field read from the tree searches the node's children (a
    /// field the tree's table does not hold, such as a subscript's `indices`, asks tree-sitter),
    /// so each is found once per kernel.
    pub(super) fn part(&self, node: Node<'t>, part: Part) -> Option<Node<'t>> {
        let key = (node.id(), part);
        if let Some(found) = self.parts.borrow().get(&key) {
            return *found;
        }
        let found = part.find(node);
        self.parts.borrow_mut().insert(key, found);
        found
    }

    /// The operator token of `node` (`operator`), found once per node.
    pub(super) fn operator(&self, node: Node<'t>) -> &'t str {
        if let Some(known) = self.operators.borrow().get(&node.id()) {
            return known;
        }
        let found = operator(node, self.scope.source);
        self.operators.borrow_mut().insert(node.id(), found);
        found
    }

    /// `FileScope::named_constant`, read once per name: a loop bound such as `TILE` is read on
    /// every iteration, and a `#define` is parsed each time.
    pub(super) fn named_constant(&self, name: &'t str) -> Option<i64> {
        if let Some(known) = self.constants.borrow().get(name) {
            return *known;
        }
        let found = self.scope.named_constant(name);
        self.constants.borrow_mut().insert(name, found);
        found
    }

    /// What a region whose execution is not known may do (see `Region`).
    pub(super) fn region(&self, node: Node<'t>, is_loop: bool) -> Rc<Region<'t>> {
        if let Some(known) = self.regions.borrow().get(&(node.id(), is_loop)) {
            return Rc::clone(known);
        }
        let source = self.scope.source;
        let mut leaves = false;
        let mut exits = false;
        let mut warp_sync = false;
        let mut assigned: Vec<&'t str> = Vec::new();
        walk_iterative(node, |n| {
            match n.node_kind() {
                "return_statement" | "goto_statement" => exits = true,
                "call_expression"
                    if n.field("function").is_some_and(|f| {
                        let name = text(f, source);
                        orders_lanes(name.rsplit("::").next().unwrap_or(name).trim())
                    }) =>
                {
                    warp_sync = true
                }
                "break_statement" | "continue_statement" if !is_loop => exits = true,
                "call_expression" if is_block_barrier(n, source) => leaves = true,
                "call_expression" if self.call_may_sync(n) => exits = true,
                "gnu_asm_expression" => exits = true,
                "assignment_expression" => {
                    if let Some(left) = n.field("left") {
                        let left = crate::syntax::strip(left, source);
                        if left.node_kind() == "identifier" {
                            assigned.push(text(left, source));
                        }
                    }
                }
                "update_expression" => {
                    if let Some(argument) = n.field("argument") {
                        let argument = crate::syntax::strip(argument, source);
                        if argument.node_kind() == "identifier" {
                            assigned.push(text(argument, source));
                        }
                    }
                }
                "lambda_expression" => return false,
                _ => {}
            }
            !exits
        });
        let leaves = leaves || exits;
        assigned.sort_unstable();
        assigned.dedup();
        let region = Rc::new(Region {
            assigned,
            leaves,
            exits,
            warp_sync,
        });
        self.regions
            .borrow_mut()
            .insert((node.id(), is_loop), Rc::clone(&region));
        region
    }

    pub(super) fn new(
        scope: &'m FileScope<'t>,
        function: &'m Function<'t>,
    ) -> Option<Program<'m, 't>> {
        let source = scope.source;
        let mut program = Program {
            scope,
            function,
            arrays: scope.globals.iter().map(|(_, a)| a.clone()).collect(),
            declared: HashMap::default(),
            barriers: Vec::new(),
            regions: RefCell::default(),
            kinds: Kinds::default(),
            // most nodes of the body are met, most for a part or two
            parts: RefCell::new(HashMap::with_capacity_and_hasher(
                function.body.descendant_count(),
                Default::default(),
            )),
            operators: RefCell::default(),
            constants: RefCell::default(),
        };
        let mut shared_declarations = Vec::new();
        let mut barriers = Vec::new();
        walk_iterative(function.body, |node| {
            match node.node_kind() {
                "declaration" if is_shared(node, source) => shared_declarations.push(node),
                "call_expression" if is_block_barrier(node, source) => barriers.push(node),
                "lambda_expression" => return false,
                _ => {}
            }
            true
        });
        for declaration in shared_declarations {
            if let Some(array) = scope.array(declaration) {
                program.arrays.push(array);
                if let Ok(id) = u32::try_from(program.arrays.len() - 1) {
                    program.declared.insert(declaration.id(), id);
                }
            }
        }
        if program.arrays.is_empty() {
            return None;
        }
        program.barriers = barriers;
        Some(program)
    }

    pub(super) fn call_may_sync(&self, call: Node<'t>) -> bool {
        self.scope.call_may_sync(call)
    }

    pub(super) fn run(&self, block: [i64; 3], left: &mut u64) -> Run<'t> {
        let threads = block[0] * block[1] * block[2];
        let mut log = Log {
            warp: self.scope.warp,
            ..Log::default()
        };
        let mut budget = STEP_BUDGET.min(*left);
        let start_budget = budget;
        let result = self.run_with(block, threads, &mut log, &mut budget);
        *left -= start_budget - budget;
        result
    }

    pub(super) fn run_with(
        &self,
        block: [i64; 3],
        threads: i64,
        log: &mut Log<'t>,
        budget: &mut u64,
    ) -> Run<'t> {
        let mut state = Block::new(self, block, budget, log);
        let all = state.alive;
        if state.statement(self.function.body, all, 0).is_err() {
            return Run::Invalid;
        }
        let passed = std::mem::take(&mut state.passed);
        drop(state);
        // every thread passes the same barriers in the same order, up to where it exits: of
        // any two threads' sequences, one begins the other
        let mut reference = Passes::NONE;
        for lane in passed.lanes.iter().take(threads.max(0) as usize) {
            if !passed.one_begins_the_other(*lane, reference) {
                return Run::Invalid;
            }
            if passed.length(*lane) > passed.length(reference) {
                reference = *lane;
            }
        }
        let barrier_nodes = passed.sequence(reference);
        if log.outside {
            return Run::Invalid;
        }
        let mut conflicts: Vec<Conflict<'t>> = Vec::new();
        let mut seen: Vec<(usize, usize, bool)> = Vec::new();
        for found in &log.conflicts {
            if log.poisoned.contains(&found.epoch) {
                continue;
            }
            let (a, b) = (found.later, found.earlier);
            let (Some(node_a), Some(node_b)) = (
                log.sites.get(a.site as usize),
                log.sites.get(b.site as usize),
            ) else {
                continue;
            };
            let key = (
                node_a.id().min(node_b.id()),
                node_a.id().max(node_b.id()),
                found.same_warp,
            );
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let (mut first, mut second) = (
                SharedAccess {
                    node: *node_a,
                    kind: a.kind,
                    thread: coordinates(a.linear, block),
                },
                SharedAccess {
                    node: *node_b,
                    kind: b.kind,
                    thread: coordinates(b.linear, block),
                },
            );
            let (low, high) = if first.node.start_byte() <= second.node.start_byte() {
                (first.node.start_byte(), second.node.start_byte())
            } else {
                (second.node.start_byte(), first.node.start_byte())
            };
            let across_iterations = first.node.id() != second.node.id()
                && self
                    .barriers
                    .iter()
                    .any(|b| b.start_byte() > low && b.start_byte() < high);
            // report the access later in the source; across a back edge, the one that runs
            // early in the next iteration (prefer the write)
            let later_in_source = first.node.start_byte() >= second.node.start_byte();
            let swap = if across_iterations {
                !first.kind.writes() && second.kind.writes()
                    || (first.kind.writes() == second.kind.writes() && later_in_source)
            } else {
                !later_in_source
            };
            if swap {
                std::mem::swap(&mut first, &mut second);
            }
            let epoch = found.epoch as usize;
            let array = self.arrays.get(found.array as usize);
            conflicts.push(Conflict {
                array: array.map(|a| a.name.clone()).unwrap_or_default(),
                element: array
                    .map(|a| element_text(a, found.byte))
                    .unwrap_or_default(),
                first,
                second,
                same_warp: found.same_warp,
                across_iterations,
                // a loop run as unknown stands for barriers, but is not one to point at
                opened_by: epoch
                    .checked_sub(1)
                    .and_then(|e| barrier_nodes.get(e).copied())
                    .filter(|n| n.node_kind() == "call_expression"),
                closed_by: barrier_nodes
                    .get(epoch)
                    .copied()
                    .filter(|n| n.node_kind() == "call_expression"),
                block,
                block_launched: false,
            });
        }
        Run::Valid(conflicts)
    }
}
