//! PATCH(checkers_robot): the vendor id each discovered participant announced in its SPDP
//! data, by GUID prefix. ROS 2 layers pick a service's request/reply mapping by the peer's DDS
//! vendor; without security a GUID prefix starts with the vendor id, but under DDS Security it
//! is derived from the participant's certificate (DDS Security 9.3.3) and says nothing.

use std::{
  collections::BTreeMap,
  sync::{Mutex, OnceLock},
};

fn table() -> &'static Mutex<BTreeMap<[u8; 12], [u8; 2]>> {
  static TABLE: OnceLock<Mutex<BTreeMap<[u8; 12], [u8; 2]>>> = OnceLock::new();
  TABLE.get_or_init(|| Mutex::new(BTreeMap::new()))
}

pub(crate) fn note_participant_vendor(prefix: [u8; 12], vendor: [u8; 2]) {
  if let Ok(mut t) = table().lock() {
    t.insert(prefix, vendor);
  }
}

/// The vendor id the participant with this GUID prefix announced, if it was discovered.
pub fn participant_vendor(prefix: &[u8]) -> Option<[u8; 2]> {
  let prefix = <[u8; 12]>::try_from(prefix).ok()?;
  table().lock().ok()?.get(&prefix).copied()
}
