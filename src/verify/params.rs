//! Launch parameters for an experiment: the host launch site's constants where they evaluate,
//! otherwise adversarial but valid choices (an element count that is not a multiple of the block).

use super::protocol::{Argument, Fill, LaunchConfig};
use crate::model::{Function, Model};
use crate::syntax::NodeExt;
use crate::syntax::{named_children, text};
use std::collections::HashMap;
use tree_sitter::Node;

/// Largest buffer an experiment allocates, in bytes.
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

/// What the kernel's parameters are, as far as synthesis goes.
#[derive(Debug, Clone, PartialEq)]
pub enum ParameterShape {
    Pointer {
        element: String,
        element_bytes: Option<u64>,
    },
    Integer {
        bytes: u8,
    },
    Float,
    Double,
    Bool,
    /// A plain-data struct passed by value, laid out field by field.
    Record(super::records::Record),
    /// Why it cannot be synthesised (`its type `X` is not a scalar, a pointer or a plain struct
    /// of this file`).
    Unsupported(String),
}

/// The shapes of `kernel`'s parameters with its template parameters bound to a launch's
/// template arguments.
fn launched_shapes(
    model: &Model,
    kernel: &Function,
    template_arguments: &[String],
) -> Vec<(String, ParameterShape)> {
    let bindings: Vec<(String, String)> = template_parameter_names(kernel)
        .into_iter()
        .zip(template_arguments.iter().cloned())
        .collect();
    parameter_shapes(model, kernel, &bindings)
}

pub fn parameter_shapes(
    model: &Model,
    function: &Function,
    bindings: &[(String, String)],
) -> Vec<(String, ParameterShape)> {
    let file_scope = Environment::of_file(model);
    function
        .parameters
        .iter()
        .map(|p| {
            let mut type_text = p
                .type_text
                .replace("const", " ")
                .replace("volatile", " ")
                .replace("__restrict__", " ");
            for (name, value) in bindings {
                if type_text.trim() == name {
                    type_text = value.clone();
                }
            }
            let type_text = type_text.split_whitespace().collect::<Vec<_>>().join(" ");
            let shape = if p.is_pointer {
                // `double f[][Y][Z]` and `double (*f)[Y][Z]` point at whole `[Y][Z]` blocks.
                let pointee_elements = pointee_array_extents(p.declaration, model.source)
                    .iter()
                    .try_fold(1u64, |product, extent| {
                        let extent = u64::try_from(file_scope.evaluate(extent)?).ok()?;
                        product.checked_mul(extent)
                    });
                ParameterShape::Pointer {
                    element_bytes: element_bytes(&type_text)
                        .zip(pointee_elements)
                        .and_then(|(bytes, count)| bytes.checked_mul(count)),
                    element: type_text,
                }
            } else {
                match scalar_shape(&type_text) {
                    ParameterShape::Unsupported(_) => {
                        match super::records::record(model, &type_text) {
                            Ok(record) => ParameterShape::Record(record),
                            Err(why) => header_shape(model, &type_text)
                                .unwrap_or(ParameterShape::Unsupported(why)),
                        }
                    }
                    shape => shape,
                }
            };
            (p.name.clone(), shape)
        })
        .collect()
}

/// The shape of a parameter type a project header the file includes defines: a type macro or
/// alias of a scalar (`#define STATE_TYPE std::uint32_t`, `typedef float real;`) or a plain
/// struct (`typedef struct Mat33 { double data[3][3]; } Mat33;`), the headers read as the
/// experiment reads them (beside the file, in `include/` folders, through the build files).
fn header_shape(model: &Model, type_text: &str) -> Option<ParameterShape> {
    let name = type_text.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let search = super::context::for_file(model.path).include_dirs;
    for (path, text) in super::extract::reachable_headers(model.path, model.source, &search) {
        if !crate::syntax::contains_identifier(&text, name) {
            continue;
        }
        let shape = super::with_header_model(&path, &text, Vec::new(), Vec::new(), |header| {
            let aliased = header
                .define(name)
                .map(str::to_string)
                .unwrap_or_else(|| header.resolve_type(name));
            let scalar = scalar_shape(aliased.trim());
            if !matches!(scalar, ParameterShape::Unsupported(_)) {
                return Some(scalar);
            }
            super::records::record(header, name)
                .ok()
                .map(ParameterShape::Record)
        })
        .flatten();
        if shape.is_some() {
            return shape;
        }
    }
    None
}

/// The array extents of what a pointer parameter points at, innermost first: `[Z, Y]` for
/// `double f[][Y][Z]` (the first extent of an array parameter is the pointer's own) and for
/// `double (*f)[Y][Z]`; none for `double* f`.
fn pointee_array_extents(declaration: Node, source: &str) -> Vec<String> {
    let mut extents = Vec::new();
    let mut node = declaration.field("declarator");
    for _ in 0..crate::syntax::MAX_DEPTH {
        let Some(current) = node else { break };
        match current.node_kind() {
            "array_declarator" => {
                extents.push(current.field("size").map(|s| text(s, source).to_string()));
                node = current.field("declarator");
            }
            "parenthesized_declarator" => node = current.named_child(0),
            "pointer_declarator" | "abstract_pointer_declarator" => {
                return extents.into_iter().map(|e| e.unwrap_or_default()).collect();
            }
            _ => {
                // The innermost array is the parameter itself, adjusted to a pointer.
                extents.pop();
                break;
            }
        }
    }
    extents.into_iter().map(|e| e.unwrap_or_default()).collect()
}

pub fn element_bytes(type_text: &str) -> Option<u64> {
    let type_text = type_text.strip_prefix("std::").unwrap_or(type_text);
    Some(match type_text {
        "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" | "bool" => 1,
        "short" | "unsigned short" | "ushort" | "int16_t" | "uint16_t" | "half" | "__half"
        | "__nv_bfloat16" => 2,
        "int" | "unsigned" | "unsigned int" | "uint" | "float" | "int32_t" | "uint32_t"
        | "char4" | "uchar4" => 4,
        "double" | "long" | "unsigned long" | "ulong" | "long long" | "unsigned long long"
        | "size_t" | "int64_t" | "uint64_t" | "float2" | "int2" => 8,
        "float4" | "int4" | "double2" | "uint4" => 16,
        "float3" | "int3" => 12,
        _ => return None,
    })
}

fn scalar_shape(type_text: &str) -> ParameterShape {
    // `std::uint32_t` is `uint32_t`.
    let type_text = type_text.strip_prefix("std::").unwrap_or(type_text);
    match type_text {
        "float" => ParameterShape::Float,
        "double" => ParameterShape::Double,
        "bool" => ParameterShape::Bool,
        "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" => {
            ParameterShape::Integer { bytes: 1 }
        }
        "short" | "unsigned short" | "ushort" | "int16_t" | "uint16_t" => {
            ParameterShape::Integer { bytes: 2 }
        }
        "int" | "unsigned" | "unsigned int" | "uint" | "int32_t" | "uint32_t" => {
            ParameterShape::Integer { bytes: 4 }
        }
        "long" | "unsigned long" | "ulong" | "long long" | "unsigned long long" | "size_t"
        | "int64_t" | "uint64_t" | "ptrdiff_t" => ParameterShape::Integer { bytes: 8 },
        other => ParameterShape::Unsupported(format!("`{other}` is not a known scalar type")),
    }
}

fn fill_for(element: &str, bytes: Option<u64>) -> Fill {
    match (element, bytes) {
        ("float", _) => Fill::F32,
        ("double", _) => Fill::F64,
        (_, Some(1)) if element != "bool" => Fill::Int1,
        (_, Some(2)) if !element.contains("half") && !element.contains("bfloat") => Fill::Int2,
        (e, Some(4)) if !e.ends_with('4') => Fill::Int4,
        (e, Some(8)) if !e.ends_with('2') => Fill::Int8,
        _ => Fill::Bytes,
    }
}

fn integer_argument(bytes: u8, value: i64) -> Argument {
    match bytes {
        1 => Argument::I8 {
            value: value.clamp(i8::MIN as i64, i8::MAX as i64) as i8,
        },
        2 => Argument::I16 {
            value: value.clamp(i16::MIN as i64, i16::MAX as i64) as i16,
        },
        4 => Argument::I32 {
            value: value.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
        },
        _ => Argument::I64 { value },
    }
}

/// The block shape and dynamic shared memory of a launch whose grid or arguments are not
/// constants (`dim3 threads(TILE, TILE)` with a grid computed from the input's size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockShape {
    pub block: [u32; 3],
    /// None when the launch's amount is not a constant.
    pub shared_bytes: Option<u32>,
}

/// The dynamic shared memory given to a kernel with an `extern __shared__` array when no launch
/// says how much: the most a launch gets without opting in. The array's own bounds are the
/// static rules' concern; the experiment only must not fault on an array given nothing.
pub const UNKNOWN_DYNAMIC_SHARED_BYTES: u32 = 48 * 1024;

/// The configurations tried when the launch site gives no constants: the element count is not a
/// multiple of the block, so the last block has threads past the end. A block shape known from a
/// launch is kept: kernels size shared arrays and loops by the block they are written for, and
/// any other block faults before the access under test.
/// The size of the smallest problem tried: fewer elements than one block has threads.
const SMALL_PROBLEM: u64 = 7;

pub fn adversarial_configs(
    shapes: &[(String, ParameterShape)],
    two_dimensional: bool,
    launched: Option<BlockShape>,
    dynamic_shared: bool,
) -> Result<Vec<LaunchConfig>, String> {
    synthesised_configs(shapes, two_dimensional, launched, dynamic_shared, None)
}

/// The adversarial configurations again, each buffer a matrix of two of the sizes (`size²`
/// elements) rather than their product, for a kernel with three sizes or more (`M`, `N`, `K`):
/// the matrices of such a kernel are `M × K`, `K × N`, `M × N`, so with every size alike each
/// holds `size²` elements, and the product of all sizes leaves room past every row a kernel
/// can run into. None for a kernel with fewer sizes (its buffers already are that product).
/// Such buffers are a guess: a witness in them counts only where an access the kernel guards
/// reached the end of its buffer and none ran past one (`KernelExperiment::matrix_configs`).
pub fn matrix_configs(
    shapes: &[(String, ParameterShape)],
    two_dimensional: bool,
    launched: Option<BlockShape>,
    dynamic_shared: bool,
) -> Vec<LaunchConfig> {
    if integer_dimensions(shapes) < 3 {
        return Vec::new();
    }
    synthesised_configs(shapes, two_dimensional, launched, dynamic_shared, Some(2))
        .unwrap_or_default()
}

/// Each integer, a parameter's or a struct field's, may be one dimension of the data.
fn integer_dimensions(shapes: &[(String, ParameterShape)]) -> usize {
    shapes
        .iter()
        .map(|(_, shape)| match shape {
            ParameterShape::Integer { .. } => 1,
            ParameterShape::Record(record) => record
                .scalars
                .iter()
                .filter(|(_, v)| matches!(v, super::records::FieldValue::Integer(_)))
                .count()
                .min(4),
            _ => 0,
        })
        .sum()
}

/// `adversarial_configs`, with each buffer holding `size` to the power `exponent` elements when
/// given, else to the number of integer dimensions.
fn synthesised_configs(
    shapes: &[(String, ParameterShape)],
    two_dimensional: bool,
    launched: Option<BlockShape>,
    dynamic_shared: bool,
    exponent: Option<u32>,
) -> Result<Vec<LaunchConfig>, String> {
    let mut plans: Vec<(u64, [u32; 3], [u32; 3])> = Vec::new();
    let unknown_shared_bytes = if dynamic_shared {
        UNKNOWN_DYNAMIC_SHARED_BYTES
    } else {
        0
    };
    let mut shared_bytes = unknown_shared_bytes;
    if let Some(shape) = launched {
        shared_bytes = shape.shared_bytes.unwrap_or(unknown_shared_bytes);
        let block = shape.block.map(|b| b.max(1));
        let threads = u64::from(block[0]) * u64::from(block[1]) * u64::from(block[2]);
        // The second count is two and a half blocks: a kernel that indexes by threadIdx alone
        // still finds a whole block of elements. The last is a problem smaller than one block,
        // where a kernel whose loops run up to a size kept in registers (`float v[8]` filled for
        // `i < iterations`) fits its own arrays.
        let sizes = if two_dimensional {
            [37, 100, SMALL_PROBLEM]
        } else {
            [1000, (threads * 5 / 2).max(2), SMALL_PROBLEM]
        };
        for size in sizes {
            let (size, grid) = if two_dimensional {
                let size = not_a_multiple(size, block[0].max(block[1]));
                let rows = size.div_ceil(u64::from(block[1]));
                (size, [size.div_ceil(u64::from(block[0])), rows, 1])
            } else {
                let size = not_a_multiple(size, block[0]);
                (size, [size.div_ceil(threads), 1, 1])
            };
            let grid = grid.map(|g| u32::try_from(g).unwrap_or(u32::MAX).max(1));
            plans.push((size, grid, block));
        }
    } else {
        if two_dimensional {
            plans.push((37, [3, 3, 1], [16, 16, 1]));
        }
        plans.push((1000, [4, 1, 1], [256, 1, 1]));
        plans.push((100, [2, 1, 1], [96, 1, 1]));
        if !two_dimensional {
            plans.push((37, [3, 3, 1], [16, 16, 1]));
        }
        plans.push((SMALL_PROBLEM, [1, 1, 1], [64, 1, 1]));
    }
    let exponent = exponent.unwrap_or(integer_dimensions(shapes).max(1) as u32);
    let mut configs = Vec::new();
    for (size, grid, block) in plans {
        let elements = size.saturating_pow(exponent);
        let mut arguments = Vec::new();
        let mut described = Vec::new();
        for (name, shape) in shapes {
            arguments.push(match shape {
                ParameterShape::Pointer {
                    element,
                    element_bytes,
                } => {
                    // Whole elements only, up to the cap.
                    let element_size = element_bytes.unwrap_or(64).clamp(1, MAX_BUFFER_BYTES);
                    let bytes = elements.min(MAX_BUFFER_BYTES / element_size) * element_size;
                    Argument::Buffer {
                        bytes,
                        fill: fill_for(element, *element_bytes),
                        initialized: true,
                    }
                }
                ParameterShape::Integer { bytes } => {
                    described.push(format!("{name} = {size}"));
                    integer_argument(*bytes, size as i64)
                }
                ParameterShape::Float => Argument::F32 { value: 1.5 },
                ParameterShape::Double => Argument::F64 { value: 1.5 },
                ParameterShape::Bool => Argument::I8 { value: 1 },
                ParameterShape::Record(record) => {
                    described.push(format!("{name} with its integer fields {size}"));
                    Argument::Bytes {
                        value: record.bytes(size as i64),
                    }
                }
                ParameterShape::Unsupported(why) => {
                    return Err(format!("parameter `{name}` cannot be synthesised: {why}"))
                }
            });
        }
        let buffers = shapes
            .iter()
            .filter(|(_, s)| matches!(s, ParameterShape::Pointer { .. }))
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>();
        if !buffers.is_empty() {
            let matrices = if exponent == 2 && integer_dimensions(shapes) > 2 {
                format!(" (each a matrix of two of the sizes, {size} × {size})")
            } else {
                String::new()
            };
            described.push(format!(
                "{} of {elements} elements{matrices}",
                buffers.join(", ")
            ));
        }
        configs.push(LaunchConfig {
            grid,
            block,
            shared_bytes,
            arguments,
            description: format!(
                "grid ({},{},{}) block ({},{},{}), {}",
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                described.join(", ")
            ),
        });
    }
    Ok(configs)
}

/// `size`, or the next count that leaves the last block partly outside it.
fn not_a_multiple(size: u64, block: u32) -> u64 {
    if block > 1 && size.is_multiple_of(u64::from(block)) {
        size + 1
    } else {
        size
    }
}

/// A launch `kernel<<<grid, block>>>(args)` in the same file.
#[derive(Debug, Clone)]
pub struct LaunchSite {
    pub line: usize,
    pub template_arguments: Vec<String>,
    pub config: Option<LaunchConfig>,
    /// The block shape when it is a constant, whatever the grid and arguments are.
    pub block_shape: Option<BlockShape>,
    /// When the launch is not all constants but its grid and block are expressions of host
    /// values it passes for the kernel's integer parameters: the launch's own shape evaluated
    /// with each such value set to one of `LAUNCH_SHAPED_COUNTS` (`shaped_configs`).
    pub shaped: Vec<LaunchConfig>,
}

/// The counts a launch-shaped configuration gives the host values a launch passes for the
/// kernel's integer parameters: primes, so that a grid rounded up to any group of them (a block
/// of threads, two items per block) is never exact and the last block has threads past the end.
pub const LAUNCH_SHAPED_COUNTS: [u64; 2] = [37, SMALL_PROBLEM];

/// Every launch of `kernel` in the file, with the configuration when every part is a constant.
/// The template arguments of a launch of `kernel` written in a function-like macro
/// (`#define LAUNCH(iterations) kernel<T, iterations><<<grid, block>>>(...)`, used as
/// `LAUNCH(1); ... LAUNCH(8);`), with each macro parameter replaced by the argument of the
/// macro's first use. Such launches are not in the syntax tree as launches: a macro's body is
/// text. An overload with another number of template parameters is not that launch's kernel.
pub fn macro_launch_template_arguments(model: &Model, kernel: &Function) -> Option<Vec<String>> {
    let source = model.source;
    let mut launch: Option<(&str, Vec<&str>, Vec<String>)> = None;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        if launch.is_some() || node.node_kind() != "preproc_function_def" {
            return launch.is_none();
        }
        let Some((name, parameters, _, body)) = crate::syntax::function_macro_parts(node, source)
        else {
            return false;
        };
        let arguments = launched_template_arguments(body, &kernel.name)
            .filter(|a| a.len() == kernel.template_parameters.len());
        if let Some(arguments) = arguments {
            launch = Some((name, parameters, arguments));
        }
        false
    });
    let (name, parameters, arguments) = launch?;
    let uses = first_use_arguments(model, name)?;
    Some(
        arguments
            .into_iter()
            .map(
                |argument| match parameters.iter().position(|p| *p == argument) {
                    Some(at) => uses.get(at).cloned().unwrap_or(argument),
                    None => argument,
                },
            )
            .collect(),
    )
}

/// `kernel<A, B><<<` in `text`: `["A", "B"]`.
fn launched_template_arguments(text: &str, kernel: &str) -> Option<Vec<String>> {
    crate::syntax::identifier_positions(text, kernel).find_map(|at| {
        let after = text[at + kernel.len()..].trim_start().strip_prefix('<')?;
        let end = after.find('>')?;
        after[end + 1..].trim_start().starts_with("<<<").then(|| {
            after[..end]
                .split(',')
                .map(|a| a.trim().to_string())
                .collect()
        })
    })
}

/// The arguments of the first use of the function-like macro `name` in the file's code.
fn first_use_arguments(model: &Model, name: &str) -> Option<Vec<String>> {
    let mut uses = None;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        if uses.is_some() {
            return false;
        }
        if node.node_kind() == "call_expression"
            && node
                .field("function")
                .is_some_and(|f| text(f, model.source) == name)
        {
            uses = Some(
                crate::syntax::call_arguments(node)
                    .into_iter()
                    .map(|a| text(a, model.source).trim().to_string())
                    .collect(),
            );
        }
        true
    });
    uses
}

pub fn launch_sites(model: &Model, kernel: &Function) -> Vec<LaunchSite> {
    let mut sites = Vec::new();
    for host in model
        .functions
        .iter()
        .filter(|f| f.kind != crate::model::FunctionKind::Kernel)
    {
        crate::syntax::walk_iterative(host.body, |node| {
            if node.node_kind() == "call_expression" {
                if let Some(site) = launch_site(model, host, kernel, node) {
                    sites.push(site);
                }
            }
            true
        });
    }
    sites
}

fn launch_site(
    model: &Model,
    host: &Function,
    kernel: &Function,
    call: Node,
) -> Option<LaunchSite> {
    let source = model.source;
    // `kernel<<<grid, block, shared>>>(args)` or HIP's
    // `hipLaunchKernelGGL(kernel, grid, block, shared, stream, args)`, read by the model.
    let form = crate::model::runtime::launch_form(call, source)?;
    // a grid and block written by one macro (`DIM(n, 256)`) are not values to run with
    let [grid, _, _, _] =
        crate::model::runtime::configuration_parts(&form.configuration, source, |name| {
            model.writes_launch_shape(name)
        });
    grid?;
    let callee = form.kernel;
    let (name, template_arguments) = match callee.node_kind() {
        "template_function" => {
            let name = callee.field("name").map(|n| text(n, source))?;
            let arguments = callee
                .field("arguments")
                .map(|a| {
                    named_children(a)
                        .map(|c| text(c, source).to_string())
                        .collect()
                })
                .unwrap_or_default();
            (name, arguments)
        }
        _ => (text(callee, source), Vec::new()),
    };
    if name.rsplit("::").next() != Some(kernel.name.as_str()) {
        return None;
    }
    let line = model.lines.line_of(call.start_byte()) + 1;
    let environment = Environment::of(model, host);
    // A value argument named by the host (`const int THREADS = 256; k<THREADS><<<...>>>`) means
    // nothing in the extracted kernel: it is bound to its value. Types and literals stay as written.
    let template_arguments: Vec<String> = template_arguments
        .into_iter()
        .map(|argument| match environment.evaluate(&argument) {
            Some(value) if argument.trim().parse::<i128>().is_err() => value.to_string(),
            _ => argument,
        })
        .collect();
    let template_arguments =
        deduce_template_arguments(model, host, kernel, &form, template_arguments);
    let config = constant_config(
        model,
        kernel,
        &form,
        &environment,
        &template_arguments,
        line,
    );
    let block_shape = block_shape(model, &form.configuration, &environment);
    let shaped = if config.is_some() {
        Vec::new()
    } else {
        shaped_configs(
            model,
            kernel,
            &form,
            &environment,
            &template_arguments,
            line,
        )
    };
    Some(LaunchSite {
        line,
        template_arguments,
        config,
        block_shape,
        shaped,
    })
}

/// The launch's own grid, block and dynamic shared memory, evaluated once the host values it
/// passes for the kernel's integer parameters are chosen
/// (`k<<<(items + 1) / 2, 2 * GROUP>>>(w, s, items)` with `items` = 37 is grid 19, block 256):
/// one configuration per count of `LAUNCH_SHAPED_COUNTS`. Each such value must be a plain name
/// of the host (a parameter or a local the file cannot evaluate); an argument that evaluates
/// keeps its value (`k<<<g, b>>>(in, out, n, 1)` passes 1). A buffer holds what the host
/// allocates for it when the allocation is visible and evaluates with the chosen values, else
/// the count to the power of the number of values chosen, as synthesis does. None when an
/// integer argument is neither, a parameter is a struct, or the shape does not evaluate.
fn shaped_configs(
    model: &Model,
    kernel: &Function,
    form: &crate::model::runtime::LaunchForm,
    environment: &Environment,
    template_arguments: &[String],
    line: usize,
) -> Vec<LaunchConfig> {
    let source = model.source;
    let parts = &form.configuration;
    let (Some(grid_part), Some(block_part)) = (parts.first(), parts.get(1)) else {
        return Vec::new();
    };
    let shapes = launched_shapes(model, kernel, template_arguments);
    let arguments: Vec<&str> = launch_arguments(form)
        .into_iter()
        .map(|a| text(a, source).trim())
        .collect();
    if arguments.len() != shapes.len() {
        return Vec::new();
    }
    let mut chosen: Vec<&str> = Vec::new();
    for ((_, shape), argument) in shapes.iter().zip(&arguments) {
        match shape {
            ParameterShape::Integer { .. } => {
                if environment.evaluate(argument).is_some() {
                    continue;
                }
                let is_name = argument.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && argument
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !is_name {
                    return Vec::new();
                }
                if !chosen.contains(argument) {
                    chosen.push(argument);
                }
            }
            ParameterShape::Record(_) | ParameterShape::Unsupported(_) => return Vec::new(),
            _ => {}
        }
    }
    if chosen.is_empty() {
        return Vec::new();
    }
    let mut configs = Vec::new();
    for count in LAUNCH_SHAPED_COUNTS {
        let bound = environment.with_values(&chosen, count);
        let (Some(grid), Some(block)) = (
            bound.dim3(text(*grid_part, source)),
            bound.dim3(text(*block_part, source)),
        ) else {
            continue;
        };
        let threads = u64::from(block[0]) * u64::from(block[1]) * u64::from(block[2]);
        if threads > 1024 {
            continue;
        }
        let shared_bytes = match parts.get(2) {
            Some(node) => match bound
                .evaluate(text(*node, source))
                .and_then(|bytes| u32::try_from(bytes).ok())
            {
                Some(bytes) => bytes,
                None => continue,
            },
            None => 0,
        };
        let elements = count.saturating_pow(chosen.len() as u32);
        let mut values = Vec::new();
        let mut described = Vec::new();
        for ((name, shape), argument) in shapes.iter().zip(&arguments) {
            values.push(match shape {
                ParameterShape::Pointer {
                    element,
                    element_bytes,
                } => {
                    let element_size = element_bytes.unwrap_or(64).clamp(1, MAX_BUFFER_BYTES);
                    let allocated = bound
                        .allocation_bytes(argument)
                        .filter(|bytes| *bytes > 0 && *bytes <= MAX_BUFFER_BYTES);
                    let bytes = allocated.unwrap_or_else(|| {
                        elements.min(MAX_BUFFER_BYTES / element_size) * element_size
                    });
                    let how = if allocated.is_some() {
                        " as allocated"
                    } else {
                        ""
                    };
                    described.push(match element_bytes {
                        Some(size) if *size > 0 && bytes.is_multiple_of(*size) => {
                            format!("{name} of {} elements{how}", bytes / size)
                        }
                        _ => format!("{name} of {bytes} bytes{how}"),
                    });
                    Argument::Buffer {
                        bytes,
                        fill: fill_for(element, *element_bytes),
                        initialized: true,
                    }
                }
                ParameterShape::Integer { bytes } => {
                    let Some(value) = bound.evaluate(argument).and_then(|v| i64::try_from(v).ok())
                    else {
                        return Vec::new();
                    };
                    described.push(format!("{name} = {value}"));
                    integer_argument(*bytes, value)
                }
                ParameterShape::Float => Argument::F32 {
                    value: bound.evaluate_float(argument).unwrap_or(1.5) as f32,
                },
                ParameterShape::Double => Argument::F64 {
                    value: bound.evaluate_float(argument).unwrap_or(1.5),
                },
                ParameterShape::Bool => Argument::I8 {
                    value: bound.evaluate(argument).map_or(1, |v| i8::from(v != 0)),
                },
                ParameterShape::Record(_) | ParameterShape::Unsupported(_) => return Vec::new(),
            });
        }
        configs.push(LaunchConfig {
            grid,
            block,
            shared_bytes,
            arguments: values,
            description: format!(
                "shaped as the launch at line {line} with {} = {count}: grid ({},{},{}) block ({},{},{}), {}",
                chosen.join(", "),
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                described.join(", ")
            ),
        });
    }
    configs
}

/// The arguments a launch passes, comments left out.
fn launch_arguments<'t>(form: &crate::model::runtime::LaunchForm<'t>) -> Vec<Node<'t>> {
    form.arguments
        .iter()
        .copied()
        .filter(|c| c.node_kind() != "comment")
        .collect()
}

/// The template arguments a launch leaves to deduction (`k<256><<<g, b>>>(payoff, ...)` with
/// `template <int N, typename Payoff> __global__ void k(Payoff payoff, ...)`): a type parameter
/// that is the type of a kernel parameter takes the declared type of the host variable passed
/// there. Deduction stops at the first parameter it cannot give.
fn deduce_template_arguments(
    model: &Model,
    host: &Function,
    kernel: &Function,
    form: &crate::model::runtime::LaunchForm,
    mut given: Vec<String>,
) -> Vec<String> {
    let source = model.source;
    let arguments = launch_arguments(form);
    for name in kernel.template_parameters.iter().skip(given.len()) {
        let position = kernel.parameters.iter().position(|p| {
            !p.is_pointer
                && p.type_text
                    .replace("const", " ")
                    .trim_end_matches('&')
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    == [name.as_str()]
        });
        let argument = position.and_then(|i| arguments.get(i).copied());
        let declared = argument
            .filter(|a| a.node_kind() == "identifier")
            .and_then(|a| variable_type(model, host, text(a, source), 0));
        match declared {
            Some(type_text) => given.push(type_text),
            None => break,
        }
    }
    given
}

/// How many function templates deep a type is followed through callers.
const MAX_DEDUCTION_DEPTH: usize = 4;

/// The type a variable of `host` holds, as a template argument deduced from it would be:
/// its declared type without `const` and `&`. When that type is a type parameter of `host`
/// itself (`template <typename Payoff> void run(const Payoff &payoff)`), it is read from the
/// first call of `host` in the file whose argument gives one (`run(PayoffPut(K))`): any call
/// is an instantiation the program makes.
fn variable_type(model: &Model, host: &Function, name: &str, depth: usize) -> Option<String> {
    let declared = declared_type(model, host, name)?;
    let bare = bare_type(&declared);
    if !host.template_parameters.contains(&bare) {
        return Some(bare);
    }
    if depth >= MAX_DEDUCTION_DEPTH {
        return None;
    }
    let position = host.parameters.iter().position(|p| p.name == name)?;
    let source = model.source;
    let mut deduced = None;
    for caller in model.functions.iter().filter(|f| f.body != host.body) {
        crate::syntax::walk_iterative(caller.body, |node| {
            if deduced.is_some() {
                return false;
            }
            if node.node_kind() != "call_expression" {
                return true;
            }
            let callee = node.field("function").map(|f| match f.node_kind() {
                "template_function" => f.field("name").map_or("", |n| text(n, source)),
                _ => text(f, source),
            });
            if callee.and_then(|c| c.rsplit("::").next()) != Some(host.name.as_str()) {
                return true;
            }
            let argument = node.field("arguments").and_then(|a| {
                named_children(a)
                    .filter(|c| c.node_kind() != "comment")
                    .nth(position)
            });
            deduced = argument.and_then(|a| expression_type(model, caller, a, depth + 1));
            true
        });
        if deduced.is_some() {
            break;
        }
    }
    deduced
}

/// The type of an argument expression, where the text says it: a variable's, or the class a
/// constructor call builds (`PayoffPut(K)`, `PayoffPut{K}`) when the file defines that class.
fn expression_type(
    model: &Model,
    function: &Function,
    expression: Node,
    depth: usize,
) -> Option<String> {
    let source = model.source;
    match expression.node_kind() {
        "identifier" => variable_type(model, function, text(expression, source), depth),
        "call_expression" | "compound_literal_expression" => {
            let class = expression
                .field("function")
                .or_else(|| expression.field("type"))
                .filter(|f| matches!(f.node_kind(), "identifier" | "type_identifier"))
                .map(|f| text(f, source))?;
            super::records::definition(model, class).map(|_| class.to_string())
        }
        _ => None,
    }
}

/// A declared type as deduction sees it: `const Payoff &` is `Payoff`.
fn bare_type(declared: &str) -> String {
    declared
        .replace('&', " ")
        .split_whitespace()
        .filter(|word| !matches!(*word, "const" | "volatile"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The type `host` declares `name` with: a parameter, or a local declared by value.
fn declared_type(model: &Model, host: &Function, name: &str) -> Option<String> {
    let source = model.source;
    if let Some(parameter) = host.parameters.iter().find(|p| p.name == name) {
        return (!parameter.is_pointer).then(|| parameter.type_text.clone());
    }
    let mut found = None;
    crate::syntax::walk_iterative(host.body, |node| {
        if found.is_some() {
            return false;
        }
        if node.node_kind() == "declaration" {
            let type_text = node.field("type").map(|t| text(t, source));
            for declarator in named_children(node) {
                let target = match declarator.node_kind() {
                    "identifier" => Some(declarator),
                    "init_declarator" => declarator
                        .field("declarator")
                        .filter(|d| d.node_kind() == "identifier"),
                    _ => None,
                };
                if target.is_some_and(|t| text(t, source) == name) {
                    found = type_text.map(str::to_string);
                }
            }
        }
        true
    });
    found.filter(|t| t != "auto")
}

fn block_shape(model: &Model, parts: &[Node], environment: &Environment) -> Option<BlockShape> {
    let block = environment.dim3(text(*parts.get(1)?, model.source))?;
    let shared_bytes = match parts.get(2) {
        Some(node) => environment
            .evaluate(text(*node, model.source))
            .and_then(|bytes| u32::try_from(bytes).ok()),
        None => Some(0),
    };
    Some(BlockShape {
        block,
        shared_bytes,
    })
}

fn constant_config(
    model: &Model,
    kernel: &Function,
    form: &crate::model::runtime::LaunchForm,
    environment: &Environment,
    template_arguments: &[String],
    line: usize,
) -> Option<LaunchConfig> {
    let source = model.source;
    let parts = &form.configuration;
    let grid = environment.dim3(text(*parts.first()?, source))?;
    let block = environment.dim3(text(*parts.get(1)?, source))?;
    let shared_bytes = match parts.get(2) {
        Some(node) => u32::try_from(environment.evaluate(text(*node, source))?).ok()?,
        None => 0,
    };
    let shapes = launched_shapes(model, kernel, template_arguments);
    let arguments = launch_arguments(form);
    if arguments.len() != shapes.len() {
        return None;
    }
    let mut values = Vec::new();
    let mut described = Vec::new();
    for ((name, shape), argument) in shapes.iter().zip(arguments) {
        let argument_text = text(argument, source);
        values.push(match shape {
            ParameterShape::Pointer {
                element,
                element_bytes,
            } => {
                let bytes = environment.allocation_bytes(argument_text)?;
                if bytes > MAX_BUFFER_BYTES {
                    return None;
                }
                if let Some(size) = element_bytes {
                    described.push(format!("{name} of {} elements", bytes / size));
                }
                Argument::Buffer {
                    bytes,
                    fill: fill_for(element, *element_bytes),
                    initialized: true,
                }
            }
            ParameterShape::Integer { bytes } => {
                let value = environment.evaluate(argument_text)?;
                described.push(format!("{name} = {value}"));
                integer_argument(*bytes, i64::try_from(value).ok()?)
            }
            ParameterShape::Float => Argument::F32 {
                value: environment.evaluate_float(argument_text)? as f32,
            },
            ParameterShape::Double => Argument::F64 {
                value: environment.evaluate_float(argument_text)?,
            },
            ParameterShape::Bool => Argument::I8 {
                value: i8::from(environment.evaluate(argument_text)? != 0),
            },
            // The host's value of a struct is not evaluated.
            ParameterShape::Record(_) | ParameterShape::Unsupported(_) => return None,
        });
    }
    Some(LaunchConfig {
        grid,
        block,
        shared_bytes,
        arguments: values,
        description: format!(
            "as launched at line {line}: grid ({},{},{}) block ({},{},{}), {}",
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            described.join(", ")
        ),
    })
}

pub fn template_parameter_names(function: &Function) -> Vec<String> {
    function.template_parameters.clone()
}

/// Names visible at a launch: the host function's declarations, the file's constants, `#define`s.
#[derive(Clone)]
pub struct Environment {
    values: HashMap<String, String>,
    dims: HashMap<String, Vec<String>>,
    allocations: HashMap<String, String>,
}

const MAX_EVALUATION_DEPTH: usize = 24;

impl Environment {
    /// The file's `#define`s and constants.
    pub fn of_file(model: &Model) -> Environment {
        Self::visible(model, None)
    }

    pub fn of(model: &Model, host: &Function) -> Environment {
        Self::visible(model, Some(host))
    }

    fn visible(model: &Model, host: Option<&Function>) -> Environment {
        let source = model.source;
        let mut environment = Environment {
            values: HashMap::new(),
            dims: HashMap::new(),
            allocations: HashMap::new(),
        };
        for (name, value) in &model.view.defines {
            environment.values.insert(name.clone(), value.clone());
        }
        let mut scopes = vec![model.tree.root_node()];
        scopes.extend(host.map(|host| host.body));
        for scope in scopes {
            let is_root = scope == model.tree.root_node();
            crate::syntax::walk_iterative(scope, |node| {
                match node.node_kind() {
                    "function_definition" if is_root => return false,
                    "declaration" => {
                        let type_text = node.field("type").map(|t| text(t, source)).unwrap_or("");
                        for declarator in named_children(node) {
                            // `dim3 threads(TILE, TILE);` parses as a function declaration.
                            if type_text == "dim3"
                                && declarator.node_kind() == "function_declarator"
                            {
                                if let (Some(name), Some(parameters)) = (
                                    declarator.field("declarator"),
                                    declarator.field("parameters"),
                                ) {
                                    let inner = text(parameters, source)
                                        .trim_start_matches('(')
                                        .trim_end_matches(')');
                                    environment.dims.insert(
                                        text(name, source).to_string(),
                                        crate::syntax::split_arguments(inner),
                                    );
                                }
                                continue;
                            }
                            if declarator.node_kind() != "init_declarator" {
                                continue;
                            }
                            let (Some(target), Some(value)) =
                                (declarator.field("declarator"), declarator.field("value"))
                            else {
                                continue;
                            };
                            let name = text(target, source)
                                .trim_start_matches('*')
                                .trim()
                                .to_string();
                            if type_text == "dim3" {
                                let inner = text(value, source)
                                    .trim()
                                    .trim_start_matches("dim3")
                                    .trim()
                                    .trim_start_matches(['(', '{'])
                                    .trim_end_matches([')', '}']);
                                environment
                                    .dims
                                    .insert(name, crate::syntax::split_arguments(inner));
                            } else if value.node_kind() != "initializer_list"
                                && value.node_kind() != "argument_list"
                            {
                                environment
                                    .values
                                    .insert(name, text(value, source).to_string());
                            } else if value.named_child_count() == 1 {
                                if let Some(inner) = value.named_child(0) {
                                    environment
                                        .values
                                        .insert(name, text(inner, source).to_string());
                                }
                            }
                        }
                    }
                    "call_expression" => {
                        let callee = node
                            .field("function")
                            .map(|f| text(f, source))
                            .unwrap_or("");
                        // `hipMalloc` reads as its CUDA twin.
                        let callee = crate::model::runtime::cuda_name(callee);
                        if matches!(
                            callee.as_ref(),
                            "cudaMalloc" | "cudaMallocManaged" | "cudaMallocAsync"
                        ) {
                            if let Some(arguments) = node.field("arguments") {
                                let parts: Vec<Node> = named_children(arguments).collect();
                                if let (Some(target), Some(size)) = (parts.first(), parts.get(1)) {
                                    let target_text = text(*target, source);
                                    if let Some(position) = target_text.rfind('&') {
                                        let name = target_text[position + 1..]
                                            .trim()
                                            .trim_end_matches(')')
                                            .trim()
                                            .to_string();
                                        environment
                                            .allocations
                                            .insert(name, text(*size, source).to_string());
                                    }
                                }
                            }
                        }
                    }
                    _ => {}
                }
                true
            });
        }
        environment
    }

    /// This environment with each of `names` holding `value` (a host value chosen for a launch).
    pub fn with_values(&self, names: &[&str], value: u64) -> Environment {
        let mut bound = self.clone();
        for name in names {
            bound.values.insert((*name).to_string(), value.to_string());
        }
        bound
    }

    pub fn allocation_bytes(&self, pointer: &str) -> Option<u64> {
        let size = self.allocations.get(pointer.trim())?;
        u64::try_from(self.evaluate(size)?).ok()
    }

    fn dim3(&self, expression: &str) -> Option<[u32; 3]> {
        let expression = expression.trim();
        let parts = if let Some(parts) = self.dims.get(expression) {
            parts.clone()
        } else if let Some(inner) = expression.strip_prefix("dim3") {
            crate::syntax::split_arguments(
                inner
                    .trim()
                    .trim_start_matches(['(', '{'])
                    .trim_end_matches([')', '}']),
            )
        } else {
            vec![expression.to_string()]
        };
        let mut dims = [1u32; 3];
        for (slot, part) in dims.iter_mut().zip(parts.iter()) {
            *slot = u32::try_from(self.evaluate(part)?)
                .ok()
                .filter(|v| *v > 0)?;
        }
        Some(dims)
    }

    pub fn evaluate(&self, expression: &str) -> Option<i128> {
        let tokens = tokenize(expression)?;
        let mut parser = Evaluator {
            tokens: &tokens,
            position: 0,
            environment: self,
            depth: 0,
        };
        let value = parser.expression(0)?;
        (parser.position == tokens.len()).then_some(value)
    }

    fn evaluate_float(&self, expression: &str) -> Option<f64> {
        let trimmed = expression.trim().trim_end_matches(['f', 'F']);
        trimmed
            .parse::<f64>()
            .ok()
            .or_else(|| self.evaluate(expression).map(|v| v as f64))
            .or_else(|| {
                let value = self.values.get(expression.trim())?;
                value
                    .trim()
                    .trim_end_matches(['f', 'F'])
                    .parse::<f64>()
                    .ok()
            })
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(i128),
    Name(String),
    Symbol(&'static str),
}

fn tokenize(text: &str) -> Option<Vec<Token>> {
    const SYMBOLS: &[&str] = &[
        "<<", ">>", "(", ")", "+", "-", "*", "/", "%", "<", ">", ",", "::",
    ];
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'\'') {
                i += 1;
            }
            let literal: String = text[start..i].chars().filter(|c| *c != '\'').collect();
            let digits = literal.trim_end_matches(['u', 'U', 'l', 'L']);
            let value = if let Some(hex) = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                i128::from_str_radix(hex, 16).ok()?
            } else {
                digits.parse::<i128>().ok()?
            };
            tokens.push(Token::Number(value));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token::Name(text[start..i].to_string()));
        } else {
            let symbol = SYMBOLS.iter().find(|s| text[i..].starts_with(**s))?;
            tokens.push(Token::Symbol(symbol));
            i += symbol.len();
        }
    }
    Some(tokens)
}

struct Evaluator<'a> {
    tokens: &'a [Token],
    position: usize,
    environment: &'a Environment,
    depth: usize,
}

impl Evaluator<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position)
    }

    fn eat(&mut self, symbol: &str) -> bool {
        if matches!(self.peek(), Some(Token::Symbol(s)) if *s == symbol) {
            self.position += 1;
            true
        } else {
            false
        }
    }

    fn expression(&mut self, min_precedence: u8) -> Option<i128> {
        let mut left = self.unary()?;
        while let Some(Token::Symbol(op)) = self.peek().cloned() {
            let precedence = match op {
                "*" | "/" | "%" => 3,
                "+" | "-" => 2,
                "<<" | ">>" => 1,
                _ => break,
            };
            if precedence < min_precedence.max(1) {
                break;
            }
            self.position += 1;
            let right = self.expression(precedence + 1)?;
            left = match op {
                "*" => left.checked_mul(right)?,
                "/" => left.checked_div(right)?,
                "%" => left.checked_rem(right)?,
                "+" => left.checked_add(right)?,
                "-" => left.checked_sub(right)?,
                "<<" => left.checked_shl(u32::try_from(right).ok()?)?,
                ">>" => left.checked_shr(u32::try_from(right).ok()?)?,
                _ => return None,
            };
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<i128> {
        if self.eat("-") {
            return self.unary()?.checked_neg();
        }
        if self.eat("+") {
            return self.unary();
        }
        match self.peek().cloned()? {
            Token::Number(value) => {
                self.position += 1;
                Some(value)
            }
            Token::Symbol("(") => {
                self.position += 1;
                // A cast to an integer type: `(size_t)n`, `(int)(x)`.
                if let (Some(Token::Name(name)), Some(Token::Symbol(")"))) = (
                    self.tokens.get(self.position),
                    self.tokens.get(self.position + 1),
                ) {
                    if scalar_shape(name).is_integer() {
                        self.position += 2;
                        return self.unary();
                    }
                }
                let value = self.expression(0)?;
                self.eat(")").then_some(value)
            }
            Token::Name(name) => {
                self.position += 1;
                match name.as_str() {
                    "sizeof" => {
                        if !self.eat("(") {
                            return None;
                        }
                        let mut words = Vec::new();
                        while let Some(Token::Name(word)) = self.peek().cloned() {
                            words.push(word);
                            self.position += 1;
                        }
                        if !self.eat(")") {
                            return None;
                        }
                        element_bytes(&words.join(" ")).map(i128::from)
                    }
                    "static_cast" => {
                        // static_cast<T>(e): the type is skipped up to the closing `>`.
                        if !self.eat("<") {
                            return None;
                        }
                        while !self.eat(">") {
                            self.position += 1;
                            if self.position >= self.tokens.len() {
                                return None;
                            }
                        }
                        self.unary()
                    }
                    _ => {
                        let definition = self.environment.values.get(&name)?;
                        if self.depth >= MAX_EVALUATION_DEPTH {
                            return None;
                        }
                        let tokens = tokenize(definition)?;
                        let mut inner = Evaluator {
                            tokens: &tokens,
                            position: 0,
                            environment: self.environment,
                            depth: self.depth + 1,
                        };
                        let value = inner.expression(0)?;
                        (inner.position == tokens.len()).then_some(value)
                    }
                }
            }
            Token::Symbol(_) => None,
        }
    }
}

impl ParameterShape {
    fn is_integer(&self) -> bool {
        matches!(self, ParameterShape::Integer { .. })
    }
}
