//! What the launches of a file read outside their own function (its allocations, its calls and
//! its constants), found once per file rather than once per launch.

use super::*;

/// What the launches of a file read outside their own function, each found once, on first use,
/// for every launch site that asks: the device allocations (`cudaMalloc`, `cudaMallocManaged`,
/// `cudaMallocAsync`; a member may be allocated in another function) and the file-scope
/// constants (`Locals::read_file_scope`).
pub struct FileScope<'t> {
    pub(super) root: Node<'t>,
    pub(super) source: &'t str,
    /// Whether the file's text names an allocation at all: most code allocates nothing, and a
    /// look at the text spares the walk.
    pub(super) allocates: std::cell::OnceCell<bool>,
    pub(super) constants: std::cell::OnceCell<Locals<'t>>,
    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// `take_member_reads` (what the launches of a function read, for reusing them).
    pub(super) member_reads: std::cell::Cell<bool>,
    /// The file's calls, found in one walk when a launch first asks for its allocations or what
    /// the callers of its function pass.
    pub(super) calls: std::cell::OnceCell<FileCalls<'t>>,
    /// Whether a launch read what the callers of its function pass since the last
    /// `take_caller_reads`.
    pub(super) caller_reads: std::cell::Cell<bool>,
    /// Whether a launch went through a member holding kernel pointers, whose kernels the whole
    /// file assigns, since the last `take_kernel_member_reads`.
    pub(super) kernel_member_reads: std::cell::Cell<bool>,
    /// Where each identifier of the text appears, read in one pass when `callers_hash` is
    /// first asked.
    pub(super) words: std::cell::OnceCell<rustc_hash::FxHashMap<&'t str, Vec<u32>>>,
    /// The function-like macros of one parameter that hand out a vector's device pointer
    /// (`#define D_PTR(X) thrust::raw_pointer_cast((X).data())`): the included headers' given,
    /// the file's own added when first asked.
    pub(super) data_macros: std::cell::OnceCell<Vec<(String, String)>>,
    /// The file's function-like macros, by name with their bodies, read on first use.
    function_macros: std::cell::OnceCell<Vec<(String, String)>>,
    included_data_macros: Vec<(String, String)>,
}

/// The file's allocations as seen from one launching function.
pub(super) struct Allocations<'f, 't> {
    pub(super) function: Node<'t>,
    pub(super) file: &'f FileScope<'t>,
}

impl<'f, 't> Allocations<'f, 't> {
    /// The allocations of the buffer `argument` passes: in the launching function, or anywhere
    /// in the file for a member (an init function may allocate it, another launch).
    pub(super) fn of_argument(
        &self,
        argument: Node<'t>,
        source: &str,
    ) -> impl Iterator<Item = &'f Allocated<'t>> + use<'f, 't> {
        let argument = strip(argument, source);
        let name = self.file.buffer_of(argument).unwrap_or_default();
        // a member (`plan->out`, `this->buf`) may be allocated by another function of the file
        let anywhere_in_file = match name.as_str() {
            "" => None,
            _ if name.contains("->") || name.contains('.') => Some(true),
            _ => Some(false),
        };
        let function = self.function.byte_range();
        let (all, positions): (&'f [Allocated<'t>], &'f [u32]) = match anywhere_in_file {
            Some(member) => {
                if member {
                    self.file.member_reads.set(true);
                }
                self.file.allocations_of(&name)
            }
            None => (&[], &[]),
        };
        let anywhere_in_file = anywhere_in_file.unwrap_or(false);
        positions
            .iter()
            .filter_map(move |at| all.get(*at as usize))
            .filter(move |a| anywhere_in_file || function.contains(&a.call.start_byte()))
    }
}

pub(super) struct Allocated<'t> {
    /// What the pointer written is, normalized (`d_states`, `plan->states`).
    pub(super) target: String,
    pub(super) call: Node<'t>,
    pub(super) size: Option<Node<'t>>,
    /// For a container sized in elements (`thrust::device_vector<T> v(n)`, `v.resize(n)`), the
    /// element type `T`: `size` counts elements, not bytes.
    pub(super) element: Option<String>,
}

/// The calls of a file, read in one walk: both questions a launch asks of the file's calls
/// (where its buffers are allocated, what its function's callers pass) cost a walk of the whole
/// file each when asked apart.
pub(super) struct FileCalls<'t> {
    /// Every call by callee name (`callee_name`).
    by_callee: rustc_hash::FxHashMap<&'t str, Vec<Node<'t>>>,
    /// The device allocations (`cudaMalloc`, `cudaMallocManaged`, `cudaMallocAsync`), in file
    /// order; empty when the file's text names no allocation.
    allocations: Vec<Allocated<'t>>,
    /// Positions in `allocations` by the pointer written: a launch asks for each argument's.
    allocations_by_target: rustc_hash::FxHashMap<String, Vec<u32>>,
}

impl<'t> FileScope<'t> {
    pub fn new(root: Node<'t>, source: &'t str) -> FileScope<'t> {
        FileScope {
            root,
            source,
            allocates: std::cell::OnceCell::new(),
            constants: std::cell::OnceCell::new(),
            member_reads: std::cell::Cell::new(false),
            calls: std::cell::OnceCell::new(),
            caller_reads: std::cell::Cell::new(false),
            kernel_member_reads: std::cell::Cell::new(false),
            words: std::cell::OnceCell::new(),
            data_macros: std::cell::OnceCell::new(),
            function_macros: std::cell::OnceCell::new(),
            included_data_macros: Vec::new(),
        }
    }

    /// The scope with the vector-data macros of the headers the file includes (name, parameter).
    pub fn with_data_macros(mut self, macros: &[crate::source::MacroDefinition]) -> Self {
        self.included_data_macros = macros
            .iter()
            .filter_map(|m| Some((m.name.clone(), m.parameters.first()?.clone())))
            .collect();
        self
    }

    /// The macro `name`'s parameter when it hands out its argument's vector data.
    fn data_macro(&self, name: &str) -> Option<&str> {
        self.all_data_macros()
            .iter()
            .rev()
            .find(|(macro_name, _)| macro_name == name)
            .map(|(_, parameter)| parameter.as_str())
    }

    /// The vector-data macros the file sees, its own after its headers', read on first use.
    fn all_data_macros(&self) -> &[(String, String)] {
        self.data_macros.get_or_init(|| {
            let mut macros = self.included_data_macros.clone();
            if self.source.contains("#define") {
                macros.extend(
                    crate::source::function_macro_definitions(self.source)
                        .into_iter()
                        .filter(is_data_macro)
                        .filter_map(|m| Some((m.name, m.parameters.into_iter().next()?))),
                );
            }
            macros
        })
    }

    /// The buffer a launch argument passes, normalized as allocations name their targets: the
    /// pointer itself (`d_out`, `plan->out`), or the vector whose device storage it hands out
    /// (`thrust::raw_pointer_cast(v.data())`, `thrust::raw_pointer_cast(&v[0])`,
    /// `v.data().get()`, a macro of one parameter expanding to one of them).
    fn buffer_of(&self, argument: Node<'t>) -> Option<String> {
        let source = self.source;
        match argument.node_kind() {
            "identifier" | "field_expression" => Some(normalized(argument, source)),
            "call_expression" => {
                let function = argument.field("function")?;
                let written: String = text(argument, source)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                if function.node_kind() == "identifier"
                    && self.data_macro(text(function, source)).is_some()
                {
                    let [passed] = syntax::call_arguments(argument)[..] else {
                        return None;
                    };
                    let passed = normalized(passed, source);
                    // the macro's body with the argument put in is `...(passed).data()`
                    return vector_data_target(&format!("({passed}).data()"), 0)
                        .map(str::to_string);
                }
                vector_data_target(&written, 0).map(str::to_string)
            }
            "pointer_expression" => {
                let pointee = strip(argument.field("argument")?, source);
                if syntax::operator(argument, source) == "*" && pointee.node_kind() == "identifier"
                {
                    return Some(format!("*{}", text(pointee, source)));
                }
                vector_data_target(&normalized(argument, source), 0).map(str::to_string)
            }
            _ => None,
        }
    }

    /// The calls of the function named `name` anywhere in the file.
    pub(super) fn calls_of(&self, name: &str) -> &[Node<'t>] {
        self.file_calls()
            .by_callee
            .get(name)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the file's text names an allocation (`cudaMalloc...`, `hipMalloc...`).
    pub(super) fn allocates(&self) -> bool {
        *self.allocates.get_or_init(|| {
            self.source.contains("cudaMalloc")
                || self.source.contains("hipMalloc")
                || self.source.contains("device_vector")
        })
    }

    /// The file's calls (`FileCalls`), found in one walk on first use.
    pub(super) fn file_calls(&self) -> &FileCalls<'t> {
        self.calls.get_or_init(|| {
            let source = self.source;
            let allocates = self.allocates();
            let mut calls = FileCalls {
                by_callee: Default::default(),
                allocations: Vec::new(),
                allocations_by_target: Default::default(),
            };
            // `v.resize(n)` calls, kept once the walk has seen which names are device vectors
            let mut resized: Vec<Allocated<'t>> = Vec::new();
            let mut device_vectors: rustc_hash::FxHashMap<String, String> = Default::default();
            syntax::walk_iterative(self.root, |node| {
                if allocates && matches!(node.node_kind(), "declaration" | "field_declaration") {
                    for allocated in device_vector_declaration(node, source) {
                        device_vectors.insert(
                            allocated.target.clone(),
                            allocated.element.clone().unwrap_or_default(),
                        );
                        if allocated.size.is_some() {
                            calls.push_allocation(allocated);
                        }
                    }
                }
                if node.node_kind() != "call_expression" {
                    return true;
                }
                let Some(function) = node.field("function") else {
                    return true;
                };
                calls
                    .by_callee
                    .entry(grid::callee_name(function, source))
                    .or_default()
                    .push(node);
                if allocates {
                    if let Some(allocated) = allocation(node, function, source) {
                        calls.push_allocation(allocated);
                    } else if let Some(allocated) = resize(node, function, source) {
                        resized.push(allocated);
                    }
                }
                true
            });
            for mut allocated in resized {
                // `v.resize(n)`, `this->v.resize(n)`: the vector is the member or local `v`
                let name = allocated
                    .target
                    .rsplit(['.', '>'])
                    .next()
                    .unwrap_or_default();
                if let Some(element) = device_vectors.get(name) {
                    allocated.element = Some(element.clone()).filter(|e| !e.is_empty());
                    calls.push_allocation(allocated);
                }
            }
            calls
        })
    }

    /// Whether a launch read what the callers of its function pass since the last call; clears
    /// it.
    pub fn take_caller_reads(&self) -> bool {
        self.caller_reads.replace(false)
    }

    /// Whether a launch went through a member of kernel pointers since the last call; clears it.
    pub fn take_kernel_member_reads(&self) -> bool {
        self.kernel_member_reads.replace(false)
    }

    /// A hash of the functions that call `name` (their whole text): what a launch that passes
    /// on a parameter of `name` read.
    ///
    /// Found from the mentions of `name` in the text rather than from `calls_of`, whose walk of
    /// the whole tree would cost a keystroke more than the launches it saves reading: every call
    /// of `name` mentions it, so the functions mentioning it hold every caller.
    pub fn callers_hash(&self, name: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let words = self.words.get_or_init(|| word_positions(self.source));
        for &at in words.get(name).map_or(&[][..], Vec::as_slice) {
            let at = at as usize;
            let Some(mention) = self.root.descendant_for_byte_range(at, at + name.len()) else {
                continue;
            };
            enclosing_function(mention)
                .map(|caller| text(caller, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The file's device allocations, in file order.
    pub(super) fn all(&self) -> &[Allocated<'t>] {
        if !self.allocates() {
            return &[];
        }
        &self.file_calls().allocations
    }

    /// The file's device allocations and the positions among them of those that write `target`.
    pub(super) fn allocations_of(&self, target: &str) -> (&[Allocated<'t>], &[u32]) {
        if !self.allocates() {
            return (&[], &[]);
        }
        let calls = self.file_calls();
        let positions = calls
            .allocations_by_target
            .get(target)
            .map_or(&[][..], Vec::as_slice);
        (&calls.allocations, positions)
    }

    /// The file-scope constants, read once for every launching function of the file.
    pub(super) fn constants(&self) -> &Locals<'t> {
        self.constants.get_or_init(|| {
            let mut locals = Locals::default();
            locals.read_file_scope(self.root, self.source);
            locals.read_set_once_globals(self.root, self.source);
            locals
        })
    }

    /// Whether a launch looked for a member's allocations anywhere in the file since the last
    /// call; clears it.
    pub fn take_member_reads(&self) -> bool {
        self.member_reads.replace(false)
    }

    /// A hash of what the launches in `function` read of the file-scope constants: each
    /// constant's name and value, and for a `dim3` one whether it is declared before the
    /// function (a launch sees only those).
    pub fn constants_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let constants = self.constants();
        let mut hasher = rustc_hash::FxHasher::default();
        let mut values: Vec<(&str, &str)> = constants
            .file_constants
            .iter()
            .map(|(name, value)| (*name, text(*value, self.source)))
            .collect();
        values.sort_unstable();
        values.hash(&mut hasher);
        let mut lists: Vec<(&str, &str, bool)> = constants
            .dim3
            .iter()
            .flat_map(|(name, lists)| {
                lists.iter().map(|list| {
                    let before = list.start_byte() <= function.start_byte();
                    (*name, text(*list, self.source), before)
                })
            })
            .collect();
        lists.sort_unstable();
        lists.hash(&mut hasher);
        // a function-like macro the function names (`SCALE(1)` in a table of kernels) may
        // decide what it launches: its definition is read from elsewhere in the file
        let body = text(function, self.source);
        let macros = self.function_macros.get_or_init(|| {
            if !self.source.contains("#define") {
                return Vec::new();
            }
            crate::source::function_macro_definitions(self.source)
                .into_iter()
                .map(|m| (m.name, m.body))
                .collect()
        });
        for (name, definition) in macros {
            if body.contains(name.as_str()) {
                (name, definition).hash(&mut hasher);
            }
        }
        hasher.finish()
    }

    /// A hash of the file's allocations outside `function` (what a member passed to a launch
    /// in it may read), in file order.
    pub fn allocations_hash(&self, function: Node<'t>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = rustc_hash::FxHasher::default();
        let range = function.byte_range();
        // a macro handing out a vector's data decides which vector an argument passes
        self.all_data_macros().hash(&mut hasher);
        for allocated in self.all() {
            if range.contains(&allocated.call.start_byte()) {
                continue;
            }
            allocated.target.hash(&mut hasher);
            allocated
                .size
                .map(|size| text(size, self.source))
                .hash(&mut hasher);
        }
        hasher.finish()
    }
}

impl<'t> FileCalls<'t> {
    fn push_allocation(&mut self, allocated: Allocated<'t>) {
        let position = u32::try_from(self.allocations.len()).unwrap_or(u32::MAX);
        self.allocations_by_target
            .entry(allocated.target.clone())
            .or_default()
            .push(position);
        self.allocations.push(allocated);
    }
}

/// The element type of a device container type (`thrust::device_vector<float>`), normalized.
fn device_vector_element(type_text: &str) -> Option<String> {
    let normalized = size::normalize_type(type_text);
    let rest = normalized
        .strip_prefix("thrust::device_vector<")
        .or_else(|| normalized.strip_prefix("device_vector<"))?;
    let element = rest.strip_suffix('>')?;
    // `device_vector<T, Alloc>`: the element is the first argument
    let element = match element.find(',') {
        Some(comma) if !element[..comma].contains('<') => &element[..comma],
        _ => element,
    };
    Some(size::normalize_type(element))
}

/// The device vectors a declaration declares (`thrust::device_vector<T> v(n);`,
/// `v(n, value)`, a member `thrust::device_vector<T> buf;`), each with its element count when
/// it has one: a device allocation of that many elements (thrust fills it, with `value` or
/// zero-initialized elements).
fn device_vector_declaration<'t>(declaration: Node<'t>, source: &str) -> Vec<Allocated<'t>> {
    let Some(element) = declaration
        .field("type")
        .and_then(|t| device_vector_element(text(t, source)))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for declarator in named_children(declaration) {
        let (name, size) = match declarator.node_kind() {
            "identifier" | "field_identifier" => (declarator, None),
            "init_declarator" => {
                let (Some(name), Some(value)) =
                    (declarator.field("declarator"), declarator.field("value"))
                else {
                    continue;
                };
                let size = (value.node_kind() == "argument_list")
                    .then(|| named_children(value).next())
                    .flatten();
                (name, size)
            }
            // `device_vector<T> v(a * b);` parses as a function declaration
            "function_declarator" => {
                let (Some(name), Some(parameters)) = (
                    declarator.field("declarator"),
                    declarator.field("parameters"),
                ) else {
                    continue;
                };
                (name, named_children(parameters).next())
            }
            _ => continue,
        };
        if !matches!(name.node_kind(), "identifier" | "field_identifier") {
            continue;
        }
        // `v(first, last)` copies a range of iterators: its size is not written here
        let size = size.filter(|s| {
            let written = text(*s, source);
            !written.contains("begin(") && !written.contains("cbegin(")
        });
        found.push(Allocated {
            target: text(name, source).to_string(),
            call: declarator,
            size,
            element: Some(element.clone()),
        });
    }
    found
}

/// `v.resize(n)`: a reallocation of `n` elements, when `v` is a device vector (the caller
/// checks, and fills in the element type).
fn resize<'t>(call: Node<'t>, function: Node<'t>, source: &str) -> Option<Allocated<'t>> {
    if function.node_kind() != "field_expression"
        || function.field("field").map(|f| text(f, source)) != Some("resize")
    {
        return None;
    }
    let target = function.field("argument")?;
    let size = syntax::call_arguments(call).first().copied()?;
    Some(Allocated {
        target: normalized(target, source),
        call,
        size: Some(size),
        element: None,
    })
}

/// The vector whose device storage `expr` (without whitespace) hands out:
/// `thrust::raw_pointer_cast(v.data())`, `thrust::raw_pointer_cast(&v[0])`, `v.data().get()`,
/// `thrust::raw_pointer_cast((v).data())`, as the plain name or member path `v`.
pub fn vector_data_target(expr: &str, depth: usize) -> Option<&str> {
    if depth > 4 {
        return None;
    }
    let expr = strip_parentheses(expr);
    if let Some(inner) = expr
        .strip_prefix("thrust::raw_pointer_cast(")
        .or_else(|| expr.strip_prefix("raw_pointer_cast("))
        .and_then(|rest| rest.strip_suffix(')'))
    {
        return vector_data_target(inner, depth + 1);
    }
    if let Some(pointer) = expr.strip_suffix(".get()") {
        return vector_data_target(pointer, depth + 1)
            .filter(|_| strip_parentheses(pointer).ends_with(".data()"));
    }
    let vector = match expr.strip_suffix(".data()") {
        Some(vector) => vector,
        None => expr.strip_prefix('&')?.strip_suffix("[0]")?,
    };
    let vector = strip_parentheses(vector);
    let is_path = !vector.is_empty()
        && vector.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && vector
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '>'));
    is_path.then_some(vector)
}

/// `expr` without the parentheses that wrap all of it.
fn strip_parentheses(mut expr: &str) -> &str {
    for _ in 0..8 {
        let Some(inner) = expr.strip_prefix('(').and_then(|e| e.strip_suffix(')')) else {
            break;
        };
        // `(a).data()` is not wrapped as a whole: the first `(` must close at the end
        let mut depth = 0i32;
        let closes_at_end = inner.chars().all(|c| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth >= 0
        });
        if !closes_at_end {
            break;
        }
        expr = inner;
    }
    expr
}

/// Whether a function-like macro of one parameter hands out its argument's vector data
/// (`#define D_PTR(X) thrust::raw_pointer_cast((X).data())`).
pub fn is_data_macro(definition: &crate::source::MacroDefinition) -> bool {
    let [parameter] = definition.parameters.as_slice() else {
        return false;
    };
    if definition.variadic {
        return false;
    }
    let body: String = definition
        .body
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    vector_data_target(&body, 0) == Some(parameter.as_str())
}

/// The device allocation `call` (whose callee is `function`) makes: `cudaMalloc(&target, size)`,
/// `cudaMallocManaged`, `cudaMallocAsync` (or HIP's), with the pointer it writes.
fn allocation<'t>(call: Node<'t>, function: Node<'t>, source: &str) -> Option<Allocated<'t>> {
    if !matches!(
        crate::model::runtime::cuda_name(text(function, source)).as_ref(),
        "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync"
    ) {
        return None;
    }
    let arguments = syntax::call_arguments(call);
    let written = *arguments.first()?;
    // `cudaMalloc(states, bytes)` with `states` a `T**` the caller handed in allocates `*states`
    let target = match syntax::address_operand(written, source) {
        Some(target) => normalized(target, source),
        None if strip(written, source).node_kind() == "identifier" => {
            format!("*{}", text(strip(written, source), source))
        }
        None => return None,
    };
    Some(Allocated {
        target,
        call,
        size: arguments.get(1).copied(),
        element: None,
    })
}

/// Where each identifier of `text` appears (any word of letters, digits and `_` that does not
/// start with a digit; comments and strings included).
fn word_positions(text: &str) -> rustc_hash::FxHashMap<&str, Vec<u32>> {
    let is_identifier = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let mut words: rustc_hash::FxHashMap<&str, Vec<u32>> = Default::default();
    let mut at = 0;
    while at < bytes.len() {
        if !is_identifier(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_identifier(bytes[at]) {
            at += 1;
        }
        if !bytes[start].is_ascii_digit() {
            if let (Some(word), Ok(position)) = (text.get(start..at), u32::try_from(start)) {
                words.entry(word).or_default().push(position);
            }
        }
    }
    words
}
