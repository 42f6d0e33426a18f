// ---- main (backend/templates/main.template.cpp) ----
// One process per memory segment (MPI rank); the coordinator runs on every rank in the same
// order, tasks run their LPUs on the rank's worker threads; bound outputs are written at the end.
int main(int argc, char** argv) {
  itrt::task::Program prog(argc, argv, it_program::machine(), it_program::kProgramName, it_program::kArgs,
                           it_program::kConcurrentTasks);
  it_program::coordinator(prog);
  return 0;
}
