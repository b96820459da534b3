//! The interval itself: the `Range` type, the arithmetic of its bounds (sums, products,
//! quotients), and reading which of them stays inside the sizes the kernel is given. Kept apart
//! from the analysis so the bound algebra reads on its own.

use super::*;

/// A closed interval; a missing side is unbounded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Range {
    pub lo: Option<Sym>,
    pub hi: Option<Sym>,
    /// Further bounds that hold but that the kept one is not provably tighter than (`k - 1` from
    /// a test beside the block's `127`): a launch's values may later make them the tighter.
    pub other_lo: Vec<Sym>,
    pub other_hi: Vec<Sym>,
}

/// How many bounds a side keeps besides the first.
pub(super) const MAX_OTHER_BOUNDS: usize = 3;

impl Range {
    pub fn unknown() -> Range {
        Range::default()
    }

    pub fn exactly(value: Sym) -> Range {
        Range {
            lo: Some(value.clone()),
            hi: Some(value),
            ..Range::default()
        }
    }

    pub(super) fn between(lo: Sym, hi: Sym) -> Range {
        Range {
            lo: Some(lo),
            hi: Some(hi),
            ..Range::default()
        }
    }

    /// Every value an integer type narrower than `int` can hold (`unsigned char`: [0, 255]):
    /// whatever was computed, a value of that type is one of them. None for a type as wide as
    /// `int` or wider, or not an integer (`char`'s sign is the compiler's choice).
    pub fn of_narrow_type(type_text: &str) -> Option<(i128, i128)> {
        // words run together, as `size::normalize_type` writes a type (`unsignedchar`)
        let name: String = type_text
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "const" | "constexpr" | "static" | "register" | "volatile"
                )
            })
            .collect();
        match name.trim_start_matches("::").trim_start_matches("std::") {
            "bool" => Some((0, 1)),
            "unsignedchar" | "uint8_t" | "uchar" | "u8" | "uint8" => Some((0, 255)),
            "signedchar" | "int8_t" | "int8" | "i8" => Some((-128, 127)),
            "unsignedshort" | "unsignedshortint" | "uint16_t" | "ushort" | "u16" | "uint16" => {
                Some((0, 65_535))
            }
            "short" | "shortint" | "signedshort" | "signedshortint" | "int16_t" | "int16"
            | "i16" => Some((-32_768, 32_767)),
            _ => None,
        }
    }

    pub(super) fn is_nonnegative(&self) -> bool {
        self.lo.as_ref().is_some_and(Sym::is_nonnegative)
    }

    /// Whether the upper bound is known and names no grid dimension: the value stays inside the
    /// sizes the kernel is given and the block's shape.
    pub fn is_bounded(&self) -> bool {
        self.upper_bounds().any(is_bounded)
    }

    /// `-x` for `x` in the range.
    pub(super) fn negated(&self) -> Range {
        let (lo, other_lo) = Range::map_side(&self.hi, &self.other_hi, Sym::negate);
        let (hi, other_hi) = Range::map_side(&self.lo, &self.other_lo, Sym::negate);
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// `x + y` (or `x - y`, with `subtract`) for `x` in this range and `y` in `other`.
    pub(crate) fn plus(&self, other: &Range, subtract: bool) -> Range {
        let other = if subtract {
            other.negated()
        } else {
            other.clone()
        };
        let (lo, other_lo) = combine(
            (&self.lo, &self.other_lo),
            (&other.lo, &other.other_lo),
            Sym::add,
        );
        let (hi, other_hi) = combine(
            (&self.hi, &self.other_hi),
            (&other.hi, &other.other_hi),
            Sym::add,
        );
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// Every upper bound known to hold, the kept one first.
    pub fn upper_bounds(&self) -> impl Iterator<Item = &Sym> {
        self.hi.iter().chain(&self.other_hi)
    }

    /// Every lower bound known to hold, the kept one first.
    pub fn lower_bounds(&self) -> impl Iterator<Item = &Sym> {
        self.lo.iter().chain(&self.other_lo)
    }

    /// The range with `op` applied to each of its bounds on one side, the kept one first; a
    /// bound `op` cannot express is dropped.
    fn map_side(
        kept: &Option<Sym>,
        others: &[Sym],
        op: impl Fn(&Sym) -> Option<Sym>,
    ) -> (Option<Sym>, Vec<Sym>) {
        let kept = kept.as_ref().and_then(&op);
        let others = others.iter().filter_map(&op);
        match kept {
            Some(kept) => (Some(kept), others.collect()),
            None => {
                let mut all: Vec<Sym> = others.collect();
                let first = (!all.is_empty()).then(|| all.remove(0));
                (first, all)
            }
        }
    }
}

/// Whether an upper bound names no grid dimension.
pub fn is_bounded(hi: &Sym) -> bool {
    !hi.atoms().any(|atom| atom.starts_with("gridDim"))
}

/// `op` of every pair of bounds of `a` and `b` where one is the kept bound: the kept bounds
/// give the kept result.
fn combine(
    a: (&Option<Sym>, &[Sym]),
    b: (&Option<Sym>, &[Sym]),
    op: fn(&Sym, &Sym) -> Option<Sym>,
) -> (Option<Sym>, Vec<Sym>) {
    let kept = both(a.0, b.0, op);
    let mut others = Vec::new();
    if let Some(b_kept) = b.0 {
        others.extend(a.1.iter().filter_map(|x| op(x, b_kept)));
    }
    if let Some(a_kept) = a.0 {
        others.extend(b.1.iter().filter_map(|y| op(a_kept, y)));
    }
    others.truncate(MAX_OTHER_BOUNDS);
    match kept {
        Some(kept) => (Some(kept), others),
        None => {
            let first = (!others.is_empty()).then(|| others.remove(0));
            (first, others)
        }
    }
}

pub(super) fn both(
    a: &Option<Sym>,
    b: &Option<Sym>,
    op: fn(&Sym, &Sym) -> Option<Sym>,
) -> Option<Sym> {
    op(a.as_ref()?, b.as_ref()?)
}

pub(super) fn constant(range: &Range) -> Option<i128> {
    let lo = range.lo.as_ref()?.as_constant()?;
    let hi = range.hi.as_ref()?.as_constant()?;
    (lo == hi).then_some(lo)
}

pub(crate) fn multiply(a: &Range, b: &Range) -> Range {
    // a constant factor scales every bound that holds (`2 * angle` under `angle <= degrees`
    // beside the block's own bound)
    for (x, y) in [(a, b), (b, a)] {
        if let Some(k) = constant(y) {
            let scaled = |bounds: &[Sym]| -> Vec<Sym> {
                bounds.iter().filter_map(|bound| bound.times(k)).collect()
            };
            if k >= 0 {
                return Range {
                    lo: x.lo.as_ref().and_then(|l| l.times(k)),
                    hi: x.hi.as_ref().and_then(|h| h.times(k)),
                    other_lo: scaled(&x.other_lo),
                    other_hi: scaled(&x.other_hi),
                };
            }
            return Range {
                lo: x.hi.as_ref().and_then(|h| h.times(k)),
                hi: x.lo.as_ref().and_then(|l| l.times(k)),
                other_lo: scaled(&x.other_hi),
                other_hi: scaled(&x.other_lo),
            };
        }
    }
    if a.is_nonnegative() && b.is_nonnegative() {
        return Range {
            lo: both(&a.lo, &b.lo, Sym::mul),
            hi: both(&a.hi, &b.hi, Sym::mul),
            ..Range::default()
        };
    }
    // a factor at least 0 times one of unknown sign whose top is at least 0: `x * y <= x.hi *
    // y.hi` (`cols * (width - bx - 1)` with `bx` below a grid passed as `width`)
    for (x, y) in [(a, b), (b, a)] {
        if let (true, Some(x_hi), Some(y_hi)) = (x.is_nonnegative(), &x.hi, &y.hi) {
            if y_hi.is_nonnegative() {
                return Range {
                    lo: None,
                    hi: x_hi.mul(y_hi),
                    ..Range::default()
                };
            }
        }
    }
    Range::unknown()
}

pub(super) fn divide(a: &Range, b: &Range, divisor: Node, source: &str) -> Range {
    if !a.is_nonnegative() || !b.is_nonnegative() {
        return Range::unknown();
    }
    let lo = Some(Sym::constant(0));
    if let Some(k) = constant(b) {
        if k > 0 {
            return Range {
                lo,
                hi: a.hi.as_ref().and_then(|h| h.divided_by(k)),
                ..Range::default()
            };
        }
        return Range::unknown();
    }
    let divisor_atom = normalized(divisor, source);
    let hi = a.hi.as_ref().and_then(|h| {
        // by a uniform value at least 1: cancel it where it is a factor, else no larger
        h.over_atom(&divisor_atom).or_else(|| Some(h.clone()))
    });
    Range {
        lo,
        hi,
        ..Range::default()
    }
}
