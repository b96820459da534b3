//! `cudalint check --verify`: every finding of a verifiable rule becomes an experiment on the GPU.
//! The flagged kernel is extracted and instrumented (`extract`), given launch parameters
//! (`params`), and run by a child worker process (`client`, `worker`) so that a fault or a hang is
//! an outcome rather than a crash of the run.

pub mod client;
pub mod compile;
pub mod context;
pub mod extract;
pub mod params;
pub mod protocol;
pub mod records;
pub mod replay;
pub mod twin;
pub mod worker;

use crate::diagnostic::{Diagnostic, Verification};
use crate::engine::RunResult;
use crate::model::{FunctionKind, Model};
use crate::source::{self, LineIndex};
use client::{WorkerClient, WorkerFailure};
use protocol::{ConfigResult, Experiment, LaunchConfig, Request, Response, SiteViolation};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Host-side rules: confirmed by replaying the host's allocations, copies and launches.
pub const HOST_RULES: &[&str] = &[
    "alloc-smaller-than-copy",
    "uninitialized-device-read",
    "uninitialized-device-pointer",
    "use-after-free",
];

pub struct VerifyOptions {
    pub timeout: Duration,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// The cost of one experiment, measured inside the worker (after context creation).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ExperimentTiming {
    pub file: String,
    pub kernel: String,
    pub compile_ms: f64,
    pub load_ms: f64,
    pub run_ms: f64,
    pub configs: usize,
    /// The guarded twin's round trip (compile and runs), zero when there is none.
    pub twin_ms: f64,
    /// Compile, load, every run and the twin: the per-kernel time after context creation.
    pub total_ms: f64,
    /// As the parent saw it, the round trip to the worker included.
    pub wall_ms: f64,
    /// The size of the program compiled: one file's kernels share one program.
    pub program_bytes: usize,
    /// The program was compiled for an earlier kernel of the same file (compile_ms is zero).
    pub reused_program: bool,
}

#[derive(Debug, Default, serde::Serialize)]
pub struct VerifySummary {
    pub device: Option<String>,
    pub compute_capability: Option<[i32; 2]>,
    pub driver_version: Option<i32>,
    pub context_ms: Option<f64>,
    pub compiler: Option<String>,
    /// Why nothing could run (no driver, no device, no NVRTC).
    pub unavailable: Option<String>,
    pub experiments: Vec<ExperimentTiming>,
    pub workers_started: usize,
    pub wall_ms: f64,
}

pub const STATIC_ONLY: &str = "static-only rule";
/// Why a host finding in HIP code is not run: its calls are replayed through CUDA's driver API.
pub const HIP_CODE: &str = "HIP";
/// Why a kernel finding in HIP code is not run: the kernel's behaviour depends on the width of a
/// wavefront, 64 lanes on most AMD GPUs and 32 on the NVIDIA GPU the experiment runs on.
pub const HIP_WAVEFRONT: &str =
    "HIP: the kernel depends on the wavefront width (64 lanes on AMD GPUs, 32 on this device)";

/// Names whose meaning changes with the wavefront width: warp-wide collectives, lane masks and
/// the width itself.
const WAVEFRONT_NAMES: &[&str] = &[
    "warpSize",
    "__shfl",
    "__ballot",
    "__any",
    "__all",
    "__activemask",
    "__lane_id",
    "__syncwarp",
    "__reduce_",
    "__match_",
    "__builtin_amdgcn",
    "wavefront",
    "WAVEFRONT",
    "__AMDGCN_WAVEFRONT_SIZE",
];

/// Whether a HIP kernel runs the same on a CUDA device: device code in HIP and CUDA is one
/// language, so a kernel is run as CUDA unless it, or a device function of the file it names,
/// reads the wavefront width.
fn runs_as_cuda(model: &Model, kernel: usize) -> bool {
    let Some(function) = model.functions.get(kernel) else {
        return false;
    };
    let body = model.text(function.body);
    let reached = model.functions.iter().filter(|f| {
        f.kind != FunctionKind::Kernel
            && f.kind != FunctionKind::Host
            && body.contains(f.name.as_str())
    });
    let texts: Vec<&str> = std::iter::once(body)
        .chain(reached.map(|f| model.text(f.body)))
        .collect();
    let reads_width = |text: &str| WAVEFRONT_NAMES.iter().any(|name| text.contains(name));
    // A macro of the file the kernel names (`#define TILE (ROCM_WAVEFRONT_SIZE * 4)`).
    let macro_reads_width = model.source.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix("#define") else {
            return false;
        };
        let rest = rest.trim_start();
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, definition) = rest.split_at(name_end);
        !name.is_empty() && reads_width(definition) && texts.iter().any(|t| t.contains(name))
    });
    !macro_reads_width && !texts.iter().any(|text| reads_width(text))
}

fn verification(status: &str, detail: impl Into<String>) -> Option<Verification> {
    Some(Verification {
        status: status.into(),
        detail: detail.into(),
        compiler: None,
    })
}

/// The experiment for one kernel of a file, and its instrumented sites.
pub struct KernelExperiment {
    pub kernel: String,
    pub source: extract::KernelSource,
    pub experiment: Experiment,
    /// How many of the configurations come from launch sites (the first ones); the others are
    /// synthesised.
    pub launched_configs: usize,
    pub shapes: Vec<(String, params::ParameterShape)>,
    pub template_arguments: Vec<String>,
    /// The configurations cut to the guarded twin's footprint (indices into the experiment's),
    /// and the guards that twin ran with.
    pub footprint_configs: Vec<usize>,
    pub twin_guards: String,
    /// The configurations whose buffers are matrices of two of the sizes
    /// (`params::matrix_configs`), indices into the experiment's: a guess at the buffers' extents,
    /// so a violation in one is a witness only where the accesses the kernel guards
    /// (`guarded_sites`) reached the end of their buffers and no further (`buffers_hold`).
    pub matrix_configs: Vec<usize>,
    /// Per instrumented site: whether the model bounds its index by a comparison the kernel
    /// makes (`if (row < rows)`), so that the kernel's own tests say the buffer's extent.
    pub guarded_sites: Vec<bool>,
    /// The program without the project headers of quoted includes, when some were read: compiled
    /// when the one with them is not.
    pub without_includes: Option<String>,
}

/// The guarded twin of a kernel experiment: the kernel with its findings' guards, run with the
/// synthesised configurations to measure the footprint a correct launch needs.
pub struct Twin {
    pub guards: twin::Guards,
    pub source: extract::KernelSource,
    pub experiment: Experiment,
}

/// The twin of `built` (kernel `kernel` of `model`) for the findings `diagnostics`, when they
/// suggest a guard and some configuration is synthesised.
pub fn twin_for(
    model: &Model,
    kernel: usize,
    built: &KernelExperiment,
    diagnostics: &[&Diagnostic],
) -> Option<Twin> {
    let synthesised = built.experiment.configs.get(built.launched_configs..)?;
    if synthesised.is_empty() {
        return None;
    }
    let guards = twin::guards(model, kernel, diagnostics);
    if guards.is_empty() {
        return None;
    }
    let source = extract::build_twin(model, kernel, &built.template_arguments, &guards).ok()?;
    if source.sites.len() != built.source.sites.len() {
        return None;
    }
    let experiment = Experiment {
        source: source.source(),
        kernel: source.symbol.clone(),
        sites: source.sites.len(),
        configs: synthesised.to_vec(),
        barriers: source.barriers.len(),
        options: source.options.clone(),
    };
    Some(Twin {
        guards,
        source,
        experiment,
    })
}

/// The synthesised configurations of `built` with each buffer cut to what the twin accessed
/// (`results`, one per twin configuration). A configuration whose twin run failed or ran past a
/// buffer gives none: its footprint is not known.
pub fn footprint_configs(
    built: &KernelExperiment,
    twin: &Twin,
    results: &[ConfigResult],
) -> Vec<LaunchConfig> {
    let mut out = Vec::new();
    for (config, result) in twin.experiment.configs.iter().zip(results) {
        if result.error.is_some()
            || result.violations.iter().any(|v| {
                v.cause == 1
                    && twin
                        .source
                        .sites
                        .get(v.site)
                        .is_none_or(|site| !site.own_array)
            })
            || result.footprint.len() != twin.source.sites.len()
        {
            continue;
        }
        let mut footprint: BTreeMap<usize, u64> = BTreeMap::new();
        for (site, bytes) in twin.source.sites.iter().zip(&result.footprint) {
            if site.own_array {
                continue;
            }
            let entry = footprint.entry(site.parameter_index).or_default();
            *entry = (*entry).max(*bytes);
        }
        let mut changed = false;
        let mut arguments = config.arguments.clone();
        let mut scalars = Vec::new();
        let mut buffers = Vec::new();
        for (position, argument) in arguments.iter_mut().enumerate() {
            let (name, shape) = match built.shapes.get(position) {
                Some((name, shape)) => (name.as_str(), shape),
                None => continue,
            };
            match argument {
                protocol::Argument::Buffer { bytes, .. } => {
                    if let Some(needed) = footprint.get(&position).filter(|b| **b > 0) {
                        if *needed < *bytes {
                            *bytes = *needed;
                            changed = true;
                        }
                    }
                    let element = match shape {
                        params::ParameterShape::Pointer {
                            element_bytes: Some(size),
                            ..
                        } if *size > 0 && *bytes % size == 0 => {
                            format!("{name} of {} elements", *bytes / size)
                        }
                        _ => format!("{name} of {bytes} bytes"),
                    };
                    buffers.push(element);
                }
                protocol::Argument::I8 { value } => scalars.push(format!("{name} = {value}")),
                protocol::Argument::I16 { value } => scalars.push(format!("{name} = {value}")),
                protocol::Argument::I32 { value } => scalars.push(format!("{name} = {value}")),
                protocol::Argument::I64 { value } => scalars.push(format!("{name} = {value}")),
                _ => {}
            }
        }
        if !changed {
            continue;
        }
        let (grid, block) = (config.grid, config.block);
        scalars.extend(buffers);
        out.push(LaunchConfig {
            arguments,
            description: format!(
                "grid ({},{},{}) block ({},{},{}), {} (the footprint of the kernel with {} injected)",
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                scalars.join(", "),
                twin.guards.description()
            ),
            ..config.clone()
        });
    }
    out
}

/// Builds the experiment for kernel `kernel` (an index into `model.functions`).
pub fn experiment_for_kernel(model: &Model, kernel: usize) -> Result<KernelExperiment, String> {
    let function = model.functions.get(kernel).ok_or("no such kernel")?;
    let launches = params::launch_sites(model, function);
    let template_arguments = launches
        .iter()
        .find(|l| !l.template_arguments.is_empty())
        .map(|l| l.template_arguments.clone())
        .or_else(|| params::macro_launch_template_arguments(model, function))
        .unwrap_or_default();
    let source = extract::build(model, kernel, &template_arguments)?;
    let shapes = params::parameter_shapes(model, function, &source.template_bindings);
    let mut configs: Vec<LaunchConfig> = Vec::new();
    for launch in &launches {
        if let Some(config) = &launch.config {
            if !configs.iter().any(|c| {
                c.grid == config.grid && c.block == config.block && c.arguments == config.arguments
            }) {
                configs.push(config.clone());
            }
        }
    }
    let body = model.text(function.body);
    let two_dimensional = body.contains("threadIdx.y") || body.contains("blockIdx.y");
    // Every launch in the file with a constant block agrees on it, or none is used.
    let mut block_shapes = launches.iter().filter_map(|l| l.block_shape);
    let launched = block_shapes
        .next()
        .filter(|first| block_shapes.all(|other| other == *first));
    let launched_configs = configs.len();
    let without_includes = if source.context.contains("project header") {
        extract::build_without_includes(model, kernel, &template_arguments)
            .ok()
            .filter(|plain| plain.sites.len() == source.sites.len())
            .map(|plain| plain.source())
    } else {
        None
    };
    // HIP's `HIP_DYNAMIC_SHARED(float, s)` declares an `extern __shared__` array too.
    let dynamic_shared = crate::model::kernel::uses_dynamic_shared_memory(function, model.source)
        || crate::syntax::contains_identifier(body, "HIP_DYNAMIC_SHARED");
    match params::adversarial_configs(&shapes, two_dimensional, launched, dynamic_shared) {
        Ok(adversarial) => configs.extend(adversarial),
        Err(reason) if configs.is_empty() => return Err(reason),
        Err(_) => {}
    }
    // Configurations tried besides the defaults, after them (a witness the defaults give is
    // still the one reported, and a host replay's launch is still the first default): the
    // launches' own shapes with the host values they pass chosen, and buffers that are matrices
    // of two of the sizes. Their buffers may be smaller than the defaults', so only for a kernel
    // whose every access is checked: one made elsewhere could fault the whole run.
    let mut matrix_configs = Vec::new();
    if source.uninstrumented.is_empty() {
        for config in launches.iter().flat_map(|l| &l.shaped) {
            if !configs.iter().any(|c| {
                c.grid == config.grid && c.block == config.block && c.arguments == config.arguments
            }) {
                configs.push(config.clone());
            }
        }
        let first = configs.len();
        configs.extend(params::matrix_configs(
            &shapes,
            two_dimensional,
            launched,
            dynamic_shared,
        ));
        matrix_configs = (first..configs.len()).collect();
    }
    let guarded_sites = guarded_sites(model, kernel, &source.sites);
    let experiment = Experiment {
        source: source.source(),
        kernel: source.symbol.clone(),
        sites: source.sites.len(),
        configs,
        barriers: source.barriers.len(),
        options: source.options.clone(),
    };
    Ok(KernelExperiment {
        kernel: function.name.clone(),
        source,
        experiment,
        launched_configs,
        shapes,
        template_arguments,
        footprint_configs: Vec::new(),
        twin_guards: String::new(),
        matrix_configs,
        guarded_sites,
        without_includes,
    })
}

/// Per site of `sites`: whether the model bounds the access's index by a comparison the kernel
/// (kernel `kernel` of `model`) makes.
fn guarded_sites(model: &Model, kernel: usize, sites: &[extract::Site]) -> Vec<bool> {
    let facts = model
        .kernels
        .iter()
        .find(|(index, _)| *index == kernel)
        .map(|(_, facts)| facts);
    sites
        .iter()
        .map(|site| {
            !site.own_array
                && facts.is_some_and(|facts| {
                    facts.accesses.iter().any(|access| {
                        access.node.byte_range() == site.span
                            && matches!(
                                access.status,
                                crate::model::IndexStatus::Bounded { bound: Some(_) }
                            )
                    })
                })
        })
        .collect()
}

/// Whether a configuration's buffers are the extents the kernel is written for, as far as the
/// run tells: always, unless they are a guess (`KernelExperiment::matrix_configs`). A guess
/// holds when an access the kernel tests against its bounds reached the very end of its buffer
/// and none ran past one: the kernel's own tests then say the buffers are that large. Accesses
/// at `except` (the finding's) are not counted.
fn buffers_hold(
    built: &KernelExperiment,
    position: usize,
    config: &LaunchConfig,
    result: &ConfigResult,
    except: usize,
) -> bool {
    if !built.matrix_configs.contains(&position) {
        return true;
    }
    let guarded = |site: usize| site != except && built.guarded_sites.get(site) == Some(&true);
    let overflowed = result
        .violations
        .iter()
        .any(|violation| violation.cause == 1 && guarded(violation.site));
    let reached_the_end = built.source.sites.iter().enumerate().any(|(at, site)| {
        let buffer = match config.arguments.get(site.parameter_index) {
            Some(protocol::Argument::Buffer { bytes, .. }) => *bytes,
            _ => return false,
        };
        guarded(at) && buffer > 0 && result.footprint.get(at) == Some(&buffer)
    });
    reached_the_end && !overflowed
}

/// Parses `text` and hands the model to `with`.
pub fn with_model<R>(path: &Path, text: &str, with: impl FnOnce(&Model) -> R) -> Option<R> {
    // Blocks choosing macro definitions read as the compiler reads them, so a launch's block size
    // is the one the compiled kernel has (`source::ViewOptions::as_compiled`).
    with_view(
        path,
        text,
        &source::ViewOptions {
            as_compiled: true,
            ..source::ViewOptions::default()
        },
        with,
    )
}

/// Parses a project header that the program includes: every conditional read as the compiler
/// reads it, with the definitions of the file including it (`defines`, `NAME=VALUE`) given, and
/// the qualifier macros of the headers read before it.
pub fn with_header_model<R>(
    path: &Path,
    text: &str,
    defines: Vec<String>,
    known_qualifiers: Vec<(String, String)>,
    with: impl FnOnce(&Model) -> R,
) -> Option<R> {
    with_view(
        path,
        text,
        &source::ViewOptions {
            defines,
            known_qualifiers,
            as_compiled: true,
            compiled_everywhere: true,
            ..source::ViewOptions::default()
        },
        with,
    )
}

fn with_view<R>(
    path: &Path,
    text: &str,
    options: &source::ViewOptions,
    with: impl FnOnce(&Model) -> R,
) -> Option<R> {
    // what the project headers the file includes define (a header's allocation macros) is
    // read as the lints read it
    let headers = crate::engine::included_defines(path, text, &crate::config::Settings::default());
    let headers: Vec<&source::HeaderDefines> = headers.iter().map(|h| &**h).collect();
    let view = source::preprocess_with(text, options).with_included(&headers, &options.defines);
    let tree = crate::engine::parse(&view.text, None)?;
    let lines = LineIndex::new(text);
    let model = Model::build(path, text, &view, &tree, &lines, &[]);
    Some(with(&model))
}

/// Which kernel holds an access or a barrier at exactly `span`.
fn kernel_of_span(model: &Model, span: &std::ops::Range<usize>) -> Option<usize> {
    model
        .kernels
        .iter()
        .find(|(_, facts)| {
            facts.accesses.iter().any(|a| a.node.byte_range() == *span)
                || facts.barriers.iter().any(|b| b.node.byte_range() == *span)
        })
        .map(|(index, _)| *index)
}

/// The spans where a finding's access may be: its own, then its labels' (a finding at a launch
/// labels the kernel's access).
fn access_spans(diagnostic: &Diagnostic) -> impl Iterator<Item = &std::ops::Range<usize>> {
    std::iter::once(&diagnostic.span).chain(diagnostic.labels.iter().map(|l| &l.span))
}

pub(crate) fn kind_word(kind: u32) -> &'static str {
    match kind {
        1 => "read",
        2 => "write",
        _ => "read-modify-write",
    }
}

/// The access as written, on one line.
pub(crate) fn access_text(site: &extract::Site, source: &str) -> String {
    source
        .get(site.span.clone())
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn witness(
    site: &extract::Site,
    violation: &SiteViolation,
    config: &LaunchConfig,
    source: &str,
) -> String {
    let access = access_text(site, source);
    let place = if violation.cause == 2 {
        format!(
            "reads element {} of `{}` that nothing wrote",
            violation.index, site.pointer
        )
    } else if violation.index < 0 {
        format!(
            "at index {}, before the start of the buffer",
            violation.index
        )
    } else if site.own_array {
        format!(
            "at index {}, past the array's {} elements",
            violation.index, violation.extent
        )
    } else {
        format!(
            "at index {}, past the buffer's {} elements",
            violation.index, violation.extent
        )
    };
    format!(
        "{} `{access}` {place} by thread ({},{},{}) of block ({},{},{}); {} violating access(es) with {}",
        kind_word(violation.kind),
        violation.thread[0],
        violation.thread[1],
        violation.thread[2],
        violation.block[0],
        violation.block[1],
        violation.block[2],
        violation.count,
        config.description
    )
}

/// What happened to one experiment.
enum Outcome {
    Ran(Vec<ConfigResult>),
    /// Ran with barriers that count arrivals without waiting, after the launch as written hung.
    RanWithoutWaiting(Vec<ConfigResult>),
    /// NVRTC's log.
    CompileFailed(String),
    /// No answer within the timeout, the message saying so.
    TimedOut(String),
    NotVerifiable(String),
}

/// The macro that makes the instrumented barriers count without waiting (the prelude's
/// `CL_WAIT`).
pub const BARRIERS_DO_NOT_WAIT: &str = "CL_BARRIERS_DO_NOT_WAIT";

/// What a verdict reached from barriers that did not wait adds to its detail.
const COUNTED_WITHOUT_WAITING: &str =
    " (the launch as written hung at its barriers; arrivals counted in a run whose barriers do not wait)";

/// Runs every verifiable finding in `run` and fills its `verification`.
pub fn verify(
    run: &mut RunResult,
    options: &VerifyOptions,
    client: &mut WorkerClient,
) -> VerifySummary {
    let started = Instant::now();
    let mut summary = VerifySummary::default();
    // (report, kernel function index) -> diagnostics indices
    let mut groups: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    // (report, diagnostic) of host-rule findings, replayed through the driver API.
    let mut host_findings: Vec<(usize, usize)> = Vec::new();
    for (report_index, report) in run.reports.iter_mut().enumerate() {
        let path = report.path.clone();
        let text = report.source.clone();
        let diagnostics = &mut report.diagnostics;
        with_model(&path, &text, |model| {
            let hip = model.runtime == crate::model::runtime::Runtime::Hip;
            for (index, diagnostic) in diagnostics.iter_mut().enumerate() {
                if hip && HOST_RULES.contains(&diagnostic.rule) {
                    diagnostic.verification = verification("not-verifiable", HIP_CODE);
                    continue;
                }
                let verifiable = crate::lints::find(diagnostic.rule).is_some_and(|l| l.verifiable);
                let kernel = if verifiable {
                    access_spans(diagnostic).find_map(|span| kernel_of_span(model, span))
                } else {
                    None
                };
                if hip && kernel.is_some_and(|kernel| !runs_as_cuda(model, kernel)) {
                    diagnostic.verification = verification("not-verifiable", HIP_WAVEFRONT);
                } else if HOST_RULES.contains(&diagnostic.rule) {
                    host_findings.push((report_index, index));
                } else if !verifiable {
                    diagnostic.verification = verification("not-verifiable", STATIC_ONLY);
                } else if let Some(kernel) = kernel {
                    groups
                        .entry((report_index, kernel))
                        .or_default()
                        .push(index);
                } else {
                    diagnostic.verification = verification(
                        "not-verifiable",
                        "no global-memory access or barrier of a kernel at this location",
                    );
                }
            }
        });
    }
    if groups.is_empty() && host_findings.is_empty() {
        return summary;
    }
    match client.request(&Request::Hello) {
        Ok(Response::Hello {
            device,
            compute_capability,
            driver_version,
            context_ms,
            compiler,
        }) => {
            summary.compiler = Some(compiler);
            summary.device = Some(device);
            summary.compute_capability = Some(compute_capability);
            summary.driver_version = Some(driver_version);
            summary.context_ms = Some(context_ms);
        }
        Ok(Response::Unavailable { reason }) => summary.unavailable = Some(reason),
        Ok(other) => {
            summary.unavailable = Some(format!("unexpected answer from the worker: {other:?}"))
        }
        Err(failure) => summary.unavailable = Some(failure.to_string()),
    }
    if let Some(reason) = &summary.unavailable {
        let detail = if reason.starts_with("no CUDA driver") {
            "no CUDA driver".to_string()
        } else {
            reason.clone()
        };
        let host = host_findings.iter().map(|(r, i)| (*r, vec![*i]));
        let kernels = groups.iter().map(|((r, _), i)| (*r, i.clone()));
        for (report_index, indices) in kernels.chain(host) {
            for index in &indices {
                if let Some(d) = run
                    .reports
                    .get_mut(report_index)
                    .and_then(|r| r.diagnostics.get_mut(*index))
                {
                    d.verification = verification("not-verifiable", detail.clone());
                }
            }
        }
        // A kernel finding that no GPU would verify says why instead.
        for ((report_index, kernel), indices) in &groups {
            let Some(report) = run.reports.get_mut(*report_index) else {
                continue;
            };
            let (path, text) = (report.path.clone(), report.source.clone());
            let reasons: Vec<Option<String>> = with_model(&path, &text, |model| {
                let built = experiment_for_kernel(model, *kernel);
                indices
                    .iter()
                    .map(|index| {
                        let diagnostic = report.diagnostics.get(*index)?;
                        match &built {
                            Err(reason) => Some(reason.clone()),
                            Ok(built) => uninstrumented_reason(diagnostic, built),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
            for (index, reason) in indices.iter().zip(reasons) {
                if let (Some(d), Some(reason)) = (report.diagnostics.get_mut(*index), reason) {
                    d.verification = verification("not-verifiable", reason);
                }
            }
        }
        summary.workers_started = client.started;
        summary.wall_ms = started.elapsed().as_secs_f64() * 1e3;
        return summary;
    }
    let bar = (options.progress && groups.len() > 3).then(|| {
        let bar = indicatif::ProgressBar::new(groups.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("verifying {bar:30} {pos}/{len} kernels {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut by_file: BTreeMap<usize, Vec<(usize, &Vec<usize>)>> = BTreeMap::new();
    for ((report_index, kernel), indices) in &groups {
        by_file
            .entry(*report_index)
            .or_default()
            .push((*kernel, indices));
    }
    for (report_index, kernels) in by_file {
        let Some(report) = run.reports.get_mut(report_index) else {
            continue;
        };
        let path = report.path.clone();
        let text = report.source.clone();
        let findings = &report.diagnostics;
        let hip =
            crate::model::runtime::Runtime::of(&path, &text) == crate::model::runtime::Runtime::Hip;
        let pairs: Vec<(Result<KernelExperiment, String>, Option<Twin>)> =
            with_model(&path, &text, |model| {
                kernels
                    .iter()
                    .map(|(kernel, indices)| {
                        let built = experiment_for_kernel(model, *kernel);
                        let twin = built.as_ref().ok().and_then(|built| {
                            let diagnostics: Vec<&Diagnostic> =
                                indices.iter().filter_map(|i| findings.get(*i)).collect();
                            twin_for(model, *kernel, built, &diagnostics)
                        });
                        (built, twin)
                    })
                    .collect()
            })
            .unwrap_or_else(|| {
                kernels
                    .iter()
                    .map(|_| (Err("the file no longer parses".into()), None))
                    .collect()
            });
        // Each twin runs first: its footprint sizes the buffers of the kernel as written.
        let mut built = Vec::with_capacity(pairs.len());
        let mut twin_ms = Vec::with_capacity(pairs.len());
        for (mut experiment, twin) in pairs {
            let sent = Instant::now();
            if let (Ok(experiment), Some(twin)) = (&mut experiment, twin) {
                if let Ok(Response::Ran { results, .. }) = client.request(&Request::Run {
                    experiment: twin.experiment.clone(),
                }) {
                    let extra = footprint_configs(experiment, &twin, &results);
                    let first = experiment.experiment.configs.len();
                    experiment.footprint_configs = (first..first + extra.len()).collect();
                    experiment.experiment.configs.extend(extra);
                    experiment.twin_guards = twin.guards.description();
                }
            }
            twin_ms.push(sent.elapsed().as_secs_f64() * 1e3);
            built.push(experiment);
        }
        let shared = shared_program(&built);
        // The shared program's first run compiles every kernel of the file: it gets the time of
        // up to four kernels' runs before each kernel is compiled alone instead.
        let sharing = built.iter().filter(|b| b.is_ok()).count();
        let first_shared_run_factor = u32::try_from(sharing.clamp(1, 4)).unwrap_or(1);
        let mut shared_failed = false;
        // Whether the shared program was compiled once (a later timeout is the kernel's own).
        let mut shared_compiled = false;
        for (((_, indices), built), twin_ms) in kernels.iter().zip(&built).zip(twin_ms) {
            if let Some(bar) = &bar {
                bar.set_message(built.as_ref().map(|b| b.kernel.clone()).unwrap_or_default());
            }
            let outcome = match built {
                Err(reason) => Outcome::NotVerifiable(reason.clone()),
                Ok(built) => {
                    let mut outcome = None;
                    if let Some(program) = shared.as_ref().filter(|_| !shared_failed) {
                        let experiment = Experiment {
                            source: program.clone(),
                            ..built.experiment.clone()
                        };
                        let factor = if shared_compiled {
                            1
                        } else {
                            first_shared_run_factor
                        };
                        let ran = run_one_within(
                            client,
                            &experiment,
                            built,
                            report,
                            &mut summary,
                            twin_ms,
                            factor,
                        );
                        match ran {
                            // One kernel's construct that the shared program cannot hold (a
                            // name clash, a `::`-qualified helper), or a program of many kernels
                            // whose compile alone outlasts the timeout: every kernel goes alone.
                            Outcome::CompileFailed(_) => shared_failed = true,
                            Outcome::TimedOut(_) if !shared_compiled => shared_failed = true,
                            ran => {
                                shared_compiled = true;
                                outcome = Some(ran)
                            }
                        }
                    }
                    let outcome = match outcome {
                        Some(outcome) => outcome,
                        None => run_one(
                            client,
                            &built.experiment,
                            built,
                            report,
                            &mut summary,
                            twin_ms,
                        ),
                    };
                    match (&outcome, &built.without_includes) {
                        (Outcome::CompileFailed(_), Some(plain)) => {
                            let experiment = Experiment {
                                source: plain.clone(),
                                ..built.experiment.clone()
                            };
                            match run_one(client, &experiment, built, report, &mut summary, 0.0) {
                                Outcome::CompileFailed(_) => outcome,
                                ran => ran,
                            }
                        }
                        // A block whose threads wait at different barriers can hang: the same
                        // launches again, each barrier counting its arrivals without waiting,
                        // say which barrier was reached by part of a block.
                        (Outcome::TimedOut(_), _) if built.experiment.barriers > 0 => {
                            let mut options = built.experiment.options.clone();
                            options.push(format!("-D{BARRIERS_DO_NOT_WAIT}"));
                            let experiment = Experiment {
                                options,
                                ..built.experiment.clone()
                            };
                            match run_one(client, &experiment, built, report, &mut summary, 0.0) {
                                Outcome::Ran(results) => Outcome::RanWithoutWaiting(results),
                                _ => outcome,
                            }
                        }
                        _ => outcome,
                    }
                }
            };
            for index in indices.iter() {
                let Some(diagnostic) = report.diagnostics.get_mut(*index) else {
                    continue;
                };
                diagnostic.verification = match (&outcome, built) {
                    (Outcome::NotVerifiable(reason) | Outcome::TimedOut(reason), _) => {
                        verification("not-verifiable", reason.clone())
                    }
                    (Outcome::RanWithoutWaiting(results), Ok(built))
                        if diagnostic.rule == "divergent-barrier" =>
                    {
                        judge(diagnostic, built, results, &text).map(|mut v| {
                            v.detail.push_str(COUNTED_WITHOUT_WAITING);
                            v.compiler = Some(compiler_used(summary.compiler.as_deref(), built));
                            v
                        })
                    }
                    // Without waiting, shared memory is read before it is written: only the
                    // barrier counts are evidence.
                    (Outcome::RanWithoutWaiting(_), _) => verification(
                        "not-verifiable",
                        "the launch as written hung at its barriers (worker killed and replaced)",
                    ),
                    // A HIP kernel that names a wavefront constant its headers define
                    // (`ROCM_WAVEFRONT_SIZE`) depends on the width, whatever else the log says.
                    (Outcome::CompileFailed(log), _)
                        if hip
                            && WAVEFRONT_NAMES
                                .iter()
                                .any(|name| first_error(log).contains(name)) =>
                    {
                        verification("not-verifiable", HIP_WAVEFRONT)
                    }
                    (Outcome::CompileFailed(log), _) => verification(
                        "not-verifiable",
                        format!(
                            "NVRTC could not compile the extracted kernel: {}",
                            first_error(log)
                        ),
                    ),
                    (Outcome::Ran(results), Ok(built)) => judge(diagnostic, built, results, &text)
                        .map(|mut v| {
                            v.compiler = Some(compiler_used(summary.compiler.as_deref(), built));
                            v
                        }),
                    (Outcome::Ran(_), Err(reason)) => {
                        verification("not-verifiable", reason.clone())
                    }
                };
            }
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    for (report_index, index) in host_findings {
        let Some(report) = run.reports.get_mut(report_index) else {
            continue;
        };
        let Some((rule, span)) = report
            .diagnostics
            .get(index)
            .map(|d| (d.rule, d.span.clone()))
        else {
            continue;
        };
        let path = report.path.clone();
        let text = report.source.clone();
        let planned = with_model(&path, &text, |model| replay::plan(model, rule, &span))
            .unwrap_or_else(|| Err("the file no longer parses".into()));
        let (status, detail) = match planned {
            Err(reason) => ("not-verifiable", reason),
            Ok(replay::HostReplay::Steps {
                steps,
                binding,
                name,
            }) => match client.request(&Request::Replay {
                steps: steps.clone(),
            }) {
                Ok(Response::Replayed { results, .. }) => {
                    replay::judge_steps(&steps, &results, &name, &binding)
                }
                Ok(other) => (
                    "not-verifiable",
                    format!("unexpected answer from the worker: {other:?}"),
                ),
                Err(failure) => ("not-verifiable", failure.to_string()),
            },
            Ok(replay::HostReplay::Launch {
                built,
                position,
                name,
                probe,
            }) => match client.request(&Request::Run {
                experiment: built.experiment.clone(),
            }) {
                Ok(answer) => replay::judge_launch(&built, position, &name, probe, &answer, &text),
                // A launch with a dangling pointer may take the worker down with it.
                Err(failure @ WorkerFailure::Died(_))
                    if probe != replay::LaunchProbe::Uninitialized =>
                {
                    (
                        "confirmed",
                        format!(
                            "`{}` launched with `{name}` dangling: {failure}",
                            built.kernel
                        ),
                    )
                }
                Err(failure) => ("not-verifiable", failure.to_string()),
            },
        };
        if let Some(diagnostic) = report.diagnostics.get_mut(index) {
            diagnostic.verification = verification(status, detail);
        }
    }
    summary.workers_started = client.started;
    summary.wall_ms = started.elapsed().as_secs_f64() * 1e3;
    summary
}

/// The compiler of an experiment and its build context, for the verification details.
fn compiler_used(worker: Option<&str>, built: &KernelExperiment) -> String {
    let nvrtc = worker
        .and_then(|w| w.split(',').next())
        .unwrap_or("NVRTC")
        .to_string();
    let mut parts = vec![nvrtc];
    parts.extend(built.experiment.options.iter().cloned());
    if !built.source.context.is_empty() {
        parts.push(built.source.context.clone());
    }
    parts.join("; ")
}

/// One program holding every kernel experiment of a file, when there are several.
fn shared_program(built: &[Result<KernelExperiment, String>]) -> Option<String> {
    let sources: Vec<&extract::KernelSource> = built
        .iter()
        .filter_map(|b| b.as_ref().ok())
        .map(|b| &b.source)
        .collect();
    if sources.len() < 2 {
        return None;
    }
    let mut headers: Vec<String> = Vec::new();
    for header in sources.iter().flat_map(|s| &s.headers) {
        if !headers.contains(header) {
            headers.push(header.clone());
        }
    }
    let bodies: Vec<String> = sources.iter().map(|s| s.body.clone()).collect();
    Some(extract::program(&headers, &bodies))
}

/// Runs one experiment in the worker and records its timing.
fn run_one(
    client: &mut WorkerClient,
    experiment: &Experiment,
    built: &KernelExperiment,
    report: &crate::engine::FileReport,
    summary: &mut VerifySummary,
    twin_ms: f64,
) -> Outcome {
    run_one_within(client, experiment, built, report, summary, twin_ms, 1)
}

/// `run_one` with the timeout `timeout_factor` times as long (`request_with_longer_timeout`).
fn run_one_within(
    client: &mut WorkerClient,
    experiment: &Experiment,
    built: &KernelExperiment,
    report: &crate::engine::FileReport,
    summary: &mut VerifySummary,
    twin_ms: f64,
    timeout_factor: u32,
) -> Outcome {
    let sent = Instant::now();
    let answer = client.request_with_longer_timeout(
        &Request::Run {
            experiment: experiment.clone(),
        },
        timeout_factor,
    );
    let wall_ms = sent.elapsed().as_secs_f64() * 1e3;
    match answer {
        Ok(Response::Ran {
            compile_ms,
            load_ms,
            results,
            reused,
        }) => {
            let run_ms: f64 = results.iter().map(|r| r.run_ms).sum();
            summary.experiments.push(ExperimentTiming {
                file: report.display_path.clone(),
                kernel: built.kernel.clone(),
                compile_ms,
                load_ms,
                run_ms,
                configs: results.len(),
                twin_ms,
                total_ms: compile_ms + load_ms + run_ms + twin_ms,
                wall_ms,
                program_bytes: experiment.source.len(),
                reused_program: reused,
            });
            Outcome::Ran(results)
        }
        Ok(Response::CompileError { log }) => Outcome::CompileFailed(log),
        Ok(Response::Fault { message, .. }) => Outcome::NotVerifiable(format!(
            "the kernel faulted outside the instrumented accesses ({message}); worker replaced"
        )),
        Ok(Response::Error { message }) => Outcome::NotVerifiable(message),
        Ok(Response::Unavailable { reason }) => Outcome::NotVerifiable(reason),
        Ok(other) => {
            Outcome::NotVerifiable(format!("unexpected answer from the worker: {other:?}"))
        }
        Err(failure @ WorkerFailure::Timeout(_)) => Outcome::TimedOut(failure.to_string()),
        Err(failure) => Outcome::NotVerifiable(failure.to_string()),
    }
}

/// Why the experiment cannot judge `diagnostic` whatever it runs: its barrier or access is not
/// instrumented.
fn uninstrumented_reason(diagnostic: &Diagnostic, built: &KernelExperiment) -> Option<String> {
    if diagnostic.rule == "divergent-barrier" {
        let counted = access_spans(diagnostic).any(|span| built.source.barriers.contains(span));
        return (!counted).then(|| {
            "the barrier is inside a device function, whose barriers are not counted".to_string()
        });
    }
    if access_spans(diagnostic).any(|span| built.source.sites.iter().any(|s| s.span == *span)) {
        return None;
    }
    Some(
        built
            .source
            .uninstrumented
            .iter()
            .find(|(span, _)| *span == diagnostic.span)
            .map(|(_, why)| why.clone())
            .unwrap_or_else(|| "the access was not instrumented".into()),
    )
}

/// The outcome of a `divergent-barrier` finding, from the arrival counts of its barrier.
fn judge_barrier(
    diagnostic: &Diagnostic,
    built: &KernelExperiment,
    results: &[ConfigResult],
    text: &str,
) -> Option<Verification> {
    let Some(barrier) = access_spans(diagnostic)
        .find_map(|span| built.source.barriers.iter().position(|b| b == span))
    else {
        return verification(
            "not-verifiable",
            "the barrier is inside a device function, whose barriers are not counted",
        );
    };
    let span = &built.source.barriers[barrier];
    let call = text
        .get(span.clone())
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let line = LineIndex::new(text).line_of(span.start) + 1;
    // A configuration that fits the kernel's own arrays first (`own_array_overflow`).
    let ordered = by_fit(built, results, None, text);
    for (config, result, overflow) in &ordered {
        if let Some(found) = result.barriers.iter().find(|b| b.barrier == barrier) {
            if let Some(overflow) = overflow {
                return launch_larger_than_written_for(overflow);
            }
            let threads = u64::from(config.block[0])
                * u64::from(config.block[1])
                * u64::from(config.block[2]);
            let rounds = found.expected / threads.max(1);
            let of = if rounds > 1 {
                format!("{} ({rounds} rounds of {threads} threads)", found.expected)
            } else {
                found.expected.to_string()
            };
            return verification(
                "confirmed",
                format!(
                    "block ({},{},{}) reached `{call}` at line {line} with {} of {of} thread arrivals: the other threads of the block skipped it or had left; {} block(s) like it, with {}",
                    found.block[0],
                    found.block[1],
                    found.block[2],
                    found.arrived,
                    found.blocks,
                    config.description,
                ),
            );
        }
    }
    if let Some(verdict) = no_launch_fits(&ordered) {
        return verdict;
    }
    let tried = configurations_tried(built, results);
    verification(
        "not-reproduced",
        format!(
            "every thread of every block reached `{call}` alike in {} configuration(s): {}",
            tried.len(),
            tried.join("; ")
        ),
    )
}

/// Each configuration a kernel ran in, as a verdict names it (with its launch error, if any).
fn configurations_tried(built: &KernelExperiment, results: &[ConfigResult]) -> Vec<String> {
    built
        .experiment
        .configs
        .iter()
        .zip(results)
        .map(|(config, result)| match &result.error {
            Some(error) => format!("{} (launch failed: {error})", config.description),
            None => config.description.clone(),
        })
        .collect()
}

/// The outcome for one finding, from its site's violations in each configuration.
fn judge(
    diagnostic: &Diagnostic,
    built: &KernelExperiment,
    results: &[ConfigResult],
    text: &str,
) -> Option<Verification> {
    if diagnostic.rule == "divergent-barrier" {
        return judge_barrier(diagnostic, built, results, text);
    }
    let Some(site_index) = access_spans(diagnostic)
        .find_map(|span| built.source.sites.iter().position(|s| s.span == *span))
    else {
        let reason = built
            .source
            .uninstrumented
            .iter()
            .find(|(span, _)| *span == diagnostic.span)
            .map(|(_, why)| why.clone())
            .unwrap_or_else(|| "the access was not instrumented".into());
        return verification("not-verifiable", reason);
    };
    let site = &built.source.sites[site_index];
    // A configuration that fits the kernel's own arrays first (`own_array_overflow`); the
    // flagged access may itself be one of them (an unguarded index into shared memory).
    let ordered = by_fit(built, results, Some(site_index), text);
    for (config, result, overflow) in &ordered {
        if let Some(violation) = result
            .violations
            .iter()
            .find(|v| v.site == site_index && v.cause == 1)
        {
            let position = built
                .experiment
                .configs
                .iter()
                .position(|c| std::ptr::eq(c, *config))
                .unwrap_or(usize::MAX);
            if !buffers_hold(built, position, config, result, site_index) {
                continue;
            }
            if let Some(overflow) = overflow {
                return launch_larger_than_written_for(overflow);
            }
            let mut detail = witness(site, violation, config, text);
            if built.footprint_configs.contains(&position) {
                detail.push_str(&format!(
                    "; with {} injected the same launch stays within these buffers, so the suggested guard removes it",
                    built.twin_guards
                ));
            }
            return verification("confirmed", detail);
        }
    }
    if let Some(verdict) = no_launch_fits(&ordered) {
        return verdict;
    }
    let tried = configurations_tried(built, results);
    verification(
        "not-reproduced",
        format!(
            "no out-of-bounds access at this site in {} configuration(s): {}",
            tried.len(),
            tried.join("; ")
        ),
    )
}

/// The first access past one of the kernel's own arrays (local, `__shared__`, dynamic shared
/// memory) in a configuration: such a launch does not fit the kernel (a block larger than its
/// tiles, less dynamic shared memory than it indexes), so what else went wrong in it is no
/// evidence about a launch the kernel is written for.
fn own_array_overflow(
    built: &KernelExperiment,
    result: &ConfigResult,
    config: &LaunchConfig,
    except: Option<usize>,
    text: &str,
) -> Option<String> {
    result.violations.iter().find_map(|violation| {
        let site = built.source.sites.get(violation.site)?;
        (site.own_array && violation.cause == 1 && Some(violation.site) != except)
            .then(|| witness(site, violation, config, text))
    })
}

/// The configurations with their results, those that fit the kernel's own arrays first, each
/// with its overflow of them (`own_array_overflow`) if any.
fn by_fit<'b>(
    built: &'b KernelExperiment,
    results: &'b [ConfigResult],
    except: Option<usize>,
    text: &str,
) -> Vec<(&'b LaunchConfig, &'b ConfigResult, Option<String>)> {
    let mut out: Vec<(&LaunchConfig, &ConfigResult, Option<String>)> = built
        .experiment
        .configs
        .iter()
        .zip(results)
        .map(|(config, result)| {
            let overflow = own_array_overflow(built, result, config, except, text);
            (config, result, overflow)
        })
        .collect();
    // Stable: within each group the configurations keep their order (launches first), those
    // whose buffers are a guess (`matrix_configs`) after the others.
    let guessed = |config: &LaunchConfig| {
        built
            .experiment
            .configs
            .iter()
            .position(|c| std::ptr::eq(c, config))
            .is_some_and(|at| built.matrix_configs.contains(&at))
    };
    out.sort_by_key(|(config, _, overflow)| (overflow.is_some(), guessed(config)));
    out
}

/// A fault shown only by a launch that overflows the kernel's own arrays (a block larger than
/// its tiles, less shared memory than it indexes) is no evidence about the launches the kernel
/// is written for: no verdict.
fn launch_larger_than_written_for(overflow: &str) -> Option<Verification> {
    verification(
        "not-verifiable",
        format!(
            "only launches larger than the kernel is written for showed it (they also overflowed one of the kernel's own arrays: {overflow})"
        ),
    )
}

/// Where every configuration overflowed the kernel's own arrays, its silence says nothing either.
fn no_launch_fits(
    ordered: &[(&LaunchConfig, &ConfigResult, Option<String>)],
) -> Option<Option<Verification>> {
    let (_, _, first) = ordered.first()?;
    let overflow = first.as_ref()?;
    Some(verification(
        "not-verifiable",
        format!(
            "every configuration tried overflowed one of the kernel's own arrays, so none is a launch the kernel is written for: {overflow}"
        ),
    ))
}

fn first_error(log: &str) -> String {
    log.lines()
        .find(|l| l.contains("error"))
        .unwrap_or_else(|| log.lines().next().unwrap_or("no log"))
        .trim()
        .to_string()
}

/// The client for this executable's own `verify-worker`.
pub fn own_worker(timeout: Duration) -> Result<WorkerClient, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the cudalint executable: {e}"))?;
    Ok(WorkerClient::new(
        exe,
        vec!["verify-worker".into()],
        timeout,
    ))
}

/// Every kernel of a file run with every access instrumented, findings or not: the check that
/// good code stays clean. One line per kernel.
pub fn probe_file(path: &Path, client: &mut WorkerClient) -> Result<Vec<String>, String> {
    let text = crate::engine::read_source(path)?;
    let experiments = with_model(path, &text, |model| {
        model
            .kernels
            .iter()
            .map(|(index, _)| experiment_for_kernel(model, *index))
            .collect::<Vec<_>>()
    })
    .ok_or("the file does not parse")?;
    let mut lines = Vec::new();
    let text = text.as_str();
    for built in experiments {
        let built = match built {
            Ok(built) => built,
            Err(reason) => {
                lines.push(format!("{}: not-verifiable: {reason}", path.display()));
                continue;
            }
        };
        let line = match client.request(&Request::Run {
            experiment: built.experiment.clone(),
        }) {
            Ok(Response::Ran {
                compile_ms,
                load_ms,
                results,
                ..
            }) => {
                let run_ms: f64 = results.iter().map(|r| r.run_ms).sum();
                let violations: Vec<String> = built
                    .experiment
                    .configs
                    .iter()
                    .zip(&results)
                    .flat_map(|(config, result)| {
                        let sites = &built.source.sites;
                        result.violations.iter().filter_map(move |v| {
                            sites.get(v.site).map(|site| witness(site, v, config, text))
                        })
                    })
                    .collect();
                let errors: Vec<&String> =
                    results.iter().filter_map(|r| r.error.as_ref()).collect();
                let verdict = if violations.is_empty() && errors.is_empty() {
                    format!("clean in {} configuration(s)", results.len())
                } else if violations.is_empty() {
                    format!("launch errors: {errors:?}")
                } else {
                    format!(
                        "{} violation(s): {}",
                        violations.len(),
                        violations.join(" | ")
                    )
                };
                format!(
                    "{} {}: {verdict} [{} sites; compile {compile_ms:.1} ms, load {load_ms:.1} ms, run {run_ms:.1} ms, total {:.1} ms]",
                    path.display(),
                    built.kernel,
                    built.source.sites.len(),
                    compile_ms + load_ms + run_ms
                )
            }
            Ok(other) => format!("{} {}: {other:?}", path.display(), built.kernel),
            Err(failure) => format!("{} {}: {failure}", path.display(), built.kernel),
        };
        lines.push(line);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(site: usize, index: i64, extent: u64) -> SiteViolation {
        SiteViolation {
            site,
            count: 1,
            index,
            kind: 2,
            thread: [17, 0, 0],
            block: [0, 0, 0],
            extent,
            cause: 1,
        }
    }

    fn result(violations: Vec<SiteViolation>) -> ConfigResult {
        ConfigResult {
            run_ms: 0.0,
            violations,
            error: None,
            footprint: Vec::new(),
            barriers: Vec::new(),
        }
    }

    #[test]
    fn a_matrix_guess_is_a_witness_only_where_the_guarded_accesses_reach_its_end() {
        let path = Path::new("testdata/bad/unguarded_tiles_stepped_together.cu");
        let text = std::fs::read_to_string(path).unwrap();
        let outcome = crate::engine::lint_text(path, &text, &crate::config::Settings::default());
        let finding = outcome
            .diagnostics
            .iter()
            .find(|d| {
                d.rule == "unguarded-thread-index"
                    && text[d.span.clone()].starts_with("q[qi + q_cols")
            })
            .unwrap();
        let built = with_model(path, &text, |m| {
            let kernel = m
                .functions
                .iter()
                .position(|f| f.name == "column_dots_untested")
                .unwrap();
            experiment_for_kernel(m, kernel)
        })
        .unwrap()
        .unwrap();
        let site = |name: &str| {
            built
                .source
                .sites
                .iter()
                .position(|s| s.pointer == name && !s.own_array)
                .unwrap()
        };
        let (p, q) = (site("p"), site("q"));
        let matrix = built.matrix_configs[0];
        let mut results: Vec<ConfigResult> = built
            .experiment
            .configs
            .iter()
            .map(|_| result(Vec::new()))
            .collect();
        let sites = built.source.sites.len();
        let with_footprint = |violations: Vec<SiteViolation>, p_end: u64| {
            let mut run = result(violations);
            run.footprint = vec![0; sites];
            run.footprint[p] = p_end;
            run
        };
        // `q`'s last row runs past the 37 × 37 matrix; `p`, tested on both sides, reaches its
        // last element and no further.
        results[matrix] = with_footprint(vec![violation(q, 1379, 1369)], 1369 * 4);
        let verdict = judge(finding, &built, &results, &text).unwrap();
        assert_eq!(verdict.status, "confirmed", "{}", verdict.detail);
        assert!(
            verdict
                .detail
                .contains("at index 1379, past the buffer's 1369 elements")
                && verdict
                    .detail
                    .contains("each a matrix of two of the sizes, 37 × 37"),
            "{}",
            verdict.detail
        );
        // Where `p` overflows too, the matrices are smaller than the kernel is written for.
        results[matrix] = with_footprint(
            vec![violation(q, 1379, 1369), violation(p, 1400, 1369)],
            1369 * 4,
        );
        let verdict = judge(finding, &built, &results, &text).unwrap();
        assert_eq!(verdict.status, "not-reproduced", "{}", verdict.detail);
        // Where no tested access reached the end of its matrix, nothing says it is that large.
        results[matrix] = with_footprint(vec![violation(q, 1379, 1369)], 1000 * 4);
        let verdict = judge(finding, &built, &results, &text).unwrap();
        assert_eq!(verdict.status, "not-reproduced", "{}", verdict.detail);
        // A default configuration's witness comes first, whatever the guesses show.
        results[0] = result(vec![violation(q, 60000, 50653)]);
        results[matrix] = with_footprint(vec![violation(q, 1379, 1369)], 1369 * 4);
        let verdict = judge(finding, &built, &results, &text).unwrap();
        assert!(
            verdict.detail.contains("past the buffer's 50653 elements"),
            "{}",
            verdict.detail
        );
    }

    #[test]
    fn a_configuration_that_fits_the_kernels_own_arrays_is_the_first_witness() {
        let text = "__global__ void k(float* out) {\n    __shared__ float tile[16];\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    tile[threadIdx.x] = 1.0f;\n    out[i] = tile[threadIdx.x];\n}\n";
        let built = with_model(Path::new("k.cu"), text, |m| experiment_for_kernel(m, 0))
            .unwrap()
            .unwrap();
        // out[i] is site 0; the two accesses of `tile` follow.
        assert_eq!(built.source.sites.len(), 3);
        assert!(built.source.sites[1].own_array && built.source.sites[2].own_array);
        assert!(built.experiment.configs.len() >= 2);
        let results = [
            result(vec![violation(0, 1000, 1000), violation(1, 17, 16)]),
            result(vec![violation(0, 1000, 1000)]),
        ];
        let built = KernelExperiment {
            experiment: Experiment {
                configs: built.experiment.configs[..2].to_vec(),
                ..built.experiment
            },
            ..built
        };
        let ordered = by_fit(&built, &results, Some(0), text);
        assert!(std::ptr::eq(ordered[0].1, &results[1]));
        assert!(ordered[0].2.is_none());
        let overflow = ordered[1].2.clone().unwrap();
        assert!(
            overflow
                .contains("write `tile[threadIdx.x]` at index 17, past the array's 16 elements"),
            "{overflow}"
        );
        let verdict = launch_larger_than_written_for(&overflow).unwrap();
        assert_eq!(verdict.status, "not-verifiable");
        assert!(verdict
            .detail
            .contains("larger than the kernel is written for"));
        assert!(no_launch_fits(&ordered).is_none(), "one configuration fits");
        assert!(no_launch_fits(&ordered[1..]).is_some(), "none fits");
        // A finding at the array's own access is judged by it, not held against the launch.
        assert!(own_array_overflow(
            &built,
            &results[0],
            &built.experiment.configs[0],
            Some(1),
            text
        )
        .is_none());
    }
}
