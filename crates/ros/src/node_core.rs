//! What a node is before a backend makes it: its names as its arguments give them, its
//! parameters (with `use_sim_time`, which every rcl node has), and the tasks it runs. Both
//! backends' `Node`s hold one, and get from `node_accessors!` the methods that only read it.

use crate::args::RosArgs;
use crate::error::RosError;
use crate::params::Params;
use crate::tasks::Tasks;

#[derive(Debug)]
pub(crate) struct NodeCore {
    pub(crate) args: RosArgs,
    /// The name the code gave, before remaps: the one rcl's `__node` rules match.
    original_name: String,
    pub(crate) name: String,
    pub(crate) namespace: String,
    /// `/namespace/name`.
    pub(crate) fqn: String,
    pub(crate) params: Params,
    /// True makes the node's clock follow `/clock`.
    pub(crate) use_sim_time: bool,
    pub(crate) tasks: Tasks,
}

impl NodeCore {
    /// The node `default_name` becomes under `args`, which are checked.
    pub(crate) fn new(default_name: &str, args: RosArgs) -> Result<NodeCore, RosError> {
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
        Ok(NodeCore {
            args,
            original_name: default_name.to_string(),
            name,
            namespace,
            fqn,
            params,
            use_sim_time,
            tasks: Tasks::default(),
        })
    }

    /// The fully qualified name `topic` resolves to for this node (expansion, then remaps), as
    /// rcl resolves it.
    pub(crate) fn resolve(&self, topic: &str) -> String {
        self.args
            .resolve(topic, &self.original_name, &self.name, &self.namespace)
    }
}

/// What every backend's `Node` has the same way over its `core` (a [`NodeCore`]) and its
/// `closer()`: its `Debug` and its accessors, written once and expanded in each backend's
/// `node.rs` with `node_accessors!(Node);`.
macro_rules! node_accessors {
    ($node:ident) => {
        impl std::fmt::Debug for $node {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct("Node")
                    .field("name", &self.core.name)
                    .field("namespace", &self.core.namespace)
                    .finish()
            }
        }

        impl $node {
            /// A node named `default_name` (unless remapped), from this process's arguments and
            /// environment. Must be called inside a tokio runtime: the node's tasks run on it.
            pub fn from_env(default_name: &str) -> Result<$node, crate::error::RosError> {
                $node::new(
                    default_name,
                    crate::args::RosArgs::from_env()?,
                    crate::env::RosEnv::from_env()?,
                )
            }

            /// Runs `task` (one that holds this node's publishers, subscriptions or servers)
            /// until it ends or the node is closed, so that its entities go before the node's.
            pub fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
                self.core.tasks.spawn(task);
            }

            /// Ends this node in order now: it is dropped, then its tasks stop, then what it
            /// runs on (the DDS participant, or the rcl node) goes.
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

            pub(crate) fn args(&self) -> &crate::args::RosArgs {
                &self.core.args
            }

            /// The fully qualified name `topic` resolves to for this node (expansion, then
            /// remaps), as rcl resolves it.
            pub fn resolve(&self, topic: &str) -> String {
                self.core.resolve(topic)
            }
        }
    };
}

pub(crate) use node_accessors;
