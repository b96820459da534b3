use super::support::snippet;
use crate::diagnostic::{Edit, Fix};
use crate::lint::LintContext;
use crate::model::arithmetic::{declaration_of, truncated_ceilings};
use crate::model::Model;
use crate::syntax::NodeExt;
use tree_sitter::Node;

crate::declare_lint!(
    TRUNCATED_CEIL_DIVISION,
    "truncated-ceil-division",
    Launch,
    Warning,
    "`ceil(n / b)` of two integers: the quotient is rounded down before `ceil` sees it, so a block count comes out one short",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for ceiling in truncated_ceilings(model) {
        if ceiling.pads_its_numerator(model.source)
            || ceiling.pads_its_result(model.source)
            || ceiling.is_exact(model.source, model)
        {
            continue;
        }
        let (numerator, divisor) = (
            snippet(model, ceiling.numerator),
            snippet(model, ceiling.divisor),
        );
        let consequence = if counts_blocks(ceiling.call, model) {
            format!(
                "the grid is one block short whenever `{numerator}` is not a multiple of `{divisor}`, and the last `{numerator} % {divisor}` elements are never processed"
            )
        } else {
            format!(
                "the result is one short whenever `{numerator}` is not a multiple of `{divisor}`"
            )
        };
        let message = format!(
            "`{}` divides two integers, so C++ rounds the quotient down before `ceil` sees it: {consequence}",
            snippet(model, ceiling.call)
        );
        let mut diagnostic = cx
            .diagnostic(ceiling.quotient.byte_range(), message)
            .with_help(format!(
                "round up in integers, `({numerator} + {divisor} - 1) / {divisor}`, or divide in floating point, `ceil({numerator} / (double){divisor})`"
            ));
        for name in [ceiling.numerator, ceiling.divisor]
            .into_iter()
            .filter_map(named)
        {
            if let Some(declaration) = declaration_of(name, model.source) {
                diagnostic = diagnostic.with_label(
                    declaration.byte_range(),
                    format!("`{}` is an integer", snippet(model, name)),
                );
            }
        }
        let parenthesized = |node: Node| {
            let written = snippet(model, node);
            match node.node_kind() {
                "identifier"
                | "number_literal"
                | "parenthesized_expression"
                | "call_expression"
                | "field_expression" => written,
                _ => format!("({written})"),
            }
        };
        let (top, bottom) = (
            parenthesized(ceiling.numerator),
            parenthesized(ceiling.divisor),
        );
        cx.report(diagnostic.with_fix(Fix {
            title: format!("round up with `({top} + {bottom} - 1) / {bottom}`"),
            edits: vec![Edit {
                span: ceiling.call.byte_range(),
                replacement: format!("({top} + {bottom} - 1) / {bottom}"),
            }],
            safe: false,
        }));
    }
}

/// Whether the call computes a launch's block count: it is written in a launch's configuration
/// or a `dim3`, or assigned to a local named for blocks or a grid.
fn counts_blocks(call: Node, model: &Model) -> bool {
    let mut node = call;
    for _ in 0..crate::syntax::MAX_DEPTH {
        let Some(parent) = node.up() else {
            return false;
        };
        match parent.node_kind() {
            "kernel_call_syntax" => return true,
            "declaration" => {
                let type_text = parent.field("type").map(|t| model.text(t)).unwrap_or("");
                let named = parent
                    .field("declarator")
                    .and_then(crate::syntax::declarator_name)
                    .map(|n| model.text(n).to_ascii_lowercase())
                    .unwrap_or_default();
                return type_text == "dim3"
                    || ["block", "grid", "cta"].iter().any(|w| named.contains(w));
            }
            "expression_statement" | "compound_statement" | "function_definition" => return false,
            _ => node = parent,
        }
    }
    false
}

/// The name an operand is, parentheses aside.
fn named(mut node: Node) -> Option<Node> {
    while node.node_kind() == "parenthesized_expression" {
        node = node.named_child(0)?;
    }
    (node.node_kind() == "identifier").then_some(node)
}

#[cfg(test)]
mod tests {
    use super::TRUNCATED_CEIL_DIVISION;
    use crate::testing::assert_cases;

    #[test]
    fn cases() {
        assert_cases(
            &TRUNCATED_CEIL_DIVISION,
            &[
                "void f(int n) { dim3 grid(ceil(n / 256.0)); }",
                "void f(int n) { dim3 grid(ceil((float)n / 256)); }",
                "void f(int n) { int blocks = (n + 255) / 256; }",
                "void f(float n) { int blocks = ceil(n / 256); }",
                // what the quotient computes in is not in sight
                "void f(Shape s) { int blocks = ceil(s.n / 256); }",
                // `(n + B - 1) / B` is already rounded up; `ceil` of it changes nothing
                "void f(int n) { int blocks = ceil((n + 255) / 256); }",
                // a block added after the rounded-down quotient covers the remainder
                "void f(int natom) { const int block_size = 256; dim3 grids(ceil(natom / block_size) + 1, 1, 1); }",
                "void f(int n) { int blocks = 1 + (int)ceil(n / 256); }",
            ],
            &[
                "void f(int n) { dim3 grid(ceil(n / 256)); }",
                "template <int BN> void f(const int n) { dim3 grid(ceil(n / BN)); }",
                "#define TILE 32\nvoid f(size_t rows) { int tiles = std::ceil(rows / TILE); }",
                "void f(int n) { const int threads = 128; int blocks = ceilf(n / threads); }",
                // a sum that adds nothing, or a size
                "void f(int n, int k) { int blocks = ceil(n / 256) + 0; int more = ceil(n / 256) + k; }",
            ],
        );
    }
}
