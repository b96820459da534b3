//! Builds the experiment's device source: the flagged kernel and what it needs from its file
//! (macros, device functions, constants, types), with every global-memory access of the kernel
//! rewritten into a checked access from `kernels/verify_prelude.cuh`.

use crate::model::{AccessKind, Function, FunctionKind, Model};
use crate::syntax::NodeExt;
use crate::syntax::{named_children, text};
use std::ops::Range;
use tree_sitter::Node;

/// The instrumentation prelude, prepended to every experiment.
pub const PRELUDE: &str = include_str!("../../kernels/verify_prelude.cuh");

/// Headers NVRTC resolves from the toolkit's include directory; every other include is dropped
/// (the experiment holds no host code).
const DEVICE_HEADERS: &[&str] = &[
    "cooperative_groups",
    "cuda_fp16.h",
    "cuda_bf16.h",
    "curand_kernel.h",
];

/// HIP's device headers and the CUDA headers that declare the same names, for HIP kernels run as
/// CUDA.
const HIP_DEVICE_HEADERS: &[(&str, &str)] = &[
    ("hip/hip_cooperative_groups.h", "<cooperative_groups.h>"),
    ("hip/hip_fp16.h", "<cuda_fp16.h>"),
    ("hip/hip_bf16.h", "<cuda_bf16.h>"),
    ("hip/hip_bfloat16.h", "<cuda_bf16.h>"),
];

/// A standard header NVRTC does not have, and the libcu++ header that stands in for it.
struct Substitute {
    standard: &'static [&'static str],
    header: &'static str,
    /// Brings the names into the global namespace, where the user's code expects them.
    declarations: &'static str,
    /// Words whose presence in the extracted code means the header is needed.
    used_by: &'static [&'static str],
}

const STANDARD_SUBSTITUTES: &[Substitute] = &[
    Substitute {
        standard: &["<cstdint>", "<stdint.h>", "<cinttypes>", "<inttypes.h>"],
        header: "<cuda/std/cstdint>",
        declarations: "using cuda::std::int8_t; using cuda::std::int16_t; using cuda::std::int32_t; using cuda::std::int64_t; using cuda::std::uint8_t; using cuda::std::uint16_t; using cuda::std::uint32_t; using cuda::std::uint64_t; using cuda::std::intptr_t; using cuda::std::uintptr_t;",
        used_by: &["int8_t", "int16_t", "int32_t", "int64_t", "intptr_t", "INT8_", "INT16_", "INT32_", "INT64_", "INTPTR_", "SIZE_MAX"],
    },
    Substitute {
        standard: &["<climits>", "<limits.h>"],
        header: "<cuda/std/climits>",
        declarations: "",
        used_by: &["CHAR_BIT", "_MAX", "_MIN"],
    },
];

/// One instrumented access.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The access expression's span in the original file (a finding's span).
    pub span: Range<usize>,
    pub kind: AccessKind,
    pub pointer: String,
    /// The kernel parameter the access reaches; `usize::MAX` for an access of the kernel's own
    /// array.
    pub parameter_index: usize,
    /// An access of one of the kernel's own arrays (local, `__shared__` or dynamic shared
    /// memory) rather than of a buffer parameter: it is checked so that the run does not fault,
    /// and its overflow says the launch does not fit the kernel.
    pub own_array: bool,
}

#[derive(Debug, Clone)]
pub struct KernelSource {
    /// The toolkit headers the code needs (`#include` lines), placed before everything else so
    /// that NVRTC can precompile them once.
    pub headers: Vec<String>,
    /// The extracted, instrumented code (without the headers and the prelude).
    pub body: String,
    /// The kernel's name in the module (declared `extern "C"`).
    pub symbol: String,
    pub sites: Vec<Site>,
    /// Accesses left uninstrumented, with the reason.
    pub uninstrumented: Vec<(Range<usize>, String)>,
    /// Compiler options from the build context (`-std=c++14`).
    pub options: Vec<String>,
    /// Where the build context came from, for the report: the compile database, and the project
    /// headers read for quoted includes.
    pub context: String,
    /// The block-wide barriers whose arrivals are counted (`cl_arrive`), by their span in the
    /// original file; barrier `b` of the report is `barriers[b]`.
    pub barriers: Vec<Range<usize>>,
    /// How each template parameter was bound (`T = float`).
    pub template_bindings: Vec<(String, String)>,
}

impl KernelSource {
    pub fn source(&self) -> String {
        program(&self.headers, std::slice::from_ref(&self.body))
    }
}

/// A self-contained program: the headers first (the prefix NVRTC can precompile), the prelude,
/// then each body. Several bodies go in one program so that a file's kernels cost one compile;
/// each body is wrapped in its own namespace, since every body repeats the file's helpers.
pub fn program(headers: &[String], bodies: &[String]) -> String {
    let mut out = String::new();
    for header in headers {
        out.push_str(header);
        out.push('\n');
    }
    // The prelude's fixed-width integers give way to libcu++'s or to the file's own.
    if headers.iter().any(|h| h.contains("cuda/std/cstdint"))
        || bodies.iter().any(|b| declares_fixed_width_integers(b))
    {
        out.push_str("#define CL_HAVE_CSTDINT\n");
    }
    out.push_str(PRELUDE);
    out.push('\n');
    match bodies {
        [only] => out.push_str(only),
        _ => {
            for (index, body) in bodies.iter().enumerate() {
                out.push_str(&format!("namespace cudalint_kernel_{index} {{\n{body}}}\n"));
            }
        }
    }
    out
}

/// Whether `body` declares one of the fixed-width integer names itself (`typedef long long
/// int64_t;`, `using uint32_t = unsigned;`).
fn declares_fixed_width_integers(body: &str) -> bool {
    const NAMES: &[&str] = &[
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "intptr_t",
        "uintptr_t",
    ];
    body.lines().any(|line| {
        let line = line.trim();
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let declared = if words.first() == Some(&"typedef") {
            words.last()
        } else if words.first() == Some(&"using") && line.contains('=') {
            words.get(1)
        } else {
            None
        };
        declared.is_some_and(|name| NAMES.contains(name))
    })
}

/// The headers of `headers` that `body` uses, and `body` without the namespace aliases,
/// using-directives and declarations of the headers it does not use. Parsing <cooperative_groups.h> costs NVRTC
/// most of a second, so a kernel that does not use it should not pay for it.
fn used_headers(headers: Vec<String>, body: String) -> (Vec<String>, String) {
    let mut kept = Vec::new();
    let mut body = body;
    for header in headers {
        if let Some(substitute) = STANDARD_SUBSTITUTES
            .iter()
            .find(|s| header.ends_with(s.header))
        {
            let is_declarations = |line: &str| {
                !substitute.declarations.is_empty() && line.trim() == substitute.declarations
            };
            let uses = body.lines().any(|line| {
                !is_declarations(line) && substitute.used_by.iter().any(|w| line.contains(w))
            });
            if uses {
                kept.push(header);
            } else {
                body = body
                    .lines()
                    .filter(|line| !is_declarations(line))
                    .map(|line| format!("{line}\n"))
                    .collect();
            }
            continue;
        }
        // cuRAND's device header is large: a program that draws no random number leaves it out
        if header.contains("curand_kernel.h") && !body.contains("curand") {
            continue;
        }
        let Some(namespace) = HEADER_NAMESPACES
            .iter()
            .find(|(file, _)| header.contains(file))
            .map(|(_, namespace)| *namespace)
        else {
            kept.push(header);
            continue;
        };
        let introductions: Vec<&str> = body
            .lines()
            .filter(|line| introduces_namespace(line, namespace))
            .collect();
        let aliases: Vec<String> = introductions
            .iter()
            .filter_map(|line| alias_name(line))
            .map(|alias| format!("{alias}::"))
            .collect();
        let has_using_directive = introductions.iter().any(|l| alias_name(l).is_none());
        let uses = has_using_directive
            || body.lines().any(|line| {
                !introduces_namespace(line, namespace)
                    && (line.contains(namespace) || aliases.iter().any(|a| line.contains(a)))
            });
        if uses {
            kept.push(header);
        } else {
            body = body
                .lines()
                .filter(|line| !introduces_namespace(line, namespace))
                .map(|line| format!("{line}\n"))
                .collect();
        }
    }
    (kept, body)
}

/// Toolkit headers a project reaches through its own headers (`common.h` including
/// <cuda_fp16.h>), and the names that show the extracted code needs them: a project header that
/// was not found, or whose include was dropped, must not leave `__half` undeclared.
const TOOLKIT_HEADERS_BY_USE: &[(&str, &[&str])] = &[
    ("#include <cooperative_groups.h>", &["cooperative_groups"]),
    (
        "#include <cuda_fp16.h>",
        &[
            "__half",
            "__half2",
            "half",
            "half2",
            "__float2half",
            "__half2float",
        ],
    ),
    (
        "#include <cuda_bf16.h>",
        &[
            "__nv_bfloat16",
            "__nv_bfloat162",
            "__float2bfloat16",
            "__bfloat162float",
        ],
    ),
    (
        "#include <curand_kernel.h>",
        &[
            "curandState",
            "curandState_t",
            "curandStatePhilox4_32_10_t",
            "curand_init",
            "curand_uniform",
            "curand_uniform4",
            "curand_normal",
        ],
    ),
];

/// Names of the C++ standard library that device code uses (`std::pair` parameters,
/// `std::is_same` in a template), and the libcu++ header NVRTC has them in (it has no <utility>
/// or <type_traits> of its own): each name used as `std::NAME` is brought into `std` from
/// `cuda::std`.
const LIBCUXX_BY_USE: &[(&str, &[&str])] = &[
    (
        "<cuda/std/utility>",
        &["pair", "make_pair", "swap", "move", "forward", "declval"],
    ),
    (
        "<cuda/std/type_traits>",
        &[
            "is_same",
            "enable_if",
            "conditional",
            "integral_constant",
            "true_type",
            "false_type",
            "is_integral",
            "is_floating_point",
            "is_signed",
            "is_unsigned",
            "is_pointer",
            "remove_cv",
            "remove_reference",
            "remove_pointer",
            "decay",
        ],
    ),
    ("<cuda/std/limits>", &["numeric_limits"]),
    (
        "<cuda/std/cstdint>",
        &[
            "int8_t",
            "int16_t",
            "int32_t",
            "int64_t",
            "uint8_t",
            "uint16_t",
            "uint32_t",
            "uint64_t",
            "intptr_t",
            "uintptr_t",
        ],
    ),
];

fn add_libcuxx_by_use(headers: &mut Vec<String>, body: &str) {
    for (header, names) in LIBCUXX_BY_USE {
        // Included already, as the stand-in for <cstdint>: only its names in `std` are missing.
        let included = headers.iter().any(|h| h.contains(header));
        if included && !STANDARD_SUBSTITUTES.iter().any(|s| s.header == *header) {
            continue;
        }
        let used: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| uses_std_name(body, name))
            .collect();
        if used.is_empty() {
            continue;
        }
        let declarations: String = used
            .iter()
            .map(|name| format!(" using cuda::std::{name};"))
            .collect();
        let namespace = format!("namespace std {{{declarations} }}");
        if !included {
            // the global names too, which the prelude no longer declares once it is included
            let global = STANDARD_SUBSTITUTES
                .iter()
                .find(|s| s.header == *header)
                .map_or(String::new(), |s| format!("{}\n", s.declarations));
            headers.push(format!("#include {header}\n{global}{namespace}"));
        } else if !headers.contains(&namespace) {
            headers.push(namespace);
        }
    }
}

/// Whether `body` names `std::NAME` (not `std::NAME_suffix`).
fn uses_std_name(body: &str, name: &str) -> bool {
    let qualified = format!("std::{name}");
    body.match_indices(&qualified).any(|(at, _)| {
        let before = body[..at].chars().next_back();
        let after = body[at + qualified.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

fn add_toolkit_headers_by_use(headers: &mut Vec<String>, body: &str) {
    add_libcuxx_by_use(headers, body);
    for (header, names) in TOOLKIT_HEADERS_BY_USE {
        let file = header
            .trim_start_matches("#include <")
            .trim_end_matches('>');
        if headers.iter().any(|h| h.contains(file)) {
            continue;
        }
        if names
            .iter()
            .any(|name| crate::syntax::contains_identifier(body, name))
        {
            headers.push(header.to_string());
        }
    }
}

/// Headers whose every name lives in one namespace, so their use can be seen in the text.
const HEADER_NAMESPACES: &[(&str, &str)] = &[("cooperative_groups", "cooperative_groups")];

/// `namespace cg = cooperative_groups;` or `using namespace cooperative_groups;`.
fn introduces_namespace(line: &str, namespace: &str) -> bool {
    let line = line.trim();
    line.starts_with("namespace ") && line.contains('=') && line.contains(namespace)
        || line.starts_with("using namespace ") && line.contains(namespace)
}

fn alias_name(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("namespace ")?;
    let (name, _) = rest.split_once('=')?;
    Some(name.trim())
}

pub fn kind_code(kind: AccessKind) -> u32 {
    match kind {
        AccessKind::Read => 1,
        AccessKind::Write => 2,
        AccessKind::ReadWrite => 3,
    }
}

/// Extracts kernel `kernel` (an index into `model.functions`), instantiating its template
/// parameters with `template_arguments` where given.
pub fn build(
    model: &Model,
    kernel: usize,
    template_arguments: &[String],
) -> Result<KernelSource, String> {
    build_with(model, kernel, template_arguments, None)
}

/// The extraction without the project headers of quoted includes: what is compiled when the
/// program with them does not compile (a header with host-only code, say).
pub fn build_without_includes(
    model: &Model,
    kernel: usize,
    template_arguments: &[String],
) -> Result<KernelSource, String> {
    build_with(model, kernel, template_arguments, Some(&NO_INCLUDES))
}

/// No guard, and no quoted include read: the marker `build_without_includes` passes.
static NO_INCLUDES: super::twin::Guards = super::twin::Guards {
    sites: Vec::new(),
    edits: Vec::new(),
    described: Vec::new(),
};

/// The guarded twin of kernel `kernel`: the same extraction with the guards its findings suggest
/// applied (`super::twin`).
pub fn build_twin(
    model: &Model,
    kernel: usize,
    template_arguments: &[String],
    guards: &super::twin::Guards,
) -> Result<KernelSource, String> {
    build_with(model, kernel, template_arguments, Some(guards))
}

fn build_with(
    model: &Model,
    kernel: usize,
    template_arguments: &[String],
    guards: Option<&super::twin::Guards>,
) -> Result<KernelSource, String> {
    let function = model.functions.get(kernel).ok_or("no such kernel")?;
    if function.kind != FunctionKind::Kernel {
        return Err(format!("`{}` is not a kernel", function.name));
    }
    if function.has_parse_errors {
        return Err(format!("`{}` does not parse cleanly", function.name));
    }
    if let Some(reference) = texture_references(model)
        .into_iter()
        .find(|name| crate::syntax::contains_identifier(model.text(function.body), name))
    {
        return Err(format!(
            "`{}` reads the texture reference `{reference}`, which CUDA 12 removed (only texture objects can be compiled)",
            function.name
        ));
    }
    let context = super::context::for_file(model.path);
    let mut out = context.define_lines();
    let mut headers = Vec::new();
    let mut included = Includes {
        read: Vec::new(),
        search: context.include_dirs.clone(),
        off: guards.is_some_and(|g| std::ptr::eq(g, &NO_INCLUDES)),
        qualifiers: model.view.defined_qualifiers.clone(),
        defines: Vec::new(),
        device_code: format!("{}\n{}", device_code(model), template_arguments.join(", ")),
        reachable: Vec::new(),
    };
    if !included.off {
        included.reachable = reachable_headers(model.path, model.source, &included.search);
    }
    let mut state = Extraction {
        under_test: model.source,
        host_library_types: None,
        model,
        kernel: function,
        out: &mut out,
        headers: &mut headers,
        result: None,
        guards,
        included: &mut included,
        configuration: crate::source::configuration_blocks(model.source)
            .into_iter()
            .map(|block| (block, false))
            .collect(),
    };
    // A file compiled as part of another (`#include "kernels.cu"` in main.cu) sees the headers
    // that file includes before it.
    if let Some((includer, names)) = includer_context(model.path) {
        let own = model
            .path
            .canonicalize()
            .unwrap_or(model.path.to_path_buf());
        state.included.read.push(own);
        for name in names {
            state.include_named(&includer, &name, 1);
        }
    }
    state.items(model.tree.root_node(), 0);
    let Some(mut rewritten) = state.result.take() else {
        return Err(format!(
            "`{}` is not at file or namespace level",
            function.name
        ));
    };
    rewritten.options = context
        .standard
        .iter()
        .map(|standard| format!("-std={standard}"))
        .collect();
    let mut described = Vec::new();
    if let Some(database) = &context.database {
        described.push(format!("flags of {}", database.display()));
    }
    if !included.read.is_empty() {
        described.push(format!(
            "{} project header(s) for quoted includes",
            included.read.len()
        ));
    }
    rewritten.context = described.join(", ");
    let bindings = bind_template(model, function, template_arguments);
    if !bindings.0.is_empty() {
        // The kernel becomes an ordinary function with its parameters bound by name.
        let prefix: String = bindings
            .0
            .iter()
            .map(|b| b.declaration.clone() + "\n")
            .collect();
        rewritten.body = out.replace(TEMPLATE_MARKER, &prefix);
    } else {
        rewritten.body = out.replace(TEMPLATE_MARKER, "");
    }
    rewritten.template_bindings = bindings.0.into_iter().map(|b| (b.name, b.value)).collect();
    (rewritten.headers, rewritten.body) =
        used_headers(headers, std::mem::take(&mut rewritten.body));
    add_toolkit_headers_by_use(&mut rewritten.headers, &rewritten.body);
    if let Some(reason) = bindings.1 {
        return Err(reason);
    }
    Ok(rewritten)
}

const TEMPLATE_MARKER: &str = "\u{0}template-bindings\u{0}";

struct Extraction<'a, 'm, 't> {
    model: &'a Model<'t>,
    kernel: &'a Function<'m>,
    out: &'a mut String,
    headers: &'a mut Vec<String>,
    result: Option<KernelSource>,
    guards: Option<&'a super::twin::Guards>,
    included: &'a mut Includes,
    /// The file's configuration blocks (`configuration_blocks`), and whether each is written out.
    configuration: Vec<(Range<usize>, bool)>,
    /// The text of the file under test (the header's includer, at any depth).
    under_test: &'a str,
    /// For a header that is a host library, the only types it offers (`host_library_types`).
    host_library_types: Option<Vec<&'t str>>,
}

/// The project headers read into an experiment (quoted includes found beside the file, in an
/// `include/` folder next to it or above it, or in the include paths of the file's compile
/// command), each once.
#[derive(Default)]
pub struct Includes {
    pub read: Vec<std::path::PathBuf>,
    /// Include paths from the compile database, searched after the file's own folders.
    pub search: Vec<std::path::PathBuf>,
    /// No quoted include is read.
    pub off: bool,
    /// The qualifier macros of the headers read so far (`DS_D_INLINE`), for the next ones.
    pub qualifiers: Vec<(String, String)>,
    /// The macros the headers read so far define (`NAME=VALUE`): a later header's `#ifdef` of
    /// one (`PTX_AVAILABLE`, defined by a header read before it) is decided as compiled.
    pub defines: Vec<String>,
    /// The device code of the file under test (its kernels and device functions): the names a
    /// host library's types must be among to be offered (`host_library_types`).
    pub device_code: String,
    /// The project headers the file includes, at any depth, with their text: a header's type
    /// that another header's device function names is needed though the file never names it.
    pub reachable: Vec<(std::path::PathBuf, String)>,
}

/// Headers read per experiment, and their largest size: a kernel's helpers and macros are in the
/// first few; a header past this is a library's.
const MAX_INCLUDES: usize = 24;
const MAX_INCLUDE_BYTES: u64 = 512 * 1024;
const MAX_INCLUDE_DEPTH: usize = 4;
/// How many folders above the file's own an `include/` folder is looked for in.
const MAX_INCLUDE_FOLDER_LEVELS: usize = 3;

/// Where a quoted include `name` of the file `from` is: its folder, then `include/` or
/// `includes/` beside it and in the folders above it, then `search`.
pub fn resolve_include(
    from: &std::path::Path,
    name: &str,
    search: &[std::path::PathBuf],
) -> Option<std::path::PathBuf> {
    let folder = from.parent().unwrap_or(std::path::Path::new("."));
    let folder = if folder.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        folder
    };
    let mut candidates = vec![folder.join(name)];
    // Projects keep shared headers in an `include/` or `includes/` folder of the file's folder or
    // of one of its parents (`csrc/includes/` for `csrc/transformer/x.cu`).
    let mut above = folder.to_path_buf();
    for _ in 0..=MAX_INCLUDE_FOLDER_LEVELS {
        for headers in ["include", "includes"] {
            candidates.push(above.join(headers).join(name));
        }
        above.push("..");
    }
    candidates.extend(search.iter().map(|dir| dir.join(name)));
    candidates.into_iter().find(|path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= MAX_INCLUDE_BYTES)
    })
}

impl<'t> Extraction<'_, '_, 't> {
    fn source(&self) -> &'t str {
        self.model.source
    }

    fn items(&mut self, parent: Node, depth: usize) {
        if depth > 16 {
            return;
        }
        for item in named_children(parent) {
            self.item(item, depth);
        }
    }

    fn item(&mut self, item: Node, depth: usize) {
        let source = self.source();
        let item_text = text(item, source);
        // A type defined after the kernel cannot be the kernel's; host-only classes there
        // (argument parsers, timers) would not compile as device code.
        if self.result.is_some() && defines_a_type(item) {
            return;
        }
        if defines_a_type(item) && !self.type_may_be_used(item) {
            return;
        }
        // of a host library, only its macros, constants and the types it offers
        if let Some(offered) = &self.host_library_types {
            let kept = match item.node_kind() {
                "struct_specifier"
                | "class_specifier"
                | "enum_specifier"
                | "union_specifier"
                | "type_definition"
                | "alias_declaration"
                | "template_declaration" => {
                    defined_type_name(item, source).is_some_and(|name| offered.contains(&name))
                }
                kind => {
                    kind.starts_with("preproc_")
                        || matches!(
                            kind,
                            "namespace_definition" | "linkage_specification" | "declaration"
                        )
                }
            };
            if !kept {
                return;
            }
        }
        match item.node_kind() {
            "preproc_include"
                if DEVICE_HEADERS
                    .iter()
                    .chain(HIP_DEVICE_HEADERS.iter().map(|(hip, _)| hip))
                    .any(|h| item_text.contains(h)) =>
            {
                let header = HIP_DEVICE_HEADERS
                    .iter()
                    .find(|(hip, _)| item_text.contains(hip))
                    .map(|(_, cuda)| format!("#include {cuda}"))
                    .unwrap_or_else(|| item_text.trim().to_string());
                if !self.headers.contains(&header) {
                    self.headers.push(header);
                }
            }
            "preproc_include"
                if item
                    .field("path")
                    .is_some_and(|p| p.node_kind() == "string_literal") =>
            {
                self.include(item, depth);
            }
            // `#include <helper_math.h>` of a folder the build context adds to the include path
            "preproc_include"
                if item.field("path").is_some_and(|p| {
                    let name = text(p, source).trim_matches(['<', '>']);
                    !self.included.search.is_empty()
                        && [".h", ".hpp", ".cuh", ".hh"]
                            .iter()
                            .any(|e| name.ends_with(e))
                        && self
                            .included
                            .search
                            .iter()
                            .any(|dir| dir.join(name).is_file())
                }) =>
            {
                if let Some(path) = item.field("path") {
                    let name = text(path, source).trim_matches(['<', '>']).to_string();
                    self.include_named(self.model.path, &name, depth);
                }
            }
            "preproc_include" => {
                let substitute = STANDARD_SUBSTITUTES
                    .iter()
                    .find(|s| s.standard.iter().any(|h| item_text.contains(h)));
                if let Some(substitute) = substitute {
                    let header = format!("#include {}", substitute.header);
                    if !self.headers.contains(&header) {
                        self.headers.push(header);
                        if !substitute.declarations.is_empty() {
                            self.push(substitute.declarations);
                        }
                    }
                }
            }
            "preproc_def" | "preproc_function_def" | "preproc_call" => {
                match self
                    .configuration
                    .iter_mut()
                    .find(|(block, _)| block.contains(&item.start_byte()))
                {
                    Some((_, emitted)) if *emitted => {}
                    Some((block, emitted)) => {
                        *emitted = true;
                        let block = block.clone();
                        self.push(without_final_continuation(&source[block]))
                    }
                    None => self.push(without_final_continuation(item_text)),
                }
            }
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                let condition = item.field("condition").or_else(|| item.field("name"));
                for child in named_children(item) {
                    if Some(child) != condition {
                        self.item(child, depth + 1);
                    }
                }
            }
            "function_definition" => self.function(item, None),
            "template_declaration" => {
                let inner = named_children(item).find(|c| c.node_kind() == "function_definition");
                match inner {
                    Some(definition) => self.function(definition, Some(item)),
                    None => self.push(&without_host_members(item, source)),
                }
            }
            // A definition followed by `;` at file level: the `;` is not part of the node.
            "struct_specifier" | "class_specifier" | "enum_specifier" | "union_specifier" => {
                let definition = without_host_members(item, source);
                self.push(&format!("{};", definition.trim_end()))
            }
            "type_definition" | "alias_declaration" | "namespace_alias_definition" => {
                self.push(item_text)
            }
            "using_declaration" if !item_text.contains("std") => {
                // `using namespace X;` of a namespace from a header the experiment leaves out
                // would not compile; the names it brings in are missing either way.
                let namespace = item_text
                    .trim()
                    .strip_prefix("using namespace")
                    .map(|rest| rest.trim().trim_end_matches(';').trim());
                let known = namespace.is_none_or(|name| {
                    HEADER_NAMESPACES.iter().any(|(_, n)| *n == name)
                        || defines_namespace(self.model.tree.root_node(), source, name, 0)
                        // a project header read before opened it
                        || self.out.contains(&format!("namespace {name} {{"))
                });
                if known {
                    self.push(item_text)
                }
            }
            "declaration" => {
                let is_function_prototype = item
                    .field("declarator")
                    .is_some_and(|d| d.node_kind() == "function_declarator");
                let keeps = ["__constant__", "__device__", "__managed__", "constexpr"]
                    .iter()
                    .any(|k| item_text.contains(k))
                    || is_named_constant(item, source);
                if keeps
                    && (!is_function_prototype || item_text.contains("__device__"))
                    && !item_text.contains("std::")
                {
                    self.push(item_text);
                }
            }
            "namespace_definition" => {
                let name = item
                    .field("name")
                    .map(|n| text(n, source).to_string())
                    .unwrap_or_default();
                if let Some(body) = item.field("body") {
                    self.out.push_str(&format!("namespace {name} {{\n"));
                    self.items(body, depth + 1);
                    self.out.push_str("}\n");
                }
            }
            "linkage_specification" => {
                if let Some(body) = item.field("body") {
                    if body.node_kind() == "declaration_list" {
                        self.items(body, depth + 1);
                    } else {
                        self.item(body, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// A `constexpr` function written with no `__host__`, named outside its definition in the
    /// file or header it is in, or in the file under test.
    fn constexpr_helper_in_use(&self, definition: Node, function: &Function) -> bool {
        let source = self.source();
        let head_end = definition
            .field("declarator")
            .map_or(definition.start_byte(), |d| d.start_byte());
        let head = source.get(definition.start_byte()..head_end).unwrap_or("");
        if !crate::syntax::contains_identifier(head, "constexpr")
            || crate::syntax::contains_identifier(head, "__host__")
            || self.host_library_types.is_some()
        {
            return false;
        }
        let range = definition.byte_range();
        let name = function.name.as_str();
        crate::syntax::contains_identifier(source.get(..range.start).unwrap_or(""), name)
            || crate::syntax::contains_identifier(source.get(range.end..).unwrap_or(""), name)
            || (!std::ptr::eq(source, self.under_test)
                && crate::syntax::contains_identifier(self.under_test, name))
    }

    /// Whether a type a project header defines is named anywhere else: in the file under test,
    /// or in the header outside its own definition. A header's host-only classes (a timer over
    /// `timespec`, an argument parser) would not compile as device code.
    fn type_may_be_used(&self, item: Node) -> bool {
        let Some(name) = defined_type_name(item, self.source()) else {
            return true;
        };
        // A host library (a hash map, a training context holding a cuRAND generator) names its
        // own types throughout, in host code; with no device code of its own, it offers the
        // kernel only the types the file under test names and the types those are made of.
        if let Some(offered) = &self.host_library_types {
            return offered.contains(&name);
        }
        let under_test = std::ptr::eq(self.model.source, self.under_test);
        if !under_test
            && (crate::syntax::contains_identifier(&self.included.device_code, name)
                || self.included.reachable.iter().any(|(path, text)| {
                    path.as_path() != self.model.path
                        && crate::syntax::contains_identifier(text, name)
                }))
        {
            return true;
        }
        // Named by code outside its own definition (a comment is not code; a twin definition
        // in a branch not taken is blank): in the file under test, by code other than its host
        // functions (a timer class its `main` uses does not compile as device code).
        named_in_code(self.model, name, item.byte_range(), under_test)
    }

    /// A quoted include of a project header: its macros, types, constants and device functions,
    /// extracted as the file's own are, in place.
    fn include(&mut self, item: Node, depth: usize) {
        let Some(name) = item
            .field("path")
            .map(|p| text(p, self.source()).trim_matches('"').to_string())
        else {
            return;
        };
        self.include_named(self.model.path, &name, depth);
    }

    /// The header `name` as `from` includes it.
    fn include_named(&mut self, from: &std::path::Path, name: &str, depth: usize) {
        if self.included.off
            || depth > MAX_INCLUDE_DEPTH
            || self.included.read.len() >= MAX_INCLUDES
        {
            return;
        }
        let Some(path) = resolve_include(from, name, &self.included.search) else {
            return;
        };
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if self.included.read.contains(&key) {
            return;
        }
        self.included.read.push(key);
        // read once per experiment: the headers the file reaches were read to find their names
        let known = self.included.reachable.iter().find(|(p, _)| *p == path);
        let Some(header) = known
            .map(|(_, text)| text.clone())
            .or_else(|| std::fs::read_to_string(&path).ok())
        else {
            return;
        };
        let kernel = self.kernel;
        let under_test = self.under_test;
        let mut defines: Vec<String> = self
            .model
            .view
            .defines
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        defines.extend(self.included.defines.iter().cloned());
        let out = &mut *self.out;
        let headers = &mut *self.headers;
        let included = &mut *self.included;
        // The qualifier macros of the headers it includes itself are known before it is read.
        let mut known_qualifiers = included.qualifiers.clone();
        let mut visited = vec![key_of(&path)];
        nested_qualifiers(
            &path,
            &header,
            &included.search,
            &mut visited,
            &mut known_qualifiers,
        );
        super::with_header_model(&path, &header, defines, known_qualifiers, |model| {
            for qualifier in &model.view.defined_qualifiers {
                if !included.qualifiers.contains(qualifier) {
                    included.qualifiers.push(qualifier.clone());
                }
            }
            for (name, value) in &model.view.defines {
                let definition = format!("{name}={value}");
                if !included.defines.contains(&definition) {
                    included.defines.push(definition);
                }
            }
            let mut inner = Extraction {
                under_test,
                host_library_types: host_library_types(model, &included.device_code),
                model,
                kernel,
                out,
                headers,
                result: None,
                guards: None,
                included,
                configuration: crate::source::configuration_blocks(model.source)
                    .into_iter()
                    .map(|block| (block, false))
                    .collect(),
            };
            inner.items(model.tree.root_node(), depth + 1);
        });
    }

    fn push(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn function(&mut self, definition: Node, template: Option<Node>) {
        let Some(function) = self
            .model
            .functions
            .iter()
            .find(|f| f.definition == definition)
        else {
            return;
        };
        let whole = template.unwrap_or(definition);
        match function.kind {
            FunctionKind::Device | FunctionKind::HostDevice => {
                self.push(text(whole, self.source()))
            }
            // a `constexpr` helper with no execution space compiles for the device too
            // (`--device-as-default-execution-space`), as constants of device code call it
            FunctionKind::Host if self.constexpr_helper_in_use(definition, function) => {
                self.push(text(whole, self.source()))
            }
            FunctionKind::Host => {}
            FunctionKind::Kernel if definition == self.kernel.definition => {
                let instrumented = instrument(self.model, self.kernel, self.guards);
                if template.is_some() {
                    self.out.push_str("namespace cudalint_instance {\n");
                    self.out.push_str(TEMPLATE_MARKER);
                }
                self.out.push_str("extern \"C\" ");
                self.push(&instrumented.body);
                if template.is_some() {
                    self.out.push_str("}\n");
                }
                self.result = Some(instrumented);
            }
            FunctionKind::Kernel => {}
        }
    }
}

/// The qualifier macros (`#define DS_D_INLINE __device__ __forceinline__`) that the headers
/// `text` includes define, at any depth, added to `out`.
fn nested_qualifiers(
    path: &std::path::Path,
    text: &str,
    search: &[std::path::PathBuf],
    visited: &mut Vec<std::path::PathBuf>,
    out: &mut Vec<(String, String)>,
) {
    // `#include <modifiers.hpp>` of a folder the build puts on the include path counts too
    let angle = |line: &str| {
        crate::model::index::angle_includes(line)
            .pop()
            .filter(|name| search.iter().any(|dir| dir.join(name).is_file()))
    };
    let names: Vec<String> = text
        .lines()
        .filter_map(|line| {
            quoted_include(line)
                .map(str::to_string)
                .or_else(|| angle(line))
        })
        .collect();
    for name in &names {
        let Some(nested) = resolve_include(path, name, search) else {
            continue;
        };
        let key = key_of(&nested);
        if visited.contains(&key) || visited.len() >= MAX_INCLUDES {
            continue;
        }
        visited.push(key);
        let Ok(nested_text) = std::fs::read_to_string(&nested) else {
            continue;
        };
        for qualifier in crate::source::preprocess(&nested_text, &[]).defined_qualifiers {
            if !out.contains(&qualifier) {
                out.push(qualifier);
            }
        }
        nested_qualifiers(&nested, &nested_text, search, visited, out);
    }
}

fn key_of(path: &std::path::Path) -> std::path::PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The most files of a folder read to find one that includes the file under test.
const MAX_INCLUDER_CANDIDATES: usize = 64;

/// A file of the same folder that includes `path` (`#include "kernels.cu"`, in a source file or
/// in a header such as `sweep_small_systems.h` that includes `tridiagonal.h` and then
/// `sweep_kernels.cu`), and the quoted includes it has before that line, in order.
fn includer_context(path: &std::path::Path) -> Option<(std::path::PathBuf, Vec<String>)> {
    let file_name = path.file_name()?.to_str()?;
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    let mut candidates: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|candidate| {
            candidate.as_path() != path
                && candidate
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| {
                        matches!(
                            e,
                            "cu" | "cpp" | "cc" | "cxx" | "hip" | "h" | "cuh" | "hpp" | "hh"
                        )
                    })
                && std::fs::metadata(candidate).is_ok_and(|m| m.len() <= MAX_INCLUDE_BYTES)
        })
        .take(MAX_INCLUDER_CANDIDATES)
        .collect();
    candidates.sort();
    for candidate in candidates {
        let Ok(text) = std::fs::read_to_string(&candidate) else {
            continue;
        };
        let mut before = Vec::new();
        for line in text.lines() {
            let Some(name) = quoted_include(line) else {
                continue;
            };
            if name == file_name || name.strip_prefix("./") == Some(file_name) {
                return Some((candidate, before));
            }
            before.push(name.to_string());
        }
    }
    None
}

/// The texture references the file declares at file or namespace level
/// (`texture<float, 1, cudaReadModeElementType> t_img;`): a type CUDA 12 removed, bound by host
/// calls (`cudaBindTexture`) that no longer exist either.
fn texture_references(model: &Model) -> Vec<String> {
    let source = model.source;
    let mut names = Vec::new();
    for item in file_level_items(model) {
        if item.node_kind() != "declaration" {
            continue;
        }
        let is_texture = item.field("type").is_some_and(|t| {
            t.node_kind() == "template_type"
                && t.field("name")
                    .is_some_and(|n| text(n, source) == "texture")
        });
        if !is_texture {
            continue;
        }
        for declarator in named_children(item)
            .filter(|c| Some(*c) != item.field("type"))
            .filter(|c| c.node_kind() == "identifier")
        {
            names.push(text(declarator, source).to_string());
        }
    }
    names
}

/// The items at file level and inside namespaces and `extern "C"` blocks (8 deep at most), the
/// file's first, then each block's in turn.
fn file_level_items<'t>(model: &Model<'t>) -> Vec<tree_sitter::Node<'t>> {
    let mut items = Vec::new();
    let mut pending = vec![(model.tree.root_node(), 0)];
    while let Some((parent, depth)) = pending.pop() {
        for item in named_children(parent) {
            match item.node_kind() {
                "namespace_definition" | "linkage_specification" if depth < 8 => {
                    if let Some(body) = item.field("body") {
                        pending.push((body, depth + 1));
                    }
                }
                _ => items.push(item),
            }
        }
    }
    items
}

/// A directive's text without the line continuation its last line may end with: `} while (0) \`
/// followed by a blank line ends the macro in the file, but written out here it would join the
/// next line (another `#define`) to it.
fn without_final_continuation(directive: &str) -> &str {
    let mut text = directive.trim_end();
    while let Some(rest) = text.strip_suffix('\\') {
        text = rest.trim_end();
    }
    text
}

/// `header.h` of `#include "header.h"`.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The name of the type a file-level item defines (`struct Timer {...}`, `typedef ... Timer;`,
/// `using Timer = ...;`, `template <...> class Timer {...}`). An explicit or partial
/// specialisation (`template <> struct Vec<float> {...}`) defines the template's type: it is
/// kept or left out with the template itself.
fn defined_type_name<'s>(item: Node, source: &'s str) -> Option<&'s str> {
    let named = match item.node_kind() {
        "struct_specifier" | "class_specifier" | "enum_specifier" | "union_specifier"
        | "alias_declaration" => item.field("name"),
        "type_definition" => item.field("declarator"),
        "template_declaration" => named_children(item)
            .find(|c| matches!(c.node_kind(), "struct_specifier" | "class_specifier"))
            .and_then(|c| c.field("name"))
            .map(|name| match name.node_kind() {
                "template_type" => name.field("name").unwrap_or(name),
                _ => name,
            }),
        _ => None,
    }?;
    let name = text(named, source).trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
}

/// The project headers `text` (the file at `path`) includes by quoted includes, at any depth up
/// to the extraction's limits, each once, with their text.
pub(crate) fn reachable_headers(
    path: &std::path::Path,
    text: &str,
    search: &[std::path::PathBuf],
) -> Vec<(std::path::PathBuf, String)> {
    let mut found: Vec<(std::path::PathBuf, String)> = Vec::new();
    let mut frontier: Vec<(std::path::PathBuf, String)> =
        crate::model::index::quoted_includes(text)
            .into_iter()
            .map(|name| (path.to_path_buf(), name))
            .collect();
    for _ in 0..=MAX_INCLUDE_DEPTH {
        let mut next = Vec::new();
        for (from, name) in frontier {
            if found.len() >= MAX_INCLUDES {
                return found;
            }
            let Some(header) = resolve_include(&from, &name, search) else {
                continue;
            };
            if header == path || found.iter().any(|(p, _)| *p == header) {
                continue;
            }
            let Ok(contents) = std::fs::read_to_string(&header) else {
                continue;
            };
            next.extend(
                crate::model::index::quoted_includes(&contents)
                    .into_iter()
                    .map(|name| (header.clone(), name)),
            );
            found.push((header, contents));
        }
        frontier = next;
    }
    found
}

/// Whether an identifier `name` of `model`'s code lies outside `excluded` (and, with
/// `device_only`, outside its host functions).
fn named_in_code(model: &Model, name: &str, excluded: Range<usize>, device_only: bool) -> bool {
    let host: Vec<Range<usize>> = if device_only {
        let mut host: Vec<Range<usize>> = model
            .functions
            .iter()
            .filter(|f| f.kind == FunctionKind::Host)
            .map(|f| f.definition.byte_range())
            .collect();
        host.extend(host_variables(model));
        host
    } else {
        Vec::new()
    };
    let mut found = false;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        if found {
            return false;
        }
        let range = node.byte_range();
        let inside = |r: &Range<usize>| r.start <= range.start && range.end <= r.end;
        if inside(&excluded) || host.iter().any(inside) {
            return false;
        }
        if matches!(
            node.node_kind(),
            "type_identifier" | "identifier" | "namespace_identifier"
        ) && text(node, model.source) == name
        {
            found = true;
        }
        true
    });
    found
}

/// The file-level variables of host code (`Benchmark run = Benchmark();`, a global stream): not
/// device data, nor constants device code may read, so the experiment leaves them out, and a
/// type they name is not needed for them.
fn host_variables(model: &Model) -> Vec<Range<usize>> {
    let source = model.source;
    let mut ranges = Vec::new();
    for item in file_level_items(model) {
        if item.node_kind() != "declaration" {
            continue;
        }
        let item_text = text(item, source);
        let is_function = item
            .field("declarator")
            .is_some_and(|d| d.node_kind() == "function_declarator");
        let device_data = ["__constant__", "__device__", "__managed__", "constexpr"]
            .iter()
            .any(|k| crate::syntax::contains_identifier(item_text, k));
        if !is_function && !device_data && !is_named_constant(item, source) {
            ranges.push(item.byte_range());
        }
    }
    ranges
}

/// What device code may name of the file `model` reads: its kernels, device functions, the types
/// it defines and its constants (a host timer class, an argument parser: neither).
fn device_code(model: &Model) -> String {
    let mut parts: Vec<&str> = model
        .functions
        .iter()
        .filter(|f| f.kind != FunctionKind::Host)
        .map(|f| text(f.definition, model.source))
        .collect();
    for item in file_level_items(model) {
        if item.node_kind() == "declaration" || defined_type_name(item, model.source).is_some() {
            parts.push(text(item, model.source));
        }
    }
    parts.join("\n")
}

/// For a header with host code and no device code of its own (no `__global__`, `__device__` or
/// `__host__ __device__` function, no `__constant__` or `__device__` variable), the types it
/// defines that `device_code` names, and those their definitions name, at any depth; `None` for
/// any other header.
fn host_library_types<'t>(model: &Model<'t>, device_code: &str) -> Option<Vec<&'t str>> {
    let view = model.view.text.as_str();
    let mut has_function_body = false;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        has_function_body |= node.node_kind() == "function_definition";
        !has_function_body
    });
    let host_library = has_function_body
        && model.functions.iter().all(|f| f.kind == FunctionKind::Host)
        && !["__device__", "__constant__", "__global__"]
            .iter()
            .any(|qualifier| crate::syntax::contains_identifier(view, qualifier));
    if !host_library {
        return None;
    }
    let mut definitions: Vec<(&'t str, &'t str)> = Vec::new();
    let mut constants: Vec<&'t str> = Vec::new();
    let mut pending = vec![(model.tree.root_node(), 0)];
    while let Some((parent, depth)) = pending.pop() {
        for item in named_children(parent) {
            if item.node_kind() == "namespace_definition" && depth < 8 {
                if let Some(body) = item.field("body") {
                    pending.push((body, depth + 1));
                }
            } else if item.node_kind() == "declaration" {
                // its constants are kept: the types they are declared with are offered
                constants.push(text(item, model.source));
            } else if let Some(name) = defined_type_name(item, model.source) {
                definitions.push((name, text(item, model.source)));
            }
        }
    }
    let mut offered: Vec<&'t str> = Vec::new();
    let mut frontier: Vec<&str> = vec![device_code];
    frontier.extend(constants);
    while let Some(named_by) = frontier.pop() {
        for (name, definition) in &definitions {
            if !offered.contains(name) && crate::syntax::contains_identifier(named_by, name) {
                offered.push(name);
                frontier.push(definition);
            }
        }
    }
    Some(offered)
}

/// The text of a type definition with its `__host__`-only member functions blanked: NVRTC
/// refuses a function explicitly marked `__host__`, and device code cannot call one anyway.
fn without_host_members(item: Node, source: &str) -> String {
    let range = item.byte_range();
    let Some(text) = source.get(range.clone()) else {
        return String::new();
    };
    let mut bytes = text.as_bytes().to_vec();
    let mut members: Vec<Node> = Vec::new();
    let body = if item.node_kind() == "template_declaration" {
        named_children(item)
            .find(|c| matches!(c.node_kind(), "struct_specifier" | "class_specifier"))
            .and_then(|c| c.field("body"))
    } else {
        item.field("body")
    };
    if let Some(body) = body {
        members.extend(named_children(body));
    }
    for member in members {
        let member = if member.node_kind() == "template_declaration" {
            match named_children(member).last() {
                Some(inner) => inner,
                None => continue,
            }
        } else {
            member
        };
        let is_function = match member.node_kind() {
            "function_definition" => true,
            "declaration" | "field_declaration" => member
                .field("declarator")
                .is_some_and(|d| d.node_kind() == "function_declarator"),
            _ => false,
        };
        let head_end = member
            .field("declarator")
            .map_or(member.end_byte(), |d| d.start_byte());
        let head = source.get(member.start_byte()..head_end).unwrap_or("");
        let host_only = crate::syntax::contains_identifier(head, "__host__")
            && !crate::syntax::contains_identifier(head, "__device__");
        if is_function && host_only {
            let start = member.start_byte().saturating_sub(range.start);
            let end = member
                .end_byte()
                .saturating_sub(range.start)
                .min(bytes.len());
            for byte in bytes.get_mut(start..end).into_iter().flatten() {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Whether a file-level item defines a type (and nothing the kernel could call).
fn defines_a_type(item: Node) -> bool {
    match item.node_kind() {
        "struct_specifier" | "class_specifier" | "enum_specifier" | "union_specifier"
        | "type_definition" | "alias_declaration" => true,
        "template_declaration" => {
            !named_children(item).any(|c| c.node_kind() == "function_definition")
        }
        _ => false,
    }
}

struct Binding {
    name: String,
    value: String,
    declaration: String,
}

/// Binds each template parameter to the launch's argument, its default, `float` or 256.
fn bind_template(
    model: &Model,
    function: &Function,
    arguments: &[String],
) -> (Vec<Binding>, Option<String>) {
    let Some(template) = function
        .definition
        .parent()
        .filter(|p| p.node_kind() == "template_declaration")
    else {
        return (Vec::new(), None);
    };
    let Some(list) = template.field("parameters") else {
        return (Vec::new(), None);
    };
    let source = model.source;
    let mut bindings = Vec::new();
    for (position, parameter) in named_children(list).enumerate() {
        // An argument naming a template parameter (a launch from another template) binds nothing.
        let given = arguments
            .get(position)
            .cloned()
            .filter(|a| !function.template_parameters.contains(a));
        match parameter.node_kind() {
            "type_parameter_declaration" | "optional_type_parameter_declaration" => {
                let name = parameter
                    .field("name")
                    .or_else(|| {
                        named_children(parameter).find(|c| c.node_kind() == "type_identifier")
                    })
                    .map(|n| text(n, source).to_string());
                let Some(name) = name else {
                    return (bindings, Some("a template parameter has no name".into()));
                };
                let default = parameter
                    .field("default_type")
                    .map(|d| text(d, source).to_string());
                let value = given.or(default).unwrap_or_else(|| "float".into());
                bindings.push(Binding {
                    declaration: format!("typedef {value} {name};"),
                    name,
                    value,
                });
            }
            "parameter_declaration" | "optional_parameter_declaration" => {
                let type_text = parameter
                    .field("type")
                    .map(|t| text(t, source).to_string())
                    .unwrap_or_else(|| "int".into());
                let Some(name) = parameter
                    .field("declarator")
                    .map(|d| text(d, source).to_string())
                else {
                    return (bindings, Some("a template parameter has no name".into()));
                };
                let default = parameter
                    .field("default_value")
                    .map(|d| text(d, source).to_string());
                // An enumeration's parameter takes its first enumerator (an `int` would not
                // convert).
                let value = given
                    .or(default)
                    .or_else(|| first_enumerator(model, &type_text))
                    .unwrap_or_else(|| "256".into());
                bindings.push(Binding {
                    declaration: format!("constexpr {type_text} {name} = {value};"),
                    name,
                    value,
                });
            }
            "variadic_type_parameter_declaration" | "variadic_parameter_declaration" => {
                return (
                    bindings,
                    Some("variadic templates are not instantiated".into()),
                );
            }
            _ => {}
        }
    }
    (bindings, None)
}

/// `Kind::First` for an enumeration `Kind` the file defines, its first enumerator.
fn first_enumerator(model: &Model, type_text: &str) -> Option<String> {
    let name = type_text.trim().trim_start_matches("const ").trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let source = model.source;
    let mut found = None;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        if found.is_some() || node.node_kind() == "function_definition" {
            return false;
        }
        if node.node_kind() == "enum_specifier"
            && node.field("name").is_some_and(|n| text(n, source) == name)
        {
            found = node
                .field("body")
                .and_then(|body| named_children(body).find(|c| c.node_kind() == "enumerator"))
                .and_then(|first| first.field("name"))
                .map(|first| format!("{name}::{}", text(first, source)));
            return false;
        }
        true
    });
    found
}

/// Whether the file defines namespace `name` (at file level or inside another namespace).
fn defines_namespace(parent: Node, source: &str, name: &str, depth: usize) -> bool {
    depth < 16
        && named_children(parent).any(|item| {
            item.node_kind() == "namespace_definition"
                && (item.field("name").is_some_and(|n| text(n, source) == name)
                    || item
                        .field("body")
                        .is_some_and(|body| defines_namespace(body, source, name, depth + 1)))
        })
}

/// `const int tile = 64;`: a constant device code may use. A `const char* name = "..."` or a
/// `const float table[]` is host data (NVRTC rejects it: "host variables are not allowed in JIT
/// mode"), and the kernel could not read it either.
fn is_named_constant(declaration: Node, source: &str) -> bool {
    let is_const = named_children(declaration)
        .any(|c| c.node_kind() == "type_qualifier" && text(c, source) == "const");
    let declarators: Vec<Node> = named_children(declaration)
        .filter(|c| Some(*c) != declaration.field("type"))
        .filter(|c| matches!(c.node_kind(), "init_declarator" | "identifier"))
        .collect();
    is_const
        && !declarators.is_empty()
        && declarators.iter().all(|d| {
            d.node_kind() == "identifier"
                || d.field("declarator")
                    .is_some_and(|inner| inner.node_kind() == "identifier")
        })
}

/// The kernel's text with its signature extended and its accesses checked.
fn instrument(
    model: &Model,
    function: &Function,
    guards: Option<&super::twin::Guards>,
) -> KernelSource {
    let source = model.source;
    let facts = model
        .kernel_facts()
        .find(|(f, _)| f.definition == function.definition)
        .map(|(_, facts)| facts);
    let mut sites: Vec<Site> = Vec::new();
    let mut uninstrumented = Vec::new();
    let mut planned: Vec<Planned> = Vec::new();
    let advanced = advanced_pointers(source, function);
    // The pointer parameters whose value at the kernel's entry is kept (`cudalint_origin_N`), as
    // some access reaches them through a pointer the kernel advances.
    let mut origins: Vec<usize> = Vec::new();
    if let Some(facts) = facts {
        for access in &facts.accesses {
            let span = access.node.byte_range();
            if planned.iter().any(|p| p.span == span) {
                continue;
            }
            if let Some(via) = &access.via {
                if uninstrumented.iter().any(|(s, _)| *s == span) {
                    continue;
                }
                uninstrumented.push((
                    span,
                    format!(
                        "the access is made inside the device function `{}`",
                        via.helper
                    ),
                ));
                continue;
            }
            let offset = match access.pointer_offset {
                Some(offset) => {
                    let offset_text = text(offset, source);
                    if offset_text.contains('[') {
                        uninstrumented.push((
                            span,
                            "the derived pointer's offset reads memory itself".to_string(),
                        ));
                        continue;
                    }
                    Some(offset_text.to_string())
                }
                None => None,
            };
            // A pointer advanced in place (`vals += row * n;`, `p++`) is where the access starts
            // only at run time: its offset into the buffer is its distance from the parameter's
            // value at the kernel's entry, in elements of the pointer (which may be another type
            // than the parameter's: `reinterpret_cast<const __half2*>(residual)`).
            let parameter = function
                .parameters
                .get(access.parameter_index)
                .filter(|p| p.is_pointer);
            let offset = match parameter {
                Some(parameter)
                    if advanced.contains(&parameter.name)
                        || (access.pointer != parameter.name
                            && advanced.contains(&access.pointer)) =>
                {
                    if !origins.contains(&access.parameter_index) {
                        origins.push(access.parameter_index);
                    }
                    let pointer = &access.pointer;
                    let index = access.parameter_index;
                    Some(format!(
                        "((const char*){pointer} - (const char*)cudalint_origin_{index}) / (long long)sizeof(*{pointer})"
                    ))
                }
                _ => offset,
            };
            let index = access.index.byte_range();
            if index.start < span.start || index.end > span.end {
                uninstrumented.push((span, "the index lies outside the access".to_string()));
                continue;
            }
            planned.push(Planned {
                span: span.clone(),
                index,
                target: Target::Buffer { offset },
                site: sites.len(),
            });
            sites.push(Site {
                span,
                kind: access.kind,
                pointer: access.pointer.clone(),
                parameter_index: access.parameter_index,
                own_array: false,
            });
        }
    }
    plan_own_arrays(source, function, &mut planned, &mut sites);
    plan_updates(source, function, &mut planned, &mut sites);
    let pointer_parameters: Vec<usize> = function
        .parameters
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_pointer)
        .map(|(i, _)| i)
        .collect();
    let definition = function.definition.byte_range();
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    // `static` or `inline` on the kernel: `extern "C"` is prepended, and a linkage specification
    // cannot be combined with a storage class.
    for specifier in
        named_children(function.definition).filter(|c| c.node_kind() == "storage_class_specifier")
    {
        let range = specifier.byte_range();
        let spaces = source
            .get(range.end..)
            .map_or(0, |rest| rest.len() - rest.trim_start().len());
        edits.push((range.start..range.end + spaces, String::new()));
    }
    // A default argument (`int* partial = NULL`) would precede the added parameters, which have
    // none; the driver passes every argument anyway.
    if let Some(list) = find_parameter_list(function) {
        for parameter in named_children(list) {
            if parameter.node_kind() != "optional_parameter_declaration" {
                continue;
            }
            if let (Some(declarator), Some(default)) = (
                parameter.field("declarator"),
                parameter.field("default_value"),
            ) {
                edits.push((declarator.end_byte()..default.end_byte(), String::new()));
            }
        }
    }
    if !origins.is_empty() && function.body.node_kind() == "compound_statement" {
        let declarations: String = origins
            .iter()
            .filter_map(|index| function.parameters.get(*index))
            .zip(&origins)
            .map(|(parameter, index)| {
                format!(" auto const cudalint_origin_{index} = {};", parameter.name)
            })
            .collect();
        let open = function.body.start_byte() + 1;
        edits.push((open..open, declarations));
    }
    // Extra parameters before the parameter list's closing parenthesis.
    if let Some(list) = find_parameter_list(function) {
        let close = list.end_byte().saturating_sub(1);
        let mut added: Vec<String> = Vec::new();
        for index in &pointer_parameters {
            added.push(format!("unsigned long long cudalint_bytes_{index}"));
            added.push(format!("unsigned int* cudalint_initialized_{index}"));
        }
        added.push("unsigned long long* cudalint_report".into());
        let inside = text(list, source)
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        let separator = if inside.is_empty() || inside == "void" {
            ""
        } else {
            ", "
        };
        let replacement_start = if inside == "void" {
            list.start_byte() + 1
        } else {
            close
        };
        edits.push((
            replacement_start..close,
            format!("{separator}{}", added.join(", ")),
        ));
    }
    // Each barrier written in the kernel counts its arrivals first:
    // `(cl_arrive(..), CL_WAIT(barrier))`.
    let mut barriers: Vec<Range<usize>> = Vec::new();
    if let Some(facts) = facts {
        let barrier_words = format!(
            "cudalint_report + (CL_SCRATCH_WORDS + {}ull * CL_SITE_WORDS)",
            sites.len()
        );
        for barrier in facts.barriers.iter().filter(|b| b.via.is_none()) {
            let span = barrier.node.byte_range();
            let inside_access = planned.iter().any(|plan| {
                let access = &plan.span;
                access.start < span.start && span.start < access.end
                    || access.start < span.end && span.end < access.end
            });
            if barriers.contains(&span) || inside_access {
                continue;
            }
            edits.push((
                span.start..span.start,
                format!("(cl_arrive({barrier_words}, {}u), CL_WAIT(", barriers.len()),
            ));
            edits.push((span.end..span.end, "))".to_string()));
            barriers.push(span);
        }
    }
    let conditions: &[(Range<usize>, String)] = guards.map_or(&[], |g| g.sites.as_slice());
    if let Some(guards) = guards {
        for (span, replacement) in &guards.edits {
            let inside = span.start >= definition.start && span.end <= definition.end;
            // As before the kernel's own arrays were checked: only buffer accesses block a guard.
            let crosses_access = planned.iter().any(|plan| {
                matches!(plan.target, Target::Buffer { .. })
                    && span.start < plan.span.end
                    && plan.span.start < span.end
            });
            if inside && !crosses_access {
                edits.push((span.clone(), replacement.clone()));
            }
        }
    }
    let body_text = render(
        source,
        definition.clone(),
        &planned,
        &sites,
        &edits,
        conditions,
        0,
    );
    KernelSource {
        headers: Vec::new(),
        body: body_text,
        symbol: function.name.clone(),
        sites,
        uninstrumented,
        template_bindings: Vec::new(),
        barriers,
        options: Vec::new(),
        context: String::new(),
    }
}

/// The pointers the kernel advances in place and never points elsewhere: every assignment to
/// the name adds to it or subtracts from it (`p += n`, `p -= n`, `p = p + n`, `++p`, `p--`).
/// A pointer also assigned another value (`p = other;`) is not among them.
fn advanced_pointers(source: &str, function: &Function) -> Vec<String> {
    let mut advanced: Vec<String> = Vec::new();
    let mut repointed: Vec<String> = Vec::new();
    crate::syntax::walk_iterative(function.body, |node| {
        let (target, advancing) = match node.node_kind() {
            "lambda_expression" => return false,
            "update_expression" => (node.field("argument"), true),
            "assignment_expression" => {
                let left = node.field("left");
                let advancing = match node.field("operator").map(|o| text(o, source)) {
                    Some("+=" | "-=") => true,
                    Some("=") => node.field("right").is_some_and(|right| {
                        let right = crate::syntax::strip(right, source);
                        right.node_kind() == "binary_expression"
                            && matches!(
                                right.field("operator").map(|o| text(o, source)),
                                Some("+" | "-")
                            )
                            && right
                                .field("left")
                                .zip(left)
                                .is_some_and(|(operand, left)| {
                                    text(crate::syntax::strip(operand, source), source)
                                        == text(left, source)
                                })
                    }),
                    _ => false,
                };
                (left, advancing)
            }
            _ => return true,
        };
        if let Some(target) = target.filter(|t| t.node_kind() == "identifier") {
            let name = text(target, source).to_string();
            let list = if advancing {
                &mut advanced
            } else {
                &mut repointed
            };
            if !list.contains(&name) {
                list.push(name);
            }
        }
        true
    });
    advanced.retain(|name| !repointed.contains(name));
    advanced
}

/// An array the kernel declares: `float tile[16][17]` (fixed size, `dimensions` 2), an
/// `extern __shared__ float s[]` or `HIP_DYNAMIC_SHARED(float, s)` (dynamic shared memory), or a
/// pointer the kernel derives from one of those (`float* b = &s[n + 1]`).
struct OwnArray {
    name: String,
    /// How many subscripts index the array itself (1 for a pointer or dynamic array).
    dimensions: usize,
    /// For dynamic shared memory, the `extern __shared__` array where it starts.
    start: Option<String>,
}

/// The kernel's own arrays (`OwnArray`): a name declared more than once in the kernel, or also
/// a parameter, is left out, and so is a derived pointer that is assigned again or whose
/// initializer also names a pointer parameter.
fn own_arrays(source: &str, function: &Function) -> Vec<OwnArray> {
    let mut declared: Vec<String> = function.parameters.iter().map(|p| p.name.clone()).collect();
    let mut arrays: Vec<OwnArray> = Vec::new();
    // (name, initializer) of single pointers, in order.
    let mut pointers: Vec<(String, Node)> = Vec::new();
    let mut assigned: Vec<String> = Vec::new();
    crate::syntax::walk_iterative(function.body, |node| match node.node_kind() {
        "lambda_expression" => false,
        "declaration" => {
            let words: Vec<&str> = named_children(node)
                .filter(|c| {
                    matches!(
                        c.node_kind(),
                        "storage_class_specifier" | "type_qualifier" | "attribute_specifier"
                    )
                })
                .map(|c| text(c, source))
                .collect();
            let external = words.contains(&"extern");
            // A constant table may be read where a constant expression is needed.
            let constant = text(node, source).contains("constexpr");
            let shared = words.iter().any(|w| w.contains("__shared__"));
            for declarator in named_children(node).filter(|c| Some(*c) != node.field("type")) {
                let (inner, value) = if declarator.node_kind() == "init_declarator" {
                    (declarator.field("declarator"), declarator.field("value"))
                } else {
                    (Some(declarator), None)
                };
                let Some(inner) = inner else {
                    continue;
                };
                if let Some(name) = declared_name(inner, source) {
                    declared.push(name.to_string());
                }
                let mut dimensions = 0;
                let mut open_ended = false;
                let mut current = inner;
                while current.node_kind() == "array_declarator" && dimensions < 8 {
                    dimensions += 1;
                    open_ended = current.field("size").is_none();
                    let Some(next) = current.field("declarator") else {
                        break;
                    };
                    current = next;
                }
                let named = current.node_kind() == "identifier";
                if dimensions > 0 && named {
                    let name = text(current, source).to_string();
                    if external && shared && dimensions == 1 && open_ended {
                        arrays.push(OwnArray {
                            start: Some(name.clone()),
                            name,
                            dimensions: 1,
                        });
                    } else if !external && !open_ended && !constant {
                        arrays.push(OwnArray {
                            name,
                            dimensions,
                            start: None,
                        });
                    }
                } else if inner.node_kind() == "pointer_declarator" {
                    let target = inner.field("declarator");
                    if let (Some(target), Some(value)) = (target, value) {
                        if target.node_kind() == "identifier" {
                            pointers.push((text(target, source).to_string(), value));
                        }
                    }
                }
            }
            true
        }
        // `HIP_DYNAMIC_SHARED(float, s)`: HIP's spelling of `extern __shared__ float s[];`.
        "call_expression" => {
            let function_name = node.field("function").map(|f| text(f, source));
            if function_name == Some("HIP_DYNAMIC_SHARED") {
                let arguments: Vec<Node> = node
                    .field("arguments")
                    .map(|a| named_children(a).collect())
                    .unwrap_or_default();
                if let [_, name] = arguments.as_slice() {
                    if name.node_kind() == "identifier" {
                        let name = text(*name, source).to_string();
                        declared.push(name.clone());
                        arrays.push(OwnArray {
                            start: Some(name.clone()),
                            name,
                            dimensions: 1,
                        });
                    }
                }
            }
            true
        }
        "assignment_expression" => {
            if let Some(left) = node.field("left") {
                assigned.push(text(left, source).trim().to_string());
            }
            true
        }
        _ => true,
    });
    let pointer_parameters: Vec<&str> = function
        .parameters
        .iter()
        .filter(|p| p.is_pointer)
        .map(|p| p.name.as_str())
        .collect();
    for (name, value) in pointers {
        let value_text = text(value, source);
        let mentions = |other: &str| crate::syntax::contains_identifier(value_text, other);
        if assigned.contains(&name) || pointer_parameters.iter().any(|p| mentions(p)) {
            continue;
        }
        let start = arrays
            .iter()
            .find(|a| a.start.is_some() && mentions(&a.name))
            .and_then(|a| a.start.clone());
        if let Some(start) = start {
            arrays.push(OwnArray {
                name,
                dimensions: 1,
                start: Some(start),
            });
        }
    }
    arrays.retain(|array| declared.iter().filter(|d| **d == array.name).count() == 1);
    arrays
}

/// The identifier a declarator declares, through pointers, references, arrays and
/// initializers.
fn declared_name<'s>(declarator: Node, source: &'s str) -> Option<&'s str> {
    let mut current = declarator;
    for _ in 0..16 {
        match current.node_kind() {
            "identifier" => return Some(text(current, source)),
            "pointer_declarator"
            | "reference_declarator"
            | "array_declarator"
            | "init_declarator"
            | "parenthesized_declarator" => {
                current = current
                    .field("declarator")
                    .or_else(|| named_children(current).last())?;
            }
            _ => return None,
        }
    }
    None
}

/// Plans a checked access for every subscript of the kernel's own arrays (`own_arrays`), each
/// a site after the buffer accesses' sites.
fn plan_own_arrays(
    source: &str,
    function: &Function,
    planned: &mut Vec<Planned>,
    sites: &mut Vec<Site>,
) {
    let arrays = own_arrays(source, function);
    if arrays.is_empty() {
        return;
    }
    let mut found: Vec<(Node, Range<usize>, Range<usize>, &OwnArray)> = Vec::new();
    crate::syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "lambda_expression" {
            return false;
        }
        if node.node_kind() != "subscript_expression" {
            return true;
        }
        let (Some(argument), Some(index)) = (node.field("argument"), own_subscript_index(node))
        else {
            return true;
        };
        // `a[i][j]`: the subscripts between this one and the array's name.
        let mut level = 1;
        let mut base = argument;
        while base.node_kind() == "subscript_expression" && level < 16 {
            let Some(inner) = base.field("argument") else {
                return true;
            };
            base = inner;
            level += 1;
        }
        if base.node_kind() != "identifier" || is_address_taken(node, source) {
            return true;
        }
        let name = text(base, source);
        if let Some(array) = arrays
            .iter()
            .find(|a| a.name == name && level <= a.dimensions)
        {
            found.push((node, argument.byte_range(), index.byte_range(), array));
        }
        true
    });
    for (node, argument, index, array) in found {
        let span = node.byte_range();
        if planned.iter().any(|p| p.span == span) {
            continue;
        }
        planned.push(Planned {
            span: span.clone(),
            index,
            target: Target::OwnArray {
                argument,
                start: array.start.clone(),
            },
            site: sites.len(),
        });
        sites.push(Site {
            span,
            kind: crate::model::kernel::access_kind(node, source),
            pointer: array.name.clone(),
            parameter_index: usize::MAX,
            own_array: true,
        });
    }
}

/// The atomic read-modify-write updates of device memory: each reads the element it changes.
const ATOMIC_UPDATES: &[&str] = &[
    "atomicAdd",
    "atomicSub",
    "atomicMax",
    "atomicMin",
    "atomicInc",
    "atomicDec",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicCAS",
];

/// Updates of a buffer parameter written without a subscript, which the model's accesses
/// (`p[e]`, `*(p + e)`) do not hold: an atomic given the parameter or the parameter plus an
/// offset (`atomicAdd(total, v)`, `atomicAdd(counts + key[i], 1)`), and a compound assignment
/// or increment through the parameter itself (`*out += v`, `(*count)++`). Each reads the element
/// before it writes it, so each is checked as a read and a write: past the buffer, or of an
/// element nothing wrote. A parameter the kernel assigns is left out (where it points is known
/// only at run time), and so is a `void*` one.
fn plan_updates(
    source: &str,
    function: &Function,
    planned: &mut Vec<Planned>,
    sites: &mut Vec<Site>,
) {
    let parameter = |node: Node| -> Option<usize> {
        if node.node_kind() != "identifier" {
            return None;
        }
        let name = text(node, source);
        function
            .parameters
            .iter()
            .position(|p| p.name == name && p.is_pointer && !p.type_text.contains("void"))
    };
    let mut assigned: Vec<String> = Vec::new();
    let mut found: Vec<(Range<usize>, Range<usize>, usize, bool)> = Vec::new();
    crate::syntax::walk_iterative(function.body, |node| {
        match node.node_kind() {
            "lambda_expression" => return false,
            "assignment_expression" | "update_expression" => {
                let target = node.field("left").or_else(|| node.field("argument"));
                if let Some(target) = target.filter(|t| t.node_kind() == "identifier") {
                    assigned.push(text(target, source).to_string());
                }
            }
            _ => {}
        }
        match node.node_kind() {
            "call_expression" => {
                let name = node.field("function").map_or("", |f| text(f, source));
                let name = name
                    .strip_suffix("_block")
                    .or_else(|| name.strip_suffix("_system"))
                    .unwrap_or(name);
                if !ATOMIC_UPDATES.contains(&name) {
                    return true;
                }
                let Some(first) = crate::syntax::call_arguments(node)
                    .into_iter()
                    .find(|a| a.node_kind() != "comment")
                else {
                    return true;
                };
                let target = crate::syntax::strip(first, source);
                if let Some(index) = parameter(target) {
                    let end = target.end_byte();
                    found.push((target.byte_range(), end..end, index, true));
                } else if target.node_kind() == "binary_expression"
                    && target.field("operator").map(|o| text(o, source)) == Some("+")
                {
                    if let (Some(index), Some(offset)) = (
                        target.field("left").and_then(parameter),
                        target.field("right"),
                    ) {
                        found.push((target.byte_range(), offset.byte_range(), index, true));
                    }
                }
            }
            "pointer_expression" => {
                if node.field("operator").map(|o| text(o, source)) != Some("*") {
                    return true;
                }
                let Some(index) = node.field("argument").and_then(parameter) else {
                    return true;
                };
                // Through parentheses, the assignment or increment the dereference is the target of.
                let mut outer = node;
                while let Some(parent) = outer
                    .parent()
                    .filter(|p| p.node_kind() == "parenthesized_expression")
                {
                    outer = parent;
                }
                let updated = outer
                    .parent()
                    .is_some_and(|parent| match parent.node_kind() {
                        "update_expression" => true,
                        "assignment_expression" => {
                            parent.field("left").map(|l| l.byte_range()) == Some(outer.byte_range())
                                && parent.field("operator").map(|o| text(o, source)) != Some("=")
                        }
                        _ => false,
                    });
                if updated {
                    let end = node.end_byte();
                    found.push((node.byte_range(), end..end, index, false));
                }
            }
            _ => {}
        }
        true
    });
    for (span, index, parameter_index, address) in found {
        let Some(parameter) = function.parameters.get(parameter_index) else {
            continue;
        };
        if assigned.contains(&parameter.name) || planned.iter().any(|p| p.span == span) {
            continue;
        }
        planned.push(Planned {
            span: span.clone(),
            index,
            target: Target::Update { address },
            site: sites.len(),
        });
        sites.push(Site {
            span,
            kind: AccessKind::ReadWrite,
            pointer: parameter.name.clone(),
            parameter_index,
            own_array: false,
        });
    }
}

/// `&a[i]`: an address computed, not an access (one past the end is a valid address).
fn is_address_taken(node: Node, source: &str) -> bool {
    let mut current = node;
    for _ in 0..8 {
        let Some(parent) = current.parent() else {
            return false;
        };
        match parent.node_kind() {
            "parenthesized_expression" => current = parent,
            "pointer_expression" => return text(parent, source).trim_start().starts_with('&'),
            _ => return false,
        }
    }
    false
}

/// The index of `a[i]`.
fn own_subscript_index(node: Node) -> Option<Node> {
    let indices = node.field("indices").or_else(|| node.field("index"))?;
    if indices.node_kind() == "subscript_argument_list" {
        let mut named = named_children(indices).filter(|c| c.node_kind() != "comment");
        let first = named.next()?;
        // `a[i, j]` is not an array's subscript.
        named.next().is_none().then_some(first)
    } else {
        Some(indices)
    }
}

fn find_parameter_list<'t>(function: &Function<'t>) -> Option<Node<'t>> {
    let mut node = function.definition.field("declarator")?;
    for _ in 0..crate::syntax::MAX_DEPTH {
        if node.node_kind() == "function_declarator" {
            return node.field("parameters");
        }
        node = node.field("declarator")?;
    }
    None
}

/// An access to rewrite: its span, its index, what it reaches and its site.
struct Planned {
    span: Range<usize>,
    index: Range<usize>,
    target: Target,
    site: usize,
}

enum Target {
    /// A buffer parameter, through a pointer at this offset into it (`float* row = a + r * n`).
    Buffer { offset: Option<String> },
    /// An update of a buffer parameter at the index (none: its first element) that no subscript
    /// writes (`plan_updates`); `address` when the text is the element's address (an atomic's
    /// target) rather than the element.
    Update { address: bool },
    /// One dimension of the kernel's own array: `argument` is the array, or its access of the
    /// dimensions before. `start` names the `extern __shared__` array whose dynamic shared
    /// memory the argument points into; None for an array of fixed size.
    OwnArray {
        argument: Range<usize>,
        start: Option<String>,
    },
}

/// A span to replace: by a planned access's rewrite or by a plain edit.
type Piece<'p> = (Range<usize>, Option<&'p Planned>, Option<&'p String>);

/// The text of `range` with the planned accesses (outermost first, nested ones recursively) and
/// the plain edits applied.
fn render(
    source: &str,
    range: Range<usize>,
    planned: &[Planned],
    sites: &[Site],
    edits: &[(Range<usize>, String)],
    conditions: &[(Range<usize>, String)],
    depth: usize,
) -> String {
    let mut out = String::new();
    let mut cursor = range.start;
    let mut pieces: Vec<Piece> = Vec::new();
    for plan in planned {
        let span = &plan.span;
        let inside = span.start >= range.start && span.end <= range.end && *span != range;
        let nested = planned.iter().any(|other| {
            other.span != *span
                && other.span.start <= span.start
                && other.span.end >= span.end
                && other.span.start >= range.start
                && other.span.end <= range.end
                && other.span != range
        });
        if inside && !nested {
            pieces.push((span.clone(), Some(plan), None));
        }
    }
    for (span, replacement) in edits {
        if span.start >= range.start && span.end <= range.end {
            pieces.push((span.clone(), None, Some(replacement)));
        }
    }
    // At one position: insertions first, then the longer piece (a guard's edit before the
    // kernel's own array access it begins with: the edit wins).
    pieces.sort_by_key(|p| (p.0.start, !p.0.is_empty(), std::cmp::Reverse(p.0.end)));
    for (span, plan, replacement) in pieces {
        if span.start < cursor {
            continue;
        }
        out.push_str(source.get(cursor..span.start).unwrap_or(""));
        if let Some(replacement) = replacement {
            out.push_str(replacement);
        } else if let Some(plan) = plan {
            match render_plan(source, plan, planned, sites, conditions, depth) {
                Some(rewritten) => out.push_str(&rewritten),
                None => out.push_str(source.get(span.clone()).unwrap_or("")),
            }
        }
        cursor = span.end;
    }
    out.push_str(source.get(cursor..range.end).unwrap_or(""));
    out
}

/// The text of `range`, a part of an access (its index, or its array): the planned access that
/// is exactly `range`, or the accesses inside it.
fn render_part(
    source: &str,
    range: Range<usize>,
    planned: &[Planned],
    sites: &[Site],
    conditions: &[(Range<usize>, String)],
    depth: usize,
) -> String {
    if depth >= 32 {
        return source.get(range).unwrap_or("").to_string();
    }
    if let Some(plan) = planned.iter().find(|p| p.span == range) {
        if let Some(rewritten) = render_plan(source, plan, planned, sites, conditions, depth + 1) {
            return rewritten;
        }
    }
    render(source, range, planned, sites, &[], conditions, depth + 1)
}

/// The checked access `plan` stands for.
fn render_plan(
    source: &str,
    plan: &Planned,
    planned: &[Planned],
    sites: &[Site],
    conditions: &[(Range<usize>, String)],
    depth: usize,
) -> Option<String> {
    let site_info = sites.get(plan.site)?;
    let site = plan.site;
    let kind = kind_code(site_info.kind);
    let index_text = if plan.index.is_empty() {
        "0".to_string()
    } else {
        render_part(
            source,
            plan.index.clone(),
            planned,
            sites,
            conditions,
            depth + 1,
        )
    };
    Some(match &plan.target {
        Target::Update { address } => {
            let parameter = site_info.parameter_index;
            let checked = format!(
                "(*cl_at({}, (long long)({index_text}), 0, cudalint_bytes_{parameter}, cudalint_initialized_{parameter}, {site}u, {kind}u, cudalint_report))",
                site_info.pointer,
            );
            if *address {
                format!("(&{checked})")
            } else {
                checked
            }
        }
        Target::Buffer { offset } => {
            let offset = match offset {
                Some(offset) => format!("(long long)({offset})"),
                None => "0".to_string(),
            };
            let parameter = site_info.parameter_index;
            let (call, keep) = match conditions.iter().find(|(s, _)| *s == site_info.span) {
                Some((_, condition)) => ("cl_at_if", format!("({condition}), ")),
                None => ("cl_at", String::new()),
            };
            format!(
                "(*{call}({keep}{}, (long long)({index_text}), {offset}, cudalint_bytes_{parameter}, cudalint_initialized_{parameter}, {site}u, {kind}u, cudalint_report))",
                site_info.pointer,
            )
        }
        Target::OwnArray { argument, start } => {
            let argument_text = render_part(
                source,
                argument.clone(),
                planned,
                sites,
                conditions,
                depth + 1,
            );
            match start {
                Some(start) => format!(
                    "(*cl_dyn({argument_text}, (long long)({index_text}), {start}, {site}u, {kind}u, cudalint_report))"
                ),
                None => format!(
                    "(*cl_in({argument_text}, (long long)({index_text}), {site}u, {kind}u, cudalint_report))"
                ),
            }
        }
    })
}
