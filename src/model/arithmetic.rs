//! Whether an expression's value is an integer or a floating-point number, read from the
//! declarations in sight (parameters, locals, template parameters, file-scope declarations), the
//! file's typedefs and its object-like macros; and the `ceil` calls handed an integer quotient,
//! which C++ has already rounded down before `ceil` sees it.
//!
//! The launch reading asks it of a grid written `ceil(n / BN)` (a floor, never a rounded-up
//! grid); the `truncated-ceil-division` rule reports the calls.

use super::Model;
use crate::syntax::{self, named_children, operator, text, NodeExt, MAX_DEPTH};
use tree_sitter::Node;

/// What an arithmetic expression computes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arithmetic {
    Integer,
    Floating,
}

/// What the typing needs of the file beyond the syntax: its typedefs and its macros.
pub trait TypeContext {
    /// The type a type name stands for after the file's typedefs (`real` is `float`).
    fn resolve_type(&self, type_text: &str) -> String;
    /// The body of an object-like macro.
    fn define(&self, name: &str) -> Option<&str>;
}

impl TypeContext for Model<'_> {
    fn resolve_type(&self, type_text: &str) -> String {
        Model::resolve_type(self, type_text)
    }

    fn define(&self, name: &str) -> Option<&str> {
        Model::define(self, name)
    }
}

/// What `node` computes in, when every name it reads has a declaration in sight; None where a
/// name is not declared where it can be seen, a call returns what is not known, or a member is
/// read.
pub fn arithmetic_of<'t>(
    node: Node<'t>,
    source: &'t str,
    context: &dyn TypeContext,
) -> Option<Arithmetic> {
    arithmetic(node, source, context, 0)
}

fn arithmetic<'t>(
    node: Node<'t>,
    source: &'t str,
    context: &dyn TypeContext,
    depth: usize,
) -> Option<Arithmetic> {
    if depth > 16 {
        return None;
    }
    match node.node_kind() {
        "parenthesized_expression" => arithmetic(node.named_child(0)?, source, context, depth + 1),
        "number_literal" => Some(literal_arithmetic(text(node, source))),
        "char_literal" | "sizeof_expression" | "alignof_expression" => Some(Arithmetic::Integer),
        "cast_expression" => type_arithmetic(text(node.field("type")?, source), context),
        "identifier" => {
            let name = text(node, source);
            match declared_type(name, node, source) {
                Some(Declared::Type(type_text, ..)) => type_arithmetic(&type_text, context),
                Some(Declared::Initialized(value)) => arithmetic(value, source, context, depth + 1),
                Some(Declared::Other) => None,
                None => {
                    let body = context.define(name)?.trim();
                    let parsed = syntax::parse(body)?;
                    let root = parsed.root_node();
                    // a macro's body is read as a literal only: its names are not in sight
                    let literal = root
                        .named_child(0)
                        .and_then(|statement| statement.named_child(0))
                        .filter(|value| value.node_kind() == "number_literal")?;
                    Some(literal_arithmetic(literal.utf8_text(body.as_bytes()).ok()?))
                }
            }
        }
        "unary_expression" => match operator(node, source) {
            "-" | "+" | "~" => arithmetic(node.field("argument")?, source, context, depth + 1),
            _ => None,
        },
        "binary_expression" => {
            if !matches!(
                operator(node, source),
                "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "&" | "|" | "^"
            ) {
                return None;
            }
            let left = arithmetic(node.field("left")?, source, context, depth + 1);
            let right = arithmetic(node.field("right")?, source, context, depth + 1);
            match (left, right) {
                (Some(Arithmetic::Floating), _) | (_, Some(Arithmetic::Floating)) => {
                    Some(Arithmetic::Floating)
                }
                (Some(Arithmetic::Integer), Some(Arithmetic::Integer)) => Some(Arithmetic::Integer),
                _ => None,
            }
        }
        "call_expression" => {
            let function = node.field("function")?;
            let name = match function.node_kind() {
                "template_function" => text(function.field("name")?, source),
                _ => text(function, source),
            };
            match name {
                // `static_cast<float>(n)`, `int(x)`
                "static_cast" | "reinterpret_cast" => {
                    let type_text = function
                        .field("arguments")
                        .and_then(|a| a.named_child(0))
                        .map(|t| text(t, source))?;
                    type_arithmetic(type_text, context)
                }
                _ if is_type_name(name) => type_arithmetic(name, context),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `64`, `0x40`, `64u` are integers; `64.0`, `64.f`, `1e3`, `64.0f` are not.
fn literal_arithmetic(literal: &str) -> Arithmetic {
    let lower = literal.to_ascii_lowercase();
    let hexadecimal = lower.starts_with("0x");
    let floating = lower.contains('.')
        || (!hexadecimal && (lower.contains('e') || lower.ends_with('f')))
        || (hexadecimal && lower.contains('p'));
    if floating {
        Arithmetic::Floating
    } else {
        Arithmetic::Integer
    }
}

/// The words a functional cast names (`int(x)`, `float(x)`).
fn is_type_name(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "unsigned"
            | "long"
            | "short"
            | "size_t"
            | "float"
            | "double"
            | "int64_t"
            | "uint64_t"
            | "int32_t"
            | "uint32_t"
    )
}

/// What a declared type computes in, after the file's typedefs.
fn type_arithmetic(type_text: &str, context: &dyn TypeContext) -> Option<Arithmetic> {
    let resolved = context.resolve_type(type_text);
    let words: Vec<&str> = resolved
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "constexpr" | "static" | "register"
            )
        })
        .collect();
    let bare = words.join(" ");
    if bare.contains('*') || bare.contains('&') {
        return None;
    }
    if super::shared_memory::is_integer_type(&bare) || bare == "char" || bare == "bool" {
        return Some(Arithmetic::Integer);
    }
    matches!(
        bare.as_str(),
        "float" | "double" | "long double" | "half" | "__half" | "__nv_bfloat16"
    )
    .then_some(Arithmetic::Floating)
}

/// A name's declaration where `at` reads it.
enum Declared<'t> {
    /// Its declared type, the declaration, and the value it is initialised with.
    Type(String, Node<'t>, Option<Node<'t>>),
    /// `auto n = value`: what it holds.
    Initialized(Node<'t>),
    /// A declaration whose type says nothing of the value: a pointer, an array, a reference
    /// to a structure.
    Other,
}

/// The declaration of `name` that `at` sees: the nearest enclosing block's declaration before
/// it, a `for` header's, the function's parameter, a template parameter, or a file-scope one.
fn declared_type<'t>(name: &str, at: Node<'t>, source: &'t str) -> Option<Declared<'t>> {
    let mut current = at;
    for _ in 0..MAX_DEPTH {
        let parent = current.up()?;
        let found = match parent.node_kind() {
            "compound_statement" | "translation_unit" | "declaration_list" => {
                named_children(parent)
                    .take_while(|c| c.start_byte() < at.start_byte())
                    .filter(|c| c.node_kind() == "declaration")
                    .filter_map(|d| declared_in(d, name, source))
                    .last()
            }
            "for_statement" | "for_range_loop" => parent
                .field("initializer")
                .filter(|d| d.node_kind() == "declaration")
                .and_then(|d| declared_in(d, name, source)),
            "function_definition" | "lambda_expression" => {
                let declarator = parent.field("declarator");
                let mut parameters = None;
                if let Some(declarator) = declarator {
                    syntax::walk_iterative(declarator, |n| {
                        if parameters.is_none() && n.node_kind() == "parameter_list" {
                            parameters = Some(n);
                        }
                        parameters.is_none()
                    });
                }
                parameters.and_then(|list| {
                    named_children(list).find_map(|p| declared_in(p, name, source))
                })
            }
            "template_declaration" => parent
                .field("parameters")
                .and_then(|list| named_children(list).find_map(|p| declared_in(p, name, source))),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        current = parent;
    }
    None
}

/// What `declaration` (a declaration, a parameter) says of `name` when it declares it.
fn declared_in<'t>(declaration: Node<'t>, name: &str, source: &'t str) -> Option<Declared<'t>> {
    let type_node = declaration.field("type")?;
    let mut cursor = declaration.walk();
    let declarator = declaration
        .children_by_field_name("declarator", &mut cursor)
        .find(|d| syntax::declarator_name(*d).is_some_and(|n| text(n, source) == name))?;
    let mut inner = declarator;
    let mut value = None;
    for _ in 0..MAX_DEPTH {
        match inner.node_kind() {
            "identifier" => break,
            "init_declarator" => {
                value = inner.field("value");
                inner = inner.field("declarator")?;
            }
            "pointer_declarator"
            | "array_declarator"
            | "reference_declarator"
            | "function_declarator"
            | "abstract_pointer_declarator" => return Some(Declared::Other),
            _ => inner = inner.field("declarator")?,
        }
    }
    let type_text = text(type_node, source);
    if type_text == "auto" {
        return Some(match value {
            Some(v) if v.node_kind() != "initializer_list" => Declared::Initialized(v),
            _ => Declared::Other,
        });
    }
    Some(Declared::Type(type_text.to_string(), declaration, value))
}

/// Where the name `at` reads was declared with a type (a parameter, a local, a template
/// parameter, a file-scope variable).
pub fn declaration_of<'t>(at: Node<'t>, source: &'t str) -> Option<Node<'t>> {
    match declared_type(text(at, source), at, source)? {
        Declared::Type(_, declaration, _) => Some(declaration),
        _ => None,
    }
}

/// A `ceil` call handed a quotient of two integers: C++ divides them rounding down, so the
/// call returns the floor.
#[derive(Debug, Clone, Copy)]
pub struct TruncatedCeiling<'t> {
    pub call: Node<'t>,
    pub quotient: Node<'t>,
    pub numerator: Node<'t>,
    pub divisor: Node<'t>,
}

impl<'t> TruncatedCeiling<'t> {
    /// Whether the numerator is padded already (`ceil((n + 255) / 256)`, `ceil((n - 1) / 256)`
    /// before a `+ 1`): a rounding written in integers, which `ceil` only repeats.
    pub fn pads_its_numerator(&self, source: &str) -> bool {
        let mut numerator = self.numerator;
        while numerator.node_kind() == "parenthesized_expression" {
            match numerator.named_child(0) {
                Some(inner) => numerator = inner,
                None => return false,
            }
        }
        numerator.node_kind() == "binary_expression"
            && match operator(numerator, source) {
                "+" => true,
                "-" => numerator
                    .field("right")
                    .is_some_and(|r| text(r, source).trim() == "1"),
                _ => false,
            }
    }

    /// Whether a constant of at least 1 is added to the result (`ceil(n / b) + 1`): the count is
    /// then `n / b + 1`, never short of the rounded-up quotient.
    pub fn pads_its_result(&self, source: &str) -> bool {
        let mut inner = self.call;
        let mut outer = self.call.up();
        while let Some(node) = outer.filter(|n| {
            matches!(
                n.node_kind(),
                "parenthesized_expression" | "cast_expression"
            )
        }) {
            inner = node;
            outer = node.up();
        }
        let Some(sum) =
            outer.filter(|n| n.node_kind() == "binary_expression" && operator(*n, source) == "+")
        else {
            return false;
        };
        let other = match sum.field("left") {
            Some(left) if left.id() == inner.id() => sum.field("right"),
            _ => sum.field("left"),
        };
        other
            .map(|o| syntax::strip(o, source))
            .filter(|o| o.node_kind() == "number_literal")
            .and_then(|o| crate::model::size::parse_number(text(o, source)))
            .is_some_and(|added| added >= 1)
    }

    /// Whether the division cannot leave a remainder for `ceil` to miss: a divisor of 1
    /// (`constexpr unsigned FPB = 1; ceil(H / FPB)`), or two constants, one a multiple of the
    /// other (`int n = 1 << 16; int BS = 256; ceil(n / BS)`, locals the function never changes).
    pub fn is_exact(&self, source: &'t str, context: &dyn TypeContext) -> bool {
        match (
            constant_value(self.numerator, source, context, 0),
            constant_value(self.divisor, source, context, 0),
        ) {
            (_, Some(1)) => true,
            (Some(numerator), Some(divisor)) if divisor != 0 => numerator % divisor == 0,
            _ => false,
        }
    }
}

/// The value of an integer constant: a literal, an object-like macro of one, or a name declared
/// `const`/`constexpr` with a constant initialiser where `node` reads it.
fn constant_value<'t>(
    node: Node<'t>,
    source: &'t str,
    context: &dyn TypeContext,
    depth: usize,
) -> Option<i128> {
    if depth > 8 {
        return None;
    }
    let node = syntax::strip(node, source);
    match node.node_kind() {
        "number_literal" => crate::model::size::parse_number(text(node, source)),
        "identifier" => {
            let name = text(node, source);
            match declared_type(name, node, source) {
                Some(Declared::Type(_, declaration, Some(value)))
                    if crate::syntax::words_before_type(declaration, source)
                        .split_whitespace()
                        .any(|w| w == "const" || w == "constexpr")
                        || never_changed_in_its_function(name, declaration, source) =>
                {
                    constant_value(value, source, context, depth + 1)
                }
                Some(_) => None,
                None => crate::model::size::parse_define_number(context.define(name)?),
            }
        }
        "binary_expression" => {
            let left = constant_value(node.field("left")?, source, context, depth + 1)?;
            let right = constant_value(node.field("right")?, source, context, depth + 1)?;
            match operator(node, source) {
                "+" => left.checked_add(right),
                "-" => left.checked_sub(right),
                "*" => left.checked_mul(right),
                "/" if right != 0 => left.checked_div(right),
                "<<" if (0..63).contains(&right) => left.checked_mul(1i128 << right),
                ">>" if (0..127).contains(&right) => Some(left >> right),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the local declared by `declaration` keeps its initial value: a declaration inside a
/// function that writes no variable of that name anywhere (no `=`, `++`, `&name`).
fn never_changed_in_its_function(name: &str, declaration: Node, source: &str) -> bool {
    let mut current = declaration;
    for _ in 0..MAX_DEPTH {
        let Some(parent) = current.up() else {
            return false;
        };
        match parent.node_kind() {
            "function_definition" | "lambda_expression" => {
                return !syntax::names_written(parent, source).contains(name);
            }
            "translation_unit" | "declaration_list" | "field_declaration_list" => return false,
            _ => current = parent,
        }
    }
    false
}

/// The integer quotient a `ceil(a / b)` call is handed, when `call` is one.
pub fn truncated_ceiling<'t>(
    call: Node<'t>,
    source: &'t str,
    context: &dyn TypeContext,
) -> Option<TruncatedCeiling<'t>> {
    if call.node_kind() != "call_expression" {
        return None;
    }
    let name = text(call.field("function")?, source);
    if !matches!(name, "ceil" | "ceilf" | "std::ceil" | "ceill" | "::ceil") {
        return None;
    }
    let [argument] = syntax::call_arguments(call)[..] else {
        return None;
    };
    let mut quotient = argument;
    while quotient.node_kind() == "parenthesized_expression" {
        quotient = quotient.named_child(0)?;
    }
    if quotient.node_kind() != "binary_expression" || operator(quotient, source) != "/" {
        return None;
    }
    let numerator = quotient.field("left")?;
    let divisor = quotient.field("right")?;
    let integer = |n: Node<'t>| arithmetic_of(n, source, context) == Some(Arithmetic::Integer);
    (integer(numerator) && integer(divisor)).then_some(TruncatedCeiling {
        call,
        quotient,
        numerator,
        divisor,
    })
}

/// Every `ceil` of an integer quotient in the functions this lint reads: the kernels and host
/// functions analysed this time (an editor's lint keeps the others' findings from an earlier
/// one) and the device functions, which keep none.
pub fn truncated_ceilings<'t>(model: &Model<'t>) -> Vec<TruncatedCeiling<'t>> {
    let mut found = Vec::new();
    let read_now = |index: usize, function: &super::Function| match function.kind {
        super::FunctionKind::Host => model.host.analysed.contains(&index),
        super::FunctionKind::Kernel => model.kernels.iter().any(|(at, _)| *at == index),
        _ => true,
    };
    for (index, function) in model.functions.iter().enumerate() {
        let body = model.source.get(function.body.byte_range()).unwrap_or("");
        if !body.contains("ceil") || !read_now(index, function) {
            continue;
        }
        syntax::walk_iterative(function.body, |node| {
            if let Some(ceiling) = truncated_ceiling(node, model.source, model) {
                found.push(ceiling);
            }
            true
        });
    }
    found.sort_by_key(|c| c.call.start_byte());
    found.dedup_by_key(|c| c.call.id());
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;

    impl TypeContext for Plain {
        fn resolve_type(&self, type_text: &str) -> String {
            match type_text.trim() {
                "index_t" => "int".to_string(),
                other => other.to_string(),
            }
        }
        fn define(&self, name: &str) -> Option<&str> {
            match name {
                "TILE" => Some("32"),
                "SCALE" => Some("2.0f"),
                _ => None,
            }
        }
    }

    /// The arithmetic of the argument of the call `probe(...)` in `code`.
    fn probed(code: &str) -> Option<Arithmetic> {
        let tree = syntax::parse(code).expect("parses");
        let mut argument = None;
        syntax::walk_iterative(tree.root_node(), |n| {
            if n.node_kind() == "call_expression"
                && n.field("function")
                    .is_some_and(|f| text(f, code) == "probe")
            {
                argument = syntax::call_arguments(n).first().copied();
            }
            true
        });
        arithmetic_of(argument.expect("a probe"), code, &Plain)
    }

    #[test]
    fn declared_integers_are_integers() {
        use Arithmetic::*;
        assert_eq!(
            probed("void f(const int n) { probe(n / 64); }"),
            Some(Integer)
        );
        assert_eq!(
            probed("void f(int n) { const int BN = 64; probe(n / BN); }"),
            Some(Integer)
        );
        assert_eq!(
            probed("template <const int BN> void f(size_t n) { probe(n / BN); }"),
            Some(Integer)
        );
        assert_eq!(probed("void f(index_t n) { probe(n / 2); }"), Some(Integer));
        assert_eq!(probed("void f(int n) { probe(n / TILE); }"), Some(Integer));
        assert_eq!(
            probed("void f(int n) { for (int i = 0; i < n; ++i) probe(i / 2); }"),
            Some(Integer)
        );
        assert_eq!(
            probed("int rows = 7;\nvoid f() { probe(rows / 2); }"),
            Some(Integer)
        );
        assert_eq!(
            probed("void f(int n) { auto half = n / 2; probe(half / 3); }"),
            Some(Integer)
        );
        assert_eq!(
            probed("void f(int n) { probe(sizeof(float) * n / 4); }"),
            Some(Integer)
        );
    }

    #[test]
    fn a_floating_operand_makes_the_quotient_floating() {
        use Arithmetic::*;
        assert_eq!(probed("void f(int n) { probe(n / 64.0); }"), Some(Floating));
        assert_eq!(probed("void f(int n) { probe(n / 64.f); }"), Some(Floating));
        assert_eq!(
            probed("void f(int n) { probe((float)n / 64); }"),
            Some(Floating)
        );
        assert_eq!(
            probed("void f(int n) { probe(static_cast<double>(n) / 64); }"),
            Some(Floating)
        );
        assert_eq!(probed("void f(float n) { probe(n / 64); }"), Some(Floating));
        assert_eq!(
            probed("void f(int n) { probe(n / SCALE); }"),
            Some(Floating)
        );
        assert_eq!(
            probed("void f(int n) { probe(float(n) / 64); }"),
            Some(Floating)
        );
    }

    #[test]
    fn what_is_not_in_sight_is_not_known() {
        assert_eq!(probed("void f(Shape s) { probe(s.rows / 64); }"), None);
        assert_eq!(probed("void f(int n) { probe(count(n) / 64); }"), None);
        assert_eq!(probed("void f() { probe(total / 64); }"), None);
        assert_eq!(probed("void f(int* n) { probe(n / 64); }"), None);
        // a later declaration does not reach the read
        assert_eq!(probed("void f() { probe(m / 2); int m = 4; }"), None);
    }

    #[test]
    fn an_inner_declaration_hides_an_outer_one() {
        assert_eq!(
            probed("void f(int n) { { float n = 3; probe(n / 2); } }"),
            Some(Arithmetic::Floating)
        );
    }

    fn ceilings(code: &str) -> Vec<String> {
        let tree = syntax::parse(code).expect("parses");
        let mut found = Vec::new();
        syntax::walk_iterative(tree.root_node(), |n| {
            if let Some(c) = truncated_ceiling(n, code, &Plain) {
                found.push(text(c.quotient, code).to_string());
            }
            true
        });
        found
    }

    #[test]
    fn a_ceiling_of_an_integer_quotient_is_truncated() {
        assert_eq!(
            ceilings("void f(int n, int m) { dim3 g(ceil(n / 32), ceil((m / TILE))); }"),
            ["n / 32", "m / TILE"]
        );
        assert_eq!(
            ceilings("void f(int n) { int k = std::ceil(n / 8); }"),
            ["n / 8"]
        );
        assert!(ceilings("void f(int n) { int k = ceil(n / 8.0); }").is_empty());
        assert!(ceilings("void f(int n) { int k = ceil((float)n / 8); }").is_empty());
        assert!(ceilings("void f(Shape s) { int k = ceil(s.n / 8); }").is_empty());
        assert!(ceilings("void f(int n) { int k = ceil(n * 0.5); }").is_empty());
    }

    fn exact_ceilings(code: &str) -> Vec<bool> {
        let tree = syntax::parse(code).expect("parses");
        let mut found = Vec::new();
        syntax::walk_iterative(tree.root_node(), |n| {
            if let Some(c) = truncated_ceiling(n, code, &Plain) {
                found.push(c.is_exact(code, &Plain));
            }
            true
        });
        found
    }

    #[test]
    fn a_quotient_by_one_or_of_multiples_loses_nothing() {
        assert_eq!(
            exact_ceilings(
                "void f(unsigned h) { constexpr unsigned FPB = 1; unsigned g = std::ceil(h / FPB); }"
            ),
            [true]
        );
        assert_eq!(
            exact_ceilings(
                "void f() { const int n = 4096; int g = ceil(n / 256); int r = ceil(1000 / 256); }"
            ),
            [true, false]
        );
        // locals the function never changes hold their initial constants
        assert_eq!(
            exact_ceilings(
                "int main() { int n = 1 << 16; int BLOCK_SIZE = 256; int g = (int)ceil(n / BLOCK_SIZE); \
                 int m = 1000 * 3; int h = ceil(m / BLOCK_SIZE); }"
            ),
            [true, false]
        );
        // a local that may change, or a divisor of another value, may leave a remainder
        assert_eq!(
            exact_ceilings(
                "void f(unsigned h) { unsigned FPB = 1; if (h > 9) FPB++; unsigned g = ceil(h / FPB); }"
            ),
            [false]
        );
        assert_eq!(
            exact_ceilings(
                "void f(int k) { int n = 4096; scale(&n); int b = 256; int g = ceil(n / b); }"
            ),
            [false]
        );
        assert_eq!(
            exact_ceilings(
                "void f(unsigned h) { constexpr unsigned FPB = 2; unsigned g = ceil(h / FPB); }"
            ),
            [false]
        );
    }
}
