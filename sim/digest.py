"""The one short form in which a person reads a data file's content hash, wherever it is shown: in a
game id (``data=components:35935f0617a8``), a report's header, ``bgsim data`` and a tournament's
provenance. Files are always hashed in full (sha256); only the form a person reads is short, and it
is the same everywhere, so the same data show the same hash.

Engine-free: the engine, the results files and the reports all use it.
"""

__all__ = ["DIGEST_HEX", "data_digests", "short_digest"]

DIGEST_HEX = 12  # hex digits: 48 bits, far beyond the few data files a person compares


def short_digest(sha256: str | None) -> str:
    """The first ``DIGEST_HEX`` hex digits of a file's sha256 ("" for none)."""
    return (sha256 or "")[:DIGEST_HEX]


def data_digests(files: dict) -> str:
    """``name:digest`` of each data file, in name order, joined by "+" (``files``: data file name ->
    its sha256, or its info dict with one under "sha256"); "" for none."""
    digests = {name: info["sha256"] if isinstance(info, dict) else info for name, info in files.items()}
    return "+".join(f"{name}:{short_digest(sha)}" for name, sha in sorted(digests.items()))
