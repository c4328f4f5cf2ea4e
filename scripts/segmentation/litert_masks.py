#!/usr/bin/env python3
"""Reference person masks from LiteRT's float selfie-segmentation models (check tool only).

For every photo of ../shared/fixtures/persons it feeds the model MediaPipe's way (the picture
stretched to the model's input, RGB in [0, 1]; keep_aspect_ratio false in
selfie_segmentation_cpu.binarypb), resizes the probability back to the photo bilinearly and
writes an 8-bit PNG to OUT/<set>/<name>.png. It prints the mean IoU against the ground truth
(masks resized to the photo; person where value >= 128).

usage: litert_masks.py [--model general|landscape] [--fixtures DIR] [--out DIR]
Needs: pip install ai-edge-litert numpy pillow (in the gitignored .build-venv/).
"""
import argparse, os, sys
import numpy as np
from PIL import Image, ImageOps
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def sets(fixtures):
    p = os.path.join(fixtures, "persons")
    yield "cihp", os.path.join(p, "cihp/images"), os.path.join(p, "cihp/person_masks")
    yield "portrait", os.path.join(p, "portrait_masks/images"), os.path.join(p, "portrait_masks/masks")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="general", choices=["general", "landscape"])
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "../shared/fixtures"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/segmentation/litert"))
    a = ap.parse_args()
    name = "selfie_segmentation" + ("" if a.model == "general" else "_landscape")
    it = Interpreter(model_path=os.path.join(ROOT, "models", name + ".tflite"), num_threads=1)
    it.allocate_tensors()
    inp, outp = it.get_input_details()[0], it.get_output_details()[0]
    _, h, w, _ = inp["shape"]
    for set_name, images, masks in sets(a.fixtures):
        if not os.path.isdir(images):
            print(f"skip {set_name}: {images} absent", file=sys.stderr); continue
        os.makedirs(os.path.join(a.out, set_name), exist_ok=True)
        ious = []
        for f in sorted(os.listdir(images)):
            base = os.path.splitext(f)[0]
            img = ImageOps.exif_transpose(Image.open(os.path.join(images, f))).convert("RGB")
            x = np.asarray(img.resize((w, h), Image.BILINEAR), dtype=np.float32)[None] / 255.0
            it.set_tensor(inp["index"], x); it.invoke()
            prob = it.get_tensor(outp["index"])[0, :, :, 0]
            m = Image.fromarray(np.clip(prob * 255 + 0.5, 0, 255).astype(np.uint8)).resize(img.size, Image.BILINEAR)
            m.save(os.path.join(a.out, set_name, base + ".png"))
            gt = Image.open(os.path.join(masks, base + ".png")).convert("L").resize(img.size, Image.BILINEAR)
            p, g = np.asarray(m) >= 128, np.asarray(gt) >= 128
            u = np.logical_or(p, g).sum()
            ious.append(np.logical_and(p, g).sum() / u if u else 1.0)
        print(f"{set_name}: {len(ious)} photos, mean IoU {np.mean(ious):.4f} (LiteRT float {a.model}, stretched)")

if __name__ == "__main__":
    main()
