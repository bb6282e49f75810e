// The Python functions of the notebook's transformer cells (notebook_transformer.h): the
// decoder of transformer.md in NumPy, in the words of the spec. The Python is
// exports/notebook/python/transformer_functions.py, embedded at build time
// (exports/CMakeLists.txt).
#include "exports/notebook/notebook_transformer.h"

#include "exports/notebook/python/transformer_functions_py.h"

namespace attnbook {

std::string transformerFunctions() {
    return embedded::transformerFunctionsPy;
}

} // namespace attnbook
