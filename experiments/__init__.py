"""The experiment of benchmarks/real_text.py, kept out of the product: label variants (variants.py) and the
trained models' measures (measures.py). Nothing in pipeline/, labelers/ or training/ imports it."""
