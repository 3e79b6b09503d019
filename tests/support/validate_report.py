"""Check reports written by the C++ front end against docs/report.schema.json.

    validate_report.py FILE...          each FILE holds one report (or a `lessons run --json`
                                        object, whose two reports are checked); exit 0 when all
                                        follow the schema and list no internal_errors, 1 otherwise
                                        (each problem on a line)
    validate_report.py --run CMD...     runs CMD, passes its output through, checks the JSON it
                                        printed on stdout, and exits with CMD's exit code, or 99
                                        when a report does not follow the schema
"""

import json
import os
import subprocess
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "report.schema.json")


def reports_in(document):
    """The schema-1 reports a document holds: itself, or the reports of a lessons run."""
    if isinstance(document, dict) and isinstance(document.get("runs"), dict):
        return [(f"runs.{side}.report", run.get("report")) for side, run in document["runs"].items()]
    return [("report", document)]


def problems(document, validator):
    found = []
    for where, report in reports_in(document):
        for error in sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path)):
            path = "/".join(str(p) for p in error.absolute_path) or "(top)"
            found.append(f"{where}: {path}: {error.message[:300]}")
        # A failure of the studio's own code that the run survived is a bug to fix, not a pass.
        for entry in (report.get("internal_errors") or []) if isinstance(report, dict) else []:
            if isinstance(entry, dict):
                found.append(f"{where}: internal_errors: {entry.get('where')}: {str(entry.get('error'))[:300]} "
                             f"at {entry.get('at')} ({entry.get('count', 1)}x)")
    return found


def main(argv):
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    if argv and argv[0] == "--run":
        done = subprocess.run(argv[1:], stdout=subprocess.PIPE)
        sys.stdout.write(done.stdout.decode("utf-8", "replace"))
        try:
            document = json.loads(done.stdout)
        except ValueError as e:
            print(f"validate_report: the command printed no JSON report: {e}", file=sys.stderr)
            return 99
        found = problems(document, validator)
        for p in found:
            print(f"validate_report: {p}", file=sys.stderr)
        return 99 if found else done.returncode
    found = []
    for name in argv:
        with open(name) as f:
            found += [f"{name}: {p}" for p in problems(json.load(f), validator)]
    for p in found:
        print(p)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
