// Variants that differ: a class's variants do not share the answer to a numeric
// question where the ranges of worksheet.vary allow it; a count they cannot reach is refused
// with the reason, and `export --verbose` says how many different answers each question has;
// answers print with the same digits in every variant; the sheet id of a lesson with nothing to
// vary is its own; multiple-choice letters move between variants.
#include "app/cli/exit_code.h"
#include "core/document/cell_cost.h"
#include "exports/worksheet/worksheet_answers.h"
#include "exports/worksheet/worksheet_pdf.h"
#include "exports/worksheet/worksheet_variants.h"
#include "tests/exports/pdf_text.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace attnbook;

namespace {

const QString kAttention = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/attention.md");
const QString kTransformer = QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/transformer.md");

// attention.md with whole-number ranges, as it shipped before its ranges took quarters: the
// lesson these tests reason about (which answers its ranges allow, which counts are refused).
QByteArray wholeNumberAttention() {
    QFile file(kAttention);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().replace(", step: 0.25}", "}");
}

Lesson lessonFrom(const QString& markdown) {
    return parseLesson(markdown.toStdString(), "sheet.md");
}

// A lesson whose ranges allow 30 different answers: three tokens in [-3, 3]², one quiz on a
// share.
const char* const kWideLesson =
    "# Wide\n\n```attention c\ntokens: [a, b, c]\nvocab:\n  a: [1, 0]\n  b: [0, 1]\n"
    "  c: [1, 1]\nworksheet:\n  blank: [weights]\n  vary:\n    vocab: {min: -3, max: 3}\n```\n\n"
    "```quiz share\nquestion: What share does a give b?\n"
    "answer: \"{{c.head[0].weights[0][1]}}\"\n```\n";

std::map<std::string, QuestionSpread> byQuestion(const std::vector<QuestionSpread>& spread) {
    std::map<std::string, QuestionSpread> out;
    for (const QuestionSpread& q : spread) {
        out[q.question] = q;
    }
    return out;
}

struct Run {
    int code = -1;
    QString out, err;
};

Run runAttnbook(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(ATTNBOOK_BINARY), arguments);
    Run run;
    if (process.waitForFinished(120000) && process.exitStatus() == QProcess::NormalExit) {
        run.code = process.exitCode();
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

class TestWorksheetSpread : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() {
        const QByteArray whole = wholeNumberAttention();
        QVERIFY(whole.contains("vocab: {min: -2, max: 2}"));
        QVERIFY(dir_.isValid());
        wholePath_ = dir_.filePath(QStringLiteral("attention.md"));
        QFile out(wholePath_);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(whole) == whole.size());
        out.close();
        lesson_ = loadLesson(wholePath_.toStdString());
        QVERIFY(!hasErrors(lesson_.diagnostics));
    }

    // A teacher with a class of 30: the shipped lessons give 30 sheets on which every question
    // that varies has 30 different answers (their ranges take quarters: step 0.25).
    void thirtyVariantsOfTheShippedLessonsAllDiffer() {
        for (const QString& path : {kAttention, kTransformer}) {
            const Lesson shipped = loadLesson(path.toStdString());
            QVERIFY(!hasErrors(shipped.diagnostics));
            VariantPlan plan;
            const ExportResult r = planVariants(shipped, 1, 30, 30, &plan);
            QVERIFY2(r.ok(), qPrintable(path + QStringLiteral(": ") + r.error));
            QCOMPARE(int(plan.variants.size()), 30);
            for (const QuestionSpread& q : plan.spread) {
                QVERIFY2(q.distinct == 30, qPrintable(QStringLiteral("%1: %2 has %3")
                                                          .arg(path)
                                                          .arg(QString::fromStdString(q.question))
                                                          .arg(q.distinct)));
            }
        }
    }

    // Thirty variants of the whole-number attention.md drawn in order: every exercise gets 30
    // different answers; the three numeric quizzes get every answer the ranges allow (integers in
    // −2..2, scaled scores within ±3): blue's own score |blue|²/2 is 0.5, 1, …, 3 (6), blue's own
    // share in head one depends on one whole difference of dot products (7), and causal blue's
    // share on red on another (13). That is why `--variants 30` is refused (below).
    void thirtyVariantsOfTheLessonDiffer() {
        VariantPlan plan;
        QVERIFY(planVariants(lesson_, 1, 30, 0, &plan).ok());
        QCOMPARE(int(plan.variants.size()), 30);
        const auto spread = byQuestion(plan.spread);
        const std::map<std::string, std::pair<int, int>> expected = {
            // question: different answers among the 30, among every draw tried
            {"exercise colour", {30, -1}},   {"exercise two_heads", {30, -1}},
            {"exercise causal", {30, -1}},   {"quiz blue_self_score", {6, 6}},
            {"quiz two_heads_blue", {7, 7}}, {"quiz causal_blue", {13, 13}}};
        QCOMPARE(int(spread.size()), int(expected.size()));
        for (const auto& [question, counts] : expected) {
            QVERIFY2(spread.count(question), question.c_str());
            const QuestionSpread& q = spread.at(question);
            QVERIFY2(q.distinct == counts.first && (counts.second < 0 || q.found == counts.second),
                     qPrintable(QStringLiteral("%1: %2 of %3")
                                    .arg(QString::fromStdString(question))
                                    .arg(q.distinct)
                                    .arg(q.found)));
        }

        // The plan's answers are the variants' own: computed, each variant's key answer to blue's
        // score is one of the six, and the first six variants have all six.
        std::set<std::string> firstSix;
        for (int k = 1; k <= 6; ++k) {
            WorksheetVariant v;
            QVERIFY(computeVariant(lesson_, plan, k, 30, &v).ok());
            for (const SheetAnswer& a : variantAnswers(v)) {
                if (a.question == "quiz blue_self_score") {
                    firstSix.insert(a.text);
                }
            }
        }
        QCOMPARE(firstSix, (std::set<std::string>{"0.5000", "1.0000", "1.5000", "2.0000", "2.5000",
                                                  "3.0000"}));
    }

    // A variant takes the cells it does not draw from the lesson's own results instead of
    // computing them again (100 variants of transformer.md: 18 s, now 4): every variant so made
    // is the variant computed whole, cell for cell and to its hash.
    void aVariantTakesTheCellsItDoesNotDrawFromTheLesson() {
        for (const QString& path : {kAttention, kTransformer}) {
            const Lesson lesson = loadLesson(path.toStdString());
            QVERIFY(!hasErrors(lesson.diagnostics));
            AttentionEngine engine;
            const LessonResults own = computeLesson(lesson, engine);
            VariantPlan plan;
            QVERIFY(planVariants(lesson, 5, 8, 8, &plan).ok());
            for (int k = 0; k <= 8; ++k) {
                WorksheetVariant whole, reusing;
                QVERIFY(computeVariant(lesson, plan, k, 8, &whole).ok());
                QVERIFY(computeVariant(lesson, plan, k, 8, &reusing, &own).ok());
                QCOMPARE(reusing.hash, whole.hash);
                QCOMPARE(reusing.results.cells.size(), whole.results.cells.size());
                for (size_t c = 0; c < whole.results.cells.size(); ++c) {
                    QCOMPARE(reusing.results.cells[c].json.dump(),
                             whole.results.cells[c].json.dump());
                }
            }
        }
    }

    // Where the ranges allow it, no two of 30 variants share an answer.
    void thirtyVariantsShareNoAnswerWhereTheRangesAllow() {
        WorksheetOptions options;
        options.variants = 30;
        options.seed = 3;
        WorksheetFiles files;
        const Lesson wide = lessonFrom(QString::fromLatin1(kWideLesson));
        const ExportResult r = renderWorksheets(wide, options, &files);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const auto spread = byQuestion(files.spread);
        QCOMPARE(int(spread.size()), 2);
        QCOMPARE(spread.at("exercise c").distinct, 30);
        QCOMPARE(spread.at("quiz share").distinct, 30);
        // Each variant's key prints its own answer: 30 different "Answer: …" lines.
        const QString key = pdfPageTexts(files.answers).join(u' ');
        static const QRegularExpression answer(QStringLiteral("Answer: (\\d\\.\\d{4})"));
        QSet<QString> answers;
        for (auto it = answer.globalMatch(key); it.hasNext();) {
            answers.insert(it.next().captured(1));
        }
        QCOMPARE(answers.size(), 30);
    }

    // Every sheet's pages are laid out before the first is written, so their memory is charged
    // before anything is drawn: a roster of 1000 names for transformer.md held 1.27 GB. Over
    // --max-memory the export is refused with the estimate; the pages' memory is counted per
    // question (sheetsOverMemory), so half the limit lets through what fits in it.
    void sheetsBeyondTheMemoryLimitAreRefusedWithTheEstimate() {
        const CostLimits before = costLimits();
        CostLimits small = before;
        small.maxBytes = 1.5e6; // 15 questions' pages
        setCostLimits(small);
        WorksheetOptions options;
        options.variants = 5;
        options.answers = true;
        WorksheetFiles files;
        const Lesson wide = lessonFrom(QString::fromLatin1(kWideLesson));
        const ExportResult refused = renderWorksheets(wide, options, &files);
        options.variants = 7; // 7 sheets, no key, of 2 questions: 1.4 MB
        options.answers = false;
        const ExportResult fits = renderWorksheets(wide, options, &files);
        setCostLimits(before);
        QCOMPARE(refused.status, ExportStatus::Refused);
        QCOMPARE(refused.error, QStringLiteral("5 sheets and 5 keys of 2 questions each would hold "
                                               "about 1.9 MiB of memory (the limit is 1.4 MiB: "
                                               "--max-memory): ask for fewer"));
        QVERIFY2(fits.ok(), qPrintable(fits.error));
    }

    // A question that cannot reach N different answers refuses N variants, naming it, how many
    // it has, and what to ask for instead; as many as it has are drawn, all different.
    void tooManyVariantsAreRefusedWithTheReason() {
        WorksheetOptions options;
        options.variants = 30;
        WorksheetFiles files;
        const ExportResult r = renderWorksheets(lesson_, options, &files);
        QCOMPARE(r.status, ExportStatus::Refused);
        QVERIFY2(r.error.contains(QRegularExpression(QStringLiteral(
                     "^quiz blue_self_score has only 6 different answers within the ranges of "
                     "worksheet.vary \\(in \\d+ draws\\), quiz two_heads_blue only 7 \\(in "
                     "\\d+ draws\\), quiz causal_blue only 13 \\(in \\d+ draws\\), so 30 "
                     "variants cannot all differ: ask for at most 6 variants \\(a roster longer "
                     "than that takes them again from 1\\)$"))),
                 qPrintable(r.error));
        QVERIFY(files.worksheet.isEmpty());

        options.variants = 6;
        const ExportResult six = renderWorksheets(lesson_, options, &files);
        QVERIFY2(six.ok(), qPrintable(six.error));
        const auto spread = byQuestion(files.spread);
        for (const char* q : {"exercise colour", "exercise two_heads", "exercise causal",
                              "quiz blue_self_score", "quiz two_heads_blue", "quiz causal_blue"}) {
            QCOMPARE(spread.at(q).distinct, 6);
        }
        // The questions about nothing that varies have one answer, and say so (found 1).
        for (const char* q : {"quiz constant_gradient", "quiz doubling"}) {
            QCOMPARE(spread.at(q).distinct, 1);
            QCOMPARE(spread.at(q).found, 1);
        }
        QCOMPARE(int(spread.size()), 8);
    }

    // A variant depends on the ones before it only: drawn alone it is the variant of the set.
    void aVariantAloneIsTheVariantOfTheSet() {
        WorksheetOptions options;
        options.variants = 5;
        options.seed = 9;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        for (int k = 1; k <= 5; ++k) {
            WorksheetVariant v;
            QVERIFY(drawVariant(lesson_, 9, k, 5, &v).ok());
            QCOMPARE(v.hash, files.variantHashes[k - 1]);
        }
    }

    // Blue's own score is whole in some variants: the key still prints it at 4 decimals, as in
    // the others; a typed whole-number answer prints as typed.
    void answersPrintWithTheSameDigitsInEveryVariant() {
        WorksheetOptions options;
        options.variants = 6;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        const QString key = pdfPageTexts(files.answers).join(u' ');
        static const QRegularExpression bound(
            QStringLiteral("Answer: (\\S+) \\(within ± 0.001\\)"));
        int count = 0;
        for (auto it = bound.globalMatch(key); it.hasNext(); ++count) {
            const QString value = it.next().captured(1);
            QVERIFY2(value.contains(QRegularExpression(QStringLiteral("^−?\\d+\\.\\d{4}$"))),
                     qPrintable(value));
        }
        QCOMPARE(count, 6 * 3); // three bound quizzes, six variants
        QVERIFY(key.contains(QStringLiteral("Answer: 3.0000 (within ± 0.001)")));
        QVERIFY(key.contains(QStringLiteral("Answer: 4 The table has n × n entries")));

        QuizCellSpec quiz;
        quiz.answerKind = QuizCellSpec::AnswerKind::Binding;
        QCOMPARE(quizAnswerText(quiz, 3.0), std::string("3.0000"));
        quiz.answerDecimals = 1;
        QCOMPARE(quizAnswerText(quiz, 2.5), std::string("2.5"));
    }

    // An exercise's answer boxes print at 4 decimals even when every answer is whole (here
    // the scores of one coordinate, 1·1, 1·2 and 2·2): a key never says "2" where another
    // variant's says "2.5000".
    void wholeAnswerBoxesKeepTheirDigits() {
        const Lesson lesson = lessonFrom(
            QStringLiteral("# W\n\n```attention c\ntokens: [a, b]\nvocab:\n  a: [1]\n  b: [2]\n"
                           "worksheet:\n  blank: [scores]\n  max_score: 5\n```\n"));
        QVERIFY(!hasErrors(lesson.diagnostics));
        WorksheetFiles files;
        const ExportResult r = renderWorksheets(lesson, {}, &files);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QString key = pdfPageTexts(files.answers).join(u' ');
        QVERIFY2(key.contains(QStringLiteral("s = 1/√1 = 1 a b a b 1.0000 2.0000 2.0000 4.0000")),
                 qPrintable(key));
    }

    // The sheet id of a lesson with nothing to vary is a digest of what it asks, never that of
    // empty input (SHA-256 of "" starts e3b0c442), and two such lessons get different ids.
    void aLessonWithNothingToVaryHasAnIdOfItsOwn() {
        const QString quizOnly =
            QStringLiteral("# Q\n\n```quiz q\nquestion: How many heads?\nanswer: %1\n```\n");
        WorksheetVariant one, two;
        QVERIFY(drawVariant(lessonFrom(quizOnly.arg(2)), 1, 0, 0, &one).ok());
        QVERIFY(drawVariant(lessonFrom(quizOnly.arg(3)), 1, 0, 0, &two).ok());
        QCOMPARE(one.hash.size(), 8);
        QVERIFY(one.hash != QStringLiteral("e3b0c442"));
        QVERIFY(one.hash != two.hash);
        WorksheetVariant again;
        QVERIFY(drawVariant(lessonFrom(quizOnly.arg(2)), 1, 0, 0, &again).ok());
        QCOMPARE(again.hash, one.hash);
    }

    // Trip 12: in 3 variants, each multiple-choice question's right letter is not the same
    // letter on all three, and the keys do not give one letter most of the answers.
    void multipleChoiceLettersDifferAcrossVariants() {
        WorksheetOptions options;
        options.variants = 3;
        options.seed = 1;
        WorksheetFiles files;
        QVERIFY(renderWorksheets(lesson_, options, &files).ok());
        const QString key = pdfPageTexts(files.answers).join(u' ');
        static const QRegularExpression letter(QStringLiteral("Answer: ([A-D])\\."));
        QStringList letters;
        for (auto it = letter.globalMatch(key); it.hasNext();) {
            letters << it.next().captured(1);
        }
        const int questions = 5; // the multiple-choice quizzes of attention.md
        QCOMPARE(int(letters.size()), 3 * questions);
        std::map<QString, int> perLetter;
        for (int q = 0; q < questions; ++q) {
            const QSet<QString> across{letters[q], letters[q + questions],
                                       letters[q + 2 * questions]};
            QVERIFY2(across.size() > 1, qPrintable(letters.join(u',')));
        }
        for (const QString& l : letters) {
            ++perLetter[l];
        }
        // Within one sheet the right letters are not all one letter (FNV-1a alone put every
        // right answer of a variant under the same letter).
        for (int v = 0; v < 3; ++v) {
            const QStringList sheet = letters.mid(v * questions, questions);
            QVERIFY2(QSet<QString>(sheet.begin(), sheet.end()).size() > 1,
                     qPrintable(letters.join(u',')));
        }
        for (const auto& [l, n] : perLetter) {
            QVERIFY2(n <= int(letters.size()) / 2, qPrintable(letters.join(u',')));
        }
    }

    // The command line: a refusal is the usage code with the reason; --verbose reports each
    // question's different answers, and says why one has fewer than the variants.
    void theCommandLineRefusesAndReports() {
        QTemporaryDir dir;
        const QString sheet = dir.filePath(QStringLiteral("w.pdf"));
        const Run refused =
            runAttnbook({QStringLiteral("export"), wholePath_, QStringLiteral("--worksheet"), sheet,
                         QStringLiteral("--variants"), QStringLiteral("30")});
        QCOMPARE(refused.code, int(ExitUsage));
        QVERIFY2(refused.err.startsWith(
                     QStringLiteral("attnbook export: quiz blue_self_score has only 6 different "
                                    "answers")),
                 qPrintable(refused.err));
        QVERIFY(!QFile::exists(sheet));

        const Run six = runAttnbook(
            {QStringLiteral("export"), wholePath_, QStringLiteral("--worksheet"), sheet,
             QStringLiteral("--variants"), QStringLiteral("6"), QStringLiteral("--verbose")});
        QCOMPARE(six.code, int(ExitDone));
        const QStringList lines = six.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.contains(
                     QStringLiteral("  quiz blue_self_score: 6 different answers in 6 variants")),
                 qPrintable(six.out));
        QVERIFY2(lines.contains(QStringLiteral(
                     "  quiz doubling: 1 answer in 6 variants (the same in every variant: it is "
                     "about nothing that varies)")),
                 qPrintable(six.out));
        QCOMPARE(int(lines.size()), 1 + 8); // the worksheet's line, then eight questions

        // Nothing varies in guide.md: variants of it are a usage error, not exit 1.
        const Run guide = runAttnbook({QStringLiteral("export"),
                                       QStringLiteral(ATTNBOOK_SOURCE_DIR "/documents/guide.md"),
                                       QStringLiteral("--worksheet"), sheet,
                                       QStringLiteral("--variants"), QStringLiteral("3")});
        QCOMPARE(guide.code, int(ExitUsage));
        QVERIFY2(guide.err.contains(QStringLiteral("nothing in this lesson varies")),
                 qPrintable(guide.err));
        // --verbose goes with a worksheet.
        QCOMPARE(runAttnbook({QStringLiteral("export"), kAttention, QStringLiteral("--pdf"),
                              dir.filePath(QStringLiteral("l.pdf")), QStringLiteral("--verbose")})
                     .code,
                 int(ExitUsage));
    }

    // A roster longer than a question's different answers still gets a sheet per name; the
    // reason some students share an answer is said once, naming the questions and their counts.
    void aLongRosterGetsASheetEachAndTheReasonOnce() {
        const QString names = dir_.filePath(QStringLiteral("class.txt"));
        QFile list(names);
        QVERIFY(list.open(QIODevice::WriteOnly));
        for (int i = 1; i <= 10; ++i) {
            list.write(QStringLiteral("Student %1\n").arg(i).toUtf8());
        }
        list.close();
        const QString sheet = dir_.filePath(QStringLiteral("class.pdf"));
        const Run run =
            runAttnbook({QStringLiteral("export"), wholePath_, QStringLiteral("--worksheet"), sheet,
                         QStringLiteral("--roster"), names});
        QCOMPARE(run.code, int(ExitDone));
        const QString note = QStringLiteral(
            "note: 10 names, but quiz blue_self_score has only 6 different answers (quiz "
            "two_heads_blue 7) within the ranges of worksheet.vary, so some students share an "
            "answer: every name still gets a sheet of its own\n");
        QVERIFY2(run.out.contains(note), qPrintable(run.out));
        QCOMPARE(run.out.count(QStringLiteral("note: ")), 1);
        QFile csv(dir_.filePath(QStringLiteral("class-roster.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()).count(QStringLiteral("Student ")), 10);
        QFile pdf(sheet);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QStringList pages = pdfPageTexts(pdf.readAll());
        for (int i = 1; i <= 10; ++i) { // each name on a sheet
            QVERIFY(pages.join(u' ').contains(QStringLiteral("Student %1").arg(i)));
        }
    }

  private:
    QTemporaryDir dir_;
    QString wholePath_;
    Lesson lesson_;
};

QTEST_MAIN(TestWorksheetSpread)
#include "test_worksheet_spread.moc"
