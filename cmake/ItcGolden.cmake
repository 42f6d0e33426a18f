# itc_golden_tests(<area> <glob patterns...>): one ctest per golden test file found by the globs
# (relative to the calling folder), each run by tests/golden/golden.py against the built itc.
# Regenerate expectations with: tests/golden/golden.py --itc build/tools/itc --update FILES
find_package(Python3 REQUIRED COMPONENTS Interpreter)
function(itc_golden_tests area)
  set(files)
  foreach(pattern ${ARGN})
    file(GLOB_RECURSE found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${pattern})
    list(APPEND files ${found})
  endforeach()
  list(SORT files)
  foreach(file ${files})
    file(RELATIVE_PATH rel ${CMAKE_CURRENT_SOURCE_DIR} ${file})
    add_test(NAME golden/${area}/${rel}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/golden/golden.py
                     --itc $<TARGET_FILE:itc> ${file})
    set_tests_properties(golden/${area}/${rel} PROPERTIES TIMEOUT 120 LABELS golden)
  endforeach()
endfunction()
