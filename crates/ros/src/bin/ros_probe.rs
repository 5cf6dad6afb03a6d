//! A tiny node for tests, benchmarks and checking by hand that processes talk. Modes:
//! - `pub` publishes a `checkers_msgs/msg/GameState` on `/game/state` (latched) every 100 ms;
//!   `sub` prints the first one it receives and exits; `sub-occupancy` does the same for
//!   `/board/occupancy`;
//! - `serve` answers `checkers_msgs/srv/ScanBoard` on `/board/scan`; `call` calls it once;
//! - `plan-server` serves the `checkers_msgs/action/PlanMove` action on `/planner/plan`, with
//!   feedback every 50 ms; `plan-client` sends one goal and may cancel it;
//! - `log` logs through `tracing`; `rosout` prints the first `/rosout` line that says hello;
//! - `params` prints a few declared parameters, and overrides no declaration used;
//! - `bench` measures discovery, topic latency and service round trips against copies of itself
//!   in other processes (figures in the README).
//!
//! All take the usual `--ros-args` (remaps, `-p name:=value`) and `ROS_DOMAIN_ID`.

use std::time::Duration;

use anyhow::{bail, Context};
use checkers_msgs::action::{PlanMove, PlanMove_Feedback, PlanMove_Result};
use checkers_msgs::msg::{BoardOccupancy, GameState, Move};
use checkers_msgs::rcl_interfaces::msg::Log;
use checkers_msgs::srv::{ScanBoard, ScanBoard_Request, ScanBoard_Response};
use futures::StreamExt;
use ros::{GoalOutcome, Node, Qos};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut node = Node::from_env("ros_probe")?;
    let mode = std::env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "pub" => publish(&mut node).await,
        "sub" => subscribe(&mut node).await,
        "sub-occupancy" => subscribe_occupancy(&mut node).await,
        "serve" => serve(&mut node).await,
        "call" => call(&mut node).await,
        "plan-server" => plan_server(&mut node).await,
        "plan-client" => plan_client(&mut node).await,
        "log" => log(&mut node).await,
        "rosout" => rosout(&mut node).await,
        "params" => params(&mut node),
        "bench" => bench(&mut node).await,
        other => bail!(
            "usage: ros_probe pub|sub|sub-occupancy|serve|call|plan-server|plan-client|log|rosout|params|bench \
             [--ros-args ...] (got {other:?})"
        ),
    }
}

async fn publish(node: &mut Node) -> anyhow::Result<()> {
    let count = node.params().declare("count", 100i64)?;
    let period = node.params().declare("period_s", 0.1f64)?;
    let linger = node.params().declare("linger_s", 0.0f64)?;
    // A large sample (`message` padded to this many bytes) is sent in DATA_FRAG submessages.
    let message_bytes = node.params().declare("message_bytes", 0i64)?;
    let publisher = node.publisher::<GameState>("/game/state", Qos::State)?;
    for i in 0..count {
        let mut msg = GameState {
            ply: i as u32,
            ..GameState::default()
        };
        msg.header.stamp = node.now();
        msg.level = "expert".into();
        // Nested, bounded and unbounded sequences, so a foreign peer decodes every kind of field.
        msg.last_move = Move {
            from_square: 22,
            to_square: 18,
            path: vec![18],
            text: "c3-d4".into(),
            ..Move::default()
        };
        msg.legal_moves = vec![msg.last_move.clone(); 3];
        msg.search_nodes = u64::MAX - 1;
        msg.search_elapsed_s = 0.5;
        msg.position.fen = "W:W21-32:B1-12".to_string();
        msg.message = pattern(usize::try_from(message_bytes).unwrap_or(0));
        publisher.publish(msg).await?;
        tokio::time::sleep(Duration::from_secs_f64(period.max(0.0))).await;
    }
    tokio::time::sleep(Duration::from_secs_f64(linger.max(0.0))).await;
    Ok(())
}

async fn subscribe(node: &mut Node) -> anyhow::Result<()> {
    let timeout = node.params().declare("timeout_s", 20.0f64)?;
    let sub = node.subscription::<GameState>("/game/state", Qos::State)?;
    let mut stream = sub.stream();
    let first = tokio::time::timeout(Duration::from_secs_f64(timeout), stream.next())
        .await
        .context("no GameState received in time")?;
    match first {
        Some(m) => println!(
            "received ply {} fen {} message {} bytes{}",
            m.ply,
            m.position.fen,
            m.message.len(),
            if m.message == pattern(m.message.len()) {
                ", intact"
            } else {
                ", CORRUPT"
            }
        ),
        None => bail!("the subscription ended"),
    }
    Ok(())
}

/// `len` bytes that a reader can check: the decimal offset of every tenth byte.
fn pattern(len: usize) -> String {
    let mut s = String::with_capacity(len + 10);
    while s.len() < len {
        s.push_str(&format!("{:<10}", s.len()));
    }
    s.truncate(len);
    s
}

async fn subscribe_occupancy(node: &mut Node) -> anyhow::Result<()> {
    let timeout = node.params().declare("timeout_s", 20.0f64)?;
    let sub = node.subscription::<BoardOccupancy>("/board/occupancy", Qos::State)?;
    let mut stream = sub.stream();
    let first = tokio::time::timeout(Duration::from_secs_f64(timeout), stream.next())
        .await
        .context("no BoardOccupancy received in time")?;
    match first {
        Some(m) => println!(
            "received occupancy {:#010x} seq {} confirmed {} frame {}",
            m.occupied, m.seq, m.confirmed, m.header.frame_id
        ),
        None => bail!("the subscription ended"),
    }
    Ok(())
}

async fn serve(node: &mut Node) -> anyhow::Result<()> {
    let mask = node.params().declare("mask", 0xFFF0_0FFFi64)?;
    let server = node.service_server::<ScanBoard>("/board/scan")?;
    let mut seq = 0u64;
    server
        .serve(|req: ScanBoard_Request| {
            seq += 1;
            println!("request {seq} reads {}", req.reads);
            let response = ScanBoard_Response {
                occupancy: BoardOccupancy {
                    occupied: mask as u32,
                    seq,
                    ..BoardOccupancy::default()
                },
                success: true,
                message: String::new(),
            };
            async move { response }
        })
        .await;
    Ok(())
}

async fn call(node: &mut Node) -> anyhow::Result<()> {
    let timeout = node.params().declare("timeout_s", 20.0f64)?;
    let client = node.service_client::<ScanBoard>("/board/scan")?;
    let reply = client
        .call_retrying(
            ScanBoard_Request { reads: 3 },
            Duration::from_secs_f64(timeout / 4.0),
            4,
        )
        .await?;
    println!(
        "occupancy {:#010x} seq {} success {}",
        reply.occupancy.occupied, reply.occupancy.seq, reply.success
    );
    Ok(())
}

async fn plan_server(node: &mut Node) -> anyhow::Result<()> {
    let steps = node.params().declare("steps", 10i64)?;
    let server = node.action_server::<PlanMove>("/planner/plan")?;
    loop {
        let new = server.next_goal().await;
        println!("goal with budget {}", new.goal().time_budget_s);
        let mut goal = new.accept().await?;
        let mut cancelled = false;
        for depth in 1..=steps {
            let feedback = PlanMove_Feedback {
                depth: depth as u32,
                nodes: depth as u64 * 1000,
                best_move_text: "22-18".into(),
                ..PlanMove_Feedback::default()
            };
            goal.feedback(feedback).await?;
            tokio::select! {
                _ = goal.cancelled() => { cancelled = true; break; }
                _ = tokio::time::sleep(Duration::from_millis(50)) => {}
            }
        }
        let mut result = PlanMove_Result {
            algorithm: "probe".into(),
            ..PlanMove_Result::default()
        };
        if cancelled {
            println!("cancelled");
            result.message = "cancelled".into();
            goal.canceled(result);
        } else {
            result.best_move.from_square = 22;
            result.best_move.to_square = 18;
            result.best_move.text = "22-18".into();
            result.depth = steps as u32;
            goal.succeed(result);
        }
    }
}

async fn plan_client(node: &mut Node) -> anyhow::Result<()> {
    let cancel_after = node.params().declare("cancel_after", -1i64)?;
    let timeout = Duration::from_secs_f64(node.params().declare("timeout_s", 20.0f64)?);
    let client = node.action_client::<PlanMove>("/planner/plan")?;
    let goal = client
        .send_goal(
            checkers_msgs::action::PlanMove_Goal {
                time_budget_s: 1.5,
                ..Default::default()
            },
            timeout,
        )
        .await?;
    let mut feedback = std::pin::pin!(goal.feedback());
    let result = goal.result(timeout);
    tokio::pin!(result);
    let mut seen = 0i64;
    let (outcome, result) = loop {
        tokio::select! {
            r = &mut result => break r?,
            Some(f) = feedback.next() => {
                seen += 1;
                println!("feedback depth {} best {}", f.depth, f.best_move_text);
                if seen == cancel_after {
                    let agreed = goal.cancel(timeout).await?;
                    println!("cancel agreed {agreed}");
                }
            }
        }
    };
    println!(
        "outcome {} move {} message {:?}",
        match outcome {
            GoalOutcome::Succeeded => "succeeded",
            GoalOutcome::Canceled => "canceled",
            GoalOutcome::Aborted => "aborted",
        },
        result.best_move.text,
        result.message
    );
    Ok(())
}

async fn log(node: &mut Node) -> anyhow::Result<()> {
    let count = node.params().declare("count", 100i64)?;
    ros::logging::init(node);
    for i in 0..count {
        tracing::info!(i, "probe says hello");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

async fn rosout(node: &mut Node) -> anyhow::Result<()> {
    let timeout = node.params().declare("timeout_s", 20.0f64)?;
    let sub = node.subscription::<Log>("/rosout", Qos::State)?;
    let mut lines = std::pin::pin!(sub.stream().filter(|l| {
        let hello = l.msg.contains("hello");
        async move { hello }
    }));
    let first = tokio::time::timeout(Duration::from_secs_f64(timeout), lines.next())
        .await
        .context("no hello on /rosout in time")?;
    match first {
        Some(l) => println!("rosout {} level {}: {}", l.name, l.level, l.msg),
        None => bail!("the subscription ended"),
    }
    Ok(())
}

fn params(node: &mut Node) -> anyhow::Result<()> {
    let count = node.params().declare("count", 100i64)?;
    let ratio = node.params().declare("ratio", 0.5f64)?;
    let label = node.params().declare("label", "default".to_string())?;
    let depth = node.params().declare("limits.depth", 6i64)?;
    println!("count {count} ratio {ratio} label {label} limits.depth {depth}");
    println!("unused {:?}", node.params().unused_overrides());
    Ok(())
}

/// Spawns this program in another mode, in the same domain.
fn spawn_self(args: &[&str]) -> anyhow::Result<tokio::process::Child> {
    let exe = std::env::current_exe().context("locating ros_probe")?;
    tokio::process::Command::new(exe)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("spawning ros_probe")
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn bench(node: &mut Node) -> anyhow::Result<()> {
    let samples = node.params().declare("samples", 500i64)?.max(10);
    let sub = node.subscription::<GameState>("/game/state", Qos::State)?;
    let client = node.service_client::<ScanBoard>("/board/scan")?;
    let mut stream = sub.stream();

    // Discovery: from starting the publisher process to the first message here.
    let count = format!("count:={}", samples + 50);
    let started = std::time::Instant::now();
    let _publisher = spawn_self(&["pub", "--ros-args", "-p", &count, "-p", "period_s:=0.01"])?;
    let first = tokio::time::timeout(Duration::from_secs(30), stream.next())
        .await
        .context("no first message")?
        .context("stream ended")?;
    let discovery = started.elapsed().as_secs_f64();
    let bytes = cdr_size(&first);

    // Topic latency: the publisher stamps each message with the (shared) system clock.
    let mut latencies = Vec::new();
    while latencies.len() < samples as usize {
        let msg = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .context("the publisher stopped")?
            .context("stream ended")?;
        let sent = ros::clock::seconds(&msg.header.stamp);
        let now = ros::clock::seconds(&ros::clock::system_now());
        latencies.push((now - sent) * 1e3);
    }
    latencies.sort_by(f64::total_cmp);

    // Service round trips, after one call that includes discovery.
    let _server = spawn_self(&["serve"])?;
    client
        .call_retrying(ScanBoard_Request { reads: 1 }, Duration::from_secs(5), 4)
        .await?;
    let mut trips = Vec::new();
    for _ in 0..samples {
        let t = std::time::Instant::now();
        client
            .call(ScanBoard_Request { reads: 1 }, Duration::from_secs(5))
            .await?;
        trips.push(t.elapsed().as_secs_f64() * 1e3);
    }
    trips.sort_by(f64::total_cmp);

    println!("discovery_to_first_message_s: {discovery:.3}");
    println!("gamestate_bytes: {bytes}");
    println!(
        "topic_latency_ms: median {:.3} p99 {:.3} (n={})",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.len()
    );
    println!(
        "service_round_trip_ms: median {:.3} p99 {:.3} (n={})",
        percentile(&trips, 0.5),
        percentile(&trips, 0.99),
        trips.len()
    );
    Ok(())
}

fn cdr_size(msg: &GameState) -> usize {
    cdr_encoding::to_vec::<_, byteorder::LittleEndian>(msg).map_or(0, |v| v.len())
}
