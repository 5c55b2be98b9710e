"""Guarded file reading shared by every StoneCave package (see ``guarded.files``)."""
