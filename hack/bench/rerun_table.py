"""Tables of hack/bench/rerun.sh: reads the runs' result documents on stdin."""
import itertools
import json
import math
import os
import re
import statistics
import sys

UNITS = {"ns": 1e-3, "us": 1, "µs": 1, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}


def micros(d):
    """A Go duration string in microseconds; None for none."""
    if not d:
        return None
    total = 0.0
    for value, unit in re.findall(r"([0-9.]+)(ns|us|µs|ms|s|m|h)", d):
        total += float(value) * UNITS[unit]
    return -total if d.strip().startswith("-") else total  # an interval's low end may be negative


def fmt(us):
    return "-" if us is None else f"{us / 1000:.3f}"


def documents(text):
    """The result documents on stdin, one after another (kubectl daprbench export -o json)."""
    decoder, at, out = json.JSONDecoder(), 0, []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return out
        doc, at = decoder.raw_decode(text, at)
        out.append(doc)


# Each document as the PerfRun fields the tables read: its name, spec and result.
# The documents: files named on the command line (compare reads them too), or stdin.
files = sys.argv[1:]
docs = [json.load(open(f)) for f in files] if files else documents(sys.stdin.read())
runs = [{"metadata": {"name": d["run"]["name"]}, "spec": d.get("spec") or {"load": d.get("load") or {}}, "status": {"result": d["result"]}}
        for d in docs if d.get("result")]
files = [f for f, d in zip(files, docs) if d.get("result")]  # compare's pairs follow the runs kept
if len(runs) < 2:
    sys.exit("fewer than two finished runs")
print(f"\n{len(runs)} runs of {runs[0]['spec'].get('load', {}).get('qps', '?')} rps\n")
print("| run | added p50 [95%] ms | added p90 [95%] ms | added p99 [95%] ms | baseline p50 ms | node busy % | server daprd µs/req [95%] | client daprd µs/req |")
print("|---|---|---|---|---|---|---|---|")
points = {p: [] for p in ("p50", "p90", "p99")}
intervals = {p: [] for p in points}
# A PubSub run's added delivery latency, a Workflow run's completion and a Scheduler run's
# trigger lateness, read the same way (empty for other scenarios): (result field, value,
# its interval) -> (points, intervals).
asynchronous = {
    "Added delivery latency (PubSub)": ("delivery", "added", "addedInterval"),
    "Completion (Workflow; no baseline: the path's own latency)": ("completion", "latency", "latencyInterval"),
    "Trigger lateness (Scheduler; no baseline)": ("triggers", "lateness", "latenessInterval"),
}
async_points = {title: ({p: [] for p in points}, {p: [] for p in points}) for title in asynchronous}


def take(figure, pts, ivs, value="added", interval="addedInterval"):
    """The figure's value and interval per percentile into pts and ivs; its cells."""
    added, iv = figure.get(value) or {}, figure.get(interval) or {}
    cells = []
    for p in pts:
        pt, lo, hi = micros(added.get(p)), micros((iv.get("low") or {}).get(p)), micros((iv.get("high") or {}).get(p))
        pts[p].append(pt)
        ivs[p].append((lo, hi))
        cells.append(f"{fmt(pt)} [{fmt(lo)}, {fmt(hi)}]")
    return cells


for r in runs:
    res = r["status"]["result"]
    cells = take(res, points, intervals)
    for title, (field, value, interval) in asynchronous.items():
        if res.get(field):
            take(res[field], *async_points[title], value, interval)
    busy = [c.get("capacityPercent") for c in (res.get("cpu") or {}).get("measured", []) if c["role"].startswith("node/")]
    cost = {c["role"]: c for c in res.get("sidecarCost", [])}

    def daprd(role, interval):
        d = (cost.get(role) or {}).get("daprd")
        if not d:
            return "-"
        text = f"{micros(d['cpuPerRequest']):.1f}"
        if interval and d.get("low"):
            text += f" [{micros(d['low']):.1f}, {micros(d['high']):.1f}]"
        return text

    print(f"| {r['metadata']['name']} | {' | '.join(cells)} | {fmt(micros((res.get('baseline') or {}).get('p50')))} | "
          f"{', '.join(b for b in busy if b) or '-'} | {daprd('serverSidecar', True)} | {daprd('clientSidecar', False)} |")

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def robust_relative_sd(vals):
    """1.4826 MAD / median: the spread compare --rerun-spread-from measures from a schedule."""
    med = statistics.median(vals)
    return 1.4826 * statistics.median([abs(v - med) for v in vals]) / med if med else 0.0


def robust_df(n):
    """The degrees of freedom compare gives a robust spread of n runs: the MAD's efficiency
    (0.37) times n - 1, at least 1 (internal/cli/compare/rerun_from.go)."""
    return max(1, round(0.37 * (n - 1)))


def rerun_held(p, pts, intervals):
    """How often run i's interval, widened to cover a rerun by the robust spread of the runs
    other than i and j (t for its degrees of freedom, robust_df, as compare widens it), holds
    run j's point: the spread measured without the pair it judges."""
    held = total = 0
    for i, j in itertools.permutations(range(len(pts)), 2):
        lo, hi = intervals[i]
        others = [v for k, v in enumerate(pts) if k not in (i, j) and v is not None]
        if pts[i] is None or pts[j] is None or lo is None or hi is None or len(others) < 2:
            continue
        between = T975.get(robust_df(len(others)), 2.0) * robust_relative_sd(others) * abs(pts[i])
        low = pts[i] - math.hypot(pts[i] - lo, between)
        high = pts[i] + math.hypot(hi - pts[i], between)
        total += 1
        held += low <= pts[j] <= high
    return held, total


def spread(title, points, intervals):
    """How far the runs' points of one figure spread, and how often intervals hold them."""
    print(f"\n{title}\n")
    print("| percentile | runs' mean ms | runs' SD ms (CV) | range ms | one run's interval holds another's point | its rerun interval holds another's point | smallest slowdown two runs tell from noise |")
    print("|---|---|---|---|---|---|---|")
    for p, pts in points.items():
        pairs = [(i, j) for i, j in itertools.permutations(range(len(pts)), 2)
                 if pts[j] is not None and None not in intervals[p][i]]
        held = sum(1 for i, j in pairs if intervals[p][i][0] <= pts[j] <= intervals[p][i][1])
        vals = [v for v in pts if v is not None]
        if len(vals) < 2:
            print(f"| {p} | - | - | - | - | - | - |")
            continue
        mean, sd = statistics.mean(vals), statistics.stdev(vals)
        # Two runs' difference has SD sd*sqrt(2); outside t(0.975, n-1) of it, it is not noise.
        smallest = T975.get(len(vals) - 1, 2.0) * sd * math.sqrt(2)
        rheld, rtotal = rerun_held(p, pts, intervals[p])
        print(f"| {p} | {mean / 1000:.3f} | {sd / 1000:.3f} ({100 * sd / mean:.0f}%) | {min(vals) / 1000:.3f} – {max(vals) / 1000:.3f} | "
              f"{held}/{len(pairs)} ({100 * held / max(len(pairs), 1):.0f}%) | {rheld}/{rtotal} ({100 * rheld / max(rtotal, 1):.0f}%) | "
              f"{smallest / 1000:.3f} ms ({100 * smallest / mean:.0f}% of the mean) |")


if any(v is not None for pts in points.values() for v in pts):
    spread("Added latency", points, intervals)
for title, (pts, ivs) in async_points.items():
    if any(v is not None for vs in pts.values() for v in vs):
        spread(title, pts, ivs)


# compare with its default flags on every pair of runs (A the earlier): how often it calls an
# unchanged pair different, and the smallest change its interval tells from noise (the
# median half-width of the change's interval).
plugin = os.environ.get("DAPRBENCH_PLUGIN")
COMPARED = re.compile(r"^(added p\d+)\s+(\S+)\s+(\S+)\s+\S+ \(([-+0-9.]+)%\)\s+\[(\S+), (\S+)\]\s+(slower|faster|no difference shown)")


def compared(a, b, *flags):
    """compare's verdict and the half-width of its interval (a share of A) per added figure."""
    import subprocess
    out = subprocess.run([plugin, "compare", a, b, *flags], capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        m = COMPARED.match(line)
        if m:
            va, lo, hi = micros(m.group(2)), micros(m.group(5)), micros(m.group(6))
            rows[m.group(1)] = (m.group(7), (hi - lo) / 2 / va if va else None)
    return rows


def verdict_table(title, rows):
    print(f"\n{title}\n")
    print("| figure | pairs | read slower | read faster | false alarms | change it tells from noise (median half-width of its interval, % of A) |")
    print("|---|---|---|---|---|---|")
    for name, vs in rows.items():
        slower = sum(1 for v, _ in vs if v == "slower")
        faster = sum(1 for v, _ in vs if v == "faster")
        halves = [h for _, h in vs if h is not None]
        print(f"| {name} | {len(vs)} | {slower} | {faster} | {100 * (slower + faster) / len(vs):.0f}% | "
              f"{100 * statistics.median(halves):.0f}% |" if halves else f"| {name} | - |")


if plugin and len(files) >= 2 and any(v is not None for v in points["p50"]):
    default, measured = {}, {}
    for i, j in itertools.combinations(range(len(files)), 2):
        for name, row in compared(files[i], files[j]).items():
            default.setdefault(name, []).append(row)
        # The spread a schedule's history would give: the other runs' robust spread, with
        # their degrees of freedom, passed per percentile (compare takes one at a time).
        for p in points:
            others = [v for k, v in enumerate(points[p]) if k not in (i, j) and v is not None]
            if len(others) < 3:
                continue
            flags = (f"--rerun-spread={100 * robust_relative_sd(others):.2f}%", f"--rerun-spread-df={robust_df(len(others))}")
            row = compared(files[i], files[j], *flags).get(f"added {p}")
            if row:
                measured.setdefault(f"added {p}", []).append(row)
    if default:
        verdict_table("`compare` with its default flags (the rerun spread assumed), every pair of these unchanged runs", default)
    if measured:
        verdict_table("`compare` with the rerun spread measured from the other runs (their robust spread and degrees of freedom, "
                      "as a schedule's history gives it), every pair", measured)
