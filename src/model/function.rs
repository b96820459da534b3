//! The functions of a file as the model keeps them: their kind, parameters and template
//! parameters, read from each definition. Separate from the model's build because a
//! definition is also read outside the file's walk (a launch macro's expanded body, in
//! `launch::macros`).

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionKind {
    /// `__global__`
    Kernel,
    /// `__device__` only
    Device,
    /// `__host__ __device__`
    HostDevice,
    /// no execution-space qualifier
    Host,
}

#[derive(Debug, Clone)]
pub struct Parameter<'t> {
    pub name: String,
    pub type_text: String,
    pub is_pointer: bool,
    pub declaration: Node<'t>,
    pub name_node: Node<'t>,
}

impl Parameter<'_> {
    /// A PyTorch tensor accessor passed by value (`PackedTensorAccessor32<T, N, ...>`,
    /// `GenericPackedTensorAccessor`, `at::TensorAccessor`): subscripting it (`acc[n][c][h][w]`)
    /// reads or writes the tensor's global memory, one extent (`acc.size(d)`) per dimension.
    pub fn is_tensor_accessor(&self) -> bool {
        !self.is_pointer && is_tensor_accessor_type(&self.type_text)
    }
}

/// The number of dimensions a tensor accessor type spells (`PackedTensorAccessor32<float, 4,
/// RestrictPtrTraits>` → 4); None where it is a template parameter or absent.
pub fn tensor_accessor_rank(type_text: &str) -> Option<usize> {
    let (_, arguments) = type_text.split_once('<')?;
    let mut depth = 0usize;
    let mut start = 0;
    let mut position = 0;
    for (at, c) in arguments.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' if depth > 0 => depth -= 1,
            '>' | ',' if depth == 0 => {
                if position == 1 {
                    return arguments[start..at].trim().parse().ok();
                }
                position += 1;
                start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// Whether a type names a PyTorch tensor accessor.
pub fn is_tensor_accessor_type(type_text: &str) -> bool {
    let name = type_text.split('<').next().unwrap_or("");
    let name = name.rsplit("::").next().unwrap_or(name).trim();
    matches!(
        name,
        "PackedTensorAccessor"
            | "PackedTensorAccessor32"
            | "PackedTensorAccessor64"
            | "GenericPackedTensorAccessor"
            | "TensorAccessor"
    )
}

#[derive(Debug, Clone)]
pub struct Function<'t> {
    pub name: String,
    pub kind: FunctionKind,
    pub definition: Node<'t>,
    pub name_node: Node<'t>,
    pub parameters: Vec<Parameter<'t>>,
    pub body: Node<'t>,
    /// Template parameter names, when the function is a template.
    pub template_parameters: Vec<String>,
    /// Each template parameter's default when it is an integer literal (`int WARP_SIZE = 32`),
    /// in the order of `template_parameters`: the value a launch that names fewer arguments gives.
    pub template_defaults: Vec<Option<i128>>,
    /// Whether the parse of this function contains ERROR or MISSING nodes.
    pub has_parse_errors: bool,
    /// Whether its parameters end in a pack (`Args... args`).
    pub variadic: bool,
}

impl<'t> Function<'t> {
    pub fn parameter(&self, name: &str) -> Option<&Parameter<'t>> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// The parameters' names, in order (how a launch's values are bound to them).
    pub fn parameter_names(&self) -> Vec<&str> {
        self.parameters.iter().map(|p| p.name.as_str()).collect()
    }

    /// Whether a call with `count` arguments can be a call of this function: as many as it has
    /// parameters, fewer where the rest have default values, more after a parameter pack. Two
    /// overloads of one kernel name are told apart by it.
    pub fn accepts_arguments(&self, count: usize) -> bool {
        let required = self
            .parameters
            .iter()
            .take_while(|p| p.declaration.node_kind() != "optional_parameter_declaration")
            .count();
        count >= required && (count <= self.parameters.len() || self.variadic)
    }
}

pub(crate) fn function_from_definition<'t>(
    node: Node<'t>,
    template: Option<Node<'t>>,
    source: &str,
    neutralised: &[crate::source::Neutralised],
) -> Option<Function<'t>> {
    let body = node.field("body")?;
    let declarator = node.field("declarator")?;
    let function_declarator = find_function_declarator(declarator)?;
    let name_node = function_declarator.field("declarator")?;
    let name_node = match name_node.node_kind() {
        "qualified_identifier" => name_node.field("name").unwrap_or(name_node),
        _ => name_node,
    };
    let name = text(name_node, source).to_string();

    let mut qualifiers = String::new();
    for child in syntax::children(node) {
        if child.byte_range().start >= declarator.start_byte() {
            break;
        }
        match child.node_kind() {
            "__global__" | "__device__" | "__host__" => {
                qualifiers.push_str(child.node_kind());
                qualifiers.push(' ');
            }
            _ => {}
        }
    }
    // qualifiers hidden in a macro (`#define HD __host__ __device__`) that the view neutralised
    let head = node.start_byte()..declarator.start_byte();
    let start = template
        .map(|t| t.start_byte())
        .unwrap_or(node.start_byte());
    for macro_use in neutralised {
        let before = macro_use.span.end <= head.end && macro_use.span.start + 200 >= start;
        if before
            && (macro_use.span.start >= start
                || source[macro_use.span.end..start].trim().is_empty())
        {
            qualifiers.push_str(&macro_use.expansion);
            qualifiers.push(' ');
        }
    }
    let kind = if qualifiers.contains("__global__") {
        FunctionKind::Kernel
    } else if qualifiers.contains("__device__") && qualifiers.contains("__host__") {
        FunctionKind::HostDevice
    } else if qualifiers.contains("__device__") {
        FunctionKind::Device
    } else {
        FunctionKind::Host
    };

    let mut parameters = Vec::new();
    let mut variadic = false;
    if let Some(list) = function_declarator.field("parameters") {
        for declaration in syntax::named_children(list) {
            variadic |= declaration.node_kind() == "variadic_parameter_declaration";
            if !matches!(
                declaration.node_kind(),
                "parameter_declaration" | "optional_parameter_declaration"
            ) {
                continue;
            }
            let param_declarator = declaration.field("declarator");
            let type_text = declaration
                .field("type")
                .map(|t| text(t, source).to_string())
                .unwrap_or_default();
            // an unnamed parameter (a tag type, `use_les<false>`) still takes its argument: a
            // launch's arguments are bound by position, and overloads told apart by such tags
            // have the arity that counts it. Its name is empty, which nothing reads as a name.
            let name_node = param_declarator.and_then(syntax::declarator_name);
            // `f(void)` takes nothing
            if name_node.is_none() && param_declarator.is_none() && type_text == "void" {
                continue;
            }
            parameters.push(Parameter {
                name: name_node
                    .map(|n| text(n, source).to_string())
                    .unwrap_or_default(),
                type_text,
                is_pointer: param_declarator.is_some_and(syntax::declarator_is_pointer),
                declaration,
                name_node: name_node.unwrap_or(declaration),
            });
        }
    }
    let mut template_parameters = Vec::new();
    let mut template_defaults = Vec::new();
    if let Some(parent) = template {
        if let Some(list) = parent.field("parameters") {
            for parameter in syntax::named_children(list) {
                // `Variant V` names `V`; its type is no parameter of the template
                let declared = match parameter.node_kind() {
                    "parameter_declaration" | "optional_parameter_declaration" => parameter
                        .field("declarator")
                        .and_then(syntax::declarator_name),
                    _ => None,
                };
                if let Some(name) = declared {
                    template_parameters.push(text(name, source).to_string());
                    template_defaults.resize(template_parameters.len() - 1, None);
                    template_defaults.push(
                        parameter
                            .field("default_value")
                            .map(|v| syntax::strip(v, source))
                            .filter(|v| v.node_kind() == "number_literal")
                            .and_then(|v| crate::model::size::parse_number(text(v, source))),
                    );
                    continue;
                }
                syntax::walk_iterative(parameter, |n| {
                    if n.node_kind() == "type_identifier"
                        || (n.node_kind() == "identifier"
                            && n.up().map(|p| p.node_kind()) != Some("template_parameter_list"))
                    {
                        template_parameters.push(text(n, source).to_string());
                    }
                    true
                });
            }
        }
    }
    Some(Function {
        name,
        kind,
        definition: node,
        name_node,
        parameters,
        body,
        template_defaults: {
            template_defaults.resize(template_parameters.len(), None);
            template_defaults
        },
        template_parameters,
        has_parse_errors: node.has_error(),
        variadic,
    })
}

fn find_function_declarator(mut node: Node) -> Option<Node> {
    for _ in 0..syntax::MAX_DEPTH {
        if node.node_kind() == "function_declarator" {
            return Some(node);
        }
        // `Op& Op::run()`: a reference declarator holds its inner declarator as a plain child
        node = node.field("declarator").or_else(|| {
            (node.node_kind() == "reference_declarator")
                .then(|| syntax::named_children(node).last())
                .flatten()
        })?;
    }
    None
}

/// A kernel's name as launches write it: an explicit specialisation's template arguments dropped.
pub(super) fn kernel_name(name: &str) -> &str {
    name.split('<').next().unwrap_or(name).trim()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rank_of_a_tensor_accessor_is_its_second_template_argument() {
        let rank = super::tensor_accessor_rank;
        assert_eq!(
            rank("torch::PackedTensorAccessor32<scalar_t, 4, torch::RestrictPtrTraits>"),
            Some(4)
        );
        assert_eq!(rank("const at::PackedTensorAccessor64<float, 2>"), Some(2));
        assert_eq!(rank("at::GenericPackedTensorAccessor<std::pair<int, int>, 3, at::DefaultPtrTraits, int64_t>"), Some(3));
        assert_eq!(
            rank("PackedTensorAccessor32<T, N, RestrictPtrTraits>"),
            None
        );
        assert_eq!(rank("TensorAccessor"), None);
    }

    #[test]
    fn a_function_returning_a_reference_is_read_with_its_body() {
        let source = "struct Op { int n; Op& run(); };\n\
            Op& Op::run() { k<<<n / 256, 256>>>(n); return *this; }\n\
            const Op &first(Op *ops) { return ops[0]; }";
        let names = crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            model
                .functions
                .iter()
                .map(|f| (f.name.clone(), f.body.kind() == "compound_statement"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
        assert_eq!(
            names,
            [("run".to_string(), true), ("first".to_string(), true)]
        );
    }

    #[test]
    fn an_unnamed_parameter_counts_and_a_void_list_is_empty() {
        let source = "template <bool B> struct use_les {};\n\
            __global__ void step(int nx, float* f, use_les<false>) { f[nx] = 0; }\n\
            __global__ void probe(float*, int n) { }\n\
            void none(void) { }";
        let parameters = crate::verify::with_model(std::path::Path::new("k.cu"), source, |model| {
            model
                .functions
                .iter()
                .map(|f| {
                    let names: Vec<String> = f.parameters.iter().map(|p| p.name.clone()).collect();
                    let pointers: Vec<bool> = f.parameters.iter().map(|p| p.is_pointer).collect();
                    (f.name.clone(), names, pointers)
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
        let owned = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            parameters,
            [
                (
                    "step".to_string(),
                    owned(&["nx", "f", ""]),
                    vec![false, true, false]
                ),
                ("probe".to_string(), owned(&["", "n"]), vec![true, false]),
                ("none".to_string(), owned(&[]), vec![]),
            ]
        );
    }
}
