//! Publishers and subscriptions on ros2-client's topics, our messages on the wire as CDR.

use std::marker::PhantomData;
use std::pin::Pin;

use checkers_msgs::Interface;
use futures::{Stream, StreamExt};
use ros2_client::{MessageTypeName, Name};

use super::discovery::{settled, Peers};
use super::node::Node;
use super::qos;
use super::wire::Wire;
use crate::error::RosError;
use crate::qos::Qos;

impl Node {
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
    /// `ABSENT_SETTLE`; false after `timeout`. Where a topic has more than one reader, the
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
