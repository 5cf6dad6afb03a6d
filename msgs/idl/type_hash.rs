//! RIHS01 type hashes, computed as `rosidl_generator_type_description` does, so that every DDS
//! endpoint can announce the hash of its type as ROS 2 Jazzy's rmw layers do.
//!
//! A type's description is its name and fields (type id, capacity, string capacity, nested type
//! name; no defaults, no constants), plus the descriptions of every type it refers to,
//! transitively, sorted by name. That object goes through Python's `json.dumps` with
//! `separators=(", ", ": ")` and its keys in rosidl's order, and the hash is the SHA-256 of the
//! text. Services and actions also describe the types rosidl adds to them: `_Event` for every
//! service, and `_SendGoal`, `_GetResult` and `_FeedbackMessage` for every action.
//!
//! It is compiled by `build.rs` (through `#[path]`) and depends on `std` and `sha2` only.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::generate::Interface;
use crate::parse::{Array, BaseType, Field, Kind, Primitive, Section};

/// rosidl's type ids (`type_description_interfaces/msg/FieldType`).
const NESTED: u32 = 1;
const BOUNDED_STRING: u32 = 21;
const BOUNDED_WSTRING: u32 = 22;
const FIXED_ARRAY: u32 = 48;
const BOUNDED_ARRAY: u32 = 96;
const UNBOUNDED_ARRAY: u32 = 144;

/// The field rosidl gives an empty message.
const PLACEHOLDER: &str = "structure_needs_at_least_one_member";

#[derive(Debug, Clone)]
struct FieldDesc {
    name: String,
    type_id: u32,
    capacity: usize,
    string_capacity: usize,
    nested: String,
}

impl FieldDesc {
    fn nested(name: &str, nested: String) -> Self {
        Self {
            name: name.to_string(),
            type_id: NESTED,
            capacity: 0,
            string_capacity: 0,
            nested,
        }
    }
}

/// Type descriptions by ROS type name (`pkg/msg/T`).
type Descriptions = BTreeMap<String, Vec<FieldDesc>>;

/// The RIHS01 hash of every type the interfaces define, by ROS type name: messages, the parts of
/// services and actions, and the types rosidl derives from them. A type whose references are
/// not all known is left out.
pub fn type_hashes(interfaces: &[Interface]) -> BTreeMap<String, String> {
    let mut descriptions = Descriptions::new();
    for iface in interfaces {
        describe(iface, &mut descriptions);
    }
    descriptions
        .keys()
        .filter_map(|name| Some((name.clone(), hash(name, &descriptions)?)))
        .collect()
}

fn describe(iface: &Interface, out: &mut Descriptions) {
    let package = iface.package.as_str();
    let kind = iface.definition.kind;
    let own = |suffix: &str| format!("{package}/{}/{}{suffix}", kind.dir(), iface.name);
    let section = |i: usize| {
        iface
            .definition
            .sections
            .get(i)
            .cloned()
            .unwrap_or_default()
    };
    let fields = |s: &Section| section_fields(package, s);
    match kind {
        Kind::Msg => {
            out.insert(own(""), fields(&section(0)));
        }
        Kind::Srv => {
            out.insert(own("_Request"), fields(&section(0)));
            out.insert(own("_Response"), fields(&section(1)));
            service(&own(""), out);
        }
        Kind::Action => {
            let uuid = "unique_identifier_msgs/msg/UUID".to_string();
            let time = "builtin_interfaces/msg/Time".to_string();
            out.insert(own("_Goal"), fields(&section(0)));
            out.insert(own("_Result"), fields(&section(1)));
            out.insert(own("_Feedback"), fields(&section(2)));
            out.insert(
                own("_SendGoal_Request"),
                vec![
                    FieldDesc::nested("goal_id", uuid.clone()),
                    FieldDesc::nested("goal", own("_Goal")),
                ],
            );
            out.insert(
                own("_SendGoal_Response"),
                vec![
                    primitive_field("accepted", Primitive::Bool),
                    FieldDesc::nested("stamp", time),
                ],
            );
            service(&own("_SendGoal"), out);
            out.insert(
                own("_GetResult_Request"),
                vec![FieldDesc::nested("goal_id", uuid.clone())],
            );
            out.insert(
                own("_GetResult_Response"),
                vec![
                    primitive_field("status", Primitive::Int8),
                    FieldDesc::nested("result", own("_Result")),
                ],
            );
            service(&own("_GetResult"), out);
            out.insert(
                own("_FeedbackMessage"),
                vec![
                    FieldDesc::nested("goal_id", uuid),
                    FieldDesc::nested("feedback", own("_Feedback")),
                ],
            );
            out.insert(
                own(""),
                vec![
                    FieldDesc::nested("goal", own("_Goal")),
                    FieldDesc::nested("result", own("_Result")),
                    FieldDesc::nested("feedback", own("_Feedback")),
                    FieldDesc::nested("send_goal_service", own("_SendGoal")),
                    FieldDesc::nested("get_result_service", own("_GetResult")),
                    FieldDesc::nested("feedback_message", own("_FeedbackMessage")),
                ],
            );
        }
    }
}

/// The service `name` (whose `_Request` and `_Response` exist) and its `_Event`.
fn service(name: &str, out: &mut Descriptions) {
    let request = format!("{name}_Request");
    let response = format!("{name}_Response");
    let at_most_one = |field: &str, nested: &str| FieldDesc {
        name: field.to_string(),
        type_id: NESTED + BOUNDED_ARRAY,
        capacity: 1,
        string_capacity: 0,
        nested: nested.to_string(),
    };
    out.insert(
        format!("{name}_Event"),
        vec![
            FieldDesc::nested("info", "service_msgs/msg/ServiceEventInfo".to_string()),
            at_most_one("request", &request),
            at_most_one("response", &response),
        ],
    );
    out.insert(
        name.to_string(),
        vec![
            FieldDesc::nested("request_message", request),
            FieldDesc::nested("response_message", response),
            FieldDesc::nested("event_message", format!("{name}_Event")),
        ],
    );
}

fn section_fields(package: &str, section: &Section) -> Vec<FieldDesc> {
    if section.fields.is_empty() {
        return vec![primitive_field(PLACEHOLDER, Primitive::UInt8)];
    }
    section.fields.iter().map(|f| field(package, f)).collect()
}

fn primitive_field(name: &str, kind: Primitive) -> FieldDesc {
    FieldDesc {
        name: name.to_string(),
        type_id: primitive_id(kind),
        capacity: 0,
        string_capacity: 0,
        nested: String::new(),
    }
}

fn primitive_id(kind: Primitive) -> u32 {
    match kind {
        Primitive::Int8 => 2,
        // rosidl_adapter reads a .msg `char` as uint8.
        Primitive::UInt8 | Primitive::Char => 3,
        Primitive::Int16 => 4,
        Primitive::UInt16 => 5,
        Primitive::Int32 => 6,
        Primitive::UInt32 => 7,
        Primitive::Int64 => 8,
        Primitive::UInt64 => 9,
        Primitive::Float32 => 10,
        Primitive::Float64 => 11,
        Primitive::Bool => 15,
        Primitive::Byte => 16,
        Primitive::String => 17,
        Primitive::WString => 18,
    }
}

fn field(package: &str, field: &Field) -> FieldDesc {
    let (base_id, string_capacity, nested) = match &field.ty.base {
        BaseType::Primitive {
            kind,
            string_bound: Some(bound),
        } => {
            let id = if *kind == Primitive::WString {
                BOUNDED_WSTRING
            } else {
                BOUNDED_STRING
            };
            (id, *bound, String::new())
        }
        BaseType::Primitive { kind, .. } => (primitive_id(*kind), 0, String::new()),
        BaseType::Named { package: p, name } => (
            NESTED,
            0,
            format!("{}/msg/{name}", p.as_deref().unwrap_or(package)),
        ),
    };
    let (offset, capacity) = match field.ty.array {
        Array::Single => (0, 0),
        Array::Fixed(n) => (FIXED_ARRAY, n),
        Array::Bounded(n) => (BOUNDED_ARRAY, n),
        Array::Unbounded => (UNBOUNDED_ARRAY, 0),
    };
    FieldDesc {
        name: field.name.clone(),
        type_id: base_id + offset,
        capacity,
        string_capacity,
        nested,
    }
}

/// The hash of `name`, or `None` when a type it refers to is not described.
fn hash(name: &str, descriptions: &Descriptions) -> Option<String> {
    let mut referenced = BTreeMap::new();
    let mut pending = vec![name.to_string()];
    while let Some(current) = pending.pop() {
        for field in descriptions.get(&current)? {
            if !field.nested.is_empty() && !referenced.contains_key(&field.nested) {
                let fields = descriptions.get(&field.nested)?;
                referenced.insert(field.nested.clone(), fields);
                pending.push(field.nested.clone());
            }
        }
    }
    let mut text = String::from("{\"type_description\": ");
    write_type(&mut text, name, descriptions.get(name)?);
    text.push_str(", \"referenced_type_descriptions\": [");
    for (i, (ref_name, fields)) in referenced.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        write_type(&mut text, ref_name, fields);
    }
    text.push_str("]}");
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::from("RIHS01_");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    Some(out)
}

fn write_type(text: &mut String, name: &str, fields: &[FieldDesc]) {
    let _ = write!(text, "{{\"type_name\": \"{name}\", \"fields\": [");
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let _ = write!(
            text,
            "{{\"name\": \"{}\", \"type\": {{\"type_id\": {}, \"capacity\": {}, \
             \"string_capacity\": {}, \"nested_type_name\": \"{}\"}}}}",
            f.name, f.type_id, f.capacity, f.string_capacity, f.nested
        );
    }
    text.push_str("]}");
}
