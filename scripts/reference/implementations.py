"""How far apart two float32 implementations of the same graph are: LiteRT's XNNPACK kernels,
LiteRT's optimised builtin kernels and LiteRT's reference kernels (BUILTIN_REF), and Booth's float
path, on the reference inputs of .build-reference/ (written by scripts/reference/litert-reference).

For each model, case and output it prints the error of each implementation against XNNPACK (the
figures LiteRTReferenceTests checks) both relative to the tensor's largest magnitude (`scale`) and
element-wise with a 1e-3·max floor (`elem`), plus builtin/ref against each other.

The builtin resolvers have no kernel for MediaPipe's custom Convolution2DTransposeBias (only the
XNNPACK delegate has one), so for those models the op is rewritten as the equivalent builtin
TRANSPOSE_CONV (same weights [O,kH,kW,I], bias, padding and strides) before running them.

Usage: .build-venv/bin/python scripts/reference/implementations.py [--booth .build/release/booth]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def builtin_only(path, dst):
    """Writes the model with Convolution2DTransposeBias replaced by TRANSPOSE_CONV; False if none."""
    buf = open(path, "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))
    sg = model.subgraphs[0]
    custom = [i for i, c in enumerate(model.operatorCodes) if c.customCode == b"Convolution2DTransposeBias"]
    if not custom:
        return False
    code = schema.OperatorCodeT()
    code.builtinCode = schema.BuiltinOperator.TRANSPOSE_CONV
    code.deprecatedBuiltinCode = schema.BuiltinOperator.TRANSPOSE_CONV
    code.version = 3
    model.operatorCodes.append(code)
    for op in sg.operators:
        if op.opcodeIndex not in custom:
            continue
        padding, stride_w, stride_h = np.frombuffer(bytes(op.customOptions), "<i4")[:3]
        x, w, b = (int(t) for t in op.inputs)
        y = int(op.outputs[0])
        shape = schema.BufferT()
        shape.data = np.asarray(sg.tensors[y].shape, "<i4").view(np.uint8)
        model.buffers.append(shape)
        t = schema.TensorT()
        t.shape = np.asarray([len(sg.tensors[y].shape)], np.int32)
        t.type = schema.TensorType.INT32
        t.buffer = len(model.buffers) - 1
        t.name = sg.tensors[y].name + b"/output_shape"
        sg.tensors.append(t)
        options = schema.TransposeConvOptionsT()
        # TfLitePadding in the custom options: 1 = SAME, 2 = VALID; schema Padding: SAME 0, VALID 1.
        options.padding = schema.Padding.SAME if padding == 1 else schema.Padding.VALID
        options.strideW, options.strideH = int(stride_w), int(stride_h)
        op.opcodeIndex = len(model.operatorCodes) - 1
        op.inputs = [len(sg.tensors) - 1, w, x, b]
        op.builtinOptionsType = schema.BuiltinOptions.TransposeConvOptions
        op.builtinOptions = options
        op.customOptions = None
    builder = flatbuffers.Builder(len(buf) + 4096)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    open(dst, "wb").write(builder.Output())
    return True


def run(path, x, resolver):
    it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], x.reshape(d["shape"]))
    it.invoke()
    return [it.get_tensor(o["index"]).ravel().copy() for o in it.get_output_details()]


def errors(ours, ref):
    ref = ref.astype(np.float64).ravel()
    d = np.abs(ours.astype(np.float64).ravel() - ref)
    big = max(np.abs(ref).max(), 1e-30)
    return d.max() / big, (d / np.maximum(np.abs(ref), 1e-3 * big)).max()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--booth", default=None)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    booth = args.booth or os.path.join(root, ".build", "release", "booth")
    ref_dir = os.path.join(root, ".build-reference")
    tmp = tempfile.mkdtemp(prefix="booth-implementations-")
    print(f"{'model':<30} {'case':<5} out  {'booth/xnn scale':>15} {'elem':>8}  {'builtin/xnn':>11} {'elem':>8}"
          f"  {'ref/xnn':>8} {'elem':>8}  {'ref/builtin':>11} {'elem':>8}")
    for line in open(os.path.join(ref_dir, "MANIFEST")):
        model, case = line.split()[:2]
        path = os.path.join(root, "models", model + ".tflite")
        x = np.fromfile(os.path.join(ref_dir, f"{model}.{case}.input.f32"), "<f4")
        alt = os.path.join(tmp, model + ".builtin.tflite")
        if not builtin_only(path, alt):
            alt = path
        xnn = run(path, x, OpResolverType.AUTO)
        builtin = run(alt, x, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        ref = run(alt, x, OpResolverType.BUILTIN_REF)
        out = os.path.join(tmp, f"{model}.{case}.booth.f32")
        subprocess.run([booth, "model", "run", path, "--input", os.path.join(ref_dir, f"{model}.{case}.input.f32"),
                        "--output", out, "--path", "float"], check=True)
        ours = np.fromfile(out, "<f4")
        at = 0
        for k, y in enumerate(xnn):
            mine = ours[at:at + y.size]
            at += y.size
            cols = [errors(mine, y), errors(builtin[k], y), errors(ref[k], y), errors(ref[k], builtin[k])]
            print(f"{model:<30} {case:<5} {k:>3}  " + "  ".join(f"{a:11.2e} {b:8.2e}" for a, b in cols), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
