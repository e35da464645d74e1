"""Reads `kubectl get perfrun -o json` documents, one after another on stdin, for the
scenario benchmarks' tables (state.sh, pubsub.sh)."""
import json
import sys


def read():
    """Every PerfRun document on stdin, in order."""
    dec = json.JSONDecoder()
    text = sys.stdin.read()
    i, runs = 0, []
    while i < len(text):
        rest = text[i:].lstrip()
        if not rest:
            break
        obj, n = dec.raw_decode(rest)
        runs.append(obj)
        i = len(text) - len(rest) + n
    return runs


def g(d, *path):
    """The value at path in nested dicts, "-" where any step is missing."""
    for p in path:
        if d is None:
            return "-"
        d = d.get(p) if isinstance(d, dict) else None
    return "-" if d is None else d


def bounded_by(run):
    """The conditions that bounded a run's figures, or "nothing"."""
    bound = [c["type"] for c in run["status"].get("conditions", [])
             if c["type"] in ("CPULimitBound", "Saturated", "Disturbed") and c["status"] == "True"]
    return ", ".join(bound) or "nothing"
