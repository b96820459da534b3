//! The calls that launch a kernel handed to them as an argument, besides `<<<>>>`: the runtime's
//! launch functions and those of the libraries that wrap them. Each places the kernel, the grid,
//! the block, the shared bytes and the kernel's arguments differently; this file reads them all
//! into one shape.

use super::reading::launch_config_fields;
use super::*;

/// A launch written as a call, read into its parts (each as written at the call).
pub(super) struct ApiLaunch<'t> {
    pub kernel: Node<'t>,
    pub grid: Option<Node<'t>>,
    pub block: Option<Node<'t>>,
    /// The dynamic shared bytes; None where the call leaves them to a default or hides them.
    pub bytes: Option<Node<'t>>,
    /// The kernel's arguments; None where they cannot be read (an array of pointers filled
    /// elsewhere).
    pub arguments: Option<Vec<Node<'t>>>,
}

/// The runtime functions taking the kernel first: `cudaLaunchKernel(k, g, b, args, bytes,
/// stream)` and its cooperative and HIP twins, and HIP's `hipLaunchKernelGGL(k, g, b, bytes,
/// stream, args...)`.
const KERNEL_FIRST: [&str; 5] = [
    "cudaLaunchKernel",
    "cudaLaunchCooperativeKernel",
    "hipLaunchKernel",
    "hipLaunchCooperativeKernel",
    "hipLaunchKernelGGL",
];

/// `cudaLaunchKernelEx(&config, kernel, args...)`: the configuration in a `cudaLaunchConfig_t`.
const CONFIG_STRUCT: [&str; 2] = ["cudaLaunchKernelEx", "hipLaunchKernelEx"];

/// cuda-api-wrappers' `cuda::launch(kernel, config, args...)` and `cuda::enqueue_launch(kernel,
/// stream, config, args...)`, whose configuration `cuda::make_launch_config(grid, block[,
/// bytes])` builds.
const CONFIG_OBJECT: [(&str, usize); 2] = [("cuda::launch", 1), ("cuda::enqueue_launch", 2)];

/// Whether `call` is a launch this file reads (anything but `<<<>>>`).
pub(super) fn is_api_launch(call: Node, source: &str) -> bool {
    let Some(function) = call.field("function") else {
        return false;
    };
    let name = text(function, source);
    KERNEL_FIRST.contains(&name)
        || CONFIG_STRUCT.contains(&name)
        || CONFIG_OBJECT.iter().any(|(api, _)| *api == name)
        || is_graph_kernel_node(call, source)
}

/// Whether a function's text may hold such a launch, before any walk.
pub(super) fn may_hold_api_launch(body: &str) -> bool {
    body.contains("cudaLaunch")
        || body.contains("hipLaunchKernel")
        || body.contains("hipLaunchCooperativeKernel")
        || body.contains(".kernel(")
        || body.contains("cuda::launch(")
        || body.contains("enqueue_launch(")
}

/// Taskflow's `flow.kernel(grid, block, bytes, kernel, args...)` (`tf::cudaFlow`,
/// `tf::cudaFlowCapturer`, `tf::cudaGraph`): a kernel node of a CUDA graph, run with that
/// configuration each time the graph runs. A method named `kernel` with the kernel fourth.
fn is_graph_kernel_node(call: Node, source: &str) -> bool {
    call.field("function").is_some_and(|f| {
        f.node_kind() == "field_expression"
            && f.field("field")
                .is_some_and(|m| text(m, source) == "kernel")
    }) && syntax::call_arguments(call).len() >= 4
}

/// `call` read as a launch through an API, when it is one.
pub(super) fn api_launch<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
) -> Option<ApiLaunch<'t>> {
    let source = classifier.source;
    let name = text(call.field("function")?, source);
    let arguments = syntax::call_arguments(call);
    if CONFIG_STRUCT.contains(&name) {
        let (grid, block, bytes) = launch_config_fields(classifier, *arguments.first()?, call);
        return Some(ApiLaunch {
            kernel: kernel_expression(*arguments.get(1)?, source)?,
            grid,
            block,
            bytes,
            arguments: Some(arguments.get(2..).unwrap_or_default().to_vec()),
        });
    }
    if let Some(&(_, config_at)) = CONFIG_OBJECT.iter().find(|(api, _)| *api == name) {
        let (grid, block, bytes) = config_object(classifier, *arguments.get(config_at)?, call);
        return Some(ApiLaunch {
            kernel: kernel_expression(*arguments.first()?, source)?,
            grid,
            block,
            bytes,
            arguments: Some(arguments.get(config_at + 1..).unwrap_or_default().to_vec()),
        });
    }
    if KERNEL_FIRST.contains(&name) {
        let is_hip_macro = name == "hipLaunchKernelGGL";
        return Some(ApiLaunch {
            kernel: kernel_expression(*arguments.first()?, source)?,
            grid: arguments.get(1).copied(),
            block: arguments.get(2).copied(),
            bytes: arguments.get(if is_hip_macro { 3 } else { 4 }).copied(),
            arguments: match is_hip_macro {
                true => Some(arguments.get(5..).unwrap_or_default().to_vec()),
                false => arguments
                    .get(3)
                    .and_then(|array| super::reading::addresses_in_array(*array, call, source)),
            },
        });
    }
    if is_graph_kernel_node(call, source) {
        return Some(ApiLaunch {
            kernel: kernel_expression(*arguments.get(3)?, source)?,
            grid: arguments.first().copied(),
            block: arguments.get(1).copied(),
            bytes: arguments.get(2).copied(),
            arguments: Some(arguments.get(4..).unwrap_or_default().to_vec()),
        });
    }
    None
}

/// The kernel inside what an API is handed: `(void*)k`, `reinterpret_cast<void*>(&k)`, `&k`,
/// `HIP_KERNEL_NAME(k<float>)`.
fn kernel_expression<'t>(argument: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut kernel = strip(argument, source);
    for _ in 0..4 {
        kernel = strip(kernel, source);
        match kernel.node_kind() {
            "pointer_expression" | "cast_expression" => {
                kernel = kernel.field("argument").or_else(|| kernel.field("value"))?
            }
            "call_expression" => kernel = kernel.field("arguments")?.named_child(0)?,
            _ => break,
        }
    }
    Some(kernel)
}

/// The grid, block and shared bytes of a cuda-api-wrappers configuration: the arguments of
/// `cuda::make_launch_config(grid, block[, bytes])` (or of a `launch_configuration_t`'s
/// constructor), written at the launch or held by a local assigned once.
fn config_object<'t>(
    classifier: &Classifier<'_, 't>,
    config: Node<'t>,
    call: Node<'t>,
) -> (Option<Node<'t>>, Option<Node<'t>>, Option<Node<'t>>) {
    let source = classifier.source;
    let mut config = strip(config, source);
    if config.node_kind() == "identifier" {
        let name = text(config, source);
        match classifier.locals.value_at(name, call, source) {
            Held::One(value) => config = strip(value, source),
            _ => return (None, None, None),
        }
    }
    let is_builder = config.node_kind() == "call_expression"
        && config.field("function").is_some_and(|f| {
            let name = text(f, source);
            let last = name.rsplit("::").next().unwrap_or(name);
            matches!(last, "make_launch_config" | "launch_configuration_t")
        });
    if !is_builder {
        return (None, None, None);
    }
    let arguments = syntax::call_arguments(config);
    (
        arguments.first().copied(),
        arguments.get(1).copied(),
        arguments.get(2).copied(),
    )
}
