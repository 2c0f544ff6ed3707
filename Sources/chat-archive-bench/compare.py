#!/usr/bin/env python3
"""Run chat-archive-bench --reuse on two kept dirs alternately, R rounds each; print the median
p50/p99 of every latency row side by side, and the ratio B/A. Usage:
compare.py BENCH A_DIR B_DIR ROUNDS [bench flags...]"""
import json, statistics, subprocess, sys
bench, a, b, rounds, extra = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
res = {a: {}, b: {}}
order = []
vals = {a: {}, b: {}}
for r in range(rounds):
    for d in ((a, b) if r % 2 == 0 else (b, a)):
        out = subprocess.run([bench, "--dir", d, "--reuse", "--json"] + extra, capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr); sys.exit(1)
        line = [l for l in out.stdout.splitlines() if l.startswith("{")][-1]
        doc = json.loads(line)
        for l in doc["latencies"]:
            if l["name"] not in order: order.append(l["name"])
            res[d].setdefault(l["name"], []).append((l["p50ms"], l["p99ms"]))
        for k, v in doc.items():
            if isinstance(v, (int, float)): vals[d].setdefault(k, []).append(v)
        print(f"round {r} {d} done", file=sys.stderr)
med = lambda xs: statistics.median(xs)
print(f"| row | A p50 | A p99 | B p50 | B p99 | p50 B/A | p99 B/A |")
print("|---|---|---|---|---|---|---|")
for n in order:
    if n not in res[a] or n not in res[b]: continue
    a50 = med([x[0] for x in res[a][n]]); a99 = med([x[1] for x in res[a][n]])
    b50 = med([x[0] for x in res[b][n]]); b99 = med([x[1] for x in res[b][n]])
    print(f"| {n} | {a50:.3f} | {a99:.3f} | {b50:.3f} | {b99:.3f} | {b50/max(a50,1e-6):.2f}× | {b99/max(a99,1e-6):.2f}× |")
for k in sorted(set(vals[a]) & set(vals[b])):
    print(f"| value {k} | {med(vals[a][k]):.4g} | | {med(vals[b][k]):.4g} | | {med(vals[b][k])/max(med(vals[a][k]),1e-9):.2f}× | |")
