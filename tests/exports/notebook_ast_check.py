#!/usr/bin/env python3
"""Checks the notebooks test_notebook_hostile wrote: one JSON line per notebook,
{"field": NAME, "notebook": {...}}, the benign lesson's first.

For each hostile notebook:
  - it has the benign notebook's code cells, in the same order (prose may add Markdown cells);
  - each code cell parses, and its syntax tree has the benign cell's shape: the same node
    types in the same places, where only the values of strings and the names of variables
    may differ (so no lesson text became a statement, an expression or a comment's escape);
  - each quiz keeps its answer folded: one <details>, one </details>, the answer after both;
  - its code runs from the top (stdout discarded): the first RUN_PER_FIELD of each field.
Exit status 0 when every notebook passes; otherwise the first failures are printed.
"""
import ast
import contextlib
import io
import json
import re
import sys


RUN_PER_FIELD = 60


def source(cell):
    return "".join(cell["source"])


ARITHMETIC = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Attribute,
              ast.Constant, ast.Load, ast.operator, ast.unaryop)
HELPERS = {"formula_min", "formula_max", "formula_sum", "formula_avg", "formula_rint"}


def formula_problem(node):
    """Why a chart formula's NumPy (on_axis's first argument) is more than arithmetic."""
    for part in ast.walk(node):
        if not isinstance(part, ARITHMETIC):
            return f"{type(part).__name__} in a formula"
        if isinstance(part, ast.Constant) and not isinstance(part.value, (int, float)):
            return f"a {type(part.value).__name__} constant in a formula"
        if isinstance(part, ast.Call):
            f = part.func
            named = isinstance(f, ast.Name) and f.id in HELPERS
            numpy = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "np"
            if not (named or numpy) or part.keywords:
                return f"a call of {ast.dump(f)} in a formula"
    return None


def masked(tree):
    """The tree with each chart formula (on_axis's first argument), which differs from lesson
    to lesson by design, replaced by 0 after checking that it is arithmetic only."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "on_axis" and node.args:
            problem = formula_problem(node.args[0])
            if problem:
                raise SyntaxError(problem)
            node.args[0] = ast.Constant(0)
    return tree


def shape(code):
    """The syntax tree's node types in walk order, constants by their Python type."""
    out = []
    for node in ast.walk(masked(ast.parse(code))):
        kind = type(node).__name__
        if isinstance(node, ast.Constant):
            kind += ":" + type(node.value).__name__
        out.append(kind)
    return out


def folds(markdown):
    opened = len(re.findall(r"<details", markdown, re.IGNORECASE))
    closed = len(re.findall(r"</details", markdown, re.IGNORECASE))
    return opened, closed


def run(cells):
    # The charts' plots are the slow part and draw nothing here: show_chart finds no matplotlib.
    sys.modules["matplotlib"] = None
    sys.modules["matplotlib.pyplot"] = None
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            if cell["cell_type"] == "code":
                exec(compile(source(cell), "<cell>", "exec"), namespace)


def check(benign, notebook, execute=True):
    cells = notebook["cells"]
    # Prose may hold headings, and so split into more Markdown cells; the code cells, and the
    # quizzes, must be the benign lesson's.
    mine_code = [c for c in cells if c["cell_type"] == "code"]
    their_code = [c for c in benign["cells"] if c["cell_type"] == "code"]
    if len(mine_code) != len(their_code):
        return f"it has {len(mine_code)} code cells, the benign lesson {len(their_code)}"
    for mine, theirs in zip(mine_code, their_code):
        if source(mine) == source(theirs):
            continue  # the notebook's own functions: no lesson text in them
        try:
            if shape(source(mine)) != shape(source(theirs)):
                return f"code cell {mine['id']} has another syntax tree:\n{source(mine)}"
        except SyntaxError as error:
            return f"code cell {mine['id']} does not parse ({error}):\n{source(mine)}"
    quizzes = {c["id"]: source(c) for c in cells if c["cell_type"] == "markdown"}
    for quiz in ("q", "free"):
        text = quizzes.get(quiz)
        if text is None:
            return f"quiz {quiz} is missing"
        if folds(text) != (1, 1):
            return f"quiz {quiz} has {folds(text)} <details>/</details>:\n{text}"
        fold = text.lower().find("<details")
        answer = max(text.find("**Answer"), text.find("**Sample answer"))
        if answer < fold or answer > text.lower().find("</details"):
            return f"quiz {quiz}'s answer is outside its fold:\n{text}"
    if not execute:
        return None
    try:
        run(cells)
    except Exception as error:  # noqa: BLE001 - any failure of the notebook is reported
        return f"does not run: {type(error).__name__}: {error}"
    return None


def main(path):
    with open(path, encoding="utf-8") as lines:
        entries = [json.loads(line) for line in lines if line.strip()]
    benign = entries[0]["notebook"]
    failure = check(benign, benign)
    if failure:
        print("the benign notebook fails:", failure)
        return 1
    failures = 0
    counts = {}
    for entry in entries[1:]:
        counts[entry["field"]] = counts.get(entry["field"], 0) + 1
        # Every notebook's syntax trees; the first RUN_PER_FIELD of each field (the round's
        # reproducers come first) also run, which takes about 20 ms each.
        failure = check(benign, entry["notebook"], counts[entry["field"]] <= RUN_PER_FIELD)
        if failure:
            failures += 1
            if failures <= 5:
                print(f"[{entry['field']}] {failure}\n")
    print("checked:", ", ".join(f"{field} {n}" for field, n in counts.items()))
    print(f"{len(entries) - 1} hostile notebooks, {failures} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
