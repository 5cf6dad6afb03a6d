//! A node on the r2r backend. rcl reads the process's arguments (`--ros-args` remaps,
//! parameters, log levels) and `ROS_DOMAIN_ID` itself; the layer still parses and checks them
//! first, with the same messages as the default backend, and builds [`Params`] from them exactly
//! as the default backend does, so declarations behave the same on both.

use std::sync::{Arc, Mutex, PoisonError};

use checkers_msgs::builtin_interfaces::msg::Time;

use super::clock::to_msg;
use super::spin::{self, Shared};
use crate::args::RosArgs;
use crate::env::{DiscoveryRange, RosEnv};
use crate::error::RosError;
use crate::names;
use crate::node_core::{node_accessors, NodeCore};
use crate::params::{ParamValue, Params, ParamsGuard, ServeDeclared, READ_ONLY};
use crate::tasks::Closer;
use indexmap::IndexMap;
use r2r::{ParameterValue, RosParams};

pub struct Node {
    pub(super) shared: Arc<Shared>,
    clock: Arc<Mutex<r2r::Clock>>,
    logger: String,
    core: NodeCore,
    /// What the node's parameter services serve (r2r's handler reads both).
    served: Arc<Mutex<ServedParams>>,
    served_map: Arc<Mutex<IndexMap<String, r2r::Parameter>>>,
}

node_accessors!(Node);

pub(super) fn create_error(what: String, e: impl std::fmt::Display) -> RosError {
    RosError::Create {
        what,
        why: e.to_string(),
    }
}

impl Node {
    /// `args` give the parameters and are checked; rcl itself only ever reads the process's own
    /// arguments, so pass those (as [`from_env`](Self::from_env) does). `env` is given to rcl
    /// through the process environment, which is set when it differs (see `make_rcl_see`).
    pub fn new(default_name: &str, args: RosArgs, env: RosEnv) -> Result<Node, RosError> {
        let core = NodeCore::new(default_name, args)?;
        let fqn = core.fqn.clone();
        make_rcl_see(&env, core.args.enclave.as_deref())?;
        let context =
            r2r::Context::create().map_err(|e| create_error("the rcl context".into(), e))?;
        // Given its original name, rcl applies the `__node`/`__ns` remaps itself, node-specific
        // ones included, as it does for every other node.
        let mut inner = r2r::Node::create(context, default_name, "")
            .map_err(|e| create_error(format!("node {fqn}"), e))?;
        let seen = (inner.name(), inner.namespace());
        if let (Ok(n), Ok(ns)) = seen {
            if n != core.name || ns != core.namespace {
                tracing::warn!(
                    node = %fqn,
                    "rcl named this node {ns}/{n}: its arguments differ from the process's"
                );
            }
        }
        if core.use_sim_time {
            follow_clock(&mut inner, &fqn)?;
        }
        let served = Arc::new(Mutex::new(ServedParams::default()));
        let served_map = Arc::clone(&inner.params);
        let (handler, _events) = inner
            .make_derived_parameter_handler(Arc::clone(&served) as Arc<Mutex<dyn RosParams + Send>>)
            .map_err(|e| create_error(format!("parameter services of {fqn}"), e))?;
        core.tasks.spawn(handler);
        let clock = inner.get_ros_clock();
        let logger = inner.logger().to_string();
        tracing::debug!(node = %fqn, domain = env.domain_id, "r2r node created");
        let shared = spin::start(inner, &fqn)?;
        Ok(Node {
            shared,
            clock,
            logger,
            core,
            served,
            served_map,
        })
    }

    /// What ends this node in order once it is dropped: its tasks, then the rcl node.
    pub fn closer(&self) -> Closer {
        Closer::new(self.core.tasks.clone(), Box::new(Arc::clone(&self.shared)))
    }

    /// rcl's name for the node's logger, the one `/rosout` lines carry.
    pub(crate) fn logger(&self) -> &str {
        &self.logger
    }

    /// The node's parameters. What is declared through the returned guard is served by the
    /// node's ROS 2 parameter services (read-only) once the guard is dropped.
    pub fn params(&mut self) -> ParamsGuard<'_, ParamServices<'_>> {
        let server = ParamServices {
            served: &self.served,
            served_map: &self.served_map,
        };
        ParamsGuard::new(&mut self.core.params, server)
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
                tracing::warn!(node = %self.core.name, "rcl's clock failed ({e}): using the system clock");
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

/// r2r's parameter services: the parameters declared so far become what they list, get and
/// describe, and nothing else does (r2r would also list the command line's undeclared
/// overrides).
pub struct ParamServices<'a> {
    served: &'a Arc<Mutex<ServedParams>>,
    served_map: &'a Arc<Mutex<IndexMap<String, r2r::Parameter>>>,
}

impl std::fmt::Debug for ParamServices<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParamServices")
    }
}

impl ServeDeclared for ParamServices<'_> {
    fn serve(&mut self, params: &Params) {
        let values: Vec<(String, ParameterValue)> = params
            .declared()
            .map(|(name, value)| (name.to_string(), to_r2r_value(value)))
            .collect();
        let mut map = self
            .served_map
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        map.clear();
        for (name, value) in &values {
            map.insert(
                name.clone(),
                r2r::Parameter {
                    value: value.clone(),
                    description: READ_ONLY,
                },
            );
        }
        self.served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values = values.into_iter().collect();
    }
}

fn to_r2r_value(value: &ParamValue) -> ParameterValue {
    match value.clone() {
        ParamValue::Bool(b) => ParameterValue::Bool(b),
        ParamValue::Integer(i) => ParameterValue::Integer(i),
        ParamValue::Double(d) => ParameterValue::Double(d),
        ParamValue::String(s) => ParameterValue::String(s),
        ParamValue::BoolArray(v) => ParameterValue::BoolArray(v),
        ParamValue::IntegerArray(v) => ParameterValue::IntegerArray(v),
        ParamValue::DoubleArray(v) => ParameterValue::DoubleArray(v),
        ParamValue::StringArray(v) => ParameterValue::StringArray(v),
    }
}

/// The declared parameters as r2r's parameter handler sees them: readable, never settable.
#[derive(Debug, Default)]
pub(crate) struct ServedParams {
    values: std::collections::BTreeMap<String, ParameterValue>,
}

impl RosParams for ServedParams {
    fn register_parameters(
        &mut self,
        _prefix: &str,
        _param: Option<r2r::Parameter>,
        _params: &mut IndexMap<String, r2r::Parameter>,
    ) -> r2r::Result<()> {
        // Nothing is declared yet when the handler starts; ParamsGuard fills both later.
        Ok(())
    }

    fn get_parameter(&mut self, name: &str) -> r2r::Result<ParameterValue> {
        self.values
            .get(name)
            .cloned()
            .ok_or_else(|| r2r::Error::InvalidParameterName {
                name: name.to_string(),
            })
    }

    fn set_parameter(&mut self, name: &str, _value: &ParameterValue) -> r2r::Result<()> {
        Err(refused(name))
    }

    fn check_parameter(&self, name: &str, _value: &ParameterValue) -> r2r::Result<()> {
        Err(refused(name))
    }
}

fn refused(name: &str) -> r2r::Error {
    r2r::Error::ParameterValueConv {
        name: name.to_string(),
        msg: format!("it is read-only: {READ_ONLY}"),
    }
}

/// rcl reads the domain, the discovery range and DDS Security from the process environment when the context
/// is created, and r2r offers no other way to give them. A node asked for other settings than
/// the environment's (the graph client of `watch` and the tests joins a chosen domain) sets the
/// variables first. Only then: a process whose environment already says so is left untouched.
/// The enclave too: rcl takes it from the process's own `--enclave`, which a node made inside
/// another program (the graph client, in the play interface's enclave) does not have.
fn make_rcl_see(env: &RosEnv, enclave: Option<&str>) -> Result<(), RosError> {
    let current = RosEnv::from_env().map_err(|e| create_error("the ROS environment".into(), e))?;
    if current.domain_id != env.domain_id {
        std::env::set_var("ROS_DOMAIN_ID", env.domain_id.to_string());
    }
    if current.discovery != env.discovery {
        let range = match env.discovery {
            DiscoveryRange::Localhost => "LOCALHOST",
            DiscoveryRange::Off => "OFF",
            DiscoveryRange::Subnet => "SUBNET",
        };
        std::env::set_var("ROS_AUTOMATIC_DISCOVERY_RANGE", range);
    }
    if current.security != env.security {
        match &env.security {
            None => std::env::remove_var("ROS_SECURITY_ENABLE"),
            Some(sec) => {
                std::env::set_var("ROS_SECURITY_ENABLE", "true");
                let strategy = match sec.strategy {
                    crate::security::Strategy::Enforce => "Enforce",
                    crate::security::Strategy::Permissive => "Permissive",
                };
                std::env::set_var("ROS_SECURITY_STRATEGY", strategy);
                if let Some(ks) = &sec.keystore {
                    std::env::set_var("ROS_SECURITY_KEYSTORE", ks);
                }
                if let Some(e) = &sec.enclave_override {
                    std::env::set_var("ROS_SECURITY_ENCLAVE_OVERRIDE", e);
                }
            }
        }
    }
    if let Some(sec) = &env.security {
        let wanted = sec.enclave_override.as_deref().or(enclave).unwrap_or("/");
        if std::env::var("ROS_SECURITY_ENCLAVE_OVERRIDE")
            .ok()
            .as_deref()
            != Some(wanted)
        {
            std::env::set_var("ROS_SECURITY_ENCLAVE_OVERRIDE", wanted);
        }
    }
    Ok(())
}
