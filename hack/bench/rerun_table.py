"""Tables of hack/bench/rerun.sh: reads the runs' result documents on stdin."""
import itertools
import json
import math
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
runs = [{"metadata": {"name": d["run"]["name"]}, "spec": d.get("spec") or {"load": d.get("load") or {}}, "status": {"result": d["result"]}}
        for d in documents(sys.stdin.read()) if d.get("result")]
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

def spread(title, points, intervals):
    """How far the runs' points of one figure spread, and how often intervals hold them."""
    print(f"\n{title}\n")
    print("| percentile | runs' mean ms | runs' SD ms (CV) | range ms | one run's interval holds another's point | smallest slowdown two runs tell from noise |")
    print("|---|---|---|---|---|---|")
    for p, pts in points.items():
        pairs = [(i, j) for i, j in itertools.permutations(range(len(pts)), 2)
                 if pts[j] is not None and None not in intervals[p][i]]
        held = sum(1 for i, j in pairs if intervals[p][i][0] <= pts[j] <= intervals[p][i][1])
        vals = [v for v in pts if v is not None]
        if len(vals) < 2:
            print(f"| {p} | - | - | - | - | - |")
            continue
        mean, sd = statistics.mean(vals), statistics.stdev(vals)
        # Two runs' difference has SD sd*sqrt(2); outside t(0.975, n-1) of it, it is not noise.
        t = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}.get(len(vals) - 1, 2.0)
        smallest = t * sd * math.sqrt(2)
        print(f"| {p} | {mean / 1000:.3f} | {sd / 1000:.3f} ({100 * sd / mean:.0f}%) | {min(vals) / 1000:.3f} – {max(vals) / 1000:.3f} | "
              f"{held}/{len(pairs)} ({100 * held / max(len(pairs), 1):.0f}%) | {smallest / 1000:.3f} ms ({100 * smallest / mean:.0f}% of the mean) |")


if any(v is not None for pts in points.values() for v in pts):
    spread("Added latency", points, intervals)
for title, (pts, ivs) in async_points.items():
    if any(v is not None for vs in pts.values() for v in vs):
        spread(title, pts, ivs)
