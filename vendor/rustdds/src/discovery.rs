pub(crate) mod builtin_endpoint;
pub(crate) mod content_filter_property;
#[allow(clippy::module_inception)]
pub(crate) mod discovery;
pub(crate) mod discovery_db;

#[cfg(feature = "security")]
pub(crate) mod secure_discovery;

pub(crate) mod sedp_messages;
pub(crate) mod spdp_participant_data;
pub mod type_user_data;
pub mod participant_vendor;

pub use sedp_messages::*;
pub use spdp_participant_data::*;
pub use type_user_data::{set_type_user_data, type_user_data};
pub use participant_vendor::participant_vendor;
