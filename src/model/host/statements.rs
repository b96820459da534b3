//! Host statements: declarations, assignments, branches and loops, and the events they leave.

use super::*;

impl<'m, 't> Builder<'m, 't> {
    /// The truth a condition has on every run: a literal (`0`, `false`), its negation, or a
    /// local the function declares with a literal and never changes (`bool parallel =
    /// false;`). None when anything else decides it.
    fn constant_truth(&self, condition: Node<'t>, depth: usize) -> Option<bool> {
        if depth > 8 {
            return None;
        }
        let condition = strip(syntax::condition_value(condition), self.source);
        match condition.node_kind() {
            "true" => Some(true),
            "false" => Some(false),
            "number_literal" => {
                crate::model::size::parse_number(self.text(condition)).map(|v| v != 0)
            }
            "unary_expression" if syntax::operator(condition, self.source) == "!" => condition
                .field("argument")
                .and_then(|a| self.constant_truth(a, depth + 1))
                .map(|truth| !truth),
            "identifier" => {
                let name = self.text(condition);
                if self.reassigned.contains(name) || self.opaque.contains(name) {
                    return None;
                }
                // `#define TURN_ON() use_gpu = gpu`: a macro call may write it out of sight
                let named_in_a_macro = self.model.function_macros.iter().any(|m| {
                    m.body
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|word| word == name)
                });
                if named_in_a_macro {
                    return None;
                }
                let value = strip(*self.initializers.get(name)?, self.source);
                matches!(value.node_kind(), "true" | "false" | "number_literal")
                    .then(|| self.constant_truth(value, depth + 1))
                    .flatten()
            }
            _ => None,
        }
    }

    // ---- statements ----

    pub(super) fn statement(&mut self, node: Node<'t>, context: Context<'t>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match node.node_kind() {
            "compound_statement" | "translation_unit" => {
                for child in named_children(node) {
                    self.statement(child, context, depth + 1);
                }
            }
            "declaration" => self.declaration(node, context),
            "expression_statement" => {
                if let Some(expression) = node.named_child(0) {
                    self.expression(expression, context);
                }
            }
            "if_statement" => {
                let condition = node.field("condition");
                let mut branch = Context {
                    conditional: true,
                    ..context
                };
                if let Some(condition) = condition {
                    self.expression(condition, context);
                    let condition_text = self.text(condition);
                    if condition_text.contains("cudaSuccess")
                        || condition_text.contains("hipSuccess")
                        || condition_text.contains("CUDA_SUCCESS")
                        || self
                            .error_variables
                            .iter()
                            .any(|v| condition_text.contains(v.as_str()))
                    {
                        branch.error_path = true;
                    }
                }
                // `bool parallel = false; ... if (!parallel) { ... } else { ... }`: the arm the
                // constant never picks never runs, and leaves no events
                let truth = condition.and_then(|c| self.constant_truth(c, 0));
                if let Some(consequence) =
                    node.field("consequence").filter(|_| truth != Some(false))
                {
                    self.statement(
                        consequence,
                        Context {
                            region: consequence,
                            ..branch
                        },
                        depth + 1,
                    );
                }
                if let Some(alternative) = node.field("alternative").filter(|_| truth != Some(true))
                {
                    self.statement(
                        alternative,
                        Context {
                            region: alternative,
                            ..branch
                        },
                        depth + 1,
                    );
                }
                self.forget_device_if_changed(node);
            }
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                let body = node.field("body");
                let inner = Context {
                    region: body.unwrap_or(node),
                    enclosing_loop: Some(node),
                    conditional: true,
                    ..context
                };
                for field in ["initializer", "condition", "update", "right"] {
                    if let Some(part) = node.field(field) {
                        if part.node_kind() == "declaration" {
                            self.declaration(part, inner);
                        } else {
                            self.expression(part, inner);
                        }
                    }
                }
                if let Some(body) = body {
                    self.statement(body, inner, depth + 1);
                }
                self.forget_device_if_changed(node);
            }
            "return_statement" => {
                for child in named_children(node) {
                    self.expression(child, context);
                    self.escape_identifiers(child, context);
                }
            }
            "switch_statement" | "case_statement" | "try_statement" | "catch_clause"
            | "labeled_statement" | "else_clause" => {
                let inner = Context {
                    region: node,
                    conditional: true,
                    ..context
                };
                for child in named_children(node) {
                    if child.node_kind().ends_with("statement")
                        || child.node_kind() == "declaration"
                        || child.node_kind() == "catch_clause"
                        || child.node_kind() == "else_clause"
                    {
                        self.statement(child, inner, depth + 1);
                    } else {
                        self.expression(child, inner);
                    }
                }
            }
            "comment" | "break_statement" | "continue_statement" | "goto_statement" => {}
            _ => self.expression(node, context),
        }
    }

    /// A `cudaSetDevice` inside a branch or loop leaves the device unknown afterwards.
    pub(super) fn forget_device_if_changed(&mut self, node: Node<'t>) {
        if self.text(node).contains("SetDevice") {
            self.device = None;
        }
    }

    pub(super) fn declaration(&mut self, node: Node<'t>, context: Context<'t>) {
        // `MACRO cudaMemset(p, 0, n);` (a macro with no semicolon before a call) parses as a
        // function declaration: the call is real, but the model cannot tell what it does
        let declared_type = node
            .field("type")
            .map(|t| size::normalize_type(self.text(t)))
            .unwrap_or_default();
        // a template (`std::vector<float> h(n)`, `thrust::device_ptr<float> p(d)`) is a library
        // container or view; any other class, named in its namespace or not
        // (`palsar::Cleanup guard(d)`), may be the owner the pointer is handed to
        let is_container = declared_type.contains('<');
        // `thrust::device_ptr<float> p(d)`: a view of the buffer, not its owner; what is written
        // through the view (`thrust::fill(p, p + n, 0)`) fills the buffer
        let is_view = declared_type.contains("device_ptr");
        // `Owner o{raw}` / `Owner o(raw)`: the constructed object takes the pointer
        let constructor_call = |d: &Node| {
            (d.node_kind() == "function_declarator" && (!is_container || is_view))
                || (d.node_kind() == "init_declarator"
                    && d.field("value").is_some_and(|v| {
                        matches!(v.node_kind(), "argument_list" | "initializer_list")
                    }))
        };
        if named_children(node).any(|d| constructor_call(&d)) {
            let mut mentioned = Vec::new();
            for declarator in named_children(node).filter(constructor_call) {
                let arguments = declarator
                    .field("value")
                    .or_else(|| declarator.field("parameters"));
                let Some(arguments) = arguments else { continue };
                walk_iterative(arguments, |n| {
                    if matches!(n.node_kind(), "identifier" | "type_identifier") {
                        mentioned.push(n);
                    }
                    true
                });
            }
            let handed = if is_view {
                EventKind::Borrowed {
                    reads: false,
                    writes: true,
                }
            } else {
                EventKind::Escaped
            };
            for identifier in mentioned {
                if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                    self.push_event(variable, handed.clone(), identifier, context);
                }
            }
            return;
        }
        for declarator in named_children(node) {
            if declarator.node_kind() != "init_declarator" {
                continue;
            }
            let Some(value) = declarator.field("value") else {
                continue;
            };
            self.expression(value, context);
            let Some(name_node) = declarator
                .field("declarator")
                .and_then(syntax::declarator_name)
            else {
                continue;
            };
            let name = self.text(name_node);
            if value.node_kind() != "argument_list" && value.node_kind() != "initializer_list" {
                let stripped = strip(value, self.source);
                if stripped.node_kind() == "call_expression"
                    && is_cuda_api(call_name(stripped, self.source))
                {
                    self.error_variables.insert(name.to_string());
                }
                self.escape_identifiers(value, context);
                if let Some(&variable) = self.by_name.get(name) {
                    self.assigned(variable, value, declarator, context, true);
                }
            }
        }
    }

    /// `v = value` (or `T* v = value`).
    pub(super) fn assigned(
        &mut self,
        variable: usize,
        value: Node<'t>,
        node: Node<'t>,
        context: Context<'t>,
        is_declaration: bool,
    ) {
        let stripped = strip(value, self.source);
        if stripped.node_kind() == "call_expression" && self.out.variables[variable].is_pointer {
            if let Some(called) = self.returned_by_call(stripped) {
                self.push_called_allocation(variable, stripped, &called, context);
                return;
            }
        }
        let kind = if is_null(stripped, self.source) {
            if is_declaration {
                return;
            }
            EventKind::Nulled
        } else if stripped.node_kind() == "new_expression" && self.text(stripped).contains('[')
            || stripped.node_kind() == "call_expression"
                && matches!(
                    call_name(stripped, self.source),
                    "malloc" | "calloc" | "aligned_alloc"
                )
        {
            let allocation = self.out.allocations.len();
            let size_node = (stripped.node_kind() == "call_expression")
                .then(|| arguments(stripped).last().copied())
                .flatten();
            self.out.allocations.push(Allocation {
                call: stripped,
                api: call_name(stripped, self.source).to_string(),
                variable: Some(variable),
                memory: Memory::Host,
                size_node,
                bytes: None,
                sizeof_unit: None,
                conditional: context.conditional,
                enclosing_loop: context.enclosing_loop,
                retried_after_failure: false,
                through: None,
                helper: None,
            });
            EventKind::Allocated {
                memory: Memory::Host,
                allocation,
            }
        } else {
            EventKind::Assigned
        };
        self.push_event(variable, kind, node, context);
    }

    /// Every tracked pointer named directly in `node` (not inside a call) is stored or returned.
    pub(super) fn escape_identifiers(&mut self, node: Node<'t>, context: Context<'t>) {
        let mut found = Vec::new();
        let source = self.source;
        walk_iterative(node, |n| match n.node_kind() {
            // `reinterpret_cast<void*>(d)` passes `d` on, like `(void*)d`
            "call_expression" => syntax::is_functional_cast(n, source),
            "lambda_expression"
            | "subscript_expression"
            | "sizeof_expression"
            | "field_expression" => false,
            "identifier" => {
                found.push(n);
                false
            }
            "pointer_expression" if operator(n, source) == "*" => false,
            _ => true,
        });
        for identifier in found {
            if let Some(&variable) = self.by_name.get(self.text(identifier)) {
                if self.out.variables[variable].is_pointer || self.out.variables[variable].is_vector
                {
                    self.push_event(variable, EventKind::Escaped, identifier, context);
                }
            }
        }
    }
}
