#!/usr/bin/python3
"""`attnbook export FILE --notebook` against `attnbook compute`, with Jupyter's own tools.

For the shipped lessons and for a lesson of random cells (heads, masks, padding, positions,
custom scales, Q/K/V given directly with m ≠ n, biases, output widths, upstream gradients, and a
chart of every formula function), this script
  1. exports the notebook (twice: the bytes must not change),
  2. validates it with nbformat and checks that nbformat writes it back byte for byte,
  3. executes it with nbclient on the python3 kernel (ipykernel),
  4. compares every matrix the notebook stored in attnbook_results with `attnbook compute`'s
     JSON: |notebook − attnbook| ≤ 1e-12 · max(1, |attnbook|) for every number (a blocked
     score is null in the JSON and −∞ in the notebook), and every word and label exactly.
Transformer cells are compared stage by stage (compare_transformer); notebook_transformer.py
runs a lesson of them through the same steps.

usage: notebook_numpy.py ATTNBOOK DOCUMENTS_FOLDER WORK_FOLDER
Needs Debian's python3-nbformat, python3-nbclient, python3-ipykernel and python3-numpy
(scripts/setup.sh installs them); a missing one fails the test.
"""

import json
import math
import os
import random
import shutil
import subprocess
import sys

import nbformat
from nbclient import NotebookClient

TOLERANCE = 1e-12
TRAINED_TOLERANCE = 1e-9


class Comparison:
    def __init__(self):
        self.numbers = 0
        self.worst = 0.0  # the largest |difference| / max(1, |attnbook|)
        self.worst_at = ""
        self.failures = []
        self.tolerance = TOLERANCE  # looser for a cell that trains (compare_transformer)

    def number(self, where, expected, actual):
        self.numbers += 1
        if expected is None:  # a blocked score
            if actual != -math.inf:
                self.failures.append(f"{where}: attnbook has a blocked score, the notebook {actual}")
            return
        if actual is None or not math.isfinite(actual):
            self.failures.append(f"{where}: attnbook {expected!r}, the notebook {actual!r}")
            return
        error = abs(actual - expected) / max(1.0, abs(expected))
        if error > self.worst:
            self.worst, self.worst_at = error, where
        if error > self.tolerance:
            self.failures.append(f"{where}: attnbook {expected!r}, the notebook {actual!r}")

    def value(self, where, expected, actual):
        if isinstance(expected, list):
            if not isinstance(actual, list) or len(actual) != len(expected):
                self.failures.append(f"{where}: shape differs ({expected!r:.80} vs {actual!r:.80})")
                return
            for i, (e, a) in enumerate(zip(expected, actual)):
                self.value(f"{where}[{i}]", e, a)
        elif isinstance(expected, dict):
            for key, e in expected.items():
                if not isinstance(actual, dict) or key not in actual:
                    self.failures.append(f"{where}.{key}: missing from the notebook")
                else:
                    self.value(f"{where}.{key}", e, actual[key])
        elif expected is None and actual is None:
            return
        elif isinstance(expected, str):  # a word or a label
            if expected != actual:
                self.failures.append(f"{where}: attnbook {expected!r}, the notebook {actual!r}")
        else:
            self.number(where, expected, actual)


ATTENTION_KEYS = ["n", "d", "heads", "d_k", "d_v", "d_o", "scale", "X0", "P", "X", "Q", "K", "V",
                  "concat", "output", "grad"]


TRANSFORMER_KEYS = ["n", "d", "vocab_size", "layers_run", "tokens", "X0", "P", "X", "final_ln",
                    "logits", "probs", "next"]
LAYER_KEYS = ["input", "ln1", "resid1", "ln2", "ffn", "resid2"]
LAYER_ATTENTION_KEYS = ["X", "Q", "K", "V", "concat", "output"]


def compare_transformer(where, cell, mine, comparison):
    """A transformer cell (transformer.md): every stage of every layer, the logits, the chances,
    the loss, the next word and the generation; the gradients are attnbook's alone."""
    # A trained cell: docs/training.md holds two implementations to 1e-9 after training. Its
    # keys and scores are left out: b_K's gradient is zero but for rounding (softmax ignores a
    # shift of every key's score in a row), and Adam scales that noise up to whole steps, so b_K
    # drifts apart while the shares, the outputs and the loss do not.
    trained = "training" in cell
    comparison.tolerance = TRAINED_TOLERANCE if trained else TOLERANCE
    for key in TRANSFORMER_KEYS:
        comparison.value(f"{where}.{key}", cell[key], mine.get(key))
    if len(mine["layers"]) != len(cell["layers"]):
        comparison.failures.append(f"{where}: {len(mine['layers'])} layers, not {len(cell['layers'])}")
    for l, (layer, ours) in enumerate(zip(cell["layers"], mine["layers"])):
        at = f"{where}.layers[{l}]"
        for key in LAYER_KEYS:
            comparison.value(f"{at}.{key}", layer[key], ours[key])
        for key in LAYER_ATTENTION_KEYS:
            if not (trained and key == "K"):
                comparison.value(f"{at}.attention.{key}", layer["attention"][key],
                                 ours["attention"][key])
        for i, head in enumerate(layer["attention"]["head"]):
            for key in ("weights", "context") if trained else ("scores", "weights", "context"):
                comparison.value(f"{at}.attention.head[{i}].{key}", head[key],
                                 ours["attention"]["head"][i][key])
    if "training" in cell:  # the loss curve, by two implementations of training
        for key in ("loss", "held_out_loss", "grad_norm", "shown"):
            if key in cell["training"]:
                comparison.value(f"{where}.training.{key}", cell["training"][key],
                                 (mine.get("training") or {}).get(key))
    if "knockout" in cell:  # every part removed in turn: chances, words and loss
        comparison.value(f"{where}.knockout", cell["knockout"], mine.get("knockout"))
    elif mine.get("knockout") is not None:
        comparison.failures.append(f"{where}: knock-outs attnbook did not compute")
    if "loss" in cell:
        comparison.value(f"{where}.loss", cell["loss"], mine["loss"])
    elif mine["loss"] is not None:
        comparison.failures.append(f"{where}: a loss without targets")
    expected, actual = cell["generation"], mine["generation"]
    if (expected is None) != (actual is None):
        comparison.failures.append(f"{where}.generation: attnbook {expected!r:.80}, the notebook "
                                   f"{actual!r:.80}")
    elif expected is not None:
        comparison.value(f"{where}.generation.steps", expected["steps"], actual["steps"])
        comparison.value(f"{where}.generation.cache_numbers", expected["cache_numbers"],
                         actual["cache_numbers"])
        if ("refused" in expected) != ("refused" in actual):  # the reasons are worded apart
            comparison.failures.append(f"{where}.generation: refused by one side only "
                                       f"({expected.get('refused')!r}, {actual.get('refused')!r})")


def compare_lesson(name, computed, results, comparison):
    cells = 0
    for cell in computed["cells"]:
        where = f"{name}:{cell['id']}"
        if cell["kind"] == "quiz":
            continue
        cells += 1
        comparison.tolerance = TOLERANCE
        if cell["id"] not in results:
            comparison.failures.append(f"{where}: not in attnbook_results")
            continue
        mine = results[cell["id"]]
        if cell["kind"] == "chart":
            comparison.value(where + ".series", [{"x": s["x"], "y": s["y"]} for s in cell["series"]],
                             mine["series"])
            continue
        if cell["kind"] == "transformer":
            compare_transformer(where, cell, mine, comparison)
            continue
        for key in ATTENTION_KEYS:
            if key == "d" and cell.get("X") is None:
                continue  # direct mode has no model width
            comparison.value(f"{where}.{key}", cell[key], mine.get(key))
        if len(mine["head"]) != len(cell["head"]):
            comparison.failures.append(f"{where}: {len(mine['head'])} heads, not {len(cell['head'])}")
        for i, head in enumerate(cell["head"]):
            for key in ("scores", "weights", "context"):
                comparison.value(f"{where}.head[{i}].{key}", head[key], mine["head"][i][key])
    return cells


def run(arguments):
    done = subprocess.run(arguments, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(arguments)} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


COLLECT = """
import json as _json
def _plain(value):
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value
with open(%r, "w") as _out:
    _json.dump(_plain(attnbook_results), _out)
"""


def check_lesson(attnbook, lesson, work, comparison):
    name = os.path.basename(lesson)
    out = os.path.join(work, name + ".ipynb")
    again = os.path.join(work, name + ".again.ipynb")
    run([attnbook, "export", lesson, "--notebook", out])
    run([attnbook, "export", lesson, "--notebook", again])
    data = open(out, "rb").read()
    if data != open(again, "rb").read():
        comparison.failures.append(f"{name}: two exports of the same lesson differ")
    computed = json.loads(run([attnbook, "compute", lesson]))

    notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
    nbformat.validate(notebook)  # raises on anything the nbformat 4 schema refuses
    if nbformat.writes(notebook) + "\n" != data.decode("utf-8"):
        comparison.failures.append(f"{name}: nbformat writes the notebook back differently")
    if notebook.metadata.kernelspec.name != "python3":
        comparison.failures.append(f"{name}: kernel {notebook.metadata.kernelspec.name}")
    for cell in notebook.cells:
        if "\r" in cell.source:
            comparison.failures.append(f"{name}: cell {cell.id} keeps a carriage return")
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
            comparison.failures.append(f"{name}: cell {cell.id} has stored outputs")

    dump = os.path.join(work, name + ".results.json")
    notebook.cells.append(nbformat.v4.new_code_cell(COLLECT % dump))
    client = NotebookClient(notebook, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": work}})
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    with open(dump) as f:
        results = json.load(f)
    cells = compare_lesson(name, computed, results, comparison)
    # Each attention cell prints its shares as the window shows them, to 4 decimals.
    printed = {cell.id: "".join(o.get("text", "") for o in cell.outputs)
               for cell in notebook.cells if cell.cell_type == "code"}
    for cell in computed["cells"]:
        if cell["kind"] == "attention":
            share = f"{cell['head'][0]['weights'][0][0]:.4f}"
            if "shares" not in printed.get(cell["id"], "") or share not in printed[cell["id"]]:
                comparison.failures.append(f"{name}:{cell['id']}: the printed shares lack {share}")
        if cell["kind"] == "transformer" and "NumPy agrees with attnbook" not in printed.get(
                cell["id"], ""):
            comparison.failures.append(f"{name}:{cell['id']}: the cell's own check fails:\n"
                                       + printed.get(cell["id"], "(no output)")[-2000:])
    print(f"{name}: {len(notebook.cells) - 1} notebook cells, {cells} computed cells compared")
    return cells


# ---- random cells ----

def numbers(rng, count, low=-2.0, high=2.0):
    return [rng.uniform(low, high) for _ in range(count)]


def yaml_matrix(rows):
    return "[" + ", ".join("[" + ", ".join(repr(v) for v in row) + "]" for row in rows) + "]"


def yaml_vector(values):
    return "[" + ", ".join(repr(v) for v in values) + "]"


def random_matrix(rng, rows, cols):
    return [numbers(rng, cols) for _ in range(rows)]


def random_cell(rng, index):
    """Cell `index` of 20: the features go round so that each appears several times."""
    lines = []
    direct = index % 5 == 4  # 4 of 20 give Q, K, V directly
    heads = [1, 2, 1, 3, 2][index % 5]
    d_k = rng.choice([1, 2, 3])
    d_v = rng.choice([1, 2, 3]) if index % 3 == 0 else d_k
    n = rng.randint(1, 6)
    causal = index % 2 == 1
    scale = ["true", "false", repr(rng.uniform(0.5, 4.0)), "true"][index % 4]
    if direct:
        if index % 10 == 4:
            m = n
        else:  # more keys than queries (9), or fewer (19)
            n = rng.randint(3, 6) if index == 19 else n
            m = n + rng.randint(1, 3) if index == 9 else rng.randint(1, n - 1)
        lines.append("tokens: [" + ", ".join(f"k{i}" for i in range(m)) + "]")
        lines.append("query_tokens: [" + ", ".join(f"q{i}" for i in range(n)) + "]")
        lines.append("queries: " + yaml_matrix(random_matrix(rng, n, heads * d_k)))
        lines.append("keys: " + yaml_matrix(random_matrix(rng, m, heads * d_k)))
        lines.append("values: " + yaml_matrix(random_matrix(rng, m, heads * d_v)))
        if heads > 1:
            lines.append(f"heads: {heads}")
        keys, outputs = m, heads * d_v
    else:
        d = rng.choice([2, 3, 4, 6])
        identity = index % 7 == 0 and d % heads == 0
        if identity:
            d_k = d_v = d // heads
        vocabulary = [f"w{i}" for i in range(rng.randint(2, 4))]
        tokens = [rng.choice(vocabulary) for _ in range(n)]
        lines.append("tokens: [" + ", ".join(tokens) + "]")
        if index % 3 == 2:
            lines.append("X: " + yaml_matrix(random_matrix(rng, n, d)))
        else:
            lines.append("vocab:")
            for word in vocabulary:
                lines.append(f"  {word}: " + yaml_vector(numbers(rng, d)))
        lines.append(f"heads: {heads}")
        if not identity:
            lines.append(f"d_k: {d_k}")
            lines.append(f"d_v: {d_v}")
            lines.append("W_Q: " + yaml_matrix(random_matrix(rng, heads * d_k, d)))
            lines.append("W_K: " + yaml_matrix(random_matrix(rng, heads * d_k, d)))
            lines.append("W_V: " + yaml_matrix(random_matrix(rng, heads * d_v, d)))
            d_o = rng.choice([d, heads * d_v, 2])
            lines.append("W_O: " + yaml_matrix(random_matrix(rng, d_o, heads * d_v)))
        else:
            d_o = d
        if index % 4 != 3:  # biases in most
            for bias, width in (("b_Q", heads * d_k), ("b_K", heads * d_k),
                                ("b_V", heads * d_v), ("b_O", d_o)):
                lines.append(f"{bias}: " + yaml_vector(numbers(rng, width)))
        positional = index % 3
        if positional == 1:
            lines.append("positional: sinusoidal")
        elif positional == 2 and index % 2 == 0:
            lines.append("positional: " + yaml_matrix(random_matrix(rng, n, d)))
        keys, outputs = n, d_o
    if index % 6 in (1, 2):
        flags = [rng.random() < 0.35 for _ in range(keys)]
        lines.append("padding: [" + ", ".join("true" if f else "false" for f in flags) + "]")
    if causal:
        lines.append("mask: causal")
    lines.append(f"scale: {scale}")
    if index % 5 == 3:
        lines.append("upstream: " + yaml_matrix(random_matrix(rng, n, outputs)))
    if index % 4 == 0:
        lines.append("views: [matrices, heatmap, gradients]")
    return f"```attention r{index:02d}\n" + "\n".join(lines) + "\n```\n"


CHART = """```chart formulas
title: Every function a formula may call
x: {label: n, var: n, from: 0.5, to: 40, points: 33, scale: log}
y: {label: value}
series:
  - {label: powers, y: "-n^2/2 + 2^-n^0.5 + n^-1"}
  - {label: roots and logs, y: "sqrt(n) * exp(-n/9) + log(n) + ln(n+1) + log10(n) + log2(n)"}
  - {label: min and max, y: "min(n, 3, 7 - n/4) + max(1, n/10) + abs(5 - n) + sign(n - 4)"}
  - {label: trigonometry, y: "sin(n) + cos(n/3) + tanh(n/7) + atan(n)"}
  - {label: constant, y: "007.5"}
```

```chart linear
x: {var: tokens, from: 1, to: 512, points: 40}
series:
  - {label: cost, y: "tokens^2 * 64 + tokens * 4096"}
```
"""


def random_lesson(path, seed):
    rng = random.Random(seed)
    parts = ["---\ntitle: Twenty random cells\n---\n\n# Random cells\n\n"]
    for index in range(20):
        parts.append(random_cell(rng, index))
        parts.append(f"\nThe first output of r{index:02d} is {{{{r{index:02d}.output[0][0]:6}}}}.\n\n")
    parts.append(CHART)
    with open(path, "w") as f:
        f.write("".join(parts))


def prepare(work):
    """An empty WORK folder, and the python3 kernel there: this interpreter."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # the kernel's debugger, on frozen modules
    # The python3 kernel is this interpreter (Debian's, with NumPy and ipykernel), whatever
    # other python3 kernel a user has installed: JUPYTER_PATH comes first in the search.
    kernel = os.path.join(work, "jupyter", "kernels", "python3")
    os.makedirs(kernel)
    with open(os.path.join(kernel, "kernel.json"), "w") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "Python 3", "language": "python"}, f)
    os.environ["JUPYTER_PATH"] = os.path.join(work, "jupyter")


def main():
    attnbook, documents, work = sys.argv[1:4]
    prepare(work)
    comparison = Comparison()
    lessons = [os.path.join(documents, name) for name in
               ("attention.md", "transformers.md", "template.md", "real-head.md")]
    random_path = os.path.join(work, "random.md")
    random_lesson(random_path, seed=13)
    # The template with Windows line ends: prose and code cells come out with "\n" alone.
    crlf_path = os.path.join(work, "template-crlf.md")
    with open(os.path.join(documents, "template.md"), "rb") as f:
        text = f.read().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    with open(crlf_path, "wb") as f:
        f.write(text)
    # real-head.md after a Keep of W_V(0,3) = -0.5 and W_O(2,5) = 1.25 in the window: the
    # weights keep their file references, with the entries set beside them, and
    # the notebook must hold the set numbers, not the file's.
    kept_folder = os.path.join(work, "kept")
    shutil.rmtree(kept_folder, ignore_errors=True)
    shutil.copytree(os.path.join(documents, "data", "real-head"),
                    os.path.join(kept_folder, "data", "real-head"))
    kept_path = os.path.join(kept_folder, "real-head-kept.md")
    with open(os.path.join(documents, "real-head.md"), encoding="utf-8") as f:
        text = f.read()
    for reference, entries in (
            ("W_V: {file: data/real-head/c_attn.npy, cols: [16, 24], transpose: true", "[[0, 3, -0.5]]"),
            ("W_O: {file: data/real-head/w_o.csv", "[[2, 5, 1.25]]")):
        if reference + "}\n" not in text:
            sys.exit(f"real-head.md no longer says {reference}}}")
        text = text.replace(reference + "}\n", reference + f", set: {entries}}}\n")
    with open(kept_path, "w", encoding="utf-8") as f:
        f.write(text)
    original = json.loads(run([attnbook, "compute", os.path.join(documents, "real-head.md")]))
    kept = json.loads(run([attnbook, "compute", kept_path]))
    if original["cells"][0]["V"] == kept["cells"][0]["V"]:
        comparison.failures.append("real-head-kept.md: set: did not change V")
    total = 0
    for lesson in lessons + [random_path, crlf_path, kept_path]:
        total += check_lesson(attnbook, lesson, work, comparison)
    with open(os.path.join(work, "template.md.ipynb"), "rb") as lf, open(crlf_path + ".ipynb", "rb") as crlf:
        if lf.read() != crlf.read():
            comparison.failures.append("template.md: CRLF line ends change the notebook")
    print(f"{total} cells, {comparison.numbers} numbers compared; the largest difference is "
          f"{comparison.worst:.3g} of max(1, |value|) (at {comparison.worst_at})")
    for failure in comparison.failures[:40]:
        print("FAIL " + failure)
    if comparison.failures:
        sys.exit(f"{len(comparison.failures)} failures")


if __name__ == "__main__":
    main()
