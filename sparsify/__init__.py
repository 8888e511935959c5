"""sparsify: feature selection with worst-case guarantees (NumPy/SciPy only)."""

from . import datasets
from .selection import Selection

__all__ = ["Selection", "datasets"]
