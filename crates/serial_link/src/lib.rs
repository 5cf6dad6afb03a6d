//! The framed serial protocol the field, arm and head controllers speak.
