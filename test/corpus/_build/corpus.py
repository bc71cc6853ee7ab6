#!/usr/bin/env python3
"""Helpers for test/corpus/build.sh (stdlib only).

  corpus.py write-case TEMPLATE MESSAGE BASE REVISION OUT [PLATFORM]
      case.json from the case's template (case.in.json) and its revision's commit message; with
      PLATFORM (build-oss.sh), report and history come from the template's runs
  corpus.py runs TEMPLATE
      the runs of a real-bug case, one per line: AT(base|revision) PATH EXPECT ATTEMPTS
  corpus.py field TEMPLATE DOTTED.KEY
      one field of a template (a list: one item per line); exits 1 when it is absent
  corpus.py failures REPORT_DIR PLATFORM
      prints the failing tests of a report, one per line (Allure 2: failed or broken test
      cases, not retries; JUnit: testcases with a <failure> or <error>)
  corpus.py check CASE_DIR BUNDLE_CLONE
      the self-check of one built case; prints one line, exits 1 when something is wrong
"""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FIELDS_OUT = (
    "id", "description", "repository", "language", "base", "revision", "report", "history", "truth", "provenance",
)


def description_of(message: str) -> str:
    """The commit message without its trailers (Change-Id and the like)."""
    lines = message.rstrip("\n").split("\n")
    while lines and re.match(r"^[A-Za-z-]+: \S", lines[-1]):
        lines.pop()
    return "\n".join(lines).strip()


def default_runs(verdict: str) -> list[dict]:
    """A base run (the target branch) and the revision run (the failing CI run)."""
    at_base = {"pre_existing": "fail", "caused_by_change": "pass"}.get(verdict, "any")
    return [
        {"at": "base", "path": "history/base", "expect": at_base, "attempts": 1},
        {"at": "revision", "path": "report", "expect": "fail", "attempts": 1},
    ]


def runs_of(template: dict) -> list[dict]:
    runs = template.get("runs") or default_runs(template["truth"]["verdict"])
    if sum(1 for run in runs if run["path"] == "report") != 1:
        raise SystemExit(f"{template['id']}: exactly one run must write the report")
    return [{"attempts": 1, **run} for run in runs]


def print_runs(template: str) -> None:
    for run in runs_of(json.loads(Path(template).read_text(encoding="utf-8"))):
        print(run["at"], run["path"], run["expect"], run["attempts"])


def print_field(template: str, dotted: str) -> None:
    value = json.loads(Path(template).read_text(encoding="utf-8"))
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            sys.exit(1)
        value = value[key]
    print("\n".join(value) if isinstance(value, list) else value)


def write_case(template: str, message: str, base: str, revision: str, out: str, platform: str = "") -> None:
    text = Path(template).read_text(encoding="utf-8").replace("@BASE@", base).replace("@REVISION@", revision)
    case = json.loads(text)
    if platform:
        shas = {"base": base, "revision": revision}
        runs = runs_of(case)
        case["report"] = {"path": "report", "platform": platform}
        case["history"] = [
            {"path": run["path"], "platform": platform, "revision": shas[run["at"]]}
            for run in runs
            if run["path"] != "report"
        ]
    case["description"] = description_of(Path(message).read_text(encoding="utf-8"))
    case["base"] = base
    case["revision"] = revision
    for location in case["truth"]["locations"]:
        location.pop("expect", None)  # the builder's own check, not part of the format
    ordered = {key: case[key] for key in FIELDS_OUT if key in case}
    Path(out).write_text(json.dumps(ordered, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def allure2_failures(report: Path) -> list[str]:
    failing = []
    for path in sorted((report / "data" / "test-cases").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if case.get("retry"):
            continue
        if case.get("status") in ("failed", "broken"):
            failing.append(case.get("fullName") or case.get("name"))
    summary = json.loads((report / "widgets" / "summary.json").read_text(encoding="utf-8"))["statistic"]
    if summary["failed"] + summary["broken"] != len(failing):
        raise SystemExit(f"{report}: summary.json says {summary} but {len(failing)} failing test cases")
    return sorted(failing)


def junit_failures(report: Path) -> list[str]:
    files = [report] if report.is_file() else sorted(report.glob("*.xml"))
    if not files:
        raise SystemExit(f"{report}: no XML files")
    failing = []
    for path in files:
        for case in ET.parse(path).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failing.append(f"{case.get('classname')}.{case.get('name')}")
    return sorted(failing)


def failures(report: str, platform: str) -> list[str]:
    if platform == "allure2":
        return allure2_failures(Path(report))
    if platform == "junit":
        return junit_failures(Path(report))
    raise SystemExit(f"unknown platform {platform}")


def git(clone: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", clone, *args], capture_output=True, text=True)


def check(case_dir: str, clone: str) -> None:
    root = Path(case_dir)
    case = json.loads((root / "case.json").read_text(encoding="utf-8"))
    truth = case["truth"]
    problems = []

    for sha in (case["base"], case["revision"]):
        if git(clone, "cat-file", "-e", f"{sha}^{{commit}}").returncode != 0:
            problems.append(f"commit {sha} not in the bundle")
    if git(clone, "merge-base", "--is-ancestor", case["base"], case["revision"]).returncode != 0:
        problems.append("base is not an ancestor of the revision")

    failing = failures(str(root / case["report"]["path"]), case["report"]["platform"])
    if len(failing) != truth["failures"]:
        problems.append(f"report has {len(failing)} failing tests, truth says {truth['failures']}: {failing}")

    base_note = "no history"
    for entry in case.get("history", []):
        at_base = failures(str(root / entry["path"]), entry["platform"])
        if entry["revision"] != case["base"]:
            continue
        if truth["verdict"] == "pre_existing":
            if at_base != failing:
                problems.append(f"pre-existing: failing at base {at_base} != at revision {failing}")
            base_note = f"base fails the same {len(at_base)}"
        elif truth["verdict"] == "caused_by_change":
            if at_base:
                problems.append(f"the base run has failing tests: {at_base}")
            base_note = "base passes"
        else:  # environment, flaky: the base run may have met the same trouble
            base_note = f"base fails {len(at_base)}"

    template = json.loads((Path(__file__).parent / case["id"] / "case.in.json").read_text(encoding="utf-8"))
    expects = [loc.get("expect") for loc in template["truth"]["locations"]]
    for location, expect in zip(truth["locations"], expects):
        shown = git(clone, "show", f"{case['revision']}:{location['file']}")
        if shown.returncode != 0:
            problems.append(f"{location['file']} does not exist at the revision")
            continue
        lines = shown.stdout.split("\n")
        start, end = location["lines"]
        if not 1 <= start <= end <= len(lines):
            problems.append(f"{location['file']} lines {start}-{end} out of range ({len(lines)} lines)")
            continue
        chosen = "\n".join(lines[start - 1 : end])
        if expect and expect not in chosen:
            problems.append(f"{location['file']}:{start}-{end} does not contain {expect!r}")
        if location["function"] and not re.search(rf"\b{re.escape(location['function'])}\b", shown.stdout):
            problems.append(f"function {location['function']} not found in {location['file']}")

    status = "FAIL" if problems else "ok"
    print(f"{status:4} {case['id']:16} {len(failing)} failing ({truth['verdict']}/{truth['category']}), {base_note}")
    for problem in problems:
        print(f"     - {problem}")
    if problems:
        sys.exit(1)


def main() -> None:
    command, *args = sys.argv[1:]
    if command == "write-case":
        write_case(*args)
    elif command == "runs":
        print_runs(*args)
    elif command == "field":
        print_field(*args)
    elif command == "failures":
        print("\n".join(failures(*args)))
    elif command == "check":
        check(*args)
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
