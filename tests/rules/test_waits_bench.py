"""Issue 21: ``bench/waits.py`` run small (two simulated weeks, seeded): the model beats the naive
"places ahead x average time per seat" on median absolute error and on the share of real waits
inside its range. Not timed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "waits.py"


def test_issue21_model_beats_the_naive_estimate_on_simulated_weeks():
    spec = importlib.util.spec_from_file_location("bench_waits", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    result = bench.evaluate(weeks=2, warmup_weeks=1, seed=7)
    model, naive = result["model"], result["naive"]
    assert model["players"] > 500
    assert result["error_ratio"] < 0.85
    assert model["inside_range"] > naive["inside_range"] + 0.2
    assert 0.65 <= model["inside_range"] <= 0.95  # a 10th-90th percentile range: about 80%
