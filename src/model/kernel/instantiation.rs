//! What a helper called with explicit template arguments runs: `aggregate<DIR_UPDOWN, false>(...)`
//! compiles the branches its arguments decide (`if (recompute)`, `if (dir == DIR_LEFTRIGHT)`) as
//! taken or dropped, so a barrier that only a dropped branch holds is not reached by the call.

use super::*;

/// How many helpers deep an instantiation is followed (a template helper calling another with
/// its own parameters as arguments).
const MAX_INSTANTIATION_DEPTH: usize = 4;

/// Values of a helper's template parameters in one instantiation.
type Bindings = HashMap<String, i64>;

impl<'t> Analyzer<'_, 't> {
    /// Whether `call`, to a template helper of this file with explicit template arguments,
    /// reaches no barrier in the instantiation those arguments make.
    pub(super) fn instantiation_skips_barriers(&self, call: Node<'t>) -> bool {
        self.skips_barriers(call, &Bindings::default(), 0)
    }

    fn skips_barriers(&self, call: Node<'t>, outer: &Bindings, depth: usize) -> bool {
        if depth > MAX_INSTANTIATION_DEPTH {
            return false;
        }
        let Some(callee) = call
            .field("function")
            .filter(|f| f.node_kind() == "template_function")
        else {
            return false;
        };
        let (Some(name), Some(arguments), Some(model)) =
            (callee.field("name"), callee.field("arguments"), self.model)
        else {
            return false;
        };
        let count = syntax::argument_count(call);
        let name = self.text(name);
        let mut definitions = model.functions.iter().filter(|f| {
            f.name == name && !f.template_parameters.is_empty() && f.accepts_arguments(count)
        });
        let (Some(helper), None) = (definitions.next(), definitions.next()) else {
            return false;
        };
        let mut bindings = Bindings::default();
        let given = named_children(arguments).filter(|a| a.node_kind() != "comment");
        for (parameter, argument) in helper.template_parameters.iter().zip(given) {
            let value = if depth == 0 {
                self.caller_constant(argument)
            } else {
                self.bound_value(argument, outer, 0)
            };
            if let Some(value) = value {
                bindings.insert(parameter.clone(), value);
            }
        }
        !bindings.is_empty() && !self.reaches_barrier(helper.body, &bindings, depth, 0)
    }

    /// A template argument as the kernel gives it: a constant, or a local holding one
    /// (`const bool recompute = false;`).
    fn caller_constant(&self, argument: Node<'t>) -> Option<i64> {
        if let Some(name) = named_argument(argument) {
            let name = self.text(name);
            if self.function.parameter(name).is_some() || self.updated.contains(name) {
                return None;
            }
            return match self.definitions.get(name).map(Vec::as_slice) {
                Some([value]) => self.caller_constant(*value),
                Some(_) => None,
                None => self.model?.shared_scope().named_constant(name),
            };
        }
        self.constant_value(argument, 0)
            .or_else(|| self.constant_truth(argument, 0).map(i64::from))
    }

    /// Whether `node`, in a helper instantiated with `bindings`, may reach a barrier: branches
    /// the bindings decide are followed only where taken.
    fn reaches_barrier(
        &self,
        node: Node<'t>,
        bindings: &Bindings,
        depth: usize,
        nesting: usize,
    ) -> bool {
        if nesting > MAX_DEPTH {
            return true;
        }
        let mut reaches = false;
        syntax::walk_iterative(node, |inner| {
            if reaches {
                return false;
            }
            match inner.node_kind() {
                "lambda_expression" => false,
                "if_statement" => {
                    let decided = inner
                        .field("condition")
                        .and_then(|c| self.bound_value(syntax::condition_value(c), bindings, 0));
                    let Some(value) = decided else {
                        return true;
                    };
                    let taken = if value != 0 {
                        inner.field("consequence")
                    } else {
                        inner.field("alternative")
                    };
                    if let Some(taken) = taken {
                        reaches |= self.reaches_barrier(taken, bindings, depth, nesting + 1);
                    }
                    false
                }
                "call_expression" => {
                    if self.is_barrier(inner) {
                        reaches = true;
                    } else if let Some((summary, _)) = self.helper_call(inner) {
                        reaches |= summary.barrier.is_some()
                            && !self.skips_barriers(inner, bindings, depth + 1);
                    }
                    !reaches
                }
                _ => true,
            }
        });
        reaches
    }

    /// The value of a test or template argument inside a helper instantiated with `bindings`:
    /// its template parameters bound, constants of the file, and operators on those.
    fn bound_value(&self, node: Node<'t>, bindings: &Bindings, depth: usize) -> Option<i64> {
        if depth > 16 {
            return None;
        }
        let node = strip(node, self.source);
        let value = |n: Option<Node<'t>>| self.bound_value(n?, bindings, depth + 1);
        match node.node_kind() {
            "true" => Some(1),
            "false" => Some(0),
            "number_literal" => crate::model::size::parse_number(self.text(node))
                .and_then(|v| i64::try_from(v).ok()),
            "identifier" | "type_descriptor" => {
                let name = self.text(named_argument(node)?);
                bindings
                    .get(name)
                    .copied()
                    .or_else(|| self.model?.shared_scope().named_constant(name))
            }
            "qualified_identifier" => {
                let mut name = node;
                while name.node_kind() == "qualified_identifier" {
                    name = name.field("name")?;
                }
                self.model?.shared_scope().named_constant(self.text(name))
            }
            "unary_expression" => {
                let inner = value(node.field("argument"))?;
                match operator(node, self.source) {
                    "!" => Some(i64::from(inner == 0)),
                    "-" => inner.checked_neg(),
                    "~" => Some(!inner),
                    _ => None,
                }
            }
            "binary_expression" => {
                let op = operator(node, self.source);
                let (left, right) = (value(node.field("left")), value(node.field("right")));
                match op {
                    "&&" if left == Some(0) || right == Some(0) => return Some(0),
                    "||" if left.is_some_and(|v| v != 0) || right.is_some_and(|v| v != 0) => {
                        return Some(1)
                    }
                    _ => {}
                }
                let (left, right) = (left?, right?);
                let truth = |holds: bool| Some(i64::from(holds));
                match op {
                    "&&" => truth(left != 0 && right != 0),
                    "||" => truth(left != 0 || right != 0),
                    "==" => truth(left == right),
                    "!=" => truth(left != right),
                    "<" => truth(left < right),
                    "<=" => truth(left <= right),
                    ">" => truth(left > right),
                    ">=" => truth(left >= right),
                    _ => super::warps::integer_operation(op, left, right),
                }
            }
            _ => None,
        }
    }
}

/// The name a template argument gives: `recompute` in `f<recompute>`, which the grammar reads
/// as a type (`type_descriptor`), or a plain identifier.
fn named_argument(argument: Node) -> Option<Node> {
    match argument.node_kind() {
        "identifier" => Some(argument),
        "type_descriptor" => argument
            .field("type")
            .filter(|t| t.node_kind() == "type_identifier")
            .filter(|_| argument.named_child_count() == 1),
        _ => None,
    }
}
