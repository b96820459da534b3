//! The GPU runtimes a file may program: CUDA's and HIP's.
//!
//! HIP spells the CUDA runtime API with `hip` where CUDA writes `cuda` (`hipMalloc`,
//! `hipMemcpyHostToDevice`, `hipError_t`, `hipSuccess`), with a few names of its own
//! (`hipHostMalloc` for `cudaHostAlloc`). The model reads every runtime call by its CUDA name
//! ([`cuda_name`]); what a finding says is spelled in the file's runtime ([`Runtime::spell`]).
//! Launches are the other difference: HIP code launches with `<<<...>>>` or with
//! `hipLaunchKernelGGL(kernel, grid, block, shared, stream, args...)` ([`launch_form`]).

use crate::syntax::{self, text, NodeExt};
use std::borrow::Cow;
use tree_sitter::Node;

/// The runtime whose API a file calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Runtime {
    #[default]
    Cuda,
    Hip,
}

/// HIP names that are not their CUDA twin with `hip` for `cuda`, as (HIP, CUDA).
const SPELLED_APART: &[(&str, &str)] = &[
    ("hipHostMalloc", "cudaHostAlloc"),
    ("hipHostFree", "cudaFreeHost"),
    ("hipHostMallocDefault", "cudaHostAllocDefault"),
    ("hipHostMallocPortable", "cudaHostAllocPortable"),
    ("hipHostMallocMapped", "cudaHostAllocMapped"),
    ("hipHostMallocWriteCombined", "cudaHostAllocWriteCombined"),
];

/// CUDA names whose HIP twin is another CUDA name's (`cudaMallocHost` is `hipHostMalloc` too:
/// HIP's `hipMallocHost` is deprecated).
const HIP_SPELLING: &[(&str, &str)] = &[("cudaMallocHost", "hipHostMalloc")];

/// The prefixes of the GPU libraries' functions, CUDA's and their HIP and ROCm counterparts
/// (`cublasSgemm`, `hipsparseSpMV`, `rocblas_sgemm`): they read and write the buffers they are
/// given and keep none.
pub const LIBRARY_PREFIXES: &[&str] = &[
    "cublas",
    "cusparse",
    "cufft",
    "curand",
    "cusolver",
    "cudnn",
    "cutensor",
    "nccl",
    "hipblas",
    "hipsparse",
    "hipfft",
    "hiprand",
    "hipsolver",
    "hipblaslt",
    "rocblas",
    "rocsparse",
    "rocfft",
    "rocrand",
    "rocsolver",
    "miopen",
    "rccl",
];

/// Whether `name` is a function of one of the GPU libraries ([`LIBRARY_PREFIXES`]): the prefix,
/// then an upper-case letter or, in ROCm's names, `_`.
pub fn is_library_function(name: &str) -> bool {
    LIBRARY_PREFIXES.iter().any(|prefix| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| c.is_ascii_uppercase() || (c == '_' && prefix.starts_with("roc")))
    })
}

/// The calls that launch a kernel through HIP's macro, with its arguments after the fifth.
pub const HIP_LAUNCH_MACRO: &str = "hipLaunchKernelGGL";

impl Runtime {
    /// The runtime `text` calls: HIP when the file is a `.hip` file, or when it names more HIP
    /// runtime identifiers (`hipMalloc`, `hipError_t`, `hipLaunchKernelGGL`) than CUDA ones.
    pub fn of(path: &std::path::Path, text: &str) -> Runtime {
        if path.extension().is_some_and(|e| e == "hip") {
            return Runtime::Hip;
        }
        if !text.contains("hip") {
            return Runtime::Cuda;
        }
        let (mut cuda, mut hip) = (0usize, 0usize);
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(found) = text[at..].find(['c', 'h']) {
            let start = at + found;
            at = start + 1;
            if start > 0 && is_identifier_byte(bytes[start - 1]) {
                continue;
            }
            let rest = &bytes[start..];
            let upper_at = |n: usize| rest.get(n).is_some_and(|b| b.is_ascii_uppercase());
            if rest.starts_with(b"cuda") && upper_at(4) {
                cuda += 1;
            } else if rest.starts_with(b"hip") && upper_at(3) {
                hip += 1;
            }
        }
        if hip > cuda {
            Runtime::Hip
        } else {
            Runtime::Cuda
        }
    }

    /// The lanes of a warp: 32 in CUDA; in HIP a wavefront of 64, as on AMD's data-centre GPUs
    /// (CDNA), which HIP code is written for first (RDNA's 32-lane mode is the exception).
    pub fn warp_size(self) -> i64 {
        match self {
            Runtime::Cuda => 32,
            Runtime::Hip => 64,
        }
    }

    /// The runtime's own name, as a finding says it ("CUDA calls", "HIP calls").
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Cuda => "CUDA",
            Runtime::Hip => "HIP",
        }
    }

    /// `cuda_name` (a CUDA runtime name) as this runtime spells it: `cudaFree` is `hipFree` in
    /// HIP, `cudaHostAlloc` is `hipHostMalloc`. Names that are not the runtime's are kept.
    pub fn spell(self, cuda_name: &str) -> Cow<'static, str> {
        if self == Runtime::Cuda {
            return Cow::Owned(cuda_name.to_string());
        }
        if let Some((_, hip)) = HIP_SPELLING.iter().find(|(c, _)| *c == cuda_name) {
            return Cow::Borrowed(hip);
        }
        if let Some((hip, _)) = SPELLED_APART.iter().find(|(_, c)| *c == cuda_name) {
            return Cow::Borrowed(hip);
        }
        match cuda_name.strip_prefix("cuda") {
            Some(tail) if tail.starts_with(|c: char| c.is_ascii_uppercase()) => {
                Cow::Owned(format!("hip{tail}"))
            }
            _ => Cow::Owned(cuda_name.to_string()),
        }
    }

    /// `message`, written once in CUDA's words, in this runtime's: every `cuda...` runtime name
    /// spelled as the runtime does ("call hipFree(d)", "a hipGetLastError() check"), and the word
    /// `CUDA` as the runtime's name ("2 HIP calls", "HIP_CHECK").
    pub fn translate(self, message: &str) -> String {
        if self == Runtime::Cuda || !(message.contains("cuda") || message.contains("CUDA")) {
            return message.to_string();
        }
        let mut out = String::with_capacity(message.len());
        let mut rest = message;
        while let Some(found) = rest.find(['c', 'C']) {
            let boundary =
                found == 0 || !rest[..found].bytes().last().is_some_and(is_identifier_byte);
            out.push_str(&rest[..found]);
            let end = rest[found..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(rest.len(), |e| found + e);
            let word = &rest[found..end];
            if boundary && (word == "CUDA" || word.starts_with("CUDA_")) {
                out.push_str(self.name());
                out.push_str(&word[4..]);
            } else if boundary {
                out.push_str(&self.spell(word));
            } else {
                out.push_str(word);
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether `name` is a HIP runtime identifier (`hipMalloc`, `hipError_t`; not `hipcub` or
/// `hipblasSgemm`, the libraries).
pub fn is_hip_name(name: &str) -> bool {
    name.strip_prefix("hip")
        .is_some_and(|tail| tail.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The CUDA name of a runtime identifier: `hipMalloc` is `cudaMalloc`, `hipHostMalloc` is
/// `cudaHostAlloc`, `::cudaMalloc` (the global namespace named) is `cudaMalloc`; any other name
/// (CUDA's own included) is itself.
pub fn cuda_name(name: &str) -> Cow<'_, str> {
    let name = name.strip_prefix("::").unwrap_or(name);
    if !is_hip_name(name) {
        return Cow::Borrowed(name);
    }
    if let Some((_, cuda)) = SPELLED_APART.iter().find(|(h, _)| *h == name) {
        return Cow::Borrowed(cuda);
    }
    Cow::Owned(format!("cuda{}", &name[3..]))
}

/// A kernel launch as written: the kernel expression, the configuration (grid, block, shared
/// bytes, stream, as many as given) and the kernel's arguments.
pub struct LaunchForm<'t> {
    pub kernel: Node<'t>,
    pub configuration: Vec<Node<'t>>,
    pub arguments: Vec<Node<'t>>,
}

/// `call` as a launch: `kernel<<<grid, block, shared, stream>>>(args...)` or
/// `hipLaunchKernelGGL(kernel, grid, block, shared, stream, args...)` (the kernel possibly in
/// `HIP_KERNEL_NAME(...)`).
pub fn launch_form<'t>(call: Node<'t>, source: &str) -> Option<LaunchForm<'t>> {
    if call.node_kind() != "call_expression" {
        return None;
    }
    let function = call.field("function")?;
    if syntax::named_children(call).any(|c| c.node_kind() == "kernel_call_syntax") {
        return Some(LaunchForm {
            kernel: function,
            configuration: syntax::launch_configuration(call),
            arguments: syntax::call_arguments(call),
        });
    }
    if text(function, source) != HIP_LAUNCH_MACRO {
        return None;
    }
    let arguments = syntax::call_arguments(call);
    let mut kernel = *arguments.first()?;
    // `HIP_KERNEL_NAME(k<float>)`, `(k)`
    for _ in 0..4 {
        kernel = syntax::strip(kernel, source);
        if kernel.node_kind() == "call_expression"
            && kernel
                .field("function")
                .is_some_and(|f| text(f, source) == "HIP_KERNEL_NAME")
        {
            kernel = kernel.field("arguments")?.named_child(0)?;
        } else {
            break;
        }
    }
    Some(LaunchForm {
        kernel,
        configuration: arguments.get(1..5.min(arguments.len()))?.to_vec(),
        arguments: arguments.get(5..).unwrap_or_default().to_vec(),
    })
}

/// A launch's grid, block, shared bytes and stream as its configuration writes them. A macro
/// that writes the grid and the block together (`k<<<DIM(n, 256), 0, stream>>>`, as
/// `writes_shape` tells by its name) stands for both: neither is read, and the values after it
/// are the shared bytes and the stream.
pub fn configuration_parts<'t>(
    configuration: &[Node<'t>],
    source: &str,
    writes_shape: impl Fn(&str) -> bool,
) -> [Option<Node<'t>>; 4] {
    let part = |i: usize| configuration.get(i).copied();
    let first = configuration.first().map(|f| syntax::strip(*f, source));
    let shape_macro = first.is_some_and(|f| {
        f.node_kind() == "call_expression"
            && f.field("function").is_some_and(|name| {
                name.node_kind() == "identifier" && writes_shape(text(name, source))
            })
    });
    if shape_macro {
        [None, None, part(1), part(2)]
    } else {
        [part(0), part(1), part(2), part(3)]
    }
}

/// Whether `call` launches a kernel in either form.
pub fn is_launch(call: Node, source: &str) -> bool {
    launch_form(call, source).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn hip_names_read_as_their_cuda_twins() {
        assert_eq!(cuda_name("hipMalloc"), "cudaMalloc");
        assert_eq!(cuda_name("hipMemcpyHostToDevice"), "cudaMemcpyHostToDevice");
        assert_eq!(cuda_name("hipHostMalloc"), "cudaHostAlloc");
        assert_eq!(cuda_name("hipHostFree"), "cudaFreeHost");
        assert_eq!(cuda_name("hipError_t"), "cudaError_t");
        assert_eq!(cuda_name("cudaFree"), "cudaFree");
        assert_eq!(cuda_name("::cudaMalloc"), "cudaMalloc");
        assert_eq!(cuda_name("::hipMallocAsync"), "cudaMallocAsync");
        assert_eq!(cuda_name("hipblasSgemm"), "hipblasSgemm");
        assert_eq!(cuda_name("hip"), "hip");
    }

    #[test]
    fn library_functions_of_both_runtimes() {
        for name in [
            "cublasSgemm",
            "hipsparseSpMV",
            "rocblas_sgemm",
            "miopenCreate",
            "ncclAllReduce",
        ] {
            assert!(is_library_function(name), "{name}");
        }
        for name in ["hipMalloc", "rocblas", "cublas_helper", "curandom"] {
            assert!(!is_library_function(name), "{name}");
        }
    }

    #[test]
    fn findings_spell_the_files_runtime() {
        assert_eq!(Runtime::Hip.spell("cudaFree"), "hipFree");
        assert_eq!(Runtime::Hip.spell("cudaHostAlloc"), "hipHostMalloc");
        assert_eq!(Runtime::Hip.spell("cudaMallocHost"), "hipHostMalloc");
        assert_eq!(Runtime::Hip.spell("malloc"), "malloc");
        assert_eq!(Runtime::Cuda.spell("cudaFree"), "cudaFree");
        assert_eq!(
            Runtime::Hip.translate("call cudaFree(d), then cudaGetLastError(); mycudaX stays"),
            "call hipFree(d), then hipGetLastError(); mycudaX stays"
        );
        assert_eq!(
            Runtime::Hip
                .translate("`f` ignores 2 CUDA calls, wrap them in CUDA_CHECK; cudalint, CUDAX"),
            "`f` ignores 2 HIP calls, wrap them in HIP_CHECK; cudalint, CUDAX"
        );
        assert_eq!(
            Runtime::Cuda.translate("call cudaFree(d)"),
            "call cudaFree(d)"
        );
    }

    #[test]
    fn a_file_is_hip_when_it_calls_hip_more_than_cuda() {
        let hip =
            "#include <hip/hip_runtime.h>\nvoid f(float* d) { hipMalloc(&d, 4); hipFree(d); }";
        assert_eq!(Runtime::of(Path::new("a.cu"), hip), Runtime::Hip);
        let cuda = "void f(float* d) { cudaMalloc(&d, 4); cudaFree(d); }";
        assert_eq!(Runtime::of(Path::new("a.cu"), cuda), Runtime::Cuda);
        assert_eq!(Runtime::of(Path::new("a.hip"), cuda), Runtime::Hip);
        // a portability header naming both keeps CUDA's words
        let both = "#define cudaMalloc hipMalloc\nvoid f(float* d) { cudaMalloc(&d, 4); }";
        assert_eq!(Runtime::of(Path::new("a.cu"), both), Runtime::Cuda);
        assert_eq!(
            Runtime::of(Path::new("a.cu"), "int chip; // hipster"),
            Runtime::Cuda
        );
    }

    #[test]
    fn both_launch_forms_give_kernel_configuration_and_arguments() {
        let source = "void f(float* p, int n) {\n  k<<<g, b>>>(p, n);\n  hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float>), dim3(g), dim3(b), 0, s, p, n);\n  other(p);\n}";
        let tree = crate::engine::parse(source, None).expect("parses");
        let mut forms = Vec::new();
        crate::syntax::walk_iterative(tree.root_node(), |node| {
            if let Some(form) = launch_form(node, source) {
                forms.push((
                    text(form.kernel, source).to_string(),
                    form.configuration.len(),
                    form.arguments
                        .iter()
                        .map(|a| text(*a, source))
                        .collect::<Vec<_>>(),
                ));
            }
            true
        });
        assert_eq!(
            forms,
            [
                ("k".to_string(), 2, vec!["p", "n"]),
                ("k<float>".to_string(), 4, vec!["p", "n"]),
            ]
        );
    }
}
