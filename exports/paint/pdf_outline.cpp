#include "exports/paint/pdf_outline.h"

// qpdf 11 without its deprecated PointerHolder (std::shared_ptr throughout).
#define POINTERHOLDER_TRANSITION 4
#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace attnbook {

namespace {

using Handle = QPDFObjectHandle;

struct Node {
    const PdfOutlineEntry* entry = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    Handle object;
};

// The entries as a tree: each under the nearest entry before it with a smaller level.
std::unique_ptr<Node> outlineTree(const std::vector<PdfOutlineEntry>& entries) {
    auto root = std::make_unique<Node>();
    std::vector<std::pair<int, Node*>> open{{0, root.get()}}; // (level, node), levels ascending
    for (const PdfOutlineEntry& e : entries) {
        const int level = std::max(1, e.level);
        while (open.back().first >= level) {
            open.pop_back();
        }
        auto node = std::make_unique<Node>();
        node->entry = &e;
        Node* raw = node.get();
        open.back().second->children.push_back(std::move(node));
        open.emplace_back(level, raw);
    }
    return root;
}

// Makes the outline item objects of `parent`'s children and links them (PDF 32000 §12.3.3):
// siblings by /Prev and /Next, each to its /Parent, the parent to its /First and /Last.
// Top-level items are shown open; deeper ones closed (a negative /Count).
void linkChildren(QPDF& pdf, Node& parent, const Handle& parentObject,
                  std::vector<QPDFPageObjectHelper>& pages, qreal pageHeight, bool open) {
    for (auto& child : parent.children) {
        const PdfOutlineEntry& e = *child->entry;
        child->object = pdf.makeIndirectObject(Handle::newDictionary());
        Handle& item = child->object;
        item.replaceKey("/Title", Handle::newUnicodeString(e.title.toStdString()));
        item.replaceKey("/Parent", parentObject);
        const size_t page = size_t(std::clamp<int>(e.page, 0, int(pages.size()) - 1));
        Handle dest = Handle::newArray();
        dest.appendItem(pages[page].getObjectHandle());
        dest.appendItem(Handle::newName("/XYZ"));
        dest.appendItem(Handle::newNull());
        dest.appendItem(Handle::newReal(double(pageHeight - e.top), 2));
        dest.appendItem(Handle::newNull());
        item.replaceKey("/Dest", dest);
    }
    for (size_t i = 0; i < parent.children.size(); ++i) {
        Handle& item = parent.children[i]->object;
        if (i > 0) {
            item.replaceKey("/Prev", parent.children[i - 1]->object);
        }
        if (i + 1 < parent.children.size()) {
            item.replaceKey("/Next", parent.children[i + 1]->object);
        }
        Node& child = *parent.children[i];
        if (!child.children.empty()) {
            linkChildren(pdf, child, item, pages, pageHeight, false);
            item.replaceKey("/Count", Handle::newInteger(-int(child.children.size())));
        }
    }
    if (!parent.children.empty()) {
        Handle target = parentObject;
        target.replaceKey("/First", parent.children.front()->object);
        target.replaceKey("/Last", parent.children.back()->object);
        if (open) {
            target.replaceKey("/Count", Handle::newInteger(int(parent.children.size())));
        }
    }
}

} // namespace

QByteArray addOutlineAndInfo(const QByteArray& bytes, const std::vector<PdfOutlineEntry>& outline,
                             const PdfDocumentInfo& info, QString* error) {
    try {
        QPDF pdf;
        pdf.setSuppressWarnings(true);
        pdf.processMemoryFile("attnbook.pdf", bytes.constData(), size_t(bytes.size()));
        std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(pdf).getAllPages();
        Handle root = pdf.getRoot();
        if (!outline.empty() && !pages.empty()) {
            Handle box = pages.front().getObjectHandle().getKey("/MediaBox");
            const qreal pageHeight = box.isArray() && box.getArrayNItems() == 4
                                         ? box.getArrayItem(3).getNumericValue()
                                         : 842.0;
            Handle outlines = pdf.makeIndirectObject(Handle::newDictionary());
            outlines.replaceKey("/Type", Handle::newName("/Outlines"));
            std::unique_ptr<Node> tree = outlineTree(outline);
            linkChildren(pdf, *tree, outlines, pages, pageHeight, true);
            root.replaceKey("/Outlines", outlines);
            root.replaceKey("/PageMode", Handle::newName("/UseOutlines"));
        }
        Handle trailer = pdf.getTrailer();
        Handle documentInfo = trailer.getKey("/Info");
        if (!documentInfo.isDictionary()) {
            documentInfo = pdf.makeIndirectObject(Handle::newDictionary());
            trailer.replaceKey("/Info", documentInfo);
        }
        const auto set = [&](const char* key, const QString& value) {
            if (!value.isEmpty()) {
                documentInfo.replaceKey(key, Handle::newUnicodeString(value.toStdString()));
            }
        };
        set("/Title", info.title);
        set("/Author", info.author);
        set("/Subject", info.subject);
        QPDFWriter writer(pdf);
        writer.setOutputMemory();
        writer.write();
        const std::shared_ptr<Buffer> out = writer.getBufferSharedPointer();
        return QByteArray(reinterpret_cast<const char*>(out->getBuffer()),
                          qsizetype(out->getSize()));
    } catch (const std::exception& e) {
        if (error) {
            *error = QStringLiteral("cannot add the outline to the PDF: %1")
                         .arg(QString::fromUtf8(e.what()));
        }
        return {};
    }
}

} // namespace attnbook
