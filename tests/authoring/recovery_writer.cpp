// A stand-in for an attnbook window that autosaves: it writes recovery
// copies of LESSON as fast as it can (version 1, 2, 3, ... each a few
// hundred kilobytes) until it is killed. The test kills it with SIGKILL
// at an arbitrary moment and then checks what was left behind.
#include "files/recovery_store.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: recovery_writer FOLDER LESSON\n");
        return 2;
    }
    const attnbook::RecoveryStore store(QString::fromLocal8Bit(argv[1]));
    const QString lesson = QString::fromLocal8Bit(argv[2]);
    for (int version = 1;; ++version) {
        // A whole copy is "# version N\n" followed by filler ending in "END\n".
        QByteArray bytes = "# version " + QByteArray::number(version) + "\n";
        bytes += QByteArray(300000, 'x') + "\nEND\n";
        QString error;
        if (!store.write(lesson, bytes, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        if (version == 1) {
            std::printf("ready\n");
            std::fflush(stdout);
        }
    }
}
