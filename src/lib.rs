//! cudalint: a static analyzer for CUDA sources.
//!
//! Flow: files → preprocessing view → tree-sitter parse → semantic model → lints → renderers.

pub mod baseline;
pub mod cache;
pub mod config;
pub mod diagnostic;
pub mod engine;
pub mod fingerprint;
pub mod fix;
pub mod incremental;
pub mod lint;
#[path = "../lints/mod.rs"]
pub mod lints;
pub mod lsp;
pub mod model;
pub mod parse_stats;
pub mod progress;
pub mod render;
pub mod show;
pub mod source;
pub mod syntax;
pub mod testing;
pub mod verify;
pub mod walk;

/// The allocator of every binary built on this library (the command, its tests and benchmarks,
/// so they measure what ships). The model makes many small, short-lived allocations per file,
/// which the system allocator served slowly (docs/performance.md). tree-sitter allocates through
/// the C library either way.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in the mimalloc that Cargo.lock pins (the enum of its `mimalloc.h`; a
/// test checks the defaults of `src/options.c` around it).
const MIMALLOC_PURGE_DELAY: std::ffi::c_int = 15;

extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    #[cfg(test)]
    fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
}

/// Keeps the memory the allocator has freed for the next file instead of handing it back to the
/// system a second later: each file's model is freed before the next one is built, so every file
/// faulted fresh pages in again (a twelfth of the run). The peak stays what one file per thread
/// needs. Called first thing by the binaries.
pub fn keep_freed_memory() {
    // SAFETY: setting an option is safe at any time; -1 is the documented "never purge".
    unsafe { mi_option_set(MIMALLOC_PURGE_DELAY, -1) }
}

#[cfg(test)]
mod allocator_tests {
    #[test]
    fn the_purge_delay_option_is_the_one_named() {
        // SAFETY: reading an option is safe at any time.
        let get = |option| unsafe { super::mi_option_get(option) };
        // the defaults of `purge_delay` (ms) and of the `os_tag` three places on, in the table of
        // `src/options.c` (nothing in the tests changes them)
        assert_eq!(get(super::MIMALLOC_PURGE_DELAY), 1000);
        assert_eq!(get(super::MIMALLOC_PURGE_DELAY + 3), 100);
    }
}
