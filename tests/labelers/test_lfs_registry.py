"""labelers.lfs: the registry, the lexicon, and applying ALL_LFS with snorkel over a DataFrame."""
import importlib

import numpy as np
import pandas as pd
from snorkel.labeling import LabelingFunction, LFApplier, PandasLFApplier

from labelers.extraction import CANDIDATE_COLUMNS
from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lexicon import attribute_type, load_lexicon
from labelers.lfs import ALL_LFS, FAMILIES, LF_NAMES, lfs_by_name

TEXT = ("Emma Woodhouse, handsome, clever, and rich, seemed happy. She was not tired. It was cold. "
        "The other girl was taller than her sister. They came from Great Britain. He found her asleep.")


def test_registry():
    defined = {obj for family in FAMILIES for obj in vars(importlib.import_module(f"labelers.lfs.{family}")).values()
               if isinstance(obj, LabelingFunction)}
    assert set(ALL_LFS) == defined  # every LF written in a family module is registered, once
    assert all(isinstance(lf, LabelingFunction) for lf in ALL_LFS)
    assert len(set(LF_NAMES)) == len(LF_NAMES)
    assert all(name.startswith("lf_") for name in LF_NAMES)
    assert [lf.name for fam in FAMILIES.values() for lf in fam] == LF_NAMES
    for family, lfs in FAMILIES.items():  # one family per module
        assert {lf._f.__module__ for lf in lfs} == {f"labelers.lfs.{family}"}
    assert [lf.name for lf in lfs_by_name(["lf_negated", "lf_attributive"])] == ["lf_attributive", "lf_negated"]
    assert lfs_by_name([]) == ALL_LFS


def test_lexicon():
    assert attribute_type("red") == "colour"
    assert attribute_type("Handsome") == "appearance"
    assert attribute_type("happy") == "emotion"
    assert attribute_type("old") == "age"
    assert attribute_type("seated") == "state"
    assert attribute_type("other") == "determiner"
    assert attribute_type("zzz") is None and attribute_type(float("nan")) is None
    assert len(load_lexicon()) > 500


def test_pandas_applier_all_lfs(parser):
    df = parser.frame(TEXT)
    assert list(df.columns) == CANDIDATE_COLUMNS and len(df) > 10
    L = PandasLFApplier(ALL_LFS).apply(df, progress_bar=False)
    assert L.shape == (len(df), len(ALL_LFS))
    assert set(np.unique(L)) <= {ABSTAIN, NOT_BOUND, BOUND}
    assert (L == BOUND).any() and (L == NOT_BOUND).any()
    # any object with attributes works too (faster than a Series per row)
    L2 = LFApplier(ALL_LFS).apply(list(df.itertuples(index=False)), progress_bar=False)
    assert (L == L2).all()


def test_applier_survives_missing_values(parser):
    df = parser.frame(TEXT)
    for col in CANDIDATE_COLUMNS:
        if col in ("cand_id",):
            continue
        df[col] = df[col].astype(object)
        df.loc[df.index[::3], col] = np.nan  # every third row loses everything
        df.loc[df.index[1::3], col] = None
    L = PandasLFApplier(ALL_LFS).apply(df, progress_bar=False)
    assert L.shape == (len(df), len(ALL_LFS))
    assert (L[::3] == ABSTAIN).sum() >= (L[::3] != ABSTAIN).sum()  # NaN rows: (nearly) no votes


def test_applier_after_parquet_round_trip(parser, tmp_path):
    df = parser.frame(TEXT)
    df.loc[0, "prep"] = None
    df.to_parquet(tmp_path / "c.parquet")
    back = pd.read_parquet(tmp_path / "c.parquet")
    L = PandasLFApplier(ALL_LFS).apply(back, progress_bar=False)
    assert (L == PandasLFApplier(ALL_LFS).apply(parser.frame(TEXT), progress_bar=False)).all()
