// The worksheet of a transformer cell: three variants and their key. Each key answer (LayerNorm
// of one vector, one FFN unit, the next word, the cache's cost) equals the test's own
// recomputation from that variant's numbers; neighbouring variants ask different questions; the
// working printed in the key is in that variant's numbers; the sheet leaves the boxes empty. A cell
// that trains by SGD adds one step of training by hand, checked the same way.
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_variants.h"
#include "tests/exports/pdf_tools.h"

#include "core/math/number_format.h"

#include <QtCore/QRegularExpression>
#include <QtTest>

#include <cmath>
#include <numeric>

using namespace attnbook;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A number as the working writes it: whole numbers bare, else 4 decimals.
QString num(double v) {
    return qs(readableNumber(v, 4));
}

QString term(double v) {
    return v < 0 && num(v) != QLatin1String("0") ? QStringLiteral("(%1)").arg(num(v)) : num(v);
}

// A given as the sheet prints it, 4 decimals, and as a student reads it back.
double given(double v) {
    return std::round(v * 1e4) / 1e4;
}

const char* const kLesson = R"(---
title: A decoder by hand
---

# One block of a decoder

```transformer toy
tokens: [red, blue, red]
vocab:
  red: [1, 0, 2, -1]
  blue: [0, 1, -1, 2]
  green: [2, 1, 0, 0]
  grey: [1, 1, 1, -2]
layers:
  - attention: {heads: 2, mask: causal}
    ffn:
      W_1: [[1, 0, -1, 0], [0, 1, 0, 1], [1, 1, 0, 0]]
      b_1: [0.5, -0.5, 0]
      W_2: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]
      activation: relu
temperature: 2
focus: 1
generate: {steps: 3, pick: greedy}
worksheet:
  vary:
    vocab: {min: -2, max: 2}
```
)";

// What the key must say for one variant, worked out here from the variant's own numbers.
struct Expected {
    QStringList strings; // every one must be in this variant's key
    QString mean, variance, z, pick, cacheLine;
};

Expected recompute(const WorksheetVariant& v) {
    Expected e;
    const LessonCell* cell = v.lesson.cell("toy");
    const TransformerCellSpec& spec = *cell->transformer();
    const TransformerResult& r = *v.results.cell("toy")->transformer;
    const TransformerSheetGivens& g = v.transformerGivens.at("toy");
    const arma::uword f = arma::uword(spec.config.focus);

    // (a) LayerNorm with γ = 1, β = 0 of the focus row of X⁰ (no positions: the vocab vector).
    arma::rowvec x = spec.vocab.at(spec.config.tokens[f]);
    for (arma::uword i = 0; i < x.n_elem; ++i) {
        x(i) = given(x(i));
    }
    double mean = 0;
    for (double xi : x) {
        mean += xi;
    }
    mean /= double(x.n_elem);
    double variance = 0;
    for (double xi : x) {
        variance += (xi - mean) * (xi - mean);
    }
    variance /= double(x.n_elem);
    const double root = std::sqrt(variance + 1e-5);
    e.mean = num(mean);
    e.variance = num(variance);
    e.strings << QStringLiteral("/ 4 = %1.").arg(num(mean))
              << QStringLiteral("/ 4 = %1.").arg(num(variance))
              << QStringLiteral("√(σ² + ε) = √(%1 + 0.00001) = %2.").arg(num(variance), num(root));
    for (arma::uword i = 0; i < x.n_elem; ++i) {
        static const char* const subscripts[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
        e.strings << QStringLiteral("LN(x)%1 = (%2 − %3) / %4 = %5")
                         .arg(QString::fromUtf8(subscripts[i + 1]))
                         .arg(num(x(i)), num(mean), num(root), num((x(i) - mean) / root));
    }

    // (b) One ReLU unit of the FFN: g = LN₂(R) of the focus row.
    const FeedForwardParams& ffn = spec.config.layers[0].ffn;
    // The lesson's own numbers ask about the strongest unit; a variant draws one.
    const int unit =
        g.ffnUnit >= 0 ? g.ffnUnit : int(arma::index_max(arma::abs(r.layers[0].ffnAct.row(f))));
    double z = given(ffn.b1(arma::uword(unit)));
    QStringList products;
    for (arma::uword i = 0; i < ffn.W1.n_cols; ++i) {
        const double gi = given(r.layers[0].ln2.out(f, i));
        const double wi = given(ffn.W1(arma::uword(unit), i));
        z += gi * wi;
        products << QStringLiteral("%1 × %2").arg(term(gi), term(wi));
    }
    e.z = num(z);
    e.strings << QStringLiteral("hidden unit %1 has the weights").arg(unit + 1)
              << QStringLiteral("z = %1 + %2 = %3.")
                     .arg(products.join(QStringLiteral(" + ")),
                          term(given(ffn.b1(arma::uword(unit)))), num(z))
              << QStringLiteral("ReLU(z) = max(0, %1) = %2.").arg(num(z), num(std::max(0.0, z)));

    // (c) The next word: all 4 words, softmax(logits / T) with T = 2.
    const arma::uword last = r.logits.n_rows - 1;
    std::vector<int> order(r.words.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return r.logits(last, arma::uword(a)) > r.logits(last, arma::uword(b));
    });
    std::vector<double> scaled, exps;
    double top = -1e300;
    for (int k : order) {
        scaled.push_back(given(r.logits(last, arma::uword(k))) / 2.0);
        top = std::max(top, scaled.back());
    }
    double total = 0;
    for (double s : scaled) {
        exps.push_back(std::exp(s - top));
        total += exps.back();
    }
    size_t best = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        const QString word = qs(r.words[size_t(order[i])]);
        e.strings << QStringLiteral("%1 %2 / %3 = %4")
                         .arg(word, num(exps[i]), num(total), num(exps[i] / total));
        best = exps[i] > exps[best] ? i : best;
    }
    e.pick = qs(r.words[size_t(order[best])]);
    e.strings << QStringLiteral("Greedy decoding takes the largest chance: %1.").arg(e.pick);

    // (d) The cache: one layer, 2 heads of d_k = d_v = 2.
    const int n = g.cacheN, t = g.cacheT, length = n + t - 1;
    e.cacheLine = QStringLiteral("n + t − 1 = %1 + %2 − 1 = %3 cached keys: %3 comparisons.")
                      .arg(n)
                      .arg(t)
                      .arg(length);
    e.strings << e.cacheLine
              << QStringLiteral("again: %1 = %2.")
                     .arg(QString::number(length) + u'²')
                     .arg(length * length)
              << QStringLiteral("= 1 · 2 · (2 + 2) · %1 = %2 numbers.").arg(length).arg(8 * length);
    return e;
}

// Each section's text (pdftotext), by the variant label its pages carry.
QStringList sectionTexts(const QByteArray& pdf, const QStringList& labels) {
    pdftools::PdfFile file(pdf);
    QStringList out(labels.size());
    for (const QStringList& page : pdftools::pageLines(file.path())) {
        const QString text = page.join(u' ');
        for (int k = 0; k < labels.size(); ++k) {
            if (text.contains(labels[k])) {
                out[k] += text + u' ';
            }
        }
    }
    return out;
}

} // namespace

class TestWorksheetTransformer : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        lesson_ = parseLesson(kLesson, "sheet.md");
        QVERIFY(!hasErrors(lesson_.diagnostics));
        options_.variants = 3;
        options_.seed = 7;
        QVERIFY(renderWorksheets(lesson_, options_, &files_).ok());
        QCOMPARE(files_.variantLabels.size(), 3);
        sheets_ = sectionTexts(files_.worksheet, files_.variantLabels);
        keys_ = sectionTexts(files_.answers, files_.variantLabels);
        for (int k = 1; k <= 3; ++k) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson_, options_.seed, k, 3, &v).ok());
            QCOMPARE(v.label(), files_.variantLabels[k - 1]);
            variants_.push_back(std::move(v));
        }
    }

    void theKeyAnswersEqualARecomputation() {
        for (int k = 0; k < 3; ++k) {
            const Expected e = recompute(variants_[size_t(k)]);
            for (const QString& s : e.strings) {
                QVERIFY2(keys_[k].contains(s),
                         qPrintable(QStringLiteral("variant %1: %2").arg(k + 1).arg(s)));
            }
        }
    }

    void theSheetLeavesTheAnswersOut() {
        for (int k = 0; k < 3; ++k) {
            const QString& sheet = sheets_[k];
            QVERIFY(sheet.contains(QStringLiteral("Exercise 1 · One block of a decoder")));
            QVERIFY(sheet.contains(QStringLiteral("(a) LayerNorm.")));
            QVERIFY(sheet.contains(QStringLiteral("(d) The cost of a cache.")));
            QVERIFY(sheet.contains(QStringLiteral("Working:")));
            QVERIFY(!sheet.contains(QStringLiteral("Greedy decoding takes")));
            QVERIFY(!sheet.contains(QStringLiteral("cached keys:")));
            // The question itself is the same on the sheet and in the key.
            const Expected e = recompute(variants_[size_t(k)]);
            QVERIFY(
                sheet.contains(QStringLiteral("A prompt of n = %1 tokens")
                                   .arg(variants_[size_t(k)].transformerGivens.at("toy").cacheN)));
            QVERIFY(keys_[k].contains(
                QStringLiteral("A prompt of n = %1 tokens")
                    .arg(variants_[size_t(k)].transformerGivens.at("toy").cacheN)));
        }
        QCOMPARE(files_.worksheetPages, files_.answerPages);
    }

    void neighboursDiffer() {
        for (int k = 0; k + 1 < 3; ++k) {
            const Expected a = recompute(variants_[size_t(k)]);
            const Expected b = recompute(variants_[size_t(k + 1)]);
            const auto& ta = variants_[size_t(k)].lesson.cell("toy")->transformer()->config;
            const auto& tb = variants_[size_t(k + 1)].lesson.cell("toy")->transformer()->config;
            // The word at the focus row, the cache question and the LayerNorm differ.
            QVERIFY(ta.tokens[1] != tb.tokens[1]);
            QVERIFY(a.cacheLine != b.cacheLine);
            QVERIFY(a.strings.mid(0, 7) != b.strings.mid(0, 7)); // μ, σ², √, LN(x)
            QVERIFY(files_.variantHashes[k] != files_.variantHashes[k + 1]);
            QString one = keys_[k], two = keys_[k + 1];
            QVERIFY(one.remove(files_.variantLabels[k]) != two.remove(files_.variantLabels[k + 1]));
        }
    }

    void theWorkingIsInItsVariantsNumbers() {
        // A variant's key never shows another's cache working or prompt.
        for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 3; ++j) {
                const Expected other = recompute(variants_[size_t(j)]);
                QCOMPARE(keys_[k].contains(other.cacheLine), j == k);
            }
            const TransformerConfig& c =
                variants_[size_t(k)].lesson.cell("toy")->transformer()->config;
            QStringList prompt;
            for (const std::string& t : c.tokens) {
                prompt << qs(t);
            }
            QVERIFY(keys_[k].contains(QStringLiteral("reads ") + prompt.join(u' ')));
            QVERIFY(sheets_[k].contains(QStringLiteral("reads ") + prompt.join(u' ')));
        }
    }

    void theLessonsOwnNumbers() {
        // Without variants: the lesson's tokens, the strongest FFN unit, n and the steps of the
        // cell's own generation (n = 3, t = 3: 5 comparisons, 25 without).
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, {}, &files).ok());
        const QString key =
            sectionTexts(files.answers, {QStringLiteral("The lesson's numbers")})[0];
        QVERIFY(key.contains(QStringLiteral("reads red blue red")));
        QVERIFY(
            key.contains(QStringLiteral("n + t − 1 = 3 + 3 − 1 = 5 cached keys: 5 comparisons.")));
        QVERIFY(key.contains(QStringLiteral("again: 5² = 25.")));
        WorksheetVariant v;
        QVERIFY(drawVariant(lesson_, 1, 0, 0, &v).ok());
        const Expected e = recompute(v);
        for (const QString& s : e.strings) {
            if (!s.startsWith(QStringLiteral("hidden unit"))) {
                QVERIFY2(key.contains(s), qPrintable(s));
            }
        }
    }

    void variantsAreReproducible() {
        WorksheetFiles again;
        QVERIFY(renderWorksheets(lesson_, options_, &again).ok());
        QCOMPARE(again.variantHashes, files_.variantHashes);
        QCOMPARE(sectionTexts(again.answers, again.variantLabels),
                 sectionTexts(files_.answers, files_.variantLabels));
    }

    // A cell that trains by SGD asks for one step by hand (docs/worksheets.md): the key's
    // chances, loss, gradient on the scores and new row of the right word equal the test's own
    // loops over that variant's printed numbers; the sheet asks and leaves the working out; a
    // cell without LayerNorm asks no LayerNorm part.
    void aTrainingCellAsksForOneStepByHand() {
        const Lesson lesson = parseLesson(R"(# A step

```transformer tiny
tokens: [red]
vocab: {red: [1, 0.5], blue: [0.5, 1], green: [-1, 0]}
layers:
  - attention: {heads: 1, mask: causal}
    ffn: none
    ln1: none
    ln2: none
final_ln: none
targets: [blue]
train:
  data: [[red, blue]]
  steps: 1
  optimizer: sgd
  lr: 0.5
  show: 0
worksheet:
  vary:
    vocab: {min: -1, max: 1, step: 0.5}
```
)",
                                          "step.md");
        QVERIFY(!hasErrors(lesson.diagnostics));
        WorksheetOptions options;
        options.variants = 3;
        options.seed = 11;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson, options, &files).ok());
        const QStringList sheets = sectionTexts(files.worksheet, files.variantLabels);
        const QStringList keys = sectionTexts(files.answers, files.variantLabels);
        for (int k = 1; k <= 3; ++k) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson, options.seed, k, 3, &v).ok());
            const TransformerResult& r = *v.results.cell("tiny")->transformer;
            const TransformerConfig& c = v.lesson.cell("tiny")->transformer()->config;
            // z is the last row of the final stream; the rows are the (tied) vocab's.
            std::vector<double> z, scores;
            for (arma::uword i = 0; i < 2; ++i) {
                z.push_back(given(r.finalLn.out(0, i)));
            }
            double top = -1e300;
            for (arma::uword w = 0; w < 3; ++w) {
                double score = 0;
                for (arma::uword i = 0; i < 2; ++i) {
                    score += given(c.vocab(w, i)) * z[i];
                }
                scores.push_back(score);
                top = std::max(top, score);
            }
            double total = 0;
            for (double score : scores) {
                total += std::exp(score - top);
            }
            const double pBlue = std::exp(scores[1] - top) / total;
            const QString& key = keys[k - 1];
            const QString variant = QStringLiteral("variant %1").arg(k);
            QVERIFY2(key.contains(QStringLiteral("One step of training.")), qPrintable(variant));
            QVERIFY2(key.contains(QStringLiteral("Loss: −ln p(blue) = −ln %1 = %2.")
                                      .arg(num(pBlue), num(-std::log(pBlue)))),
                     qPrintable(variant + u' ' + key));
            QStringList newRow;
            for (arma::uword i = 0; i < 2; ++i) {
                newRow << num(given(c.vocab(1, i)) - 0.5 * (pBlue - 1) * z[i]);
            }
            QVERIFY2(key.contains(QStringLiteral("= [%1].").arg(newRow.join(QStringLiteral(", ")))),
                     qPrintable(variant + u' ' + key));
            QVERIFY(!key.contains(QStringLiteral("LayerNorm.")));
            QVERIFY(sheets[k - 1].contains(QStringLiteral("One step of training.")));
            QVERIFY(!sheets[k - 1].contains(QStringLiteral("Loss: −ln")));
        }
    }

  private:
    Lesson lesson_;
    WorksheetOptions options_;
    WorksheetFiles files_;
    QStringList sheets_, keys_;
    std::vector<WorksheetVariant> variants_;
};

QTEST_MAIN(TestWorksheetTransformer)
#include "test_worksheet_transformer.moc"
