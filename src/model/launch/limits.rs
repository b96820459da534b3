//! Sizes that reach a launch's grid `y`/`z` or block dimensions unclamped.
//!
//! The hardware caps grid `y` and `z` at 65,535 blocks and a block at 1024 threads. A launch
//! that puts an unbounded size there (a row or token count, a number of elements) works on the
//! test inputs and fails with `cudaErrorInvalidConfiguration` on a large one. A size is
//! *unbounded* when its name says it counts items of the problem (rows, tokens, points,
//! elements, a sequence length), not a dimension that is small by design (a batch, heads,
//! channels, an image side): a grid `y` of `batch` is how kernels are written and not worth a
//! finding. A value built from sizes is as large as its largest part: a product or sum with an
//! unbounded size, a quotient of one by a divisor that can be 1, the batch times the heads. A
//! size is *clamped* when the value goes through `min`/`clamp`, when a test on the launch's path
//! bounds it by a constant within the limit (`if (seq_len <= 1024)`, `TORCH_CHECK(n < 4096)`), or
//! when the launching function names the limit (`65535`, `maxGridSize`).

use super::grid::{callee_name, names_a_macro, Classifier};
use super::locals::{Held, Locals};
use super::rounding::names_a_rounding_division;
use super::{constant, GridHelpers, AXIS_NAMES};
use crate::model::guards::{self, Comparison, Condition, NoFlags, Relation};
use crate::model::size;
use crate::syntax::{self, normalized, operator, strip, text, NodeExt};
use tree_sitter::Node;

/// Grid `y` and `z` may hold at most this many blocks.
pub const MAX_GRID_YZ: i128 = 65_535;
/// A block holds at most this many threads.
pub const MAX_BLOCK_THREADS: i128 = 1024;

/// One launch dimension fed by an unbounded size.
#[derive(Debug, Clone, Copy)]
pub struct UnboundedDimension<'t> {
    /// True for the block, false for the grid.
    pub block: bool,
    /// 0, 1, 2 for `x`, `y`, `z`.
    pub axis: usize,
    /// The expression the launch passes for that dimension.
    pub value: Node<'t>,
    /// Where the size is defined: the local's definition, or the value itself.
    pub size: Node<'t>,
    /// The size's name.
    pub name: &'t str,
    /// A divisor the size goes through that can be 1 (`seq_len * heads / per_block`).
    pub divisor: Option<Node<'t>>,
}

/// The dimensions of the launch `call` (configuration `grid`/`block`) in `body` that an
/// unbounded size reaches with no clamp: grid `y` and `z`, and each block dimension.
pub fn unbounded_dimensions<'t>(
    body: Node<'t>,
    source: &'t str,
    helpers: &dyn GridHelpers,
    call: Node<'t>,
    grid: Option<Node<'t>>,
    block: Option<Node<'t>>,
) -> Vec<UnboundedDimension<'t>> {
    let whole = source.get(body.byte_range()).unwrap_or("");
    // the function names the limit: a cap or a test is in force
    if [
        "65535",
        "65536",
        "0xffff",
        "0xFFFF",
        "maxGridSize",
        "maxThreadsPerBlock",
    ]
    .iter()
    .any(|limit| whole.contains(limit))
    {
        return Vec::new();
    }
    let locals = Locals::of(body, source);
    let classifier = Classifier::reading_threads(source, &locals, helpers);
    let facts = facts_at(call, body, source);
    // walked only when a fact compares with a name: most launches have no such fact
    let block_sizes = std::cell::OnceCell::new();
    let is_block_size = |name: &str| {
        block_sizes
            .get_or_init(|| launch_block_names(body, source))
            .contains(&name)
    };
    let mut found = Vec::new();
    for (is_block, config, axes) in [(false, grid, 1..3), (true, block, 0..3)] {
        let Some(config) = config else { continue };
        let limit = if is_block {
            MAX_BLOCK_THREADS
        } else {
            MAX_GRID_YZ
        };
        let sides = bounded_sides(&facts, &classifier, limit, &is_block_size);
        let reader = Reader {
            classifier: &classifier,
            source,
            body,
            limit,
            block: is_block,
            bounded: bounded_names(&sides, source),
        };
        let parts = parts_of(&locals, config, source);
        let checked = checked_components(&sides, config, source);
        // `if (a * b * c <= 1024) k<<<1, a * b * c>>>`: the value itself is tested
        let tested: Vec<String> = sides.iter().map(|side| normalized(*side, source)).collect();
        for axis in axes {
            let Some(value) = parts.get(axis).copied().flatten() else {
                continue;
            };
            if checked.contains(&axis) || tested.contains(&normalized(strip(value, source), source))
            {
                continue;
            }
            if let Magnitude::Unbounded {
                size,
                name,
                divisor,
            } = reader.magnitude(value, 0)
            {
                found.push(UnboundedDimension {
                    block: is_block,
                    axis,
                    value,
                    size,
                    name,
                    divisor,
                });
            }
        }
    }
    found
}

/// Whether the conditions in force at the launch `call` bound `value` (a launch dimension as
/// written) by a constant no larger than `limit`: `k<<<K, K>>>` inside `if (K < 1024)` runs only
/// with a block the test allows, so a `K` of 2701 means the branch never runs.
pub fn tested_within<'t>(
    body: Node<'t>,
    source: &'t str,
    helpers: &dyn GridHelpers,
    call: Node<'t>,
    value: Node<'t>,
    limit: i128,
) -> bool {
    let facts = facts_at(call, body, source);
    if facts.is_empty() {
        return false;
    }
    let locals = Locals::of(body, source);
    let classifier = Classifier::reading_threads(source, &locals, helpers);
    let value = normalized(strip(value, source), source);
    bounded_sides(&facts, &classifier, limit, &|_| false)
        .iter()
        .any(|side| normalized(*side, source) == value)
}

/// How large a launch dimension can get.
#[derive(Debug, Clone, Copy)]
enum Magnitude<'t> {
    /// It grows with the size `name` (defined at `size`), which nothing bounds.
    /// `divisor` is a divisor on the way that can be 1.
    Unbounded {
        size: Node<'t>,
        name: &'t str,
        divisor: Option<Node<'t>>,
    },
    /// At most a known constant: a literal, a macro, a `min(...)` with a constant, a size the
    /// launch's path compares with a constant.
    Bounded,
    /// Nothing known either way.
    Unknown,
}

/// Reads the magnitude of a launch dimension's expression.
struct Reader<'a, 't> {
    classifier: &'a Classifier<'a, 't>,
    source: &'t str,
    /// The function holding the launch.
    body: Node<'t>,
    /// The most the dimension read may hold.
    limit: i128,
    block: bool,
    /// Names the launch's path bounds by a constant within the limit (`if (seq_len <= 1024)`).
    bounded: Vec<&'t str>,
}

impl<'t> Reader<'_, 't> {
    fn magnitude(&self, value: Node<'t>, depth: usize) -> Magnitude<'t> {
        if depth > 8 {
            return Magnitude::Unknown;
        }
        let value = strip(value, self.source);
        let locals = self.classifier.locals;
        match value.node_kind() {
            "number_literal" | "char_literal" | "sizeof_expression" => Magnitude::Bounded,
            "identifier" | "type_identifier" => {
                let name = text(value, self.source);
                if self.bounded.contains(&name) {
                    return Magnitude::Bounded;
                }
                match locals.value_at(name, value, self.source) {
                    // `if (nnz < 1024) { block = nnz; ... }`: the path of the assignment
                    // bounds what it assigns
                    Held::One(definition) if self.bounded_where_assigned(definition) => {
                        Magnitude::Bounded
                    }
                    Held::One(definition) => match self.magnitude(definition, depth + 1) {
                        Magnitude::Unbounded {
                            name: inner,
                            divisor,
                            ..
                        } => Magnitude::Unbounded {
                            size: definition,
                            name: inner,
                            divisor,
                        },
                        Magnitude::Bounded => Magnitude::Bounded,
                        // `int rows = x.size(0)`: the local's name says what it counts,
                        // unless its definition says it (`out_rows = (height - k) / stride`)
                        Magnitude::Unknown
                            if reads_a_size_small_by_design(definition, self.source) =>
                        {
                            Magnitude::Unknown
                        }
                        Magnitude::Unknown => self.by_name(definition, name),
                    },
                    Held::Several | Held::Alternatives(_) => Magnitude::Unknown,
                    Held::NotLocal => {
                        if locals.file_constants.contains_key(name)
                            || names_a_macro(name)
                            || self.classifier.helpers.define(name).is_some()
                        {
                            Magnitude::Bounded
                        } else {
                            self.by_name(value, name)
                        }
                    }
                }
            }
            "field_expression" => match value.field("field") {
                Some(field) => self.by_name(value, text(field, self.source)),
                None => Magnitude::Unknown,
            },
            "call_expression" => self.call(value, depth),
            "binary_expression" => self.binary(value, depth),
            "parameter_declaration" => {
                let (Some(left), Some(declarator)) =
                    (value.field("type"), value.field("declarator"))
                else {
                    return Magnitude::Unknown;
                };
                match (declarator.node_kind(), declarator.field("declarator")) {
                    ("pointer_declarator", Some(right)) => self.product(value, left, right, depth),
                    _ => Magnitude::Unknown,
                }
            }
            "conditional_expression" => {
                let arms = [
                    (value.field("consequence"), true),
                    (value.field("alternative"), false),
                ];
                let arms: Vec<Magnitude<'t>> = arms
                    .into_iter()
                    .map(|(arm, when)| match arm {
                        Some(arm) if self.capped_by_choice(value, arm, when, depth) => {
                            Magnitude::Bounded
                        }
                        Some(arm) => self.magnitude(arm, depth + 1),
                        None => Magnitude::Unknown,
                    })
                    .collect();
                either(&arms)
            }
            _ => Magnitude::Unknown,
        }
    }

    /// Whether the conditions in force where `value` is assigned bound it within the limit
    /// (`block_size = vec.nnz;` inside `if (vec.nnz < BLOCK_LIMIT)`).
    fn bounded_where_assigned(&self, value: Node<'t>) -> bool {
        let facts = facts_at(value, self.body, self.source);
        if facts.is_empty() {
            return false;
        }
        let value = normalized(strip(value, self.source), self.source);
        bounded_sides(&facts, self.classifier, self.limit, &|_| false)
            .iter()
            .any(|side| normalized(*side, self.source) == value)
    }

    /// Whether the condition of `choice` caps the `arm` it picks (the consequence when `when`)
    /// by a bounded value: a `min` written as a choice, `(cap < rows) ? cap : rows`, picks `rows`
    /// only where `rows <= cap`, and `rows > 1024 ? 1024 : rows` only where `rows <= 1024`.
    fn capped_by_choice(&self, choice: Node<'t>, arm: Node<'t>, when: bool, depth: usize) -> bool {
        let Some(condition) = choice.field("condition") else {
            return false;
        };
        let condition = strip(condition, self.source);
        let (Some(left), Some(right)) = (condition.field("left"), condition.field("right")) else {
            return false;
        };
        // orient the comparison as it holds in the arm: `left < right` taken, or `left >= right`
        let (left_is_smaller, right_is_smaller) = match (operator(condition, self.source), when) {
            ("<" | "<=", true) | (">" | ">=", false) => (true, false),
            (">" | ">=", true) | ("<" | "<=", false) => (false, true),
            _ => return false,
        };
        let arm = normalized(arm, self.source);
        let capped_by = if left_is_smaller && normalized(left, self.source) == arm {
            right
        } else if right_is_smaller && normalized(right, self.source) == arm {
            left
        } else {
            return false;
        };
        matches!(self.magnitude(capped_by, depth + 1), Magnitude::Bounded)
    }

    fn by_name(&self, size: Node<'t>, name: &'t str) -> Magnitude<'t> {
        if self.bounded.contains(&name) {
            Magnitude::Bounded
        } else if counts_items(name, self.block) {
            Magnitude::Unbounded {
                size,
                name,
                divisor: None,
            }
        } else {
            Magnitude::Unknown
        }
    }

    fn call(&self, call: Node<'t>, depth: usize) -> Magnitude<'t> {
        let Some(function) = call.field("function") else {
            return Magnitude::Unknown;
        };
        let callee = callee_name(function, self.source);
        let short = callee.rsplit("::").next().unwrap_or(callee);
        let arguments = syntax::call_arguments(call);
        let of = |node: Node<'t>| self.magnitude(node, depth + 1);
        match (short, arguments.as_slice()) {
            (
                "static_cast" | "int" | "unsigned" | "size_t" | "uint32_t" | "int32_t" | "int64_t"
                | "uint64_t" | "long" | "ceil" | "ceilf" | "floor" | "floorf",
                [only],
            ) => of(*only),
            // the smaller of the values: bounded when one of them is
            ("min" | "fmin" | "fminf" | "MIN" | "clamp", _) => {
                if arguments
                    .iter()
                    .any(|a| matches!(of(*a), Magnitude::Bounded))
                {
                    Magnitude::Bounded
                } else {
                    Magnitude::Unknown
                }
            }
            ("max" | "fmax" | "fmaxf" | "MAX", _) => {
                let all: Vec<Magnitude<'t>> = arguments.iter().map(|a| of(*a)).collect();
                either(&all)
            }
            (_, [total, divisor, ..]) if names_a_rounding_division(short) => {
                self.quotient(*total, *divisor, depth)
            }
            _ => Magnitude::Unknown,
        }
    }

    fn binary(&self, node: Node<'t>, depth: usize) -> Magnitude<'t> {
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return Magnitude::Unknown;
        };
        let of = |node: Node<'t>| self.magnitude(node, depth + 1);
        match operator(node, self.source) {
            "*" => self.product(node, left, right, depth),
            "/" | ">>" => self.quotient(left, right, depth),
            "+" => either(&[of(left), of(right)]),
            "-" => match (of(left), of(right)) {
                (unbounded @ Magnitude::Unbounded { .. }, Magnitude::Bounded) => unbounded,
                (Magnitude::Bounded, _) => Magnitude::Bounded,
                _ => Magnitude::Unknown,
            },
            "<<" => match (of(left), of(right)) {
                (unbounded @ Magnitude::Unbounded { .. }, Magnitude::Bounded) => unbounded,
                (Magnitude::Bounded, Magnitude::Bounded) => Magnitude::Bounded,
                _ => Magnitude::Unknown,
            },
            "%" => match of(right) {
                Magnitude::Bounded => Magnitude::Bounded,
                _ => Magnitude::Unknown,
            },
            "&" => match (of(left), of(right)) {
                (Magnitude::Bounded, _) | (_, Magnitude::Bounded) => Magnitude::Bounded,
                _ => Magnitude::Unknown,
            },
            _ => Magnitude::Unknown,
        }
    }

    /// `total / divisor`: as large as `total` when the divisor can be 1 (`seq < t ? t / seq :
    /// 1`); a larger divisor, or one that may grow with the problem, leaves it unknown.
    fn quotient(&self, total: Node<'t>, divisor: Node<'t>, depth: usize) -> Magnitude<'t> {
        match self.magnitude(total, depth + 1) {
            Magnitude::Bounded => Magnitude::Bounded,
            Magnitude::Unbounded {
                size,
                name,
                divisor: earlier,
            } if self.can_be_one(divisor, depth) => Magnitude::Unbounded {
                size,
                name,
                divisor: earlier.or(Some(divisor)),
            },
            _ => Magnitude::Unknown,
        }
    }

    /// Whether `node` takes the value 1 on some path: the literal, an arm of a conditional, a
    /// `max(1, ...)`, a local holding one of those.
    fn can_be_one(&self, node: Node<'t>, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "number_literal" => size::parse_number(text(node, self.source)) == Some(1),
            "conditional_expression" => [node.field("consequence"), node.field("alternative")]
                .into_iter()
                .flatten()
                .any(|arm| self.can_be_one(arm, depth + 1)),
            "identifier" => {
                match self
                    .classifier
                    .locals
                    .value_at(text(node, self.source), node, self.source)
                {
                    Held::One(definition) => self.can_be_one(definition, depth + 1),
                    _ => false,
                }
            }
            "call_expression" => {
                let callee = node
                    .field("function")
                    .map(|f| callee_name(f, self.source))
                    .unwrap_or("");
                let short = callee.rsplit("::").next().unwrap_or(callee);
                let arguments = syntax::call_arguments(node);
                match (short, arguments.as_slice()) {
                    ("max" | "MAX", _) => arguments.iter().any(|a| self.can_be_one(*a, depth + 1)),
                    (
                        "static_cast" | "int" | "unsigned" | "size_t" | "int64_t" | "long",
                        [only],
                    ) => self.can_be_one(*only, depth + 1),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// `left * right` (written `product`): unbounded when a factor is, or when it is the batch
    /// times the heads.
    fn product(
        &self,
        product: Node<'t>,
        left: Node<'t>,
        right: Node<'t>,
        depth: usize,
    ) -> Magnitude<'t> {
        let factors = [
            self.magnitude(left, depth + 1),
            self.magnitude(right, depth + 1),
        ];
        match either(&factors) {
            Magnitude::Unknown if self.many_per_item(&[left, right]) => Magnitude::Unbounded {
                size: product,
                name: text(product, self.source),
                divisor: None,
            },
            product => product,
        }
    }

    /// `batch_size * heads`: a product of the batch and a per-sample count, each small by
    /// design, together as large as the batch is.
    fn many_per_item(&self, product: &[Node<'t>]) -> bool {
        let mut factors = Vec::new();
        let mut stack = product.to_vec();
        while let Some(node) = stack.pop() {
            let node = strip(node, self.source);
            if node.node_kind() == "binary_expression" && operator(node, self.source) == "*" {
                stack.extend(node.field("left"));
                stack.extend(node.field("right"));
            } else if matches!(
                node.node_kind(),
                "identifier" | "type_identifier" | "field_expression"
            ) {
                let name = match node.field("field") {
                    Some(field) => text(field, self.source),
                    None => text(node, self.source),
                };
                factors.push(name);
            }
        }
        let batch = factors
            .iter()
            .any(|f| names_one_of(f, &["batch", "bsz", "bs"]));
        let heads = factors
            .iter()
            .any(|f| names_one_of(f, &["head", "heads", "nheads"]));
        batch && heads && !self.bounded.iter().any(|b| factors.contains(b))
    }
}

/// The larger of several magnitudes: unbounded when one is, bounded when all are.
fn either<'t>(all: &[Magnitude<'t>]) -> Magnitude<'t> {
    if let Some(unbounded) = all
        .iter()
        .find(|m| matches!(m, Magnitude::Unbounded { .. }))
    {
        return *unbounded;
    }
    if all.iter().all(|m| matches!(m, Magnitude::Bounded)) {
        Magnitude::Bounded
    } else {
        Magnitude::Unknown
    }
}

/// The comparisons known to hold where the launch `call` runs: the conditions of the `if`s,
/// loops and `else`s around it, the tests before it that leave the function, and the checks
/// (`TORCH_CHECK(seq_len <= 1024)`, `assert(rows < 4096)`) before it.
pub(super) fn facts_at<'t>(call: Node<'t>, body: Node<'t>, source: &str) -> Vec<Comparison<'t>> {
    let mut facts = Vec::new();
    let mut disjunctions = Vec::new();
    let mut add = |node: Node<'t>, holds: bool| {
        guards::comparisons(
            Condition { node, holds },
            source,
            &NoFlags,
            &mut facts,
            &mut disjunctions,
        );
    };
    let mut node = call;
    while let Some(parent) = node.up() {
        if node == body {
            break;
        }
        match parent.node_kind() {
            "if_statement" | "while_statement" | "for_statement"
                if parent.field("condition") != Some(node) =>
            {
                if let Some(condition) = parent.field("condition") {
                    let in_else = parent.field("alternative") == Some(node)
                        || (node.node_kind() == "else_clause");
                    if parent.node_kind() == "if_statement" || !in_else {
                        add(condition, !in_else);
                    }
                }
            }
            "else_clause" => {
                if let Some(condition) = parent.up().and_then(|i| i.field("condition")) {
                    add(condition, false);
                }
            }
            "compound_statement" => {
                for sibling in syntax::named_children(parent) {
                    if sibling.end_byte() > node.start_byte() {
                        break;
                    }
                    if let Some((condition, holds)) = exit_test(sibling, source) {
                        add(condition, holds);
                    }
                }
            }
            _ => {}
        }
        node = parent;
    }
    // `if (nnz < 1024) { nnz = m; block = nnz; }`: a test says nothing of a name written after it
    let writes = writes_between(&facts, call, body, source);
    facts.retain(|fact| !written_after_test(fact, &writes, source));
    facts
}

/// The names assigned, stepped or having their address taken in `body` between the earliest
/// of the `facts`' tests and `at`, each with where the write starts.
fn writes_between<'t>(
    facts: &[Comparison],
    at: Node,
    body: Node<'t>,
    source: &'t str,
) -> Vec<(usize, &'t str)> {
    let to = at.start_byte();
    let Some(from) = facts.iter().map(|fact| fact.origin.end_byte()).min() else {
        return Vec::new();
    };
    syntax::writes_below(body, source)
        .iter()
        .filter(|(start, _)| (from..to).contains(start))
        .map(|(start, target)| (*start, source.get(target.clone()).unwrap_or("")))
        .collect()
}

/// Whether a name `fact` compares is among the `writes` after the test.
fn written_after_test(fact: &Comparison, writes: &[(usize, &str)], source: &str) -> bool {
    let from = fact.origin.end_byte();
    if !writes.iter().any(|(at, _)| *at >= from) {
        return false;
    }
    let mut names = Vec::new();
    for side in [fact.left, fact.right] {
        syntax::walk_iterative(side, |n| {
            if n.node_kind() == "identifier" {
                names.push(text(n, source));
            }
            names.len() < 16
        });
        names.push(text(strip(side, source), source));
    }
    writes
        .iter()
        .any(|(at, name)| *at >= from && names.contains(name))
}

/// `if (c) return;` (`c` fails after it) or `TORCH_CHECK(c, ...)` (`c` holds after it).
pub(super) fn exit_test<'t>(statement: Node<'t>, source: &str) -> Option<(Node<'t>, bool)> {
    match statement.node_kind() {
        "if_statement" => {
            let consequence = statement.field("consequence")?;
            leaves(consequence, source).then_some((statement.field("condition")?, false))
        }
        "expression_statement" => {
            let call = statement
                .named_child(0)
                .filter(|c| c.node_kind() == "call_expression")?;
            let callee = text(call.field("function")?, source);
            let checks = matches!(
                callee,
                "assert"
                    | "TORCH_CHECK"
                    | "AT_ASSERT"
                    | "AT_ASSERTM"
                    | "TORCH_INTERNAL_ASSERT"
                    | "CHECK"
                    | "DCHECK"
                    | "PADDLE_ENFORCE"
            ) || names_a_check_macro(callee);
            let stated = syntax::call_arguments(call).into_iter().next()?;
            checks.then_some((stated, true))
        }
        _ => None,
    }
}

/// A project's own check macro, spelled as one (`FT_CHECK`, `MY_ASSERT`, `GGML_ASSERT`): it
/// stops the program when its condition fails.
fn names_a_check_macro(name: &str) -> bool {
    names_a_macro(name) && (name.ends_with("_CHECK") || name.contains("ASSERT"))
}

/// Whether running `statement` leaves the function (a `return`, a `throw`, `exit(...)`).
fn leaves(statement: Node, source: &str) -> bool {
    match statement.node_kind() {
        "return_statement" | "throw_statement" => true,
        "compound_statement" => syntax::named_children(statement)
            .filter(|c| c.node_kind() != "comment")
            .last()
            .is_some_and(|last| leaves(last, source)),
        "expression_statement" => statement
            .named_child(0)
            .filter(|c| c.node_kind() == "call_expression")
            .and_then(|c| c.field("function"))
            .is_some_and(|f| {
                matches!(
                    text(f, source),
                    "exit" | "std::exit" | "abort" | "std::abort" | "AT_ERROR"
                )
            }),
        _ => false,
    }
}

/// The expressions `facts` bound from above by a constant no larger than `limit` (`n` in
/// `n <= 1024`, `n < 512`, `n == 64`, `4096 > n`, `block.x` in `block.x <= 1024`, `a * b` in
/// `a * b <= 256`), or by a name another launch of the function takes as its block.
fn bounded_sides<'t>(
    facts: &[Comparison<'t>],
    classifier: &Classifier<'_, 't>,
    limit: i128,
    is_block_size: &dyn Fn(&str) -> bool,
) -> Vec<Node<'t>> {
    let mut sides = Vec::new();
    for fact in facts {
        for left_side in [true, false] {
            let fact = fact.oriented(left_side);
            let bound = match fact.relation {
                Relation::Less => constant(fact.right, classifier).map(|c| c - 1),
                Relation::LessEqual | Relation::Equal => constant(fact.right, classifier),
                _ => None,
            };
            // no larger than what another launch of the function takes as its block
            // (`if (n <= max_threads) k<<<1, n>>>` beside `k<<<blocks, max_threads>>>`): that
            // launch's own check answers for both
            let right = strip(fact.right, classifier.source);
            let below_a_block = bound.is_none()
                && matches!(fact.relation, Relation::Less | Relation::LessEqual)
                && right.node_kind() == "identifier"
                && is_block_size(text(right, classifier.source));
            if bound.is_some_and(|b| b <= limit) || below_a_block {
                sides.push(strip(fact.left, classifier.source));
            }
        }
    }
    sides
}

/// The names `sides` are, bounded from above by a constant no larger than the limit (a field
/// by its name: `cfg.rows <= 1024` bounds `rows`).
fn bounded_names<'t>(sides: &[Node<'t>], source: &'t str) -> Vec<&'t str> {
    sides
        .iter()
        .filter_map(|side| match side.node_kind() {
            "identifier" => Some(text(*side, source)),
            "field_expression" => side.field("field").map(|f| text(f, source)),
            _ => None,
        })
        .collect()
}

/// The names the launches of `body` take whole as their block (`k<<<g, threads>>>`).
fn launch_block_names<'t>(body: Node<'t>, source: &'t str) -> Vec<&'t str> {
    let mut names = Vec::new();
    syntax::walk_iterative(body, |node| {
        if node.node_kind() == "call_expression" {
            if let Some(block) = syntax::launch_configuration(node).get(1) {
                let block = strip(*block, source);
                if block.node_kind() == "identifier" {
                    names.push(text(block, source));
                }
            }
        }
        true
    });
    names
}

/// The axes of the `dim3` local `config` that the launch's path bounds within the limit by a
/// test of the component itself: `if (block.x > 1024) throw ...;` bounds whatever `block.x` was
/// built from (`dim3 block(hidden_size)`).
fn checked_components<'t>(sides: &[Node<'t>], config: Node<'t>, source: &str) -> Vec<usize> {
    let config = strip(config, source);
    if config.node_kind() != "identifier" {
        return Vec::new();
    }
    let local = text(config, source);
    sides
        .iter()
        .filter(|side| {
            side.node_kind() == "field_expression"
                && side
                    .field("argument")
                    .is_some_and(|a| text(strip(a, source), source) == local)
        })
        .filter_map(|side| {
            let field = side.field("field")?;
            AXIS_NAMES.iter().position(|n| *n == text(field, source))
        })
        .collect()
}

/// The three components of a configuration argument: `dim3(a, b)`, `{a, b}`, a `dim3` local
/// declared with arguments (and its components assigned later, the assignment the launch sees),
/// or a scalar as `x`.
fn parts_of<'t>(locals: &Locals<'t>, config: Node<'t>, source: &'t str) -> Vec<Option<Node<'t>>> {
    let config = strip(config, source);
    let list = match config.node_kind() {
        "identifier" => {
            let name = text(config, source);
            match (
                locals.dim3_at(name, config),
                locals.value_at(name, config, source),
            ) {
                (Some(list), Held::NotLocal) => Some(list),
                (_, Held::One(value)) => {
                    super::finding::dim3_arguments(strip(value, source), source)
                }
                (None, Held::NotLocal) => None,
                _ => return vec![None, None, None],
            }
        }
        _ => super::finding::dim3_arguments(config, source),
    };
    let mut parts: Vec<Option<Node<'t>>> = match list {
        Some(list) => {
            let mut parts: Vec<Option<Node<'t>>> = syntax::named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .map(|c| match c.node_kind() {
                    // `dim3 g(b, heads * seq_len)` parses as a declaration of `seq_len`, a
                    // pointer to `heads`: kept whole, read as the product
                    "parameter_declaration" if c.field("declarator").is_some() => Some(c),
                    "parameter_declaration" => Some(c.field("type").unwrap_or(c)),
                    _ => Some(c),
                })
                .collect();
            parts.resize(3, None);
            parts
        }
        None => vec![Some(config), None, None],
    };
    if config.node_kind() == "identifier" {
        let name = text(config, source);
        for (axis, field) in ["x", "y", "z"].into_iter().enumerate() {
            match locals.component_at(name, field, config, source) {
                Held::NotLocal => {}
                Held::One(value) => parts[axis] = Some(value),
                Held::Several | Held::Alternatives(_) => parts[axis] = None,
            }
        }
    }
    parts
}

/// A name that counts items of the problem, with no bound by design: `rows`, `num_tokens`,
/// `n_points`, `nnz`, a sequence length (`seq_len`, `sequence_length`); for a block, a hidden
/// size too (`hidden_size`, `num_features`): a column count is often small by design and is
/// left alone.
/// Small by design: a batch, heads, channels, an image side, a count of blocks or threads, a
/// or a count per group (`points_per_pillar`). A maximum is not: `rows_max` of a batch grows
/// with its largest input.
fn small_by_design(name: &str) -> bool {
    names_one_of(
        name,
        &[
            "batch", "bs", "head", "heads", "channel", "channels", "width", "height", "depth",
            "block", "blocks", "thread", "threads", "grid", "warp", "warps", "tile", "tiles",
            "stream", "dim3", "per",
        ],
    )
}

/// Whether a definition reads a size small by design (an image's height, a batch).
fn reads_a_size_small_by_design(definition: Node, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(definition, |node| {
        if matches!(node.node_kind(), "identifier" | "field_identifier") {
            found |= small_by_design(text(node, source));
        }
        !found
    });
    found
}

fn counts_items(name: &str, block: bool) -> bool {
    // `ROWS_BLOCKDIM_X`: a constant, whatever it names
    if !name.chars().any(|c| c.is_ascii_lowercase()) {
        return false;
    }
    if small_by_design(name) {
        return false;
    }
    let items: &[&str] = &[
        "rows",
        "nrows",
        "nrow",
        "tokens",
        "ntokens",
        "points",
        "npoints",
        "nnz",
        "numel",
        "elements",
        "nelements",
        "pixels",
        "npixels",
        "vertices",
        "nodes",
        "edges",
        "seq",
        "seqlen",
        "sequence",
    ];
    if names_one_of(name, items) {
        return true;
    }
    block && names_one_of(name, &["hidden", "features"])
}

/// Whether one of the words of `name` (`num_rows`, `numRows`, `rows2`) is one of `targets`.
fn names_one_of(name: &str, targets: &[&str]) -> bool {
    let lower = name.to_ascii_lowercase();
    lower
        .split(|c: char| c == '_' || c.is_ascii_digit())
        .any(|w| targets.contains(&w))
        || camel_words(name)
            .iter()
            .any(|w| targets.contains(&w.as_str()))
}

/// `numRows` → `["num", "rows"]`.
fn camel_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c.is_ascii_alphabetic() {
            current.push(c.to_ascii_lowercase());
        } else if !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}
