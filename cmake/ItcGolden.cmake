# itc_golden_tests(<area> <glob patterns...> [LABELS <labels...>]): the golden test files found by
# the globs (relative to the calling folder), run by tests/golden/golden.py against the built itc
# in ctests of up to 40 files each, golden/<area>/<k>. golden.py names every file it checks and
# shows the diff of each one that fails; run it on one file to check only that file.
# A ctest per file spent more time starting Python than checking (about 0.2 s of CPU each,
# 550 files); 40 a test still lets ctest -j spread them.
# Regenerate expectations with: tests/golden/golden.py --itc build/tools/itc --update FILES
find_package(Python3 REQUIRED COMPONENTS Interpreter)
function(itc_golden_tests area)
  cmake_parse_arguments(PARSE_ARGV 1 golden "" "" "LABELS")
  set(files)
  foreach(pattern ${golden_UNPARSED_ARGUMENTS})
    file(GLOB_RECURSE found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${pattern})
    list(APPEND files ${found})
  endforeach()
  list(SORT files)
  set(labels golden ${golden_LABELS})
  set(k 0)
  while(files)
    math(EXPR k "${k} + 1")
    list(SUBLIST files 0 40 batch)
    list(LENGTH files left)
    if(left GREATER 40)
      list(SUBLIST files 40 -1 files)
    else()
      set(files "")
    endif()
    add_test(NAME golden/${area}/${k}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/golden/golden.py
                     --itc $<TARGET_FILE:itc> ${batch})
    set_tests_properties(golden/${area}/${k} PROPERTIES TIMEOUT 300 LABELS "${labels}")
  endwhile()
endfunction()
