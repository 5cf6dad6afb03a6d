//! The JSON bridge between our message types and r2r's: both serialize with the field names of
//! the interface files, so a value passes through `serde_json::Value` unchanged.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// Why a value did not cross, with r2r's own error for a sample it could not take at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConvertError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    R2r(#[from] r2r::Error),
}

/// `from` as the type `T` with the same fields. Fails where a value has no JSON form (a NaN or
/// infinite float) or the fields differ (the two sides built from different interface files).
pub(crate) fn convert<F: Serialize, T: DeserializeOwned>(from: &F) -> Result<T, ConvertError> {
    from_json(to_json(from)?)
}

pub(crate) fn to_json<F: Serialize>(from: &F) -> Result<serde_json::Value, ConvertError> {
    Ok(serde_json::to_value(from)?)
}

pub(crate) fn from_json<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ConvertError> {
    Ok(serde_json::from_value(value)?)
}
