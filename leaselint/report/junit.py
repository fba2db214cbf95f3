"""JUnit XML: a test suite per file with findings, a failed test case per finding."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from leaselint.diagnostics import FileResult

# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def report(results: list[FileResult], out: TextIO, options: dict) -> None:
    total = sum(len(r.diagnostics) for r in results)
    suites = ET.Element("testsuites", name="leaselint", tests=str(max(total, 1)), failures=str(total), errors="0")
    for result in results:
        if not result.diagnostics:
            continue
        path = _xml(result.path)
        count = str(len(result.diagnostics))
        suite = ET.SubElement(suites, "testsuite", name=path, tests=count, failures=count, errors="0")
        for d in result.diagnostics:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"leaselint.{d.code}",
                classname=path,
                file=path,
                line=str(d.start.line),
            )
            failure = ET.SubElement(case, "failure", message=_xml(d.message), type=d.code)
            failure.text = _xml(f"{path}:{d.start.line}:{d.start.column + 1}: {d.code} {d.message}")
    if not total:
        suite = ET.SubElement(suites, "testsuite", name="leaselint", tests="1", failures="0", errors="0")
        ET.SubElement(suite, "testcase", name="No errors found", classname="leaselint")
    ET.indent(suites)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(suites, encoding="unicode"))
    out.write("\n")
