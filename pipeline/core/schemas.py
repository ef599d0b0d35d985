"""Names, kinds and schema versions of the Parquet files a run folder holds (documented in README.md).

Every file carries JSON metadata under the footer key ``regscaffold`` with at least ``kind`` and
``schema_version``; readers check both (pipeline.core.io.read_parquet).
"""
import hashlib

SCHEMA_VERSION = 1

DOCS = "docs.parquet"
TOKENS = "tokens.parquet"
CANDIDATES = "candidates.parquet"
VOTES = "votes.parquet"
BINDINGS = "bindings.parquet"
REGISTERS = "registers.parquet"

DOC_COLUMNS = ["doc_id", "source_id", "split", "text"]
TOKEN_COLUMNS = ["doc_id", "sent", "i", "start", "end", "text", "ws", "lemma", "pos", "tag", "dep",
                 "head", "ent_type", "ent_iob", "morph"]
CANDIDATE_KEY_COLUMNS = ["cand_id", "doc_id", "sent", "ent_i", "attr_i", "ent_start", "ent_end",
                         "attr_start", "attr_end", "ent_id"]
BINDING_COLUMNS = ["cand_id", "p_lm", "p_mv", "accepted"]
REGISTER_COLUMNS = ["doc_id", "i", "start", "end", "labels", "conf"]

# Register classes: index 0 and 1 are fixed, attribute lemmas follow from index 2.
NOTHING = "NOTHING"
OTHER = "OTHER"
NOTHING_ID = 0
OTHER_ID = 1

SPLITS = ("train", "valid", "test")


def doc_id_for(text: str) -> str:
    """A passage's stable id: the first 16 hex digits of the SHA-256 of its text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
