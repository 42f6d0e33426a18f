# Warning flags for the project's own targets (not for generated ANTLR code).
function(itc_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()

# itc_library(<name> [PUBLIC deps...] [PRIVATE deps...]): a static library from every .cpp
# below the calling folder. Folders own their sources; adding a file needs no CMake edit.
function(itc_library name)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(NOT sources)
    return()
  endif()
  add_library(${name} STATIC ${sources})
  itc_warnings(${name})
  target_link_libraries(${name} ${ARGN})
endfunction()
