# Build-time embedding of the generated-program templates: reads each template file and writes
# a C++ source defining one function returning its text. Invoked by backend/CMakeLists.txt.
#   cmake -DOUT=<file.cpp> -DPROLOGUE=<file> -DMAIN=<file> -P embed.cmake
file(READ "${PROLOGUE}" prologue)
file(READ "${MAIN}" main)
set(delim "ITC_TEMPLATE")
file(WRITE "${OUT}.tmp"
"// Generated at build time from backend/templates/*.template.cpp by embed.cmake: do not edit.\n"
"#include \"backend/backend.h\"\n"
"namespace itc::backend {\n"
"const char* prologueTemplate() { return R\"${delim}(${prologue})${delim}\"; }\n"
"const char* mainTemplate() { return R\"${delim}(${main})${delim}\"; }\n"
"} // namespace itc::backend\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
