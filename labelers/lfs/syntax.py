"""Structural LFs: BOUND when the adjective attaches to this mention (relation computed in extraction);
NOT_BOUND when the adjective is itself used as a noun."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND
from labelers.lfs._util import BLOCK, blocked, text

_R = dict(block=BLOCK)


@labeling_function(resources=_R)
def lf_attributive(x, block):
    """Attributive adjective on its noun: "the red ball" -> (ball, red)."""
    return BOUND if text(x.relation) == "amod" and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_predicative_linking(x, block):
    """Complement of be / a linking verb, on the subject: "Emma was handsome", "seemed happy", "grew pale"."""
    return BOUND if text(x.relation) == "predicative" and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_depictive(x, block):
    """Adjective complement of another verb, on the subject: "She sat silent"."""
    return BOUND if text(x.relation) == "depictive" and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_appositive(x, block):
    """Postposed adjective after a comma: "Emma Woodhouse, handsome, ..." -> (Woodhouse, handsome)."""
    return BOUND if text(x.relation) == "appos" and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_conjunct(x, block):
    """A later conjunct inherits the first conjunct's entity: "tall and dark" -> (man, dark)."""
    ok = text(x.relation) == "conj" and text(x.base_relation) not in ("", "none")
    return BOUND if ok and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_relative_clause(x, block):
    """Predicate of a relative clause, on the noun the clause modifies: "a man who was rich"."""
    return BOUND if text(x.relation) == "relcl" and not blocked(x, block) else ABSTAIN


@labeling_function(resources=_R)
def lf_object_predicate(x, block):
    """Object / result predicate: "found him asleep", "made her happy" -> (him, asleep)."""
    return BOUND if text(x.relation) == "oprd" and not blocked(x, block) else ABSTAIN


NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "npadvmod", "poss", "det", "dative"})


@labeling_function(resources=dict(deps=NOMINAL_DEPS))
def lf_adjective_as_noun(x, deps):
    """The adjective heads a noun phrase itself ("the husband of the eldest", "all its due") or is a
    measure modifier ("little more difficulty") -> NOT_BOUND; not where extraction attached it to a mention
    all the same (an epithet given back to the name the parser cut loose, "my dearest Catherine"; "is one of
    the highest"; "sat motionless" read as an object)."""
    return NOT_BOUND if text(x.attr_dep) in deps and text(x.relation) == "none" else ABSTAIN


LFS = [lf_attributive, lf_predicative_linking, lf_depictive, lf_appositive, lf_conjunct,
       lf_relative_clause, lf_object_predicate, lf_adjective_as_noun]
