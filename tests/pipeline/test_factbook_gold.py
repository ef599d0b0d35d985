"""The Factbook corpus and its gold set: the gold files match what ingest makes of data/factbook with the
settings data/gold/factbook/README.md gives, and the dev/test halves are the valid/test splits."""
import importlib.util
import json

import pandas as pd

from labelers.report.gold import load_gold
from pipeline.commands.ingest import ingest
from pipeline.commands.pipeline_config import IngestConfig
from pipeline.core.paths import PROJECT_ROOT

CORPUS, GOLD = PROJECT_ROOT / "data" / "factbook", PROJECT_ROOT / "data" / "gold" / "factbook"
HALVES = {"dev.jsonl": "valid", "test.jsonl": "test"}


def make_corpus():
    spec = importlib.util.spec_from_file_location("factbook_make_corpus", CORPUS / "make_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_profile_prose_keeps_background_then_economy_and_splits_paragraph_marks():
    profile = {"Economy": {"Economy - overview": {"text": "Growth  was high. ++ Debt\nfell."}},
               "Introduction": {"Background": {"text": "Once a colony. "}}, "Geography": {"Climate": {"text": "dry"}}}
    assert make_corpus().prose(profile) == ["Once a colony.", "Growth was high.", "Debt fell."]
    assert make_corpus().prose({"Geography": {}}) == []


def test_gold_halves_match_the_ingested_corpus_and_its_splits():
    rows, _, _ = ingest(IngestConfig(corpus=str(CORPUS), valid_fraction=0.15, test_fraction=0.15))
    docs = pd.DataFrame(rows)
    split_of = dict(zip(docs["doc_id"], docs["split"]))
    country_of = {d: s.split("#")[0] for d, s in zip(docs["doc_id"], docs["source_id"])}
    countries = {}
    for name, split in HALVES.items():
        gold = load_gold([GOLD / name], docs)  # an explicit file: every passage must be in the run, texts must match
        assert len(gold.passages) >= 20 and {split_of[d] for d in gold.passages["doc_id"]} == {split}
        countries[name] = {country_of[d] for d in gold.passages["doc_id"]}
    assert not countries["dev.jsonl"] & countries["test.jsonl"]


def test_annotation_file_names_each_region_once_with_its_split():
    regions = [json.loads(line) for line in (GOLD / "work" / "labels.jsonl").read_text().splitlines()]
    assert len({r["doc_id"] for r in regions}) == len(regions) >= 40
    built = {json.loads(line)["doc_id"] for name in HALVES for line in (GOLD / name).read_text().splitlines()}
    assert built == {r["doc_id"] for r in regions}
