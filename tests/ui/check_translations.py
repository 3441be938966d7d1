#!/usr/bin/env python3
"""Fails when a user-visible string escapes translation: runs lupdate over the sources into a copy of every shipped
.ts file and reports entries that are new (unfinished), untranslated, or whose translation loses a placeholder, a
tag or a keyboard mnemonic. Usage: check_translations.py LUPDATE SOURCE_ROOT."""
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

SCANNED = ["core", "present/src", "present/include", "catalogs", "ui"]


def problems_in(ts: Path) -> list[str]:
    out = []
    for ctx in ET.parse(ts).getroot().findall("context"):
        name = ctx.find("name").text
        for m in ctx.findall("message"):
            source = m.find("source").text or ""
            tr = m.find("translation")
            texts = [f.text or "" for f in tr.findall("numerusform")] or [tr.text or ""]
            where = f"{ts.name}: [{name}] {source[:70]!r}"
            if tr.get("type") in ("unfinished", "vanished", "obsolete") or not all(t.strip() for t in texts):
                out.append(f"{where}: not translated ({tr.get('type') or 'empty'})")
                continue
            if m.get("numerus") == "yes" and ts.stem.endswith("_en") and len(texts) != 2:
                out.append(f"{where}: English needs two plural forms, has {len(texts)}")
            for t in texts:
                if Counter(re.findall(r"%[1-9n]", source)) != Counter(re.findall(r"%[1-9n]", t)):
                    out.append(f"{where}: placeholders differ in {t[:70]!r}")
                if Counter(re.findall(r"</?[a-zA-Z][^>]*>", source)) != Counter(re.findall(r"</?[a-zA-Z][^>]*>", t)):
                    out.append(f"{where}: HTML tags differ in {t[:70]!r}")
                mnemonic = re.search(r"&([A-Za-z0-9])", source.replace("&&", ""))
                if mnemonic and not re.search(r"&[a-z]+;", source) and f"&{mnemonic.group(1).upper()}" not in t.upper():
                    out.append(f"{where}: keyboard mnemonic &{mnemonic.group(1)} lost in {t[:70]!r}")
    return out


def main() -> int:
    lupdate, root = sys.argv[1], Path(sys.argv[2])
    shipped = sorted((root / "resources" / "translations").glob("*.ts"))
    if not shipped:
        print("no .ts files shipped")
        return 1
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for ts in shipped:
            copy = Path(tmp) / ts.name
            shutil.copy(ts, copy)
            # The source language's catalog holds plural forms only ("1 GPU" / "4 GPUs").
            plural_only = ["-pluralonly"] if ts.stem.endswith("_en") else []
            subprocess.run([lupdate, *[str(root / d) for d in SCANNED], "-extensions", "cpp,h", "-no-obsolete",
                            *plural_only, "-locations", "none", "-silent", "-ts", str(copy)], check=True)
            found = problems_in(copy)
            print(f"{ts.name}: {len(found)} problem(s)")
            failures += found
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
