#!/usr/bin/env python3
"""Checks the relative links of the README and docs/*.md: every linked file exists, and every
`#anchor` names a heading of its target (GitHub's rule: lower case, punctuation dropped, spaces
to hyphens, repeats numbered -1, -2…). Links to http(s) and mailto addresses are not followed.

    python3 scripts/check-links.py          # exit status 1 and one line per broken link
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def without_code(text):
    """The text with fenced blocks blanked (their lines kept, so line numbers stay right)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def slug(heading):
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # \w keeps letters, digits and _ of any script
    return text.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for line in without_code(path.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def main():
    documents = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    broken, checked = [], 0
    cache = {}
    for document in documents:
        for number, line in enumerate(without_code(document.read_text(encoding="utf-8")), 1):
            line = re.sub(r"`[^`]*`", "", line)  # links are not written inside inline code
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                checked += 1
                file_part, _, anchor = target.partition("#")
                resolved = (document.parent / file_part).resolve() if file_part else document
                where = f"{document.relative_to(ROOT)}:{number}: {target}"
                if not resolved.exists():
                    broken.append(f"{where}: no such file")
                    continue
                if anchor and resolved.suffix == ".md":
                    if resolved not in cache:
                        cache[resolved] = anchors(resolved)
                    if anchor not in cache[resolved]:
                        broken.append(f"{where}: no heading with this anchor")
    for line in broken:
        print(line)
    print(f"check-links: {checked} relative links in {len(documents)} documents, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
