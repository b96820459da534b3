//! Integer arithmetic and conversions on every thread's values at once. Linear forms are kept
//! linear where they can be, so that a block's threads cost one value rather than one each.

use super::*;

/// A conversion to a type, read once for every thread's value.
pub(super) struct Cast {
    pub(super) pointer: bool,
    pub(super) pointee: Option<i64>,
    /// The pointee type is the element type of the array a pointer points into.
    pub(super) same_type: Vec<bool>,
    pub(super) kind: IntCast,
}

#[derive(Clone, Copy)]
pub(super) enum IntCast {
    Float,
    Unsigned32,
    Signed32,
    Keep,
}

impl Cast {
    pub(super) fn new(type_text: &str, arrays: &[Array]) -> Cast {
        let t_norm = type_text.replace(' ', "");
        let kind =
            if t_norm.contains("float") || t_norm.contains("double") || t_norm.contains("half") {
                IntCast::Float
            } else if matches!(
                t_norm.as_str(),
                "unsigned" | "unsignedint" | "uint32_t" | "uint"
            ) {
                IntCast::Unsigned32
            } else if matches!(t_norm.as_str(), "int" | "int32_t") {
                IntCast::Signed32
            } else {
                IntCast::Keep
            };
        let pointer = type_text.contains('*');
        Cast {
            pointer,
            pointee: pointee_size(type_text),
            same_type: if pointer {
                arrays
                    .iter()
                    .map(|a| same_type(type_text, &a.element_type))
                    .collect()
            } else {
                Vec::new()
            },
            kind,
        }
    }

    /// The conversion of every thread's value. A linear form of pointers keeps its bytes (the
    /// pointer's kind alone decides); one of integers stays as it is where no thread's integer
    /// changes.
    pub(super) fn apply_lanes(&self, values: &Vals, kinds: &Kinds) -> Vals {
        if let Lanes::Linear(linear) = values {
            match linear.shape {
                Val::Ptr(_) => return values.convert(|v| self.apply(v, kinds)),
                Val::Int(_, varies) => {
                    let (low, high) = linear.range();
                    let unchanged = match self.kind {
                        IntCast::Float => return Lanes::Uni(Val::Unknown(varies)),
                        IntCast::Unsigned32 => low >= 0 && high <= 0xffff_ffff,
                        IntCast::Signed32 => {
                            low >= i128::from(i32::MIN) && high <= i128::from(i32::MAX)
                        }
                        IntCast::Keep => true,
                    };
                    if unchanged {
                        return values.clone();
                    }
                }
                _ => {}
            }
        }
        values.map(|v| self.apply(v, kinds))
    }

    pub(super) fn apply(&self, value: Val, kinds: &Kinds) -> Val {
        match value {
            Val::Ptr(p) => {
                if !self.pointer {
                    return Val::Unknown(true);
                }
                let Some(kind) = kinds.get(p.kind) else {
                    return Val::Unknown(true);
                };
                match self.pointee {
                    Some(size) if kind.shape.len == 0 || size == kind.element => Val::Ptr(Ptr {
                        kind: kinds.id(PtrKind {
                            element: size,
                            shape: Shape::FLAT,
                            extent: None,
                            ..kind
                        }),
                        byte: p.byte,
                    }),
                    _ if self.same_type.get(kind.array as usize) == Some(&true) => Val::Ptr(p),
                    _ => Val::Unknown(true),
                }
            }
            Val::Int(v, t) => match self.kind {
                IntCast::Float => Val::Unknown(t),
                IntCast::Unsigned32 => Val::Int(v & 0xffff_ffff, t),
                IntCast::Signed32 => Val::Int(v as i32 as i64, t),
                IntCast::Keep => Val::Int(v, t),
            },
            // a conversion may change what was read
            Val::Held(..) => Val::Unknown(true),
            other => other,
        }
    }
}

pub(super) fn subscript_index(node: Node) -> Option<Node> {
    let indices = node.field("indices").or_else(|| node.field("index"))?;
    if indices.node_kind() == "subscript_argument_list" {
        named_children(indices).find(|c| c.node_kind() != "comment")
    } else {
        Some(indices)
    }
}

/// A binary operator, read once for every thread's operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Other,
}

impl Op {
    pub(super) fn parse(op: &str) -> Op {
        match op {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "<<" => Op::Shl,
            ">>" => Op::Shr,
            "&" => Op::BitAnd,
            "|" => Op::BitOr,
            "^" => Op::BitXor,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            _ => Op::Other,
        }
    }
}

/// `l op r` for every thread. A linear form stays one where every thread's result is the
/// form's (sums, differences and multiples of integers, pointers moved by an integer, each
/// checked for overflow on the threads at the ends of the form's range); any other operation is
/// read thread by thread.
pub(super) fn binary_lanes(op: Op, l: &Vals, r: &Vals, kinds: &Kinds) -> Vals {
    let linear = match (l, r) {
        (Lanes::Linear(a), Lanes::Uni(b)) => linear_binary(op, a, *b, true, kinds),
        (Lanes::Uni(b), Lanes::Linear(a)) => linear_binary(op, a, *b, false, kinds),
        (Lanes::Linear(a), Lanes::Linear(b)) => linear_pair(op, a, b),
        _ => None,
    };
    linear
        .or_else(|| unknown_binary(l, r))
        .unwrap_or_else(|| l.zip(r, |a, b| binary(op, a, b, kinds)))
}

/// `l op r` where the operands' variants alone decide it, for operands of one variant on every
/// thread (one value or a linear form): `binary` reads the numbers only of integers, chosen
/// values and pointers, so with anything else on either side (a value read from memory times
/// another) every thread's result is the same unknown, found without reading each thread's.
pub(super) fn unknown_binary(l: &Vals, r: &Vals) -> Option<Vals> {
    let shape = |values: &Vals| match values {
        Lanes::Uni(v) => Some(*v),
        Lanes::Linear(linear) => Some(linear.shape),
        Lanes::Per(_) => None,
    };
    let (a, b) = (shape(l)?, shape(r)?);
    let numbered = |v: Val| matches!(v, Val::Int(..) | Val::Chosen(_) | Val::Ptr(_));
    if numbered(a) && numbered(b) {
        return None;
    }
    // whether a value varies does not depend on its number (`Val::varies`)
    Some(Lanes::Uni(Val::Unknown(a.varies() || b.varies())))
}

/// `a op b` (`b op a` unless `linear_left`) for a linear form `a` and a value every thread
/// shares, where the result is one value or a linear form: None where it is neither.
fn linear_binary(
    op: Op,
    a: &Linear<Val>,
    b: Val,
    linear_left: bool,
    kinds: &Kinds,
) -> Option<Vals> {
    let base = i128::from(a.base);
    let coef = a.coef.map(i128::from);
    match (a.shape, b) {
        (Val::Int(_, va), Val::Int(c, vb))
            if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne) =>
        {
            let (low, high) = a.range();
            decided(op, low, high, i128::from(c), linear_left)
                .map(|truth| Lanes::Uni(Val::Int(truth, va || vb)))
        }
        (Val::Int(_, va), Val::Chosen(c)) if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge) => {
            let (low, high) = a.range();
            decided(op, low, high, i128::from(c), linear_left)
                .map(|truth| Lanes::Uni(Val::Int(truth, va)))
        }
        (Val::Int(_, va), Val::Int(c, vb)) => {
            let c = i128::from(c);
            let (base, coef) = match (op, linear_left) {
                (Op::Add, _) => (base + c, coef),
                (Op::Sub, true) => (base - c, coef),
                (Op::Sub, false) => (c - base, coef.map(|k| -k)),
                (Op::Mul, _) => (base * c, coef.map(|k| k * c)),
                _ => return None,
            };
            Linear::form(Val::Int(0, va || vb), base, coef, a.block)
        }
        // with a chosen parameter, a varying integer gives a varying unknown, but for an order
        (Val::Int(_, true), Val::Chosen(_)) if !matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge) => {
            Some(Lanes::Uni(Val::Unknown(true)))
        }
        // a pointer moved by a varying integer
        (Val::Int(..), Val::Ptr(p)) if (op == Op::Add) || (op == Op::Sub && !linear_left) => {
            let negate = op == Op::Sub;
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            let (low, high) = a.range();
            let (low, high) = if negate { (-high, -low) } else { (low, high) };
            // every thread's `delta * row` must fit, as each thread computes it first
            let fits = |v: i128| i64::try_from(v).is_ok();
            if !(fits(low)
                && fits(high)
                && fits(low * i128::from(row))
                && fits(high * i128::from(row)))
            {
                return None;
            }
            let sign = if negate { -1 } else { 1 };
            let row = i128::from(row);
            Linear::form(
                Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte: 0,
                }),
                i128::from(p.byte) + sign * row * base,
                coef.map(|k| sign * row * k),
                a.block,
            )
        }
        (Val::Int(_, va), Val::Unknown(_) | Val::Load(..) | Val::Held(..)) => {
            Some(Lanes::Uni(Val::Unknown(va || b.varies())))
        }
        (Val::Int(..), Val::Ptr(_)) => Some(Lanes::Uni(Val::Unknown(true))),
        // a pointer moved by an integer every thread shares
        (Val::Ptr(p), Val::Int(c, _)) if op == Op::Add || (linear_left && op == Op::Sub) => {
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            let delta = if op == Op::Sub {
                c.checked_neg()
            } else {
                Some(c)
            };
            let Some(moved) = delta.and_then(|d| d.checked_mul(row)) else {
                return Some(Lanes::Uni(Val::Unknown(true)));
            };
            Linear::form(
                Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte: 0,
                }),
                base + i128::from(moved),
                coef,
                a.block,
            )
        }
        (Val::Ptr(_), _) => Some(Lanes::Uni(Val::Unknown(true))),
        _ => None,
    }
}

/// A comparison of every thread's `x` (between `low` and `high`) with `c` (`x op c`, or
/// `c op x` unless `linear_left`), where it comes out the same for all.
fn decided(op: Op, low: i128, high: i128, c: i128, linear_left: bool) -> Option<i64> {
    let op = match (linear_left, op) {
        (true, op) => op,
        (false, Op::Lt) => Op::Gt,
        (false, Op::Le) => Op::Ge,
        (false, Op::Gt) => Op::Lt,
        (false, Op::Ge) => Op::Le,
        (false, op) => op,
    };
    let (all, none) = match op {
        Op::Lt => (high < c, low >= c),
        Op::Le => (high <= c, low > c),
        Op::Gt => (low > c, high <= c),
        Op::Ge => (low >= c, high < c),
        Op::Eq => (low == c && high == c, c < low || c > high),
        Op::Ne => (c < low || c > high, low == c && high == c),
        _ => return None,
    };
    if all {
        Some(1)
    } else if none {
        Some(0)
    } else {
        None
    }
}

/// `a op b` for two linear forms of integers, where it is one.
fn linear_pair(op: Op, a: &Linear<Val>, b: &Linear<Val>) -> Option<Vals> {
    let (Val::Int(_, va), Val::Int(_, vb)) = (a.shape, b.shape) else {
        return None;
    };
    if a.block != b.block {
        return None;
    }
    let sign: i128 = match op {
        Op::Add => 1,
        Op::Sub => -1,
        _ => return None,
    };
    let mut coef = [0i128; 3];
    for (axis, slot) in coef.iter_mut().enumerate() {
        *slot = i128::from(a.coef[axis]) + sign * i128::from(b.coef[axis]);
    }
    Linear::form(
        Val::Int(0, va || vb),
        i128::from(a.base) + sign * i128::from(b.base),
        coef,
        a.block,
    )
}

pub(super) fn binary(op: Op, l: Val, r: Val, kinds: &Kinds) -> Val {
    let varies = l.varies() || r.varies();
    match (l, r) {
        (Val::Int(a, _), Val::Int(b, _)) => {
            apply(op, a, b).map_or(Val::Unknown(varies), |v| Val::Int(v, varies))
        }
        (Val::Chosen(a) | Val::Int(a, _), Val::Chosen(b) | Val::Int(b, _)) => {
            match (op, apply(op, a, b)) {
                (_, None) | (Op::Eq | Op::Ne, _) => Val::Unknown(varies),
                (Op::Lt | Op::Le | Op::Gt | Op::Ge, Some(v)) => Val::Int(v, varies),
                (_, Some(v)) if !varies => Val::Chosen(v),
                _ => Val::Unknown(varies),
            }
        }
        (Val::Ptr(p), Val::Int(b, _)) if op == Op::Add || op == Op::Sub => {
            let Some(row) = kinds
                .get(p.kind)
                .and_then(|kind| kind.shape.row_bytes(kind.element))
            else {
                return Val::Unknown(true);
            };
            let delta = if op == Op::Sub {
                b.checked_neg()
            } else {
                Some(b)
            };
            match delta
                .and_then(|d| d.checked_mul(row))
                .and_then(|d| d.checked_add(p.byte))
            {
                Some(byte) => Val::Ptr(Ptr {
                    kind: kinds.unbounded(p.kind),
                    byte,
                }),
                None => Val::Unknown(true),
            }
        }
        (Val::Int(a, _), Val::Ptr(p)) if op == Op::Add => {
            binary(Op::Add, Val::Ptr(p), Val::Int(a, false), kinds)
        }
        _ => Val::Unknown(varies),
    }
}

pub(super) fn arithmetic(op: &str, a: i64, b: i64) -> Option<i64> {
    apply(Op::parse(op), a, b)
}

fn apply(op: Op, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        Op::Add => a.checked_add(b)?,
        Op::Sub => a.checked_sub(b)?,
        Op::Mul => a.checked_mul(b)?,
        Op::Div => a.checked_div(b)?,
        Op::Rem => a.checked_rem(b)?,
        Op::Shl => {
            if !(0..63).contains(&b) {
                return None;
            }
            a.checked_mul(1i64 << b)?
        }
        Op::Shr => {
            if !(0..63).contains(&b) {
                return None;
            }
            a >> b
        }
        Op::BitAnd => a & b,
        Op::BitOr => a | b,
        Op::BitXor => a ^ b,
        Op::Lt => (a < b) as i64,
        Op::Le => (a <= b) as i64,
        Op::Gt => (a > b) as i64,
        Op::Ge => (a >= b) as i64,
        Op::Eq => (a == b) as i64,
        Op::Ne => (a != b) as i64,
        Op::Other => return None,
    })
}

/// `T * 2`, `(T*2)`: a `#define` value split into numbers, names and operators.
pub(super) fn split_operators(token: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in token.char_indices() {
        if matches!(c, '*' | '+' | '-' | '/' | '(' | ')') {
            if start < i {
                out.push(&token[start..i]);
            }
            if c != '(' && c != ')' {
                out.push(&token[i..i + 1]);
            }
            start = i + 1;
        }
    }
    if start < token.len() {
        out.push(&token[start..]);
    }
    out
}
