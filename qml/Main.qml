import QtQuick
import QtQuick.Controls

ApplicationWindow {
    width: 1100
    height: 800
    visible: true
    title: qsTr("attnbook")
}
