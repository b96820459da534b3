//! The block shapes a kernel is run with. A conflict is a witness only for a shape the kernel
//! can be launched with, so a visible launch's shape is taken first, and without one only small
//! shapes whose threads stay inside the kernel's shared arrays are tried.

use super::*;

/// Of the shapes tried when no launch is in sight, the one that runs first: since a pair needs
/// every shape, the one of fewest threads (two warps or more), and when it makes no pair (most
/// kernels) the larger ones, each a few times its cost, need not run at all.
pub(super) fn probe_shape(shapes: &[[i64; 3]]) -> Option<[i64; 3]> {
    let lanes = |block: &[i64; 3]| block[0] * block[1] * block[2];
    shapes
        .iter()
        .filter(|block| lanes(block) > 32)
        .min_by_key(|block| lanes(block))
        .copied()
}

/// The block shapes to try, in order: each distinct constant block of the visible launches, or
/// small default shapes for the axes the kernel uses.
pub(super) fn candidate_blocks<'t>(
    program: &Program<'_, 't>,
    source: &'t str,
    function: &Function<'t>,
    facts: &KernelFacts,
) -> (bool, Vec<[i64; 3]>) {
    let mut launched: Vec<[i64; 3]> = Vec::new();
    let mut all_constant = !facts.launches.is_empty();
    for launch in &facts.launches {
        let dims = launch.block.map(|d| d.and_then(|v| i64::try_from(v).ok()));
        match dims {
            [Some(x), Some(y), Some(z)] if x > 0 && y > 0 && z > 0 && x * y * z <= 1024 => {
                if !launched.contains(&[x, y, z]) {
                    launched.push([x, y, z]);
                }
            }
            _ => all_constant = false,
        }
    }
    if all_constant {
        launched.truncate(3);
        return (true, launched);
    }
    let indexed = shared_index_axes(program, source, function);
    let body = text(function.body, source);
    let uses = |axis: char| body.contains(&format!("threadIdx.{axis}"));
    // with no launch giving a constant block, a block-stride loop written with a constant step
    // (`for (i = threadIdx.x; i < n; i += 32)`) states the block's width: wider blocks would
    // have threads step over each other's elements. A kernel that also reads `threadIdx.y`
    // (`sh[threadIdx.y][...]`, rows of a 2-D block handed in as a `dim3`) is tried with a few
    // rows of that width
    let constant = |written: &str| {
        crate::model::size::parse_number(written)
            .and_then(|v| i64::try_from(v).ok())
            .or_else(|| (written == "warpSize").then_some(32))
            .or_else(|| program.scope.named_constant(written))
    };
    let no_launch = facts.launches.is_empty();
    if no_launch || uses('y') || uses('z') {
        // a row of a 2-D block may be narrower than a warp (`dim3 block(16, 4)`)
        let narrowest = if uses('y') || uses('z') { 4 } else { 32 };
        if let Some(width) = stated_block_width(function, source, &constant, narrowest) {
            let rows: &[[i64; 2]] = if uses('z') {
                &[[4, 2]]
            } else if uses('y') {
                &[[8, 1], [4, 1]]
            } else {
                &[[1, 1]]
            };
            let shapes: Vec<[i64; 3]> = rows
                .iter()
                .map(|[y, z]| [width, *y, *z])
                .filter(|shape| shape.iter().product::<i64>() <= 1024)
                .collect();
            if !shapes.is_empty() {
                return (false, shapes);
            }
        }
    }
    let shapes: Vec<[i64; 3]> = if uses('z') {
        vec![[8, 8, 4], [16, 4, 2], [128, 1, 1], [4, 4, 2]]
    } else if uses('y') {
        vec![[16, 16, 1], [8, 8, 1], [128, 1, 1], [8, 4, 1]]
    } else {
        vec![[128, 1, 1], [64, 1, 1], [32, 1, 1]]
    };
    // an axis no shared index follows: threads apart only along it would touch the same
    // elements, so the kernel is written for one thread along it (`dim3 block(1, 4)`)
    let mut shapes: Vec<[i64; 3]> = shapes
        .into_iter()
        .map(|mut shape| {
            let extent: i64 = shape.iter().product();
            for (axis, size) in shape.iter_mut().enumerate() {
                if !indexed[axis] && indexed.iter().any(|a| *a) {
                    *size = 1;
                }
            }
            // keep two warps or more where the axes left allow
            let left: i64 = shape.iter().product();
            if left < extent {
                if let Some(axis) = (0..3).find(|a| indexed[*a]) {
                    shape[axis] = (shape[axis] * extent / left.max(1)).min(1024);
                }
            }
            shape
        })
        .collect();
    shapes.dedup();
    (false, shapes)
}

/// The block width the kernel's block-stride loops state (at least `narrowest`), when there is
/// at least one and all agree: loops that start at the thread's place in its block
/// (`threadIdx.x`, or a local holding it) and step by the same constant (`i += 32`, `i = i +
/// 32`, `i += WARP_SIZE` with the file's `#define WARP_SIZE 32`, `i += warpSize`).
fn stated_block_width(
    function: &Function,
    source: &str,
    constant: &dyn Fn(&str) -> Option<i64>,
    narrowest: i64,
) -> Option<i64> {
    let holds_thread = |value: Node| {
        let value = crate::syntax::strip(value, source);
        text(value, source) == "threadIdx.x"
    };
    // locals that hold the thread's place (`int tid = threadIdx.x;`)
    let mut thread_locals: Vec<&str> = Vec::new();
    walk_iterative(function.body, |node| {
        if node.node_kind() == "init_declarator" {
            if let (Some(name), Some(value)) = (
                node.field("declarator")
                    .and_then(crate::syntax::declarator_name),
                node.field("value"),
            ) {
                if holds_thread(value) {
                    thread_locals.push(text(name, source));
                }
            }
        }
        true
    });
    let starts_at_thread = |value: Node| {
        holds_thread(value) || {
            let value = crate::syntax::strip(value, source);
            value.node_kind() == "identifier" && thread_locals.contains(&text(value, source))
        }
    };
    let mut widths: Vec<i64> = Vec::new();
    let mut other_loops = false;
    walk_iterative(function.body, |node| {
        if node.node_kind() != "for_statement" {
            return true;
        }
        // `for (int i = tid; ...; i += C)`
        let start = node.field("initializer").and_then(|init| {
            let declarator = match init.node_kind() {
                "declaration" => init.field("declarator")?,
                "assignment_expression" => init,
                _ => return None,
            };
            let name = declarator
                .field("declarator")
                .or_else(|| declarator.field("left"))
                .and_then(crate::syntax::declarator_name)?;
            let value = declarator
                .field("value")
                .or_else(|| declarator.field("right"))?;
            starts_at_thread(value).then(|| text(name, source))
        });
        let Some(variable) = start else {
            return true;
        };
        let step = node.field("update").and_then(|update| {
            if update.node_kind() != "assignment_expression"
                || update
                    .field("left")
                    .is_none_or(|l| text(l, source) != variable)
            {
                return None;
            }
            let right = update.field("right")?;
            let step = match operator(update, source) {
                "+=" => right,
                "=" if right.node_kind() == "binary_expression"
                    && operator(right, source) == "+"
                    && right
                        .field("left")
                        .is_some_and(|l| text(l, source) == variable) =>
                {
                    right.field("right")?
                }
                _ => return None,
            };
            constant(text(step, source).trim())
        });
        match step {
            Some(width) if (narrowest..=1024).contains(&width) => widths.push(width),
            _ => other_loops = true,
        }
        true
    });
    let first = *widths.first()?;
    (!other_loops && widths.iter().all(|w| *w == first)).then_some(first)
}

/// Which thread axes the shared-memory indices follow, by the text of the kernel: `threadIdx.y`
/// in a subscript of a shared array (or of a pointer into one), directly or through locals
/// computed from it. A thread rank or lane id counts as every axis. The parts of nodes it reads
/// are the program's (`Program::part`), which the runs read again.
fn shared_index_axes<'s>(
    program: &Program<'_, 's>,
    source: &'s str,
    function: &Function<'s>,
) -> [bool; 3] {
    let mut definitions: Vec<(&str, &str)> = Vec::new();
    let mut shared: Vec<&str> = Vec::new();
    let mut subscripts: Vec<(&str, &str)> = Vec::new();
    walk_iterative(function.body, |node| {
        match node.node_kind() {
            "init_declarator" => {
                if let (Some(name), Some(value)) = (
                    program
                        .part(node, Part::Declarator)
                        .and_then(crate::syntax::declarator_name),
                    program.part(node, Part::Value),
                ) {
                    definitions.push((text(name, source), text(value, source)));
                }
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) = (
                    program.part(node, Part::Left),
                    program.part(node, Part::Right),
                ) {
                    if left.node_kind() == "identifier" {
                        definitions.push((text(left, source), text(right, source)));
                    }
                }
            }
            "declaration" if is_shared(node, source) => {
                if let Some(name) = named_children(node).find_map(crate::syntax::declarator_name) {
                    shared.push(text(name, source));
                }
            }
            "subscript_expression" => {
                if let (Some(base), Some(index)) = (
                    program.part(node, Part::Argument),
                    program.part(node, Part::Index),
                ) {
                    subscripts.push((text(base, source), text(index, source)));
                }
            }
            "lambda_expression" => return false,
            _ => {}
        }
        true
    });
    let words = |t: &'s str| -> Vec<&'s str> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .collect()
    };
    // each definition's words, and whether it reads a thread rank or lane id, once
    let read: Vec<(&str, Vec<&str>, bool)> = definitions
        .iter()
        .map(|(name, value)| {
            let rank = value.contains("thread_rank")
                || value.contains("laneid")
                || value.contains("lane_id");
            (*name, words(value), rank)
        })
        .collect();
    // locals that follow each axis, and pointers into shared memory
    let mut follows: [Vec<&str>; 3] = Default::default();
    let mut pointers: Vec<&str> = shared.clone();
    for _ in 0..6 {
        // a pass that adds nothing leaves the next one the same lists: none adds anything more
        let mut added = false;
        for (name, value_words, rank) in &read {
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                if !follows[axis].contains(name)
                    && (*rank
                        || value_words
                            .iter()
                            .any(|w| w == field || follows[axis].contains(w)))
                {
                    follows[axis].push(name);
                    added = true;
                }
            }
            if !pointers.contains(name) && value_words.iter().any(|w| pointers.contains(w)) {
                pointers.push(name);
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    let mut axes = [false; 3];
    for (base, index) in &subscripts {
        let base_word = base.split('[').next().unwrap_or(base).trim();
        if !pointers.contains(&base_word) {
            continue;
        }
        let index_words = words(index);
        for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
            .iter()
            .enumerate()
        {
            if index.contains("thread_rank")
                || index_words
                    .iter()
                    .any(|w| w == field || follows[axis].contains(w))
            {
                axes[axis] = true;
            }
        }
    }
    // a pointer offset by the thread (`float* row = s + ty * 17`) follows the thread too
    for (name, value_words, _) in &read {
        if pointers.contains(name) && !shared.contains(name) {
            for (axis, field) in ["threadIdx.x", "threadIdx.y", "threadIdx.z"]
                .iter()
                .enumerate()
            {
                if value_words
                    .iter()
                    .any(|w| w == field || follows[axis].contains(w))
                {
                    axes[axis] = true;
                }
            }
        }
    }
    axes
}
