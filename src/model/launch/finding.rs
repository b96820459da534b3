//! Where a function launches kernels, and what reaches the launch from outside it: the launches
//! themselves, the factors its callers pass, the kernels a function pointer holds and the
//! components of a `dim3`.

use super::*;

/// Whether `function`'s text has anything `launches_in` would read as a launch: most functions
/// launch nothing, and a look at the text spares the walk.
pub fn may_launch(function: &crate::model::Function, source: &str) -> bool {
    let body = source.get(function.body.byte_range()).unwrap_or("");
    body.contains("<<<")
        || apis::may_hold_api_launch(body)
        || crate::source::has_spaced_launch_opening(body)
}

/// Every launch in `function`: `k<<<g, b>>>(...)` and the calls `apis` reads (`cudaLaunchKernel`,
/// `hipLaunchKernelGGL`, taskflow's kernel nodes, cuda-api-wrappers' `cuda::launch`).
pub fn launches_in<'t>(
    function: &crate::model::Function<'t>,
    source: &'t str,
    path: &std::path::Path,
    lines: &crate::source::LineIndex,
    helpers: &dyn GridHelpers,
    file: &FileScope<'t>,
) -> Vec<LaunchSite> {
    if !may_launch(function, source) {
        return Vec::new();
    }
    let mut calls = Vec::new();
    syntax::walk_iterative(function.body, |node| {
        if node.node_kind() == "call_expression" {
            let is_triple_chevron =
                named_children(node).any(|c| c.node_kind() == "kernel_call_syntax");
            let api = apis::is_api_launch(node, source);
            if is_triple_chevron || api {
                calls.push((node, is_triple_chevron));
            }
        }
        true
    });
    if calls.is_empty() {
        return Vec::new();
    }
    let allocations = Allocations {
        function: function.definition,
        file,
    };
    // the locals a launch sees: the function's, and those of the lambda it sits in
    let mut by_lambda: Vec<(Option<Node<'t>>, Locals<'t>)> = Vec::new();
    let mut sites = Vec::new();
    let passed = PassedFactors {
        function,
        source,
        helpers,
        file,
        factors: std::cell::OnceCell::new(),
    };
    for (call, chevron) in calls {
        let lambda = enclosing_lambda(call, function.body);
        let at = match by_lambda
            .iter()
            .position(|(l, _)| l.map(|n| n.id()) == lambda.map(|n| n.id()))
        {
            Some(at) => at,
            None => {
                let constants = file.constants();
                by_lambda.push((
                    lambda,
                    Locals::entering(function.body, source, lambda, constants),
                ));
                by_lambda.len() - 1
            }
        };
        let locals = &by_lambda[at].1;
        let classifier = Classifier {
            source,
            locals,
            helpers,
            constants_divide: true,
            passed: Some(&passed),
            launch: Some(call),
        };
        if let Some(mut site) = launch_site(&classifier, &allocations, call, chevron, path, lines) {
            // a wrapper launching the kernel it is handed: each call of it launches that kernel
            if let Some(through) =
                wrappers::through_wrapper(&classifier, function, &site, call, chevron, file, lines)
            {
                sites.extend(through);
                continue;
            }
            // a parameter of the launching function passed on as it came: what its callers pass
            for (at, argument) in site.arguments.iter().enumerate() {
                let Some(position) = function.parameters.iter().position(|p| p.name == *argument)
                else {
                    continue;
                };
                if locals.values.contains_key(argument.as_str()) {
                    continue;
                }
                if let (Some(factor), Some(slot)) =
                    (passed.at(position), site.argument_factors.get_mut(at))
                {
                    *slot = (*slot).max(factor);
                }
            }
            for site in through_pointer(site, locals, source) {
                if member_named(&site.kernel).is_some() {
                    file.kernel_member_reads.set(true);
                }
                sites.extend(through_member(site, file.root, source));
            }
        }
    }
    sites
}

/// What the calls of a launching function in its file pass for each of its parameters, read
/// when first asked: `scale_gpu(out, in, 2048, 2048)` makes the launch's `(cols + 15) / 16`
/// whole blocks.
pub(super) struct PassedFactors<'a, 't> {
    function: &'a crate::model::Function<'t>,
    source: &'t str,
    helpers: &'a dyn GridHelpers,
    file: &'a FileScope<'t>,
    factors: std::cell::OnceCell<Vec<i128>>,
}

impl PassedFactors<'_, '_> {
    /// The largest constant known to divide what every call passes at `position`.
    fn at(&self, position: usize) -> Option<i128> {
        self.factors
            .get_or_init(|| parameter_factors(self.function, self.source, self.helpers, self.file))
            .get(position)
            .copied()
    }

    /// The same for the parameter `name`: 1 when the function has none of that name.
    pub(super) fn of(&self, name: &str) -> i128 {
        self.function
            .parameters
            .iter()
            .position(|p| p.name == name)
            .and_then(|position| self.at(position))
            .unwrap_or(1)
    }
}

/// The most calls of a launching function read for what they pass.
const MAX_CALLERS_READ: usize = 64;

/// Per parameter of `function`: the largest constant known to divide what every call of it in
/// its file passes there (`run(paths)` after `paths *= 1024`), 1 when that is not known or no
/// call is seen.
fn parameter_factors<'t>(
    function: &crate::model::Function<'t>,
    source: &'t str,
    helpers: &dyn GridHelpers,
    file: &FileScope<'t>,
) -> Vec<i128> {
    let arity = function.parameters.len();
    file.caller_reads.set(true);
    let calls: Vec<Node<'t>> = file
        .calls_of(&function.name)
        .iter()
        .copied()
        .filter(|call| syntax::call_arguments(*call).len() == arity)
        .take(MAX_CALLERS_READ)
        .collect();
    let mut factors: Option<Vec<i128>> = None;
    for call in calls {
        let Some(body) = enclosing_function(call).and_then(|f| f.field("body")) else {
            return vec![1; arity];
        };
        let locals = Locals::of(body, source);
        let classifier = Classifier::reading_threads(source, &locals, helpers);
        let passed: Vec<i128> = syntax::call_arguments(call)
            .into_iter()
            .map(|a| classifier.known_factor(a, 0).max(1))
            .collect();
        factors = Some(match factors {
            None => passed,
            Some(all) => all
                .into_iter()
                .zip(passed)
                .map(|(a, b)| rounding::gcd(a, b))
                .collect(),
        });
    }
    factors.unwrap_or_else(|| vec![1; arity])
}

/// The function definition `node` is in.
pub(super) fn enclosing_function(node: Node) -> Option<Node> {
    std::iter::successors(node.up(), |n| n.up()).find(|n| n.node_kind() == "function_definition")
}

/// The innermost lambda around `node` inside `body`, if any.
fn enclosing_lambda<'t>(node: Node<'t>, body: Node<'t>) -> Option<Node<'t>> {
    let mut current = node.up();
    while let Some(parent) = current {
        if parent.id() == body.id() {
            return None;
        }
        if parent.node_kind() == "lambda_expression" {
            return Some(parent);
        }
        current = parent.up();
    }
    None
}

/// `kernel = &copy; ... kernel<<<g, b>>>(...)`: a launch through a function pointer is a launch
/// of each kernel the pointer is assigned (all of them, or none when one is not a name).
fn through_pointer(site: LaunchSite, locals: &Locals, source: &str) -> Vec<LaunchSite> {
    let Some(values) = locals.values.get(site.kernel.as_str()) else {
        return vec![site];
    };
    let mut kernels: Vec<&str> = Vec::new();
    for value in values {
        let Some(name) = kernel_named(*value, source) else {
            return Vec::new();
        };
        if !kernels.contains(&name) {
            kernels.push(name);
        }
    }
    launches_of(&site, kernels)
}

/// The kernel a function pointer is given: `copy`, `&copy`, `ns::copy`, `radix<16>`; None for
/// anything that is not a name.
fn kernel_named<'t>(value: Node<'t>, source: &'t str) -> Option<&'t str> {
    let mut value = strip(value, source);
    if value.node_kind() == "pointer_expression" && syntax::operator(value, source) == "&" {
        value = strip(value.field("argument")?, source);
    }
    matches!(
        value.node_kind(),
        "identifier" | "qualified_identifier" | "template_function"
    )
    .then(|| launched_kernel(value, source))
}

/// The launch `site` once for each of `kernels`.
fn launches_of(site: &LaunchSite, kernels: Vec<&str>) -> Vec<LaunchSite> {
    kernels
        .into_iter()
        .map(|kernel| LaunchSite {
            kernel: kernel.to_string(),
            ..site.clone()
        })
        .collect()
}

/// `plan.layer_1[k]<<<g, b>>>(...)`: a launch through a member (or an entry of a member table)
/// holding kernel pointers is a launch of each kernel the file assigns to that member
/// (`plan.layer_1[0] = layer_256_1<16>;`), all of them, or none when one is not a name.
fn through_member<'t>(site: LaunchSite, root: Node<'t>, source: &str) -> Vec<LaunchSite> {
    let Some(member) = member_named(&site.kernel) else {
        return vec![site];
    };
    let mut kernels: Vec<&str> = Vec::new();
    let mut unknown = false;
    syntax::walk_iterative(root, |node| {
        if unknown || node.node_kind() != "assignment_expression" {
            return !unknown;
        }
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return true;
        };
        if member_named(text(left, source)) != Some(member) {
            return true;
        }
        match kernel_named(right, source) {
            Some(name) if !kernels.contains(&name) => kernels.push(name),
            Some(_) => {}
            None => unknown = true,
        }
        true
    });
    if unknown || kernels.is_empty() {
        return vec![site];
    }
    launches_of(&site, kernels)
}

/// The member an expression reaches, its subscripts dropped: `layer_1` for `plan.layer_1[k]`
/// and `p->layer_1[0]`; None for a plain name.
fn member_named(expression: &str) -> Option<&str> {
    let mut end = expression.trim_end();
    // drop trailing subscripts, nested ones included (`layer[plan.order[i]]`)
    while end.ends_with(']') {
        let mut depth = 0usize;
        let open = end.char_indices().rev().find(|&(_, c)| {
            match c {
                ']' => depth += 1,
                '[' => depth = depth.saturating_sub(1),
                _ => {}
            }
            c == '[' && depth == 0
        });
        match open {
            Some((at, _)) => end = end[..at].trim_end(),
            None => return None,
        }
    }
    let at = end.rfind(['.', '>'])?;
    let member = end[at + 1..].trim();
    (!member.is_empty()
        && member
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some(member)
}

/// The three components of a `dim3` (a local declared with arguments, `dim3(...)`, `{...}`), or
/// the expression itself as `x`.
pub(super) fn components<'t>(
    classifier: &Classifier<'_, 't>,
    node: Option<Node<'t>>,
) -> Vec<Option<Node<'t>>> {
    components_of(classifier, node, false)
}

/// `components`, where a component assigned on several paths (`grid.y /= 3` in a loop) leaves
/// only that component unknown (None) rather than the whole shape: for a reader that asks each
/// component's assignments itself, as the grid's reading does.
pub(super) fn components_of<'t>(
    classifier: &Classifier<'_, 't>,
    node: Option<Node<'t>>,
    each_component_alone: bool,
) -> Vec<Option<Node<'t>>> {
    let source = classifier.source;
    let Some(mut node) = node.map(|n| strip(n, source)) else {
        return vec![None, None, None];
    };
    let written = node;
    // `dim3(grid)` of a local `dim3 grid`: the same shape (hipified launches wrap theirs so)
    for _ in 0..4 {
        let copied = dim3_arguments(node, source)
            .map(|list| {
                named_children(list)
                    .filter(|c| c.node_kind() != "comment")
                    .collect::<Vec<_>>()
            })
            .and_then(|parts| match parts.as_slice() {
                [only] => Some(strip(*only, source)),
                _ => None,
            })
            .or_else(|| copied_dim3(classifier, node))
            .filter(|inner| {
                inner.node_kind() == "identifier"
                    && classifier.locals.dim3.contains_key(text(*inner, source))
            });
        match copied {
            Some(inner) => node = inner,
            None => break,
        }
    }
    let list = match node.node_kind() {
        "identifier" => {
            let name = text(node, source);
            let declared = classifier.locals.dim3_at(name, node);
            match (declared, classifier.locals.value_at(name, node, source)) {
                (Some(list), Held::NotLocal) => Some(list),
                // `dim3 grid; grid = dim3(w / 16, h / 16);`, the assignment this launch sees
                // (a scalar grid is classified as an expression)
                (None, Held::One(value)) => dim3_arguments(strip(value, source), source),
                (Some(_), Held::One(value)) => dim3_arguments(strip(value, source), source),
                // declared with a shape and assigned again: which one a launch sees is not known
                (Some(_), Held::Several | Held::Alternatives(_)) => return vec![None, None, None],
                _ => None,
            }
        }
        _ => dim3_arguments(node, source),
    };
    let mut parts = match list {
        Some(list) => {
            let parts: Vec<Node> = named_children(list)
                .filter(|c| c.node_kind() != "comment")
                .map(|c| match c.node_kind() {
                    "parameter_declaration" => c.field("type").unwrap_or(c),
                    _ => c,
                })
                .collect();
            (0..3).map(|i| parts.get(i).copied()).collect()
        }
        None => vec![Some(node), None, None],
    };
    if node.node_kind() == "identifier" {
        // `dim3 block; block.x = 32; block.y = rows_per_block;` or `dim3 grid(1); grid.x = n /
        // 128;`: a component assigned before the launch is that component; one never assigned
        // keeps the declaration's (1 for a `dim3` declared bare); a copy (`dim3 block = shape;
        // block.y = 2;`) takes the components of what it copies, then its own
        let name = text(node, source);
        let mut assigned = [false; 3];
        let mut readings = vec![(name, node)];
        if written.id() != node.id() && written.node_kind() == "identifier" {
            readings.push((text(written, source), written));
        }
        for (axis, field) in AXIS_NAMES.into_iter().enumerate() {
            for (name, at) in &readings {
                let held = classifier
                    .locals
                    .dim3_component_at(name, field, *at, source);
                match held {
                    Held::NotLocal => {}
                    Held::One(value) => {
                        assigned[axis] = true;
                        parts[axis] = Some(value);
                    }
                    // assigned again in a loop (`grid.y /= 3`): that component is not known, the
                    // others keep their values
                    Held::Several | Held::Alternatives(_) if each_component_alone => {
                        assigned[axis] = true;
                        parts[axis] = None;
                    }
                    Held::Several | Held::Alternatives(_) => return vec![None, None, None],
                }
            }
        }
        if assigned.contains(&true) && list.is_none() && !assigned[0] {
            // the name itself is no scalar grid; the parts left out are the declaration's 1
            parts[0] = None;
        }
    }
    parts
}

/// `dim3 launch_grid = grid;` read at `node` (`launch_grid`): the `dim3` it copies, when that
/// copy is the one value reaching `node`.
fn copied_dim3<'t>(classifier: &Classifier<'_, 't>, node: Node<'t>) -> Option<Node<'t>> {
    if node.node_kind() != "identifier" {
        return None;
    }
    let source = classifier.source;
    match classifier.locals.value_at(text(node, source), node, source) {
        Held::One(value) => Some(strip(value, source)),
        _ => None,
    }
}

/// The components of `dim3(a, b)`, `dim3{a, b}`, `make_uint3(a, b, c)` or `{a, b}`.
pub(super) fn dim3_arguments<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    match node.node_kind() {
        "compound_literal_expression"
            if node
                .field("type")
                .is_some_and(|t| text(t, source) == "dim3") =>
        {
            node.field("value")
        }
        "call_expression"
            if node.field("function").is_some_and(|f| {
                matches!(
                    text(f, source),
                    "dim3" | "make_uint3" | "make_int3" | "uint3" | "int3"
                )
            }) =>
        {
            node.field("arguments")
        }
        "initializer_list" => Some(node),
        _ => None,
    }
}
