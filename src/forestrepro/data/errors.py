"""Errors raised by the data layer."""

from __future__ import annotations


class DatasetError(Exception):
    """A data set cannot be loaded: bad config, corrupt or mismatching data, or no source left."""


class SourceUnavailable(DatasetError):
    """One source cannot provide the data (file absent, no OpenML id, network down).

    The loader moves on to the next configured source; every other ``DatasetError`` (wrong
    checksum, wrong shape) stops it at once, so corrupt data never falls through to other data.
    """
