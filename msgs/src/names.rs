//! The words for the codes of the messages, shared by every reader that shows them (the
//! command line, the web window, the arbiter's diagnostics).

/// The name of a `GameEvent::KIND_*`.
pub fn event_kind(kind: u8) -> &'static str {
    const NAMES: [&str; 19] = [
        "info",
        "new game",
        "resumed",
        "human moved",
        "illegal move",
        "ambiguous",
        "nothing moved",
        "robot moved",
        "capture",
        "promotion",
        "arm failed",
        "board mismatch",
        "board restored",
        "planner timeout",
        "resigned",
        "game over",
        "hint",
        "verdict",
        "take-back",
    ];
    NAMES.get(usize::from(kind)).copied().unwrap_or("unknown")
}

/// The name of a `GameState::STATUS_*`.
pub fn status_name(status: u8) -> &'static str {
    const NAMES: [&str; 11] = [
        "idle",
        "waiting for the human",
        "ambiguous",
        "robot thinking",
        "robot moving",
        "verifying",
        "board mismatch",
        "error",
        "white won",
        "black won",
        "draw",
    ];
    NAMES.get(usize::from(status)).copied().unwrap_or("unknown")
}
