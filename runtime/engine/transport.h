// Transport: the message-passing interface the proxy drives (MPI in production, a one-rank
// transport in a process that does without MPI, an in-process loopback fabric in single-process
// tests so they can count messages). The proxy calls it, and,
// where calls_from_any_thread(), an idle worker in its place, one caller at a time (proxy.h).
// Must deliver messages of one (source, tag) pair in send order, as MPI does.
#pragma once

#include "runtime/engine/packet.h"

#include <cstdint>

namespace itrt {

struct Incoming {
  int source = -1;
  int tag = -1;
  PacketRef packet;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual int max_tag() const = 0;
  // Called by the proxy at the start and end of a run (MPI: a private communicator per run, so
  // late messages of one run can never match receives of the next).
  virtual void open() {}
  virtual void close() {}
  // Non-blocking send; the transport keeps `packet` alive until the send completes.
  virtual void send(int dest, int tag, PacketRef packet) = 0;
  // Makes progress; returns true and fills `out` if a whole message has arrived.
  virtual bool poll(Incoming& out) = 0;
  // True when no send is still in flight.
  virtual bool idle() = 0;
  // True while any send or receive is in flight: the proxy keeps polling instead of sleeping,
  // because MPI only progresses large (rendezvous) transfers when it is called.
  virtual bool in_flight() const { return false; }
  // Last resort when the abort protocol cannot run (detail::end_job_after_failure).
  [[noreturn]] virtual void kill_job() = 0;
  // True if waiting for messages requires polling (a remote peer cannot wake the proxy).
  virtual bool needs_polling() const { return size() > 1; }
  // True if threads other than the proxy's may call it, one at a time (MPI_THREAD_SERIALIZED).
  virtual bool calls_from_any_thread() const { return false; }
};

}  // namespace itrt
