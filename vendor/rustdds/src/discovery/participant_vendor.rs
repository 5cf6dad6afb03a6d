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

/// The vendor id the participant whose GUID prefix begins with these bytes announced, if it was
/// discovered. Eight bytes are enough: rmw_cyclonedds_cpp's request header carries only a
/// client's first eight (the rest of the id it makes is the writer's instance handle), and under
/// DDS Security those eight are the hash of the participant's certificate (9.3.3).
pub fn participant_vendor(prefix: &[u8]) -> Option<[u8; 2]> {
  let head = <[u8; 8]>::try_from(prefix.get(..8)?).ok()?;
  let mut low = [0; 12];
  low[..8].copy_from_slice(&head);
  let mut high = [0xff; 12];
  high[..8].copy_from_slice(&head);
  let table = table().lock().ok()?;
  let mut found = table.range(low..=high).map(|(_, v)| *v);
  let vendor = found.next()?;
  // Two participants sharing a head (a process's own, unsecured): only an agreed answer counts.
  found.all(|v| v == vendor).then_some(vendor)
}
