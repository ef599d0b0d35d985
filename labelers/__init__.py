"""Candidate extraction (labelers.extraction) and Snorkel labeling functions (labelers.lfs)."""
