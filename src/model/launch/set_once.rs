//! File-scope variables a host function sets once: `int gridSize;` assigned `gridSize =
//! samplesPerBuffer / blockSize;` in an init function and read by the launches of the others.
//! After that one assignment the variable holds its value for the rest of the run, as a
//! constant would; the launches read it as that value where every name the value is written in
//! is fixed too (a constant, a macro, another variable set once), so the value does not drift
//! from what the launch passes alongside it.

use crate::syntax::{self, operator, strip, text, NodeExt};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tree_sitter::Node;

/// Words that put a file-scope variable somewhere a host assignment does not set it (device
/// memory, another file's definition) or make its writes unseen (other threads).
const NOT_HOST_SET: [&str; 7] = [
    "__device__",
    "__constant__",
    "__managed__",
    "__shared__",
    "extern",
    "volatile",
    "thread_local",
];

/// Scalar types a launch size is kept in.
fn is_scalar_type(type_node: Node, source: &str) -> bool {
    match type_node.node_kind() {
        "primitive_type" | "sized_type_specifier" => !matches!(
            text(type_node, source),
            "bool" | "char" | "float" | "double" | "void"
        ),
        "type_identifier" => matches!(
            text(type_node, source),
            "size_t" | "ssize_t" | "int32_t" | "int64_t" | "uint32_t" | "uint64_t" | "uint"
        ),
        _ => false,
    }
}

/// The file-scope variables of `root` set once by a host function, each with the value its one
/// assignment gives it, where every name that value reads is fixed when it runs.
pub(super) fn set_once_globals<'t>(root: Node<'t>, source: &'t str) -> Vec<(&'t str, Node<'t>)> {
    let mut candidates = candidates(root, source);
    // the names the file writes, walked once per file: most candidates are never written
    let written = syntax::names_written(root, source);
    candidates.retain(|name| written.contains(*name));
    if candidates.is_empty() {
        return Vec::new();
    }
    let mut assignments: HashMap<&str, Vec<Node<'t>>> = HashMap::default();
    let mut disqualified: HashSet<&str> = HashSet::default();
    syntax::walk_iterative(root, |node| {
        let (target, plain) = match node.node_kind() {
            "assignment_expression" => (node.field("left"), operator(node, source) == "="),
            "update_expression" => (node.field("argument"), false),
            "pointer_expression" if operator(node, source) == "&" => {
                (node.field("argument"), false)
            }
            // `std::cin >> n` and reference parameters are not seen; a stream read is
            "binary_expression" if operator(node, source) == ">>" => (node.field("right"), false),
            _ => (None, false),
        };
        let Some(target) = target.map(|t| strip(t, source)) else {
            return true;
        };
        if target.node_kind() != "identifier" {
            return true;
        }
        let name = text(target, source);
        if !candidates.contains(name) {
            return true;
        }
        let function = super::enclosing_function(node);
        // an assignment to a local or parameter of the name is not to the variable
        if function.is_some_and(|f| declares(f, name, source)) {
            return true;
        }
        let host = function.is_some_and(|f| !runs_on_device(f, source));
        if plain && host {
            assignments.entry(name).or_default().push(node);
        } else {
            disqualified.insert(name);
        }
        true
    });
    let set_once: HashMap<&str, Node<'t>> = assignments
        .into_iter()
        .filter(|(name, _)| !disqualified.contains(name))
        .filter_map(|(name, nodes)| match nodes.as_slice() {
            [assignment] => Some((name, *assignment)),
            _ => None,
        })
        .collect();
    let fixed = FixedNames {
        set_once: &set_once,
        constants: constant_names(root, source),
        written: &written,
        source,
    };
    let mut found: Vec<(&str, Node<'t>)> = set_once
        .iter()
        .filter_map(|(name, assignment)| {
            let value = assignment.field("right")?;
            let function = super::enclosing_function(*assignment)?;
            fixed
                .reads_only_fixed(value, name, function)
                .then_some((*name, value))
        })
        .collect();
    found.sort_unstable_by_key(|(_, value)| value.start_byte());
    found
}

/// The file-scope declarations that may be set once: a scalar declared without a value, or
/// with zero (what it holds before it is set).
fn candidates<'t>(root: Node<'t>, source: &'t str) -> HashSet<&'t str> {
    let mut names = HashSet::default();
    if root.node_kind() != "translation_unit" {
        return names;
    }
    let mut scopes = vec![root];
    while let Some(scope) = scopes.pop() {
        for item in syntax::named_children(scope) {
            match item.node_kind() {
                "namespace_definition" | "linkage_specification" => {
                    if let Some(inner) = item.field("body") {
                        scopes.push(inner);
                    }
                }
                "declaration_list" => scopes.push(item),
                "declaration" => read_candidate(item, source, &mut names),
                _ => {}
            }
        }
    }
    names
}

fn read_candidate<'t>(declaration: Node<'t>, source: &'t str, names: &mut HashSet<&'t str>) {
    let Some(type_node) = declaration.field("type") else {
        return;
    };
    if !is_scalar_type(type_node, source) {
        return;
    }
    let first_declarator = declaration
        .field("declarator")
        .map_or(declaration.end_byte(), |d| d.start_byte());
    let before = source
        .get(declaration.start_byte()..first_declarator)
        .unwrap_or("");
    if before
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| NOT_HOST_SET.contains(&word) || matches!(word, "const" | "constexpr"))
    {
        return;
    }
    let mut cursor = declaration.walk();
    for declarator in declaration.children_by_field_name("declarator", &mut cursor) {
        let name = match declarator.node_kind() {
            "identifier" => Some(declarator),
            "init_declarator" => declarator
                .field("declarator")
                .filter(|d| d.node_kind() == "identifier")
                .filter(|_| {
                    declarator.field("value").is_some_and(|v| {
                        v.node_kind() == "number_literal" && text(v, source) == "0"
                    })
                }),
            _ => None,
        };
        if let Some(name) = name {
            names.insert(text(name, source));
        }
    }
}

/// Whether `function` is compiled for the device, where host variables cannot be written.
fn runs_on_device(function: Node, source: &str) -> bool {
    let head_end = function
        .field("body")
        .map_or(function.end_byte(), |b| b.start_byte());
    let head = source.get(function.start_byte()..head_end).unwrap_or("");
    head.contains("__global__") || head.contains("__device__")
}

/// Whether `function` declares a parameter or local named `name`.
fn declares(function: Node, name: &str, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(function, |node| {
        if found {
            return false;
        }
        if matches!(
            node.node_kind(),
            "parameter_declaration" | "declaration" | "optional_parameter_declaration"
        ) {
            let mut cursor = node.walk();
            found = node
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(syntax::declarator_name)
                .any(|d| text(d, source) == name);
        }
        !found
    });
    found
}

/// The names of the file-scope constants of `root`.
fn constant_names<'t>(root: Node<'t>, source: &'t str) -> HashSet<&'t str> {
    super::file_scope_constants(root, source)
        .iter()
        .flat_map(|declaration| {
            let mut cursor = declaration.walk();
            declaration
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(syntax::declarator_name)
                .map(|d| text(d, source))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What stays fixed for the rest of a run once set: the variables set once, the file's
/// constants and its object-like macros, and names spelled as macros the file never writes
/// (`NA` from a header the build generates).
struct FixedNames<'s, 't> {
    set_once: &'s HashMap<&'t str, Node<'t>>,
    constants: HashSet<&'t str>,
    written: &'s syntax::WrittenNames,
    source: &'t str,
}

impl FixedNames<'_, '_> {
    /// Whether every name `value` reads is fixed once it is computed: a file-scope constant or
    /// macro (not hidden by a local or parameter of `function`), or another variable set once.
    /// Callees and types may appear; the variable `name` itself may not.
    fn reads_only_fixed(&self, value: Node, name: &str, function: Node) -> bool {
        let mut fixed = true;
        syntax::walk_iterative(value, |node| {
            if !fixed {
                return false;
            }
            match node.node_kind() {
                "call_expression" => {
                    // the callee names a function; its arguments are values
                    if let Some(arguments) = node.field("arguments") {
                        fixed &= self.reads_only_fixed(arguments, name, function);
                    }
                    false
                }
                "sizeof_expression" => false,
                // what a member or an element holds is not followed
                "field_expression" | "subscript_expression" => {
                    fixed = false;
                    false
                }
                "identifier" => {
                    fixed &= self.is_fixed(text(node, self.source), name, function);
                    false
                }
                _ => true,
            }
        });
        fixed
    }

    fn is_fixed(&self, read: &str, name: &str, function: Node) -> bool {
        if read == name || declares(function, read, self.source) {
            return false;
        }
        self.set_once.contains_key(read)
            || self.constants.contains(read)
            || defines_macro(self.source, read)
            || (super::names_a_macro(read) && !self.written.contains(read))
    }
}

/// Whether `source` defines the object-like macro `name`.
fn defines_macro(source: &str, name: &str) -> bool {
    source.lines().any(|line| {
        let mut words = line.trim_start().strip_prefix('#').map(str::trim_start);
        let Some(rest) = words.take().and_then(|l| l.strip_prefix("define")) else {
            return false;
        };
        let rest = rest.trim_start();
        rest.strip_prefix(name)
            .is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
    })
}
