"""The class pool: what a class's pages record as students play, and what the class board reads.

- Records (`records`): `RollRecord`, `TurnRecord`, `DrawRecord`, `BarnyardRecord`, checked when
  built; anonymous (a random page id, no names), stamped with the class session.
- Stores (`base`, `sqlite`, `postgres`, `stores`): `ClassStore`, with `SQLiteStore` (the embedded
  default, in the server's data folder) and `PostgresStore` (several servers, one class);
  `open_store` picks one from a path, a postgresql:// URL or HENKIT_CLASS_DB.
- `Recorder`: what widgets call; never breaks a page when the store is unreachable.
- `limits`: no page records faster than a person clicks (`PERSON`, `most_allowed`); what goes
  past is counted and the board says it. Records of a typed, replayed or pinned seed are stored
  marked (`Record.fresh` False) and left out of the pooled chances.
- `page_recorder()`: the kernel's one background Recorder on the default store, for every widget;
  `pool_observer(recorder, who)`: a `Game` observer turning moves into records (`observe`).
- `cli`: `henkit class new | status | export --csv`, for the server's command line only.
"""

from henkit.classpool.base import (
    AGGREGATES,
    Board,
    ClassStore,
    SessionCount,
    StoreError,
    StoreReplaced,
    StoreStatus,
    Summary,
)
from henkit.classpool.limits import PERSON, Limit, RateLimiter, most_allowed
from henkit.classpool.observe import pool_observer, seat_names, who_of
from henkit.classpool.page import close_page_recorder, page_recorder
from henkit.classpool.postgres import PostgresStore
from henkit.classpool.recorder import Recorder
from henkit.classpool.records import (
    CSV_COLUMNS,
    KINDS,
    BarnyardRecord,
    DrawRecord,
    Record,
    RollRecord,
    TurnRecord,
    new_page_id,
    read_csv,
    write_csv,
)
from henkit.classpool.sqlite import SQLiteStore
from henkit.classpool.stores import ENV, default_data_dir, open_store

__all__ = [
    "AGGREGATES",
    "CSV_COLUMNS",
    "ENV",
    "KINDS",
    "PERSON",
    "BarnyardRecord",
    "Board",
    "ClassStore",
    "DrawRecord",
    "Limit",
    "PostgresStore",
    "RateLimiter",
    "Record",
    "Recorder",
    "RollRecord",
    "SQLiteStore",
    "SessionCount",
    "StoreError",
    "StoreReplaced",
    "StoreStatus",
    "Summary",
    "TurnRecord",
    "close_page_recorder",
    "default_data_dir",
    "most_allowed",
    "new_page_id",
    "open_store",
    "page_recorder",
    "pool_observer",
    "read_csv",
    "seat_names",
    "who_of",
    "write_csv",
]
