pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Pdf // qmllint disable import

// The pages of the rendered PDF. One view per file: a view is never pointed at another file
// while it still loads pages of the last one. The view on show stays, faded, until the new
// file's first page is drawn at the width that fits; only then does the new one take its place
// (the preview was blank for 2 s while the status said "Rendered").
Item {
    id: pages
    // The file to show; "" for none.
    required property url source
    // False: the pages are of other options than the ones chosen now, and are faded.
    property bool current: true
    property string accessibleName: qsTr("Preview of the rendered PDF")
    // The view on show, or null: until `source`'s first page is drawn, the last file's.
    property PdfMultiPageView view: null
    readonly property bool viewReady: view !== null && view.document.status === PdfDocument.Ready
    // `source`'s pages are on show (true when there is no file to show): its view, with its
    // current page drawn (a page drawn again at another size is blank until it is).
    readonly property bool showing: String(source).length === 0
                                    || (view !== null && String(view.document.source) === String(source)
                                        && view.currentPageRenderingStatus !== Image.Loading)

    // Fits the page's width in the view. The view centres its pages in its width plus its
    // scroll bar's: room for both.
    function fitWidth(target) {
        const v = target === undefined ? pages.view : target
        if (v !== null && v.document.status === PdfDocument.Ready && v.width > 120)
            v.scaleToWidth(v.width - 64, v.height)
    }

    // The files with a view: the one on show and the one coming.
    ListModel { id: files }
    onSourceChanged: follow()
    Component.onCompleted: follow()
    function follow() {
        const wanted = String(pages.source)
        const onShow = pages.view !== null ? String(pages.view.document.source) : ""
        for (let i = files.count - 1; i >= 0; --i) {
            const url = files.get(i).url
            if (url !== onShow && url !== wanted)
                files.remove(i)
        }
        if (wanted.length === 0) {
            files.clear()
        } else {
            for (let i = 0; i < files.count; ++i)
                if (files.get(i).url === wanted)
                    return
            files.append({ url: wanted })
        }
    }
    // VIEW's first page is drawn: it takes the place of the one on show.
    function drawn(view) {
        if (String(view.document.source) !== String(pages.source))
            return
        pages.view = view
        pages.follow()
    }

    Repeater {
        model: files
        delegate: PdfMultiPageView {
            id: pageView
            required property string url
            objectName: "pdfPreview"
            anchors.fill: parent
            anchors.margins: 1
            // Scaled to fit, then the current page drawn at that scale; or the file unreadable
            // (PdfDocument.Error names another enum too in Qt 6.4: neither loading nor loaded).
            property bool fitted: false
            readonly property bool unreadable: document.status !== PdfDocument.Null
                                               && document.status !== PdfDocument.Loading
                                               && document.status !== PdfDocument.Ready
            readonly property bool ready: fitted && currentPageRenderingStatus === Image.Ready
                                          || unreadable
            onReadyChanged: if (ready) pages.drawn(pageView)
            document: PdfDocument {
                source: pageView.url
                onStatusChanged: if (status === PdfDocument.Ready) fitTimer.restart()
            }
            // The coming view draws out of sight (opacity 0 still loads and lays out).
            z: pages.view === pageView ? 1 : 0
            enabled: pages.view === pageView
            opacity: pages.view !== pageView ? 0
                     : pages.current && pageView.url === String(pages.source) ? 1 : 0.35
            Accessible.name: pages.accessibleName
            Component.onDestruction: if (pages.view === pageView) pages.view = null
            // Once the view has its size and the document its pages.
            Timer {
                id: fitTimer
                interval: 10
                onTriggered: {
                    pages.fitWidth(pageView)
                    pageView.fitted = true
                }
            }
        }
    }
}
