//! The lint catalogue: one file per lint with its declaration, check and pass/fail cases, and a
//! documentation page `<name>.md` beside it. Adding a lint: add the file and the page, then one
//! line to `ALL` below.

use crate::lint::Lint;

mod alloc_smaller_than_copy;
mod cross_device_pointer;
mod device_memory_leak;
mod divergent_barrier;
mod double_free;
mod host_pointer_to_kernel;
mod invalid_launch_config;
mod legacy_warp_intrinsic;
mod memcpy_direction_mismatch;
mod out_of_range_access;
mod oversized_allocation;
mod partial_warp_shuffle;
mod shared_memory_race;
mod sizeof_mismatch;
mod support;
mod thread_index_overflow;
mod truncated_ceil_division;
mod unchecked_cuda_call;
mod unchecked_kernel_launch;
mod unguarded_thread_index;
mod uninitialized_device_pointer;
mod uninitialized_device_read;
mod unused_suppression;
mod use_after_free;
mod warp_synchronous_without_sync;

pub use unused_suppression::UNUSED_SUPPRESSION;

/// Every lint, in the order `cudalint rule` lists them.
pub static ALL: &[&Lint] = &[
    &unguarded_thread_index::UNGUARDED_THREAD_INDEX,
    &out_of_range_access::OUT_OF_RANGE_ACCESS,
    &divergent_barrier::DIVERGENT_BARRIER,
    &shared_memory_race::SHARED_MEMORY_RACE,
    &warp_synchronous_without_sync::WARP_SYNCHRONOUS_WITHOUT_SYNC,
    &partial_warp_shuffle::PARTIAL_WARP_SHUFFLE,
    &legacy_warp_intrinsic::LEGACY_WARP_INTRINSIC,
    &thread_index_overflow::THREAD_INDEX_OVERFLOW,
    &alloc_smaller_than_copy::ALLOC_SMALLER_THAN_COPY,
    &uninitialized_device_read::UNINITIALIZED_DEVICE_READ,
    &uninitialized_device_pointer::UNINITIALIZED_DEVICE_POINTER,
    &host_pointer_to_kernel::HOST_POINTER_TO_KERNEL,
    &memcpy_direction_mismatch::MEMCPY_DIRECTION_MISMATCH,
    &sizeof_mismatch::SIZEOF_MISMATCH,
    &device_memory_leak::DEVICE_MEMORY_LEAK,
    &use_after_free::USE_AFTER_FREE,
    &double_free::DOUBLE_FREE,
    &cross_device_pointer::CROSS_DEVICE_POINTER,
    &oversized_allocation::OVERSIZED_ALLOCATION,
    &invalid_launch_config::INVALID_LAUNCH_CONFIG,
    &truncated_ceil_division::TRUNCATED_CEIL_DIVISION,
    &unchecked_cuda_call::UNCHECKED_CUDA_CALL,
    &unchecked_kernel_launch::UNCHECKED_KERNEL_LAUNCH,
    &unused_suppression::UNUSED_SUPPRESSION,
];

pub fn find(name: &str) -> Option<&'static Lint> {
    ALL.iter().copied().find(|lint| lint.name == name)
}

/// The rules a `select`/`ignore` entry names: a rule, a category (`error-handling`) or `all`.
pub fn expand_selector(selector: &str) -> Option<Vec<&'static str>> {
    if selector == "all" {
        return Some(ALL.iter().map(|l| l.name).collect());
    }
    if let Some(lint) = find(selector) {
        return Some(vec![lint.name]);
    }
    let category = crate::lint::Category::parse(selector)?;
    Some(
        ALL.iter()
            .filter(|l| l.category == category)
            .map(|l| l.name)
            .collect(),
    )
}

/// ` (did you mean `x`?)` for the rule or category nearest to a misspelt one, or nothing.
pub fn did_you_mean(selector: &str) -> String {
    let candidates = ALL
        .iter()
        .map(|l| l.name)
        .chain(crate::lint::Category::ALL.iter().map(|c| c.as_str()));
    crate::config::suggestion(selector, candidates)
}
