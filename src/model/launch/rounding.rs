//! Rounding divisions recognised: `(E + B - 1) / B`, `E / B + 1`, `ceil(E / B)` and helpers
//! named for it, and the constant known to divide a value, which makes such a grid exact.
//! Separate because it reads the shape of one division, where the classifier walks the
//! whole expression.

use super::grid::{callee_name, Classifier};
use super::locals::written_through_address;
use super::GridAxis;
use crate::model::guards::{Comparison, StatedDivisor};
use crate::model::reaching;
use crate::syntax::{self, normalized, operator, strip, NodeExt};
use tree_sitter::Node;

impl<'t> Classifier<'_, 't> {
    /// The value of an integer literal (`1`, `1u`, `255UL`, `0xff`); None for a floating one
    /// (`256.0`), whose division is no integer rounding.
    fn literal(&self, node: Node<'t>) -> Option<i128> {
        let node = strip(node, self.source);
        let written = self.text(node);
        let floating = written.contains('.')
            || (!written.starts_with("0x")
                && !written.starts_with("0X")
                && written.contains(['e', 'E']));
        (node.node_kind() == "number_literal" && !floating)
            .then(|| crate::model::size::parse_number(written))
            .flatten()
    }

    /// `(E + B - 1) / B`, `(E + (B - 1)) / B`, `(E + B - 1) >> k`: E, normalized.
    pub(super) fn rounded_numerator(
        &self,
        left: Node<'t>,
        right: Node<'t>,
        shift: bool,
    ) -> Option<String> {
        let terms = syntax::signed_terms(left, self.source);
        if terms.len() < 2 {
            return None;
        }
        let divisor = normalized(right, self.source);
        let is_divisor_minus_one = |term: &(bool, Node<'t>)| {
            let node = strip(term.1, self.source);
            node.node_kind() == "binary_expression"
                && operator(node, self.source) == "-"
                && node
                    .field("right")
                    .is_some_and(|r| self.literal(r) == Some(1))
                && node
                    .field("left")
                    .is_some_and(|l| normalized(l, self.source) == divisor)
        };
        let is_one = |term: &(bool, Node<'t>)| !term.0 && self.literal(term.1) == Some(1);
        let is_divisor =
            |term: &(bool, Node<'t>)| term.0 && normalized(term.1, self.source) == divisor;
        // a sum whose other terms are `B - 1`, or `B` and `- 1`, or a constant for a shift
        let mut rest: Vec<&(bool, Node<'t>)> = terms.iter().collect();
        if let Some(at) = rest.iter().position(|t| is_divisor_minus_one(t)) {
            rest.remove(at);
        } else if let (Some(b), Some(_)) = (
            rest.iter().position(|t| is_divisor(t)),
            rest.iter().position(|t| is_one(t)),
        ) {
            rest.remove(b);
            let one = rest.iter().position(|t| is_one(t))?;
            rest.remove(one);
        } else if let Some(shift_or_divisor) = self.literal(right).filter(|v| *v >= 0) {
            // `(E + 255) >> 8`, `(E + 255) / 256`: a constant one below the divisor
            let constant = rest
                .iter()
                .position(|t| t.0 && self.literal(t.1).is_some())?;
            let value = self.literal(rest[constant].1)?;
            let expected = if shift {
                (1i128 << shift_or_divisor.clamp(0, 62)) - 1
            } else {
                shift_or_divisor - 1
            };
            if value != expected {
                return None;
            }
            rest.remove(constant);
        } else {
            return None;
        }
        match rest.as_slice() {
            [(true, total)] => Some(normalized(*total, self.source)),
            // `(n + 1 + B - 1) / B`: the extent is the rest of the sum, `n + 1`, written in the
            // order of the text
            [_, _, ..] => {
                rest.sort_by_key(|(_, term)| term.start_byte());
                let [(true, first), more @ ..] = rest.as_slice() else {
                    return None;
                };
                let mut total = normalized(*first, self.source);
                for (positive, term) in more {
                    total.push_str(if *positive { " + " } else { " - " });
                    total.push_str(&normalized(*term, self.source));
                }
                Some(total)
            }
            _ => None,
        }
    }

    /// `E / B + 1`, `(E - 1) / B + 1`, `E / B + (E % B != 0)`, `E / B + (E % B ? 1 : 0)`.
    pub(super) fn floor_plus_one(&self, left: Node<'t>, right: Node<'t>) -> Option<String> {
        let (quotient, extra) = match (self.floored_quotient(left), self.floored_quotient(right)) {
            (Some(quotient), _) => (quotient, right),
            (None, Some(quotient)) => (quotient, left),
            (None, None) => return None,
        };
        let numerator = strip(quotient.field("left")?, self.source);
        let remainder_test = normalized(extra, self.source).contains('%');
        if self.literal(extra) != Some(1) && !remainder_test {
            return None;
        }
        // `(E - 1) / B + 1`
        if numerator.node_kind() == "binary_expression"
            && operator(numerator, self.source) == "-"
            && numerator
                .field("right")
                .is_some_and(|r| self.literal(r) == Some(1))
        {
            return numerator.field("left").map(|l| normalized(l, self.source));
        }
        Some(normalized(numerator, self.source))
    }

    /// `E + (B - E % B)` (either order): `E` padded up to the next multiple of `B` (a multiple
    /// already gains a whole `B`, which only rounds further up): `E`, normalized.
    pub(super) fn padded_to_a_multiple(&self, left: Node<'t>, right: Node<'t>) -> Option<String> {
        [(left, right), (right, left)]
            .into_iter()
            .find_map(|(total, padding)| {
                let padding = strip(padding, self.source);
                if padding.node_kind() != "binary_expression"
                    || operator(padding, self.source) != "-"
                {
                    return None;
                }
                let remainder = strip(padding.field("right")?, self.source);
                let is_remainder = remainder.node_kind() == "binary_expression"
                    && operator(remainder, self.source) == "%"
                    && remainder.field("left").is_some_and(|l| {
                        normalized(l, self.source) == normalized(total, self.source)
                    })
                    && remainder.field("right").is_some_and(|r| {
                        padding.field("left").is_some_and(|b| {
                            normalized(b, self.source) == normalized(r, self.source)
                        })
                    });
                is_remainder.then(|| normalized(total, self.source))
            })
    }

    /// The quotient `E / B` that `node` is, written so or rounded down (`floor(E / 256.0)`).
    pub(super) fn floored_quotient(&self, node: Node<'t>) -> Option<Node<'t>> {
        let node = strip(node, self.source);
        if self.is_quotient(node) {
            return Some(node);
        }
        let function = node.field("function")?;
        let [argument] = syntax::call_arguments(node)[..] else {
            return None;
        };
        let floors = matches!(
            callee_name(function, self.source),
            "floor" | "floorf" | "std::floor"
        );
        (floors && self.is_quotient(argument)).then(|| strip(argument, self.source))
    }

    pub(super) fn is_quotient(&self, node: Node<'t>) -> bool {
        let node = strip(node, self.source);
        node.node_kind() == "binary_expression" && operator(node, self.source) == "/"
    }

    /// `ceil(total / divisor)` blocks: exact when the divisor is a constant that divides the
    /// total (`DIV_UP(400, 8)`, `DIV_UP(k * 1024, 256)`), else rounded up from `total`.
    pub(super) fn rounded_up(&self, total: Node<'t>, divisor: Node<'t>) -> GridAxis {
        if !self.constants_divide {
            return GridAxis::RoundedUp(normalized(total, self.source));
        }
        if self.divides(total, divisor) {
            return GridAxis::Exact;
        }
        GridAxis::RoundedUp(normalized(total, self.source))
    }

    /// Whether `divisor` divides `total` whatever the sizes: a constant `total`'s known factor is
    /// a multiple of, or sizes that are each a factor of the product `total` (`tpb = nzp` and `n =
    /// nx * ny * nzp`). Only a constant-free divisor is read by its factors.
    pub(super) fn divides(&self, total: Node<'t>, divisor: Node<'t>) -> bool {
        match super::constant(divisor, self) {
            Some(d) => {
                let nonnegative = super::constant(total, self).is_none_or(|t| t >= 0);
                d > 0 && nonnegative && self.known_factor(total, 0) % d == 0
            }
            None => {
                self.checked_divisible_by(total, divisor) || self.factors_divide(total, divisor)
            }
        }
    }

    /// Whether every factor of the product `divisor` is one of the product `total`'s, each
    /// factor read through the locals that hold one value (`int tpb = nzp;`).
    fn factors_divide(&self, total: Node<'t>, divisor: Node<'t>) -> bool {
        let (mut of_total, mut of_divisor) = (Vec::new(), Vec::new());
        if !self.product_factors(total, 0, &mut of_total)
            || !self.product_factors(divisor, 0, &mut of_divisor)
            || of_divisor.is_empty()
        {
            return false;
        }
        for factor in of_divisor {
            match of_total.iter().position(|f| *f == factor) {
                Some(at) => {
                    of_total.swap_remove(at);
                }
                None => return false,
            }
        }
        true
    }

    /// The factors of a product, constants left out, each local holding one product read as
    /// its factors: false where a factor is no size (a quotient, a sum, a float).
    fn product_factors(&self, node: Node<'t>, depth: usize, out: &mut Vec<String>) -> bool {
        if depth > 12 || out.len() > 16 {
            return false;
        }
        if super::constant(node, self).is_some() {
            return true;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "binary_expression" if operator(node, self.source) == "*" => {
                match (node.field("left"), node.field("right")) {
                    (Some(left), Some(right)) => {
                        self.product_factors(left, depth + 1, out)
                            && self.product_factors(right, depth + 1, out)
                    }
                    _ => false,
                }
            }
            "identifier" => {
                let name = self.text(node);
                match self.locals.values.get(name).map(Vec::as_slice) {
                    // a local holding a product stands for its factors, one holding anything
                    // else for itself (`int pitch_z = pitch / 4;`)
                    Some([value]) => {
                        let mut factors = Vec::new();
                        if self.product_factors(*value, depth + 1, &mut factors) {
                            out.extend(factors);
                        } else {
                            out.push(name.to_string());
                        }
                        true
                    }
                    // assigned more than once, every time before this read: the value it
                    // holds from here on, whichever it is, is one factor
                    Some(_) => {
                        let settled = self.locals.reads_names_settled_before(node, self.source);
                        if settled {
                            out.push(name.to_string());
                        }
                        settled
                    }
                    None => {
                        out.push(name.to_string());
                        true
                    }
                }
            }
            "field_expression" => {
                // a component of a `dim3` local (`threadsPerBlock.x`) stands for what it holds
                let component = match (node.field("argument"), node.field("field")) {
                    (Some(object), Some(field)) => super::sizes::dim3_component(
                        self.locals,
                        self.source,
                        self.text(strip(object, self.source)),
                        self.text(field),
                        node,
                    ),
                    _ => None,
                };
                match component {
                    Some(crate::model::size::Component::Value(value)) => {
                        self.product_factors(value, depth + 1, out)
                    }
                    Some(crate::model::size::Component::One) => true,
                    None => {
                        out.push(normalized(node, self.source));
                        true
                    }
                }
            }
            // any other value is one factor, itself (`(n2 - 2) * tpb`), when every name in it
            // holds one value from here on
            _ => {
                let settled = self.locals.reads_names_settled_before(node, self.source);
                if settled {
                    out.push(normalized(node, self.source));
                }
                settled
            }
        }
    }

    /// `E % B == 0 ? then : otherwise` (or `!(E % B)`, `E % B != 0` with the arms swapped) where
    /// `B` divides `E`: the arm always taken.
    pub(super) fn arm_a_remainder_test_takes(&self, conditional: Node<'t>) -> Option<Node<'t>> {
        let condition = strip(conditional.field("condition")?, self.source);
        let (remainder, zero_takes_consequence) = match condition.node_kind() {
            "binary_expression" if operator(condition, self.source) != "%" => {
                let op = operator(condition, self.source);
                let (left, right) = (condition.field("left")?, condition.field("right")?);
                let remainder = match (super::constant(left, self), super::constant(right, self)) {
                    (_, Some(0)) => left,
                    (Some(0), _) => right,
                    _ => return None,
                };
                match op {
                    "==" => (remainder, true),
                    "!=" => (remainder, false),
                    _ => return None,
                }
            }
            "unary_expression" if operator(condition, self.source) == "!" => {
                (condition.field("argument")?, true)
            }
            _ => (condition, false),
        };
        let remainder = strip(remainder, self.source);
        if remainder.node_kind() != "binary_expression" || operator(remainder, self.source) != "%" {
            return None;
        }
        if !self.divides(remainder.field("left")?, remainder.field("right")?) {
            return None;
        }
        if zero_takes_consequence {
            conditional.field("consequence")
        } else {
            conditional.field("alternative")
        }
    }

    /// Whether a check on the path to `total` states that `divisor`, a size no constant gives,
    /// divides it (`if (num_rollouts % dimBlock.x != 0) exit(1);` before `int_ceil(num_rollouts,
    /// dimBlock.x)` blocks of `dimBlock`).
    fn checked_divisible_by(&self, total: Node<'t>, divisor: Node<'t>) -> bool {
        let total = strip(total, self.source);
        if total.node_kind() != "identifier" {
            return false;
        }
        let name = self.text(total);
        let divisor = normalized(divisor, self.source);
        self.facts_on_path(total, name).iter().any(|fact| {
            matches!(
                fact.stated_divisor(name, self.source),
                Some(StatedDivisor::Modulus(modulus)) if normalized(modulus, self.source) == divisor
            )
        })
    }

    /// The term of the sum `left` that `rounded_numerator` found as the extent `total`.
    pub(super) fn rounded_total(&self, left: Node<'t>, total: &str) -> Option<Node<'t>> {
        syntax::signed_terms(left, self.source)
            .into_iter()
            .find(|(added, term)| *added && normalized(*term, self.source) == total)
            .map(|(_, term)| term)
    }

    /// The largest constant known to divide the value of `node` where it is read: 1 when none
    /// is known, 0 for zero. `n * 1024` is a multiple of 1024 whatever `n` is; a sum is a
    /// multiple of what divides each term; a local contributes what divides every value that
    /// reaches the read, or, scaled in place last on every path there (`n *= 1024`), the scale.
    pub(super) fn known_factor(&self, node: Node<'t>, depth: usize) -> i128 {
        if depth > 12 {
            return 1;
        }
        if let Some(value) = super::constant(node, self) {
            return value.checked_abs().unwrap_or(1);
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "binary_expression" => {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return 1;
                };
                match operator(node, self.source) {
                    "*" => {
                        let (a, b) = (
                            self.known_factor(left, depth + 1),
                            self.known_factor(right, depth + 1),
                        );
                        a.checked_mul(b).unwrap_or(a.max(b))
                    }
                    "<<" => {
                        let a = self.known_factor(left, depth + 1);
                        match super::constant(right, self) {
                            Some(shift @ 0..=40) => a.checked_mul(1 << shift).unwrap_or(a),
                            _ => a,
                        }
                    }
                    "+" | "-" => gcd(
                        self.known_factor(left, depth + 1),
                        self.known_factor(right, depth + 1),
                    ),
                    // `(X / 2) / 16` after a check that `X / 2` is a multiple of 512: 32. A
                    // quotient keeps what its dividend's factor has left over the divisor, and
                    // what a check on the path states of the quotient itself
                    "/" => {
                        let dividend = self.known_factor(left, depth + 1);
                        let left_over = match super::constant(right, self) {
                            Some(divisor) if divisor > 0 && dividend % divisor == 0 => {
                                dividend / divisor
                            }
                            _ => 1,
                        };
                        lcm(
                            left_over,
                            self.checked_factor(node, &syntax::normalized(node, self.source)),
                        )
                    }
                    _ => 1,
                }
            }
            "identifier" => {
                let name = self.text(node);
                let mut factor = lcm(
                    self.defined_factor(node, name, depth),
                    self.checked_factor(node, name),
                );
                // a parameter the function keeps as it came: what every call passes
                if let (Some(passed), false) = (self.passed, self.locals.values.contains_key(name))
                {
                    factor = lcm(factor, passed.of(name));
                }
                factor
            }
            "call_expression" => {
                let name = node
                    .field("function")
                    .map(|f| callee_name(f, self.source))
                    .unwrap_or("");
                match (name, syntax::call_arguments(node).as_slice()) {
                    (
                        "static_cast" | "int" | "unsigned" | "size_t" | "long" | "int64_t"
                        | "uint64_t" | "int32_t" | "uint32_t",
                        [only],
                    ) => self.known_factor(*only, depth + 1),
                    // `pad(n, 512)` with `pad` returning `((n + p - 1) / p) * p`
                    (_, arguments) => match self.helpers.returned_multiple(name, arguments.len()) {
                        Some(super::ReturnedMultiple::Constant(factor)) => factor,
                        Some(super::ReturnedMultiple::Argument(position)) => arguments
                            .get(position)
                            .map_or(1, |a| self.known_factor(*a, depth + 1)),
                        None => 1,
                    },
                }
            }
            _ => 1,
        }
    }

    /// What divides every value of the local or file constant `name` that reaches `node`.
    fn defined_factor(&self, node: Node<'t>, name: &str, depth: usize) -> i128 {
        let Some(values) = self.locals.values.get(name) else {
            return match self.locals.file_constants.get(name) {
                Some(value) => self.known_factor(*value, depth + 1),
                None => 1,
            };
        };
        if values
            .iter()
            .any(|v| written_through_address(*v, self.source))
        {
            return 1;
        }
        let scope = self.locals.scope.unwrap_or(node);
        let reaching = reaching::reaching(values, node, scope, self.source);
        if reaching.is_empty() {
            return 1;
        }
        if let Some(scale) = self.scaled_last(&reaching, node, scope, depth) {
            return scale;
        }
        if reaching
            .iter()
            .any(|v| reaching::updates_itself(*v, self.source))
        {
            return 1;
        }
        reaching.iter().fold(0, |all, value| {
            let factor = lcm(
                self.known_factor(*value, depth + 1),
                self.checked_after(*value, name),
            );
            gcd(all, factor)
        })
    }

    /// What a check on the path to `node` states divides `name` (`if (n % 256 != 0) return;`,
    /// `TORCH_CHECK(n % 64 == 0, ...)`, `assert((n & 31) == 0)`), when nothing assigns `name`
    /// between the check and `node`: 1 when none does.
    fn checked_factor(&self, node: Node<'t>, name: &str) -> i128 {
        self.stated_factor(&self.facts_on_path(node, name), name)
    }

    /// The facts the checks on the path to `node` state, less those an assignment between the
    /// check and `node` undoes: of `name`, or of any other name the fact is written in (`if
    /// (rows != cols) throw ...; rows = 100;` no longer makes them equal).
    ///
    /// A value read before the launch being read (a grid computed ahead of it) also has the
    /// facts of the launch's path, when `name` keeps its value from the read to the launch:
    /// `dim3 g((n + 63) / 64); if (n % 64 == 0) k<<<g, 64>>>(...)`.
    fn facts_on_path(&self, node: Node<'t>, name: &str) -> Vec<Comparison<'t>> {
        let Some(scope) = self.locals.scope else {
            return Vec::new();
        };
        let name_assigned_between = |name: &str, from: usize, to: usize| {
            self.locals.values.get(name).is_some_and(|values| {
                values
                    .iter()
                    .any(|v| v.start_byte() > from && v.start_byte() < to)
            })
        };
        let assigned_between = |from: usize, to: usize| name_assigned_between(name, from, to);
        let undone = |fact: &Comparison<'t>, to: usize| {
            let from = fact.origin.start_byte();
            let mut written_after = false;
            for side in [fact.left, fact.right] {
                syntax::walk_iterative(side, |n| {
                    if n.node_kind() == "identifier"
                        && name_assigned_between(self.text(n), from, to)
                    {
                        written_after = true;
                    }
                    !written_after
                });
            }
            written_after
        };
        let mut facts: Vec<Comparison<'t>> = self
            .locals
            .facts_in_scope(node, scope, self.source)
            .iter()
            .copied()
            .filter(|fact| {
                !assigned_between(fact.origin.start_byte(), node.start_byte())
                    && !undone(fact, node.start_byte())
            })
            .collect();
        if let Some(launch) = self.launch {
            let before = launch.start_byte() > node.end_byte();
            if before
                && scope.start_byte() <= launch.start_byte()
                && launch.end_byte() <= scope.end_byte()
                && !assigned_between(node.start_byte(), launch.start_byte())
            {
                facts.extend(
                    self.locals
                        .facts_in_scope(launch, scope, self.source)
                        .iter()
                        .copied()
                        .filter(|fact| {
                            !assigned_between(fact.origin.start_byte(), launch.start_byte())
                                && !undone(fact, launch.start_byte())
                        }),
                );
            }
        }
        facts
    }

    /// What the checks right after the definition `value` of `name` state divides it (`L =
    /// atoi(argv[i]); if (L % 32 != 0) exit(1);`): the value that goes on is a multiple. The
    /// checks are the statements that follow the definition in its block, up to the first that
    /// is no check.
    fn checked_after(&self, value: Node<'t>, name: &str) -> i128 {
        let mut statement = value;
        while let Some(parent) = statement.up() {
            if parent.node_kind() == "compound_statement" {
                break;
            }
            if matches!(
                parent.node_kind(),
                "function_definition" | "lambda_expression"
            ) {
                return 1;
            }
            statement = parent;
        }
        if !matches!(
            statement.node_kind(),
            "expression_statement" | "declaration"
        ) {
            return 1;
        }
        let mut facts = Vec::new();
        let mut sibling = statement.next_named_sibling();
        while let Some(next) = sibling {
            if next.node_kind() != "comment" {
                let Some((condition, holds)) = super::limits::exit_test(next, self.source) else {
                    break;
                };
                crate::model::guards::comparisons(
                    crate::model::guards::Condition {
                        node: condition,
                        holds,
                    },
                    self.source,
                    &crate::model::guards::NoFlags,
                    &mut facts,
                    &mut Vec::new(),
                );
            }
            sibling = next.next_named_sibling();
        }
        self.stated_factor(&facts, name)
    }

    /// The largest `k` among `facts` stating `name % k == 0` (or `(name & (k - 1)) == 0`).
    fn stated_factor(&self, facts: &[Comparison<'t>], name: &str) -> i128 {
        // a name the facts make equal to `name` (`if (rows != cols) throw ...;`) has its factor
        let mut equal: Vec<&str> = vec![name];
        let mut grew = true;
        while grew && equal.len() < 8 {
            grew = false;
            for fact in facts {
                if fact.relation != crate::model::guards::Relation::Equal {
                    continue;
                }
                let (left, right) = (
                    strip(fact.left, self.source),
                    strip(fact.right, self.source),
                );
                if left.node_kind() != "identifier" || right.node_kind() != "identifier" {
                    continue;
                }
                let (left, right) = (self.text(left), self.text(right));
                for (known, other) in [(left, right), (right, left)] {
                    if equal.contains(&known) && !equal.contains(&other) {
                        equal.push(other);
                        grew = true;
                    }
                }
            }
        }
        equal
            .iter()
            .map(|name| self.stated_factor_of(facts, name))
            .max()
            .unwrap_or(1)
    }

    fn stated_factor_of(&self, facts: &[Comparison<'t>], name: &str) -> i128 {
        facts
            .iter()
            .filter_map(|fact| match fact.stated_divisor(name, self.source)? {
                StatedDivisor::Modulus(modulus) => {
                    super::constant(modulus, self).filter(|value| *value > 1)
                }
                // `n & (k - 1)` for a power of two `k`
                StatedDivisor::Mask(mask) => super::constant(mask, self)
                    .filter(|value| *value > 0 && (value + 1) & value == 0)
                    .map(|value| value + 1),
            })
            .max()
            .unwrap_or(1)
    }

    /// `n *= 1024;` (or `n <<= 10;`) as the last definition of `n` before `read`, on every path
    /// to it, with no later one carried round a loop: the scale it multiplies by.
    fn scaled_last(
        &self,
        reaching: &[Node<'t>],
        read: Node<'t>,
        scope: Node<'t>,
        depth: usize,
    ) -> Option<i128> {
        if reaching.iter().any(|v| v.start_byte() >= read.start_byte()) {
            return None;
        }
        let last = reaching.iter().max_by_key(|v| v.start_byte())?;
        let assignment = last
            .parent()
            .filter(|p| p.node_kind() == "assignment_expression")?;
        if assignment.field("left").map(|l| l.id()) != Some(last.id())
            || !reaching::on_every_path(*last, read, scope)
        {
            return None;
        }
        let right = assignment.field("right")?;
        match operator(assignment, self.source) {
            "*=" => Some(self.known_factor(right, depth + 1)),
            "<<=" => match super::constant(right, self) {
                Some(shift @ 0..=40) => Some(1 << shift),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The greatest common divisor, with `gcd(0, b) == b`.
/// The least common multiple of two factors (0 stands for zero, which every number divides).
fn lcm(a: i128, b: i128) -> i128 {
    if a == 0 || b <= 1 {
        return a;
    }
    if a == 1 {
        return b;
    }
    let common = gcd(a, b).max(1);
    (a / common).checked_mul(b).unwrap_or(a.max(b))
}

pub(super) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `ceil_div`, `DIV_UP`, `cdiv`, `divUp`, `iDivUp`, `GET_BLOCKS`: when the body is not visible,
/// the name is all there is.
pub fn names_a_rounding_division(name: &str) -> bool {
    let lower: String = name
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    [
        "ceildiv",
        "divup",
        "cdiv",
        "divceil",
        "roundup",
        "divroundup",
        "getblocks",
        "numblocks",
        "blocksfor",
        "ceil",
    ]
    .iter()
    .any(|w| lower.contains(w))
}
