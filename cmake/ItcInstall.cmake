# Installing itc like a tool: `cmake --install build --prefix DIR` writes
#   DIR/bin/itc                          the compiler driver
#   DIR/include/itc/runtime/...          the runtime headers generated programs include
#   DIR/lib/itc/libitrt_{task,data,engine}.a   libitrt, linked into every generated program
#   DIR/lib/itc/libitrt_dense.a                the dense kernels (OpenBLAS), for programs that call them
#   DIR/share/doc/itc/                   the README, the language guide and the examples
#   DIR/share/itc/pcubes-models/         the machine descriptions
# The installed itc finds the headers and libitrt relative to its own executable
# (tools/itc/runtime_location.cpp), so DIR can be moved after installing. `cpack -G DEB` in the
# build dir makes a Debian package of the same tree, installed under /usr.

install(TARGETS itc RUNTIME DESTINATION bin)
install(TARGETS itrt_task itrt_data itrt_engine itrt_dense ARCHIVE DESTINATION ${ITC_INSTALL_RUNTIME_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/runtime/ DESTINATION ${ITC_INSTALL_INCLUDEDIR}/runtime
        FILES_MATCHING PATTERN "*.h" PATTERN "*.def"
        PATTERN "task_state.h" EXCLUDE)  # the runtime's own: generated programs never include it
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/itc)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/language DESTINATION share/doc/itc)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples DESTINATION share/doc/itc)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/pcubes-models DESTINATION share/itc)

set(CPACK_PACKAGE_NAME itc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the itc project")
set(CPACK_PACKAGE_CONTACT "itc developers <itc@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "compiler and runtime for the IT parallel programming language")
set(CPACK_PACKAGE_DESCRIPTION "itc checks IT programs, explains how they run, describes machines with hwloc and compiles programs to C++ using MPI and Pthreads on a channel runtime (libitrt).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES bin/itc)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# itc's own shared libraries (ANTLR4 runtime, clang-cpp and LLVM, hwloc, fmt) are found by
# dpkg-shlibdeps; what `itc compile` runs and the generated programs include and link is named
# here: mpicxx and mpirun (Open MPI, the MPI the runtime is tested with), a C++20 compiler, and
# the headers of fmt and hwloc that the runtime headers include.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenmpi-dev, openmpi-bin, g++ (>= 4:12), libfmt-dev, libhwloc-dev, libopenblas-dev")
set(CPACK_GENERATOR DEB)
include(CPack)
