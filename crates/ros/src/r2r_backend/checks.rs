//! Compile-time checks only. Node code moves endpoints into tasks and spawns their futures on
//! tokio's multi-threaded runtime, so both must be `Send` (endpoints `Sync` too); r2r's types
//! are `Send` but rarely `Sync`, which makes that easy to lose without noticing.
//!
//! Under `doc-only` r2r_actions' rcl handles are plain integers, so in CI the action client's
//! r2r types look `Sync` and its goal future `Send`; with real bindings they are not. The action
//! client is written for the real ones (see `action_client`), and the robot's build checks it.
#![allow(dead_code)]

use std::future::Future;
use std::time::Duration;

use checkers_msgs::{ActionInterface, Interface};
use futures::Stream;

use super::{
    ActionClient, ActionServer, GoalHandle, NewGoal, Node, Publisher, R2rAction, R2rService,
    RequestId, RunningGoal, ServiceClient, ServiceServer, Subscription,
};

fn shared<T: Send + Sync>(_: &T) {}
fn owned<T: Send>(_: &T) {}
fn future<F: Future + Send>(_: F) {}
fn stream<S: Stream + Send>(_: S) {}

fn topics<T: Interface>(node: &Node, p: &Publisher<T>, s: &Subscription<T>, m: T) {
    shared(node);
    shared(p);
    shared(s);
    future(p.publish(m));
    stream(s.stream());
}

fn services<S: R2rService>(
    server: &ServiceServer<S>,
    client: &ServiceClient<S>,
    id: RequestId,
    request: S::Request,
    response: S::Response,
) {
    shared(server);
    shared(client);
    future(server.next_request());
    future(server.respond(id, response.clone()));
    future(server.serve(move |_| std::future::ready(response.clone())));
    future(client.wait_for_service(Duration::ZERO));
    future(client.call(request.clone(), Duration::ZERO));
    future(client.call_retrying(request, Duration::ZERO, 1));
}

fn action_server<A: R2rAction>(server: &ActionServer<A>, new: NewGoal<A>, running: RunningGoal<A>) {
    shared(server);
    future(server.next_goal());
    owned(&new);
    shared(&running);
    future(new.accept());
}

fn running_goal<A: R2rAction>(mut running: RunningGoal<A>, feedback: A::Feedback) {
    future(running.feedback(feedback));
    future(running.cancelled());
}

fn action_client<A: ActionInterface>(client: &ActionClient<A>, goal: A::Goal) {
    shared(client);
    future(client.wait_for_server(Duration::ZERO));
    future(client.send_goal(goal, Duration::ZERO));
}

fn goal_handle<A: ActionInterface>(handle: &GoalHandle<'_, A>) {
    shared(handle);
    stream(handle.feedback());
    future(handle.result(Duration::ZERO));
    future(handle.cancel(Duration::ZERO));
}
