//! Host-side replay: a finding of a host rule becomes the allocation, copy, free and launch
//! sequence that the host model describes, with concrete byte counts. Only that sequence runs (in
//! the worker, through the driver API); the user's host code never does.

use super::protocol::{Argument, ConfigResult, Fill, ReplayStep, Response, StepResult};
use super::{experiment_for_kernel, witness, KernelExperiment};
use crate::model::host::{EventKind, HostFunction, Launch, WriteKind};
use crate::model::size::{builtin_size, Order, Sym};
use crate::model::{FunctionKind, Model};
use std::collections::BTreeMap;
use std::ops::Range;
use tree_sitter::Node;

/// Values tried for the variables of a symbolic size, all at once: the first that keeps the
/// relation the lint proved (and stays small) is used.
const BINDINGS: &[i128] = &[1000, 1024, 37, 4096];
/// No replayed buffer is larger than this.
const MAX_BYTES: u64 = 1 << 28;

/// What to replay for one finding.
pub enum HostReplay {
    /// A driver-API sequence whose last step is the one the finding is about.
    Steps {
        steps: Vec<ReplayStep>,
        /// Variable bindings used for symbolic sizes (`n = 1000`), empty when all were constants.
        binding: String,
        /// The pointer's name in the user's code.
        name: String,
    },
    /// A launch of the instrumented kernel with one argument replaced (a dangling pointer or a
    /// buffer that was not, or only partly, written).
    Launch {
        built: Box<KernelExperiment>,
        position: usize,
        name: String,
        probe: LaunchProbe,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchProbe {
    Freed,
    Unallocated,
    Uninitialized,
}

/// The concrete value of `size` under `binding`.
fn concrete(size: &Sym, binding: &BTreeMap<String, i128>) -> Option<u64> {
    let value = size
        .substitute(&|name| binding.get(name).map(|v| Sym::constant(*v)))?
        .as_constant()?;
    u64::try_from(value).ok().filter(|v| *v <= MAX_BYTES)
}

/// A binding of every variable in `sizes` under which `accept` holds for their concrete values.
fn bind(sizes: &[&Sym], accept: impl Fn(&[u64]) -> bool) -> Option<(Vec<u64>, String)> {
    let mut atoms: Vec<String> = sizes.iter().flat_map(|s| s.atoms().cloned()).collect();
    atoms.sort();
    atoms.dedup();
    for value in BINDINGS {
        let binding: BTreeMap<String, i128> = atoms.iter().map(|a| (a.clone(), *value)).collect();
        let Some(values) = sizes
            .iter()
            .map(|s| concrete(s, &binding))
            .collect::<Option<Vec<u64>>>()
        else {
            continue;
        };
        if accept(&values) {
            let described = atoms
                .iter()
                .map(|a| format!("{a} = {value}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Some((values, described));
        }
        if atoms.is_empty() {
            break;
        }
    }
    None
}

fn variable_name(host: &HostFunction, variable: usize) -> String {
    host.variables
        .get(variable)
        .map(|v| v.name.clone())
        .unwrap_or_else(|| "?".into())
}

/// The replay for a finding of host rule `rule` at `span`.
pub fn plan(model: &Model, rule: &str, span: &Range<usize>) -> Result<HostReplay, String> {
    match rule {
        "alloc-smaller-than-copy" => plan_short_allocation(model, span),
        "use-after-free" => plan_use_after_free(model, span),
        "uninitialized-device-pointer" => plan_uninitialized_pointer(model, span),
        "uninitialized-device-read" => plan_uninitialized_read(model, span),
        _ => Err(format!("no host replay for {rule}")),
    }
}

fn plan_short_allocation(model: &Model, span: &Range<usize>) -> Result<HostReplay, String> {
    for host in &model.host.functions {
        for transfer in host
            .transfers
            .iter()
            .filter(|t| t.call.byte_range() == *span)
        {
            let Some(bytes) = &transfer.bytes else {
                continue;
            };
            for (pointer, into) in [(transfer.destination, true), (transfer.source, false)] {
                let Some(pointer) = pointer.filter(|p| p.whole && !p.host_data) else {
                    continue;
                };
                let Some(event) = host.event_at(pointer.variable, transfer.call) else {
                    continue;
                };
                let Some(held) = host
                    .reaching_allocation(pointer.variable, event)
                    .and_then(|a| a.bytes.as_ref())
                else {
                    continue;
                };
                if held.compare(bytes) != Order::ProvablySmaller {
                    continue;
                }
                let Some((values, binding)) = bind(&[held, bytes], |v| v[0] >= 1 && v[0] < v[1])
                else {
                    return Err(
                        "no small concrete sizes keep the allocation smaller than the copy".into(),
                    );
                };
                let (held, moved) = (values[0], values[1]);
                let last = match (transfer.is_memset, into) {
                    (true, _) => ReplayStep::Memset {
                        buffer: 0,
                        bytes: moved,
                    },
                    (false, true) => ReplayStep::CopyToDevice {
                        buffer: 0,
                        bytes: moved,
                    },
                    (false, false) => ReplayStep::CopyFromDevice {
                        buffer: 0,
                        bytes: moved,
                    },
                };
                return Ok(HostReplay::Steps {
                    steps: vec![
                        ReplayStep::Allocate {
                            buffer: 0,
                            bytes: held,
                        },
                        last,
                    ],
                    binding,
                    name: variable_name(host, pointer.variable),
                });
            }
        }
    }
    Err("the host model holds no copy at this location".into())
}

/// The byte count of `size` alone (its own constants, else a small binding).
fn one_size(size: Option<&Sym>, fallback: u64) -> (u64, String) {
    size.and_then(|s| bind(&[s], |v| v[0] >= 1))
        .map(|(v, b)| (v[0], b))
        .unwrap_or((fallback, String::new()))
}

/// The launch whose argument list holds `span`, and the argument's position.
fn launch_at<'a, 't>(
    host: &'a HostFunction<'t>,
    span: &Range<usize>,
) -> Option<(&'a Launch<'t>, usize)> {
    host.launches.iter().find_map(|launch| {
        if launch.call.byte_range() == *span {
            return None;
        }
        launch
            .arguments
            .iter()
            .position(|a| a.byte_range() == *span)
            .map(|p| (launch, p))
    })
}

fn kernel_experiment(model: &Model, launch: &Launch) -> Result<KernelExperiment, String> {
    let index = model
        .functions
        .iter()
        .position(|f| f.kind == FunctionKind::Kernel && f.name == launch.kernel)
        .ok_or_else(|| format!("the kernel `{}` is not defined in this file", launch.kernel))?;
    let mut built = experiment_for_kernel(model, index)?;
    // The launch's own constants when the launch site gave them, else the first adversarial one.
    let line = model.lines.line_of(launch.call.start_byte()) + 1;
    let own = built
        .experiment
        .configs
        .iter()
        .position(|c| c.description.contains(&format!("line {line}:")))
        .unwrap_or(0);
    let config = built
        .experiment
        .configs
        .get(own)
        .cloned()
        .ok_or("no launch configuration for the kernel")?;
    built.experiment.configs = vec![config];
    Ok(built)
}

/// Replaces the buffer argument at `position` of the experiment's only configuration.
fn replace_buffer(
    built: &mut KernelExperiment,
    position: usize,
    make: impl Fn(u64, super::protocol::Fill) -> Argument,
) -> Result<(), String> {
    let argument = built
        .experiment
        .configs
        .first_mut()
        .and_then(|c| c.arguments.get_mut(position))
        .ok_or("the launch has no such argument")?;
    let Argument::Buffer { bytes, fill, .. } = *argument else {
        return Err("the argument is not a buffer of the kernel".into());
    };
    *argument = make(bytes, fill);
    Ok(())
}

/// The launch or copy event of a pointer at `span`.
fn launch_or_copy_event<'a, 't>(
    host: &'a HostFunction<'t>,
    span: &Range<usize>,
    variable: Option<usize>,
) -> Option<&'a crate::model::host::Event<'t>> {
    host.events.iter().find(|e| {
        e.node.byte_range() == *span
            && variable.is_none_or(|v| e.variable == v)
            && matches!(
                e.kind,
                EventKind::Launched { .. }
                    | EventKind::Read { .. }
                    | EventKind::Written {
                        kind: WriteKind::Copy | WriteKind::Memset,
                        ..
                    }
            )
    })
}

fn dangling_launch(
    model: &Model,
    host: &HostFunction,
    launch: usize,
    argument: usize,
    variable: usize,
    probe: LaunchProbe,
) -> Result<HostReplay, String> {
    let launch = host.launches.get(launch).ok_or("no such launch")?;
    let mut built = kernel_experiment(model, launch)?;
    replace_buffer(&mut built, argument, |bytes, _| Argument::Dangling {
        bytes,
        freed: probe == LaunchProbe::Freed,
    })?;
    Ok(HostReplay::Launch {
        built: Box::new(built),
        position: argument,
        name: variable_name(host, variable),
        probe,
    })
}

fn plan_use_after_free(model: &Model, span: &Range<usize>) -> Result<HostReplay, String> {
    for host in &model.host.functions {
        let Some(used) = host.events.iter().find(|used| {
            launch_or_copy_event(host, span, Some(used.variable))
                .is_some_and(|e| std::ptr::eq(e, *used))
                && host
                    .events_before(used.variable, used)
                    .any(|e| matches!(e.kind, EventKind::Freed { device: true }))
        }) else {
            continue;
        };
        let variable = used.variable;
        let free = host
            .events_before(variable, used)
            .filter(|e| matches!(e.kind, EventKind::Freed { device: true }))
            .last()
            .ok_or("no free before the use")?;
        let allocated = host
            .reaching_allocation(variable, free)
            .and_then(|a| a.bytes.as_ref());
        let (held, mut binding) = one_size(allocated, 4096);
        let last = match &used.kind {
            EventKind::Launched {
                launch, argument, ..
            } => {
                return dangling_launch(
                    model,
                    host,
                    *launch,
                    *argument,
                    variable,
                    LaunchProbe::Freed,
                )
            }
            EventKind::Read { bytes, .. } => {
                let (moved, b) = one_size(bytes.as_ref(), held);
                binding = if binding.is_empty() { b } else { binding };
                ReplayStep::CopyFromDevice {
                    buffer: 0,
                    bytes: moved.min(held),
                }
            }
            EventKind::Written { kind, bytes, .. } => {
                let (moved, b) = one_size(bytes.as_ref(), held);
                binding = if binding.is_empty() { b } else { binding };
                let moved = moved.min(held);
                if *kind == WriteKind::Memset {
                    ReplayStep::Memset {
                        buffer: 0,
                        bytes: moved,
                    }
                } else {
                    ReplayStep::CopyToDevice {
                        buffer: 0,
                        bytes: moved,
                    }
                }
            }
            _ => return Err("the use is neither a copy nor a launch".into()),
        };
        return Ok(HostReplay::Steps {
            steps: vec![
                ReplayStep::Allocate {
                    buffer: 0,
                    bytes: held,
                },
                ReplayStep::Free { buffer: 0 },
                last,
            ],
            binding,
            name: variable_name(host, variable),
        });
    }
    Err("the host model holds no use after a free at this location".into())
}

fn plan_uninitialized_pointer(model: &Model, span: &Range<usize>) -> Result<HostReplay, String> {
    for host in &model.host.functions {
        // The finding's span is the launch, copy or free; the pointer is the variable without a
        // value (on the path the lint found: before any allocation, or past the branches that
        // allocate it).
        let Some(event) = host.events.iter().find(|e| {
            e.node.byte_range() == *span
                && host.variables.get(e.variable).is_some_and(|v| {
                    v.is_pointer && v.initial == crate::model::host::Initial::Uninitialized
                })
                && (launch_or_copy_event(host, span, Some(e.variable)).is_some()
                    || matches!(e.kind, EventKind::Freed { device: true }))
                && !host.defined_on_every_path(e.variable, e, model.source)
        }) else {
            continue;
        };
        if matches!(event.kind, EventKind::Freed { .. }) {
            return Ok(HostReplay::Steps {
                steps: vec![ReplayStep::FreeUnallocated],
                binding: String::new(),
                name: variable_name(host, event.variable),
            });
        }
        let (bytes, binding) = match &event.kind {
            EventKind::Launched {
                launch, argument, ..
            } => {
                return dangling_launch(
                    model,
                    host,
                    *launch,
                    *argument,
                    event.variable,
                    LaunchProbe::Unallocated,
                )
            }
            EventKind::Read { bytes, .. } | EventKind::Written { bytes, .. } => {
                one_size(bytes.as_ref(), 4096)
            }
            _ => return Err("the use is neither a copy nor a launch".into()),
        };
        let step = if matches!(event.kind, EventKind::Read { .. }) {
            ReplayStep::CopyFromUnallocated { bytes }
        } else {
            ReplayStep::CopyToUnallocated { bytes }
        };
        return Ok(HostReplay::Steps {
            steps: vec![step],
            binding,
            name: variable_name(host, event.variable),
        });
    }
    Err("the host model holds no use of an uninitialized pointer at this location".into())
}

/// A call of a function of this file that launches a kernel reading a buffer nothing wrote:
/// that launch, with the buffer unwritten.
fn plan_launcher_read(model: &Model, span: &Range<usize>) -> Option<Result<HostReplay, String>> {
    let (host, event) = model.host.functions.iter().find_map(|host| {
        host.events
            .iter()
            .find(|e| {
                e.node.byte_range() == *span
                    && matches!(e.kind, EventKind::Borrowed { reads: true, .. })
                    // the buffer the finding is about: nothing wrote it before
                    && host.events_before(e.variable, e).all(|b| {
                        matches!(
                            b.kind,
                            EventKind::Allocated { .. }
                                | EventKind::Read { .. }
                                | EventKind::Borrowed { writes: false, .. }
                        )
                    })
            })
            .map(|e| (host, e))
    })?;
    let name = variable_name(host, event.variable);
    // the argument that passes the buffer, and the called function's parameter there
    let callee_name = crate::model::host::called_name(event.node, model.source);
    let position = crate::syntax::call_arguments(event.node)
        .iter()
        .position(|a| {
            crate::syntax::text(crate::syntax::strip(*a, model.source), model.source) == name
        })?;
    let callee = model.host.functions.iter().find(|h| {
        model
            .functions
            .get(h.function_index)
            .is_some_and(|f| f.name == callee_name && f.parameters.len() > position)
    })?;
    // the callee's first launch that passes that parameter on
    let (launch, argument) = callee.launches.iter().find_map(|launch| {
        launch
            .pointer_arguments
            .iter()
            .position(|p| p.is_some_and(|p| p.variable == position && p.whole))
            .map(|argument| (launch, argument))
    })?;
    let built = kernel_experiment(model, launch).and_then(|mut built| {
        replace_buffer(&mut built, argument, |bytes, fill| {
            Argument::PartlyInitialized {
                bytes,
                fill,
                initialized_elements: 0,
            }
        })?;
        Ok(built)
    });
    Some(built.map(|built| HostReplay::Launch {
        built: Box::new(built),
        position: argument,
        name,
        probe: LaunchProbe::Uninitialized,
    }))
}

fn plan_uninitialized_read(model: &Model, span: &Range<usize>) -> Result<HostReplay, String> {
    if let Some(plan) = plan_launcher_read(model, span) {
        return plan;
    }
    for host in &model.host.functions {
        let Some((launch, position)) = launch_at(host, span) else {
            continue;
        };
        let pointer = launch
            .pointer_arguments
            .get(position)
            .copied()
            .flatten()
            .ok_or("the argument is not a tracked pointer")?;
        let event = host
            .event_at(pointer.variable, launch.call)
            .ok_or("no launch event for the pointer")?;
        // What was written after the allocation: nothing, or a prefix of known size.
        let written: Option<&Sym> = host
            .events_before(pointer.variable, event)
            .filter_map(|e| match &e.kind {
                EventKind::Written {
                    kind: WriteKind::Copy | WriteKind::Memset,
                    bytes,
                    whole: true,
                } => bytes.as_ref(),
                _ => None,
            })
            .last();
        let mut built = kernel_experiment(model, launch)?;
        let element_bytes = model
            .functions
            .iter()
            .find(|f| f.kind == FunctionKind::Kernel && f.name == launch.kernel)
            .and_then(|f| f.parameters.get(position))
            .and_then(|p| builtin_size(p.type_text.trim_end_matches(['*', ' '])))
            .and_then(|s| u64::try_from(s).ok())
            .filter(|s| *s > 0);
        let initialized_elements = match written {
            None => 0,
            Some(written) => one_size(Some(written), 0).0 / element_bytes.unwrap_or(1),
        };
        replace_buffer(&mut built, position, |bytes, fill| {
            Argument::PartlyInitialized {
                bytes,
                fill,
                initialized_elements,
            }
        })?;
        // the extent in elements is known only for an element of known size (not a struct)
        if let Some(element_bytes) = element_bytes {
            spread_index_data(model, launch, position, element_bytes, &mut built);
        }
        return Ok(HostReplay::Launch {
            built: Box::new(built),
            position,
            name: variable_name(host, pointer.variable),
            probe: LaunchProbe::Uninitialized,
        });
    }
    Err("the host model holds no launch argument at this location".into())
}

/// The integer buffers whose elements the kernel reads as indices into the buffer at `target`
/// (`bins[in[i]]`) are filled with values spread over all of that buffer: the small values of
/// the default fill would reach only its first elements, where the host may well have written.
fn spread_index_data(
    model: &Model,
    launch: &Launch,
    target: usize,
    element_bytes: u64,
    built: &mut KernelExperiment,
) {
    let Some((kernel, facts)) = model
        .kernel_facts()
        .find(|(f, _)| f.name == launch.kernel && f.parameters.len() == launch.arguments.len())
    else {
        return;
    };
    let Some(config) = built.experiment.configs.first_mut() else {
        return;
    };
    let limit = match config.arguments.get(target) {
        Some(Argument::PartlyInitialized { bytes, .. }) => bytes / element_bytes.max(1),
        _ => return,
    };
    let inside = |outer: Node, inner: Node| {
        outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
    };
    let feeding: Vec<usize> = facts
        .accesses
        .iter()
        .filter(|a| a.parameter_index == target && a.via.is_none())
        .flat_map(|a| {
            facts
                .accesses
                .iter()
                .filter(move |inner| inner.parameter_index != target && inside(a.index, inner.node))
                .map(|inner| inner.parameter_index)
        })
        .collect();
    for position in feeding {
        if let Some(Argument::Buffer { fill, .. }) = config.arguments.get_mut(position) {
            let bytes = match fill {
                Fill::Int1 => 1,
                Fill::Int2 => 2,
                Fill::Int4 => 4,
                Fill::Int8 => 8,
                _ => continue,
            };
            // a signed element holds only half of its range as indices
            let unsigned = kernel.parameters.get(position).is_some_and(|p| {
                let element = p.type_text.trim_start_matches("const ").trim_start();
                element.starts_with("unsigned")
                    || element.starts_with("uint")
                    || element.starts_with("size_t")
            });
            let bits = u32::from(bytes) * 8 - u32::from(!unsigned);
            let most = 1u64.checked_shl(bits).unwrap_or(u64::MAX);
            *fill = Fill::Spanning {
                bytes,
                limit: limit.min(most),
            };
        }
    }
}

/// How a step reads in a witness.
pub fn describe_step(step: &ReplayStep) -> String {
    match step {
        ReplayStep::Allocate { bytes, .. } => format!("cuMemAlloc of {bytes} bytes"),
        ReplayStep::CopyToDevice { bytes, .. } => format!("cuMemcpyHtoD of {bytes} bytes"),
        ReplayStep::CopyFromDevice { bytes, .. } => format!("cuMemcpyDtoH of {bytes} bytes"),
        ReplayStep::Memset { bytes, .. } => format!("cuMemsetD8 of {bytes} bytes"),
        ReplayStep::Free { .. } => "cuMemFree".into(),
        ReplayStep::CopyToUnallocated { bytes } => {
            format!("cuMemcpyHtoD of {bytes} bytes to a never-allocated address")
        }
        ReplayStep::CopyFromUnallocated { bytes } => {
            format!("cuMemcpyDtoH of {bytes} bytes from a never-allocated address")
        }
        ReplayStep::FreeUnallocated => "cuMemFree of a never-allocated address".into(),
    }
}

/// The outcome of a step replay: (status, detail).
pub fn judge_steps(
    steps: &[ReplayStep],
    results: &[StepResult],
    name: &str,
    binding: &str,
) -> (&'static str, String) {
    let sequence = steps
        .iter()
        .map(describe_step)
        .collect::<Vec<_>>()
        .join(", then ");
    let with = if binding.is_empty() {
        String::new()
    } else {
        format!(" (with {binding})")
    };
    let failed = results.iter().position(|r| r.error.is_some());
    match failed {
        Some(index) if index + 1 == steps.len() => {
            let error = results
                .get(index)
                .and_then(|r| r.error.clone())
                .unwrap_or_default();
            (
                "confirmed",
                format!(
                    "replayed for `{name}`{with}: {sequence}; the last step failed with {error}"
                ),
            )
        }
        Some(index) => (
            "not-verifiable",
            format!(
                "the replay for `{name}` failed before the step in question, at {}: {}",
                steps.get(index).map(describe_step).unwrap_or_default(),
                results
                    .get(index)
                    .and_then(|r| r.error.clone())
                    .unwrap_or_default()
            ),
        ),
        None => (
            "not-reproduced",
            format!("replayed for `{name}`{with}: {sequence}; the driver accepted every step"),
        ),
    }
}

/// The outcome of a launch replay from the worker's answer.
pub fn judge_launch(
    built: &KernelExperiment,
    position: usize,
    name: &str,
    probe: LaunchProbe,
    answer: &Response,
    text: &str,
) -> (&'static str, String) {
    let config = built.experiment.configs.first();
    let description = config.map(|c| c.description.clone()).unwrap_or_default();
    let pointer = match probe {
        LaunchProbe::Freed => format!("`{name}` freed before the launch"),
        LaunchProbe::Unallocated => format!("`{name}` as a never-allocated address"),
        LaunchProbe::Uninitialized => format!("`{name}` allocated and not written"),
    };
    if let (LaunchProbe::Freed, Response::Ran { results, .. }) = (probe, answer) {
        if let Some(witness) = freed_access_witness(built, position, results, text) {
            return (
                "confirmed",
                format!(
                    "`{}` launched with {pointer} ({description}): {witness}",
                    built.kernel
                ),
            );
        }
    }
    match (probe, answer) {
        (LaunchProbe::Freed | LaunchProbe::Unallocated, Response::Fault { message, .. }) => (
            "confirmed",
            format!(
                "`{}` launched with {pointer} ({description}) faulted: {message}",
                built.kernel
            ),
        ),
        (LaunchProbe::Freed | LaunchProbe::Unallocated, Response::Ran { results, .. }) => {
            match results.iter().find_map(|r| r.error.clone()) {
                Some(error) => (
                    "confirmed",
                    format!(
                        "`{}` launched with {pointer} ({description}) failed: {error}",
                        built.kernel
                    ),
                ),
                None => (
                    "not-reproduced",
                    format!(
                        "`{}` launched with {pointer} ({description}) ran without a fault",
                        built.kernel
                    ),
                ),
            }
        }
        (LaunchProbe::Uninitialized, Response::Ran { results, .. }) => {
            uninitialized_witness(built, position, results, text).map_or_else(
                || {
                    (
                        "not-reproduced",
                        format!(
                            "`{}` launched with {pointer} ({description}) read no unwritten element of it",
                            built.kernel
                        ),
                    )
                },
                |w| ("confirmed", w),
            )
        }
        (_, Response::CompileError { log }) => (
            "not-verifiable",
            format!(
                "NVRTC could not compile the extracted kernel: {}",
                log.lines().find(|l| l.contains("error")).unwrap_or("").trim()
            ),
        ),
        (_, other) => ("not-verifiable", format!("unexpected answer from the worker: {other:?}")),
    }
}

/// The first access through the freed pointer (the worker gives it an extent of zero).
fn freed_access_witness(
    built: &KernelExperiment,
    position: usize,
    results: &[ConfigResult],
    text: &str,
) -> Option<String> {
    results.iter().find_map(|result| {
        result.violations.iter().find_map(|v| {
            let site = built.source.sites.get(v.site)?;
            if site.parameter_index != position || v.extent != 0 {
                return None;
            }
            let access = super::access_text(site, text);
            Some(format!(
                "{} `{access}` reached the freed memory (element {}) by thread ({},{},{}) of block ({},{},{}); {} access(es) through the freed pointer",
                super::kind_word(v.kind),
                v.index,
                v.thread[0],
                v.thread[1],
                v.thread[2],
                v.block[0],
                v.block[1],
                v.block[2],
                v.count
            ))
        })
    })
}

fn uninitialized_witness(
    built: &KernelExperiment,
    position: usize,
    results: &[ConfigResult],
    text: &str,
) -> Option<String> {
    let config = built.experiment.configs.first()?;
    let result = results.first()?;
    result.violations.iter().find_map(|v| {
        let site = built.source.sites.get(v.site)?;
        (v.cause == 2 && site.parameter_index == position).then(|| witness(site, v, config, text))
    })
}
