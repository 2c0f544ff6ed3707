#!/usr/bin/env python3
"""Run chat-archive-bench twice over, alternately, R rounds each; print the median p50/p99 of
every latency row side by side, the ratio B/A, and the median of every numeric value.

Two kept dirs, one build:   compare.py BENCH A_DIR B_DIR ROUNDS [bench flags...]
    (each run: BENCH --dir DIR --reuse --json [flags])
Two builds (or any two runs): compare.py --runs ROUNDS 'BIN_A DIR_A [flags]' 'BIN_B DIR_B [flags]' [common flags...]
    (each run: BIN --dir DIR --json [flags] [common flags]; a run without --reuse builds DIR
    afresh, so its dir is removed first)"""
import json, os, shlex, shutil, statistics, subprocess, sys

if sys.argv[1] == "--runs":
    rounds, common = int(sys.argv[2]), sys.argv[5:]
    specs = [shlex.split(sys.argv[3]), shlex.split(sys.argv[4])]
else:
    bench, a, b, rounds, common = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    specs = [[bench, a, "--reuse"], [bench, b, "--reuse"]]

res, vals, order = [{}, {}], [{}, {}], []
for r in range(rounds):
    for k in ((0, 1) if r % 2 == 0 else (1, 0)):
        binary, d, *flags = specs[k]
        if "--reuse" not in flags + common and os.path.exists(d):
            shutil.rmtree(d)
        out = subprocess.run([binary, "--dir", d, "--json"] + flags + common, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr[-3000:], file=sys.stderr)
            sys.exit(1)
        doc = json.loads([l for l in out.stdout.splitlines() if l.startswith("{")][-1])
        for l in doc.get("latencies", []):
            if l["name"] not in order:
                order.append(l["name"])
            res[k].setdefault(l["name"], []).append((l["p50ms"], l["p99ms"]))
        for key, v in doc.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                vals[k].setdefault(key, []).append(v)
        print(f"round {r} {'AB'[k]} done", file=sys.stderr, flush=True)

med = statistics.median
print("| row | A p50 | A p99 | B p50 | B p99 | p50 B/A | p99 B/A |")
print("|---|---|---|---|---|---|---|")
for n in order:
    cells = [(med([x[0] for x in res[k][n]]), med([x[1] for x in res[k][n]])) if n in res[k] else None for k in (0, 1)]
    a, b = cells
    text = " | ".join("-- | --" if c is None else f"{c[0]:.3f} | {c[1]:.3f}" for c in cells)
    ratio = f"{b[0] / max(a[0], 1e-6):.2f}× | {b[1] / max(a[1], 1e-6):.2f}×" if a and b else " | "
    print(f"| {n} | {text} | {ratio} |")
for key in sorted(set(vals[0]) | set(vals[1])):
    a, b = vals[0].get(key), vals[1].get(key)
    shown = [f"{med(x):.4g}" if x else "--" for x in (a, b)]
    ratio = f"{med(b) / med(a):.3f}×" if a and b and med(a) else ""
    print(f"| value {key} | {shown[0]} | | {shown[1]} | | {ratio} | |")
