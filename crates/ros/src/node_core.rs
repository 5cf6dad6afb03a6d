//! What a node is before a backend makes it: its names as its arguments give them, its
//! parameters (with `use_sim_time`, which every rcl node has), and the tasks it runs. Both
//! backends' `Node`s hold one.

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
