"""Runs each model in float64 (float64_ops.py, TFLite's reference semantics) on the reference inputs
of .build-reference/, and prints how far each float32 implementation is from it: LiteRT XNNPACK (the
stored reference outputs), LiteRT's reference kernels (BUILTIN_REF, the custom transposed
convolution rewritten as TRANSPOSE_CONV as in implementations.py) and Booth's float path.
Figures as in LiteRTReferenceTests: relative to the tensor's largest magnitude (`scale`) and
element-wise with a 1e-3·max floor (`elem`).

Usage: .build-venv/bin/python scripts/reference/float64_network.py [MODEL ...]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import OpResolverType

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float64_ops  # noqa: E402
from implementations import builtin_only, errors, run  # noqa: E402
from intermediates import op_names  # noqa: E402


def forward64(path, x, keep=None):
    buf = open(path, "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))
    sg = model.subgraphs[0]
    names = op_names(model)
    values = {int(sg.inputs[0]): x.astype(np.float64).reshape(sg.tensors[int(sg.inputs[0])].shape)}
    for i, tensor in enumerate(sg.tensors):
        data = model.buffers[tensor.buffer].data if tensor.buffer < len(model.buffers) else None
        if data is not None and len(data) > 0:
            dtype = {0: "<f4", 1: "<f2", 2: "<i4", 4: "<i8"}[tensor.type]
            values[i] = np.frombuffer(bytes(data), dtype).astype(np.float64).reshape(tensor.shape)
    for op in sg.operators:
        name = names[op.opcodeIndex]
        t = int(op.outputs[0])
        inputs = [values[int(i)] for i in op.inputs if int(i) >= 0]
        if name == "DEQUANTIZE":
            values[t] = inputs[0]
            continue
        y = float64_ops.evaluate(name, op, inputs, list(sg.tensors[t].shape))
        if y is None:
            raise SystemExit(f"no float64 version of {name}")
        values[t] = y.reshape(sg.tensors[t].shape)
        if keep is not None:
            keep.append((name, t, values[t]))
    return [values[int(o)].ravel() for o in sg.outputs]


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ref_dir = os.path.join(root, ".build-reference")
    booth = os.path.join(root, ".build", "release", "booth")
    only = set(sys.argv[1:])
    tmp = tempfile.mkdtemp(prefix="booth-float64-")
    print(f"{'model':<30} {'case':<5} out  {'XNNPACK/f64 scale':>17} {'elem':>8}  {'REF/f64':>8} {'elem':>8}"
          f"  {'Booth/f64':>9} {'elem':>8}  {'Booth/XNNPACK':>13} {'elem':>8}")
    for line in open(os.path.join(ref_dir, "MANIFEST")):
        model, case = line.split()[:2]
        if only and model not in only:
            continue
        path = os.path.join(root, "models", model + ".tflite")
        input_path = os.path.join(ref_dir, f"{model}.{case}.input.f32")
        x = np.fromfile(input_path, "<f4")
        exact = forward64(path, x)
        alt = os.path.join(tmp, model + ".builtin.tflite")
        if not builtin_only(path, alt):
            alt = path
        ref = run(alt, x, OpResolverType.BUILTIN_REF)
        out = os.path.join(tmp, f"{model}.{case}.booth.f32")
        subprocess.run([booth, "model", "run", path, "--input", input_path, "--output", out, "--path", "float"], check=True)
        ours = np.fromfile(out, "<f4")
        at = 0
        for k, y in enumerate(exact):
            xnn = np.fromfile(os.path.join(ref_dir, f"{model}.{case}.out{k}.f32"), "<f4")
            mine = ours[at:at + y.size]
            at += y.size
            cols = [errors(xnn, y), errors(ref[k], y), errors(mine, y), errors(mine, xnn)]
            print(f"{model:<30} {case:<5} {k:>3}  " + "  ".join(f"{a:11.2e} {b:8.2e}" for a, b in cols), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
