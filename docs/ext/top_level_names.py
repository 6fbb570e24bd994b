"""A Griffe extension for the API reference: the names ``puzzlebench`` gives lazily.

The package's ``__init__`` resolves its public names in a module ``__getattr__`` (``import
puzzlebench`` loads nothing), which reading the source cannot see.  This adds each such name to
the package as an alias of the object Python gives for it, so ``::: puzzlebench.solve`` renders
the function where it is defined, whichever module that is.
"""

import importlib

import griffe


class TopLevelNames(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs) -> None:
        if pkg.path != "puzzlebench":
            return
        module = importlib.import_module(pkg.path)
        for name in dir(module):
            if name.startswith("_") or name in pkg.members:
                continue
            target = getattr(module, name)
            defined_in = getattr(target, "__module__", None) or ""
            if defined_in.startswith(f"{pkg.path}."):
                pkg.set_member(name, griffe.Alias(name, f"{defined_in}.{name}", parent=pkg))
