//! Waiting for the other end of a service or action to be discovered.
//!
//! ros2-client's own `wait_for_service` needs the `Node` borrowed for the whole wait, which would
//! tie every client to its node; and a request written before the server's reader is matched is
//! lost. So clients poll the participant's discovery database for the server's endpoints (by DDS
//! topic name), then give matching a moment to follow discovery before the first request.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ros2_client::dds::rustdds::DomainParticipant;
use ros2_client::ServiceMapping;
use tokio::time::Instant;

/// How often the discovery database is read while waiting.
const POLL: Duration = Duration::from_millis(10);
/// Time between discovering a remote endpoint and our endpoint being matched with it; RustDDS
/// does both in the same event loop, so this is a margin, not a measured delay.
const SETTLE: Duration = Duration::from_millis(30);

/// The DDS endpoints a client needs on the other side.
#[derive(Debug, Clone)]
pub(crate) struct Peers {
    /// Topics on which a remote reader must exist (where we write requests).
    pub readers: Vec<String>,
    /// Topics on which a remote writer must exist (where replies come from).
    pub writers: Vec<String>,
}

impl Peers {
    pub fn service(fqn: &str) -> Peers {
        Peers {
            readers: vec![format!("rq{fqn}Request")],
            writers: vec![format!("rr{fqn}Reply")],
        }
    }

    /// A topic's subscriptions, to a publisher of it.
    pub fn topic(fqn: &str) -> Peers {
        Peers {
            readers: vec![format!("rt{fqn}")],
            writers: Vec::new(),
        }
    }

    pub fn action(fqn: &str) -> Peers {
        let part = |p: &str, s: &str, suffix: &str| format!("{p}{fqn}/_action/{s}{suffix}");
        Peers {
            readers: vec![
                part("rq", "send_goal", "Request"),
                part("rq", "get_result", "Request"),
                part("rq", "cancel_goal", "Request"),
            ],
            writers: vec![
                part("rr", "send_goal", "Reply"),
                part("rr", "get_result", "Reply"),
                part("rr", "cancel_goal", "Reply"),
                part("rt", "feedback", ""),
            ],
        }
    }

    /// How the servers found on the first request topic expect requests: Cyclone when every
    /// one of them is an rmw_cyclonedds_cpp reader (vendor id 01.10 leads its GUID, or, under
    /// DDS Security, its participant announced that vendor), which reads
    /// its request id from a header in the payload; Enhanced otherwise (rmw_fastrtps_cpp,
    /// rmw_connextdds and ros2-client). See docs/ros2-interop.md.
    fn mapping(&self, dp: &DomainParticipant) -> ServiceMapping {
        let Some(topic) = self.readers.first() else {
            return ServiceMapping::Enhanced;
        };
        let mut servers = dp
            .discovered_readers()
            .into_iter()
            .filter(|r| &r.subscription_topic_data.topic_name == topic)
            .peekable();
        if servers.peek().is_some()
            && servers.all(|r| {
                let prefix: &[u8] = r.reader_proxy.remote_reader_guid.prefix.as_ref();
                ros2_client::service::is_cyclone_prefix(prefix)
            })
        {
            ServiceMapping::Cyclone
        } else {
            ServiceMapping::Enhanced
        }
    }

    pub fn present(&self, dp: &DomainParticipant) -> bool {
        let readers = dp.discovered_readers();
        let writers = dp.discovered_writers();
        self.readers.iter().all(|t| {
            readers
                .iter()
                .any(|r| &r.subscription_topic_data.topic_name == t)
        }) && self.writers.iter().all(|t| {
            writers
                .iter()
                .any(|w| &w.publication_topic_data.topic_name == t)
        })
    }

    /// True once every endpoint is discovered (and had time to match), false at `deadline`.
    pub async fn wait(&self, dp: &DomainParticipant, deadline: Instant) -> bool {
        settled(deadline, || self.present(dp)).await
    }
}

/// True once `found` has held for [`SETTLE`] (matching follows discovery), false at `deadline`.
pub(crate) async fn settled(deadline: Instant, mut found: impl FnMut() -> bool) -> bool {
    let mut first_seen: Option<Instant> = None;
    loop {
        let now = Instant::now();
        if found() {
            match first_seen {
                Some(t) if now.duration_since(t) >= SETTLE => return true,
                Some(_) => {}
                None => first_seen = Some(now),
            }
        } else {
            first_seen = None;
        }
        if now >= deadline {
            return false;
        }
        tokio::time::sleep(POLL.min(deadline - now)).await;
    }
}

/// A client's view of its server: found once, then trusted until a call times out.
pub(crate) struct ServerWatch {
    participant: DomainParticipant,
    peers: Peers,
    found: AtomicBool,
    cyclone: AtomicBool,
}

impl std::fmt::Debug for ServerWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerWatch")
            .field("peers", &self.peers)
            .field("found", &self.found)
            .finish()
    }
}

impl ServerWatch {
    pub fn new(participant: DomainParticipant, peers: Peers) -> ServerWatch {
        ServerWatch {
            participant,
            peers,
            found: AtomicBool::new(false),
            cyclone: AtomicBool::new(false),
        }
    }

    /// True once the server is there (at once if it was found before), false at `deadline`.
    pub async fn wait_until(&self, deadline: Instant) -> bool {
        if self.found.load(Ordering::Acquire) {
            return true;
        }
        let found = self.peers.wait(&self.participant, deadline).await;
        if found {
            self.cyclone.store(
                self.peers.mapping(&self.participant) == ServiceMapping::Cyclone,
                Ordering::Release,
            );
        }
        self.found.store(found, Ordering::Release);
        found
    }

    /// The mapping the server found last expects.
    pub fn mapping(&self) -> ServiceMapping {
        if self.cyclone.load(Ordering::Acquire) {
            ServiceMapping::Cyclone
        } else {
            ServiceMapping::Enhanced
        }
    }

    /// The participants (GUID prefixes) whose readers serve the first request topic now.
    pub fn serving(&self) -> Vec<Vec<u8>> {
        let Some(topic) = self.peers.readers.first() else {
            return Vec::new();
        };
        let mut found: Vec<Vec<u8>> = self
            .participant
            .discovered_readers()
            .iter()
            .filter(|r| &r.subscription_topic_data.topic_name == topic)
            .map(|r| {
                let prefix: &[u8] = r.reader_proxy.remote_reader_guid.prefix.as_ref();
                prefix.to_vec()
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// A call timed out: the server may have gone, so look for it again next time.
    pub fn forget(&self) {
        self.found.store(false, Ordering::Release);
    }
}
