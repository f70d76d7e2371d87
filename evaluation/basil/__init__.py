"""BASIL (launchnlp/BASIL) as a labelled development set for the claim extractor."""
