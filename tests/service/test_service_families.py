"""Every family through the service's one road: hint bodies with each game's own options (the
body's ``game``, else its document's, decides the game), ``POST /v1/rate``, shuffles only where
a game has them, create options typed by their declared kind, and an OpenAPI document that
lists each family's schemas and bodies.  A family registered in ``LEVELGEN_FAMILIES`` (the
test families) gets all of it with no edge changed for it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from levelgen.formats.reports import hint_data
from levelgen.puzzles import FAMILIES_VARIABLE, Budget, family
from levelgen.service.app import create_app
from levelgen.service.settings import Settings
from tests.family_counting import COUNTING  # noqa: F401  (the module the variable names)
from tests.service.family_counted import REFERENCE as COUNTED

JSON = {"Content-Type": "application/json"}
FAMILIES = f"counting=tests.family_counting:COUNTING,{COUNTED}"

#: A small snakes-and-ladders level: a ladder from 3 to 14, a snake from 12 to 5.
LADDERS: dict[str, Any] = {
    "game": "snakes-ladders",
    "format_version": 1,
    "rules": {"faces": 6, "overshoot": "exact"},
    "board": {"width": 4, "height": 4, "ladders": [[3, 14]], "snakes": [[12, 5]]},
}
#: A Link-up level without a solution (4x2).
LINKUP: dict[str, Any] = {
    "game": "linkup",
    "format_version": 1,
    "rules": {"max_turns": 2, "outside": True},
    "board": {"width": 4, "height": 2, "rows": [[1, 2, 2, 1], [3, 0, 0, 3]]},
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One service whose workers know the test families (named in LEVELGEN_FAMILIES)."""
    from levelgen import puzzles

    folder = tmp_path_factory.mktemp("families")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FAMILIES_VARIABLE, FAMILIES)
        settings = Settings(db=f"sqlite:///{folder / 'lib.db'}", workers=1)
        with TestClient(create_app(settings), headers=JSON) as c:
            yield c
    for name in ("counting", "counted"):
        puzzles._loaded.pop(name, None)


def problem(response: Any, pointer: str) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    doc: dict[str, Any] = response.json()
    assert doc["pointer"] == pointer, doc
    assert doc["detail"].startswith(pointer)
    return doc


def expected_hint(game: str, level: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    item = family(game)
    answer = item.hint(item.read(level), budget=Budget(should_stop=lambda: False), options=options)
    return hint_data(answer.status, answer.text, answer.details)


# ----- hints with each game's own options --------------------------------------------------------


def test_a_snakes_and_ladders_hint_takes_square_and_within(client: TestClient) -> None:
    for key in ("level", "position"):
        body = {key: LADDERS, "square": 2, "within": 5}
        answer = client.post("/v1/hint", json=body)
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert found == expected_hint("snakes-ladders", LADDERS, {"square": 2, "within": 5})
        assert found["square"] == 2 and found["within"] == 5 and 0 < found["finish_within"] < 1
    start = client.post("/v1/hint", json={"level": LADDERS}).json()  # not read as Link-up
    assert start == expected_hint("snakes-ladders", LADDERS, {})
    assert client.post("/v1/hint", json=LADDERS).json() == start


def test_a_sliding_hint_takes_the_moves_played(client: TestClient) -> None:
    item = family("sliding-puzzle")
    level = item.dump(item.create(item.parse_spec({"size": "3x3", "moves": 8}), 4))
    played = client.post("/v1/hint", json={"level": level, "played": "L"})
    assert played.status_code == 200, played.text
    assert played.json() == expected_hint("sliding-puzzle", level, {"played": "L"})
    assert played.json() != client.post("/v1/hint", json={"level": level}).json()
    problem(client.post("/v1/hint", json={"level": level, "played": "X"}), "/played")


@pytest.mark.parametrize(
    ("body", "pointer", "named"),
    [
        ({"level": LADDERS, "square": "two"}, "/square", "whole number"),
        ({"level": LADDERS, "square": 99}, "/square", ""),  # the family's range
        ({"level": LADDERS, "bogus": 1}, "/bogus", "square, within"),
        ({"position": LINKUP, "square": 3}, "/square", "method, workers"),
        ({"position": LINKUP, "within": 3}, "/within", "'linkup'"),
        ({"level": LADDERS, "position": LADDERS}, "/level", "position or level"),
        ({"game": "sliding-puzzle", "level": LADDERS}, "/game", "'snakes-ladders'"),
        ({"game": "mahjong", "level": LADDERS}, "/game", "unknown game"),
        ({"game": 7, "level": LADDERS}, "/game", "name of a game"),
        ({"level": {**LADDERS, "board": {**LADDERS["board"], "width": 0}}}, "/level/board", ""),
    ],
)
def test_bad_hint_bodies_name_the_field(
    client: TestClient, body: dict[str, Any], pointer: str, named: str
) -> None:
    doc = client.post("/v1/hint", json=body).json()
    assert doc["pointer"].startswith(pointer), doc
    assert named in doc["detail"], doc


def test_the_bodys_game_reads_a_document_without_one(client: TestClient) -> None:
    bare = {k: v for k, v in LINKUP.items() if k != "game"}
    named = client.post("/v1/hint", json={"game": "linkup", "level": bare, "method": "search"})
    assert named.status_code == 200 and named.json()["status"] == "hint", named.text
    other = client.post("/v1/hint", json={"game": "snakes-ladders", "level": bare}).json()
    assert other["status"] == 422 and other["pointer"].startswith("/level/"), other


def test_the_test_families_get_hints_with_their_own_options(client: TestClient) -> None:
    counting = {"game": "counting", "start": 3, "goal": 12}
    assert client.post("/v1/hint", json={"level": counting}).json()["move"] == "*"
    problem(client.post("/v1/hint", json={"level": counting, "at": 6}), "/at")
    counted = {**counting, "game": "counted"}
    at = client.post("/v1/hint", json={"position": counted, "at": 6})
    assert at.status_code == 200 and at.json() == {
        "status": "ok",
        "message": "hint: *",
        "move": "*",
        "left": 1,
    }
    problem(client.post("/v1/hint", json={"level": counted, "at": True}), "/at")


def test_a_shuffle_only_for_a_game_that_shuffles(client: TestClient) -> None:
    doc = problem(client.post("/v1/shuffle", json={"level": LADDERS, "seed": 1}), "/game")
    assert "no shuffle operation" in doc["detail"]
    shuffled = client.post("/v1/shuffle", json={"level": LINKUP, "seed": 3, "min_moves": 1})
    assert shuffled.status_code == 200 and shuffled.json()["seed"] == 3, shuffled.text
    problem(client.post("/v1/shuffle", json={"level": LINKUP, "min_moves": -1}), "/min_moves")


# ----- verify and solve take the body's options to the family ------------------------------------


def test_a_solver_method_is_the_games_to_take_or_refuse(client: TestClient) -> None:
    assert client.post("/v1/solve", json={"level": LADDERS}).json()["status"] == "solved"
    doc = problem(client.post("/v1/solve", json={"level": LADDERS, "method": "search"}), "/method")
    assert "snakes-ladders" in doc["detail"] or "not an option" in doc["detail"]
    assert client.post("/v1/verify", json={"level": LINKUP, "method": "search"}).status_code == 200


# ----- rate ------------------------------------------------------------------------------------


def test_rate_answers_the_level_with_its_difficulty_block(client: TestClient) -> None:
    level = {"game": "counted", "start": 3, "goal": 12}
    rated = client.post("/v1/rate", json={"level": level, "seed": 7})
    assert rated.status_code == 200, rated.text
    block = rated.json()["metrics"]["difficulty"]
    assert block == {"score": 20.0, "band": "easy", "measures": {"seed": 7}}  # 3 * * = 12
    assert {k: rated.json()[k] for k in level} == level
    bare = client.post("/v1/rate", json=level).json()["metrics"]["difficulty"]
    assert bare["measures"] == {"seed": 0}  # the seed of levelgen rate when none is given
    again = client.post("/v1/rate", json={"level": level, "seed": 7})
    assert again.content == rated.content
    counting = client.post("/v1/rate", json={"game": "counting", "start": 3, "goal": 12})
    assert counting.json()["metrics"]["difficulty"]["band"] == "easy"  # its own player model
    problem(client.post("/v1/rate", json={"level": level, "seed": -1}), "/seed")
    problem(client.post("/v1/rate", json={"level": level, "square": 1}), "/square")
    problem(client.post("/v1/rate", json={"level": {**level, "goal": "x"}}), "/level/goal")


# ----- create options by kind --------------------------------------------------------------------


def test_create_options_are_typed_by_their_kind(client: TestClient) -> None:
    made = client.post("/v1/levels", json={"game": "sliding-puzzle", "size": "3x3", "moves": 6})
    assert made.status_code in (200, 201), made.text
    problem(
        client.post("/v1/levels", json={"game": "sliding-puzzle", "size": "3x3", "moves": "6"}),
        "/moves",
    )
    problem(client.post("/v1/levels", json={"size": "6x4", "layout": "oooo"}), "/layout")
    problem(client.post("/v1/levels", json={"size": "6x4", "outside": 1}), "/outside")
    problem(client.post("/v1/levels", json={"size": "6x4", "kinds": True}), "/kinds")
    default = client.post("/v1/levels", json={"size": "4x2", "seed": 1, "kinds": None})
    assert default.status_code in (200, 201), default.text


# ----- the OpenAPI document ----------------------------------------------------------------------


def test_openapi_lists_every_familys_schemas_and_bodies(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    games = ("linkup", "sliding-puzzle", "snakes-ladders", "counting", "counted")
    levels = schemas["LevelFile"]
    assert levels["discriminator"]["propertyName"] == "game"
    assert set(levels["discriminator"]["mapping"]) == set(games)
    assert {r["$ref"].rsplit("/", 1)[1] for r in levels["anyOf"]} == {f"{g}.level" for g in games}
    assert schemas["snakes-ladders.level"]["properties"]["board"]["$ref"].endswith(
        "snakes-ladders.BoardFile"
    )
    assert "linkup.position" in schemas
    creates = schemas["CreateRequest"]["discriminator"]["mapping"]
    assert set(creates) == set(games)
    sliding = schemas["sliding-puzzle.create"]
    assert sliding["required"] == ["game"] and sliding["additionalProperties"] is False
    moves = sliding["properties"]["moves"]
    assert {"type": "integer"} in moves["anyOf"] and "optimal length" in moves["description"]
    assert schemas["linkup.create"]["required"] == []  # the default game: game may be left out
    ladders = schemas["snakes-ladders.hint"]["properties"]
    assert ladders["square"]["type"] == "integer" and ladders["game"] == {
        "const": "snakes-ladders",
        "description": "The game: snakes-ladders.",
    }
    assert schemas["counted.hint"]["properties"]["at"]["type"] == "integer"
    assert "square" not in schemas["linkup.hint"]["properties"]
    hint_body = doc["paths"]["/v1/hint"]["post"]["requestBody"]["content"]["application/json"]
    assert {"$ref": "#/components/schemas/HintEnvelope"} in hint_body["schema"]["anyOf"]
    rate = doc["paths"]["/v1/rate"]["post"]
    assert rate["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/LevelFile"
    }
    solved = schemas["SolveAnswer"]["properties"]["level"]
    assert {"$ref": "#/components/schemas/LevelFile"} in solved["anyOf"]
    text = json.dumps(doc)
    assert "#/$defs/" not in text  # every family's definitions were moved to the components


def test_every_reference_of_the_document_resolves(client: TestClient, tmp_path: Path) -> None:
    doc = client.get("/openapi.json").json()
    text = json.dumps(doc)
    names = set(doc["components"]["schemas"])
    prefix = '"$ref": "#/components/schemas/'
    refs = {part.split('"', 1)[0] for part in text.split(prefix)[1:]}
    assert refs and refs <= names, refs - names
