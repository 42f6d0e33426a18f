# Finds every external dependency. All come from Debian packages (tools/install-deps.sh).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(antlr4-runtime REQUIRED CONFIG)
find_package(fmt REQUIRED CONFIG)
find_package(MPI REQUIRED COMPONENTS CXX)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/clang)
find_package(GTest REQUIRED)

find_program(ANTLR4_TOOL antlr4 REQUIRED)
find_program(MPIEXEC_BIN NAMES mpirun mpiexec REQUIRED)

# antlr4-runtime's config names the include dir; the Debian package puts it here.
if(NOT ANTLR4_INCLUDE_DIR)
  set(ANTLR4_INCLUDE_DIR /usr/include/antlr4-runtime)
endif()

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
