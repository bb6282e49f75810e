// Each part's question and working are written side by side so that the key's explanation
// always matches its question; what the parts are made of is in worksheet_parts.
#include "exports/worksheet/worksheet_transformer.h"

#include "core/math/layer_norm.h"
#include "core/math/number_format.h"
#include "exports/paint/pdf_figures.h"
#include "exports/paint/pdf_prose.h"
#include "exports/paint/pdf_transformer.h"
#include "exports/worksheet/worksheet_parts.h"
#include "exports/worksheet/worksheet_training_step.h"

#include <QtCore/QRegularExpression>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnbook {

namespace {

using namespace sheet;

// ---- The parts ----

PdfBoxPtr normPart(const TransformerExercises& e, const QString& label, bool key,
                   const CellPrintArea& area) {
    const TransformerExercises::Norm& n = e.norm;
    const int d = int(n.x.n_elem);
    const bool plain = !n.gammaGiven && !n.betaGiven;
    QStringList question;
    question << QStringLiteral("<b>%1 LayerNorm.</b> ").arg(label) +
                    QStringLiteral(
                        "The vector x below enters layer 1's first "
                        "LayerNorm for %1 (row %2). Compute its mean μ and its variance σ² "
                        "(divide by d = %3), then %4 = %7 with %5 and ε = %6.")
                        .arg(e.focusWord)
                        .arg(e.focus + 1)
                        .arg(d)
                        .arg(n.shown < d
                                 ? QStringLiteral("the first %1 coordinates of LN(x)").arg(n.shown)
                                 : QStringLiteral("LN(x)"))
                        .arg(plain                         ? QStringLiteral("γ = 1 and β = 0")
                             : n.gammaGiven && n.betaGiven ? QStringLiteral("the γ and β given")
                             : n.gammaGiven ? QStringLiteral("the γ given and β = 0")
                                            : QStringLiteral("γ = 1 and the β given"))
                        .arg(epsText(n.eps))
                        .arg(formula(tight(QStringLiteral("γ ⊙ (x − μ) / √(σ² + ε) + β"))));
    std::vector<Figure> givens = vectorFigures(QStringLiteral("x"), QString(), n.x);
    if (n.gammaGiven) {
        for (Figure& f : vectorFigures(QStringLiteral("γ"), QString(), n.gamma)) {
            givens.push_back(f);
        }
    }
    if (n.betaGiven) {
        for (Figure& f : vectorFigures(QStringLiteral("β"), QString(), n.beta)) {
            givens.push_back(f);
        }
    }
    std::vector<Figure> answers = answerFigures(QStringLiteral("Mean and variance"),
                                                {QStringLiteral("μ"), QStringLiteral("σ²")},
                                                arma::rowvec{n.mean, n.variance}, key);
    for (Figure& f : answerFigures(QStringLiteral("LN(x)"), {}, n.out, key)) {
        answers.push_back(f);
    }
    const double root = std::sqrt(n.variance + n.eps);
    arma::rowvec squares = arma::square(n.x - n.mean);
    QStringList working;
    const QString D = QString::number(d);
    working << formula(QStringLiteral("μ = (%1) / %2 = %3 = %4.")
                           .arg(sumText(n.x, QStringLiteral("the sum of the %1 entries").arg(d)), D,
                                tight(num(arma::accu(n.x)) + QStringLiteral(" / ") + D),
                                num(n.mean)));
    QString squaresText;
    if (d <= kFewTerms) {
        QStringList parts;
        for (double x : n.x) {
            parts << tight(QStringLiteral("(%1 − %2)²").arg(num(x), num(n.mean)));
        }
        squaresText = parts.join(QStringLiteral(" + "));
    } else {
        squaresText = QStringLiteral("the sum of the %1 squares %2").arg(D, tight("(xᵢ − μ)²"));
    }
    working << formula(QStringLiteral("σ² = (%1) / %2 = %3 = %4.")
                           .arg(squaresText, D,
                                tight(num(arma::accu(squares)) + QStringLiteral(" / ") + D),
                                num(n.variance)));
    working << formula(
        QStringLiteral("%1 = %2 = %3.")
            .arg(tight(QStringLiteral("√(σ² + ε)")),
                 tight(QStringLiteral("√(%1 + %2)").arg(num(n.variance), epsText(n.eps))),
                 num(root)));
    QStringList coords;
    for (int i = 0; i < n.shown; ++i) {
        const arma::uword k = arma::uword(i);
        const QString centred =
            QStringLiteral("(%1 − %2) / %3").arg(num(n.x(k)), num(n.mean), num(root));
        const QString full =
            plain ? centred
                  : QStringLiteral("%1 × %2 + %3").arg(term(n.gamma(k)), centred, term(n.beta(k)));
        coords << formula(
            QStringLiteral("LN(x)%1 = %2 = %3").arg(subscript(i + 1), tight(full), num(n.out(k))));
    }
    working << coords.join(QStringLiteral("; ")) + u'.';
    return partBox(question, givens, answers, working, key, area);
}

PdfBoxPtr ffnPart(const TransformerExercises& e, const QString& label, bool key,
                  const CellPrintArea& area) {
    const TransformerExercises::Ffn& f = e.ffn;
    const int d = int(f.g.n_elem);
    const QString act = QString::fromUtf8(activationLabel(f.activation));
    const QString rule = f.activation == Activation::Relu ? QStringLiteral("ReLU(z) = max(0, z)")
                         : f.activation == Activation::Gelu
                             ? QStringLiteral("GELU(z) = z · Φ(z)")
                             : QStringLiteral("GELU(z) ≈ ½ z (1 + tanh(√(2/π) (z + 0.044715 z³)))");
    QStringList question;
    question << QStringLiteral("<b>%1 One unit of the FFN.</b> ").arg(label) +
                    QStringLiteral(
                        "Layer %1's FFN reads g = LN₂(R) "
                        "for %2, below. Its hidden unit %3 has the weights w (row %3 of W₁) "
                        "and the bias b = %4. Compute the unit's pre-activation z = g · w + "
                        "b and its output %5%6.")
                        .arg(f.layer + 1)
                        .arg(e.focusWord)
                        .arg(f.unit + 1)
                        .arg(formula(num(f.b)))
                        .arg(formula(tight(rule)))
                        .arg(f.activation == Activation::Gelu
                                 ? QStringLiteral(", Φ the standard normal's cumulative chance")
                                 : QString());
    std::vector<Figure> givens = vectorFigures(QStringLiteral("g"), QString(), f.g);
    for (Figure& fig :
         vectorFigures(QStringLiteral("w"), QStringLiteral("row %1 of W₁").arg(f.unit + 1), f.w)) {
        givens.push_back(fig);
    }
    const std::vector<Figure> answers = answerFigures(
        QStringLiteral("Hidden unit %1").arg(f.unit + 1),
        {QStringLiteral("z"), act + QStringLiteral("(z)")}, arma::rowvec{f.pre, f.post}, key);
    const arma::rowvec products = f.g % f.w;
    QStringList working;
    if (d <= kFewTerms) {
        QStringList parts;
        for (int i = 0; i < d; ++i) {
            parts << tight(QStringLiteral("%1 × %2").arg(term(f.g(arma::uword(i))),
                                                         term(f.w(arma::uword(i)))));
        }
        working << formula(QStringLiteral("z = %1 + %2 = %3.")
                               .arg(parts.join(QStringLiteral(" + ")), term(f.b), num(f.pre)));
    } else {
        working << formula(
            QStringLiteral("The %1 products %2 sum to %3; z = %4 = %5.")
                .arg(QString::number(d), tight(QStringLiteral("gᵢ × wᵢ")),
                     num(arma::accu(products)),
                     tight(num(arma::accu(products)) + QStringLiteral(" + ") + term(f.b)),
                     num(f.pre)));
    }
    switch (f.activation) {
    case Activation::Relu:
        working << formula(
            QStringLiteral("ReLU(z) = %1 = %2.")
                .arg(tight(QStringLiteral("max(0, %1)").arg(num(f.pre))), num(f.post)));
        break;
    case Activation::Gelu: {
        const double phi = 0.5 * (1.0 + std::erf(f.pre / std::sqrt(2.0)));
        working << formula(
            QStringLiteral("Φ(%1) = %2 = %3; GELU(z) = %4 = %5.")
                .arg(num(f.pre), tight(QStringLiteral("½ (1 + erf(%1 / √2))").arg(num(f.pre))),
                     num(phi), tight(QStringLiteral("%1 × %2").arg(term(f.pre), num(phi))),
                     num(f.post)));
        break;
    }
    case Activation::GeluTanh: {
        const double u = std::sqrt(2.0 / M_PI) * (f.pre + 0.044715 * f.pre * f.pre * f.pre);
        working << formula(
            QStringLiteral("u = %1 = %2, tanh(u) = %3; GELU(z) ≈ %4 = %5.")
                .arg(tight(QStringLiteral("√(2/π) (z + 0.044715 z³)")), num(u), num(std::tanh(u)),
                     tight(QStringLiteral("½ × %1 × (1 + %2)").arg(term(f.pre), num(std::tanh(u)))),
                     num(f.post)));
        break;
    }
    }
    return partBox(question, givens, answers, working, key, area);
}

PdfBoxPtr nextPart(const TransformerExercises& e, const QString& label, bool key,
                   const CellPrintArea& area) {
    const TransformerExercises::Next& x = e.next;
    const int K = int(x.words.size());
    const bool all = K == x.vocabulary;
    QStringList prompt;
    for (const std::string& t : e.tokens) {
        prompt << htmlEscaped(shortWord(t));
    }
    QStringList question;
    question << QStringLiteral("<b>%1 The next word.</b> ").arg(label) +
                    QStringLiteral(
                        "After <i>%1</i> the model's logits %2 "
                        "are below. Turn them into chances with softmax(logits / T), T = "
                        "%3, %4, and say which word greedy decoding picks.")
                        .arg(prompt.join(u' '))
                        .arg(all ? QStringLiteral("for its %1 words").arg(K)
                                 : QStringLiteral("for its %1 most likely words").arg(K))
                        .arg(shortest(x.temperature))
                        .arg(all ? QStringLiteral("over all of them")
                                 : QStringLiteral("over these %1 words only").arg(K));
    QStringList labels;
    for (const std::string& w : x.words) {
        labels << shortWord(w, 12);
    }
    MatrixTable logits;
    logits.caption = QStringLiteral("Logits");
    logits.rowLabels = {QString()};
    logits.columnLabels = labels;
    logits.values = arma::mat(x.logits);
    logits.maxColumns = K;
    const std::vector<Figure> givens{matrixFigure(logits)};
    std::vector<Figure> answers = answerFigures(QStringLiteral("Chances"), labels, x.probs, key);
    answers.push_back(
        wordBoxFigure(QStringLiteral("Greedy picks"), shortWord(x.words[size_t(x.pick)]), key));
    QStringList working;
    const double top = x.scaled.max();
    QStringList scaled, exps, chances;
    for (int i = 0; i < K; ++i) {
        const arma::uword k = arma::uword(i);
        const QString w = word(x.words[size_t(i)]) + QStringLiteral(" ");
        scaled << w + formula(QStringLiteral("%1 = %2").arg(
                          tight(QStringLiteral("%1 / %2").arg(num(x.logits(k)),
                                                              shortest(x.temperature))),
                          num(x.scaled(k))));
        exps << w + formula(QStringLiteral("%1 = %2 = %3")
                                .arg(tight(QStringLiteral("e^(%1 − %2)")
                                               .arg(num(x.scaled(k)), term(top))),
                                     tight(QStringLiteral("e^(%1)").arg(num(x.scaled(k) - top))),
                                     num(x.exps(k))));
        chances << w + formula(QStringLiteral("%1 = %2").arg(
                           tight(QStringLiteral("%1 / %2").arg(num(x.exps(k)),
                                                               num(arma::accu(x.exps)))),
                           num(x.probs(k))));
    }
    if (x.temperature == 1.0) {
        working << QStringLiteral("With T = 1 the logits stay as they are.");
    } else {
        working << QStringLiteral("Divide by T: ") + scaled.join(QStringLiteral("; ")) + u'.';
    }
    working << QStringLiteral("Subtract the largest, %1, and exponentiate: ").arg(num(top)) +
                   exps.join(QStringLiteral("; ")) +
                   QStringLiteral("; the total is %1.").arg(num(arma::accu(x.exps)));
    working << QStringLiteral("Chances: ") + chances.join(QStringLiteral("; ")) + u'.';
    QString pick = QStringLiteral("Greedy decoding takes the largest chance: %1.")
                       .arg(word(x.words[size_t(x.pick)]));
    if (!all) {
        pick += QStringLiteral(" (Over all %1 words the model gives %2 a chance of %3; the "
                               "other words share the rest.)")
                    .arg(x.vocabulary)
                    .arg(word(x.words[size_t(x.pick)]))
                    .arg(num(x.modelProb));
    }
    working << pick;
    return partBox(question, givens, answers, working, key, area);
}

PdfBoxPtr cachePart(const TransformerExercises& e, const QString& label, bool key,
                    const CellPrintArea& area) {
    const TransformerExercises::Cache& c = e.cache;
    const int length = c.n + c.t - 1;
    const QString model = c.uniform
                              ? QStringLiteral("L = %1 %2, h = %3 %4 a layer, d_k = %5, d_v = %6")
                                    .arg(c.layers)
                                    .arg(c.layers == 1 ? "layer" : "layers")
                                    .arg(c.h)
                                    .arg(c.h == 1 ? "head" : "heads")
                                    .arg(c.dK)
                                    .arg(c.dV)
                              : QStringLiteral("%1 layers whose h · (d_k + d_v) add up to %2")
                                    .arg(c.layers)
                                    .arg(num(c.perPosition));
    QStringList question;
    question << QStringLiteral("<b>%1 The cost of a cache.</b> ").arg(label) +
                    QStringLiteral(
                        "A prompt of n = %1 tokens "
                        "generates one word a step. At step t = %2, how many query–key "
                        "comparisons does each head of each layer make with the key/value "
                        "cache, and how many without it? How many numbers does the cache "
                        "hold after that step in this model (%3)?")
                        .arg(c.n)
                        .arg(c.t)
                        .arg(formula(
                            tight(model).replace(QStringLiteral(",\u00a0"), QStringLiteral(", "))));
    const std::vector<Figure> answers =
        answerFigures(QStringLiteral("Step %1").arg(c.t),
                      {QStringLiteral("with the cache"), QStringLiteral("without it"),
                       QStringLiteral("numbers cached")},
                      arma::rowvec{c.withCache, c.without, c.numbers}, key, 0,
                      0); // counts: whole in every variant
    QStringList working;
    const QString L = QString::number(length);
    working << formula(QStringLiteral("With the cache, step t computes only the new word's query "
                                      "against the %1 = %2 = %3 cached keys: %4 comparisons.")
                           .arg(tight(QStringLiteral("n + t − 1")),
                                tight(QStringLiteral("%1 + %2 − 1").arg(c.n).arg(c.t)), L,
                                num(c.withCache)));
    working << formula(QStringLiteral("Without it, all %1 rows are compared with all %1 keys "
                                      "again: %2 = %3.")
                           .arg(L, L + QStringLiteral("²"), num(c.without)));
    const QString cached =
        c.uniform
            ? tight(QStringLiteral("L · h · (d_k + d_v) · (n + t − 1)")) + QStringLiteral(" = ") +
                  tight(QStringLiteral("%1 · %2 · (%3 + %4) · %5")
                            .arg(c.layers)
                            .arg(c.h)
                            .arg(c.dK)
                            .arg(c.dV)
                            .arg(length))
            : tight(num(c.perPosition) + QStringLiteral(" · (n + t − 1)")) + QStringLiteral(" = ") +
                  tight(num(c.perPosition) + QStringLiteral(" · ") + L);
    working << formula(QStringLiteral("After step %1 the cache holds %2 = %3 numbers.")
                           .arg(QString::number(c.t), cached, num(c.numbers)));
    return partBox(question, {}, answers, working, key, area);
}

PdfBoxPtr exerciseHeading(const QString& text, const CellPrintArea& area) {
    auto box = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    box->addRow({{textFigure(htmlDocument(QStringLiteral("<p>%1</p>").arg(htmlEscaped(text)),
                                          pdf::font(pdf::kSans, 12, true), area.width))}});
    box->keepWithNext = true;
    box->keepTogether = true;
    box->spaceBefore = 16;
    return box;
}

} // namespace

double printedGiven(double value) {
    if (!std::isfinite(value)) {
        return 0.0;
    }
    return std::stod(asciiMinus(fixedNumber(value, kDigits)));
}

namespace {

// (a) LayerNorm of layer 1's input at the focus row, when layer 1 has one.
TransformerExercises::Norm normExercise(const TransformerConfig& c, const TransformerResult& r,
                                        arma::uword f) {
    TransformerExercises::Norm n;
    n.present = c.layers.empty() || !c.layers[0].ln1.identity;
    n.x = printed(r.layers.empty() ? arma::rowvec(r.X.row(f))
                                   : arma::rowvec(r.layers[0].input.row(f)));
    const arma::uword d = n.x.n_elem;
    n.gamma.ones(d);
    n.beta.zeros(d);
    if (!c.layers.empty() && !c.layers[0].ln1.identity) {
        const LayerNormParams& ln = c.layers[0].ln1;
        if (ln.gamma.n_elem == d) {
            n.gamma = printed(ln.gamma);
            n.gammaGiven = true;
        }
        if (ln.beta.n_elem == d) {
            n.beta = printed(ln.beta);
            n.betaGiven = true;
        }
    }
    n.eps = c.eps;
    n.mean = arma::mean(n.x);
    n.variance = arma::accu(arma::square(n.x - n.mean)) / double(d);
    n.shown = int(d) <= kMostAnswers ? int(d) : 4;
    n.out.set_size(arma::uword(n.shown));
    for (int i = 0; i < n.shown; ++i) {
        const arma::uword k = arma::uword(i);
        n.out(k) = n.gamma(k) * (n.x(k) - n.mean) / std::sqrt(n.variance + n.eps) + n.beta(k);
    }
    return n;
}

// (b) One hidden unit of the first layer that has an FFN.
TransformerExercises::Ffn ffnExercise(const TransformerConfig& c, const TransformerResult& r,
                                      arma::uword f, const TransformerSheetGivens& givens) {
    TransformerExercises::Ffn ffn;
    for (int l = 0; l < r.layersRun; ++l) {
        const TransformerLayerResult& layer = r.layers[size_t(l)];
        if (layer.ffnAct.is_empty()) {
            continue;
        }
        const FeedForwardParams& params = c.layers[size_t(l)].ffn;
        const int dff = int(params.W1.n_rows);
        ffn.present = true;
        ffn.layer = l;
        ffn.unit = givens.ffnUnit >= 0 ? std::min(givens.ffnUnit, dff - 1)
                                       : int(arma::index_max(arma::abs(layer.ffnAct.row(f))));
        ffn.g = printed(layer.ln2.out.row(f));
        ffn.w = printed(params.W1.row(arma::uword(ffn.unit)));
        ffn.b = params.b1.is_empty() ? 0.0 : printedGiven(params.b1(arma::uword(ffn.unit)));
        ffn.activation = params.activation;
        ffn.pre = arma::dot(ffn.g, ffn.w) + ffn.b;
        ffn.post = activate(ffn.activation, ffn.pre);
        break;
    }
    return ffn;
}

// (c) The next word from the last row's logits.
TransformerExercises::Next nextExercise(const TransformerConfig& c, const TransformerResult& r) {
    TransformerExercises::Next next;
    next.vocabulary = r.V;
    next.temperature = c.temperature;
    if (!r.logits.is_empty()) {
        const arma::uword last = r.logits.n_rows - 1;
        std::vector<int> order(size_t(r.V));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return r.logits(last, arma::uword(a)) > r.logits(last, arma::uword(b));
        });
        const int K = r.V <= kShortlistAll ? r.V : kShortlist;
        order.resize(size_t(K));
        next.logits.set_size(arma::uword(K));
        for (int i = 0; i < K; ++i) {
            next.words.push_back(r.words[size_t(order[size_t(i)])]);
            next.logits(arma::uword(i)) =
                printedGiven(r.logits(last, arma::uword(order[size_t(i)])));
        }
        next.scaled = next.logits / next.temperature;
        next.exps = arma::exp(next.scaled - next.scaled.max());
        next.probs = next.exps / arma::accu(next.exps);
        next.pick = int(arma::index_max(next.probs)); // the first on a tie
        next.modelProb = r.probs(last, arma::uword(order[size_t(next.pick)]));
    }
    return next;
}

// (d) The cache.
TransformerExercises::Cache cacheExercise(const TransformerResult& r,
                                          const TransformerSheetGivens& givens) {
    TransformerExercises::Cache cache;
    cache.n = givens.cacheN > 0 ? givens.cacheN : r.n;
    cache.t = std::max(1, givens.cacheT);
    cache.layers = r.layersRun;
    for (int l = 0; l < r.layersRun; ++l) {
        const AttentionResult& a = r.layers[size_t(l)].attention;
        cache.perPosition += double(a.h) * double(a.dK + a.dV);
        const AttentionResult& first = r.layers[0].attention;
        cache.uniform = cache.uniform && a.h == first.h && a.dK == first.dK && a.dV == first.dV;
    }
    if (r.layersRun > 0) {
        cache.h = r.layers[0].attention.h;
        cache.dK = r.layers[0].attention.dK;
        cache.dV = r.layers[0].attention.dV;
    }
    const double length = double(cache.n + cache.t - 1);
    cache.withCache = cache.t == 1 ? double(cache.n) * cache.n : length;
    cache.without = length * length;
    cache.numbers = cache.perPosition * length;
    return cache;
}

} // namespace

TransformerExercises transformerExercises(const TransformerCellSpec& spec,
                                          const TransformerResult& r,
                                          const TransformerSheetGivens& givens) {
    const TransformerConfig& c = spec.config;
    TransformerExercises e;
    e.tokens = r.tokens;
    e.focus = std::clamp(r.focus, 0, std::max(0, r.n - 1));
    e.focusWord = e.focus < int(r.tokens.size()) ? word(r.tokens[size_t(e.focus)])
                                                 : QStringLiteral("row %1").arg(e.focus + 1);
    const arma::uword f = arma::uword(e.focus);

    e.norm = normExercise(c, r, f);
    e.ffn = ffnExercise(c, r, f, givens);
    e.next = nextExercise(c, r);
    e.cache = cacheExercise(r, givens);
    // (e) One step of training, when the cell trains by SGD on a vocabulary small enough.
    e.step = trainingStepExercise(spec, r, printedGiven);
    return e;
}

QString transformerGivensText(const TransformerCellSpec& spec, const TransformerResult& r) {
    QStringList prompt;
    for (const std::string& t : r.tokens) {
        prompt << htmlEscaped(shortWord(t));
    }
    const int L = int(spec.config.layers.size());
    QString heads;
    if (!r.layers.empty()) {
        const AttentionResult& a = r.layers.front().attention;
        heads = QStringLiteral(", %1 %2 of d_k = %3")
                    .arg(a.h)
                    .arg(a.h == 1 ? "head" : "heads")
                    .arg(a.dK);
    }
    return QStringLiteral("A decoder of %1 %2 (width d = %3%4, a vocabulary of %5 words, "
                          "temperature T = %6) reads <i>%7</i>.")
        .arg(L)
        .arg(L == 1 ? "layer" : "layers")
        .arg(r.d)
        .arg(heads)
        .arg(r.V)
        .arg(shortest(spec.config.temperature))
        .arg(prompt.join(u' '));
}

std::vector<PdfBoxPtr> transformerExerciseBoxes(const TransformerCellSpec& spec,
                                                const TransformerResult& r,
                                                const TransformerSheetGivens& givens, int number,
                                                const QString& heading, bool key,
                                                const CellPrintArea& area) {
    const TransformerExercises e = transformerExercises(spec, r, givens);
    std::vector<PdfBoxPtr> boxes;
    boxes.push_back(exerciseHeading(
        heading.isEmpty() ? QStringLiteral("Exercise %1").arg(number)
                          : QStringLiteral("Exercise %1 · %2").arg(number).arg(heading),
        area));
    auto intro = std::make_shared<FigureRowsBox>(area.width, area.maxHeight);
    // Which parts follow the focus row: the LayerNorm and the FFN unit, as the cell has them.
    const int rowParts = int(e.norm.present) + int(e.ffn.present);
    const QString follows = rowParts == 2 ? QStringLiteral(" Parts (a) and (b) follow row %1, %2.")
                            : rowParts == 1 ? QStringLiteral(" Part (a) follows row %1, %2.")
                                            : QString();
    intro->addRow({{textFigure(
        paragraphs({transformerGivensText(spec, r) +
                    (follows.isEmpty() ? QString() : follows.arg(e.focus + 1).arg(e.focusWord)) +
                    QStringLiteral(" Round to %1 decimals.").arg(kDigits)},
                   area.width))}});
    intro->keepWithNext = true;
    intro->keepTogether = true;
    boxes.push_back(intro);
    // The parts lettered in order, (a) to (e), as many as the cell has.
    char letter = 'a';
    const auto label = [&letter] { return QStringLiteral("(%1)").arg(QChar(letter++)); };
    if (e.norm.present) {
        boxes.push_back(normPart(e, label(), key, area));
    }
    if (e.ffn.present) {
        boxes.push_back(ffnPart(e, label(), key, area));
    }
    if (!e.next.words.empty()) {
        boxes.push_back(nextPart(e, label(), key, area));
    }
    if (e.cache.layers > 0) {
        boxes.push_back(cachePart(e, label(), key, area));
    }
    if (e.step) {
        boxes.push_back(trainingStepPart(*e.step, label(), key, area));
    }
    return boxes;
}

} // namespace attnbook
