"""Build the compiled core: every ``ext/*.pyx`` becomes ``kingsolve.<name>``.

``KINGSOLVE_EXT=_core,_domino`` limits a development build to some modules.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
only = {n for n in os.environ.get("KINGSOLVE_EXT", "").split(",") if n}
extensions = [
    Extension(
        f"kingsolve.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O3", "-fno-strict-aliasing"],
    )
    for pyx in sorted((HERE / "ext").glob("*.pyx"))
    if not only or pyx.stem in only
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["ext"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
