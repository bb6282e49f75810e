#!/usr/bin/python3
"""Writes the data-file fixtures of test_data_files into the folder given.

NumPy writes every array, so the reader is tested against the files NumPy
itself makes (numpy.save, numpy.savetxt); the .safetensors file is written
by hand after the format's documentation (8-byte little-endian header size,
a JSON header, then the raw little-endian numbers), since the safetensors
package is not in Debian 12.

The base matrix is A[r, c] = (7 r + c) / 3 - 5, 5 × 7: the test computes it
too, so it can tell the stored numbers from the ones read. Each
expect_*.npy holds what NumPy's own slicing and transposing give, for the
test to compare the cell options against.
"""
import json
import struct
import sys
from pathlib import Path

import numpy as np

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)

A = (7 * np.arange(5)[:, None] + np.arange(7)[None, :]) / 3.0 - 5.0  # 5 × 7 float64

np.save(out / "c64.npy", A)                                  # C order, '<f8'
np.save(out / "c32.npy", A.astype("<f4"))                    # C order, '<f4'
np.save(out / "f64.npy", np.asfortranarray(A))               # Fortran order, '<f8'
np.save(out / "f32.npy", np.asfortranarray(A.astype("<f4")))  # Fortran order, '<f4'
np.save(out / "vec.npy", A[2])                               # 1-D, 7 numbers
np.save(out / "col.npy", A[:, 3:4])                          # 5 × 1
np.save(out / "v2.npy", A, allow_pickle=False)               # same again, for format 2 below
np.savetxt(out / "m.csv", A, delimiter=",", fmt="%.17g")
np.savetxt(out / "m.tsv", A, delimiter="\t", fmt="%.17g")
np.savetxt(out / "crlf.csv", A, delimiter=",", fmt="%.17g", newline="\r\n")

# Format version 2.0 (a 4-byte header length), as numpy writes for big headers.
with open(out / "v2.npy", "wb") as f:
    np.lib.format.write_array(f, A, version=(2, 0))

# Unsupported or damaged arrays.
np.save(out / "big_endian.npy", A.astype(">f8"))
np.save(out / "int.npy", np.arange(35).reshape(5, 7))
np.save(out / "cube.npy", np.zeros((2, 3, 4)))
np.save(out / "scalar.npy", np.float64(1.5))
np.save(out / "nan.npy", np.array([[1.0, 2.0], [np.nan, 4.0]]))
whole = (out / "c64.npy").read_bytes()
(out / "truncated.npy").write_bytes(whole[:-8])
# A header that claims 10^8 × 10^8 numbers over a few bytes of data.
header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (100000000, 100000000), }"
header = header + b" " * (118 - len(header)) + b"\n"
(out / "huge.npy").write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header
                               + b"\x00" * 64)

# .safetensors: two tensors and metadata.
def safetensors(path, tensors, header_extra=None):
    header = {"__metadata__": {"format": "pt"}}
    blobs = b""
    for name, (dtype, array) in tensors.items():
        raw = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [len(blobs), len(blobs) + len(raw)]}
        blobs += raw
    if header_extra:
        header.update(header_extra)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + blobs)

safetensors(out / "model.safetensors", {
    "attn.c_attn.weight": ("F32", A.astype("<f4")),
    "attn.c_proj.bias": ("F64", A[1].astype("<f8")),
})
safetensors(out / "half.safetensors", {"w": ("F16", A.astype("<f2"))})
(out / "bad_header.safetensors").write_bytes(struct.pack("<Q", 1 << 40) + b"{}")
(out / "dup.safetensors").write_bytes(
    struct.pack("<Q", 2 * 62 + 1)
    + b'{"w":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}      ,'[:62]
    + b'"w":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}       }'[:62]
    + b"\n" + struct.pack("<d", 1.0))

# What NumPy's own slicing and transposing give (the cell options' meaning).
np.save(out / "expect_rows_1_4.npy", A[1:4])
np.save(out / "expect_cols_2_6.npy", A[:, 2:6])
np.save(out / "expect_rows_1_4_cols_2_6_T.npy", A[1:4, 2:6].T)
np.save(out / "expect_T.npy", A.T)

# Broken tables.
(out / "text.csv").write_text("1,2,3\n4,abc,6\n")
(out / "header.csv").write_text("a,b\n1,2\n")
(out / "ragged.csv").write_text("1,2,3\n4,5\n")
(out / "empty_field.csv").write_text("1,,3\n")
(out / "comma.tsv").write_text("1,5\t2\n")
(out / "blank_lines.csv").write_text("1,2\n\n3,4\n\n")

# A vocab: 4 labelled rows.
E = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, -0.5], [0.25, 0.25, 0.0], [-1.0, 2.0, 3.0]])
np.save(out / "emb.npy", E)
(out / "vocab.txt").write_text("the\ncat\nsat\nmat\n")
(out / "vocab_short.txt").write_text("the\ncat\nsat\n")
(out / "vocab_dup.txt").write_text("the\ncat\nthe\nmat\n")
