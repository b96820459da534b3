//! The line-delimited JSON spoken between `cudalint check --verify` and its `verify-worker` child:
//! one request per line on the worker's stdin, one response per line on its stdout.

use serde::{Deserialize, Serialize};

/// How a buffer is filled before a launch: random, never zero, in the element's own type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fill {
    /// Floats in [0.5, 1.5).
    F32,
    F64,
    /// Integers in [1, 8] of this many bytes (small, so data used as an index stays near zero).
    Int1,
    Int2,
    Int4,
    Int8,
    /// Bytes in [1, 255] (unknown element type).
    Bytes,
    /// Integers of `bytes` bytes in [0, limit): data the kernel reads as an index into another
    /// buffer of `limit` elements, spread over all of it.
    Spanning {
        bytes: u8,
        limit: u64,
    },
}

/// One kernel argument. After the kernel's own arguments the worker appends, for each `Buffer` in
/// order, its size in bytes (u64) and its "initialized" bitmap (null when initialized), then the
/// report buffer: the parameters the instrumentation added.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Argument {
    Buffer {
        bytes: u64,
        fill: Fill,
        initialized: bool,
    },
    I8 {
        value: i8,
    },
    I16 {
        value: i16,
    },
    I32 {
        value: i32,
    },
    I64 {
        value: i64,
    },
    F32 {
        value: f32,
    },
    F64 {
        value: f64,
    },
    /// A struct passed by value, as its bytes.
    Bytes {
        value: Vec<u8>,
    },
    /// A buffer of which only the first `initialized_elements` elements were written by the host
    /// before the launch: the bitmap starts with those bits set and the rest clear.
    PartlyInitialized {
        bytes: u64,
        fill: Fill,
        initialized_elements: u64,
    },
    /// A pointer that names no live allocation: one that was allocated with `bytes` and freed
    /// (`freed`), or a never-allocated address (an uninitialized pointer). The instrumentation
    /// sees `bytes` as its extent, so every access goes through to the dangling address.
    Dangling {
        bytes: u64,
        freed: bool,
    },
}

/// One step of a host-side replay: the allocation, copy and free sequence of the host model, with
/// concrete byte counts. Buffers are numbered in the order of their `Allocate` steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "step")]
pub enum ReplayStep {
    Allocate {
        buffer: usize,
        bytes: u64,
    },
    /// cuMemcpyHtoD of `bytes` into the buffer.
    CopyToDevice {
        buffer: usize,
        bytes: u64,
    },
    /// cuMemcpyDtoH of `bytes` out of the buffer.
    CopyFromDevice {
        buffer: usize,
        bytes: u64,
    },
    /// cuMemsetD8 of `bytes`.
    Memset {
        buffer: usize,
        bytes: u64,
    },
    Free {
        buffer: usize,
    },
    /// cuMemcpyHtoD of `bytes` to an address that was never allocated (an uninitialized pointer).
    CopyToUnallocated {
        bytes: u64,
    },
    /// cuMemcpyDtoH of `bytes` from an address that was never allocated.
    CopyFromUnallocated {
        bytes: u64,
    },
    /// cuMemFree of an address that was never allocated.
    FreeUnallocated,
}

/// What one replay step did: `None` when the driver accepted it, else the driver's error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepResult {
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    pub arguments: Vec<Argument>,
    /// How the configuration was chosen, for the report (`as launched at line 42`, `n = 1000`).
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    /// The instrumented, self-contained source.
    pub source: String,
    /// The unmangled (`extern "C"`) kernel name.
    pub kernel: String,
    pub sites: usize,
    pub configs: Vec<LaunchConfig>,
    /// Block-wide barriers counted by `cl_arrive`, numbered in the order of the kernel's text.
    #[serde(default)]
    pub barriers: usize,
    /// Compiler options from the file's build context (`-std=c++14`).
    #[serde(default)]
    pub options: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "op")]
pub enum Request {
    /// Answered without touching CUDA.
    Ping,
    /// Create the CUDA context (once per worker) and describe the device.
    Hello,
    Run {
        experiment: Experiment,
    },
    /// Replays a host sequence through the driver API; stops at the first failing step.
    Replay {
        steps: Vec<ReplayStep>,
    },
    /// Test modes, honoured only when the worker runs with CUDALINT_WORKER_TEST_MODES=1.
    TestHang,
    TestCrash,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteViolation {
    pub site: usize,
    pub count: u64,
    pub index: i64,
    /// 1 read, 2 write, 3 read and write.
    pub kind: u32,
    pub thread: [u32; 3],
    pub block: [u32; 3],
    pub extent: u64,
    /// 1 out of bounds, 2 read of an uninitialized element.
    pub cause: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigResult {
    pub run_ms: f64,
    pub violations: Vec<SiteViolation>,
    /// A launch error that left the context usable (an invalid configuration, say).
    pub error: Option<String>,
    /// Per site: one past the largest byte an in-bounds access reached (zero when none ran).
    #[serde(default)]
    pub footprint: Vec<u64>,
    /// Per barrier whose arrivals did not match a block: the first such block.
    #[serde(default)]
    pub barriers: Vec<BarrierDivergence>,
}

/// A block where some threads reached barrier `barrier` and others did not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierDivergence {
    pub barrier: usize,
    pub block: [u32; 3],
    /// Arrivals of the block's threads at the barrier.
    pub arrived: u64,
    /// What every thread of the block arriving as often as the most frequent one would give:
    /// the block's size times the rounds.
    pub expected: u64,
    /// How many of the counted blocks diverged.
    pub blocks: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "reply")]
pub enum Response {
    Pong,
    Hello {
        device: String,
        compute_capability: [i32; 2],
        driver_version: i32,
        context_ms: f64,
        /// NVRTC's version, the target and the include paths, for the report.
        #[serde(default)]
        compiler: String,
    },
    /// CUDA cannot be used at all (no driver, no device, no NVRTC): nothing will verify.
    Unavailable {
        reason: String,
    },
    Ran {
        compile_ms: f64,
        load_ms: f64,
        results: Vec<ConfigResult>,
        /// The module was built for an earlier experiment with the same source (compile_ms and
        /// load_ms are then zero).
        #[serde(default)]
        reused: bool,
    },
    CompileError {
        log: String,
    },
    /// One result per step run; the last one holds the error when a step failed.
    Replayed {
        results: Vec<StepResult>,
        run_ms: f64,
    },
    /// The kernel faulted and the context is poisoned: the worker exits after this reply.
    Fault {
        message: String,
        compile_ms: f64,
        load_ms: f64,
    },
    /// A request the worker could not act on (malformed line, unknown kernel).
    Error {
        message: String,
    },
}
