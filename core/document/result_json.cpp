#include "core/document/result_json.h"

namespace attnbook {
namespace {

// Scores with blocked entries as null (cli.md).
Json scoresJson(const HeadResult& head, int n, int m) {
    Json::Array rows;
    for (int r = 0; r < n; ++r) {
        Json::Array row;
        for (int c = 0; c < m; ++c) {
            if (head.blocked(arma::uword(r), arma::uword(c))) {
                row.emplace_back(nullptr);
            } else {
                row.emplace_back(head.score(arma::uword(r), arma::uword(c)));
            }
        }
        rows.emplace_back(std::move(row));
    }
    return Json(std::move(rows));
}

Json matrixOrNull(const arma::mat& m, bool present) {
    return present ? jsonMatrix(m) : Json(nullptr);
}

// cli.md: the norm-wise error, how many entries were compared, and the worst
// one. A check that did not run says why, and its error is null.
Json gradientCheckJson(const GradientCheckReport& check) {
    Json out = Json::object();
    out.set("max_rel_error", check.ran ? Json(check.maxRelError) : Json());
    out.set("checked", double(check.checked)).set("total", double(check.total));
    if (check.ran && check.checked > 0) {
        Json worst = Json::object();
        worst.set("gradient", check.worst.gradient)
            .set("row", check.worst.row)
            .set("col", check.worst.col)
            .set("analytic", check.worst.analytic)
            .set("numeric", check.worst.numeric);
        out.set("worst", std::move(worst));
    }
    if (!check.ran) {
        out.set("skipped", check.skipped);
    }
    return out;
}

} // namespace

Json attentionJson(const std::string& id, const AttentionResult& r) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "attention");
    cell.set("n", r.n).set("d", r.d).set("heads", r.h);
    cell.set("d_k", r.dK).set("d_v", r.dV).set("d_o", r.dO).set("scale", r.scale);
    cell.set("tokens", jsonStrings(r.tokens));
    cell.set("X0", matrixOrNull(r.X0, !r.direct));
    cell.set("P", matrixOrNull(r.P, !r.direct));
    cell.set("X", matrixOrNull(r.X, !r.direct));
    cell.set("Q", jsonMatrix(r.Q)).set("K", jsonMatrix(r.K)).set("V", jsonMatrix(r.V));
    Json::Array heads;
    for (const HeadResult& head : r.head) {
        Json h = Json::object();
        h.set("scores", scoresJson(head, r.n, r.m));
        h.set("weights", jsonMatrix(head.weights()));
        h.set("context", jsonMatrix(head.context));
        heads.push_back(std::move(h));
    }
    cell.set("head", Json(std::move(heads)));
    cell.set("concat", jsonMatrix(r.concat));
    cell.set("output", jsonMatrix(r.output));

    const AttentionGradients& g = r.grad;
    Json grad = Json::object();
    grad.set("upstream", jsonMatrix(g.upstream));
    if (r.direct) {
        grad.set("queries", jsonMatrix(g.queries));
        grad.set("keys", jsonMatrix(g.keys));
        grad.set("values", jsonMatrix(g.values));
    } else {
        grad.set("X", jsonMatrix(g.X));
        grad.set("W_Q", jsonMatrix(g.W_Q)).set("b_Q", jsonVector(g.b_Q));
        grad.set("W_K", jsonMatrix(g.W_K)).set("b_K", jsonVector(g.b_K));
        grad.set("W_V", jsonMatrix(g.W_V)).set("b_V", jsonVector(g.b_V));
        grad.set("W_O", jsonMatrix(g.W_O)).set("b_O", jsonVector(g.b_O));
    }
    cell.set("grad", std::move(grad));
    cell.set("gradcheck", gradientCheckJson(r.gradcheck));

    Json::Array warnings;
    for (const AttentionWarning& w : r.warnings) {
        Json o = Json::object();
        o.set("code", w.code).set("head", w.head).set("row", w.row).set("message", w.message);
        warnings.push_back(std::move(o));
    }
    cell.set("warnings", Json(std::move(warnings)));
    return cell;
}

Json chartJson(const std::string& id, const std::vector<ChartSeries>& series) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "chart");
    Json::Array all;
    for (const ChartSeries& s : series) {
        Json o = Json::object();
        Json::Array xs(s.x.begin(), s.x.end());
        Json::Array ys(s.y.begin(), s.y.end());
        o.set("label", s.label).set("x", Json(std::move(xs))).set("y", Json(std::move(ys)));
        all.push_back(std::move(o));
    }
    cell.set("series", Json(std::move(all)));
    return cell;
}

Json quizJson(const std::string& id, Json answer) {
    Json cell = Json::object();
    cell.set("id", id).set("kind", "quiz").set("answer", std::move(answer));
    return cell;
}

} // namespace attnbook
