// Bundles: the round trip, failed writes, and one crafted zip per unsafe case of
// reliability.md 15-21, each refused with its message and without writing anything.
// Longer than 500 lines on purpose: one crafted zip per unsafe case, sharing the zip writer at
// the top.
#include "tests/test_files.h"

#include "exports/bundle/bundle_writer.h"
#include "files/bundle_reader.h"

#include <quazip/quacrc32.h>
#include <quazip/quazip.h>
#include <quazip/quazipfileinfo.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QDirIterator>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <optional>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace attnbook;

namespace {

// ---- raw zip bytes, for what QuaZip will not write ----

struct RawEntry {
    RawEntry(QByteArray n, QByteArray d = {}) : name(std::move(n)), data(std::move(d)) {}
    RawEntry& deflated() {
        deflate = true;
        return *this;
    }
    RawEntry& withMethod(quint16 m) {
        method = m;
        return *this;
    }
    RawEntry& withFlags(quint16 f) {
        flags = f;
        return *this;
    }
    RawEntry& withAttributes(quint32 external, quint16 madeBy = (3 << 8) | 20) {
        externalAttr = external;
        versionMadeBy = madeBy;
        return *this;
    }
    RawEntry& declaring(quint32 size) {
        declaredSize = size;
        return *this;
    }
    RawEntry& withPayload(QByteArray p) {
        payload = std::move(p);
        return *this;
    }

    QByteArray name; // as stored: UTF-8 unless flags say otherwise
    QByteArray data; // the entry's bytes
    bool deflate = false;
    std::optional<quint16> method;         // default: 8 when deflate, else 0
    quint16 flags = 0x0800;                // bit 11: UTF-8 names
    quint32 externalAttr = 0100644u << 16; // unix regular file
    quint16 versionMadeBy = (3 << 8) | 20; // unix, 2.0
    std::optional<quint32> declaredSize;   // a lie about the uncompressed size
    std::optional<QByteArray> payload;     // a lie about the compressed bytes
};

QByteArray rawDeflate(const QByteArray& data) {
    const QByteArray zlib = qCompress(data, 9); // length, 2-byte header, deflate, Adler-32
    return zlib.sliced(6, zlib.size() - 10);
}

QByteArray rawZip(const std::vector<RawEntry>& entries) {
    QByteArray zip;
    QByteArray central;
    QDataStream out(&zip, QIODevice::WriteOnly);
    out.setByteOrder(QDataStream::LittleEndian);
    QDataStream dir(&central, QIODevice::WriteOnly);
    dir.setByteOrder(QDataStream::LittleEndian);
    for (const RawEntry& e : entries) {
        const QByteArray payload = e.payload ? *e.payload : e.deflate ? rawDeflate(e.data) : e.data;
        const quint16 method = e.method ? *e.method : e.deflate ? 8 : 0;
        const quint32 crc = QuaCrc32().calculate(e.data);
        const quint32 size = e.declaredSize ? *e.declaredSize : quint32(e.data.size());
        const auto offset = quint32(zip.size());
        const quint16 time = 0, date = (0 << 9) | (1 << 5) | 1; // 1980-01-01
        out << quint32(0x04034b50) << quint16(20) << e.flags << method << time << date << crc
            << quint32(payload.size()) << size << quint16(e.name.size()) << quint16(0);
        out.writeRawData(e.name.constData(), int(e.name.size()));
        out.writeRawData(payload.constData(), int(payload.size()));
        dir << quint32(0x02014b50) << e.versionMadeBy << quint16(20) << e.flags << method << time
            << date << crc << quint32(payload.size()) << size << quint16(e.name.size())
            << quint16(0) << quint16(0) << quint16(0) << quint16(0) << e.externalAttr << offset;
        dir.writeRawData(e.name.constData(), int(e.name.size()));
    }
    const auto dirOffset = quint32(zip.size());
    out.writeRawData(central.constData(), int(central.size()));
    out << quint32(0x06054b50) << quint16(0) << quint16(0) << quint16(entries.size())
        << quint16(entries.size()) << quint32(central.size()) << dirOffset << quint16(0);
    return zip;
}

QString sha256(const QByteArray& bytes) {
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

// A manifest listing ENTRIES (their names as UTF-8) with their true hashes.
QByteArray manifestFor(const std::vector<RawEntry>& entries, int format = 1) {
    QJsonObject hashes;
    for (const RawEntry& e : entries)
        hashes.insert(QString::fromUtf8(e.name), sha256(e.data));
    return QJsonDocument(QJsonObject{{"format", format},
                                     {"title", "Attention"},
                                     {"app_version", "0.1.0"},
                                     {"created", "2024-05-01T12:00:00Z"},
                                     {"entries", hashes}})
        .toJson();
}

RawEntry manifestEntry(const QByteArray& json) {
    return RawEntry("manifest.json", json).deflated();
}

RawEntry lessonEntry() {
    return RawEntry("lesson.md", "# Attention\n\nA lesson.\n").deflated();
}

// manifest.json (listing exactly ENTRIES) + ENTRIES: a bundle wrong only in what ENTRIES carry.
QByteArray bundleOf(std::vector<RawEntry> entries) {
    const QByteArray manifest = manifestFor(entries);
    entries.insert(entries.begin(), manifestEntry(manifest));
    return rawZip(entries);
}

QByteArray randomBytes(qsizetype n) {
    QByteArray bytes(n, Qt::Uninitialized);
    QRandomGenerator rng(42);
    for (char& c : bytes)
        c = char(rng.bounded(256));
    return bytes;
}

// Every path under DIR with its size and modification time: what "nothing written" compares.
QStringList snapshot(const QString& dir) {
    QStringList rows;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        rows << QStringLiteral("%1 %2 %3")
                    .arg(QDir(dir).relativeFilePath(info.filePath()))
                    .arg(info.size())
                    .arg(info.lastModified().toMSecsSinceEpoch());
    }
    rows.sort();
    return rows;
}

BundleMetadata metadata() {
    return {"Attention, step by step", "0.1.0",
            QDateTime(QDate(2024, 5, 1), QTime(12, 0), Qt::UTC)};
}

std::vector<BundleEntry> sampleEntries() {
    return {
        {"lesson.md", "# Attention\n\nSoftmax of scores, then a weighted sum.\n"},
        {"data/café.json", R"({"id": "colour", "tokens": ["red", "blue", "red"]})"},
        {"data/colour/P.csv", "0.3837,0.2327,0.3837\n0.2741,0.4519,0.2741\n"},
        {"figures/colour-heatmap.png", randomBytes(3000)},
        {"figures/ключ-注意.png", QByteArray("\x89PNG\r\n\x1a\n\0\0", 10)},
        {"empty.txt", QByteArray()},
    };
}

// ---- the crafted zips of refused_data, one function a theme, called in this order ----

// One row of refused_data: the zip, the limits it is read with, and the message it must give.
void row(const char* tag, const QByteArray& zip, const QString& message,
         int maxEntries = BundleLimits{}.maxEntries,
         qint64 maxTotal = BundleLimits{}.maxTotalBytes) {
    QTest::newRow(tag) << zip << maxEntries << maxTotal << message;
}

// A bundle of the lesson and one entry named `name`.
QByteArray named(const QByteArray& name) {
    return bundleOf({lessonEntry(), RawEntry(name, "x")});
}

// Entry names that leave the bundle's folder, links and special files.
void namesAndLinksRefused() {
    // 15. Names that leave the folder.
    row("dot dot", named("../x"),
        "entry \"../x\": a \"..\" part: entries must stay inside the bundle");
    row("deep dot dot", named("data/../../x"), "entry \"data/../../x\": a \"..\" part");
    row("absolute", named("/etc/x"), "entry \"/etc/x\": an absolute path");
    row("backslash dot dot", named("..\\x"), "entry \"..\\x\": a \"..\" part");
    row("drive letter", named("C:/x"), "entry \"C:/x\": a drive letter");
    row("unc path", named("\\\\server\\x"), "entry \"\\\\server\\x\": an absolute path");
    row("backslash", named("data\\x.json"), "entry \"data\\x.json\": a backslash");
    row("dot", named("./lesson2.md"), "entry \"./lesson2.md\": not a plain relative path");
    row("control character", named("a\x01z"), "entry \"a\\x01z\": the name holds a control");
    row("invalid utf-8", named("caf\xe9.json"), "the name is not valid UTF-8");

    // 16. Links and special files.
    row("symlink",
        bundleOf({lessonEntry(), RawEntry("link", "/etc/passwd").withAttributes(0120777u << 16)}),
        "entry \"link\" is a symbolic link: links are refused");
    row("fifo", bundleOf({lessonEntry(), RawEntry("pipe").withAttributes(0010644u << 16)}),
        "entry \"pipe\" is a special file (unix mode 010644)");
    row("device", bundleOf({lessonEntry(), RawEntry("dev").withAttributes(0020644u << 16)}),
        "entry \"dev\" is a special file (unix mode 020644)");
}

// 17. Bombs: entry count, declared sizes, ratio, and sizes that lie.
void bombsRefused() {
    const BundleLimits defaults;
    row("too many entries",
        bundleOf({lessonEntry(), RawEntry("a", "1"), RawEntry("b", "2"), RawEntry("c", "3")}),
        "holds 5 entries, over the limit of 3", 3);
    row("huge declared size",
        bundleOf(
            {lessonEntry(), RawEntry("data/big.bin", randomBytes(100)).declaring(0xfffffff0u)}),
        "entry \"data/big.bin\" declares 4.0 GiB uncompressed, over the limit of 256.0 MiB");
    row("declared total",
        bundleOf({lessonEntry(), RawEntry("a.bin", randomBytes(400 << 10)),
                  RawEntry("b.bin", randomBytes(400 << 10)),
                  RawEntry("c.bin", randomBytes(400 << 10))}),
        "the entries declare 1.2 MiB uncompressed in total, over the limit of 1.0 MiB",
        defaults.maxEntries, 1 << 20);
    row("ratio",
        bundleOf({lessonEntry(), RawEntry("data/zeros.csv", QByteArray(1 << 20, '\0')).deflated()}),
        "entry \"data/zeros.csv\" declares 1.0 MiB uncompressed from");
    {
        // Declares 100 000 bytes (ratio under the cap) but inflates to 1 MiB: reading stops
        // at the declared size and the CRC of the whole does not match.
        const QByteArray zeros(1 << 20, '\0');
        row("size smaller than the data",
            rawZip({manifestEntry(manifestFor({})), lessonEntry(),
                    RawEntry("data/zeros.csv", zeros).deflated().declaring(100000)}),
            "entry \"data/zeros.csv\" is corrupt: its data does not match its CRC");
        row("size larger than the data",
            bundleOf({lessonEntry(), RawEntry("data/short.csv", "12345").declaring(600)}),
            "entry \"data/short.csv\" is corrupt: 5 bytes instead of the declared 600");
    }
}

// Entries twice over, encrypted, or compressed by a method not supported.
void duplicatesAndMethodsRefused() {
    // 18. Duplicates.
    row("duplicate",
        rawZip({manifestEntry(manifestFor({lessonEntry()})), lessonEntry(), lessonEntry()}),
        "entry \"lesson.md\" appears twice");
    row("duplicate by case", bundleOf({lessonEntry(), RawEntry("Lesson.md", "other")}),
        "entries \"lesson.md\" and \"Lesson.md\" differ only in case or Unicode form");
    row("duplicate by unicode form",
        bundleOf(
            {lessonEntry(), RawEntry("caf\xc3\xa9.json", "1"), RawEntry("cafe\xcc\x81.json", "2")}),
        "entries \"café.json\" and \"cafe\u0301.json\" differ only in case or Unicode form");

    // 19. Encryption and unknown methods.
    row("encrypted", bundleOf({RawEntry("lesson.md", "# L\n").withFlags(0x0801)}),
        "entry \"lesson.md\" is encrypted: encrypted bundles are not supported");
    row("bzip2", bundleOf({RawEntry("lesson.md", "# L\n").withMethod(12)}),
        "entry \"lesson.md\" uses compression method 12: not supported");
}

// 20. Truncated or corrupt zips and manifests. A QVERIFY2 that fails here ends the rows, the
// last of refused_data, as it ended refused_data before.
void corruptZipsRefused() {
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("whole.zip");
        QString error;
        QVERIFY2(writeBundle(path, metadata(), sampleEntries(), &error), qPrintable(error));
        const QByteArray whole = readAll(path);
        const QString notZip = "not a zip file, or it is truncated or corrupt";
        row("truncated", whole.left(whole.size() * 6 / 10), notZip);
        row("truncated directory", whole.left(whole.size() - 30), notZip);
    }
    row("not a zip", "# Attention\n\nJust markdown.\n", "not a zip file");
    row("empty file", QByteArray(), "not a zip file");
    {
        const QByteArray text = QByteArray("The shares of one row sum to one. ").repeated(50);
        QByteArray payload = rawDeflate(text);
        for (qsizetype i = payload.size() / 3; i < payload.size() / 3 + 8; ++i)
            payload[i] = char(payload[i] ^ 0x5a);
        const RawEntry corrupt = RawEntry("lesson.md", text).deflated().withPayload(payload);
        row("corrupt data", bundleOf({corrupt}), "entry \"lesson.md\" is corrupt");
    }
    row("no manifest", rawZip({lessonEntry()}), "no manifest.json: not an attnbook bundle");
    row("manifest not json", rawZip({manifestEntry("{\"format\": 1, "), lessonEntry()}),
        "manifest.json is not valid JSON");
    row("manifest not an object", rawZip({manifestEntry("[1]"), lessonEntry()}),
        "manifest.json is not a JSON object");
    row("manifest format 2",
        rawZip({manifestEntry(manifestFor({lessonEntry()}, 2)), lessonEntry()}),
        "manifest.json has format 2; this attnbook reads format 1");
    {
        RawEntry changed = lessonEntry();
        changed.data = "# Attention\n\nA changed lesson.\n";
        row("sha256 mismatch", rawZip({manifestEntry(manifestFor({lessonEntry()})), changed}),
            "entry \"lesson.md\" does not match its sha256 in manifest.json");
    }
    row("not in manifest",
        rawZip({manifestEntry(manifestFor({lessonEntry()})), lessonEntry(),
                RawEntry("data/extra.json", "{}")}),
        "entry \"data/extra.json\" is not listed in manifest.json");
    row("missing from zip",
        rawZip({manifestEntry(manifestFor({lessonEntry(), RawEntry("figures/gone.png", "png")})),
                lessonEntry()}),
        "manifest.json lists \"figures/gone.png\", which is not in the bundle");
}

} // namespace

class TestBundle : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    void roundTrip() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("lesson.zip");
        const std::vector<BundleEntry> entries = sampleEntries();
        QString error;
        QVERIFY2(writeBundle(path, metadata(), entries, &error), qPrintable(error));

        const QStringList before = snapshot(tmp.path());
        const std::optional<Bundle> bundle = readBundle(path, &error);
        QVERIFY2(bundle, qPrintable(error));
        QCOMPARE(snapshot(tmp.path()), before);
        QCOMPARE(bundle->entries.size(), entries.size());
        for (const BundleEntry& e : entries) {
            QVERIFY2(bundle->entries.contains(e.name), qPrintable(e.name));
            QCOMPARE(bundle->entries.at(e.name), e.bytes);
            QCOMPARE(bundle->manifest["entries"].toObject()[e.name].toString(), sha256(e.bytes));
        }
        QCOMPARE(bundle->lesson(), entries[0].bytes);
        QCOMPARE(bundle->manifest["format"].toInt(), 1);
        QCOMPARE(bundle->manifest["title"].toString(), "Attention, step by step");
        QCOMPARE(bundle->manifest["app_version"].toString(), "0.1.0");
        QCOMPARE(bundle->manifest["created"].toString(), "2024-05-01T12:00:00Z");
        QCOMPARE(bundle->manifest["entries"].toObject().size(), qsizetype(entries.size()));
    }

    // manifest.json first, every name flagged UTF-8, as an ordinary zip reader sees it.
    void layoutSeenByQuaZip() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("lesson.zip");
        QString error;
        QVERIFY2(writeBundle(path, metadata(), sampleEntries(), &error), qPrintable(error));
        QuaZip zip(path);
        QVERIFY(zip.open(QuaZip::mdUnzip));
        const QList<QuaZipFileInfo64> infos = zip.getFileInfoList64();
        QCOMPARE(infos.size(), qsizetype(sampleEntries().size() + 1));
        QCOMPARE(infos[0].name, "manifest.json");
        QStringList names;
        for (const QuaZipFileInfo64& info : infos) {
            names << info.name;
            QVERIFY2(info.flags & 0x0800, qPrintable(info.name));
            QCOMPARE((info.externalAttr >> 16) & 0170000, 0100000u);
        }
        QVERIFY(names.contains("data/café.json"));
        QVERIFY(names.contains("figures/ключ-注意.png"));
    }

    // A big block of zeros deflates past the ratio cap and noise does not shrink: the writer
    // stores both, deflates the rest, and the bundle reads back.
    void storedOrDeflatedAsFits() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("big.zip");
        QByteArray numbers;
        QRandomGenerator rng(7);
        for (int i = 0; i < 20000; ++i)
            numbers += QByteArray::number(rng.generateDouble(), 'f', 4) + ',';
        const std::vector<BundleEntry> entries{{"lesson.md", "# L\n"},
                                               {"data/zeros.csv", QByteArray(4 << 20, '0')},
                                               {"data/numbers.csv", numbers},
                                               {"figures/noise.png", randomBytes(1 << 20)}};
        QString error;
        QVERIFY2(writeBundle(path, metadata(), entries, &error), qPrintable(error));
        const std::optional<Bundle> bundle = readBundle(path, &error);
        QVERIFY2(bundle, qPrintable(error));
        for (const BundleEntry& e : entries)
            QCOMPARE(bundle->entries.at(e.name), e.bytes);

        QuaZip zip(path);
        QVERIFY(zip.open(QuaZip::mdUnzip));
        QMap<QString, quint16> methods;
        for (const QuaZipFileInfo64& info : zip.getFileInfoList64())
            methods[info.name] = info.method;
        QCOMPARE(methods["data/zeros.csv"], 0);
        QCOMPARE(methods["figures/noise.png"], 0);
        QCOMPARE(methods["data/numbers.csv"], 8);
        QCOMPARE(methods["manifest.json"], 8);
    }

    void writerRefusesTooManyEntries() {
        QTemporaryDir tmp;
        std::vector<BundleEntry> entries;
        for (int i = 0; i < BundleLimits{}.maxEntries; ++i)
            entries.push_back({QStringLiteral("data/%1.json").arg(i), "{}"});
        QString error;
        QVERIFY(!writeBundle(tmp.filePath("many.zip"), metadata(), entries, &error));
        QCOMPARE(error, tmp.filePath("many.zip") +
                            ": cannot write 10001 entries: over the limit of 10000");
        QCOMPARE(snapshot(tmp.path()), QStringList());
    }

    void overwritesAnEarlierBundle() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("lesson.zip");
        QVERIFY(writeAll(path, "an older bundle"));
        QString error;
        QVERIFY2(writeBundle(path, metadata(), sampleEntries(), &error), qPrintable(error));
        QVERIFY2(readBundle(path, &error), qPrintable(error));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), QStringList{"lesson.zip"});
    }

    void failedWrites_data() {
        QTest::addColumn<QString>("target"); // relative to the temporary folder
        QTest::addColumn<QString>("message");
        QTest::newRow("parent is a file")
            << QString("notes.txt/lesson.zip") << QString("notes.txt is not a folder");
        QTest::newRow("missing folder")
            << QString("missing/lesson.zip") << QString("missing does not exist");
        QTest::newRow("target is a folder") << QString("folder.zip") << QString("it is a folder");
    }
    void failedWrites() {
        QFETCH(QString, target);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        QVERIFY(writeAll(tmp.filePath("notes.txt"), "notes"));
        QVERIFY(QDir(tmp.path()).mkdir("folder.zip"));
        const QStringList before = snapshot(tmp.path());
        const QString path = tmp.filePath(target);
        QString error;
        QVERIFY(!writeBundle(path, metadata(), sampleEntries(), &error));
        QVERIFY2(error.startsWith(path + ": cannot write: "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
        QCOMPARE(snapshot(tmp.path()), before);
    }

    // Entries the reader would refuse are refused by the writer before anything is created.
    void refusedEntriesLeaveTheTargetAlone_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("dot dot") << QString("../x.json")
                                 << QString("cannot write entry \"../x.json\": a \"..\" part");
        QTest::newRow("absolute") << QString("/etc/x")
                                  << QString("cannot write entry \"/etc/x\": an absolute path");
        QTest::newRow("manifest")
            << QString("manifest.json")
            << QString("cannot write entry \"manifest.json\": the name is reserved");
        QTest::newRow("case twin")
            << QString("LESSON.md")
            << QString("entries \"lesson.md\" and \"LESSON.md\": names differing only in case");
        QTest::newRow("folder") << QString("data/") << QString("a folder name");
        QTest::newRow("twice") << QString("lesson.md")
                               << QString("entry \"lesson.md\": it appears twice");
        QTest::newRow("empty") << QString("") << QString("the name is empty");
    }
    void refusedEntriesLeaveTheTargetAlone() {
        QFETCH(QString, name);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("lesson.zip");
        QString error;
        QVERIFY2(writeBundle(path, metadata(), sampleEntries(), &error), qPrintable(error));
        const QByteArray original = readAll(path);
        const QStringList before = snapshot(tmp.path());
        std::vector<BundleEntry> entries = sampleEntries();
        entries.push_back({name, "x"});
        QVERIFY(!writeBundle(path, metadata(), entries, &error));
        QVERIFY2(error.startsWith(path + ": "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
        QCOMPARE(readAll(path), original);
        QCOMPARE(snapshot(tmp.path()), before);
    }

    // A write that fails half way (a full disk, here a file-size limit): the earlier bundle
    // is byte-identical and no temporary file is left. Root ignores permissions, not RLIMIT_FSIZE.
    void failureHalfWayKeepsTheEarlierBundle() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("lesson.zip");
        QString error;
        QVERIFY2(writeBundle(path, metadata(), sampleEntries(), &error), qPrintable(error));
        const QByteArray original = readAll(path);
        const QStringList before = snapshot(tmp.path());

        std::vector<BundleEntry> entries = sampleEntries();
        entries.push_back({"figures/noise.png", randomBytes(1 << 20)});
        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 64 * 1024;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const bool written = writeBundle(path, metadata(), entries, &error);
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, oldHandler);

        QVERIFY(!written);
        QVERIFY2(error.startsWith(path + ": cannot write"), qPrintable(error));
        QVERIFY2(error.contains("too large", Qt::CaseInsensitive), qPrintable(error));
        QCOMPARE(readAll(path), original);
        QCOMPARE(snapshot(tmp.path()), before);
    }

    void acceptedOddities_data() {
        QTest::addColumn<QByteArray>("zip");
        QTest::addColumn<QString>("name");
        // Written by tools that leave the UTF-8 flag off but write UTF-8 anyway.
        RawEntry unflagged = RawEntry("data/café.json", "{}").withFlags(0);
        QTest::newRow("utf-8 name without the flag")
            << bundleOf({lessonEntry(), unflagged}) << QString("data/café.json");
        // MS-DOS made: no unix mode, the archive attribute.
        RawEntry dos = RawEntry("data/a.csv", "1,2\n").withAttributes(0x20, 20);
        QTest::newRow("ms-dos attributes")
            << bundleOf({lessonEntry(), dos}) << QString("data/a.csv");
        // Folder entries are allowed and skipped.
        RawEntry folder = RawEntry("data/").withAttributes((040755u << 16) | 0x10);
        RawEntry file = RawEntry("data/b.csv", "3\n");
        std::vector<RawEntry> withFolder{lessonEntry(), file};
        const QByteArray manifest = manifestFor(withFolder);
        QTest::newRow("folder entry")
            << rawZip({manifestEntry(manifest), folder, lessonEntry(), file})
            << QString("data/b.csv");
    }
    void acceptedOddities() {
        QFETCH(QByteArray, zip);
        QFETCH(QString, name);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("odd.zip");
        QVERIFY(writeAll(path, zip));
        QString error;
        const std::optional<Bundle> bundle = readBundle(path, &error);
        QVERIFY2(bundle, qPrintable(error));
        QVERIFY(bundle->entries.contains(name));
        QCOMPARE(bundle->entries.size(), std::size_t(2));
    }

    void refused_data() {
        QTest::addColumn<QByteArray>("zip");
        QTest::addColumn<int>("maxEntries");
        QTest::addColumn<qint64>("maxTotalBytes");
        QTest::addColumn<QString>("message");
        namesAndLinksRefused();
        bombsRefused();
        duplicatesAndMethodsRefused();
        corruptZipsRefused();
    }

    // Every unsafe zip is refused with its message, and readBundle writes nothing at all:
    // not in the zip's folder, not in the working folder.
    void refused() {
        QFETCH(QByteArray, zip);
        QFETCH(int, maxEntries);
        QFETCH(qint64, maxTotalBytes);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString path = tmp.filePath("crafted.zip");
        QVERIFY(writeAll(path, zip));
        const QStringList before = snapshot(tmp.path());
        const QString oldCurrent = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.path()));

        QString error;
        BundleLimits limits;
        limits.maxEntries = maxEntries;
        limits.maxTotalBytes = maxTotalBytes;
        const std::optional<Bundle> bundle = readBundle(path, &error, limits);

        QDir::setCurrent(oldCurrent);
        QVERIFY(!bundle);
        QVERIFY2(error.startsWith(path + ": "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable("expected: " + message + "\ngot: " + error));
        QVERIFY2(!error.contains("error 0"), qPrintable(error));
        QCOMPARE(snapshot(tmp.path()), before);
    }

    void refusedPaths() {
        QTemporaryDir tmp;
        QString error;
        QVERIFY(!readBundle(tmp.filePath("missing.zip"), &error));
        QCOMPARE(error, tmp.filePath("missing.zip") + ": no such file");
        QVERIFY(!readBundle(tmp.path(), &error));
        QCOMPARE(error, tmp.path() + ": is a folder, not a bundle");
        const QString fifo = tmp.filePath("pipe.zip");
        QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QVERIFY(!readBundle(fifo, &error)); // and no hang waiting for a writer
        QCOMPARE(error, fifo + ": is not a regular file (a device, pipe or socket)");
        QVERIFY(QFile::remove(fifo));
        QCOMPARE(snapshot(tmp.path()), QStringList());
    }

    // Several problems: all reported, one line each.
    void everyProblemIsReported() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath("bad.zip");
        QVERIFY(writeAll(path, bundleOf({lessonEntry(), RawEntry("../a", "1"), RawEntry("/b", "2"),
                                         RawEntry("l").withAttributes(0120777u << 16)})));
        QString error;
        QVERIFY(!readBundle(path, &error));
        const QStringList lines = error.split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].contains("\"../a\""));
        QVERIFY(lines[1].contains("\"/b\""));
        QVERIFY(lines[2].contains("\"l\" is a symbolic link"));
    }
};

QTEST_GUILESS_MAIN(TestBundle)
#include "test_bundle.moc"
