"""A griffe extension of ``make docs``: a docstring's ``>>>`` examples shown as code.

kingsolve's docstrings are prose with doctest examples, which Markdown alone would read
as nested quotes (and their ``[...]`` as links): each example, from its first ``>>>``
line to the blank line that ends it as it ends a doctest, is put in a ``pycon`` fence.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_example:
            indent = line[:len(line) - len(line.lstrip())]
            out += ([""] if out and out[-1].strip() else []) + [indent + "```pycon"]
            in_example = True
        elif in_example and not line.strip():
            out += [indent + "```"]
            in_example = False
        out.append(line)
    if in_example:
        out.append(indent + "```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring griffe reads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
