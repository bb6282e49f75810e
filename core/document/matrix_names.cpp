#include "core/document/matrix_names.h"

#include "core/math/attention_shapes.h"

#include <algorithm>
#include <utility>

namespace attnbook {
namespace {

using Role = InputMatrixName::Role;
using W = MatrixWidth;
using L = MatrixRowLabels;
using P = AttentionEngine::Projected;
using C = AttentionConfig;
using G = AttentionGradients;

// One row of the table per role, so each entry below reads as one line.
InputMatrixName weight(const char* name, P feeds, W rows, W cols, Projection C::*member,
                       arma::mat G::*gradient, std::vector<const char*> decidedBy) {
    return {name,          name,    Role::Projection,
            "projections", rows,    cols,
            L::Index,      feeds,   nullptr,
            member,        nullptr, gradient,
            nullptr,       name,    std::move(decidedBy)};
}
InputMatrixName bias(const char* name, P feeds, W length, arma::rowvec C::*member,
                     arma::rowvec G::*gradient) {
    return {name,    name,    Role::Bias, "projections", W::One,   length, L::Bias, feeds,
            nullptr, nullptr, member,     nullptr,       gradient, name,   {}};
}
InputMatrixName direct(const char* name, W rows, W cols, L labels, arma::mat C::*member,
                       arma::mat G::*gradient) {
    return {name,   name,    Role::Direct, "vectors", rows,    cols, labels, std::nullopt,
            member, nullptr, nullptr,      gradient,  nullptr, name, {}};
}

std::vector<InputMatrixName> makeTable() {
    // Shapes as attention.md writes them: X (n × d), W (outputs × inputs), b one row; the
    // token vectors are read from the key X and their gradient is grad.X.
    const InputMatrixName tokens = {"X0",    "X",        Role::Tokens, "vectors", W::N,
                                    W::D,    L::Queries, std::nullopt, &C::X0,    nullptr,
                                    nullptr, &G::X,      nullptr,      "X",       {}};
    return {
        tokens,
        weight("W_Q", P::Q, W::HdK, W::D, &C::wQ, &G::W_Q, {"d_k", "heads"}),
        weight("W_K", P::K, W::HdK, W::D, &C::wK, &G::W_K, {"d_k", "heads"}),
        weight("W_V", P::V, W::HdV, W::D, &C::wV, &G::W_V, {"d_v", "heads"}),
        weight("W_O", P::Output, W::DO, W::HdV, &C::wO, &G::W_O, {"d_v", "W_V", "heads"}),
        bias("b_Q", P::Q, W::HdK, &C::bQ, &G::b_Q),
        bias("b_K", P::K, W::HdK, &C::bK, &G::b_K),
        bias("b_V", P::V, W::HdV, &C::bV, &G::b_V),
        bias("b_O", P::Output, W::DO, &C::bO, &G::b_O),
        direct("queries", W::N, W::HdK, L::Queries, &C::queries, &G::queries),
        direct("keys", W::M, W::HdK, L::Keys, &C::keys, &G::keys),
        direct("values", W::M, W::HdV, L::Keys, &C::values, &G::values),
    };
}

template <class Field> const InputMatrixName* findBy(std::string_view wanted, Field field) {
    const std::vector<InputMatrixName>& table = inputMatrixNames();
    const auto found = std::find_if(table.begin(), table.end(), [&](const InputMatrixName& entry) {
        return std::string_view(entry.*field) == wanted;
    });
    return found == table.end() ? nullptr : &*found;
}

arma::uword width(MatrixWidth w, const AttentionShapes& s) {
    switch (w) {
    case W::N:
        return arma::uword(s.n);
    case W::M:
        return arma::uword(s.m);
    case W::D:
        return arma::uword(s.d);
    case W::HdK:
        return arma::uword(s.h * s.dK);
    case W::HdV:
        return arma::uword(s.h * s.dV);
    case W::DO:
        return arma::uword(s.dO);
    case W::One:
        break;
    }
    return 1;
}

} // namespace

std::pair<arma::uword, arma::uword> InputMatrixName::shapeIn(const AttentionShapes& shapes) const {
    return {width(rows, shapes), width(cols, shapes)};
}

const std::vector<InputMatrixName>& inputMatrixNames() {
    static const std::vector<InputMatrixName> table = makeTable();
    return table;
}

const InputMatrixName* inputMatrixNamed(std::string_view name) {
    return findBy(name, &InputMatrixName::name);
}

const InputMatrixName* inputMatrixOfKey(std::string_view key) {
    return findBy(key, &InputMatrixName::key);
}

const InputMatrixName* inputMatrixOfGradient(std::string_view name) {
    return findBy(name, &InputMatrixName::gradientName);
}

bool readerMayEdit(const AttentionConfig& config, const std::vector<std::string>& controls,
                   std::string_view name) {
    const InputMatrixName* entry = inputMatrixNamed(name);
    return entry && entry->existsIn(config) &&
           std::find(controls.begin(), controls.end(), entry->control) != controls.end();
}

} // namespace attnbook
