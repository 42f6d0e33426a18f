// MpiTransport: the Transport over MPI point-to-point (Isend, Improbe + Imrecv so packet sizes
// need not be declared in advance). The proxy thread of its VSA calls it, or an idle worker of
// the VSA in its place, one at a time (MPI_THREAD_SERIALIZED; proxy.h).
#pragma once

#include "runtime/engine/transport.h"

#include <mpi.h>

#include <deque>
#include <memory>
#include <vector>

namespace itrt {

class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(MPI_Comm parent = MPI_COMM_WORLD);
  ~MpiTransport() override;
  int rank() const override { return rank_; }
  bool calls_from_any_thread() const override { return serialized_; }
  int size() const override { return size_; }
  int max_tag() const override { return max_tag_; }
  // Takes the run's communicator (see prepare_runs); not collective.
  void open() override;
  void close() override;
  void send(int dest, int tag, PacketRef packet) override;
  bool poll(Incoming& out) override;
  bool idle() override;
  bool in_flight() const override { return !sends_.empty() || !recvs_.empty() || !ready_.empty(); }
  [[noreturn]] void kill_job() override;

  // Each run needs a communicator of its own, or a message a fast rank sends for its next run
  // could be taken by a slow rank still in this one. Creating one per run (MPI_Comm_dup) is
  // collective, and Open MPI 4.1 deadlocks when threads of a process create communicators at the
  // same time (concurrent tasks did, in ompi_comm_nextcid). Two suffice: runs over one parent
  // follow each other in the same order on every rank, and a rank cannot finish run k+1, so
  // cannot send for run k+2, before every rank has left run k (run k+1 ends only once rank 0 has
  // every rank's DONE for it). So runs alternate between two duplicates of the parent, made by
  // prepare_runs: collective over `parent`, called where communicators are created one at a time
  // in the same order on every rank (the coordinator thread). A parent not prepared is prepared
  // by its first open(). release_runs frees them, before the parent is freed.
  static void prepare_runs(MPI_Comm parent);
  static void release_runs(MPI_Comm parent);

 private:
  struct PendingSend {
    MPI_Request request;
    PacketRef packet;
  };
  struct PendingRecv {
    MPI_Request request;
    Incoming message;
    bool complete = false;
  };
  void test_sends();
  bool take_ready(Incoming& out);

  MPI_Comm parent_;
  MPI_Comm comm_ = MPI_COMM_NULL;  // between open() and close(): one of the parent's two
  int rank_ = 0;
  int size_ = 1;
  int max_tag_ = 32767;
  bool serialized_ = false;         // MPI gives at least MPI_THREAD_SERIALIZED
  std::deque<PendingSend> sends_;   // in posting order
  std::vector<PendingRecv> recvs_;  // in match order
  std::deque<Incoming> ready_;      // received, in per-channel order, not yet handed out
};

// The transport of a run over `comm`: an MpiTransport, or, in a process that never started MPI
// (run as one process without mpirun: runtime.h), that of the only rank, which has nothing to
// send to.
std::unique_ptr<Transport> transport_for(MPI_Comm comm);

}  // namespace itrt
