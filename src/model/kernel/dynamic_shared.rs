//! Dynamic shared memory: an `extern __shared__` array holds what each launch gives the block
//! (`<<<g, b, bytes>>>`), so an index whose range reaches past `bytes / sizeof(element)` under
//! every visible launch runs off the end of the block's shared memory.

use super::*;
use crate::model::launch::{axis_index, LaunchSite, SharedAtom, SharedBytes, AXIS_NAMES};
use crate::model::ranges::Ranges;
use crate::model::size::{self, Order, Sym};

/// An `extern __shared__` array the kernel can see (its own declaration, or the file's).
#[derive(Debug, Clone)]
pub(super) struct ExternArray<'t> {
    /// The array's own name (a view's accesses are of the array it views).
    pub name: String,
    pub declaration: Node<'t>,
    pub element: String,
    /// A pointer to rows of the array (`float (*rows)[N] = reinterpret_cast<...>(smem);`), read
    /// through two subscripts: which element of the bytes they reach is not followed, so only
    /// a launch that gives no bytes at all is known to be overrun.
    pub rows: bool,
}

/// An access of an `extern __shared__` array past what every visible launch gives it.
#[derive(Debug, Clone)]
pub struct SharedOverrun<'t> {
    /// The access: `s[e]`.
    pub node: Node<'t>,
    pub array: String,
    /// The array's declaration.
    pub declaration: Node<'t>,
    pub element: String,
    pub index: Node<'t>,
    /// The largest index the access may take, as the value ranges bound it (written with
    /// `blockDim` and the kernel's parameters); None when not known (the launches give no
    /// bytes at all).
    pub highest: Option<String>,
    pub kind: AccessKind,
    /// Every visible launch, each too small.
    pub launches: Vec<OverrunLaunch>,
}

/// An access of an `extern __shared__` array at a global thread index that no guard bounds,
/// where every visible launch gives the block a known number of bytes and none bounds its grid
/// so that the index stays inside them: the threads of later blocks index past the block's
/// shared memory (`s[blockIdx.x * blockDim.x + threadIdx.x]`).
#[derive(Debug, Clone)]
pub struct SharedUnguarded<'t> {
    /// The access: `s[e]`.
    pub node: Node<'t>,
    pub array: String,
    /// The array's declaration.
    pub declaration: Node<'t>,
    pub index: Node<'t>,
    /// The variable of the index that spans the grid, and where it is computed.
    pub leaf: Node<'t>,
    pub leaf_declaration: Option<Node<'t>>,
    /// Whether a guard bounds the index as a place in the whole grid (`i < row_start +
    /// width`), which does not keep it inside one block's copy.
    pub guarded_in_grid: bool,
    pub kind: AccessKind,
    /// Every visible launch, with the bytes it gives (`reach` is None).
    pub launches: Vec<OverrunLaunch>,
}

/// One launch an access of an `extern __shared__` array overruns.
#[derive(Debug, Clone)]
pub struct OverrunLaunch {
    /// An index into `KernelFacts::launches`.
    pub launch: usize,
    /// The bytes it gives, written out; "no" when it gives none.
    pub bytes: String,
    /// The largest index under it and the elements the access needs (that index plus one),
    /// written out; None when the index's range is not known.
    pub reach: Option<(String, String)>,
}

/// The `extern __shared__` arrays (declared `T name[]`) in `body` and at the file's scope, by
/// name; the kernel's own shadow the file's.
pub(super) fn extern_arrays<'t>(
    function: &Function<'t>,
    source: &str,
) -> HashMap<String, ExternArray<'t>> {
    let mut arrays = HashMap::default();
    if !source.contains("__shared__") || !source.contains("extern") {
        return arrays;
    }
    let mut root = function.definition;
    while let Some(parent) = root.up() {
        root = parent;
    }
    let mut found: Vec<Node<'t>> = Vec::new();
    // the file's scope: declarations outside every function
    syntax::walk_iterative(root, |node| match node.node_kind() {
        "function_definition" => false,
        "declaration" => {
            found.push(node);
            false
        }
        _ => true,
    });
    syntax::walk_iterative(function.body, |node| match node.node_kind() {
        "lambda_expression" => false,
        "declaration" => {
            found.push(node);
            false
        }
        // `float (*rows)[N] = ...;` parses as an assignment to a subscript of a cast
        "expression_statement" => {
            if text(node, source).contains("(*") {
                found.push(node);
            }
            false
        }
        _ => true,
    });
    let mut locals = Vec::new();
    for declaration in found {
        if let Some((name, array)) = extern_array(declaration, source) {
            arrays.insert(name, array);
        } else if function.body.start_byte() <= declaration.start_byte() {
            locals.push(declaration);
        }
    }
    // the kernel's views of them: `float* partial = reinterpret_cast<float*>(smem);`
    for declaration in locals {
        if let Some((name, alias)) = alias_of_extern(declaration, &arrays, source) {
            arrays.insert(name, alias);
        }
    }
    arrays
}

/// `T* name = (cast) smem;` or `T (*name)[N] = (cast) smem;` of an `extern __shared__` array
/// `smem`: a view of the same bytes, with `T` as its element.
fn alias_of_extern<'t>(
    declaration: Node<'t>,
    arrays: &HashMap<String, ExternArray<'t>>,
    source: &str,
) -> Option<(String, ExternArray<'t>)> {
    let (name, rows, element, value) = match declaration.node_kind() {
        "declaration" => {
            let declarator = declaration.field("declarator")?;
            if declarator.node_kind() != "init_declarator" {
                return None;
            }
            let view = declarator.field("declarator")?;
            let (name, rows) = match view.node_kind() {
                "pointer_declarator" => (view.field("declarator")?, false),
                // `float (*rows)[N]`
                "array_declarator" => {
                    let inner = view.field("declarator")?;
                    let pointer = match inner.node_kind() {
                        "parenthesized_declarator" => inner.named_child(0)?,
                        _ => inner,
                    };
                    if pointer.node_kind() != "pointer_declarator" {
                        return None;
                    }
                    (pointer.field("declarator")?, true)
                }
                _ => return None,
            };
            (
                name,
                rows,
                declaration.field("type")?,
                declarator.field("value")?,
            )
        }
        // `float(*rows)[N] = ...;` read as `float(*rows)` subscripted and assigned to
        "expression_statement" => {
            let assignment = declaration.named_child(0)?;
            if assignment.node_kind() != "assignment_expression"
                || operator(assignment, source) != "="
            {
                return None;
            }
            let subscript = assignment.field("left")?;
            let cast = subscript.field("argument")?;
            if subscript.node_kind() != "subscript_expression"
                || cast.node_kind() != "call_expression"
            {
                return None;
            }
            let element = cast.field("function")?;
            if !matches!(element.node_kind(), "primitive_type" | "type_identifier") {
                return None;
            }
            let arguments = cast.field("arguments")?;
            let pointer = arguments.named_child(0)?;
            if arguments.named_child_count() != 1
                || pointer.node_kind() != "pointer_expression"
                || operator(pointer, source) != "*"
            {
                return None;
            }
            (
                pointer.field("argument")?,
                true,
                element,
                assignment.field("right")?,
            )
        }
        _ => return None,
    };
    // `reinterpret_cast<float*>(smem)`, `(float*)smem`
    let target = arrays.get(text(strip(value, source), source))?;
    if name.node_kind() != "identifier" {
        return None;
    }
    Some((
        text(name, source).to_string(),
        ExternArray {
            name: target.name.clone(),
            declaration: target.declaration,
            element: text(element, source).to_string(),
            rows,
        },
    ))
}

/// Whether `function` reads an `extern __shared__` array: its launches must give it dynamic
/// shared memory.
pub fn uses_dynamic_shared_memory(function: &Function, source: &str) -> bool {
    let arrays = extern_arrays(function, source);
    !arrays.is_empty() && {
        let body = crate::syntax::text(function.body, source);
        arrays
            .keys()
            .any(|name| crate::syntax::contains_identifier(body, name))
    }
}

/// `extern __shared__ float s[];`: the name and element type.
fn extern_array<'t>(declaration: Node<'t>, source: &str) -> Option<(String, ExternArray<'t>)> {
    let qualifiers = || {
        crate::syntax::children(declaration).filter(|c| {
            matches!(
                c.node_kind(),
                "type_qualifier"
                    | "attribute_specifier"
                    | "storage_class_specifier"
                    | "attribute_declaration"
            )
        })
    };
    if !qualifiers().any(|c| text(c, source) == "extern")
        || !qualifiers().any(|c| text(c, source).contains("__shared__"))
    {
        return None;
    }
    let element = text(declaration.field("type")?, source).to_string();
    let declarator = declaration.field("declarator")?;
    if declarator.node_kind() != "array_declarator" || declarator.field("size").is_some() {
        return None;
    }
    let name = declarator.field("declarator")?;
    if name.node_kind() != "identifier" {
        return None;
    }
    Some((
        text(name, source).to_string(),
        ExternArray {
            name: text(name, source).to_string(),
            declaration,
            element,
            rows: false,
        },
    ))
}

impl<'a, 't> Analyzer<'a, 't> {
    /// Whether `node` reads a local that some assignment steps by anything but one (`i += 4`,
    /// `s <<= 1`), directly or through the locals it is defined from.
    fn reads_coarse_step(&self, node: Node<'t>, depth: usize) -> bool {
        if depth > 4 {
            return true;
        }
        let mut names: Vec<&str> = Vec::new();
        syntax::walk_iterative(node, |n| {
            if n.node_kind() == "identifier" {
                names.push(self.text(n));
            }
            true
        });
        names.into_iter().any(|name| {
            if self.coarse_steps(name) {
                return true;
            }
            self.definitions.get(name).is_some_and(|values| {
                values.iter().any(|value| {
                    value.id() != node.id() && self.reads_coarse_step(*value, depth + 1)
                })
            })
        })
    }

    /// Whether an assignment of the kernel steps `name` by anything but one.
    fn coarse_steps(&self, name: &str) -> bool {
        let mut found = false;
        syntax::walk_iterative(self.function.body, |n| {
            if found {
                return false;
            }
            if n.node_kind() == "assignment_expression" {
                let operator = operator(n, self.source);
                let target = n.field("left").map(|l| strip(l, self.source));
                let by_one = n
                    .field("right")
                    .is_some_and(|r| self.text(strip(r, self.source)) == "1");
                if operator != "="
                    && !(matches!(operator, "+=" | "-=") && by_one)
                    && target.is_some_and(|t| self.text(t) == name)
                {
                    found = true;
                }
            }
            true
        });
        found
    }

    /// `s[index]` on an `extern __shared__` array: an overrun when, under every visible launch,
    /// the index's range reaches past the elements the launch's byte count gives; unguarded
    /// when it is a global thread index that no guard bounds and every launch gives a known
    /// byte count it can pass (see [`SharedUnguarded`]).
    pub(super) fn record_extern_shared(&mut self, node: Node<'t>, name: &str, index: Node<'t>) {
        let Some(array) = self.extern_shared.get(name) else {
            return;
        };
        let array = array.clone();
        if self.out.launches.is_empty() {
            return;
        }
        let Some(element_size) = size::builtin_size(&size::normalize_type(&array.element)) else {
            return;
        };
        // the ranges bound a local stepped by more than one (`for (i = 0; i < 128; i += 4)`)
        // by the loop's limit, not its last value: such an index is not judged an overrun by
        // its range, though the limit still shows one that stays inside; an index of unknown
        // range still overruns a launch that gives no bytes at all
        // in the kernel's own `blockDim`, which each launch's block is put in for below
        let range = Ranges::new(&super::ranges::OwnSizes::block(self))
            .range(index, &self.current_comparisons().0);
        let upper = range.hi.clone();
        // each bound that holds may be the one a launch's values make tight (`tid < k` beside
        // a block of 128 threads, where a launch passes `k = 4`)
        let highest: Vec<Sym> = if array.rows || self.reads_coarse_step(index, 0) {
            Vec::new()
        } else {
            range
                .upper_bounds()
                .filter(|b| crate::model::ranges::is_bounded(b))
                .cloned()
                .collect()
        };
        // what each launch gives; nothing is said when one is not known
        let mut given = Vec::new();
        for launch in &self.out.launches {
            let block = block_of(launch);
            let bytes = launch.shared_bytes.value(&|atom| match atom {
                SharedAtom::Block(axis) => Some(block(axis)),
                SharedAtom::Argument(position) => {
                    let parameter = self.function.parameters.get(position)?;
                    (!parameter.is_pointer && !self.definitions.contains_key(&parameter.name))
                        .then(|| Sym::atom(&parameter.name))
                }
            });
            let Some(bytes) = bytes else {
                return;
            };
            let written = match &launch.shared_bytes {
                SharedBytes::Omitted => "no".to_string(),
                _ => bytes.display(),
            };
            given.push((bytes, written));
        }
        let mut launches = Vec::new();
        for (position, (launch, (bytes, written))) in
            self.out.launches.iter().zip(&given).enumerate()
        {
            let mut elements = None;
            let overruns = if highest.is_empty() {
                bytes.as_constant() == Some(0)
            } else {
                // the index goes no higher than the least of the bounds that hold: each bound
                // the launch fixes (a constant, the block, an argument it passes a known value)
                // must reach past what the launch gives (`tx + 32` under `tx < 32` stays below
                // 64, whatever `blockDim.x + 31` says); a bound that still names a size the
                // launch leaves open grows with the input and caps nothing
                let needs = |reached: &Option<Sym>| -> (Option<Sym>, Option<Sym>) {
                    let count = reached.as_ref().and_then(|r| r.add(&Sym::constant(1)));
                    let needed = count.as_ref().and_then(|r| r.times(element_size));
                    (count, needed)
                };
                let past = |needed: &Option<Sym>| {
                    needed
                        .as_ref()
                        .is_some_and(|needed| bytes.compare(needed) == Order::ProvablySmaller)
                };
                let names_a_parameter = |value: &Sym| {
                    value
                        .atoms()
                        .any(|atom| self.function.parameters.iter().any(|p| p.name == *atom))
                };
                let mut overrun = false;
                for highest in &highest {
                    let with_arguments = within_launch(highest, launch, &self.function.parameters);
                    let (argument_count, with_arguments_needed) = needs(&with_arguments);
                    if with_arguments_needed
                        .as_ref()
                        .is_some_and(|needed| needed.at_most(bytes))
                    {
                        overrun = false;
                        break;
                    }
                    // a bound the ranges widened (`qk_col` for `qk_col / nhead`) is loose once
                    // the arguments' values are put in: an overrun is shown without them, or
                    // with them only where the bound is fixed by the launch
                    let reached = within_block(highest, launch);
                    let (count, needed) = needs(&reached);
                    let fixed = with_arguments
                        .as_ref()
                        .is_some_and(|v| !names_a_parameter(v));
                    let shown = if past(&needed) {
                        Some((reached, count))
                    } else if fixed && past(&with_arguments_needed) {
                        Some((with_arguments, argument_count))
                    } else {
                        None
                    };
                    match shown {
                        Some((reached, count)) => {
                            if !overrun {
                                elements = reached
                                    .as_ref()
                                    .zip(count.as_ref())
                                    .map(|(r, c)| (r.display(), c.display()));
                            }
                            overrun = true;
                        }
                        // a fixed bound inside what is given, or one not known to be past it
                        None if fixed => {
                            overrun = false;
                            break;
                        }
                        None => {}
                    }
                }
                overrun
            };
            if !overruns {
                launches.clear();
                break;
            }
            launches.push(OverrunLaunch {
                launch: position,
                bytes: written.clone(),
                reach: elements,
            });
        }
        if !launches.is_empty() {
            self.out.shared_overruns.push(SharedOverrun {
                node,
                array: array.name.clone(),
                declaration: array.declaration,
                element: array.element.clone(),
                index,
                highest: highest.first().map(Sym::display),
                kind: access_kind(node, self.source),
                launches,
            });
            return;
        }
        // the values that reach the index here (`nn = x_loaded; nn = nn - tile_origin;`) are
        // data placed relative to the block, not the thread's position
        if array.rows
            || !self.expression_deps(index, 0).is_global_index()
            || !self.reaches_as_global_index(index, None)
        {
            return;
        }
        // no guard bounds it: what bounds a global index's range otherwise (a grid that covers
        // the problem) says nothing of one block's shared memory
        let split = self.current_comparisons();
        let (leaf, guarded_in_grid) =
            match self.bounded_by_guard(index, &split.0, &mut Vec::new(), 0) {
                // the part that spans the grid is held to a few values by its range (a helper
                // returning `unsigned char`): what else the index adds is data, not the thread's
                // position
                Err(leaf)
                    if leaf.id() != index.id()
                        && Ranges::new(&super::ranges::OwnSizes::block(self))
                            .range(leaf, &split.0)
                            .is_bounded() =>
                {
                    return
                }
                Err(leaf) => (leaf, false),
                // a guard on a position in the whole grid (`i < row_start + width`) keeps the
                // index inside the rows of every block, not inside one block's copy: its range
                // still spans the grid
                Ok(_)
                    if upper
                        .as_ref()
                        .is_some_and(|hi| hi.atoms().any(|atom| grid_axis(atom).is_some())) =>
                {
                    (index, true)
                }
                Ok(_) => return,
            };
        let IndexStatus::Unguarded {
            leaf, declaration, ..
        } = self.unguarded(leaf, index, &split.0)
        else {
            return;
        };
        // a launch whose grid is bounded can keep the index inside what it gives
        let fits_under = |reach: &Sym, launch: &LaunchSite, bytes: &Sym| {
            // the grid the ranges name (`gridDim.x`, or `blocks.x` for a grid that covers the
            // problem), as many blocks as this launch is known to have at most
            let bound = reach.substitute(&|atom| {
                Some(match grid_axis(atom) {
                    Some(axis) => launch.grid_blocks[axis]
                        .map(Sym::constant)
                        .unwrap_or_else(|| Sym::atom(atom)),
                    None => Sym::atom(atom),
                })
            });
            bound
                .as_ref()
                .and_then(|b| within_launch(b, launch, &self.function.parameters))
                .and_then(|b| b.add(&Sym::constant(1)))
                .and_then(|count| count.times(element_size))
                .is_some_and(|needed| needed.at_most(bytes))
        };
        let fits = |launch: &LaunchSite, bytes: &Sym| {
            range
                .upper_bounds()
                .any(|reach| fits_under(reach, launch, bytes))
        };
        if self
            .out
            .launches
            .iter()
            .zip(&given)
            .any(|(launch, (bytes, _))| fits(launch, bytes))
        {
            return;
        }
        let launches = given
            .into_iter()
            .enumerate()
            .map(|(launch, (_, bytes))| OverrunLaunch {
                launch,
                bytes,
                reach: None,
            })
            .collect();
        self.out.shared_unguarded.push(SharedUnguarded {
            node,
            array: array.name.clone(),
            declaration: array.declaration,
            index,
            leaf,
            leaf_declaration: declaration,
            guarded_in_grid,
            kind: access_kind(node, self.source),
            launches,
        });
    }
}

/// The launch's block on an axis: its constant, or `blockDim` there.
fn block_of(launch: &LaunchSite) -> impl Fn(usize) -> Sym + '_ {
    |axis: usize| -> Sym {
        match launch.block.get(axis).copied().flatten() {
            Some(value) => Sym::constant(value),
            None => Sym::atom(&format!("blockDim.{}", AXIS_NAMES[axis.min(2)])),
        }
    }
}

/// `value` with the launch's constant block dimensions in place of `blockDim`.
fn within_block(value: &Sym, launch: &LaunchSite) -> Option<Sym> {
    within_launch(value, launch, &[])
}

/// `value` with the launch's constant block dimensions in place of `blockDim`, and the values it
/// is known to pass for `parameters`.
fn within_launch(
    value: &Sym,
    launch: &LaunchSite,
    parameters: &[crate::model::Parameter],
) -> Option<Sym> {
    let block = block_of(launch);
    value.substitute(&|atom| {
        // a parameter the launch passes a known constant (`case 4:` of a switch on it)
        let passed = parameters
            .iter()
            .position(|p| p.name == atom)
            .filter(|_| launch.arity == Some(parameters.len()))
            .and_then(|position| launch.argument_value(position));
        if let Some(value) = passed {
            return Some(Sym::constant(value));
        }
        Some(match atom.strip_prefix("blockDim.") {
            Some(field) => match axis_index(field) {
                Some(axis) => block(axis),
                None => Sym::atom(atom),
            },
            None => Sym::atom(atom),
        })
    })
}

/// `gridDim.y`, `blocks.y` → 1.
fn grid_axis(atom: &str) -> Option<usize> {
    let field = atom
        .strip_prefix("gridDim.")
        .or_else(|| atom.strip_prefix("blocks."))?;
    axis_index(field)
}

#[cfg(test)]
mod tests {
    /// The `extern __shared__` accesses of `source` found unguarded, by their text, and the
    /// overruns, by theirs.
    fn found(source: &str) -> (Vec<String>, Vec<String>) {
        crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            let mut unguarded = Vec::new();
            let mut overruns = Vec::new();
            for (_, facts) in model.kernel_facts() {
                unguarded.extend(
                    facts
                        .shared_unguarded
                        .iter()
                        .map(|a| model.text(a.node).to_string()),
                );
                overruns.extend(
                    facts
                        .shared_overruns
                        .iter()
                        .map(|a| model.text(a.node).to_string()),
                );
            }
            (unguarded, overruns)
        })
        .unwrap_or_default()
    }

    const KERNEL: &str = "__global__ void k(const float* in, float* out, int n) { extern __shared__ float s[]; int i = blockIdx.x * blockDim.x + threadIdx.x; s[i] = in[0]; __syncthreads(); out[0] = s[threadIdx.x]; }\n";

    #[test]
    fn a_global_index_passes_the_shared_memory_of_every_launch_with_more_than_one_block() {
        for launch in [
            "k<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);",
            "k<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);",
            "k<<<4, 256, 256 * sizeof(float)>>>(in, out, n); k<<<n, 128, 128 * sizeof(float)>>>(in, out, n);",
        ] {
            let source = format!("{KERNEL}void run(const float* in, float* out, int n, int blocks, int threads) {{ {launch} }}");
            assert_eq!(found(&source), (vec!["s[i]".to_string()], vec![]), "{launch}");
        }
    }

    #[test]
    fn one_block_an_unknown_byte_count_or_a_guard_keep_it_silent() {
        for launch in [
            // one block: the global index is the thread's
            "k<<<1, 256, 256 * sizeof(float)>>>(in, out, n);",
            // the bytes are computed where the analysis does not follow, for one launch
            "k<<<(n + 255) / 256, 256, bytes>>>(in, out, n);",
            "k<<<4, 256, 256 * sizeof(float)>>>(in, out, n); k<<<n, 256, bytes>>>(in, out, n);",
        ] {
            let source = format!(
                "{KERNEL}void run(const float* in, float* out, int n, size_t bytes) {{ {launch} }}"
            );
            assert_eq!(found(&source), (vec![], vec![]), "{launch}");
        }
        // no launch in sight
        assert_eq!(found(KERNEL), (vec![], vec![]));
        // a guard bounds the index
        let guarded = "__global__ void k(const float* in, int n) { extern __shared__ float s[]; int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) s[i] = in[i]; }\nvoid run(const float* in, int n) { k<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, n); }";
        assert_eq!(found(guarded), (vec![], vec![]));
        // the thread's index in its block
        let local = "__global__ void k(const float* in) { extern __shared__ float s[]; int i = blockIdx.x * blockDim.x + threadIdx.x; s[threadIdx.x] = in[i]; }\nvoid run(const float* in, int n) { k<<<n / 256, 256, 256 * sizeof(float)>>>(in); }";
        assert_eq!(found(local), (vec![], vec![]));
    }

    #[test]
    fn typed_views_of_the_bytes_are_the_array() {
        let source = |bytes: &str| {
            format!(
                "__global__ void k(const float* in, float* out) {{
    extern __shared__ unsigned char smem[];
    float* sums = reinterpret_cast<float*>(smem);
    float(*rows)[4] = reinterpret_cast<float(*)[4]>(smem);
    sums[threadIdx.x] = in[threadIdx.x];
    rows[threadIdx.x / 4][threadIdx.x % 4] += 1.0f;
    __syncthreads();
    out[threadIdx.x] = sums[threadIdx.x];
}}
void run(const float* in, float* out) {{ k<<<1, 128{bytes}>>>(in, out); }}
"
            )
        };
        // no bytes: every access through either view overruns; the row's address alone is no
        // access
        let (_, overruns) = found(&source(""));
        assert_eq!(
            overruns,
            [
                "sums[threadIdx.x]",
                "rows[threadIdx.x / 4][threadIdx.x % 4]",
                "sums[threadIdx.x]"
            ]
        );
        // a float per thread: the flat view fits; the rows view's reach is not followed
        assert_eq!(found(&source(", 128 * sizeof(float)")), (vec![], vec![]));
        // too few for the flat view's index
        let (_, overruns) = found(&source(", 64 * sizeof(float)"));
        assert_eq!(overruns, ["sums[threadIdx.x]", "sums[threadIdx.x]"]);
    }
}
