#pragma once
// What the readers of each cell kind share (cell_reader.cpp, quiz_reader.cpp, chart_reader.cpp,
// transformer_reader.cpp): typed
// values read out of one cell's YAML map with their file positions, every problem collected
// rather than the first. Internal to core/document.

#include "core/document/cell_reader.h"
#include "core/document/file_value.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnbook {

// Reads typed values out of one cell's map, recording positions and problems.
class BodyReader {
  public:
    BodyReader(const std::string& id, ValuePositions& positions, std::vector<Diagnostic>& out,
               const DataFiles* files, std::vector<std::string>& opened)
        : id_(id), positions_(positions), out_(out), files_(files), opened_(opened) {}

    void error(FilePosition at, const std::string& message) {
        out_.push_back({Severity::Error, at.line, at.column, message, id_});
        ++errors_;
    }
    void warning(FilePosition at, const std::string& message) {
        out_.push_back({Severity::Warning, at.line, at.column, message, id_});
    }
    int errorCount() const { return errors_; }

    void setElements(const std::string& key, std::vector<std::vector<FilePosition>> places) {
        positions_.elements[key] = std::move(places);
    }

    void note(const std::string& key, const YamlNode& keyNode, const YamlNode& value) {
        positions_.keys[key] = keyNode.at;
        positions_.values[key] = value.at;
    }

    std::optional<double> number(const YamlNode& node, const std::string& what) {
        std::string why;
        const std::optional<double> v = yamlNumber(node, why);
        if (!v) {
            error(node.at, what + ": " + why);
        }
        return v;
    }

    std::optional<int> integer(const YamlNode& node, const std::string& what, int minimum) {
        const std::optional<double> v = number(node, what);
        if (!v) {
            return std::nullopt;
        }
        if (*v != std::floor(*v) || *v < minimum || *v > 1e9) {
            error(node.at, what + " must be a whole number ≥ " + std::to_string(minimum) +
                               ", not " + node.scalar);
            return std::nullopt;
        }
        return int(*v);
    }

    std::optional<std::string> text(const YamlNode& node, const std::string& what) {
        if (!node.isScalar()) {
            error(node.at, what + " must be text, not " + node.describe());
            return std::nullopt;
        }
        return node.scalar;
    }

    std::optional<std::vector<std::string>> textList(const YamlNode& node,
                                                     const std::string& what) {
        if (!node.isSequence()) {
            error(node.at, what + " must be a list, like [a, b, c]");
            return std::nullopt;
        }
        std::vector<std::string> out;
        for (const YamlNode& item : node.items) {
            const auto t = text(item, "each entry of " + what);
            if (!t) {
                return std::nullopt;
            }
            out.push_back(*t);
        }
        return out;
    }

    // A vector: a list of numbers. Records element positions under `key`.
    std::optional<arma::rowvec> vector(const YamlNode& node, const std::string& key,
                                       const std::string& what) {
        if (isFileValue(node) && !key.empty()) {
            const std::optional<arma::mat> m = fileMatrix(node, key);
            if (!m) {
                return std::nullopt;
            }
            if (m->n_rows != 1 && m->n_cols != 1) {
                error(node.at, key + ": " + loadedFrom_[key] + " gives " +
                                   std::to_string(m->n_rows) + " × " + std::to_string(m->n_cols) +
                                   " numbers, but " + what +
                                   " is a vector: one row (a 1-D array) or one column");
                return std::nullopt;
            }
            return arma::rowvec(arma::vectorise(*m).t());
        }
        if (!node.isSequence()) {
            error(node.at,
                  what + " must be a list of numbers, like [1, 0, 0], not " + node.describe());
            return std::nullopt;
        }
        arma::rowvec v(node.items.size());
        std::vector<FilePosition> places;
        bool fine = true;
        for (size_t i = 0; i < node.items.size(); ++i) {
            places.push_back(node.items[i].at);
            const auto x = number(node.items[i], what + " [" + std::to_string(i) + "]");
            fine = fine && x.has_value();
            v(i) = x.value_or(0.0);
        }
        if (!key.empty()) {
            positions_.elements[key] = {places};
        }
        if (!fine) {
            return std::nullopt;
        }
        return v;
    }

    // A value read from a file next to the lesson ({file: PATH, ...}).
    std::optional<arma::mat> fileMatrix(const YamlNode& node, const std::string& key) {
        std::vector<FileValueProblem> problems;
        std::optional<LoadedMatrix> loaded =
            files_ ? loadFileMatrix(node, key, *files_, limits_, opened_, problems) : std::nullopt;
        if (!files_) {
            problems.push_back({node.at, key + ": this lesson has no folder to read files from"});
        }
        for (const FileValueProblem& p : problems) {
            error(p.at, p.message);
        }
        if (!loaded) {
            return std::nullopt;
        }
        loadedFrom_[key] = loaded->origin;
        fileValues_[key] = std::move(loaded->source);
        return std::move(loaded->values);
    }

    std::optional<LoadedVocab> fileVocab(const YamlNode& node) {
        std::vector<FileValueProblem> problems;
        std::optional<LoadedVocab> loaded =
            files_ ? loadFileVocab(node, *files_, limits_, opened_, problems) : std::nullopt;
        if (!files_) {
            problems.push_back({node.at, "vocab: this lesson has no folder to read files from"});
        }
        for (const FileValueProblem& p : problems) {
            error(p.at, p.message);
        }
        return loaded;
    }

    // The text of `{file: PATH}` (a list of sentences, one a line), read as a vocab's labels
    // file is: within the labels limit, PATH checked, and noted among the files the cell reads.
    std::optional<std::string> fileText(const YamlNode& node, const std::string& key) {
        const YamlNode* path = node.isMap() ? node.find("file") : nullptr;
        if (!path || !path->isScalar() || node.entries.size() != 1) {
            error(node.at, key + " must be a list, or {file: PATH} naming a text file");
            return std::nullopt;
        }
        if (const std::string why = dataPathProblem(path->scalar); !why.empty()) {
            error(path->at, key + ": " + path->scalar + ": " + why);
            return std::nullopt;
        }
        if (!files_) {
            error(path->at, key + ": this lesson has no folder to read files from");
            return std::nullopt;
        }
        std::string why;
        std::optional<std::string> bytes = files_->read(path->scalar, limits_.maxLabelBytes, why);
        if (!bytes) {
            error(path->at, key + ": " + path->scalar + ": " + why);
            return std::nullopt;
        }
        opened_.push_back(path->scalar);
        return bytes;
    }

    // Where each key read from a file came from, for messages about its shape.
    std::map<std::string, std::string>& loadedFrom() { return loadedFrom_; }
    // And what Keep writes back for an edit of each (file_value_source.h).
    std::map<std::string, FileValueSource>& fileValues() { return fileValues_; }

    // A matrix: a list of rows, each a list of numbers, all of one length.
    std::optional<arma::mat> matrix(const YamlNode& node, const std::string& key) {
        if (isFileValue(node)) {
            return fileMatrix(node, key);
        }
        if (!node.isSequence() || node.items.empty()) {
            error(node.at,
                  key +
                      " must be a matrix: a non-empty list of rows, like [[1, 0], "
                      "[0, 1]], not " +
                      (node.isSequence() ? std::string("an empty list") : node.describe()));
            return std::nullopt;
        }
        std::vector<std::vector<FilePosition>> places;
        const size_t width = node.items.front().isSequence() ? node.items.front().items.size() : 0;
        arma::mat m(node.items.size(), width);
        bool fine = true;
        for (size_t r = 0; r < node.items.size(); ++r) {
            const YamlNode& row = node.items[r];
            places.emplace_back();
            if (!row.isSequence()) {
                error(row.at, key + " row " + std::to_string(r) +
                                  " must be a list of numbers, not " + row.describe());
                fine = false;
                continue;
            }
            if (row.items.size() != width || width == 0) {
                error(row.at, key + " row " + std::to_string(r) + " has " +
                                  std::to_string(row.items.size()) + " numbers, but row 0 has " +
                                  std::to_string(width) + " (a matrix needs rows of one length)");
                fine = false;
                continue;
            }
            for (size_t c = 0; c < width; ++c) {
                places.back().push_back(row.items[c].at);
                const auto x = number(row.items[c], key + " [" + std::to_string(r) + "][" +
                                                        std::to_string(c) + "]");
                fine = fine && x.has_value();
                m(r, c) = x.value_or(0.0);
            }
        }
        positions_.elements[key] = std::move(places);
        if (!fine) {
            return std::nullopt;
        }
        return m;
    }

    // A reader of one part of the cell (a transformer layer) whose positions go to `positions`,
    // to be filed under the part's prefix (mergePart); problems go where this reader's go.
    BodyReader part(ValuePositions& positions) {
        return BodyReader(id_, positions, out_, files_, opened_);
    }
    // Files a part's positions and file origins under `prefix` ("layers[0].attention.").
    void mergePart(const BodyReader& part, const std::string& prefix) {
        for (const auto& [key, at] : part.positions_.keys) {
            positions_.keys[prefix + key] = at;
        }
        for (const auto& [key, at] : part.positions_.values) {
            positions_.values[prefix + key] = at;
        }
        for (const auto& [key, places] : part.positions_.elements) {
            positions_.elements[prefix + key] = places;
        }
        for (const auto& [key, origin] : part.loadedFrom_) {
            loadedFrom_[prefix + key] = origin;
        }
        for (const auto& [key, source] : part.fileValues_) {
            fileValues_[prefix + key] = source;
        }
        errors_ += part.errors_;
    }
    ValuePositions& positions() { return positions_; }

  private:
    std::string id_;
    ValuePositions& positions_;
    std::vector<Diagnostic>& out_;
    const DataFiles* files_;
    std::vector<std::string>& opened_;
    DataFileLimits limits_;
    std::map<std::string, std::string> loadedFrom_;
    std::map<std::string, FileValueSource> fileValues_;
    int errors_ = 0;
};

// A list of names, each one of `allowed` (views, controls, worksheet.blank).
void readNameList(BodyReader& in, const YamlNode& node, const std::string& key,
                  const std::vector<std::string>& allowed, std::vector<std::string>& out);
std::optional<WorksheetSpec> readWorksheet(BodyReader& in, const YamlNode& node);

// A whole attention cell, or one layer of a transformer cell: there only the keys of one layer
// (heads, d_k, d_v, scale, mask, padding, W_*, b_*) are allowed and no tokens are needed.
enum class AttentionRole { Cell, Layer };
std::optional<AttentionCellSpec> readAttention(BodyReader& in, const YamlNode& body,
                                               AttentionRole role = AttentionRole::Cell);

// A quiz cell (quiz_reader.cpp) and a chart cell (chart_reader.cpp).
std::optional<QuizCellSpec> readQuiz(BodyReader& in, const YamlNode& body);
std::optional<ChartCellSpec> readChart(BodyReader& in, const YamlNode& body);

// A transformer cell's `train` key (training_reader.cpp): its sentences as rows of `vocab`.
std::optional<TrainingSpec> readTraining(BodyReader& in, const YamlNode& node,
                                         const std::vector<std::string>& vocab);

// A transformer cell (transformer_reader.cpp).
std::optional<TransformerCellSpec> readTransformer(BodyReader& in, const YamlNode& body);

} // namespace attnbook
