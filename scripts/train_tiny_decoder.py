#!/usr/bin/python3
"""Trains the tiny two-layer decoder that documents/transformers.md loads.

    python3 scripts/train_tiny_decoder.py         writes documents/data/tiny/
    python3 scripts/train_tiny_decoder.py OUTDIR  writes OUTDIR instead

Needs Python 3 and NumPy only (Debian 12: python3-numpy; where another python3
without NumPy comes first on PATH, run /usr/bin/python3 or the script itself).
Measured run time: about 40 s (real; 36 s user) on the project's 2-core
machine, most of it the 1500 Adam steps (`time python3 scripts/train_tiny_decoder.py`).

What it does, in order:

1. Writes a small corpus of short English sentences ("the cat sat on the
   mat .") drawn from a fixed grammar with a seeded splitmix64, the same
   generator shared/spec/transformer.md uses for sampling.
2. Checks the hand-written backward pass against central differences on a
   tiny batch (norm-wise relative error, as in shared/spec/attention.md) and
   stops if it exceeds 1e-5.
3. Trains a 2-layer pre-norm decoder (GPT-2 order) with Adam to predict the
   next word. The math is exactly that of shared/spec/transformer.md and
   attention.md: d = 16, 2 heads of d_k = d_v = 8, d_ff = 64, gelu with the
   true erf, causal mask, scaling 1/sqrt(d_k), LayerNorm (eps 1e-5,
   population variance), sinusoidal positions added to the token vectors,
   tied unembedding without bias, temperature 1. Weight matrices keep one
   output unit per row, so every layer computes X Wᵀ + b.
4. Rounds every parameter to float32 and from then on computes only with
   those rounded values (cast back to float64), so the numbers it prints and
   stores are the ones the C++ engine reproduces from the shipped weights.

Files written:

    corpus.txt         the training sentences, one per line, words split by spaces
    vocab.txt          one word per line, in the row order of `embed`
    model.safetensors  every parameter as an F32 little-endian tensor
    reference.json     the float64 forward pass for the prompt "the cat sat":
                       logits and probs (n × V) and the loss on "cat sat on"

The run is deterministic: the corpus, the initial weights and the batches
all come from splitmix64 with fixed seeds, the training runs in float64 with
OpenBLAS held to one thread, and two runs write byte-identical files.
"""
import os

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # one summation order, so every run is identical
os.environ["OMP_NUM_THREADS"] = "1"

import json
import math
import struct
import sys
from pathlib import Path

import numpy as np

# ---------------------------------------------------------------- sizes

D = 16          # model width
HEADS = 2       # heads per layer
DK = 8          # query/key width of one head
DV = 8          # value width of one head
DFF = 64        # hidden width of the feed-forward network
LAYERS = 2
EPS = 1e-5      # LayerNorm's epsilon
SCALE = 1.0 / math.sqrt(DK)

SENTENCES = 500
CORPUS_SEED = 20240901
INIT_SEED = 7
BATCH_SEED = 11
STEPS = 1500
BATCH = 64
LR = 0.01
BETA1, BETA2, ADAM_EPS = 0.9, 0.98, 1e-8

PROMPTS = ["the cat sat on the", "a dog ran to the", "the bird sang in the"]
REFERENCE_TOKENS = ["the", "cat", "sat"]
REFERENCE_TARGETS = ["cat", "sat", "on"]

# ---------------------------------------------------------------- random numbers


class SplitMix64:
    """splitmix64 as in shared/spec/transformer.md: the same stream in any language."""

    MASK = (1 << 64) - 1

    def __init__(self, seed):
        self.state = seed & self.MASK

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def uniform(self):
        """A double in [0, 1)."""
        return (self.next_u64() >> 11) * 2.0 ** -53

    def below(self, count):
        """An integer in [0, count)."""
        return int(self.uniform() * count)

    def weighted(self, choices):
        """One item of [(item, weight), ...], drawn in proportion to the weights."""
        u = self.uniform() * sum(weight for _, weight in choices)
        for item, weight in choices:
            u -= weight
            if u < 0:
                return item
        return choices[-1][0]

    def normal(self, shape):
        """Standard normal numbers (Box–Muller), as a float64 array of `shape`."""
        count = int(np.prod(shape))
        values = []
        while len(values) < count:
            radius = math.sqrt(-2.0 * math.log(1.0 - self.uniform()))
            angle = 2.0 * math.pi * self.uniform()
            values += [radius * math.cos(angle), radius * math.sin(angle)]
        return np.array(values[:count], dtype=np.float64).reshape(shape)


# ---------------------------------------------------------------- the corpus

VOCAB = [
    "the", "a",                                               # determiners
    "big", "small", "brown",                                  # adjectives
    "cat", "dog", "bird", "fox", "cow",                       # animals
    "sat", "ran", "slept", "jumped", "sang", "walked",        # verbs
    "on", "to", "in", "over", "near",                         # prepositions
    "mat", "rug", "bed", "park", "house", "hill", "box",      # places
    "fence", "log", "tree", "garden",
    "is", "happy", "sleepy", "and",
    ".",
]
ANIMAL_VERBS = {  # what each animal tends to do (weights)
    "cat": [("sat", 5), ("slept", 3), ("jumped", 2)],
    "dog": [("ran", 5), ("jumped", 2), ("walked", 2), ("sat", 1)],
    "bird": [("sang", 5), ("sat", 1)],
    "fox": [("ran", 3), ("jumped", 3), ("slept", 1)],
    "cow": [("walked", 4), ("slept", 2)],
}
VERB_PLACES = {  # each verb's preposition and the places that follow it (weights)
    "sat": ("on", [("mat", 6), ("rug", 3), ("bed", 1)]),
    "ran": ("to", [("park", 5), ("house", 2), ("hill", 2)]),
    "slept": ("in", [("bed", 4), ("box", 3), ("house", 1)]),
    "jumped": ("over", [("fence", 4), ("log", 3), ("box", 1)]),
    "sang": ("in", [("tree", 5), ("garden", 2)]),
    "walked": ("near", [("tree", 3), ("hill", 3), ("house", 1)]),
}
ANIMALS = [("cat", 4), ("dog", 4), ("bird", 2), ("fox", 1), ("cow", 1)]
DETERMINERS = [("the", 3), ("a", 1)]
ADJECTIVES = [("big", 1), ("small", 1), ("brown", 1)]
STATES = [("happy", 1), ("sleepy", 1), ("big", 1), ("small", 1), ("brown", 1)]


def noun_phrase(rng, adjective_chance):
    """'the cat', 'a big dog', ...: returns (words, animal)."""
    words = [rng.weighted(DETERMINERS)]
    if rng.uniform() < adjective_chance:
        words.append(rng.weighted(ADJECTIVES))
    animal = rng.weighted(ANIMALS)
    return words + [animal], animal


def action(rng, animal):
    """'sat on the mat', 'ran to a park', ...: what the animal did, and where."""
    verb = rng.weighted(ANIMAL_VERBS[animal])
    preposition, places = VERB_PLACES[verb]
    return [verb, preposition, rng.weighted([("the", 4), ("a", 1)]), rng.weighted(places)]


def sentence(rng):
    """One sentence of the grammar, as a list of words ending in '.'."""
    form = rng.weighted([("action", 7), ("state", 2), ("pair", 1)])
    if form == "action":        # the cat sat on the mat .
        subject, animal = noun_phrase(rng, 0.25)
        return subject + action(rng, animal) + ["."]
    if form == "state":         # the cat is happy .
        subject, _ = noun_phrase(rng, 0.0)
        return subject + ["is", rng.weighted(STATES), "."]
    first, animal = noun_phrase(rng, 0.0)   # the cat and a dog ran to the park .
    second, _ = noun_phrase(rng, 0.0)
    return first + ["and"] + second + action(rng, animal) + ["."]


def make_corpus():
    rng = SplitMix64(CORPUS_SEED)
    return [sentence(rng) for _ in range(SENTENCES)]


def encode(corpus, index):
    """Right-padded token ids, next-word targets and a 0/1 weight per target.

    Padding sits after the sentence and the mask is causal, so it never
    reaches a position that has a target."""
    longest = max(len(words) for words in corpus)
    tokens = np.full((len(corpus), longest), index["."], dtype=np.int64)
    targets = np.zeros_like(tokens)
    weights = np.zeros(tokens.shape, dtype=np.float64)
    for row, words in enumerate(corpus):
        ids = [index[word] for word in words]
        tokens[row, :len(ids)] = ids
        targets[row, :len(ids) - 1] = ids[1:]
        weights[row, :len(ids) - 1] = 1.0
    return tokens, targets, weights


def best_possible_loss(corpus):
    """The loss of a model that knows the corpus's own next-word frequencies
    after every prefix: no model of the prefix can do better on this corpus."""
    counts = {}
    for words in corpus:
        for end in range(1, len(words)):
            following = counts.setdefault(tuple(words[:end]), {})
            following[words[end]] = following.get(words[end], 0) + 1
    total, loss = 0, 0.0
    for following in counts.values():
        seen = sum(following.values())
        for count in following.values():
            loss -= count * math.log(count / seen)
            total += count
    return loss / total


# ---------------------------------------------------------------- parameters


def parameter_shapes(vocab_size):
    """Every tensor name (as stored in model.safetensors) and its shape, in order."""
    shapes = {"embed": (vocab_size, D)}
    for layer in range(LAYERS):
        p = f"layers.{layer}."
        shapes.update({
            p + "ln1.gamma": (D,), p + "ln1.beta": (D,),
            p + "attn.W_Q": (HEADS * DK, D), p + "attn.W_K": (HEADS * DK, D),
            p + "attn.W_V": (HEADS * DV, D), p + "attn.W_O": (D, HEADS * DV),
            p + "attn.b_Q": (HEADS * DK,), p + "attn.b_K": (HEADS * DK,),
            p + "attn.b_V": (HEADS * DV,), p + "attn.b_O": (D,),
            p + "ln2.gamma": (D,), p + "ln2.beta": (D,),
            p + "ffn.W_1": (DFF, D), p + "ffn.b_1": (DFF,),
            p + "ffn.W_2": (D, DFF), p + "ffn.b_2": (D,),
        })
    shapes["final_ln.gamma"] = (D,)
    shapes["final_ln.beta"] = (D,)
    return shapes


def initial_parameters(vocab_size, rng):
    """Gaussian weights scaled by 1/√fan_in (the residual outputs W_O and W_2 a
    further 1/√(2L), as GPT-2 does), zero biases, LayerNorms the identity."""
    params = {}
    for name, shape in parameter_shapes(vocab_size).items():
        if name == "embed":
            params[name] = 0.3 * rng.normal(shape)
        elif name.endswith(".gamma"):
            params[name] = np.ones(shape)
        elif len(shape) == 1:   # betas and biases
            params[name] = np.zeros(shape)
        else:
            scale = 1.0 / math.sqrt(shape[1])
            if name.endswith("W_O") or name.endswith("W_2"):
                scale /= math.sqrt(2 * LAYERS)
            params[name] = scale * rng.normal(shape)
    return params


def rounded_to_float32(params):
    """Each parameter rounded to float32 and widened back to float64."""
    return {name: value.astype(np.float32).astype(np.float64) for name, value in params.items()}


# ---------------------------------------------------------------- forward and backward pieces


def positional(n):
    """Sinusoidal encoding: P[pos][2i] = sin(pos / 10000^(2i/d)), P[pos][2i+1] = cos(...)."""
    P = np.zeros((n, D))   # (n × d)
    for pos in range(n):
        for i in range(D // 2):
            angle = pos / math.pow(10000.0, 2 * i / D)
            P[pos, 2 * i] = math.sin(angle)
            P[pos, 2 * i + 1] = math.cos(angle)
    return P


_erf = np.frompyfunc(math.erf, 1, 1)   # the C library's erf, as std::erf on the C++ side


def normal_cdf(x):
    """Φ(x) = ½ (1 + erf(x / √2)), elementwise."""
    return 0.5 * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float64))


def normal_pdf(x):
    """φ(x) = e^(−x²/2) / √(2π), elementwise."""
    return np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def flat(x):
    """(B × n × k) → (B·n × k): every position of every sequence as one row."""
    return x.reshape(-1, x.shape[-1])


def split_heads(x, width):
    """(B × n × h·width) → (B × h × n × width): head i takes columns [i·width, (i+1)·width)."""
    B, n, _ = x.shape
    return x.reshape(B, n, HEADS, width).transpose(0, 2, 1, 3)


def merge_heads(x):
    """(B × h × n × width) → (B × n × h·width): the heads side by side."""
    B, h, n, width = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, n, h * width)


def softmax(S):
    """Softmax of each row (last axis), subtracting the row maximum first."""
    E = np.exp(S - S.max(-1, keepdims=True))
    return E / E.sum(-1, keepdims=True)


def layer_norm(x, gamma, beta):
    """γ ⊙ (x − μ) / √(σ² + ε) + β per row, σ² the population variance."""
    mu = x.mean(-1, keepdims=True)                          # (B × n × 1)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)           # (B × n × 1)
    inv_std = 1.0 / np.sqrt(var + EPS)                      # (B × n × 1)
    xhat = (x - mu) * inv_std                               # (B × n × d)
    return gamma * xhat + beta, (xhat, inv_std)             # (B × n × d)


def layer_norm_backward(G_y, cache, gamma):
    xhat, inv_std = cache
    G_gamma = (G_y * xhat).sum((0, 1))                      # (d)
    G_beta = G_y.sum((0, 1))                                # (d)
    G_xhat = G_y * gamma                                    # (B × n × d)
    # (B × n × d): the gradient through the row's mean and variance
    G_x = inv_std * (G_xhat - G_xhat.mean(-1, keepdims=True)
                     - xhat * (G_xhat * xhat).mean(-1, keepdims=True))
    return G_x, G_gamma, G_beta


def attention(H, p, pre):
    """attention.md's forward with H as its X; pre is e.g. 'layers.0.attn.'."""
    n = H.shape[1]
    Q = H @ p[pre + "W_Q"].T + p[pre + "b_Q"]               # (B × n × h·d_k) = (B × n × d)(d × h·d_k)
    K = H @ p[pre + "W_K"].T + p[pre + "b_K"]               # (B × n × h·d_k) = (B × n × d)(d × h·d_k)
    V = H @ p[pre + "W_V"].T + p[pre + "b_V"]               # (B × n × h·d_v) = (B × n × d)(d × h·d_v)
    Qh, Kh, Vh = split_heads(Q, DK), split_heads(K, DK), split_heads(V, DV)
    blocked = np.triu(np.ones((n, n), dtype=bool), 1)       # (n × n): row r may read c ≤ r
    S = Qh @ Kh.swapaxes(-1, -2) * SCALE                    # (B × h × n × n) = (B × h × n × d_k)(B × h × d_k × n)
    A = softmax(np.where(blocked, -np.inf, S))              # (B × h × n × n)
    C = merge_heads(A @ Vh)                                 # (B × n × h·d_v) ← (B × h × n × n)(B × h × n × d_v)
    Y = C @ p[pre + "W_O"].T + p[pre + "b_O"]               # (B × n × d) = (B × n × h·d_v)(h·d_v × d)
    return Y, (H, Qh, Kh, Vh, A, C)


def attention_backward(G_Y, cache, p, pre, grads):
    """attention.md's backward; adds the parameter gradients to grads, returns ∂L/∂H."""
    H, Qh, Kh, Vh, A, C = cache
    grads[pre + "W_O"] = flat(G_Y).T @ flat(C)              # (d × h·d_v) = (d × Bn)(Bn × h·d_v)
    grads[pre + "b_O"] = G_Y.sum((0, 1))                    # (d)
    G_C = G_Y @ p[pre + "W_O"]                              # (B × n × h·d_v) = (B × n × d)(d × h·d_v)
    G_heads = split_heads(G_C, DV)                          # (B × h × n × d_v)
    G_A = G_heads @ Vh.swapaxes(-1, -2)                     # (B × h × n × n) = (B × h × n × d_v)(B × h × d_v × n)
    G_Vh = A.swapaxes(-1, -2) @ G_heads                     # (B × h × n × d_v) = (B × h × n × n)(B × h × n × d_v)
    G_S = A * (G_A - (G_A * A).sum(-1, keepdims=True))      # (B × h × n × n); 0 where blocked, since A is
    G_Qh = SCALE * (G_S @ Kh)                               # (B × h × n × d_k) = (B × h × n × n)(B × h × n × d_k)
    G_Kh = SCALE * (G_S.swapaxes(-1, -2) @ Qh)              # (B × h × n × d_k) = (B × h × n × n)(B × h × n × d_k)
    G_H = np.zeros_like(H)                                  # (B × n × d)
    for name, G_heads_of in (("Q", G_Qh), ("K", G_Kh), ("V", G_Vh)):
        G = merge_heads(G_heads_of)                         # (B × n × h·d_k)
        grads[pre + "W_" + name] = flat(G).T @ flat(H)      # (h·d_k × d) = (h·d_k × Bn)(Bn × d)
        grads[pre + "b_" + name] = G.sum((0, 1))            # (h·d_k)
        G_H += G @ p[pre + "W_" + name]                     # (B × n × d) = (B × n × h·d_k)(h·d_k × d)
    return G_H


def feed_forward(G, p, pre):
    """gelu(G W_1ᵀ + b_1) W_2ᵀ + b_2 at every position; pre is e.g. 'layers.0.ffn.'."""
    U = G @ p[pre + "W_1"].T + p[pre + "b_1"]               # (B × n × d_ff) = (B × n × d)(d × d_ff)
    Phi = normal_cdf(U)                                     # (B × n × d_ff)
    act = U * Phi                                           # (B × n × d_ff): gelu(U)
    F = act @ p[pre + "W_2"].T + p[pre + "b_2"]             # (B × n × d) = (B × n × d_ff)(d_ff × d)
    return F, (G, U, Phi, act)


def feed_forward_backward(G_F, cache, p, pre, grads):
    G, U, Phi, act = cache
    grads[pre + "W_2"] = flat(G_F).T @ flat(act)            # (d × d_ff) = (d × Bn)(Bn × d_ff)
    grads[pre + "b_2"] = G_F.sum((0, 1))                    # (d)
    G_act = G_F @ p[pre + "W_2"]                            # (B × n × d_ff) = (B × n × d)(d × d_ff)
    G_U = G_act * (Phi + U * normal_pdf(U))                 # (B × n × d_ff): gelu'(u) = Φ(u) + u φ(u)
    grads[pre + "W_1"] = flat(G_U).T @ flat(G)              # (d_ff × d) = (d_ff × Bn)(Bn × d)
    grads[pre + "b_1"] = G_U.sum((0, 1))                    # (d_ff)
    return G_U @ p[pre + "W_1"]                             # (B × n × d) = (B × n × d_ff)(d_ff × d)


# ---------------------------------------------------------------- the whole model


def forward(p, tokens):
    """tokens: (B × n) ids. Returns the logits (B × n × V) and what backward needs."""
    X = p["embed"][tokens] + positional(tokens.shape[1])    # (B × n × d) = X0 + P
    layers = []
    for layer in range(LAYERS):
        pre = f"layers.{layer}."
        H, ln1 = layer_norm(X, p[pre + "ln1.gamma"], p[pre + "ln1.beta"])   # (B × n × d)
        Y, attn = attention(H, p, pre + "attn.")                            # (B × n × d)
        R = X + Y                                                           # (B × n × d): first residual
        G, ln2 = layer_norm(R, p[pre + "ln2.gamma"], p[pre + "ln2.beta"])   # (B × n × d)
        F, ffn = feed_forward(G, p, pre + "ffn.")                           # (B × n × d)
        X = R + F                                                           # (B × n × d): second residual
        layers.append((ln1, attn, ln2, ffn))
    Z, final = layer_norm(X, p["final_ln.gamma"], p["final_ln.beta"])      # (B × n × d)
    logits = Z @ p["embed"].T                               # (B × n × V) = (B × n × d)(d × V)
    return logits, (tokens, layers, final, Z)


def cross_entropy(logits, targets, weights):
    """Mean −log p[target] over the positions of weight 1; also returns p."""
    shifted = logits - logits.max(-1, keepdims=True)        # (B × n × V)
    log_p = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))      # (B × n × V)
    picked = np.take_along_axis(log_p, targets[..., None], -1)[..., 0]    # (B × n)
    return -(picked * weights).sum() / weights.sum(), np.exp(log_p)


def loss_and_gradients(p, tokens, targets, weights):
    logits, (tokens, layers, final, Z) = forward(p, tokens)
    loss, probs = cross_entropy(logits, targets, weights)
    grads = {}
    # ∂L/∂logits = (p − onehot(target)) / m on rows with a target, 0 elsewhere
    G_logits = probs.copy()                                 # (B × n × V)
    np.put_along_axis(G_logits, targets[..., None],
                      np.take_along_axis(probs, targets[..., None], -1) - 1.0, -1)
    G_logits *= weights[..., None] / weights.sum()
    G_embed = flat(G_logits).T @ flat(Z)                    # (V × d) = (V × Bn)(Bn × d): the tied unembedding
    G_Z = G_logits @ p["embed"]                             # (B × n × d) = (B × n × V)(V × d)
    G_X, grads["final_ln.gamma"], grads["final_ln.beta"] = layer_norm_backward(G_Z, final, p["final_ln.gamma"])
    for layer in reversed(range(LAYERS)):
        pre = f"layers.{layer}."
        ln1, attn, ln2, ffn = layers[layer]
        G_R = G_X.copy()                                    # (B × n × d): through the second residual
        G_G = feed_forward_backward(G_X, ffn, p, pre + "ffn.", grads)
        G_R_ffn, grads[pre + "ln2.gamma"], grads[pre + "ln2.beta"] = layer_norm_backward(G_G, ln2, p[pre + "ln2.gamma"])
        G_R += G_R_ffn
        G_X = G_R.copy()                                    # (B × n × d): through the first residual
        G_H = attention_backward(G_R, attn, p, pre + "attn.", grads)
        G_X_attn, grads[pre + "ln1.gamma"], grads[pre + "ln1.beta"] = layer_norm_backward(G_H, ln1, p[pre + "ln1.gamma"])
        G_X += G_X_attn
    np.add.at(G_embed, tokens, G_X)                         # (V × d): the input rows' share of ∂L/∂X0
    grads["embed"] = G_embed
    return loss, {name: grads[name] for name in p}


# ---------------------------------------------------------------- gradient check and training


def gradient_check(params, tokens, targets, weights, per_tensor=16, step=1e-6):
    """Central differences against the analytic gradients at up to per_tensor
    evenly spaced entries of every tensor. Returns attention.md's norm-wise
    error: max |analytic − numeric| / max(|analytic|, |numeric|) over all of them."""
    _, grads = loss_and_gradients(params, tokens, targets, weights)
    worst_diff, largest, checked = 0.0, 0.0, 0
    for name, value in params.items():
        flat_value = value.reshape(-1)                      # a view: editing it edits params[name]
        for i in np.unique(np.linspace(0, flat_value.size - 1, per_tensor).round().astype(int)):
            saved = flat_value[i]
            flat_value[i] = saved + step
            plus = loss_and_gradients(params, tokens, targets, weights)[0]
            flat_value[i] = saved - step
            minus = loss_and_gradients(params, tokens, targets, weights)[0]
            flat_value[i] = saved
            numeric = (plus - minus) / (2 * step)
            analytic = grads[name].reshape(-1)[i]
            worst_diff = max(worst_diff, abs(analytic - numeric))
            largest = max(largest, abs(analytic), abs(numeric))
            checked += 1
    return (worst_diff / largest if largest > 0 else 0.0), checked


def train(params, tokens, targets, weights):
    """Adam on random batches of sentences, the learning rate falling linearly to 0."""
    rng = SplitMix64(BATCH_SEED)
    m = {name: np.zeros_like(value) for name, value in params.items()}
    v = {name: np.zeros_like(value) for name, value in params.items()}
    for step in range(1, STEPS + 1):
        rows = np.array([rng.below(len(tokens)) for _ in range(BATCH)])
        loss, grads = loss_and_gradients(params, tokens[rows], targets[rows], weights[rows])
        lr = LR * (1.0 - (step - 1) / STEPS)
        for name in params:
            m[name] = BETA1 * m[name] + (1 - BETA1) * grads[name]
            v[name] = BETA2 * v[name] + (1 - BETA2) * grads[name] ** 2
            m_hat = m[name] / (1 - BETA1 ** step)
            v_hat = v[name] / (1 - BETA2 ** step)
            params[name] -= lr * m_hat / (np.sqrt(v_hat) + ADAM_EPS)
        if step == 1 or step % 250 == 0:
            print(f"step {step:5d}  batch loss {loss:.4f}")
    return params


def next_word_chances(params, words, index):
    """The last row's p for a prompt: the chance of every vocab word coming next."""
    tokens = np.array([[index[word] for word in words]])
    logits, _ = forward(params, tokens)
    return softmax(logits[0, -1])


# ---------------------------------------------------------------- files


def write_safetensors(path, tensors):
    """safetensors: an 8-byte little-endian header length, a JSON header padded
    with spaces to a multiple of 8, then every tensor's raw F32 little-endian bytes."""
    header, blobs, offset = {}, [], 0
    for name, value in tensors.items():
        data = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(value.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("ascii")
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def read_safetensors(path):
    """The tensors back from a file write_safetensors wrote, as float64."""
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + length])
    body = raw[8 + length:]
    return {name: np.frombuffer(body[entry["data_offsets"][0]:entry["data_offsets"][1]], dtype="<f4")
            .reshape(entry["shape"]).astype(np.float64)
            for name, entry in header.items()}


def write_reference(path, params, index):
    """The float64 forward pass for REFERENCE_TOKENS, for the C++ engine to match."""
    tokens = np.array([[index[word] for word in REFERENCE_TOKENS]])
    targets = np.array([[index[word] for word in REFERENCE_TARGETS]])
    logits, _ = forward(params, tokens)
    loss, probs = cross_entropy(logits, targets, np.ones(targets.shape))
    reference = {
        "tokens": REFERENCE_TOKENS,
        "logits": logits[0].tolist(),      # (n × V); json writes each float's repr
        "probs": probs[0].tolist(),        # (n × V)
        "loss_targets": REFERENCE_TARGETS,
        "loss": float(loss),
    }
    lines = []
    for key, value in reference.items():   # one key, or one row of a matrix, per line
        if key in ("logits", "probs"):
            rows = ",\n    ".join(json.dumps(row) for row in value)
            lines.append(f'  "{key}": [\n    {rows}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parent.parent / "documents" / "data" / "tiny"
    out.mkdir(parents=True, exist_ok=True)

    corpus = make_corpus()
    assert {word for words in corpus for word in words} == set(VOCAB), "the grammar and VOCAB disagree"
    index = {word: i for i, word in enumerate(VOCAB)}
    tokens, targets, weights = encode(corpus, index)
    (out / "corpus.txt").write_text("".join(" ".join(words) + "\n" for words in corpus))
    (out / "vocab.txt").write_text("".join(word + "\n" for word in VOCAB))
    print(f"corpus: {len(corpus)} sentences ({len(set(map(tuple, corpus)))} different), "
          f"{int(weights.sum())} next-word targets, vocabulary of {len(VOCAB)}")

    params = initial_parameters(len(VOCAB), SplitMix64(INIT_SEED))
    # the check runs at a generic point: every parameter nudged off its initial value
    nudge = SplitMix64(INIT_SEED + 1)
    generic = {name: value + 0.1 * nudge.normal(value.shape) for name, value in params.items()}
    error, checked = gradient_check(generic, tokens[:3], targets[:3], weights[:3])
    print(f"gradient check: max relative error {error:.3e} over {checked} entries")
    assert error < 1e-5, "the hand-written backward pass disagrees with central differences"

    params = train(params, tokens, targets, weights)
    params = rounded_to_float32(params)    # from here on: exactly the shipped weights

    write_safetensors(out / "model.safetensors", params)
    assert all(np.array_equal(params[name], value)
               for name, value in read_safetensors(out / "model.safetensors").items())
    write_reference(out / "reference.json", params, index)

    loss, _ = cross_entropy(forward(params, tokens)[0], targets, weights)
    print(f"final training loss (float32 weights, whole corpus): {loss:.4f}  "
          f"(the corpus's own best: {best_possible_loss(corpus):.4f}; uniform: {math.log(len(VOCAB)):.4f})")
    for prompt in PROMPTS:
        chances = next_word_chances(params, prompt.split(), index)
        top = np.argsort(-chances, kind="stable")[:5]
        print(f'after "{prompt}": ' + ", ".join(f"{VOCAB[i]} {chances[i]:.3f}" for i in top))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
