//! Expressions as a block reads them, one value per thread, and the places that assignments and
//! reads land on.

use super::*;

impl<'p, 'm, 't> Block<'p, 'm, 't> {
    // ---- expressions ------------------------------------------------------------------

    pub(super) fn eval(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        self.step(mask)?;
        let unknown = |varies: bool| Ok(Lanes::Uni(Val::Unknown(varies)));
        match node.node_kind() {
            "number_literal" => {
                let literal = self.text(node);
                Ok(Lanes::Uni(
                    crate::model::size::parse_number(literal)
                        .filter(|_| !literal.contains(['.', 'e', 'E']) || literal.starts_with("0x"))
                        .and_then(|v| i64::try_from(v).ok())
                        .map_or(Val::Unknown(false), |v| Val::Int(v, false)),
                ))
            }
            "true" => Ok(Lanes::Uni(Val::Int(1, false))),
            "false" => Ok(Lanes::Uni(Val::Int(0, false))),
            "char_literal" | "string_literal" | "null" | "nullptr" => unknown(false),
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.eval(inner, mask, depth + 1),
                    None => unknown(true),
                }
            }
            "identifier" => {
                // the local is looked up once, for its place and its value
                let name = self.text(node);
                let Some(position) = self.position(name) else {
                    return Ok(self.global_value(name));
                };
                match self.scalar_place(name, &self.scopes[position].1) {
                    Some(loc) => Ok(self.read(node, &Lanes::Uni(loc), mask)),
                    None => Ok(self.scopes[position].1.clone()),
                }
            }
            "field_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let field = self
                    .part(node, Part::Field)
                    .map(|f| self.text(f))
                    .unwrap_or("");
                let axis = match field {
                    "x" => Some(0),
                    "y" => Some(1),
                    "z" => Some(2),
                    _ => None,
                };
                match (self.text(argument), axis) {
                    ("threadIdx", Some(a)) => Ok(self.coordinates[a].clone()),
                    ("blockDim", Some(a)) => Ok(Lanes::Uni(Val::Int(self.block[a], false))),
                    ("blockIdx", Some(_)) => Ok(Lanes::Uni(Val::Int(0, false))),
                    ("gridDim", Some(_)) => unknown(false),
                    _ => {
                        // a member of something: evaluate the object for its reads, not followed
                        let object = self.eval(argument, mask, depth + 1)?;
                        Ok(object.convert(|v| Val::Unknown(v.varies())))
                    }
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) =
                    (self.part(node, Part::Left), self.part(node, Part::Right))
                else {
                    return unknown(true);
                };
                let op = self.program.operator(node);
                let l = self.eval(left, mask, depth + 1)?;
                if op == "&&" || op == "||" {
                    return self.logical(op == "||", &l, right, mask, depth);
                }
                let r = self.eval(right, mask, depth + 1)?;
                let op = Op::parse(op);
                Ok(binary_lanes(op, &l, &r, &self.program.kinds))
            }
            "unary_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let v = self.eval(argument, mask, depth + 1)?;
                let op = self.program.operator(node);
                Ok(v.map(|v| match (op, v) {
                    ("-", Val::Int(x, t)) => {
                        x.checked_neg().map_or(Val::Unknown(t), |x| Val::Int(x, t))
                    }
                    ("+", v) => v,
                    ("!", Val::Int(x, t)) => Val::Int((x == 0) as i64, t),
                    ("!", Val::Ptr(_)) => Val::Int(0, true),
                    ("~", Val::Int(x, t)) => Val::Int(!x, t),
                    ("-", Val::Chosen(x)) => {
                        x.checked_neg().map_or(Val::Unknown(false), Val::Chosen)
                    }
                    (_, v) => Val::Unknown(v.varies()),
                }))
            }
            "conditional_expression" => {
                let Some(condition) = self.part(node, Part::Condition) else {
                    return unknown(true);
                };
                let c = self.eval(condition, mask, depth + 1)?;
                let (yes, no, open) = self.split(&c, mask);
                let before = self.speculative;
                self.speculative = self.speculative.or(open);
                let a = match self.part(node, Part::Consequence) {
                    Some(n) if !yes.or(open).is_empty() => self.eval(n, yes.or(open), depth + 1),
                    _ => unknown(true),
                };
                let b = match self.part(node, Part::Alternative) {
                    Some(n) if !no.or(open).is_empty() => self.eval(n, no.or(open), depth + 1),
                    _ => unknown(true),
                };
                self.speculative = before;
                let (a, b) = (a?, b?);
                if let (Lanes::Uni(_), true) = (&c, open.is_empty()) {
                    return Ok(if yes.is_empty() { b } else { a });
                }
                Ok(Lanes::from_fn(self.lanes, |lane| {
                    match c.get(lane).truth() {
                        Some(true) => a.get(lane),
                        Some(false) => b.get(lane),
                        None => match (a.get(lane), b.get(lane)) {
                            (Val::Int(x, s), Val::Int(y, t)) if x == y => {
                                Val::Int(x, s || t || c.get(lane).varies())
                            }
                            _ => Val::Unknown(true),
                        },
                    }
                }))
            }
            "cast_expression" => {
                let Some(value) = self.part(node, Part::Value) else {
                    return unknown(true);
                };
                let v = self.eval(value, mask, depth + 1)?;
                let type_text = self
                    .part(node, Part::Type)
                    .map(|t| self.text(t))
                    .unwrap_or("");
                let cast = Cast::new(type_text, &self.program.arrays);
                Ok(cast.apply_lanes(&v, &self.program.kinds))
            }
            "assignment_expression" => self.assignment(node, mask, depth),
            "update_expression" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return unknown(true);
                };
                let op = self.program.operator(node);
                let delta = if op == "--" { -1 } else { 1 };
                let prefix = node.child(0).is_some_and(|c| !c.is_named());
                match self.place(argument, mask, depth)? {
                    Place::Local(name) => {
                        let old = self.identifier_value(name);
                        let one = Lanes::Uni(Val::Int(delta, false));
                        let new = binary_lanes(Op::Add, &old, &one, &self.program.kinds);
                        self.assign_local(name, &new, mask);
                        Ok(if prefix { new } else { old })
                    }
                    Place::Memory(node, locs) => {
                        self.access(node, &locs, mask, AccessKind::ReadWrite, None);
                        unknown(true)
                    }
                }
            }
            "subscript_expression" | "pointer_expression" => {
                if node.node_kind() == "pointer_expression" && self.program.operator(node) == "&" {
                    let Some(argument) = self.part(node, Part::Argument) else {
                        return unknown(true);
                    };
                    return Ok(match self.place(argument, mask, depth)? {
                        Place::Memory(_, locs) => locs.map(|loc| match loc {
                            Loc::Shared { ptr, .. } => Val::Ptr(ptr),
                            // one place for every thread (`&items[blockIdx.x]`): one address
                            Loc::Elsewhere(varies) => Val::Unknown(varies),
                            Loc::Indexed(_) => Val::Unknown(true),
                        }),
                        Place::Local(_) => Lanes::Uni(Val::Unknown(true)),
                    });
                }
                match self.place(node, mask, depth)? {
                    Place::Memory(node, locs) => Ok(self.read(node, &locs, mask)),
                    Place::Local(name) => Ok(self.identifier_value(name)),
                }
            }
            "call_expression" => self.call(node, mask, depth),
            "comma_expression" => {
                let mut last = Lanes::Uni(Val::Unknown(true));
                for child in named_children(node) {
                    last = self.eval(child, mask, depth + 1)?;
                }
                Ok(last)
            }
            "sizeof_expression" => {
                let size = self
                    .part(node, Part::Type)
                    .and_then(|t| crate::model::size::builtin_size(self.text(t)))
                    .and_then(|v| i64::try_from(v).ok());
                Ok(Lanes::Uni(
                    size.map_or(Val::Unknown(false), |s| Val::Int(s, false)),
                ))
            }
            "lambda_expression" => unknown(true),
            "gnu_asm_expression" => {
                self.poison(mask);
                unknown(true)
            }
            _ => {
                // anything else: evaluate the parts for their reads; the value is not followed
                let mut varies = Lanes::Uni(false);
                for child in named_children(node) {
                    if child.node_kind().ends_with("_statement") {
                        self.stop(mask);
                        return unknown(true);
                    }
                    let v = self.eval(child, mask, depth + 1)?;
                    varies = varies.zip(&v, |a, v| a || v.varies());
                }
                Ok(varies.map(Val::Unknown))
            }
        }
    }

    /// `l && right` (or `||`): a thread whose left value decides does not evaluate the right;
    /// one whose left value is unknown evaluates it speculatively.
    pub(super) fn logical(
        &mut self,
        or: bool,
        l: &Vals,
        right: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let short = Some(or);
        let (yes, no, open) = self.split(l, mask);
        let rest = if or { no } else { yes }.or(open);
        let r = if rest.is_empty() {
            Lanes::Uni(Val::Unknown(true))
        } else {
            let before = self.speculative;
            self.speculative = self.speculative.or(open);
            let r = self.eval(right, rest, depth + 1);
            self.speculative = before;
            r?
        };
        if rest.is_empty() && matches!(l, Lanes::Uni(_)) {
            return Ok(l.map(|v| Val::Int(or as i64, v.varies())));
        }
        Ok(l.zip(&r, |l, r| {
            if l.truth() == short {
                return Val::Int(or as i64, l.varies());
            }
            let varies = l.varies() || r.varies();
            match (l.truth(), r.truth()) {
                (Some(_), Some(b)) => Val::Int(b as i64, varies),
                (None, Some(b)) if Some(b) == short => Val::Int(b as i64, varies),
                _ => Val::Unknown(varies),
            }
        }))
    }

    pub(super) fn identifier_value(&self, name: &'t str) -> Vals {
        if let Some(v) = self.lookup(name) {
            return v.clone();
        }
        self.global_value(name)
    }

    /// The value of a name that is not a local: a constant of the file, a `#define`.
    pub(super) fn global_value(&self, name: &'t str) -> Vals {
        if let Some(v) = self.program.named_constant(name) {
            return Lanes::Uni(Val::Int(v, false));
        }
        // `#define tid threadIdx.x`
        if let Some(value) = self.program.scope.define(name) {
            let compact: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '(' && *c != ')')
                .collect();
            if let Some((object, field)) = compact.split_once('.') {
                let axis = match field {
                    "x" => 0,
                    "y" => 1,
                    "z" => 2,
                    _ => return Lanes::Uni(Val::Unknown(false)),
                };
                return match object {
                    "threadIdx" => self.coordinates[axis].clone(),
                    "blockDim" => Lanes::Uni(Val::Int(self.block[axis], false)),
                    "blockIdx" => Lanes::Uni(Val::Int(0, false)),
                    _ => Lanes::Uni(Val::Unknown(false)),
                };
            }
        }
        match name {
            "warpSize" => Lanes::Uni(Val::Int(self.program.scope.warp, false)),
            _ => Lanes::Uni(Val::Unknown(false)),
        }
    }

    /// Nothing is concluded in the barrier intervals the threads of `mask` are in.
    pub(super) fn poison(&mut self, mask: Mask) {
        for lane in mask.and(self.alive).lanes() {
            let epoch = self.epoch[lane];
            if !self.log.poisoned.contains(&epoch) {
                self.log.poisoned.push(epoch);
            }
        }
    }

    /// The place an lvalue expression names.
    pub(super) fn place(
        &mut self,
        node: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Place<'t>, Invalid> {
        if depth > MAX_NESTING {
            return Err(Invalid);
        }
        let elsewhere = |node| Place::Memory(node, Lanes::Uni(Loc::Elsewhere(true)));
        match node.node_kind() {
            "parenthesized_expression" => {
                match named_children(node).find(|c| c.node_kind() != "comment") {
                    Some(inner) => self.place(inner, mask, depth + 1),
                    None => Ok(elsewhere(node)),
                }
            }
            "identifier" => Ok(self
                .place_of_identifier(node)
                .unwrap_or_else(|| elsewhere(node))),
            "subscript_expression" => {
                let (Some(base), Some(index)) = (
                    self.part(node, Part::Argument),
                    self.part(node, Part::Index),
                ) else {
                    return Ok(elsewhere(node));
                };
                let base = self.eval_pointer(base, mask, depth)?;
                let index = self.eval(index, mask, depth + 1)?;
                Ok(Place::Memory(node, self.offset(&base, &index, true, mask)))
            }
            "pointer_expression" if self.program.operator(node) == "*" => {
                let Some(argument) = self.part(node, Part::Argument) else {
                    return Ok(elsewhere(node));
                };
                let pointer = self.eval(argument, mask, depth + 1)?;
                let zero = Lanes::Uni(Val::Int(0, false));
                Ok(Place::Memory(
                    node,
                    self.offset(&pointer, &zero, false, mask),
                ))
            }
            "field_expression" => {
                // a member of a shared struct: members are not told apart, so not followed
                if let Some(argument) = self.part(node, Part::Argument) {
                    if argument.node_kind() != "identifier" {
                        self.eval(argument, mask, depth + 1)?;
                    }
                }
                Ok(elsewhere(node))
            }
            _ => {
                self.eval(node, mask, depth + 1)?;
                Ok(elsewhere(node))
            }
        }
    }

    /// The base of a subscript: an array or pointer value (a row of a 2D array stays a pointer).
    pub(super) fn eval_pointer(
        &mut self,
        base: Node<'t>,
        mask: Mask,
        depth: usize,
    ) -> Result<Vals, Invalid> {
        let stripped = crate::syntax::strip(base, self.source());
        if stripped.node_kind() == "subscript_expression" {
            return Ok(match self.place(stripped, mask, depth + 1)? {
                Place::Memory(node, locs) => {
                    let values = self.read(node, &locs, mask);
                    match &locs {
                        Lanes::Linear(linear) if matches!(linear.shape, Loc::Shared { .. }) => {
                            values
                        }
                        Lanes::Linear(_) => Lanes::Uni(Val::Unknown(true)),
                        _ => locs.zip(&values, |loc, value| match loc {
                            Loc::Shared { .. } => value,
                            Loc::Elsewhere(_) | Loc::Indexed(_) => Val::Unknown(true),
                        }),
                    }
                }
                Place::Local(_) => Lanes::Uni(Val::Unknown(true)),
            });
        }
        if stripped.node_kind() == "identifier" {
            return Ok(self.identifier_value(self.text(stripped)));
        }
        self.eval(base, mask, depth + 1)
    }

    /// A shared scalar or a local named by `node`; None for anything else (a global, a constant).
    pub(super) fn place_of_identifier(&self, node: Node<'t>) -> Option<Place<'t>> {
        let name = self.text(node);
        let value = self.lookup(name)?;
        Some(match self.scalar_place(name, value) {
            Some(loc) => Place::Memory(node, Lanes::Uni(loc)),
            None => Place::Local(name),
        })
    }

    /// The element of a shared scalar, where local `name` holding `value` names one.
    pub(super) fn scalar_place(&self, name: &str, value: &Vals) -> Option<Loc> {
        match value {
            Lanes::Uni(Val::Ptr(p))
                if self
                    .program
                    .kinds
                    .get(p.kind)
                    .and_then(|kind| self.program.arrays.get(kind.array as usize))
                    .is_some_and(|a| a.scalar && a.name == name)
                    && { p.byte } == 0 =>
            {
                Some(Loc::Shared {
                    ptr: *p,
                    row: false,
                })
            }
            _ => None,
        }
    }

    /// `base[index]` (or `*base`) per thread: the element's place, checked against the array's
    /// extents (a logged thread out of them marks the run as not fitting).
    pub(super) fn offset(
        &mut self,
        base: &Vals,
        index: &Vals,
        subscript: bool,
        mask: Mask,
    ) -> Lanes<Loc> {
        let kinds = &self.program.kinds;
        // the threads of one subscript mostly share the kind of their pointer
        let mut cached: Option<(u32, Option<Step>)> = None;
        let mut step_of = |kind: u32| match cached {
            Some((known, step)) if known == kind => step,
            _ => {
                let step = kinds.step(kind);
                cached = Some((kind, step));
                step
            }
        };
        let locs = match (base, index) {
            (Lanes::Uni(b), Lanes::Uni(i)) => Lanes::Uni(offset(*b, *i, subscript, &mut step_of)),
            _ => linear_offset(base, index, subscript, &mut step_of).unwrap_or_else(|| {
                Lanes::per(
                    (0..self.lanes)
                        .map(|lane| {
                            offset(base.get(lane), index.get(lane), subscript, &mut step_of)
                        })
                        .collect(),
                )
            }),
        };
        if subscript && !within_extent(base, index, &mut step_of) {
            // a logged thread that would leave the array's first extent
            let mut leaves_at = |lane: usize| match (base.get(lane), index.get(lane)) {
                (Val::Ptr(ptr), Val::Int(index, _)) => step_of(ptr.kind)
                    .and_then(|step| step.extent)
                    .is_some_and(|extent| index < 0 || index >= extent),
                _ => false,
            };
            let certain = self.certain(mask);
            let leaves = match (base, index) {
                (Lanes::Uni(_), Lanes::Uni(_)) => !certain.is_empty() && leaves_at(0),
                _ => certain.lanes().any(&mut leaves_at),
            };
            if leaves {
                self.log.outside = true;
            }
        }
        locs
    }

    /// Logs the reads the threads of `mask` make at `locs`; each thread's value.
    pub(super) fn read(&mut self, node: Node<'t>, locs: &Lanes<Loc>, mask: Mask) -> Vals {
        // a read of what every reader stored itself, the same in every thread: it returns that
        // value, and pairs with no store of it (`benign`)
        if let Some((value, stored)) = self.own_uniform_store(locs, mask) {
            self.access(
                node,
                locs,
                mask,
                AccessKind::Read,
                Some(&Lanes::Uni(stored)),
            );
            return Lanes::Uni(value);
        }
        self.access(node, locs, mask, AccessKind::Read, None);
        let indexed = match locs {
            Lanes::Uni(loc) => matches!(loc, Loc::Indexed(_)),
            Lanes::Linear(linear) => matches!(linear.shape, Loc::Indexed(_)),
            Lanes::Per(locs) => locs.iter().any(|l| matches!(l, Loc::Indexed(_))),
        };
        let site = if indexed { self.log.site(node) } else { 0 };
        if let Lanes::Linear(linear) = locs {
            // the same variant for every thread: a row is a pointer at the same byte, a read of
            // memory not followed the value at the same index
            let shape = match linear.shape {
                Loc::Shared { ptr, row: true } => Val::Ptr(ptr),
                Loc::Shared { ptr, row: false } => Val::Held(self.held_token(ptr.kind), ptr.byte),
                Loc::Elsewhere(varies) => return Lanes::Uni(Val::Unknown(varies)),
                Loc::Indexed(index) => Val::Load(site, index),
            };
            return Lanes::Linear(Linear {
                shape,
                base: linear.base,
                coef: linear.coef,
                block: linear.block,
            });
        }
        let mut last: Option<(u32, u32)> = None;
        let mut value = |block: &mut Self, loc: Loc| match loc {
            Loc::Shared { ptr, row: true } => Val::Ptr(ptr),
            Loc::Shared { ptr, row: false } => {
                let token = match last {
                    Some((kind, token)) if kind == ptr.kind => token,
                    _ => block.held_token(ptr.kind),
                };
                last = Some((ptr.kind, token));
                Val::Held(token, ptr.byte)
            }
            Loc::Elsewhere(varies) => Val::Unknown(varies),
            Loc::Indexed(index) => Val::Load(site, index),
        };
        match locs {
            Lanes::Uni(loc) => Lanes::Uni(value(self, *loc)),
            _ => Lanes::per(
                (0..self.lanes)
                    .map(|lane| value(self, locs.get(lane)))
                    .collect(),
            ),
        }
    }
}
