"""Schemathesis over every endpoint of the OpenAPI document, a bounded number of examples
each: no server error (5xx other than the documented 503), every response valid against
the schema it declares (status, content type, body, headers)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode, checks

from levelgen.service.app import create_app
from levelgen.service.settings import Settings

# Schema-valid create options may still be refused (an odd tile count, odd copies): the schema
# fixes types, ``check_create_spec`` the rest; so "positive data accepted" is not asked.
CHECKS = [
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]
#: The contract checks: data the schema refuses is refused (4xx), and a method the path does not
#: have is answered 405 with an ``Allow`` header that lists the methods it does have.
CONTRACT = [checks.negative_data_rejection, checks.unsupported_method]
# Small limits keep generated requests cheap; pack jobs are queued but not made (the runner is
# stopped), since making them is not what these tests check.
APP = create_app(
    Settings(
        db="sqlite://",
        workers=1,
        max_time_limit=0.5,
        default_time_limit=0.3,
        max_side=16,
        max_pack_levels=2,
    )
)
SCHEMA = schemathesis.openapi.from_dict(APP.openapi())
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op
    for op in (result.ok() for result in SCHEMA.get_all_operations())
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(APP, raise_server_exceptions=False) as c:
        c.portal.call(APP.state.runner.stop)
        yield c


#: Every endpoint of the service (a new one must be added here, and so gets tested).
ENDPOINTS = {
    "POST /v1/levels",
    "GET /v1/levels",
    "GET /v1/levels/{level_id}",
    "GET /v1/levels/{level_id}.svg",
    "POST /v1/verify",
    "POST /v1/solve",
    "POST /v1/hint",
    "POST /v1/shuffle",
    "POST /v1/rate",
    "POST /v1/fix",
    "POST /v1/fill",
    "POST /v1/packs",
    "GET /v1/packs/{job_id}",
    "DELETE /v1/packs/{job_id}",
    "GET /v1/packs/{job_id}/levels/{n}",
    "PUT /v1/levels/{level_id}",
    "GET /play/{level_id}",
    "GET /edit",
    "GET /edit/{game}",
    "GET /healthz",
    "GET /readyz",
}


def test_every_endpoint_is_in_the_document() -> None:
    assert set(OPERATIONS) == ENDPOINTS


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_schema_conformance(client: TestClient, name: str, tmp_path: Path) -> None:
    operation = OPERATIONS[name]

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(case=operation.as_strategy())
    def run(case: schemathesis.Case) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        kwargs = {k: v for k, v in kwargs.items() if k != "app"}
        response = client.request(**kwargs, follow_redirects=False)
        assert response.status_code < 500 or response.status_code == 503, response.text
        case.validate_response(response, checks=CHECKS)

    run()


#: The operations that take any input (a body, a path or query parameter) to get wrong.
WITHOUT_INPUT = ("GET /healthz", "GET /readyz", "GET /edit")
WITH_INPUT = sorted(name for name in OPERATIONS if name not in WITHOUT_INPUT)


@pytest.mark.parametrize("name", WITH_INPUT)
def test_the_server_refuses_what_the_schema_refuses(client: TestClient, name: str) -> None:
    operation = OPERATIONS[name]

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(case=operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
    def run(case: schemathesis.Case) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        kwargs = {k: v for k, v in kwargs.items() if k != "app"}
        response = client.request(**kwargs, follow_redirects=False)
        assert response.status_code < 500 or response.status_code == 503, response.text
        case.validate_response(response, checks=CONTRACT)

    run()
