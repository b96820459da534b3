//! What the names of the source mean to a run: shared declarations, barriers, integer types, and
//! the builtins known not to touch memory or synchronise. Held as lists so that a new builtin is
//! one line.

use super::*;

pub(super) fn is_shared(declaration: Node, source: &str) -> bool {
    crate::syntax::children(declaration).any(|c| {
        matches!(
            c.node_kind(),
            "type_qualifier"
                | "attribute_specifier"
                | "storage_class_specifier"
                | "attribute_declaration"
        ) && text(c, source).contains("__shared__")
    })
}

/// `__syncthreads()` and its counting forms: a barrier for the whole block.
pub(super) fn is_block_barrier(call: Node, source: &str) -> bool {
    let Some(function) = call.field("function") else {
        return false;
    };
    matches!(
        text(function, source),
        "__syncthreads" | "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or"
    )
}

/// Whether a declared type is an integer type (`const unsigned`, `long long`, `uint32_t`).
pub(crate) fn is_integer_type(type_text: &str) -> bool {
    let mut signedness = false;
    let mut words = type_text.split_whitespace().filter(|word| match *word {
        "const" => false,
        "unsigned" | "signed" => {
            signedness = true;
            false
        }
        _ => true,
    });
    match (words.next(), words.next()) {
        (None, _) => signedness,
        (Some(word), None) => is_integer_word(word),
        // `long long`, `unsigned long int`, `short int`
        (Some(first), Some(second)) => [first, second]
            .into_iter()
            .chain(words)
            .all(|word| matches!(word, "int" | "long" | "short")),
    }
}

/// The one-word names `is_integer_type` accepts.
fn is_integer_word(word: &str) -> bool {
    matches!(
        word,
        "int"
            | "long"
            | "short"
            | "size_t"
            | "int64_t"
            | "uint64_t"
            | "int32_t"
            | "uint32_t"
            | "int16_t"
            | "uint16_t"
            | "ptrdiff_t"
            | "uint"
            | "bool"
            | "index_t"
            | "std::size_t"
            | "std::int64_t"
            | "char"
    )
}

/// The size of what a pointer type points at (`float*` → 4).
pub(super) fn pointee_size(type_text: &str) -> Option<i64> {
    let base = type_text.trim_end().trim_end_matches('*').trim();
    crate::model::size::builtin_size(base).and_then(|v| i64::try_from(v).ok())
}

pub(super) fn same_type(type_text: &str, element_type: &str) -> bool {
    let a = crate::model::size::normalize_type(type_text.trim_end().trim_end_matches('*'));
    let b = crate::model::size::normalize_type(element_type);
    !a.is_empty() && a == b
}

/// Math and conversion intrinsics: no barrier, no shared access, a result of their arguments.
pub(super) fn is_pure_builtin(name: &str) -> bool {
    const MATH: &[&str] = &[
        "sqrt",
        "rsqrt",
        "cbrt",
        "exp",
        "exp2",
        "exp10",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "pow",
        "fabs",
        "floor",
        "ceil",
        "round",
        "trunc",
        "fmod",
        "fmin",
        "fmax",
        "erf",
        "erfc",
        "hypot",
        "fma",
        "rint",
        "lrint",
        "copysign",
        "ldexp",
        "frexp",
        "isnan",
        "isinf",
        "isfinite",
        "signbit",
        "abs",
        "min",
        "max",
        "lround",
        "llround",
        "sincos",
        "sinpi",
        "cospi",
        "norm",
        "rnorm",
        "rcbrt",
        "nearbyint",
    ];
    let base = name
        .strip_suffix('f')
        .filter(|b| MATH.contains(b))
        .unwrap_or(name);
    MATH.contains(&base)
        || name.starts_with("make_")
        || name.starts_with("__") && !name.contains("sync") && !name.contains("barrier")
}

/// `__syncwarp()` and the warp collectives with a mask (`__shfl_sync`, `__ballot_sync`, ...):
/// every lane of the mask reaches the call before any leaves it, so they order the lanes' shared
/// accesses before and after it as `__syncwarp()` does.
pub(super) fn orders_lanes(name: &str) -> bool {
    name == "__syncwarp"
        || (name.ends_with("_sync")
            && [
                "__shfl", "__ballot", "__any", "__all", "__match", "__reduce",
            ]
            .iter()
            .any(|prefix| name.starts_with(prefix)))
}

/// A call that is known not to synchronise the block.
pub(super) fn is_barrier_free_builtin(name: &str) -> bool {
    is_pure_builtin(name)
        || name.starts_with("__shfl")
        || name.starts_with("__ballot")
        || name.starts_with("__any")
        || name.starts_with("__all")
        || name.starts_with("__reduce")
        || name.starts_with("__match")
        || name.starts_with("__activemask")
        || name.starts_with("__syncwarp")
        || name.starts_with("__threadfence")
        || name.starts_with("atomic")
        || matches!(
            name,
            "printf"
                | "assert"
                | "__trap"
                | "__brkpt"
                | "clock"
                | "clock64"
                | "static_cast"
                | "reinterpret_cast"
                | "const_cast"
                | "umin"
                | "umax"
                | "imin"
                | "imax"
                | "llmin"
                | "llmax"
                | "MIN"
                | "MAX"
                | "thread_rank"
                | "size"
                | "num_threads"
                | "meta_group_rank"
                | "this_thread_block"
                | "tiled_partition"
                | "this_grid"
        )
}

/// Methods that read an object without synchronising anything.
pub(super) fn is_pure_method(name: &str) -> bool {
    matches!(
        name,
        "thread_rank"
            | "size"
            | "num_threads"
            | "meta_group_rank"
            | "meta_group_size"
            | "group_index"
            | "thread_index"
            | "x"
            | "y"
            | "z"
            | "get"
            | "data"
            | "shfl"
            | "shfl_down"
            | "shfl_up"
            | "shfl_xor"
            | "any"
            | "all"
            | "ballot"
    )
}
