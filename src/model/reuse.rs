//! What an earlier lint lets the model leave out (`Reuse`), and the two plain answers: analyse
//! everything, or only what a file offers the others (a header read for the project index).
//! Kept apart from the build so the language server's contract reads on its own.

use super::*;

/// What an earlier lint of the same text lets the model leave out. The language server keeps the
/// findings of each function between edits: a function whose text and context are unchanged needs
/// no facts, except what other functions' findings read of it (a kernel's summary).
pub trait Reuse<'t> {
    /// Whether kernel `index` (into `model.functions`) is covered, with what the model keeps of it.
    fn kernel(&mut self, model: &Model<'t>, index: usize) -> Option<ReusedKernel>;
    /// Whether host function `index` is covered; `model.host.kernels` is complete by then.
    fn host_function(&mut self, model: &Model<'t>, index: usize) -> bool;
    /// Host function `index` was analysed, reading the file's functions named `depends_on`.
    fn host_function_built(&mut self, index: usize, depends_on: &[String]);
    /// The file-wide facts host functions read beyond their own text and the functions they call
    /// (the file's type aliases, function-like macros and buffers kept in members), as a hash;
    /// told before any host function is asked for. When it changes, no host function is covered.
    fn host_context(&mut self, _digest: u64) {}
    /// The launch sites kept from an earlier lint, reused for the functions whose launches read
    /// nothing that changed (`launch::LaunchCache`); None: every function's are read.
    fn launches(&mut self) -> Option<&mut launch::LaunchCache> {
        None
    }
    /// Whether functions are kept from an earlier lint (then `kept` is asked).
    fn keeps_functions(&self) -> bool {
        false
    }
    /// Whether function `index` is kept from an earlier lint, so that it is likely covered:
    /// the model then builds the tree table of the other functions only.
    fn kept(&mut self, _model: &Model<'t>, _index: usize) -> bool {
        false
    }
    /// The summary of device function `index` from an earlier lint, when what it read of the
    /// summaries made before it (`known`, the names it calls) is as it was.
    fn device_function(
        &mut self,
        _model: &Model<'t>,
        _index: usize,
        _known: &helpers::DeviceFunctions,
    ) -> Option<helpers::HelperSummary> {
        None
    }
    /// Device function `index` was summarised, reading the names `calls` of `known`.
    fn device_function_built(
        &mut self,
        _model: &Model<'t>,
        _index: usize,
        _summary: &helpers::HelperSummary,
        _calls: &[String],
        _known: &helpers::DeviceFunctions,
    ) {
    }
}

/// What the model keeps of a kernel whose facts are not built.
pub struct ReusedKernel {
    pub summary: host::KernelSummary,
    /// Its skipped regions, at the kernel's current position.
    pub skipped: Vec<Range<usize>>,
}

/// What a file offers the others needs no kernel or host facts: a header read for the project
/// index analyses only its device functions.
pub struct OffersOnly;

impl<'t> Reuse<'t> for OffersOnly {
    fn kernel(&mut self, model: &Model<'t>, index: usize) -> Option<ReusedKernel> {
        Some(ReusedKernel {
            summary: host::KernelSummary {
                name: model.functions.get(index)?.name.clone(),
                parameters: Vec::new(),
            },
            skipped: Vec::new(),
        })
    }
    fn host_function(&mut self, _: &Model<'t>, _: usize) -> bool {
        true
    }
    fn host_function_built(&mut self, _: usize, _: &[String]) {}
}

/// Nothing to reuse: every function is analysed.
pub struct AnalyseAll;

impl<'t> Reuse<'t> for AnalyseAll {
    fn kernel(&mut self, _: &Model<'t>, _: usize) -> Option<ReusedKernel> {
        None
    }
    fn host_function(&mut self, _: &Model<'t>, _: usize) -> bool {
        false
    }
    fn host_function_built(&mut self, _: usize, _: &[String]) {}
}
