#include "files/bundle_reader.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipfileinfo.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonParseError>
#include <QtCore/QLocale>
#include <QtCore/QStringList>

#include <algorithm>
#include <vector>

namespace attnbook {

// ---- the name rule, shared with the writer ----

QString bundleEntryNameProblem(const QString& name) {
    if (name.isEmpty())
        return QStringLiteral("the name is empty");
    for (const QChar c : name) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("the name holds a control character");
        if (c == QChar::ReplacementCharacter)
            return QStringLiteral("the name is not valid UTF-8");
    }
    const auto outside = QStringLiteral("%1: entries must stay inside the bundle");
    if (name.startsWith(u'/') || name.startsWith(u'\\'))
        return outside.arg(QStringLiteral("an absolute path"));
    if (name.size() >= 2 && name[1] == u':' && name[0].unicode() < 0x80 && name[0].isLetter())
        return outside.arg(QStringLiteral("a drive letter"));
    // A trailing '/' marks a folder; every other part must be a plain name. Backslashes count
    // as separators here so that "..\x" is named for what it is.
    const QString body = name.endsWith(u'/') ? name.chopped(1) : name;
    QStringList parts;
    for (const QString& part : body.split(u'/'))
        parts << part.split(u'\\');
    if (parts.contains(QStringLiteral("..")))
        return outside.arg(QStringLiteral("a \"..\" part"));
    if (name.contains(u'\\'))
        return QStringLiteral("a backslash in the name: folders are separated by '/'");
    if (name.contains(u':'))
        return QStringLiteral("a ':' in the name (a drive or a Windows stream)");
    if (parts.contains(QString()) || parts.contains(QStringLiteral(".")))
        return QStringLiteral("not a plain relative path (an empty or \".\" part)");
    return {};
}

QString quotedEntryName(const QString& name) {
    constexpr qsizetype kShown = 200;
    QString shown;
    for (const QChar c : name.left(kShown)) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            shown += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            shown += c;
    }
    if (name.size() > kShown)
        shown += QStringLiteral("...");
    return u'"' + shown + u'"';
}

QString bundleEntryNameKey(const QString& name) {
    return name.normalized(QString::NormalizationForm_C).toCaseFolded();
}

QByteArray Bundle::lesson() const {
    const auto it = entries.find(kBundleLessonName);
    return it == entries.end() ? QByteArray() : it->second;
}

namespace {

constexpr quint16 kFlagEncrypted = 0x0001; // general purpose flag bit 0
constexpr quint16 kMethodStored = 0;
constexpr quint16 kMethodDeflated = 8;
constexpr quint32 kDosDirectory = 0x10;    // low byte of the external attributes
constexpr quint32 kUnixTypeMask = 0170000; // high 16 bits: st_mode
constexpr quint32 kUnixRegular = 0100000;
constexpr quint32 kUnixDirectory = 0040000;
constexpr quint32 kUnixLink = 0120000;
constexpr int kMaxReported = 20;

QString entryLabel(const QString& name) {
    return QStringLiteral("entry ") + quotedEntryName(name);
}

QString sizeText(quint64 bytes) {
    return QLocale::c().formattedDataSize(static_cast<qint64>(std::min<quint64>(bytes, INT64_MAX)),
                                          1, QLocale::DataSizeIecFormat);
}

quint32 unixType(const QuaZipFileInfo64& info) {
    return (info.externalAttr >> 16) & kUnixTypeMask;
}

bool isFolder(const QuaZipFileInfo64& info) {
    return info.name.endsWith(u'/') || unixType(info) == kUnixDirectory ||
           (info.externalAttr & kDosDirectory) != 0;
}

// "PATH: problem" per line, at most kMaxReported of them.
QString report(const QString& zipPath, const QStringList& problems) {
    QStringList lines;
    for (const QString& problem : problems.mid(0, kMaxReported))
        lines << zipPath + QStringLiteral(": ") + problem;
    if (problems.size() > kMaxReported)
        lines << QStringLiteral("%1: ... and %2 more problems")
                     .arg(zipPath)
                     .arg(problems.size() - kMaxReported);
    return lines.join(u'\n');
}

// What the central directory alone says is wrong with one entry: checked before inflating.
void checkDeclaredEntry(const QuaZipFileInfo64& info, const BundleLimits& limits,
                        QStringList* problems) {
    const QString entry = entryLabel(info.name);
    if (const QString why = bundleEntryNameProblem(info.name); !why.isEmpty()) {
        *problems << entry + QStringLiteral(": ") + why;
        return;
    }
    const quint32 type = unixType(info);
    if (type == kUnixLink)
        *problems << entry + QStringLiteral(" is a symbolic link: links are refused");
    else if (type != 0 && type != kUnixRegular && type != kUnixDirectory)
        *problems << entry + QStringLiteral(" is a special file (unix mode %1): only files and "
                                            "folders are allowed")
                                 .arg(info.externalAttr >> 16, 6, 8, QLatin1Char('0'));
    if (info.flags & kFlagEncrypted)
        *problems << entry + QStringLiteral(" is encrypted: encrypted bundles are not supported");
    if (info.method != kMethodStored && info.method != kMethodDeflated)
        *problems << entry + QStringLiteral(" uses compression method %1: not supported (only "
                                            "stored and deflated)")
                                 .arg(info.method);
    if (isFolder(info) && info.uncompressedSize > 0)
        *problems << entry + QStringLiteral(" is a folder with content");
    if (info.name == kBundleLessonName &&
        info.uncompressedSize > static_cast<quint64>(limits.maxLessonBytes)) {
        // The same limit as for a lesson file on disk (readFileBytes), before inflating.
        *problems << entry +
                         QStringLiteral(" declares %1, over the limit of %2 for a lesson")
                             .arg(sizeText(info.uncompressedSize), sizeText(limits.maxLessonBytes));
    } else if (info.uncompressedSize > static_cast<quint64>(limits.maxTotalBytes)) {
        *problems << entry +
                         QStringLiteral(" declares %1 uncompressed, over the limit of %2 "
                                        "(a zip bomb?)")
                             .arg(sizeText(info.uncompressedSize), sizeText(limits.maxTotalBytes));
    } else if (static_cast<double>(info.uncompressedSize) >
               limits.maxRatio * static_cast<double>(std::max<quint64>(info.compressedSize, 1))) {
        *problems << entry +
                         QStringLiteral(" declares %1 uncompressed from %2 compressed, a ratio "
                                        "over the limit of %3 (a zip bomb?)")
                             .arg(sizeText(info.uncompressedSize), sizeText(info.compressedSize))
                             .arg(limits.maxRatio);
    }
}

// Inflates the current entry of ZIP into *data, stopping as soon as the real bytes pass the
// declared size, the ratio or the bytes left under the total cap.
bool inflateEntry(QuaZip* zip, const QuaZipFileInfo64& info, const BundleLimits& limits,
                  qint64 bytesLeft, QByteArray* data, QString* why) {
    QuaZipFile in(zip);
    if (!in.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral(" cannot be read: its local header is damaged (the zip is corrupt)");
        return false;
    }
    const auto declared = static_cast<qint64>(info.uncompressedSize); // <= maxTotalBytes
    const double byRatio =
        limits.maxRatio * static_cast<double>(std::max<quint64>(info.compressedSize, 1));
    const qint64 cap = std::min(
        {declared, bytesLeft, static_cast<qint64>(std::min(byRatio, double(INT64_MAX / 2)))});
    data->reserve(declared);
    char chunk[64 * 1024];
    for (;;) {
        const qint64 n = in.read(chunk, sizeof chunk);
        if (n < 0) {
            *why = QStringLiteral(" is corrupt: its compressed data cannot be inflated");
            return false;
        }
        if (n == 0)
            break;
        if (data->size() + n > cap) {
            *why = QStringLiteral(" inflates past its declared size or the limits (a zip bomb?): "
                                  "stopped after %1")
                       .arg(sizeText(data->size() + n));
            return false;
        }
        data->append(chunk, n);
    }
    in.close();
    if (in.getZipError() == UNZ_CRCERROR) {
        *why = QStringLiteral(" is corrupt: its data does not match its CRC");
        return false;
    }
    if (data->size() != declared) {
        *why = QStringLiteral(" is corrupt: %1 bytes instead of the declared %2")
                   .arg(data->size())
                   .arg(declared);
        return false;
    }
    return true;
}

// The manifest's format and hashes against the entries read.
std::optional<QJsonObject> checkManifest(const std::map<QString, QByteArray>& contents,
                                         QStringList* problems) {
    const auto found = contents.find(kBundleManifestName);
    if (found == contents.end()) {
        *problems << QStringLiteral("no manifest.json: not an attnbook bundle");
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(found->second, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *problems << QStringLiteral("manifest.json is not valid JSON: %1 at byte %2")
                         .arg(parseError.errorString())
                         .arg(parseError.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *problems << QStringLiteral("manifest.json is not a JSON object");
        return std::nullopt;
    }
    const QJsonObject manifest = doc.object();
    const QJsonValue format = manifest.value(QStringLiteral("format"));
    if (format.isUndefined()) {
        *problems << QStringLiteral("manifest.json has no \"format\"");
        return std::nullopt;
    }
    if (format.toDouble(-1) != kBundleFormat) {
        *problems << QStringLiteral("manifest.json has format %1; this attnbook reads format %2")
                         .arg(format.toVariant().toString())
                         .arg(kBundleFormat);
        return std::nullopt;
    }
    const QJsonValue listed = manifest.value(QStringLiteral("entries"));
    if (!listed.isObject()) {
        *problems << QStringLiteral("manifest.json has no \"entries\" object");
        return std::nullopt;
    }
    const QJsonObject hashes = listed.toObject();
    const qsizetype before = problems->size();
    for (const auto& [name, bytes] : contents) {
        if (name == kBundleManifestName)
            continue;
        const QJsonValue expected = hashes.value(name);
        if (expected.isUndefined()) {
            *problems << entryLabel(name) + QStringLiteral(" is not listed in manifest.json");
        } else if (!expected.isString()) {
            *problems << QStringLiteral("manifest.json: the sha256 of %1 is not a string")
                             .arg(quotedEntryName(name));
        } else if (QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex() !=
                   expected.toString().toLower().toLatin1()) {
            *problems << entryLabel(name) + QStringLiteral(" does not match its sha256 in "
                                                           "manifest.json (corrupt or modified)");
        }
    }
    for (auto it = hashes.begin(); it != hashes.end(); ++it) {
        if (it.key() == kBundleManifestName || !contents.contains(it.key()))
            *problems << QStringLiteral("manifest.json lists %1, which is not in the bundle")
                             .arg(quotedEntryName(it.key()));
    }
    if (problems->size() != before)
        return std::nullopt;
    return manifest;
}

// Pass 1, the central directory only: each entry's info into `infos`, and the problems of its
// name, kind and declared size (duplicates, a zip bomb) into `problems`. Returns why the
// directory cannot be read at all, or "".
QString readDirectory(QuaZip& zip, const BundleLimits& limits, std::vector<QuaZipFileInfo64>* infos,
                      QStringList* problems) {
    std::map<QString, QString> firstByKey; // bundleEntryNameKey -> the name that took it
    quint64 declaredTotal = 0;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        if (static_cast<int>(infos->size()) >= limits.maxEntries)
            return QStringLiteral("holds more than %1 entries, the limit").arg(limits.maxEntries);
        QuaZipFileInfo64 info;
        if (!zip.getCurrentFileInfo(&info))
            return QStringLiteral("the zip directory is corrupt (entry %1)").arg(infos->size() + 1);
        checkDeclaredEntry(info, limits, problems);
        const auto [taken, fresh] = firstByKey.emplace(bundleEntryNameKey(info.name), info.name);
        if (!fresh && taken->second == info.name)
            *problems << entryLabel(info.name) + QStringLiteral(" appears twice");
        else if (!fresh)
            *problems << QStringLiteral("entries %1 and %2 differ only in case or Unicode form: "
                                        "one would overwrite the other on disk")
                             .arg(quotedEntryName(taken->second), quotedEntryName(info.name));
        declaredTotal += std::min<quint64>(info.uncompressedSize, quint64(1) << 62);
        infos->push_back(info);
    }
    if (zip.getZipError() != UNZ_OK)
        return QStringLiteral("the zip directory is corrupt (after entry %1)").arg(infos->size());
    const bool oneEntryTooBig = std::any_of(infos->begin(), infos->end(), [&](const auto& info) {
        return info.uncompressedSize > static_cast<quint64>(limits.maxTotalBytes);
    });
    if (declaredTotal > static_cast<quint64>(limits.maxTotalBytes) && !oneEntryTooBig)
        *problems << QStringLiteral("the entries declare %1 uncompressed in total, over the limit "
                                    "of %2 (a zip bomb?)")
                         .arg(sizeText(declaredTotal), sizeText(limits.maxTotalBytes));
    return {};
}

} // namespace

std::optional<Bundle> readBundle(const QString& zipPath, QString* error,
                                 const BundleLimits& limits) {
    QStringList problems;
    const auto refuse = [&](const QString& problem = {}) -> std::optional<Bundle> {
        if (!problem.isEmpty())
            problems << problem;
        if (error)
            *error = report(zipPath, problems);
        return std::nullopt;
    };

    const QFileInfo fileInfo(zipPath);
    if (!fileInfo.exists())
        return refuse(QStringLiteral("no such file"));
    if (fileInfo.isDir())
        return refuse(QStringLiteral("is a folder, not a bundle"));
    if (!fileInfo.isFile()) // opening a named pipe would wait for a writer forever
        return refuse(QStringLiteral("is not a regular file (a device, pipe or socket)"));
    QFile file(zipPath);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot be read: %1").arg(file.errorString()));

    // Read only: QuaZip in mdUnzip mode never writes, and no entry goes to disk.
    QuaZip zip(&file);
    zip.setFileNameCodec("UTF-8"); // names without the UTF-8 flag: most tools write UTF-8 anyway
    if (!zip.open(QuaZip::mdUnzip))
        return refuse(QStringLiteral("not a zip file, or it is truncated or corrupt (no zip "
                                     "directory at its end)"));
    const int declaredCount = zip.getEntriesCount();
    if (zip.getZipError() != UNZ_OK)
        return refuse(QStringLiteral("the zip directory is corrupt"));
    if (declaredCount < 0) // past INT_MAX
        return refuse(
            QStringLiteral("holds more entries than the limit of %1").arg(limits.maxEntries));
    if (declaredCount > limits.maxEntries)
        return refuse(QStringLiteral("holds %1 entries, over the limit of %2")
                          .arg(declaredCount)
                          .arg(limits.maxEntries));
    if (declaredCount == 0)
        return refuse(QStringLiteral("is an empty zip: no manifest.json, not an attnbook bundle"));

    // Pass 1, the central directory only: names, kinds, duplicates, declared sizes.
    std::vector<QuaZipFileInfo64> infos;
    if (const QString why = readDirectory(zip, limits, &infos, &problems); !why.isEmpty())
        return refuse(why);
    if (!problems.isEmpty())
        return refuse();

    // Pass 2, inflate into memory, in the same order.
    std::map<QString, QByteArray> contents;
    qint64 bytesLeft = limits.maxTotalBytes;
    std::size_t index = 0;
    for (bool more = zip.goToFirstFile(); more && index < infos.size();
         more = zip.goToNextFile(), ++index) {
        const QuaZipFileInfo64& info = infos[index];
        if (isFolder(info))
            continue;
        QByteArray data;
        QString why;
        if (!inflateEntry(&zip, info, limits, bytesLeft, &data, &why))
            return refuse(entryLabel(info.name) + why);
        bytesLeft -= data.size();
        contents.emplace(info.name, std::move(data));
    }
    if (zip.getZipError() != UNZ_OK || index != infos.size())
        return refuse(QStringLiteral("the zip directory is corrupt"));

    std::optional<QJsonObject> manifest = checkManifest(contents, &problems);
    if (!manifest)
        return refuse();
    contents.erase(kBundleManifestName);
    return Bundle{std::move(*manifest), std::move(contents)};
}

} // namespace attnbook
