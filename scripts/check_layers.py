#!/usr/bin/env python3
"""The layers' include rules (docs/architecture.md), checked over every C++ file:

  core/      includes no Qt and nothing from files/, exports/ or app/;
  files/     includes nothing from exports/ or app/;
  exports/   includes nothing from app/; a wing (exports/WING/) includes its own headers and
             paint/'s, never another wing's nor the door's (exports/*.h); paint/ includes no wing.

Prints each broken rule as FILE:LINE: error: ... and exits 1 when there is one.
Usage: scripts/check_layers.py [ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
include = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
wings = {"paint", "pdf", "worksheet", "html", "notebook", "bundle"}


def problem(source: pathlib.PurePosixPath, target: str) -> str:
    """Why SOURCE (relative to the root) may not include TARGET, or "" when it may."""
    layer = source.parts[0]
    if layer == "core":
        if target.startswith("Q") or target.startswith("qt"):
            return "core/ is Qt-free"
        if target.split("/")[0] in {"files", "exports", "app"}:
            return "core/ includes nothing above it"
    if layer == "files" and target.split("/")[0] in {"exports", "app"}:
        return "files/ includes nothing from exports/ or app/"
    if layer == "exports":
        if target.startswith("app/"):
            return "exports/ includes nothing from app/"
        wing = source.parts[1] if len(source.parts) > 2 else None
        if wing and target.startswith("exports/"):
            parts = target.split("/")
            target_wing = parts[1] if len(parts) > 2 else None
            if target_wing is None:
                return f"the {wing} wing includes the door ({target})"
            if target_wing != wing and target_wing != "paint":
                return f"the {wing} wing includes the {target_wing} wing"
    return ""


broken = 0
checked = 0
for folder in ("core", "files", "exports"):
    for path in sorted((root / folder).rglob("*")):
        if path.suffix not in {".h", ".cpp"}:
            continue
        checked += 1
        relative = pathlib.PurePosixPath(path.relative_to(root).as_posix())
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = include.match(line)
            if match and (why := problem(relative, match.group(1))):
                print(f"{relative}:{number}: error: {why}: #include {match.group(1)}")
                broken += 1
print(f"layers: {checked} files, {broken} include{'s' if broken != 1 else ''} against the rules")
sys.exit(1 if broken else 0)
