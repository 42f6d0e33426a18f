// MPI start-up baseline for benchmarks/e2e: MPI_Init + MPI_Finalize and nothing else, timed the
// same way as the IT programs so start-up can be told apart from computation.
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Finalize();
}
