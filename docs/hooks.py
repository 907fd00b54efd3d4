"""MkDocs hooks of ``make docs``: the pages made from other sources as the site builds.

- The front page: the README, the guide's pages being files of their own (``docs/guide/``).
- ``cli.md``: every subcommand's ``--help``, from ``kingsolve_cli.build_parser()``.
- ``http-api.md`` and ``openapi.json``: the HTTP API from the OpenAPI document that
  ``kingsolve_api`` serves, asked of ``create_app()`` with Flask's test client.
- ``changelog.md``: CHANGELOG.md.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent

def readme_sections() -> dict[str, str]:
    """The README by ``## `` section title; the text before the first one under ``""``."""
    parts = re.split(r"^## (.+)\n", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.M)
    sections = {"": parts[0]}
    sections.update(zip(parts[1::2], parts[2::2]))
    return sections


def _relinked(text: str, page: str) -> str:
    """Links to ``docs/X`` and the changelog from the README, made relative to ``page``."""
    up = "../" * page.count("/")
    text = text.replace("](CHANGELOG.md)", f"]({up}changelog.md)")
    return re.sub(r"\]\(docs/([^)]+)\)", lambda m: f"]({up}{m.group(1)})", text)


#: Where the front page points next, in place of the README's list of documents: the
#: site has the reference pages the README can only name.
FRONT_PAGE_LINKS = """
## In these docs

- The guide: [what the numbers mean](guide/values.md), [the library](guide/library.md),
  [the command line](guide/command-line.md), [records](guide/records.md),
  [the API and the board](guide/api-and-board.md), [speed](guide/speed.md),
  [the layout](guide/layout.md).
- [The rules](rules.md) of every contract as kingsolve plays them.
- The reference: [the library's names](reference/library.md) (for a start,
  [`analyse`][kingsolve.search.analysis.analyse] and [`solve`][kingsolve.search.solver.solve]),
  [the command line](cli.md), [the HTTP API](http-api.md).
- [The changelog](changelog.md).
"""


def front_page(sections: dict[str, str]) -> str:
    """The site's front page: the README, its list of documents made the site's."""
    out = [sections[""]]
    out += [f"## {title}\n{body}" for title, body in sections.items()
            if title and title != "Documentation"]
    out.append(FRONT_PAGE_LINKS)
    return _relinked("\n".join(out), "index.md")


def library_page() -> str:
    """The names ``import kingsolve`` gives, each linked to its reference, by module."""
    import kingsolve

    out = ["# The library's names", "",
           "`import kingsolve` gives these names (each loaded from its module on first use); "
           "the [guide](../guide/library.md) shows them at work.", "",
           "| module | names |", "|---|---|"]
    for module, names in kingsolve._EXPORTS.items():
        path = f"kingsolve.{module}"
        links = ", ".join(f"[`{n}`][{path}.{n}]" for n in sorted(names))
        out.append(f"| [`{path}`][{path}] | {links} |")
    return "\n".join(out) + "\n"


def cli_page() -> str:
    """Every subcommand's help, as ``kingsolve COMMAND --help`` prints it."""
    from kingsolve_cli import build_parser

    parser = build_parser()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"        # argparse wraps its help at the terminal's width
    out = ["# Command line reference", "",
           "Made from the command line's own parser (`kingsolve_cli.build_parser()`) as the "
           "docs are built: each section is what `kingsolve COMMAND --help` prints. The "
           "[guide](guide/command-line.md) shows them by example.", "",
           "```text", parser.format_help().rstrip(), "```"]
    sub = next(a for a in parser._actions if a.dest == "command")   # the subcommands
    for name, command in sub.choices.items():
        out += ["", f"## kingsolve {name}", "", "```text", command.format_help().rstrip(), "```"]
    if columns is None:
        del os.environ["COLUMNS"]
    else:
        os.environ["COLUMNS"] = columns
    return "\n".join(out) + "\n"


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document the server answers at ``/api/v1/openapi.json``."""
    from kingsolve_api import create_app

    answer = create_app().test_client().get("/api/v1/openapi.json")
    if answer.status_code != 200:
        raise RuntimeError(f"/api/v1/openapi.json answered {answer.status_code}")
    return answer.get_json()


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _code(value: Any) -> str:
    return f"`{json.dumps(value)}`"


def _limits(schema: dict[str, Any]) -> list[str]:
    words = {"minimum": "≥ {}", "maximum": "≤ {}", "exclusiveMinimum": "> {}",
             "exclusiveMaximum": "< {}", "minLength": "length ≥ {}", "maxLength": "length ≤ {}",
             "minItems": "≥ {} items", "maxItems": "≤ {} items", "maxProperties": "≤ {} fields",
             "pattern": "pattern `{}`"}
    return [form.format(schema[key]) for key, form in words.items() if key in schema]


def _canonical(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def _link(name: str) -> str:
    return f"[{name}](#{name.lower()})"


def type_of(schema: dict[str, Any], names: dict[str, str], link: bool = True) -> str:
    """A field's schema in a few words: its type, values and limits; a schema that is
    one of the named ones (inlined or referred to) links to it, when ``link``."""
    if "$ref" in schema:
        return _link(schema["$ref"].rpartition("/")[2])
    if link and _canonical(schema) in names:
        return _link(names[_canonical(schema)])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(type_of(s, names) for s in schema[key])
    if "const" in schema:
        return _code(schema["const"])
    if "enum" in schema:
        return " | ".join(_code(v) for v in schema["enum"])
    kind = schema.get("type", "any")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array" and "items" in schema:
        item = type_of(schema["items"], names)
        kind = f"list of ({item})" if "," in item else f"list of {item}"
    elif kind == "object" and schema.get("description") in names:
        kind = _link(names[schema["description"]])
    return ", ".join([kind] + _limits(schema))


def fields_table(schema: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The fields of an object schema as a table: name, type, required, what."""
    required = set(schema.get("required", ()))
    rows = ["| field | type | required | what |", "|---|---|---|---|"]
    for name, field in schema.get("properties", {}).items():
        default = f" (default {_code(field['default'])})" if "default" in field else ""
        rows.append(f"| `{name}` | {_cell(type_of(field, names))} | "
                    f"{'yes' if name in required else ''} | "
                    f"{_cell(field.get('description', ''))}{_cell(default)} |")
    return rows if len(rows) > 2 else []


def schema_section(name: str, schema: dict[str, Any], names: dict[str, str]) -> list[str]:
    out = [f"### {name}", ""]
    if schema.get("description"):
        out += [_cell(schema["description"]), ""]
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if alternatives and not schema.get("properties"):
        out += ["One of:", ""]
        for alt in alternatives:
            kind = alt.get("properties", {}).get("kind", {}).get("const")
            label = f"`kind: {kind}`" if kind else type_of(alt, names)
            out += [f"- {label}" + (f": {alt['description']}" if alt.get("description") else "")]
        out.append("")
        for alt in alternatives:
            table = [] if _canonical(alt) in names else fields_table(alt, names)
            if table:
                kind = alt.get("properties", {}).get("kind", {}).get("const")
                out += [f"#### {name}: {'kind ' + kind if kind else 'an object'}", ""] + table + [""]
    elif schema.get("properties"):
        out += fields_table(schema, names) + [""]
    else:
        out += [_cell(type_of(schema, names, link=False)), ""]
    return out


def operation_section(method: str, path: str, op: dict[str, Any], names) -> list[str]:
    out = [f"### {method.upper()} `{path}`", "", _cell(op.get("summary", "")), ""]
    if op.get("description"):
        out += [op["description"], ""]
    body = op.get("requestBody", {}).get("content", {})
    if body:
        schema = next(iter(body.values()))["schema"]
        out += [f"Body ({', '.join(f'`{t}`' for t in body)}): {type_of(schema, names)}", ""]
    params = op.get("parameters", [])
    if params:
        out += ["| parameter | in | type | required | what |", "|---|---|---|---|---|"]
        out += [f"| `{p['name']}` | {p['in']} | {_cell(type_of(p.get('schema', {}), names))} | "
                f"{'yes' if p.get('required') else ''} | {_cell(p.get('description', ''))} |"
                for p in params]
        out.append("")
    out += ["| status | what | body |", "|---|---|---|"]
    for status, answer in op.get("responses", {}).items():
        content = answer.get("content", {})
        shape = next((type_of(c["schema"], names) for c in content.values() if "schema" in c), "")
        out.append(f"| {status} | {_cell(answer.get('description', ''))} | {_cell(shape)} |")
    return out + [""]


def http_api_page(doc: dict[str, Any]) -> str:
    """The HTTP API: every operation, then every schema, from the OpenAPI document."""
    schemas = doc.get("components", {}).get("schemas", {})
    # a schema inlined where a named one is the same, or has its description, links to it
    names = {s["description"]: n for n, s in schemas.items() if s.get("description")}
    names.update({_canonical(s): n for n, s in schemas.items()})
    info = doc["info"]
    out = ["# HTTP API reference", "",
           f"{info.get('description', '')} OpenAPI {doc['openapi']}, version {info['version']}: "
           "made from the document the server answers at `GET /api/v1/openapi.json` as these "
           "docs are built; [the document itself](openapi.json). The "
           "[guide](guide/api-and-board.md) shows every endpoint by example.", "",
           "## Operations", ""]
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            out += operation_section(method, path, op, names)
    out += ["## Schemas", ""]
    for name, schema in schemas.items():
        out += schema_section(name, schema, names)
    return "\n".join(out)


def on_files(files: Files, config) -> Files:
    """Add the generated pages and the OpenAPI document to the site's files."""
    # the checkout's packages, installed or not (the web surface under api/ if it is there)
    sys.path[:0] = [str(p) for p in (ROOT, ROOT / "api") if p.is_dir()]
    pages = {"index.md": front_page(readme_sections())}
    pages["reference/library.md"] = library_page()
    pages["cli.md"] = cli_page()
    doc = openapi_document()
    pages["http-api.md"] = http_api_page(doc)
    pages["openapi.json"] = json.dumps(doc, indent=1)
    pages["changelog.md"] = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files
