//! Dynamic shared memory: an `extern __shared__` array holds what each launch gives the block
//! (`<<<g, b, bytes>>>`), so an index whose range reaches past `bytes / sizeof(element)` under
//! every visible launch runs off the end of the block's shared memory.

use super::*;
use crate::model::launch::{SharedAtom, SharedBytes, AXIS_NAMES};
use crate::model::ranges::Ranges;
use crate::model::size::{self, Order, Sym};

/// An `extern __shared__` array the kernel can see (its own declaration, or the file's).
#[derive(Debug, Clone)]
pub(super) struct ExternArray<'t> {
    pub declaration: Node<'t>,
    pub element: String,
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
    while let Some(parent) = root.parent() {
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
        _ => true,
    });
    for declaration in found {
        if let Some((name, array)) = extern_array(declaration, source) {
            arrays.insert(name, array);
        }
    }
    arrays
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
            declaration,
            element,
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
    /// the index's range reaches past the elements the launch's byte count gives.
    pub(super) fn record_extern_shared(&mut self, node: Node<'t>, name: &str, index: Node<'t>) {
        let Some(array) = self.extern_shared.get(name) else {
            return;
        };
        if self.out.launches.is_empty() {
            return;
        }
        let Some(element_size) = size::builtin_size(&size::normalize_type(&array.element)) else {
            return;
        };
        // the ranges bound a local stepped by more than one (`for (i = 0; i < 128; i += 4)`)
        // by the loop's limit, not its last value: such an index is not judged by its range;
        // an index of unknown range still overruns a launch that gives no bytes at all
        let highest = if self.reads_coarse_step(index, 0) {
            None
        } else {
            let split = self.current_comparisons();
            Ranges::new(self)
                .range(index, &split.0)
                .hi
                .filter(crate::model::ranges::is_bounded)
        };
        let mut launches = Vec::new();
        for (position, launch) in self.out.launches.iter().enumerate() {
            let block = |axis: usize| -> Sym {
                match launch.block.get(axis).copied().flatten() {
                    Some(value) => Sym::constant(value),
                    None => Sym::atom(&format!("blockDim.{}", AXIS_NAMES[axis.min(2)])),
                }
            };
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
            let mut elements = None;
            let overruns = match &highest {
                Some(highest) => {
                    let reached = highest.substitute(&|atom| {
                        Some(match atom.strip_prefix("blockDim.") {
                            Some(field) => match AXIS_NAMES.iter().position(|a| *a == field) {
                                Some(axis) => block(axis),
                                None => Sym::atom(atom),
                            },
                            None => Sym::atom(atom),
                        })
                    });
                    let count = reached.as_ref().and_then(|r| r.add(&Sym::constant(1)));
                    elements = reached
                        .as_ref()
                        .zip(count.as_ref())
                        .map(|(r, c)| (r.display(), c.display()));
                    let needed = count.and_then(|r| r.times(element_size));
                    needed.is_some_and(|needed| bytes.compare(&needed) == Order::ProvablySmaller)
                }
                None => bytes.as_constant() == Some(0),
            };
            if !overruns {
                return;
            }
            let written = match &launch.shared_bytes {
                SharedBytes::Omitted => "no".to_string(),
                _ => bytes.display(),
            };
            launches.push(OverrunLaunch {
                launch: position,
                bytes: written,
                reach: elements,
            });
        }
        self.out.shared_overruns.push(SharedOverrun {
            node,
            array: name.to_string(),
            declaration: array.declaration,
            element: array.element.clone(),
            index,
            highest: highest.map(|h| h.display()),
            kind: access_kind(node, self.source),
            launches,
        });
    }
}
