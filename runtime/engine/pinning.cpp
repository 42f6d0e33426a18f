// Implements pinning.h on one lazily loaded hwloc topology shared by all threads of the process.
#include "runtime/engine/pinning.h"

#include "runtime/engine/log.h"

#include <fmt/ranges.h>
#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <mutex>

namespace itrt {
namespace {

hwloc_topology_t topology() {
  static hwloc_topology_t topo = [] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0 || hwloc_topology_load(t) != 0) {
      log(LogSystem::pin, LogLevel::warn, "hwloc topology could not be loaded; no pinning");
      return hwloc_topology_t{nullptr};
    }
    return t;
  }();
  return topo;
}

}  // namespace

bool pin_current_thread(const std::vector<int>& os_pus) {
  if (os_pus.empty()) return false;
  hwloc_topology_t topo = topology();
  if (!topo) return false;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  for (int pu : os_pus) hwloc_bitmap_set(set, static_cast<unsigned>(pu));
  int rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
  // One warning per process: a model whose processors this host lacks fails for every thread alike.
  static std::atomic<bool> warned{false};
  if (rc != 0 && !warned.exchange(true))
    log(LogSystem::pin, LogLevel::warn,
        "could not pin a thread to PUs {} (continuing unpinned; further threads that cannot be pinned are "
        "not reported): does the machine model list processors this host has?",
        fmt::join(os_pus, ","));
  else if (rc == 0)
    log(LogSystem::pin, LogLevel::debug, "thread pinned to PUs {}", fmt::join(os_pus, ","));
  hwloc_bitmap_free(set);
  return rc == 0;
}

int hardware_pu_count() {
  hwloc_topology_t topo = topology();
  if (!topo) return 1;
  int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  return n > 0 ? n : 1;
}

int usable_processor_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return hardware_pu_count();
  return std::max(1, static_cast<int>(CPU_COUNT(&set)));
}

int processors_per_process() {
  static const int n = [] {
    const int usable = std::min(hardware_pu_count(), usable_processor_count());
    int local_ranks = 1;
    if (const char* l = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE")) local_ranks = std::max(1, std::atoi(l));
    return std::max(1, std::min(usable, hardware_pu_count() / local_ranks));
  }();
  return n;
}

}  // namespace itrt
