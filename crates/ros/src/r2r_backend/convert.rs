//! The JSON bridge between our message types and r2r's: both serialize with the field names of
//! the interface files, so a value passes through `serde_json::Value` unchanged.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// `from` as the type `T` with the same fields. Fails where a value has no JSON form (a NaN or
/// infinite float) or the fields differ (the two sides built from different interface files).
pub(crate) fn convert<F: Serialize, T: DeserializeOwned>(from: &F) -> Result<T, String> {
    let value = serde_json::to_value(from).map_err(|e| e.to_string())?;
    serde_json::from_value(value).map_err(|e| e.to_string())
}

pub(crate) fn to_json<F: Serialize>(from: &F) -> Result<serde_json::Value, String> {
    serde_json::to_value(from).map_err(|e| e.to_string())
}

pub(crate) fn from_json<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}
