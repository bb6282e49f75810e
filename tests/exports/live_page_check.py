#!/usr/bin/env python3
"""The live web page in a real browser (docs/web-page.md): every shipped lesson's exported page
is opened in headless Chromium (Debian's chromium), driven through the DevTools protocol over a
pipe, and made to take what-ifs through its own controls (each cell's list of what-ifs and its
own-what-if field) and through a link (#set=...). After each, the numbers and claim marks the
page shows are read from the DOM and compared with `attnbook compute --set` for the same edits:
every value to the digits it shows, every claim's verdict equal. Chromium's network log must
hold no request but the page itself, the console no error, and the page no violation of its
Content-Security-Policy.

Each kind of widget of a cell's controls (a token chip's remove and move, Add, the heads
stepper, the mask switch, the positions and scale choices, the temperature's number and slider,
the words to generate and how they are picked, a transformer's layers run and its LayerNorm and FFN switches, an entry
of a vector's and of a projection's grid) is used once, on the first cell that has it, by
clicking and typing as a reader would (check_widgets): the words it made are compared with `compute --set` as above, the
widgets must show what compute computed (the chips its tokens, the stepper its heads), a link
carrying the first one must open the page with the widgets showing it, a moved chip keeps the
keyboard's focus, and the page's Undo must put them back as the lesson has them.

A cell's "Compare with the lesson's numbers" (check_compare) is pressed from the keyboard after
a what-if that keeps the cell's tables: each changed entry must show exactly the static page's
text of the same entry, the summary the lesson's summary, and nothing once it is pressed again
or the cell is reset.

A step of its own, check_quizzes, answers every quiz of the page through its own form (a
radio button, the number field, the text area, then Check), right and wrong, as the lesson
has it and after a what-if, and compares the verdict the page shows with the answer
`attnbook compute` gives the quiz.

Usage: live_page_check.py ATTNBOOK DOCUMENTS [--bench=NATIVE_BENCH]
  --bench=attnbook-live-page-bench  also prints each page's size, its time to live and, per
           what-if, the time from the click to its numbers in the page, the core's part of it
           and the same question asked natively (the benchmark, not a test)
Everything it writes (the pages, Chromium's profile) is in a temporary folder it removes.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

from devtools_page import Browser, Page, console_errors, network_requests

LESSONS = ["attention.md", "guide.md", "real-head.md", "template.md", "training.md",
           "transformer.md", "transformers.md"]
# From each cell's list of what-ifs: the first, the middle and the last (the list runs from
# token edits through vectors and heads to masks, positions and scale).
def sampled(options):
    picked = sorted({0, len(options) // 2, len(options) - 1}) if options else []
    return [options[i] for i in picked]


# --- what `attnbook compute --set` says -------------------------------------------------------

def compute(attnbook, lesson, sets):
    command = [attnbook, "compute", lesson]
    for words in sets:
        command += ["--set", words]
    done = subprocess.run(command, capture_output=True, text=True,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    if done.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(command), done.stderr))
    return json.loads(done.stdout)


PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def resolve(result, path):
    """The JSON value at a binding's lone path ("c.head[0].weights[0][1]"), or KeyError."""
    cell_id, rest = re.match(r"([A-Za-z_][A-Za-z0-9_-]*)(.*)$", path).groups()
    cells = [c for c in result["cells"] if c.get("id") == cell_id]
    if not cells:
        raise KeyError(path)
    value = cells[0]
    at = 0
    while at < len(rest):
        m = PATH_PART.match(rest, at)
        if not m:
            raise KeyError(path)
        if m.group(1) is not None:
            if not isinstance(value, dict) or m.group(1) not in value:
                raise KeyError(path)
            value = value[m.group(1)]
        else:
            i = int(m.group(2))
            if not isinstance(value, list) or i >= len(value):
                raise KeyError(path)
            value = value[i]
        at = m.end()
    return value


NUMBER = re.compile(r"[−-]?∞|[−-]?\d+(?:\.\d+)?(?:e[+−-]?\d+)?")


def shown_numbers(text):
    out = []
    for m in NUMBER.finditer(text):
        token = m.group(0).replace("−", "-")
        if token.endswith("∞"):
            out.append((-math.inf if token.startswith("-") else math.inf, 0))
        else:
            decimals = len(token.split(".")[1].split("e")[0]) if "." in token else 0
            out.append((float(token), decimals))
    return out


def flat(value):
    if isinstance(value, list):
        return [x for v in value for x in flat(v)]
    return [value]


def agrees(text, exact):
    """The page's text of a value against the exact JSON value, to the digits it shows."""
    if isinstance(exact, str):
        return text == exact
    if isinstance(exact, bool):
        return text in ("true", "false", "1", "0")
    exact_numbers = [(-math.inf if x is None else x) for x in flat(exact)]
    if not all(isinstance(x, (int, float)) for x in exact_numbers):
        return text == json.dumps(exact)
    shown = shown_numbers(text)
    if len(shown) != len(exact_numbers):
        return False
    for (value, decimals), x in zip(shown, exact_numbers):
        if math.isinf(value) or math.isinf(x):
            if value != x:
                return False
            continue
        # a value rounded to `decimals`: within half a unit of its last place (1e-12 relative
        # beyond it; 1e-9 absolute where |x| < 1e-3)
        slack = 0.5 * 10.0 ** -decimals + max(1e-12 * abs(x), 1e-9 if abs(x) < 1e-3 else 0)
        if abs(value - x) > slack * (1 + 1e-9):
            return False
    return True


class Checker:
    def __init__(self, attnbook, lesson):
        self.attnbook = attnbook
        self.lesson = lesson
        self.failures = []
        self.values_checked = 0
        self.values_by_expression = 0
        self.claims_checked = 0
        self.tables_checked = 0
        self.by_view = {}  # the entries of the views compared by entry(), by view

    def fail(self, what):
        self.failures.append("%s: %s" % (os.path.basename(self.lesson), what))

    def compare(self, shown, label):
        expected = compute(self.attnbook, self.lesson, shown["sets"])
        for value in shown["values"]:
            if value["path"] is None:
                self.values_by_expression += 1  # an expression: the claims' check covers it
                continue
            try:
                exact = resolve(expected, value["path"])
            except KeyError:
                if value["text"] != "—":
                    self.fail("%s: {{%s}} shows %r, compute has no such value" %
                              (label, value["path"], value["text"]))
                continue
            self.values_checked += 1
            if not agrees(value["text"], exact):
                self.fail("%s: {{%s}} shows %r, compute says %s" %
                          (label, value["path"], value["text"], json.dumps(exact)[:200]))
        claims = {}
        for claim in expected.get("claims", []):
            claims.setdefault((claim["line"], claim["expr"]), claim)
        for claim in shown["claims"]:
            verdict = claims.get((claim["line"], claim["expr"]))
            if verdict is None:
                self.fail("%s: claim %r (line %d) is not in compute's claims" %
                          (label, claim["expr"], claim["line"]))
                continue
            self.claims_checked += 1
            if claim["marked"] == verdict["holds"]:
                self.fail("%s: claim %r (line %d) %s on the page, holds=%s for compute" %
                          (label, claim["expr"], claim["line"],
                           "marked false" if claim["marked"] else "unmarked", verdict["holds"]))
        self.compare_tables(shown, expected, label)
        if shown["violations"]:
            self.fail("%s: Content-Security-Policy violations: %s" %
                      (label, shown["violations"]))
        return expected


    # The matrices view's tables against compute's numbers: the shares, the scores and the
    # output, entry by entry as far as the table shows them. An edited cell's tables must follow
    # (not be dimmed), since the core redraws them.
    TABLE_PATHS = (("A = softmax(S)", "weights"), ("S = Q Kᵀ · s", "scores"),
                   ("Y", "output"), ("Output", "output"), ("Shares", "weights"))

    def compare_tables(self, shown, expected, label):
        for view in shown["tables"]:
            if view["cell"] in shown.get("edited", []) and view["stale"]:
                self.fail("%s: cell %s's tables are dimmed, not redrawn" % (label, view["cell"]))
            if view["stale"]:
                continue
            cells = [c for c in expected["cells"] if c.get("id") == view["cell"]]
            if view["view"] == "next":
                self.compare_chances(view, cells, label)
                continue
            if view["view"] == "gradients":
                self.compare_gradients(view, cells, label)
                continue
            if view["view"] in self.TRANSFORMER_VIEWS:
                if cells:
                    getattr(self, "compare_" + view["view"])(view, cells[0], label)
                continue
            attention = cells[0] if cells else None
            if view["view"] == "attention":
                # a transformer's layers' attention: checked where there is one layer
                if not cells or cells[0].get("layers_run") != 1:
                    continue
                attention = cells[0]["layers"][0]["attention"]
            for table in view["tables"]:
                key = next((k for prefix, k in self.TABLE_PATHS
                            if table["caption"].startswith(prefix)), None)
                if table["caption"].startswith("Shares of"):
                    continue  # a query's share bars, not the whole matrix
                if key is None or attention is None:
                    continue
                head = re.search(r"head (\d+)", table["caption"] + " " + table["note"])
                exact = (attention["output"] if key == "output" else
                         attention["head"][int(head.group(1)) - 1 if head else 0][key])
                for r, row in enumerate(table["rows"]):
                    for c, text in enumerate(row):
                        if text == "" and view["view"] in ("heatmap", "attention"):
                            continue  # a masked square, or one too small for its value
                        self.tables_checked += 1
                        if not agrees(text, exact[r][c]):
                            self.fail("%s: cell %s, %s [%d][%d] shows %r, compute says %s" %
                                      (label, view["cell"], table["caption"], r, c, text,
                                       exact[r][c]))


    # An attention cell's gradients view (core/present/gradient_view_html.h): each table against
    # compute's grad.NAME, entry by entry as far as it shows them.
    GRADIENT_PATHS = {"G_Y = ∂L/∂Y": "upstream", "∂L/∂Q": "queries", "∂L/∂K": "keys",
                      "∂L/∂V": "values"}

    def compare_gradients(self, view, cells, label):
        self.label = label
        if not cells or "grad" not in cells[0]:
            return
        grad = cells[0]["grad"]
        for table in view["tables"]:
            name = self.GRADIENT_PATHS.get(table["caption"], table["caption"].replace("∂L/∂", ""))
            if name not in grad:
                self.fail("%s: cell %s's gradients show %r, compute has no grad.%s" %
                          (label, view["cell"], table["caption"], name))
                continue
            exact = grad[name]
            if exact and not isinstance(exact[0], list):
                exact = [exact]  # a bias: one row
            for r, row in enumerate(table["rows"]):
                for c, text in enumerate(row):
                    self.entry(view, text, exact[r][c], "%s [%d][%d]" % (table["caption"], r, c))

    # A transformer cell's other views (core/present/transformer_view_html.h), written by the
    # core for the page and again after a what-if: each number against compute's for the row
    # the view follows (its note names it: "(row K)").
    TRANSFORMER_VIEWS = ("stream", "ffn", "generation", "cache", "blocks", "knockout")

    def entry(self, view, text, exact, what):
        self.tables_checked += 1
        self.by_view[view["view"]] = self.by_view.get(view["view"], 0) + 1
        if not agrees(text, exact):
            self.fail("%s: cell %s's %s: %s shows %r, compute says %s" %
                      (self.label, view["cell"], view["view"], what, text,
                       json.dumps(exact)[:200]))

    def focus_row(self, view):
        found = re.search(r"\(row (\d+)\)|, row (\d+) ", " ".join(view["notes"]))
        if not found:
            self.fail("%s: cell %s's %s names no row: %r" %
                      (self.label, view["cell"], view["view"], view["notes"]))
            return None
        return int(found.group(1) or found.group(2)) - 1

    def compare_stream(self, view, cell, label):
        self.label = label
        f = self.focus_row(view)
        if f is None or not view["tables"]:
            return
        table = view["tables"][0]
        layer = None
        for heads, row in zip(table["heads"], table["rows"]):
            where, what = heads[0], heads[1]
            if where.startswith("layer "):
                layer = cell["layers"][int(where.split()[1]) - 1]
            if what.startswith("X⁰"):
                vector = cell["X"][f]
            elif what.startswith("+ attention"):
                vector = layer["attention"]["output"][f]
            elif what == "= R":
                vector = layer["resid1"][f]
            elif what.startswith("+ FFN"):
                vector = layer["ffn"]["out"][f]
            elif what.startswith("= X"):
                vector = layer["resid2"][f]
            elif what.startswith("Z = LN"):
                vector = cell["final_ln"][f]
            else:
                self.fail("%s: cell %s's stream has a stage %r" % (label, view["cell"], what))
                continue
            for i, text in enumerate(row[:-1]):
                self.entry(view, text, vector[i], "%s [%d]" % (what, i))
            self.entry(view, row[-1], math.sqrt(sum(x * x for x in vector)), what + " length")

    def compare_ffn(self, view, cell, label):
        self.label = label
        if not view["tables"]:  # no layer runs an FFN: the view says so, and compute agrees
            if any(layer.get("ffn") for layer in cell["layers"]):
                self.fail("%s: cell %s's FFN view shows none (%r), compute has one" %
                          (label, view["cell"], view["notes"]))
            return
        f = self.focus_row(view)
        if f is None:
            return
        layers = iter([layer["ffn"] for layer in cell["layers"] if layer["ffn"]])
        ffn = next(layers, None)
        for table in view["tables"]:
            if ffn is None:
                self.fail("%s: cell %s's FFN shows more layers than it has" %
                          (label, view["cell"]))
                return
            if table["caption"] == "":  # few units: z and act(z) whole
                for k, text in enumerate(table["rows"][0]):
                    self.entry(view, text, ffn["pre"][f][k], "z [%d]" % k)
                for k, text in enumerate(table["rows"][1]):
                    self.entry(view, text, ffn["act"][f][k], "act(z) [%d]" % k)
                ffn = next(layers, None)
            elif table["caption"].startswith("act(z)"):  # the first units' grid
                shown = [text for row in table["rows"] for text in row]
                for k, text in enumerate(shown):
                    self.entry(view, text, ffn["act"][f][k], "act(z) [%d]" % k)
            elif table["caption"] == "The strongest":
                for heads, row in zip(table["heads"], table["rows"]):
                    unit = int(heads[0]) - 1
                    self.entry(view, row[0], ffn["pre"][f][unit], "z [%d]" % unit)
                    self.entry(view, row[1], ffn["act"][f][unit], "act(z) [%d]" % unit)
                ffn = next(layers, None)

    def compare_generation(self, view, cell, label):
        self.label = label
        steps = (cell.get("generation") or {}).get("steps", [])
        if not view["tables"]:
            if steps:
                self.fail("%s: cell %s generated %d words, the page shows none" %
                          (label, view["cell"], len(steps)))
            return
        rows = [r for h, r in zip(view["tables"][0]["heads"], view["tables"][0]["rows"])
                if h[0] != "all"]
        if len(rows) != len(steps):
            self.fail("%s: cell %s shows %d steps, compute has %d" %
                      (label, view["cell"], len(rows), len(steps)))
        for i, (row, step) in enumerate(zip(rows, steps)):
            self.entry(view, row[0], step["word"], "step %d's word" % (i + 1))
            self.entry(view, row[1], step["prob"], "step %d's chance" % (i + 1))
            self.entry(view, row[2], step["cost_cached"], "step %d with the cache" % (i + 1))
            self.entry(view, row[3], step["cost_full"], "step %d without it" % (i + 1))

    def compare_cache(self, view, cell, label):
        self.label = label
        generation = cell.get("generation") or {}
        steps = generation.get("steps", [])
        held = re.search(r"= ([0-9 ,.]+) numbers", " ".join(view["notes"]))
        if held and steps:
            self.entry(view, held.group(1), generation["cache_numbers"], "numbers cached")
        elif steps:
            self.fail("%s: cell %s's cache says no count: %r" %
                      (label, view["cell"], view["notes"]))
        if view["tables"]:
            chances = view["tables"][0]["chances"]
            for i, step in enumerate(steps[:len(chances) // 2]):
                self.entry(view, chances[2 * i], step["cost_cached"], "step %d cached" % (i + 1))
                self.entry(view, chances[2 * i + 1], step["cost_full"], "step %d full" % (i + 1))

    def compare_blocks(self, view, cell, label):
        self.label = label
        f = self.focus_row(view)
        if f is None or not view["tables"]:
            return
        plain = cell["layers"][-1]["attention"]["head"][0]["context"][f]
        for heads, row in zip(view["tables"][0]["heads"], view["tables"][0]["rows"]):
            if heads[0].startswith("output") or heads[0].startswith("plain path"):
                for i, text in enumerate(row[2:]):
                    self.entry(view, text, plain[i], "%s [%d]" % (heads[0], i))

    def compare_knockout(self, view, cell, label):
        self.label = label
        f = self.focus_row(view)
        if f is None or not view["tables"]:
            return
        probs = cell["probs"][f]
        top = max(range(len(probs)), key=lambda k: (probs[k], -k))
        chances = view["tables"][0]["chances"]
        self.entry(view, chances[0], probs[top], "the whole model's chance")
        if f != cell["n"] - 1:
            return  # compute gives each knock-out's last row only
        knocked = cell.get("knockout", {})
        parts = []
        for heads, attention, ffn, block in zip(knocked["head"], knocked["attention"],
                                                knocked["ffn"], knocked["block"]):
            parts += heads + [attention, ffn, block]
        for i, (text, part) in enumerate(zip(chances[1:], parts)):
            self.entry(view, text, part["probs"][top], "bar %d" % (i + 1))

    def compare_chances(self, view, cells, label):
        """The next word's chances: the likeliest words in compute's order, each chance to the
        digits shown (a chosen word shown apart, after them, is not in compute's list)."""
        if not cells or not view["tables"]:
            self.fail("%s: cell %s shows no chances" % (label, view["cell"]))
            return
        table = view["tables"][0]
        expected = cells[0]["next"]
        for i, entry in enumerate(expected):
            self.tables_checked += 1
            if i >= len(table["labels"]) or table["labels"][i] != entry["word"]:
                self.fail("%s: cell %s's chances: row %d is %r, compute's word %r" %
                          (label, view["cell"], i, table["labels"][i:i + 1], entry["word"]))
            elif not agrees(table["chances"][i], entry["prob"]):
                self.fail("%s: cell %s's chance of %r shows %r, compute says %s" %
                          (label, view["cell"], entry["word"], table["chances"][i],
                           entry["prob"]))


# --- the quizzes, answered through the page's own forms ----------------------------------------

def check_quizzes(page, checker, expected, label):
    """Answers each quiz of the page right and wrong (a choice; a number, typed as a decimal and
    as a fraction; junk; words) and checks the verdict shown against compute's answer
    (`expected`, for the what-ifs in force). Returns how many answers were checked."""
    answered = 0
    junk_tried = False
    for quiz in page.quizzes():
        where = "%s: quiz %s" % (label, quiz["quiz"])
        if quiz["hidden"]:
            checker.fail("%s: its form is still hidden on the live page" % where)
            continue
        try:
            exact = resolve(expected, quiz["quiz"] + ".answer")
        except KeyError:
            checker.fail("%s: compute gives no answer" % where)
            continue

        def expect(given, verdict, says, answer=None):
            shown = page.answer_quiz(quiz["quiz"], given)
            if shown["verdict"] != verdict or not says(shown["says"]):
                checker.fail("%s: %r shows %r (%s)" % (where, given, shown["says"],
                                                       shown["verdict"]))
            if verdict in ("right", "wrong", "sample") and shown["open"] is not True:
                checker.fail("%s: %r did not open the answer and its explanation" %
                             (where, given))
            if answer is not None and (shown["answer"] is None or
                                       not agrees(shown["answer"], answer)):
                checker.fail("%s: the folded answer reads %r, compute says %r" %
                             (where, shown["answer"], answer))
            if shown["violations"]:
                checker.fail("%s: Content-Security-Policy violations: %s" %
                             (where, shown["violations"]))
            return shown

        if quiz["kind"] == "choice":
            letter = chr(ord("A") + exact)
            expect(str((exact + 1) % quiz["choices"]), "wrong",
                   lambda s: s.startswith("Not quite — the answer is %s: " % letter))
            shown = expect(str(exact), "right", lambda s: s == "Right.")
            if shown["staticChoices"] is not True:
                checker.fail("%s: the static list of choices still shows beside the form" %
                             where)
            answered += 2
        elif quiz["kind"] == "number":
            def says_answer(prefix):
                def check(s):
                    if not (s.startswith(prefix) and s.endswith(".")):
                        return False
                    return agrees(s[len(prefix):-1], exact)
                return check
            far = exact + 10 * max(abs(exact), 1)
            expect(repr(far), "wrong", says_answer("Not quite — the answer is "), exact)
            expect(repr(exact * 4) + "/4", "right", says_answer("Right — the answer is "), exact)
            expect(repr(exact), "right", says_answer("Right — the answer is "), exact)
            answered += 3
            if not junk_tried:
                expect("a quarter", "not-a-number",
                       lambda s: s == "Not a number: 'a quarter' is not a number.")
                junk_tried = True
                answered += 1
        else:
            expect("My own words.", "sample",
                   lambda s: s == "Compare yours with the sample answer below.")
            answered += 1
    return answered

# --- the cells' controls, used as a reader uses them ----------------------------------------

# What each widget kind does when the check uses it: a snippet run with `form` (the cell's
# form) in scope that clicks or types as a reader would, and returns false when the widget is
# not there or offers nothing to change. Each makes one what-if.
WIDGET_ACTIONS = {
    "remove a token": """
      const button = [...form.querySelectorAll('.chip [data-op=remove]')].pop();
      if (!button || button.disabled) return false;
      button.click(); return true;""",
    "move a token right": """
      const button = form.querySelector('.chip [data-op=right]');
      if (!button || button.disabled) return false;
      button.focus(); button.click(); return true;""",
    "add a token": """
      const add = form.querySelector('[data-field=add]');
      if (!add) return false;
      if (add.tagName === 'SELECT') {
        add.selectedIndex = add.options.length - 1;
      } else {
        add.value = 'new';
      }
      form.querySelector('button[data-op=add]').click(); return true;""",
    "set a large matrix's entry": """
      const entry = form.querySelector('.control-entry');
      if (!entry) return false;
      entry.querySelector('[data-entry=row]').value = '2';
      entry.querySelector('[data-entry=col]').value = '3';
      entry.querySelector('[data-entry=value]').value = '0.5';
      entry.querySelector('[data-entry=set]').click(); return true;""",
    "step the heads": """
      const more = form.querySelector('[data-op=more]');
      const fewer = form.querySelector('[data-op=fewer]');
      const button = more && !more.disabled ? more : fewer;
      if (!button || button.disabled) return false;
      button.click(); return true;""",
    "switch the mask": """
      const mask = form.querySelector('[data-field=mask]');
      if (!mask) return false;
      mask.click(); return true;""",
    "choose positions": """
      const select = form.querySelector('[data-field=positional]');
      if (!select || select.options.length < 2) return false;
      select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
      select.dispatchEvent(new Event('change')); return true;""",
    "choose a scale": """
      const select = form.querySelector('[data-field=scale]');
      if (!select) return false;
      select.value = 'divisor';
      form.querySelector('[data-field=divisor]').value = '3';
      select.dispatchEvent(new Event('change')); return true;""",
    "type a temperature": """
      const field = form.querySelector('[data-field=temperature]');
      if (!field) return false;
      field.value = '0.5';
      field.dispatchEvent(new Event('change')); return true;""",
    "slide the temperature": """
      const slider = form.querySelector('[data-field=temperature-slider]');
      if (!slider) return false;
      slider.value = '2';
      slider.dispatchEvent(new Event('input'));
      slider.dispatchEvent(new Event('change')); return true;""",
    "change a vector's entry": """
      const input = form.querySelector('.control-matrix[data-control=vectors] input');
      if (!input) return false;
      input.value = String(Number(input.value) + 0.5);
      input.dispatchEvent(new Event('change', {bubbles: true})); return true;""",
    "change a projection's entry": """
      const input = form.querySelector('.control-matrix[data-control=projections] input');
      if (!input) return false;
      input.value = '-1';
      input.dispatchEvent(new Event('change', {bubbles: true})); return true;""",
    "pick generated words by their chance": """
      const pick = form.querySelector('[data-field=pick]');
      const count = form.querySelector('[data-field=generate]');
      if (!pick || !count || count.value === '0') return false;
      pick.value = pick.value === 'sample' ? 'greedy' : 'sample';
      pick.dispatchEvent(new Event('change')); return true;""",
    "choose the layers run": """
      const select = form.querySelector('[data-field=layers]');
      if (!select || select.options.length < 2) return false;
      select.selectedIndex = 0;
      select.dispatchEvent(new Event('change')); return true;""",
    "switch LayerNorm off": """
      const norm = form.querySelector('[data-field=norm]');
      if (!norm) return false;
      norm.click(); return true;""",
    "switch the FFN off": """
      const ffn = form.querySelector('[data-field=ffn]');
      if (!ffn) return false;
      ffn.click(); return true;""",
    "type words to generate": """
      const field = form.querySelector('[data-field=generate]');
      if (!field) return false;
      field.value = '2';
      field.dispatchEvent(new Event('change')); return true;""",
}

# What the widgets show: the chips' words, the heads, the mask switch, the selects and fields.
WIDGET_STATE = """
  const value = (name) => {
    const f = form.querySelector('[data-field=' + name + ']');
    return f ? (f.type === 'checkbox' ? f.checked : (f.value !== undefined && f.tagName !== 'SPAN'
      ? f.value : f.textContent)) : null;
  };
  return {tokens: [...form.querySelectorAll('.chip-word')].map(w => w.textContent),
          heads: value('heads'), mask: value('mask'), positional: value('positional'),
          scale: value('scale'), temperature: value('temperature'),
          generate: value('generate'), pick: value('pick'), layers: value('layers'),
          norm: value('norm'),
          ffn: value('ffn'),
          grids: [...form.querySelectorAll('.control-matrix input')].map(i => i.value),
          refusal: form.querySelector('.control-refusal').hidden ? ''
            : form.querySelector('.control-refusal').textContent};"""


def on_form(page, cell, body):
    return json.loads(page.evaluate("""JSON.stringify((() => {
      const form = document.querySelector('form.what-ifs[data-cell=' + %s + ']');
      if (!form) return null;
      %s })())""" % (json.dumps(json.dumps(cell)), body)))


def widgets_agree(state, cell_json, label, checker):
    """The widgets against compute's cell: its tokens, its number of heads."""
    tokens = cell_json.get("tokens")
    if isinstance(tokens, list) and state["tokens"] and state["tokens"] != tokens:
        checker.fail("%s: the chips show %s, compute's tokens are %s" %
                     (label, state["tokens"], tokens))
    heads = cell_json.get("head")
    if state["heads"] is not None and isinstance(heads, list) and \
            state["heads"] != str(len(heads)):
        checker.fail("%s: the heads stepper shows %s, compute has %d heads" %
                     (label, state["heads"], len(heads)))


def check_widgets(page, checker, offered, url, timings):
    """Each widget kind, once on the first cell that has it: used as a reader would, its
    what-if compared with `compute --set` for the words the page made, the widgets showing what
    compute computed; then the page's Undo puts the widgets back as the lesson has them.
    Returns the kinds used; adds (kind, words, page ms, core ms, whole ms) to `timings`."""
    used = []
    for action, body in WIDGET_ACTIONS.items():
        for form in offered:
            cell = form["cell"]
            page.reset_all()
            before = on_form(page, cell, WIDGET_STATE)
            if not on_form(page, cell, body):
                continue
            shown = page.shown()
            label = "%s: %s" % (cell, action)
            after = on_form(page, cell, WIDGET_STATE)
            if after["refusal"]:
                checker.fail("%s: refused: %s" % (label, after["refusal"]))
                break
            if not shown["sets"] or not all(s.startswith(cell + ".") for s in shown["sets"]):
                checker.fail("%s made %s: %s" % (label, shown["sets"], shown["notes"]))
                break
            timings.append((action, shown["sets"], shown["millis"], shown["coreMillis"],
                            shown["wholeMillis"]))
            expected = checker.compare(shown, "%s (%s)" % (label, " & ".join(shown["sets"])))
            cells = [c for c in expected["cells"] if c.get("id") == cell]
            if cells:
                widgets_agree(after, cells[0], label, checker)
            # a large matrix's entry fields are a way in, not a state: the views show the change
            if after == before and action != "set a large matrix's entry":
                checker.fail("%s: the widgets still show the lesson's %s" % (label, before))
            if action == "move a token right":
                # a keyboard reader stays on the chip's button where the token went
                focus = json.loads(page.evaluate("""JSON.stringify([
                  document.activeElement.closest('.chip') ?
                    document.activeElement.closest('.chip').dataset.index : null,
                  document.activeElement.dataset.op || null])"""))
                if focus[0] != "1":
                    checker.fail("%s: the focus went to %s, not the moved chip" % (label, focus))
            page.evaluate("document.getElementById('live-undo').click()")
            page.shown()
            back = on_form(page, cell, WIDGET_STATE)
            if back != before:
                checker.fail("%s: after Undo the widgets show %s, not the lesson's %s" %
                             (label, back, before))
            if not used:
                # a link carrying the what-if opens the page with the widgets showing it
                link = url + "#" + "&".join("set=" + urllib.parse.quote(w, safe="")
                                            for w in shown["sets"])
                page.call("Page.navigate", {"url": "about:blank"})
                page.call("Page.navigate", {"url": link})
                page.wait_until_live(time.monotonic())
                linked = on_form(page, cell, WIDGET_STATE)
                if linked != after:
                    checker.fail("%s: the link's widgets show %s, not %s" %
                                 (label, linked, after))
            used.append(action)
            break
    return used


# Each entry of a cell's views, by its place: [view, table, caption, row, column] → its text
# (without the lesson's text Compare adds), whether it is marked changed, and the lesson's text
# Compare shows in it; and the summary line with the lesson's summary under it.
CELL_ENTRIES = """
  const section = document.getElementById('cell-' + cell);
  const own = (e) => [...e.childNodes].filter(n => !(n.nodeType === 1 &&
    n.classList.contains('was'))).map(n => n.textContent).join('');
  const entries = [];
  for (const figure of section.querySelectorAll('figure.view')) {
    figure.querySelectorAll('table').forEach((table, t) => {
      const caption = table.caption ? table.caption.textContent.trim() : '';
      [...table.rows].forEach((row, r) => [...row.cells].forEach((entry, c) => {
        if (entry.tagName !== 'TD') return;
        entries.push({at: [figure.dataset.view, t, caption, r, c], text: own(entry),
                      changed: entry.classList.contains('changed'),
                      was: [...entry.querySelectorAll('.was')].map(w => ({
                        text: w.textContent,
                        lesson: w.querySelector('.was-text').textContent}))});
      }));
    });
  }
  const summary = section.querySelector('.cell-summary');
  const button = document.querySelector('form.what-ifs[data-cell=' + JSON.stringify(cell) +
                                        '] [data-action=compare]');
  return {entries: entries, summary: summary ? summary.textContent : null,
          summaryWas: [...section.querySelectorAll('.cell-head .was .was-text')].map(
            w => w.textContent),
          wasAnywhere: section.querySelectorAll('.was').length,
          pressed: button.getAttribute('aria-pressed'), disabled: button.disabled,
          label: button.textContent};"""


def cell_entries(page, cell):
    return json.loads(page.evaluate("""JSON.stringify((() => { const cell = %s; %s })())""" %
                                    (json.dumps(cell), CELL_ENTRIES)))


def press_compare(page, cell):
    """Tabs to the cell's Compare as a keyboard reader would (focus, then Enter)."""
    focused = page.evaluate("""(() => {
      const button = document.querySelector('form.what-ifs[data-cell=' + %s +
                                            '] [data-action=compare]');
      button.focus();
      return document.activeElement === button; })()""" % json.dumps(json.dumps(cell)))
    for kind in ("keyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter",
                                             "windowsVirtualKeyCode": 13,
                                             "text": "\r" if kind == "keyDown" else ""})
    return focused


def check_compare(page, checker, offered):
    """A cell's "Compare with the lesson's numbers": off and disabled as the lesson has it; after
    a what-if that keeps its views' tables (the same tables under the same captions), pressed
    from the keyboard, every changed entry shows exactly the static page's text of the same
    entry and no other entry shows any, the summary line the lesson's summary; it stays pressed
    across the cell's next what-if, pressing it again takes them away, and Reset this cell turns
    it off. Returns the number of entries compared."""
    tries = 8  # what-ifs tried in all, those that keep the tokens first
    for form in offered:
        cell = form["cell"]
        page.reset_all()
        page.shown()
        lesson = cell_entries(page, cell)
        if lesson["label"] != "Compare with the lesson's numbers" or \
                lesson["pressed"] != "false" or not lesson["disabled"]:
            checker.fail("%s: with no what-if Compare is %r, pressed %s, disabled %s" %
                         (cell, lesson["label"], lesson["pressed"], lesson["disabled"]))
        static = {json.dumps(e["at"]): e["text"] for e in lesson["entries"]}
        for words in sorted(form["options"], key=lambda w: any(".tokens=" in x for x in w)):
            if tries == 0:
                return 0
            tries -= 1
            page.reset_all()
            page.choose(cell, words)
            page.shown()
            after = cell_entries(page, cell)
            changed = [e for e in after["entries"] if e["changed"]]
            if not changed or any(json.dumps(e["at"]) not in static for e in after["entries"]):
                continue  # nothing to compare, or its tables are not the lesson's
            label = "%s: Compare after %s" % (cell, " & ".join(words))
            if after["disabled"] or after["wasAnywhere"]:
                checker.fail("%s: before it is pressed: disabled %s, %d lesson's texts shown" %
                             (label, after["disabled"], after["wasAnywhere"]))
            if not press_compare(page, cell):
                checker.fail("%s: the keyboard cannot reach it" % label)
            on = cell_entries(page, cell)
            if on["pressed"] != "true":
                checker.fail("%s: Enter left it pressed=%s" % (label, on["pressed"]))
            compared = 0
            for entry in on["entries"]:
                lesson_text = static[json.dumps(entry["at"])]
                want = [{"text": "was " + lesson_text, "lesson": lesson_text}] \
                    if entry["changed"] else []
                if entry["was"] != want:
                    checker.fail("%s: entry %s (%r, the lesson's %r) shows %s" %
                                 (label, entry["at"], entry["text"], lesson_text, entry["was"]))
                compared += 1 if entry["changed"] else 0
            want_summary = [lesson["summary"]] if on["summary"] != lesson["summary"] else []
            if on["summary"] is not None and on["summaryWas"] != want_summary:
                checker.fail("%s: the summary %r shows the lesson's %s, not %s" %
                             (label, on["summary"], on["summaryWas"], want_summary))
            # the cell's next what-if: still pressed, the lesson's texts beside the new ones
            others = [w for w in form["options"] if w != words]
            if others:
                page.choose(cell, others[0])
                page.shown()
                next_one = cell_entries(page, cell)
                marked = sum(1 for e in next_one["entries"] if e["changed"])
                shown = sum(len(e["was"]) for e in next_one["entries"])
                if not next_one["disabled"] and (next_one["pressed"] != "true" or
                                                 shown != marked):
                    checker.fail("%s, then %s: pressed %s, %d of %d changed entries show the "
                                 "lesson's" % (label, " & ".join(others[0]),
                                               next_one["pressed"], shown, marked))
            press_compare(page, cell)
            off = cell_entries(page, cell)
            if off["pressed"] != "false" or off["wasAnywhere"]:
                checker.fail("%s: pressed again: pressed %s, %d lesson's texts still shown" %
                             (label, off["pressed"], off["wasAnywhere"]))
            press_compare(page, cell)
            page.evaluate("""document.querySelector('form.what-ifs[data-cell=' + %s +
                             '] [data-action=reset]').click()""" % json.dumps(json.dumps(cell)))
            page.shown()
            reset = cell_entries(page, cell)
            if reset["pressed"] != "false" or not reset["disabled"] or reset["wasAnywhere"]:
                checker.fail("%s: after Reset this cell: pressed %s, disabled %s, %d lesson's "
                             "texts shown" % (label, reset["pressed"], reset["disabled"],
                                              reset["wasAnywhere"]))
            return compared
    return 0


TEXT_COMPARE = """(() => {
  const button = document.getElementById('live-text-compare');
  return {pressed: button.getAttribute('aria-pressed'), disabled: button.disabled,
          changed: [...document.querySelectorAll('[data-bind].changed')].map(e => ({
            bind: e.dataset.bind, lesson: e.dataset.lesson,
            beside: e.nextElementSibling && e.nextElementSibling.matches('.was.in-text') ?
              e.nextElementSibling.textContent : null})),
          shown: document.querySelectorAll('.was.in-text').length,
          values: Object.fromEntries([...document.querySelectorAll('[data-bind]')].map(
            e => [e.dataset.bind, e.textContent]))};
})()"""


def press_text_compare(page):
    """Focuses "The lesson's numbers in the text" and presses Enter, as a keyboard does."""
    page.evaluate("document.getElementById('live-text-compare').focus()")
    for kind in ("keyDown", "keyUp"):
        page.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter",
                                             "windowsVirtualKeyCode": 13,
                                             "text": "\r" if kind == "keyDown" else ""})


def check_text_compare(page, checker, label):
    """The live bar's "The lesson's numbers in the text", with a what-if in force that
    changed bound numbers: pressed, each changed number has exactly the lesson's text beside it
    (and nothing else has any); pressed again, none; after Reset all it is off and disabled,
    and the numbers the text shows are the ones it had said were the lesson's. Returns the
    numbers compared."""
    before = json.loads(page.evaluate("JSON.stringify(%s)" % TEXT_COMPARE))
    if not before["changed"]:
        return 0
    if before["pressed"] != "false" or before["disabled"] or before["shown"]:
        checker.fail("%s: before it is pressed, the text compare is pressed %s, disabled %s, "
                     "%d shown" % (label, before["pressed"], before["disabled"], before["shown"]))
    press_text_compare(page)
    on = json.loads(page.evaluate("JSON.stringify(%s)" % TEXT_COMPARE))
    if on["pressed"] != "true" or on["shown"] != len(on["changed"]):
        checker.fail("%s: pressed %s, %d lesson's numbers shown for %d changed" %
                     (label, on["pressed"], on["shown"], len(on["changed"])))
    for entry in on["changed"]:
        if entry["beside"] != "the lesson's: " + entry["lesson"]:
            checker.fail("%s: bound value %s (the lesson's %r) has %r beside it" %
                         (label, entry["bind"], entry["lesson"], entry["beside"]))
    press_text_compare(page)
    off = json.loads(page.evaluate("JSON.stringify(%s)" % TEXT_COMPARE))
    if off["pressed"] != "false" or off["shown"]:
        checker.fail("%s: pressed again: pressed %s, %d still shown" %
                     (label, off["pressed"], off["shown"]))
    press_text_compare(page)
    page.reset_all()
    page.shown()
    reset = json.loads(page.evaluate("JSON.stringify(%s)" % TEXT_COMPARE))
    if reset["pressed"] != "false" or not reset["disabled"] or reset["shown"]:
        checker.fail("%s: after Reset all: pressed %s, disabled %s, %d shown" %
                     (label, reset["pressed"], reset["disabled"], reset["shown"]))
    for entry in on["changed"]:
        if reset["values"].get(entry["bind"]) != entry["lesson"]:
            checker.fail("%s: bound value %s said the lesson's is %r; the lesson shows %r" %
                         (label, entry["bind"], entry["lesson"], reset["values"].get(entry["bind"])))
    return len(on["changed"])


def check_lesson(attnbook, documents, workdir, browser, name, bench):
    lesson = os.path.join(documents, name)
    page_file = os.path.join(workdir, name.replace(".md", ".html"))
    done = subprocess.run([attnbook, "export", lesson, "--html", page_file],
                          capture_output=True, text=True,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    if done.returncode != 0:
        return ["%s: export failed: %s" % (name, done.stderr)], None
    url = "file://" + urllib.parse.quote(os.path.abspath(page_file))
    checker = Checker(attnbook, lesson)
    browser.events.clear()
    page = Page(browser, url)
    timings = {"load": page.load_seconds, "what_ifs": []}
    expected = checker.compare(page.shown(), "as the lesson has it")
    quiz_started = time.monotonic()
    quiz_answers = check_quizzes(page, checker, expected, "as the lesson has it")
    quiz_seconds = time.monotonic() - quiz_started
    for form in page.what_ifs_offered():
        for value in sampled(form["options"]):
            page.reset_all()
            page.choose(form["cell"], value)
            shown = page.shown()
            timings["what_ifs"].append((value, shown["millis"], shown["coreMillis"],
                                        shown["wholeMillis"]))
            if not shown["sets"]:
                checker.fail("%s: choosing %r applied nothing: %s" %
                             (form["cell"], value, shown["notes"]))
            checker.compare(shown, "%s: %s" % (form["cell"], " + ".join(value)))
    # A cell's own Undo takes back the cell's last change, and only that.
    offered = page.what_ifs_offered()
    with_two = [f for f in offered if len(f["options"]) >= 2]
    if with_two:
        cell, first, last = with_two[0]["cell"], with_two[0]["options"][0], \
            with_two[0]["options"][-1]
        page.reset_all()
        page.choose(cell, first)
        after_first = page.shown()["sets"]
        page.choose(cell, last)
        # a what-if the lesson refuses with the first in force changes nothing to take back
        changed = page.shown()["sets"] != after_first
        enabled = page.undo_cell(cell)
        shown = page.shown()
        expected = after_first if changed else []
        if not enabled or shown["sets"] != expected:
            checker.fail("%s: Undo this cell after %s then %s shows %s, not %s (enabled: %s)" %
                         (cell, first, last, shown["sets"], expected, enabled))
        if changed:
            page.undo_cell(cell)
            if page.shown()["sets"]:
                checker.fail("%s: a second Undo this cell did not take back the first what-if" %
                             cell)
    compared = check_compare(page, checker, offered)
    timings["widgets"] = []
    widgets_used = check_widgets(page, checker, offered, url, timings["widgets"])
    # A what-if of one's own that the cell's controls do not allow is ignored, with a note.
    if offered:
        cell = offered[0]["cell"]
        page.reset_all()
        page.own(cell, "no_such_key=1")
        shown = page.shown()
        if shown["sets"] or not any("Not applied" in n for n in shown["notes"]):
            checker.fail("%s: a what-if outside the controls was not refused with a note: %s" %
                         (cell, shown["notes"]))
        # A link carries what-ifs: the first offered one, by #set=.
        first = offered[0]["options"][0] if offered[0]["options"] else []
        if first:
            link = url + "#" + "&".join("set=" + urllib.parse.quote(w, safe="") for w in first)
            page.call("Page.navigate", {"url": "about:blank"})
            page.call("Page.navigate", {"url": link})
            page.wait_until_live(time.monotonic())
            shown = page.shown()
            if shown["sets"] != first:
                checker.fail("the link %s applied %s" % (link, shown["sets"]))
            expected = checker.compare(shown, "link " + " & ".join(first))
            quiz_started = time.monotonic()
            quiz_answers += check_quizzes(page, checker, expected, "link " + " & ".join(first))
            quiz_seconds += time.monotonic() - quiz_started
            timings["text_compared"] = check_text_compare(page, checker,
                                                          "link " + " & ".join(first))
    for request in network_requests(browser, url):
        checker.fail("the page requested %s" % request)
    for error in console_errors(browser):
        checker.fail("console: " + error)
    print("%s: %d values, %d claims and %d table entries compared in %d states (%d values by "
          "expression, left to the claims); %d quiz answers checked in %.2f s; the widgets "
          "used: %s; %d changed entries compared with the lesson's" %
          (name, checker.values_checked, checker.claims_checked, checker.tables_checked,
           1 + len(timings["what_ifs"]) + len(widgets_used) + (1 if offered else 0),
           checker.values_by_expression, quiz_answers, quiz_seconds,
           ", ".join(widgets_used) or "none", compared))
    timings["compared"] = compared
    if checker.by_view:
        print("  of them: " + ", ".join("%s %d" % item for item in sorted(checker.by_view.items())))
    if bench:
        print_bench(bench, lesson, page_file, timings)
    return checker.failures, timings


def print_bench(native_bench, lesson, page_file, timings):
    size = os.path.getsize(page_file)
    gz = len(subprocess.run(["gzip", "-9", "-c", page_file], capture_output=True).stdout)
    print("  page %.2f MB (%.2f MB gzip), live %.2f s after it was opened" %
          (size / 1e6, gz / 1e6, timings["load"]))
    # a widget's what-if: from the reader's change (its words asked of the core) to the numbers
    what_ifs = timings["what_ifs"] + [(["(%s)" % w[0]] + w[1],) + w[2:]
                                      for w in timings["widgets"]]
    if not what_ifs:
        return
    native = subprocess.run([native_bench, lesson] +
                            ["\n".join(x for x in w[0] if not x.startswith("(")) for w in what_ifs],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    # page ms: from the click to its numbers; core ms: the core's part of it; whole ms: until
    # the gradient checks' sentences too; native: the same first question natively
    print("  %-8s %-8s %-9s %-8s %-6s %s" % ("page ms", "core ms", "whole ms", "native",
                                            "ratio", "what-if"))
    for (words, page_ms, core_ms, whole_ms), line in zip(what_ifs, native):
        native_ms = float(line.split(" ", 2)[0])
        print("  %-8.1f %-8.1f %-9.1f %-8.2f %-6.1f %s" % (
            page_ms, core_ms, whole_ms, native_ms, core_ms / max(native_ms, 1e-3),
            " & ".join(words).replace("\n", " ")[:60]))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    bench = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--bench=")), None)
    if len(args) != 2:
        print(__doc__)
        return 2
    attnbook, documents = args
    if shutil.which("chromium") is None:
        print("live_page_check: chromium is missing (Debian package chromium)")
        return 1
    failures = []
    used = set()  # the widget kinds used on some lesson: each must be
    compared = 0  # the changed entries Compare showed the lesson's text of
    text_compared = 0  # the changed bound numbers shown beside the lesson's
    with tempfile.TemporaryDirectory(prefix="attnbook-live-page-") as workdir:
        browser = Browser(os.path.join(workdir, "profile"))
        try:
            for name in LESSONS:
                lesson_failures, timings = check_lesson(attnbook, documents, workdir, browser,
                                                        name, bench)
                failures += lesson_failures
                used.update(w[0] for w in timings["widgets"]) if timings else None
                compared += timings["compared"] if timings else 0
                text_compared += timings.get("text_compared", 0) if timings else 0
        finally:
            browser.close()
    if compared == 0:
        failures.append("no shipped lesson's page let Compare show the lesson's numbers")
    if text_compared == 0:
        failures.append("no shipped lesson's page showed the lesson's numbers in its text")
    for action in WIDGET_ACTIONS:
        if action not in used:
            failures.append("no shipped lesson's page let the check %s" % action)
    for failure in failures[:60]:
        print("FAIL " + failure)
    if len(failures) > 60:
        print("... and %d more" % (len(failures) - 60))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
