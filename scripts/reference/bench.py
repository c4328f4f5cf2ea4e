"""Times Booth's engine (`booth model bench`) against LiteRT (XNNPACK, num_threads=1) on the same
input, model by model, in the same run, and prints the ratio (Booth time / LiteRT time; < 1 means
Booth is faster). Times are the fastest of N runs after warm-up for both engines, which is the
figure least disturbed by other work on a shared machine; the median is printed beside it. The two
engines take turns for R rounds (default 3) and each keeps its fastest round, so a stretch of
interference on a shared machine cannot land on one engine only.

Run through scripts/reference/bench (which provides the venv and builds booth in release).
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np
from ai_edge_litert.interpreter import Interpreter

MODELS = ["face_detection_short_range", "face_landmark", "iris_landmark",
          "selfie_segmentation", "selfie_segmentation_landscape"]


def litert_ms(path, x, runs):
    it = Interpreter(model_path=path, num_threads=1)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], x)
    for _ in range(3):
        it.invoke()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        it.invoke()
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.min(times)), float(np.median(times))


def booth_ms(booth, path, input_path, runs, exec_path):
    out = subprocess.run([booth, "model", "bench", path, "--runs", str(runs), "--input", input_path,
                          "--path", exec_path], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"min ([0-9.]+) ms", out).group(1)), float(re.search(r"median ([0-9.]+) ms", out).group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--booth", required=True)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--path", default="float", choices=["float", "int"])
    args = p.parse_args()
    tmp = os.path.join(args.root, ".build-reference", "bench")
    os.makedirs(tmp, exist_ok=True)
    print(f"{'model':32} {'booth ' + args.path + ' ms':>14} {'LiteRT ms':>10} {'ratio':>7}   (medians: booth, LiteRT)")
    for i, m in enumerate(MODELS):
        path = os.path.join(args.root, "models", m + ".tflite")
        it = Interpreter(model_path=path, num_threads=1)
        shape = it.get_input_details()[0]["shape"]
        x = np.random.default_rng(7 + i).uniform(-1, 1, shape).astype(np.float32)
        input_path = os.path.join(tmp, m + ".f32")
        x.astype("<f4").tofile(input_path)
        lite = ours = float("inf")
        for _ in range(max(1, args.rounds)):
            lite_min, lite_med = litert_ms(path, x, args.runs)
            ours_min, ours_med = booth_ms(args.booth, path, input_path, args.runs, args.path)
            if lite_min < lite:
                lite, lite_median = lite_min, lite_med
            if ours_min < ours:
                ours, ours_median = ours_min, ours_med
        print(f"{m:32} {ours:14.3f} {lite:10.3f} {ours / lite:7.2f}   ({ours_median:.3f}, {lite_median:.3f})")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
