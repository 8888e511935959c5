"""sparsify: feature selection with worst-case guarantees (NumPy/SciPy only).

Functions return a `Selection` (indices and scales: the sampling-and-rescaling
matrix R of the papers); transformers wrap them for scikit-learn pipelines.
"""

from . import datasets, utils
from .bss import bss, bss_bounds
from .distortion import spectral_distortion
from .leverage import leverage_sample, leverage_scores
from .rrqr import rrqr
from .scores import document_frequency, information_gain, weight_scores
from .selection import Selection
from .selectors import (
    BSSSelector,
    DocFreqSelector,
    InfoGainSelector,
    LeverageSelector,
    RRQRSelector,
    SketchedBSSSelector,
    UniformSelector,
    WeightSelector,
)

__all__ = [
    "Selection",
    "bss",
    "bss_bounds",
    "spectral_distortion",
    "leverage_scores",
    "leverage_sample",
    "rrqr",
    "information_gain",
    "document_frequency",
    "weight_scores",
    "BSSSelector",
    "LeverageSelector",
    "RRQRSelector",
    "UniformSelector",
    "WeightSelector",
    "DocFreqSelector",
    "InfoGainSelector",
    "SketchedBSSSelector",
    "datasets",
    "utils",
]
