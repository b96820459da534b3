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
/// so they measure what ships). The model makes many small, short-lived allocations per file;
/// the system allocator spent about a seventh of the linting time in them (docs/performance.md).
/// tree-sitter allocates through the C library either way.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
