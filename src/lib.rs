//! cudalint: a static analyzer for CUDA sources.
//!
//! Flow: files → preprocessing view → tree-sitter parse → semantic model → lints → renderers.

pub mod config;
pub mod diagnostic;
pub mod engine;
pub mod lint;
#[path = "../lints/mod.rs"]
pub mod lints;
pub mod lsp;
pub mod model;
pub mod render;
pub mod source;
pub mod syntax;
