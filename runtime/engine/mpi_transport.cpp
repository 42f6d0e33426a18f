// Implements mpi_transport.h. Receives are matched with MPI_Improbe in arrival order and completed
// with MPI_Imrecv; a completed receive is handed out only when no earlier receive of the same
// (source, tag) is still in flight, which keeps each channel FIFO.
#include "runtime/engine/mpi_transport.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/log.h"
#include "runtime/support/mpi_calls.h"

#include <algorithm>
#include <array>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

namespace itrt {
namespace {

struct RunCommunicators {
  std::array<MPI_Comm, 2> comm{MPI_COMM_NULL, MPI_COMM_NULL};
  uint64_t runs = 0;  // opened so far
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::map<MPI_Comm, RunCommunicators>& registry() {
  static auto* r = new std::map<MPI_Comm, RunCommunicators>;  // never destroyed: used until exit
  return *r;
}

// The only rank of a job without MPI. Nothing is sent to oneself (channels between one rank's
// VDPs do not pass through the transport); should something be, it comes back in order.
class SelfTransport final : public Transport {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int max_tag() const override { return std::numeric_limits<int>::max(); }
  void send(int, int tag, PacketRef packet) override {
    std::lock_guard lock(mutex_);
    inbox_.push_back({0, tag, std::move(packet)});
  }
  bool poll(Incoming& out) override {
    std::lock_guard lock(mutex_);
    if (inbox_.empty()) return false;
    out = std::move(inbox_.front());
    inbox_.pop_front();
    return true;
  }
  bool idle() override { return true; }
  [[noreturn]] void kill_job() override {
    std::fflush(nullptr);
    std::_Exit(1);
  }

 private:
  std::mutex mutex_;
  std::deque<Incoming> inbox_;
};

}  // namespace

std::unique_ptr<Transport> transport_for(MPI_Comm comm) {
  if (mpi::started()) return std::make_unique<MpiTransport>(comm);
  return std::make_unique<SelfTransport>();
}

void MpiTransport::prepare_runs(MPI_Comm parent) {
  if (!mpi::started()) return;
  RunCommunicators made;
  for (MPI_Comm& c : made.comm) MPI_Comm_dup(parent, &c);
  std::lock_guard lock(registry_mutex());
  if (!registry().emplace(parent, made).second)
    fail("itrt: internal error: the run communicators of a communicator were made twice");
}

void MpiTransport::release_runs(MPI_Comm parent) {
  if (!mpi::started()) return;
  RunCommunicators freed;
  {
    std::lock_guard lock(registry_mutex());
    auto it = registry().find(parent);
    if (it == registry().end()) return;
    freed = it->second;
    registry().erase(it);
  }
  for (MPI_Comm& c : freed.comm) MPI_Comm_free(&c);
}

MpiTransport::MpiTransport(MPI_Comm parent) : parent_(parent) {
  MPI_Comm_rank(parent_, &rank_);
  MPI_Comm_size(parent_, &size_);
  int* ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(parent_, MPI_TAG_UB, &ub, &flag);
  if (flag && ub) max_tag_ = *ub;
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  serialized_ = provided >= MPI_THREAD_SERIALIZED;
}

MpiTransport::~MpiTransport() {
  if (comm_ != MPI_COMM_NULL) close();
}

void MpiTransport::open() {
  std::unique_lock lock(registry_mutex());
  auto it = registry().find(parent_);
  if (it == registry().end()) {
    lock.unlock();
    prepare_runs(parent_);
    lock.lock();
    it = registry().find(parent_);
  }
  RunCommunicators& runs = it->second;
  comm_ = runs.comm[runs.runs++ % 2];
}

void MpiTransport::close() {
  // Every send has completed and every message of the run was received (the termination
  // protocol guarantees it, proxy.h), so the communicator is clean for the run after next.
  comm_ = MPI_COMM_NULL;
}

void MpiTransport::send(int dest, int tag, PacketRef packet) {
  MPI_Request req;
  MPI_Isend(packet->data(), static_cast<int>(packet->size()), MPI_BYTE, dest, tag, comm_, &req);
  sends_.push_back({req, std::move(packet)});
}

void MpiTransport::test_sends() {
  // Sends complete roughly in posting order, so test only the oldest few: testing thousands of
  // queued requests on every proxy iteration made a burst of n sends cost O(n^2).
  constexpr size_t kWindow = 64;
  size_t k = std::min(sends_.size(), kWindow);
  if (k == 0) return;
  MPI_Request reqs[kWindow];
  int done[kWindow];
  for (size_t i = 0; i < k; ++i) reqs[i] = sends_[i].request;
  int outcount = 0;
  MPI_Testsome(static_cast<int>(k), reqs, &outcount, done, MPI_STATUSES_IGNORE);
  if (outcount <= 0) return;
  // Completed requests became MPI_REQUEST_NULL; keep the others, in order, at the front.
  size_t w = 0;
  for (size_t i = 0; i < k; ++i) {
    if (reqs[i] == MPI_REQUEST_NULL) continue;
    sends_[i].request = reqs[i];
    if (w != i) sends_[w] = std::move(sends_[i]);
    ++w;
  }
  sends_.erase(sends_.begin() + static_cast<long>(w), sends_.begin() + static_cast<long>(k));
}

bool MpiTransport::poll(Incoming& out) {
  if (take_ready(out)) return true;
  test_sends();
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &msg, &st);
    if (!flag) break;
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    PendingRecv r;
    r.message = {st.MPI_SOURCE, st.MPI_TAG, Packet::create_uninitialized(static_cast<size_t>(count))};
    MPI_Imrecv(r.message.packet->data(), count, MPI_BYTE, &msg, &r.request);
    recvs_.push_back(std::move(r));
  }
  // Move every receive that may be handed out into ready_, keeping match order: a completed
  // receive waits while an earlier one of the same (source, tag) is still in flight. One pass
  // serves many messages, so a burst of n arrivals costs O(n), not O(n^2).
  std::vector<std::pair<int, int>> blocked;  // few entries: a vector beats a set
  size_t w = 0;
  for (size_t i = 0; i < recvs_.size(); ++i) {
    PendingRecv& r = recvs_[i];
    std::pair<int, int> key{r.message.source, r.message.tag};
    if (!r.complete) {
      int flag = 0;
      MPI_Test(&r.request, &flag, MPI_STATUS_IGNORE);
      r.complete = flag != 0;
    }
    bool is_blocked = std::find(blocked.begin(), blocked.end(), key) != blocked.end();
    if (r.complete && !is_blocked) {
      ready_.push_back(std::move(r.message));
      continue;
    }
    if (!is_blocked) blocked.push_back(key);
    if (w != i) recvs_[w] = std::move(r);
    ++w;
  }
  recvs_.resize(w);
  return take_ready(out);
}

bool MpiTransport::take_ready(Incoming& out) {
  if (ready_.empty()) return false;
  out = std::move(ready_.front());
  ready_.pop_front();
  return true;
}

bool MpiTransport::idle() {
  test_sends();
  return sends_.empty();
}

void MpiTransport::kill_job() { detail::end_job_after_failure(); }

}  // namespace itrt
