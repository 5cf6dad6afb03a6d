//! A node on the default backend (ros2-client over RustDDS), set up from the command line and
//! environment exactly as rcl would: name and namespace remaps, parameters, domain, discovery
//! range, DDS Security.

use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr};
use std::pin::Pin;

use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::{ActionInterface, Interface, ServiceInterface};
use futures::{Stream, StreamExt};
use ros2_client::action::AsyncActionServer;
use ros2_client::dds::rustdds::DomainParticipantBuilder;
use ros2_client::dds::rustdds::DomainParticipantSecurityConfigFiles;
use ros2_client::{
    ActionTypeName, Context, MessageTypeName, Name, NodeName, NodeOptions, ServiceMapping,
    ServiceTypeName,
};

use super::action::{ActionClient, ActionServer};
use super::clock;
use super::discovery::{settled, Peers, ServerWatch};
use super::qos;
use super::service::{ServiceClient, ServiceServer};
use super::wire::Wire;
use crate::args::RosArgs;
use crate::env::{DiscoveryRange, RosEnv};
use crate::error::RosError;
use crate::node_core::NodeCore;
use crate::params::{ParamValue, Params, ParamsGuard, ServeDeclared, READ_ONLY};
use crate::qos::Qos;
use crate::tasks::Closer;

pub struct Node {
    inner: ros2_client::Node,
    context: Context,
    core: NodeCore,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("name", &self.core.name)
            .field("namespace", &self.core.namespace)
            .finish()
    }
}

impl Node {
    /// A node named `default_name` (unless remapped), from this process's arguments and
    /// environment. Must be called inside a tokio runtime: the node's spinner runs on it.
    pub fn from_env(default_name: &str) -> Result<Node, RosError> {
        Node::new(default_name, RosArgs::from_env()?, RosEnv::from_env()?)
    }

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

    /// Runs `task` (one that holds this node's publishers, subscriptions or servers) until it
    /// ends or the node is closed, so that its entities go before the participant.
    pub fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.core.tasks.spawn(task);
    }

    /// What ends this node in order once it is dropped: its tasks, then its participant.
    pub fn closer(&self) -> Closer {
        Closer::new(self.core.tasks.clone(), Box::new(self.context.clone()))
    }

    /// Ends this node in order now: it is dropped, then its tasks stop, then its participant goes.
    pub async fn close(self) {
        let closer = self.closer();
        drop(self);
        closer.close().await;
    }

    pub fn name(&self) -> &str {
        &self.core.name
    }

    pub fn namespace(&self) -> &str {
        &self.core.namespace
    }

    pub(crate) fn args(&self) -> &RosArgs {
        &self.core.args
    }

    /// The node's parameters. What is declared through the returned guard is published to
    /// ROS 2's parameter services when the guard is dropped (see [`ParamsGuard`]).
    pub fn params(&mut self) -> ParamsGuard<'_, DdsParams<'_>> {
        ParamsGuard::new(&mut self.core.params, DdsParams(&self.inner))
    }

    /// The fully qualified name `topic` resolves to for this node (expansion, then remaps).
    pub fn resolve(&self, topic: &str) -> String {
        self.core.resolve(topic)
    }

    fn topic<T: Interface>(
        &mut self,
        topic: &str,
        qos: Qos,
    ) -> Result<(String, ros2_client::dds::rustdds::Topic), RosError> {
        let fqn = self.resolve(topic);
        let name = Name::parse(&fqn).map_err(|e| RosError::Name {
            name: fqn.clone(),
            why: format!("{e:?}"),
        })?;
        let t = self
            .inner
            .create_topic(
                &name,
                MessageTypeName::new(T::PACKAGE, T::NAME),
                &qos::profile(qos),
            )
            .map_err(|e| RosError::Create {
                what: format!("topic {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok((fqn, t))
    }

    pub fn publisher<T: Interface>(
        &mut self,
        topic: &str,
        qos: Qos,
    ) -> Result<Publisher<T>, RosError> {
        let (fqn, t) = self.topic::<T>(topic, qos)?;
        let inner = self
            .inner
            .create_publisher::<Wire<T>>(&t, Some(qos::profile(qos)))
            .map_err(|e| RosError::Create {
                what: format!("publisher on {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(Publisher {
            inner,
            readers: Peers::topic(&fqn),
            participant: self.context.domain_participant(),
            topic: fqn,
        })
    }

    pub fn subscription<T: Interface>(
        &mut self,
        topic: &str,
        qos: Qos,
    ) -> Result<Subscription<T>, RosError> {
        let (fqn, t) = self.topic::<T>(topic, qos)?;
        let inner = self
            .inner
            .create_subscription::<Wire<T>>(&t, Some(qos::profile(qos)))
            .map_err(|e| RosError::Create {
                what: format!("subscription to {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(Subscription {
            inner,
            topic: fqn,
            _t: PhantomData,
        })
    }
    fn name_of(&self, kind: &str, name: &str) -> Result<(String, Name), RosError> {
        let fqn = self.resolve(name);
        let parsed = Name::parse(&fqn).map_err(|e| RosError::Name {
            name: format!("{kind} {fqn}"),
            why: format!("{e:?}"),
        })?;
        Ok((fqn, parsed))
    }

    pub fn service_server<S: super::Service>(
        &mut self,
        name: &str,
    ) -> Result<ServiceServer<S>, RosError> {
        let (fqn, parsed) = self.name_of("service", name)?;
        let inner = self
            .inner
            .create_server::<Wire<S::Request>, Wire<S::Response>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ServiceTypeName::new(S::PACKAGE, S::NAME),
                qos::service(),
                qos::service(),
            )
            .map_err(|e| RosError::Create {
                what: format!("service server {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ServiceServer { inner, name: fqn })
    }

    pub fn service_client<S: ServiceInterface>(
        &mut self,
        name: &str,
    ) -> Result<ServiceClient<S>, RosError> {
        let (fqn, parsed) = self.name_of("service", name)?;
        let inner = self
            .inner
            .create_client::<Wire<S::Request>, Wire<S::Response>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ServiceTypeName::new(S::PACKAGE, S::NAME),
                qos::service(),
                qos::service(),
            )
            .map_err(|e| RosError::Create {
                what: format!("service client {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ServiceClient {
            inner,
            server: ServerWatch::new(self.context.domain_participant(), Peers::service(&fqn)),
            name: fqn,
            turn: tokio::sync::Mutex::new(()),
        })
    }

    pub fn action_server<A: super::Action>(
        &mut self,
        name: &str,
    ) -> Result<ActionServer<A>, RosError> {
        let (fqn, parsed) = self.name_of("action", name)?;
        let inner = self
            .inner
            .create_action_server::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ActionTypeName::new(A::PACKAGE, A::NAME),
                qos::action_server(),
            )
            .map_err(|e| RosError::Create {
                what: format!("action server {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ActionServer::new(
            AsyncActionServer::new(inner),
            fqn,
            self.core.tasks.clone(),
        ))
    }

    pub fn action_client<A: ActionInterface>(
        &mut self,
        name: &str,
    ) -> Result<ActionClient<A>, RosError> {
        let (fqn, parsed) = self.name_of("action", name)?;
        let inner = self
            .inner
            .create_action_client::<Wire<A::Goal>, Wire<A::Result>, Wire<A::Feedback>>(
                ServiceMapping::Enhanced,
                &parsed,
                &ActionTypeName::new(A::PACKAGE, A::NAME),
                qos::action_client(),
            )
            .map_err(|e| RosError::Create {
                what: format!("action client {fqn}"),
                why: format!("{e:?}"),
            })?;
        Ok(ActionClient {
            inner,
            server: ServerWatch::new(self.context.domain_participant(), Peers::action(&fqn)),
            name: fqn,
            goal_turn: tokio::sync::Mutex::new(()),
            result_turn: tokio::sync::Mutex::new(()),
            cancel_turn: tokio::sync::Mutex::new(()),
        })
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
pub struct DdsParams<'a>(&'a ros2_client::Node);

impl std::fmt::Debug for DdsParams<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DdsParams")
    }
}

impl ServeDeclared for DdsParams<'_> {
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

pub struct Publisher<T: Interface> {
    inner: ros2_client::dds::Publisher<Wire<T>>,
    topic: String,
    readers: Peers,
    participant: ros2_client::dds::rustdds::DomainParticipant,
}

impl<T: Interface> std::fmt::Debug for Publisher<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Publisher({})", self.topic)
    }
}

impl<T: Interface> Publisher<T> {
    /// Publishes `msg` after checking its bounds (a peer could reject an oversize message).
    pub async fn publish(&self, msg: T) -> Result<(), RosError> {
        msg.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.topic.clone(),
            why: e.to_string(),
        })?;
        self.inner
            .async_publish(Wire(msg))
            .await
            .map_err(|e| RosError::Publish {
                topic: self.topic.clone(),
                why: format!("{e:?}"),
            })
    }

    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// True once a subscription to this topic in another process is discovered (at once when
    /// one is), false after `timeout`. A sample written before any reader has matched this
    /// writer reaches nobody, even a reliable one: a publisher whose every sample matters (a
    /// confirm press from a board sensor that has just started) waits for its reader first.
    /// A reader that has gone without a word (its process killed) still counts until its
    /// participant's lease runs out.
    pub async fn wait_for_subscribers(&self, timeout: std::time::Duration) -> bool {
        self.readers.present(&self.participant)
            || self
                .readers
                .wait(&self.participant, tokio::time::Instant::now() + timeout)
                .await
    }

    /// True once the node named `reader` (a node's name, or its fully qualified name when it
    /// begins with `/`) has a subscription to this topic discovered and matched; or, where the
    /// graph has no node of that name, once any subscription in another process is (see
    /// [`Self::wait_for_subscribers`]) and the graph has gone on without one for
    /// [`ABSENT_SETTLE`]; false after `timeout`. Where a topic has more than one reader, the
    /// one a sample is written for may be discovered last (a recorder or a display first). A
    /// node is known by the `ros_discovery_info` its participant announces.
    pub async fn wait_for_subscriber_node(
        &self,
        own: &Node,
        reader: &str,
        timeout: std::time::Duration,
    ) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut absent_since: Option<tokio::time::Instant> = None;
        settled(deadline, || {
            let subscribed = own.inner.subscription_node_names(&self.topic);
            if subscribed.iter().any(|fqn| is_node(fqn, reader)) {
                return true;
            }
            let absent = self.readers.present(&self.participant)
                && !own
                    .inner
                    .node_names()
                    .iter()
                    .any(|fqn| is_node(fqn, reader));
            if !absent {
                absent_since = None;
                return false;
            }
            let since = *absent_since.get_or_insert_with(tokio::time::Instant::now);
            since.elapsed() >= ABSENT_SETTLE
        })
        .await
    }
}

/// How long a graph must go on without the reader a publisher waits for, other readers
/// present, before it is taken to have none: the participants of a graph answer a new one at
/// once, and their nodes and readers follow within a moment.
const ABSENT_SETTLE: std::time::Duration = std::time::Duration::from_millis(1000);

/// Whether the fully qualified node name `fqn` is the node `name` (a name, or a fully
/// qualified one).
fn is_node(fqn: &str, name: &str) -> bool {
    if name.starts_with('/') {
        fqn == name
    } else {
        fqn.rsplit('/').next() == Some(name)
    }
}

pub struct Subscription<T: Interface> {
    inner: ros2_client::dds::Subscription<Wire<T>>,
    topic: String,
    _t: PhantomData<T>,
}

impl<T: Interface> std::fmt::Debug for Subscription<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Subscription({})", self.topic)
    }
}

impl<T: Interface> Subscription<T> {
    /// The messages as a stream. A sample that does not decode is logged with the topic and
    /// skipped: one bad frame never ends the stream.
    pub fn stream(&self) -> Pin<Box<dyn Stream<Item = T> + Send + '_>> {
        let topic = self.topic.clone();
        Box::pin(self.inner.async_stream().filter_map(move |r| {
            let topic = topic.clone();
            async move {
                match r {
                    Ok((Wire(m), _info)) => Some(m),
                    Err(e) => {
                        tracing::warn!(%topic, "dropping a sample that does not decode: {e:?}");
                        None
                    }
                }
            }
        }))
    }

    pub fn topic(&self) -> &str {
        &self.topic
    }
}

#[cfg(test)]
mod tests {
    use super::is_node;

    #[test]
    fn a_node_is_named_by_its_name_or_its_fully_qualified_name() {
        assert!(is_node("/arbiter", "arbiter"));
        assert!(is_node("/robot/arbiter", "arbiter"));
        assert!(is_node("/robot/arbiter", "/robot/arbiter"));
        assert!(!is_node("/robot/arbiter", "/arbiter"));
        assert!(!is_node("/recorder", "arbiter"));
        assert!(!is_node("/not_arbiter", "arbiter"));
    }
}
