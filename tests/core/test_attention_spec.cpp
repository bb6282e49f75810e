// The worked numbers of attention.md, pinned.
#include "attention_engine.h"

#include <QtTest>

using namespace attnbook;

namespace {

AttentionConfig colourExample() {
    AttentionConfig c;
    c.tokens = {"red", "blue", "red"};
    c.X0 = {{1, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    return c;
}

void expectNear(const arma::mat& actual, const arma::mat& expected, double tolerance) {
    QCOMPARE(actual.n_rows, expected.n_rows);
    QCOMPARE(actual.n_cols, expected.n_cols);
    for (arma::uword r = 0; r < expected.n_rows; ++r) {
        for (arma::uword c = 0; c < expected.n_cols; ++c) {
            if (std::abs(actual(r, c) - expected(r, c)) > tolerance) {
                QFAIL(qPrintable(QStringLiteral("(%1, %2): %3, expected %4")
                                     .arg(r).arg(c).arg(actual(r, c), 0, 'g', 17)
                                     .arg(expected(r, c), 0, 'g', 17)));
            }
        }
    }
}

} // namespace

class TestAttentionSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneHead() {
        const AttentionResult r = AttentionEngine().compute(colourExample());
        QCOMPARE(r.scale, 0.5);
        expectNear(r.head[0].weights(),
                   {{0.3837, 0.2327, 0.3837}, {0.2741, 0.4519, 0.2741}, {0.3837, 0.2327, 0.3837}},
                   5e-5);
        expectNear(r.output, {{0.7673, 0.2327, 0, 0}, {0.5481, 0.4519, 0, 0}, {0.7673, 0.2327, 0, 0}},
                   5e-5);
        QVERIFY(r.maxRelError < 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestAttentionSpec)
#include "test_attention_spec.moc"
