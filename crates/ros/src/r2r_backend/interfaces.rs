// Every `checkers_msgs` service and action, for the r2r bindings. Included by `bindings.rs` and
// by `tests/r2r_interfaces.rs`, which checks it against msgs/srv and msgs/action so that a new
// interface cannot be left unbound.

/// Calls `$then!` with the lists.
macro_rules! checkers_interfaces {
    ($then:ident) => {
        $then! {
            services: [ArmHome, Hint, HumanMove, NewGame, Resign, ResolveAmbiguity, ScanBoard, TakeBack],
            actions: [ExecuteMove, PlanMove],
        }
    };
}
