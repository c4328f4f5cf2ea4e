"""Float64 look at the selfie-segmentation tail, Convolution2DTransposeBias (2×2, stride 2, 16 → 1
channels) then LOGISTIC, where LiteRTReferenceTests' element-wise figure is largest.

For LiteRT (XNNPACK) and Booth's float path it takes each one's own float32 input of the transposed
convolution (tensor `add_13`, dumped as in intermediates.py), recomputes the logits and the mask in
float64, and prints:
  - local error: each implementation's float32 logits/mask against float64 of its own input
    (what its arithmetic adds in this op);
  - inherited: float64 logits/mask from LiteRT's input against float64 from Booth's input
    (the difference already present upstream, carried through exactly);
  - half-ulp: float64 mask from LiteRT's input against float64 from that input with every value moved
    by a random ±½ ulp (the bound on what float32 storage of the tensor alone can cause);
  - at the worst mask element: the logit, Σ|w·x| over its 16 products and float32's eps·Σ|w·x|.

Usage: .build-venv/bin/python scripts/reference/sigmoid_tail.py [MODEL [CASE]]
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter

sys.path.insert(0, os.path.dirname(__file__))
from intermediates import expose_all  # noqa: E402


def transpose2x2(x, w, b):
    """Kernel = stride = 2, SAME (no overlap, no padding): y[2i+ky, 2j+kx, o] = b[o] + Σc w[o,ky,kx,c]·x[i,j,c]."""
    n, h, wd, c = x.shape
    o = w.shape[0]
    y = np.einsum("nijc,oyxc->niyjxo", x, w).reshape(n, 2 * h, 2 * wd, o) + b
    absum = np.einsum("nijc,oyxc->niyjxo", np.abs(x), np.abs(w)).reshape(n, 2 * h, 2 * wd, o) + np.abs(b)
    return y, absum


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def figures(a, b):
    d = np.abs(a.astype(np.float64) - b)
    big = np.abs(b).max()
    return d.max(), d.max() / big, (d / np.maximum(np.abs(b), 1e-3 * big)).max()


def main():
    model = sys.argv[1] if len(sys.argv) > 1 else "selfie_segmentation"
    case = sys.argv[2] if len(sys.argv) > 2 else "face"
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    model_path = os.path.join(root, "models", model + ".tflite")
    input_path = os.path.join(root, ".build-reference", f"{model}.{case}.input.f32")
    tmp = tempfile.mkdtemp(prefix="booth-tail-")
    m = expose_all(model_path, os.path.join(tmp, "exposed.tflite"))
    sg = m.subgraphs[0]
    ops = sg.operators
    tconv = next(op for op in ops if m.operatorCodes[op.opcodeIndex].customCode == b"Convolution2DTransposeBias")
    x_t, w_t, b_t = (int(t) for t in tconv.inputs)
    y_t = int(tconv.outputs[0])
    mask_t = int(next(op for op in ops if int(op.inputs[0]) == y_t).outputs[0])

    it = Interpreter(model_path=os.path.join(tmp, "exposed.tflite"), num_threads=1)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], np.fromfile(input_path, "<f4").reshape(d["shape"]))
    it.invoke()
    lite = {int(o["index"]): it.get_tensor(o["index"]) for o in it.get_output_details()}
    dump = os.path.join(tmp, "booth")
    os.makedirs(dump)
    subprocess.run([os.path.join(root, ".build", "release", "booth"), "model", "run", model_path, "--input", input_path,
                    "--output", os.path.join(tmp, "out.f32"), "--path", "float", "--dump", dump], check=True)

    def booth(t):
        return np.fromfile(os.path.join(dump, f"{t}.f32"), "<f4").reshape(lite[t].shape)

    def constant(t):
        # XNNPACK folds DEQUANTIZE at delegation, so its output tensors are never filled: read the fp16 buffer.
        src = next((int(op.inputs[0]) for op in ops if int(op.outputs[0]) == t), t)
        tensor = sg.tensors[src]
        dtype = "<f2" if tensor.type == 1 else "<f4"  # TensorType FLOAT16 = 1
        return np.frombuffer(bytes(m.buffers[tensor.buffer].data), dtype).astype(np.float64).reshape(tensor.shape)

    w = constant(w_t)
    b = constant(b_t)
    lx, bx = lite[x_t].astype(np.float64), booth(x_t).astype(np.float64)
    l64, absum = transpose2x2(lx, w, b)
    b64, _ = transpose2x2(bx, w, b)
    lm64, bm64 = sigmoid(l64), sigmoid(b64)
    rng = np.random.default_rng(7)
    ulp = np.spacing(lite[x_t]).astype(np.float64)
    jx = lx + ulp * rng.uniform(-0.5, 0.5, lx.shape)
    jm64 = sigmoid(transpose2x2(jx, w, b)[0])

    print(f"{model} {case}: max|logit| {np.abs(l64).max():.4g}, max Σ|w·x| {absum.max():.4g}")
    print("                                    max abs     scale-rel  element-wise")
    rows = [
        ("input x: Booth vs LiteRT", booth(x_t), lite[x_t]),
        ("logits local: LiteRT f32 vs f64", lite[y_t], l64),
        ("logits local: Booth f32 vs f64", booth(y_t), b64),
        ("logits inherited: f64(Booth x) vs f64(LiteRT x)", b64, l64),
        ("logits: Booth vs LiteRT (as tested)", booth(y_t), lite[y_t]),
        ("mask local: LiteRT f32 vs f64", lite[mask_t], lm64),
        ("mask local: Booth f32 vs f64", booth(mask_t), bm64),
        ("mask inherited: f64(Booth x) vs f64(LiteRT x)", bm64, lm64),
        ("mask half-ulp: f64(LiteRT x ± ½ulp) vs f64(x)", jm64, lm64),
        ("mask: Booth vs LiteRT (as tested)", booth(mask_t), lite[mask_t]),
    ]
    for name, a, ref in rows:
        print(f"  {name:<48} {figures(a, ref)[0]:9.2e}  {figures(a, ref)[1]:9.2e}  {figures(a, ref)[2]:9.2e}")
    mask = lite[mask_t].astype(np.float64)
    diff = np.abs(booth(mask_t) - mask)
    k = np.unravel_index(np.argmax(diff / np.maximum(mask, 1e-3 * mask.max())), mask.shape)
    print(f"  worst element-wise mask element {tuple(int(i) for i in k)}: LiteRT {mask[k]:.6g}, Booth {booth(mask_t)[k]:.6g},"
          f" logit {l64[k]:.6g}, Σ|w·x| {absum[k]:.4g}, eps32·Σ|w·x| {absum[k] * 2.0 ** -24:.2e}")
    k = np.unravel_index(np.argmax(diff), mask.shape)
    print(f"  worst absolute mask element {tuple(int(i) for i in k)}: LiteRT {mask[k]:.6g}, Booth {booth(mask_t)[k]:.6g},"
          f" logit {l64[k]:.6g}, Σ|w·x| {absum[k]:.4g}, eps32·Σ|w·x| {absum[k] * 2.0 ** -24:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
