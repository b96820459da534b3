//! What a launch's arguments hold beyond their text: the dynamic shared bytes as a polynomial over
//! the block and the arguments, and the buffers allocated for every thread of the grid.

use super::*;

/// Where a launch's dynamic shared-memory byte count is, if anywhere.
pub(super) enum Shared<'t> {
    At(Node<'t>),
    Omitted,
    Unknown,
}

/// The byte count `bytes` as a polynomial over the block's dimensions (a name the block is
/// given as, `threads.x` for a `dim3 threads`) and the kernel's arguments, `sizeof` of the
/// built-in and vector types folded: `block * sizeof(float)` with `<<<g, block, ...>>>` is
/// `4 · blockDim.x`.
pub(super) fn shared_bytes<'t>(
    classifier: &Classifier<'_, 't>,
    bytes: Node<'t>,
    block: Option<Node<'t>>,
    block_parts: &[Option<Node<'t>>],
    arguments: &[String],
) -> SharedBytes {
    let source = classifier.source;
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: true,
    };
    let Some(terms) = evaluator.eval(bytes).and_then(|b| b.integer_terms()) else {
        return SharedBytes::Unknown;
    };
    // the names each block dimension goes by
    let mut block_names: Vec<(String, usize)> = Vec::new();
    for (axis, part) in block_parts.iter().enumerate().take(3) {
        let Some(part) = part else { continue };
        if let Some([(1, atoms)]) = evaluator
            .eval(*part)
            .and_then(|p| p.integer_terms())
            .as_deref()
        {
            if let [atom] = atoms.as_slice() {
                block_names.push((atom.clone(), axis));
            }
        }
    }
    if let Some(name) = block
        .map(|b| strip(b, source))
        .filter(|b| b.node_kind() == "identifier")
    {
        for (axis, field) in AXIS_NAMES.iter().enumerate() {
            block_names.push((format!("{}.{field}", text(name, source)), axis));
        }
    }
    let atom = |name: &String| -> Option<SharedAtom> {
        if let Some((_, axis)) = block_names.iter().find(|(n, _)| n == name) {
            return Some(SharedAtom::Block(*axis));
        }
        arguments
            .iter()
            .position(|a| a == name)
            .map(SharedAtom::Argument)
    };
    let known: Option<Vec<(i128, Vec<SharedAtom>)>> = terms
        .iter()
        .map(|(coefficient, atoms)| {
            let atoms = atoms.iter().map(atom).collect::<Option<Vec<_>>>()?;
            Some((*coefficient, atoms))
        })
        .collect();
    known.map_or(SharedBytes::Unknown, SharedBytes::Known)
}

/// Whether the buffer passed as `argument` is allocated in the launching function (or, for a
/// member, anywhere in the file).
pub(super) fn is_allocated_in_sight<'t>(
    allocations: &Allocations<'_, 't>,
    argument: Node<'t>,
    source: &str,
) -> bool {
    allocations.of_argument(argument, source).next().is_some()
}

/// `value` as a polynomial with integer coefficients over the positions of the arguments its
/// names are passed as; None when it rounds, or names something not passed.
pub(super) fn in_arguments(
    value: Node,
    arguments: &[String],
    classifier: &Classifier,
) -> Option<ArgumentPolynomial> {
    struct Names;
    impl<'t> size::Scope<'t> for Names {
        fn definition(&self, _: &str) -> Option<Node<'t>> {
            None
        }
        fn pointee(&self, _: &str) -> Option<String> {
            None
        }
        fn scalar_type(&self, _: &str) -> Option<String> {
            None
        }
        fn define(&self, _: &str) -> Option<&str> {
            None
        }
    }
    let evaluator = Evaluator {
        source: classifier.source,
        scope: &Names,
        fold_sizeof: true,
    };
    let terms = evaluator.eval(value)?.integer_terms()?;
    terms
        .into_iter()
        .map(|(coefficient, monomial)| {
            let positions = monomial
                .iter()
                .map(|atom| arguments.iter().position(|a| a == atom))
                .collect::<Option<Vec<usize>>>()?;
            Some((coefficient, positions))
        })
        .collect()
}

/// The number of threads along `x`, the grid's `x` times the block's, as sizes: each
/// configuration argument by its value and, when it names a `dim3`, as `name.x`, the way an
/// allocation sized for it is written.
pub(super) fn threads_on_x<'t>(
    classifier: &Classifier<'_, 't>,
    grid: Option<Node<'t>>,
    grid_parts: &[Option<Node<'t>>],
    block: Option<Node<'t>>,
    block_parts: &[Option<Node<'t>>],
) -> Vec<Sym> {
    let source = classifier.source;
    let scope = LaunchScope(classifier);
    let evaluator = Evaluator {
        source,
        scope: &scope,
        fold_sizeof: false,
    };
    let ways = |whole: Option<Node<'t>>, parts: &[Option<Node<'t>>]| -> Vec<Sym> {
        let mut ways: Vec<Sym> = parts
            .first()
            .copied()
            .flatten()
            .and_then(|part| evaluator.eval(part))
            .into_iter()
            .collect();
        if let Some(name) = whole
            .map(|w| strip(w, source))
            .filter(|w| w.node_kind() == "identifier")
        {
            ways.push(Sym::atom(&format!("{}.x", text(name, source))));
        }
        ways
    };
    let blocks = ways(grid, grid_parts);
    let threads = ways(block, block_parts);
    blocks
        .iter()
        .flat_map(|b| threads.iter().filter_map(move |t| b.mul(t)))
        .collect()
}

/// For a launch argument naming a buffer, the element type `T` of its allocation and how many
/// times `threads` elements of `T` it holds (1 to 8), when it holds them at least once.
pub(super) fn per_thread_unit<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    argument: Node<'t>,
    threads: &[Sym],
) -> Option<(String, u32)> {
    if threads.is_empty() {
        return None;
    }
    let source = classifier.source;
    let function = allocations.function;
    let sizes: Vec<(Node<'t>, Option<Node<'t>>, Option<&String>)> = allocations
        .of_argument(argument, source)
        .map(|a| (a.call, a.size, a.element.as_ref()))
        .collect();
    if sizes.is_empty() {
        return None;
    }
    let mut unit: Option<(String, u32)> = None;
    for (call, size, counted) in sizes {
        let size = strip(size?, source);
        let in_function = function.byte_range().contains(&call.start_byte());
        let element = match counted {
            Some(element) => element.clone(),
            None => {
                let mut sizeofs = Vec::new();
                syntax::walk_iterative(size, |n| {
                    if n.node_kind() == "sizeof_expression" {
                        sizeofs.push(n);
                        return false;
                    }
                    true
                });
                let [sizeof] = sizeofs.as_slice() else {
                    return None;
                };
                size::normalize_type(
                    sizeof
                        .field("type")
                        .or_else(|| sizeof.field("value").map(|v| strip(v, source)))
                        .map(|t| text(t, source))?,
                )
            }
        };
        let no_locals = Locals::default();
        let scope_classifier = Classifier {
            source,
            locals: if in_function {
                classifier.locals
            } else {
                &no_locals
            },
            helpers: classifier.helpers,
            constants_divide: classifier.constants_divide,
            passed: None,
            launch: classifier.launch,
        };
        let scope = LaunchScope(&scope_classifier);
        let evaluator = Evaluator {
            source,
            scope: &scope,
            fold_sizeof: false,
        };
        let bytes = evaluator.eval(size)?;
        // a container's size counts elements; an allocation's, bytes
        let unit_size = match counted {
            Some(_) => Sym::constant(1),
            None => Sym::atom(&format!("sizeof({element})")),
        };
        let copies = [8, 4, 2, 1].into_iter().find(|k| {
            threads.iter().any(|t| {
                t.mul(&unit_size)
                    .and_then(|needed| needed.mul(&Sym::constant(i128::from(*k))))
                    .is_some_and(|needed| needed.at_most(&bytes))
            })
        })?;
        unit = match unit {
            None => Some((element, copies)),
            Some((u, c)) if u == element => Some((u, c.min(copies))),
            Some(_) => return None,
        };
    }
    unit
}
