//! Quotients rounded up. A block count is written many ways (`(n + b - 1) / b`,
//! `n / b + min(n % b, 1)`, `ceil((double)n / b)`, `div_up(n, b)`), and the allocation and the
//! launch of one program often pick different ones. Each reads as the one value `⌈n/b⌉`, so a
//! buffer of `⌈n/b⌉ · b` elements is seen to hold the grid of `⌈n/b⌉` blocks of `b` threads.

use super::{Evaluator, Sym};
use crate::syntax::{self, normalized, operator, text, NodeExt};
use tree_sitter::Node;

/// How the atom of a quotient rounded up starts: `⌈n/b⌉`.
const ROUNDED_UP: char = '⌈';

/// The total and the divisor of each quotient rounded up by a divisor that is not a constant,
/// by its atom: a size names the quotient by its atom alone, and the atom is written from the
/// two, so one atom is one quotient wherever it is met. Shared by every thread: a launch's sizes
/// read on one may be compared on another.
fn quotients() -> &'static std::sync::Mutex<std::collections::HashMap<String, (Sym, Sym)>> {
    static QUOTIENTS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, (Sym, Sym)>>,
    > = std::sync::OnceLock::new();
    QUOTIENTS.get_or_init(Default::default)
}

/// How many quotients the table keeps: far more than a repository's launches write.
const MAX_QUOTIENTS: usize = 1 << 16;

impl Sym {
    /// Whether the value is written with a quotient rounded up (`⌈n/b⌉`).
    pub fn has_rounded_up_quotient(&self) -> bool {
        self.atoms().any(|atom| atom.starts_with(ROUNDED_UP))
    }

    /// The value with each product `⌈E/B⌉ · B` of a quotient by a divisor of one name replaced
    /// by a bound of it where it adds to the value: `E + B - 1` for a bound from above (`upper`),
    /// `E` for one from below. None when no product was replaced.
    pub(in crate::model) fn with_ceiling_products_bounded(&self, upper: bool) -> Option<Sym> {
        if !self.has_rounded_up_quotient() {
            return None;
        }
        let mut replaced = false;
        let mut result = Sym::constant(0);
        for (monomial, coefficient) in &self.terms {
            let term = Sym {
                terms: std::iter::once((monomial.clone(), *coefficient)).collect(),
                floored: false,
            };
            let bounded = (coefficient.num > 0)
                .then(|| ceiling_product_bound(monomial, upper))
                .flatten()
                .and_then(|(rest, bound)| {
                    let rest = Sym {
                        terms: std::iter::once((rest, *coefficient)).collect(),
                        floored: false,
                    };
                    rest.mul(&bound)
                });
            let term = match bounded {
                Some(bound) => {
                    replaced = true;
                    bound
                }
                None => term,
            };
            result = result.add(&term)?;
        }
        result.floored = self.floored;
        replaced.then_some(result)
    }
}

/// In `monomial`, a quotient rounded up times its one-name divisor: the other atoms, and the
/// product's bound (`E + B - 1` above, `E` below).
fn ceiling_product_bound(monomial: &[String], upper: bool) -> Option<(Vec<String>, Sym)> {
    let quotients = quotients().lock().ok()?;
    {
        monomial.iter().enumerate().find_map(|(at, atom)| {
            let (total, divisor) = quotients.get(atom)?;
            let name = divisor.atoms().next()?;
            let divisor_at = monomial
                .iter()
                .enumerate()
                .position(|(other, a)| other != at && a == name)?;
            if divisor != &Sym::atom(name) {
                return None;
            }
            let rest: Vec<String> = monomial
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != at && *i != divisor_at)
                .map(|(_, a)| a.clone())
                .collect();
            let bound = if upper {
                total.add(divisor)?.sub(&Sym::constant(1))?
            } else {
                total.clone()
            };
            Some((rest, bound))
        })
    }
}

impl<'t> Evaluator<'_, 't> {
    /// The value of a quotient rounded up, when `node` is written as one; None otherwise.
    pub(super) fn rounded_up_quotient(&self, node: Node<'t>, depth: usize) -> Option<Sym> {
        let (total, divisor) = self.ceiling_quotient(node)?;
        let total = self.eval_at(total, depth + 1)?;
        let divisor = self.eval_at(divisor, depth + 1)?;
        if total.floored || divisor.floored {
            return None;
        }
        if let Some(constant) = divisor.as_constant() {
            // as `(n + 255) / 256` reads: the rational, marked rounded down
            return total.add(&Sym::constant(constant - 1))?.divide(constant);
        }
        if let Some(exact) = total.divided_by_term_exactly(&divisor) {
            return Some(exact);
        }
        let grouped = |value: &Sym| {
            let shown = value.display();
            if shown.contains(' ') {
                format!("({shown})")
            } else {
                shown
            }
        };
        let atom = format!("{ROUNDED_UP}{}/{}⌉", grouped(&total), grouped(&divisor));
        // a long editor session keeps meeting new quotients: past the limit a new one is still
        // a quotient, only without the bound its product with the divisor would give
        if let Ok(mut quotients) = quotients().lock() {
            if quotients.len() < MAX_QUOTIENTS {
                quotients.entry(atom.clone()).or_insert((total, divisor));
            }
        }
        Some(Sym::atom(&atom))
    }

    /// `(E + B - 1) / B`, `(E + (B - 1)) / B`, `E / B + min(E % B, 1)`, `E / B + (E % B != 0)`,
    /// `E / B + (E % B ? 1 : 0)`, `(E - 1) / B + 1`, `ceil((double)E / B)` and `div_up(E, B)`:
    /// the total E and the divisor B.
    fn ceiling_quotient(&self, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let node = syntax::strip(node, self.source);
        match node.node_kind() {
            "binary_expression" => match operator(node, self.source) {
                "/" => self.padded_numerator(node),
                "+" => self.floor_and_remainder(node.field("left")?, node.field("right")?),
                _ => None,
            },
            "call_expression" => self.ceiling_call(node),
            _ => None,
        }
    }

    /// `(E + B - 1) / B` and `(E + (B - 1)) / B`.
    fn padded_numerator(&self, quotient: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let divisor = quotient.field("right")?;
        let divisor_text = normalized(divisor, self.source);
        let sum = syntax::strip(quotient.field("left")?, self.source);
        let is = |node: Node<'t>, op: &str| {
            node.node_kind() == "binary_expression" && operator(node, self.source) == op
        };
        let is_one = |node: Node<'t>| text(syntax::strip(node, self.source), self.source) == "1";
        let is_divisor = |node: Node<'t>| normalized(node, self.source) == divisor_text;
        if is(sum, "-") {
            // `E + B - 1` parses as `(E + B) - 1`
            let inner = syntax::strip(sum.field("left")?, self.source);
            if !is_one(sum.field("right")?) || !is(inner, "+") {
                return None;
            }
            let (left, right) = (inner.field("left")?, inner.field("right")?);
            return match (is_divisor(left), is_divisor(right)) {
                (false, true) => Some((left, divisor)),
                (true, false) => Some((right, divisor)),
                _ => None,
            };
        }
        if !is(sum, "+") {
            return None;
        }
        // `E + (B - 1)`
        let divisor_minus_one = |node: Node<'t>| {
            let node = syntax::strip(node, self.source);
            is(node, "-")
                && node.field("left").is_some_and(is_divisor)
                && node.field("right").is_some_and(is_one)
        };
        let (left, right) = (sum.field("left")?, sum.field("right")?);
        match (divisor_minus_one(left), divisor_minus_one(right)) {
            (false, true) => Some((left, divisor)),
            (true, false) => Some((right, divisor)),
            _ => None,
        }
    }

    /// `E / B + X` with X one exactly when B leaves a remainder of E (`min(E % B, 1)`,
    /// `E % B != 0`, `E % B > 0`, `E % B ? 1 : 0`), and `(E - 1) / B + 1`.
    fn floor_and_remainder(&self, left: Node<'t>, right: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let quotient_of = |node: Node<'t>| {
            let node = syntax::strip(node, self.source);
            (node.node_kind() == "binary_expression" && operator(node, self.source) == "/")
                .then_some(node)
        };
        let (quotient, extra) = match (quotient_of(left), quotient_of(right)) {
            (Some(quotient), _) => (quotient, right),
            (None, Some(quotient)) => (quotient, left),
            (None, None) => return None,
        };
        let total = quotient.field("left")?;
        let divisor = quotient.field("right")?;
        let extra = syntax::strip(extra, self.source);
        if text(extra, self.source) == "1" {
            // `(E - 1) / B + 1`
            let total = syntax::strip(total, self.source);
            let minus_one = total.node_kind() == "binary_expression"
                && operator(total, self.source) == "-"
                && total
                    .field("right")
                    .is_some_and(|r| text(syntax::strip(r, self.source), self.source) == "1");
            return minus_one.then_some((total.field("left")?, divisor));
        }
        self.is_one_on_remainder(extra, total, divisor)
            .then_some((total, divisor))
    }

    /// Whether `extra` is 1 when `divisor` leaves a remainder of `total`, and 0 otherwise.
    fn is_one_on_remainder(&self, extra: Node<'t>, total: Node<'t>, divisor: Node<'t>) -> bool {
        let is_remainder = |node: Node<'t>| {
            let node = syntax::strip(node, self.source);
            node.node_kind() == "binary_expression"
                && operator(node, self.source) == "%"
                && node
                    .field("left")
                    .is_some_and(|l| normalized(l, self.source) == normalized(total, self.source))
                && node
                    .field("right")
                    .is_some_and(|r| normalized(r, self.source) == normalized(divisor, self.source))
        };
        let literal = |node: Option<Node<'t>>, value: &str| {
            node.is_some_and(|n| text(syntax::strip(n, self.source), self.source) == value)
        };
        let extra = syntax::strip(extra, self.source);
        match extra.node_kind() {
            "binary_expression" => {
                matches!(operator(extra, self.source), "!=" | ">")
                    && extra.field("left").is_some_and(is_remainder)
                    && literal(extra.field("right"), "0")
            }
            "conditional_expression" => {
                let condition = extra.field("condition");
                let tested = condition.is_some_and(|c| {
                    is_remainder(c) || self.is_one_on_remainder(c, total, divisor)
                });
                tested
                    && literal(extra.field("consequence"), "1")
                    && literal(extra.field("alternative"), "0")
            }
            "call_expression" => {
                let Some(function) = extra.field("function") else {
                    return false;
                };
                let name = text(function, self.source);
                let short = name.rsplit("::").next().unwrap_or(name);
                let arguments = syntax::call_arguments(extra);
                matches!(short, "min" | "MIN" | "imin" | "umin")
                    && matches!(arguments.as_slice(),
                        [a, b] if is_remainder(*a) && literal(Some(*b), "1")
                            || is_remainder(*b) && literal(Some(*a), "1"))
            }
            _ => false,
        }
    }

    /// `ceil((double)E / B)`, `std::ceil(E / (float)B)`, and `div_up(E, B)` by a helper named
    /// for the quotient rounded up.
    fn ceiling_call(&self, call: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let function = call.field("function")?;
        let name = match function.node_kind() {
            "template_function" => text(function.field("name")?, self.source),
            _ => text(function, self.source),
        };
        let short = name.rsplit("::").next().unwrap_or(name);
        match syntax::call_arguments(call).as_slice() {
            [argument] if matches!(short, "ceil" | "ceilf") => {
                let quotient = syntax::strip(*argument, self.source);
                (quotient.node_kind() == "binary_expression"
                    && operator(quotient, self.source) == "/")
                    .then(|| {
                        Some((
                            syntax::without_unit_factor(quotient.field("left")?, self.source),
                            syntax::without_unit_factor(quotient.field("right")?, self.source),
                        ))
                    })
                    .flatten()
            }
            [total, divisor] if names_the_quotient_rounded_up(short) => Some((*total, *divisor)),
            _ => None,
        }
    }
}

/// `div_up`, `ceil_div`, `cdiv`, `DIVUP`: a helper of two arguments named for the quotient
/// rounded up (not `round_up`, which names the multiple).
fn names_the_quotient_rounded_up(name: &str) -> bool {
    let lower: String = name
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        lower.as_str(),
        "ceildiv" | "divup" | "cdiv" | "divceil" | "divroundup" | "iceildiv" | "ceildivide"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoDefinitions;

    impl<'t> super::super::Scope<'t> for NoDefinitions {
        fn definition(&self, _name: &str) -> Option<Node<'t>> {
            None
        }
        fn pointee(&self, _name: &str) -> Option<String> {
            None
        }
        fn scalar_type(&self, _name: &str) -> Option<String> {
            None
        }
        fn define(&self, _name: &str) -> Option<&str> {
            None
        }
    }

    /// The value of `expression`, read as a local's initializer.
    fn value_of(expression: &str) -> Option<Sym> {
        let source = format!("void f() {{ long v = {expression}; }}");
        let tree = syntax::parse(&source)?;
        let mut pending = vec![tree.root_node()];
        let mut initializer = None;
        while let Some(node) = pending.pop() {
            if node.node_kind() == "init_declarator" {
                initializer = node.field("value");
                break;
            }
            pending.extend(syntax::named_children(node));
        }
        Evaluator {
            source: &source,
            scope: &NoDefinitions,
            fold_sizeof: true,
        }
        .eval(initializer?)
    }

    #[test]
    fn every_spelling_of_a_block_count_is_one_value() {
        let count = value_of("(n + b - 1) / b").expect("a value");
        assert_eq!(count, Sym::atom("⌈n/b⌉"));
        for spelling in [
            "(n + (b - 1)) / b",
            "(b + n - 1) / b",
            "n / b + std::min(n % b, 1)",
            "(n / b) + min(1, n % b)",
            "n / b + (n % b != 0)",
            "n / b + (n % b ? 1 : 0)",
            "(n - 1) / b + 1",
            "ceil(((double)n) / ((double)b))",
            "(int)std::ceil(n / (float)b)",
            "div_up(n, b)",
            "CEIL_DIV(n, b)",
        ] {
            assert_eq!(value_of(spelling).as_ref(), Some(&count), "{spelling}");
        }
        // a constant divisor reads as the padded numerator does
        assert_eq!(value_of("ceil(n / 256.0)"), value_of("(n + 255) / 256"));
        // a total the divisor divides is the exact quotient
        assert_eq!(value_of("(k * b + b - 1) / b"), Some(Sym::atom("k")));
    }

    #[test]
    fn a_rounded_up_grid_of_whole_blocks_is_at_most_its_total_plus_a_block() {
        let count = value_of("ceil((n + 1) * 1.0 / b)").expect("a value");
        assert_eq!(Some(&count), value_of("(n + 1 + b - 1) / b").as_ref());
        let threads = count.mul(&Sym::atom("b")).expect("a product");
        let padded = Sym::atom("n").add(&Sym::atom("b")).expect("a sum");
        // the last thread is below `n + b`, the first past the total at least `n + 1`
        let last = threads.sub(&Sym::constant(1)).expect("a difference");
        assert!(last.at_most(&padded.sub(&Sym::constant(1)).expect("a difference")));
        assert!(Sym::atom("n")
            .add(&Sym::constant(1))
            .expect("a sum")
            .at_most(&threads));
        // a buffer padded by less than a block does not hold it
        let short = Sym::atom("n").add(&Sym::constant(1)).expect("a sum");
        assert!(!last.at_most(&short));
        // and the quotient alone, or times another name, says nothing of the sort
        assert!(!count.at_most(&Sym::atom("n")));
        let other = count.mul(&Sym::atom("c")).expect("a product");
        assert!(!other.at_most(&padded));
    }

    #[test]
    fn near_spellings_are_other_values() {
        let count = Sym::atom("⌈n/b⌉");
        for other in [
            "n / b + 1",
            "n / b + min(n % c, 1)",
            "n / b + (n % b == 0)",
            "round_up(n, b)",
            "(n + b) / b",
            "(n + b - 2) / b",
        ] {
            assert_ne!(value_of(other), Some(count.clone()), "{other}");
        }
    }
}
