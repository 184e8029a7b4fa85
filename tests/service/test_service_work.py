"""The bounded process pool on its own: admission (503 when full, 429 per client), tasks that
overrun, a worker that dies, and the create options shared with ``levelgen create``."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from levelgen.cli import app
from levelgen.linkup.generate.spec import CreateSpec, SpecError, check_create_spec, create_level
from levelgen.linkup.schema import MAX_SEED, LevelFile
from levelgen.service.work import Busy, Overdue, TooMany, WorkPool

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own (another test may have left a loop running in
    this one)."""
    with ThreadPoolExecutor(1) as executor:
        return executor.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkPool]:
    p = WorkPool(workers=1, queue_limit=1, client_limit=2)
    p.start()
    yield p
    p.shutdown()


def test_admission_is_bounded(pool: WorkPool) -> None:
    async def main() -> list[object]:
        calls = [pool.run(f"c{i}", time.sleep, 0.3) for i in range(3)]
        return await asyncio.gather(*calls, return_exceptions=True)

    outcomes = run(main())
    assert outcomes.count(None) == 2  # one running, one queued
    assert [type(o) for o in outcomes if o is not None] == [Busy]
    assert pool.in_flight == 0 and not pool.per_client


def test_one_client_is_limited(pool: WorkPool) -> None:
    pool.capacity += 5
    try:

        async def main() -> list[object]:
            calls = [pool.run("same", time.sleep, 0.2) for _ in range(3)]
            return await asyncio.gather(*calls, return_exceptions=True)

        outcomes = run(main())
    finally:
        pool.capacity -= 5
    assert [type(o) for o in outcomes if o is not None] == [TooMany]


def test_a_queued_task_counts_its_time_from_its_start() -> None:
    # One worker, three tasks of 0.6 s each, a limit of 1 s: the third waits 1.2 s for the
    # worker, which is not running time (it once got 503 "the task took more than 1 s").
    queued = WorkPool(workers=1, queue_limit=3, client_limit=3)
    queued.start()
    try:

        async def main() -> list[object]:
            calls = [queued.run("c", time.sleep, 0.6, timeout=1.0) for _ in range(3)]
            return await asyncio.gather(*calls, return_exceptions=True)

        assert run(main()) == [None, None, None]
    finally:
        queued.shutdown()


def test_a_long_wait_for_a_worker_has_its_own_limit_and_message() -> None:
    waiting = WorkPool(workers=1, queue_limit=3, client_limit=3, queue_timeout=0.3)
    waiting.start()
    try:

        async def main() -> list[object]:
            calls = [waiting.run("c", time.sleep, 0.8, timeout=5.0) for _ in range(2)]
            return await asyncio.gather(*calls, return_exceptions=True)

        first, second = run(main())
        assert first is None
        assert isinstance(second, Busy) and "waited 0.3 s for a free worker" in str(second)
    finally:
        waiting.shutdown()


def test_overrun_and_a_dead_worker(pool: WorkPool) -> None:
    with pytest.raises(Overdue):
        run(pool.run("c", time.sleep, 1.0, timeout=0.1))
    time.sleep(1.0)  # let the abandoned task end
    with pytest.raises(Busy, match="died"):
        run(pool.run("c", os._exit, 1))
    assert run(pool.run("c", abs, -3)) == 3  # a fresh pool took over


def test_a_cancelled_task_stops_in_its_worker() -> None:
    """Cancelling the call stops the task: one that polls its budget ends by itself (the
    worker stays), one that does not has its worker replaced; either way the next task runs
    at once instead of waiting for the abandoned one (which once held its worker)."""
    from tests.service.family_slow import wait_out_budget

    alone = WorkPool(workers=1, queue_limit=2, client_limit=3, queue_timeout=60)
    alone.start()
    try:

        async def cancel_then_ask(fn: Any, arg: float) -> tuple[int, float]:
            task = asyncio.ensure_future(alone.run("c", fn, arg))
            await asyncio.sleep(0.5)
            task.cancel()
            start = time.monotonic()
            assert await alone.run("c", abs, -3) == 3
            return alone.replaced, time.monotonic() - start

        replaced, seconds = run(cancel_then_ask(wait_out_budget, 60.0))
        assert replaced == 0 and seconds < 5.0  # the budget saw the stop
        replaced, seconds = run(cancel_then_ask(time.sleep, 60.0))
        assert replaced == 1 and seconds < 30.0  # a new worker, not the 60 s sleep
    finally:
        alone.shutdown()


def test_shutdown_ends_running_tasks_at_once() -> None:
    busy = WorkPool(workers=1, queue_limit=1, client_limit=2)
    busy.start()
    process = busy._all[0].process

    async def main() -> object:
        task = asyncio.ensure_future(busy.run("c", time.sleep, 60.0))
        await asyncio.sleep(0.5)
        start = time.monotonic()
        await asyncio.get_running_loop().run_in_executor(None, busy.shutdown)
        assert time.monotonic() - start < 5.0
        return (await asyncio.gather(task, return_exceptions=True))[0]

    outcome = run(main())
    assert isinstance(outcome, Busy) and not process.is_alive()


BAD_OPTIONS = [
    (CreateSpec(size="7x3"), ["--size", "7x3"], "size"),
    (CreateSpec(size="12x8", copies=3), ["--size", "12x8", "--copies", "3"], "copies"),
    (CreateSpec(size="12x8", kinds=0), ["--size", "12x8", "--kinds", "0"], "kinds"),
    (CreateSpec(size="4x2", kinds=9), ["--size", "4x2", "--kinds", "9"], "kinds"),
    (CreateSpec(size="12x8", max_turns=9), ["--size", "12x8", "--max-turns", "9"], "max_turns"),
    (CreateSpec(size="99x2"), ["--size", "99x2"], "size"),
    (CreateSpec(size="1x1"), ["--size", "1x1"], "size"),
    (CreateSpec(), [], "size"),
    (
        CreateSpec(size="4x2", seed=MAX_SEED + 1),
        ["--size", "4x2", "--seed", str(MAX_SEED + 1)],
        "seed",
    ),
]


@pytest.mark.parametrize(("spec", "argv", "field"), BAD_OPTIONS)
def test_spec_refuses_what_the_cli_refuses(spec: CreateSpec, argv: list[str], field: str) -> None:
    with pytest.raises(SpecError) as caught:
        check_create_spec(spec)
    assert caught.value.field == field
    result = CliRunner().invoke(app, ["create", *argv, "-o", os.devnull])
    assert result.exit_code == 2
    option = "--" + field.replace("_", "-")
    assert option in result.output


def test_spec_layout_and_level_match_the_cli(tmp_path: Path) -> None:
    layout = "oooo\no##o\noooo\n"
    spec = CreateSpec(layout=layout, seed=4, copies=2)
    level = create_level(check_create_spec(spec), 4)
    (tmp_path / "shape.txt").write_text(layout)
    out = tmp_path / "out.json"
    argv = ["create", "--layout", str(tmp_path / "shape.txt"), "--seed", "4", "--copies", "2"]
    assert CliRunner().invoke(app, [*argv, "-o", str(out)]).exit_code == 0
    from levelgen.linkup.files import format_level

    assert format_level(LevelFile.from_core(level)) == out.read_text()
    with pytest.raises(SpecError, match="no tile cell") as caught:
        check_create_spec(CreateSpec(layout="..\n##\n"))
    assert caught.value.field == "layout"
    with pytest.raises(SpecError) as caught:
        check_create_spec(CreateSpec(layout=layout, size="5x3"))
    assert caught.value.field == "size"


# ----- the quick JSON reader against the strict one -------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**45), max_value=10**45),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)


def _text_of(value: object, draw: Any) -> str:
    """``value`` as JSON text, with now and then a duplicate key, NaN or Infinity, 1e999."""
    if isinstance(value, dict):
        items = [f"{json.dumps(k)}: {_text_of(v, draw)}" for k, v in value.items()]
        if items and draw(st.integers(0, 9)) == 0:
            items.append(items[0])  # a duplicate key
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text_of(v, draw) for v in value) + "]"
    if isinstance(value, float) and draw(st.integers(0, 19)) == 0:
        return draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e400"]))
    return json.dumps(value)


@st.composite
def json_texts(draw: Any) -> str:
    value = draw(_values)
    depth = draw(st.integers(0, 18))
    text = _text_of(value, draw)
    return "[" * depth + text + "]" * depth


@settings(max_examples=300, deadline=None)
@given(json_texts())
def test_quick_json_reader_agrees_with_the_strict_one(text: str) -> None:
    from levelgen.linkup.files import ReadError, parse_json
    from levelgen.service.tasks import fast_json

    quick = fast_json(text)
    try:
        strict = parse_json(text)
    except ReadError:
        assert quick is None  # refused by the strict reader: never accepted quickly
        return
    if quick is not None:
        assert quick == strict and json.dumps(quick) == json.dumps(strict)


def test_a_worker_killed_twice_at_once_closes_its_pipe_once() -> None:
    # A replacement and the pool's shutdown may kill one worker from two threads; the second
    # close of the pipe failed with EBADF and ended the server's shutdown before its last log.
    alone = WorkPool(workers=1, queue_limit=1, client_limit=2)
    alone.start()
    worker = alone._all[0]
    closes = []
    close = worker.conn.close

    def counted() -> None:
        closes.append(1)
        close()

    worker.conn.close = counted  # type: ignore[method-assign]
    killers = [threading.Thread(target=worker.kill) for _ in range(4)]
    for killer in killers:
        killer.start()
    for killer in killers:
        killer.join()
    alone.shutdown()
    assert closes == [1]
