//! Thread indices computed in 32-bit arithmetic and compared with a 64-bit element count.
//!
//! `blockIdx.x`, `blockDim.x`, `threadIdx.x` and `gridDim.x` are `unsigned int`, so
//! `blockIdx.x * blockDim.x` is multiplied in 32 bits whatever it is stored into: stored into an
//! `int` it overflows past 2^31 threads, and even stored into a `size_t` the product has
//! already wrapped past 2^32. Only the `x` axis can get there (`gridDim.y` and `gridDim.z` are at
//! most 65,535, times at most 1,024 threads). The product is 64-bit when one of its operands is
//! (`(size_t)blockIdx.x * blockDim.x`, a `size_t` local holding `blockIdx.x`).
//!
//! A count that is one extent of a larger array (`row * width + col`, `row += width`) bounds a
//! coordinate, not a flat index, and a kernel whose every launch bounds its grid (`<<<64, 256>>>`,
//! the occupancy API's grid) never has the threads that would wrap; neither is reported.

use super::*;

/// A thread index that wraps before it reaches the element count it is compared with.
#[derive(Debug, Clone)]
pub struct NarrowIndex<'t> {
    /// The index variable's declarator.
    pub declaration: Node<'t>,
    pub name: String,
    /// Its declared type (`int`, `size_t`).
    pub type_text: String,
    /// The 32-bit product or step: `blockIdx.x * blockDim.x`, `blockDim.x * gridDim.x`.
    pub product: Node<'t>,
    /// The comparison with the count.
    pub comparison: Node<'t>,
    /// The 64-bit parameter compared with, and its type.
    pub count: String,
    pub count_type: String,
    /// The variable itself is 32 bits wide (else: 64 bits, with a 32-bit product).
    pub narrow_variable: bool,
    /// The index advances by a grid stride (`i += blockDim.x * gridDim.x`).
    pub grid_stride: bool,
}

/// How wide an integer type is: 32 or 64 bits, None when not a plain integer type.
pub fn integer_width(type_text: &str) -> Option<u32> {
    let t: String = type_text
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "constexpr" | "static" | "register" | "volatile"
            )
        })
        .collect::<Vec<_>>()
        .concat()
        .replace("std::", "");
    match t.trim_start_matches("::") {
        "int" | "unsigned" | "unsignedint" | "signed" | "signedint" | "int32_t" | "uint32_t"
        | "uint" | "int32" | "uint32" => Some(32),
        "size_t"
        | "ssize_t"
        | "int64_t"
        | "uint64_t"
        | "long"
        | "longint"
        | "unsignedlong"
        | "unsignedlongint"
        | "longlong"
        | "longlongint"
        | "unsignedlonglong"
        | "unsignedlonglongint"
        | "ptrdiff_t"
        | "intptr_t"
        | "uintptr_t"
        | "int64"
        | "uint64" => Some(64),
        _ => None,
    }
}

impl<'a, 't> Analyzer<'a, 't> {
    /// Every local thread index compared with a 64-bit count parameter while it is computed in 32
    /// bits (one per variable, at its first such comparison).
    pub(super) fn find_narrow_indices(&mut self) {
        let counts: Vec<(String, String)> = self
            .function
            .parameters
            .iter()
            .filter(|p| !p.is_pointer && !p.is_tensor_accessor())
            .filter(|p| !self.definitions.contains_key(&p.name))
            .filter_map(|p| {
                let resolved = self.resolved_type(&p.type_text);
                (integer_width(&resolved) == Some(64))
                    .then(|| (p.name.clone(), p.type_text.clone()))
            })
            .collect();
        if counts.is_empty() {
            return;
        }
        // a count that is one extent of a larger array (`row * width + col`, `row += width`)
        // bounds a coordinate, far from 2^31 in any array that fits
        let source = self.source;
        let counts: Vec<(String, String)> = counts
            .into_iter()
            .filter(|(count, _)| !self.is_extent(count))
            .collect();
        if counts.is_empty() {
            return;
        }
        let mut found: Vec<NarrowIndex<'t>> = Vec::new();
        syntax::walk_iterative(self.function.body, |node| {
            if node.node_kind() == "lambda_expression" {
                return false;
            }
            if node.node_kind() != "binary_expression"
                || !matches!(operator(node, source), "<" | "<=" | ">" | ">=")
            {
                return true;
            }
            let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                return true;
            };
            for (index, other) in [(left, right), (right, left)] {
                let index = strip(index, source);
                if index.node_kind() != "identifier" {
                    continue;
                }
                let name = self.text(index);
                if found.iter().any(|f| f.name == name) {
                    continue;
                }
                let Some((count, count_type)) = counts
                    .iter()
                    .find(|(count, _)| mentions(other, count, source))
                else {
                    continue;
                };
                if let Some(narrow) = self.narrow_index(name, node, count, count_type) {
                    found.push(narrow);
                }
            }
            true
        });
        self.out.narrow_indices = found;
    }

    /// Whether the parameter `count` is one extent of a multi-dimensional array rather than the
    /// number of its elements: it multiplies a value that is not a constant (`y * width`,
    /// `(c * H + y) * W`), or it is the stride by which a pointer walks the array in a loop
    /// (`row += width`, `p = p + width`, `p -= 2 * width`), stepping from one row to the next.
    fn is_extent(&self, count: &str) -> bool {
        self.scales_another_value(count) || self.steps_a_pointer(count)
    }

    /// Whether the parameter `count` multiplies a value that is not a constant somewhere in the
    /// body (`y * width`, `(c * H + y) * W`).
    fn scales_another_value(&self, count: &str) -> bool {
        let mut scales = false;
        syntax::walk_iterative(self.function.body, |node| {
            if scales {
                return false;
            }
            if node.node_kind() == "binary_expression" && operator(node, self.source) == "*" {
                let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                    return true;
                };
                for (side, other) in [(left, right), (right, left)] {
                    let side = strip(side, self.source);
                    if side.node_kind() == "identifier"
                        && self.text(side) == count
                        && self.constant_value(other, 0).is_none()
                        && !matches!(strip(other, self.source).node_kind(), "sizeof_expression")
                    {
                        scales = true;
                    }
                }
            }
            true
        });
        scales
    }

    /// Whether the parameter `count` is the step of a pointer advanced in a loop: `p += count`,
    /// `p -= count`, `p = p + count` (through casts: `p = (T*)((char*)p + count)`), the step
    /// possibly scaled (`p += count * k`). Added once (`x += n` to reach a second array) it is
    /// an offset, not a stride, and says nothing of the array's shape.
    fn steps_a_pointer(&self, count: &str) -> bool {
        let source = self.source;
        let is_step = |step: Node<'t>| {
            let step = strip(step, source);
            match step.node_kind() {
                "identifier" => self.text(step) == count,
                "binary_expression" if operator(step, source) == "*" => {
                    [step.field("left"), step.field("right")]
                        .into_iter()
                        .flatten()
                        .any(|side| {
                            let side = strip(side, source);
                            side.node_kind() == "identifier" && self.text(side) == count
                        })
                }
                _ => false,
            }
        };
        let mut steps = false;
        syntax::walk_iterative(self.function.body, |node| {
            if steps {
                return false;
            }
            if node.node_kind() == "lambda_expression" {
                return false;
            }
            if node.node_kind() != "assignment_expression" {
                return true;
            }
            let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
                return true;
            };
            let left = strip(left, source);
            if left.node_kind() != "identifier" || !self.is_pointer_variable(self.text(left)) {
                return true;
            }
            let pointer = self.text(left);
            steps = match operator(node, source) {
                "+=" | "-=" => is_step(right),
                "=" => {
                    let right = strip(right, source);
                    right.node_kind() == "binary_expression"
                        && matches!(operator(right, source), "+" | "-")
                        && match (right.field("left"), right.field("right")) {
                            (Some(a), Some(b)) => {
                                let is_pointer = |side: Node<'t>| {
                                    let side = strip(side, source);
                                    side.node_kind() == "identifier" && self.text(side) == pointer
                                };
                                (is_pointer(a) && is_step(b))
                                    || (is_pointer(b)
                                        && operator(right, source) == "+"
                                        && is_step(a))
                            }
                            _ => false,
                        }
                }
                _ => false,
            } && thread_values::in_loop(node);
            true
        });
        steps
    }

    /// Whether `name` is a pointer: a pointer parameter or a local declared as one.
    fn is_pointer_variable(&self, name: &str) -> bool {
        if let Some(parameter) = self.function.parameter(name) {
            return parameter.is_pointer;
        }
        self.declarations.get(name).is_some_and(|declarator| {
            let target = if declarator.node_kind() == "init_declarator" {
                declarator.field("declarator")
            } else {
                Some(*declarator)
            };
            target.is_some_and(|t| {
                t.node_kind() != "array_declarator" && syntax::declarator_is_pointer(t)
            })
        })
    }

    /// `name` as a thread index that wraps: its declaration, the 32-bit product, and how.
    fn narrow_index(
        &self,
        name: &str,
        comparison: Node<'t>,
        count: &str,
        count_type: &str,
    ) -> Option<NarrowIndex<'t>> {
        if self.function.parameter(name).is_some() {
            return None;
        }
        let declaration = *self.declarations.get(name)?;
        let type_node = declaration
            .up()
            .filter(|d| d.node_kind() == "declaration")?
            .field("type")?;
        let type_text = self.text(type_node).to_string();
        let values = self.definitions.get(name)?;
        let mut start_product: Option<(Node<'t>, bool)> = None;
        let mut stride_product: Option<Node<'t>> = None;
        for value in values {
            let compound = value.up().is_some_and(|a| {
                a.node_kind() == "assignment_expression"
                    && a.field("right") == Some(*value)
                    && operator(a, self.source) != "="
            });
            if compound {
                if let Some((product, _)) = self.product_with(*value, "gridDim", 0) {
                    stride_product = stride_product.or(Some(product));
                }
            } else if let Some(found) = self.product_with(*value, "blockIdx", 0) {
                start_product = start_product.or(Some(found));
            }
        }
        let declared = if type_text.split_whitespace().any(|w| w == "auto") {
            start_product.map(|(_, wide)| if wide { 64 } else { 32 })
        } else {
            integer_width(&self.resolved_type(&type_text))
        }?;
        let (product, narrow_variable, grid_stride) =
            match (declared, start_product, stride_product) {
                (32, Some((product, _)), stride) => (product, true, stride.is_some()),
                (32, None, Some(stride)) => (stride, true, true),
                (64, Some((product, false)), stride) => (product, false, stride.is_some()),
                _ => return None,
            };
        // launches of a constant size no larger than what the index holds: a thread's index
        // stays below the launch's thread count, and only a 32-bit variable stepped through the
        // grid can still count past it
        let holds: i128 = if narrow_variable
            && !is_unsigned(&type_text)
            && !is_unsigned(&self.resolved_type(&type_text))
        {
            1 << 31
        } else {
            1 << 32
        };
        if !(narrow_variable && grid_stride)
            && self
                .out
                .launched_threads_x()
                .is_some_and(|threads| threads <= holds)
        {
            return None;
        }
        Some(NarrowIndex {
            declaration,
            name: name.to_string(),
            type_text,
            product,
            comparison,
            count: count.to_string(),
            count_type: count_type.to_string(),
            narrow_variable,
            grid_stride,
        })
    }

    /// The first product in `value` of an `x`-axis `object` (`blockIdx.x`, `gridDim.x`, through
    /// a local defined as one) with something else, and whether it is multiplied in 64 bits.
    fn product_with(
        &self,
        value: Node<'t>,
        object: &str,
        depth: usize,
    ) -> Option<(Node<'t>, bool)> {
        if depth > 4 {
            return None;
        }
        let mut found = None;
        syntax::walk_iterative(value, |node| {
            if found.is_some() {
                return false;
            }
            match node.node_kind() {
                "binary_expression" if operator(node, self.source) == "*" => {
                    let (Some(left), Some(right)) = (node.field("left"), node.field("right"))
                    else {
                        return true;
                    };
                    if self.is_axis_x(left, object, 0) || self.is_axis_x(right, object, 0) {
                        found = Some((node, self.width(left) == 64 || self.width(right) == 64));
                        return false;
                    }
                    true
                }
                // `i += stride` with `int stride = blockDim.x * gridDim.x;`
                "identifier" if depth < 4 && node == strip(value, self.source) => {
                    let name = self.text(node);
                    if let Some([definition]) = self.definitions.get(name).map(Vec::as_slice) {
                        found = self.product_with(*definition, object, depth + 1);
                    }
                    false
                }
                _ => true,
            }
        });
        found
    }

    /// `blockIdx.x` (for `object` `blockIdx`), or a local defined once as it.
    fn is_axis_x(&self, node: Node<'t>, object: &str, depth: usize) -> bool {
        let node = strip(node, self.source);
        match node.node_kind() {
            "field_expression" => {
                node.field("argument")
                    .is_some_and(|a| self.text(a) == object)
                    && node.field("field").is_some_and(|f| self.text(f) == "x")
            }
            "identifier" if depth < 4 && !self.updated.contains(self.text(node)) => {
                match self.definitions.get(self.text(node)).map(Vec::as_slice) {
                    Some([value]) => self.is_axis_x(*value, object, depth + 1),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The width an operand is computed in: 64 for a cast to a 64-bit type, a 64-bit local or
    /// parameter, a `long` literal, a product or sum with such a part; 32 otherwise.
    fn width(&self, node: Node<'t>) -> u32 {
        let mut wide = false;
        syntax::walk_iterative(node, |part| {
            if wide {
                return false;
            }
            match part.node_kind() {
                "cast_expression" => {
                    let type_text = part.field("type").map(|t| self.text(t)).unwrap_or("");
                    wide = integer_width(&self.resolved_type(type_text)) == Some(64);
                    !wide
                }
                "call_expression" => {
                    let function = part.field("function").map(|f| self.text(f)).unwrap_or("");
                    let target = function
                        .strip_prefix("static_cast<")
                        .and_then(|t| t.strip_suffix('>'))
                        .unwrap_or(function);
                    wide = integer_width(&self.resolved_type(target)) == Some(64);
                    // an opaque call may return anything: no claim that it is narrow
                    wide |= !crate::syntax::is_functional_cast(part, self.source)
                        && !function.starts_with("static_cast");
                    !wide
                }
                "number_literal" => {
                    wide = self.text(part).to_ascii_lowercase().contains('l');
                    false
                }
                "identifier" => {
                    let name = self.text(part);
                    let type_text = match self.function.parameter(name) {
                        Some(parameter) => Some(parameter.type_text.clone()),
                        None => self
                            .declarations
                            .get(name)
                            .and_then(|d| d.up())
                            .filter(|d| d.node_kind() == "declaration")
                            .and_then(|d| d.field("type"))
                            .map(|t| self.text(t).to_string()),
                    };
                    wide = type_text
                        .is_some_and(|t| integer_width(&self.resolved_type(&t)) == Some(64));
                    false
                }
                _ => true,
            }
        });
        if wide {
            64
        } else {
            32
        }
    }

    /// A type after the file's typedefs and aliases.
    fn resolved_type(&self, type_text: &str) -> String {
        match self.model {
            Some(model) => model.resolve_type(type_text),
            None => type_text.to_string(),
        }
    }
}

/// Whether a 32-bit type is unsigned (`auto` holds the `unsigned int` product).
fn is_unsigned(type_text: &str) -> bool {
    type_text.contains("unsigned") || type_text.contains("uint") || type_text.contains("auto")
}

/// Whether `node` reads the name `name`.
fn mentions(node: Node, name: &str, source: &str) -> bool {
    let mut found = false;
    syntax::walk_iterative(node, |part| {
        if part.node_kind() == "identifier" && text(part, source) == name {
            found = true;
        }
        !found
    });
    found
}

#[cfg(test)]
mod tests {
    /// The narrow indices of the kernel in `source`: (variable, 32-bit variable, grid stride).
    fn narrow(source: &str) -> Vec<(String, bool, bool)> {
        crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            model
                .kernel_facts()
                .flat_map(|(_, facts)| facts.narrow_indices.iter())
                .map(|n| (n.name.clone(), n.narrow_variable, n.grid_stride))
                .collect()
        })
        .unwrap_or_default()
    }

    /// Whether each of `names` is one extent of an array in the (first) kernel of `source`.
    fn extents(source: &str, names: &[&str]) -> Vec<bool> {
        crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            let (function, _) = model.kernel_facts().next()?;
            let mut analyzer =
                super::Analyzer::new(model.source, function, &model.device_functions);
            analyzer.model = Some(model);
            analyzer.collect_definitions();
            Some(names.iter().map(|n| analyzer.is_extent(n)).collect())
        })
        .flatten()
        .unwrap_or_default()
    }

    #[test]
    fn extents_scale_a_value_or_step_a_pointer_through_rows() {
        // a row width scaling the row
        assert_eq!(
            extents("__global__ void k(float* x, size_t rows, size_t cols) { size_t r = blockIdx.y; x[r * cols] = 0; }", &["cols", "rows"]),
            [true, false]
        );
        // rows walked by the width: compound, plain and scaled steps, forwards and back
        for step in [
            "p += w;",
            "p -= w;",
            "p = p + w;",
            "p = w + p;",
            "p = p - w;",
            "p += 2 * w;",
            "p += w * k;",
            "p = (float*)((char*)p + w);",
        ] {
            let source = format!("__global__ void k(float* x, size_t w, size_t h, int k) {{ float* p = x + threadIdx.x; for (size_t y = 0; y < h; ++y) {{ *p = 0; {step} }} }}");
            assert_eq!(extents(&source, &["w", "h"]), [true, false], "{step}");
        }
        // a pointer parameter stepped in a `while` loop, and in a `for` header
        assert_eq!(
            extents("__global__ void k(const float* in, float* out, size_t width, size_t height) { size_t y = 0; while (y < height) { *out = *in; in += width; out += width; ++y; } }", &["width", "height"]),
            [true, false]
        );
        assert_eq!(
            extents("__global__ void k(float* col, size_t pitch, int h) { for (int y = 0; y < h; ++y, col += pitch) *col = 0; }", &["pitch"]),
            [true]
        );
    }

    #[test]
    fn counts_that_are_not_extents() {
        for (source, name) in [
            // added once: an offset to a second array, not a stride between rows
            ("__global__ void k(float* x, size_t n) { x += n; int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }", "n"),
            // an end pointer
            ("__global__ void k(float* x, size_t n) { float* end = x + n; for (float* p = x; p < end; ++p) *p = 0; }", "n"),
            // an integer, not a pointer, stepped by the count
            ("__global__ void k(float* x, size_t n) { size_t s = 0; for (int j = 0; j < 4; ++j) s += n; x[0] = s; }", "n"),
            // an element stepped, not the pointer
            ("__global__ void k(float* x, size_t n) { for (int j = 0; j < 4; ++j) x[j] += n; }", "n"),
            // a flat array walked in quarters: the step is a part of the count, not the count
            ("__global__ void k(float* x, size_t n) { for (int j = 0; j < 4; ++j) { *x = 0; x += n / 4; } }", "n"),
            // the count scaled by a constant only
            ("__global__ void k(float* x, size_t n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[2 * n - 1 - i] = 0; }", "n"),
        ] {
            assert_eq!(extents(source, &[name]), [false], "{source}");
        }
    }

    #[test]
    fn indices_that_wrap_before_a_64_bit_count() {
        assert_eq!(
            narrow("__global__ void k(float* x, size_t n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }"),
            [("i".to_string(), true, false)]
        );
        assert_eq!(
            narrow("__global__ void k(float* x, int64_t n) { size_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }"),
            [("i".to_string(), false, false)]
        );
        assert_eq!(
            narrow("__global__ void k(float* x, long long n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0; }"),
            [("i".to_string(), true, true)]
        );
        // a flat count that offsets a pointer once is still the number of elements
        assert_eq!(
            narrow("__global__ void k(float* x, size_t n) { x += n; int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }"),
            [("i".to_string(), true, false)]
        );
        // the variable truncates what a 64-bit product gave
        assert_eq!(
            narrow("__global__ void k(float* x, size_t n) { unsigned i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; x[i] = 0; }"),
            [("i".to_string(), true, false)]
        );
    }

    #[test]
    fn launches_that_bound_the_grid_bound_the_index() {
        let kernel = "__global__ void k(float* x, size_t n) { size_t i = blockIdx.x * blockDim.x + threadIdx.x; for (; i < n; i += blockDim.x * gridDim.x) x[i] = 0; }";
        let narrow_int = "__global__ void k(float* x, size_t n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }";
        let int_stride = "__global__ void k(float* x, size_t n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = 0; }";
        for (kernel, host, wraps) in [
            // a fixed grid: the product stays below 64 * 256
            (kernel, "void run(float* x, size_t n) { k<<<64, 256>>>(x, n); }", false),
            (kernel, "#define BLOCKS 4096\nvoid run(float* x, size_t n) { dim3 grid(BLOCKS); k<<<grid, 256>>>(x, n); }", false),
            (kernel, "void run(float* x, size_t n) { const int blocks = 128; const int threads = 512; k<<<blocks, threads>>>(x, n); }", false),
            // a grid clamped, or sized by the occupancy API for the device
            (kernel, "void run(float* x, size_t n) { int blocks = (n + 255) / 256; if (blocks > 192) blocks = 192; k<<<blocks, 256>>>(x, n); }", false),
            (kernel, "void run(float* x, size_t n) { k<<<min((n + 255) / 256, (size_t)4096), 256>>>(x, n); }", false),
            (kernel, "void run(float* x, size_t n) { int grid, block; cudaOccupancyMaxPotentialBlockSize(&grid, &block, k); k<<<grid, block>>>(x, n); }", false),
            // every launch must be fixed
            (kernel, "void run(float* x, size_t n) { k<<<64, 256>>>(x, n); k<<<(n + 255) / 256, 256>>>(x, n); }", true),
            // a grid that grows with the count, or none in sight
            (kernel, "void run(float* x, size_t n) { k<<<(n + 255) / 256, 256>>>(x, n); }", true),
            (kernel, "", true),
            // 2^31 threads, each below 2^31: an `int` holds them all; one block more it does not
            (narrow_int, "void run(float* x, size_t n) { k<<<1 << 23, 256>>>(x, n); }", false),
            (narrow_int, "void run(float* x, size_t n) { k<<<(1 << 23) + 1, 256>>>(x, n); }", true),
            // an `int` stepped through the grid counts past 2^31 whatever the grid
            (int_stride, "void run(float* x, size_t n) { k<<<64, 256>>>(x, n); }", true),
        ] {
            let source = format!("{kernel}\n{host}");
            assert_eq!(!narrow(&source).is_empty(), wraps, "{source}");
        }
    }

    #[test]
    fn indices_that_do_not_wrap() {
        for source in [
            // the product in 64 bits
            "__global__ void k(float* x, size_t n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
            "__global__ void k(float* x, int64_t n) { int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
            "__global__ void k(float* x, size_t n) { size_t b = blockIdx.x; size_t i = b * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
            // a 32-bit count
            "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }",
            // no 64-bit count
            "__global__ void k(float* x) { int i = blockIdx.x * blockDim.x + threadIdx.x; x[i] = 0; }",
            // the y axis cannot reach 2^31 threads
            "__global__ void k(float* x, size_t rows) { int r = blockIdx.y * blockDim.y + threadIdx.y; if (r < rows) x[r] = 0; }",
            // one extent of a 2D array: the coordinate it bounds stays far below 2^31
            "__global__ void k(float* x, size_t rows, size_t cols) { size_t r = blockIdx.y; size_t c = blockIdx.x * blockDim.x + threadIdx.x; if (c < cols) x[r * cols + c] = 0; }",
            // a row width that steps a pointer from row to row
            "__global__ void k(const float* in, float* out, size_t width, size_t height) { size_t x = blockIdx.x * blockDim.x + threadIdx.x; if (x >= width) return; in += x; out += x; for (size_t y = 0; y < height; ++y) { *out = *in; in += width; out += width; } }",
            // not a thread index
            "__global__ void k(float* x, size_t n) { for (int j = 0; j < n; ++j) x[j] = 0; }",
        ] {
            assert!(narrow(source).is_empty(), "{source}");
        }
    }
}
