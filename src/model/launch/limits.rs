//! Sizes that reach a launch's grid `y`/`z` or block dimensions unclamped.
//!
//! The hardware caps grid `y` and `z` at 65,535 blocks and a block at 1024 threads. A launch
//! that puts an unbounded size there (a row or token count, a number of elements) works on the
//! test inputs and fails with `cudaErrorInvalidConfiguration` on a large one. A size is
//! *unbounded* when its name says it counts items of the problem (rows, tokens, points,
//! elements), not a dimension that is small by design (a batch, heads, channels, an image side):
//! a grid `y` of `batch` is how kernels are written and not worth a finding. A size is *clamped*
//! when the grid value goes through `min`/`clamp`, or when the launching function names the limit
//! (`65535`, `maxGridSize`, a test that caps it).

use super::grid::{Held, Locals};
use crate::syntax::{self, strip, text, NodeExt};
use tree_sitter::Node;

/// Grid `y` and `z` may hold at most this many blocks.
pub const MAX_GRID_YZ: i128 = 65_535;
/// A block holds at most this many threads.
pub const MAX_BLOCK_THREADS: i128 = 1024;

/// One launch dimension fed by an unbounded size.
#[derive(Debug, Clone, Copy)]
pub struct UnboundedDimension<'t> {
    /// True for the block, false for the grid.
    pub block: bool,
    /// 0, 1, 2 for `x`, `y`, `z`.
    pub axis: usize,
    /// The expression the launch passes for that dimension.
    pub value: Node<'t>,
    /// Where the size is defined: the local's definition, or the value itself.
    pub size: Node<'t>,
    /// The size's name.
    pub name: &'t str,
}

/// The dimensions of the launch configuration `grid`/`block` in `body` that an unbounded size
/// reaches with no clamp: grid `y` and `z`, and each block dimension.
pub fn unbounded_dimensions<'t>(
    body: Node<'t>,
    source: &'t str,
    grid: Option<Node<'t>>,
    block: Option<Node<'t>>,
) -> Vec<UnboundedDimension<'t>> {
    let whole = source.get(body.byte_range()).unwrap_or("");
    // the function names the limit: a cap or a test is in force
    if [
        "65535",
        "65536",
        "0xffff",
        "0xFFFF",
        "maxGridSize",
        "maxThreadsPerBlock",
    ]
    .iter()
    .any(|limit| whole.contains(limit))
    {
        return Vec::new();
    }
    let locals = Locals::of(body, source);
    let mut found = Vec::new();
    for (is_block, config, axes) in [(false, grid, 1..3), (true, block, 0..3)] {
        let Some(config) = config else { continue };
        let parts = parts_of(&locals, config, source);
        for axis in axes {
            let Some(value) = parts.get(axis).copied().flatten() else {
                continue;
            };
            if let Some((size, name)) = unbounded_size(&locals, value, source, is_block, 0) {
                found.push(UnboundedDimension {
                    block: is_block,
                    axis,
                    value,
                    size,
                    name,
                });
            }
        }
    }
    found
}

/// The three components of a configuration argument: `dim3(a, b)`, `{a, b}`, a `dim3` local
/// declared with arguments (and its components assigned later, the assignment the launch sees),
/// or a scalar as `x`.
fn parts_of<'t>(locals: &Locals<'t>, config: Node<'t>, source: &'t str) -> Vec<Option<Node<'t>>> {
    let config = strip(config, source);
    let list = match config.node_kind() {
        "identifier" => {
            let name = text(config, source);
            match (locals.dim3.get(name), locals.value_at(name, config, source)) {
                (Some(list), Held::NotLocal) => Some(*list),
                (_, Held::One(value)) => arguments(strip(value, source), source),
                (None, Held::NotLocal) => None,
                _ => return vec![None, None, None],
            }
        }
        _ => arguments(config, source),
    };
    let mut parts: Vec<Option<Node<'t>>> = match list {
        Some(list) => {
            let mut parts: Vec<Option<Node<'t>>> = syntax::named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .map(|c| match c.node_kind() {
                    "parameter_declaration" => Some(c.field("type").unwrap_or(c)),
                    _ => Some(c),
                })
                .collect();
            parts.resize(3, None);
            parts
        }
        None => vec![Some(config), None, None],
    };
    if config.node_kind() == "identifier" {
        let name = text(config, source);
        for (axis, field) in ["x", "y", "z"].into_iter().enumerate() {
            match locals.component_at(name, field, config, source) {
                Held::NotLocal => {}
                Held::One(value) => parts[axis] = Some(value),
                Held::Several | Held::Alternatives(_) => parts[axis] = None,
            }
        }
    }
    parts
}

fn arguments<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    match node.node_kind() {
        "call_expression"
            if node
                .field("function")
                .is_some_and(|f| text(f, source) == "dim3") =>
        {
            node.field("arguments")
        }
        "initializer_list" => Some(node),
        _ => None,
    }
}

/// The size `value` is, when it is one whose name says it is unbounded, passed as it is (through
/// locals defined once and integer casts): no division, no `min`.
fn unbounded_size<'t>(
    locals: &Locals<'t>,
    value: Node<'t>,
    source: &'t str,
    block: bool,
    depth: usize,
) -> Option<(Node<'t>, &'t str)> {
    if depth > 6 {
        return None;
    }
    let value = strip(value, source);
    match value.node_kind() {
        "identifier" | "type_identifier" => {
            let name = text(value, source);
            match locals.value_at(name, value, source) {
                Held::One(definition) => {
                    return unbounded_size(locals, definition, source, block, depth + 1)
                        .map(|(_, inner)| (definition, inner));
                }
                Held::Several | Held::Alternatives(_) => return None,
                Held::NotLocal => {}
            }
            counts_items(name, block).then_some((value, name))
        }
        "field_expression" => {
            let name = text(value.field("field")?, source);
            counts_items(name, block).then_some((value, name))
        }
        "call_expression" => {
            let function = text(value.field("function")?, source);
            let arguments = syntax::call_arguments(value);
            match (function, arguments.as_slice()) {
                (
                    "static_cast" | "int" | "unsigned" | "size_t" | "uint32_t" | "int32_t"
                    | "int64_t" | "uint64_t" | "long",
                    [only],
                ) => unbounded_size(locals, *only, source, block, depth + 1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A name that counts items of the problem, with no bound by design: `rows`, `num_tokens`,
/// `n_points`, `nnz`; for a block, a hidden size too (`hidden_size`, `num_features`): a
/// column count is often small by design and is left alone.
fn counts_items(name: &str, block: bool) -> bool {
    // `ROWS_BLOCKDIM_X`: a constant, whatever it names
    if !name.chars().any(|c| c.is_ascii_lowercase()) {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c == '_' || c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .collect();
    let camel_tail = camel_words(name);
    let has = |targets: &[&str]| {
        words.iter().any(|w| targets.contains(w))
            || camel_tail.iter().any(|w| targets.contains(&w.as_str()))
    };
    // small by design: a batch, heads, channels, an image side, a count of blocks or threads
    if has(&[
        "batch", "bs", "head", "heads", "channel", "channels", "width", "height", "depth", "block",
        "blocks", "thread", "threads", "grid", "warp", "warps", "tile", "tiles", "stream", "dim3",
    ]) {
        return false;
    }
    let items: &[&str] = &[
        "rows",
        "nrows",
        "nrow",
        "tokens",
        "ntokens",
        "points",
        "npoints",
        "nnz",
        "numel",
        "elements",
        "nelements",
        "pixels",
        "npixels",
        "vertices",
        "nodes",
        "edges",
    ];
    if has(items) {
        return true;
    }
    block && has(&["hidden", "features"])
}

/// `numRows` → `["num", "rows"]`.
fn camel_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if c.is_ascii_alphabetic() {
            current.push(c.to_ascii_lowercase());
        } else if !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}
