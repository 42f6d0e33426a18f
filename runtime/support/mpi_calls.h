// The MPI calls of the runtime, usable in a process that never started MPI. A program run as
// one process without mpirun (`./prog key=value`) does not start MPI at all: Open MPI's start-up
// and shutdown cost about 11 ms, more than many whole runs (Runtime). That process is rank 0 of
// 1, and each call here does what MPI does with one process: broadcasts and in-place reductions
// leave the data as it is, gathers copy the caller's data to the receive buffer.
#pragma once

#include <mpi.h>

#include <algorithm>

namespace itrt::mpi {

// MPI is running in this process (started by Runtime, or by the program before it).
inline bool started() {
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init && !fin;
}

inline int rank(MPI_Comm c) {
    int r = 0;
    if (started())
        MPI_Comm_rank(c, &r);
    return r;
}
inline int size(MPI_Comm c) {
    int n = 1;
    if (started())
        MPI_Comm_size(c, &n);
    return n;
}

inline void bcast(void* data, int count, MPI_Datatype type, int root, MPI_Comm c) {
    if (started())
        MPI_Bcast(data, count, type, root, c);
}
inline void barrier(MPI_Comm c) {
    if (started())
        MPI_Barrier(c);
}
inline void allreduce_in_place(void* data, int count, MPI_Datatype type, MPI_Op op, MPI_Comm c) {
    if (started())
        MPI_Allreduce(MPI_IN_PLACE, data, count, type, op, c);
}
template <class T> void allreduce(const T* send, T* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm c) {
    if (started())
        MPI_Allreduce(send, recv, count, type, op, c);
    else
        std::copy_n(send, count, recv);
}
// `count` elements of `type` (= T) from every rank, in rank order on `root`.
template <class T> void gather(const T* send, int count, MPI_Datatype type, T* recv, int root, MPI_Comm c) {
    if (started())
        MPI_Gather(send, count, type, recv, count, type, root, c);
    else
        std::copy_n(send, count, recv);
}
template <class T>
void gatherv(const T* send, int count, MPI_Datatype type, T* recv, const int* counts, const int* displs, int root,
             MPI_Comm c) {
    if (started())
        MPI_Gatherv(send, count, type, recv, counts, displs, type, root, c);
    else
        std::copy_n(send, count, recv + displs[0]);
}

// A communicator of its own for a task or a run (MPI_COMM_WORLD's handle when MPI is not running:
// nothing uses it then but these calls).
inline MPI_Comm dup_comm(MPI_Comm c) {
    if (!started())
        return c;
    MPI_Comm d = MPI_COMM_NULL;
    MPI_Comm_dup(c, &d);
    return d;
}
inline void free_comm(MPI_Comm& c) {
    if (started() && c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    c = MPI_COMM_NULL;
}

} // namespace itrt::mpi
