"""Build the compiled core: every ``ext/*.pyx`` becomes ``kingsolve.<name>``.

``KINGSOLVE_EXT=_core,_domino`` limits a development build to some modules.
With gcc, ``kingsolve._core`` is built profile-guided: compiled with
``-fprofile-generate``, run on ``ext/pgo_train.py`` (a few seconds of searches),
compiled again with ``-fprofile-use`` (about 15% faster searches, measured in
``ext/README.md``). ``KINGSOLVE_PGO=0`` builds it plainly; any failure of the
profiled build falls back to the plain one.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


class ProfileGuidedBuildExt(build_ext):
    """``build_ext`` with gcc's profile-guided optimisation for the search core."""

    def build_extension(self, ext):
        if ext.name != "kingsolve._core" or os.environ.get("KINGSOLVE_PGO", "1") == "0" \
                or not self._gcc():
            return super().build_extension(ext)
        compile_args, link_args = list(ext.extra_compile_args), list(ext.extra_link_args)
        force = self.force
        profile = Path(self.build_temp).resolve() / "pgo-profile"
        shutil.rmtree(profile, ignore_errors=True)
        self.force = True
        try:
            ext.extra_compile_args = compile_args + [f"-fprofile-generate={profile}"]
            ext.extra_link_args = link_args + [f"-fprofile-generate={profile}"]
            super().build_extension(ext)
            subprocess.run([sys.executable, str(HERE / "ext" / "pgo_train.py"),
                            self.get_ext_fullpath(ext.name)], check=True, timeout=600)
            ext.extra_compile_args = compile_args + [
                f"-fprofile-use={profile}", "-fprofile-correction", "-Wno-missing-profile"]
            ext.extra_link_args = link_args
            super().build_extension(ext)
        except Exception as exc:   # the plain build is always there to fall back on
            print(f"warning: profile-guided build of {ext.name} failed ({exc}); "
                  "building it without a profile", file=sys.stderr)
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            super().build_extension(ext)
        finally:
            ext.extra_compile_args, ext.extra_link_args, self.force = compile_args, link_args, force

    def _gcc(self) -> bool:
        """Whether the C compiler is gcc (the profile flags above are its own)."""
        try:
            cc = self.compiler.compiler_so[0]
            out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=60)
        except Exception:
            return False
        return "Free Software Foundation" in out.stdout and "clang" not in out.stdout


setup(
    cmdclass={"build_ext": ProfileGuidedBuildExt},
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
