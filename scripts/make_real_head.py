#!/usr/bin/python3
"""Trains the small attention head that documents/real-head.md loads.

    scripts/make_real_head.py            writes documents/data/real-head/
    scripts/make_real_head.py OUTDIR     writes OUTDIR instead

The task is the "previous-token" job that real language models give some of
their first-layer heads: at every position, name the token just before it.
One causal attention head (no MLP, no second layer) has to learn it, so the
only way to succeed is to put (nearly) all of each row's attention on the
key one step to the left, and to copy that token's identity through V and
W_O. That is the pattern the lesson's heatmap shows.

Everything is NumPy (python3-numpy), with the gradients written out by hand
(the same formulas as shared/spec/attention.md), a fixed seed and Adam for a
few hundred steps. The files the lesson reads:

    vocab.txt     the 12 token labels, one per line
    emb.npy       12 × 16 token embeddings (fixed random, not trained)
    pos.npy       8 × 16 position embeddings (fixed random, not trained)
    c_attn.npy    16 × 24: W_Qᵀ | W_Kᵀ | W_Vᵀ packed side by side, the way GPT-2
                  stores its c_attn weight (inputs × outputs), so the lesson
                  cuts each one out with cols: [a, b] and transpose: true
    w_o.csv       16 × 8: W_O, one output unit per row
"""
import sys
from pathlib import Path

import numpy as np

VOCAB = ["the", "cat", "dog", "sat", "ran", "on", "under", "mat", "rug", "and", "slept", "barked"]
N, D, DK = 8, 16, 8  # tokens, model width, head width (d_k = d_v)
STEPS, BATCH, LR = 400, 64, 0.03

out = Path(sys.argv[1]) if len(sys.argv) > 1 else \
    Path(__file__).resolve().parent.parent / "documents" / "data" / "real-head"
rng = np.random.default_rng(20240607)

E = rng.normal(size=(len(VOCAB), D)) / np.sqrt(D)  # token embeddings, (V, d)
P = rng.normal(size=(N, D)) / np.sqrt(D)           # position embeddings, (n, d)
params = {  # one output unit per row, as attnbook stores them
    "W_Q": rng.normal(size=(DK, D)) * 0.1,  # (d_k, d)
    "W_K": rng.normal(size=(DK, D)) * 0.1,  # (d_k, d)
    "W_V": rng.normal(size=(DK, D)) * 0.1,  # (d_v, d)
    "W_O": rng.normal(size=(D, DK)) * 0.1,  # (d, d_v)
}
causal = np.tril(np.ones((N, N), dtype=bool))  # row r reads columns c <= r
scale = 1.0 / np.sqrt(DK)


def forward(tokens, p):
    """tokens: (B, n) ids. Returns every intermediate, named as in attention.md."""
    X = E[tokens] + P                                  # (B, n, d)
    Q = X @ p["W_Q"].T                                 # (B, n, d_k)
    K = X @ p["W_K"].T                                 # (B, n, d_k)
    V = X @ p["W_V"].T                                 # (B, n, d_v)
    S = np.where(causal, Q @ K.transpose(0, 2, 1) * scale, -np.inf)  # (B, n, n)
    A = np.exp(S - S.max(-1, keepdims=True))
    A /= A.sum(-1, keepdims=True)                      # (B, n, n) shares
    C = A @ V                                          # (B, n, d_v)
    Y = C @ p["W_O"].T                                 # (B, n, d)
    logits = Y @ E.T                                   # (B, n, V): read out against the embeddings
    return X, Q, K, V, A, C, Y, logits


def loss_and_grads(tokens, p):
    X, Q, K, V, A, C, Y, logits = forward(tokens, p)
    target = np.roll(tokens, 1, axis=1)                # the previous token
    valid = np.ones_like(tokens, dtype=float)
    valid[:, 0] = 0.0                                  # position 0 has no previous token
    z = logits - logits.max(-1, keepdims=True)
    prob = np.exp(z) / np.exp(z).sum(-1, keepdims=True)
    count = valid.sum()
    picked = np.take_along_axis(prob, target[..., None], -1)[..., 0]
    loss = -(np.log(picked) * valid).sum() / count
    accuracy = ((prob.argmax(-1) == target) * valid).sum() / count
    G_logits = prob.copy()                             # (B, n, V)
    np.put_along_axis(G_logits, target[..., None], np.take_along_axis(prob, target[..., None], -1) - 1, -1)
    G_logits *= valid[..., None] / count
    G_Y = G_logits @ E                                 # (B, n, d)
    G_C = G_Y @ p["W_O"]                               # (B, n, d_v)
    G_A = G_C @ V.transpose(0, 2, 1)                   # (B, n, n)
    G_V = A.transpose(0, 2, 1) @ G_C                   # (B, n, d_v)
    G_S = A * (G_A - (G_A * A).sum(-1, keepdims=True))  # (B, n, n); zero where masked
    G_Q = G_S @ K * scale                              # (B, n, d_k)
    G_K = G_S.transpose(0, 2, 1) @ Q * scale           # (B, n, d_k)
    grads = {
        "W_O": np.einsum("bnd,bnv->dv", G_Y, C),
        "W_Q": np.einsum("bnk,bnd->kd", G_Q, X),
        "W_K": np.einsum("bnk,bnd->kd", G_K, X),
        "W_V": np.einsum("bnv,bnd->vd", G_V, X),
    }
    return loss, accuracy, grads


def check_gradients():
    """The hand-written gradients against central differences, before training."""
    tokens = rng.integers(0, len(VOCAB), size=(4, N))
    _, _, grads = loss_and_grads(tokens, params)
    for name, g in grads.items():
        for (r, c) in [(0, 0), (3, 5), (g.shape[0] - 1, g.shape[1] - 1)]:
            h = 1e-6
            plus = {k: v.copy() for k, v in params.items()}
            minus = {k: v.copy() for k, v in params.items()}
            plus[name][r, c] += h
            minus[name][r, c] -= h
            numeric = (loss_and_grads(tokens, plus)[0] - loss_and_grads(tokens, minus)[0]) / (2 * h)
            assert abs(numeric - g[r, c]) <= 1e-6 * max(1.0, abs(numeric)), (name, r, c)


check_gradients()
m = {k: np.zeros_like(v) for k, v in params.items()}
v = {k: np.zeros_like(v) for k, v in params.items()}
for step in range(1, STEPS + 1):
    tokens = rng.integers(0, len(VOCAB), size=(BATCH, N))
    loss, accuracy, grads = loss_and_grads(tokens, params)
    for k in params:  # Adam
        m[k] = 0.9 * m[k] + 0.1 * grads[k]
        v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
        params[k] -= LR * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
    if step % 100 == 0 or step == 1:
        print(f"step {step:4d}  loss {loss:.4f}  accuracy {accuracy:.3f}")

test = rng.integers(0, len(VOCAB), size=(1000, N))
loss, accuracy, _ = loss_and_grads(test, params)
A = forward(test, params)[4]
on_previous = A[:, np.arange(1, N), np.arange(0, N - 1)].mean()
print(f"held out: loss {loss:.4f}, accuracy {accuracy:.3f}, "
      f"mean share on the previous token {on_previous:.3f}")

out.mkdir(parents=True, exist_ok=True)
(out / "vocab.txt").write_text("".join(label + "\n" for label in VOCAB))
np.save(out / "emb.npy", E)
np.save(out / "pos.npy", P)
np.save(out / "c_attn.npy", np.concatenate([params["W_Q"].T, params["W_K"].T, params["W_V"].T], 1))
np.savetxt(out / "w_o.csv", params["W_O"], delimiter=",", fmt="%.17g")
print(f"wrote {out}")
