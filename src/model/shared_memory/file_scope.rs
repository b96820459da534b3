//! What every kernel of a file reads alike (its file-scope shared arrays, integer constants and
//! device functions), kept apart so that it is read once per file, not once per kernel.

use super::*;

/// What every kernel of a file reads the same way: its file-scope shared arrays and integer
/// constants, and which device functions may reach a barrier. Built once per file, on the first
/// kernel that declares or reaches shared memory.
pub struct FileScope<'t> {
    pub(super) source: &'t str,
    pub(super) view: &'t crate::source::PreprocessedView,
    /// File-scope shared arrays, visible from the start of every kernel.
    pub(super) globals: Vec<(&'t str, Array)>,
    /// File-scope integer constants.
    pub(super) constants: HashMap<&'t str, i64>,
    /// Device functions of the file that reach a barrier (or a call that may hide one).
    pub(super) may_sync: HashMap<String, bool>,
    /// Functions of the file a kernel may call, by name (None: several share it).
    pub(super) helpers: HashMap<&'t str, Option<Rc<Helper<'t>>>>,
    /// Steps left to the runs of the file's kernels (`FILE_BUDGET`).
    pub(super) left: std::cell::Cell<u64>,
    /// The lanes of a warp: 32 in CUDA, a wavefront of 64 in HIP (AMD's data-centre GPUs).
    pub(super) warp: i64,
}

impl<'t> FileScope<'t> {
    pub fn new(model: &Model<'t>) -> FileScope<'t> {
        let mut scope = FileScope {
            source: model.source,
            view: model.view,
            globals: Vec::new(),
            constants: HashMap::default(),
            may_sync: HashMap::default(),
            helpers: HashMap::default(),
            left: std::cell::Cell::new(FILE_BUDGET),
            warp: model.runtime.warp_size(),
        };
        for node in named_children(model.tree.root_node()) {
            scope.file_scope(node, 0);
        }
        // each function walked once: whether it syncs itself, and the names it calls; then a
        // helper that calls one that syncs syncs too
        for f in &model.functions {
            if f.kind != crate::model::FunctionKind::Kernel {
                scope.may_sync.insert(f.name.clone(), false);
                let name = text(f.name_node, model.source);
                let name = name.rsplit("::").next().unwrap_or(name);
                scope
                    .helpers
                    .entry(name)
                    .and_modify(|seen| *seen = None)
                    .or_insert_with(|| Some(Rc::new(Helper::new(f, model.source))));
            }
        }
        let mut calls: Vec<(&str, Vec<&'t str>)> = Vec::new();
        for f in &model.functions {
            if f.kind == crate::model::FunctionKind::Kernel {
                continue;
            }
            let mut syncs = false;
            let mut called: Vec<&'t str> = Vec::new();
            walk_iterative(f.body, |node| {
                match node.node_kind() {
                    "call_expression" => match scope.callee(node) {
                        Callee::Named(name) => called.push(name),
                        Callee::MaySync => syncs = true,
                        Callee::Free => {}
                    },
                    "gnu_asm_expression" => syncs = true,
                    _ => {}
                }
                !syncs
            });
            if syncs {
                scope.may_sync.insert(f.name.clone(), true);
            } else {
                calls.push((f.name.as_str(), called));
            }
        }
        // from each helper known to sync, up through its callers: each call edge looked at once
        let mut callers: HashMap<&'t str, Vec<usize>> = HashMap::default();
        for (index, (_, called)) in calls.iter().enumerate() {
            for callee in called {
                callers.entry(*callee).or_default().push(index);
            }
        }
        let mut pending: Vec<String> = scope
            .may_sync
            .iter()
            .filter(|(_, syncs)| **syncs)
            .map(|(name, _)| name.clone())
            .collect();
        while let Some(name) = pending.pop() {
            let Some(indices) = callers.get(name.as_str()) else {
                continue;
            };
            for index in indices {
                let Some((caller, _)) = calls.get(*index) else {
                    continue;
                };
                if let Some(syncs) = scope.may_sync.get_mut(*caller) {
                    if !*syncs {
                        *syncs = true;
                        pending.push(caller.to_string());
                    }
                }
            }
        }
        scope
    }

    /// Whether a kernel can touch shared memory: it declares some, or the file has some at its
    /// scope. A kernel that cannot is not run.
    pub fn reaches_shared(&self, function: &Function<'t>) -> bool {
        !self.globals.is_empty() || text(function.body, self.source).contains("__shared__")
    }

    /// The values of an enum's enumerators, as constants of the file (`BlockLevel = 32`, or
    /// one more than the one before). A name given two values is dropped.
    fn enumerators(&mut self, specifier: Node<'t>) {
        let source = self.source;
        let Some(list) = specifier.field("body") else {
            return;
        };
        let mut next: Option<i64> = Some(0);
        for enumerator in named_children(list).filter(|n| n.node_kind() == "enumerator") {
            let Some(name) = enumerator.field("name").map(|n| text(n, source)) else {
                continue;
            };
            let value = match enumerator.field("value") {
                Some(value) => crate::model::size::parse_number(text(value, source))
                    .and_then(|v| i64::try_from(v).ok()),
                None => next,
            };
            next = value.and_then(|v| v.checked_add(1));
            let Some(value) = value else {
                continue;
            };
            match self.constants.get(name) {
                Some(known) if *known != value => {
                    self.constants.remove(name);
                }
                _ => {
                    self.constants.insert(name, value);
                }
            }
        }
    }

    pub(super) fn file_scope(&mut self, node: Node<'t>, depth: usize) {
        if depth > 8 {
            return;
        }
        let source = self.source;
        match node.node_kind() {
            "declaration" if is_shared(node, source) => {
                for declarator in named_children(node) {
                    if let Some(name) = crate::syntax::declarator_name(declarator) {
                        if let Some(array) = self.array(node) {
                            self.globals.push((text(name, source), array));
                        }
                        break;
                    }
                }
            }
            "enum_specifier" => self.enumerators(node),
            "declaration"
                if node
                    .field("type")
                    .is_some_and(|t| t.node_kind() == "enum_specifier") =>
            {
                if let Some(specifier) = node.field("type") {
                    self.enumerators(specifier);
                }
            }
            "declaration" => {
                // `const`, `constexpr`, `static const`, `inline constexpr`: the words before the
                // type say whether the value is fixed
                if node.field("type").is_none() {
                    return;
                }
                if !crate::syntax::words_before_type(node, source)
                    .split_whitespace()
                    .any(|w| w == "const" || w == "constexpr")
                {
                    return;
                }
                for declarator in named_children(node) {
                    if declarator.node_kind() != "init_declarator" {
                        continue;
                    }
                    let (Some(name), Some(value)) =
                        (declarator.field("declarator"), declarator.field("value"))
                    else {
                        continue;
                    };
                    if name.node_kind() != "identifier" {
                        continue;
                    }
                    // `constexpr int HDIM = EMB / HEADS;`: arithmetic over the constants
                    // declared before it
                    let value = self.constant_at(value, 0).or_else(|| {
                        crate::model::size::parse_number(text(value, source))
                            .and_then(|v| i64::try_from(v).ok())
                    });
                    if let Some(v) = value {
                        self.constants.insert(text(name, source), v);
                    }
                }
            }
            "namespace_definition"
            | "linkage_specification"
            | "declaration_list"
            | "preproc_ifdef"
            | "preproc_if"
            | "preproc_else" => {
                for child in named_children(node) {
                    self.file_scope(child, depth + 1);
                }
                if let Some(body) = node.field("body") {
                    for child in named_children(body) {
                        self.file_scope(child, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// The array a `__shared__` declaration makes (its first declarator).
    pub(super) fn array(&self, declaration: Node<'t>) -> Option<Array> {
        let source = self.source;
        let element_type = declaration
            .field("type")
            .map(|t| text(t, source))
            .unwrap_or("")
            .to_string();
        let declarator = named_children(declaration).find(|c| {
            matches!(
                c.node_kind(),
                "identifier" | "array_declarator" | "init_declarator"
            )
        })?;
        let declarator = if declarator.node_kind() == "init_declarator" {
            declarator.field("declarator")?
        } else {
            declarator
        };
        let name = crate::syntax::declarator_name(declarator)?;
        let mut dims = Vec::new();
        let mut current = declarator;
        for _ in 0..8 {
            if current.node_kind() != "array_declarator" {
                break;
            }
            dims.push(current.field("size").and_then(|s| self.constant(s)));
            match current.field("declarator") {
                Some(inner) => current = inner,
                None => break,
            }
        }
        if current.node_kind() != "identifier" {
            return None; // a pointer or a function: not an array of shared memory
        }
        dims.reverse();
        let scalar = dims.is_empty();
        let element = crate::model::size::builtin_size(&element_type)
            .and_then(|v| i64::try_from(v).ok())
            .unwrap_or(1);
        Some(Array {
            name: text(name, source).to_string(),
            element,
            element_type,
            dims,
            scalar,
        })
    }

    /// A compile-time integer: a literal, a `#define`, a file constant, arithmetic of those.
    pub(super) fn constant(&self, node: Node<'t>) -> Option<i64> {
        self.constant_at(node, 0)
    }

    pub(super) fn constant_at(&self, node: Node<'t>, depth: usize) -> Option<i64> {
        if depth > 16 {
            return None;
        }
        let source = self.source;
        let node = crate::syntax::strip(node, source);
        match node.node_kind() {
            "number_literal" => crate::model::size::parse_number(text(node, source))
                .and_then(|v| i64::try_from(v).ok()),
            "identifier" => self.named_constant(text(node, source)),
            "binary_expression" => {
                let l = self.constant_at(node.field("left")?, depth + 1)?;
                let r = self.constant_at(node.field("right")?, depth + 1)?;
                arithmetic(operator(node, source), l, r)
            }
            _ => None,
        }
    }

    /// A `#define`'s body, when the file gives it only one.
    pub(super) fn define(&self, name: &str) -> Option<&'t str> {
        if self.view.ambiguous_defines.contains(name) {
            return None;
        }
        self.view.define(name)
    }

    /// The value of a file-scope integer constant or a `#define` of known constants.
    pub fn named_constant(&self, name: &str) -> Option<i64> {
        if let Some(v) = self.constants.get(name) {
            return Some(*v);
        }
        let value = self.define(name)?;
        let trimmed = value
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        if let Some(v) =
            crate::model::size::parse_number(trimmed).and_then(|v| i64::try_from(v).ok())
        {
            return Some(v);
        }
        // `#define B (T * 2)`: a product or sum of known constants
        let mut tokens = trimmed.split_whitespace().flat_map(|t| split_operators(t));
        let first = tokens.next()?;
        let mut total = self.token_value(first)?;
        while let Some(op) = tokens.next() {
            let next = self.token_value(tokens.next()?)?;
            total = arithmetic(op, total, next)?;
        }
        Some(total)
    }

    pub(super) fn token_value(&self, token: &str) -> Option<i64> {
        if let Some(v) = crate::model::size::parse_number(token).and_then(|v| i64::try_from(v).ok())
        {
            return Some(v);
        }
        self.constants.get(token).copied()
    }

    /// Whether a call may be (or hide) a block-wide barrier without being a plain one.
    pub(super) fn call_may_sync(&self, call: Node<'t>) -> bool {
        match self.callee(call) {
            Callee::MaySync => true,
            Callee::Free => false,
            Callee::Named(name) => self.may_sync.get(name).is_none_or(|syncs| *syncs),
        }
    }

    /// What a call is, as far as barriers go (a function of the file is named, to be looked up).
    pub(super) fn callee(&self, call: Node<'t>) -> Callee<'t> {
        let source = self.source;
        let Some(function) = call.field("function") else {
            return Callee::MaySync;
        };
        if is_block_barrier(call, source) {
            return Callee::MaySync;
        }
        let name = text(function, source);
        if function.node_kind() == "field_expression" {
            let method = function
                .field("field")
                .map(|f| text(f, source))
                .unwrap_or("");
            let syncs = matches!(
                method,
                "sync"
                    | "Sum"
                    | "Reduce"
                    | "Scan"
                    | "ExclusiveSum"
                    | "InclusiveSum"
                    | "Load"
                    | "Store"
                    | "barrier_wait"
                    | "arrive_and_wait"
                    | "wait"
            ) || !is_pure_method(method);
            return if syncs { Callee::MaySync } else { Callee::Free };
        }
        let short = name.rsplit("::").next().unwrap_or(name);
        let short = short.split('<').next().unwrap_or(short).trim();
        if self.may_sync.contains_key(short) {
            return Callee::Named(short);
        }
        if is_barrier_free_builtin(short) {
            Callee::Free
        } else {
            Callee::MaySync
        }
    }
}
