"""Each class on the API pages lists the methods a user calls, and names only public bases.

The estimators inherit their methods from private classes and scikit-learn; the API
pages must still list them (``docs/griffe_public_bases.py``), and the "Bases:" line of a
class must not send the reader to a private class. The methods expected are read from
the classes themselves (``hasattr``), so the test follows the code.
"""

import importlib
import inspect
import re
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
PRIVATE_CLASS = re.compile(r"\b_[A-Z]\w*")


class _Page(HTMLParser):
    """A page's headings (ids and text) and the text of its classes' "Bases:" lines."""

    def __init__(self, html):
        super().__init__()
        self.headings = {}   # heading id -> its element's classes
        self.heading_text = []
        self.bases = {}      # id of the class heading -> the text of its "Bases:" line
        self._open = []      # [tag, its text so far, key] of the headings/bases lines open
        self._last_id = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if re.fullmatch(r"h[1-6]", tag):
            if attrs.get("id"):
                self.headings[attrs["id"]] = classes
                self._last_id = attrs["id"]
            self._open.append([tag, [], None])
        elif tag == "p" and "doc-class-bases" in classes:
            self._open.append([tag, [], self._last_id])

    def handle_endtag(self, tag):
        if self._open and self._open[-1][0] == tag:
            _, text, key = self._open.pop()
            text = " ".join("".join(text).split())
            if key is None:
                self.heading_text.append(text)
            else:
                self.bases[key] = text

    def handle_data(self, data):
        for _, text, _ in self._open:
            text.append(data)


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
