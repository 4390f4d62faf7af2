#!/usr/bin/env python3
"""JSON chores of scripts/bench.sh (Python 3 standard library only).

  helper.py artifact NAME          cargo's --message-format=json on stdin -> NAME's executable
  helper.py target-dir             `cargo metadata` on stdin -> the target directory
  helper.py pick                   an events list page (JSON) on stdin -> shell assignments
  helper.py top-categories         a categories list page (JSON) on stdin -> the slugs of the
                                   top-level ones, one a line
  helper.py best OUT JSON...        several runs' JSON -> for each size and shape the run with the
                                   most req/s (noise on a shared machine only slows a run down),
                                   ratios against the best ceiling; the table, and JSON in OUT
  helper.py report RESULTS MEMORY META OUT
                                   the measurements (tab-separated rows; META: KEY=VALUE
                                   lines) -> the table on stdout, the same as JSON in OUT
"""

import json
import sys


def artifact(name):
    found = None
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("reason") == "compiler-artifact" and message.get("target", {}).get("name") == name:
            found = message.get("executable") or found
    if not found:
        sys.exit(f"bench: cargo built no executable named {name}")
    print(found)


def target_dir():
    print(json.load(sys.stdin)["target_directory"])


def shell_quote(text):
    return "'" + str(text).replace("'", "'\\''") + "'"


def pick():
    """The targets of the request shapes, from the first page of 50 of the default list: the
    first event (by ID, by slug, update), and the first event with both a venue and a category
    (the category + venue filter)."""
    page = json.load(sys.stdin)
    events = page.get("events") or []
    if not events:
        sys.exit("bench: the seeded server lists no event")
    first = events[0]
    linked = next((e for e in events if e.get("categories") and isinstance(e.get("venue"), dict)), first)
    category = (linked.get("categories") or [{}])[0]
    venue = linked.get("venue") if isinstance(linked.get("venue"), dict) else {}
    values = {
        "EVENT_ID": first["id"],
        "EVENT_SLUG": first["slug"],
        "CATEGORY_SLUG": category.get("slug", ""),
        "CATEGORY_ID": category.get("id", ""),
        "VENUE_ID": venue.get("id", ""),
        "TOTAL_PAGES_50": page.get("total_pages", 1),
    }
    for key, value in values.items():
        print(f"{key}={shell_quote(value)}")


def top_categories():
    page = json.load(sys.stdin)
    for category in page.get("categories") or []:
        if category.get("parent") == 0 and category.get("slug"):
            print(category["slug"])


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def ms(microseconds):
    if microseconds is None:
        return "-"
    value = microseconds / 1000.0
    if value >= 100:
        return f"{value:,.0f} ms"
    if value >= 10:
        return f"{value:.1f} ms"
    return f"{value:.2f} ms"


def size(byte_count):
    if byte_count is None:
        return "-"
    if byte_count >= 1024:
        return f"{byte_count / 1024:.1f} KB"
    return f"{byte_count:.0f} B"


def rate(value):
    return f"{value:,.0f}" if value is not None else "-"


def read_meta(meta_path):
    meta = {}
    with open(meta_path) as handle:
        for line in handle:
            key, _, value = line.rstrip("\n").partition("=")
            if key:
                meta[key] = value
    return {
        "date": meta.get("date"),
        "commit": meta.get("commit"),
        "threads": int(meta.get("threads", 0)),
        "connections": int(meta.get("connections", 0)),
        "create_connections": int(meta.get("create_connections", 0)),
        "duration": meta.get("duration"),
        "clock": meta.get("clock"),
        "nice": int(meta.get("nice", 0) or 0),
        "machine": {"cpus": int(meta.get("cpus", 0)), "cpu_model": meta.get("cpu_model"), "memory": meta.get("memory")},
    }


def read_memory(memory_path):
    """Rows of seeded sizes; `api` rows (events created through the API) are `read_api_memory`'s."""
    memory = []
    with open(memory_path) as handle:
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5 or fields[0] == "api":
                continue
            events, seconds, empty, seeded, end = fields
            events, empty, seeded, end = int(events), int(empty), int(seeded), int(end)
            memory.append(
                {
                    "events": events,
                    "seed_seconds": float(seconds),
                    "rss_empty_kb": empty,
                    "rss_seeded_kb": seeded,
                    "rss_end_kb": end,
                    "bytes_per_event": round((seeded - empty) * 1024 / events) if events else None,
                }
            )
    return memory


def read_api_memory(memory_path):
    memory = []
    with open(memory_path) as handle:
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5 or fields[0] != "api":
                continue
            _, events, seconds, before, after = fields
            events, before, after = int(events), int(before), int(after)
            memory.append(
                {
                    "events": events,
                    "create_seconds": float(seconds),
                    "rss_empty_kb": before,
                    "rss_after_kb": after,
                    "bytes_per_event": round((after - before) * 1024 / events) if events else None,
                }
            )
    return memory


def ratios(rows):
    """Each shape's ratio to the ceiling endpoint of the same size, in place."""
    ceilings = {(r["events"], r["shape"]): r["requests_per_second"] for r in rows if r["shape"].startswith("ceiling ")}
    for row in rows:
        base = ceilings.get((row["events"], f"ceiling {row['ceiling']}")) if row["ceiling"] else None
        row["ratio_to_ceiling"] = (
            round(row["requests_per_second"] / base, 4) if base and row["requests_per_second"] is not None else None
        )


def print_table(rows, meta):
    header = ["events", "shape", "req/s", "p50", "p99", "× ceiling", "size", "errors", "others"]
    table = []
    for row in rows:
        ratio = row["ratio_to_ceiling"]
        shape = row["shape"] if row["connections"] == meta["connections"] else f"{row['shape']} (c{row['connections']})"
        table.append(
            [
                f"{row['events']:,}",
                shape,
                rate(row["requests_per_second"]),
                ms(row["p50_us"]),
                ms(row["p99_us"]),
                (f"{ratio:.3f}×" if ratio >= 0.01 else f"{ratio:.4f}×") if ratio is not None else "",
                size(row["response_bytes"]),
                str(row["errors"]),
                f"{row['others_cpu_percent']:.0f}%" if row.get("others_cpu_percent") is not None else "-",
            ]
        )
    widths = [max(len(str(x)) for x in column) for column in zip(header, *table)]
    right = {2, 3, 4, 5, 6, 7, 8}

    def line(cells):
        return "| " + " | ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ) + " |"

    print(line(header))
    print("|" + "|".join(("-" * (w + 1) + ":") if i in right else ("-" * (w + 2)) for i, w in enumerate(widths)) + "|")
    for cells in table:
        print(line(cells))
    print()
    for memory in meta.get("memory", []):
        per_event = memory.get("bytes_per_event")
        print(
            f"{memory['events']:>9,} events: seeded in {memory['seed_seconds']:.1f} s; RSS {memory['rss_empty_kb'] / 1024:.1f} MB empty, "
            f"{memory['rss_seeded_kb'] / 1024:.1f} MB seeded, {memory['rss_end_kb'] / 1024:.1f} MB after the run; "
            + (f"{per_event / 1024:.2f} KiB per stored event" if per_event is not None else "")
        )
    for memory in meta.get("api_memory", []):
        per_event = memory.get("bytes_per_event")
        print(
            f"{memory['events']:>9,} events created through the API (short texts) in {memory['create_seconds']:.1f} s: "
            f"RSS {memory['rss_empty_kb'] / 1024:.1f} MB before, {memory['rss_after_kb'] / 1024:.1f} MB after; "
            + (f"{per_event / 1024:.2f} KiB per stored event" if per_event is not None else "")
        )
    print(
        f"\nwrk -t{meta['threads']} -c{meta['connections']} -d{meta['duration']} (creates also with -c{meta['create_connections']}); "
        + (f"nice {meta['nice']}; " if meta.get("nice") else "")
        + f"{meta['machine']['cpus']} CPUs ({meta['machine']['cpu_model']}), {meta['machine']['memory']}; "
        f"commit {meta['commit']}"
    )


def report(tsv_path, memory_path, meta_path, out_path):
    meta = read_meta(meta_path)
    meta["memory"] = read_memory(memory_path)
    meta["api_memory"] = read_api_memory(memory_path)
    rows = []
    with open(tsv_path) as handle:
        for line in handle:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 14:
                continue
            n, shape, path, connections, rps, p50, p99, requests, errors, status, bytes_, ceiling, load, others = fields
            rows.append(
                {
                    "events": int(n),
                    "shape": shape,
                    "request": path,
                    "connections": int(connections),
                    "requests_per_second": number(rps),
                    "p50_us": number(p50),
                    "p99_us": number(p99),
                    "requests": int(requests or 0),
                    "errors": int(errors or 0),
                    "status": status,
                    "response_bytes": number(bytes_),
                    "ceiling": ceiling or None,
                    "load_average": number(load),
                    "others_cpu_percent": number(others),
                }
            )
    ratios(rows)
    print_table(rows, meta)
    meta["results"] = rows
    with open(out_path, "w") as handle:
        json.dump(meta, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    print(f"JSON: {out_path}")


def best(out_path, paths):
    runs = []
    for path in paths:
        with open(path) as handle:
            runs.append(json.load(handle))
    chosen = {}
    for run in runs:
        for row in run["results"]:
            key = (row["events"], row["shape"], row["connections"])
            if row["requests_per_second"] is None or row["errors"]:
                continue
            if key not in chosen or row["requests_per_second"] > chosen[key]["requests_per_second"]:
                chosen[key] = dict(row, run=run.get("date"))
    order = {}
    for run in runs:
        for index, row in enumerate(run["results"]):
            order.setdefault((row["events"], row["shape"], row["connections"]), index)
    rows = sorted(chosen.values(), key=lambda r: (r["events"], order[(r["events"], r["shape"], r["connections"])]))
    ratios(rows)
    meta = dict(runs[-1])
    meta.pop("results", None)
    memory = {}
    for run in runs:
        for entry in run.get("memory", []):
            memory.setdefault(entry["events"], entry)
    meta["memory"] = [memory[n] for n in sorted(memory)]
    meta["best_of"] = [run.get("date") for run in runs]
    print(f"best of {len(runs)} runs ({', '.join(str(d) for d in meta['best_of'])})\n")
    print_table(rows, meta)
    meta["results"] = rows
    with open(out_path, "w") as handle:
        json.dump(meta, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    print(f"JSON: {out_path}")


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "artifact" and len(sys.argv) == 3:
        artifact(sys.argv[2])
    elif command == "target-dir":
        target_dir()
    elif command == "pick":
        pick()
    elif command == "top-categories":
        top_categories()
    elif command == "best" and len(sys.argv) >= 4:
        best(sys.argv[2], sys.argv[3:])
    elif command == "report" and len(sys.argv) == 6:
        report(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
