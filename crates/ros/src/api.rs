//! The compile-time check that the backends offer one API: for each backend compiled in, a
//! function that is never called uses every item of the API with its types written out. A
//! method missing from a backend, or one with another signature there, fails the build (CI
//! builds both: the default, and the feature `r2r`, which compiles both backends).

macro_rules! same_api {
    ($backend:ident) => {
        const _: () = {
            use std::pin::Pin;
            use std::sync::atomic::AtomicBool;
            use std::sync::Arc;
            use std::time::Duration;

            use checkers_msgs::builtin_interfaces::msg::Time;
            use checkers_msgs::{ActionInterface, Interface, ServiceInterface};
            use futures::Stream;

            use crate::env::RosEnv;
            use crate::$backend as b;
            use crate::{Closer, GoalOutcome, ParamsGuard, Qos, RosArgs, RosError, ServeDeclared};

            fn params<P: ServeDeclared>(_: ParamsGuard<'_, P>) {}
            fn stream<I>(_: impl Stream<Item = I>) {}
            const _: &str = b::BACKEND;

            #[allow(dead_code, clippy::too_many_arguments)]
            async fn api<T, S, A>(
                args: RosArgs,
                env: RosEnv,
                msg: T,
                request: S::Request,
                request_again: S::Request,
                response: S::Response,
                goal: A::Goal,
                feedback: A::Feedback,
                result: A::Result,
                canceled: A::Result,
                aborted: A::Result,
            ) -> Result<(), RosError>
            where
                T: Interface,
                S: b::Service + ServiceInterface,
                A: b::Action + ActionInterface,
            {
                let _: Result<b::Node, RosError> = b::Node::from_env("name");
                let mut node: b::Node = b::Node::new("name", args, env)?;
                let _: &str = node.name();
                let _: &str = node.namespace();
                let _: String = node.resolve("topic");
                let _: Time = node.now();
                let _: Closer = node.closer();
                node.spawn(async {});
                params(node.params());

                let publisher: b::Publisher<T> = node.publisher::<T>("topic", Qos::State)?;
                let _: &str = publisher.topic();
                let _: bool = publisher.wait_for_subscribers(Duration::ZERO).await;
                let _: bool = publisher
                    .wait_for_subscriber_node(&node, "name", Duration::ZERO)
                    .await;
                publisher.publish(msg).await?;
                let subscription: b::Subscription<T> =
                    node.subscription::<T>("topic", Qos::Sensor)?;
                let _: &str = subscription.topic();
                let _: Pin<Box<dyn Stream<Item = T> + Send + '_>> = subscription.stream();

                let server: b::ServiceServer<S> = node.service_server::<S>("service")?;
                let _: &str = server.name();
                let (id, _): (b::RequestId, S::Request) = server.next_request().await;
                server.respond(id, response).await?;
                server
                    .serve(|_request| std::future::pending::<S::Response>())
                    .await;
                let client: b::ServiceClient<S> = node.service_client::<S>("service")?;
                let _: &str = client.name();
                let _: bool = client.wait_for_service(Duration::ZERO).await;
                let _: S::Response = client.call(request, Duration::ZERO).await?;
                let _: S::Response = client
                    .call_retrying(request_again, Duration::ZERO, 1)
                    .await?;

                let actions: b::ActionServer<A> = node.action_server::<A>("action")?;
                let _: &str = actions.name();
                let new: b::NewGoal<A> = actions.next_goal().await;
                let _: String = new.id();
                let _: &A::Goal = new.goal();
                let mut running: b::RunningGoal<A> = new.accept().await?;
                let _: String = running.id();
                let _: bool = running.is_cancel_requested();
                let _: Arc<AtomicBool> = running.cancel_flag();
                running.cancelled().await;
                running.feedback(feedback).await?;
                running.succeed(result);
                let new: b::NewGoal<A> = actions.next_goal().await;
                new.reject().await?;
                let running: b::RunningGoal<A> = actions.next_goal().await.accept().await?;
                running.canceled(canceled);
                let running: b::RunningGoal<A> = actions.next_goal().await.accept().await?;
                running.abort(aborted);

                let client: b::ActionClient<A> = node.action_client::<A>("action")?;
                let _: &str = client.name();
                let _: bool = client.wait_for_server(Duration::ZERO).await;
                let handle: b::GoalHandle<'_, A> = client.send_goal(goal, Duration::ZERO).await?;
                let _: String = handle.id();
                stream::<A::Feedback>(handle.feedback());
                let _: bool = handle.cancel(Duration::ZERO).await?;
                let _: (GoalOutcome, A::Result) = handle.result(Duration::ZERO).await?;
                drop(handle);

                node.close().await;
                Ok(())
            }
        };
    };
}

same_api!(dds_backend);
#[cfg(feature = "r2r")]
same_api!(r2r_backend);
