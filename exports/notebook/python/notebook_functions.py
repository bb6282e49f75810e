# The functions every cell below calls: plain NumPy, the math of attention.md.
# Names: n query rows (tokens), m key rows (= n unless Q, K, V are given directly),
# d model width, h heads, d_k and d_v the widths of one head, d_o the output width.
import numpy as np

np.set_printoptions(precision=4, suppress=True, linewidth=110)

# Every cell's numbers at full precision, by the names `attnbook compute` prints:
# attnbook_results["colour"]["head"][0]["weights"] is colour.head[0].weights.
attnbook_results = {}


def matrix(rows):
    """A matrix typed as a list of rows, in doubles."""
    return np.array(rows, dtype=float)


def vector(values):
    return np.array(values, dtype=float)


def sinusoidal_positions(n, d):
    """P (n × d): P[pos][2i] = sin(pos / 10000^(2i/d)), P[pos][2i+1] = cos(pos / 10000^(2i/d))."""
    P = np.zeros((n, d))
    positions = np.arange(n, dtype=float)  # from 0
    for col in range(d):
        pair_start = col - col % 2  # 2i, for both the sine and the cosine of pair i
        frequency = 10000.0 ** (-pair_start / d)
        angle = positions * frequency
        P[:, col] = np.sin(angle) if col % 2 == 0 else np.cos(angle)
    return P


def blocked_entries(n, m, causal=False, padding=None):
    """(n × m) True where query row r may not read key column c.

    causal: query row r stands at position m − n + r and reads the keys c ≤ m − n + r
    (when m = n: a token reads itself and the tokens before it).
    padding: m flags; a flagged key is read by no row (its own row is still computed).
    """
    r = np.arange(n)[:, None]
    c = np.arange(m)[None, :]
    blocked = np.zeros((n, m), dtype=bool)
    if causal:
        blocked |= c > m - n + r
    if padding is not None:
        blocked |= np.array(padding, dtype=bool)[None, :]
    return blocked


def masked_softmax(S):
    """Softmax of each row of S (n × m), where a blocked score is −∞ and gets share 0.

    The row's maximum is subtracted before exp: the shares stay the same and exp never
    overflows. A row with every score blocked gets shares of 0 (never NaN).
    """
    A = np.zeros_like(S)
    for r in range(S.shape[0]):
        readable = S[r] > -np.inf
        if readable.any():
            e = np.exp(S[r, readable] - S[r, readable].max())
            A[r, readable] = e / e.sum()
    return A


def project(X, W, b):
    """X (rows × inputs) · Wᵀ (inputs × outputs) + b: W holds one output unit per row."""
    return X @ W.T + b


def columns(M, i, width):
    """Head i's columns of M, [i·width, (i+1)·width): a view, so it can be assigned to."""
    return M[:, i * width:(i + 1) * width]


def attention_heads(Q, K, V, heads, d_k, d_v, scale, blocked):
    """Every head's scores, shares and context, and C = [H_1 … H_h] (n × h·d_v)."""
    head = []
    for i in range(heads):
        Q_i, K_i, V_i = columns(Q, i, d_k), columns(K, i, d_k), columns(V, i, d_v)
        S = (Q_i @ K_i.T) * scale  # (n × m) scaled scores
        S[blocked] = -np.inf
        A = masked_softmax(S)  # (n × m) shares
        H = A @ V_i  # (n × d_v) context
        head.append({"scores": S, "weights": A, "context": H})
    C = np.hstack([h["context"] for h in head])  # (n × h·d_v)
    return head, C


def attention_backward(G_C, Q, K, V, head, heads, d_k, d_v, scale):
    """∂L/∂Q, ∂L/∂K, ∂L/∂V from G_C = ∂L/∂C (n × h·d_v), one head at a time."""
    G_Q, G_K, G_V = np.zeros_like(Q), np.zeros_like(K), np.zeros_like(V)
    for i in range(heads):
        A = head[i]["weights"]  # (n × m)
        G_H = columns(G_C, i, d_v)  # (n × d_v)
        G_A = G_H @ columns(V, i, d_v).T  # (n × m)
        # Through the softmax; a blocked entry has A = 0 and so gets 0.
        G_S = A * (G_A - (G_A * A).sum(axis=1, keepdims=True))  # (n × m)
        columns(G_V, i, d_v)[:] = A.T @ G_H  # (m × d_v)
        columns(G_Q, i, d_k)[:] = scale * (G_S @ columns(K, i, d_k))  # (n × d_k)
        columns(G_K, i, d_k)[:] = scale * (G_S.T @ columns(Q, i, d_k))  # (m × d_k)
    return G_Q, G_K, G_V


def show(name, M, rows=None, cols=None, limit=12):
    """Prints M with its labels, 4 decimals, a blocked score as −∞; at most `limit` rows
    and columns (attnbook_results holds everything)."""
    M = np.atleast_2d(M)
    rows = [str(r) for r in rows] if rows is not None else [str(i + 1) for i in range(M.shape[0])]
    cols = [str(c) for c in cols] if cols is not None else [str(j + 1) for j in range(M.shape[1])]
    shown = M[:limit, :limit]
    cells = [["−∞" if v == -np.inf else f"{v:.4f}" for v in row] for row in shown]
    cols = cols[:limit]
    width = max(len(text) for text in cols + [text for row in cells for text in row])
    label = max(len(text) for text in rows[:limit])
    more = " (the first %d rows and columns)" % limit if max(M.shape) > limit else ""
    print(f"{name}  {M.shape[0]} × {M.shape[1]}{more}")
    print(" " * label + "  " + " ".join(text.rjust(width) for text in cols))
    for text, row in zip(rows, cells):
        print(text.ljust(label) + "  " + " ".join(value.rjust(width) for value in row))
    print()


def show_attention(result, query_labels, key_labels, gradients=False):
    """The matrices the window's matrices view shows, and the gradients when asked."""
    if result.get("X") is not None:
        if np.any(result["P"]):
            show("X₀ (token vectors)", result["X0"], query_labels)
            show("P (positions)", result["P"], query_labels)
        show("X", result["X"], query_labels)
    show("Q", result["Q"], query_labels)
    show("K", result["K"], key_labels)
    show("V", result["V"], key_labels)
    for i, h in enumerate(result["head"]):
        name = f"head {i + 1}: " if len(result["head"]) > 1 else ""
        show(name + "scores", h["scores"], query_labels, key_labels)
        show(name + "shares", h["weights"], query_labels, key_labels)
        show(name + "context", h["context"], query_labels)
    if len(result["head"]) > 1:
        show("C (the heads side by side)", result["concat"], query_labels)
    show("Y (output)", result["output"], query_labels)
    if gradients:
        for key, G in result["grad"].items():
            labels = query_labels if key in ("upstream", "X", "queries") else (
                key_labels if key in ("keys", "values") else None)
            show("∂L/∂" + key, G, labels)


def formula_min(*values):
    """muParser's min: any number of arguments."""
    return np.minimum.reduce(np.broadcast_arrays(*values))


def formula_max(*values):
    return np.maximum.reduce(np.broadcast_arrays(*values))


def formula_sum(*values):
    return np.add.reduce(np.broadcast_arrays(*values))


def formula_avg(*values):
    return formula_sum(*values) / len(values)


def formula_rint(x):
    """muParser's rint: halves round up."""
    return np.floor(x + 0.5)


def on_axis(y, x):
    """A formula's values at every x (a constant formula gives one number)."""
    return np.broadcast_to(np.asarray(y, dtype=float), x.shape).copy()


def show_chart(title, x_name, series, x_log=False, y_log=False):
    """Each series at the first, middle and last x; a plot when matplotlib is there."""
    print(title)
    for label, x, y in series:
        picks = sorted({0, len(x) // 2, len(x) - 1})
        print(f"  {label}: " + ", ".join(f"{x_name} = {x[i]:.6g} → {y[i]:.6g}" for i in picks))
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        return
    for label, x, y in series:
        plt.plot(x, y, label=label)
    plt.xscale("log" if x_log else "linear")
    plt.yscale("log" if y_log else "linear")
    plt.title(title)
    plt.legend()
    plt.show()
