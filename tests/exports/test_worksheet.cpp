// Worksheets and answer keys: the blanks are empty on the sheet and filled in the key, page for
// page; variants are reproducible from their seed, workable by hand, and differ from each
// other; a roster gives every name a sheet and a CSV line.
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_variants.h"
#include "tests/exports/pdf_text.h"

#include <QtCore/QTemporaryDir>
#include <QtPdf/QPdfDocument>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace attnbook;

namespace {

// What identifies a page's place in a sheet: the exercises and questions that start on it (a
// question by the first words of its text).
QStringList landmarks(const Lesson& lesson, const QString& page) {
    QStringList out;
    static const QRegularExpression exercise(QStringLiteral("Exercise \\d+"));
    for (auto it = exercise.globalMatch(page); it.hasNext();) {
        out << it.next().captured();
    }
    for (const LessonCell& cell : lesson.cells) {
        if (const QuizCellSpec* quiz = cell.quiz()) {
            const QString start = QString::fromStdString(quiz->question).section(u' ', 0, 4);
            if (page.contains(start)) {
                out << start;
            }
        }
    }
    return out;
}

// The shares and outputs of the blanked cells of documents/attention.md, at 4 digits.
const char* const kBlankedValues[] = {"0.3837", "0.2327", "0.2741", "0.4519", "0.7673", "0.5481",
                                      "0.4011", "0.1978", "0.8022", "0.3775", "0.6225"};

Lesson lessonFrom(const QString& markdown) {
    return parseLesson(markdown.toStdString(), "sheet.md");
}

} // namespace

class TestWorksheet : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        lesson_ = loadLesson(ATTNBOOK_SOURCE_DIR "/documents/attention.md");
        QVERIFY(!hasErrors(lesson_.diagnostics));
    }

    void blanksAreEmptyOnTheSheetAndFilledInTheKey() {
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, {}, &files).ok());
        const QStringList sheet = pdfPageTexts(files.worksheet);
        const QStringList key = pdfPageTexts(files.answers);
        QVERIFY(!sheet.isEmpty());
        const QString sheetText = sheet.join(u' ');
        const QString keyText = key.join(u' ');
        for (const char* value : kBlankedValues) {
            QVERIFY2(!sheetText.contains(QLatin1String(value)), value);
            QVERIFY2(keyText.contains(QLatin1String(value)), value);
        }
        // The givens are printed, with their labels; the name line is there.
        QVERIFY(sheetText.contains(QStringLiteral("Exercise 1 · The colour example")));
        QVERIFY(sheetText.contains(QStringLiteral("Name")));
        QVERIFY(sheetText.contains(QStringLiteral("S = Q Kᵀ · s")));
        // Every quiz, its choices on the sheet, its answer and explanation in the key.
        QVERIFY(sheetText.contains(QStringLiteral("☐ B. A positive share, because e⁰ = 1.")));
        QVERIFY(keyText.contains(QStringLiteral("Answer: B.")));
        QVERIFY(keyText.contains(QStringLiteral("Answer: 0.3775 (within ± 0.001)")));
        QVERIFY(keyText.contains(QStringLiteral("Softmax exponentiates before dividing")));
        QVERIFY(!sheetText.contains(QStringLiteral("Softmax exponentiates before dividing")));
    }

    void theKeyHasTheSheetsPages() {
        WorksheetFiles files;
        WorksheetOptions options;
        options.variants = 3;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        QCOMPARE(files.worksheetPages, files.answerPages);
        const QStringList sheet = pdfPageTexts(files.worksheet);
        const QStringList key = pdfPageTexts(files.answers);
        QCOMPARE(sheet.size(), key.size());
        for (int i = 0; i < sheet.size(); ++i) {
            QCOMPARE(landmarks(lesson_, key[i]), landmarks(lesson_, sheet[i]));
            QVERIFY(!landmarks(lesson_, sheet[i]).isEmpty());
        }
    }

    void variantsAreReproducibleAndDiffer() {
        WorksheetOptions options;
        options.variants = 4;
        options.seed = 7;
        WorksheetFiles first, second;
        QVERIFY(renderWorksheets(lesson_, options, &first).ok());
        QVERIFY(renderWorksheets(lesson_, options, &second).ok());
        const QStringList a = pdfPageTexts(first.worksheet);
        QCOMPARE(a, pdfPageTexts(second.worksheet));
        QCOMPARE(pdfPageTexts(first.answers), pdfPageTexts(second.answers));
        QCOMPARE(first.variantHashes, second.variantHashes);
        QCOMPARE(first.variantLabels.size(), 4);
        QCOMPARE(first.variantLabels[2],
                 QStringLiteral("Variant 3 of 4 · seed 7 · #") + first.variantHashes[2]);
        // Every page carries its variant, seed and hash.
        const int perVariant = a.size() / 4;
        QCOMPARE(a.size(), perVariant * 4);
        for (int i = 0; i < a.size(); ++i) {
            QVERIFY2(a[i].contains(first.variantLabels[i / perVariant]),
                     qPrintable(QString::number(i)));
        }
        // Variant k and k + 1 differ, in numbers and in hash.
        for (int k = 0; k + 1 < 4; ++k) {
            QVERIFY(first.variantHashes[k] != first.variantHashes[k + 1]);
            const QString one =
                a.mid(k * perVariant, perVariant).join(u' ').remove(first.variantLabels[k]);
            const QString two = a.mid((k + 1) * perVariant, perVariant)
                                    .join(u' ')
                                    .remove(first.variantLabels[k + 1]);
            QVERIFY(one != two);
        }
        // Another seed, other numbers.
        options.seed = 8;
        WorksheetFiles other;
        QVERIFY(renderWorksheets(lesson_, options, &other).ok());
        QVERIFY(other.variantHashes != first.variantHashes);
    }

    void aVariantIsTheSameAloneAsAmongOthers() {
        WorksheetVariant alone, among;
        QVERIFY(drawVariant(lesson_, 42, 3, 3, &alone).ok());
        QVERIFY(drawVariant(lesson_, 42, 3, 30, &among).ok());
        QCOMPARE(alone.hash, among.hash);
        QCOMPARE(lessonJson(alone.lesson, alone.results).dump(),
                 lessonJson(among.lesson, among.results).dump());
    }

    void variantsAreWorkableByHand() {
        for (int k = 1; k <= 30; ++k) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson_, 2024, k, 30, &v).ok());
            for (const LessonCell* cell : worksheetCells(v.lesson)) {
                const AttentionCellSpec& spec = *cell->attention();
                const ComputedCell* computed = v.results.cell(cell->id);
                QVERIFY(computed && computed->attention);
                QCOMPARE(unworkableReason(*computed->attention), std::string());
                // Every scaled score within ±3, the default limit: e^3 ≈ 20 by hand.
                for (const HeadResult& head : computed->attention->head) {
                    const arma::mat scores = head.scoresT;
                    QVERIFY(arma::abs(scores.elem(arma::find_finite(scores))).max() <= 3.0);
                }
                // The drawn numbers are quarters in [−2, 2] (the lesson's step: 0.25).
                for (const auto& [label, vector] : spec.vocab) {
                    for (double x : vector) {
                        QVERIFY(4 * x == std::round(4 * x) && x >= -2 && x <= 2);
                    }
                }
            }
        }
    }

    void theRandomDrawsArePinned() {
        // mt19937_64 and SplitMix64 are fully specified, and the range reduction is ours: these
        // numbers are the same with every compiler and library.
        VariantRandom random(42, 1);
        std::vector<int> draws;
        for (int i = 0; i < 12; ++i) {
            draws.push_back(random.uniform(-2, 2));
        }
        VariantRandom again(42, 1);
        for (int i = 0; i < 12; ++i) {
            QCOMPARE(again.uniform(-2, 2), draws[size_t(i)]);
        }
        QCOMPARE(draws, (std::vector<int>{-1, 1, -2, 1, 2, -2, 0, 1, 2, 0, -1, 2}));
        VariantRandom wide(1, 1);
        for (int i = 0; i < 1000; ++i) {
            const int x = wide.uniform(-3, 5);
            QVERIFY(x >= -3 && x <= 5);
        }
        QCOMPARE(splitMix64(0), 0xe220a8397b1dcdafULL); // SplitMix64's published first output
    }

    void aRosterGivesEveryNameASheet() {
        WorksheetOptions options;
        options.variants = 2;
        options.seed = 5;
        options.roster = {QStringLiteral("Ada Lovelace"), QStringLiteral("Alan \"A\" Turing, Jr."),
                          QStringLiteral("Grace Hopper")};
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        const QStringList sheet = pdfPageTexts(files.worksheet);
        const QStringList key = pdfPageTexts(files.answers);
        QCOMPARE(sheet.size(), key.size() / 2 * 3); // three sheets, a key per variant
        QVERIFY(sheet.front().contains(QStringLiteral("Ada Lovelace")));
        QVERIFY(sheet.back().contains(QStringLiteral("Grace Hopper · ") + files.variantLabels[0]));
        const QStringList lines =
            QString::fromUtf8(files.roster).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("name,variant,seed,hash"));
        QCOMPARE(lines[1], QStringLiteral("Ada Lovelace,1,5,") + files.variantHashes[0]);
        QCOMPARE(lines[2],
                 QStringLiteral("\"Alan \"\"A\"\" Turing, Jr.\",2,5,") + files.variantHashes[1]);
        QCOMPARE(lines[3], QStringLiteral("Grace Hopper,1,5,") + files.variantHashes[0]);
        QCOMPARE(rosterCsvPath(QStringLiteral("/class/sheets.pdf")),
                 QStringLiteral("/class/sheets-roster.csv"));
    }

    // A quiz about an exercise's cell prints right after that exercise; a quiz about a cell
    // that is not an exercise prints under Questions, after that cell's givens.
    void quizzesFollowTheirCells() {
        const Lesson lesson = lessonFrom(QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n```\n\n"
            "```attention d\ntokens: [x, y]\nvocab:\n  x: [2, 0]\n  y: [0, 1]\n```\n\n"
            "```quiz about_d\nquestion: Which token does x read most?\nanswer: 0\n"
            "choices: [x, y]\nexplain: \"x's own score is {{d.head[0].scores[0][0]:2}}.\"\n```\n\n"
            "```quiz about_c\nquestion: Name the cell's second token.\nanswer: b\ncell: c\n```\n"));
        QVERIFY(!hasErrors(lesson.diagnostics));
        QCOMPARE(quizSubject(*lesson.cell("about_d")), std::string("d"));
        QCOMPARE(quizSubject(*lesson.cell("about_c")), std::string("c"));
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson, {}, &files).ok());
        const QString text = pdfPageTexts(files.worksheet).join(u' ').simplified();
        const qsizetype exercise = text.indexOf(QStringLiteral("Exercise 1"));
        const qsizetype aboutC = text.indexOf(QStringLiteral("Name the cell's second token"));
        const qsizetype questions = text.indexOf(QStringLiteral("Questions"));
        const qsizetype givens = text.indexOf(QStringLiteral("Given (cell d)"));
        const qsizetype aboutD = text.indexOf(QStringLiteral("Which token does x read most"));
        QVERIFY2(exercise >= 0 && exercise < aboutC && aboutC < questions && questions < givens &&
                     givens < aboutD,
                 qPrintable(text));
        QVERIFY2(text.indexOf(QStringLiteral("Tokens x, y")) > questions, qPrintable(text));
    }

    // --variants on a lesson where nothing varies says so instead of printing identical sheets:
    // refused, the command line's usage error (not a file that could not be written).
    void variantsOfALessonThatDoesNotVary() {
        const Lesson lesson = lessonFrom(QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n```\n"));
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson, {}, &files).ok());
        WorksheetOptions options;
        options.variants = 3;
        const ExportResult r = renderWorksheets(lesson, options, &files);
        QCOMPARE(r.status, ExportStatus::Refused);
        QVERIFY2(r.error.startsWith(QStringLiteral("nothing in this lesson varies")),
                 qPrintable(r.error));
    }

    // An author may widen the limit; a narrow one that no draw meets is reported.
    void theScoreLimitIsTheAuthors() {
        const QString base = QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n  max_score: %1\n  vary:\n    vocab: {min: 1, max: "
            "4}\n```\n");
        WorksheetOptions options;
        options.variants = 2;
        WorksheetFiles files;
        // Scores of [1..4]·[1..4]/√2 lie between 1.4 and 22.6: a limit of 1 allows none.
        const ExportResult narrow = renderWorksheets(lessonFrom(base.arg(1)), options, &files);
        QCOMPARE(narrow.status, ExportStatus::InvalidDocument);
        QVERIFY2(narrow.error.contains(QStringLiteral("a score beyond ±1")),
                 qPrintable(narrow.error));
        QVERIFY(renderWorksheets(lessonFrom(base.arg(30)), options, &files).ok());
        const Lesson zero = lessonFrom(base.arg(0));
        QVERIFY(hasErrors(zero.diagnostics));
    }

    void aRangeWithNoWorkableDrawIsAnError() {
        const Lesson lesson = lessonFrom(QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n  vary:\n    vocab: {min: 1, max: 1}\n```\n"));
        QVERIFY(!hasErrors(lesson.diagnostics));
        WorksheetFiles files;
        WorksheetOptions options;
        options.variants = 1;
        const ExportResult r = renderWorksheets(lesson, options, &files);
        QCOMPARE(r.status, ExportStatus::InvalidDocument);
        QCOMPARE(r.line, 8); // worksheet:
        QVERIFY(r.error.contains(QStringLiteral("no workable variant")));
    }

    // A claim in a quiz's text must hold for every variant's numbers, or no sheet is written:
    // the error names the variant, the quiz and the claim, at the claim's line.
    void aQuizClaimFalseForAVariantStopsTheExport() {
        const QString markdown = QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n  vary:\n    vocab: {min: -2, max: 2}\n```\n\n"
            "```quiz q\nquestion: \"Token a is [1, 0].{{? near(c.X0[0][0], 1)}} What is "
            "A[0][0]?\"\n"
            "answer: \"{{c.head[0].weights[0][0]}}\"\n"
            "explain: \"The share is {{c.head[0].weights[0][0]:4}}.\"\n```\n");
        const Lesson lesson = lessonFrom(markdown);
        QVERIFY(!hasErrors(lesson.diagnostics));
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson, {}, &files).ok()); // the lesson's own numbers
        WorksheetOptions options;
        options.variants = 5;
        options.seed = 11;
        const ExportResult r = renderWorksheets(lesson, options, &files);
        QCOMPARE(r.status, ExportStatus::InvalidDocument);
        QCOMPARE(r.line, 15);
        QVERIFY2(r.error.contains(QRegularExpression(QStringLiteral(
                     "^variant \\d: quiz q: claim is false: near\\(c.X0\\[0\\]\\[0\\], 1\\) "
                     "\\(-?\\d\\.0000 vs 1.0000\\)$"))),
                 qPrintable(r.error));
    }

    // The key explains each variant with that variant's numbers: the bound explanation
    // equals the variant's own share, recomputed from its cells.
    void theKeyExplainsEachVariantWithItsNumbers() {
        const QString markdown = QStringLiteral(
            "# T\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
            "worksheet:\n  blank: [weights]\n  vary:\n    vocab: {min: -2, max: 2}\n```\n\n"
            "```quiz q\nquestion: What share does a give itself?\n"
            "answer: \"{{c.head[0].weights[0][0]}}\"\n"
            "explain: \"Here it is {{c.head[0].weights[0][0]:4}} because the score is "
            "{{c.head[0].scores[0][0]:2}}.\"\n```\n");
        const Lesson lesson = lessonFrom(markdown);
        for (int number = 1; number <= 3; ++number) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson, 11, number, 3, &v).ok());
            const AttentionResult& r = *v.results.cell("c")->attention;
            WorksheetOptions options;
            options.variants = 3;
            options.seed = 11;
            options.answers = true;
            WorksheetFiles files;
            QVERIFY(renderWorksheets(lesson, options, &files).ok());
            const QString key = pdfPageTexts(files.answers).join(u' ').simplified();
            const QString expected = QStringLiteral("Here it is %1 because the score is %2.")
                                         .arg(r.head[0].weight(0, 0), 0, 'f', 4)
                                         .arg(r.head[0].score(0, 0), 0, 'f', 2);
            QVERIFY2(key.contains(expected), qPrintable(expected + " | " + key));
        }
    }

    // documents/attention.md, five variants of seed 11: every worked explanation in the key
    // carries its own variant's numbers, recomputed here from that variant's cells.
    void theLessonsKeyExplainsEachVariantWithItsNumbers() {
        WorksheetOptions options;
        options.variants = 5;
        options.seed = 11;
        options.answers = true;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        const QString key = pdfPageTexts(files.answers).join(u' ').simplified();
        // As a binding prints: fixed digits, no minus on a zero.
        const auto shown = [](double x, int digits) {
            QString s = QString::number(x, 'f', digits);
            return s.toDouble() == 0.0 ? QString::number(0.0, 'f', digits) : s;
        };
        for (int number = 1; number <= 5; ++number) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson_, 11, number, 5, &v).ok());
            const AttentionResult& colour = *v.results.cell("colour")->attention;
            const AttentionResult& two = *v.results.cell("two_heads")->attention;
            const AttentionResult& causal = *v.results.cell("causal")->attention;
            const QStringList expected = {
                // blue_self_score: the dot product, then the scaled score, at digits that show
                // a draw in quarters whole (a sum of products of quarters is in sixteenths).
                QStringLiteral("so their dot product is %1.")
                    .arg(shown(colour.head[0].score(1, 1) / colour.scale, 4)),
                QStringLiteral("which gives %1.").arg(shown(colour.head[0].score(1, 1), 4)),
                // two_heads_blue: blue's own exponential over the three, and its share.
                QStringLiteral("%1 / (%2 + %1 + %3) = %4.")
                    .arg(shown(std::exp(two.head[0].score(1, 1)), 4),
                         shown(std::exp(two.head[0].score(1, 0)), 4),
                         shown(std::exp(two.head[0].score(1, 2)), 4),
                         shown(two.head[0].weight(1, 1), 4)),
                // causal_blue: the first red's exponential over the two blue may read.
                QStringLiteral("%1 / (%1 + %2) = %3.")
                    .arg(shown(std::exp(causal.head[0].score(1, 0)), 4),
                         shown(std::exp(causal.head[0].score(1, 1)), 4),
                         shown(causal.head[0].weight(1, 0), 4)),
            };
            for (const QString& e : expected) {
                QVERIFY2(key.contains(e),
                         qPrintable(QStringLiteral("variant %1: %2").arg(number).arg(e)));
            }
        }
    }

    // Every variant showed the choices in the written order (7 of 8 keys
    // were "B"). Each variant now shuffles them, the right one on another letter than the
    // variant before, and its key names the letter its sheet shows, with the right words.
    void choicesAreShuffledPerVariantAndTheKeyFollows() {
        QCOMPARE(choiceOrder("q", 1, 3, 42, 0), (std::vector<size_t>{0, 1, 2})); // as written
        for (int variant = 1; variant <= 6; ++variant) {
            std::vector<size_t> order = choiceOrder("q", 1, 4, 42, variant);
            const std::vector<size_t> previous = choiceOrder("q", 1, 4, 42, variant - 1);
            QCOMPARE(order, choiceOrder("q", 1, 4, 42, variant)); // reproducible
            const auto place = [](const std::vector<size_t>& o) {
                return std::find(o.begin(), o.end(), size_t(1)) - o.begin();
            };
            if (variant > 1) {
                QVERIFY(place(order) != place(previous));
            }
            std::sort(order.begin(), order.end());
            QCOMPARE(order, (std::vector<size_t>{0, 1, 2, 3})); // a permutation
        }

        // attention.md, 3 variants: each multiple-choice question's right letter differs
        // across them, and each key's letter is the one beside the right words on its sheet.
        WorksheetOptions options;
        options.variants = 3;
        options.seed = 5;
        options.answers = true;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        const QString key = pdfPageTexts(files.answers).join(u' ').simplified();
        static const QRegularExpression answer(QStringLiteral("Answer: ([A-D])\\. ([^.]{4,30})"));
        QStringList letters;
        for (auto it = answer.globalMatch(key); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            letters << m.captured(1);
            // The sheet's line "☒ X. words" shows the same letter beside the same words.
            QVERIFY2(key.contains(QStringLiteral("☒ %1. %2").arg(m.captured(1), m.captured(2))),
                     qPrintable(m.captured(0)));
        }
        QVERIFY2(letters.size() >= 3, qPrintable(letters.join(u',')));
        const int questions = int(letters.size()) / 3;
        for (int q = 0; q < questions; ++q) {
            const QSet<QString> across{letters[q], letters[q + questions],
                                       letters[q + 2 * questions]};
            QVERIFY2(across.size() > 1, qPrintable(letters.join(u',')));
        }
    }

    void cancelStopsAndWritesNothing() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("w.pdf"));
        std::atomic<bool> cancel{true};
        ExportControl control;
        control.cancel = &cancel;
        WorksheetOptions options;
        options.variants = 5;
        QCOMPARE(
            exportWorksheets(lesson_, options, out, dir.filePath(QStringLiteral("k.pdf")), control)
                .status,
            ExportStatus::Cancelled);
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

  private:
    Lesson lesson_;
};

QTEST_MAIN(TestWorksheet)
#include "test_worksheet.moc"
