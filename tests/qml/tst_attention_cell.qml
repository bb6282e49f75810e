import QtQuick
import QtTest
import Attnbook
import Attnbook.Models

// Drives an attention cell through its own controls and reads back the
// numbers its views show, against the worked numbers of attention.md.
Item {
    id: root
    width: 1100
    height: 900

    LessonSession { id: session }
    Component {
        id: cellComponent
        AttentionCell {}
    }

    TestCase {
        id: test
        name: "AttentionCell"
        when: windowShown

        property var card: null

        function init() {
            verify(session.open(sourceDir + "/tests/app/fixtures/window.md"), "the fixture opens clean")
            card = createTemporaryObject(cellComponent, root, { cell: session.cell("colour"), width: 1060 })
            verify(card)
            waitForRendering(card)
        }

        function control(name) {
            const item = findChild(card, name)
            verify(item, "control " + name)
            return item
        }
        function table(name) {
            const item = findChild(card, name)
            verify(item, "matrix " + name)
            return item.model
        }
        function compareRow(model, row, expected, tolerance) {
            for (let c = 0; c < expected.length; ++c)
                fuzzyCompare(model.valueAt(row, c), expected[c], tolerance,
                             "row " + row + ", column " + c)
        }
        function click(name) {
            const item = control(name)
            verify(item.visible && item.enabled, name + " can be clicked")
            mouseClick(item)
            waitForRendering(card)
        }

        function test_authoredWeights() {
            const weights = table("matrix_weights_h0")
            compareRow(weights, 0, [0.3837, 0.2327, 0.3837], 5e-5)
            compareRow(weights, 1, [0.2741, 0.4519, 0.2741], 5e-5)
            // Written as the lesson writes them, to four decimals.
            compare(weights.textAt(0, 1), "0.2327")
            compareRow(table("matrix_output"), 0, [0.7673, 0.2327, 0, 0], 5e-5)
            verify(control("rowCheck").text.indexOf("✓") === 0)
        }

        function test_headsOfferOnlyDivisors() {
            verify(findChild(card, "heads_1"))
            verify(findChild(card, "heads_2"))
            verify(findChild(card, "heads_4"))
            verify(!findChild(card, "heads_3"), "3 does not divide 4")
        }

        function test_twoHeads() {
            click("heads_2")
            compare(card.cell.heads, 2)
            compareRow(table("matrix_output"), 0, [0.8022, 0.1978, 0, 0], 5e-5)
            verify(card.cell.edited)
            verify(control("heads_2").checked)
        }

        function test_causalMask() {
            click("mask_causal")
            const weights = table("matrix_weights_h0")
            compareRow(weights, 0, [1, 0, 0], 1e-12)
            compareRow(weights, 1, [0.3775, 0.6225, 0], 5e-5)
            compareRow(weights, 2, [0.3837, 0.2327, 0.3837], 5e-5)
            // Blocked entries are exactly zero, and the check says so.
            compare(weights.valueAt(1, 2), 0)
            const check = control("rowCheck").text
            verify(check.indexOf("✓") === 0, check)
            verify(check.indexOf("3 blocked entries are exactly 0") >= 0, check)
        }

        function test_sinusoidalPositions() {
            click("positional_sinusoidal")
            const weights = table("matrix_weights_h0")
            compareRow(weights, 0, [0.3349, 0.4053, 0.2599], 5e-5)
            compareRow(weights, 2, [0.2013, 0.1547, 0.6440], 5e-5)
            // X = X₀ + P appears once the encoding is on.
            compareRow(table("matrix_X"), 2, [1.9093, -0.4161, 0.0200, 0.9998], 5e-5)
        }

        function test_editVector() {
            // Blue's own coordinate from 1 to 2, typed into the token grid.
            const entry = control("entry_X0_1_1")
            mouseClick(entry)
            verify(entry.activeFocus)
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_2)
            keyClick(Qt.Key_Return)
            waitForRendering(card)
            const weights = table("matrix_weights_h0")
            // blue · blue = 4, scaled by 1/2: shares e^2 / (2 + e^2) and 1 / (2 + e^2).
            const big = Math.exp(2) / (2 + Math.exp(2)), small = 1 / (2 + Math.exp(2))
            compareRow(weights, 1, [small, big, small], 1e-12)
            compareRow(weights, 0, [0.3837, 0.2327, 0.3837], 5e-5)
            compareRow(table("matrix_output"), 0, [0.7673, 2 * 0.23269, 0, 0], 5e-4)
        }

        function test_editOneRedChangesEveryRed() {
            const entry = control("entry_X0_0_2")
            mouseClick(entry)
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_3)
            keyClick(Qt.Key_Return)
            waitForRendering(card)
            const x0 = table("matrix_X0")
            compare(x0.valueAt(0, 2), 3)
            compare(x0.valueAt(2, 2), 3)
            compare(x0.valueAt(1, 2), 0)
        }

        function test_invalidValueRefusedInPlace() {
            const before = table("matrix_weights_h0").valueAt(1, 1)
            const entry = control("entry_X0_1_1")
            mouseClick(entry)
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_1)
            keyClick(Qt.Key_Comma)
            keyClick(Qt.Key_5)
            keyClick(Qt.Key_Return)
            waitForRendering(card)
            compare(table("matrix_weights_h0").valueAt(1, 1), before, "nothing changed")
            verify(!card.cell.edited)
            const tables = findChild(card, "matrix_X0")
            verify(tables.refusal.indexOf("use a point for decimals") >= 0, tables.refusal)
            verify(tables.refusal.indexOf("Token vectors, blue × 2") === 0, tables.refusal)
            // Not a number either: refused with the reason, never NaN.
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_N)
            keyClick(Qt.Key_A)
            keyClick(Qt.Key_N)
            keyClick(Qt.Key_Return)
            verify(tables.refusal.indexOf("not a number") >= 0, tables.refusal)
            compare(card.cell.setMatrixEntry("X0", 0, 0, "inf"), "the number must be finite")
            compare(card.cell.setMatrixEntry("X0", 0, 0, "1e400"),
                    "1e400 is too large: it must be a finite number")
        }

        function test_scaleDivisorRefusal() {
            click("scale_divisor")
            compare(card.cell.scaleMode, "divisor")
            fuzzyCompare(card.cell.scale, 1, 1e-15, "divide by the divisor shown, 1")
            const field = control("scaleDivisor")
            field.text = "0"
            field.accepted()
            fuzzyCompare(card.cell.scale, 1, 1e-15, "a divisor of 0 is refused")
            verify(findChild(card, "settingsRefusal").text.indexOf("above 0") >= 0)
            field.text = "4"
            field.accepted()
            compare(card.cell.scaleMode, "divisor")
            fuzzyCompare(card.cell.scale, 0.25, 1e-15)
        }

        function test_tokens() {
            click("addToken") // adds the first vocab word, red
            compare(card.cell.tokens, ["red", "blue", "red", "red"])
            compare(table("matrix_weights_h0").columns, 4)
            click("tokenRight_1") // blue one place right
            compare(card.cell.tokens, ["red", "red", "blue", "red"])
            click("tokenRemove_0")
            compare(card.cell.tokens, ["red", "blue", "red"])
            compareRow(table("matrix_weights_h0"), 0, [0.3837, 0.2327, 0.3837], 5e-5)
            compare(card.cell.renameToken(0, "purple").indexOf("'purple' is not in the vocab"), 0)
            compare(card.cell.renameToken(1, "green"), "")
            compare(card.cell.tokens, ["red", "green", "red"])
        }

        // A token's name opens the vocab's words (WordPicker: rows made as they scroll into
        // view, for a vocab of any size); typing filters, Down and Return pick, a click picks.
        function test_replaceATokenFromTheVocab() {
            click("tokenName_1")
            const picker = findChild(card, "replaceTokenPicker")
            verify(picker, "the word picker")
            tryCompare(picker, "opened", true)
            compare(picker.shown, ["red", "blue", "green", "yellow"])
            keyClick(Qt.Key_R)
            keyClick(Qt.Key_E)
            compare(picker.shown, ["red", "green"])
            grabImage(root).save(shotsFolder + "/word-picker.png")
            keyClick(Qt.Key_Down)
            keyClick(Qt.Key_Return)
            tryCompare(picker, "visible", false)
            compare(card.cell.tokens, ["red", "green", "red"])
            // Again on the first token, by a click on a row this time.
            click("tokenName_0")
            tryCompare(picker, "opened", true)
            compare(picker.shown, ["red", "blue", "green", "yellow"]) // the filter starts empty
            const list = findChild(picker.contentItem, "wordList")
            waitForRendering(list)
            const blueRow = list.itemAtIndex(1)
            verify(blueRow, "the row of blue")
            mouseClick(blueRow)
            tryCompare(picker, "visible", false)
            compare(card.cell.tokens, ["blue", "green", "red"])
        }

        function test_dragTokenToReorder() {
            // Positions in the card, which stays put while the chip moves.
            const blue = control("token_1")
            const lastRed = control("token_2")
            const from = blue.mapToItem(card, 4, blue.height / 2)
            const to = lastRed.mapToItem(card, lastRed.width / 2, lastRed.height / 2)
            mousePress(card, from.x, from.y)
            for (let step = 1; step <= 10; ++step)
                mouseMove(card, from.x + (to.x - from.x) * step / 10, from.y, -1, Qt.LeftButton)
            mouseRelease(card, to.x, to.y)
            waitForRendering(card)
            compare(card.cell.tokens, ["red", "red", "blue"])
        }

        function test_padding() {
            click("padding_1")
            const weights = table("matrix_weights_h0")
            compare(weights.valueAt(0, 1), 0)
            fuzzyCompare(weights.valueAt(0, 0), 0.5, 1e-12)
            verify(control("rowCheck").text.indexOf("3 blocked entries") >= 0)
        }

        function test_compareResetKeep() {
            verify(!control("compare").enabled, "nothing to compare yet")
            click("mask_causal")
            const compareSwitch = control("compare")
            verify(compareSwitch.enabled)
            mouseClick(compareSwitch)
            verify(card.compare)
            const heatmap = findChild(card, "heatmap_h0")
            verify(heatmap.change)
            fuzzyCompare(card.cell.changeRange, 1 - 0.3837, 5e-4)
            verify(findChild(card, "matrix_delta_h0").model.valueAt(0, 0) > 0.6)

            click("reset")
            verify(!card.cell.edited)
            verify(!card.compare)
            compareRow(table("matrix_weights_h0"), 0, [0.3837, 0.2327, 0.3837], 5e-5)

            click("heads_2")
            verify(!session.unsavedChanges)
            click("keep")
            verify(session.unsavedChanges)
            verify(!card.cell.edited, "the kept cell is the new authored one")
            verify(session.documentText().indexOf("heads: 2\n") >= 0)
            verify(session.documentText().indexOf("heads: 1\n") < 0)
        }

        function test_traceStepper() {
            const step = control("traceStep")
            compare(step.title, "1. The query")
            click("traceNext")
            verify(step.title.indexOf("2.") === 0, step.title)
            click("traceBack")
            compare(step.title, "1. The query")
            verify(!control("traceBack").enabled)
        }

        // Back and Next are disabled at the ends, the arrow keys walk the steps once
        // the box has the keyboard (a visible ring), and the box keeps one size.
        function test_traceKeysAndEnds() {
            const step = control("traceStep")
            const box = control("traceBox")
            const back = control("traceBack")
            const next = control("traceNext")
            verify(!back.enabled)
            verify(next.enabled)
            const size = [box.width, box.height]
            box.forceActiveFocus()
            verify(box.activeFocus)
            compare(box.border.color, Theme.accent, "a visible focus ring")
            let steps = 1
            while (next.enabled && steps < 20) {
                keyClick(Qt.Key_Right)
                ++steps
                compare(box.width, size[0], "the box keeps its width at step " + steps)
                compare(box.height, size[1], "the box keeps its height at step " + steps)
            }
            verify(steps > 3)
            verify(!next.enabled, "Next is disabled at the last step")
            verify(back.enabled)
            verify(step.title.indexOf(steps + ".") === 0, step.title)
            keyClick(Qt.Key_Right)
            verify(step.title.indexOf(steps + ".") === 0, "the last step stays")
            keyClick(Qt.Key_Home)
            compare(step.title, "1. The query")
            verify(!back.enabled)
            keyClick(Qt.Key_Left)
            compare(step.title, "1. The query")
            // Back pressed to the first step hands the keyboard to the box.
            keyClick(Qt.Key_End)
            back.forceActiveFocus()
            for (let i = 1; i < steps; ++i)
                keyClick(Qt.Key_Space)
            compare(step.title, "1. The query")
            verify(box.activeFocus, "the keyboard is not lost when Back is disabled")
        }

        // The trace follows a what-if at the step it shows, and the cell keeps that step and
        // head when its card is made again (as after it scrolled away and back).
        function test_traceFollowsAndOutlivesItsCard() {
            click("heads_2")
            card.cell.traceHead = 1
            click("traceNext")
            click("traceNext")
            const step = control("traceStep")
            const title = step.title
            verify(title.indexOf("3.") === 0, title)
            const before = JSON.stringify(step.lines)
            click("positional_sinusoidal")
            compare(control("traceStep").title, title, "the same step")
            verify(JSON.stringify(control("traceStep").lines) !== before, "with the new numbers")
            const after = JSON.stringify(control("traceStep").lines)
            const again = createTemporaryObject(cellComponent, root,
                                                { cell: session.cell("colour"), width: 1060 })
            waitForRendering(again)
            const stepAgain = findChild(again, "traceStep")
            compare(stepAgain.title, title)
            compare(JSON.stringify(stepAgain.lines), after)
            compare(session.cell("colour").traceHead, 1)
        }

        // No control moves when a neighbour's value changes: the settings, and the cell's
        // Compare, Undo, Reset and Keep, stay where they are through a run of what-ifs.
        function test_noControlMovesWhenANeighbourChanges() {
            const names = ["heads_1", "heads_4", "mask_none", "mask_causal", "positional_none",
                           "scale_sqrt", "scale_divisor", "compare", "undoWhatIf", "reset", "keep"]
            const place = name => {
                const item = control(name)
                const at = item.mapToItem(root, 0, 0)
                return [Math.round(at.x), Math.round(at.y)]
            }
            const before = names.map(place)
            for (const change of ["heads_2", "mask_causal", "positional_sinusoidal", "scale_off",
                                  "heads_4", "mask_none"]) {
                click(change)
                for (let i = 0; i < names.length; ++i)
                    compare(place(names[i]), before[i], names[i] + " after " + change)
            }
        }

        // Undo on the cell takes back one what-if at a time.
        function test_undoButton() {
            const undo = control("undoWhatIf")
            verify(!undo.enabled)
            click("heads_2")
            click("mask_causal")
            verify(undo.enabled)
            click("undoWhatIf")
            compare(card.cell.mask, "none")
            compare(card.cell.heads, 2)
            click("undoWhatIf")
            compare(card.cell.heads, 1)
            verify(!card.cell.edited)
            verify(!undo.enabled)
        }

        // Compare says why it is off when the shapes differ from the lesson's.
        function test_compareSaysWhy() {
            const note = control("compareNote")
            verify(!note.visible)
            const before = control("heads_1").mapToItem(card, 0, 0).y
            click("heads_2")
            tryVerify(() => note.visible)
            verify(note.text.indexOf("head") >= 0, note.text)
            // Nothing moved under the pointer: the note is below the controls.
            compare(control("heads_1").mapToItem(card, 0, 0).y, before)
            verify(note.mapToItem(card, 0, 0).y > before)
            verify(!control("compare").enabled)
            card.cell.reset()
            click("addToken")
            tryVerify(() => note.visible)
            verify(note.text.indexOf("tokens") >= 0, note.text)
        }

        // Radio buttons, check boxes and switches: an edge of 3:1 or more against the card.
        function test_controlContrast() {
            function luminance(c) {
                const lin = v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)
                return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
            }
            function contrast(a, b) {
                const x = luminance(a), y = luminance(b)
                return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
            }
            click("mask_causal") // an edit that Compare can show: the switch is enabled
            verify(control("compare").enabled)
            for (const dark of [false, true]) {
                Theme.dark = dark
                for (const name of ["padding_0", "compare"]) {
                    const mark = control(name).indicator
                    verify(mark.edge !== undefined, name + " uses the theme's indicator")
                    for (const background of [Theme.surface, Theme.sunken, Theme.surfaceAlt])
                        verify(contrast(mark.border.color, background) >= 3,
                               name + (dark ? " dark " : " light ") + contrast(mark.border.color, background))
                }
            }
            Theme.dark = false
        }

        // Adding a token grows every matrix by a row, labels and all (the Playground
        // once showed Context H with 4 rows beside Output Y with 3).
        function test_addTokenGrowsEveryTable() {
            click("addToken")
            compare(card.cell.n, 4)
            waitForRendering(card)
            for (const name of ["matrix_context_h0", "matrix_output", "matrix_weights_h0", "matrix_X0"]) {
                const matrix = control(name)
                tryCompare(matrix.table, "rows", 4)
                tryVerify(() => matrix.table.height >= 4 * matrix.rowHeight - 1, 2000,
                          name + " shows 4 rows: " + matrix.table.height)
                compare(matrix.model.rowLabels.length, 4, name)
            }
        }

        // A cell made while hidden (as the lesson builds its rows) shows every entry of every
        // table once shown, before and after a token is added. Before: W_Q (its grid stretched
        // on the Projections page) got no width, labels and no entries; Output Y, sized from
        // the rows the TableView had loaded, kept 3 rows of 4 (the attention lesson's Playground).
        function test_cellMadeHiddenShowsEveryEntry() {
            const hidden = createTemporaryObject(cellComponent, root,
                                                 { cell: session.cell("colour"), visible: false })
            verify(hidden)
            waitForRendering(root)
            hidden.visible = true
            hidden.width = 1060
            waitForRendering(hidden)
            const names = ["matrix_W_Q", "matrix_X0", "matrix_context_h0", "matrix_output"]
            const showsEverything = (rows) => {
                for (const name of names) {
                    const matrix = findChild(hidden, name)
                    verify(matrix, name)
                    const table = matrix.table
                    const shape = [matrix.model.rows, matrix.model.columns]
                    if (rows > 0 && name !== "matrix_W_Q")
                        compare(shape[0], rows, name)
                    tryVerify(() => table.width > 0 && table.width >= table.contentWidth - 1, 2000,
                              name + " every column in view: " + table.width + " of " + table.contentWidth)
                    tryVerify(() => table.height >= shape[0] * matrix.rowHeight - 1, 2000,
                              name + " every row in view: " + table.height)
                    tryVerify(() => table.itemAtCell(shape[1] - 1, shape[0] - 1) !== null, 2000,
                              name + " its last entry is loaded")
                }
            }
            showsEverything(3)
            compare(hidden.cell.addToken("yellow"), "")
            waitForRendering(hidden)
            showsEverything(4)
        }

        // The share bars' labels in one format: four decimals each, as the arithmetic writes
        // them (QtCharts' own labels wrote "0.00197" beside "0.0396"); two heads, two decimals.
        function test_shareLabelsInOneFormat() {
            const texts = [0, 1, 2].map(k => control("shareLabel_0_" + k).text)
            compare(texts, ["0.3837", "0.2327", "0.3837"])
            // Each label above its own bar: left to right, in the chart.
            const chart = control("sharesChart")
            const xs = [0, 1, 2].map(k => control("shareLabel_0_" + k).x)
            verify(xs[0] < xs[1] && xs[1] < xs[2], String(xs))
            verify(xs[0] > chart.plotArea.x - 30 && xs[2] < chart.plotArea.x + chart.plotArea.width, String(xs))
            compare(card.cell.setHeads(2), "")
            tryVerify(() => findChild(card, "shareLabel_1_2") !== null)
            for (let h = 0; h < 2; ++h) {
                for (let k = 0; k < 3; ++k) {
                    const text = control("shareLabel_" + h + "_" + k).text
                    verify(/^\d\.\d\d$/.test(text), text)
                }
            }
        }

        // A bar of the whole share (the causal mask's first row) has its label above the plot:
        // it was drawn over QtCharts' title; the heading is now above the chart.
        function test_aFullBarsLabelClearsTheHeading() {
            compare(card.cell.setMask("causal"), "")
            compare(card.cell.setFocus(0), "")
            tryVerify(() => findChild(card, "shareLabel_0_0") !== null
                            && findChild(card, "shareLabel_0_0").text === "1")
            waitForRendering(card)
            const label = control("shareLabel_0_0")
            const heading = control("sharesHeading")
            const labelTop = label.mapToItem(card, 0, 0).y
            const headingBottom = heading.mapToItem(card, 0, heading.height).y
            verify(labelTop >= headingBottom, labelTop + " below " + headingBottom)
            const chart = control("sharesChart")
            verify(label.mapToItem(chart, 0, 0).y >= 0, "the label is inside the chart")
            card.cell.reset()
        }

        function test_focusFollows() {
            const picker = control("focusPicker")
            picker.currentIndex = 1
            picker.activated(1)
            compare(card.cell.focus, 1)
            compare(card.cell.focusShares(0).map(v => v.toFixed(4)), ["0.2741", "0.4519", "0.2741"])
        }

        function test_keyboardInTheGrid() {
            const first = control("entry_X0_0_0")
            mouseClick(first)
            verify(first.activeFocus)
            keyClick(Qt.Key_Down)
            verify(control("entry_X0_1_0").activeFocus, "Down moves to the row below")
            keyClick(Qt.Key_End)
            keyClick(Qt.Key_Right)
            verify(control("entry_X0_1_1").activeFocus, "Right at the end moves to the next column")
            // Typing then an arrow applies the value and moves on.
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_3)
            keyClick(Qt.Key_Up)
            verify(control("entry_X0_0_1").activeFocus)
            compare(table("matrix_X0").valueAt(1, 1), 3)
            keyClick(Qt.Key_Tab)
            verify(!control("entry_X0_0_1").activeFocus, "Tab leaves the entry")
            // Escape puts back what the cell holds.
            const entry = control("entry_X0_1_1")
            mouseClick(entry)
            keySequence(StandardKey.SelectAll)
            keyClick(Qt.Key_X)
            keyClick(Qt.Key_Escape)
            compare(entry.text, "3")
        }

        function test_accessibleControls() {
            for (const name of ["heads_1", "mask_causal", "positional_sinusoidal", "scale_off",
                                "addToken", "tokenRemove_0", "compare", "reset", "keep",
                                "padding_0", "identity_W_Q", "zero_W_Q", "focusPicker"]) {
                const item = control(name)
                verify(item.Accessible.name.length > 0, name + " has an accessible name")
            }
        }

        function test_gradients() {
            const check = control("gradientCheck")
            verify(check.text.indexOf(", passed (below 1e-6 passes).") > 0, check.text)
            verify(card.cell.maxRelError < 1e-6)
        }
    }
}
