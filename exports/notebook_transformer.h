#pragma once
// A transformer cell as notebook cells (`attnbook export FILE --notebook`, transformer.md):
//   a Markdown cell naming the settings (tokens, layers, norms, FFNs, unembedding, loss,
//   generation, the files values came from), and
//   a code cell that types the inputs and every layer's weights as NumPy arrays (values read
//   from files written out, as an attention cell does), runs the decoder with the functions of
//   transformerFunctions(), stores every stage in attnbook_results[ID] by the names
//   `attnbook compute` prints, shows the stream and the next word, and compares the loss, the
//   next word's chances and the generated words with the numbers attnbook computed.

#include "exports/notebook_writer.h"

#include "core/document/lesson.h"

#include <string>
#include <vector>

namespace attnbook {

std::vector<NotebookCell> transformerNotebookCells(const std::string& id,
                                                   const TransformerCellSpec& spec,
                                                   const TransformerResult& result);

// The Python source of a transformer cell's code cell.
std::string transformerCode(const std::string& id, const TransformerCellSpec& spec,
                            const TransformerResult& result);

// The functions the transformer cells call (LayerNorm, the activations, the pre-norm block and
// the stack, the chances, the loss, splitmix64 and generation with a key/value cache), appended
// to the notebook's first code cell when the lesson has a transformer cell. They call the
// attention functions of notebookFunctions(). In notebook_transformer_functions.cpp.
std::string transformerFunctions();

} // namespace attnbook
