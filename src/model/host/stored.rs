//! Buffers kept in a struct member or a file-level variable: `cudaMalloc(&s.d_idx, n)` in an
//! init function, `cudaMalloc(&d_x, n)` in a constructor or a setup function, released (or not)
//! by another function (`freeState(s)`, a destructor, `cleanup()`). Each such buffer is named by
//! its member or variable name (its key); the file's host functions are read for where each key
//! is allocated, released (cudaFree, or a function of the file that frees its argument) and
//! handed anywhere the model cannot follow. The pass reads every host function of the file,
//! whatever an editor reuses, so the facts are the file's whole story.

use super::helpers::{HelperCache, ParameterUse};
use super::*;

/// An allocation into a member or a file-level variable.
#[derive(Debug, Clone)]
pub struct StoredAllocation<'t> {
    /// The member or variable name (`d_idx` for `s.d_idx`, `this->d_idx` or `d_idx`).
    pub key: String,
    /// The allocating call.
    pub call: Node<'t>,
    /// The host function (index into `Model::functions`) that allocates.
    pub function: usize,
    pub memory: Memory,
}

/// What the file's host functions do with buffers kept in members and file-level variables.
#[derive(Debug, Default)]
pub struct StoredBuffers<'t> {
    pub allocations: Vec<StoredAllocation<'t>>,
    /// Keys released, with the releasing call.
    pub releases: Vec<(String, Node<'t>)>,
    /// Keys handed to code the model does not follow (assigned elsewhere, returned, passed to
    /// an unknown function or a macro): their fate is unknown.
    pub escaped: HashSet<String>,
}

impl<'t> StoredBuffers<'t> {
    pub fn released(&self, key: &str) -> bool {
        self.releases.iter().any(|(k, _)| k == key)
    }
}

/// How a call treats an argument.
enum Role {
    Allocates(Memory),
    Releases,
    Uses,
    Unknown,
}

/// The memory a CUDA allocation call hands out, when `name` is one (`flags`: cudaHostAlloc's).
pub(super) fn allocation_memory(name: &str, flags: Option<&str>) -> Option<Memory> {
    Some(match cuda_name(name).as_ref() {
        "cudaMalloc" | "cudaMallocAsync" | "cuMemAlloc" | "cuMemAlloc_v2" | "cudaMallocPitch" => {
            Memory::Device
        }
        "cudaMallocManaged" | "cuMemAllocManaged" => Memory::Managed,
        "cudaMallocHost" | "cuMemAllocHost" => Memory::Pinned,
        "cudaHostAlloc" if flags.is_some_and(|f| f.contains("Mapped")) => Memory::Mapped,
        "cudaHostAlloc" => Memory::Pinned,
        _ => return None,
    })
}

pub(super) fn is_device_free(name: &str) -> bool {
    matches!(
        cuda_name(name).as_ref(),
        "cudaFree"
            | "cudaFreeAsync"
            | "cudaFreeHost"
            | "cuMemFree"
            | "cuMemFree_v2"
            | "cuMemFreeHost"
    )
}

/// C's file I/O (`fread(buffer, 4, n, fp)`, `fwrite`): it reads or writes through the pointer
/// it is handed and keeps none of it, as a library call does.
pub(super) fn is_file_io(name: &str) -> bool {
    matches!(name, "fread" | "fwrite")
}

/// Library calls that read or write the device buffers they are given and keep none of them
/// (cuBLAS, cuSPARSE, cuFFT, cuRAND, cuSOLVER, cuDNN, cuTENSOR, NCCL).
pub(super) fn is_library_call(name: &str) -> bool {
    crate::model::runtime::is_library_function(name)
}

/// The file's buffers kept in members and file-level variables. `helpers` answers what the
/// file's functions do with their arguments.
pub(super) fn collect<'t>(model: &Model<'t>, helpers: &HelperCache) -> StoredBuffers<'t> {
    let mut out = StoredBuffers::default();
    let source = model.source;
    let mut per_function: Vec<(usize, &crate::model::Function<'t>, Vec<Node<'t>>)> = Vec::new();
    let function_names: HashSet<&str> = model.functions.iter().map(|f| f.name.as_str()).collect();
    // the mentions an allocation call stores into (`&x` passed to `cudaMalloc` or to a function
    // of this file), by node id: found on the way down, since `Node::parent` searches from the root
    let mut allocation_targets: HashSet<usize> = HashSet::default();
    for (index, function) in model.functions.iter().enumerate() {
        if function.kind != FunctionKind::Host || function.has_parse_errors {
            continue;
        }
        let mut mentions: Vec<Node<'t>> = Vec::new();
        walk_iterative(function.body, |node| {
            match node.node_kind() {
                "lambda_expression" => return false,
                "field_expression" => {
                    mentions.push(node);
                    return false;
                }
                "identifier" => mentions.push(node),
                "call_expression" => {
                    let name = call_name(node, source);
                    if allocation_memory(name, None).is_some() || function_names.contains(name) {
                        let arguments = node.field("arguments");
                        for argument in arguments.iter().flat_map(|a| syntax::named_children(*a)) {
                            if let Some(target) = stored_into(argument, source) {
                                allocation_targets.insert(target.id());
                            }
                        }
                    }
                }
                _ => {}
            }
            true
        });
        per_function.push((index, function, mentions));
    }
    // each mention with the key it names; the names a function declares are read only when
    // something needs its keys (most functions store nothing)
    let keys_of = |function: &crate::model::Function<'t>, mentions: &[Node<'t>]| {
        let locals = declared_names(function, source);
        let key_of = |node: Node<'t>| -> Option<String> {
            let node = strip(node, source);
            match node.node_kind() {
                "field_expression" => node.field("field").map(|f| text(f, source).to_string()),
                "identifier" => {
                    let name = text(node, source);
                    (!locals.contains(name) && !function_names.contains(name))
                        .then(|| name.to_string())
                }
                _ => None,
            }
        };
        key_of_all(mentions, &key_of)
    };
    // only keys something allocates matter: read the other mentions of those alone (an
    // allocation's target lies in the function that allocates)
    let mut allocated: HashSet<String> = HashSet::default();
    for (_, function, mentions) in &per_function {
        // a parameter or a function of the file is never a key: the names the function
        // declares (a walk of its body) are read only for a target that may be one (a launch
        // hands every launcher's parameters to a function of the file)
        let names_a_key = |mention: &Node<'t>| {
            let node = strip(*mention, source);
            node.node_kind() != "identifier" || {
                let name = text(node, source);
                !function_names.contains(name)
                    && !function.parameters.iter().any(|p| p.name == name)
            }
        };
        if !mentions
            .iter()
            .any(|m| allocation_targets.contains(&m.id()) && names_a_key(m))
        {
            continue;
        }
        for (mention, key) in keys_of(function, mentions) {
            if allocation_targets.contains(&mention.id()) {
                allocated.insert(key);
            }
        }
    }
    if allocated.is_empty() {
        return out;
    }
    let per_function: Vec<(usize, Vec<(Node<'t>, String)>)> = per_function
        .iter()
        .map(|(index, function, mentions)| (*index, keys_of(function, mentions)))
        .collect();
    for (index, mentions) in per_function {
        for (mention, key) in mentions {
            if !allocated.contains(&key) {
                continue;
            }
            match classify(model, helpers, mention) {
                Some((call, Role::Allocates(memory))) => out.allocations.push(StoredAllocation {
                    key,
                    call,
                    function: index,
                    memory,
                }),
                Some((call, Role::Releases)) => out.releases.push((key, call)),
                Some((_, Role::Uses)) => {}
                Some((_, Role::Unknown)) | None => {
                    out.escaped.insert(key);
                }
            }
        }
    }
    // a function-like macro naming a key may do anything with it
    for function_macro in &model.function_macros {
        for word in function_macro
            .body
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        {
            if allocated.contains(word) {
                out.escaped.insert(word.to_string());
            }
        }
    }
    out
}

/// The mentions that name a key, with it.
fn key_of_all<'t>(
    mentions: &[Node<'t>],
    key_of: &dyn Fn(Node<'t>) -> Option<String>,
) -> Vec<(Node<'t>, String)> {
    mentions
        .iter()
        .filter_map(|m| key_of(*m).map(|k| (*m, k)))
        .collect()
}

/// The mention an argument stores into (`&x`, `(void**)&p->buf`, `x`).
fn stored_into<'t>(argument: Node<'t>, source: &str) -> Option<Node<'t>> {
    let node = syntax::address_operand(argument, source).unwrap_or_else(|| strip(argument, source));
    matches!(node.node_kind(), "identifier" | "field_expression").then_some(node)
}

/// Every name the function declares (its parameters, locals in any scope): the names that are
/// not members or file-level variables there.
fn declared_names(function: &crate::model::Function, source: &str) -> HashSet<String> {
    let mut names: HashSet<String> = function.parameters.iter().map(|p| p.name.clone()).collect();
    walk_iterative(function.body, |node| {
        if matches!(
            node.node_kind(),
            "declaration" | "parameter_declaration" | "for_range_loop" | "condition_clause"
        ) {
            let mut cursor = node.walk();
            for declarator in node.children_by_field_name("declarator", &mut cursor) {
                if let Some(name) = syntax::declarator_name(declarator) {
                    names.insert(text(name, source).to_string());
                }
            }
        }
        true
    });
    names
}

/// What the code around a mention of a key does with the buffer: the call that allocates into
/// it, releases it or uses it; None or `Role::Unknown` when it is kept or handed elsewhere.
fn classify<'t>(
    model: &Model<'t>,
    helpers: &HelperCache,
    mention: Node<'t>,
) -> Option<(Node<'t>, Role)> {
    let source = model.source;
    let mut child = mention;
    let mut parent = mention.up()?;
    while matches!(
        parent.node_kind(),
        "parenthesized_expression" | "cast_expression"
    ) {
        child = parent;
        parent = parent.up()?;
    }
    // `&s.d_a` handed to an allocation
    let mut address = false;
    if parent.node_kind() == "pointer_expression" && operator(parent, source) == "&" {
        address = true;
        child = parent;
        parent = parent.up()?;
        while matches!(
            parent.node_kind(),
            "parenthesized_expression" | "cast_expression"
        ) {
            child = parent;
            parent = parent.up()?;
        }
    }
    let role = match parent.node_kind() {
        "argument_list" => {
            let call = parent.up()?;
            if call.node_kind() != "call_expression" {
                return None;
            }
            let position = named_children(parent).position(|a| a == child)?;
            return Some((call, argument_role(model, helpers, call, position, address)));
        }
        _ if address => return None,
        "subscript_expression" if parent.field("argument") == Some(child) => Role::Uses,
        "binary_expression"
            if matches!(
                operator(parent, source),
                "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||"
            ) =>
        {
            Role::Uses
        }
        "unary_expression" if operator(parent, source) == "!" => Role::Uses,
        "condition_clause" | "sizeof_expression" => Role::Uses,
        "field_expression" if parent.field("argument") == Some(child) => Role::Uses,
        // `s.d_a = nullptr` after freeing it
        "assignment_expression"
            if parent.field("left") == Some(child)
                && parent.field("right").is_some_and(|r| is_null(r, source)) =>
        {
            Role::Uses
        }
        _ => Role::Unknown,
    };
    Some((parent, role))
}

fn argument_role<'t>(
    model: &Model<'t>,
    helpers: &HelperCache,
    call: Node<'t>,
    position: usize,
    address: bool,
) -> Role {
    let source = model.source;
    if launch_form(call, source).is_some() {
        return if address { Role::Unknown } else { Role::Uses };
    }
    let name = call_name(call, source);
    let args = arguments(call);
    if address {
        if position == 0 {
            let flags = args.get(2).map(|f| text(*f, source));
            if let Some(memory) = allocation_memory(name, flags) {
                return Role::Allocates(memory);
            }
        }
        // a helper of this file that allocates through this argument (`alloc_buffer(&s.d, n)`)
        let stored = helper_summary(model, helpers, name, args.len()).and_then(|s| {
            s.allocations
                .iter()
                .find(|a| a.target == HelperTarget::Parameter(position))
                .map(|a| a.memory)
        });
        return match stored {
            Some(memory) => Role::Allocates(memory),
            None => Role::Unknown,
        };
    }
    if is_device_free(name) && position == 0 {
        return Role::Releases;
    }
    if is_cuda_api(name)
        || is_library_call(name)
        || is_file_io(name)
        || matches!(name, "printf" | "fprintf" | "memcpy" | "memset")
    {
        return Role::Uses;
    }
    if model.function_macro(name).is_some() {
        return Role::Unknown;
    }
    match helper_summary(model, helpers, name, args.len())
        .and_then(|s| s.parameters.get(position).copied())
    {
        Some(ParameterUse::Frees { device: true, .. }) => Role::Releases,
        Some(ParameterUse::Borrows { .. }) => Role::Uses,
        _ => Role::Unknown,
    }
}

/// The summary of the host function of this file named `name` with `arity` parameters.
fn helper_summary(
    model: &Model,
    helpers: &HelperCache,
    name: &str,
    arity: usize,
) -> Option<std::rc::Rc<HelperSummary>> {
    let mut candidates = model
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.name == name && f.parameters.len() == arity);
    let (index, function) = candidates.next()?;
    if candidates.next().is_some() || function.kind != FunctionKind::Host {
        return None;
    }
    helpers.summary_of(model, index)
}
