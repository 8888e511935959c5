"""Griffe extension (mkdocs.yml, mkdocstrings ``extensions:``): ``#:`` comments document.

The package documents its constants with Sphinx-style comments above the assignment::

    #: Default tolerance on the relative duality gap.
    GAP_TOLERANCE = 1e-6

Griffe reads only a string literal *below* an assignment, so this extension turns the
block of ``#:`` lines right above an attribute without a docstring into its docstring.
"""

import griffe


class SphinxComments(griffe.Extension):
    """Give an attribute the ``#:`` comment block right above it as its docstring."""

    def on_attribute_instance(self, *, attr, **kwargs):
        if attr.docstring is not None or not attr.lineno:
            return
        lines = attr.lines_collection[attr.filepath]
        comment = []
        for line in reversed(lines[: attr.lineno - 1]):
            text = line.strip()
            if not text.startswith("#:"):
                break
            comment.insert(0, text[2:].removeprefix(" "))
        if comment:
            attr.docstring = griffe.Docstring(
                "\n".join(comment), lineno=attr.lineno - len(comment), parent=attr
            )
