#!/usr/bin/env python3
"""Probe: does a linear model on a mouth patch tell open mouths from closed ones?

A research script for issue 17 (session 16), not part of the examiner. It answers whether a
learned mouth-state signal is worth a rule, trained on the tuning half only:

  booth faces --json --models MODELS *.jpg > /tmp/faces.json      (in this folder)
  mouth_patch_probe.py /tmp/faces.json [--kind patch|gradient|rows|coarse] [--lam 100]

Per photo with one face and an uncovered mouth (`covered` n): the luma of a 24 x 16 patch
aligned on the mouth corners (landmarks68 48 and 54; x from -0.6 to 0.6 and y from -0.45 to
0.45 corner distances around their midpoint, bilinear), normalised to zero mean and unit
deviation. Label: `mouth_open`. An L2 logistic regression (Newton steps) is fitted on the tuning
half; 5-fold cross-validation on the tuning half (seed 17) gives the AUC and the limit that keeps
95 % of the tuning half's compliant faces (out-of-fold scores). The model fitted on the whole
tuning half is then scored once on the held half at that limit: compliant false alarms, open
mouths caught, and the score of every held open mouth whose note says the lips are apart.

Needs Python 3, numpy and Pillow.
"""
import argparse
import csv
import json
import os

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
PATCH_W, PATCH_H = 24, 16
SEED = 17
FOLDS = 5


def mouth_patch(path, landmarks):
    rgb = np.asarray(Image.open(path).convert("RGB"), dtype=np.float32)
    luma = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    points = np.asarray(landmarks, dtype=np.float32)
    left, right = points[48], points[54]
    centre = (left + right) / 2
    across = right - left
    scale = float(np.linalg.norm(across))
    if scale < 2:
        raise ValueError(f"{path}: mouth corners {left} and {right} are too close")
    across /= scale
    down = np.array([-across[1], across[0]], dtype=np.float32)
    gx, gy = np.meshgrid(np.linspace(-0.6, 0.6, PATCH_W), np.linspace(-0.45, 0.45, PATCH_H))
    at = centre + scale * (gx[..., None] * across + gy[..., None] * down)
    x = np.clip(at[..., 0], 0, luma.shape[1] - 1.001)
    y = np.clip(at[..., 1], 0, luma.shape[0] - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    value = (luma[y0, x0] * (1 - fx) * (1 - fy) + luma[y0, x0 + 1] * fx * (1 - fy)
             + luma[y0 + 1, x0] * (1 - fx) * fy + luma[y0 + 1, x0 + 1] * fx * fy)
    return (value - value.mean()) / (value.std() + 1e-3)


def features(patch, kind):
    if kind == "patch":
        return patch.ravel()
    if kind == "coarse":
        return patch[::2, ::2].ravel()
    if kind == "gradient":
        return np.diff(patch, axis=0).ravel()
    centre = patch[:, PATCH_W // 4: 3 * PATCH_W // 4]
    return np.concatenate([centre.mean(1), centre.min(1)])  # "rows"


def fit(x, y, lam, steps=25):
    mean, dev = x.mean(0), x.std(0) + 1e-6
    a = np.hstack([(x - mean) / dev, np.ones((len(x), 1))])
    penalty = np.r_[np.ones(a.shape[1] - 1), 0.0] * lam
    w = np.zeros(a.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-a @ w))
        gradient = a.T @ (p - y) + penalty * w
        hessian = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty)
        w -= np.linalg.solve(hessian, gradient)
    return mean, dev, w


def score(model, x):
    mean, dev, w = model
    return np.hstack([(x - mean) / dev, np.ones((len(x), 1))]) @ w


def auc(scores, labels):
    pos, neg = scores[labels], scores[~labels]
    return float(np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("faces", help="output of `booth faces --json` on this folder's photos")
    parser.add_argument("--kind", choices=["patch", "gradient", "rows", "coarse"], default="patch")
    parser.add_argument("--lam", type=float, default=100.0, help="L2 weight")
    args = parser.parse_args()
    with open(os.path.join(HERE, "labels.tsv")) as handle:
        labels = {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}
    with open(args.faces) as handle:
        found = {os.path.basename(r["file"]): r["faces"][0] for r in json.load(handle) if len(r.get("faces", [])) == 1}
    rows = []
    for name, label in sorted(labels.items()):
        if name not in found or label["covered"] == "y":
            continue
        patch = mouth_patch(os.path.join(HERE, name), found[name]["landmarks68"])
        rows.append((name, label, features(patch, args.kind)))
    if not rows:
        raise SystemExit(f"{args.faces}: no photo of labels.tsv with one face found")
    halves = {h: [r for r in rows if r[1]["split"] == h] for h in ("tune", "held")}
    tune = halves["tune"]
    x = np.array([r[2] for r in tune])
    y = np.array([r[1]["mouth_open"] == "y" for r in tune])
    compliant = np.array([r[1]["class"] == "compliant" for r in tune])
    fold = np.random.default_rng(SEED).permutation(len(tune)) % FOLDS
    out_of_fold = np.zeros(len(tune))
    for k in range(FOLDS):
        model = fit(x[fold != k], y[fold != k].astype(float), args.lam)
        out_of_fold[fold == k] = score(model, x[fold == k])
    limit = np.sort(out_of_fold[compliant])[int(np.ceil(0.95 * compliant.sum())) - 1]
    print(f"tune: {len(tune)} photos, {y.sum()} open; cross-validated AUC {auc(out_of_fold, y):.3f}; "
          f"limit {limit:.2f} (95 % of {compliant.sum()} compliant below); open above it {(out_of_fold[y] > limit).sum()}/{y.sum()}")
    model = fit(x, y.astype(float), args.lam)
    held = halves["held"]
    s = score(model, np.array([r[2] for r in held]))
    held_open = np.array([r[1]["mouth_open"] == "y" for r in held])
    held_compliant = np.array([r[1]["class"] == "compliant" for r in held])
    print(f"held: compliant false alarms {(s[held_compliant] > limit).sum()}/{held_compliant.sum()}, "
          f"open mouths caught {(s[held_open] > limit).sum()}/{held_open.sum()}")
    for (name, label, _), value in zip(held, s):
        if label["mouth_open"] == "y" and "apart" in label["note"]:
            print(f"  {name}: {value:.2f} ({'caught' if value > limit else 'missed'}) {label['note']}")


if __name__ == "__main__":
    main()
