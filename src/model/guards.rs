//! Conditions that dominate a program point, split into comparison facts.
//!
//! `if (r >= R || c >= C) return;` leaves two facts for the code after it, `r < R` and `c < C`;
//! the else branch of `if (i < n)` carries `i >= n`. Facts are syntactic: the reasoning built on
//! them only ever concludes "bounded" or "out of range" when a fact says so directly.
//!
//! A bound test kept in a flag is the test itself: after `const bool valid = i < n;`, the
//! condition `valid` carries `i < n` and `!valid` carries `i >= n`. The splitter asks the function
//! around the condition (through [`Flags`]) for the value a flag holds; it answers only for a local
//! defined once and never reassigned, whose inputs are not reassigned either.

use crate::syntax::{self, operator, strip, NodeExt};
use tree_sitter::Node;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
}

impl Relation {
    fn parse(op: &str) -> Option<Relation> {
        Some(match op {
            "<" => Relation::Less,
            "<=" => Relation::LessEqual,
            ">" => Relation::Greater,
            ">=" => Relation::GreaterEqual,
            "==" => Relation::Equal,
            "!=" => Relation::NotEqual,
            _ => return None,
        })
    }

    pub fn negated(self) -> Relation {
        match self {
            Relation::Less => Relation::GreaterEqual,
            Relation::LessEqual => Relation::Greater,
            Relation::Greater => Relation::LessEqual,
            Relation::GreaterEqual => Relation::Less,
            Relation::Equal => Relation::NotEqual,
            Relation::NotEqual => Relation::Equal,
        }
    }

    /// The same fact read from the other side: `a < b` is `b > a`.
    pub fn flipped(self) -> Relation {
        match self {
            Relation::Less => Relation::Greater,
            Relation::LessEqual => Relation::GreaterEqual,
            Relation::Greater => Relation::Less,
            Relation::GreaterEqual => Relation::LessEqual,
            other => other,
        }
    }
}

/// `left relation right`, known to hold at a program point.
#[derive(Debug, Clone, Copy)]
pub struct Comparison<'t> {
    pub left: Node<'t>,
    pub relation: Relation,
    pub right: Node<'t>,
    /// The condition this fact came from (for labels).
    pub origin: Node<'t>,
}

impl<'t> Comparison<'t> {
    /// The same fact with `side` on the left.
    pub fn oriented(&self, left_side: bool) -> Comparison<'t> {
        if left_side {
            *self
        } else {
            Comparison {
                left: self.right,
                relation: self.relation.flipped(),
                right: self.left,
                origin: self.origin,
            }
        }
    }
}

/// What an equality fact states divides `name`: `name % m == 0` (`Modulus(m)`) or
/// `(name & m) == 0` (`Mask(m)`, `m + 1` for a power of two), either side against a literal 0,
/// or a remainder tested as a truth value that failed (`if (name % m) exit(1);`).
#[derive(Debug, Clone, Copy)]
pub enum StatedDivisor<'t> {
    Modulus(Node<'t>),
    Mask(Node<'t>),
}

impl<'t> Comparison<'t> {
    /// The divisor this fact states for `name` (see `StatedDivisor`), if it states one.
    pub fn stated_divisor(&self, name: &str, source: &str) -> Option<StatedDivisor<'t>> {
        if self.relation != Relation::Equal {
            return None;
        }
        let is_zero = |node: Node| {
            crate::model::size::parse_number(syntax::text(strip(node, source), source)) == Some(0)
        };
        // a remainder tested as a truth value that failed (see `Splitter::split`)
        if self.left.id() == self.right.id() {
            let side = strip(self.left, source);
            let (left, right) = (side.field("left")?, side.field("right")?);
            if !syntax::same_text(left, source, name) {
                return None;
            }
            return match operator(side, source) {
                "%" => Some(StatedDivisor::Modulus(right)),
                "&" => Some(StatedDivisor::Mask(right)),
                _ => None,
            };
        }
        [self.oriented(true), self.oriented(false)]
            .into_iter()
            .find_map(|fact| {
                let side = strip(fact.left, source);
                if !is_zero(fact.right) || side.node_kind() != "binary_expression" {
                    return None;
                }
                let (left, right) = (side.field("left")?, side.field("right")?);
                if !syntax::same_text(left, source, name) {
                    return None;
                }
                match operator(side, source) {
                    "%" => Some(StatedDivisor::Modulus(right)),
                    "&" => Some(StatedDivisor::Mask(right)),
                    _ => None,
                }
            })
    }
}

/// What the splitter may ask of the function around a condition.
pub trait Flags<'t> {
    /// The value the local `name` holds wherever it is read: its single definition, when neither
    /// it nor anything that definition reads is ever reassigned. None for anything else.
    fn flag_value(&self, name: &str) -> Option<Node<'t>>;
    /// For a flag declared once and afterwards only cleared (`valid = false`, `valid &= c`,
    /// `valid = valid && c`), what holds wherever it still does: its declared value (`bool valid
    /// = i < n;`, none for `true`) and the failure of each test that clears it (`if (x >= w)
    /// valid = false;`). None for anything else.
    fn clearing_tests(&self, _name: &str) -> Option<Vec<Condition<'t>>> {
        None
    }
    /// For a flag only ever set `true` inside one `if` (`computed = false; ... if (c) {
    /// computed = true; ... }`), the parts of that test that still hold wherever the flag does:
    /// the conjuncts of `c` whose values never change. None for anything else.
    fn setting_tests(&self, _name: &str) -> Option<Vec<Node<'t>>> {
        None
    }
    /// For a flag declared `false` and set `true` only inside one `if (c)` that runs wherever
    /// the flag is declared (`bool outside = false; if (i >= n) outside = true;`): `c`, which
    /// failed wherever the flag is still false. None for anything else.
    fn setting_test_failed_where_unset(&self, _name: &str) -> Option<Node<'t>> {
        None
    }
    /// `flag_value` for the flag read at `read`: a kernel may declare flags of one name in
    /// several scopes, and the values a test reads may change elsewhere than between the flag's
    /// definition and this read.
    fn flag_value_at(&self, name: &str, read: Node<'t>) -> Option<Node<'t>> {
        let _ = read;
        self.flag_value(name)
    }
    /// `clearing_tests` for the flag read at `read` (see `flag_value_at`).
    fn clearing_tests_at(&self, name: &str, read: Node<'t>) -> Option<Vec<Condition<'t>>> {
        let _ = read;
        self.clearing_tests(name)
    }
    /// Every value of the flag that may reach `read`, when each is a plain store (`bool pruned =
    /// gid >= n;`, `pruned = pruned || !marked(gid);`) whose inputs hold still up to where the
    /// read's facts are used: what all of them say, the flag says. None for anything else.
    fn reaching_values_at(&self, name: &str, read: Node<'t>) -> Option<Vec<Node<'t>>> {
        let _ = (name, read);
        None
    }
    /// For a flag holding a test of a local that changes later (`bool ok = i < n; ... i = i *
    /// s;`), the same test of the copies taken before it changed (`int out = i;` with `i`'s value
    /// the flag tested): `out < n`.
    fn tests_of_copies(&self, _name: &str, _holds: bool) -> Vec<Comparison<'t>> {
        Vec::new()
    }
    /// Whether `condition` is a constant (`kCheckRows` with the template argument known,
    /// `true`): Some(truth), or None when it is not known.
    fn constant_truth(&self, _condition: Node<'t>) -> Option<bool> {
        None
    }
    /// For a call of a predicate helper in sight (`inside(i, n)` returning `i < n`), the
    /// comparisons between the call's arguments its result guarantees when it holds (or fails).
    fn predicate_facts(
        &self,
        _call: Node<'t>,
        _holds: bool,
    ) -> Vec<(Node<'t>, Relation, Node<'t>)> {
        Vec::new()
    }
}

/// Identifiers are not resolved: a flag guarantees nothing.
pub struct NoFlags;

impl<'t> Flags<'t> for NoFlags {
    fn flag_value(&self, _: &str) -> Option<Node<'t>> {
        None
    }
}

/// A closure from a name to the flag's value.
impl<'t, F: Fn(&str) -> Option<Node<'t>>> Flags<'t> for F {
    fn flag_value(&self, name: &str) -> Option<Node<'t>> {
        self(name)
    }
}

/// How many flags defined through other flags the splitter follows (`ok = valid && j < m`).
const MAX_FLAG_HOPS: usize = 8;

/// A condition known to hold or to fail at a program point.
#[derive(Debug, Clone, Copy)]
pub struct Condition<'t> {
    pub node: Node<'t>,
    pub holds: bool,
}

/// `a < b >> k` (a name below a shifted size), which the grammar reads as the template
/// instantiation `a<b>` compared with `> k`: `a` and the name `b`.
fn shifted_bound_read_as_template<'t>(node: Node<'t>, op: &str) -> Option<(Node<'t>, Node<'t>)> {
    let template = node.field("left")?;
    if op != ">"
        || template.node_kind() != "template_function"
        || node.field("right")?.node_kind() != "number_literal"
    {
        return None;
    }
    let name = template.field("name")?;
    let arguments = template.field("arguments")?;
    let [argument] = syntax::named_children(arguments).collect::<Vec<_>>()[..] else {
        return None;
    };
    // `cols` alone, read as a type
    let bound = match argument.node_kind() {
        "type_descriptor" => argument.field("type")?,
        "identifier" => argument,
        _ => return None,
    };
    let plain = |n: Node| matches!(n.node_kind(), "identifier" | "type_identifier");
    (plain(name) && plain(bound) && argument.named_child_count() <= 1).then_some((name, bound))
}

/// One of several conjunctions of comparisons holds: what `(a < n && b > 0) || c == 0` says.
pub type Disjunction<'t> = Vec<Vec<Comparison<'t>>>;

/// Splits a condition into the comparisons it guarantees. A disjunction that holds guarantees
/// none of its parts; it is returned in `disjunctions`, each alternative with the comparisons it
/// guarantees, so that reasoning by cases can still read it.
/// A flag is read as the comparison it holds (`flags`), the fact's origin then being the flag's
/// value, where the comparison is written.
pub fn comparisons<'t>(
    condition: Condition<'t>,
    source: &str,
    flags: &dyn Flags<'t>,
    out: &mut Vec<Comparison<'t>>,
    disjunctions: &mut Vec<Disjunction<'t>>,
) {
    let splitter = Splitter {
        source,
        flags,
        hops: 0,
    };
    splitter.split(
        condition.node,
        condition.holds,
        condition.node,
        out,
        disjunctions,
        0,
    );
}

struct Splitter<'a, 't> {
    source: &'a str,
    flags: &'a dyn Flags<'t>,
    /// Flags followed so far on this path.
    hops: usize,
}

impl<'t> Splitter<'_, 't> {
    /// The comparisons that every one of `values` guarantees when it holds (or fails): those a
    /// flag with these reaching values guarantees. None when they share none.
    fn common_to_all(
        &self,
        values: &[Node<'t>],
        holds: bool,
        depth: usize,
    ) -> Option<Vec<Comparison<'t>>> {
        let source = self.source;
        let key = |c: &Comparison| {
            (
                syntax::text(c.left, source).to_string(),
                c.relation,
                syntax::text(c.right, source).to_string(),
            )
        };
        let mut common: Option<Vec<Comparison<'t>>> = None;
        for value in values {
            let mut found = Vec::new();
            self.split(
                *value,
                holds,
                *value,
                &mut found,
                &mut Vec::new(),
                depth + 1,
            );
            common = Some(match common {
                None => found,
                Some(kept) => {
                    let keys: Vec<_> = found.iter().map(key).collect();
                    kept.into_iter()
                        .filter(|c| keys.contains(&key(c)))
                        .collect()
                }
            });
        }
        common.filter(|c| !c.is_empty())
    }

    fn split(
        &self,
        node: Node<'t>,
        holds: bool,
        origin: Node<'t>,
        out: &mut Vec<Comparison<'t>>,
        disjunctions: &mut Vec<Disjunction<'t>>,
        depth: usize,
    ) {
        let source = self.source;
        if depth > syntax::MAX_DEPTH {
            return;
        }
        let node = match node.node_kind() {
            "condition_clause" => match node.field("value").or_else(|| node.named_child(0)) {
                Some(value) => value,
                None => return,
            },
            _ => node,
        };
        let node = strip(node, source);
        match node.node_kind() {
            "unary_expression" if operator(node, source) == "!" => {
                if let Some(argument) = node.field("argument") {
                    self.split(argument, !holds, origin, out, disjunctions, depth + 1);
                }
            }
            "binary_expression" => {
                let op = operator(node, source);
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return;
                };
                // `tid < cols >> 1` parses as `tid<cols> > 1`, a template instantiation compared
                if let Some((below, bound)) = shifted_bound_read_as_template(node, op) {
                    // the shifted bound is at most the bound itself: where the test holds,
                    // `tid < cols` does; where it fails, nothing follows
                    if holds {
                        out.push(Comparison {
                            left: below,
                            relation: Relation::Less,
                            right: bound,
                            origin,
                        });
                    }
                    return;
                }
                // `a & b` and `a | b` on comparisons are the logical operators without short-circuit
                let both = || self.is_comparison(left) && self.is_comparison(right);
                let op = match op {
                    "&" if both() => "&&",
                    "|" if both() => "||",
                    other => other,
                };
                match (op, holds) {
                    ("&&", true) | ("||", false) => {
                        self.split(left, holds, origin, out, disjunctions, depth + 1);
                        self.split(right, holds, origin, out, disjunctions, depth + 1);
                    }
                    ("||", true) | ("&&", false) => {
                        // an alternative a constant rules out (`kCheck && i >= n` failed, with
                        // `kCheck` true): the other one holds
                        let truth =
                            |side: Node<'t>| self.flags.constant_truth(side).map(|t| t == holds);
                        match (truth(left), truth(right)) {
                            (Some(true), _) | (_, Some(true)) => return,
                            (Some(false), None) => {
                                return self.split(
                                    right,
                                    holds,
                                    origin,
                                    out,
                                    disjunctions,
                                    depth + 1,
                                )
                            }
                            (None, Some(false)) => {
                                return self.split(
                                    left,
                                    holds,
                                    origin,
                                    out,
                                    disjunctions,
                                    depth + 1,
                                )
                            }
                            _ => {}
                        }
                        // each side is an alternative: the comparisons it guarantees (a nested
                        // disjunction beside them is left out, which only weakens the side), or
                        // a nested disjunction's own alternatives
                        let mut alternatives = Vec::new();
                        for side in [left, right] {
                            let mut one = Vec::new();
                            let mut nested = Vec::new();
                            self.split(side, holds, origin, &mut one, &mut nested, depth + 1);
                            if !one.is_empty() {
                                alternatives.push(one);
                            } else if let Some(deeper) = nested.pop() {
                                alternatives.extend(deeper);
                            } else {
                                return; // a side that guarantees nothing: nothing certain
                            }
                        }
                        disjunctions.push(alternatives);
                    }
                    // `if (X % 32) exit(1);`: past it the remainder is zero. With no zero in
                    // the source to stand on the right, the fact is written with the remainder on
                    // both sides, a tautology to every other reader (`stated_divisor` reads it)
                    ("%" | "&", false) => out.push(Comparison {
                        left: node,
                        relation: Relation::Equal,
                        right: node,
                        origin,
                    }),
                    _ => {
                        if let Some(relation) = Relation::parse(op) {
                            let relation = if holds { relation } else { relation.negated() };
                            let (left, right) = (strip(left, source), strip(right, source));
                            out.push(Comparison {
                                left,
                                relation,
                                right,
                                origin,
                            });
                            // `fabsf(x) < B` bounds `x` from above too (`x <= |x|`); a bound from
                            // below on `|x|` says nothing of `x`
                            let magnitude = match relation {
                                Relation::Less | Relation::LessEqual => {
                                    absolute_value_of(left, source).map(|x| (x, right))
                                }
                                Relation::Greater | Relation::GreaterEqual => {
                                    absolute_value_of(right, source).map(|x| (left, x))
                                }
                                _ => None,
                            };
                            if let Some((left, right)) = magnitude {
                                out.push(Comparison {
                                    left,
                                    relation,
                                    right,
                                    origin,
                                });
                            }
                        }
                    }
                }
            }
            // `IN_RANGE(x, 0, cols - 1)`, `inBounds(i, n)`: a range-check helper that holds bounds its
            // first arguments by its last one (strictly, so it never reads as an off-by-one guard)
            "call_expression" if holds && is_range_check(node, source) => {
                let arguments: Vec<Node<'t>> = node
                    .field("arguments")
                    .map(|a| syntax::named_children(a).collect())
                    .unwrap_or_default();
                if let Some((bound, checked)) = arguments.split_last() {
                    for argument in checked {
                        out.push(Comparison {
                            left: strip(*argument, source),
                            relation: Relation::Less,
                            right: strip(*bound, source),
                            origin,
                        });
                    }
                }
                // `IN_RANGE(x, lo, hi)`: a value between two others is at least the first
                if let ([value, low, _], true) = (arguments.as_slice(), names_a_range(node, source))
                {
                    out.push(Comparison {
                        left: strip(*value, source),
                        relation: Relation::GreaterEqual,
                        right: strip(*low, source),
                        origin,
                    });
                }
            }
            // `inside(i, n)` with `inside` returning `i < n && ...`: what its result says of its
            // arguments
            "call_expression" => {
                for (left, relation, right) in self.flags.predicate_facts(node, holds) {
                    out.push(Comparison {
                        left,
                        relation,
                        right,
                        origin,
                    });
                }
            }
            // `valid`, defined once as `i < n`: the comparison it holds
            "identifier" if self.hops < MAX_FLAG_HOPS => {
                let name = syntax::text(node, source);
                let deeper = Splitter {
                    source,
                    flags: self.flags,
                    hops: self.hops + 1,
                };
                if let Some(value) = self.flags.flag_value_at(name, node) {
                    deeper.split(value, holds, value, out, disjunctions, depth + 1);
                } else if let Some(common) = self
                    .flags
                    .reaching_values_at(name, node)
                    .and_then(|values| deeper.common_to_all(&values, holds, depth))
                {
                    out.extend(common);
                } else if let (true, Some(tests)) =
                    (holds, self.flags.clearing_tests_at(name, node))
                {
                    for test in tests {
                        deeper.split(
                            test.node,
                            test.holds,
                            test.node,
                            out,
                            disjunctions,
                            depth + 1,
                        );
                    }
                } else if let (true, Some(tests)) = (holds, self.flags.setting_tests(name)) {
                    for test in tests {
                        deeper.split(test, true, test, out, disjunctions, depth + 1);
                    }
                } else if let (false, Some(test)) =
                    (holds, self.flags.setting_test_failed_where_unset(name))
                {
                    deeper.split(test, false, test, out, disjunctions, depth + 1);
                } else {
                    out.extend(self.flags.tests_of_copies(name, holds));
                }
            }
            _ => {}
        }
    }

    fn is_comparison(&self, node: Node<'t>) -> bool {
        is_comparison_within(node, self.source, self.flags, self.hops, 0)
    }
}

/// Reads each non-strict comparison that a `!=` of the same two sides excludes the end of as
/// strict: `i <= n` with `i != n` (`if (i > n) return; if (i == n) { ...; return; }`) is `i < n`,
/// `i >= n` with `i != n` is `i > n`. Sides are matched by their text, as facts are.
pub fn tighten(comparisons: &mut [Comparison<'_>], source: &str) {
    let key = |node: Node| syntax::normalized(node, source);
    let excluded: Vec<(String, String)> = comparisons
        .iter()
        .filter(|c| c.relation == Relation::NotEqual)
        .map(|c| (key(c.left), key(c.right)))
        .collect();
    if excluded.is_empty() {
        return;
    }
    for comparison in comparisons.iter_mut() {
        let strict = match comparison.relation {
            Relation::LessEqual => Relation::Less,
            Relation::GreaterEqual => Relation::Greater,
            _ => continue,
        };
        let (left, right) = (key(comparison.left), key(comparison.right));
        if excluded
            .iter()
            .any(|(a, b)| (*a == left && *b == right) || (*a == right && *b == left))
        {
            comparison.relation = strict;
        }
    }
}

fn is_range_check(call: Node, source: &str) -> bool {
    let Some(function) = call.field("function") else {
        return false;
    };
    let name: String = syntax::text(function, source)
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    ["inrange", "inbounds", "inbound", "within", "inside"]
        .iter()
        .any(|word| name.ends_with(word))
}

/// The `x` of `abs(x)`, `fabsf(x)`, `std::abs(x)` and the like.
fn absolute_value_of<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    if node.node_kind() != "call_expression" {
        return None;
    }
    let name = syntax::text(node.field("function")?, source);
    let name = name.strip_prefix("std::").unwrap_or(name);
    if !matches!(name, "abs" | "fabs" | "fabsf" | "labs" | "llabs" | "__habs") {
        return None;
    }
    let arguments: Vec<Node<'t>> = syntax::named_children(node.field("arguments")?)
        .filter(|a| a.node_kind() != "comment")
        .collect();
    match arguments.as_slice() {
        [argument] => Some(strip(*argument, source)),
        _ => None,
    }
}

/// `IN_RANGE(x, lo, hi)`, `inRange(...)`: a test of a value against a low and a high end.
fn names_a_range(call: Node, source: &str) -> bool {
    call.field("function").is_some_and(|function| {
        syntax::text(function, source)
            .chars()
            .filter(|c| *c != '_')
            .collect::<String>()
            .to_ascii_lowercase()
            .ends_with("inrange")
    })
}

fn is_comparison_within<'t>(
    node: Node<'t>,
    source: &str,
    flags: &dyn Flags<'t>,
    hops: usize,
    depth: usize,
) -> bool {
    if depth > syntax::MAX_DEPTH {
        return false;
    }
    let node = strip(node, source);
    match node.node_kind() {
        "binary_expression" => {
            matches!(
                operator(node, source),
                "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||" | "&" | "|"
            ) && (Relation::parse(operator(node, source)).is_some()
                || node
                    .field("left")
                    .is_some_and(|l| is_comparison_within(l, source, flags, hops, depth + 1)))
        }
        "unary_expression" => operator(node, source) == "!",
        // a flag holding a comparison
        "identifier" if hops < MAX_FLAG_HOPS => {
            let name = syntax::text(node, source);
            match flags.flag_value_at(name, node) {
                Some(value) => is_comparison_within(value, source, flags, hops + 1, depth + 1),
                None => flags
                    .clearing_tests_at(name, node)
                    .map(|tests| tests.into_iter().map(|t| t.node).collect())
                    .or_else(|| flags.setting_tests(name))
                    .is_some_and(|tests: Vec<Node<'t>>| {
                        tests
                            .iter()
                            .all(|t| is_comparison_within(*t, source, flags, hops + 1, depth + 1))
                    }),
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparisons the condition of the last `if` in `text` guarantees when it holds (or
    /// fails), with flags resolved by their single `const bool` definitions in `text`.
    fn facts(text: &str, holds: bool) -> (Vec<String>, Vec<Vec<String>>) {
        let tree = crate::engine::parse(text, None).unwrap_or_else(|| panic!("parse"));
        let mut conditions = Vec::new();
        let mut flags: Vec<(String, Node)> = Vec::new();
        syntax::walk_iterative(tree.root_node(), |node| {
            match node.node_kind() {
                "if_statement" => conditions.extend(node.field("condition")),
                "init_declarator" => {
                    if let (Some(name), Some(value)) =
                        (node.field("declarator"), node.field("value"))
                    {
                        flags.push((syntax::text(name, text).to_string(), value));
                    }
                }
                _ => {}
            }
            true
        });
        let lookup = |name: &str| flags.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        let condition = *conditions.last().unwrap_or_else(|| panic!("no if"));
        let mut out = Vec::new();
        let mut disjunctions = Vec::new();
        comparisons(
            Condition {
                node: condition,
                holds,
            },
            text,
            &lookup,
            &mut out,
            &mut disjunctions,
        );
        let show = |c: &Comparison| {
            let relation = match c.relation {
                Relation::Less => "<",
                Relation::LessEqual => "<=",
                Relation::Greater => ">",
                Relation::GreaterEqual => ">=",
                Relation::Equal => "==",
                Relation::NotEqual => "!=",
            };
            format!(
                "{} {relation} {}",
                syntax::text(c.left, text),
                syntax::text(c.right, text)
            )
        };
        let shown = out.iter().map(show).collect();
        // each disjunction as its alternatives, each alternative's comparisons joined by `&&`
        let alternatives = disjunctions
            .iter()
            .map(|d| {
                d.iter()
                    .map(|a| a.iter().map(show).collect::<Vec<_>>().join(" && "))
                    .collect()
            })
            .collect();
        (shown, alternatives)
    }

    #[test]
    fn a_flag_carries_the_comparison_it_holds() {
        let code = "void f() { const bool valid = i < n; if (valid) {} }";
        assert_eq!(facts(code, true).0, vec!["i < n"]);
        assert_eq!(facts(code, false).0, vec!["i >= n"]);
        let negated = "void f() { const bool valid = i < n; if (!valid) return; }";
        assert_eq!(facts(negated, false).0, vec!["i < n"]);
    }

    #[test]
    fn a_magnitude_below_a_bound_bounds_the_value() {
        let code = "void f() { if (fabsf(x) < w && std::abs(y) <= h) {} }";
        assert_eq!(
            facts(code, true).0,
            vec!["fabsf(x) < w", "x < w", "std::abs(y) <= h", "y <= h"]
        );
        // failing `|x| >= w || |y| > h` leaves both below their bounds
        let failed = "void f() { if (fabsf(x) >= w || h < abs(y)) {} }";
        assert_eq!(
            facts(failed, false).0,
            vec!["fabsf(x) < w", "x < w", "h >= abs(y)", "h >= y"]
        );
        // a magnitude above a bound says nothing of the value's sign
        assert_eq!(
            facts("void f() { if (abs(x) > w) {} }", true).0,
            vec!["abs(x) > w"]
        );
    }

    #[test]
    fn flags_in_conjunctions_and_flags_of_conjunctions() {
        let code = "void f() { bool in = (r < R) && (c < C); if (in && k > 0) {} }";
        assert_eq!(facts(code, true).0, vec!["r < R", "c < C", "k > 0"]);
        // `in` failing: one of the two fails, a disjunction
        assert_eq!(
            facts(code.replace("in && k > 0", "in").as_str(), false),
            (
                vec![],
                vec![vec!["r >= R".to_string(), "c >= C".to_string()]]
            )
        );
        let chained = "void f() { bool a = i < n; bool b = a & (j < m); if (b) {} }";
        assert_eq!(facts(chained, true).0, vec!["i < n", "j < m"]);
    }

    #[test]
    fn each_alternative_of_a_disjunction_keeps_every_comparison_it_guarantees() {
        let code = "void f() { if (((s && j > 0 && j < S) || (j > H - N && j < H)) && i < W) {} }";
        let (held, disjunctions) = facts(code, true);
        assert_eq!(held, vec!["i < W"]);
        assert_eq!(
            disjunctions,
            vec![vec![
                "j > 0 && j < S".to_string(),
                "j > H - N && j < H".to_string()
            ]]
        );
        // a side that guarantees no comparison leaves nothing certain
        let open = "void f() { if ((j > 0 && j < S) || north) {} }";
        assert_eq!(facts(open, true), (vec![], vec![]));
    }

    #[test]
    fn an_excluded_end_makes_an_inclusive_comparison_strict() {
        let code = "void f() { if (i > n) return; if (i == n) return; if (k >= m) {} }";
        let tree = crate::engine::parse(code, None).unwrap_or_else(|| panic!("parse"));
        let mut conditions = Vec::new();
        syntax::walk_iterative(tree.root_node(), |node| {
            if node.node_kind() == "if_statement" {
                conditions.extend(node.field("condition"));
            }
            true
        });
        let mut out = Vec::new();
        for (node, holds) in conditions.into_iter().zip([false, false, true]) {
            comparisons(
                Condition { node, holds },
                code,
                &NoFlags,
                &mut out,
                &mut Vec::new(),
            );
        }
        tighten(&mut out, code);
        let relations: Vec<Relation> = out.iter().map(|c| c.relation).collect();
        // `i <= n` and `i != n` give `i < n`; `k >= m` has no `!=` beside it
        assert_eq!(
            relations,
            [Relation::Less, Relation::NotEqual, Relation::GreaterEqual]
        );
        // written the other way round (`n != i`) and from below (`i >= n`)
        let code = "void f() { if (i < n) return; if (n == i) return; }";
        let tree = crate::engine::parse(code, None).unwrap_or_else(|| panic!("parse"));
        let mut out = Vec::new();
        syntax::walk_iterative(tree.root_node(), |node| {
            if let (true, Some(c)) = (node.node_kind() == "if_statement", node.field("condition")) {
                comparisons(
                    Condition {
                        node: c,
                        holds: false,
                    },
                    code,
                    &NoFlags,
                    &mut out,
                    &mut Vec::new(),
                );
            }
            true
        });
        tighten(&mut out, code);
        assert_eq!(out[0].relation, Relation::Greater);
    }

    #[test]
    fn unknown_names_and_cycles_guarantee_nothing() {
        assert!(facts("void f() { if (valid) {} }", true).0.is_empty());
        // a flag defined through itself is followed a few times, then dropped
        assert!(facts("void f() { bool a = !a; if (a) {} }", true)
            .0
            .is_empty());
        // the closure form with no flags is the plain splitter
        let tree = crate::engine::parse("void f() { if (i < n) {} }", None)
            .unwrap_or_else(|| panic!("parse"));
        let mut out = Vec::new();
        let mut disjunctions = Vec::new();
        let mut condition = None;
        syntax::walk_iterative(tree.root_node(), |node| {
            if node.node_kind() == "if_statement" {
                condition = node.field("condition");
            }
            true
        });
        let node = condition.unwrap_or_else(|| panic!("no if"));
        comparisons(
            Condition { node, holds: true },
            "void f() { if (i < n) {} }",
            &NoFlags,
            &mut out,
            &mut disjunctions,
        );
        assert_eq!(out.len(), 1);
    }
}
