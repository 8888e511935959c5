"""Griffe extension (mkdocs.yml, mkdocstrings ``extensions:``): the docstrings' Sphinx idioms.

The package's docstrings are numpydoc, with two Sphinx idioms griffe does not read:

- constants documented by ``#:`` comments above the assignment::

      #: Default tolerance on the relative duality gap.
      GAP_TOLERANCE = 1e-6

  griffe reads only a string literal *below* an assignment, so the block of ``#:``
  lines right above an attribute without a docstring becomes its docstring;
- cross-reference roles such as ``:class:`Certificate``` and ``:func:`~x.margin```,
  which would show verbatim; they become inline code (``Certificate``, ``margin``).
"""

import re

import griffe

_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj):`(~?)([^`]+)`")


def _plain_role(match):
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


class SphinxComments(griffe.Extension):
    """Read ``#:`` comments as docstrings, and Sphinx roles as inline code."""

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
            text = _ROLE.sub(_plain_role, "\n".join(comment))
            attr.docstring = griffe.Docstring(
                text, lineno=attr.lineno - len(comment), parent=attr
            )

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(_plain_role, obj.docstring.value)
