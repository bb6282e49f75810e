# Writes OUTPUT, a C++ header that holds the bytes of INPUT as `inline constexpr char NAME[]`
# in namespace attnbook::embedded, so that text the program writes out whole (the notebook's
# Python, exports/notebook/python/*.py) is a real file a reader can open and lint, and still needs no
# file at run time. Run at build time by add_custom_command:
#   cmake -DINPUT=in.py -DOUTPUT=out.h -DNAME=identifier -P embed_text.cmake
set(delimiter "embedded_text") # at most 16 characters (C++)
file(READ "${INPUT}" text)
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${INPUT} holds )${delimiter}\", which would end the C++ raw string")
endif()
# Written to a temporary file first and copied only when different, so an unchanged INPUT
# recompiles nothing.
file(WRITE "${OUTPUT}.new"
     "// Generated from ${INPUT} by cmake/embed_text.cmake: edit that file, not this one.\n"
     "#pragma once\n\nnamespace attnbook::embedded {\n\n"
     "inline constexpr char ${NAME}[] = R\"${delimiter}(${text})${delimiter}\";\n\n"
     "} // namespace attnbook::embedded\n")
file(COPY_FILE "${OUTPUT}.new" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.new")
