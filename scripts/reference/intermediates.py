"""Compares Booth's float path with LiteRT operation by operation, on one reference input.

LiteRT's XNNPACK delegate does not keep intermediates, and `experimental_preserve_all_tensors`
turns the delegate off (the selfie models' custom Convolution2DTransposeBias then has no kernel),
so this rewrites the model to declare every operator output a graph output and runs that with
XNNPACK. Booth's intermediates come from `booth model run --path float --dump DIR`.

For each operator it prints the error of Booth's output against LiteRT's, relative to the tensor's
largest magnitude (`scale`) and element-wise with a 1e-3·max floor (`elem`), as in
LiteRTReferenceTests. By default only the operators where the element-wise figure first grows are
printed (--all prints every one).

With --local it prints instead, per operator, the error each implementation's arithmetic adds in that
operator alone: its float32 output against float64 (float64_ops.py, written from TFLite's reference
kernels) evaluated on its own float32 inputs. LiteRT's column validates the float64 versions; a
Booth figure far above LiteRT's would be a semantic discrepancy in that operator.

Usage: .build-venv/bin/python scripts/reference/intermediates.py MODEL CASE [--all] [--local]
       [--resolver xnnpack|builtin|ref] [--booth .build/release/booth]
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float64_ops  # noqa: E402


def op_names(model):
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    out = []
    for code in model.operatorCodes:
        b = max(code.builtinCode, code.deprecatedBuiltinCode)
        out.append(code.customCode.decode() if code.customCode else names.get(b, str(b)))
    return out


def expose_all(path, dst):
    """Writes a copy of the model whose graph outputs are all operator outputs (plus the old ones)."""
    buf = open(path, "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))
    sg = model.subgraphs[0]
    outs = list(sg.outputs)
    for op in sg.operators:
        for t in op.outputs:
            if t not in outs:
                outs.append(int(t))
    sg.outputs = outs
    b = flatbuffers.Builder(len(buf) + 4096)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    open(dst, "wb").write(b.Output())
    return model


def errors(ours, ref):
    ref = ref.astype(np.float64).ravel()
    ours = ours.astype(np.float64).ravel()
    big = max(np.abs(ref).max(), 1e-30)
    d = np.abs(ours - ref)
    return d.max() / big, (d / np.maximum(np.abs(ref), 1e-3 * big)).max(), big


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("case")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--booth", default=None)
    ap.add_argument("--resolver", default="xnnpack", choices=["xnnpack", "builtin", "ref"])
    ap.add_argument("--all", action="store_true", help="print every operator, not only growth points")
    ap.add_argument("--local", action="store_true", help="per-operator error against float64 of its own inputs")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    booth = args.booth or os.path.join(root, ".build", "release", "booth")
    model_path = os.path.join(root, "models", args.model + ".tflite")
    input_path = os.path.join(root, ".build-reference", f"{args.model}.{args.case}.input.f32")
    tmp = tempfile.mkdtemp(prefix="booth-intermediates-")
    exposed = os.path.join(tmp, "exposed.tflite")
    model = expose_all(model_path, exposed)
    names = op_names(model)
    sg = model.subgraphs[0]

    resolver = {"xnnpack": OpResolverType.AUTO, "builtin": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
                "ref": OpResolverType.BUILTIN_REF}[args.resolver]
    it = Interpreter(model_path=exposed, num_threads=1, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    detail = it.get_input_details()[0]
    x = np.fromfile(input_path, "<f4").reshape(detail["shape"])
    it.set_tensor(detail["index"], x)
    it.invoke()
    lite = {int(o["index"]): it.get_tensor(o["index"]) for o in it.get_output_details()}

    dump = os.path.join(tmp, "booth")
    os.makedirs(dump)
    subprocess.run([booth, "model", "run", model_path, "--input", input_path, "--output", os.path.join(tmp, "out.f32"),
                    "--path", "float", "--dump", dump], check=True)

    if args.local:
        return local(sg, model, names, lite, dump, x)
    worst_elem = 0.0
    print(f"{'op':>4} {'kind':<28} {'tensor':>6} {'scale':>9} {'elem':>9} {'max|ref|':>9}")
    for k, op in enumerate(sg.operators):
        t = int(op.outputs[0])
        f = os.path.join(dump, f"{t}.f32")
        if not os.path.exists(f) or t not in lite:
            continue  # folded (DEQUANTIZE) or not computed
        ours = np.fromfile(f, "<f4")
        s, e, big = errors(ours, lite[t])
        grew = e > 2 * worst_elem and e > 1e-6
        worst_elem = max(worst_elem, e)
        if args.all or grew:
            name = sg.tensors[t].name.decode()[-40:]
            print(f"{k:>4} {names[op.opcodeIndex]:<28} {t:>6} {s:9.2e} {e:9.2e} {big:9.3g}  {name}")
    return 0


def local(sg, model, names, lite, dump, x):
    producer = {int(op.outputs[0]): op for op in sg.operators}

    def constant(t):
        op = producer.get(t)
        if op is not None and names[op.opcodeIndex] == "DEQUANTIZE":
            t = int(op.inputs[0])  # XNNPACK folds DEQUANTIZE and never fills its output
        tensor = sg.tensors[t]
        data = model.buffers[tensor.buffer].data if tensor.buffer < len(model.buffers) else None
        if data is None or len(data) == 0:
            return None
        dtype = {0: "<f4", 1: "<f2", 2: "<i4", 4: "<i8"}[tensor.type]
        return np.frombuffer(bytes(data), dtype).astype(np.float64).reshape(tensor.shape)

    def value(t, own):
        c = constant(t)
        if c is not None:
            return c
        if t == int(sg.inputs[0]):
            return x.astype(np.float64)
        return own(t).astype(np.float64).reshape(sg.tensors[t].shape)

    def booth(t):
        return np.fromfile(os.path.join(dump, f"{t}.f32"), "<f4")

    print(f"{'op':>4} {'kind':<28} {'tensor':>6}  {'LiteRT local scale':>18} {'elem':>9}  {'Booth local scale':>17} {'elem':>9}")
    worst = {}
    for k, op in enumerate(sg.operators):
        name = names[op.opcodeIndex]
        t = int(op.outputs[0])
        if name == "DEQUANTIZE" or t not in lite:
            continue
        shape = list(sg.tensors[t].shape)
        row = []
        for own in (lambda i: lite[i], booth):
            inputs = [value(int(i), own) for i in op.inputs if int(i) >= 0]
            y = float64_ops.evaluate(name, op, inputs, shape)
            if y is None:
                row = None
                break
            row += errors(own(t).reshape(-1), y)[:2]
        if row is None:
            print(f"{k:>4} {name:<28} {t:>6}  (no float64 version)")
            continue
        flag = "  <-- Booth off" if row[2] > 8 * row[0] + 1e-6 else ""
        print(f"{k:>4} {name:<28} {t:>6}  {row[0]:18.2e} {row[1]:9.2e}  {row[2]:17.2e} {row[3]:9.2e}{flag}")
        w = worst.setdefault(name, [0, 0, 0, 0])
        worst[name] = [max(a, b) for a, b in zip(w, row)]
    print("worst per kind:")
    for name, (a, b, c, d) in worst.items():
        print(f"     {name:<28}         {a:18.2e} {b:9.2e}  {c:17.2e} {d:9.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
