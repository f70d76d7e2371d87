"""Run ids name every Delta commit and every Great Expectations result of a run."""

from datetime import UTC, datetime

import pytest
from dateutil.parser import ParserError, parse
from hypothesis import example, given
from hypothesis import strategies as st

from lake.pipeline import new_run_id

HEX = st.text(alphabet="0123456789abcdef", min_size=6, max_size=6)
TIMES = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31), timezones=st.just(UTC)
)


def test_a_run_id_is_its_utc_time_and_a_token_and_sorts_by_time():
    first = new_run_id(datetime(2026, 11, 30, 19, 16, 17, tzinfo=UTC), "8025ad")
    assert first == "20261130T191617Z_8025ad"
    assert sorted([new_run_id(datetime(2026, 12, 1, tzinfo=UTC), "000000"), first])[0] == first
    assert new_run_id() != new_run_id()


@given(TIMES, HEX)
@example(datetime(2026, 11, 30, 19, 16, 17, tzinfo=UTC), "8025ad")  # was "...Z-8025ad": -80:25
@example(datetime(2026, 11, 30, 19, 10, 33, tzinfo=UTC), "013000")
def test_no_run_id_reads_as_a_date_to_the_data_docs_renderer(now, token):
    # GE's page renderer compares dateutil's reading of the run name with the run time; a
    # reading with an offset beyond a day raised there, and the run's pages were not rendered.
    with pytest.raises(ParserError):
        parse(new_run_id(now, token))
