//! A node on the r2r backend. rcl reads the process's arguments (`--ros-args` remaps,
//! parameters, log levels) and `ROS_DOMAIN_ID` itself; the layer still parses and checks them
//! first, with the same messages as the default backend, and builds [`Params`] from them exactly
//! as the default backend does, so declarations behave the same on both.

use std::sync::{Arc, Mutex, PoisonError};

use checkers_msgs::builtin_interfaces::msg::Time;

use super::clock::to_msg;
use super::spin::{self, Shared};
use crate::args::RosArgs;
use crate::env::RosEnv;
use crate::error::RosError;
use crate::names;
use crate::params::Params;

pub struct Node {
    pub(super) shared: Arc<Shared>,
    clock: Arc<Mutex<r2r::Clock>>,
    logger: String,
    args: RosArgs,
    original_name: String,
    name: String,
    namespace: String,
    params: Params,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("name", &self.name)
            .field("namespace", &self.namespace)
            .finish()
    }
}

pub(super) fn create_error(what: String, e: impl std::fmt::Display) -> RosError {
    RosError::Create {
        what,
        why: e.to_string(),
    }
}

impl Node {
    /// A node named `default_name` (unless remapped), from this process's arguments and
    /// environment.
    pub fn from_env(default_name: &str) -> Result<Node, RosError> {
        Node::new(default_name, RosArgs::from_env()?, RosEnv::from_env()?)
    }

    /// `args` and `env` give the parameters and are checked; rcl itself only ever reads the
    /// process's own arguments and environment, so pass those (as [`from_env`](Self::from_env)
    /// does).
    pub fn new(default_name: &str, args: RosArgs, env: RosEnv) -> Result<Node, RosError> {
        args.validate(default_name)?;
        let name = args.node_name(default_name);
        let namespace = args.namespace(default_name, "/");
        let fqn = if namespace == "/" {
            format!("/{name}")
        } else {
            format!("{namespace}/{name}")
        };
        let mut params = args.params(&fqn)?;
        let use_sim_time = params.declare("use_sim_time", false)?;
        let context =
            r2r::Context::create().map_err(|e| create_error("the rcl context".into(), e))?;
        // Given its original name, rcl applies the `__node`/`__ns` remaps itself, node-specific
        // ones included, as it does for every other node.
        let mut inner = r2r::Node::create(context, default_name, "")
            .map_err(|e| create_error(format!("node {fqn}"), e))?;
        let seen = (inner.name(), inner.namespace());
        if let (Ok(n), Ok(ns)) = seen {
            if n != name || ns != namespace {
                tracing::warn!(
                    node = %fqn,
                    "rcl named this node {ns}/{n}: its arguments differ from the process's"
                );
            }
        }
        if use_sim_time {
            follow_clock(&mut inner, &fqn)?;
        }
        let clock = inner.get_ros_clock();
        let logger = inner.logger().to_string();
        tracing::debug!(node = %fqn, domain = env.domain_id, "r2r node created");
        let shared = spin::start(inner, &fqn)?;
        Ok(Node {
            shared,
            clock,
            logger,
            args,
            original_name: default_name.to_string(),
            name,
            namespace,
            params,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    pub(crate) fn args(&self) -> &RosArgs {
        &self.args
    }

    /// rcl's name for the node's logger, the one `/rosout` lines carry.
    pub(crate) fn logger(&self) -> &str {
        &self.logger
    }

    pub fn params(&mut self) -> &mut Params {
        &mut self.params
    }

    /// The fully qualified name `topic` resolves to for this node (expansion, then remaps), as
    /// rcl resolves it.
    pub fn resolve(&self, topic: &str) -> String {
        self.args
            .resolve(topic, &self.original_name, &self.name, &self.namespace)
    }

    /// Checks `name` as the default backend does and resolves it. rcl is given `name` itself,
    /// not the resolution, since it applies the remaps again and would chain two rules.
    pub(super) fn name_of(&self, kind: &str, name: &str) -> Result<String, RosError> {
        if !names::is_valid(name) {
            return Err(RosError::Name {
                name: format!("{kind} {name}"),
                why: "not a valid ROS 2 name".into(),
            });
        }
        Ok(self.resolve(name))
    }

    /// The node's time: the system clock, or `/clock` when `use_sim_time` is true.
    pub fn now(&self) -> Time {
        let now = self
            .clock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_now();
        match now {
            Ok(t) => to_msg(t),
            Err(e) => {
                tracing::warn!(node = %self.name, "rcl's clock failed ({e}): using the system clock");
                crate::clock::system_now()
            }
        }
    }
}

#[cfg(ros_r2r_sim_time)]
fn follow_clock(node: &mut r2r::Node, fqn: &str) -> Result<(), RosError> {
    node.get_time_source()
        .enable_sim_time(node)
        .map_err(|e| create_error(format!("simulated time for {fqn}"), e))
}

/// r2r has no `TimeSource` without `rosgraph_msgs`; running on the wall clock instead would
/// silently break everything timed by the simulation.
#[cfg(not(ros_r2r_sim_time))]
fn follow_clock(_node: &mut r2r::Node, fqn: &str) -> Result<(), RosError> {
    Err(RosError::Create {
        what: format!("simulated time for {fqn}"),
        why: "r2r was built without rosgraph_msgs, so it cannot follow /clock".into(),
    })
}
