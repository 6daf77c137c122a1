#!/usr/bin/env python3
"""Prints the examples of a manual (rendered text) or of README.md as
records separated by NUL: the command as printed (continuation lines
included), then, for README's transcripts, the output printed after it.
Usage: extract.py man|readme FILE"""
import re
import sys

kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
records = []


def command(lines, i, prefix):
    """The command starting at lines[i] after prefix, with its
    continuation lines; and the index after it."""
    cmd = [lines[i][len(prefix):]]
    i += 1
    while cmd[-1].endswith("\\") and i < len(lines):
        cmd.append(lines[i].strip())
        i += 1
    return "\n".join(cmd), i


def indent(line):
    return len(line) - len(line.lstrip())


if kind == "man":
    # Rendered with col -bx: a literal block is indented deeper than the
    # prose; its lines after the command are the output, and so is a
    # sentence "prints A, B and C." just after it.
    section = text.split("\nEXAMPLES\n", 1)[1].split("\nSEE ALSO\n", 1)[0]
    lines = section.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("$ "):
            i += 1
            continue
        depth = indent(lines[i])
        cmd, i = command([l.lstrip() for l in lines], i, "$ ")
        out = []
        while (i < len(lines) and lines[i].strip() and
               indent(lines[i]) >= depth and
               not lines[i].lstrip().startswith("$ ")):
            out.append(lines[i][depth:])
            i += 1
        prose = []
        while i < len(lines) and lines[i].strip() and \
                indent(lines[i]) < depth:
            prose.append(lines[i].strip())
            i += 1
        said = " ".join(prose)
        if not out and said.startswith("prints "):
            out = re.split(r", | and ", said[len("prints "):].rstrip("."))
        records.append((cmd, "\n".join(out) if out else None))
else:
    for lang, block in re.findall(r"```(\w*)\n(.*?)```", text, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if lang == "sh" and line and not line.startswith("#"):
                cmd, i = command(lines, i, "")
                records.append((cmd, None))
            elif lang in ("", "console") and line.startswith("$ "):
                cmd, i = command(lines, i, "$ ")
                out = []
                while i < len(lines) and not lines[i].startswith("$ "):
                    out.append(lines[i])
                    i += 1
                records.append((cmd, "\n".join(out)))
            else:
                i += 1

for cmd, out in records:
    sys.stdout.write(cmd + "\0" + (out if out is not None else "\x01") + "\0")
