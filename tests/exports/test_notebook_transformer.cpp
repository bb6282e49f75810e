// Transformer cells in the notebook (transformer.md), in process: the first code cell gains the
// decoder's functions only when the lesson has a transformer cell, and each cell's code types
// its tokens, vocab and every layer's weights (values read from files written out, with where
// they came from), the model, the targets and the generation, and ends with attnbook's own
// numbers to check against. Executing the notebooks and comparing every number with
// `attnbook compute` to 1e-12 is notebook_transformer.py's job.
#include "exports/notebook/lesson_notebook.h"
#include "exports/notebook/notebook_python.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest>

using namespace attnbook;

namespace {

// Two blocks: the first with 2 identity heads, no LN₁ and W_1 from a file; the second one head
// of its own widths and no FFN. Tied, with a temperature, targets and sampling.
// (Ordinary string literals: moc reads no raw string with quotes in it.)
const char* const kLesson = "# Two blocks\n"
                            "\n"
                            "```transformer t\n"
                            "tokens: [red, blue, red]\n"
                            "vocab:\n"
                            "  red: [1, 0, 0, 0]\n"
                            "  blue: [0, 1, 0, 0]\n"
                            "  \"odd \\\"word\\\"\": [0, 0, 1, 0]\n"
                            "positional: sinusoidal\n"
                            "layers:\n"
                            "  - attention: {heads: 2, mask: causal}\n"
                            "    ln1: none\n"
                            "    ffn: {W_1: {file: w1.csv}, W_2: [[1, 0, 0], [0, 1, 0], [0, 0, 1], "
                            "[1, 1, 1]], activation: gelu_tanh}\n"
                            "  - attention: {heads: 1, d_k: 2, d_v: 2, mask: causal, W_Q: [[1, 0, "
                            "0, 0], [0, 1, 0, 0]], W_K: [[0, 1, 0, 0], [1, 0, 0, 0]], W_V: [[1, 0, "
                            "0, 0], [0, 0, 1, 0]], W_O: [[1, 0], [0, 1], [0, 0], [1, 1]]}\n"
                            "    ffn: none\n"
                            "temperature: 0.5\n"
                            "targets: [blue, ~, \"odd \\\"word\\\"\"]\n"
                            "generate: {steps: 3, pick: sample, seed: 7}\n"
                            "```\n"
                            "\n"
                            "```transformer unmasked\n"
                            "tokens: [red, blue]\n"
                            "vocab:\n"
                            "  red: [1, 0]\n"
                            "  blue: [0, 1]\n"
                            "layers:\n"
                            "  - attention: {heads: 1, mask: none}\n"
                            "    ffn: none\n"
                            "generate: {steps: 2, pick: greedy}\n"
                            "```\n";

QJsonObject notebookOf(const Lesson& lesson) {
    AttentionEngine engine;
    const LessonResults results = computeLesson(lesson, engine);
    if (hasErrors(lessonProblems(lesson, results))) {
        for (const Diagnostic& d : lessonProblems(lesson, results)) {
            qWarning("%d: %s", d.line, d.message.c_str());
        }
        return {};
    }
    QByteArray bytes;
    if (!renderLessonNotebook(lesson, results, &bytes).ok()) {
        return {};
    }
    return QJsonDocument::fromJson(bytes).object();
}

QString sourceOf(const QJsonObject& notebook, const QString& id) {
    for (const QJsonValue& cell : notebook.value(QStringLiteral("cells")).toArray()) {
        if (cell.toObject().value(QStringLiteral("id")).toString() == id) {
            QString text;
            for (const QJsonValue& line :
                 cell.toObject().value(QStringLiteral("source")).toArray()) {
                text += line.toString();
            }
            return text;
        }
    }
    return {};
}

} // namespace

class TestNotebookTransformer : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir work_;
    Lesson lesson_;

  private Q_SLOTS:
    void initTestCase() {
        QVERIFY(work_.isValid());
        QFile w1(work_.filePath(QStringLiteral("w1.csv")));
        QVERIFY(w1.open(QIODevice::WriteOnly));
        w1.write("1,0,0,0\n0,1,0,0.5\n0,0,-1,0\n");
        w1.close();
        lesson_ = parseLesson(kLesson, work_.filePath(QStringLiteral("lesson.md")).toStdString());
        QVERIFY(!hasErrors(lesson_.diagnostics));
    }

    void theFunctionsComeWithTheFirstTransformerCell() {
        const QJsonObject notebook = notebookOf(lesson_);
        const QString functions = sourceOf(notebook, QStringLiteral("functions"));
        for (const char* part :
             {"def masked_softmax(S)", "import math\n", "erf = np.vectorize(math.erf",
              "def layer_norm(X, ln, eps)", "def activation(name, x)",
              "def transformer_layer(X, layer, eps, cache=None, removed=None)",
              "attention_heads(Q, K, V", "def transformer_knockouts(X, model, target_rows)",
              "def transformer_forward(", "def cross_entropy(", "def splitmix64(state)", "& mask",
              "(draw >> 11) * 2.0 ** -53", "def transformer_generate(",
              "def check_against_attnbook("}) {
            QVERIFY2(functions.contains(QLatin1String(part)), part);
        }
        // A lesson without one keeps the first cell as it was.
        const Lesson attention = loadLesson(ATTNBOOK_SOURCE_DIR "/documents/attention.md");
        const QString plain = sourceOf(notebookOf(attention), QStringLiteral("functions"));
        QVERIFY(plain.contains(QStringLiteral("def attention_backward(")));
        QVERIFY(!plain.contains(QStringLiteral("transformer")));
        QVERIFY(!plain.contains(QStringLiteral("import math")));
        // No lesson variable takes the new functions' names.
        for (const char* name :
             {"layer_norm", "erf", "math", "splitmix64", "transformer_forward"}) {
            QCOMPARE(pythonVariable(name), std::string(name) + "_");
        }
    }

    void aCellTypesItsInputsAndWeights() {
        const QJsonObject notebook = notebookOf(lesson_);
        const QString code = sourceOf(notebook, QStringLiteral("t"));
        for (const char* line :
             {"# The cell \"t\", recomputed in NumPy.\n",
              "tokens = [\"red\", \"blue\", \"red\"]\n",
              "vocab_words = [\"red\", \"blue\", \"odd \\\"word\\\"\"]  # one per row of vocab\n",
              "    [0, 0, 1, 0],\n",
              "X0 = vocab[[vocab_words.index(token) for token in tokens]]  # (n × d)\n",
              "P = sinusoidal_positions(n, d)  # (n × d)\n",
              "layers.append({  # layer 1 of 2\n",
              "    \"ln1\": None,  # none: the identity\n",
              "        \"heads\": 2, \"d_k\": 2, \"d_v\": 2,\n",
              "        \"scale\": 1 / np.sqrt(2),  # scores ÷ √d_k\n",
              "        \"causal\": True,\n",
              "        \"W_Q\": np.eye(4),  # identity\n",
              "        \"b_Q\": np.zeros(4),\n",
              "        # layers[0].ffn.W_1 was read from \"w1.csv",
              "        \"W_1\": matrix([\n            [1, 0, 0, 0],\n",
              "        \"activation\": \"gelu_tanh\",\n",
              "        \"gamma\": np.ones(4),\n",
              "layers.append({  # layer 2 of 2\n",
              "        \"W_O\": matrix([\n",
              "    \"ffn\": None,  # none: F = 0\n",
              "    \"words\": vocab_words, \"U\": vocab,",
              "    \"temperature\": 0.5,\n",
              "forward = transformer_forward(X, model)\n",
              "targets = [\"blue\", None, \"odd \\\"word\\\"\"]",
              "generation = transformer_generate(model, forward, 3, \"sample\", seed=7)\n",
              "attnbook_results[\"t\"] = {\n",
              "show_transformer(attnbook_results[\"t\"], tokens)\n",
              "check_against_attnbook(attnbook_results[\"t\"], {\n    \"loss\": ",
              "    \"generation\": [\n        ("}) {
            QVERIFY2(code.contains(QString::fromUtf8(line)), line);
        }
        // The file's numbers are written out: the notebook needs no file beside it.
        QVERIFY(!code.contains(QStringLiteral("np.load")) &&
                !code.contains(QStringLiteral("open(")));
        QCOMPARE(code.count(QStringLiteral("layers.append(")), 2);

        const QString settings = sourceOf(notebook, QStringLiteral("t-settings"));
        for (const char* part :
             {"**Transformer cell `t`**",
              "Tokens (n = 3): red, blue, red; vectors from the vocab of "
              "3 words, width d = 4.",
              "2 blocks, pre-norm",
              "block 1: 2 heads (d_k = 2, d_v = 2), causal mask; LN₁ none, "
              "LN₂ with γ = 1, β = 0; FFN d_ff = 3, gelu_tanh.",
              "block 2: 1 head (d_k = 2, d_v = 2), causal mask; LN₁ with γ = 1, β = 0, LN₂ with γ "
              "= 1, β = 0; FFN none.",
              "Unembedding tied to the vocab; temperature T = 0.5.",
              "the mean cross-entropy over 2 targets",
              "3 words, sampled with splitmix64 from seed 7",
              "layers\\[0\\]\\.ffn\\.W\\_1 from `w1.csv"}) {
            QVERIFY2(settings.contains(QString::fromUtf8(part)), qPrintable(settings));
        }
    }

    // Generation with the mask off is refused up front: the settings say why, and the code
    // asks anyway (transformer_generate refuses it the same way).
    void aRefusedGenerationIsSaid() {
        const QJsonObject notebook = notebookOf(lesson_);
        const QString settings = sourceOf(notebook, QStringLiteral("unmasked-settings"));
        QVERIFY2(settings.contains(QStringLiteral("refused: generation needs the causal mask")),
                 qPrintable(settings));
        const QString code = sourceOf(notebook, QStringLiteral("unmasked"));
        QVERIFY(code.contains(
            QStringLiteral("generation = transformer_generate(model, forward, 2, \"greedy\")\n")));
        QVERIFY(code.contains(QStringLiteral("loss = None  # no targets\n")));
        QVERIFY(code.contains(QStringLiteral("    \"generation\": [\n    ],\n")));
    }

    void theNotebookIsDeterministic() {
        const QJsonObject first = notebookOf(lesson_);
        QVERIFY(!first.isEmpty());
        QCOMPARE(notebookOf(lesson_), first);
    }
};

QTEST_GUILESS_MAIN(TestNotebookTransformer)
#include "test_notebook_transformer.moc"
