"""Regenerate data/austen/*.txt.gz from Debian's r-cran-janeaustenr package.

    apt-get download r-cran-janeaustenr && dpkg -x r-cran-janeaustenr_*.deb x
    python data/make_corpus.py x/usr/lib/R/site-library/janeaustenr/data

The package stores R lazy-load data: Rdata.rdx (a gzip'd R-serialized index mapping each novel to
(offset, length) in Rdata.rdb) and Rdata.rdb (each object: a 4-byte length header, then zlib data of an
R character vector with one line of the novel per element, "" for blank lines). We write each novel
as UTF-8 text, one line per element, gzip-compressed with a fixed mtime so the bytes are reproducible.
"""
from __future__ import annotations

import gzip
import sys
import warnings
import zlib
from pathlib import Path

import rdata

OUT = Path(__file__).parent / "austen"


def _parse(raw: bytes) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rdata warns "assumed RDS" for headerless objects
        return rdata.conversion.convert(rdata.parser.parse_data(raw))


def read_novels(data_dir: Path) -> dict[str, list[str]]:
    index = _parse(gzip.decompress((data_dir / "Rdata.rdx").read_bytes()))
    blob = (data_dir / "Rdata.rdb").read_bytes()
    novels = {}
    for name, (offset, length) in index["variables"].items():
        chunk = blob[int(offset):int(offset) + int(length)]
        novels[str(name)] = [str(line) for line in _parse(zlib.decompress(chunk[4:]))]
    return novels


def write_gz(path: Path, text: str) -> None:
    """``text`` as UTF-8, gzip-compressed with a fixed mtime (reproducible bytes), named inside as the file;
    its folder is made if missing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(filename=path.name.removesuffix(".gz"), mode="wb", fileobj=raw,
                                                mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))


def main(data_dir: str) -> None:
    for name, lines in sorted(read_novels(Path(data_dir)).items()):
        text = "\n".join(lines) + "\n"
        write_gz(OUT / f"{name}.txt.gz", text)
        print(f"{name}: {len(lines):,} lines, {len(text.split()):,} words")


if __name__ == "__main__":
    main(sys.argv[1])
