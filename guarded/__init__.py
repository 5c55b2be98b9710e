"""Guarded file reading and writing shared by every StoneCave package (see ``guarded.files``,
``guarded.records`` and ``guarded.binary``)."""
from guarded import binary
from guarded.records import RecordLines, RecordWriter, cut, read_lines, split_lines

__all__ = ["RecordLines", "RecordWriter", "binary", "cut", "read_lines", "split_lines"]
