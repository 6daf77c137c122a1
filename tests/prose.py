#!/usr/bin/env python3
"""Prints the prose figures of a Markdown file: its sentences, their
average length in words, and those longer than 40 words, one a line.
Code blocks and headings are not prose; each paragraph and each item of
a list is one or more sentences, ended by '.', '?' or '!' before a space
or the paragraph's end.  Usage: prose.py FILE"""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r"```.*?```", "", text, flags=re.S)
blocks = []
for para in re.split(r"\n\s*\n", text):
    lines = [l for l in para.splitlines() if not l.startswith("#")]
    # An item of a list starts a block of its own.
    cur = []
    for line in lines:
        if re.match(r"\s*[-*] ", line) and cur:
            blocks.append(" ".join(cur))
            cur = []
        cur.append(line.strip())
    if cur:
        blocks.append(" ".join(cur))
sentences = []
for block in blocks:
    block = re.sub(r"^[-*] ", "", block)
    for s in re.split(r"(?<=[.?!])\s+(?=[A-Z0-9`(\[*])", block):
        words = len(s.split())
        if words:
            sentences.append((words, s))
total = sum(w for w, _ in sentences)
print(f"{len(sentences)} sentences, {total / len(sentences):.1f} words on average")
for w, s in sentences:
    if w > 40:
        print(f"{w}: {s}")
