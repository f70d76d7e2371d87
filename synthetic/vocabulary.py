"""Word lists and templates for the synthetic corpus, written independently of the extractor.

Conventions used by the templates (see docs/synthetic_corpus.md):

- ``{q}`` is the claim slot; ``{on_q}`` is a date slot that takes its preposition ("on May 20",
  "in mid-May") outside the claim span.
- Other ``{field}`` names are event fields: event, place, region, name, company, union, agency.
- Background, quote, context and title strings hold no digits, number words, month or weekday
  names, so every number in a generated article is either a labelled claim or a labelled
  non-claim. ``tests/unit/test_synthetic.py`` checks this.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- number words and qualifier wording -------------------------------------------------------

SMALL_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}

QUALIFIER_WORDS: dict[str, tuple[str, ...]] = {
    "approximate": ("about", "around", "roughly", "approximately", "some", "an estimated"),
    "almost": ("almost", "nearly", "just under"),
    "more_than": ("more than", "over"),
    "at_least": ("at least", "a minimum of"),
    "up_to": ("up to", "as many as"),
}
# Percents, money and ratios read badly after "some" / "an estimated" / "a minimum of".
QUALIFIER_WORDS_TERSE: dict[str, tuple[str, ...]] = {
    "approximate": ("about", "around", "roughly", "approximately"),
    "almost": ("almost", "nearly", "just under"),
    "more_than": ("more than",),
    "at_least": ("at least",),
    "up_to": ("up to", "as much as"),
}

# Vague amounts: (phrase, lower, upper, takes "of" before the noun).
VAGUE_COUNTS: tuple[tuple[str, float, float, bool], ...] = (
    ("dozens", 24, 99, True),
    ("hundreds", 200, 999, True),
    ("several hundred", 300, 999, False),
    ("thousands", 2_000, 9_999, True),
    ("several thousand", 3_000, 9_999, False),
    ("tens of thousands", 20_000, 99_999, True),
    ("hundreds of thousands", 200_000, 999_999, True),
    ("millions", 2_000_000, 9_999_999, True),
)
VAGUE_MONEY: tuple[tuple[str, float, float], ...] = (
    ("millions of dollars", 2e6, 9_999_999),
    ("tens of millions of dollars", 2e7, 99_999_999),
    ("hundreds of millions of dollars", 2e8, 999_999_999),
    ("billions of dollars", 2e9, 9_999_999_999),
)

# Ratio wording: value -> exact forms; each form is followed by " the ..." in clauses.
RATIO_FORMS: dict[float, tuple[str, ...]] = {
    0.5: ("half",),
    2.0: ("double", "twice"),
    3.0: ("triple", "three times"),
    4.0: ("four times", "quadruple"),
}
RATIO_QUALIFIED: dict[str, tuple[str, ...]] = {
    "approximate": ("roughly", "about"),
    "almost": ("nearly", "almost"),
    "more_than": ("more than",),
    "at_least": ("at least",),
}

PER_PHRASES: dict[str, tuple[str, ...]] = {
    "day": ("a day", "per day", "each day", "every day", "daily"),
    "week": ("a week", "per week", "each week", "every week", "weekly"),
    "month": ("a month", "per month", "each month", "every month", "monthly"),
    "year": ("a year", "per year", "each year", "annually"),
}

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# Associated Press abbreviations for months followed by a day.
MONTHS_AP = (
    "Jan.",
    "Feb.",
    "March",
    "April",
    "May",
    "June",
    "July",
    "Aug.",
    "Sept.",
    "Oct.",
    "Nov.",
    "Dec.",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Vague parts of a month: (prefix, first day, last day or 0 for the month's end).
MONTH_PARTS = (("early ", 1, 10), ("mid-", 11, 20), ("late ", 21, 0))

# --- outlets, places, people ------------------------------------------------------------------


@dataclass(frozen=True)
class Outlet:
    name: str
    the: bool  # written "the Harbor Post" in running text
    domain: str

    @property
    def ref(self) -> str:
        return f"the {self.name}" if self.the else self.name


OUTLETS: tuple[Outlet, ...] = (
    Outlet("Meridian Ledger", True, "meridianledger.com"),
    Outlet("Harbor Post", True, "harborpost.com"),
    Outlet("Northfield Courier", True, "northfieldcourier.com"),
    Outlet("Daily Sentinel", True, "dailysentinel.net"),
    Outlet("Pacific Tribune", True, "pacifictribune.com"),
    Outlet("Capitol Report", True, "capitolreport.org"),
    Outlet("Continental Press", False, "continentalpress.com"),
    Outlet("Lakeshore Herald", True, "lakeshoreherald.com"),
    Outlet("Valley Chronicle", True, "valleychronicle.com"),
    Outlet("Morning Dispatch", True, "morningdispatch.com"),
    Outlet("Summit News Network", False, "summitnews.tv"),
    Outlet("Ironbridge Times", True, "ironbridgetimes.com"),
    Outlet("Westmark Public Radio", False, "wpr.org"),
    Outlet("Riverside Examiner", True, "riversideexaminer.com"),
    Outlet("National Observer", True, "nationalobserver.news"),
    Outlet("Crescent City Star", True, "crescentcitystar.com"),
    Outlet("Beacon Journal", True, "beaconjournal.net"),
    Outlet("Frontier Gazette", True, "frontiergazette.com"),
    Outlet("Atlas Newswire", False, "atlasnewswire.com"),
    Outlet("Coastal Review", True, "coastalreview.org"),
    Outlet("Evening Bulletin", True, "eveningbulletin.com"),
    Outlet("Metro Record", True, "metrorecord.com"),
    Outlet("Keystone Journal", True, "keystonejournal.com"),
    Outlet("Prairie Voice", True, "prairievoice.org"),
    Outlet("Granite Wire", False, "granitewire.com"),
    Outlet("Bayside Bugle", True, "baysidebugle.com"),
)
# Outlets that are cited by others but publish nothing in the corpus.
OFF_CORPUS_OUTLETS: tuple[Outlet, ...] = (
    Outlet("Tidewater Dispatch", True, "tidewaterdispatch.com"),
    Outlet("Kestrel Wire", False, "kestrelwire.com"),
    Outlet("Blue Ridge Monitor", True, "blueridgemonitor.com"),
    Outlet("Highland Star-Telegram", True, "highlandstartelegram.com"),
    Outlet("Orchard Post", True, "orchardpost.com"),
    Outlet("Signal Hill Reporter", True, "signalhillreporter.com"),
)

TOWNS = (
    "Port Alder",
    "Calder Ridge",
    "Millbrook",
    "Eastfield",
    "Garnet Falls",
    "Lindenvale",
    "Corliss",
    "Harrow Bay",
    "Fenwick",
    "Bracken Hill",
    "Oriel",
    "Tamsin Creek",
    "Westover",
    "Ashgrove",
    "Dunmore",
    "Kessler Point",
    "Marlow",
    "Stonebridge",
    "Pine Hollow",
    "Redwater",
    "Halden",
    "Brisco",
    "Newhaven",
    "Sable Rock",
    "Cold Spring",
    "Larkin",
    "Vesper",
    "Quarryville",
    "Elmstead",
    "Brookhaven",
)
REGIONS = (
    "Westmark",
    "Aldora",
    "Norwell",
    "Cascara",
    "Brightmoor",
    "Tallis",
    "Varenne",
    "Oakhurst",
    "Pemberton",
    "Lowmoor",
    "Greywater",
    "Sorrel",
)
FIRST_NAMES = (
    "Dana",
    "Marcus",
    "Elena",
    "Tomas",
    "Priya",
    "Gareth",
    "Lucia",
    "Ibrahim",
    "Naomi",
    "Theo",
    "Rosalind",
    "Mateo",
    "Hannah",
    "Kofi",
    "Ingrid",
    "Samuel",
    "Yara",
    "Desmond",
    "Colette",
    "Ravi",
    "Beatrice",
    "Felix",
    "Amara",
    "Oskar",
    "Leona",
    "Julian",
    "Mireille",
    "Cyrus",
    "Noor",
    "Walter",
    "Greta",
    "Emeka",
    "Sofia",
    "Declan",
    "Harriet",
    "Viktor",
    "Imani",
    "Russell",
    "Paloma",
    "Anders",
)
LAST_NAMES = (
    "Whitcomb",
    "Okafor",
    "Lindqvist",
    "Marchetti",
    "Abernathy",
    "Castellanos",
    "Ferreira",
    "Haldane",
    "Ishikawa",
    "Kowalczyk",
    "Delacroix",
    "Brennan",
    "Nakamura",
    "Osei",
    "Petrakis",
    "Quintero",
    "Rasmussen",
    "Sandoval",
    "Thibodeaux",
    "Underwood",
    "Vasquez",
    "Whitfield",
    "Yilmaz",
    "Zielinski",
    "Albright",
    "Barrow",
    "Carrington",
    "Dunleavy",
    "Everly",
    "Fairbanks",
    "Galloway",
    "Hargrove",
    "Ingersoll",
    "Jessup",
    "Kincaid",
    "Montoya",
    "Northcott",
    "Ortega",
    "Pennington",
    "Ridley",
    "Stroud",
    "Tillman",
    "Wexler",
    "Ashdown",
    "Blackwood",
    "Crowder",
)

# --- attribution wording ----------------------------------------------------------------------

# Anonymous sources: "{n}" is a count of sources (a labelled non-claim), "{thing}" the subject.
ANONYMOUS = (
    "{n} people familiar with the {thing}",
    "{n} officials with knowledge of the {thing}",
    "{n} current and former officials",
    "{n} people briefed on the {thing}",
    "a person briefed on the {thing}",
    "officials who spoke on condition of anonymity",
    "people familiar with the {thing}",
    "a senior official who was not authorized to speak publicly",
    "sources close to the {thing}",
    "unnamed officials",
)
SOURCE_COUNTS = ("two", "three", "four", "five")
ANONYMOUS_THINGS = ("plan", "talks", "decision", "matter", "discussions", "figures", "response")

# Documents: (phrase, verb agreeing with it).
DOCUMENTS = (
    ("an internal memo", "shows"),
    ("budget documents", "show"),
    ("a draft plan", "shows"),
    ("court filings", "show"),
    ("an internal report", "shows"),
    ("planning documents", "show"),
    ("a briefing document", "shows"),
    ("a confidential assessment", "shows"),
    ("records released under a public records request", "show"),
    ("a spreadsheet circulated among senior staff", "shows"),
)

# Openers for unattributed claim sentences.
UNATTRIBUTED_OPENERS = ("So far, ", "In all, ", "At last count, ", "All told, ", "", "", "")

# Openers that may precede a background sentence starting with a lowercase-able word.
NOISE_OPENERS = (
    "Meanwhile, ",
    "Still, ",
    "At the same time, ",
    "For now, ",
    "Even so, ",
    "In the meantime, ",
    "Separately, ",
    "By most accounts, ",
)
LOWERABLE_STARTS = ("The ", "A ", "An ", "Officials ", "Residents ", "Some ", "Many ", "Critics ")

# --- generic filler ---------------------------------------------------------------------------

BACKGROUND = (
    "Officials urged residents to stay alert and to follow instructions from local authorities.",
    "The figures could not be independently verified.",
    "Questions remain about how the response was coordinated across agencies.",
    "Critics have long argued that {region} was poorly prepared for a crisis of this kind.",
    "Local businesses said they were bracing for a difficult stretch.",
    "The governor's office did not immediately respond to a request for comment.",
    "Community groups have organized food drives and volunteer shifts across {place}.",
    "Lawmakers from both parties called for a full review once the immediate crisis has passed.",
    "It was not immediately clear when normal operations would resume.",
    "The situation remained fluid late in the day.",
    "Residents described a chaotic scene as word spread through the neighborhood.",
    "Independent analysts cautioned that early estimates are often revised.",
    "The agency has faced scrutiny over its handling of previous emergencies.",
    "Many residents said they learned of the news from neighbors rather than official alerts.",
    "Officials declined to say when a final accounting would be available.",
    "A spokesperson promised that more details would be released in the coming days.",
    "The episode has renewed debate over funding and oversight in {region}.",
    "Advocates said the most vulnerable people were bearing the brunt of the disruption.",
    "Some residents questioned whether the warnings had come too late.",
    "The mood in {place} was tense but orderly by evening.",
    "Opposition leaders accused the administration of moving too slowly.",
    "Churches and community centers opened their doors to anyone who needed a place to rest.",
    "Traffic in and around {place} slowed to a crawl for much of the afternoon.",
    "Officials have promised a detailed report, though they have not said when it will arrive.",
    "The response has drawn praise from some quarters and sharp criticism from others.",
    "Economists warned that the ripple effects could be felt well beyond {region}.",
    "Insurance adjusters were expected to arrive as soon as roads reopened.",
    "Neighbors checked on elderly residents who live alone.",
    "State and local officials have clashed repeatedly over who should pay for the response.",
    "The full picture may not be known for weeks.",
    "Residents packed a community meeting to demand clearer information.",
    "The administration has defended its handling of the situation.",
    "Aid groups said they were stretched thin.",
    "The response has become a political flashpoint ahead of the coming elections.",
    "Some experts said the warning signs had been visible for years.",
    "Officials have not said who will lead a formal review.",
    "Schools and offices in parts of {region} were closed as a precaution.",
    "Social media posts from the area showed long lines and crowded parking lots.",
    "Local radio stations broke into regular programming with updates.",
    "Opposition lawmakers demanded that officials testify at a public hearing.",
    "Volunteers worked late into the night sorting donations.",
    "The disruption rippled through supply chains across {region}.",
    "Officials urged people to rely on official channels rather than rumors online.",
    "Business owners worried about lost income in an already difficult season.",
    "Federal officials said they were monitoring the situation closely.",
    "Several town halls have been scheduled to hear from residents.",
    "Longtime residents said they could not remember anything like it.",
    "The cost of the response is likely to be debated for months.",
)
CONTEXT = (
    "The figure could change as more information comes in.",
    "That number was expected to rise.",
    "It was not clear how the estimate had been reached.",
    "The tally has grown steadily since the start of the week.",
    "Officials cautioned that the count was preliminary.",
    "The number has not been independently confirmed.",
    "That estimate is higher than earlier projections.",
    "It marks a sharp change from the picture earlier in the week.",
    "Officials expect to update the figure regularly.",
    "The estimate may be revised as records are reconciled.",
    "Earlier figures had been considerably lower.",
)
QUOTES = (
    "We are doing everything we can",
    "This is going to take time, and we ask people to be patient",
    "People are frightened, and they have every right to be",
    "We will get through this together",
    "Nobody should have to go through something like this",
    "We need answers, and we need them now",
    "Our teams have been working around the clock",
    "I have never seen anything like it",
    "There is a lot of work ahead of us",
    "We are not going to cut corners on safety",
    "The community has shown incredible resilience",
    "We owe people a clear explanation of what went wrong",
)
RESIDENT_ROLES = (
    "a resident of {place}",
    "who owns a hardware store in {place}",
    "a retired teacher from {place}",
    "a volunteer with a local relief group",
    "a nurse who lives in {place}",
)
CLOSINGS = (
    "This is a developing story and will be updated.",
    "{Own} could not independently verify all of the figures.",
    "Officials did not respond to a request for comment from {own}.",
    "More updates are expected later in the week.",
    "Reporting was contributed by staff in {place}.",
)
FURNITURE = ("ADVERTISEMENT", "Story continues below", "RELATED COVERAGE")

# --- non-claims: numbers that are not claims --------------------------------------------------

# Each template has one "{nc}" slot; the generator fills it from the list for its type.
NONCLAIM_TEMPLATES: tuple[tuple[str, str], ...] = (
    (
        "brand",
        "Volunteers handed out water and blankets in the parking lot of a {nc} near {place}.",
    ),
    ("brand", "The line outside a {nc} on the main road stretched around the block."),
    ("ordinal", "Soldiers from the {nc} Engineer Battalion helped clear debris from the roads."),
    ("ordinal", "The {nc} District, which covers much of {place}, was among the hardest hit."),
    ("address", "A relief center opened at {nc}, a former furniture store."),
    ("address", "Officials set up a command post at {nc} on the edge of town."),
    ("phone", "Residents seeking help were told to call a hotline at {nc}."),
    ("page", "A notice printed on {nc} of the local weekly had warned residents weeks earlier."),
    ("model", "Investigators are examining a {nc} pump that failed early in the crisis."),
    ("model", "The equipment, a {nc} unit installed years ago, had been flagged for replacement."),
    ("route", "Traffic was backed up for miles on {nc} as people tried to leave."),
    ("route", "Crews closed a stretch of {nc} north of {place}."),
    ("number_one", "Officials have called public safety their {nc} priority."),
)
NONCLAIM_FILLS: dict[str, tuple[str, ...]] = {
    "brand": ("7-Eleven", "Motel 6", "Forever 21", "Super 8", "Circle 9 Market"),
    "ordinal": ("3rd", "12th", "41st", "101st", "2nd", "22nd", "9th"),
    "page": ("Page 6", "Page A3", "page 12", "Page B2"),
    "model": ("KX-200", "RT-450", "Model 7", "V-90", "Series 40", "TR-1100"),
    "route": ("Highway 17", "Interstate 80", "Route 9", "State Road 112", "Highway 101"),
    "number_one": ("No. 1",),
}
STREETS = (
    "Harbor Street",
    "Elm Avenue",
    "Calder Road",
    "Main Street",
    "Old Mill Road",
    "Bay Drive",
)

# --- domains ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Noun:
    head: str  # inside the claim span: "acres", "National Guard troops"
    unit: str  # normalized plural noun
    tail: str = ""  # after the head, outside the span for counts: " of forest and grassland"


@dataclass(frozen=True)
class MeasureSpec:
    key: str
    label: str
    # count | rate | percent | money | date | time | ratio | duration | age | length | mass
    kind: str
    unit: str | None
    clauses: tuple[str, ...]
    nouns: tuple[Noun, ...] = ()
    lo: float = 0.0
    hi: float = 0.0
    per: str | None = None
    when: str = "past"  # dates: past | future
    quals: tuple[str, ...] | None = None  # allowed qualifiers; None = all for the kind
    decimals: bool = False  # percents: may carry a decimal


# --- event names ----------------------------------------------------------------------------
# A year of news names hundreds of fires, storms, companies and operations; a pool of a handful
# made a 10k corpus reuse each name every few weeks for different events, which no reader (and
# no story grouping) can tell apart. Names are built from two lists so pools run to hundreds.


def _combine(firsts: tuple[str, ...], seconds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{a} {b}" for a in firsts for b in seconds if a != b)


_NAME_STEMS = (
    "Norvane", "Halcyon", "Tessaro", "Brightwell", "Lumen", "Castellan", "Orison", "Pellbrook",
    "Ardent", "Corvala", "Stellan", "Quorra", "Vantis", "Oakmere", "Talbrook", "Kestrel",
    "Alder", "Bramwell", "Calloway", "Dunmere", "Everhart", "Fairholt", "Glenrock", "Hartwell",
    "Ironvale", "Juniper", "Kingsford", "Larchmont", "Mossgrove", "Northgate",
)  # fmt: skip
FIRE_NAMES = _combine(
    (
        "Cedar", "Bluff", "Sawtooth", "Copper", "Eagle", "Dry", "Juniper", "Red", "Thorn",
        "Pine", "Stone", "Willow", "Granite", "Aspen", "Coyote", "Raven", "Elk", "Bear", "Hawk",
        "Silver", "Sage", "Lone", "Cougar", "Antelope", "Quail", "Oak",
    ),
    (
        "Canyon", "Creek", "Ridge", "Mesa", "Basin", "Peak", "Gulch", "Flats", "Butte",
        "Springs", "Fork", "Rock",
    ),
)  # fmt: skip
STORM_NAMES = (
    "Delphine", "Marcus", "Odessa", "Tobias", "Lenora", "Quentin", "Ysolde", "Bartram",
    "Caspian", "Marisol", "Anselm", "Beatrix", "Cyprian", "Dorothea", "Evander", "Fenella",
    "Gideon", "Honora", "Ignatius", "Juno", "Leopold", "Mirabel", "Nestor", "Ottilie",
    "Percival", "Rosalind", "Silas", "Theodora", "Ulric", "Verity", "Wendell", "Xanthe",
    "Yardley", "Zenobia", "Alaric", "Briony", "Cosmo", "Delia", "Emrys", "Flavia", "Gaspard",
    "Hester", "Isolde", "Jasper", "Kezia", "Lysander", "Maud", "Niamh", "Orrin", "Philippa",
)  # fmt: skip
OPERATION_NAMES = _combine(
    (
        "Northern", "Steel", "Granite", "Silent", "Copper", "Winter", "Amber", "Iron", "Crimson",
        "Swift", "Eastern", "Hidden", "Golden", "Falcon", "Thunder", "Arctic", "Valiant",
        "Distant",
    ),
    (
        "Shield", "Harbor", "Watch", "Tide", "Lance", "Gate", "Sentinel", "Arrow", "Spear",
        "Anvil", "Horizon", "Bastion", "Forge", "Vigil", "Guardian", "Resolve",
    ),
)  # fmt: skip
LAYOFF_COMPANIES = _combine(
    _NAME_STEMS,
    (
        "Industries", "Foods", "Motors", "Pharmaceuticals", "Logistics", "Steel", "Software",
        "Textiles", "Chemicals", "Labs",
    ),
)  # fmt: skip
CARRIERS = _combine(_NAME_STEMS, ("Airlines", "Air", "Airways", "Rail"))
STRIKE_EMPLOYERS = _combine(_NAME_STEMS, ("Motors", "Foods", "Transit", "Steel", "Health"))
UTILITIES = _combine(_NAME_STEMS, ("Power", "Utilities", "Energy", "Electric"))


@dataclass(frozen=True)
class Domain:
    key: str
    event_forms: tuple[str, ...]
    names: tuple[str, ...]
    agencies: tuple[str, ...]
    roles: tuple[tuple[str, str], ...]  # (title before a name, appositive role)
    measures: tuple[MeasureSpec, ...]
    background: tuple[str, ...]
    quotes: tuple[str, ...]
    titles: tuple[str, ...]
    extras: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Pairs of measures an event states together: two quantities a reconciler that groups by
    # one noun or unit would take for one (generate.py adds the partner of a chosen one).
    traps: tuple[tuple[str, str], ...] = ()


def _nouns(*specs: str) -> tuple[Noun, ...]:
    """'head|tail=unit' -> Noun; the unit defaults to the head's last word."""
    out = []
    for spec in specs:
        spec, _, unit = spec.partition("=")
        head, _, tail = spec.partition("|")
        out.append(Noun(head, unit or head.split()[-1], f" {tail}" if tail else ""))
    return tuple(out)


def count(
    key: str,
    label: str,
    lo: float,
    hi: float,
    nouns: list[str],
    clauses: list[str],
    quals: tuple[str, ...] | None = None,
) -> MeasureSpec:
    return MeasureSpec(
        key,
        label,
        "count",
        _nouns(*nouns)[0].unit,
        tuple(clauses),
        _nouns(*nouns),
        lo,
        hi,
        quals=quals,
    )


def rate(
    key: str, label: str, per: str, lo: float, hi: float, nouns: list[str], clauses: list[str]
) -> MeasureSpec:
    return MeasureSpec(
        key, label, "rate", _nouns(*nouns)[0].unit, tuple(clauses), _nouns(*nouns), lo, hi, per=per
    )


def pct(
    key: str,
    label: str,
    lo: float,
    hi: float,
    clauses: list[str],
    decimals: bool = True,
    quals: tuple[str, ...] | None = None,
) -> MeasureSpec:
    return MeasureSpec(
        key, label, "percent", "percent", tuple(clauses), (), lo, hi, quals=quals, decimals=decimals
    )


def money(
    key: str,
    label: str,
    lo: float,
    hi: float,
    clauses: list[str],
    per: str | None = None,
    quals: tuple[str, ...] | None = None,
) -> MeasureSpec:
    return MeasureSpec(
        key, label, "money", "dollars", tuple(clauses), (), lo, hi, per=per, quals=quals
    )


def date(key: str, label: str, when: str, clauses: list[str]) -> MeasureSpec:
    return MeasureSpec(key, label, "date", None, tuple(clauses), when=when)


def duration(
    key: str, label: str, lo: float, hi: float, clauses: list[str], quals=None
) -> MeasureSpec:
    """A period in days ("the strike has lasted 41 days"): gold compares durations in days."""
    return MeasureSpec(key, label, "duration", "days", tuple(clauses), (), lo, hi, quals=quals)


def age(key: str, label: str, lo: float, hi: float, clauses: list[str]) -> MeasureSpec:
    """An age in years, stated exactly ("the driver was 34 years old")."""
    return MeasureSpec(key, label, "age", "years", tuple(clauses), (), lo, hi, quals=("exact",))


def length(
    key: str, label: str, lo: float, hi: float, unit: str, clauses: list[str]
) -> MeasureSpec:
    """A distance in a unit of length ("flooding reached 12 miles inland"): gold compares
    lengths in meters."""
    return MeasureSpec(key, label, "length", unit, tuple(clauses), (), lo, hi)


def mass(key: str, label: str, lo: float, hi: float, unit: str, clauses: list[str]) -> MeasureSpec:
    """A weight in a unit of mass ("crews have hauled away 4,000 tons of debris"): gold compares
    masses in kilograms."""
    return MeasureSpec(key, label, "mass", unit, tuple(clauses), (), lo, hi)


# Zones written after a clock time, in minutes east of UTC. Fixed zones only: a daylight-saving
# zone's offset would depend on the day.
CLOCK_ZONES: tuple[tuple[str, int], ...] = (
    ("GMT", 0),
    ("UTC", 0),
    ("CET", 60),
    ("EST", -300),
    ("PST", -480),
    ("JST", 540),
)
CLOCK_ABOUT_WORDS = ("about", "around", "roughly")


def clock_time(key: str, label: str, clauses: list[str]) -> MeasureSpec:
    """The time of day something happened, in minutes after midnight UTC ("at 9:30 p.m. EST",
    "at about 0130 GMT"); clauses hold {on_q}, which becomes "at" and the time."""
    return MeasureSpec(
        key, label, "time", "UTC", tuple(clauses), (), quals=("exact", "approximate")
    )


def ratio(key: str, label: str, clauses: list[str]) -> MeasureSpec:
    return MeasureSpec(key, label, "ratio", "times", tuple(clauses))


def deaths(place_phrase: str) -> MeasureSpec:
    return count(
        "deaths",
        "people killed",
        2,
        60,
        ["people", "residents"],
        [f"{{q}} have died {place_phrase}", "{q} have been confirmed dead", "the toll rose to {q}"],
        quals=("exact", "at_least", "more_than", "almost", "approximate"),
    )


WILDFIRE = Domain(
    key="wildfire",
    event_forms=("the {name} Fire",),
    names=FIRE_NAMES,
    agencies=(
        "the {region} Forestry Service",
        "the {region} Office of Emergency Services",
        "the county fire department",
        "the regional air quality board",
    ),
    roles=(
        ("Fire Chief", "the county fire chief"),
        ("Governor", "the governor of {region}"),
        ("Incident Commander", "who is leading the firefighting effort"),
        ("Sheriff", "the county sheriff"),
        ("Emergency Services Director", "the state's emergency services director"),
    ),
    measures=(
        duration(
            "fire_days",
            "days the fire has burned",
            3,
            45,
            ["the fire has burned for {q}", "the fire has now burned for {q}"],
        ),
        length(
            "fire_front",
            "length of the fire's front",
            2,
            30,
            "miles",
            [
                "the fire's front stretched {q}",
                "the fire's front now stretches {q}",
                "the fire's front extended {q}",
            ],
        ),
        count(
            "acres_burned",
            "acres burned",
            1_500,
            240_000,
            ["acres|of forest and grassland", "acres"],
            [
                "{event} has burned {q}",
                "the blaze had scorched {q} by nightfall",
                "flames have blackened {q} in the hills above {place}",
            ],
        ),
        count(
            "evacuees",
            "residents ordered to evacuate",
            400,
            45_000,
            ["residents", "people"],
            [
                "{q} have been ordered to leave their homes",
                "evacuation orders now cover {q} in and around {place}",
                "{q} were still barred from returning home",
            ],
        ),
        count(
            "structures_destroyed",
            "homes and buildings destroyed",
            15,
            2_600,
            ["homes", "structures", "buildings"],
            [
                "the fire has destroyed {q}",
                "{q} have been reduced to ash",
                "crews counted {q} lost to the flames",
            ],
        ),
        count(
            "firefighters",
            "firefighters assigned",
            200,
            6_500,
            ["firefighters", "fire personnel=personnel"],
            [
                "{q} are now assigned to the fire",
                "the state has sent {q} to the fire lines",
                "{q} worked through the night to hold the eastern flank",
            ],
        ),
        pct(
            "containment",
            "containment of the fire",
            5,
            90,
            decimals=False,
            clauses=["the fire was {q} contained", "crews had reached {q} containment"],
            quals=("exact", "approximate", "almost", "more_than"),
        ),
        rate(
            "retardant_rate",
            "retardant dropped per day",
            "day",
            20_000,
            350_000,
            ["gallons|of retardant", "gallons|of fire retardant"],
            ["air tankers are dropping {q}", "aircraft have been releasing {q} over the ridges"],
        ),
        money(
            "suppression_cost",
            "cost of fighting the fire",
            2e6,
            2.5e8,
            [
                "fighting the fire has cost {q} so far",
                "suppression costs have climbed to {q}",
                "the state has approved {q} in emergency firefighting funds",
            ],
        ),
        date(
            "ignition_date",
            "date the fire started",
            "past",
            [
                "the fire broke out {on_q}",
                "the blaze was first reported {on_q}",
                "lightning sparked the fire {on_q}",
            ],
        ),
        clock_time(
            "report_time",
            "time the fire was first reported",
            ["the first call about the fire came in {on_q}", "crews were first dispatched {on_q}"],
        ),
        ratio(
            "area_ratio",
            "burned area relative to last year's largest fire",
            [
                "{event} has already burned {q} the area of last year's largest fire",
                "the burn scar is {q} the size of the previous record",
            ],
        ),
        deaths("in the fire"),
    ),
    background=(
        "Hot, dry winds pushed the flames across ridgelines faster than crews could cut lines.",
        "Smoke drifted over {place}, prompting health warnings for children and older adults.",
        "Forecasters expected gusty conditions to continue for several more days.",
        "Many of the homes lost were in canyons with a single road in and out.",
        "Fire officials said years of drought had left the brush unusually dry.",
        "Residents loaded pets and photo albums into cars as the glow spread over the hills.",
        "Air tankers were grounded for part of the afternoon because of poor visibility.",
        "Utility crews shut off power to some neighborhoods to reduce the risk of new fires.",
    ),
    quotes=(
        "The wind is the enemy right now",
        "If you are told to leave, leave",
        "We are making progress, but this fire is far from over",
        "I watched the ridge light up and knew we had minutes",
    ),
    titles=(
        "{Event} forces evacuations near {place}",
        "Crews battle {event} as winds shift",
        "{Event} grows overnight, threatening homes in {region}",
        "Residents flee as {event} jumps containment lines",
    ),
)

STORM = Domain(
    key="storm",
    event_forms=("Hurricane {name}", "Tropical Storm {name}"),
    names=STORM_NAMES,
    agencies=(
        "the {region} Emergency Management Agency",
        "the state utility commission",
        "the Coast Guard",
        "the {place} emergency operations center",
    ),
    roles=(
        ("Governor", "the governor of {region}"),
        ("Emergency Management Director", "the state's emergency management director"),
        ("Mayor", "the mayor of {place}"),
        ("Coast Guard Capt.", "a Coast Guard commander"),
        ("Utility Chief Executive", "the head of the regional utility"),
    ),
    measures=(
        duration(
            "outage_days",
            "days some customers were without power",
            2,
            14,
            ["some customers were without power for {q}", "some homes went without power for {q}"],
        ),
        length(
            "flood_reach",
            "how far inland the flooding reached",
            2,
            40,
            "miles",
            [
                "flooding reached {q} inland",
                "flooding had spread {q} inland",
                "the flooding stretched {q} inland",
            ],
        ),
        mass(
            "storm_debris",
            "tons of storm debris hauled away",
            200,
            90_000,
            "tons",
            [
                "crews have hauled away {q} of debris",
                "crews had removed {q} of storm debris",
                "trucks have carried off {q} of debris",
            ],
        ),
        count(
            "without_power",
            "customers without power",
            12_000,
            1_800_000,
            ["customers", "households"],
            [
                "{q} were without power",
                "the storm knocked out electricity to {q}",
                "power had yet to be restored to {q}",
            ],
        ),
        count(
            "sheltered",
            "people in emergency shelters",
            150,
            30_000,
            ["people", "evacuees"],
            [
                "{q} spent the night in emergency shelters",
                "shelters across {region} were housing {q}",
            ],
        ),
        count(
            "rescues",
            "people rescued",
            20,
            2_800,
            ["people", "residents"],
            [
                "rescue crews have pulled {q} from flooded homes",
                "boat teams rescued {q} from rooftops and attics",
            ],
        ),
        money(
            "damage",
            "storm damage",
            5e7,
            1.8e10,
            [
                "insured losses could reach {q}",
                "the storm caused {q} in damage",
                "early estimates put the damage at {q}",
            ],
        ),
        count(
            "aid_tons",
            "relief supplies delivered",
            40,
            6_000,
            ["tons|of food and water", "tons|of relief supplies"],
            [
                "relief agencies have delivered {q}",
                "{q} have been shipped to the hardest-hit towns",
            ],
        ),
        date(
            "landfall_date",
            "date of landfall",
            "past",
            ["{event} made landfall near {place} {on_q}", "the storm came ashore {on_q}"],
        ),
        clock_time(
            "landfall_time",
            "time of landfall",
            ["the eye crossed the coast {on_q}", "{event} reached the coast {on_q}"],
        ),
        count(
            "flights_cancelled",
            "flights cancelled for the storm",
            120,
            4_200,
            ["flights"],
            [
                "airlines cancelled {q} at airports across the region",
                "{q} were scrapped as the storm approached",
            ],
        ),
        deaths("in the storm"),
        count(
            "guard_troops",
            "National Guard troops activated",
            300,
            9_000,
            ["National Guard troops", "Guard members=troops"],
            ["{q} have been deployed to help with rescues", "the governor activated {q}"],
            quals=("exact", "approximate", "up_to", "more_than", "at_least", "vague"),
        ),
        rate(
            "restore_rate",
            "customers reconnected per day",
            "day",
            5_000,
            250_000,
            ["customers"],
            ["crews were restoring power to {q}"],
        ),
        # Traps for fact identity: one unit, two properties (gusts, sustained winds);
        # one noun, two modifiers (federal and state relief funds); one kind, two events
        # (landfall, the emergency declaration). Each is a fact of its own.
        count(
            "peak_gusts",
            "peak wind gusts",
            60,
            120,
            ["mph"],
            ["the strongest gusts reached {q}", "wind gusts topped out at {q}"],
            quals=("exact", "approximate", "up_to", "more_than"),
        ),
        count(
            "sustained_winds",
            "sustained winds at landfall",
            50,
            110,
            ["mph"],
            ["sustained winds were clocked at {q}", "the storm's sustained winds held at {q}"],
            quals=("exact", "approximate", "up_to"),
        ),
        money(
            "federal_funds",
            "federal relief funds",
            5e7,
            9e8,
            [
                "Washington has pledged {q} in federal relief funds",
                "{q} in federal relief funds has been released",
            ],
            quals=("exact", "approximate", "more_than"),
        ),
        money(
            "state_funds",
            "state relief funds",
            5e7,
            9e8,
            [
                "the governor set aside {q} in state relief funds",
                "lawmakers approved {q} in state relief funds",
            ],
            quals=("exact", "approximate", "more_than"),
        ),
        date(
            "emergency_date",
            "date the state of emergency was declared",
            "past",
            [
                "the governor declared a state of emergency {on_q}",
                "a state of emergency was declared {on_q}",
            ],
        ),
    ),
    background=(
        "Floodwaters swallowed cars and pushed debris into the streets of {place}.",
        "The storm weakened as it moved inland but continued to dump heavy rain.",
        "Forecasters warned that rivers could keep rising for days.",
        "Boats and high-water vehicles moved through neighborhoods that had been dry that morning.",
        "Officials pleaded with people not to drive through flooded roads.",
        "Downed trees and power lines blocked many of the roads out of town.",
        "Some residents who ignored evacuation orders had to be pulled from their homes.",
    ),
    quotes=(
        "The water came up faster than anyone expected",
        "Please stay off the roads so our crews can work",
        "We lost everything on the ground floor",
        "This storm will be with us long after the rain stops",
    ),
    titles=(
        "{Event} batters {region} coast",
        "Rescues continue as {event} floods {place}",
        "Power outages spread in the wake of {event}",
        "{Event} leaves trail of damage across {region}",
    ),
    traps=(
        ("peak_gusts", "sustained_winds"),
        ("federal_funds", "state_funds"),
        ("emergency_date", "landfall_date"),
    ),
)


LAYOFFS = Domain(
    key="layoffs",
    event_forms=("{company}",),
    names=("restructuring",),
    extras={"company": LAYOFF_COMPANIES},
    agencies=(
        "{company}",
        "the {region} Department of Labor",
        "the {place} Chamber of Commerce",
        "the company's largest union",
    ),
    roles=(
        ("Chief Executive", "the company's chief executive"),
        ("Chief Financial Officer", "the company's finance chief"),
        ("Labor Commissioner", "the state labor commissioner"),
        ("Mayor", "the mayor of {place}"),
    ),
    measures=(
        count(
            "layoffs",
            "jobs cut",
            150,
            12_000,
            ["jobs", "positions"],
            [
                "{company} will cut {q}",
                "the company plans to eliminate {q}",
                "the restructuring will do away with {q}",
            ],
        ),
        pct(
            "workforce_share",
            "share of workforce cut",
            3,
            30,
            [
                "the cuts amount to {q} of the company's workforce",
                "the company will shed {q} of its staff",
            ],
        ),
        count(
            "plants_closing",
            "plants closing",
            2,
            14,
            ["plants", "factories", "facilities"],
            ["{company} will close {q}", "{q} will be shut down under the plan"],
            quals=("exact", "up_to", "at_least"),
        ),
        money(
            "restructuring_charge",
            "restructuring charges",
            5e6,
            4e8,
            [
                "the company set aside {q} for severance payments",
                "{company} expects to book {q} in restructuring charges",
            ],
        ),
        pct(
            "share_drop",
            "share price fall after the announcement",
            2,
            25,
            [
                "shares of {company} fell {q} in early trading",
                "the stock slid {q} after the announcement",
            ],
            quals=("exact", "approximate", "almost", "more_than"),
        ),
        money(
            "annual_savings",
            "annual savings from the cuts",
            2e7,
            2e9,
            ["the cuts are expected to save {q}", "executives are counting on savings of {q}"],
            per="year",
        ),
        date(
            "notice_date",
            "date layoff notices go out",
            "future",
            ["the first layoff notices will go out {on_q}", "the cuts take effect {on_q}"],
        ),
        money(
            "quarterly_loss",
            "quarterly loss",
            2e7,
            3e9,
            [
                "{company} reported a quarterly loss of {q}",
                "the company lost {q} in the most recent quarter",
            ],
        ),
        ratio(
            "cut_ratio",
            "size of the cuts relative to the previous round",
            [
                "the new round of cuts is {q} the size of the previous round",
                "the layoffs are {q} what analysts had expected",
            ],
        ),
    ),
    background=(
        "The company has struggled with rising costs and slowing demand.",
        "Analysts said the cuts had been expected for months.",
        "Workers learned of the plan in a brief meeting that lasted only minutes.",
        "Local officials worried about the effect on restaurants and shops near the plant.",
        "The company said the changes would make it leaner and more competitive.",
        "Union leaders vowed to fight for better severance terms.",
        "Investors have pushed the company's board to cut costs aggressively.",
    ),
    quotes=(
        "These are painful decisions, and we do not take them lightly",
        "This town was built around that plant",
        "We will do everything we can to help affected employees",
        "Nobody saw this coming, not this fast",
    ),
    titles=(
        "{Company} to cut jobs in sweeping overhaul",
        "{Company} layoffs rattle {place}",
        "Shares slide as {company} announces restructuring",
        "{Company} plans plant closures as losses mount",
    ),
)

ELECTION = Domain(
    key="election",
    event_forms=(
        "the {region} gubernatorial election",
        "the {place} mayoral race",
        "the {region} special election",
    ),
    names=("election",),
    agencies=(
        "the {region} Secretary of State's office",
        "the county elections board",
        "the {place} city clerk's office",
        "the state board of canvassers",
    ),
    roles=(
        ("Secretary of State", "the state's top elections official"),
        ("Elections Director", "the county elections director"),
        ("County Clerk", "the county clerk"),
        ("Campaign Manager", "who runs the challenger's campaign"),
    ),
    measures=(
        count(
            "ballots_cast",
            "ballots cast",
            40_000,
            3_200_000,
            ["ballots", "votes"],
            [
                "voters cast {q}",
                "{q} had been counted by midnight",
                "election officials have tallied {q}",
            ],
        ),
        pct(
            "turnout",
            "voter turnout",
            28,
            74,
            ["turnout reached {q}", "turnout stood at {q} of registered voters"],
        ),
        count(
            "ballots_rejected",
            "mail ballots rejected",
            300,
            25_000,
            ["mail ballots=ballots", "ballots"],
            [
                "{q} were rejected for missing signatures",
                "election workers set aside {q} over signature problems",
            ],
        ),
        count(
            "margin",
            "winning margin in votes",
            150,
            60_000,
            ["votes"],
            ["the winner's margin was {q}", "the race was decided by {q}"],
        ),
        count(
            "polling_places",
            "polling places open",
            40,
            900,
            ["polling places", "voting sites"],
            ["{q} opened on time", "the county ran {q} across {region}"],
        ),
        money(
            "recount_cost",
            "cost of a recount",
            2e5,
            8e6,
            ["a recount would cost taxpayers {q}", "the recount is expected to cost {q}"],
        ),
        date(
            "certification_date",
            "date results are certified",
            "future",
            [
                "the state will certify the results {on_q}",
                "canvassers must finish their work {on_q}",
            ],
        ),
        date(
            "election_date",
            "date of the vote",
            "past",
            ["voters went to the polls {on_q}", "the vote was held {on_q}"],
        ),
        rate(
            "processing_rate",
            "ballots processed per day",
            "day",
            5_000,
            200_000,
            ["ballots", "mail ballots=ballots"],
            ["election offices were processing {q}", "workers were verifying {q}"],
        ),
        ratio(
            "early_vote_ratio",
            "early voting relative to the previous election",
            ["early voting was {q} the level seen in the last race"],
        ),
    ),
    background=(
        "Lines stretched outside some polling places well before the doors opened.",
        "Both campaigns dispatched lawyers to watch the count.",
        "Election officials defended the security of the vote against online rumors.",
        "The race drew heavy spending from outside groups.",
        "Observers from both parties watched as workers sorted ballots.",
        "The candidates spent the final days crisscrossing {region}.",
        "Some voters complained of long waits and confusing instructions.",
    ),
    quotes=(
        "Every eligible vote will be counted",
        "We are confident in the integrity of this election",
        "The voters have spoken, and we respect the result",
        "We will not concede until every ballot is counted",
    ),
    titles=(
        "Count continues in {event}",
        "Turnout questions loom over {event}",
        "Officials defend tally in {event}",
        "Close result in {event} heads toward review",
    ),
)

HEALTH = Domain(
    key="health",
    event_forms=("the {name} outbreak in {region}",),
    names=("measles", "mumps", "hepatitis A", "whooping cough", "norovirus", "dengue fever"),
    agencies=(
        "the {region} Department of Health",
        "the county health department",
        "the regional hospital association",
        "{place} General Hospital",
    ),
    roles=(
        ("Health Commissioner", "the state health commissioner"),
        ("Dr.", "an infectious disease specialist at {place} General Hospital"),
        ("State Epidemiologist", "the state's chief disease tracker"),
        ("Hospital Chief Executive", "who runs the largest hospital in {region}"),
    ),
    measures=(
        count(
            "cases",
            "confirmed cases",
            40,
            38_000,
            ["cases", "confirmed cases", "infections"],
            [
                "health officials have confirmed {q}",
                "{q} have been reported across {region}",
                "the outbreak has grown to {q}",
            ],
        ),
        count(
            "hospitalized",
            "people hospitalized",
            5,
            2_400,
            ["people", "patients"],
            ["{q} have been hospitalized", "hospitals are treating {q}"],
        ),
        count(
            "doses_given",
            "vaccine doses administered",
            5_000,
            2_400_000,
            ["vaccine doses", "doses"],
            ["clinics have administered {q}", "the state has shipped {q} to clinics"],
        ),
        rate(
            "dose_rate",
            "doses given per day",
            "day",
            500,
            60_000,
            ["doses", "shots"],
            ["clinics are giving {q}", "pharmacies were administering {q}"],
        ),
        pct(
            "vaccination_rate",
            "vaccination rate among children",
            55,
            96,
            [
                "the vaccination rate among kindergartners is {q}",
                "{q} of children in the county are fully vaccinated",
            ],
            quals=("exact", "approximate", "almost", "more_than"),
        ),
        money(
            "funding",
            "emergency outbreak funding",
            1e6,
            9e7,
            [
                "the state released {q} in emergency funding",
                "lawmakers approved {q} to fight the outbreak",
            ],
        ),
        date(
            "first_case_date",
            "date the first case was confirmed",
            "past",
            [
                "the first case was confirmed {on_q}",
                "health officials detected the first infection {on_q}",
            ],
        ),
        rate(
            "weekly_cases",
            "new cases reported per week",
            "week",
            20,
            5_000,
            ["new cases=cases", "cases"],
            ["health officials are recording {q}", "the county is logging {q}"],
        ),
        deaths("from the illness"),
        ratio(
            "case_ratio",
            "cases relative to all of last year",
            ["the number of cases is already {q} the total for all of last year"],
        ),
    ),
    background=(
        "Health officials urged parents to check their children's vaccination records.",
        "Pop-up clinics opened in school gyms and church halls.",
        "Doctors said many of the patients had not been vaccinated.",
        "The illness spreads easily in crowded indoor spaces.",
        "Some schools asked unvaccinated students to stay home until the outbreak subsides.",
        "Public health experts warned that the true scale is probably larger than reported.",
        "Hospitals postponed some elective procedures to free up beds.",
    ),
    quotes=(
        "Vaccination remains the best protection we have",
        "We are seeing cases in families that never expected it",
        "This outbreak was preventable",
        "Our staff are tired, but they are holding the line",
    ),
    titles=(
        "{Event} widens as officials urge vaccination",
        "Hospitals strained by {event}",
        "Health officials race to contain {event}",
        "Clinics expand hours amid {event}",
    ),
)

TRANSPORT = Domain(
    key="transport",
    event_forms=("the {company} meltdown", "the {company} outage"),
    names=("outage",),
    extras={"company": CARRIERS},
    agencies=(
        "the Department of Transportation",
        "the {place} airport authority",
        "{company}",
        "the national aviation regulator",
    ),
    roles=(
        ("Transportation Secretary", "the transportation secretary"),
        ("Chief Operating Officer", "the carrier's operations chief"),
        ("Airport Director", "who runs the airport in {place}"),
        ("Spokeswoman", "a spokeswoman for {company}"),
    ),
    measures=(
        count(
            "cancellations",
            "trips cancelled",
            300,
            7_000,
            ["flights", "departures"],
            [
                "{company} cancelled {q}",
                "{q} were grounded nationwide",
                "the outage forced the cancellation of {q}",
            ],
        ),
        count(
            "stranded",
            "passengers stranded",
            8_000,
            600_000,
            ["passengers", "travelers"],
            ["{q} were stranded", "the disruption affected {q}"],
        ),
        length(
            "traffic_backup",
            "length of the traffic backup",
            3,
            25,
            "miles",
            [
                "traffic was backed up for {q}",
                "traffic had backed up for {q}",
                "traffic stretched back {q}",
            ],
        ),
        pct(
            "delayed_share",
            "share of departures delayed",
            10,
            70,
            ["{q} of the carrier's departures were delayed", "delays hit {q} of departures"],
        ),
        money(
            "refunds",
            "refunds and compensation",
            5e6,
            5e8,
            [
                "{company} expects to pay {q} in refunds and compensation",
                "{company} set aside {q} for passenger refunds",
            ],
        ),
        date(
            "outage_date",
            "date the outage began",
            "past",
            ["the outage began {on_q}", "the booking systems failed {on_q}"],
        ),
        clock_time(
            "outage_time",
            "time the booking systems failed",
            ["the booking systems went dark {on_q}", "the first check-in kiosks froze {on_q}"],
        ),
        money(
            "penalty",
            "proposed regulatory penalty",
            1e5,
            9e7,
            ["regulators are weighing a penalty of {q}", "the carrier could face fines of {q}"],
            quals=("exact", "approximate", "up_to", "more_than"),
        ),
        rate(
            "normal_schedule",
            "trips normally operated per day",
            "day",
            200,
            5_000,
            ["flights", "departures"],
            ["{company} normally operates {q}", "the carrier typically runs {q}"],
        ),
        ratio(
            "cancel_ratio",
            "cancellations relative to an ordinary bad-weather day",
            ["cancellations were {q} the level of an ordinary winter storm"],
        ),
        count(
            "bags",
            "bags stuck at airports",
            2_000,
            90_000,
            ["bags", "pieces|of luggage"],
            ["{q} piled up at baggage claims", "crews were still sorting {q}"],
        ),
    ),
    background=(
        "Passengers slept on terminal floors as rebooking lines snaked through the concourse.",
        "The carrier blamed a software failure but gave few details.",
        "Customer service phone lines were jammed for most of the day.",
        "Consumer advocates called for stronger rules on compensation.",
        "Rival carriers added capacity to absorb some of the stranded travelers.",
        "Lawmakers demanded a full accounting from the company's executives.",
    ),
    quotes=(
        "We let our customers down, and we are sorry",
        "Nobody could tell us anything for hours",
        "Our priority is getting people where they need to go",
        "This was a failure of planning, not just technology",
    ),
    titles=(
        "Travel chaos follows {event}",
        "Regulators scrutinize {event}",
        "Stranded travelers fume after {event}",
        "{Company} scrambles to recover",
    ),
)

STRIKE = Domain(
    key="strike",
    event_forms=("the strike at {company}",),
    names=("strike",),
    extras={
        "company": STRIKE_EMPLOYERS,
        "union": (
            "the United Dockworkers Union",
            "the Allied Nurses Association",
            "the Transit Workers Guild",
            "the Steelworkers Alliance",
            "the Food and Warehouse Workers Union",
        ),
    },
    agencies=(
        "{union}",
        "{company}",
        "the {region} labor relations board",
        "the federal mediation service",
    ),
    roles=(
        ("Union President", "the union's president"),
        ("Chief Negotiator", "the company's lead negotiator"),
        ("Labor Secretary", "the labor secretary"),
        ("Mediator", "a federal mediator"),
    ),
    measures=(
        duration(
            "strike_days",
            "days the strike has lasted",
            5,
            120,
            ["the strike has lasted {q}", "workers have been on strike for {q}"],
        ),
        count(
            "strikers",
            "workers on strike",
            800,
            90_000,
            ["workers", "union members"],
            ["{q} walked off the job", "{q} are on strike", "the walkout involves {q}"],
        ),
        pct(
            "wage_offer",
            "raise offered by management",
            3,
            25,
            ["the company has offered a raise of {q}", "management put forward raises of {q}"],
            quals=("exact", "approximate", "up_to"),
        ),
        pct(
            "wage_demand",
            "raise demanded by the union",
            8,
            40,
            ["the union is demanding raises of {q}", "workers want a raise of {q}"],
            quals=("exact", "approximate", "at_least", "more_than"),
        ),
        pct(
            "strike_vote",
            "share of members voting to strike",
            70,
            99,
            [
                "{q} of members voted to authorize the strike",
                "members backed the walkout with {q} of the vote",
            ],
            quals=("exact", "approximate", "more_than", "almost"),
        ),
        money(
            "strike_losses",
            "losses from the strike",
            2e6,
            2e8,
            [
                "the strike is costing the company {q}",
                "the walkout is draining {q} from the economy",
            ],
            per="day",
        ),
        date(
            "strike_start",
            "date the strike began",
            "past",
            ["workers walked out {on_q}", "the strike began {on_q}"],
        ),
        count(
            "picket_sites",
            "sites picketed",
            6,
            140,
            ["sites", "facilities"],
            ["picket lines went up at {q}", "strikers are picketing outside {q}"],
        ),
        count(
            "replacements",
            "replacement workers hired",
            100,
            5_000,
            ["replacement workers", "temporary workers"],
            ["the company has brought in {q}", "{q} have been hired to keep operations going"],
        ),
    ),
    background=(
        "Picketers carried signs and chanted outside the main gate.",
        "Negotiations broke down after a marathon session that ended without a deal.",
        "Customers were told to expect delays until the dispute is resolved.",
        "The company accused the union of refusing to compromise.",
        "Both sides said they were willing to return to the table.",
        "Supporters dropped off coffee and food for workers on the picket line.",
    ),
    quotes=(
        "We are not asking for anything we have not earned",
        "Our offer is fair and competitive",
        "We will stay out as long as it takes",
        "Nobody wins in a long strike",
    ),
    titles=(
        "Workers walk out in {event}",
        "Talks stall as {event} drags on",
        "Pressure mounts to end {event}",
        "Picket lines grow in {event}",
    ),
)

MILITARY = Domain(
    key="military",
    event_forms=("Operation {name}",),
    names=OPERATION_NAMES,
    agencies=(
        "the Defense Department",
        "the Joint Command",
        "the Foreign Ministry",
        "the Navy",
    ),
    roles=(
        ("Defense Secretary", "the defense secretary"),
        ("Gen.", "the commander of the operation"),
        ("Adm.", "who leads naval forces in the region"),
        ("Press Secretary", "the Pentagon press secretary"),
    ),
    measures=(
        duration(
            "deployment_days",
            "planned length of the deployment",
            30,
            270,
            ["the deployment is expected to last {q}", "the deployment could last {q}"],
        ),
        count(
            "troops",
            "troops deployed",
            500,
            40_000,
            ["troops", "soldiers", "service members"],
            [
                "{q} will deploy to the region",
                "the operation calls for {q}",
                "{q} have already arrived at forward bases",
            ],
            quals=("exact", "approximate", "up_to", "more_than", "at_least", "almost", "vague"),
        ),
        count(
            "warships",
            "warships sent",
            2,
            24,
            ["warships", "ships", "vessels"],
            ["the navy has sent {q} to the area", "{q} are patrolling the strait"],
            quals=("exact", "at_least", "up_to", "more_than"),
        ),
        count(
            "aircraft",
            "aircraft committed",
            6,
            150,
            ["aircraft", "fighter jets"],
            ["{q} are flying missions from the base", "the air force moved {q} into the theater"],
        ),
        rate(
            "sorties",
            "sorties flown per day",
            "day",
            20,
            600,
            ["sorties", "flights"],
            ["pilots are flying {q}", "the coalition is conducting {q}"],
        ),
        money(
            "operation_cost",
            "cost of the operation",
            5e7,
            9e9,
            ["the operation will cost {q}", "lawmakers approved {q} for the mission"],
        ),
        count(
            "aid_delivered",
            "humanitarian aid delivered",
            100,
            20_000,
            ["tons|of humanitarian aid", "tons|of supplies"],
            ["convoys have delivered {q}", "{q} have reached civilians in the border area"],
        ),
        date(
            "start_date",
            "date the operation began",
            "past",
            ["the operation began {on_q}", "the first units moved out {on_q}"],
        ),
        rate(
            "aid_convoys",
            "aid convoys sent per week",
            "week",
            3,
            60,
            ["aid convoys=convoys", "convoys|of supplies"],
            ["the military is sending {q}", "planners have scheduled {q}"],
        ),
        ratio(
            "troop_ratio",
            "size relative to the previous rotation",
            ["the deployment is {q} the size of the previous rotation"],
        ),
        count(
            "displaced",
            "civilians displaced",
            2_000,
            900_000,
            ["civilians", "people"],
            ["{q} have fled the border area", "the fighting has displaced {q}"],
        ),
    ),
    background=(
        "Convoys of trucks rolled through the night toward the border.",
        "Allies were briefed on the plan ahead of the announcement.",
        "Critics in parliament questioned the cost and the lack of a clear exit strategy.",
        "Military officials described the mission as defensive.",
        "Satellite images showed a buildup of equipment at several bases.",
        "Families gathered at the base to see the troops off.",
    ),
    quotes=(
        "Our forces are ready for whatever comes",
        "This is about deterrence, not escalation",
        "We will not be drawn into a wider conflict",
        "The mission has clear goals and clear limits",
    ),
    titles=(
        "{Event} expands as forces arrive",
        "Questions mount over the cost of {event}",
        "Allies back {event}",
        "{Event} enters a new phase",
    ),
)

ENERGY = Domain(
    key="energy",
    event_forms=("the {region} blackout", "the {region} grid emergency"),
    names=("blackout",),
    extras={"company": UTILITIES},
    agencies=(
        "{company}",
        "the grid operator",
        "the {region} Public Utilities Commission",
        "the state energy office",
    ),
    roles=(
        ("Utility Chief Executive", "the head of {company}"),
        ("Energy Secretary", "the energy secretary"),
        ("Commissioner", "a member of the utilities commission"),
        ("Grid Operations Director", "who oversees the grid operator's control room"),
    ),
    measures=(
        count(
            "customers_out",
            "customers who lost power",
            20_000,
            2_500_000,
            ["customers", "households"],
            ["{q} lost power", "the blackout left {q} in the dark"],
        ),
        count(
            "capacity_lost",
            "generating capacity knocked offline",
            300,
            12_000,
            ["megawatts|of generating capacity", "megawatts"],
            ["{q} went offline", "the grid lost {q} in a matter of minutes"],
        ),
        count(
            "peak_demand",
            "peak demand",
            5_000,
            70_000,
            ["megawatts"],
            ["demand peaked at {q}", "electricity use climbed to {q}"],
        ),
        pct(
            "price_spike",
            "wholesale price jump",
            15,
            250,
            decimals=False,
            clauses=["wholesale prices jumped {q}", "spot prices surged {q}"],
        ),
        pct(
            "rate_increase",
            "requested rate increase",
            2,
            18,
            ["customers will see bills rise {q}", "the utility is seeking a rate increase of {q}"],
        ),
        money(
            "repair_cost",
            "repair costs",
            2e7,
            4e9,
            ["repairs will cost {q}", "the utility estimates repair costs at {q}"],
        ),
        date(
            "outage_date",
            "date of the blackout",
            "past",
            ["the lights went out {on_q}", "the grid collapsed {on_q}"],
        ),
        count(
            "line_crews",
            "line workers restoring service",
            200,
            9_000,
            ["line workers", "utility workers"],
            ["{q} were working to restore service", "the utility called in {q}"],
        ),
        rate(
            "restore_rate",
            "customers reconnected per day",
            "day",
            5_000,
            300_000,
            ["customers", "households"],
            ["crews were restoring power to {q}"],
        ),
        money(
            "bill_increase",
            "extra monthly cost per household",
            4,
            60,
            [
                "the average household will pay {q} more",
                "bills will rise by {q} for a typical family",
            ],
            per="month",
            quals=("exact", "approximate", "up_to", "almost"),
        ),
        ratio(
            "demand_ratio",
            "demand relative to a typical day",
            ["demand was {q} the typical level for this time of year"],
        ),
    ),
    background=(
        "Traffic lights went dark, snarling intersections across {place}.",
        "Hospitals switched to backup generators.",
        "Grid operators had warned for months that reserves were thin.",
        "Residents crowded into libraries and malls to charge their phones.",
        "Regulators opened an inquiry into why safeguards failed.",
        "The utility has been criticized for delaying upgrades to aging equipment.",
    ),
    quotes=(
        "We are bringing customers back as fast as we safely can",
        "This should never have happened",
        "The grid was pushed past its limits",
        "We sat in the dark and nobody told us anything",
    ),
    titles=(
        "{Event} leaves {region} in the dark",
        "Inquiry opens into {event}",
        "Crews race to restore power after {event}",
        "What caused {event}? Officials search for answers",
    ),
)

EDUCATION = Domain(
    key="education",
    event_forms=(
        "the {place} school closures",
        "the {place} Unified School District budget crisis",
    ),
    names=("schools",),
    agencies=(
        "the {place} Unified School District",
        "the state education department",
        "the teachers union",
        "the {place} school board",
    ),
    roles=(
        ("Superintendent", "the district superintendent"),
        ("School Board President", "who leads the school board"),
        ("Education Commissioner", "the state education commissioner"),
        ("Principal", "a high school principal in {place}"),
    ),
    measures=(
        count(
            "students",
            "students affected",
            2_000,
            180_000,
            ["students", "children"],
            ["the closures affect {q}", "{q} will be reassigned to other campuses"],
        ),
        count(
            "schools_closing",
            "schools closing",
            3,
            40,
            ["schools", "campuses"],
            ["the district will close {q}", "{q} will shut their doors"],
            quals=("exact", "up_to", "at_least", "approximate"),
        ),
        count(
            "teacher_layoffs",
            "teachers laid off",
            40,
            2_200,
            ["teachers", "educators"],
            ["the district will lay off {q}", "layoff notices went to {q}"],
        ),
        money(
            "shortfall",
            "budget shortfall",
            5e6,
            6e8,
            [
                "the district faces a budget shortfall of {q}",
                "the district must close a deficit of {q}",
            ],
        ),
        pct(
            "enrollment_drop",
            "enrollment decline",
            2,
            25,
            ["enrollment has fallen {q}", "enrollment dropped by {q} since the pandemic"],
        ),
        rate(
            "meals",
            "meals served per day",
            "day",
            2_000,
            150_000,
            ["meals", "free lunches=lunches"],
            ["the district serves {q}"],
        ),
        date(
            "board_vote",
            "date of the board vote",
            "future",
            ["the board will vote on the plan {on_q}", "a final vote is scheduled for {q}"],
        ),
        money(
            "bond",
            "school bond measure",
            5e7,
            2e9,
            [
                "voters approved a bond measure worth {q}",
                "the district is asking voters for {q} in bonds",
            ],
        ),
        ratio(
            "class_size_ratio",
            "class sizes relative to the state average",
            ["some classes are {q} the size the state recommends"],
        ),
    ),
    background=(
        "Parents packed the board meeting, many holding handmade signs.",
        "Teachers worried about larger classes and fewer counselors.",
        "The district has been losing families to charter schools and neighboring towns.",
        "Board members said they had run out of easy options.",
        "Students organized a walkout to protest the plan.",
        "The state has promised technical help but little new money.",
    ),
    quotes=(
        "Our kids should not pay for decisions made by adults",
        "We have to live within our means",
        "This school is the heart of the neighborhood",
        "Every option on the table is painful",
    ),
    titles=(
        "Parents push back on {event}",
        "Board weighs cuts amid {event}",
        "Teachers brace for layoffs in {event}",
        "What {event} means for families",
    ),
)

BUDGET = Domain(
    key="budget",
    event_forms=("the {region} budget fight", "the governor's spending plan"),
    names=("budget",),
    extras={
        "agency": (
            "the Department of Public Works",
            "the Parks Service",
            "the Housing Authority",
            "the Department of Corrections",
        )
    },
    agencies=(
        "the {region} Budget Office",
        "{agency}",
        "the state comptroller's office",
        "the legislative fiscal office",
    ),
    roles=(
        ("Budget Director", "the state budget director"),
        ("Governor", "the governor"),
        ("Comptroller", "the state comptroller"),
        ("Sen.", "who chairs the appropriations committee"),
    ),
    measures=(
        money(
            "budget_total",
            "total proposed spending",
            5e8,
            9e10,
            ["the proposal totals {q}", "the spending plan calls for {q}"],
        ),
        pct(
            "agency_cut",
            "cut to the agency budget",
            3,
            40,
            ["{agency} would see its budget cut by {q}", "funding for {agency} would fall {q}"],
        ),
        count(
            "positions_cut",
            "state positions eliminated",
            100,
            15_000,
            ["positions", "state jobs=jobs"],
            ["the plan would eliminate {q}", "{q} would disappear under the proposal"],
        ),
        count(
            "programs_cut",
            "programs defunded",
            4,
            120,
            ["programs", "grant programs"],
            ["{q} would lose funding", "the plan zeroes out {q}"],
        ),
        date(
            "budget_vote",
            "date of the budget vote",
            "future",
            [
                "lawmakers are expected to vote {on_q}",
                "the legislature must pass the budget {on_q}",
            ],
        ),
        money(
            "deficit",
            "projected deficit",
            1e8,
            3e10,
            ["the state faces a deficit of {q}", "the projected gap has grown to {q}"],
        ),
        money(
            "rebate",
            "rebate per household",
            100,
            2_000,
            ["households would receive rebates of {q}", "each eligible family would get {q}"],
            quals=("exact", "up_to", "approximate"),
        ),
        ratio(
            "spend_ratio",
            "proposed spending relative to last year",
            ["the proposed spending for {agency} is {q} what it received last year"],
        ),
    ),
    background=(
        "Lawmakers traded accusations as the deadline approached.",
        "Advocates for the poor warned that the cuts would fall hardest on them.",
        "The governor defended the plan as responsible and overdue.",
        "Ratings agencies are watching the negotiations closely.",
        "Public employee unions rallied outside the capitol.",
        "Negotiators met behind closed doors for much of the day.",
    ),
    quotes=(
        "We cannot keep spending money we do not have",
        "These cuts will hurt real people",
        "Everything is on the table",
        "This budget reflects our priorities",
    ),
    titles=(
        "Lawmakers clash over {event}",
        "Cuts loom in {event}",
        "Deadline nears in {event}",
        "Unions rally against {event}",
    ),
)

SAFETY = Domain(
    key="safety",
    event_forms=("the crackdown on {name} in {place}",),
    names=(
        "retail theft",
        "car thefts",
        "fentanyl trafficking",
        "illegal street racing",
        "catalytic converter theft",
    ),
    agencies=(
        "the {place} Police Department",
        "the state attorney general's office",
        "the county sheriff's office",
        "the district attorney's office",
    ),
    roles=(
        ("Police Chief", "the city's police chief"),
        ("Attorney General", "the state attorney general"),
        ("Sheriff", "the county sheriff"),
        ("Mayor", "the mayor of {place}"),
    ),
    measures=(
        age(
            "suspect_age",
            "age of the suspect charged",
            19,
            64,
            ["the suspect charged in the case was {q}", "the man charged was {q}"],
        ),
        count(
            "arrests",
            "arrests made",
            40,
            9_000,
            ["arrests"],
            [
                "officers have made {q}",
                "the operation has led to {q}",
                "police reported {q} during the opening phase",
            ],
        ),
        count(
            "officers",
            "officers assigned",
            50,
            3_000,
            ["officers", "agents", "deputies"],
            ["{q} have been assigned to the operation", "the department shifted {q} to the effort"],
            quals=("exact", "approximate", "up_to", "more_than", "at_least", "vague"),
        ),
        rate(
            "arrest_target",
            "daily arrest target",
            "day",
            10,
            500,
            ["arrests"],
            ["commanders set a goal of {q}", "officers were told to make {q}"],
        ),
        money(
            "seized",
            "value of goods and drugs seized",
            5e5,
            2e8,
            [
                "officers seized drugs and goods worth {q}",
                "police recovered property valued at {q}",
            ],
        ),
        pct(
            "crime_drop",
            "drop in reported crime",
            5,
            45,
            [
                "reported incidents fell {q}",
                "complaints have dropped {q} since the operation began",
            ],
        ),
        date(
            "operation_start",
            "date the crackdown began",
            "past",
            ["the crackdown began {on_q}", "officers launched the sweep {on_q}"],
        ),
        money(
            "overtime",
            "weekly overtime spending",
            1e5,
            5e6,
            ["the department is spending {q} on overtime"],
            per="week",
        ),
        rate(
            "weekly_arrests",
            "arrests per week",
            "week",
            20,
            800,
            ["arrests"],
            ["the task force is averaging {q}", "officers have been making {q}"],
        ),
        ratio(
            "arrest_ratio",
            "arrest pace relative to last year",
            ["arrests are running at {q} the pace of last year"],
        ),
    ),
    background=(
        "Civil liberties groups raised concerns about the tactics used in the sweep.",
        "Store owners said they welcomed the added patrols.",
        "Prosecutors warned that courts could be overwhelmed by the new cases.",
        "Community leaders asked for more investment in prevention programs.",
        "Officers were seen patrolling busy shopping districts on foot.",
        "Defense lawyers said many of those arrested were held for minor offenses.",
    ),
    quotes=(
        "We are sending a clear message",
        "Arrests alone will not solve this problem",
        "People deserve to feel safe in their neighborhoods",
        "We will keep the pressure on",
    ),
    titles=(
        "Police expand {event}",
        "Critics question tactics in {event}",
        "Arrests mount in {event}",
        "Mayor defends {event}",
    ),
)

DOMAINS: tuple[Domain, ...] = (
    WILDFIRE,
    STORM,
    LAYOFFS,
    ELECTION,
    HEALTH,
    TRANSPORT,
    STRIKE,
    MILITARY,
    ENERGY,
    EDUCATION,
    BUDGET,
    SAFETY,
)
