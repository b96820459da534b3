//! The `verify-worker` process: keeps one CUDA context, compiles each experiment with NVRTC, runs
//! it through the driver API and reads the instrumentation's report back. A fault poisons the
//! context, so the worker answers `Fault` and exits; its parent starts a fresh one.

use super::compile::Compiler;
use super::protocol::{
    Argument, BarrierDivergence, ConfigResult, Experiment, Fill, LaunchConfig, ReplayStep, Request,
    Response, SiteViolation, StepResult,
};
use cudarc::driver::{result, sys, CudaContext, CudaModule};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

/// Words of the report buffer before the per-site records (`CL_SCRATCH_WORDS` in the prelude).
pub const SCRATCH_WORDS: usize = 128;
/// Words per site record (`CL_SITE_WORDS`).
pub const SITE_WORDS: usize = 13;
/// Blocks whose barrier arrivals are counted (`CL_BARRIER_BLOCKS`).
pub const BARRIER_BLOCKS: usize = 4096;
pub const TEST_MODES_VARIABLE: &str = "CUDALINT_WORKER_TEST_MODES";

struct Device {
    context: Arc<CudaContext>,
    compiler: Compiler,
    /// Modules already built, by their source's digest: a file's kernels share one program, and
    /// each of its experiments names the same source.
    modules: HashMap<[u8; 32], Arc<CudaModule>>,
}

/// Runs the worker loop on stdin/stdout until stdin closes.
pub fn serve() -> i32 {
    let test_modes = std::env::var(TEST_MODES_VARIABLE).is_ok_and(|v| v == "1");
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut device: Option<Result<Device, String>> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let (response, exit_after) = match serde_json::from_str::<Request>(&line) {
            Err(e) => (
                Response::Error {
                    message: format!("malformed request: {e}"),
                },
                false,
            ),
            Ok(Request::Ping) => (Response::Pong, false),
            Ok(Request::TestHang) if test_modes => loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            },
            Ok(Request::TestCrash) if test_modes => std::process::abort(),
            Ok(Request::TestHang | Request::TestCrash) => (
                Response::Error {
                    message: "test modes are disabled".into(),
                },
                false,
            ),
            Ok(Request::Hello) => {
                let started = Instant::now();
                let ready = device.get_or_insert_with(open_device);
                match ready {
                    Ok(d) => {
                        let name = d.context.name().unwrap_or_else(|_| "unknown device".into());
                        let (major, minor) = d.context.compute_capability().unwrap_or((0, 0));
                        let driver_version = driver_version();
                        let context_ms = started.elapsed().as_secs_f64() * 1e3;
                        (
                            Response::Hello {
                                device: name,
                                compute_capability: [major, minor],
                                driver_version,
                                context_ms,
                                compiler: d.compiler.describe(),
                            },
                            false,
                        )
                    }
                    Err(reason) => (
                        Response::Unavailable {
                            reason: reason.clone(),
                        },
                        false,
                    ),
                }
            }
            Ok(Request::Replay { steps }) => match device.get_or_insert_with(open_device) {
                Err(reason) => (
                    Response::Unavailable {
                        reason: reason.clone(),
                    },
                    false,
                ),
                Ok(_) => (replay(&steps), false),
            },
            Ok(Request::Run { experiment }) => match device.get_or_insert_with(open_device) {
                Err(reason) => (
                    Response::Unavailable {
                        reason: reason.clone(),
                    },
                    false,
                ),
                Ok(d) => {
                    let response = run_experiment(d, &experiment);
                    let fatal = matches!(response, Response::Fault { .. });
                    (response, fatal)
                }
            },
        };
        let Ok(text) = serde_json::to_string(&response) else {
            return 2;
        };
        if writeln!(stdout, "{text}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            return 2;
        }
        if exit_after {
            return 3;
        }
    }
    0
}

fn open_device() -> Result<Device, String> {
    // SAFETY: probing for the shared libraries only loads them.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("no CUDA driver (libcuda could not be loaded)".into());
    }
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err("no NVRTC (libnvrtc could not be loaded; add the CUDA toolkit's lib64 to LD_LIBRARY_PATH)".into());
    }
    let context = std::panic::catch_unwind(|| CudaContext::new(0))
        .map_err(|_| "the CUDA driver could not be initialised".to_string())?
        .map_err(|e| format!("no usable CUDA device ({e:?})"))?;
    let (major, minor) = context
        .compute_capability()
        .map_err(|e| format!("cannot read the compute capability ({e:?})"))?;
    let mut include_paths = Vec::new();
    for variable in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(root) = std::env::var_os(variable) {
            include_paths.push(std::path::Path::new(&root).join("include"));
        }
    }
    include_paths.push("/usr/local/cuda/include".into());
    // CUDA 13 keeps libcu++ (which cooperative_groups.h includes) under include/cccl.
    // Each directory once, however it is spelled: CUDA_HOME usually names /usr/local/cuda or
    // the directory that symlink points to.
    let mut canonical: Vec<std::path::PathBuf> = Vec::new();
    for path in include_paths
        .into_iter()
        .filter(|p| p.join("cooperative_groups.h").exists())
        .flat_map(|p| [p.join("cccl"), p])
        .filter_map(|p| p.canonicalize().ok())
    {
        if !canonical.contains(&path) {
            canonical.push(path);
        }
    }
    let include_paths: Vec<String> = canonical
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    Ok(Device {
        compiler: Compiler::new(&format!("sm_{major}{minor}"), &include_paths),
        context,
        modules: HashMap::new(),
    })
}

fn driver_version() -> i32 {
    let mut version = 0;
    // SAFETY: writes one int; the driver library is loaded (the device opened).
    let status = unsafe { sys::cuDriverGetVersion(&mut version) };
    if status == sys::CUresult::CUDA_SUCCESS {
        version
    } else {
        0
    }
}

/// Whether the kernel waits for the whole grid (`cg::this_grid().sync()`, `grid.sync()` on a
/// grid group): only a cooperative launch keeps every block resident for that, and an ordinary
/// one faults at the wait.
fn synchronizes_its_grid(source: &str) -> bool {
    source.contains("this_grid") && source.contains(".sync()")
}

fn milliseconds_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn run_experiment(device: &mut Device, experiment: &Experiment) -> Response {
    let compile_start = Instant::now();
    let mut hasher = Sha256::new();
    hasher.update(experiment.source.as_bytes());
    for option in &experiment.options {
        hasher.update([0u8]);
        hasher.update(option.as_bytes());
    }
    let digest: [u8; 32] = hasher.finalize().into();
    let (module, compile_ms, load_ms, reused) = match device.modules.get(&digest) {
        Some(module) => (module.clone(), 0.0, 0.0, true),
        None => {
            let compiler = &device.compiler;
            let compiled = match std::panic::catch_unwind(|| {
                compiler.compile(&experiment.source, &experiment.options)
            }) {
                Err(_) => {
                    return Response::CompileError {
                        log: "NVRTC could not be called".into(),
                    }
                }
                Ok(Err(log)) => return Response::CompileError { log },
                Ok(Ok(compiled)) => compiled,
            };
            let compile_ms = milliseconds_since(compile_start);
            let load_start = Instant::now();
            let ptx = cudarc::nvrtc::Ptx::from_binary(compiled);
            let module: Arc<CudaModule> = match device.context.load_module(ptx) {
                Ok(module) => module,
                Err(e) => {
                    return Response::Error {
                        message: format!("module load failed: {e:?}"),
                    }
                }
            };
            device.modules.insert(digest, module.clone());
            let load_ms = milliseconds_since(load_start);
            (module, compile_ms, load_ms, false)
        }
    };
    let function = match module.load_function(&experiment.kernel) {
        Ok(function) => function,
        Err(e) => {
            return Response::Error {
                message: format!(
                    "kernel `{}` not found in the module: {e:?}",
                    experiment.kernel
                ),
            }
        }
    };
    let mut results = Vec::new();
    let cooperative = synchronizes_its_grid(&experiment.source);
    for config in &experiment.configs {
        match launch(
            function.cu_function(),
            config,
            experiment.sites,
            experiment.barriers,
            cooperative,
        ) {
            Ok(result) => results.push(result),
            Err(LaunchFailure::Fatal(message)) => {
                return Response::Fault {
                    message,
                    compile_ms,
                    load_ms,
                }
            }
            Err(LaunchFailure::Recoverable(message)) => results.push(ConfigResult {
                run_ms: 0.0,
                violations: Vec::new(),
                error: Some(message),
                footprint: Vec::new(),
                barriers: Vec::new(),
            }),
        }
    }
    Response::Ran {
        compile_ms,
        load_ms,
        results,
        reused,
    }
}

enum LaunchFailure {
    /// The context is poisoned.
    Fatal(String),
    Recoverable(String),
}

/// Errors after which the context is unusable.
const STICKY_ERRORS: &[&str] = &[
    "ILLEGAL_ADDRESS",
    "LAUNCH_FAILED",
    "MISALIGNED_ADDRESS",
    "HARDWARE_STACK_ERROR",
    "ILLEGAL_INSTRUCTION",
    "INVALID_PC",
    "LAUNCH_TIMEOUT",
    "ASSERT",
    "INVALID_ADDRESS_SPACE",
];

fn classify(error: result::DriverError) -> LaunchFailure {
    let message = format!("{error:?}");
    if STICKY_ERRORS.iter().any(|name| message.contains(name)) {
        LaunchFailure::Fatal(message)
    } else {
        LaunchFailure::Recoverable(message)
    }
}

/// Device allocations freed when the launch is done, whatever happened.
struct Allocations(Vec<sys::CUdeviceptr>);

impl Drop for Allocations {
    fn drop(&mut self) {
        for pointer in self.0.drain(..) {
            // SAFETY: each pointer came from malloc_sync and is freed once.
            let _ = unsafe { result::free_sync(pointer) };
        }
    }
}

fn allocate(
    allocations: &mut Allocations,
    bytes: usize,
) -> Result<sys::CUdeviceptr, LaunchFailure> {
    // SAFETY: a plain device allocation of at least one byte.
    let pointer = unsafe { result::malloc_sync(bytes.max(1)) }.map_err(classify)?;
    allocations.0.push(pointer);
    Ok(pointer)
}

/// A device buffer of `bytes` bytes holding random non-zero data of the buffer's element type.
fn upload_filled(
    allocations: &mut Allocations,
    bytes: u64,
    fill: Fill,
    random: &mut XorShift,
) -> Result<(sys::CUdeviceptr, usize), LaunchFailure> {
    let bytes = usize::try_from(bytes)
        .map_err(|_| LaunchFailure::Recoverable("buffer too large".into()))?;
    let pointer = allocate(allocations, bytes)?;
    // Buffers reach hundreds of megabytes: random data is made on the host for one period and
    // repeated on the device, copy by copy, each doubling the filled prefix.
    let period = bytes.min(FILL_PERIOD_BYTES);
    let contents = fill_bytes(fill, period, random);
    // SAFETY: the allocation holds at least `bytes` >= `period` bytes.
    unsafe { result::memcpy_htod_sync(pointer, &contents) }.map_err(classify)?;
    let mut filled = period;
    while filled < bytes {
        let count = filled.min(bytes - filled);
        // SAFETY: source `[0, count)` and destination `[filled, filled + count)` lie inside the
        // allocation and do not overlap (`count <= filled`).
        unsafe { result::memcpy_dtod_sync(pointer + filled as u64, pointer, count) }
            .map_err(classify)?;
        filled += count;
    }
    Ok((pointer, bytes))
}

/// The length of the random pattern a buffer repeats: a multiple of every filled element size
/// (1, 2, 4 and 8 bytes), and longer than a block's reach, so neighbouring threads still read
/// different values.
const FILL_PERIOD_BYTES: usize = 64 << 10;

/// A small deterministic generator: experiments repeat exactly.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn fill_bytes(fill: Fill, bytes: usize, random: &mut XorShift) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes);
    while out.len() < bytes {
        match fill {
            Fill::F32 => out.extend_from_slice(&((0.5 + random.unit()) as f32).to_le_bytes()),
            Fill::F64 => out.extend_from_slice(&(0.5 + random.unit()).to_le_bytes()),
            Fill::Int1 => out.push(1 + (random.next() % 8) as u8),
            Fill::Int2 => out.extend_from_slice(&(1 + (random.next() % 8) as u16).to_le_bytes()),
            Fill::Int4 => out.extend_from_slice(&(1 + (random.next() % 8) as u32).to_le_bytes()),
            Fill::Int8 => out.extend_from_slice(&(1 + random.next() % 8).to_le_bytes()),
            Fill::Bytes => out.push(1 + (random.next() % 255) as u8),
            Fill::Spanning { bytes, limit } => {
                let value = random.next() % limit.max(1);
                let width = usize::from(bytes).clamp(1, 8);
                out.extend_from_slice(&value.to_le_bytes()[..width]);
            }
        }
    }
    out.truncate(bytes);
    out
}

fn launch(
    function: sys::CUfunction,
    config: &LaunchConfig,
    sites: usize,
    barriers: usize,
    cooperative: bool,
) -> Result<ConfigResult, LaunchFailure> {
    let start = Instant::now();
    let mut allocations = Allocations(Vec::new());
    let mut random = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut values: Vec<Vec<u8>> = Vec::new();
    let mut extra: Vec<Vec<u8>> = Vec::new();
    for argument in &config.arguments {
        match *argument {
            Argument::Buffer {
                bytes,
                fill,
                initialized,
            } => {
                let (pointer, bytes) = upload_filled(&mut allocations, bytes, fill, &mut random)?;
                values.push(pointer.to_le_bytes().to_vec());
                extra.push((bytes as u64).to_le_bytes().to_vec());
                let bitmap: u64 = if initialized {
                    0
                } else {
                    // One bit per byte covers every element type; all clear: nothing written yet.
                    let words = bytes.div_ceil(32).max(1);
                    let bitmap = allocate(&mut allocations, words * 4)?;
                    // SAFETY: the bitmap allocation holds `words * 4` bytes.
                    unsafe { result::memset_d8_sync(bitmap, 0, words * 4) }.map_err(classify)?;
                    bitmap
                };
                extra.push(bitmap.to_le_bytes().to_vec());
            }
            Argument::PartlyInitialized {
                bytes,
                fill,
                initialized_elements,
            } => {
                let (pointer, bytes) = upload_filled(&mut allocations, bytes, fill, &mut random)?;
                values.push(pointer.to_le_bytes().to_vec());
                extra.push((bytes as u64).to_le_bytes().to_vec());
                let words = bytes.div_ceil(32).max(1);
                let set = usize::try_from(initialized_elements)
                    .unwrap_or(usize::MAX)
                    .min(words * 32);
                let bitmap = allocate(&mut allocations, words * 4)?;
                let full_words = set / 32;
                // SAFETY: both ranges lie inside the bitmap's `words * 4` bytes.
                unsafe { result::memset_d8_sync(bitmap, 0, words * 4) }.map_err(classify)?;
                if full_words > 0 {
                    // SAFETY: `full_words <= words`.
                    unsafe { result::memset_d8_sync(bitmap, 0xFF, full_words * 4) }
                        .map_err(classify)?;
                }
                if set % 32 != 0 {
                    let partial = [(1u32 << (set % 32)) - 1];
                    // SAFETY: `set % 32 != 0` puts word `full_words` inside the bitmap.
                    unsafe { result::memcpy_htod_sync(bitmap + (full_words * 4) as u64, &partial) }
                        .map_err(classify)?;
                }
                extra.push(bitmap.to_le_bytes().to_vec());
            }
            Argument::Dangling { bytes, freed } => {
                let pointer = if freed {
                    let size = usize::try_from(bytes)
                        .map_err(|_| LaunchFailure::Recoverable("buffer too large".into()))?;
                    // SAFETY: allocated and freed at once; only its (now dangling) address is kept.
                    let pointer = unsafe { result::malloc_sync(size.max(1)) }.map_err(classify)?;
                    unsafe { result::free_sync(pointer) }.map_err(classify)?;
                    pointer
                } else {
                    UNALLOCATED_ADDRESS
                };
                values.push(pointer.to_le_bytes().to_vec());
                // A freed buffer has no live element: the instrumentation records (and redirects)
                // every access through it, as memcheck's allocation tracking would report it. The
                // freed range often stays mapped, so an unchecked access need not fault.
                let extent = if freed { 0 } else { bytes };
                extra.push(extent.to_le_bytes().to_vec());
                extra.push(0u64.to_le_bytes().to_vec());
            }
            Argument::I8 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::I16 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::I32 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::I64 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::F32 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::F64 { value } => values.push(value.to_le_bytes().to_vec()),
            Argument::Bytes { ref value } => values.push(value.clone()),
        }
    }
    let report_words = SCRATCH_WORDS + sites * SITE_WORDS + barriers * BARRIER_BLOCKS;
    let report = allocate(&mut allocations, report_words * 8)?;
    // SAFETY: the report allocation holds `report_words * 8` bytes.
    unsafe { result::memset_d8_sync(report, 0, report_words * 8) }.map_err(classify)?;
    values.append(&mut extra);
    values.push(report.to_le_bytes().to_vec());
    let mut parameters: Vec<*mut std::ffi::c_void> =
        values.iter_mut().map(|v| v.as_mut_ptr().cast()).collect();
    let grid = (config.grid[0], config.grid[1], config.grid[2]);
    let block = (config.block[0], config.block[1], config.block[2]);
    // SAFETY: `parameters` points at one value per kernel parameter, laid out as the kernel's
    // (instrumented) signature expects; the values outlive the synchronous launch below.
    unsafe {
        if cooperative {
            result::launch_cooperative_kernel(
                function,
                grid,
                block,
                config.shared_bytes,
                std::ptr::null_mut(),
                &mut parameters,
            )
        } else {
            result::launch_kernel(
                function,
                grid,
                block,
                config.shared_bytes,
                std::ptr::null_mut(),
                &mut parameters,
            )
        }
    }
    .map_err(classify)?;
    result::ctx::synchronize().map_err(classify)?;
    let mut words = vec![0u64; report_words];
    // SAFETY: `words` has exactly the report's size.
    unsafe { result::memcpy_dtoh_sync(&mut words, report) }.map_err(classify)?;
    drop(allocations);
    let mut violations = Vec::new();
    let mut footprint = Vec::with_capacity(sites);
    for site in 0..sites {
        let Some(record) =
            words.get(SCRATCH_WORDS + site * SITE_WORDS..SCRATCH_WORDS + (site + 1) * SITE_WORDS)
        else {
            break;
        };
        footprint.push(record[12]);
        if record[0] == 0 {
            continue;
        }
        violations.push(SiteViolation {
            site,
            count: record[0],
            index: record[2] as i64,
            kind: record[3] as u32,
            thread: [record[4] as u32, record[5] as u32, record[6] as u32],
            block: [record[7] as u32, record[8] as u32, record[9] as u32],
            extent: record[10],
            cause: record[11] as u32,
        });
    }
    let barriers = barrier_divergences(&words, sites, barriers, config.grid, config.block);
    Ok(ConfigResult {
        run_ms: milliseconds_since(start),
        violations,
        error: None,
        footprint,
        barriers,
    })
}

/// The blocks whose arrival counts at a barrier are not a whole number of rounds of the block.
pub fn barrier_divergences(
    words: &[u64],
    sites: usize,
    barriers: usize,
    grid: [u32; 3],
    block: [u32; 3],
) -> Vec<BarrierDivergence> {
    let threads = u64::from(block[0]) * u64::from(block[1]) * u64::from(block[2]);
    let blocks = (u64::from(grid[0]) * u64::from(grid[1]) * u64::from(grid[2]))
        .min(BARRIER_BLOCKS as u64) as usize;
    let base = SCRATCH_WORDS + sites * SITE_WORDS;
    let mut out = Vec::new();
    if threads == 0 {
        return out;
    }
    for barrier in 0..barriers {
        let start = base + barrier * BARRIER_BLOCKS;
        let Some(counts) = words.get(start..start + blocks) else {
            break;
        };
        let mut first: Option<BarrierDivergence> = None;
        let mut diverged = 0;
        for (linear, arrived) in counts.iter().enumerate() {
            if arrived % threads == 0 {
                continue;
            }
            diverged += 1;
            if first.is_none() {
                let linear = linear as u64;
                let (gx, gy) = (u64::from(grid[0].max(1)), u64::from(grid[1].max(1)));
                first = Some(BarrierDivergence {
                    barrier,
                    block: [
                        (linear % gx) as u32,
                        (linear / gx % gy) as u32,
                        (linear / (gx * gy)) as u32,
                    ],
                    arrived: *arrived,
                    expected: arrived.div_ceil(threads) * threads,
                    blocks: 0,
                });
            }
        }
        if let Some(mut found) = first {
            found.blocks = diverged;
            out.push(found);
        }
    }
    out
}

/// An address no allocation of this worker ever holds: what an uninitialized pointer is replayed as.
pub const UNALLOCATED_ADDRESS: u64 = 0x0000_dead_0000_0000;

/// Runs a host sequence through the driver API. Only the sequence runs, never the user's host code.
fn replay(steps: &[ReplayStep]) -> Response {
    let start = Instant::now();
    let mut buffers: std::collections::BTreeMap<usize, sys::CUdeviceptr> = Default::default();
    let mut live = Allocations(Vec::new());
    let mut results = Vec::new();
    for step in steps {
        let outcome = replay_step(step, &mut buffers, &mut live);
        let failed = outcome.is_err();
        results.push(StepResult {
            error: outcome.err(),
        });
        if failed {
            break;
        }
    }
    drop(live);
    Response::Replayed {
        results,
        run_ms: milliseconds_since(start),
    }
}

fn replay_step(
    step: &ReplayStep,
    buffers: &mut std::collections::BTreeMap<usize, sys::CUdeviceptr>,
    live: &mut Allocations,
) -> Result<(), String> {
    let size = |bytes: u64| usize::try_from(bytes).map_err(|_| "byte count too large".to_string());
    let buffer = |id: usize| {
        buffers
            .get(&id)
            .copied()
            .ok_or_else(|| format!("buffer {id} was never allocated"))
    };
    let driver = |e: result::DriverError| format!("{e:?}");
    match *step {
        ReplayStep::Allocate { buffer: id, bytes } => {
            // SAFETY: a plain device allocation, freed by `live` or by a Free step.
            let pointer = unsafe { result::malloc_sync(size(bytes)?.max(1)) }.map_err(driver)?;
            live.0.push(pointer);
            buffers.insert(id, pointer);
        }
        ReplayStep::CopyToDevice { buffer: id, bytes } => {
            let host = vec![1u8; size(bytes)?];
            // SAFETY: the driver checks the device range against the allocation; the host side
            // holds exactly `bytes`.
            unsafe { result::memcpy_htod_sync(buffer(id)?, &host) }.map_err(driver)?;
        }
        ReplayStep::CopyFromDevice { buffer: id, bytes } => {
            let mut host = vec![0u8; size(bytes)?];
            // SAFETY: as above, the host side holds exactly `bytes`.
            unsafe { result::memcpy_dtoh_sync(&mut host, buffer(id)?) }.map_err(driver)?;
        }
        ReplayStep::Memset { buffer: id, bytes } => {
            // SAFETY: the driver checks the range against the allocation.
            unsafe { result::memset_d8_sync(buffer(id)?, 1, size(bytes)?) }.map_err(driver)?;
        }
        ReplayStep::Free { buffer: id } => {
            let pointer = buffer(id)?;
            live.0.retain(|p| *p != pointer);
            // SAFETY: freed once; the stale address stays in `buffers` for the steps that follow,
            // as it does in the replayed program.
            unsafe { result::free_sync(pointer) }.map_err(driver)?;
        }
        ReplayStep::CopyToUnallocated { bytes } => {
            let host = vec![1u8; size(bytes)?];
            // SAFETY: the driver validates the destination range, which no allocation holds.
            unsafe { result::memcpy_htod_sync(UNALLOCATED_ADDRESS, &host) }.map_err(driver)?;
        }
        ReplayStep::CopyFromUnallocated { bytes } => {
            let mut host = vec![0u8; size(bytes)?];
            // SAFETY: the driver validates the source range, which no allocation holds.
            unsafe { result::memcpy_dtoh_sync(&mut host, UNALLOCATED_ADDRESS) }.map_err(driver)?;
        }
        ReplayStep::FreeUnallocated => {
            // SAFETY: the driver looks the address up among its allocations, which hold none there.
            unsafe { result::free_sync(UNALLOCATED_ADDRESS) }.map_err(driver)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::synchronizes_its_grid;

    #[test]
    fn a_kernel_waiting_for_its_grid_is_launched_cooperatively() {
        assert!(synchronizes_its_grid(
            "cg::grid_group grid = cg::this_grid(); out[grid.thread_rank()] = 1; grid.sync();"
        ));
        assert!(synchronizes_its_grid(
            "cooperative_groups::this_grid().sync();"
        ));
        // a block's barrier, or a grid group read only for its rank, needs no cooperative launch
        assert!(!synchronizes_its_grid("cg::this_thread_block().sync();"));
        assert!(!synchronizes_its_grid(
            "out[cg::this_grid().thread_rank()] = 1;"
        ));
    }
}
