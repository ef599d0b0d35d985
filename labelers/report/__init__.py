"""The label-quality report (``regscaffold report``): metrics against a gold set, figures, HTML and JSON.

Entry point: ``labelers.report.build.write_report(run_dir, gold, compare)``.
"""
