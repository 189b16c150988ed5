"""Result rows as lazy queries: every table of the stats layer is an aggregation over the runs'
Parquet chunks, and only the aggregated table is ever materialised.

``lazy`` takes rows in any of the forms callers hold (a LazyFrame over the chunks, a polars or a
pandas DataFrame in tests and small studies) and ``collect`` runs a query on polars' streaming
engine, which reads the chunks in batches and keeps only the running aggregates, so that memory
follows the size of the table produced, not the number of games.
"""

import pandas as pd
import polars as pl

__all__ = ["collect", "column_names", "is_empty", "lazy"]


def lazy(rows) -> pl.LazyFrame:
    """``rows`` (a polars LazyFrame or DataFrame, or a pandas DataFrame) as a LazyFrame."""
    if isinstance(rows, pl.LazyFrame):
        return rows
    if isinstance(rows, pd.DataFrame):
        return pl.from_pandas(rows).lazy()
    return rows.lazy()


def collect(query: pl.LazyFrame) -> pl.DataFrame:
    """The result of ``query``, computed on the streaming engine (batches of rows at a time)."""
    return query.collect(engine="streaming")


def column_names(rows) -> list[str]:
    """The column names of ``rows`` in any form ``lazy`` accepts, without reading any row."""
    return lazy(rows).collect_schema().names()


def is_empty(rows) -> bool:
    """Whether ``rows`` (any form ``lazy`` accepts) hold no row; reads no more than the row count."""
    if not column_names(rows):
        return True
    return collect(lazy(rows).select(pl.len())).item() == 0
