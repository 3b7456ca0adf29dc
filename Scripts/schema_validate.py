#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema with the jsonschema package (PyPI): the tests'
validator, independent of lpcheck's code. The schema's own "$schema" chooses the draft (2020-12
for lpcheck's, draft-04 for SARIF 2.1.0's).

  schema_validate.py SCHEMA [--known-keywords]  < one JSON document a line
  > one line a document: a JSON array of the problems found (empty when valid)

The schema is first checked against its draft's metaschema. With --known-keywords, a keyword
outside KNOWN anywhere in the schema is refused too: the standard ignores a keyword it does not
know, so a misspelt "maximun" would otherwise check nothing. Exit 2 when the schema is refused.
"""
import json, sys
from jsonschema import validators

# Validation keywords lpcheck's schemas may use, and the annotations beside them.
KNOWN = {"type", "required", "properties", "items", "minimum", "maximum", "$ref", "enum", "const", "oneOf",
         "allOf", "anyOf", "if", "then", "else", "additionalProperties", "minItems", "maxItems", "minLength",
         "pattern", "$schema", "$id", "$defs", "title", "description"}


def unknown_keywords(schema):
    found, pending = [], [(schema, "#")]
    while pending:
        node, pointer = pending.pop()
        if isinstance(node, list):
            pending.extend((item, f"{pointer}/{index}") for index, item in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            if key not in KNOWN:
                found.append(f"{pointer}: unknown keyword {key!r}")
            if key in ("properties", "$defs"):
                pending.extend((sub, f"{pointer}/{key}/{name}") for name, sub in value.items())
            elif key not in ("enum", "const", "required", "description", "title"):
                pending.append((value, f"{pointer}/{key}"))
    return found


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        schema = json.load(handle)
    kind = validators.validator_for(schema)
    kind.check_schema(schema)
    if "--known-keywords" in sys.argv[2:]:
        problems = unknown_keywords(schema)
        if problems:
            sys.stderr.write("\n".join(problems) + "\n")
            sys.exit(2)
    validator = kind(schema)
    for line in sys.stdin:
        if not line.strip():
            continue
        document = json.loads(line)
        problems = sorted(f"/{'/'.join(str(part) for part in error.absolute_path)}: {error.message}" for error in validator.iter_errors(document))
        sys.stdout.write(json.dumps(problems) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
