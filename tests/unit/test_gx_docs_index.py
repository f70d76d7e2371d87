"""The warehouse's GE context lists a bounded number of results in the Data Docs index."""

from __future__ import annotations

import types

import yaml

from lake.contracts import run


def test_the_data_docs_index_lists_only_the_newest_results(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "_CONTEXTS", {})
    context = run._gx_context(types.SimpleNamespace(root=tmp_path))
    site = context.variables.data_docs_sites["local_site"]["site_index_builder"]
    assert site["validation_results_limit"] == run.DOCS_INDEX_RESULTS
    saved = yaml.safe_load((tmp_path / "_gx" / "great_expectations.yml").read_text())
    saved_site = saved["data_docs_sites"]["local_site"]["site_index_builder"]
    assert saved_site["validation_results_limit"] == run.DOCS_INDEX_RESULTS
