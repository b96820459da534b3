//! The values of a block run: one per thread, held as compactly as they allow. A value every
//! thread shares is held once (`Lanes::Uni`); a value whose number (an integer, a pointer's byte)
//! is a linear function of the thread's coordinates, as an index built from `threadIdx` is, is held
//! as that function (`Lanes::Linear`); any other as one value per thread (`Lanes::Per`). Every
//! form answers `get` with the thread's own value, and whatever an operation does not compute on
//! a form directly it computes thread by thread, so the form never changes a result.

use std::rc::Rc;

/// The most threads a block run holds (a launch's block has at most 1024).
pub(super) const MAX_LANES: usize = 1024;

/// Which threads of the block (by linear index) an operation applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mask(pub(super) [u64; MAX_LANES / 64]);

impl Mask {
    pub(super) const NONE: Mask = Mask([0; MAX_LANES / 64]);

    /// Threads `0..n`.
    pub(super) fn first(n: usize) -> Mask {
        let mut words = [0u64; MAX_LANES / 64];
        for (i, word) in words.iter_mut().enumerate() {
            let low = i * 64;
            if n >= low + 64 {
                *word = u64::MAX;
            } else if n > low {
                *word = (1u64 << (n - low)) - 1;
            }
        }
        Mask(words)
    }

    pub(super) fn and(self, other: Mask) -> Mask {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        out
    }

    pub(super) fn or(self, other: Mask) -> Mask {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }

    pub(super) fn without(self, other: Mask) -> Mask {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        out
    }

    /// How many threads. Most blocks fill a few of the words, and counting a word's bits costs
    /// more than testing it, so empty words are passed over.
    pub(super) fn count(&self) -> u32 {
        self.0
            .iter()
            .filter(|w| **w != 0)
            .map(|w| w.count_ones())
            .sum()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub(super) fn set(&mut self, lane: usize) {
        if let Some(word) = self.0.get_mut(lane / 64) {
            *word |= 1u64 << (lane % 64);
        }
    }

    /// The threads, in order of their linear indices.
    pub(super) fn lanes(self) -> MaskLanes {
        MaskLanes {
            words: self.0,
            word: 0,
            rest: self.0[0],
        }
    }
}

/// The threads of a mask in order (`Mask::lanes`): a word at a time, a bit at a time.
pub(super) struct MaskLanes {
    words: [u64; MAX_LANES / 64],
    /// The word being read, and its bits not yet handed out.
    word: usize,
    rest: u64,
}

impl Iterator for MaskLanes {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.rest == 0 {
            self.word += 1;
            self.rest = *self.words.get(self.word)?;
        }
        let bit = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(self.word * 64 + bit)
    }
}

/// The `threadIdx` of the thread with linear index `linear` in a block of shape `block`.
pub(super) fn coordinates(linear: i64, block: [i64; 3]) -> [i64; 3] {
    [
        linear % block[0].max(1),
        (linear / block[0].max(1)) % block[1].max(1),
        linear / (block[0] * block[1]).max(1),
    ]
}

/// A value that may carry a number: an integer, a pointer's byte, the byte an access lands on.
pub(super) trait Lane: Copy + PartialEq {
    /// This value with `number` in place of its own; a value without one is returned as it is.
    fn numbered(self, number: i64) -> Self;
}

impl Lane for bool {
    fn numbered(self, _: i64) -> Self {
        self
    }
}

/// `shape` with `base + x·coef[0] + y·coef[1] + z·coef[2]` as its number, for the thread at
/// `(x, y, z)` of a block of shape `block`. Built only where every thread's number fits in an
/// `i64` (`Linear::form`), so reading one never overflows.
#[derive(Debug, Clone, Copy)]
pub(super) struct Linear<T> {
    pub(super) shape: T,
    pub(super) base: i64,
    pub(super) coef: [i64; 3],
    pub(super) block: [i64; 3],
}

impl<T: Lane> Linear<T> {
    /// The values `shape` numbered `base + coef · (x, y, z)` for the threads of `block`: one for
    /// all when the number does not depend on the thread, None when some thread's number (or
    /// the form itself) does not fit in an `i64`.
    pub(super) fn form(shape: T, base: i128, coef: [i128; 3], block: [i64; 3]) -> Option<Lanes<T>> {
        let mut kept = [0i64; 3];
        for axis in 0..3 {
            // a coordinate that is always 0 adds nothing
            if block[axis] > 1 {
                kept[axis] = i64::try_from(coef[axis]).ok()?;
            }
        }
        let base = i64::try_from(base).ok()?;
        if kept == [0; 3] {
            return Some(Lanes::Uni(shape.numbered(base)));
        }
        let linear = Linear {
            shape,
            base,
            coef: kept,
            block,
        };
        let (low, high) = linear.range();
        if low < i128::from(i64::MIN) || high > i128::from(i64::MAX) {
            return None;
        }
        Some(Lanes::Linear(linear))
    }

    /// The number of the thread at `at`.
    fn number_at(&self, at: [i64; 3]) -> i64 {
        let mut total = i128::from(self.base);
        for (coef, at) in self.coef.iter().zip(at) {
            total += i128::from(*coef) * i128::from(at);
        }
        // in range for every thread of the block (`Linear::form`)
        total as i64
    }

    /// The least and the greatest number of the block's threads.
    pub(super) fn range(&self) -> (i128, i128) {
        let (mut low, mut high) = (i128::from(self.base), i128::from(self.base));
        for axis in 0..3 {
            let far = i128::from(self.coef[axis]) * i128::from(self.block[axis].max(1) - 1);
            low += far.min(0);
            high += far.max(0);
        }
        (low, high)
    }

    /// Whether the spans of `size` starting at the threads' numbers are pairwise apart: with
    /// the axes in order of their coefficients' sizes, each coefficient passes everything the
    /// smaller ones reach, so two threads that differ are at least `size` apart.
    pub(super) fn apart(&self, size: i64) -> bool {
        let mut axes: Vec<(i128, i128)> = (0..3)
            .filter(|axis| self.block[*axis] > 1)
            .map(|axis| {
                (
                    i128::from(self.coef[axis]).abs(),
                    i128::from(self.block[axis] - 1),
                )
            })
            .collect();
        axes.sort_unstable();
        let mut reach = i128::from(size.max(1)) - 1;
        for (coef, steps) in axes {
            if coef <= reach {
                return false;
            }
            reach += coef * steps;
        }
        true
    }

    fn get(&self, lane: usize) -> T {
        self.shape
            .numbered(self.number_at(coordinates(lane as i64, self.block)))
    }

    /// Every thread's value, in the order of their linear indices.
    fn values(&self) -> Vec<T> {
        let [bx, by, bz] = self.block.map(|d| d.max(1));
        let mut out = Vec::with_capacity((bx * by * bz).max(0) as usize);
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    out.push(self.shape.numbered(self.number_at([x, y, z])));
                }
            }
        }
        out
    }
}

/// One value per thread of the block: one for all of them, a linear form of the thread's
/// coordinates, or one each.
#[derive(Debug, Clone)]
pub(super) enum Lanes<T: Copy> {
    Uni(T),
    Linear(Linear<T>),
    Per(Rc<Vec<T>>),
}

impl<T: Lane> Lanes<T> {
    pub(super) fn get(&self, lane: usize) -> T {
        match self {
            Lanes::Uni(v) => *v,
            Lanes::Linear(linear) => linear.get(lane),
            Lanes::Per(values) => values[lane],
        }
    }

    /// Values per thread, held as one when every thread's is the same: what is computed from
    /// them is then computed once.
    pub(super) fn per(values: Vec<T>) -> Lanes<T> {
        match values.first() {
            Some(first) if values.iter().all(|v| v == first) => Lanes::Uni(*first),
            _ => Lanes::Per(Rc::new(values)),
        }
    }

    /// Every thread's value, for an operation that reads them one by one (None: one for all).
    fn each(&self) -> Option<std::borrow::Cow<'_, [T]>> {
        match self {
            Lanes::Uni(_) => None,
            Lanes::Linear(linear) => Some(std::borrow::Cow::Owned(linear.values())),
            Lanes::Per(values) => Some(std::borrow::Cow::Borrowed(values.as_slice())),
        }
    }

    pub(super) fn from_fn(n: usize, f: impl Fn(usize) -> T) -> Lanes<T> {
        Lanes::per((0..n).map(f).collect())
    }

    pub(super) fn map<U: Lane>(&self, f: impl Fn(T) -> U) -> Lanes<U> {
        match self.each() {
            None => Lanes::Uni(f(self.get(0))),
            Some(values) => Lanes::per(values.iter().map(|v| f(*v)).collect()),
        }
    }

    pub(super) fn zip<U: Lane, R: Lane>(
        &self,
        other: &Lanes<U>,
        f: impl Fn(T, U) -> R,
    ) -> Lanes<R> {
        match (self.each(), other.each()) {
            (None, None) => Lanes::Uni(f(self.get(0), other.get(0))),
            (Some(a), None) => {
                let b = other.get(0);
                Lanes::per(a.iter().map(|v| f(*v, b)).collect())
            }
            (Some(a), Some(b)) => Lanes::per(
                a.iter()
                    .enumerate()
                    .map(|(lane, v)| f(*v, b[lane]))
                    .collect(),
            ),
            (None, Some(b)) => {
                let a = self.get(0);
                Lanes::per(b.iter().map(|v| f(a, *v)).collect())
            }
        }
    }

    /// These values with the threads of `mask` taking `new`'s.
    pub(super) fn blend(&self, new: &Lanes<T>, mask: Mask, n: usize) -> Lanes<T> {
        if let (Lanes::Uni(old), Lanes::Uni(value)) = (self, new) {
            if old == value {
                return Lanes::Uni(*old);
            }
        }
        let mut values: Vec<T> = match self.each() {
            None => vec![self.get(0); n],
            Some(values) => values.into_owned(),
        };
        for lane in mask.lanes() {
            if let Some(slot) = values.get_mut(lane) {
                *slot = new.get(lane);
            }
        }
        Lanes::per(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Lane for i64 {
        fn numbered(self, number: i64) -> Self {
            number
        }
    }

    #[test]
    fn a_mask_hands_out_its_threads_in_order() {
        let mut mask = Mask::NONE;
        assert_eq!(mask.lanes().count(), 0);
        for lane in [0, 5, 63, 64, 200, 1023] {
            mask.set(lane);
        }
        assert_eq!(
            mask.lanes().collect::<Vec<_>>(),
            vec![0, 5, 63, 64, 200, 1023]
        );
        assert_eq!(mask.count(), 6);
        assert_eq!(
            Mask::first(70).lanes().collect::<Vec<_>>(),
            (0..70).collect::<Vec<_>>()
        );
        assert_eq!(Mask::first(70).count(), 70);
    }

    #[test]
    fn a_linear_form_reads_as_its_threads_values() {
        let block = [4, 3, 2];
        let Some(Lanes::Linear(linear)) = Linear::form(0i64, 7, [1, 10, 100], block) else {
            panic!("a linear form");
        };
        let values = linear.values();
        assert_eq!(values.len(), 24);
        for (lane, value) in values.iter().enumerate() {
            let [x, y, z] = coordinates(lane as i64, block);
            assert_eq!(*value, 7 + x + 10 * y + 100 * z);
            assert_eq!(linear.get(lane), *value);
        }
        assert_eq!(linear.range(), (7, 7 + 3 + 20 + 100));
    }

    #[test]
    fn threads_apart_when_each_axis_passes_the_smaller_ones() {
        let form = |coef: [i128; 3], block: [i64; 3]| match Linear::form(0i64, 0, coef, block) {
            Some(Lanes::Linear(linear)) => linear,
            _ => panic!("a linear form"),
        };
        // `tile[ty][tx]` of floats in a 16 x 16 tile
        assert!(form([4, 64, 0], [16, 16, 1]).apart(4));
        // rows of 15 floats: row 1 starts inside row 0's last element's reach
        assert!(!form([4, 60, 0], [16, 16, 1]).apart(4));
        // two threads on one element
        assert!(!form([2, 0, 0], [8, 1, 1]).apart(4));
        // a negative coefficient reaches as far
        assert!(form([-4, 0, 0], [32, 1, 1]).apart(4));
        // every pair checked by brute force agrees on a few shapes
        for coef in [[4, 64, 0], [4, 60, 0], [8, 4, 0], [1, 3, 0], [3, 1, 12]] {
            let linear = form(coef, [4, 3, 2]);
            let values = linear.values();
            let mut brute = true;
            for (i, a) in values.iter().enumerate() {
                for b in &values[i + 1..] {
                    brute &= (a - b).abs() >= 4;
                }
            }
            assert!(!linear.apart(4) || brute, "{coef:?}");
        }
    }

    #[test]
    fn a_form_that_does_not_depend_on_the_thread_is_one_value() {
        // the z axis has one thread: its coefficient adds nothing
        let lanes = Linear::form(0i64, 5, [0, 0, 9], [8, 4, 1]);
        assert!(matches!(lanes, Some(Lanes::Uni(5))));
    }

    #[test]
    fn a_form_out_of_range_for_some_thread_is_not_built() {
        let big = i128::from(i64::MAX) - 2;
        assert!(Linear::form(0i64, big, [1, 0, 0], [4, 1, 1]).is_none());
        assert!(Linear::form(0i64, big, [1, 0, 0], [3, 1, 1]).is_some());
    }

    #[test]
    fn operations_on_a_linear_form_read_every_thread() {
        let block = [4, 2, 1];
        let Some(lanes) = Linear::form(0i64, 0, [1, 4, 0], block) else {
            panic!("a linear form");
        };
        let doubled = lanes.map(|v| v * 2);
        for lane in 0..8 {
            assert_eq!(doubled.get(lane), 2 * lane as i64);
        }
        let mut mask = Mask::NONE;
        mask.set(3);
        let blended = lanes.blend(&Lanes::Uni(-1), mask, 8);
        assert_eq!(blended.get(3), -1);
        assert_eq!(blended.get(4), 4);
        let summed = lanes.zip(&Lanes::Uni(1), |a, b| a + b);
        assert_eq!(summed.get(7), 8);
    }
}
