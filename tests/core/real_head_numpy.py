#!/usr/bin/python3
"""Recomputes the cell of documents/real-head.md with NumPy, independently of
attnbook: reads the same data files and follows shared/spec/attention.md
(X = X0 + P, Q = X W_Q^T, scores scaled by 1/sqrt(d_k) and causally masked,
row-wise softmax, context = A V, output = context W_O^T). Prints JSON with
repr() floats, which read back to the same doubles.

    real_head_numpy.py DATA_FOLDER TOKEN...
"""
import json
import sys
from pathlib import Path

import numpy as np

folder = Path(sys.argv[1])
tokens = sys.argv[2:]
labels = (folder / "vocab.txt").read_text().splitlines()
E = np.load(folder / "emb.npy")
P = np.load(folder / "pos.npy")
c_attn = np.load(folder / "c_attn.npy")
W_Q, W_K, W_V = c_attn[:, 0:8].T, c_attn[:, 8:16].T, c_attn[:, 16:24].T
W_O = np.loadtxt(folder / "w_o.csv", delimiter=",")

X0 = E[[labels.index(t) for t in tokens]]       # (n, d)
X = X0 + P                                      # (n, d)
Q, K, V = X @ W_Q.T, X @ W_K.T, X @ W_V.T       # (n, d_k)
n, d_k = Q.shape
scores = Q @ K.T / np.sqrt(d_k)                 # (n, n)
blocked = np.triu(np.ones((n, n), dtype=bool), 1)
scores[blocked] = -np.inf
A = np.exp(scores - scores.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)                    # (n, n)
context = A @ V                                 # (n, d_v)
output = context @ W_O.T                        # (n, d)
print(json.dumps({"X": X.tolist(), "Q": Q.tolist(), "K": K.tolist(), "V": V.tolist(),
                  "weights": A.tolist(), "context": context.tolist(),
                  "output": output.tolist()}))
