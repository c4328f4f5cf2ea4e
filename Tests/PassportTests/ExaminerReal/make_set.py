#!/usr/bin/env python3
"""Recreate the ExaminerReal development set from the downloaded originals.

Every photo in this folder is a crop of one public original, listed in
crops.tsv (file, source, path, left, top, width, height: the crop box in the
original's pixels after EXIF orientation). Sources are named in SOURCES.md.

  make_set.py build --root cmd=/path/to/Face-Mask-Detection [--root NAME=DIR ...] [--out DIR]
      Cut every row of crops.tsv whose source has a --root, scale it to at most
      480 px wide and write it as JPEG quality 85 (no metadata).

  make_set.py propose --source NAME --root DIR FACES.json [FACES.json ...]
      Turn the output of `booth faces --json` (exactly one face per image) into
      crops.tsv rows: 2.3 face widths wide, 3:4, the face centre at 45 % of the
      height, shifted (and if need be shrunk) to stay inside the image.

  make_set.py split NEW.tsv
      The tune/held half of photos added later (NEW.tsv: file, class and an
      optional person key, tab-separated). Photos already in labels.tsv keep
      theirs. Per class, the new photos are taken in name order and each goes
      to the half with fewer photos of that class at that moment (tune on a
      tie); a photo whose person key was seen before goes where that person
      went. The rule reads only names, classes and person keys, never the
      photo, so no half is chosen by what a photo shows.

Needs Python 3 and Pillow.
"""
import argparse
import csv
import json
import os
import re
import sys

from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
COLUMNS = ["file", "source", "path", "left", "top", "width", "height"]
MAX_WIDTH = 480
FACE_WIDTHS = 2.3
ASPECT = 4 / 3  # height / width
FACE_CENTRE = 0.45  # face centre at this fraction of the crop height


def crop_box(image_width, image_height, box):
    """The crop (left, top, width, height) for one face box {x, y, width, height}."""
    face_width = box["width"]
    centre_x = box["x"] + face_width / 2
    centre_y = box["y"] + box["height"] / 2
    width = FACE_WIDTHS * face_width
    height = width * ASPECT
    scale = min(1.0, image_width / width, image_height / height)
    width, height = width * scale, height * scale
    left = min(max(0.0, centre_x - width / 2), image_width - width)
    top = min(max(0.0, centre_y - height * FACE_CENTRE), image_height - height)
    return round(left), round(top), int(width), int(height)


def propose(args):
    writer = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    root = os.path.abspath(args.root)
    for faces_json in args.faces:
        with open(faces_json) as handle:
            results = json.load(handle)
        for result in results:
            faces = result.get("faces", [])
            if len(faces) != 1:
                print(f"skip {result['file']}: {len(faces)} faces", file=sys.stderr)
                continue
            left, top, width, height = crop_box(result["width"], result["height"], faces[0]["box"])
            path = os.path.relpath(os.path.abspath(result["file"]), root)
            stem = os.path.splitext(os.path.basename(path))[0].replace(" ", "_")
            stem = re.sub(r"_(jpg|jpeg|png)\.rf\.[0-9a-f]+$", "", stem)  # Roboflow export suffix
            name = f"{args.source}-{os.path.basename(os.path.dirname(path))}-{stem}.jpg"
            writer.writerow([name, args.source, path, left, top, width, height])


def build(args):
    roots = {}
    for item in args.root:
        name, sep, directory = item.partition("=")
        if not sep or not name or not directory:
            sys.exit(f"--root wants NAME=DIR, got {item!r}")
        if not os.path.isdir(directory):
            sys.exit(f"--root {name}: {directory} is not a directory")
        roots[name] = directory
    out = args.out or HERE
    os.makedirs(out, exist_ok=True)
    made = skipped = 0
    with open(os.path.join(HERE, "crops.tsv")) as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        if reader.fieldnames != COLUMNS:
            sys.exit(f"crops.tsv: header must be {COLUMNS}, got {reader.fieldnames}")
        rows = list(reader)
    unknown = sorted({row["source"] for row in rows} - roots.keys())
    if unknown:
        print(f"no --root for source(s) {', '.join(unknown)}: their photos are skipped", file=sys.stderr)
    for line, row in enumerate(rows, start=2):
        root = roots.get(row["source"])
        if root is None:
            skipped += 1
            continue
        original = os.path.join(root, row["path"])
        if not os.path.isfile(original):
            sys.exit(f"{row['file']}: original {original} is missing")
        image = ImageOps.exif_transpose(Image.open(original)).convert("RGB")
        try:
            left, top, width, height = (int(row[key]) for key in ("left", "top", "width", "height"))
        except (TypeError, ValueError):
            sys.exit(f"crops.tsv line {line}: left/top/width/height must be whole numbers")
        if width <= 0 or height <= 0:
            sys.exit(f"crops.tsv line {line}: empty crop box")
        if left < 0 or top < 0 or left + width > image.width or top + height > image.height:
            sys.exit(f"{row['file']}: crop box lies outside the {image.width}x{image.height} original")
        crop = image.crop((left, top, left + width, top + height))
        if crop.width > MAX_WIDTH:
            crop = crop.resize((MAX_WIDTH, round(crop.height * MAX_WIDTH / crop.width)), Image.LANCZOS)
        crop.save(os.path.join(out, row["file"]), "JPEG", quality=85)
        made += 1
    print(f"wrote {made} photos to {out}; {skipped} rows skipped (no --root for their source)")


def split(args):
    counts = {}
    with open(os.path.join(HERE, "labels.tsv")) as handle:
        reader = csv.DictReader(handle, delimiter="\t")
        known = set()
        for row in reader:
            known.add(row["file"])
            counts.setdefault(row["class"], {"tune": 0, "held": 0})[row["split"]] += 1
    rows = []
    with open(args.new) as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\n").split("\t")
            if not line.strip() or line.startswith("#"):
                continue
            if len(fields) < 2 or not fields[0] or not fields[1]:
                sys.exit(f"{args.new} line {number}: want file, class and an optional person key")
            if fields[0] in known:
                sys.exit(f"{args.new} line {number}: {fields[0]} is already in labels.tsv")
            rows.append((fields[1], fields[0], fields[2] if len(fields) > 2 and fields[2] else None))
    person_half = {}
    writer = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    for cls, name, person in sorted(rows):
        count = counts.setdefault(cls, {"tune": 0, "held": 0})
        if person is not None and person in person_half:
            half = person_half[person]
        else:
            half = "tune" if count["tune"] <= count["held"] else "held"
        if person is not None:
            person_half.setdefault(person, half)
        count[half] += 1
        writer.writerow([name, cls, half])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("build", help="cut the photos listed in crops.tsv")
    p.add_argument("--root", action="append", default=[], help="NAME=DIR: checkout of source NAME")
    p.add_argument("--out", help="output folder (default: this folder)")
    p.set_defaults(run=build)
    p = commands.add_parser("propose", help="crops.tsv rows from `booth faces --json` output")
    p.add_argument("--source", required=True, help="source name used in file names")
    p.add_argument("--root", required=True, help="checkout the image paths are relative to")
    p.add_argument("faces", nargs="+", help="JSON files written by `booth faces --json`")
    p.set_defaults(run=propose)
    p = commands.add_parser("split", help="tune/held for photos not yet in labels.tsv")
    p.add_argument("new", help="TSV of file, class and an optional person key")
    p.set_defaults(run=split)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
