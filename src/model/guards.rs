//! Conditions that dominate a program point, split into comparison facts.
//!
//! `if (r >= R || c >= C) return;` leaves two facts for the code after it, `r < R` and `c < C`;
//! the else branch of `if (i < n)` carries `i >= n`. Facts are syntactic: the reasoning built on
//! them only ever concludes "bounded" or "out of range" when a fact says so directly.

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

    fn negated(self) -> Relation {
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

/// A condition known to hold or to fail at a program point.
#[derive(Debug, Clone, Copy)]
pub struct Condition<'t> {
    pub node: Node<'t>,
    pub holds: bool,
}

/// Splits a condition into the comparisons it guarantees. A disjunction that holds guarantees
/// none of its parts; it is returned in `disjunctions` so out-of-range reasoning can still read it.
pub fn comparisons<'t>(
    condition: Condition<'t>,
    source: &str,
    out: &mut Vec<Comparison<'t>>,
    disjunctions: &mut Vec<Vec<Comparison<'t>>>,
) {
    split(
        condition.node,
        condition.holds,
        condition.node,
        source,
        out,
        disjunctions,
        0,
    );
}

fn split<'t>(
    node: Node<'t>,
    holds: bool,
    origin: Node<'t>,
    source: &str,
    out: &mut Vec<Comparison<'t>>,
    disjunctions: &mut Vec<Vec<Comparison<'t>>>,
    depth: usize,
) {
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
                split(
                    argument,
                    !holds,
                    origin,
                    source,
                    out,
                    disjunctions,
                    depth + 1,
                );
            }
        }
        "binary_expression" => {
            let op = operator(node, source);
            let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                return;
            };
            // `a & b` and `a | b` on comparisons are the logical operators without short-circuit
            let op = match op {
                "&" if is_comparison(left, source) && is_comparison(right, source) => "&&",
                "|" if is_comparison(left, source) && is_comparison(right, source) => "||",
                other => other,
            };
            match (op, holds) {
                ("&&", true) | ("||", false) => {
                    split(left, holds, origin, source, out, disjunctions, depth + 1);
                    split(right, holds, origin, source, out, disjunctions, depth + 1);
                }
                ("||", true) | ("&&", false) => {
                    let mut parts = Vec::new();
                    let mut nested = Vec::new();
                    for side in [left, right] {
                        let mut one = Vec::new();
                        split(
                            side,
                            holds,
                            origin,
                            source,
                            &mut one,
                            &mut nested,
                            depth + 1,
                        );
                        if one.len() == 1 {
                            parts.extend(one);
                        } else if let Some(deeper) = nested.pop().filter(|_| one.is_empty()) {
                            parts.extend(deeper);
                        } else {
                            return; // a part that is not a single comparison: nothing certain
                        }
                    }
                    disjunctions.push(parts);
                }
                _ => {
                    if let Some(relation) = Relation::parse(op) {
                        let relation = if holds { relation } else { relation.negated() };
                        out.push(Comparison {
                            left: strip(left, source),
                            relation,
                            right: strip(right, source),
                            origin,
                        });
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
        }
        _ => {}
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

fn is_comparison(node: Node, source: &str) -> bool {
    is_comparison_within(node, source, 0)
}

fn is_comparison_within(node: Node, source: &str, depth: usize) -> bool {
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
                    .is_some_and(|l| is_comparison_within(l, source, depth + 1)))
        }
        "unary_expression" => operator(node, source) == "!",
        _ => false,
    }
}
