//! Symbolic sizes: byte counts as polynomials over variables with rational coefficients.
//!
//! `n * sizeof(float) - 1024` is `4·n − 1024`; `sizeof` of builtin types folds to bytes, other types
//! stay symbolic (`sizeof(Particle)`). Integer division by a constant keeps the exact rational and
//! marks the value `floored` (the real value is at most the one represented), so a comparison only
//! uses it where rounding down cannot turn a proof around.

use crate::syntax::NodeExt;
use crate::syntax::{self, named_children, operator, text, MAX_DEPTH};
use std::collections::BTreeMap;
use tree_sitter::Node;

mod ceiling;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.max(1)
}

impl Ratio {
    fn new(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let sign = if den < 0 { -1 } else { 1 };
        let g = gcd(num, den);
        Some(Ratio {
            num: sign * num / g,
            den: sign * den / g,
        })
    }
    fn int(value: i128) -> Ratio {
        Ratio { num: value, den: 1 }
    }
    fn add(self, other: Ratio) -> Option<Ratio> {
        let num = self
            .num
            .checked_mul(other.den)?
            .checked_add(other.num.checked_mul(self.den)?)?;
        Ratio::new(num, self.den.checked_mul(other.den)?)
    }
    fn mul(self, other: Ratio) -> Option<Ratio> {
        Ratio::new(
            self.num.checked_mul(other.num)?,
            self.den.checked_mul(other.den)?,
        )
    }
}

/// A polynomial: monomial (sorted atom names) → coefficient.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sym {
    terms: BTreeMap<Vec<String>, Ratio>,
    /// Rounded down somewhere: the true value is at most this one.
    pub floored: bool,
}

/// What a comparison of two sizes can prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    ProvablySmaller,
    ProvablyEqual,
    Unknown,
}

impl Sym {
    pub fn constant(value: i128) -> Sym {
        let mut terms = BTreeMap::new();
        if value != 0 {
            terms.insert(Vec::new(), Ratio::int(value));
        }
        Sym {
            terms,
            floored: false,
        }
    }

    pub fn atom(name: &str) -> Sym {
        let mut terms = BTreeMap::new();
        terms.insert(vec![name.to_string()], Ratio::int(1));
        Sym {
            terms,
            floored: false,
        }
    }

    /// The integer value, when the size does not depend on any variable.
    pub fn as_constant(&self) -> Option<i128> {
        if self.terms.keys().any(|k| !k.is_empty()) {
            return None;
        }
        let value = self
            .terms
            .get(&Vec::new())
            .copied()
            .unwrap_or(Ratio::int(0));
        Some(value.num / value.den)
    }

    pub fn atoms(&self) -> impl Iterator<Item = &String> {
        self.terms.keys().flatten()
    }

    pub fn add(&self, other: &Sym) -> Option<Sym> {
        let mut terms = self.terms.clone();
        for (monomial, coefficient) in &other.terms {
            let sum = match terms.get(monomial) {
                Some(existing) => existing.add(*coefficient)?,
                None => *coefficient,
            };
            if sum.num == 0 {
                terms.remove(monomial);
            } else {
                terms.insert(monomial.clone(), sum);
            }
        }
        Some(Sym {
            terms,
            floored: self.floored || other.floored,
        })
    }

    pub fn negate(&self) -> Option<Sym> {
        self.scale(Ratio::int(-1)).map(|mut s| {
            s.floored = false;
            s
        })
    }

    pub fn sub(&self, other: &Sym) -> Option<Sym> {
        let mut result = self.add(&other.negate()?)?;
        // subtracting a rounded-down value rounds the result up: no longer a bound from above
        result.floored = self.floored || other.floored;
        Some(result)
    }

    fn scale(&self, factor: Ratio) -> Option<Sym> {
        let mut terms = BTreeMap::new();
        for (monomial, coefficient) in &self.terms {
            let value = coefficient.mul(factor)?;
            if value.num != 0 {
                terms.insert(monomial.clone(), value);
            }
        }
        Some(Sym {
            terms,
            floored: self.floored,
        })
    }

    pub fn mul(&self, other: &Sym) -> Option<Sym> {
        if self.terms.len() * other.terms.len() > 64 {
            return None;
        }
        let mut result = Sym {
            terms: BTreeMap::new(),
            floored: self.floored || other.floored,
        };
        for (left, a) in &self.terms {
            for (right, b) in &other.terms {
                let mut monomial: Vec<String> = left.iter().chain(right.iter()).cloned().collect();
                if monomial.len() > 8 {
                    return None;
                }
                monomial.sort();
                let mut term = Sym {
                    terms: BTreeMap::new(),
                    floored: false,
                };
                term.terms.insert(monomial, a.mul(*b)?);
                result = result.add(&term)?;
            }
        }
        Some(result)
    }

    fn divide(&self, divisor: i128) -> Option<Sym> {
        if divisor <= 0 {
            return None;
        }
        if let Some(exact) = self.floor_divided(divisor) {
            return Some(exact);
        }
        let mut result = self.scale(Ratio::new(1, divisor)?)?;
        if divisor != 1 {
            result.floored = true;
        }
        Some(result)
    }

    /// `self / divisor` rounded down, when only the constant term leaves a remainder and the
    /// value is never negative: `(192 * q + 191) / 192` is `q`, exactly (every variable an
    /// integer of at least 1).
    fn floor_divided(&self, divisor: i128) -> Option<Sym> {
        if self.floored || divisor <= 0 || !self.is_nonnegative() {
            return None;
        }
        let mut constant = 0;
        let mut terms = BTreeMap::new();
        for (monomial, coefficient) in &self.terms {
            if coefficient.den != 1 {
                return None;
            }
            if monomial.is_empty() {
                constant = coefficient.num;
            } else if coefficient.num % divisor != 0 {
                return None;
            } else {
                terms.insert(monomial.clone(), Ratio::int(coefficient.num / divisor));
            }
        }
        let rest = constant.div_euclid(divisor);
        if rest != 0 {
            terms.insert(Vec::new(), Ratio::int(rest));
        }
        Some(Sym {
            terms,
            floored: false,
        })
    }

    /// `self / divisor` for a divisor of one term (`4 * b`) that divides every term of `self`
    /// with an integer quotient (`16 * b * q / (4 * b)` is `4 * q`): no rounding.
    pub fn divided_by_term_exactly(&self, divisor: &Sym) -> Option<Sym> {
        if self.floored || divisor.floored {
            return None;
        }
        let [(atoms, coefficient)] = divisor.terms.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        if coefficient.den != 1 || coefficient.num <= 0 {
            return None;
        }
        let mut terms = BTreeMap::new();
        for (monomial, value) in &self.terms {
            let mut reduced = monomial.clone();
            for atom in atoms {
                let at = reduced.iter().position(|a| a == atom)?;
                reduced.remove(at);
            }
            if value.den != 1 || value.num % coefficient.num != 0 {
                return None;
            }
            terms.insert(reduced, Ratio::int(value.num / coefficient.num));
        }
        Some(Sym {
            terms,
            floored: false,
        })
    }

    /// `self / divisor` when every coefficient stays an integer (`4 * n / 4`): no rounding.
    pub fn divided_exactly(&self, divisor: i128) -> Option<Sym> {
        if divisor <= 0 {
            return None;
        }
        let result = self.scale(Ratio::new(1, divisor)?)?;
        result.terms.values().all(|c| c.den == 1).then_some(result)
    }

    /// `self / atom` when every term holds `atom` (`sizeof(T) * n / sizeof(T)`).
    pub fn divided_by_atom_exactly(&self, atom: &str) -> Option<Sym> {
        let mut terms = BTreeMap::new();
        for (monomial, coefficient) in &self.terms {
            let mut reduced = monomial.clone();
            let at = reduced.iter().position(|a| a == atom)?;
            reduced.remove(at);
            terms.insert(reduced, *coefficient);
        }
        Some(Sym {
            terms,
            floored: self.floored,
        })
    }

    /// `self / divisor` for a positive constant, marked rounded down.
    pub fn divided_by(&self, divisor: i128) -> Option<Sym> {
        self.divide(divisor)
    }

    /// `self * factor` for a constant.
    pub fn times(&self, factor: i128) -> Option<Sym> {
        self.scale(Ratio::int(factor))
    }

    /// Whether the value is at least 0 for every value of the variables at least 1.
    pub fn is_nonnegative(&self) -> bool {
        let mut minimum = Ratio::int(0);
        for (monomial, coefficient) in &self.terms {
            if !monomial.is_empty() && coefficient.num < 0 {
                return false;
            }
            minimum = match minimum.add(*coefficient) {
                Some(sum) => sum,
                None => return false,
            };
        }
        minimum.num >= 0
    }

    /// An upper bound of `self / atom` for a variable at least 1: each monomial holding `atom`
    /// loses it, a negative term without it is dropped (which only raises the value), and a
    /// positive one is kept whole (dividing it by at least 1 only lowers it).
    pub fn over_atom(&self, atom: &str) -> Option<Sym> {
        let mut result = Sym {
            terms: BTreeMap::new(),
            floored: true,
        };
        for (monomial, coefficient) in &self.terms {
            let mut reduced = monomial.clone();
            match reduced.iter().position(|a| a == atom) {
                Some(at) => {
                    reduced.remove(at);
                }
                None if coefficient.num < 0 => continue,
                None => {}
            }
            let mut term = Sym {
                terms: BTreeMap::new(),
                floored: false,
            };
            term.terms.insert(reduced, *coefficient);
            result = result.add(&term)?;
        }
        Some(result)
    }

    /// The terms as integer coefficients of monomials; None when the value was rounded or has
    /// a fractional coefficient.
    pub fn integer_terms(&self) -> Option<Vec<(i128, Vec<String>)>> {
        if self.floored {
            return None;
        }
        self.terms
            .iter()
            .map(|(monomial, c)| (c.den == 1).then(|| (c.num, monomial.clone())))
            .collect()
    }

    /// The polynomial with these integer terms.
    pub fn from_integer_terms(terms: &[(i128, Vec<String>)]) -> Option<Sym> {
        let mut result = Sym::constant(0);
        for (coefficient, monomial) in terms {
            let mut term = Sym::constant(*coefficient);
            for atom in monomial {
                term = term.mul(&Sym::atom(atom))?;
            }
            result = result.add(&term)?;
        }
        Some(result)
    }

    /// Replaces every atom by the value `bind` gives for it (None when any is unknown).
    pub fn substitute(&self, bind: &dyn Fn(&str) -> Option<Sym>) -> Option<Sym> {
        let mut result = Sym::constant(0);
        result.floored = self.floored;
        for (monomial, coefficient) in &self.terms {
            let mut term = Sym::constant(1);
            term.terms.insert(Vec::new(), *coefficient);
            for atom in monomial {
                term = term.mul(&bind(atom)?)?;
            }
            result = result.add(&term)?;
        }
        Some(result)
    }

    /// How `self` compares to `other`, assuming every variable is at least 1 (sizes and counts).
    pub fn compare(&self, other: &Sym) -> Order {
        let Some(difference) = other.sub(self) else {
            return Order::Unknown;
        };
        if difference.terms.is_empty() && !self.floored && !other.floored {
            return Order::ProvablyEqual;
        }
        // self < other needs other's value exact (or self's over-approximated)
        if other.floored {
            return Order::Unknown;
        }
        let difference = Sym {
            terms: difference.terms,
            floored: false,
        };
        if difference.terms.values().any(|c| c.num < 0) {
            return Order::Unknown;
        }
        let minimum = difference
            .terms
            .values()
            .try_fold(Ratio::int(0), |acc, c| acc.add(*c));
        match minimum {
            Some(m) if m.num > 0 => Order::ProvablySmaller,
            _ => Order::Unknown,
        }
    }

    /// Whether `self` is at most `other` for every value of the variables at least 1: what
    /// `other` adds to `self` is a sum of terms with no negative coefficient.
    pub fn at_most(&self, other: &Sym) -> bool {
        if other.floored {
            return false;
        }
        let holds = |low: &Sym, high: &Sym| match high.sub(low) {
            Some(difference) => difference.terms.values().all(|c| c.num >= 0),
            None => false,
        };
        if holds(self, other) {
            return true;
        }
        // `⌈E/B⌉ · B` is at most `E + B - 1` and at least `E`: a grid rounded up from `E` in
        // blocks of `B` threads against a buffer padded by a block
        let low = self.with_ceiling_products_bounded(true);
        let high = other.with_ceiling_products_bounded(false);
        (low.is_some() || high.is_some())
            && holds(low.as_ref().unwrap_or(self), high.as_ref().unwrap_or(other))
    }

    /// `at_most` for values that are integers: a floored `self` is at most `other` when its
    /// real value is below `other + 1` (`(8 * n - 1) / 8` is at most `n - 1`).
    pub fn integer_at_most(&self, other: &Sym) -> bool {
        if self.at_most(other) {
            return true;
        }
        let integral = other.terms.values().all(|c| c.den == 1);
        if !self.floored || other.floored || !integral {
            return false;
        }
        let unfloored = Sym {
            terms: self.terms.clone(),
            floored: false,
        };
        other
            .add(&Sym::constant(1))
            .is_some_and(|above| unfloored.compare(&above) == Order::ProvablySmaller)
    }

    /// Readable form: `4 * n - 1024`.
    pub fn display(&self) -> String {
        if self.terms.is_empty() {
            return "0".to_string();
        }
        let mut out = String::new();
        let mut ordered: Vec<_> = self.terms.iter().collect();
        ordered.sort_by_key(|(monomial, _)| std::cmp::Reverse(monomial.len()));
        for (index, (monomial, coefficient)) in ordered.into_iter().enumerate() {
            let negative = coefficient.num < 0;
            let magnitude = Ratio {
                num: coefficient.num.abs(),
                den: coefficient.den,
            };
            if index > 0 {
                out.push_str(if negative { " - " } else { " + " });
            } else if negative {
                out.push('-');
            }
            let mut factors: Vec<String> = Vec::new();
            if magnitude.num != 1 || monomial.is_empty() {
                factors.push(magnitude.num.to_string());
            }
            factors.extend(monomial.iter().cloned());
            out.push_str(&factors.join(" * "));
            if magnitude.den != 1 {
                out.push_str(&format!(" / {}", magnitude.den));
            }
        }
        out
    }
}

/// Byte size of a builtin or CUDA vector type (LP64), after `const` and spaces are removed.
pub fn builtin_size(type_text: &str) -> Option<i128> {
    let t = normalize_type(type_text);
    if let Some(size) = vector_size(&t) {
        return Some(size);
    }
    Some(match t.as_str() {
        "char" | "signedchar" | "unsignedchar" | "bool" | "int8_t" | "uint8_t"
        | "__nv_fp8_e4m3" | "__nv_fp8_e5m2" => 1,
        "short" | "unsignedshort" | "shortint" | "int16_t" | "uint16_t" | "half" | "__half"
        | "__nv_bfloat16" | "nv_bfloat16" => 2,
        "int" | "unsigned" | "unsignedint" | "signed" | "signedint" | "float" | "int32_t"
        | "uint32_t" | "uint" | "__half2" | "half2" | "__nv_bfloat162" | "nv_bfloat162" => 4,
        "long" | "unsignedlong" | "longint" | "longlong" | "unsignedlonglong" | "longlongint"
        | "double" | "size_t" | "ssize_t" | "ptrdiff_t" | "int64_t" | "uint64_t" | "cuComplex"
        | "cuFloatComplex" => 8,
        "cuDoubleComplex" | "longdouble" => 16,
        _ if t.ends_with('*') => 8,
        _ => return None,
    })
}

/// The size of one component of a CUDA vector type (4 for `float4`, 2 for `__half2`).
pub fn component_size(type_text: &str) -> Option<i128> {
    let t = normalize_type(type_text);
    match t.as_str() {
        "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162" => return Some(2),
        _ => {}
    }
    let count = i128::from(t.chars().last()?.to_digit(10)?);
    vector_size(&t).map(|size| size / count)
}

/// The CUDA vector types (`float4`, `uchar2`, `longlong2`, ...): component size times count.
fn vector_size(t: &str) -> Option<i128> {
    let count = t.chars().last()?.to_digit(10)?;
    if !(1..=4).contains(&count) {
        return None;
    }
    let component = match &t[..t.len() - 1] {
        "char" | "uchar" => 1,
        "short" | "ushort" => 2,
        "int" | "uint" | "float" => 4,
        "long" | "ulong" | "longlong" | "ulonglong" | "double" => 8,
        _ => return None,
    };
    Some(component * i128::from(count))
}

/// Element types whose size a `sizeof` mismatch can be judged on: numbers, half and bfloat16
/// types and the CUDA vector types; not bytes (`char`, `uint8_t`, `bool`), which buffers of raw
/// storage use, nor structs.
pub fn is_scalar_element(type_text: &str) -> bool {
    let t = normalize_type(type_text);
    vector_size(&t).is_some()
        || matches!(
            t.as_str(),
            "short"
                | "unsignedshort"
                | "int"
                | "unsigned"
                | "unsignedint"
                | "float"
                | "int32_t"
                | "uint32_t"
                | "long"
                | "unsignedlong"
                | "longlong"
                | "unsignedlonglong"
                | "double"
                | "size_t"
                | "int64_t"
                | "uint64_t"
                | "int16_t"
                | "uint16_t"
                | "half"
                | "__half"
                | "half2"
                | "__half2"
                | "__nv_bfloat16"
                | "nv_bfloat16"
                | "__nv_bfloat162"
                | "nv_bfloat162"
        )
}

/// `const float` → `float`, `std::size_t` → `size_t`, spaces removed.
pub fn normalize_type(type_text: &str) -> String {
    let mut words: Vec<&str> = type_text
        .split(|c: char| c.is_whitespace())
        .filter(|w| {
            !w.is_empty()
                && !matches!(
                    *w,
                    "const" | "volatile" | "struct" | "__restrict__" | "restrict" | "typename"
                )
        })
        .collect();
    if words.is_empty() {
        words.push("");
    }
    let joined = words.concat();
    let holds = |part: &[u8]| joined.as_bytes().windows(part.len()).any(|w| w == part);
    if !holds(b"std::") && !holds(b"const") {
        return joined; // nothing to take out
    }
    joined.replace("std::", "").replace("const", "")
}

/// What the evaluator needs to know about names in scope.
pub trait Scope<'t> {
    /// The single initializer of a local that is never reassigned.
    fn definition(&self, name: &str) -> Option<Node<'t>>;
    /// The value the local `name` holds where `at` reads it: its `definition`, or for a local
    /// assigned several times the one assignment that reaches `at`, where the scope knows it.
    fn definition_at(&self, name: &str, at: Node<'t>) -> Option<Node<'t>> {
        let _ = at;
        self.definition(name)
    }
    /// The pointee type of a pointer variable (`float` for `float* p`).
    fn pointee(&self, name: &str) -> Option<String>;
    /// The declared type of a non-pointer scalar variable.
    fn scalar_type(&self, name: &str) -> Option<String>;
    /// The atom an identifier that has no definition stands for (None: unknown).
    fn atom(&self, name: &str) -> Option<Sym> {
        Some(Sym::atom(name))
    }
    fn define(&self, name: &str) -> Option<&str>;
    /// Whether a plain name is a type (a template parameter): `sizeof(T)` parses as an expression.
    fn is_type(&self, _name: &str) -> bool {
        false
    }
    /// What the component `field` (`x`, `y`, `z`) of the local `dim3` named `object` holds where
    /// `at` reads it: its constructor argument or the one assignment that reaches `at`. None
    /// when not known, or when `object` is no such local.
    fn component(&self, _object: &str, _field: &str, _at: Node<'t>) -> Option<Component<'t>> {
        None
    }
}

/// A `dim3` component's value as its declaration or an assignment gives it.
#[derive(Debug, Clone, Copy)]
pub enum Component<'t> {
    Value(Node<'t>),
    /// Left out of the constructor (`dim3 block(32)` has `y` and `z` 1).
    One,
}

pub struct Evaluator<'s, 't> {
    pub source: &'s str,
    pub scope: &'s dyn Scope<'t>,
    /// When false, `sizeof(T)` stays the atom `sizeof(T)` even for builtin types.
    pub fold_sizeof: bool,
}

impl<'s, 't> Evaluator<'s, 't> {
    pub fn eval(&self, node: Node<'t>) -> Option<Sym> {
        self.eval_at(node, 0)
    }

    fn sizeof_type(&self, type_text: &str) -> Sym {
        let normalized = normalize_type(type_text);
        match builtin_size(&normalized) {
            Some(size) if self.fold_sizeof => Sym::constant(size),
            _ => Sym::atom(&format!("sizeof({normalized})")),
        }
    }

    /// `object.x` (`.y`, `.z`) of a local `dim3` whose component is a constant: that constant.
    fn component_constant(&self, node: Node<'t>, depth: usize) -> Option<Sym> {
        let object = syntax::strip(node.field("argument")?, self.source);
        if object.node_kind() != "identifier" {
            return None;
        }
        let field = text(node.field("field")?, self.source);
        if !matches!(field, "x" | "y" | "z") {
            return None;
        }
        let value = match self
            .scope
            .component(text(object, self.source), field, node)?
        {
            Component::One => Sym::constant(1),
            Component::Value(value) => self.eval_at(value, depth + 1)?,
        };
        value.as_constant().is_some().then_some(value)
    }

    fn eval_at(&self, node: Node<'t>, depth: usize) -> Option<Sym> {
        if depth > MAX_DEPTH / 8 {
            return None;
        }
        let node = syntax::strip(node, self.source);
        if matches!(node.node_kind(), "binary_expression" | "call_expression") {
            if let Some(value) = self.rounded_up_quotient(node, depth) {
                return Some(value);
            }
        }
        match node.node_kind() {
            "number_literal" => parse_number(text(node, self.source)).map(Sym::constant),
            "true" => Some(Sym::constant(1)),
            "false" => Some(Sym::constant(0)),
            // `dim3 grid(blocks);` parses as a function declaration: its argument a parameter
            // declaration of type `blocks`
            "parameter_declaration" if node.field("declarator").is_none() => {
                self.eval_at(node.field("type")?, depth + 1)
            }
            // `thrust::device_vector<T> v(blocks * threads);` parses as a function declaration
            // too: its product a parameter `blocks` declared as a pointer `*threads`
            "parameter_declaration" => {
                let type_node = node.field("type")?;
                let declarator = node.field("declarator")?;
                let factor = declarator.field("declarator")?;
                if type_node.node_kind() != "type_identifier"
                    || declarator.node_kind() != "pointer_declarator"
                    || factor.node_kind() != "identifier"
                {
                    return None;
                }
                let left = self.eval_at(type_node, depth + 1)?;
                left.mul(&self.eval_at(factor, depth + 1)?)
            }
            "identifier" | "type_identifier" => {
                let name = text(node, self.source);
                if let Some(definition) = self.scope.definition_at(name, node) {
                    // a value sizes cannot spell out (a helper's result, a float ceil) is still
                    // one value wherever the name is read, so both sides of a comparison agree.
                    // A value written in the name itself (`n = (n + 255) / 256 * 256`) reads its
                    // earlier value there: the name as it stands, not followed again (followed,
                    // each mention would follow the definition again, exponentially)
                    let value = if mentions_name(definition, name, self.source) {
                        let earlier = EarlierValue {
                            scope: self.scope,
                            name,
                        };
                        Evaluator {
                            scope: &earlier,
                            ..*self
                        }
                        .eval_at(definition, depth + 1)
                    } else {
                        self.eval_at(definition, depth + 1)
                    };
                    return value.or_else(|| self.scope.atom(name));
                }
                if let Some(value) = self.scope.define(name) {
                    return parse_define_number(value).map(Sym::constant);
                }
                self.scope.atom(name)
            }
            // `RadixSort::WARP_SIZE`: a constant of a namespace or a class, read by its own
            // name (the file's constants are kept by name whatever scope declares them)
            "qualified_identifier" => {
                let mut name = node;
                for _ in 0..4 {
                    if name.node_kind() != "qualified_identifier" {
                        break;
                    }
                    name = name.field("name")?;
                }
                if name.node_kind() != "identifier" {
                    return None;
                }
                let name = text(name, self.source);
                if let Some(definition) = self.scope.definition(name) {
                    return self.eval_at(definition, depth + 1);
                }
                // a header's constant, read with its macros
                parse_define_number(self.scope.define(name)?).map(Sym::constant)
            }
            "sizeof_expression" => {
                if let Some(type_node) = node.field("type") {
                    return Some(self.sizeof_type(text(type_node, self.source)));
                }
                let value = syntax::strip(node.field("value")?, self.source);
                match value.node_kind() {
                    "pointer_expression" if operator(value, self.source) == "*" => {
                        let inner = syntax::strip(value.field("argument")?, self.source);
                        (inner.node_kind() == "identifier")
                            .then(|| self.scope.pointee(text(inner, self.source)))
                            .flatten()
                            .map(|t| self.sizeof_type(&t))
                    }
                    "subscript_expression" => {
                        let inner = syntax::strip(value.field("argument")?, self.source);
                        (inner.node_kind() == "identifier")
                            .then(|| self.scope.pointee(text(inner, self.source)))
                            .flatten()
                            .map(|t| self.sizeof_type(&t))
                    }
                    "identifier" => {
                        let name = text(value, self.source);
                        if self.scope.is_type(name) {
                            return Some(self.sizeof_type(name));
                        }
                        self.scope.scalar_type(name).map(|t| self.sizeof_type(&t))
                    }
                    // `sizeof(T)` parsed as an expression when T is a plain name
                    _ => None,
                }
            }
            "binary_expression" => {
                let left = self.eval_at(node.field("left")?, depth + 1)?;
                let right = self.eval_at(node.field("right")?, depth + 1)?;
                match operator(node, self.source) {
                    "+" => left.add(&right),
                    "-" => left.sub(&right),
                    "*" => left.mul(&right),
                    "/" => match right.as_constant() {
                        Some(divisor) => left.divide(divisor),
                        None => left.divided_by_term_exactly(&right),
                    },
                    "<<" => {
                        let shift = right.as_constant()?;
                        (0..=62)
                            .contains(&shift)
                            .then(|| left.mul(&Sym::constant(1i128 << shift)))
                            .flatten()
                    }
                    ">>" => {
                        let shift = right.as_constant()?;
                        (0..=62)
                            .contains(&shift)
                            .then(|| left.divide(1i128 << shift))
                            .flatten()
                    }
                    _ => None,
                }
            }
            "unary_expression" if operator(node, self.source) == "-" => {
                self.eval_at(node.field("argument")?, depth + 1)?.negate()
            }
            "call_expression" => {
                // `v.size()`: a count that stays put between the allocation and the copy
                let function = node.field("function")?;
                let arguments = node.field("arguments")?;
                // `min(partials, block)` of two constants is a constant
                let name = match function.node_kind() {
                    "template_function" => function.field("name").map(|n| text(n, self.source)),
                    _ => Some(text(function, self.source)),
                }
                .unwrap_or("");
                let short = name.rsplit("::").next().unwrap_or(name);
                if let Some(smaller) = match short {
                    "min" | "MIN" | "umin" | "imin" | "llmin" | "ullmin" => Some(true),
                    "max" | "MAX" | "umax" | "imax" | "llmax" | "ullmax" => Some(false),
                    _ => None,
                } {
                    let values: Vec<i128> = named_children(arguments)
                        .filter(|a| a.node_kind() != "comment")
                        .map(|a| self.eval_at(a, depth + 1)?.as_constant())
                        .collect::<Option<Vec<i128>>>()?;
                    let [a, b] = values.as_slice() else {
                        return None;
                    };
                    return Some(Sym::constant(if smaller { *a.min(b) } else { *a.max(b) }));
                }
                if function.node_kind() == "field_expression" {
                    let field = function.field("field")?;
                    let mut listed =
                        named_children(arguments).filter(|a| a.node_kind() != "comment");
                    let counts = match (listed.next(), listed.next()) {
                        (None, _) => is_count_method(text(field, self.source)),
                        // `x.size(2)`, `x.size(-1)`: a tensor's extent on one axis
                        (Some(axis), None) => {
                            text(field, self.source) == "size"
                                && self.eval_at(axis, depth + 1)?.as_constant().is_some()
                        }
                        _ => false,
                    };
                    if counts {
                        let compact: String = text(node, self.source).split_whitespace().collect();
                        return Some(Sym::atom(&compact));
                    }
                }
                // `NumBlocks(n)` written twice is one value: a helper of plain names and numbers
                // gives the allocation and the launch that both call it the same count
                let plain_argument = |a: Node<'t>| {
                    matches!(
                        syntax::strip(a, self.source).node_kind(),
                        "identifier" | "number_literal" | "comment"
                    )
                };
                let free_function = matches!(
                    function.node_kind(),
                    "identifier" | "qualified_identifier" | "template_function"
                );
                (free_function && named_children(arguments).all(plain_argument)).then(|| {
                    let compact: String = text(node, self.source).split_whitespace().collect();
                    Sym::atom(&compact)
                })
            }
            "field_expression" => {
                // `block.x` of `dim3 block(32)` is 32, as the literal would be: a grid written
                // `(n + block.x - 1) / block.x` then reads as one over a constant; a component
                // that is no constant keeps its own name
                if let Some(value) = self.component_constant(node, depth) {
                    return Some(value);
                }
                let compact: String = text(node, self.source).split_whitespace().collect();
                (!compact.contains('(')).then(|| Sym::atom(&compact))
            }
            _ => None,
        }
    }
}

/// The number an object-like macro's body spells, parenthesized or not (`#define TILE (32)`).
pub fn parse_define_number(body: &str) -> Option<i128> {
    parse_number(body.trim().trim_start_matches('(').trim_end_matches(')'))
}

/// `1024`, `0x400`, `400ULL`, `1e10`, `1.0e3f` (floats only when integral).
pub fn parse_number(literal: &str) -> Option<i128> {
    let digits = literal.trim();
    // a `bool` constant or template argument converts to 1 or 0
    match digits {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // plain decimal (or octal) digits: what the general reading below gives, without copies
        if digits.len() > 1 && digits.starts_with('0') {
            return i128::from_str_radix(digits, 8).ok();
        }
        return digits.parse().ok();
    }
    let t = literal.trim().replace('\'', "");
    let lower = t.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return i128::from_str_radix(hex.trim_end_matches(['u', 'l']), 16).ok();
    }
    if let Some(binary) = lower.strip_prefix("0b") {
        return i128::from_str_radix(binary.trim_end_matches(['u', 'l']), 2).ok();
    }
    let integer = lower.trim_end_matches(['u', 'l', 'z']);
    if !integer.is_empty() && integer.chars().all(|c| c.is_ascii_digit()) {
        if integer.len() > 1 && integer.starts_with('0') {
            return i128::from_str_radix(integer, 8).ok();
        }
        return integer.parse().ok();
    }
    let float = lower.trim_end_matches(['f', 'l']);
    let value: f64 = float.parse().ok()?;
    (value.is_finite() && value.fract() == 0.0 && value.abs() < 1e30).then_some(value as i128)
}

/// `v.size()`, `x.numel()`, `s.length()`, and `x.size(k)` on a tensor: a method whose value is a
/// count of the object's elements, which stays put while the object does.
pub(crate) fn is_count_method(name: &str) -> bool {
    matches!(name, "size" | "numel" | "length")
}

/// A scope in which `name` is not followed to its definition: inside a value assigned to `name`
/// that reads it, the name stands for the value it had before.
struct EarlierValue<'s, 't> {
    scope: &'s dyn Scope<'t>,
    name: &'s str,
}

impl<'t> Scope<'t> for EarlierValue<'_, 't> {
    fn definition(&self, name: &str) -> Option<Node<'t>> {
        if name == self.name {
            return None;
        }
        self.scope.definition(name)
    }
    fn definition_at(&self, name: &str, at: Node<'t>) -> Option<Node<'t>> {
        if name == self.name {
            return None;
        }
        self.scope.definition_at(name, at)
    }
    fn pointee(&self, name: &str) -> Option<String> {
        self.scope.pointee(name)
    }
    fn scalar_type(&self, name: &str) -> Option<String> {
        self.scope.scalar_type(name)
    }
    fn atom(&self, name: &str) -> Option<Sym> {
        self.scope.atom(name)
    }
    fn define(&self, name: &str) -> Option<&str> {
        self.scope.define(name)
    }
    fn is_type(&self, name: &str) -> bool {
        self.scope.is_type(name)
    }
    fn component(&self, object: &str, field: &str, at: Node<'t>) -> Option<Component<'t>> {
        self.scope.component(object, field, at)
    }
}

/// Whether `node` mentions the identifier `name`.
fn mentions_name(node: Node, name: &str, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(node, |n| {
        found |= n.node_kind() == "identifier" && text(n, source) == name;
        !found
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse() {
        assert_eq!(parse_number("400ULL"), Some(400));
        assert_eq!(parse_number("0x10"), Some(16));
        assert_eq!(parse_number("1e10"), Some(10_000_000_000));
        assert_eq!(parse_number("1.5f"), None);
    }

    #[test]
    fn comparisons_prove_only_what_holds() {
        let n = Sym::atom("n");
        let four_n = n.mul(&Sym::constant(4)).unwrap();
        let short = four_n.sub(&Sym::constant(1024)).unwrap();
        assert_eq!(short.compare(&four_n), Order::ProvablySmaller);
        assert_eq!(four_n.compare(&short), Order::Unknown);
        assert_eq!(four_n.compare(&four_n.clone()), Order::ProvablyEqual);
        let half = n.divide(2).unwrap().mul(&Sym::constant(4)).unwrap();
        assert_eq!(half.compare(&four_n), Order::ProvablySmaller);
        assert_eq!(four_n.compare(&half), Order::Unknown);
        let m = Sym::atom("m");
        assert_eq!(n.compare(&m), Order::Unknown);
        assert_eq!(short.display(), "4 * n - 1024");
    }

    #[test]
    fn floors_are_exact_when_only_the_constant_leaves_a_remainder() {
        let q = Sym::atom("q");
        let padded = q.times(192).unwrap();
        // (192 q + 191) / 192 is q, not q + 191/192 rounded down
        let blocks = padded
            .add(&Sym::constant(191))
            .unwrap()
            .divide(192)
            .unwrap();
        assert_eq!(blocks, q);
        assert!(!blocks.floored);
        // (192 q - 1) / 192 is q - 1
        let short = padded.sub(&Sym::constant(1)).unwrap().divide(192).unwrap();
        assert_eq!(short.display(), "q - 1");
        // a term the divisor does not divide keeps the rounding
        let n = Sym::atom("n");
        assert!(
            n.add(&Sym::constant(255))
                .unwrap()
                .divide(256)
                .unwrap()
                .floored
        );
        // a value that can be negative is not floored by the constant's own floor
        let negative = Sym::constant(0).sub(&padded).unwrap().divide(192).unwrap();
        assert!(negative.floored);
        assert_eq!(Sym::constant(1000).divide(256).unwrap(), Sym::constant(3));
    }

    #[test]
    fn division_by_a_term_that_divides_every_term_is_exact() {
        let b = Sym::atom("b");
        let q = Sym::atom("q");
        let per_block = b.times(4).unwrap();
        let count = per_block.mul(&q).unwrap();
        assert_eq!(
            count.times(4).unwrap().divided_by_term_exactly(&per_block),
            q.times(4)
        );
        // a term without the divisor's atom, or a coefficient it does not divide: unknown
        assert!(count
            .add(&Sym::constant(1))
            .unwrap()
            .divided_by_term_exactly(&per_block)
            .is_none());
        assert!(b
            .mul(&q)
            .unwrap()
            .divided_by_term_exactly(&per_block)
            .is_none());
        // a divisor of two terms is not one
        assert!(count
            .divided_by_term_exactly(&b.add(&Sym::constant(1)).unwrap())
            .is_none());
    }
}
