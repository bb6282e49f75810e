

# ---- The transformer cell (transformer.md): a pre-norm decoder, GPT-2's order ----
# Each layer's attention is the attention above (project, blocked_entries, attention_heads).
import math

erf = np.vectorize(math.erf, otypes=[float])  # NumPy has no erf: C's erf, element by element

# The models cells share (docs/transformer.md, "A shared model"): by the cell that writes one,
# its words, vectors and blocks, stored by that cell's code for the cells that name it.
shared_models = {}


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


# ---- Training (docs/training.md): the backward pass and the optimiser steps ----


def layer_norm_backward(G, X, ln, eps):
    """∂L/∂X and {"gamma", "beta"} gradients of LN over the rows X, from G = ∂L/∂LN(X); the
    identity (ln None) passes G through."""
    if ln is None:
        return G, None
    mean = X.mean(axis=1, keepdims=True)
    inv = 1 / np.sqrt(((X - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    xhat = (X - mean) * inv
    G_xhat = G * ln["gamma"]
    G_X = inv * (G_xhat - G_xhat.mean(axis=1, keepdims=True)
                 - xhat * (G_xhat * xhat).mean(axis=1, keepdims=True))
    return G_X, {"gamma": (G * xhat).sum(axis=0), "beta": G.sum(axis=0)}


def activation_slope(name, x):
    """act′(x), element by element."""
    if name == "gelu":  # Φ(x) + x φ(x)
        return 0.5 * (1 + erf(x / math.sqrt(2))) + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    if name == "gelu_tanh":
        c = math.sqrt(2 / math.pi)
        t = np.tanh(c * (x + 0.044715 * x * x * x))
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x)
    return (x > 0).astype(float)  # relu


def transformer_gradients(X, model, forward, target_rows, weight):
    """∂L/∂θ of L = weight · Σ_r −log p[r][target_r] at temperature 1: the backward pass of
    transformer.md, stage by stage in reverse, by the names of `grad`."""
    G_logits = np.zeros_like(forward["probs"])  # (n × V)
    for r, target in enumerate(target_rows):
        if target is not None:
            G_logits[r] = weight * forward["probs"][r]
            G_logits[r, target] -= weight
    grads = {"U": G_logits.T @ forward["final_ln"], "b_U": G_logits.sum(axis=0),
             "layers": [None] * len(model["layers"])}
    last = forward["layers"][-1]["resid2"] if forward["layers"] else X
    G, grads["final_ln"] = layer_norm_backward(G_logits @ model["U"], last, model["final_ln"],
                                               model["eps"])
    for l in reversed(range(len(forward["layers"]))):
        layer, out = model["layers"][l], forward["layers"][l]
        g = {"ln2": None, "ffn": None}
        G_R = G.copy()  # Xˡ = R + F: ∂L/∂R gets ∂L/∂Xˡ, and more through the FFN
        if layer["ffn"] is not None:
            f, cache = layer["ffn"], out["ffn"]
            G_pre = (G @ f["W_2"]) * activation_slope(f["activation"], cache["pre"])
            g["ffn"] = {"W_1": G_pre.T @ out["ln2"], "b_1": G_pre.sum(axis=0),
                        "W_2": G.T @ cache["act"], "b_2": G.sum(axis=0)}
            G_G, g["ln2"] = layer_norm_backward(G_pre @ f["W_1"], out["resid1"], layer["ln2"],
                                                model["eps"])
            G_R = G_R + G_G
        a, att = layer["attention"], out["attention"]
        g["attention"] = {"W_O": G_R.T @ att["concat"], "b_O": G_R.sum(axis=0)}
        G_Q, G_K, G_V = attention_backward(G_R @ a["W_O"], att["Q"], att["K"], att["V"],
                                           att["head"], a["heads"], a["d_k"], a["d_v"],
                                           a["scale"])
        for name, G_W in (("Q", G_Q), ("K", G_K), ("V", G_V)):
            g["attention"]["W_" + name] = G_W.T @ att["X"]
            g["attention"]["b_" + name] = G_W.sum(axis=0)
        G_H = G_Q @ a["W_Q"] + G_K @ a["W_K"] + G_V @ a["W_V"]
        G_X, g["ln1"] = layer_norm_backward(G_H, out["input"], layer["ln1"], model["eps"])
        G = G_R + G_X  # R = Xˡ⁻¹ + A
        grads["layers"][l] = g
    grads["X0"] = G  # the positions are constant
    return grads


def trainable_parameters(model, trainable):
    """(holder, key, path to its gradient) for every parameter that moves, in `grad` order."""
    out = []
    for l, layer in enumerate(model["layers"]):
        if "attention" in trainable:
            for name in ("W_Q", "b_Q", "W_K", "b_K", "W_V", "b_V", "W_O", "b_O"):
                out.append((layer["attention"], name, ("layers", l, "attention", name)))
        if "norm" in trainable:
            for ln in ("ln1", "ln2"):
                if layer[ln] is not None:
                    out.append((layer[ln], "gamma", ("layers", l, ln, "gamma")))
                    out.append((layer[ln], "beta", ("layers", l, ln, "beta")))
        if "ffn" in trainable and layer["ffn"] is not None:
            for name in ("W_1", "b_1", "W_2", "b_2"):
                out.append((layer["ffn"], name, ("layers", l, "ffn", name)))
    if "norm" in trainable and model["final_ln"] is not None:
        out.append((model["final_ln"], "gamma", ("final_ln", "gamma")))
        out.append((model["final_ln"], "beta", ("final_ln", "beta")))
    if "vocab" in trainable:
        out.append((model, "embed", ("vocab",)))
        if model["U"] is not model["embed"]:
            out.append((model, "U", ("U",)))
        out.append((model, "b_U", ("b_U",)))
    return out


def gradient_at(grads, path):
    """The gradient a path names, or None where the pass computed none."""
    for step in path:
        if grads is None:
            return None
        grads = grads[step]
    return grads


def random_initial_weights(model, seed, scale):
    """scale · z into the vocab rows, then each layer's W_Q, W_K, W_V, W_O, W_1, W_2, then a
    separate U, row by row; biases 0, γ 1, β 0. z = √(−2 ln(1 − u₁)) · cos(2π u₂), u from
    splitmix64 seeded by `seed`, (x >> 11) · 2⁻⁵³."""
    state = seed

    def fill(M):
        nonlocal state
        for r in range(M.shape[0]):
            for c in range(M.shape[1]):
                state, x1 = splitmix64(state)
                state, x2 = splitmix64(state)
                u1, u2 = (x1 >> 11) * 2.0 ** -53, (x2 >> 11) * 2.0 ** -53
                M[r, c] = scale * (math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2))

    fill(model["embed"])
    for layer in model["layers"]:
        a = layer["attention"]
        for name in ("W_Q", "W_K", "W_V", "W_O"):
            fill(a[name])
        if layer["ffn"] is not None:
            fill(layer["ffn"]["W_1"])
            fill(layer["ffn"]["W_2"])
        for holder, names in ((a, ("b_Q", "b_K", "b_V", "b_O")), (layer["ffn"], ("b_1", "b_2"))):
            for name in names if holder is not None else ():
                holder[name][:] = 0.0
        for ln in ("ln1", "ln2"):
            if layer[ln] is not None:
                layer[ln]["gamma"][:] = 1.0
                layer[ln]["beta"][:] = 0.0
    if model["final_ln"] is not None:
        model["final_ln"]["gamma"][:] = 1.0
        model["final_ln"]["beta"][:] = 0.0
    if model["U"] is not model["embed"]:
        fill(model["U"])
    model["b_U"][:] = 0.0


def transformer_train(model, data, held_out, steps, optimizer, lr, init, trainable, show):
    """docs/training.md: full-batch training on the sentences in `data` (lists of words), each
    run on its own at temperature 1 without padding; SGD or Adam. Leaves the weights after step
    `show` in `model` and returns the loss before each step and after the last, the held-out
    loss, ‖g‖₂ at each step and the step shown."""
    if init is not None:
        random_initial_weights(model, init["seed"], init["scale"])
    run = dict(model, temperature=1, layers=[
        dict(layer, attention=dict(layer["attention"], padding=None)) for layer in model["layers"]])
    d = model["embed"].shape[1]

    def prepared(sentences):
        out = []
        for words in sentences:
            rows = [model["embed_words"].index(w) for w in words]
            targets = [model["words"].index(w) for w in words[1:]] + [None]
            if len(words) > 1:
                out.append((rows, targets))
        return out

    def inputs(rows):
        P = sinusoidal_positions(len(rows), d) if model["positional"] == "sinusoidal" \
            else np.zeros((len(rows), d))
        return model["embed"][rows] + P

    def loss_over(sentences, gradients=False):
        M = sum(len(rows) - 1 for rows, _ in sentences)
        loss, total = 0.0, None
        for rows, targets in sentences:
            X = inputs(rows)
            forward = transformer_forward(X, run)
            loss += (len(rows) - 1) / M * cross_entropy(forward["logits"], 1, targets)
            if gradients:
                grads = transformer_gradients(X, run, forward, targets, 1 / M)
                vocab = np.zeros_like(model["embed"])  # each token's row of ∂L/∂X0 added
                np.add.at(vocab, rows, grads["X0"])
                if model["U"] is model["embed"]:
                    vocab += grads["U"]
                grads["vocab"] = vocab
                found = [gradient_at(grads, path) for _, _, path in params]
                total = found if total is None else [
                    t if g is None else (g if t is None else t + g) for t, g in zip(total, found)]
        return loss, total

    params = trainable_parameters(model, trainable)
    train, held = prepared(data), prepared(held_out)
    result = {"loss": [], "held_out_loss": [], "grad_norm": [], "shown": 0}
    moments = [(0.0, 0.0) for _ in params]
    kept = None
    for step in range(steps + 1):
        loss, total = loss_over(train, gradients=step < steps)
        if not math.isfinite(loss):
            break
        result["loss"].append(loss)
        if held:
            result["held_out_loss"].append(loss_over(held)[0])
        if step <= show:
            kept = [holder[key].copy() for holder, key, _ in params]
            result["shown"] = step
        if step == steps:
            break
        total = [np.zeros_like(holder[key]) if g is None else g
                 for (holder, key, _), g in zip(params, total)]
        result["grad_norm"].append(math.sqrt(sum(float((g * g).sum()) for g in total)))
        for i, ((holder, key, _), g) in enumerate(zip(params, total)):
            if optimizer == "sgd":
                holder[key] -= lr * g
                continue
            m, v = moments[i]
            m = 0.9 * m + (1 - 0.9) * g
            v = 0.999 * v + (1 - 0.999) * g * g
            moments[i] = (m, v)
            m_hat = m / (1 - 0.9 ** (step + 1))
            v_hat = v / (1 - 0.999 ** (step + 1))
            holder[key] -= lr * (m_hat / (np.sqrt(v_hat) + 1e-8))
    for (holder, key, _), value in zip(params, kept):
        holder[key][...] = value  # the weights of the step shown
    if not held:
        del result["held_out_loss"]
    return result


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
