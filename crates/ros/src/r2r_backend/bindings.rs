//! [`R2rService`] and [`R2rAction`] for every `checkers_msgs` interface, bound to the native
//! types r2r generates as `r2r::checkers_msgs`. Those exist only where r2r's build found the
//! package (on the robot, after `colcon build` of msgs/ and sourcing the workspace); build.rs
//! sets `ros_r2r_bindings` then. CI, under r2r's `doc-only`, never compiles this part.

#[cfg(ros_r2r_bindings)]
mod bound {
    use super::super::{R2rAction, R2rService};

    include!("interfaces.rs");

    macro_rules! bind {
        (services: [$($s:ident),*], actions: [$($a:ident),*],) => {
            $(
                impl R2rService for checkers_msgs::srv::$s {
                    type Native = r2r::checkers_msgs::srv::$s::Service;
                }
            )*
            $(
                impl R2rAction for checkers_msgs::action::$a {
                    type Native = r2r::checkers_msgs::action::$a::Action;
                }
            )*
        };
    }

    checkers_interfaces!(bind);
}
