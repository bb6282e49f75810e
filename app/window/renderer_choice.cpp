#include "app/window/renderer_choice.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QQuickWindow>
#include <QSGRendererInterface>

namespace attnbook {

bool isCpuRasteriser(const QString& glRenderer) {
    // Mesa's names: "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer"
    // (the old swrast), "SWR" (OpenSWR); WSL's "D3D12 (Microsoft Basic Render Driver)". Whole
    // words only, and never "LLVM" alone: AMD's radeonsi names the LLVM it compiles with.
    static const char* const kCpuRasterisers[] = {"llvmpipe", "softpipe", "software rasterizer",
                                                  "swr", "microsoft basic render driver"};
    const QString name = glRenderer.toLower();
    for (const char* rasteriser : kCpuRasterisers) {
        const QString word = QLatin1String(rasteriser);
        for (qsizetype at = name.indexOf(word); at >= 0; at = name.indexOf(word, at + 1)) {
            const qsizetype end = at + word.size();
            const bool startsWord = at == 0 || !name.at(at - 1).isLetterOrNumber();
            const bool endsWord = end == name.size() || !name.at(end).isLetterOrNumber();
            if (startsWord && endsWord) {
                return true;
            }
        }
    }
    return false;
}

namespace {

QString& chosenSentence() {
    static QString sentence;
    return sentence;
}

// Whether the machine shows a GPU to this process: a DRM node (Mesa's drivers) or NVIDIA's
// device. Without one, OpenGL can only be a CPU rasteriser, and asking it which it is would
// cost the process LLVM's pages (about 55 MB), so the choice is made without asking.
bool gpuDeviceVisible() {
    const QStringList drmNodes =
        QDir(QStringLiteral("/dev/dri"))
            .entryList({QStringLiteral("renderD*"), QStringLiteral("card*")},
                       QDir::System | QDir::Files);
    return !drmNodes.isEmpty() || QFileInfo::exists(QStringLiteral("/dev/nvidia0"));
}

// GL_RENDERER of the OpenGL context Qt would draw with; empty when none can be made.
QString openGlRenderer() {
    QOffscreenSurface surface;
    surface.create();
    QOpenGLContext context;
    if (!context.create() || !context.makeCurrent(&surface)) {
        return {};
    }
    const auto* name = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    QString renderer = name ? QString::fromLatin1(name) : QString();
    context.doneCurrent();
    return renderer;
}

void drawInSoftware(const QString& why) {
    QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    chosenSentence() =
        QCoreApplication::translate("attnbook", "Drawn by Qt Quick's software renderer: %1.")
            .arg(why);
}

} // namespace

void chooseSceneGraphRenderer() {
    if (qEnvironmentVariableIsSet("QT_QUICK_BACKEND") ||
        qEnvironmentVariableIsSet("QSG_RHI_BACKEND")) {
        chosenSentence() = QCoreApplication::translate(
            "attnbook",
            "Drawn by the renderer the environment chose (QT_QUICK_BACKEND, QSG_RHI_BACKEND).");
        return;
    }
    if (!gpuDeviceVisible()) {
        drawInSoftware(QCoreApplication::translate("attnbook", "this machine shows no GPU"));
        return;
    }
    const QString renderer = openGlRenderer();
    if (renderer.isEmpty()) {
        drawInSoftware(QCoreApplication::translate("attnbook", "OpenGL is missing"));
    } else if (isCpuRasteriser(renderer)) {
        drawInSoftware(QCoreApplication::translate("attnbook", "OpenGL here runs on the CPU (%1)")
                           .arg(renderer));
    } else {
        chosenSentence() =
            QCoreApplication::translate("attnbook", "Drawn by the GPU through OpenGL (%1).")
                .arg(renderer);
    }
}

QString sceneGraphRendererSentence() {
    return chosenSentence();
}

} // namespace attnbook
