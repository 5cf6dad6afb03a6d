//! Two computers on one machine for the tests (the `netns` crate), required in CI by
//! `CHECKERS_REQUIRE_NETNS=1`.

#![allow(dead_code)]

#[allow(unused_imports)]
pub use netns::{Host, Link};

/// Whether this process may make network namespaces. Where it may not, CI
/// (`CHECKERS_REQUIRE_NETNS=1`) fails instead of skipping.
pub fn available() -> bool {
    if netns::available() {
        return true;
    }
    assert!(
        std::env::var_os("CHECKERS_REQUIRE_NETNS").is_none(),
        "CHECKERS_REQUIRE_NETNS is set but `ip netns add` fails here (it needs root and iproute2)"
    );
    eprintln!("skipped: no network namespaces here (root and iproute2 needed)");
    false
}
