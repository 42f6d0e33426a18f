// A vector that keeps its first N elements in place and only larger contents on the heap.
// Index sets are almost always one piece, and a task holds a part per LPU and array: with a
// std::vector each of them was a heap block of its own, and allocating and freeing those
// dominated the set-up of tasks with many LPUs.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

namespace itrt {

template <class T, size_t N> class SmallVector {
    static_assert(N > 0);

public:
    SmallVector() = default;
    SmallVector(std::initializer_list<T> values) {
        for (const T& v : values)
            push_back(v);
    }
    SmallVector(const SmallVector&) = default;
    SmallVector& operator=(const SmallVector&) = default;
    // A moved-from SmallVector is empty, as a moved-from std::vector is in practice.
    SmallVector(SmallVector&& o) noexcept
        : size_(std::exchange(o.size_, 0)), in_place_(std::move(o.in_place_)), heap_(std::move(o.heap_)) {}
    SmallVector& operator=(SmallVector&& o) noexcept {
        size_ = std::exchange(o.size_, 0);
        in_place_ = std::move(o.in_place_);
        heap_ = std::move(o.heap_);
        o.heap_.clear();
        return *this;
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* data() { return size_ <= N ? in_place_.data() : heap_.data(); }
    const T* data() const { return size_ <= N ? in_place_.data() : heap_.data(); }
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }
    const T& at(size_t i) const {
        if (i >= size_)
            throw std::out_of_range("SmallVector::at");
        return data()[i];
    }
    T& back() { return data()[size_ - 1]; }
    const T& back() const { return data()[size_ - 1]; }

    T* begin() { return data(); }
    T* end() { return data() + size_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size_; }
    std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
    std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }

    void push_back(const T& v) {
        if (size_ < N) {
            in_place_[size_] = v;
        } else {
            if (size_ == N) // the contents move to the heap as a whole, so data() stays one array
                heap_.assign(in_place_.begin(), in_place_.end());
            heap_.push_back(v);
        }
        ++size_;
    }
    void clear() {
        size_ = 0;
        heap_.clear();
    }
    void resize(size_t n) {
        while (size_ > n)
            pop_back();
        while (size_ < n)
            push_back(T{});
    }
    void reserve(size_t) {} // in place up to N; beyond, push_back grows the heap vector

    friend bool operator==(const SmallVector& a, const SmallVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator<(const SmallVector& a, const SmallVector& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }

    void pop_back() {
        if (size_ == N + 1)
            std::copy(heap_.begin(), heap_.begin() + N, in_place_.begin());
        if (size_ > N) {
            heap_.pop_back();
            if (size_ == N + 1)
                heap_.clear();
        }
        --size_;
    }

private:
    size_t size_ = 0;
    std::array<T, N> in_place_{};
    std::vector<T> heap_; // all elements once there are more than N
};

} // namespace itrt
