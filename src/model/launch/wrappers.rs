//! Launch wrappers: a host function that launches the kernel it is handed as a parameter
//! (`template <typename K, typename... A> void launch(K k, dim3 g, dim3 b, A... a) { k<<<g,
//! b>>>(a...); }`, GROMACS's `launchKernel(void (*kernel)(Args...), const LaunchConfig& c, void**
//! args)`). Its own launch names no kernel; each call of it in the file is a launch of the kernel
//! passed there, at the call. What the wrapper launches with is read in the caller where it is
//! what the caller passes: a parameter (`g`, a `dim3` or a count), a member of a parameter the
//! caller assigns once before the call (`config.gridSize[2] = nx` for `c.gridSize[2]`), the
//! forwarded pack (`a...`). A value written with no names (`256`) is the wrapper's own. Anything
//! else is unknown: its grid axis `Unknown`, its block dimension not a constant, and the
//! arguments not read (as for `cudaLaunchKernel`'s array).

use super::reading::template_argument_values;
use super::reading::{configuration_values, known_value};
use super::*;

/// The most calls of one wrapper read as launches.
const MAX_WRAPPER_CALLS: usize = 64;

/// What the wrapper's launch `call` (read as `site` in the wrapper) launches at each call of
/// `function` in the file: None when `site`'s kernel is not a parameter of `function`, or no
/// call of it is in the file (the launch is then kept as it is).
pub(super) fn through_wrapper<'t>(
    wrapper: &Classifier<'_, 't>,
    function: &crate::model::Function<'t>,
    site: &LaunchSite,
    call: Node<'t>,
    chevron: bool,
    file: &FileScope<'t>,
    lines: &crate::source::LineIndex,
) -> Option<Vec<LaunchSite>> {
    let source = wrapper.source;
    if function.kind != crate::model::FunctionKind::Host
        || wrapper.locals.values.contains_key(site.kernel.as_str())
    {
        return None;
    }
    // a launcher of one kernel whose grid comes from its parameters (`void
    // call_kernel_stretch(const dim3& grid, const dim3& block, ...)`) is read the same way: each
    // call of it launches its kernel with the grid the caller builds
    let kernel_position = function
        .parameters
        .iter()
        .position(|p| p.name == site.kernel);
    if kernel_position.is_none() && !site.grid.contains(&GridAxis::Unknown) {
        return None;
    }
    file.caller_reads.set(true);
    let calls: Vec<Node<'t>> = file
        .calls_of(&function.name)
        .iter()
        .copied()
        .filter(|c| function.accepts_arguments(syntax::call_arguments(*c).len()))
        .filter(|c| !function.definition.byte_range().contains(&c.start_byte()))
        .take(MAX_WRAPPER_CALLS)
        .collect();
    if calls.is_empty() {
        return None;
    }
    let (launch, shared_omitted) = configuration(wrapper, call, chevron)?;
    let (grid, block, kernel_arguments) = (launch.grid, launch.block, launch.arguments);
    let pack = pack_name(function, source);
    let mut sites = Vec::new();
    for caller_call in calls {
        let Some(body) = enclosing_function(caller_call).and_then(|f| f.field("body")) else {
            continue;
        };
        let passed = syntax::call_arguments(caller_call);
        let kernel_node = match kernel_position {
            Some(position) => match passed.get(position) {
                Some(k) => kernel_name(*k, source),
                None => continue,
            },
            // the launcher's own kernel, named where it launches it
            None => launch.kernel,
        };
        let locals = Locals::of(body, source);
        let in_caller = Classifier::reading_threads(source, &locals, wrapper.helpers);
        // `auto kernelFn = pack; launchGpuKernel(kernelFn, ...)`: the kernel the local holds
        let kernel_node = kernel_held_by_local(&in_caller, kernel_node).unwrap_or(kernel_node);
        if !matches!(
            kernel_node.node_kind(),
            "identifier" | "qualified_identifier" | "template_function"
        ) {
            continue;
        }
        let kernel = launched_kernel(kernel_node, source);
        // a wrapper calling another with the kernel it was handed names no kernel either
        let caller = enclosing_function(caller_call);
        let handed_on = caller.is_some_and(|f| {
            f.field("declarator")
                .and_then(|d| d.field("parameters"))
                .is_some_and(|list| {
                    let mut named = false;
                    syntax::walk_iterative(list, |n| {
                        named |= n.node_kind() == "identifier" && text(n, source) == kernel;
                        !named
                    });
                    named
                })
        });
        if kernel.is_empty() || handed_on {
            continue;
        }
        let reading = Reading {
            wrapper,
            function,
            caller: &in_caller,
            call: caller_call,
            passed: &passed,
        };
        let grid_parts = reading.parts(grid);
        let block_parts = reading.parts(block);
        let mut axes = [GridAxis::Unknown, GridAxis::Unknown, GridAxis::Unknown];
        let mut grid_blocks = [None, None, None];
        let mut block_dims = [None, None, None];
        for axis in 0..3 {
            (axes[axis], grid_blocks[axis]) = match grid_parts[axis] {
                Part::Caller(value) => {
                    (in_caller.axis(value, 0), most_blocks(&in_caller, value, 0))
                }
                Part::Own => (site.grid[axis].clone(), site.grid_blocks[axis]),
                Part::One => (GridAxis::Exact, Some(1)),
                Part::Unknown => (GridAxis::Unknown, None),
            };
            block_dims[axis] = match block_parts[axis] {
                Part::Caller(value) => constant(value, &in_caller),
                Part::Own => site.block[axis],
                Part::One => Some(1),
                Part::Unknown => None,
            };
        }
        let arguments = kernel_arguments
            .as_ref()
            .and_then(|written| reading.arguments(written, pack.as_deref()));
        // a launcher's own launch whose grid its callers do not give stays as it is
        let grid_given = grid_parts.iter().any(|p| matches!(p, Part::Caller(_)));
        if kernel_position.is_none() && (arguments.is_none() || !grid_given) {
            return None;
        }
        // an argument the wrapper computes itself (`its + 1` of its own loop) is a value the
        // caller cannot name: its text is empty and nothing is known of it
        let argument_texts: Vec<String> = arguments
            .iter()
            .flatten()
            .map(|a| a.map(|a| normalized(a, source)).unwrap_or_default())
            .collect();
        let polynomial = |part: Part<'t>| match part {
            Part::Caller(value) => in_arguments(value, &argument_texts, &in_caller),
            _ => None,
        };
        let mut grid_in_arguments = grid_parts.map(polynomial);
        for (polynomial, axis) in grid_in_arguments.iter_mut().zip(&axes) {
            let constant = polynomial
                .as_ref()
                .is_some_and(|terms| terms.iter().all(|(_, positions)| positions.is_empty()));
            if constant && matches!(axis, GridAxis::RoundedUp(_)) {
                *polynomial = None;
            }
        }
        let allocations = Allocations {
            function: caller.unwrap_or(body),
            file,
        };
        let nodes = arguments.clone().unwrap_or_default();
        sites.push(LaunchSite {
            kernel: kernel.to_string(),
            arity: arguments.as_ref().map(Vec::len),
            path: site.path.clone(),
            span: caller_call.byte_range(),
            line: lines.line_of(caller_call.start_byte()) + 1,
            grid: axes,
            grid_blocks,
            block: block_dims,
            per_thread_elements: vec![None; nodes.len()],
            allocated_in_sight: nodes
                .iter()
                .map(|a| a.is_some_and(|a| is_allocated_in_sight(&allocations, a, source)))
                .collect(),
            grid_in_arguments,
            block_in_arguments: block_parts.map(polynomial),
            shared_bytes: if shared_omitted {
                SharedBytes::Omitted
            } else {
                SharedBytes::Unknown
            },
            sizes: Vec::new(),
            argument_factors: nodes
                .iter()
                .map(|a| a.map_or(1, |a| in_caller.known_factor(a, 0).max(1)))
                .collect(),
            template_arguments: match kernel_position {
                Some(_) => template_argument_values(&in_caller, kernel_node),
                None => site.template_arguments.clone(),
            },
            argument_values: nodes
                .iter()
                .map(|a| a.and_then(|a| known_value(&in_caller, caller_call, a)))
                .collect(),
            arguments: argument_texts,
        });
    }
    Some(sites)
}

/// The kernel a wrapper's call passes: `k`, `&k`, `(void*)k`.
fn kernel_name<'t>(node: Node<'t>, source: &str) -> Node<'t> {
    let mut node = strip(node, source);
    for _ in 0..4 {
        match syntax::address_operand(node, source) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The name of the parameter pack `function` ends in (`A... a`), if any.
fn pack_name(function: &crate::model::Function, source: &str) -> Option<String> {
    let list = function
        .definition
        .field("declarator")
        .and_then(|d| d.field("parameters"))?;
    let declaration =
        named_children(list).find(|d| d.node_kind() == "variadic_parameter_declaration")?;
    let mut name = None;
    syntax::walk_iterative(declaration.field("declarator")?, |n| {
        if n.node_kind() == "identifier" {
            name = Some(text(n, source).to_string());
        }
        true
    });
    name
}

/// The kernel, grid, block and kernel arguments a wrapper's launch is written with (each in the
/// wrapper), and whether it leaves out the shared bytes.
fn configuration<'t>(
    wrapper: &Classifier<'_, 't>,
    call: Node<'t>,
    chevron: bool,
) -> Option<(super::apis::ApiLaunch<'t>, bool)> {
    if !chevron {
        return Some((super::apis::api_launch(wrapper, call)?, false));
    }
    let config = syntax::launch_configuration(call);
    let launch = super::apis::ApiLaunch {
        kernel: strip(call.field("function")?, wrapper.source),
        grid: config.first().copied(),
        block: config.get(1).copied(),
        bytes: config.get(2).copied(),
        arguments: Some(syntax::call_arguments(call)),
    };
    Some((launch, config.len() < 3))
}

/// One component of a wrapper's grid or block, for one call of it.
#[derive(Clone, Copy)]
enum Part<'t> {
    /// What the caller passes, as written in the caller.
    Caller(Node<'t>),
    /// Written with no names in the wrapper: the wrapper's reading of it.
    Own,
    /// Left out of a `dim3`: 1.
    One,
    Unknown,
}

/// One call of a wrapper, read in the caller.
struct Reading<'a, 't> {
    wrapper: &'a Classifier<'a, 't>,
    function: &'a crate::model::Function<'t>,
    caller: &'a Classifier<'a, 't>,
    call: Node<'t>,
    passed: &'a [Node<'t>],
}

/// Per axis of a grid (or block) read as `parts` with the values they are given: `part` of the
/// value; 1 for an axis left out of the list and assigned nowhere; unknown otherwise.
fn by_axis<'t>(
    parts: &[Option<Node<'t>>],
    values: &[Option<Node<'t>>],
    part: impl Fn(Node<'t>) -> Part<'t>,
) -> [Part<'t>; 3] {
    let mut out = [Part::Unknown; 3];
    if parts.iter().all(Option::is_none) {
        return out;
    }
    for (axis, slot) in out.iter_mut().enumerate() {
        *slot = match (
            values.get(axis).copied().flatten(),
            parts.get(axis).copied().flatten(),
        ) {
            (Some(value), _) => part(value),
            (None, None) => Part::One,
            (None, Some(_)) => Part::Unknown,
        };
    }
    out
}

impl<'t> Reading<'_, 't> {
    /// Each component of the wrapper's grid (or block) `whole`, for this call.
    fn parts(&self, whole: Option<Node<'t>>) -> [Part<'t>; 3] {
        let Some(whole) = whole else {
            return [Part::Unknown; 3];
        };
        // the whole of it is what the caller passes: `g`, `c.grid`
        if let Some(value) = self.to_caller(whole) {
            return self.caller_parts(value);
        }
        let wrapper = self.wrapper;
        let whole = strip(whole, wrapper.source);
        let parts = components(wrapper, Some(whole));
        if let [Some(only), None, None] = parts.as_slice() {
            if only.id() == whole.id() {
                // a scalar: a count written with no names is the wrapper's own
                return match self.is_own(whole) {
                    true => [Part::Own, Part::One, Part::One],
                    false => [Part::Unknown; 3],
                };
            }
        }
        let values = configuration_values(wrapper, Some(whole), &parts);
        by_axis(&parts, &values, |value| self.part(value))
    }

    /// A component of the wrapper written as `value`, for this call.
    fn part(&self, value: Node<'t>) -> Part<'t> {
        if let Some(passed) = self.to_caller(value) {
            return Part::Caller(passed);
        }
        if self.is_own(value) {
            Part::Own
        } else {
            Part::Unknown
        }
    }

    /// Whether the wrapper's `value` is its own whatever the call: written without names
    /// (`256`), or a constant the file's names fix (`dim3 grid(BLOCKS)` in a timing harness).
    fn is_own(&self, value: Node<'t>) -> bool {
        names_nothing(value) || super::constant(value, self.wrapper).is_some()
    }

    /// The components of a grid (or block) the caller passes whole, as the caller writes them.
    fn caller_parts(&self, value: Node<'t>) -> [Part<'t>; 3] {
        let caller = self.caller;
        let source = caller.source;
        let stripped = strip(value, source);
        // a grid a host helper computes or assigns: read where the launch is written, not here
        if stripped.node_kind() == "identifier"
            && set_by_helper(caller, stripped, self.call).is_some()
        {
            return [Part::Unknown; 3];
        }
        if returned_grid(caller, stripped).is_some() {
            return [Part::Unknown; 3];
        }
        let parts = components(caller, Some(stripped));
        let values = configuration_values(caller, Some(stripped), &parts);
        by_axis(&parts, &values, Part::Caller)
    }

    /// What the caller passes for the wrapper's `value`, as written in the caller: a parameter
    /// (through locals defined once from it), or a member of one that the caller assigns once,
    /// before the call and on its path. None for anything else.
    fn to_caller(&self, value: Node<'t>) -> Option<Node<'t>> {
        let source = self.wrapper.source;
        let value = strip(value, source);
        if value.node_kind() == "identifier" {
            let position = self.parameter(value, 0)?;
            return self.passed.get(position).copied();
        }
        // `c.gridSize[0]`, `c->grid`, `cfg.block`
        let mut root = value;
        for _ in 0..8 {
            root = match root.node_kind() {
                "field_expression" => root.field("argument")?,
                "subscript_expression" => root.field("argument")?,
                _ => break,
            };
            root = strip(root, source);
        }
        if root.id() == value.id() || root.node_kind() != "identifier" {
            return None;
        }
        let position = self.parameter(root, 0)?;
        let passed = strip(*self.passed.get(position)?, source);
        // `&config` for a pointer, `config` for a reference or copy
        let (object, through_address) = match syntax::address_operand(passed, source) {
            Some(inner) => (inner, true),
            None => (passed, false),
        };
        if object.node_kind() != "identifier" {
            return None;
        }
        let written: String = text(value, source)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let rest = written.get(text(root, source).len()..)?;
        let rest = match (rest.strip_prefix("->"), through_address) {
            (Some(after), true) => format!(".{after}"),
            (None, false) if rest.starts_with('.') || rest.starts_with('[') => rest.to_string(),
            _ => return None,
        };
        self.member_assigned(object, &format!("{}{rest}", text(object, source)))
    }

    /// The wrapper's parameter `name` is, by position, when the wrapper never assigns it.
    fn parameter(&self, name: Node<'t>, depth: usize) -> Option<usize> {
        // locals defined from each other (`a = b; b = a;`) go round: give up
        if depth > 8 {
            return None;
        }
        let source = self.wrapper.source;
        let written = text(name, source);
        if let Some(values) = self.wrapper.locals.values.get(written) {
            // a local defined once from a parameter: `int n = count;`
            return match values.as_slice() {
                [only] => {
                    let only = strip(*only, source);
                    (only.node_kind() == "identifier" && only.id() != name.id())
                        .then_some(only)
                        .and_then(|inner| self.parameter(inner, depth + 1))
                }
                _ => None,
            };
        }
        if self.written_in_wrapper(written) {
            return None;
        }
        self.function
            .parameters
            .iter()
            .position(|p| p.name == written)
    }

    /// Whether the wrapper writes `name` or a part of it (`g.x = ...`, `c.gridSize[0]++`,
    /// `&c`): what the caller passes is then not what the launch sees.
    fn written_in_wrapper(&self, name: &str) -> bool {
        let source = self.wrapper.source;
        self.wrapper
            .locals
            .occurrences(name, source)
            .iter()
            .any(|occurrence| {
                let mut target = *occurrence;
                while let Some(parent) = target.up().filter(|p| {
                    matches!(p.node_kind(), "field_expression" | "subscript_expression")
                        && p.field("argument").is_some_and(|a| a.id() == target.id())
                }) {
                    target = parent;
                }
                target.up().is_some_and(|p| match p.node_kind() {
                    "assignment_expression" => {
                        p.field("left").is_some_and(|l| l.id() == target.id())
                    }
                    "update_expression" => true,
                    "pointer_expression" => syntax::operator(p, source) == "&",
                    _ => false,
                })
            })
    }

    /// The value the caller's local `object` has in the member written `member` (`config.
    /// gridSize[2]`) at the call: its one assignment, made before the call in a block around
    /// it, when the local is not otherwise written or handed anywhere before the call.
    fn member_assigned(&self, object: Node<'t>, member: &str) -> Option<Node<'t>> {
        let source = self.caller.source;
        let name = text(object, source);
        let mut found: Option<Node<'t>> = None;
        for occurrence in self.caller.locals.occurrences(name, source) {
            if occurrence.start_byte() >= self.call.start_byte() {
                break;
            }
            if object.id() == occurrence.id() {
                continue;
            }
            // the declaration
            if occurrence
                .up()
                .is_some_and(|p| matches!(p.node_kind(), "declaration" | "init_declarator"))
            {
                continue;
            }
            // the object of an assignment to one of its members
            let mut target = *occurrence;
            while let Some(parent) = target.up().filter(|p| {
                matches!(p.node_kind(), "field_expression" | "subscript_expression")
                    && p.field("argument").is_some_and(|a| a.id() == target.id())
            }) {
                target = parent;
            }
            let assignment = target.up().filter(|a| {
                a.node_kind() == "assignment_expression"
                    && a.field("left").is_some_and(|l| l.id() == target.id())
            })?;
            let written: String = text(target, source)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if written != member {
                // another member, or the same one written another way: whether it aliases
                // this one is not known unless the two are plainly apart
                if written.starts_with(member) || member.starts_with(&written) {
                    return None;
                }
                continue;
            }
            if syntax::operator(assignment, source) != "=" || found.is_some() {
                return None;
            }
            // run on every path to the call: its statement sits in a block around the call
            let statement = assignment
                .up()
                .filter(|s| s.node_kind() == "expression_statement")?;
            statement.up().filter(|b| {
                b.node_kind() == "compound_statement"
                    && b.byte_range().contains(&self.call.start_byte())
            })?;
            found = Some(assignment.field("right")?);
        }
        found
    }

    /// The kernel arguments the wrapper's launch passes (`written`), as the caller writes
    /// them: each a parameter of the wrapper, the forwarded pack (`a...`), a literal or a
    /// buffer of the file. A value the wrapper computes itself (`its + 1` of its own loop) is
    /// None: the caller cannot name it. None for all when the pack is not the wrapper's.
    fn arguments(&self, written: &[Node<'t>], pack: Option<&str>) -> Option<Vec<Option<Node<'t>>>> {
        let source = self.wrapper.source;
        let mut out = Vec::new();
        for argument in written {
            let argument = strip(*argument, source);
            if argument.node_kind() == "parameter_pack_expansion" {
                let pattern = strip(argument.field("pattern")?, source);
                if pack.is_none_or(|p| text(pattern, source) != p) {
                    return None;
                }
                out.extend(
                    self.passed
                        .get(self.function.parameters.len()..)
                        .unwrap_or_default()
                        .iter()
                        .map(|passed| Some(*passed)),
                );
                continue;
            }
            out.push(match self.to_caller(argument) {
                Some(passed) => Some(passed),
                None if names_nothing(argument) || self.is_file_buffer(argument) => Some(argument),
                None => None,
            });
        }
        Some(out)
    }

    /// A buffer of the file the wrapper hands the kernel itself, the same whoever calls it:
    /// `dev_p0[iGpu]` from a file-scope table of per-GPU buffers, or a file-scope pointer.
    fn is_file_buffer(&self, argument: Node<'t>) -> bool {
        let source = self.wrapper.source;
        let table = match argument.node_kind() {
            "subscript_expression" => match argument.field("argument") {
                Some(table) => strip(table, source),
                None => return false,
            },
            _ => argument,
        };
        if table.node_kind() != "identifier" {
            return false;
        }
        let name = text(table, source);
        !self.wrapper.locals.values.contains_key(name)
            && !self.wrapper.locals.dim3.contains_key(name)
            && self.function.parameters.iter().all(|p| p.name != name)
            && !super::members::declares(self.function.body, name, source)
    }
}

/// Whether `node` is written without names: `256`, `32 * 8`.
fn names_nothing(node: Node) -> bool {
    let mut named = false;
    syntax::walk_iterative(node, |n| {
        named |= matches!(
            n.node_kind(),
            "identifier" | "field_identifier" | "type_identifier" | "qualified_identifier"
        );
        !named
    });
    !named && node.node_kind() != "ERROR"
}
