

# ---- The transformer cell (transformer.md): a pre-norm decoder, GPT-2's order ----
# Each layer's attention is the attention above (project, blocked_entries, attention_heads).
import math

erf = np.vectorize(math.erf, otypes=[float])  # NumPy has no erf: C's erf, element by element


def layer_norm(X, ln, eps):
    """LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β for each row x of X, μ and σ² the row's mean and
    population variance (divided by d). ln is {"gamma": γ, "beta": β}, or None: the identity."""
    if ln is None:
        return X.copy()
    mean = X.mean(axis=1, keepdims=True)
    variance = ((X - mean) ** 2).mean(axis=1, keepdims=True)
    return ln["gamma"] * ((X - mean) * (1 / np.sqrt(variance + eps))) + ln["beta"]


def activation(name, x):
    """The FFN's nonlinearity, element by element."""
    if name == "gelu":  # x · Φ(x), Φ the standard normal distribution's CDF
        return 0.5 * x * (1 + erf(x / math.sqrt(2)))
    if name == "gelu_tanh":  # GPT-2's approximation of gelu
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)))
    return np.maximum(x, 0.0)  # relu


def transformer_layer(X, layer, eps, cache=None, removed=None):
    """One pre-norm block on the rows X (rows × d), each stage by the name `compute` prints:
        ln1 = H = LN₁(X)       attention: A = Attention(H), attention.md with H as its X
        resid1 = R = X + A     ln2 = G = LN₂(R)
        ffn: pre = G W₁ᵀ + b₁, act = act(pre), out = F = act W₂ᵀ + b₂
        resid2 = R + F
    With a cache (generation), X holds only the newest rows: their keys and values join the
    cached ones, and their queries read every cached key. `removed` is a knock-out's part
    (transformer_knockouts): ("head", i), "attention", "ffn" or "block"."""
    if removed == "block":  # the whole block removed: its input passes straight on
        return {"input": X, "resid1": X, "resid2": X}
    a = layer["attention"]
    H = layer_norm(X, layer["ln1"], eps)
    Q = project(H, a["W_Q"], a["b_Q"])
    K = project(H, a["W_K"], a["b_K"])
    V = project(H, a["W_V"], a["b_V"])
    padding = a["padding"]
    if cache is not None:
        K = cache["K"] = np.vstack([cache["K"], K])
        V = cache["V"] = np.vstack([cache["V"], V])
        padding = cache["padding"] = cache["padding"] + [False] * len(X)
    blocked = blocked_entries(len(Q), len(K), a["causal"], padding)
    head, C = attention_heads(Q, K, V, a["heads"], a["d_k"], a["d_v"], a["scale"], blocked)
    if isinstance(removed, tuple):  # a head removed: its context rows are zero before W_O
        C = C.copy()
        C[:, removed[1] * a["d_v"]:(removed[1] + 1) * a["d_v"]] = 0.0
    A = project(C, a["W_O"], a["b_O"])  # (rows × d)
    if removed == "attention":  # the attention removed: it adds nothing
        A = np.zeros_like(X)
    R = X + A
    G = layer_norm(R, layer["ln2"], eps)
    ffn, F = None, np.zeros_like(R)  # ffn: none adds nothing
    if layer["ffn"] is not None and removed != "ffn":
        f = layer["ffn"]
        pre = project(G, f["W_1"], f["b_1"])  # (rows × d_ff)
        act = activation(f["activation"], pre)
        F = project(act, f["W_2"], f["b_2"])  # (rows × d)
        ffn = {"pre": pre, "act": act, "out": F}
    attention = {"X": H, "Q": Q, "K": K, "V": V, "head": head, "concat": C, "output": A}
    return {"input": X, "ln1": H, "attention": attention, "resid1": R, "ln2": G, "ffn": ffn,
            "resid2": R + F}


def chances(logits, temperature):
    """softmax(logits / T) along the last axis, the maximum subtracted first."""
    S = logits / temperature
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def transformer_forward(X, model, caches=None, removed=None):
    """The stack, the final LN, the logits Z Uᵀ + b_U and the chances softmax(logits / T).
    `removed` = (l, part): run without that part of layer l (transformer_knockouts)."""
    layers = []
    for l, layer in enumerate(model["layers"]):
        part = removed[1] if removed is not None and removed[0] == l else None
        layers.append(transformer_layer(X, layer, model["eps"], caches[l] if caches else None,
                                        part))
        X = layers[-1]["resid2"]
    Z = layer_norm(X, model["final_ln"], model["eps"])
    logits = Z @ model["U"].T + model["b_U"]
    return {"layers": layers, "final_ln": Z, "logits": logits,
            "probs": chances(logits, model["temperature"])}


def cross_entropy(logits, temperature, targets):
    """The loss: the mean of −log p[r][target_r] over the rows with a target (None: none),
    each log p computed in logs (logit/T − max − log Σ e^(…)), so that a tiny p is not 0."""
    losses = []
    for r, target in enumerate(targets):
        if target is not None:
            S = logits[r] / temperature
            top = S.max()
            losses.append(-(S[target] - top - np.log(np.exp(S - top).sum())))
    return sum(losses) / len(losses) if losses else 0.0


def next_chances(probs, words, limit=10):
    """The words by chance, most likely first (vocab order on a tie): at most `limit`."""
    order = sorted(range(len(words)), key=lambda w: -probs[w])  # sorted() is stable
    return [{"word": words[w], "prob": probs[w]} for w in order[:limit]]


def transformer_knockouts(X, model, target_rows):
    """transformer.md, "Knock-outs": the model run again without each head of each layer,
    each layer's attention, each FFN and each whole block. For each: the last row's chances,
    the likeliest words and the loss (None without targets), as `compute` prints them."""
    def without(l, part):
        forward = transformer_forward(X, model, removed=(l, part))
        loss = None
        if target_rows is not None:
            loss = cross_entropy(forward["logits"], model["temperature"], target_rows)
        return {"probs": forward["probs"][-1], "loss": loss,
                "next": next_chances(forward["probs"][-1], model["words"])}
    layers = range(len(model["layers"]))
    return {
        "head": [[without(l, ("head", i)) for i in range(model["layers"][l]["attention"]["heads"])]
                 for l in layers],
        "attention": [without(l, "attention") for l in layers],
        "ffn": [without(l, "ffn") for l in layers],
        "block": [without(l, "block") for l in layers],
    }


def splitmix64(state):
    """(the new state, the next 64-bit output): Python ints kept to 64 bits by masking."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return state, z ^ (z >> 31)


def pick_word(probs, draw=None):
    """greedy (draw None): the most likely word, the first in vocab order on a tie. sample:
    u = (draw >> 11) · 2⁻⁵³ picks the first word whose running total of chances exceeds u
    (the last word with a chance above 0 if rounding leaves the total at or below u)."""
    if draw is None:
        return int(np.argmax(probs))
    u = (draw >> 11) * 2.0 ** -53
    total, last = 0.0, 0
    for w, p in enumerate(probs):
        total += p
        last = w if p > 0 else last
        if total > u:
            return w
    return last


def transformer_generate(model, forward, steps, pick, seed=0):
    """Appends `steps` words with a key/value cache. Step 1 picks from the prompt's last row of
    chances, and the forward pass's keys and values start every layer's cache. Step t ≥ 2 runs
    only the word step t − 1 appended, at position n + t − 2: one new row through every layer.
    Query–key comparisons per head and layer: n² at step 1 and n + t − 1 at step t with the
    cache, (n + t − 1)² at step t without it."""
    layers = model["layers"]
    refused = ("generation needs the causal mask in every layer: with the mask off, each new "
               "word changes every earlier token's output, so there is nothing to cache"
               if not all(layer["attention"]["causal"] for layer in layers) else
               "learned positions stop at the prompt's n rows"
               if model["positional"] == "learned" and steps > 1 else
               "generation embeds each new word from the vocab, and the cell has none"
               if model["embed"] is None else None)
    if refused:
        return {"refused": refused, "steps": [], "cache_numbers": 0}
    n, d = forward["final_ln"].shape
    caches = [{"K": done["attention"]["K"], "V": done["attention"]["V"],
               "padding": list(layer["attention"]["padding"] or [False] * n)}
              for done, layer in zip(forward["layers"], layers)]
    out = {"steps": []}
    state, probs = seed, forward["probs"][-1]
    for t in range(1, steps + 1):
        if t >= 2:
            word = out["steps"][-1]["word"]
            if word not in model["embed_words"]:
                out["refused"] = f"{word!r} is not in the vocab, so it cannot be fed back in"
                break
            position = n + t - 2
            x = model["embed"][[model["embed_words"].index(word)]]  # (1 × d)
            if model["positional"] == "sinusoidal":
                x = x + sinusoidal_positions(position + 1, d)[position:]
            probs = transformer_forward(x, model, caches)["probs"][0]
        draw = None
        if pick == "sample":
            state, draw = splitmix64(state)
        w = pick_word(probs, draw)
        out["steps"].append({"word": model["words"][w], "prob": probs[w],
                             "cost_cached": n * n if t == 1 else n + t - 1,
                             "cost_full": (n + t - 1) ** 2})
    per_position = sum(layer["attention"]["heads"] *
                       (layer["attention"]["d_k"] + layer["attention"]["d_v"]) for layer in layers)
    out["cache_numbers"] = per_position * (n + len(out["steps"]) - 1)
    return out


def show_transformer(result, tokens):
    """The stream before and after each block, the next word's chances, the generation."""
    show("X⁰ = X0 + P (the stream's start)", result["X"], tokens)
    for l, layer in enumerate(result["layers"]):
        show(f"after block {l + 1}", layer["resid2"], tokens)
    print("The next word, after the last token:")
    for entry in result["next"]:
        print(f"  {entry['prob']:.4f}  {entry['word']}")
    if result["loss"] is not None:
        print(f"loss (the mean cross-entropy over the targets): {result['loss']:.4f}")
    generation = result["generation"]
    if generation is not None:
        print("Generated, with the key/value cache (query–key comparisons per head and layer):")
        for t, step in enumerate(generation["steps"]):
            print(f"  step {t + 1}: {step['prob']:.4f}  {step['word']}  "
                  f"({step['cost_cached']} with the cache, {step['cost_full']} without)")
        if "refused" in generation:
            print(("  stopped: " if generation["steps"] else "  refused: ") + generation["refused"])
        if generation["steps"]:
            print(f"  the cache holds {generation['cache_numbers']} numbers after the last step")


def check_against_attnbook(result, attnbook, tolerance=1e-12):
    """Compares the loss, the next word's chances and the generated words (word, chance, cost
    with and without the cache) with the numbers attnbook computed, to tolerance · max(1, |x|)."""
    problems = []

    def compare(where, mine, theirs):
        if isinstance(theirs, str) or mine is None:
            same = mine == theirs
        else:
            same = abs(mine - theirs) <= tolerance * max(1.0, abs(theirs))
        if not same:
            problems.append(f"{where}: NumPy {mine!r}, attnbook {theirs!r}")

    if "loss" in attnbook:
        compare("loss", result["loss"], attnbook["loss"])
    mine = [(entry["word"], entry["prob"]) for entry in result["next"]]
    steps = (result["generation"] or {"steps": []})["steps"]
    mine_steps = [(s["word"], s["prob"], s["cost_cached"], s["cost_full"]) for s in steps]
    for name, ours, theirs in (("next", mine, attnbook["next"]),
                               ("generation", mine_steps, attnbook["generation"])):
        if len(ours) != len(theirs):
            problems.append(f"{name}: NumPy has {len(ours)} entries, attnbook {len(theirs)}")
        for i, (a, b) in enumerate(zip(ours, theirs)):
            for j, (x, y) in enumerate(zip(a, b)):
                compare(f"{name}[{i}][{j}]", x, y)
    if problems:
        print("NumPy and attnbook differ:\n  " + "\n  ".join(problems))
    else:
        print(f"NumPy agrees with attnbook (loss, next word, generation) to {tolerance:g}.")
