pragma ComponentBehavior: Bound
import QtQuick
import Attnbook

// Chooses which head a per-head view shows (hidden with one head).
Choice {
    id: picker
    property int heads: 1
    property int head: 0
    name: "head"
    accessibleName: qsTr("Head")
    visible: heads > 1
    current: head
    options: {
        const out = []
        for (let i = 0; i < heads; ++i)
            out.push({ value: i, label: qsTr("head %1").arg(i + 1), tip: qsTr("Show head %1").arg(i + 1) })
        return out
    }
    onChosen: value => picker.head = value
}
