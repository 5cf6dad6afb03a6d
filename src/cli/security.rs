//! `checkers-robot security init DIR`: an SROS2 keystore for the robot without a ROS install,
//! in the layout `ros2 security` makes (docs/security.md).

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Makes the keystore DIR (a CA, the governance) unless it exists, and writes the enclaves
    /// of the policy: keys, certificates and signed permissions. Run again to add or renew
    /// enclaves with the same CA.
    Init {
        /// The keystore's folder (ROS_SECURITY_KEYSTORE).
        dir: PathBuf,
        /// The policy: who may use which topic, service and action.
        #[arg(long, default_value = "config/security/policy.xml")]
        policy: PathBuf,
        /// Only these enclaves of the policy (repeat the option); all when none is given.
        #[arg(long = "enclave", value_name = "ENCLAVE")]
        enclaves: Vec<String>,
    },
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Init {
            dir,
            policy,
            enclaves,
        } => {
            let report = sros2::init(dir, policy, enclaves)
                .map_err(super::bad_input)
                .with_context(|| format!("keystore {}", dir.display()))?;
            if report.created_ca {
                println!("created keystore {} (CA, governance)", dir.display());
            } else {
                println!("keystore {}: its CA signs the new enclaves", dir.display());
            }
            for (name, folder) in &report.enclaves {
                println!("enclave {name}: {}", folder.display());
            }
            println!(
                "use: ROS_SECURITY_ENABLE=true ROS_SECURITY_STRATEGY=Enforce ROS_SECURITY_KEYSTORE={}",
                dir.display()
            );
            Ok(())
        }
    }
}
