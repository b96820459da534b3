//! Kernel parameters of a plain-data struct type (`Mat33 m`, `Params p` holding sizes and
//! coefficients), passed by value: laid out field by field as the C++ ABI lays them out, so the
//! experiment can pass them as the kernel's own bytes.

use crate::model::Model;
use crate::syntax::{named_children, text, NodeExt};
use tree_sitter::Node;

/// What one field holds, as far as its value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValue {
    /// An integer of this many bytes: given the experiment's size, as integer parameters are.
    Integer(u8),
    /// `bool`: true.
    Bool,
    F32,
    F64,
    /// Data the kernel reads as is (half precision, vectors of bytes): left zero.
    Zero,
}

/// A struct's layout: its size, alignment, and where each scalar of it lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub name: String,
    pub size: u64,
    pub align: u64,
    pub scalars: Vec<(u64, FieldValue)>,
}

impl Record {
    /// The struct's bytes with every integer field `size`, every float 1.5 and every flag set.
    pub fn bytes(&self, size: i64) -> Vec<u8> {
        let mut out = vec![0u8; usize::try_from(self.size).unwrap_or(0)];
        for (offset, value) in &self.scalars {
            let encoded: Vec<u8> = match value {
                FieldValue::Integer(1) => vec![size.clamp(0, i8::MAX as i64) as u8],
                FieldValue::Integer(2) => (size.clamp(0, i16::MAX as i64) as i16)
                    .to_le_bytes()
                    .to_vec(),
                FieldValue::Integer(4) => (size.clamp(0, i32::MAX as i64) as i32)
                    .to_le_bytes()
                    .to_vec(),
                FieldValue::Integer(_) => size.to_le_bytes().to_vec(),
                FieldValue::Bool => vec![1],
                FieldValue::F32 => 1.5f32.to_le_bytes().to_vec(),
                FieldValue::F64 => 1.5f64.to_le_bytes().to_vec(),
                FieldValue::Zero => Vec::new(),
            };
            let start = usize::try_from(*offset).unwrap_or(usize::MAX);
            if let Some(slot) = out.get_mut(start..start.saturating_add(encoded.len())) {
                slot.copy_from_slice(&encoded);
            }
        }
        out
    }
}

/// The deepest nesting of structs followed.
const MAX_NESTING: usize = 8;
/// The most scalars a record may hold (fixed arrays included).
const MAX_SCALARS: u64 = 4096;

/// The layout of the struct named `type_name` when the file defines it as plain data: scalar,
/// vector and nested plain-struct fields, fixed arrays of them. `Err` says why not (a pointer,
/// a base class, a virtual method, a definition not in the file).
pub fn record(model: &Model, type_name: &str) -> Result<Record, String> {
    // CUDA's vector types (`int3`, `float4`) are records of their own with no definition in
    // the file
    let name = bare_name(type_name);
    vector_layout(name).map_or_else(|| layout(model, name, 0), Ok)
}

fn bare_name(type_name: &str) -> &str {
    let mut name = type_name.trim();
    while let Some(rest) = name
        .strip_prefix("const ")
        .or_else(|| name.strip_prefix("volatile "))
    {
        name = rest.trim_start();
    }
    let name = name
        .strip_prefix("struct ")
        .or_else(|| name.strip_prefix("class "))
        .unwrap_or(name)
        .trim();
    name.rsplit("::").next().unwrap_or(name).trim()
}

fn layout(model: &Model, name: &str, depth: usize) -> Result<Record, String> {
    if depth > MAX_NESTING {
        return Err(format!("`{name}` nests too deeply"));
    }
    if let Some(arguments) = name
        .strip_prefix("pair<")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        return pair_layout(model, name, arguments, depth);
    }
    let body = definition(model, name).ok_or_else(|| format!("`{name}` is not defined here"))?;
    let source = model.source;
    let mut size = 0u64;
    let mut align = 1u64;
    let mut scalars = Vec::new();
    for member in named_children(body) {
        match member.node_kind() {
            "field_declaration" => {}
            "access_specifier"
            | "comment"
            | "function_definition"
            | "template_declaration"
            | "declaration"
            | "using_declaration"
            | "alias_declaration"
            | "type_definition" => {
                if text(member, source).contains("virtual") {
                    return Err(format!("`{name}` has virtual methods"));
                }
                continue;
            }
            _ => continue,
        }
        let member_text = text(member, source);
        if member_text.contains("virtual") {
            return Err(format!("`{name}` has virtual methods"));
        }
        if named_children(member).any(|c| c.node_kind() == "storage_class_specifier") {
            continue; // static members are not part of an object
        }
        if named_children(member).any(|c| c.node_kind() == "bitfield_clause") {
            return Err(format!("`{name}` has bit fields"));
        }
        let Some(field_type) = member.field("type") else {
            continue;
        };
        let type_text = text(field_type, source).replace("const", " ");
        let type_text = type_text.split_whitespace().collect::<Vec<_>>().join(" ");
        let declarators: Vec<Node> = named_children(member)
            .filter(|c| *c != field_type)
            .filter(|c| {
                matches!(
                    c.node_kind(),
                    "field_identifier"
                        | "array_declarator"
                        | "pointer_declarator"
                        | "function_declarator"
                        | "reference_declarator"
                        | "init_declarator"
                )
            })
            .collect();
        for declarator in declarators {
            let (count, kind) = match declarator_shape(declarator, model) {
                Some(shape) => shape,
                None => continue,
            };
            let element = match kind {
                DeclaratorKind::Method => continue,
                DeclaratorKind::Pointer => {
                    return Err(format!("`{name}` holds a pointer"));
                }
                DeclaratorKind::Value => field_layout(model, &type_text, depth)?,
            };
            align = align.max(element.align);
            size = size.div_ceil(element.align) * element.align;
            for index in 0..count {
                let base = size + index * element.size;
                scalars.extend(element.scalars.iter().map(|(o, v)| (base + o, *v)));
                if scalars.len() as u64 > MAX_SCALARS {
                    return Err(format!("`{name}` is too large to synthesise"));
                }
            }
            size += element.size * count;
        }
    }
    if body
        .parent()
        .is_some_and(|p| named_children(p).any(|c| c.node_kind() == "base_class_clause"))
    {
        return Err(format!("`{name}` derives from another class"));
    }
    let size = size.max(1).div_ceil(align) * align;
    Ok(Record {
        name: name.to_string(),
        size,
        align,
        scalars,
    })
}

/// `std::pair<A, B>`: `first` then `second`, each at its own alignment.
fn pair_layout(model: &Model, name: &str, arguments: &str, depth: usize) -> Result<Record, String> {
    let mut nesting = 0i32;
    let split = arguments.char_indices().find(|&(_, c)| {
        match c {
            '<' | '(' => nesting += 1,
            '>' | ')' => nesting -= 1,
            _ => {}
        }
        c == ',' && nesting == 0
    });
    let Some((comma, _)) = split else {
        return Err(format!("`{name}` is not a pair of two types"));
    };
    let normalize = |t: &str| {
        t.replace("const", " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let first = field_layout(model, &normalize(&arguments[..comma]), depth + 1)?;
    let second = field_layout(model, &normalize(&arguments[comma + 1..]), depth + 1)?;
    let align = first.align.max(second.align);
    let second_offset = first.size.div_ceil(second.align) * second.align;
    let mut scalars = first.scalars;
    scalars.extend(second.scalars.iter().map(|(o, v)| (second_offset + o, *v)));
    Ok(Record {
        name: name.to_string(),
        size: (second_offset + second.size).div_ceil(align) * align,
        align,
        scalars,
    })
}

enum DeclaratorKind {
    Value,
    Pointer,
    Method,
}

/// How many elements a field declarator declares (`v[3][3]` gives 9) and what it is.
fn declarator_shape(declarator: Node, model: &Model) -> Option<(u64, DeclaratorKind)> {
    let mut count = 1u64;
    let mut node = declarator;
    for _ in 0..crate::syntax::MAX_DEPTH {
        match node.node_kind() {
            "field_identifier" | "identifier" => return Some((count, DeclaratorKind::Value)),
            "function_declarator" => return Some((count, DeclaratorKind::Method)),
            "pointer_declarator" | "reference_declarator" => {
                return Some((count, DeclaratorKind::Pointer))
            }
            "array_declarator" => {
                let extent = node.field("size")?;
                let value = constant(model, text(extent, model.source))?;
                count = count.checked_mul(u64::try_from(value).ok()?)?;
                node = node.field("declarator")?;
            }
            "init_declarator" => node = node.field("declarator")?,
            _ => return None,
        }
    }
    None
}

/// A constant extent: a literal, or a name the file gives a value.
fn constant(model: &Model, expression: &str) -> Option<i128> {
    super::params::Environment::of_file(model).evaluate(expression)
}

fn field_layout(model: &Model, type_text: &str, depth: usize) -> Result<Record, String> {
    match scalar_layout(type_text).or_else(|| vector_layout(type_text)) {
        Some(record) => Ok(record),
        None => layout(model, bare_name(type_text), depth + 1),
    }
}

/// One scalar of a built-in type, with its size and alignment.
fn scalar_layout(type_text: &str) -> Option<Record> {
    let scalar = |size: u64, align: u64, value: FieldValue| Record {
        name: type_text.to_string(),
        size,
        align,
        scalars: vec![(0, value)],
    };
    Some(match type_text {
        "float" => scalar(4, 4, FieldValue::F32),
        "double" => scalar(8, 8, FieldValue::F64),
        "bool" => scalar(1, 1, FieldValue::Bool),
        "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" | "uchar" => {
            scalar(1, 1, FieldValue::Integer(1))
        }
        "short" | "unsigned short" | "ushort" | "int16_t" | "uint16_t" => {
            scalar(2, 2, FieldValue::Integer(2))
        }
        "int" | "unsigned" | "unsigned int" | "uint" | "int32_t" | "uint32_t" => {
            scalar(4, 4, FieldValue::Integer(4))
        }
        "long" | "unsigned long" | "ulong" | "long long" | "unsigned long long" | "size_t"
        | "int64_t" | "uint64_t" | "ptrdiff_t" => scalar(8, 8, FieldValue::Integer(8)),
        "half" | "__half" | "__nv_bfloat16" => scalar(2, 2, FieldValue::Zero),
        _ => return None,
    })
}

/// A CUDA vector type (`float4`, `int3`): its components, with its size and alignment.
fn vector_layout(type_text: &str) -> Option<Record> {
    let repeated = |count: u64, part: u64, value: FieldValue, align: u64| Record {
        name: type_text.to_string(),
        size: count * part,
        align,
        scalars: (0..count).map(|i| (i * part, value)).collect(),
    };
    Some(match type_text {
        "float2" => repeated(2, 4, FieldValue::F32, 8),
        "float3" => repeated(3, 4, FieldValue::F32, 4),
        "float4" => repeated(4, 4, FieldValue::F32, 16),
        "double2" => repeated(2, 8, FieldValue::F64, 16),
        "int2" | "uint2" => repeated(2, 4, FieldValue::Integer(4), 8),
        "int3" | "uint3" => repeated(3, 4, FieldValue::Integer(4), 4),
        "int4" | "uint4" => repeated(4, 4, FieldValue::Integer(4), 16),
        "char4" | "uchar4" => Record {
            name: type_text.to_string(),
            size: 4,
            align: 4,
            scalars: vec![(0, FieldValue::Zero)],
        },
        _ => return None,
    })
}

/// The member list of the struct or class `name` defined at file or namespace level, or of
/// `typedef struct { ... } name;`.
pub(super) fn definition<'t>(model: &Model<'t>, name: &str) -> Option<Node<'t>> {
    let source = model.source;
    let mut found = None;
    crate::syntax::walk_iterative(model.tree.root_node(), |node| {
        if found.is_some() {
            return false;
        }
        match node.node_kind() {
            "function_definition" => false,
            "struct_specifier" | "class_specifier" => {
                let own_name = node.field("name").map(|n| text(n, source));
                let typedef_name = node
                    .parent()
                    .filter(|p| p.node_kind() == "type_definition")
                    .and_then(|p| p.field("declarator"))
                    .map(|d| text(d, source));
                if own_name == Some(name) || typedef_name == Some(name) {
                    if let Some(body) = node.field("body") {
                        found = Some(body);
                    }
                }
                false
            }
            _ => true,
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_record(text: &str, name: &str, check: impl FnOnce(Result<Record, String>)) {
        crate::verify::with_model(std::path::Path::new("r.cu"), text, |model| {
            check(record(model, name))
        })
        .expect("parses");
    }

    #[test]
    fn fields_are_laid_out_with_their_alignment() {
        with_record(
            "struct Params { char flag; double scale; int n; float3 origin; };\n",
            "Params",
            |r| {
                let r = r.expect("plain data");
                // char at 0, double at 8, int at 16, float3 at 20..32, size 32 (align 8)
                assert_eq!((r.size, r.align), (32, 8));
                assert_eq!(
                    r.scalars,
                    vec![
                        (0, FieldValue::Integer(1)),
                        (8, FieldValue::F64),
                        (16, FieldValue::Integer(4)),
                        (20, FieldValue::F32),
                        (24, FieldValue::F32),
                        (28, FieldValue::F32),
                    ]
                );
                let bytes = r.bytes(1000);
                assert_eq!(bytes.len(), 32);
                assert_eq!(&bytes[16..20], &1000i32.to_le_bytes());
                assert_eq!(&bytes[8..16], &1.5f64.to_le_bytes());
            },
        );
    }

    #[test]
    fn nested_structs_typedefs_and_fixed_arrays_are_followed() {
        let text = "#define N 3\ntypedef struct { float m[N][N]; } Mat33;\nstruct Frame { Mat33 rotation; short id; static const int kind = 2; __device__ float at(int i) const { return rotation.m[0][i]; } };\n";
        with_record(text, "Frame", |r| {
            let r = r.expect("plain data");
            assert_eq!(r.size, 40); // 36 bytes of floats, a short at 36, padded to 4
            assert_eq!(r.scalars.len(), 10);
            assert_eq!(r.scalars[9], (36, FieldValue::Integer(2)));
        });
        with_record(text, "const Mat33", |r| {
            assert_eq!(r.map(|r| r.size), Ok(36))
        });
    }

    #[test]
    fn pointers_virtual_methods_and_unknown_types_are_refused() {
        with_record("struct View { float* data; int n; };\n", "View", |r| {
            assert!(r.is_err_and(|why| why.contains("pointer")))
        });
        with_record(
            "struct Op { virtual float apply(float v) const; int k; };\n",
            "Op",
            |r| assert!(r.is_err_and(|why| why.contains("virtual"))),
        );
        with_record("struct Holder { Elsewhere e; };\n", "Holder", |r| {
            assert!(r.is_err_and(|why| why.contains("Elsewhere")))
        });
    }
}
