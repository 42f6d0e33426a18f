// Implements buffer_pool.h: one locked free list per size class from 4 KiB to 64 MiB; smaller
// buffers go straight to malloc (its per-thread caches already serve them well), and anything
// beyond the cap is freed at once.
#include "runtime/engine/buffer_pool.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace itrt {
namespace {

constexpr size_t kMinPooled = 4096;
constexpr int kClasses = 15;                   // 4 KiB << 0 .. 4 KiB << 14 (64 MiB)
constexpr size_t kMaxCachedBytes = 128 << 20;  // per process

struct Pool {
  std::mutex mutex;
  std::array<std::vector<void*>, kClasses> free;
  size_t cached = 0;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: packets may be freed during static teardown
  return *p;
}

// Size class of `bytes`, or -1 if not pooled.
int class_of(size_t bytes) {
  if (bytes < kMinPooled) return -1;
  int c = std::bit_width((bytes - 1) / kMinPooled);  // ceil(log2(bytes / 4 KiB))
  return c < kClasses ? c : -1;
}

void* raw_allocate(size_t bytes) {
  size_t rounded = bytes ? (bytes + 63) / 64 * 64 : 64;
  void* p = std::aligned_alloc(64, rounded);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

void* pool_allocate(size_t bytes) {
  int c = class_of(bytes);
  if (c < 0) return raw_allocate(bytes);
  Pool& p = pool();
  {
    std::lock_guard lock(p.mutex);
    auto& list = p.free[c];
    if (!list.empty()) {
      void* b = list.back();
      list.pop_back();
      p.cached -= kMinPooled << c;
      return b;
    }
  }
  return raw_allocate(kMinPooled << c);
}

void pool_release(void* buffer, size_t bytes) {
  int c = class_of(bytes);
  if (c >= 0) {
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    if (p.cached + (kMinPooled << c) <= kMaxCachedBytes) {
      p.free[c].push_back(buffer);
      p.cached += kMinPooled << c;
      return;
    }
  }
  std::free(buffer);
}

}  // namespace itrt
