# itc_antlr_generate(<name> <grammar.g4>): runs the ANTLR4 tool at build time and exposes the
# generated C++ sources in ${<name>_SOURCES} and their directory in ${<name>_DIR}.
# Generated code is a build artifact and is never committed.
function(itc_antlr_generate name grammar)
  get_filename_component(stem ${grammar} NAME_WE)
  set(out ${CMAKE_BINARY_DIR}/antlr/${stem})
  set(sources ${out}/${stem}Lexer.cpp ${out}/${stem}Parser.cpp ${out}/${stem}Visitor.cpp
              ${out}/${stem}BaseVisitor.cpp)
  add_custom_command(
    OUTPUT ${sources}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out}
    COMMAND ${ANTLR4_TOOL} -Dlanguage=Cpp -visitor -no-listener -package itc::antlr
            -Xexact-output-dir -o ${out} ${grammar}
    DEPENDS ${grammar}
    COMMENT "ANTLR4: generating the ${stem} parser"
    VERBATIM)
  set(${name}_SOURCES ${sources} PARENT_SCOPE)
  set(${name}_DIR ${out} PARENT_SCOPE)
endfunction()
