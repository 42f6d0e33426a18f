// Best-effort thread pinning with hwloc. A refused binding (cpuset forbids it, bad PU id) is
// logged and ignored: pinning is a performance hint, never a reason to fail a run.
#pragma once

#include <atomic>
#include <vector>

namespace itrt {

// Binds the calling thread to the given OS processor ids; returns true if hwloc accepted it.
bool pin_current_thread(const std::vector<int>& os_pus);

// Number of processing units hwloc sees (1 if it cannot tell).
int hardware_pu_count();

// The processors this process may run on: its CPU affinity (mpirun may bind it to fewer than
// the machine has), at least 1.
int usable_processor_count();

// The processors the engine's threads may have to themselves: this process's affinity, and the
// node's processors shared by the ranks mpirun started on it (OMPI_COMM_WORLD_LOCAL_SIZE).
// Read once, from the affinity of the first caller: call it before any thread is pinned.
int processors_per_process();

// One step of a busy wait: tells the processor so (x86 `pause`), sparing its sibling thread.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace itrt
