//! Which calls the error flow counts: a call of the project rather than of a library, a check
//! helper, a CUDA or HIP API call, and the tables and pointers a call may go through.

use super::*;

/// Calls worth offering other files: not the C and C++ libraries, CUDA's or common frameworks'.
pub(super) fn offered_callee(name: &str) -> bool {
    const LIBRARY: &[&str] = &[
        "printf",
        "fprintf",
        "sprintf",
        "snprintf",
        "puts",
        "fputs",
        "malloc",
        "calloc",
        "realloc",
        "free",
        "memcpy",
        "memset",
        "memcmp",
        "exit",
        "abort",
        "assert",
        "rand",
        "srand",
        "fopen",
        "fclose",
        "fread",
        "fwrite",
        "fscanf",
        "fgets",
        "sscanf",
        "atoi",
        "atof",
        "atol",
        "strtol",
        "strtoul",
        "strtod",
        "strcmp",
        "strncmp",
        "strlen",
        "strcpy",
        "sqrt",
        "sqrtf",
        "exp",
        "expf",
        "log",
        "logf",
        "pow",
        "powf",
        "fabs",
        "fabsf",
        "abs",
        "min",
        "max",
        "floor",
        "ceil",
        "sin",
        "cos",
        "time",
        "clock",
        "gettimeofday",
        "swap",
        "make_pair",
        "move",
        "forward",
        "size",
        "data",
        "begin",
        "end",
        "push_back",
        "emplace_back",
        "resize",
        "reserve",
        "clear",
        "at",
        "get",
        "reset",
        "fill",
        "copy",
        "sort",
        "accumulate",
        "to_string",
        "c_str",
        "str",
        "getenv",
        "perror",
        "fflush",
        "srand48",
        "drand48",
        "numel",
        "size_t",
        "sizeof",
        "dim3",
    ];
    let bytes = name.as_bytes();
    let api = |prefix: &str| {
        name.starts_with(prefix)
            && bytes
                .get(prefix.len())
                .is_some_and(|b| b.is_ascii_uppercase())
    };
    !(LIBRARY.contains(&name)
        || crate::model::runtime::is_library_function(name)
        || ["cuda", "cu", "hip", "nvrtc", "sdk"].iter().any(|p| api(p)))
}

/// Variables that hold the file's host functions: a table (`const Launcher kTable[] = {fa,
/// fb};`) or a pointer (`auto fn = half ? fa : fb;`, `fn = &fa;`), by name, with the functions
/// each may hold.
pub(super) fn dispatch_tables(model: &Model) -> HashMap<String, Vec<String>> {
    let source = model.source;
    let root = model.tree.root_node();
    let mut tables: HashMap<String, Vec<String>> = HashMap::default();
    let mut seen: HashSet<&str> = HashSet::default();
    for function in &model.functions {
        if function.kind != FunctionKind::Host || !seen.insert(function.name.as_str()) {
            continue;
        }
        let name = function.name.as_str();
        for (at, _) in source.match_indices(name) {
            let end = at + name.len();
            let bytes = source.as_bytes();
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            if at > 0 && bytes.get(at - 1).copied().is_some_and(word)
                || bytes.get(end).copied().is_some_and(word)
            {
                continue;
            }
            let next = source[end..].trim_start().chars().next();
            if matches!(next, Some('(') | Some('<')) {
                continue; // a call, or a template's arguments
            }
            let Some(identifier) = root
                .descendant_for_byte_range(at, end)
                .filter(|n| n.node_kind() == "identifier")
            else {
                continue;
            };
            if let Some(holder) = holder_of(identifier, source) {
                let held = tables.entry(holder).or_default();
                if !held.iter().any(|h| h == name) {
                    held.push(name.to_string());
                }
            }
        }
    }
    tables
}

/// The variable a function's name is stored in: the declaration or assignment around it,
/// through an initializer list, `&`, `?:` and parentheses.
fn holder_of(identifier: Node, source: &str) -> Option<String> {
    let mut node = identifier;
    for _ in 0..8 {
        let parent = node.up()?;
        match parent.node_kind() {
            "initializer_list"
            | "pointer_expression"
            | "parenthesized_expression"
            | "conditional_expression"
            | "cast_expression"
            | "initializer_pair" => node = parent,
            "init_declarator" => {
                let declarator = parent.field("declarator")?;
                let name = crate::syntax::declarator_name(declarator)?;
                return Some(text(name, source).to_string());
            }
            "assignment_expression" => {
                let left = strip(parent.field("left")?, source);
                return (left.node_kind() == "identifier").then(|| text(left, source).to_string());
            }
            _ => return None,
        }
    }
    None
}

/// Namespaces of libraries, whose functions are no project's.
const LIBRARY_NAMESPACES: &[&str] = &[
    "std",
    "chrono",
    "thrust",
    "cub",
    "hipcub",
    "at",
    "torch",
    "c10",
    "cutlass",
    "cute",
    "Eigen",
    "cooperative_groups",
    "cg",
    "nvcuda",
    "wmma",
    "mma",
    "py",
    "pybind11",
    "boost",
    "fmt",
];

/// The name a call calls when it may be one of the project's functions: `f`, `ns::f`, `f<T>`,
/// `object.f` (a method, looked for in the file only); None for library namespaces.
pub(super) fn project_call_name<'t>(call: Node<'t>, source: &'t str) -> Option<&'t str> {
    let function = call.field("function")?;
    if function.node_kind() == "qualified_identifier" {
        let scope = function
            .field("scope")
            .map(|s| text(s, source))
            .unwrap_or("");
        let outer = scope.split("::").next().unwrap_or("").trim();
        if LIBRARY_NAMESPACES.contains(&outer) {
            return None;
        }
    }
    call_name(call, source)
}

/// Whether a call is a method call (`object.f(...)`, `pointer->f(...)`).
pub(super) fn is_method_call(call: Node) -> bool {
    call.field("function")
        .is_some_and(|f| f.node_kind() == "field_expression")
}

/// The name a call calls: `f`, `ns::f`, `f<T>`, `object.f`, `pointer->f`.
pub(super) fn call_name<'t>(call: Node<'t>, source: &'t str) -> Option<&'t str> {
    let mut function = call.field("function")?;
    for _ in 0..4 {
        match function.node_kind() {
            "identifier" | "field_identifier" => return Some(text(function, source)),
            "qualified_identifier" | "template_function" => function = function.field("name")?,
            "field_expression" => function = function.field("field")?,
            // through a table or a pointer: `kTable[op](...)`, `(*fn)(...)`
            "subscript_expression" => function = function.field("argument")?,
            "parenthesized_expression" | "pointer_expression" => {
                function = strip(function, source);
                if function.node_kind() == "pointer_expression" {
                    function = function.field("argument")?;
                }
            }
            _ => return None,
        }
    }
    None
}

/// A project's check named like the runtime (`cudaCheckError()`, `cudaSafeCall(...)`), not one
/// of the runtime's own calls (`cudaGetErrorString`, `cudaStreamAddCallback`).
pub(super) fn project_check(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.contains("CHECK")
        || upper.contains("SAFE")
        || (upper.contains("ERR") && !upper.contains("GETERROR"))
}

pub(super) fn is_cuda_or_hip_api(name: &str) -> bool {
    let bytes = name.as_bytes();
    let upper_after = |prefix: usize| bytes.get(prefix).is_some_and(|b| b.is_ascii_uppercase());
    (name.starts_with("cuda") && upper_after(4))
        || (name.starts_with("cu") && upper_after(2))
        || (name.starts_with("hip") && upper_after(3))
}

/// CUDA calls that return no error code, or whose return is not an error to check.
pub(super) fn returns_no_error(name: &str) -> bool {
    is_last_error_query(name)
        || matches!(
            crate::model::runtime::cuda_name(name).as_ref(),
            "cudaGetErrorString" | "cudaGetErrorName" | "cudaCreateChannelDesc"
        )
}

pub(super) fn is_literal(node: Node, source: &str) -> bool {
    match node.node_kind() {
        "string_literal"
        | "concatenated_string"
        | "raw_string_literal"
        | "number_literal"
        | "char_literal"
        | "true"
        | "false" => true,
        "identifier" => matches!(
            text(node, source),
            "__FILE__" | "__LINE__" | "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__"
        ),
        _ => false,
    }
}
