# Finds every external dependency. All come from Debian packages (tools/install-deps.sh).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(antlr4-runtime REQUIRED CONFIG)
find_package(fmt REQUIRED CONFIG)
find_package(MPI REQUIRED COMPONENTS CXX)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/clang)
find_package(GTest REQUIRED)
# OpenBLAS (libopenblas-dev) for runtime/dense: its cblas.h sits in a folder of its own
# (openblas_config.h is only there, so the reference BLAS's cblas.h is not picked by mistake).
find_library(ITC_OPENBLAS_LIBRARY openblas REQUIRED)
find_path(ITC_OPENBLAS_INCLUDE_DIR openblas_config.h REQUIRED
          PATH_SUFFIXES openblas-pthread openblas openblas-openmp openblas-serial
          PATHS /usr/include/${CMAKE_LIBRARY_ARCHITECTURE})

find_program(ANTLR4_TOOL antlr4 REQUIRED)
find_program(MPIEXEC_BIN NAMES mpirun mpiexec REQUIRED)

# antlr4-runtime's config names the include dir; the Debian package puts it here.
if(NOT ANTLR4_INCLUDE_DIR)
  set(ANTLR4_INCLUDE_DIR /usr/include/antlr4-runtime)
endif()
