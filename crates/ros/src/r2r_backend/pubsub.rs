//! Publishers and subscriptions over r2r's untyped API: r2r looks the type up by its ROS name
//! in the interfaces it generated, and our messages cross as JSON.

use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use checkers_msgs::Interface;
use futures::{Stream, StreamExt};

use super::convert::{from_json, to_json, ConvertError};
use super::node::{create_error, Node};
use super::qos;
use super::spin::Shared;
use crate::error::RosError;
use crate::qos::Qos;

type Samples = Pin<Box<dyn Stream<Item = r2r::Result<serde_json::Value>> + Send>>;

impl Node {
    pub fn publisher<T: Interface>(
        &mut self,
        topic: &str,
        qos: Qos,
    ) -> Result<Publisher<T>, RosError> {
        self.shared_publisher(topic, qos)
    }

    /// A publisher made through a shared borrow (the logger has no other).
    pub(super) fn shared_publisher<T: Interface>(
        &self,
        topic: &str,
        qos: Qos,
    ) -> Result<Publisher<T>, RosError> {
        let fqn = self.name_of("topic", topic)?;
        let inner = self
            .shared
            .with(|n| n.create_publisher_untyped(topic, T::ROS_TYPE, qos::profile(qos)))
            .map_err(|e| create_error(format!("publisher on {fqn} ({})", T::ROS_TYPE), e))?;
        Ok(Publisher {
            inner: Mutex::new(inner),
            topic: fqn,
            _node: Arc::clone(&self.shared),
            _t: PhantomData,
        })
    }

    pub fn subscription<T: Interface>(
        &mut self,
        topic: &str,
        qos: Qos,
    ) -> Result<Subscription<T>, RosError> {
        let fqn = self.name_of("topic", topic)?;
        let samples = self
            .shared
            .with(|n| n.subscribe_untyped(topic, T::ROS_TYPE, qos::profile(qos)))
            .map_err(|e| create_error(format!("subscription to {fqn} ({})", T::ROS_TYPE), e))?;
        Ok(Subscription {
            samples: tokio::sync::Mutex::new(Box::pin(samples)),
            topic: fqn,
            _node: Arc::clone(&self.shared),
            _t: PhantomData,
        })
    }
}

pub struct Publisher<T: Interface> {
    /// r2r's publisher may move between threads but not be shared by them.
    inner: Mutex<r2r::PublisherUntyped>,
    topic: String,
    _node: Arc<Shared>,
    _t: PhantomData<T>,
}

impl<T: Interface> std::fmt::Debug for Publisher<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Publisher({})", self.topic)
    }
}

impl<T: Interface> Publisher<T> {
    /// Publishes `msg` after checking its bounds (a peer could reject an oversize message).
    pub async fn publish(&self, msg: T) -> Result<(), RosError> {
        self.publish_now(msg)
    }

    /// Publishes without waiting (rcl's publish does not block).
    pub(super) fn publish_now(&self, msg: T) -> Result<(), RosError> {
        let error = |why: String| RosError::Publish {
            topic: self.topic.clone(),
            why,
        };
        msg.check_bounds().map_err(|e| RosError::Bounds {
            topic: self.topic.clone(),
            why: e.to_string(),
        })?;
        let json = to_json(&msg).map_err(|e| error(format!("no JSON form: {e}")))?;
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .publish(json)
            .map_err(|e| error(e.to_string()))
    }

    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// True once a subscription to this topic in another process is matched (rcl's count),
    /// false after `timeout`: see the default backend's `Publisher::wait_for_subscribers`.
    pub async fn wait_for_subscribers(&self, timeout: std::time::Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let count = self
                .inner
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_inter_process_subscription_count()
                .unwrap_or(0);
            if count > 0 {
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// As the default backend's `Publisher::wait_for_subscriber_node`, but r2r 0.9 offers no
    /// way to ask whose a subscription is (rcl_get_subscriptions_info_by_topic is not bound):
    /// here any subscription in another process will do, as in [`Self::wait_for_subscribers`],
    /// whether or not the graph has the node named.
    pub async fn wait_for_subscriber_node(
        &self,
        _own: &Node,
        _reader: &str,
        timeout: std::time::Duration,
    ) -> bool {
        self.wait_for_subscribers(timeout).await
    }
}

pub struct Subscription<T: Interface> {
    samples: tokio::sync::Mutex<Samples>,
    topic: String,
    _node: Arc<Shared>,
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
        Box::pin(futures::stream::unfold(self, |sub| async move {
            loop {
                let sample = sub.samples.lock().await.next().await?;
                match sample.map_err(ConvertError::from).and_then(from_json::<T>) {
                    Ok(m) => return Some((m, sub)),
                    Err(e) => tracing::warn!(
                        topic = %sub.topic,
                        "dropping a sample that does not decode as {}: {e}",
                        T::ROS_TYPE
                    ),
                }
            }
        }))
    }

    pub fn topic(&self) -> &str {
        &self.topic
    }
}
