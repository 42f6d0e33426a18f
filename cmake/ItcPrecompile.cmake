# Precompiled headers: parsing the standard library, fmt, GoogleTest and our AST and runtime
# headers is about a third of compiling most of our files, and CI builds everything from scratch
# on two cores. ITC_PCH=OFF builds without them (e.g. to check that every file includes what it
# uses). tools/tidy.sh drops the forced include from the compile commands it gives clang-tidy.
option(ITC_PCH "Precompile the common headers of each target" ON)

# The standard headers nearly every file of ours includes.
set(ITC_PCH_STD <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <string>
    <string_view> <utility> <vector>)

# itc_precompile(<target> [headers...]): the standard headers above and the given ones (<...>
# or "project/path.h" relative to the source root) precompiled for <target>'s sources.
function(itc_precompile target)
  if(NOT ITC_PCH)
    return()
  endif()
  set(headers ${ITC_PCH_STD})
  foreach(h ${ARGN})
    if(h MATCHES "^<")
      list(APPEND headers ${h})
    else()
      list(APPEND headers ${PROJECT_SOURCE_DIR}/${h})
    endif()
  endforeach()
  target_precompile_headers(${target} PRIVATE ${headers})
  # GCC 12 reports the middle-end warnings of code inlined from precompiled system headers as if
  # they were ours: its known false positives on inlined std::string copies (bounds and stringop
  # warnings inside char_traits.h) then show in a handful of files. A build with ITC_PCH=OFF
  # still reports these warnings in our own code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread
                                             -Wno-restrict)
  endif()
endfunction()
