#include "bench/transformer_bench_cell.h"

#include <armadillo>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace attnbook::bench {
namespace {

// A .npy file (format 1.0, little-endian float64) of `m`, written in Fortran order straight from
// Armadillo's column-major memory; a vector (`oneD`) as shape (k,).
void writeNpy(const std::string& path, const arma::mat& m, bool oneD) {
    const std::string shape =
        oneD ? "(" + std::to_string(m.n_elem) + ",)"
             : "(" + std::to_string(m.n_rows) + ", " + std::to_string(m.n_cols) + ")";
    std::string header =
        "{'descr': '<f8', 'fortran_order': " + std::string(oneD ? "False" : "True") +
        ", 'shape': " + shape + ", }";
    const size_t unpadded = 10 + header.size() + 1; // magic, version, length, header, '\n'
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    const unsigned char prefix[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(reinterpret_cast<const char*>(prefix), 8);
    const std::uint16_t length = std::uint16_t(header.size()); // little-endian on x86
    out.write(reinterpret_cast<const char*>(&length), 2);
    out << header;
    out.write(reinterpret_cast<const char*>(m.memptr()),
              std::streamsize(m.n_elem * sizeof(double)));
    if (!out) {
        throw std::runtime_error("cannot write " + path);
    }
}

std::string wordList(const std::vector<int>& words) {
    std::string out = "[";
    for (size_t i = 0; i < words.size(); ++i) {
        out += (i ? ", w" : "w") + std::to_string(words[i]);
    }
    return out + "]";
}

} // namespace

CellFiles writeTransformerCell(const std::string& folder, const std::string& id,
                               const TransformerShape& s, bool learnedPositions, bool targets,
                               int generateSteps, const std::string& extraLines) {
    const arma::uword d = arma::uword(s.d), dFF = arma::uword(s.dFF);
    CellFiles cell;
    const auto file = [&](const std::string& name, const arma::mat& m, bool oneD) {
        const std::string path = id + "_" + name + ".npy";
        writeNpy(folder + "/" + path, m, oneD);
        ++cell.files;
        return "{file: " + path + "}";
    };
    const auto matrix = [&](const std::string& name, arma::uword rows, arma::uword cols) {
        return file(name, arma::mat(rows, cols, arma::fill::randn) / std::sqrt(double(cols)),
                    false);
    };
    const auto vector = [&](const std::string& name, arma::uword k, double mean, double sd) {
        return file(name, arma::mat(1, k, arma::fill::randn) * sd + mean, true);
    };
    const auto norm = [&](const std::string& name) {
        return "{gamma: " + vector(name + "_gamma", d, 1.0, 0.1) +
               ", beta: " + vector(name + "_beta", d, 0.0, 0.1) + "}";
    };

    std::ofstream labels(folder + "/" + id + "_vocab.txt");
    for (int w = 0; w < s.V; ++w) {
        labels << "w" << w << "\n";
    }
    const arma::uvec tokens =
        arma::randi<arma::uvec>(arma::uword(s.n) + 1, arma::distr_param(0, s.V - 1));
    std::vector<int> prompt(tokens.begin(), tokens.end() - 1),
        next(tokens.begin() + 1, tokens.end());
    std::string& t = cell.text;
    t = "```transformer " + id + "\n";
    t += "tokens: " + wordList(prompt) + "\n";
    t += "vocab: {file: " + id + "_vocab.npy, labels: " + id + "_vocab.txt}\n";
    file("vocab", arma::mat(arma::uword(s.V), d, arma::fill::randn) / std::sqrt(double(d)), false);
    t += "positional: " +
         (learnedPositions ? matrix("positions", arma::uword(s.n), d) : std::string("sinusoidal")) +
         "\n";
    t += "layers:\n";
    for (int l = 0; l < s.layers; ++l) {
        const std::string p = "l" + std::to_string(l) + "_";
        t += "  - attention:\n";
        t += "      heads: " + std::to_string(s.h) + "\n";
        t += "      mask: causal\n";
        for (const char* w : {"Q", "K", "V", "O"}) {
            t += std::string("      W_") + w + ": " + matrix(p + "W_" + w, d, d) + "\n";
            t += std::string("      b_") + w + ": " + vector(p + "b_" + w, d, 0.0, 0.02) + "\n";
        }
        t += "    ln1: " + norm(p + "ln1") + "\n";
        t += "    ffn:\n";
        t += "      W_1: " + matrix(p + "W_1", dFF, d) + "\n";
        t += "      b_1: " + vector(p + "b_1", dFF, 0.0, 0.02) + "\n";
        t += "      W_2: " + matrix(p + "W_2", d, dFF) + "\n";
        t += "      b_2: " + vector(p + "b_2", d, 0.0, 0.02) + "\n";
        t += "      activation: gelu\n";
        t += "    ln2: " + norm(p + "ln2") + "\n";
    }
    t += "final_ln: " + norm("final_ln") + "\n";
    t += "unembed: tied\n";
    if (targets) {
        t += "targets: " + wordList(next) + "\n";
    }
    if (generateSteps > 0) {
        t += "generate: {steps: " + std::to_string(generateSteps) + ", pick: greedy}\n";
    }
    t += extraLines + "```\n";
    return cell;
}

} // namespace attnbook::bench
