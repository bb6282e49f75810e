#include "exports/bundle/bundle_writer.h"
#include "files/output_policy.h"

#include <quazip/quacrc32.h>
#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <QtCore/QBuffer>
#include <QtCore/QCryptographicHash>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

#include <cerrno>
#include <map>
#include <optional>

namespace attnbook {
namespace {

constexpr int kMethodStored = 0;

// "cannot write: ..." with the context QSaveFile leaves out.
QString writeFailure(const QString& zipPath, const QString& systemReason) {
    const QFileInfo target(zipPath);
    const QFileInfo folder(target.absolutePath());
    QString what;
    if (target.isDir())
        what = QStringLiteral("it is a folder");
    else if (!folder.exists())
        what = QStringLiteral("the folder %1 does not exist").arg(folder.filePath());
    else if (!folder.isDir())
        what = QStringLiteral("%1 is not a folder").arg(folder.filePath());
    if (what.isEmpty())
        return QStringLiteral("cannot write: %1").arg(systemReason);
    return QStringLiteral("cannot write: %1 (%2)").arg(what, systemReason);
}

// Why ENTRIES and a manifest of MANIFESTBYTES cannot make a bundle that readBundle accepts
// with LIMITS, or "".
QString entriesProblem(const std::vector<BundleEntry>& entries, qint64 manifestBytes,
                       const BundleLimits& limits) {
    if (static_cast<qint64>(entries.size()) + 1 > limits.maxEntries)
        return QStringLiteral("cannot write %1 entries: over the limit of %2")
            .arg(entries.size() + 1)
            .arg(limits.maxEntries);
    std::map<QString, QString> firstByKey{
        {bundleEntryNameKey(kBundleManifestName), kBundleManifestName}};
    qint64 total = manifestBytes;
    for (const BundleEntry& entry : entries) {
        QString why = bundleEntryNameProblem(entry.name);
        if (why.isEmpty() && entry.name.endsWith(u'/'))
            why = QStringLiteral("a folder name: entries are files");
        if (!why.isEmpty())
            return QStringLiteral("cannot write entry %1: %2")
                .arg(quotedEntryName(entry.name), why);
        const auto [taken, fresh] = firstByKey.emplace(bundleEntryNameKey(entry.name), entry.name);
        if (!fresh && taken->second == kBundleManifestName)
            return QStringLiteral("cannot write entry %1: the name is reserved for the manifest")
                .arg(quotedEntryName(entry.name));
        if (!fresh && taken->second == entry.name)
            return QStringLiteral("cannot write entry %1: it appears twice")
                .arg(quotedEntryName(entry.name));
        if (!fresh)
            return QStringLiteral("cannot write entries %1 and %2: names differing only in case "
                                  "or Unicode form")
                .arg(quotedEntryName(taken->second), quotedEntryName(entry.name));
        total += entry.bytes.size();
    }
    if (total > limits.maxTotalBytes)
        return QStringLiteral("cannot write %1 bytes: over the limit of %2")
            .arg(total)
            .arg(limits.maxTotalBytes);
    return {};
}

QByteArray manifestJson(const BundleMetadata& metadata, const QDateTime& created,
                        const std::vector<BundleEntry>& entries) {
    QJsonObject hashes;
    for (const BundleEntry& entry : entries)
        hashes.insert(
            entry.name,
            QString::fromLatin1(
                QCryptographicHash::hash(entry.bytes, QCryptographicHash::Sha256).toHex()));
    const QJsonObject manifest{
        {QStringLiteral("format"), kBundleFormat},
        {QStringLiteral("title"), metadata.title},
        {QStringLiteral("app_version"), metadata.appVersion},
        {QStringLiteral("created"), created.toString(Qt::ISODate)},
        {QStringLiteral("entries"), hashes},
    };
    return QJsonDocument(manifest).toJson(QJsonDocument::Indented);
}

// One entry, deflated once. Deflated data past the reader's ratio cap would be refused as a
// bomb (a large block of zeros does that), and data deflate cannot shrink gains nothing: both
// are stored as they are. Written raw, with the CRC and size given, so nothing deflates twice.
bool addEntry(QuaZip* zip, const QString& name, const QByteArray& bytes, const QDateTime& time,
              double maxRatio) {
    // qCompress: a 4-byte length, the 2-byte zlib header, raw deflate, the 4-byte Adler-32.
    const QByteArray zlib = bytes.isEmpty() ? QByteArray() : qCompress(bytes);
    const QByteArray deflated = zlib.size() > 10 ? zlib.sliced(6, zlib.size() - 10) : QByteArray();
    const bool store = deflated.isEmpty() || deflated.size() >= bytes.size() ||
                       double(bytes.size()) > maxRatio * double(deflated.size());
    const QByteArray& written = store ? bytes : deflated;

    QuaZipNewInfo info(name);
    info.dateTime = time.toLocalTime(); // zip times carry no zone
    info.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                        QFileDevice::ReadOther);
    info.uncompressedSize = static_cast<ulong>(bytes.size());
    QuaZipFile out(zip);
    if (!out.open(QIODevice::WriteOnly, info, nullptr, QuaCrc32().calculate(bytes),
                  store ? kMethodStored : Z_DEFLATED, Z_DEFAULT_COMPRESSION, /*raw=*/true) ||
        out.write(written) != written.size())
        return false;
    out.close();
    return out.getZipError() == ZIP_OK;
}

} // namespace

namespace {

// The zip of `entries`, written to DEVICE (already open for writing): manifest.json first, then
// every entry. Returns the entry that failed ("" for the zip as a whole), or nullopt when done.
std::optional<QString> writeZip(QIODevice* device, const QByteArray& manifest,
                                const QDateTime& created, const std::vector<BundleEntry>& entries,
                                double maxRatio) {
    QuaZip zip(device);
    zip.setAutoClose(false); // the caller owns the device (a QSaveFile must be committed by it)
    zip.setUtf8Enabled(true);
    if (!zip.open(QuaZip::mdCreate))
        return QString();
    errno = 0;
    if (!addEntry(&zip, kBundleManifestName, manifest, created, maxRatio))
        return kBundleManifestName;
    for (const BundleEntry& entry : entries) {
        errno = 0;
        if (!addEntry(&zip, entry.name, entry.bytes, created, maxRatio))
            return entry.name;
    }
    errno = 0;
    zip.close();
    if (zip.getZipError() != ZIP_OK)
        return QString();
    return std::nullopt;
}

} // namespace

bool bundleBytes(const BundleMetadata& metadata, const std::vector<BundleEntry>& entries,
                 QByteArray* out, QString* error) {
    const BundleLimits limits;
    const QDateTime created =
        metadata.created.isValid() ? metadata.created.toUTC() : QDateTime::currentDateTimeUtc();
    const QByteArray manifest = manifestJson(metadata, created, entries);
    if (const QString why = entriesProblem(entries, manifest.size(), limits); !why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    QBuffer buffer(out);
    buffer.open(QIODevice::WriteOnly);
    if (const std::optional<QString> failed =
            writeZip(&buffer, manifest, created, entries, limits.maxRatio)) {
        if (error)
            *error = failed->isEmpty()
                         ? QStringLiteral("cannot pack the bundle")
                         : QStringLiteral("cannot pack entry %1").arg(quotedEntryName(*failed));
        return false;
    }
    return true;
}

bool writeBundle(const QString& zipPath, const BundleMetadata& metadata,
                 const std::vector<BundleEntry>& entries, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error)
            *error = zipPath + QStringLiteral(": ") + why;
        return false;
    };
    // The output policy first: never over a device, a FIFO or a folder, links resolved.
    if (const QString problem = outputProblem(zipPath); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    const BundleLimits limits; // what readBundle accepts by default
    const QDateTime created =
        metadata.created.isValid() ? metadata.created.toUTC() : QDateTime::currentDateTimeUtc();
    const QByteArray manifest = manifestJson(metadata, created, entries);
    if (const QString why = entriesProblem(entries, manifest.size(), limits); !why.isEmpty())
        return fail(why);

    // Until commit() the bytes go to a temporary file beside ZIPPATH (files/output_policy.h);
    // on any failure it is removed and ZIPPATH stays as it was.
    OutputFile file(zipPath);
    QString ignored; // the bundle says what failed in its own words, with the entry
    const auto ioFailure = [&](const QString& entry) {
        const QString reason = file.failureReason();
        if (entry.isEmpty())
            return fail(writeFailure(zipPath, reason));
        return fail(
            QStringLiteral("cannot write entry %1: %2").arg(quotedEntryName(entry), reason));
    };
    errno = 0;
    if (!file.open(&ignored))
        return ioFailure({});
    if (const std::optional<QString> failed =
            writeZip(file.stream(), manifest, created, entries, limits.maxRatio))
        return ioFailure(*failed);
    errno = 0;
    if (!file.commit(&ignored))
        return ioFailure({});
    return true;
}

} // namespace attnbook
