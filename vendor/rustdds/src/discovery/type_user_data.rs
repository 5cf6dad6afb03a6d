//! PATCH(checkers_robot): USER_DATA for the endpoints of a type.
//!
//! ROS 2 Jazzy's rmw layers put `typehash=RIHS01_<hex>;` in the USER_DATA QoS of every writer and
//! reader, and an rcl process warns about each endpoint without it. RustDDS had no USER_DATA
//! policy for local endpoints. A DDS type name (`pkg::msg::dds_::T_`) names one ROS type, so
//! the user data is registered per type name, once, and every local endpoint of that type
//! announces it in SEDP.

use std::{
  collections::HashMap,
  sync::{OnceLock, RwLock},
};

fn registry() -> &'static RwLock<HashMap<String, Vec<u8>>> {
  static REGISTRY: OnceLock<RwLock<HashMap<String, Vec<u8>>>> = OnceLock::new();
  REGISTRY.get_or_init(|| RwLock::new(HashMap::new()))
}

/// Every endpoint of the DDS type `type_name` created from now on announces `user_data` (the
/// octets of the USER_DATA QoS policy) in discovery.
pub fn set_type_user_data(type_name: &str, user_data: Vec<u8>) {
  let mut map = match registry().write() {
    Ok(map) => map,
    Err(poisoned) => poisoned.into_inner(),
  };
  map.insert(type_name.to_string(), user_data);
}

/// The user data registered for `type_name`; empty when none is.
pub fn type_user_data(type_name: &str) -> Vec<u8> {
  let map = match registry().read() {
    Ok(map) => map,
    Err(poisoned) => poisoned.into_inner(),
  };
  map.get(type_name).cloned().unwrap_or_default()
}

/// The USER_DATA parameter value: a CDR `sequence<octet>` in the parameter list's byte order.
pub(crate) fn user_data_parameter_value(user_data: &[u8], ctx: speedy::Endianness) -> Vec<u8> {
  let len = user_data.len() as u32;
  let mut value = match ctx {
    speedy::Endianness::LittleEndian => len.to_le_bytes().to_vec(),
    speedy::Endianness::BigEndian => len.to_be_bytes().to_vec(),
  };
  value.extend_from_slice(user_data);
  value
}
