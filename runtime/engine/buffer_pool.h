// BufferPool: recycles packet buffers by power-of-two size class so steady packet traffic does not
// pay malloc + first-touch page faults for every packet (PULSAR keeps its own allocator for the
// same reason). Thread-safe; caps the bytes it keeps. Must not know about packets or channels.
#pragma once

#include <cstddef>

namespace itrt {

// A 64-byte aligned buffer of at least `bytes` (contents unspecified).
void* pool_allocate(size_t bytes);
// Returns a buffer obtained from pool_allocate(bytes) with the same `bytes`.
void pool_release(void* buffer, size_t bytes);

}  // namespace itrt
