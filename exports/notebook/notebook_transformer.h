#pragma once
// A transformer cell as notebook cells (`attnbook export FILE --notebook`, transformer.md):
//   a Markdown cell naming the settings (tokens, layers, norms, FFNs, unembedding, loss,
//   generation, the files values came from), and
//   a code cell that types the inputs and every layer's weights as NumPy arrays (values read
//   from files written out, as an attention cell does), runs the decoder with the functions of
//   transformerFunctions(), stores every stage in attnbook_results[ID] by the names
//   `attnbook compute` prints, shows the stream and the next word, and compares the loss, the
//   next word's chances and the generated words with the numbers attnbook computed.

#include "exports/notebook/notebook_writer.h"

#include "core/document/lesson.h"

#include <map>
#include <string>
#include <vector>

namespace attnbook {

// How a cell's code shares a model (docs/transformer.md, "A shared model"): the numbers of a
// model are written once, in the code of the cell that writes them.
struct NotebookModelSharing {
    bool keeps = false;    // later cells read this cell's model: store it in shared_models[ID]
    std::string readsFrom; // this cell's vocab and blocks are shared_models[readsFrom]'s
};

// Which cells of the lesson keep a model for others and which read one. A cell reads its model
// from the notebook only where the numbers are the same: it takes the named cell's vocab and
// blocks, neither trains, and both run the same blocks, norms and FFNs.
std::map<std::string, NotebookModelSharing> notebookModelSharing(const Lesson& lesson);

std::vector<NotebookCell> transformerNotebookCells(const std::string& id,
                                                   const TransformerCellSpec& spec,
                                                   const TransformerResult& result,
                                                   const NotebookModelSharing& sharing = {});

// The Python source of a transformer cell's code cell.
std::string transformerCode(const std::string& id, const TransformerCellSpec& spec,
                            const TransformerResult& result,
                            const NotebookModelSharing& sharing = {});

// The functions the transformer cells call (LayerNorm, the activations, the pre-norm block and
// the stack, the chances, the loss, splitmix64 and generation with a key/value cache), appended
// to the notebook's first code cell when the lesson has a transformer cell. They call the
// attention functions of notebookFunctions(). In notebook_transformer_functions.cpp.
std::string transformerFunctions();

} // namespace attnbook
