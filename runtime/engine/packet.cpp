// Implements packet.h: allocation, release and the live-packet counter used by leak checks.
#include "runtime/engine/packet.h"

#include "runtime/engine/buffer_pool.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace itrt {
namespace {
std::atomic<int64_t> g_live{0};

void* allocate(size_t bytes) { return pool_allocate(bytes); }
}  // namespace

PacketRef Packet::create(size_t bytes) {
  void* p = allocate(bytes);
  std::memset(p, 0, bytes);
  g_live.fetch_add(1, std::memory_order_relaxed);
  return PacketRef(new Packet(p, bytes, true));
}

PacketRef Packet::create_uninitialized(size_t bytes) {
  void* p = allocate(bytes);
  g_live.fetch_add(1, std::memory_order_relaxed);
  return PacketRef(new Packet(p, bytes, true));
}

PacketRef Packet::copy_of(const void* data, size_t bytes) {
  void* p = allocate(bytes);
  if (bytes) std::memcpy(p, data, bytes);
  g_live.fetch_add(1, std::memory_order_relaxed);
  return PacketRef(new Packet(p, bytes, true));
}

PacketRef Packet::view(void* data, size_t bytes) {
  g_live.fetch_add(1, std::memory_order_relaxed);
  return PacketRef(new Packet(data, bytes, false));
}

Packet::~Packet() {
  if (owned_) pool_release(data_, size_);
  g_live.fetch_sub(1, std::memory_order_relaxed);
}

int64_t Packet::live() { return g_live.load(std::memory_order_relaxed); }

}  // namespace itrt
