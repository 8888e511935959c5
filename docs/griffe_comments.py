"""Griffe extension (mkdocs.yml, mkdocstrings ``extensions:``): the docstrings' Sphinx idioms.

The package's docstrings are numpydoc, with two Sphinx idioms griffe does not read:

- constants documented by ``#:`` comments above the assignment::

      #: Default tolerance on the relative duality gap.
      GAP_TOLERANCE = 1e-6

  griffe reads only a string literal *below* an assignment, so the block of ``#:``
  lines right above an attribute without a docstring becomes its docstring;
- cross-reference roles such as ``:class:`Certificate``` and ``:func:`~x.margin```,
  which would show verbatim; they become inline code (``Certificate``, ``margin``).

The docstrings of scikit-learn's methods the estimators inherit (``score``,
``get_params``, ..., on the API pages through ``docs/griffe_public_bases.py``) also use
``:ref:`text <label>``` and ``:term:`text``` (their text is kept), ``:math:`R^2```
(inline code) and ``.. versionadded:: 1.4`` ("Added in version 1.4:").
"""

import re

import griffe

_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj):`(~?)([^`]+)`")
#: ``:ref:`text <label>```, ``:term:`text <entry>```: the text; ``:term:`x```: x.
_TEXT_ROLE = re.compile(r":(?:ref|term):`([^`<]+?)\s*<[^`>]*>`|:term:`([^`]+)`")
#: ``:ref:`label``` (no text) and ``:math:`x```: inline code.
_CODE_ROLE = re.compile(r":(?:ref|math):`([^`]+)`")
_VERSION = re.compile(r"^(\s*)\.\. version(added|changed)::\s*(\S+)", re.M)


def _plain_role(match):
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


def _plain(text):
    """The docstring ``text`` with its Sphinx roles and version directives made plain."""
    text = _ROLE.sub(_plain_role, text)
    text = _TEXT_ROLE.sub(lambda match: match.group(1) or match.group(2), text)
    text = _CODE_ROLE.sub(r"`\1`", text)
    return _VERSION.sub(lambda m: f"{m[1]}{m[2].capitalize()} in version {m[3]}:", text)


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
            text = _plain("\n".join(comment))
            attr.docstring = griffe.Docstring(
                text, lineno=attr.lineno - len(comment), parent=attr
            )

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = _plain(obj.docstring.value)
