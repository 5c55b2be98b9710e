"""Guarded file reading and writing shared by every StoneCave package (see ``guarded.files`` and
``guarded.records``)."""
from guarded.records import RecordLines, RecordWriter, cut, read_lines, split_lines

__all__ = ["RecordLines", "RecordWriter", "cut", "read_lines", "split_lines"]
