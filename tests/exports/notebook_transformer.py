#!/usr/bin/python3
"""The notebook's transformer cells (transformer.md) against `attnbook compute`, with Jupyter's
own tools, as notebook_numpy.py does for attention cells.

A lesson in WORK/lesson/ holds transformer cells that cover, between them: 1 and 2 layers, 1 and
2 heads (and d_k ≠ d/h), the causal mask, padding and no mask, gelu, gelu_tanh and relu, LayerNorms
as given, left at their defaults and `none`, `ffn: none`, tied and separate unembeddings with and
without b_U, temperatures, targets with gaps, greedy and sampled generation (and generation refused
up front, or stopped when a word is not in the vocab), sinusoidal, learned and no positions, X
given directly, and values read from files: documents/data/tiny/model.safetensors with its
vocab.txt (the trained two-layer decoder) and a .npy and a .csv this script writes. Beside them
some random cells. The lesson's notebook is
  1. exported twice (the same bytes), validated with nbformat and written back byte for byte,
  2. executed with nbclient on the python3 kernel (Debian's /usr/bin/python3 with NumPy),
  3. compared with `attnbook compute`: every stage of every layer (with each head's scores,
     shares and context), the final LN, the logits, the chances, the next word, the loss and each
     generated word with its chance and costs, and the cache's size, to 1e-12 · max(1, |value|);
     and each transformer cell's own check against attnbook's numbers must print that they agree;
  4. bundled (`export --bundle`): the bundle carries the files the cells read, and computes as the
     lesson does once the lesson's folder is gone.

usage: notebook_transformer.py ATTNBOOK DOCUMENTS_FOLDER WORK_FOLDER
"""

import hashlib
import json
import os
import random
import shutil
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import notebook_numpy  # noqa: E402  (the shared export, run and compare steps)


def yaml_matrix(rows):
    return "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]" for row in rows) + "]"


def yaml_vector(values):
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def tensor(name):
    return "{file: data/tiny/model.safetensors, tensor: " + name + "}"


def tiny_cell(cell_id, tokens, generate, layers=2, extra=""):
    """The trained decoder of documents/data/tiny, every value read from its files."""
    lines = [f"```transformer {cell_id}",
             "tokens: [" + ", ".join(tokens) + "]",
             "vocab: {file: data/tiny/model.safetensors, tensor: embed, labels: data/tiny/vocab.txt}",
             "positional: sinusoidal",
             "layers:"]
    for l in range(layers):
        p = f"layers.{l}."
        weights = ", ".join(f"{w}: {tensor(p + 'attn.' + w)}" for w in
                            ("W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"))
        lines += [f"  - attention: {{heads: 2, mask: causal, {weights}}}",
                  f"    ln1: {{gamma: {tensor(p + 'ln1.gamma')}, beta: {tensor(p + 'ln1.beta')}}}",
                  f"    ffn: {{W_1: {tensor(p + 'ffn.W_1')}, b_1: {tensor(p + 'ffn.b_1')}, "
                  f"W_2: {tensor(p + 'ffn.W_2')}, b_2: {tensor(p + 'ffn.b_2')}, activation: gelu}}",
                  f"    ln2: {{gamma: {tensor(p + 'ln2.gamma')}, beta: {tensor(p + 'ln2.beta')}}}"]
    lines += [f"final_ln: {{gamma: {tensor('final_ln.gamma')}, beta: {tensor('final_ln.beta')}}}",
              "unembed: tied", generate]
    return "\n".join(lines) + ("\n" + extra if extra else "") + "\n```\n"


def rows(rng, r, c, scale=1.0):
    return [[rng.uniform(-scale, scale) for _ in range(c)] for _ in range(r)]


def fixed_cells(rng, data):
    """Cells chosen to cover every feature on the list above at least once."""
    d = 4
    words = ["red", "blue", "green", "dark"]
    vocab = "vocab:\n" + "".join(f"  {w}: {yaml_vector(v)}\n" for w, v in
                                 zip(words, rows(rng, len(words), d)))
    np.save(os.path.join(data, "w1.npy"), np.array(rows(rng, 6, d)))
    with open(os.path.join(data, "w2.csv"), "w") as f:
        f.write("\n".join(",".join(repr(v) for v in row) for row in rows(rng, d, 6)) + "\n")
    cells = []
    # One layer, one head, causal with padding, relu with W_1 and W_2 from files, ln1 as given,
    # ln2 left at its defaults, a separate unembedding with b_U, temperature, targets with a gap,
    # greedy generation.
    cells.append(
        "```transformer relu_files\n"
        "tokens: [red, blue, green, red]\n" + vocab +
        "layers:\n"
        f"  - attention: {{heads: 1, d_k: 3, d_v: 2, mask: causal, padding: [false, true, false, false], "
        f"W_Q: {yaml_matrix(rows(rng, 3, d))}, W_K: {yaml_matrix(rows(rng, 3, d))}, "
        f"W_V: {yaml_matrix(rows(rng, 2, d))}, W_O: {yaml_matrix(rows(rng, d, 2))}, "
        f"b_Q: {yaml_vector(rows(rng, 1, 3)[0])}}}\n"
        f"    ln1: {{gamma: {yaml_vector(rows(rng, 1, d, 2)[0])}, beta: {yaml_vector(rows(rng, 1, d)[0])}}}\n"
        f"    ffn: {{W_1: {{file: data/w1.npy}}, b_1: {yaml_vector(rows(rng, 1, 6)[0])}, "
        "W_2: {file: data/w2.csv}, activation: relu}\n"
        "    ln2: {}\n"
        "unembed:\n"
        + "".join(f"  {w}: {yaml_vector(v)}\n" for w, v in zip(["blue", "red", "dark"], rows(rng, 3, d)))
        + f"b_U: {yaml_vector(rows(rng, 1, 3)[0])}\n"
        "temperature: 0.7\n"
        "targets: [blue, ~, red, dark]\n"
        "generate: {steps: 3, pick: greedy}\n"
        "```\n")
    # Two layers of 2 and 1 heads, every LayerNorm none, gelu_tanh, biases everywhere, tied,
    # temperature 2, no targets, sampled generation.
    layers = ""
    for heads, dk, dv in ((2, 3, 2), (1, 4, 4)):
        layers += (
            f"  - attention: {{heads: {heads}, d_k: {dk}, d_v: {dv}, mask: causal, "
            f"W_Q: {yaml_matrix(rows(rng, heads * dk, d))}, W_K: {yaml_matrix(rows(rng, heads * dk, d))}, "
            f"W_V: {yaml_matrix(rows(rng, heads * dv, d))}, W_O: {yaml_matrix(rows(rng, d, heads * dv))}, "
            f"b_Q: {yaml_vector(rows(rng, 1, heads * dk)[0])}, b_K: {yaml_vector(rows(rng, 1, heads * dk)[0])}, "
            f"b_V: {yaml_vector(rows(rng, 1, heads * dv)[0])}, b_O: {yaml_vector(rows(rng, 1, d)[0])}}}\n"
            "    ln1: none\n"
            f"    ffn: {{W_1: {yaml_matrix(rows(rng, 5, d))}, b_1: {yaml_vector(rows(rng, 1, 5)[0])}, "
            f"W_2: {yaml_matrix(rows(rng, d, 5))}, b_2: {yaml_vector(rows(rng, 1, d)[0])}, "
            "activation: gelu_tanh}\n"
            "    ln2: none\n")
    cells.append("```transformer tanh_no_norm\n"
                 "tokens: [dark, green, blue]\n" + vocab +
                 "positional: sinusoidal\nlayers:\n" + layers +
                 "final_ln: none\neps: 0.001\ntemperature: 2\n"
                 "generate: {steps: 5, pick: sample, seed: 987654321}\n```\n")
    # X given directly with learned positions, no mask, ffn: none, identity projections, a
    # separate unembedding; generation is refused (no mask, no vocab).
    cells.append("```transformer no_ffn\n"
                 "tokens: [a, b, c]\n"
                 f"X: {yaml_matrix(rows(rng, 3, d))}\n"
                 f"positional: {yaml_matrix(rows(rng, 3, d, 0.5))}\n"
                 "layers:\n  - attention: {heads: 2, mask: none}\n    ffn: none\n"
                 "unembed:\n" + "".join(f"  {w}: {yaml_vector(v)}\n" for w, v in
                                        zip(["a", "b", "c", "d"], rows(rng, 4, d)))
                 + "targets: [b, c, d]\n"
                 "generate: {steps: 2, pick: greedy}\n```\n")
    # A separate unembedding whose likeliest word is not in the vocab: generation stops at
    # step 2. gelu, no positions, identity projections.
    cells.append("```transformer stops\n"
                 "tokens: [blue, red]\n" + vocab +
                 "layers:\n"
                 f"  - attention: {{heads: 1, mask: causal}}\n"
                 f"    ffn: {{W_1: {yaml_matrix(rows(rng, 3, d))}, W_2: {yaml_matrix(rows(rng, d, 3))}}}\n"
                 "unembed:\n" + "".join(f"  {w}: {yaml_vector(v)}\n" for w, v in
                                        zip(["red", "elsewhere", "blue"], rows(rng, 3, d)))
                 + "b_U: [0, 50, 0]\n"
                 "generate: {steps: 3, pick: greedy}\n```\n")
    # Learned positions: one step needs no position past the prompt's.
    cells.append("```transformer learned_one_step\n"
                 "tokens: [blue, red, green]\n" + vocab +
                 f"positional: {yaml_matrix(rows(rng, 3, d, 0.5))}\n"
                 "layers:\n"
                 f"  - attention: {{heads: 2, mask: causal}}\n"
                 f"    ffn: {{W_1: {yaml_matrix(rows(rng, 3, d))}, W_2: {yaml_matrix(rows(rng, d, 3))}, activation: relu}}\n"
                 "targets: [red, green, ~]\n"
                 "generate: {steps: 1, pick: sample, seed: 3}\n```\n")
    return cells


def random_cell(rng, index):
    """A random cell: 1 or 2 layers, heads, widths, masks, padding, norms, activations and
    unembeddings as they come."""
    d = rng.choice([2, 3, 4, 6])
    words = [f"w{i}" for i in range(rng.randint(2, 6))]
    n = rng.randint(1, 5)
    tokens = [rng.choice(words) for _ in range(n)]
    lines = ["tokens: [" + ", ".join(tokens) + "]", "vocab:"]
    lines += [f"  {w}: {yaml_vector(v)}" for w, v in zip(words, rows(rng, len(words), d, 2))]
    lines.append("positional: " + rng.choice(["sinusoidal", "none"]))
    causal = index % 4 != 3
    lines.append("layers:")
    for _ in range(rng.choice([1, 2])):
        heads = rng.choice([1, 2])
        dk, dv = rng.randint(1, 3), rng.randint(1, 3)
        attention = [f"heads: {heads}", f"d_k: {dk}", f"d_v: {dv}",
                     "mask: " + ("causal" if causal else "none"),
                     f"W_Q: {yaml_matrix(rows(rng, heads * dk, d))}",
                     f"W_K: {yaml_matrix(rows(rng, heads * dk, d))}",
                     f"W_V: {yaml_matrix(rows(rng, heads * dv, d))}",
                     f"W_O: {yaml_matrix(rows(rng, d, heads * dv))}"]
        if rng.random() < 0.5:
            attention.append(f"b_V: {yaml_vector(rows(rng, 1, heads * dv)[0])}")
        if rng.random() < 0.3:
            attention.append("padding: [" + ", ".join(rng.choice(["true", "false"])
                                                      for _ in range(n)) + "]")
        lines.append("  - attention: {" + ", ".join(attention) + "}")
        for ln in ("ln1", "ln2"):
            lines.append(f"    {ln}: " + rng.choice(
                ["none", "{}", f"{{gamma: {yaml_vector(rows(rng, 1, d, 2)[0])}, "
                               f"beta: {yaml_vector(rows(rng, 1, d)[0])}}}"]))
        if rng.random() < 0.2:
            lines.append("    ffn: none")
        else:
            hidden = rng.randint(1, 6)
            lines.append(f"    ffn: {{W_1: {yaml_matrix(rows(rng, hidden, d))}, "
                         f"b_1: {yaml_vector(rows(rng, 1, hidden)[0])}, "
                         f"W_2: {yaml_matrix(rows(rng, d, hidden))}, "
                         f"activation: {rng.choice(['gelu', 'gelu_tanh', 'relu'])}}}")
    lines.append("final_ln: " + rng.choice(["none", "{}", f"{{gamma: {yaml_vector(rows(rng, 1, d)[0])}}}"]))
    if rng.random() < 0.5:
        lines.append(f"b_U: {yaml_vector(rows(rng, 1, len(words))[0])}")
    lines.append(f"temperature: {rng.choice([1, 0.5, 3.0, rng.uniform(0.2, 4)])!r}")
    if rng.random() < 0.6:
        lines.append("targets: [" + ", ".join(rng.choice(words + ["~"]) for _ in range(n)) + "]")
    if causal and rng.random() < 0.8:
        pick = rng.choice(["greedy", f"sample, seed: {rng.randint(0, 10**9)}"])
        lines.append(f"generate: {{steps: {rng.randint(1, 5)}, pick: {pick}}}")
    return f"```transformer t{index:02d}\n" + "\n".join(lines) + "\n```\n"


# A cell that trains by SGD from its own weights, with held-out sentences and only attention and
# the vocab moving (documents/training.md covers Adam from random weights).
TRAINED_CELL = """```transformer trained
tokens: [a, b, c]
vocab: {a: [1, 0, 0, 0.5], b: [0, 1, 0, -0.5], c: [0, 0, 1, 0.25], d: [0.5, 0.5, 0, 0]}
positional: sinusoidal
layers:
  - attention: {heads: 2, mask: causal, b_O: [0.1, 0, 0, -0.1]}
    ffn: {W_1: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]], W_2: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], activation: gelu_tanh}
targets: [b, c, d]
train:
  data: [[a, b, c, d], [b, c, d, a], [c, d, a, b], [a, c, b, d, a]]
  held_out: [[d, a, b, c]]
  steps: 25
  optimizer: sgd
  lr: 0.3
  trainable: [attention, vocab]
  show: 20
```

"""


def write_lesson(folder, documents, seed=7):
    rng = random.Random(seed)
    data = os.path.join(folder, "data")
    shutil.copytree(os.path.join(documents, "data", "tiny"), os.path.join(data, "tiny"))
    parts = ["---\ntitle: Transformer cells in NumPy\n---\n\n# A trained decoder\n\n",
             tiny_cell("tiny", ["the", "cat", "sat"], "generate: {steps: 5, pick: sample, seed: 7}",
                       extra="targets: [cat, sat, on]"),
             "\nThe loss over the three targets is {{tiny.loss:4}}.\n\n",
             tiny_cell("tiny_one_layer", ["a", "big", "dog"], "generate: {steps: 4, pick: greedy}",
                       layers=1),
             "\n# Cells that cover the options\n\n"]
    for cell in fixed_cells(rng, data):
        parts += [cell, "\n"]
    parts.append(TRAINED_CELL)
    parts.append("# Random cells\n\n")
    for index in range(12):
        parts += [random_cell(rng, index), "\n"]
    path = os.path.join(folder, "transformers.md")
    with open(path, "w") as f:
        f.write("".join(parts))
    return path


def check_bundle(attnbook, lesson, work, comparison):
    """`attnbook export LESSON --bundle` carries every file the cells read (the safetensors, its
    vocab.txt, the .npy and the .csv) byte for byte with its sha256, and the lesson's notebook;
    with the lesson's folder gone, `compute` of the bundle gives the .md's JSON."""
    folder = os.path.dirname(lesson)
    bundle = os.path.join(work, "transformers.zip")
    before = notebook_numpy.run([attnbook, "compute", lesson])
    notebook_numpy.run([attnbook, "export", lesson, "--bundle", bundle])
    with zipfile.ZipFile(bundle) as z:
        manifest = json.loads(z.read("manifest.json"))
        for path in ("data/tiny/model.safetensors", "data/tiny/vocab.txt", "data/w1.npy",
                     "data/w2.csv"):
            entry = "data/files/" + path
            with open(os.path.join(folder, path), "rb") as f:
                original = f.read()
            if entry not in z.namelist() or z.read(entry) != original:
                comparison.failures.append(f"bundle: {entry} is missing or differs")
            elif manifest["entries"].get(entry) != hashlib.sha256(original).hexdigest():
                comparison.failures.append(f"bundle: the manifest's sha256 of {entry} differs")
        notebook = os.path.join(work, "transformers.md.ipynb")  # check_lesson's export
        with open(notebook, "rb") as f:
            if z.read("lesson.ipynb") != f.read():
                comparison.failures.append("bundle: lesson.ipynb is not the lesson's notebook")
    shutil.move(folder, folder + "-moved")
    try:
        if notebook_numpy.run([attnbook, "compute", bundle]) != before:
            comparison.failures.append("bundle: compute of the bundle differs from the lesson's")
        print(f"bundle: {len(before)} bytes of compute output, the same from the bundle")
    finally:
        shutil.move(folder + "-moved", folder)


def main():
    attnbook, documents, work = sys.argv[1:4]
    notebook_numpy.prepare(work)
    folder = os.path.join(work, "lesson")
    os.makedirs(folder)
    lesson = write_lesson(folder, documents)
    comparison = notebook_numpy.Comparison()
    cells = notebook_numpy.check_lesson(attnbook, lesson, work, comparison)
    check_bundle(attnbook, lesson, work, comparison)
    # The shipped lessons of transformer cells: knock-outs (transformer.md) and training.
    for shipped in ("transformer.md", "training.md"):
        cells += notebook_numpy.check_lesson(attnbook, os.path.join(documents, shipped), work,
                                             comparison)
    print(f"{cells} cells, {comparison.numbers} numbers compared; the largest difference is "
          f"{comparison.worst:.3g} of max(1, |value|) (at {comparison.worst_at})")
    for failure in comparison.failures[:40]:
        print("FAIL " + failure)
    if comparison.failures:
        sys.exit(f"{len(comparison.failures)} failures")


if __name__ == "__main__":
    main()
