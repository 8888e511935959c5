"""Each class on the API pages lists the methods a user calls, and names only public bases.

The estimators inherit their methods from private classes and scikit-learn; the API
pages must still list them (``docs/griffe_public_bases.py``), and the "Bases:" line of a
class must not send the reader to a private class. The methods expected are read from
the classes themselves (``hasattr``), so the test follows the code.

griffe reads the source, not the objects: a docstring built at import time
(``__doc__ = "..." + _DOC_PARAMETERS.format(...)``) and a class attribute
``path = staticmethod(lasso_path)`` need ``docs/griffe_runtime_docs.py``. Their entries
are checked against the runtime objects (numpydoc's parser of ``cls.__doc__``,
``hasattr(cls, "path")``).
"""

import ast
import importlib
import inspect
import re
import textwrap
from html.parser import HTMLParser

import pytest

#: Methods a user calls, checked on every class of the API pages that has them.
USER_METHODS = (
    "fit", "partial_fit", "predict", "predict_proba", "decision_function", "score",
    "transform", "fit_transform", "inverse_transform", "get_feature_names_out",
    "get_support", "get_params", "set_params",
)
#: The estimators of the issue (their methods were all inherited, and none was listed).
ESTIMATORS = (
    "SVMDual", "L2SVM", "L1SVM", "SVM2", "WeightedLasso", "RLSC",
    "L1SVMCV", "SVM2CV", "WeightedLassoCV",
)
#: The classes whose docstring is built at import time (``solvers/cv.py``).
RUNTIME_DOCSTRINGS = ("L1SVMCV", "SVM2CV", "WeightedLassoCV")
#: The classes with a ``path`` static method (a class attribute) and ``lam_max``.
PATH_CLASSES = ("L1SVM", "SVM2", "WeightedLasso")
PRIVATE_CLASS = re.compile(r"\b_[A-Z]\w*")
_HEADING = re.compile(r"h[1-6]")


class _Page(HTMLParser):
    """A page's headings (ids and text), its classes' "Bases:" lines, each entry's text.

    ``text[id]`` and ``code[id]`` are the text and the ``<code>`` spans between the
    heading ``id`` and the next heading: a class's docstring (its Parameters and
    Attributes tables) comes before the headings of its members.
    """

    def __init__(self, html):
        super().__init__()
        self.headings = {}   # heading id -> its element's classes
        self.heading_text = []
        self.bases = {}      # id of the class heading -> the text of its "Bases:" line
        self.text = {}       # heading id -> the text up to the next heading
        self.code = {}       # heading id -> the <code> spans up to the next heading
        self._open = []      # [tag, its text so far, key] of the headings/bases lines open
        self._last_id = None
        self._code = []      # the text of the <code> elements open
        self.feed(html)
        self.text = {key: " ".join("".join(text).split()) for key, text in self.text.items()}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if _HEADING.fullmatch(tag):
            if attrs.get("id"):
                self.headings[attrs["id"]] = classes
                self._last_id = attrs["id"]
                self.text.setdefault(self._last_id, [])
                self.code.setdefault(self._last_id, set())
            self._open.append([tag, [], None])
        elif tag == "p" and "doc-class-bases" in classes:
            self._open.append([tag, [], self._last_id])
        elif tag == "code":
            self._code.append([])

    def handle_endtag(self, tag):
        if self._open and self._open[-1][0] == tag:
            _, text, key = self._open.pop()
            text = " ".join("".join(text).split())
            if key is None:
                self.heading_text.append(text)
            else:
                self.bases[key] = text
        elif tag == "code" and self._code:
            code = "".join(self._code.pop()).strip()
            if self._last_id is not None and not self._in_heading():
                self.code[self._last_id].add(code)

    def handle_data(self, data):
        for _, text, _ in self._open:
            text.append(data)
        for code in self._code:
            code.append(data)
        if self._last_id is not None and not self._in_heading():
            self.text[self._last_id].append(data)

    def _in_heading(self):
        return any(_HEADING.fullmatch(tag) for tag, _, _ in self._open)


def _import(path):
    """The object at a dotted ``path`` (``solvers.svm.L1SVM``), or None."""
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return None


@pytest.fixture(scope="module")
def api_pages(site):
    """``{file name: page}`` of the API pages; ``page.classes``: {heading id: class}."""
    pages = {}
    for path in sorted((site / "api").glob("*.html")):
        page = pages[path.name] = _Page(path.read_text())
        page.classes = {
            ident: obj for ident, classes in page.headings.items()
            if "doc-heading" in classes and inspect.isclass(obj := _import(ident))
        }
    return pages


def test_every_class_lists_the_methods_a_user_calls(api_pages):
    checked = set()
    missing = []
    for name, page in api_pages.items():
        for ident, cls in page.classes.items():
            checked.add(cls.__name__)
            for method in USER_METHODS:
                if hasattr(cls, method) and f"{ident}.{method}" not in page.headings:
                    missing.append(f"{name}: {ident}.{method}")
    assert set(ESTIMATORS) <= checked
    assert missing == []


def test_the_estimators_list_fit_predict_and_decision_function(api_pages):
    page = api_pages["estimators.html"]
    classes = {cls.__name__: ident for ident, cls in page.classes.items()}
    for name in ESTIMATORS:
        ident = classes[name]
        expected = ["fit", "predict"]
        if hasattr(page.classes[ident], "decision_function"):   # the classifiers
            expected.append("decision_function")
        assert [m for m in expected if f"{ident}.{m}" not in page.headings] == [], ident


def test_no_private_member_is_listed(api_pages):
    for name, page in api_pages.items():
        for ident in page.classes:
            members = [i.removeprefix(ident + ".") for i in page.headings
                       if i.startswith(ident + ".")]
            assert not [m for m in members if m.startswith("_")], f"{name}: {ident}"


def test_headings_and_bases_name_no_private_class(api_pages):
    assert len(api_pages["estimators.html"].bases) >= len(ESTIMATORS)
    for name, page in api_pages.items():
        for text in [*page.bases.values(), *page.heading_text]:
            assert not PRIVATE_CLASS.search(text), f"{name}: {text!r}"


def _is_public(cls):
    path = f"{cls.__module__}.{cls.__qualname__}"
    return not any(part.startswith("_") for part in path.split("."))


def test_public_bases_are_still_shown(api_pages):
    """A base of a public module (``WeightedLasso``, ``RuntimeError``) stays on "Bases:"."""
    checked = 0
    for name, page in api_pages.items():
        for ident, cls in page.classes.items():
            public = {base.__name__ for base in cls.__bases__
                      if base is not object and _is_public(base)}
            if public:
                checked += 1
                shown = page.bases.get(ident, "").removeprefix("Bases:").replace(",", " ")
                assert public <= set(shown.split()), f"{name}: {ident} shows {shown!r}"
    assert checked


def _docstring_is_built_at_import(cls):
    """Whether ``cls`` has a docstring of its own that is no string literal in its source."""
    if not isinstance(vars(cls).get("__doc__"), str):
        return False
    try:
        node = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return False
    return ast.get_docstring(node) is None


def test_docstrings_built_at_import_are_shown(api_pages):
    """The runtime ``__doc__``'s summary, parameters and attributes are on the page."""
    numpydoc = pytest.importorskip("numpydoc.docscrape")
    checked = set()
    for name, page in api_pages.items():
        for ident, cls in page.classes.items():
            if not _docstring_is_built_at_import(cls):
                continue
            checked.add(cls.__name__)
            doc = numpydoc.NumpyDocString(inspect.cleandoc(cls.__doc__))
            summary = " ".join(" ".join(doc["Summary"]).split())
            names = [p.name for p in (*doc["Parameters"], *doc["Attributes"])]
            assert summary and names, f"{name}: {ident}"
            assert summary in page.text[ident], f"{name}: {ident}"
            missing = [n for n in names if n not in page.code[ident]]
            assert missing == [], f"{name}: {ident} lacks {missing}"
    assert set(RUNTIME_DOCSTRINGS) <= checked


def test_path_and_lam_max_are_listed(api_pages):
    """``path`` (a static method set as a class attribute) and ``lam_max`` have entries.

    ``path``'s entry names the function it is and gives that function's summary.
    """
    checked = set()
    for name, page in api_pages.items():
        for ident, cls in page.classes.items():
            members = [m for m in ("path", "lam_max") if hasattr(cls, m)]
            if not members:
                continue
            checked.add(cls.__name__)
            missing = [m for m in members if f"{ident}.{m}" not in page.headings]
            assert missing == [], f"{name}: {ident} lacks {missing}"
            if "path" in members and callable(cls.path):
                text = page.text[f"{ident}.path"]
                summary = inspect.getdoc(cls.path).split("\n\n")[0]
                assert cls.path.__name__ in text, f"{name}: {ident}.path: {text!r}"
                assert " ".join(summary.split()) in text, f"{name}: {ident}.path: {text!r}"
    assert set(PATH_CLASSES) <= checked
