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

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* data() { return size_ <= N ? in_place_.data() : heap_.data(); }
    const T* data() const { return size_ <= N ? in_place_.data() : heap_.data(); }
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }
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
