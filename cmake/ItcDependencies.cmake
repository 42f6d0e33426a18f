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

# The MPI and hwloc releases generated programs compile against, for `itc --version`: itc itself
# links no MPI library (so it cannot ask one), and hwloc's run-time call reports only its API
# version. Read from mpi.h and from pkg-config at configure time.
set(ITC_MPI_VERSION_STRING "an unknown MPI (standard ${MPI_CXX_VERSION})")
set(itc_mpi_includes "")
if(TARGET MPI::MPI_CXX)
  get_target_property(itc_mpi_includes MPI::MPI_CXX INTERFACE_INCLUDE_DIRECTORIES)
endif()
foreach(dir ${MPI_CXX_INCLUDE_DIRS} ${itc_mpi_includes})
  if(dir AND EXISTS ${dir}/mpi.h)
    file(STRINGS ${dir}/mpi.h itc_mpi_defines REGEX "^#define (OMPI_(MAJOR|MINOR|RELEASE)_VERSION|MPICH_VERSION) ")
    set(itc_ompi "")
    foreach(part MAJOR MINOR RELEASE)
      if(itc_mpi_defines MATCHES "OMPI_${part}_VERSION ([0-9]+)")
        list(APPEND itc_ompi ${CMAKE_MATCH_1})
      endif()
    endforeach()
    if(itc_ompi)
      list(JOIN itc_ompi "." itc_ompi)
      set(ITC_MPI_VERSION_STRING "Open MPI ${itc_ompi}")
    elseif(itc_mpi_defines MATCHES "MPICH_VERSION \"([^\"]+)\"")
      set(ITC_MPI_VERSION_STRING "MPICH ${CMAKE_MATCH_1}")
    endif()
    break()
  endif()
endforeach()
set(ITC_HWLOC_VERSION_STRING "${HWLOC_VERSION}")
# clang rejects one inline constructor in the Debian ANTLR 4.7.2 headers (InterpreterData's
# default constructor initialises a `const std::vector` member implicitly; g++ accepts it). The
# fuzz build (clang) uses a copy of the headers without that constructor, which nothing calls;
# the class layouts, and so the link with the g++-built antlr4 runtime library, are unchanged.
if(ITC_FUZZ)
  set(itc_antlr_headers ${CMAKE_BINARY_DIR}/antlr4-runtime-headers)
  if(NOT EXISTS ${itc_antlr_headers}/antlr4-runtime/misc/InterpreterDataReader.h)
    file(COPY ${ANTLR4_INCLUDE_DIR}/ DESTINATION ${itc_antlr_headers}/antlr4-runtime)
    set(reader ${itc_antlr_headers}/antlr4-runtime/misc/InterpreterDataReader.h)
    file(READ ${reader} text)
    string(REPLACE "InterpreterData() {}; // For invalid content." "" text "${text}")
    file(WRITE ${reader} "${text}")
  endif()
  set(ANTLR4_INCLUDE_DIR ${itc_antlr_headers}/antlr4-runtime)
endif()
