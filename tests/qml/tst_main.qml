import QtQuick
import QtTest
import Attnbook
import Attnbook.Models

// The window as a whole: the lesson it opens, its title, the recent files,
// the theme and the outline beside the lesson.
Item {
    id: root

    Component {
        id: mainComponent
        Main {}
    }

    TestCase {
        name: "Main"
        when: windowShown

        function openWindow(path) {
            const window = createTemporaryObject(mainComponent, root,
                                                 { initialPath: path, themeName: "light" })
            verify(window)
            tryVerify(() => window.session.loaded)
            return window
        }

        function test_titleAndFile() {
            const path = sourceDir + "/tests/app/fixtures/window.md"
            const window = openWindow(path)
            compare(window.title, "Window test lesson — window.md — attnbook")
            compare(findChild(window.contentItem, "lessonTitle").text, "Window test lesson")
        }

        function test_bundledLessonWithoutFile() {
            const window = openWindow("")
            verify(window.session.bundled)
            compare(window.session.title, "Attention")
            verify(window.session.outline.count > 10)
        }

        function test_recentFiles() {
            const recent = createTemporaryObject(recentComponent, root)
            recent.clear()
            const path = sourceDir + "/tests/app/fixtures/window.md"
            openWindow(path)
            const again = createTemporaryObject(recentComponent, root)
            compare(again.files[0], path)
            openWindow("")
            compare(createTemporaryObject(recentComponent, root).files.length, 1,
                    "the bundled lesson is not a recent file")
            again.clear()
        }

        function test_theme() {
            const window = openWindow("")
            verify(!Theme.dark)
            window.themeName = "dark"
            verify(Theme.dark)
            window.themeName = "light"
            verify(!Theme.dark)
        }
    }

    Component {
        id: recentComponent
        RecentFiles {}
    }
}
