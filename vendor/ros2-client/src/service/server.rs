#[cfg(any(feature = "mio_06", feature = "mio_1"))]
use std::io;

#[cfg(feature = "mio_06")]
use rustdds::mio::{Evented, Poll, PollOpt, Ready, Token};
#[cfg(feature = "mio_1")]
use rustdds::mio1;
use rustdds::{rpc::*, *};
#[allow(unused_imports)]
use log::{debug, error, info, warn};
use futures::{StreamExt, pin_mut, stream::FusedStream};

use crate::{
  error::{CreateResult, ReadError, ReadResult, WriteError, WriteResult},
  message::Message,
  message_info::MessageInfo,
  node::Node,
  qos::QosProfile,
  service::*,
};

// --------------------------------------------
// --------------------------------------------
/// Server end of a ROS2 Service
pub struct Server<Req, Resp>
where
  Req: Message,
  Resp: Message,
{
  service_mapping: ServiceMapping,
  request_receiver: SimpleDataReaderR<RequestWrapper<Req>>,
  response_sender: DataWriterR<ResponseWrapper<Resp>>,
  // PATCH(checkers_robot): the node's record of which remote readers each writer matched.
  matched: std::sync::Arc<std::sync::Mutex<std::collections::BTreeMap<GUID, std::collections::BTreeSet<GUID>>>>,
}

impl<Req, Resp> Server<Req, Resp>
where
  Req: Message + 'static,
  Resp: Message + 'static,
{
  pub(crate) fn new(
    service_mapping: ServiceMapping,
    node: &mut Node,
    request_topic: &Topic,
    response_topic: &Topic,
    qos_request: Option<QosProfile>,
    qos_response: Option<QosProfile>,
  ) -> CreateResult<Self> {
    let request_receiver =
      node.create_simpledatareader
      ::<RequestWrapper<Req>, ServiceDeserializerAdapter<RequestWrapper<Req>>>(
        request_topic, qos_request)?;
    let response_sender = node
      .create_datawriter::<ResponseWrapper<Resp>, ServiceSerializerAdapter<ResponseWrapper<Resp>>>(
        response_topic,
        qos_response,
      )?;

    debug!(
      "Created new Server: requests={} response={}",
      request_topic.name(),
      response_topic.name()
    );

    Ok(Server::<Req, Resp> {
      service_mapping,
      request_receiver,
      response_sender,
      matched: node.writers_to_remote_readers(),
    })
  }

  // PATCH(checkers_robot): the reply goes out in the mapping its request came in. A Cyclone
  // reply carries its request id in the payload header only, as rmw_cyclonedds_cpp's do, so
  // that no Enhanced client takes it for its own.
  fn reply(
    &self,
    rmw_req_id: RmwRequestId,
    response: Resp,
  ) -> WriteResult<(ResponseWrapper<Resp>, WriteOptions), ()> {
    let mapping = reply_mapping(self.service_mapping, rmw_req_id);
    let resp_wrapper =
      ResponseWrapper::<Resp>::new(mapping, rmw_req_id, RepresentationIdentifier::CDR_LE, response)?;
    let builder = WriteOptionsBuilder::new().source_timestamp(Timestamp::now());
    let builder = if mapping == ServiceMapping::Cyclone {
      builder
    } else {
      builder.related_sample_identity(SampleIdentity::from(rmw_req_id))
    };
    Ok((resp_wrapper, builder.build()))
  }

  // PATCH(checkers_robot): a request can arrive before our reply writer has matched the
  // client's reply reader (its participant's endpoints are discovered one by one), and a reply
  // written then reaches nobody. rmw_fastrtps_cpp and rmw_cyclonedds_cpp servers wait for that
  // reader; so does this one, for at most REPLY_READER_WAIT. The client is recognised by the
  // first 8 bytes of its GUID, which every mapping's request id keeps (vendor, host, process).
  async fn wait_for_reply_reader(&self, rmw_req_id: RmwRequestId) {
    const REPLY_READER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
    const POLL: std::time::Duration = std::time::Duration::from_millis(10);
    let client = rmw_req_id.writer_gid.to_bytes16();
    let me = self.response_sender.guid();
    let start = std::time::Instant::now();
    loop {
      let matched = self
        .matched
        .lock()
        .map(|m| {
          m.get(&me).is_some_and(|readers| {
            readers.iter().any(|r| r.to_bytes()[0..8] == client[0..8])
          })
        })
        .unwrap_or(true);
      if matched || start.elapsed() >= REPLY_READER_WAIT {
        if !matched {
          debug!("replying to {rmw_req_id:?} before its reply reader matched");
        }
        return;
      }
      // No runtime is assumed here: a thread sleeps and wakes this future.
      let (tx, rx) = futures::channel::oneshot::channel::<()>();
      std::thread::spawn(move || {
        std::thread::sleep(POLL);
        let _ = tx.send(());
      });
      let _ = rx.await;
    }
  }

  /// Receive a request from Client.
  /// Returns `Ok(None)` if no new requests have arrived.
  pub fn receive_request(&self) -> ReadResult<Option<(RmwRequestId, Req)>> {
    self.request_receiver.drain_read_notifications();
    let dcc_rw: Option<no_key::DeserializedCacheChange<RequestWrapper<Req>>> =
      self.request_receiver.try_take_one()?;

    match dcc_rw {
      None => Ok(None),
      Some(dcc) => {
        let mi = MessageInfo::from(&dcc);
        let req_wrapper = dcc.into_value();
        let (ri, req) = req_wrapper.unwrap(self.service_mapping, &mi)?;
        Ok(Some((ri, req)))
      }
    } // match
  }

  /// Send response to request by Client.
  /// rmw_req_id identifies request being responded.
  pub fn send_response(&self, rmw_req_id: RmwRequestId, response: Resp) -> WriteResult<(), ()> {
    let (resp_wrapper, write_opts) = self.reply(rmw_req_id, response)?;
    self
      .response_sender
      .write_with_options(resp_wrapper, write_opts)
      .map(|_| ())
      .map_err(|e| WriteError::from(e.forget_data())) // lose SampleIdentity
    // result
  }

  /// The request_id must be sent back with the response to identify which
  /// request and response belong together.
  pub async fn async_receive_request(&self) -> ReadResult<(RmwRequestId, Req)> {
    let dcc_stream = self.request_receiver.as_async_stream();
    pin_mut!(dcc_stream);

    match dcc_stream.next().await {
      Some(Err(e)) => Err(e.into()),
      Some(Ok(dcc)) => {
        let mi = MessageInfo::from(&dcc);
        let req_wrapper = dcc.into_value();
        let (ri, req) = req_wrapper.unwrap(self.service_mapping, &mi)?;
        debug!("async_receive_request: {ri:?}");
        Ok((ri, req))
      }
      // This should never occur, because topic do not "end".
      None => read_error_internal!("SimpleDataReader value stream unexpectedly ended!"),
    } // match
  }

  /// Returns a never-ending stream of (request_id, request)
  /// The request_id must be sent back with the response to identify which
  /// request and response belong together.
  pub fn receive_request_stream(
    &self,
  ) -> impl FusedStream<Item = ReadResult<(RmwRequestId, Req)>> + '_ {
    Box::pin(self.request_receiver.as_async_stream().then(
      move |dcc_r| async move {
        match dcc_r {
          Err(e) => Err(e.into()),
          Ok(dcc) => {
            let mi = MessageInfo::from(&dcc);
            let req_wrapper = dcc.into_value();
            debug!("receive_request_stream: messageinfo={mi:?}");
            req_wrapper.unwrap(self.service_mapping, &mi)
          }
        } // match
      }, // async
    ))
  }

  /// Asynchronous response sending
  pub async fn async_send_response(
    &self,
    rmw_req_id: RmwRequestId,
    response: Resp,
  ) -> WriteResult<(), ()> {
    debug!("async_send_response: rmw_req_id = {rmw_req_id:?}");
    self.wait_for_reply_reader(rmw_req_id).await;
    let (resp_wrapper, write_opts) = self.reply(rmw_req_id, response)?;
    self
      .response_sender
      .async_write_with_options(resp_wrapper, write_opts)
      .await
      .map(|_| ())
      .map_err(|e| WriteError::from(e.forget_data())) // lose SampleIdentity
    // result
  }
}

#[cfg(feature = "mio_06")]
impl<Req, Resp> Evented for Server<Req, Resp>
where
  Req: Message + 'static,
  Resp: Message + 'static,
{
  fn register(&self, poll: &Poll, token: Token, interest: Ready, opts: PollOpt) -> io::Result<()> {
    self.request_receiver.register(poll, token, interest, opts)
  }

  fn reregister(
    &self,
    poll: &Poll,
    token: Token,
    interest: Ready,
    opts: PollOpt,
  ) -> io::Result<()> {
    self
      .request_receiver
      .reregister(poll, token, interest, opts)
  }

  fn deregister(&self, poll: &Poll) -> io::Result<()> {
    self.request_receiver.deregister(poll)
  }
}

#[cfg(feature = "mio_1")]
impl<Req, Resp> mio1::event::Source for Server<Req, Resp>
where
  Req: Message + 'static,
  Resp: Message + 'static,
{
  fn register(
    &mut self,
    registry: &mio1::Registry,
    token: mio1::Token,
    interests: mio1::Interest,
  ) -> io::Result<()> {
    mio1::event::Source::register(&mut self.request_receiver, registry, token, interests)
  }

  fn reregister(
    &mut self,
    registry: &mio1::Registry,
    token: mio1::Token,
    interests: mio1::Interest,
  ) -> io::Result<()> {
    mio1::event::Source::reregister(&mut self.request_receiver, registry, token, interests)
  }

  fn deregister(&mut self, registry: &mio1::Registry) -> io::Result<()> {
    mio1::event::Source::deregister(&mut self.request_receiver, registry)
  }
}
