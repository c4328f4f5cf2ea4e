#!/usr/bin/env python3
"""Tally the refined-lips lip gap of `RefinedLipsTests` against this folder's labels.

Research for issue 17 (session 16), not part of the examiner. Run the suite straight from the
test bundle (through `swift test` its long tables lose lines: 149 of 185 tuning rows arrived in
session 16), then tally one limit:

  BOOTH_FIXTURES=../shared/fixtures .build/x86_64-unknown-linux-gnu/release/BoothPackageTests.xctest \\
      --testing-library swift-testing --filter RefinedLipsTests > /tmp/refined.log
  refined_gap_table.py /tmp/refined.log [--limit 0.022] [--held]

Reads each row's `lipGap plain→refined` (the examiner's lip gap on the mesh with the attention
model's refined lips) and counts, per half, the compliant photos, the photos with the mouth
closed and the open mouths above the limit. Without --limit it prints the tuning half's highest
compliant values (to choose a limit there); the held half is tallied only with --held.
"""
import argparse
import csv
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = re.compile(r"\s+(\S+\.jpg) gap [-\d.]+ .*lipGap [-\d.]+→([-\d.]+)")


def tally(values, labels, half, limit):
    names = [n for n in values if labels[n]["split"] == half]
    compliant = [n for n in names if labels[n]["class"] == "compliant"]
    opened = [n for n in names if labels[n]["mouth_open"] == "y"]
    closed = [n for n in names if labels[n]["mouth_open"] == "n"]
    over = lambda group: sum(values[n] > limit for n in group)
    print(f"{half}: {len(names)} faces, limit {limit:.4f}: compliant over {over(compliant)}/{len(compliant)}, "
          f"mouth-closed photos over {over(closed)}/{len(closed)}, open mouths over {over(opened)}/{len(opened)}")
    print("  open mouths at or under: " + ", ".join(f"{n} {values[n]:.4f}" for n in sorted(opened) if values[n] <= limit))
    print("  compliant over: " + ", ".join(f"{n} {values[n]:.4f}" for n in sorted(compliant) if values[n] > limit))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", help="output of RefinedLipsTests")
    parser.add_argument("--limit", type=float)
    parser.add_argument("--held", action="store_true", help="tally the held half too")
    args = parser.parse_args()
    with open(os.path.join(HERE, "labels.tsv")) as handle:
        labels = {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}
    values = {}
    with open(args.log) as handle:
        for line in handle:
            match = ROW.match(line)
            if match:
                if match.group(1) not in labels:
                    raise SystemExit(f"{args.log}: {match.group(1)} is not in labels.tsv")
                values[match.group(1)] = float(match.group(2))
    if not values:
        raise SystemExit(f"{args.log}: no `lipGap a→b` rows found")
    if args.limit is None:
        tune = sorted(values[n] for n in values if labels[n]["split"] == "tune" and labels[n]["class"] == "compliant")
        print("tune compliant, highest five: " + ", ".join(f"{v:.4f}" for v in tune[-5:]))
        return
    tally(values, labels, "tune", args.limit)
    if args.held:
        tally(values, labels, "held", args.limit)


if __name__ == "__main__":
    main()
