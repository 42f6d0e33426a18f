// Best-effort thread pinning with hwloc. A refused binding (cpuset forbids it, bad PU id) is
// logged and ignored: pinning is a performance hint, never a reason to fail a run.
#pragma once

#include <vector>

namespace itrt {

// Binds the calling thread to the given OS processor ids; returns true if hwloc accepted it.
bool pin_current_thread(const std::vector<int>& os_pus);

// Number of processing units hwloc sees (1 if it cannot tell).
int hardware_pu_count();

// The processors this process may run on: its CPU affinity (mpirun may bind it to fewer than
// the machine has), at least 1.
int usable_processor_count();

}  // namespace itrt
