//! How ranges that hold together narrow (meet) and how ranges of different definitions widen
//! (join): which bound to keep, which to keep beside it, and the starting value an in-place
//! step is measured from until the join replaces it. Separate because every reading of an
//! expression ends here, and the choice of the kept bound is its own question.

use super::*;

impl Range {
    /// The narrower of two ranges both known to hold.
    pub(super) fn meet(self, other: Range) -> Range {
        // the kept bounds are chosen between as before; the rest stay beside them
        let lo = tighter(self.lo.clone(), other.lo.clone(), false);
        let hi = tighter(self.hi.clone(), other.hi.clone(), true);
        let (lo, other_lo) = keep_with_others(
            lo,
            self.lower_bounds().chain(other.lower_bounds()).collect(),
            false,
        );
        let (hi, other_hi) = keep_with_others(
            hi,
            self.upper_bounds().chain(other.upper_bounds()).collect(),
            true,
        );
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }

    /// A range holding every value of either.
    pub(super) fn join(self, other: Range) -> Range {
        let start = Sym::atom(STARTING_VALUE);
        // `start + k` (a counted number of steps, `k` at least 0) after a definition `b`: `b + k`,
        // the larger of the two
        let from = |stepped: &Sym, other: &Sym| -> Option<Sym> {
            if other.atoms().any(|a| a == STARTING_VALUE) {
                return None;
            }
            stepped.substitute(&|atom| {
                Some(if atom == STARTING_VALUE {
                    other.clone()
                } else {
                    Sym::atom(atom)
                })
            })
        };
        let mentions = |s: &Sym| s.atoms().any(|a| a == STARTING_VALUE);
        let side =
            |a: Option<Sym>, b: Option<Sym>, combine: fn(&Sym, &Sym) -> Option<Sym>| match (a, b) {
                (Some(a), Some(b)) if a == start => Some(b),
                (Some(a), Some(b)) if b == start => Some(a),
                (Some(a), Some(b)) if mentions(&a) => from(&a, &b),
                (Some(a), Some(b)) if mentions(&b) => from(&b, &a),
                (Some(a), Some(b)) => combine(&a, &b),
                _ => None,
            };
        // besides the kept bounds' join, each pair of bounds where one is provably the looser
        // bounds both: `[0, 127]` or `[0, k - 1]` joined with `[0, 63]`
        let pairs = |a: Vec<&Sym>, b: Vec<&Sym>, upper: bool| -> Vec<Sym> {
            let mut found = Vec::new();
            for x in &a {
                for y in &b {
                    if mentions(x) || mentions(y) {
                        continue;
                    }
                    let (low, high) = if x.at_most(y) {
                        (x, y)
                    } else if y.at_most(x) {
                        (y, x)
                    } else {
                        continue;
                    };
                    found.push(if upper {
                        (*high).clone()
                    } else {
                        (*low).clone()
                    });
                }
            }
            found
        };
        let lows = pairs(
            self.lower_bounds().collect(),
            other.lower_bounds().collect(),
            false,
        );
        let highs = pairs(
            self.upper_bounds().collect(),
            other.upper_bounds().collect(),
            true,
        );
        let lo = side(self.lo, other.lo, lower_of);
        let hi = side(self.hi, other.hi, upper_of);
        let (lo, other_lo) = keep_with_others(lo, lows.iter().collect(), false);
        let (hi, other_hi) = keep_with_others(hi, highs.iter().collect(), true);
        Range {
            lo,
            hi,
            other_lo,
            other_hi,
        }
    }
}

/// Stands for "where the other definitions start" in the range of an in-place step, until the
/// join with those definitions replaces it.
pub(super) const STARTING_VALUE: &str = "\u{0}start";

impl Range {
    /// A side still holding [`STARTING_VALUE`] came from steps alone: unknown.
    pub(super) fn without_starting_value(self) -> Range {
        let known = |s: &Sym| !s.atoms().any(|a| a == STARTING_VALUE);
        Range {
            lo: self.lo.filter(known),
            hi: self.hi.filter(known),
            other_lo: self.other_lo.into_iter().filter(known).collect(),
            other_hi: self.other_hi.into_iter().filter(known).collect(),
        }
    }
}

/// Of bounds that all hold, the one to keep (as [`tighter`] chooses) and those that are not
/// provably looser than another kept one.
fn tightest<'a>(bounds: impl Iterator<Item = &'a Sym>, upper: bool) -> (Option<Sym>, Vec<Sym>) {
    let all: Vec<&Sym> = bounds.collect();
    let kept = all
        .iter()
        .fold(None, |kept, b| tighter(kept, Some((*b).clone()), upper));
    keep_with_others(kept, all, upper)
}

/// `kept` with the `candidates` that are not provably looser than it or another kept one; a
/// candidate provably tighter than `kept` takes its place.
pub(super) fn keep_with_others(
    kept: Option<Sym>,
    candidates: Vec<&Sym>,
    upper: bool,
) -> (Option<Sym>, Vec<Sym>) {
    let Some(mut kept) = kept else {
        return match candidates.first() {
            Some(_) => tightest(candidates.into_iter(), upper),
            None => (None, Vec::new()),
        };
    };
    let looser = |a: &Sym, b: &Sym| if upper { b.at_most(a) } else { a.at_most(b) };
    let mut others: Vec<Sym> = Vec::new();
    for candidate in candidates {
        if candidate == &kept || looser(candidate, &kept) {
            continue;
        }
        if looser(&kept, candidate) {
            kept = candidate.clone();
            others.retain(|o| !looser(o, candidate));
            continue;
        }
        if others
            .iter()
            .any(|o| o == candidate || looser(candidate, o))
        {
            continue;
        }
        others.retain(|o| !looser(o, candidate));
        if others.len() < MAX_OTHER_BOUNDS {
            others.push(candidate.clone());
        }
    }
    others.retain(|o| !looser(o, &kept));
    (Some(kept), others)
}

/// Of two bounds that both hold, the one to keep: a bounded one over one that spans the grid,
/// the provably smaller (or larger, for `lo`), else the first.
pub(super) fn tighter(a: Option<Sym>, b: Option<Sym>, upper: bool) -> Option<Sym> {
    match (a, b) {
        (Some(a), Some(b)) => {
            if upper && is_bounded(&a) != is_bounded(&b) {
                return Some(if is_bounded(&a) { a } else { b });
            }
            // a bound in fewer of the launch's and the caller's values says more
            let (atoms_a, atoms_b) = (a.atoms().count(), b.atoms().count());
            if atoms_a != atoms_b && !(a.at_most(&b) || b.at_most(&a)) {
                return Some(if atoms_a < atoms_b { a } else { b });
            }
            // a bound rounded down is still an upper bound (the index is at most the value
            // rounded, at most the value written): the smaller written value is the tighter
            let written_at_most = |x: &Sym, y: &Sym| {
                let mut written = y.clone();
                written.floored = false;
                x.at_most(&written)
            };
            let b_better = if upper {
                b.at_most(&a) || (b.floored && written_at_most(&b, &a) && !written_at_most(&a, &b))
            } else {
                a.at_most(&b) && !b.floored
            };
            Some(if b_better { b } else { a })
        }
        (a, b) => a.or(b),
    }
}

/// An upper bound of both: either when one is at most the other, their sum when both are at
/// least 0.
pub(super) fn upper_of(a: &Sym, b: &Sym) -> Option<Sym> {
    if a.at_most(b) {
        return Some(b.clone());
    }
    if b.at_most(a) {
        return Some(a.clone());
    }
    if a.is_nonnegative() && b.is_nonnegative() {
        return a.add(b);
    }
    None
}

/// A lower bound of both.
pub(super) fn lower_of(a: &Sym, b: &Sym) -> Option<Sym> {
    if a.at_most(b) {
        return Some(a.clone());
    }
    if b.at_most(a) {
        return Some(b.clone());
    }
    (a.is_nonnegative() && b.is_nonnegative()).then(|| Sym::constant(0))
}
