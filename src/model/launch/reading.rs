//! One launch read into a `LaunchSite`: its grid and block axis by axis, its shared bytes and the
//! values its arguments hold where the launch is (a `switch` case, a template argument, a
//! constant).

use super::*;

pub(super) fn launch_site<'t>(
    classifier: &Classifier<'_, 't>,
    allocations: &Allocations<'_, 't>,
    call: Node<'t>,
    chevron: bool,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
) -> Option<LaunchSite> {
    let source = classifier.source;
    let arguments = syntax::call_arguments(call);
    let kernel_name_node;
    let (kernel, grid, block, kernel_arguments, shared) = if chevron {
        // `(kernel)<<<...>>>`, as a launch macro's body writes its parameter
        let function = strip(call.field("function")?, source);
        // `auto k = binary ? scale<true> : scale<false>; k<<<...>>>(...)` launches `scale`
        let function = kernel_held_by_local(classifier, function).unwrap_or(function);
        kernel_name_node = Some(function);
        // `kernels[t - 1]<<<...>>>` over a table of one kernel's specialisations
        let kernel: std::borrow::Cow<'t, str> = match kernel_of_table(classifier, function) {
            Some(name) => name.into(),
            None => launched_kernel(function, source).into(),
        };
        let config = syntax::launch_configuration(call);
        let [grid, block, bytes, _] =
            crate::model::runtime::configuration_parts(&config, source, |name| {
                classifier.helpers.writes_launch_shape(name)
            });
        (
            kernel,
            grid,
            block,
            Some(arguments),
            match bytes {
                Some(bytes) => Shared::At(bytes),
                None => Shared::Omitted,
            },
        )
    } else {
        let api = super::apis::api_launch(classifier, call)?;
        let function = kernel_held_by_local(classifier, api.kernel).unwrap_or(api.kernel);
        kernel_name_node = Some(function);
        let kernel: std::borrow::Cow<'t, str> = launched_kernel(function, source).into();
        (
            kernel,
            api.grid,
            api.block,
            api.arguments,
            api.bytes.map_or(Shared::Unknown, Shared::At),
        )
    };
    if kernel.is_empty() {
        return None;
    }
    // `#define PACKED_KERNEL kernel_packed_t1` ... `PACKED_KERNEL<<<grid, 32>>>(...)`
    let kernel = match classifier.helpers.define(&kernel).map(str::trim) {
        Some(named)
            if named.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && named.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            std::borrow::Cow::Owned(named.to_string())
        }
        _ => kernel,
    };
    let grid_parts = components_of(classifier, grid, true);
    let block_parts = components(classifier, block);
    let grid_name = grid
        .map(|g| strip(g, source))
        .filter(|g| g.node_kind() == "identifier");
    let mut grid_axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
    let mut grid_values: [Option<Node<'t>>; 3] = [None, None, None];
    let mut grid_blocks = [None, None, None];
    for (axis, slot) in grid_axes.iter_mut().enumerate() {
        // `grid.y = ...` after the declaration: the assignment the launch sees is what counts
        let assigned = match grid_name {
            Some(g) => classifier
                .locals
                .component_at(text(g, source), AXIS_NAMES[axis], g, source),
            None => Held::NotLocal,
        };
        grid_values[axis] = match (&assigned, grid_parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => Some(*value),
            (Held::NotLocal, part) => part,
            _ => None,
        };
        let default_one = grid.is_some() && grid_parts.iter().any(Option::is_some);
        grid_blocks[axis] = match (&assigned, grid_values[axis]) {
            (Held::Several | Held::Alternatives(_), _) => None,
            (_, Some(value)) => most_blocks(classifier, value, 0),
            (Held::NotLocal, None) if default_one => Some(1), // dim3 default 1
            _ => None,
        };
        *slot = match (assigned, grid_parts.get(axis).copied().flatten()) {
            (Held::One(value), _) => classifier.axis(value, 0),
            // `grid.x` assigned in each branch of an `if`: the grid of every path
            (Held::Alternatives(values), _) => classifier.alternatives(&values, 0),
            (Held::Several, _) => GridAxis::Unknown,
            (Held::NotLocal, Some(part)) => classifier.axis(part, 0),
            (Held::NotLocal, None) if default_one => GridAxis::Exact, // dim3 default 1
            (Held::NotLocal, None) => GridAxis::Unknown,
        };
        if *slot != GridAxis::Exact {
            if let Some(g) = grid_name {
                if checked_exact(classifier, call, text(g, source), axis) {
                    *slot = GridAxis::Exact;
                }
            }
        }
    }
    // `dim3 grid; grid_for(grid, rows);`: the components a host helper assigns through a
    // reference, read in the helper
    if let Some((assigned, helper_call)) =
        grid_name.and_then(|g| set_by_helper(classifier, g, call))
    {
        let name = grid_name.map(|g| text(g, source)).unwrap_or("");
        let arguments = syntax::call_arguments(helper_call);
        for axis in 0..3 {
            let Some(set) = assigned.grid[axis].clone() else {
                continue;
            };
            // assigned here too: only assignments after the helper's are the launch's
            let here = classifier.locals.components.get(&(name, AXIS_NAMES[axis]));
            if let Some(values) = here {
                if values
                    .iter()
                    .any(|v| v.start_byte() < helper_call.end_byte())
                {
                    grid_axes[axis] = GridAxis::Unknown;
                }
                continue;
            }
            grid_axes[axis] = in_caller(set, &arguments, classifier);
            grid_values[axis] = None;
            grid_blocks[axis] = None;
        }
    }
    // `dim3 grid = grid_for(rows, cols);`: the grid a host helper returns, read in the helper
    if let Some(returned) = grid.and_then(|g| returned_grid(classifier, g)) {
        grid_axes = returned;
        grid_values = [None, None, None];
        grid_blocks = [None, None, None];
    }
    let mut block_dims = [None, None, None];
    for (axis, slot) in block_dims.iter_mut().enumerate() {
        *slot = match block_parts.get(axis).copied().flatten() {
            Some(part) => constant(part, classifier),
            None if block.is_some() && block_parts.iter().any(Option::is_some) => Some(1),
            None => None,
        };
    }
    // `block_for(block, n)` assigning `block.x = 256`: the helper's constants
    let block_name = block
        .map(|b| strip(b, source))
        .filter(|b| b.node_kind() == "identifier");
    let block_helper = block_name.and_then(|b| set_by_helper(classifier, b, call));
    let block_set_by_helper = block_helper.is_some();
    if let Some((assigned, helper_call)) = block_helper {
        let name = block_name.map(|b| text(b, source)).unwrap_or("");
        for axis in 0..3 {
            if assigned.grid[axis].is_none() {
                continue;
            }
            let assigned_here = classifier
                .locals
                .components
                .get(&(name, AXIS_NAMES[axis]))
                .is_some_and(|values| {
                    values
                        .iter()
                        .any(|v| v.start_byte() > helper_call.end_byte())
                });
            if !assigned_here {
                block_dims[axis] = assigned.constant[axis];
            }
        }
    }
    let arity = kernel_arguments.as_ref().map(Vec::len);
    let kernel_arguments = kernel_arguments.unwrap_or_default();
    let threads = threads_on_x(classifier, grid, &grid_parts, block, &block_parts);
    let per_thread_elements = kernel_arguments
        .iter()
        .map(|a| per_thread_unit(classifier, allocations, *a, &threads))
        .collect();
    let allocated_in_sight: Vec<bool> = kernel_arguments
        .iter()
        .map(|a| is_allocated_in_sight(allocations, *a, source))
        .collect();
    let kernel_argument_nodes = kernel_arguments.clone();
    let argument_values = kernel_arguments
        .iter()
        .map(|a| known_value(classifier, call, *a))
        .collect();
    let argument_factors = kernel_arguments
        .iter()
        .map(|a| classifier.known_factor(*a, 0).max(1))
        .collect();
    let template_arguments = kernel_name_node
        .map(|name| template_argument_values(classifier, name))
        .unwrap_or_default();
    let arguments: Vec<String> = kernel_arguments
        .into_iter()
        .map(|a| normalized(a, source))
        .collect();
    // as written, or through the locals it is assigned from (`global_work = blk;
    // k<<<global_work, 16>>>(..., blk)`)
    let polynomial = |value: Option<Node<'t>>| -> Option<ArgumentPolynomial> {
        let mut value = value?;
        for _ in 0..4 {
            if let Some(found) = in_arguments(value, &arguments, classifier) {
                return Some(found);
            }
            let name = strip(value, source);
            if name.node_kind() != "identifier" {
                return None;
            }
            match classifier.locals.value_at(text(name, source), name, source) {
                Held::One(assigned) => value = assigned,
                _ => return None,
            }
        }
        None
    };
    let mut grid_in_arguments = grid_values.map(polynomial);
    let block_in_arguments: [Option<ArgumentPolynomial>; 3] = if block_set_by_helper {
        [None, None, None]
    } else {
        let values = configuration_values(classifier, block, &block_parts);
        [0, 1, 2].map(|axis| polynomial(values.get(axis).copied().flatten()))
    };
    // a constant grid rounded up over a constant problem size is no count of the kernel's own:
    // `(1000 + 255) / 256` is 4 blocks exactly, but 1000 is the size they cover
    for (polynomial, axis) in grid_in_arguments.iter_mut().zip(&grid_axes) {
        let constant = polynomial
            .as_ref()
            .is_some_and(|terms| terms.iter().all(|(_, positions)| positions.is_empty()));
        if constant && matches!(axis, GridAxis::RoundedUp(_)) {
            *polynomial = None;
        }
    }
    let shared_bytes = match shared {
        Shared::Omitted => SharedBytes::Omitted,
        Shared::Unknown => SharedBytes::Unknown,
        Shared::At(bytes) => shared_bytes(classifier, bytes, block, &block_parts, &arguments),
    };
    let sizes = {
        let block_values = configuration_values(classifier, block, &block_parts);
        let grid_values = grid_values.to_vec();
        let defaults = [
            grid.is_some() && grid_parts.iter().any(Option::is_some),
            block.is_some() && block_parts.iter().any(Option::is_some),
        ];
        let mut readings: Vec<LaunchSizes> = [false, true]
            .into_iter()
            .filter_map(|resolve| {
                launch_sizes(
                    classifier,
                    allocations,
                    [&grid_values, &block_values],
                    defaults,
                    &kernel_argument_nodes,
                    kernel_argument_nodes.first().copied(),
                    resolve,
                )
            })
            .collect();
        // locals whose values cannot be spelled out read the same either way
        readings.dedup();
        readings
    };
    Some(LaunchSite {
        kernel: kernel.to_string(),
        arity,
        path: path.to_path_buf(),
        span: call.byte_range(),
        line: lines.line_of(call.start_byte()) + 1,
        grid: grid_axes,
        grid_blocks,
        block: block_dims,
        arguments,
        per_thread_elements,
        allocated_in_sight,
        grid_in_arguments,
        block_in_arguments,
        shared_bytes,
        sizes,
        argument_factors,
        template_arguments,
        argument_values,
    })
}

/// The constant `argument` holds where `call` sits: a constant expression (`MAX_DEG`, `2 * 45`),
/// or a name `call` sits under `case C:` of a `switch` on, when no case falls through into it.
pub(super) fn known_value<'t>(
    classifier: &Classifier<'_, 't>,
    call: Node<'t>,
    argument: Node<'t>,
) -> Option<i128> {
    let source = classifier.source;
    let argument = strip(argument, source);
    if let Some(value) = constant(argument, classifier) {
        return Some(value);
    }
    if argument.node_kind() != "identifier" {
        return None;
    }
    let name = text(argument, source);
    let mut node = call;
    while let Some(parent) = node.up() {
        match parent.node_kind() {
            "function_definition" | "lambda_expression" => return None,
            "case_statement" => {
                let switch = parent
                    .up()
                    .and_then(|body| body.up())
                    .filter(|s| s.node_kind() == "switch_statement")?;
                let condition = syntax::condition_value(switch.field("condition")?);
                if text(strip(condition, source), source) != name {
                    node = parent;
                    continue;
                }
                // `case 1: case 2: launch`: the launch is reached with either value
                let falls_into = parent.prev_named_sibling().is_some_and(|previous| {
                    previous.node_kind() == "case_statement"
                        && !syntax::named_children(previous).last().is_some_and(|last| {
                            matches!(
                                last.node_kind(),
                                "break_statement" | "return_statement" | "continue_statement"
                            )
                        })
                });
                if falls_into || classifier.locals.values.contains_key(name) {
                    return None;
                }
                return constant(parent.field("value")?, classifier);
            }
            _ => node = parent,
        }
    }
    None
}

/// `k<256, float>`, `HIP_KERNEL_NAME(k<256>)`, `ns::k<B>`: each template argument's value when
/// it is an integer constant (a literal, a define, a constant local).
pub(super) fn template_argument_values<'t>(
    classifier: &Classifier<'_, 't>,
    name: Node<'t>,
) -> Vec<Option<i128>> {
    let source = classifier.source;
    let mut name = strip(name, source);
    for _ in 0..4 {
        match name.node_kind() {
            "template_function" => break,
            "qualified_identifier" => match name.field("name") {
                Some(inner) => name = inner,
                None => return Vec::new(),
            },
            "call_expression" => match name.field("arguments").and_then(|a| a.named_child(0)) {
                Some(inner) => name = strip(inner, source),
                None => return Vec::new(),
            },
            _ => return Vec::new(),
        }
    }
    let Some(list) = name.field("arguments") else {
        return Vec::new();
    };
    named_children(list)
        .filter(|c| c.node_kind() != "comment")
        .map(|argument| {
            let written = text(argument, source).trim();
            let value = match argument.node_kind() {
                // `k<BLOCK>` parses the name as a type: a define or constant of that name
                "type_descriptor" => constant_named(classifier, written),
                "true" => Some(1),
                "false" => Some(0),
                _ => constant(argument, classifier),
            };
            // `k<Variant::Full>`: an enumerator of the file
            value.or_else(|| {
                let last = written.rsplit("::").next()?;
                let is_name =
                    !last.is_empty() && last.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                is_name
                    .then(|| classifier.helpers.enumerator(last))
                    .flatten()
                    .map(i128::from)
            })
        })
        .collect()
}

/// The value of a constant named `name` where a launch is: a define or a local or file-scope
/// constant.
fn constant_named(classifier: &Classifier<'_, '_>, name: &str) -> Option<i128> {
    let scope = LaunchScope(classifier);
    match scope.definition(name) {
        Some(value) => constant(value, classifier),
        None => size::parse_number(scope.define(name)?.trim()),
    }
}

/// The value of each component of a launch's block (or grid) argument: `dim3(a, b)`, a local
/// `dim3` with its components assigned later (the assignment the launch sees), or a scalar as
/// `x`; None for a component left out (1) or not known.
pub(super) fn configuration_values<'t>(
    classifier: &Classifier<'_, 't>,
    whole: Option<Node<'t>>,
    parts: &[Option<Node<'t>>],
) -> Vec<Option<Node<'t>>> {
    let source = classifier.source;
    let name = whole
        .map(|w| strip(w, source))
        .filter(|w| w.node_kind() == "identifier");
    (0..3)
        .map(|axis| {
            let assigned = match name {
                Some(n) => {
                    classifier
                        .locals
                        .component_at(text(n, source), AXIS_NAMES[axis], n, source)
                }
                None => Held::NotLocal,
            };
            match assigned {
                Held::One(value) => Some(value),
                Held::NotLocal => parts.get(axis).copied().flatten(),
                _ => None,
            }
        })
        .collect()
}

/// The grid, block and dynamic shared bytes of the `cudaLaunchConfig_t` that `config` (`&cfg`)
/// points at, where `call` is: the fields assigned before it (`cfg.gridDim = ...`), else the
/// initialiser's first three values.
pub(super) fn launch_config_fields<'t>(
    classifier: &Classifier<'_, 't>,
    config: Node<'t>,
    call: Node<'t>,
) -> (Option<Node<'t>>, Option<Node<'t>>, Option<Node<'t>>) {
    let source = classifier.source;
    let mut config = strip(config, source);
    if config.node_kind() == "pointer_expression" {
        match config.field("argument") {
            Some(inner) => config = strip(inner, source),
            None => return (None, None, None),
        }
    }
    if config.node_kind() != "identifier" {
        return (None, None, None);
    }
    let name = text(config, source);
    // the locals keep a declaration's list of values as they keep a `dim3`'s
    let listed: Vec<Node<'t>> = classifier
        .locals
        .dim3_at(name, call)
        .map(|list| {
            named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .collect()
        })
        .unwrap_or_default();
    let field = |field: &str, position: usize| match classifier
        .locals
        .component_at(name, field, call, source)
    {
        Held::One(value) => Some(value),
        Held::NotLocal => listed.get(position).copied(),
        _ => None,
    };
    (
        field("gridDim", 0),
        field("blockDim", 1),
        field("dynamicSmemBytes", 2),
    )
}

/// The kernel arguments an array of their addresses passes (`void* args[] = {(void*)&d_in,
/// &n};` handed to `cudaLaunchKernel` or `cudaLaunchCooperativeKernel`): the variables, in
/// order, when the array is a local of the launching function initialised with addresses only
/// and written before the launch.
pub(super) fn addresses_in_array<'t>(
    array: Node<'t>,
    call: Node<'t>,
    source: &str,
) -> Option<Vec<Node<'t>>> {
    let array = strip(array, source);
    if array.node_kind() != "identifier" {
        return None;
    }
    let name = text(array, source);
    let function = enclosing_function(call)?;
    let mut initialiser = None;
    syntax::walk_iterative(function, |node| {
        if node.start_byte() >= call.start_byte() {
            return false;
        }
        if node.node_kind() == "init_declarator"
            && node
                .field("declarator")
                // `void* args[]` is a pointer declarator around the array's
                .filter(|d| text(*d, source).contains('['))
                .and_then(syntax::declarator_name)
                .is_some_and(|n| text(n, source) == name)
        {
            initialiser = node.field("value");
        }
        true
    });
    let initialiser = initialiser.filter(|v| v.node_kind() == "initializer_list")?;
    named_children(initialiser)
        .filter(|element| element.node_kind() != "comment")
        .map(|element| {
            let mut element = strip(element, source);
            while element.node_kind() == "cast_expression" {
                element = strip(element.field("value")?, source);
            }
            (element.node_kind() == "pointer_expression"
                && syntax::operator(element, source) == "&")
                .then(|| element.field("argument"))
                .flatten()
        })
        .collect()
}
