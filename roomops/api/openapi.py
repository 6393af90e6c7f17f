"""The OpenAPI 3.1 document of the JSON API, built from the route table (``views.OPERATIONS``), the
request models (``roomops.schemas``), the response models (``roomops.api.models``) and the links
between operations (``roomops.api.links``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import jsonify
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from werkzeug.wrappers import Response

from roomops.api import models as out
from roomops.api.links import links
from roomops.api.views import DAY, OPERATIONS, PARAM, Operation, bp
from roomops.db import INT_MAX

REF = "#/components/schemas/{model}"
DATE = {"type": "string", "format": "date"}
REFUSALS = {
    400: "Not JSON, wrong content type, or a missing CSRF token on a session-authenticated call",
    401: "No valid Bearer token and no logged-in session",
    403: "The staff member's role may not do this (R61)",
    404: "No such row in this room",
    409: "Refused by the room's state or rules; `rule` names the rule (e.g. R20, R22)",
    422: "The body or query does not fit the schema, or a rule refused its values (e.g. R13, R16)",
    429: "Too many wrong approvals for this supervisor or from this address lately (R28, R61), "
         "or too many joins from the phone from this address (R12)",
}


def openapi_path(rule: str) -> str:
    return "/api" + PARAM.sub(r"{\1}", rule)


def _schemas() -> tuple[dict[tuple[type[BaseModel], str], dict[str, Any]], dict[str, Any]]:
    keys: list[tuple[type[BaseModel], JsonSchemaMode]] = []
    for op in OPERATIONS:
        if op.body is not None and (op.body, "validation") not in keys:
            keys.append((op.body, "validation"))
    keys += [(m, "serialization") for m in out.RESPONSE_MODELS]
    # routes attached from other modules (roomops.api.ledger) bring their own response models
    keys += list(dict.fromkeys((op.response, "serialization") for op in OPERATIONS
                               if (op.response, "serialization") not in keys))
    refs, top = models_json_schema(keys, ref_template=REF)
    return {key: refs[key] for key in keys}, top.get("$defs", {})


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    params = []
    doc = model.model_json_schema()
    for name, prop in doc["properties"].items():
        schema = next((s for s in prop.get("anyOf", [prop]) if s.get("type") != "null"), prop)
        schema = {k: v for k, v in schema.items() if k != "title"}
        if "default" in prop and prop["default"] is not None:
            schema["default"] = prop["default"]
        params.append({"name": name, "in": "query", "required": name in doc.get("required", ()),
                       "schema": schema})
    return params


def _path_schema(rule: str, name: str) -> dict[str, Any]:
    """A path parameter: an id, a gaming day (R2), or a room's slug (a plain string)."""
    if f"<{DAY}:{name}>" in rule:
        return DATE
    if f"<{name}>" in rule:
        return {"type": "string", "minLength": 1, "maxLength": 40}
    return {"type": "integer", "minimum": 1, "maximum": INT_MAX}


def _operation(op: Operation, refs: dict[tuple[type[BaseModel], str], dict[str, Any]]) -> dict[str, Any]:
    error = {"application/json": {"schema": refs[(out.Error, "serialization")]}}
    done: dict[str, Any] = {
        "description": "OK" if op.status == 200 else "Created",
        "content": {"application/json": {"schema": refs[(op.response, "serialization")]}},
    }
    if found := dict(links(op, OPERATIONS)):
        done["links"] = found
    doc: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "tags": list(op.tags),
        "responses": {
            str(op.status): done,
            **{str(code): {"description": REFUSALS[code], "content": error} for code in op.refusals},
        },
    }
    params = [{"name": name, "in": "path", "required": True, "schema": _path_schema(op.rule, name)}
              for name in PARAM.findall(op.rule)]
    if op.query is not None:
        params += _query_parameters(op.query)
    if params:
        doc["parameters"] = params
    if op.security is not None:
        doc["security"] = [{scheme: []} for scheme in op.security]
    if op.body is not None:
        doc["requestBody"] = {"required": not op.body_optional, "content": {
            "application/json": {"schema": refs[(op.body, "validation")]}}}
    return doc


@cache
def document() -> dict[str, Any]:
    refs, schemas = _schemas()
    paths: dict[str, dict[str, Any]] = {
        "/api/openapi.json": {"get": {
            "operationId": "openapi", "summary": "This document", "tags": ["meta"], "security": [],
            "responses": {"200": {"description": "OpenAPI 3.1 document",
                                  "content": {"application/json": {"schema": {"type": "object"}}}}},
        }},
    }
    for op in OPERATIONS:
        paths.setdefault(openapi_path(op.rule), {})[op.method.lower()] = _operation(op, refs)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "roomops API",
            "version": "1",
            "description": "Cash-game room operations: lists, seat offers, seats, games, tables, "
                           "policy and audit. Refusals answer {\"error\", \"rule\"} where rule is an "
                           "id from ROOM_RULES.md. Amounts are integer minor units.",
        },
        "security": [{"bearer": []}, {"cookie": []}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "a staff API token for one room: "
                                          "flask --app app api-token ROOM USERNAME"},
                "playerLink": {"type": "apiKey", "in": "header", "name": "X-Player-Link",
                               "description": "a player's personal link token, as a join "
                                              "answered it (R12, R61; docs/phone.md)"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "session",
                           "description": "the browser session after /login; unsafe methods also "
                                          "need the X-CSRFToken header"},
            },
        },
    }


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(document())
