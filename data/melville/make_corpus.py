"""Regenerate data/melville/mobydick.txt.gz from Debian's r-cran-tokenizers package.

    apt-get download r-cran-tokenizers && dpkg -x r-cran-tokenizers_*.deb x
    python data/melville/make_corpus.py x/usr/lib/R/site-library/tokenizers/data

The R package ships Project Gutenberg's EBook #2701 (Herman Melville, "Moby Dick; or The Whale", 1851) as
its data set ``mobydick``: one R character vector holding the whole file, in the lazy-load format that
data/make_corpus.py reads. We write that file as it is (Gutenberg's header and licence included, CRLF
line ends), gzip-compressed with a fixed mtime so the bytes are reproducible; ingest keeps only the book
between Gutenberg's START and END markers and cuts it at its "CHAPTER 1. Loomings." headings.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from make_corpus import read_novels, write_gz  # noqa: E402  (data/make_corpus.py, the janeaustenr reader)

OUT = Path(__file__).parent / "mobydick.txt.gz"


def main(data_dir: str) -> None:
    (text,) = read_novels(Path(data_dir))["mobydick"]
    write_gz(OUT, text)
    print(f"{OUT.name}: {len(text.split()):,} words")


if __name__ == "__main__":
    main(sys.argv[1])
