"""Accuracy benchmarks of the claim extractor on public data sets (not CI tests).

The data are read at run time from fetched copies of their repositories; nothing of theirs is
stored here. `lake` never imports this package.
"""
