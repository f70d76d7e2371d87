"""The claimhouse command line: the app over the library (`lake`), Dagster's code location
(`orchestration`) and the scorers. The library imports nothing from here."""
