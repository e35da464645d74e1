#!/usr/bin/env python3
"""Prints each e2e spec's wall time, slowest first, from Ginkgo's JSON report.

CI keeps no log of a passing run, so the suite's own breakdown is printed at its end:
what to shorten or share when the suite nears its budget. Beside each, the share of the
machine's CPU the hypervisor took while it ran (the suite's "host CPU stolen" entry): a
latency measured meanwhile is longer for it. Below, each run a spec made again because
the machine kept the first from claiming added latency (the suite's "made again" entries):
what a spec cost beyond its own; and each spec skipped because a busy host kept both runs
from claiming ("not judged on a busy host"): what this run of the suite did not judge.
"""
import json
import sys


def main(path):
    try:
        with open(path) as f:
            suites = json.load(f)
    except (OSError, ValueError) as e:
        print(f"no e2e timings: {e}")
        return
    rows, total, again, unjudged = [], 0.0, [], []
    for suite in suites:
        for spec in suite.get("SpecReports") or []:
            seconds = spec.get("RunTime", 0) / 1e9
            if spec.get("LeafNodeType") != "It":
                total += seconds
                continue
            name = " ".join(spec.get("ContainerHierarchyTexts") or []) + " " + spec.get("LeafNodeText", "")
            rows.append((seconds, spec.get("State", "?"), stolen(spec), name.strip()))
            again += [f"  {name.strip()[:60]}: {why}" for why in entries(spec, "made again")]
            unjudged += [f"  {name.strip()[:60]}: {why}" for why in entries(spec, "not judged on a busy host")]
            total += seconds
    print(f"== e2e spec times ({len(rows)} specs, {total / 60:.1f} min incl. suite set-up; stolen: the host's CPU steal meanwhile)")
    for seconds, state, steal, name in sorted(rows, reverse=True):
        print(f"{seconds:7.1f}s  {state:8}  {steal:>6}  {name[:140]}")
    if again:
        print(f"== runs made again: the machine kept the first from claiming added latency ({len(again)})")
        print("\n".join(line[:400] for line in again))
    if unjudged:
        print(f"== specs NOT JUDGED: a busy host kept both runs from claiming added latency ({len(unjudged)})")
        print("\n".join(line[:400] for line in unjudged))


def stolen(spec):
    """The spec's "host CPU stolen" entry, or "-"."""
    return next(iter(entries(spec, "host CPU stolen")), "-")


def entries(spec, name):
    """The values of the spec's report entries called name."""
    out = []
    for entry in spec.get("ReportEntries") or []:
        if entry.get("Name") == name:
            value = entry.get("Value") or {}
            out.append(str(value.get("Representation") or value.get("AsJSON") or "-").strip('"'))
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/daprbench-e2e-report.json")
