// Which renderer draws the window: Qt Quick's software renderer where OpenGL
// would be a CPU rasteriser, the GPU's OpenGL otherwise, and whatever the user's environment
// names before either.
#include "app/window/renderer_choice.h"

#include <QtQuick/QQuickWindow>
#include <QtTest>

using namespace attnbook;

class TestRendererChoice : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void cpuRasterisersAreKnownByName_data() {
        QTest::addColumn<QString>("glRenderer");
        QTest::addColumn<bool>("onTheCpu");
        QTest::newRow("llvmpipe") << "llvmpipe (LLVM 15.0.6, 256 bits)" << true;
        QTest::newRow("softpipe") << "softpipe" << true;
        QTest::newRow("swrast") << "Software Rasterizer" << true;
        QTest::newRow("OpenSWR") << "SWR (LLVM 7.0.1, 256 bits)" << true;
        QTest::newRow("WSL's WARP") << "D3D12 (Microsoft Basic Render Driver)" << true;
        QTest::newRow("Mesa Intel") << "Mesa Intel(R) UHD Graphics 620 (KBL GT2)" << false;
        QTest::newRow("radeonsi names LLVM")
            << "AMD Radeon RX 580 Series (polaris10, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)"
            << false;
        QTest::newRow("NVIDIA") << "NVIDIA GeForce GTX 1050/PCIe/SSE2" << false;
        QTest::newRow("VMware's host GPU") << "SVGA3D; build: RELEASE;  LLVM;" << false;
        QTest::newRow("virgl") << "virgl (Intel(R) Iris(R) Xe Graphics)" << false;
        QTest::newRow("a word that only starts like one") << "Radeon SWRX 9000" << false;
        QTest::newRow("nothing") << "" << false;
    }
    void cpuRasterisersAreKnownByName() {
        QFETCH(QString, glRenderer);
        QFETCH(bool, onTheCpu);
        QCOMPARE(isCpuRasteriser(glRenderer), onTheCpu);
    }

    void theEnvironmentsChoiceStands() {
        qputenv("QT_QUICK_BACKEND", "opengl");
        QQuickWindow::setSceneGraphBackend(QString());
        chooseSceneGraphRenderer();
        QCOMPARE(QQuickWindow::sceneGraphBackend(), QString());
        QVERIFY2(sceneGraphRendererSentence().contains(QLatin1String("QT_QUICK_BACKEND")),
                 qPrintable(sceneGraphRendererSentence()));
        qunsetenv("QT_QUICK_BACKEND");
    }

    // Offscreen there is no OpenGL context to make, or on this machine no GPU: either way the
    // software renderer draws, and About says why.
    void withoutAGpuTheSoftwareRendererDraws() {
        qunsetenv("QT_QUICK_BACKEND");
        qunsetenv("QSG_RHI_BACKEND");
        QQuickWindow::setSceneGraphBackend(QString());
        chooseSceneGraphRenderer();
        const QString sentence = sceneGraphRendererSentence();
        if (QQuickWindow::sceneGraphBackend() == QLatin1String("software")) {
            QVERIFY2(sentence.startsWith(QLatin1String("Drawn by Qt Quick's software renderer: ")),
                     qPrintable(sentence));
        } else {
            QVERIFY2(sentence.startsWith(QLatin1String("Drawn by the GPU through OpenGL (")),
                     qPrintable(sentence));
            QVERIFY(!isCpuRasteriser(sentence));
        }
        // The window drawn is drawn by what was chosen.
        QQuickWindow window;
        window.resize(64, 64);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.rendererInterface() != nullptr);
        QCOMPARE(window.rendererInterface()->graphicsApi() == QSGRendererInterface::Software,
                 QQuickWindow::sceneGraphBackend() == QLatin1String("software"));
    }
};

QTEST_MAIN(TestRendererChoice)
#include "test_renderer_choice.moc"
