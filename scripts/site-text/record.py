#!/usr/bin/env python3
"""Read the expected texts of case files back from a site, through the interface.

The text cases of cases/text/ hold inputs (titles, excerpts, descriptions, category names,
websites, ...) and what a real site answers for each. This script sends every step of the given
case files to a site, exactly as the runner would (create, then read), and takes each expected
string, status and error code from the site's own answer:

    python3 scripts/site-text/record.py --base-url http://127.0.0.1:8088/wp-json \\
        --namespace tribe/events/v1 --auth-file auth.txt --write cases/text/generated-*.yaml

With `--reference URL` (a reference server started apart) every step is also sent there, and
each value the two answer differently is listed in the report (`--report FILE`, JSON lines), so
that a difference of the reference server is seen before a case says it.

It reads only the literal strings and numbers of `expect` (never a matcher), and rewrites only
those, in place, keeping the rest of each file byte for byte. In a `foreach` over a list of
`[input, expected]` pairs, the pair's expected element is rewritten. Credentials come from a file
of `ROLE=USER:PASSWORD` lines (or `--auth ROLE=USER:PASSWORD`) and are never printed.
"""

import argparse
import base64
import concurrent.futures
import datetime
import json
import random
import re
import string
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

import yaml

TEMPLATE = re.compile(r"\{\{\s*([^}]*?)\s*\}\}")
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")


# ---------------------------------------------------------------- the site
class Site:
    """One implementation: its base URL, namespace and the users of each role."""

    def __init__(self, base_url, namespace, auth, timeout=60):
        self.base = base_url.rstrip("/")
        self.namespace = namespace.strip("/")
        self.auth = auth
        self.timeout = timeout

    def send(self, method, path, auth=None, query=None, body=None):
        url = f"{self.base}/{self.namespace}{path}"
        if query:
            url += "?" + urllib.parse.urlencode(flatten_query(query), doseq=True)
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if auth:
            if auth not in self.auth:
                raise RuntimeError(f"no credentials for the role {auth}")
            token = base64.b64encode(self.auth[auth].encode()).decode()
            headers["Authorization"] = "Basic " + token
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as answer:
                return answer.status, parse_json(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, parse_json(error.read())


def parse_json(raw):
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def flatten_query(query):
    pairs = []
    for key, value in query.items():
        if isinstance(value, list):
            pairs.extend((key, scalar_text(v)) for v in value)
        else:
            pairs.append((key, scalar_text(value)))
    return pairs


def scalar_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def reference_users():
    """The reference server's default users, one per role (`admin` for the administrator)."""
    names = {role: "admin" if role == "administrator" else role for role in ROLES}
    return {role: f"{name}:{name}-password" for role, name in names.items()}


def read_auth(path, given):
    auth = {}
    if path:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                line = line.strip()
                if "=" in line and not line.startswith("#"):
                    role, creds = line.split("=", 1)
                    auth[role.strip()] = creds
    for item in given or []:
        role, creds = item.split("=", 1)
        auth[role] = creds
    return auth


# ---------------------------------------------------------------- templates
class Scope:
    """The variables of one case: vars, captures, built-ins, item and index."""

    def __init__(self, site):
        self.values = {}
        self.site = site
        self.now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        letters = string.ascii_lowercase + string.digits
        self.values["case_id"] = "c" + "".join(random.choice(letters) for _ in range(10))
        self.values["run_id"] = "r" + "".join(random.choice(letters) for _ in range(10))
        self.values["namespace"] = site.namespace
        self.values["base_url"] = site.base
        self.values["namespace_url"] = f"{site.base}/{site.namespace}"
        self.values["now"] = self.now.strftime("%Y-%m-%d %H:%M:%S")

    def child(self, **extra):
        scope = Scope.__new__(Scope)
        scope.values = dict(self.values, **extra)
        scope.site, scope.now = self.site, self.now
        return scope

    def lookup(self, expr):
        name = expr.split("|")[0].strip()
        filters = [f.strip() for f in expr.split("|")[1:]]
        value = self.builtin(name)
        if value is None:
            value = self.path(name)
        for name in filters:
            value = int(value) if name == "int" else text_of(value) if name == "string" else re.escape(text_of(value))
        return value

    def builtin(self, name):
        match = re.fullmatch(r"(date|datetime)\(([^)]*)\)", name)
        if not match:
            return None
        moment = shift(self.now, match.group(2))
        if match.group(1) == "date":
            return moment.strftime("%Y-%m-%d")
        return moment.strftime("%Y-%m-%d %H:%M:%S")

    def path(self, name):
        head = re.match(r"[A-Za-z_][A-Za-z0-9_]*", name).group(0)
        if head not in self.values:
            raise KeyError(f"undefined variable {head}")
        value = self.values[head]
        for part in re.findall(r"\[(\d+)\]|\.([A-Za-z0-9_]+)", name[len(head):]):
            value = value[int(part[0])] if part[0] else value[part[1]]
        return value

    def render(self, value):
        if isinstance(value, str):
            whole = TEMPLATE.fullmatch(value)
            if whole:
                return self.lookup(whole.group(1))
            return TEMPLATE.sub(lambda m: text_of(self.lookup(m.group(1))), value)
        if isinstance(value, list):
            return [self.render(v) for v in value]
        if isinstance(value, dict):
            return {self.render(k): self.render(v) for k, v in value.items()}
        return value


def shift(moment, offset):
    time_of_day = re.search(r"\s(\d\d):(\d\d)$", offset)
    if time_of_day:
        offset = offset[: time_of_day.start()]
    for sign, amount, unit in re.findall(r"([+-])(\d+)(min|h|d|w|mo|y)", offset):
        n = int(amount) * (1 if sign == "+" else -1)
        step = {"min": "minutes", "h": "hours", "d": "days", "w": "weeks"}.get(unit)
        if step:
            moment += datetime.timedelta(**{step: n})
        else:
            months = n * (12 if unit == "y" else 1) + moment.month - 1
            year, month = moment.year + months // 12, months % 12 + 1
            day = min(moment.day, [31, 29 if year % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1])
            moment = moment.replace(year=year, month=month, day=day)
    if time_of_day:
        moment = moment.replace(hour=int(time_of_day.group(1)), minute=int(time_of_day.group(2)), second=0)
    return moment


def text_of(value):
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value)


# ---------------------------------------------------------------- case files as nodes
def load_nodes(path):
    text = open(path, encoding="utf-8").read()
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    return text, node


def value_of(node):
    if isinstance(node, yaml.ScalarNode):
        loader = yaml.SafeLoader("")
        return loader.construct_object(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return [value_of(n) for n in node.value]
    return {value_of(k): value_of(v) for k, v in node.value}


def child(node, key):
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                return v
    return None


# ---------------------------------------------------------------- one case
class Record:
    """What one case's run found: the literal expectations and what the site answered."""

    def __init__(self, path, case_name):
        self.path, self.case = path, case_name
        self.found = []  # (node, expected value, site value, where)
        self.errors = []


def run_case(site, path, case_node):
    name = value_of(child(case_node, "name"))
    record = Record(path, name)
    scope = Scope(site)
    vars_node = child(case_node, "vars")
    if vars_node is not None:
        for key, value in value_of(vars_node).items():
            scope.values[key] = scope.render(value)
    steps = child(case_node, "steps")
    try:
        for index, step in enumerate(steps.value if steps is not None else []):
            run_step(site, scope, step, record, f"steps[{index}]", vars_node)
    except Exception as error:  # noqa: BLE001 - a broken case is reported, not fatal
        record.errors.append(f"{type(error).__name__}: {error}")
    cleanup = child(case_node, "cleanup")
    for step in cleanup.value if cleanup is not None else []:
        try:
            run_step(site, scope, step, None, "cleanup", vars_node)
        except Exception:  # noqa: BLE001 - cleanup is best effort
            pass
    return record


def run_step(site, scope, step, record, where, vars_node):
    foreach = value_of(child(step, "foreach")) if child(step, "foreach") is not None else None
    repeat = value_of(child(step, "repeat")) if child(step, "repeat") is not None else None
    if foreach is not None:
        items = scope.values.get(foreach, [])
        pair_nodes = list_nodes(vars_node, foreach)
        rounds = [(scope.child(item=item, index=i), pair_nodes[i] if i < len(pair_nodes) else None) for i, item in enumerate(items)]
    elif repeat is not None:
        rounds = [(scope.child(index=i), None) for i in range(repeat)]
    else:
        rounds = [(scope, None)]
    captures = {}
    for i, (inner, item_node) in enumerate(rounds):
        status, body = send_step(site, inner, step)
        if record is not None:
            note_expectations(inner, step, status, body, record, f"{where}[{i}]" if len(rounds) > 1 else where, item_node)
        for key, value in capture(step, body).items():
            captures.setdefault(key, []).append(value)
    for key, values in captures.items():
        scope.values[key] = values if len(rounds) > 1 or foreach is not None or repeat is not None else values[0]


def list_nodes(vars_node, name):
    node = child(vars_node, name) if vars_node is not None else None
    return node.value if isinstance(node, yaml.SequenceNode) else []


def send_step(site, scope, step):
    request = value_of(child(step, "request"))
    request = scope.render(request)
    return site.send(
        request.get("method", "GET"),
        request["path"],
        auth=request.get("auth"),
        query=request.get("query"),
        body=request.get("json"),
    )


def capture(step, body):
    node = child(step, "capture")
    if node is None:
        return {}
    out = {}
    for key, path in value_of(node).items():
        if path == "$":
            out[key] = body
        elif isinstance(body, dict) and re.fullmatch(r"\$\.[A-Za-z_]+", path):
            out[key] = body.get(path[2:])
    return out


def note_expectations(scope, step, status, body, record, where, item_node):
    expect = child(step, "expect")
    if expect is None:
        return
    status_node = child(expect, "status")
    if isinstance(status_node, yaml.ScalarNode) and status_node.tag.endswith(":int"):
        record.found.append((status_node, int(status_node.value), status, where + " status", None))
    json_node = child(expect, "json")
    if json_node is not None:
        walk_pattern(scope, json_node, body, record, where, "$", item_node)


def walk_pattern(scope, node, actual, record, where, path, item_node):
    if isinstance(node, yaml.MappingNode):
        if any(k.value.startswith("$") for k, _ in node.value):
            return  # a matcher: left as it is
        for key, value in node.value:
            name = scope.render(key.value)
            got = actual.get(name, Missing) if isinstance(actual, dict) else Missing
            walk_pattern(scope, value, got, record, where, f"{path}.{name}", item_node)
    elif isinstance(node, yaml.ScalarNode):
        expected = value_of(node)
        if isinstance(expected, str) and TEMPLATE.search(expected):
            note_template(scope, node, expected, actual, record, where, path, item_node)
        elif isinstance(expected, (str, int)) and not isinstance(expected, bool):
            record.found.append((node, expected, actual, f"{where} {path}", None))


def note_template(scope, node, expected, actual, record, where, path, item_node):
    """`{{item[1]}}` with literal text around it: the pair's expected element is the target."""
    match = re.fullmatch(r"(.*?)\{\{\s*item\[1\]\s*\}\}(.*)", expected, re.S)
    if not match or item_node is None or not isinstance(item_node, yaml.SequenceNode):
        return
    prefix, suffix = scope.render(match.group(1)), scope.render(match.group(2))
    target = item_node.value[1]
    if isinstance(actual, str) and actual.startswith(prefix) and actual.endswith(suffix) and len(actual) >= len(prefix) + len(suffix):
        value = actual[len(prefix): len(actual) - len(suffix)]
    else:
        value = Unmatched(actual)
    record.found.append((target, value_of(target), value, f"{where} {path}", None))


class _Missing:
    def __repr__(self):
        return "<missing>"


Missing = _Missing()


class Unmatched:
    def __init__(self, actual):
        self.actual = actual

    def __repr__(self):
        return f"<unmatched {self.actual!r}>"


# ---------------------------------------------------------------- writing back
def quote(value):
    """A YAML double-quoted scalar that reads back as `value` (JSON's escapes, and \\u for the rest)."""
    if isinstance(value, int):
        return str(value)
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF) or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}")
        elif code > 0xFFFF and not ch.isprintable():
            out.append(f"\\U{code:08X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def rewrite(text, changes):
    """Replace each node's source text with its new value, from the end of the file back."""
    for node, value in sorted(changes, key=lambda c: c[0].start_mark.index, reverse=True):
        start, end = node.start_mark.index, node.end_mark.index
        text = text[:start] + quote(value) + text[end:]
    return text


# ---------------------------------------------------------------- main
def run_file(site, path, pool):
    text, root = load_nodes(path)
    cases = child(root, "cases")
    futures = [pool.submit(run_case, site, path, case) for case in cases.value]
    return text, [f.result() for f in futures]


def apply_report(path, rows):
    """Rewrites `path` with the site values of a report's `changed` rows (no request is sent)."""
    text, root = load_nodes(path)
    cases = {value_of(child(c, "name")): c for c in child(root, "cases").value}
    changes = []
    for row in rows:
        case = cases.get(row["case"])
        match = re.fullmatch(r"steps\[(\d+)\](?:\[(\d+)\])? (status|\$\.(.*))", row["where"])
        if case is None or match is None:
            raise SystemExit(f"{path}: cannot place {row['case']!r} {row['where']!r}")
        step = child(case, "steps").value[int(match.group(1))]
        expect = child(step, "expect")
        if match.group(3) == "status":
            changes.append((child(expect, "status"), row["site"]))
            continue
        node = child(expect, "json")
        for key in match.group(4).split("."):
            node = child(node, key)
        if TEMPLATE.search(node.value):
            foreach = value_of(child(step, "foreach"))
            pair = list_nodes(child(case, "vars"), foreach)[int(match.group(2))]
            node = pair.value[1]
        changes.append((node, row["site"]))
    return rewrite(text, changes)


def split_may(path, rows, spec_of):
    """Moves what the reference server answers otherwise to may cases that cite a `D` section.

    `rows` are the `changed` rows of a run against the reference server after the file holds the
    site's values: each names an expected value the reference server does not give. A case of
    plain steps becomes a may case (its differing values are the reference server's); a case that
    sends `[input, expected]` pairs keeps the pairs both agree on, and a may case after it, named
    `… (the reference server's own rule)`, sends the others. `spec_of(inputs)` gives the `D`
    sections a may case cites, from the inputs concerned.
    """
    text, root = load_nodes(path)
    lines = text.split("\n")
    cases = {value_of(child(c, "name")): c for c in child(root, "cases").value}
    by_case = {}
    for row in rows:
        by_case.setdefault(row["case"], []).append(row)
    edits = []  # (first line, last line exclusive, replacement lines)
    for name, mine in by_case.items():
        case = cases[name]
        plain, pairs = [], {}
        for row in mine:
            match = re.fullmatch(r"steps\[(\d+)\](?:\[(\d+)\])? (status|\$\.(.*))", row["where"])
            step = child(case, "steps").value[int(match.group(1))]
            foreach = child(step, "foreach")
            if foreach is not None and match.group(2) is not None and match.group(3) != "status":
                pairs[int(match.group(2))] = row
            else:
                plain.append((step, match, row))
        first, last = case_lines(case, lines)
        body = lines[first:last]
        if pairs and not plain:
            edits.append((first, last, split_pairs(path, case, body, first, pairs, spec_of)))
        elif plain and not pairs:
            edits.append((first, last, split_plain(path, case, body, first, plain, spec_of)))
        else:
            items = plain + list(pairs_as_plain(case, pairs))
            wheres = [row["where"] for _, _, row in items]
            text = "\n".join(body)
            edits.append((first, last, as_may(case, body, first, items, spec_of(path, [text], text, wheres))))
    for first, last, replacement in sorted(edits, reverse=True):
        lines[first:last] = replacement
    return "\n".join(lines)


def case_lines(case, lines):
    """The lines of a case: from its `- name:` line to the line before the next case."""
    first = case.start_mark.line
    end = case.end_mark
    # The end mark is where the next case starts (after its indentation) or the end of the file.
    before = lines[end.line][: end.column] if end.line < len(lines) else ""
    last = end.line if not before.strip() else end.line + 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return first, last


def pairs_as_plain(case, pairs):
    for k, row in pairs.items():
        yield None, ("pair", k), row


def with_level(body, spec, suffix=None):
    """The case's lines with `level: may` and `spec` after its name (and the name suffixed)."""
    out = list(body)
    indent = " " * (len(out[0]) - len(out[0].lstrip(" -")))
    if suffix:
        name = value_of(yaml.compose(out[0].strip()[2:].split(":", 1)[1].strip()))
        out[0] = out[0][: out[0].index("name:")] + "name: " + quote(name + suffix)
    insert = [f"{indent}level: may", f"{indent}spec: [{', '.join(quote(d) for d in spec)}]"]
    return out[:1] + insert + out[1:]


def as_may(case, body, first, items, spec):
    """A case turned into a may case, its differing values set to the reference server's."""
    changes = []
    for step, match, row in items:
        node = locate(case, step, match, row)
        changes.append((node, row["site"]))
    shifted = rewrite_lines("\n".join(body), changes, first)
    return with_level(shifted.split("\n"), spec)


def locate(case, step, match, row):
    if isinstance(match, tuple):  # a pair's expected element
        _, k = match
        step = next(s for s in child(case, "steps").value if child(s, "foreach") is not None)
        foreach = value_of(child(step, "foreach"))
        return list_nodes(child(case, "vars"), foreach)[k].value[1]
    expect = child(step, "expect")
    if match.group(3) == "status":
        return child(expect, "status")
    node = child(expect, "json")
    for key in match.group(4).split("."):
        node = child(node, key)
    return node


def rewrite_lines(text, changes, first_line):
    """`rewrite` for a slice of a file that starts at `first_line` of the file."""
    out = text
    for node, value in sorted(changes, key=lambda c: c[0].start_mark.index, reverse=True):
        line, col = node.start_mark.line - first_line, node.start_mark.column
        end_line, end_col = node.end_mark.line - first_line, node.end_mark.column
        rows = out.split("\n")
        start = sum(len(r) + 1 for r in rows[:line]) + col
        end = sum(len(r) + 1 for r in rows[:end_line]) + end_col
        out = out[:start] + quote(value) + out[end:]
    return out


ANY = "{$any: true}"


def literal_leaves(case):
    """Every literal string or number an `expect.json` of the case's steps holds."""
    out = []

    def walk(node):
        if isinstance(node, yaml.MappingNode):
            if any(k.value.startswith("$") for k, _ in node.value):
                return
            for _, value in node.value:
                walk(value)
        elif isinstance(node, yaml.ScalarNode) and not TEMPLATE.search(node.value):
            if isinstance(value_of(node), (str, int)) and not isinstance(value_of(node), bool):
                out.append(node)

    for step in child(case, "steps").value:
        expect = child(step, "expect")
        if expect is not None and child(expect, "json") is not None:
            walk(child(expect, "json"))
    return out


def replace_nodes(body, first, nodes_values):
    """The case's lines with each node's source text replaced (a value, or `{$any: true}`)."""
    out = "\n".join(body)
    for node, text in sorted(nodes_values, key=lambda c: c[0].start_mark.index, reverse=True):
        rows = out.split("\n")
        start = sum(len(r) + 1 for r in rows[: node.start_mark.line - first]) + node.start_mark.column
        end = sum(len(r) + 1 for r in rows[: node.end_mark.line - first]) + node.end_mark.column
        out = out[:start] + text + out[end:]
    return out.split("\n")


def split_plain(path, case, body, first, plain, spec_of):
    """A case of plain steps split in two: the should case asserts the values both answer alike
    (the others become `{$any: true}`), a may case after it the values the reference server
    answers otherwise (the agreed ones become `{$any: true}`)."""
    differing = {id(locate(case, step, match, row)): (locate(case, step, match, row), row) for step, match, row in plain}
    leaves = literal_leaves(case)
    agreed = [n for n in leaves if id(n) not in differing]
    wheres = [row["where"] for _, row in differing.values()]
    spec = spec_of(path, ["\n".join(body)], "\n".join(body), wheres)
    may_body = replace_nodes(body, first, [(n, quote(row["site"])) for n, row in differing.values()] + [(n, ANY) for n in agreed])
    if not agreed:
        return with_level(may_body, spec)
    should_body = replace_nodes(body, first, [(n, ANY) for n, _ in differing.values()])
    return should_body + [""] + with_level(may_body, spec, " (the reference server's own rule)")


def split_pairs(path, case, body, first, pairs, spec_of):
    """The case with the agreed pairs, then a may case with the others (reference values)."""
    step = next(s for s in child(case, "steps").value if child(s, "foreach") is not None)
    foreach = value_of(child(step, "foreach"))
    nodes = list_nodes(child(case, "vars"), foreach)
    moved = set(pairs)
    keep_lines, may_lines = [], []
    pair_lines = {}
    for k, node in enumerate(nodes):
        for line in range(node.start_mark.line, node.end_mark.line + 1):
            pair_lines[line - first] = k
    for i, line in enumerate(body):
        k = pair_lines.get(i)
        if k is None:
            keep_lines.append(line)
            may_lines.append(line)
        elif k in moved:
            node = nodes[k]
            if node.start_mark.line - first == i:
                indent = line[: node.start_mark.column]
                may_lines.append(indent + "[" + quote(value_of(node.value[0])) + ", " + quote(pairs[k]["site"]) + "]")
        else:
            keep_lines.append(line)
    inputs = [value_of(nodes[k].value[0]) for k in sorted(moved)]
    spec = spec_of(path, inputs, "\n".join(body), [pairs[k]["where"] for k in moved])
    may_case = with_level(may_lines, spec, " (the reference server's own rule)")
    if len(moved) == len(nodes):
        return with_level(body, spec)
    return keep_lines + [""] + may_case


def chunk_file(path, size):
    """Cuts each case whose `foreach` list holds more than `size` pairs into cases of at most
    `size` pairs, in order and of near-equal length, each with its own data (its set-up steps and
    cleanup are copied), so that the parts run side by side. Everything but the pairs' lines and
    the names stays byte for byte; a list of `size` pairs or fewer is left as it is."""
    text, root = load_nodes(path)
    lines = text.split("\n")
    edits = []
    for case in child(root, "cases").value:
        step = next((s for s in child(case, "steps").value if child(s, "foreach") is not None), None)
        if step is None:
            continue
        nodes = list_nodes(child(case, "vars"), value_of(child(step, "foreach")))
        if len(nodes) <= size:
            continue
        first, last = case_lines(case, lines)
        body = lines[first:last]
        pair_lines = {}
        for k, node in enumerate(nodes):
            for line in range(node.start_mark.line, node.end_mark.line + 1):
                pair_lines[line - first] = k
        parts = -(-len(nodes) // size)
        bounds = [len(nodes) * j // parts for j in range(parts + 1)]
        replacement = []
        for j in range(parts):
            keep = range(bounds[j], bounds[j + 1])
            part = [line for i, line in enumerate(body) if pair_lines.get(i, bounds[j]) in keep]
            part[0] = renamed(case, part[0], first, j + 1, parts)
            replacement += ([""] if replacement else []) + part
        edits.append((first, last, replacement))
    for first, last, replacement in sorted(edits, reverse=True):
        lines[first:last] = replacement
    return "\n".join(lines)


def part_name(name, part, parts):
    """`… (generated list 3)` becomes `… (generated list 3, part 2 of 5)`; another name gets
    ` (part 2 of 5)` at its end."""
    marked, found = re.subn(r"\((generated (?:list|set) \d+)\)", rf"(\1, part {part} of {parts})", name, count=1)
    return marked if found else f"{name} (part {part} of {parts})"


def renamed(case, line, first, part, parts):
    """The case's first line with its name as the part's."""
    node = child(case, "name")
    if node.start_mark.line != first or node.end_mark.line != first:
        raise SystemExit(f"the name of {value_of(node)!r} must stand on the case's first line")
    new = quote(part_name(value_of(node), part, parts))
    return line[: node.start_mark.column] + new + line[node.end_mark.column:]


SHORTCODES = re.compile(r"\[(audio|video|gallery|caption|wp_caption|embed|playlist)[\s\]/]")


def spec_for(path, texts, body, wheres):
    """The `D` sections a may case cites: from where its values are (`json_ld`), the route it
    writes (terms) and the inputs it sends (shortcodes, block-editor content)."""
    specs = []
    if any("json_ld" in w for w in wheres):
        specs.append("D44")
    if re.search(r"path: /(categories|tags)\b", body):
        specs.append("D45")
    if not specs and any(SHORTCODES.search(t) for t in texts):
        specs.append("D43")
    if not specs and any("<!-- wp:" in t for t in texts):
        specs.append("D46")
    if not specs:
        print(f"{path}: no D section explains {texts[:1]!r}; citing D46", file=sys.stderr)
        specs.append("D46")
    return specs


def usable(value):
    return isinstance(value, (str, int)) and not isinstance(value, bool)


SAMPLE = """# a sample
tags: [x]
cases:
  - name: "plain"
    steps:
      - request: {method: POST, path: /events, json: {title: "a"}}
        expect: {status: 201, json: {title: "old 1", slug: "s"}}
      - request: {path: /events/1}
        expect: {status: 200, json: {json_ld: {description: "old 2"}}}

  - name: "pairs"
    vars:
        pairs:
          - ["in 1", "out 1"]
          - ["in 2", "out 2"]
          - ["in [audio src=x]", "out 3"]
    steps:
      - request: {method: PUT, path: /events/1, json: {title: "{{item[0]}}"}}
        foreach: pairs
        expect: {status: 200, json: {title: "{{item[1]}}"}}
"""


def self_test():
    """Checks the quoting, the rewriting and the split on a sample, without any site."""
    import os
    import tempfile

    for text in ["a\"b\\c", "line\nbreak\t\r", "\u0000\u0085\u2028 é ☕ 😀", "{{x}}: [y], #z", "'q'"]:
        assert yaml.safe_load("v: " + quote(text))["v"] == text, text
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "c.yaml")
        open(path, "w", encoding="utf-8").write(SAMPLE)
        site = [
            {"file": path, "case": "plain", "where": "steps[0] $.title", "kind": "changed", "old": "old 1", "site": "new \"1\""},
            {"file": path, "case": "pairs", "where": "steps[0][1] $.title", "kind": "changed", "old": "out 2", "site": "new 2"},
        ]
        rewritten = apply_report(path, site)
        open(path, "w", encoding="utf-8").write(rewritten)
        data = yaml.safe_load(open(path, encoding="utf-8"))
        assert data["cases"][0]["steps"][0]["expect"]["json"]["title"] == 'new "1"'
        assert data["cases"][1]["vars"]["pairs"][1] == ["in 2", "new 2"]
        reference = [
            {"file": path, "case": "plain", "where": "steps[1] $.json_ld.description", "kind": "changed", "site": "ref 2"},
            {"file": path, "case": "pairs", "where": "steps[0][2] $.title", "kind": "changed", "site": "ref 3"},
        ]
        rewritten = split_may(path, reference, spec_for)
        open(path, "w", encoding="utf-8").write(rewritten)
        cases = yaml.safe_load(open(path, encoding="utf-8"))["cases"]
        names = [(c["name"], c.get("level"), c.get("spec")) for c in cases]
        assert names == [
            ("plain", None, None),
            ("plain (the reference server's own rule)", "may", ["D44"]),
            ("pairs", None, None),
            ("pairs (the reference server's own rule)", "may", ["D43"]),
        ], names
        assert cases[0]["steps"][1]["expect"]["json"]["json_ld"]["description"] == {"$any": True}
        assert cases[0]["steps"][0]["expect"]["json"]["title"] == 'new "1"'
        assert cases[1]["steps"][1]["expect"]["json"]["json_ld"]["description"] == "ref 2"
        assert cases[1]["steps"][0]["expect"]["json"]["title"] == {"$any": True}
        assert cases[2]["vars"]["pairs"] == [["in 1", "out 1"], ["in 2", "new 2"]]
        assert cases[3]["vars"]["pairs"] == [["in [audio src=x]", "ref 3"]]
        self_test_chunk(path)
    print("record.py: self-test passed")


def self_test_chunk(path):
    """`--chunk 1` on the sample after the split, then `--apply` on a part."""
    before = yaml.safe_load(open(path, encoding="utf-8"))["cases"]
    cut = chunk_file(path, 1)
    open(path, "w", encoding="utf-8").write(cut)
    cases = yaml.safe_load(open(path, encoding="utf-8"))["cases"]
    assert [c["name"] for c in cases] == [
        "plain",
        "plain (the reference server's own rule)",
        "pairs (part 1 of 2)",
        "pairs (part 2 of 2)",
        "pairs (the reference server's own rule)",
    ], [c["name"] for c in cases]
    assert [c["vars"]["pairs"] for c in cases[2:4]] == [[p] for p in before[2]["vars"]["pairs"]]
    for case in cases[2:4]:
        assert {k: v for k, v in case.items() if k not in ("name", "vars")} == {k: v for k, v in before[2].items() if k not in ("name", "vars")}
    assert cases[:2] + cases[4:] == before[:2] + before[3:]
    assert chunk_file(path, 1) == open(path, encoding="utf-8").read(), "a second cut changes nothing"
    row = {"file": path, "case": "pairs (part 2 of 2)", "where": "steps[0][0] $.title", "kind": "changed", "site": "new 2b"}
    applied = apply_report(path, [row])
    open(path, "w", encoding="utf-8").write(applied)
    assert yaml.safe_load(open(path, encoding="utf-8"))["cases"][3]["vars"]["pairs"] == [["in 2", "new 2b"]]
    assert part_name("x (generated list 3)", 2, 5) == "x (generated list 3, part 2 of 5)"
    assert part_name("x (generated list 3) (the reference server's own rule)", 1, 2) == "x (generated list 3, part 1 of 2) (the reference server's own rule)"


def rewrite_from_report(report, files, rewrite_file, what):
    """Rewrites each file with `rewrite_file(path, rows)` of the report's changed rows for it."""
    rows = [json.loads(line) for line in open(report, encoding="utf-8")]
    for path in files:
        mine = [r for r in rows if r.get("file") == path and r.get("kind") == "changed"]
        if mine:
            new_text = rewrite_file(path, mine)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(new_text)
        print(f"{path}: {len(mine)} {what}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--base-url")
    ap.add_argument("--namespace", default="calendar/events/v1")
    ap.add_argument("--auth-file")
    ap.add_argument("--auth", action="append", help="ROLE=USER:PASSWORD")
    ap.add_argument("--reference-users", action="store_true", help="the reference server's five default users")
    ap.add_argument("--reference", help="a reference server's base URL (its default users)")
    ap.add_argument("--reference-namespace", default="calendar/events/v1")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--write", action="store_true", help="rewrite the files in place")
    ap.add_argument("--report", help="JSON lines: every value that changed or that the reference answers otherwise")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--split", help="move the changed rows of this report (a run against the reference server) to may cases")
    ap.add_argument("--self-test", action="store_true", help="check the quoting, rewriting and split on a sample")
    ap.add_argument("--apply", help="rewrite the files from this report's changed rows, sending nothing")
    ap.add_argument("--chunk", type=int, metavar="SIZE",
                    help="cut every [input, expected] list longer than SIZE pairs into cases of at most SIZE, sending nothing")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    if args.chunk:
        for path in args.files:
            with open(path, encoding="utf-8") as handle:
                before = handle.read()
            after = chunk_file(path, args.chunk)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(after)
            print(f"{path}: {after.count('- name:') - before.count('- name:')} more cases", file=sys.stderr)
        return
    if args.split:
        rewrite_from_report(args.split, args.files, lambda path, rows: split_may(path, rows, spec_for),
                            "values the reference server answers otherwise")
        return
    if args.apply:
        rewrite_from_report(args.apply, args.files, apply_report, "values from the report")
        return
    auth = read_auth(args.auth_file, args.auth)
    if args.reference_users:
        auth.update(reference_users())
    site = Site(args.base_url, args.namespace, auth)
    reference = None
    if args.reference:
        reference = Site(args.reference, args.reference_namespace, reference_users())
    report = open(args.report, "w", encoding="utf-8") if args.report else None
    lock = threading.Lock()
    totals = {"values": 0, "changed": 0, "unmatched": 0, "reference_differs": 0, "errors": 0}
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        for path in args.files:
            text, records = run_file(site, path, pool)
            ref_records = run_file(reference, path, pool)[1] if reference else None
            changes = []
            for i, record in enumerate(records):
                ref_found = {f[3]: f[2] for f in ref_records[i].found} if ref_records else {}
                for err in record.errors:
                    totals["errors"] += 1
                    emit(report, lock, {"file": path, "case": record.case, "error": err})
                for node, old, new, where, _ in record.found:
                    totals["values"] += 1
                    entry = {"file": path, "case": record.case, "where": where}
                    if not usable(new):
                        totals["unmatched"] += 1
                        emit(report, lock, dict(entry, kind="unmatched", expected=old, site=repr(new)))
                        continue
                    if new != old:
                        totals["changed"] += 1
                        changes.append((node, new))
                        emit(report, lock, dict(entry, kind="changed", old=old, site=new))
                    if ref_records is not None and where in ref_found and ref_found[where] != new:
                        ref = ref_found[where]
                        totals["reference_differs"] += 1
                        emit(report, lock, dict(entry, kind="reference", site=new, reference=ref if usable(ref) else repr(ref)))
            changes = single_values(changes, report, lock, path, totals)
            if args.write and changes:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(rewrite(text, changes))
            print(f"{path}: {len(records)} cases, {len(changes)} values from the site", file=sys.stderr)
    print(json.dumps(totals), file=sys.stderr)


def single_values(changes, report, lock, path, totals):
    """A node that several iterations share (a foreach's status) is rewritten only when they agree."""
    by_node = {}
    for node, value in changes:
        by_node.setdefault(id(node), (node, []))[1].append(value)
    kept = []
    for node, values in by_node.values():
        if all(v == values[0] for v in values):
            kept.append((node, values[0]))
        else:
            totals["conflicts"] = totals.get("conflicts", 0) + 1
            emit(report, lock, {"file": path, "kind": "conflict", "line": node.start_mark.line + 1, "site": sorted(set(map(str, values)))})
    return kept


def emit(report, lock, entry):
    if report:
        with lock:
            report.write(json.dumps(entry, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
