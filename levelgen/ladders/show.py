"""A snakes-and-ladders level drawn for a terminal.

The board is printed row by row from the top, boustrophedon as it is played (square 1 bottom
left, N at the end of the top row): each square's number, then ``^`` at the foot of a ladder
and ``v`` at the head of a snake.  The jumps are listed below, then the analysis when the
level has one.  With ``color`` the feet of ladders are green, the heads of snakes red and the
ends of jumps in their colour too (ANSI escapes; the letters say the same without colour).
"""

from __future__ import annotations

from .files import Level
from .rules import square_cell

__all__ = ["show_level"]

_GREEN = "\x1b[32m"
_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"


def _jumps_text(name: str, jumps: tuple[tuple[int, int], ...]) -> str:
    if not jumps:
        return f"{name}: none"
    return f"{name}: " + ", ".join(f"{a}->{b}" for a, b in jumps)


def show_level(level: Level, *, color: bool) -> str:
    """The level as terminal text (see the module docstring)."""
    board, rules = level.board, level.rules
    n, width, height = board.squares, board.width, board.height
    digits = len(str(n))
    ladder_feet = {a for a, _ in board.ladders}
    ladder_tops = {b for _, b in board.ladders}
    snake_heads = {a for a, _ in board.snakes}
    snake_tails = {b for _, b in board.snakes}
    grid = [["" for _ in range(width)] for _ in range(height)]
    for square in range(1, n + 1):
        x, y = square_cell(square, width, height)
        mark = "^" if square in ladder_feet else "v" if square in snake_heads else " "
        text = f"{square:>{digits}}{mark}"
        if color:
            if square in ladder_feet:
                text = f"{_BOLD}{_GREEN}{text}{_RESET}"
            elif square in snake_heads:
                text = f"{_BOLD}{_RED}{text}{_RESET}"
            elif square in ladder_tops:
                text = f"{_GREEN}{text}{_RESET}"
            elif square in snake_tails:
                text = f"{_RED}{text}{_RESET}"
        grid[y][x] = text
    lines = [
        f"Snakes and ladders {width}x{height}: {n} squares, a {rules.faces}-faced die,"
        f" overshoot {rules.overshoot} (^ ladder foot, v snake head)"
    ]
    lines += [" ".join(row) for row in grid]
    lines.append(_jumps_text("ladders", board.ladders))
    lines.append(_jumps_text("snakes", board.snakes))
    a = level.analysis
    if a is None:
        lines.append("not analysed (levelgen solve adds the analysis)")
    else:
        sequence = " ".join(str(r) for r in a.fewest_sequence)
        lines.append(
            f"expected {a.expected_rolls.value:.4f} rolls (exact {a.expected_rolls.fraction});"
            f" fewest {a.fewest_rolls} ({sequence})"
        )
        lines.append(
            f"median {a.median}, mode {a.mode}, 90% by {a.p90}, 99% by {a.p99} rolls;"
            f" expected snakes {a.expected_snakes.value:.4f},"
            f" ladders {a.expected_ladders.value:.4f}"
        )
        players = ", ".join(f"{p.players}: {p.rounds:.2f} rounds" for p in a.players)
        lines.append(f"players (first to finish): {players}")
    return "\n".join(lines) + "\n"
