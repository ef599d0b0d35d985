"""The report page (Jinja2, autoescaped). Inline CSS, images as data URIs, no script, no URL: it opens offline."""

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 0 20px 40px; color: #1d2330; }
h1 { margin: 18px 0 4px; } h2 { border-bottom: 2px solid #dde3ee; padding-bottom: 3px; margin-top: 34px; }
nav a { margin-right: 12px; } .note { color: #55607a; } .warn { color: #a3400b; }
table { border-collapse: collapse; margin: 8px 0 14px; } th, td { padding: 3px 9px; border-bottom: 1px solid #e4e8f0; }
th { background: #f3f5fa; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; } .plots img { border: 1px solid #e4e8f0; }
mark.ent { background: #cfe3ff; border-bottom: 2px solid #1f6feb; } mark.attr { background: #ffe2b8; border-bottom: 2px solid #d97706; }
ul.items { margin: 4px 0 10px; padding-left: 20px; } ul.items li { margin: 5px 0; } .meta { color: #55607a; font-size: 12px; }
details { margin: 4px 0; } summary { cursor: pointer; font-weight: 600; }
.passage { display: flex; flex-wrap: wrap; gap: 2px; margin: 6px 0 18px; }
.tok { display: inline-flex; flex-direction: column; border: 1px solid #e4e8f0; padding: 1px 3px; min-width: 22px; }
.tok b { font-weight: 500; } .slot { font-size: 10px; color: #1f6feb; white-space: nowrap; } .slot.empty { color: #c3c9d6; }
.up { color: #11803b; } .down { color: #b42318; }
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>regscaffold label report: {{ f.run_dir }}</title>
<style>""" + CSS + """</style></head>
<body>
<h1>Label-quality report</h1>
<p class="note">run folder <code>{{ f.run_dir }}</code> · aggregation <b>{{ f.method }}</b>, accepted when
P(BOUND) &gt; {{ f.threshold }} · {{ f.totals.passages|fmt }} passages, {{ f.totals.candidates|fmt }} candidates,
{{ f.totals.accepted|fmt }} accepted, {{ f.totals.lfs }} labeling functions</p>
<nav><a href="#gold">gold</a><a href="#lfs">labeling functions</a><a href="#aggregation">aggregation</a>
<a href="#options">aggregator options</a><a href="#diagnosis">aggregator diagnosis</a><a href="#calibration">calibration</a><a href="#registers">register targets</a><a href="#errors">error browser</a>
<a href="#agreement">agreement</a><a href="#contested">contested</a><a href="#register-view">register view</a>{% if f.compare is defined %}<a href="#compare">compare</a>{% endif %}</nav>

<section id="gold"><h2>Gold set</h2>
{% if f.gold.note %}<p class="warn">{{ f.gold.note }}</p>{% endif %}
{% if f.gold.files %}
<p>Files: {% for file in f.gold.files %}<code>{{ file }}</code> {% endfor %}{% if f.gold.split and f.gold.split != "all" %}· gold figures on the <b>{{ f.gold.split }}</b> split's passages only{% endif %}</p>
<table><tr><th>gold pairs</th><th>BOUND</th><th>matching no candidate</th><th>of which BOUND</th>
<th>annotated passages</th><th>bindings listed</th><th>of which no candidate</th><th>negated</th></tr>
<tr><td class="n">{{ f.gold.pairs|fmt }}</td><td class="n">{{ f.gold.pairs_bound|fmt }}</td>
<td class="n">{{ f.gold.pairs_unmatched|fmt }}</td><td class="n">{{ f.gold.pairs_unmatched_bound|fmt }}</td>
<td class="n">{{ f.gold.passages|fmt }}</td><td class="n">{{ f.gold.passage_bindings|fmt }}</td>
<td class="n">{{ f.gold.passage_bindings_no_candidate|fmt }}</td><td class="n">{{ f.gold.passage_negated|fmt }}</td></tr></table>
<p class="note">A gold pair that matches no candidate is a miss of candidate generation: it is listed in report.json
(<code>gold.unmatched</code>) and left out of the pair metrics, which judge the labels of existing candidates.
On annotated passages a gold binding that is no candidate counts as missed by every method: recall lost before any
LF votes (listed in <code>gold.bindings_no_candidate</code>).</p>
{% endif %}
</section>

<section id="lfs"><h2>Labeling functions</h2>
<p class="note">Coverage, overlaps and conflicts are fractions of all candidates (Snorkel LFAnalysis). Against gold pairs:
<b>precision</b> = correct votes / gold pairs the LF voted on (Snorkel's "Emp. Acc." is this: it ignores abstentions);
<b>recall</b> = correct votes / gold pairs of the class the LF votes (BOUND pairs for a BOUND-voting LF, NOT_BOUND pairs
for a NOT_BOUND-voting LF, all pairs for an LF that votes both). Weight: the LabelModel's learned accuracy estimate.
Agrees with LabelModel: the fraction of the LF's votes (on all candidates) that equal the accepted label.</p>
<table><tr><th>LF</th><th>polarity</th><th>coverage</th><th>overlaps</th><th>conflicts</th><th>learned weight</th>
<th>agrees with LabelModel</th><th>precision</th><th>gold voted</th><th>recall</th><th>recall over</th></tr>
{% for lf in f.lfs %}<tr><td>{{ lf.lf }}</td><td>{{ lf.polarity|polarity }}</td><td class="n">{{ lf.coverage|fmt }}</td>
<td class="n">{{ lf.overlaps|fmt }}</td><td class="n">{{ lf.conflicts|fmt }}</td><td class="n">{{ lf.weight|fmt }}</td>
<td class="n">{{ lf.agree_lm|fmt }}</td>
<td class="n">{{ lf.precision|default(None)|fmt }}</td><td class="n">{{ lf.n_voted|default(None)|fmt }}</td>
<td class="n">{{ lf.recall|default(None)|fmt }}</td><td class="n">{{ lf.n_target|default(None)|fmt }}</td></tr>
{% endfor %}</table>
</section>

<section id="aggregation"><h2>Aggregation against gold</h2>
{% for name, s in f.gold_sets.items() %}
<h3>gold {{ name }} ({{ s.rows|fmt }} rows{% if name == "passages" %}; {{ s.gold_bound|fmt }} gold bindings, {{ s.bound_no_candidate|fmt }} of them no candidate{% endif %})</h3>
<table><tr><th>method</th><th>precision</th><th>recall</th><th>F1</th><th>TP</th><th>FP</th><th>FN</th></tr>
{% for method, label in [("label_model", "LabelModel"), ("majority_vote", "MajorityLabelVoter"), ("best_lf", "best single LF")] %}
{% set m = s.aggregation[method] %}{% if m %}
<tr><td>{{ label }}{% if m.lf is defined %}: {{ m.lf }}{% endif %}</td><td class="n">{{ m.precision|fmt }}</td>
<td class="n">{{ m.recall|fmt }}</td><td class="n">{{ m.f1|fmt }}</td><td class="n">{{ m.tp }}</td>
<td class="n">{{ m.fp }}</td><td class="n">{{ m.fn }}</td></tr>{% endif %}
{% endfor %}</table>
{% else %}<p class="note">No gold rows: aggregation is not measured.</p>{% endfor %}
<p class="note">LabelModel: the run's accepted label. Majority vote: BOUND on a strict majority of votes (a tie or no
vote asserts nothing). Best single LF: the BOUND-voting LF with the highest F1 on that gold set. On passages,
recall is binding-level: gold bindings that are accepted candidates / all gold bindings.</p>
</section>

<section id="options"><h2>Aggregator options and the end model against majority vote</h2>
<p class="note">Every option of <code>aggregate.model</code>, fitted on the train split by the aggregate stage
(aggregators.parquet), and the end model (endmodel.parquet) when the run trained one; the run's aggregator is
marked &#9733;, and the registers take their labels from <b>{{ f.labels_from or "the aggregate" }}</b>.
&Delta;F1 is F1 minus majority vote's, with a 95% paired bootstrap interval ({{ bootstrap }} resamples of gold
passages, each scoring both methods). Brier and ECE are on the gold rows that are candidates; accepted is the
share of all candidates with P(BOUND) &gt; {{ f.threshold }}.</p>
{% for name, s in f.gold_sets.items() %}
<h3>gold {{ name }}{% if f.gold.split and f.gold.split != "all" %}, {{ f.gold.split }} split{% endif %}</h3>
{% if s.options %}<table><tr><th>method</th><th>precision</th><th>recall</th><th>F1</th><th>&Delta;F1 vs majority [95% CI]</th>
<th>Brier</th><th>ECE</th><th>accepted</th></tr>
{% for r in s.options %}<tr><td>{{ r.method }}{% if r.chosen %} &#9733;{% endif %}</td><td class="n">{{ r.precision|fmt }}</td>
<td class="n">{{ r.recall|fmt }}</td><td class="n">{{ r.f1|fmt }}</td>
<td class="n">{{ r.f1_minus_majority|signed }} [{{ r.f1_minus_majority_ci[0]|signed }}, {{ r.f1_minus_majority_ci[1]|signed }}]</td>
<td class="n">{{ r.brier|fmt }}</td><td class="n">{{ r.ece|fmt }}</td><td class="n">{{ r.accepted_share|fmt }}</td></tr>
{% endfor %}</table>
{% else %}<p class="note">This run folder has no aggregators.parquet (it predates it): rerun the aggregate stage to compare the options.</p>{% endif %}
{% else %}<p class="note">No gold rows: the options are not measured.</p>{% endfor %}
</section>

<section id="diagnosis"><h2>Aggregator diagnosis</h2>
{% set d = f.diagnosis %}
<p class="note">What the label models see on the train split ({{ d.train_rows|fmt }} candidates). Needs no gold set.</p>
{% for m, reason in d.unfitted.items() %}<p class="warn">{{ m }} not fitted: {{ reason }}</p>{% endfor %}
<p><b>Class balance.</b> Majority vote calls {{ d.class_balance.majority_vote_bound_share|fmt }} of the train split BOUND;
P(BOUND) each model assumes or learns:
{% for m, v in d.class_balance.items() if m != "majority_vote_bound_share" %}{{ m }} {{ v|fmt }}{% if not loop.last %} · {% endif %}{% endfor %}.</p>
<p><b>Vote patterns.</b> No vote {{ d.votes.no_vote|fmt }} · NOT_BOUND votes only {{ d.votes.not_bound_only|fmt }} ·
BOUND votes only {{ d.votes.bound_only|fmt }} · both {{ d.votes.both|fmt }} of train candidates;
{{ d.bound_votes_contradicted|fmt }} of the candidates with a BOUND vote also get a NOT_BOUND vote.</p>
<p><b>LFs that fire together</b> (same polarity, phi &ge; 0.5 between their firing; overlap = candidates both vote on /
candidates either votes on). Under the conditional-independence assumption each member counts as separate evidence.</p>
<table><tr><th>group</th><th>vote</th><th>coverage</th><th>all members fire</th><th>pairs: phi, overlap</th></tr>
{% for g in d.groups %}<tr><td>{{ g.lfs|join(", ") }}</td><td>{{ "BOUND" if g.vote == 1 else "NOT_BOUND" }}</td>
<td class="n">{{ g.coverage|fmt }}</td><td class="n">{{ g.all_fire|fmt }}</td>
<td>{% for p in g.pairs %}{{ p.a }} &times; {{ p.b }}: {{ p.phi|fmt(2) }}, {{ p.overlap|fmt(2) }}{% if not loop.last %}<br>{% endif %}{% endfor %}</td></tr>
{% else %}<tr><td colspan="5" class="note">none</td></tr>{% endfor %}</table>
<p class="note">Per LF on the train split: contradicted = share of its votes where another LF votes the other class;
alone = share where no other LF votes. Then each option's estimated accuracy of the LF (a merged group's under
each member); compare with the gold precision in the labeling-function table. A BOUND-voting LF estimated near
0.5 while rarely contradicted is rated by the model's class balance and regularisation, not by its conflicts.</p>
{% set methods = d.lfs[0].estimates.keys()|list if d.lfs else [] %}
<table><tr><th>LF</th><th>polarity</th><th>coverage</th><th>contradicted</th><th>alone</th>{% for m in methods %}<th>{{ m }}</th>{% endfor %}</tr>
{% for lf in d.lfs %}<tr><td>{{ lf.lf }}</td><td>{{ lf.polarity|polarity }}</td><td class="n">{{ lf.coverage|fmt }}</td>
<td class="n">{{ lf.contradicted|fmt }}</td><td class="n">{{ lf.alone|fmt }}</td>
{% for m in methods %}<td class="n">{{ lf.estimates[m]|fmt(2) }}</td>{% endfor %}</tr>{% endfor %}</table>
</section>

<section id="calibration"><h2>Calibration</h2>
<p class="note">On gold rows that are candidates. Brier = mean (P(BOUND) &minus; gold)&sup2;. ECE = &Sigma; over {{ ece_bins }}
equal-width bins of P(BOUND) ([0, 0.1), &hellip;, [0.9, 1]) of (rows in bin / rows) &times; |fraction BOUND &minus; mean P(BOUND)|.</p>
{% for name, s in f.gold_sets.items() %}
<h3>gold {{ name }}</h3>
<table><tr><th>method</th><th>Brier</th><th>ECE</th><th>rows</th></tr>
{% for method, c in s.calibration.items() %}<tr><td>{{ method }}</td><td class="n">{{ c.brier|fmt }}</td>
<td class="n">{{ c.ece|fmt }}</td><td class="n">{{ c.n|fmt }}</td></tr>{% endfor %}</table>
{% if plots["reliability_" ~ name] is defined %}<div class="plots"><img class="plot" alt="reliability diagram, gold {{ name }}"
src="{{ plots['reliability_' ~ name] }}"></div>{% endif %}
{% else %}<p class="note">No gold rows: calibration is not measured.</p>{% endfor %}
</section>

<section id="registers"><h2>Register targets</h2>
{% set r = f.registers %}
<table><tr><th>tokens</th><th>slots K</th><th>vocabulary</th><th>tokens with a non-NOTHING slot</th><th>OTHER share</th>
<th>labels per passage: mean</th><th>median</th><th>max</th><th>passages without labels</th></tr>
<tr><td class="n">{{ r.tokens|fmt }}</td><td class="n">{{ r.slots }}</td><td class="n">{{ r.vocab_size }}</td>
<td class="n">{{ r.token_fraction_any_slot|fmt }}</td><td class="n">{{ r.attributes.other_share|fmt }}</td>
<td class="n">{{ r.labels_per_passage.mean|fmt(2) }}</td><td class="n">{{ r.labels_per_passage.median|fmt(1) }}</td>
<td class="n">{{ r.labels_per_passage.max|fmt }}</td><td class="n">{{ r.labels_per_passage.share_without_labels|fmt }}</td></tr></table>
<p>Slot occupancy (fraction of tokens): {% for x in r.slot_occupancy %}slot {{ loop.index0 }} {{ x|fmt }}{% if not loop.last %} · {% endif %}{% endfor %}</p>
<div class="plots">{% for key in ["attributes", "slot_occupancy", "labels_per_passage"] %}{% if plots[key] is defined %}
<img class="plot" alt="{{ key }}" src="{{ plots[key] }}">{% endif %}{% endfor %}</div>
</section>

<section id="errors"><h2>Error browser</h2>
<p class="note">Gold rows where the accepted label disagrees. False positives are listed under each LF that voted
BOUND; false negatives under each LF that voted NOT_BOUND. <mark class="ent">entity</mark> <mark class="attr">attribute</mark></p>
{% for kind, title in [("FP", "False positives (accepted, gold NOT_BOUND)"), ("FN", "False negatives (not accepted, gold BOUND)")] %}
<h3 id="errors-{{ kind }}">{{ title }}: {{ f.errors["items"]|selectattr("kind", "equalto", kind)|list|length }}</h3>
{% for lf, indices in f.errors.by_lf[kind].items() %}
<details{% if loop.first %} open{% endif %}><summary>{{ lf }} ({{ indices|length }})</summary><ul class="items">
{% for n in indices[:per_group] %}{% set e = f.errors["items"][n] %}
<li>{{ e.snippet|highlight }} <span class="meta">· {{ e.source }} · P(BOUND) {{ e.p_lm|fmt }} ·
{% for name, v in e.votes.items() %}{{ name }}={{ "B" if v == 1 else "N" }} {% endfor %}</span></li>
{% endfor %}{% if indices|length > per_group %}<li class="meta">&hellip; {{ indices|length - per_group }} more in report.json</li>{% endif %}
</ul></details>
{% else %}<p class="note">none</p>{% endfor %}
{% endfor %}
</section>

<section id="agreement"><h2>Agreement without gold</h2>
<p class="note">Needs no gold set. The P(BOUND) histogram counts every candidate; the matrix gives, for each pair of
labeling functions, the fraction of the candidates both voted on where their votes agree (blank: never both voted).</p>
<div class="plots">{% for key in ["p_bound", "lf_agreement"] %}{% if plots[key] is defined %}
<img class="plot" alt="{{ key }}" src="{{ plots[key] }}">{% endif %}{% endfor %}</div>
</section>

<section id="contested"><h2>Candidates the labeling functions disagree on most</h2>
{% set c = f.agreement.contested %}
<p class="note">{{ c.candidates|fmt }} candidates have both BOUND and NOT_BOUND votes; the most evenly split are listed
(B = BOUND vote, N = NOT_BOUND vote). <mark class="ent">entity</mark> <mark class="attr">attribute</mark></p>
<ul class="items">{% for e in c["items"] %}<li>{{ e.snippet|highlight }} <span class="meta">· {{ e.bound }} BOUND,
{{ e.not_bound }} NOT_BOUND · P(BOUND) {{ e.p_lm|fmt }} ·
{% for name, v in e.votes.items() %}{{ name }}={{ "B" if v == 1 else "N" }} {% endfor %}</span></li>
{% else %}<li class="note">none</li>{% endfor %}</ul>
</section>

<section id="register-view"><h2>Register view</h2>
<p class="note">What the trainer is taught: each token with every slot's label and confidence (a dot is NOTHING).</p>
{% for p in f.register_view %}
<h3>passage <code>{{ p.doc_id }}</code>{% if p.truncated %} (first tokens){% endif %}</h3>
<div class="passage">{% for t in p.tokens %}<span class="tok"><b>{{ t.text }}</b>{% for s in t.slots %}
{% if s.label == "NOTHING" %}<span class="slot empty">·</span>{% else %}<span class="slot">{{ s.label }} {{ s.conf|fmt(2) }}</span>{% endif %}
{% endfor %}</span>{% endfor %}</div>
{% else %}<p class="note">No passage has a register label.</p>{% endfor %}
</section>

{% if f.compare is defined %}{% set c = f.compare %}
<section id="compare"><h2>Compared with <code>{{ c.other_run }}</code></h2>
{% set changed = c.figures|selectattr("changed")|list %}
<p>{{ changed|length }} of {{ c.figures|length }} figures changed (this run &minus; other run).</p>
<table><tr><th>figure</th><th>other run</th><th>this run</th><th>change</th></tr>
{% for row in changed %}<tr><td>{{ row.figure }}</td><td class="n">{{ row.other|fmt }}</td><td class="n">{{ row.this|fmt }}</td>
<td class="n {{ 'up' if row.delta and row.delta > 0 else 'down' if row.delta and row.delta < 0 else '' }}">{{ row.delta|signed }}</td></tr>
{% endfor %}</table>
{% set fl = c.flips %}
<h3>Candidates whose accepted label flipped: {{ fl.flipped|fmt }}</h3>
<p class="note">{{ fl.to_bound|fmt }} became BOUND, {{ fl.to_not_bound|fmt }} became NOT_BOUND; {{ fl.only_this|fmt }} candidates
exist only in this run, {{ fl.only_other|fmt }} only in the other.</p>
<ul class="items">{% for item in fl["items"][:100] %}<li>{{ item.snippet|highlight }} <span class="meta">· {{ item.cand_id }} ·
P(BOUND) {{ item.p_lm_other|fmt }} &rarr; {{ item.p_lm|fmt }} · now {{ "BOUND" if item.accepted else "NOT_BOUND" }}</span></li>
{% endfor %}</ul>
</section>{% endif %}
</body></html>
"""
