//! The lint catalogue: one file per lint with its declaration, check and pass/fail cases, and a
//! documentation page `<name>.md` beside it. Adding a lint: add the file and the page, then one
//! line to `ALL` below.

use crate::lint::Lint;

mod divergent_barrier;
mod out_of_range_access;
mod support;
mod unguarded_thread_index;
mod unused_suppression;

pub use unused_suppression::UNUSED_SUPPRESSION;

/// Every lint, in the order `cudalint rule` lists them.
pub static ALL: &[&Lint] = &[
    &unguarded_thread_index::UNGUARDED_THREAD_INDEX,
    &out_of_range_access::OUT_OF_RANGE_ACCESS,
    &divergent_barrier::DIVERGENT_BARRIER,
    &unused_suppression::UNUSED_SUPPRESSION,
];

pub fn find(name: &str) -> Option<&'static Lint> {
    ALL.iter().copied().find(|lint| lint.name == name)
}
