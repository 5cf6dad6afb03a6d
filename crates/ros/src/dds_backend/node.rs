//! A node on the default backend (ros2-client over RustDDS), set up from the command line and
//! environment exactly as rcl would: name and namespace remaps, parameters, domain, discovery
//! range, DDS Security. Its publishers, services and actions are made in their own files.

use std::net::{IpAddr, Ipv4Addr};

use checkers_msgs::builtin_interfaces::msg::Time;
use ros2_client::dds::rustdds::DomainParticipantBuilder;
use ros2_client::dds::rustdds::DomainParticipantSecurityConfigFiles;
use ros2_client::{Context, Name, NodeName, NodeOptions};

use super::clock;
use crate::args::RosArgs;
use crate::env::{DiscoveryRange, RosEnv};
use crate::error::RosError;
use crate::node_core::{node_accessors, NodeCore};
use crate::params::{ParamValue, Params, ParamsGuard, ServeDeclared, READ_ONLY};
use crate::tasks::Closer;

pub struct Node {
    pub(super) inner: ros2_client::Node,
    pub(super) context: Context,
    pub(super) core: NodeCore,
}

node_accessors!(Node);

impl Node {
    pub fn new(default_name: &str, args: RosArgs, env: RosEnv) -> Result<Node, RosError> {
        let core = NodeCore::new(default_name, args)?;
        let fqn = core.fqn.clone();
        let context = make_context(&env, core.args.enclave.as_deref())?;
        let node_name = NodeName::new(&core.namespace, &core.name).map_err(|e| RosError::Name {
            name: fqn.clone(),
            why: format!("{e:?}"),
        })?;
        let mut inner = context
            .new_node(
                node_name,
                NodeOptions::new().enable_rosout(core.args.rosout_logs),
            )
            .map_err(|e| RosError::Create {
                what: format!("node {fqn}"),
                why: format!("{e:?}"),
            })?;
        let spinner = inner.spinner().map_err(|e| RosError::Create {
            what: format!("spinner of {fqn}"),
            why: format!("{e:?}"),
        })?;
        core.tasks.spawn_last(async move {
            if let Err(e) = spinner.spin().await {
                tracing::error!("node spinner stopped: {e:?}");
            }
        });
        if core.use_sim_time {
            // ros2-client follows /clock itself once its own copy of the parameter is set.
            inner
                .set_parameter("use_sim_time", ros2_client::ParameterValue::Boolean(true))
                .map_err(|why| RosError::Create {
                    what: format!("simulated time for {fqn}"),
                    why,
                })?;
        }
        Ok(Node {
            inner,
            context,
            core,
        })
    }

    /// What ends this node in order once it is dropped: its tasks, then its participant.
    pub fn closer(&self) -> Closer {
        Closer::new(self.core.tasks.clone(), Box::new(self.context.clone()))
    }

    /// The node's parameters. What is declared through the returned guard is published to
    /// ROS 2's parameter services when the guard is dropped (see [`ParamsGuard`]).
    pub fn params(&mut self) -> ParamsGuard<'_, ParamServices<'_>> {
        ParamsGuard::new(&mut self.core.params, ParamServices(&self.inner))
    }

    /// Resolves `name` for an endpoint of `kind` and parses it as ros2-client's.
    pub(super) fn name_of(&self, kind: &str, name: &str) -> Result<(String, Name), RosError> {
        let fqn = self.resolve(name);
        let parsed = Name::parse(&fqn).map_err(|e| RosError::Name {
            name: format!("{kind} {fqn}"),
            why: format!("{e:?}"),
        })?;
        Ok((fqn, parsed))
    }

    /// The node's time: the system clock, or `/clock` when `use_sim_time` is true.
    pub fn now(&self) -> Time {
        clock::to_msg(self.inner.time_now())
    }

    /// A handle the `/rosout` logging layer writes through (see [`crate::logging`]).
    pub(crate) fn logging_handle(&self) -> ros2_client::dds::NodeLoggingHandle {
        self.inner.logging_handle()
    }
}

/// The default backend's parameter services: ros2-client's, on the node.
pub struct ParamServices<'a>(&'a ros2_client::Node);

impl std::fmt::Debug for ParamServices<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParamServices")
    }
}

impl ServeDeclared for ParamServices<'_> {
    fn serve(&mut self, params: &Params) {
        for (name, value) in params.declared() {
            // ros2-client keeps use_sim_time itself, writable, and follows /clock by it.
            if name == "use_sim_time" || self.0.has_parameter(name) {
                continue;
            }
            self.0
                .declare_read_only_parameter(name, to_ros_value(value), READ_ONLY);
        }
    }
}

fn to_ros_value(value: &ParamValue) -> ros2_client::ParameterValue {
    use ros2_client::ParameterValue as R;
    match value.clone() {
        ParamValue::Bool(b) => R::Boolean(b),
        ParamValue::Integer(i) => R::Integer(i),
        ParamValue::Double(d) => R::Double(d),
        ParamValue::String(s) => R::String(s),
        ParamValue::BoolArray(v) => R::BooleanArray(v),
        ParamValue::IntegerArray(v) => R::IntegerArray(v),
        ParamValue::DoubleArray(v) => R::DoubleArray(v),
        ParamValue::StringArray(v) => R::StringArray(v),
    }
}

/// A DDS participant on the domain of `ROS_DOMAIN_ID`, kept to loopback when discovery is
/// limited to the local host, with the credentials of its enclave when security is on.
fn make_context(env: &RosEnv, enclave: Option<&str>) -> Result<Context, RosError> {
    let create = |why: String| RosError::Create {
        what: format!("DDS participant on domain {}", env.domain_id),
        why,
    };
    super::type_hashes::announce_type_hashes();
    let mut builder = DomainParticipantBuilder::new(env.domain_id);
    if env.discovery != DiscoveryRange::Subnet {
        builder = builder.with_only_networks([IpAddr::V4(Ipv4Addr::LOCALHOST)]);
    }
    if let Some(security) = &env.security {
        if let Some(dir) = security.resolve(enclave)? {
            tracing::debug!("DDS security with the credentials of {}", dir.display());
            // SROS2 keys are not encrypted, so there is no password.
            builder = builder.builtin_security(
                DomainParticipantSecurityConfigFiles::with_ros_default_names(dir, String::new()),
            );
        }
    }
    let dp = builder.build().map_err(|e| create(format!("{e:?}")))?;
    Context::from_domain_participant(dp).map_err(|e| create(format!("{e:?}")))
}
