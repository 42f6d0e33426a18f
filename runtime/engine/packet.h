// Packet: a reference-counted byte buffer, the unit of data moved through channels (PULSAR §1.2).
// The same packet may sit in several channels at once (broadcast); intra-rank pushes move the
// pointer, never the bytes. Must not know about channels, VDPs or MPI.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace itrt {

class PacketRef;

class Packet {
 public:
  // New zero-initialised buffer of `bytes`, owned by the packet, 64-byte aligned.
  static PacketRef create(size_t bytes);
  // Same without zero-filling, for buffers about to be overwritten (e.g. an MPI receive).
  static PacketRef create_uninitialized(size_t bytes);
  // New owned buffer holding a copy of [data, data+bytes).
  static PacketRef copy_of(const void* data, size_t bytes);
  // Non-owning view of caller memory (PULSAR's "packet from preallocated memory"); the caller keeps
  // the memory alive and unmodified until every reference is gone.
  static PacketRef view(void* data, size_t bytes);

  void* data() { return data_; }
  const void* data() const { return data_; }
  template <typename T>
  T* as() {
    return static_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return static_cast<const T*>(data_);
  }
  size_t size() const { return size_; }
  int ref_count() const { return refs_.load(std::memory_order_acquire); }

  // Packets alive in this process; a finished run must bring it back to its start value.
  static int64_t live();

 private:
  friend class PacketRef;
  Packet(void* data, size_t size, bool owned) : data_(data), size_(size), owned_(owned) {}
  ~Packet();
  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  void* data_;
  size_t size_;
  bool owned_;
  std::atomic<int> refs_{0};
};

// Owning handle: copying adds a reference, destruction drops one (thread-safe).
class PacketRef {
 public:
  PacketRef() = default;
  explicit PacketRef(Packet* p) : p_(p) {
    if (p_) p_->retain();
  }
  PacketRef(const PacketRef& o) : PacketRef(o.p_) {}
  PacketRef(PacketRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  PacketRef& operator=(PacketRef o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~PacketRef() {
    if (p_) p_->release();
  }
  void reset() { PacketRef().swap(*this); }
  void swap(PacketRef& o) noexcept { std::swap(p_, o.p_); }

  Packet* get() const { return p_; }
  Packet* operator->() const { return p_; }
  Packet& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  Packet* p_ = nullptr;
};

}  // namespace itrt
