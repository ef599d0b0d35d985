"""Names, kinds and schema versions of the Parquet files a run folder holds (docs/schemas.md is generated
from the docstrings below by `regscaffold docs`).

Every Parquet file carries JSON metadata under the footer key ``regscaffold`` with at least ``kind`` and
``schema_version``; readers check both (pipeline.core.io.read_parquet) and name the stage to rerun on a
mismatch. Offsets are characters into the passage text, so any tokenizer can align to the labels.
"""
import hashlib

SCHEMA_VERSION = 1

DOCS = "docs.parquet"
"""kind `docs`: `doc_id` str (sha256(text)[:16], ``doc_id_for``), `source_id` str (the user's id or
`file#chapter#passage`), `split` str (`train`/`valid`/`test`), `text` str (the passage; every char offset
in the other files points into it)."""
TOKENS = "tokens.parquet"
"""kind `tokens`, metadata `pipeline`, `spacy`: one row per spaCy token: `doc_id`, `sent` int32 (sentence
index in the passage), `i` int32 (token index in the passage), `start`, `end` int32 (char offsets, end
exclusive), `text`, `ws` (trailing whitespace), `lemma`, `pos`, `tag`, `dep`, `head` int32 (token index of
the head), `ent_type`, `ent_iob`, `morph`. Concatenating `text + ws` rebuilds the passage exactly, and
`labelers.parsing.docs_from_tokens` rebuilds the parsed spaCy `Doc`."""
CANDIDATES = "candidates.parquet"
"""kind `candidates`: one row per (entity mention, adjective) pair: `cand_id` (`doc:ent_i:attr_i`),
`doc_id`, `sent`, `ent_i`, `attr_i`, `ent_start`, `ent_end` (char span of the mention's head word),
`attr_start`, `attr_end` (char span of the adjective), `ent_id` int (passage-level entity, numbered by
first mention), `antecedent_i` (token of a pronoun's antecedent, else -1), `split`, and the features the
labeling functions read (labelers.extraction.CANDIDATE_COLUMNS)."""
VOTES = "votes.parquet"
"""kind `votes`, metadata `lfs`: `cand_id`, `split`, then one int8 column per labeling function: 1 BOUND,
0 NOT_BOUND, -1 ABSTAIN (rows in candidates.parquet's order)."""
BINDINGS = "bindings.parquet"
"""kind `bindings`, metadata `method` (the aggregate.model option, or `majority_fallback`), `threshold`:
`cand_id`, `p_lm`, `p_mv` float32 (P(BOUND) from the chosen aggregator and from majority vote),
`accepted` bool (`p_lm > threshold`, pipeline.core.registers.is_binding: a majority-vote tie or a row
without votes, 0.5, never binds); rows in candidates.parquet's order."""
AGGREGATORS = "aggregators.parquet"
"""kind `aggregators`, metadata `options`: `cand_id`, then one float32 column per aggregator option
(labelers.aggregation.AGGREGATORS: `majority`, `label_model`, `snorkel_defaults`, `dawid_skene`,
`grouped_label_model`), its P(BOUND), each fitted on the train split; rows in candidates.parquet's order.
The chosen option's column equals bindings.parquet's `p_lm`."""
ENDMODEL = "endmodel.parquet"
"""kind `endmodel`, metadata `source` (`endmodel`, or `aggregate` when the end model is disabled or fell
back), `threshold`: `cand_id`, `p_bound` float32 (the end model's P(BOUND); the aggregate's `p_lm` when
`source` is `aggregate`), `accepted` bool (`p_bound > threshold`); rows in candidates.parquet's order. The
registers stage takes its labels from this file."""
REGISTERS = "registers.parquet"
"""kind `registers`, metadata `slots` K, `vocab` (index 0 `NOTHING`, 1 `OTHER`, then attribute lemmas),
`threshold`, `docs_sha256`: one row per spaCy token: `doc_id`, `i`, `start`, `end`, `labels`
list<int16>[K] (class of each slot), `conf` list<float32>[K] (endmodel.parquet's P(BOUND) of the
binding that set the label; 1.0 for NOTHING). Per passage, K slots track the first K distinct entities, in order
of first mention, that receive an accepted binding; at token t slot k holds the attribute most recently
bound to entity k at or before t (a binding takes effect at the later of its two tokens), else NOTHING
(pipeline.core.registers). The vocabulary is the `vocab_size` most frequent attribute lemmas among the
train split's accepted bindings, plus OTHER and NOTHING."""

DOC_COLUMNS = ["doc_id", "source_id", "split", "text"]
TOKEN_COLUMNS = ["doc_id", "sent", "i", "start", "end", "text", "ws", "lemma", "pos", "tag", "dep",
                 "head", "ent_type", "ent_iob", "morph"]
CANDIDATE_KEY_COLUMNS = ["cand_id", "doc_id", "sent", "ent_i", "attr_i", "ent_start", "ent_end",
                         "attr_start", "attr_end", "ent_id"]
BINDING_COLUMNS = ["cand_id", "p_lm", "p_mv", "accepted"]
ENDMODEL_COLUMNS = ["cand_id", "p_bound", "accepted"]
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
