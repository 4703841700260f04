"""Boards for players: SVG legends, last-move marks, widths, hint dots; ASCII labels."""

import re
import xml.etree.ElementTree as ET

import pytest

import hexarena
from hexarena.board import hexhex
from hexarena.render import svg

NS = "{http://www.w3.org/2000/svg}"


def played(name, moves, **options):
    s = hexarena.load(name, **options).new_state()
    for m in moves:
        s.play(m)
    return s


OPENINGS = {  # a few moves of each game, so that a last move exists
    "projective-hex": ["J", "K", "O", "white", "A"],
    "lisbon": ["h8", "g7", "end", "f5"],
    "lhexus": ["j10", "decline", "f5"],
    "iqishiqi": ["n7"],
    "weituweiqi": ["c6", "q6"],
    "hex-pushpin": ["e4 2", "k6"],
    "push-and-pull": ["o5 -2 2", "e11"],
    "palago": ["2,0:1", "1,1:0", "-1,1:2"],
}


def legend_text(root):
    return " ".join(t.text for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text"))


@pytest.mark.parametrize("name", hexarena.GAMES)
def test_every_svg_has_a_legend_and_marks_the_last_move(name):
    s = played(name, OPENINGS[name])
    root = ET.fromstring(s.svg())
    assert legend_text(root)
    assert [c for c in root.iter(NS + "circle") if c.get("class") == "last"]


@pytest.mark.parametrize("name,words", [
    ("projective-hex", ["white: player 2", "black: player 1"]),  # J K O, then player 2 chose white
    ("lisbon", ["Black: player 1", "White: player 2", "this turn's stones"]),
    ("iqishiqi", ["North's edges: player 1", "South's: player 2"]),
    ("hex-pushpin", ["player 1 (first)", "the pin"]),
    ("push-and-pull", ["player 1's marker", "player 2's marker"]),
])
def test_legend_says_whose_colour_is_whose(name, words):
    text = legend_text(ET.fromstring(played(name, OPENINGS[name]).svg()))
    assert all(w in text for w in words)


def test_projective_hex_legend_before_the_colours_are_chosen():
    text = legend_text(ET.fromstring(played("projective-hex", ["J"]).svg()))
    assert "player 2 will choose" in text


def test_lisbon_rings_this_turns_stones_else_the_last_turns():
    s = played("lisbon", ["h8", "g7", "end", "f5", "k9"])  # turn 3 complete: its two stones ringed
    rings = [c for c in ET.fromstring(s.svg()).iter(NS + "circle") if c.get("class") == "last"]
    assert len(rings) == 2 and "last turn's stones" in legend_text(ET.fromstring(s.svg()))
    s.play("c3")
    assert s.svg().count('class="last"') == 1 and "this turn's stones" in legend_text(ET.fromstring(s.svg()))


def test_hex_pushpin_svg_is_as_wide_as_its_title():
    s = played("hex-pushpin", [])
    root = ET.fromstring(s.svg())
    title = next(root.iter(NS + "text")).text
    assert float(root.get("width")) >= svg.text_width(title, svg.TITLE_SIZE)


def test_legend_rows_fit_the_width():
    items = [(1, "x" * 30)] * 5
    rows = svg.legend_rows(items, 300)
    assert len(rows) > 1 and sum(len(r) for r in rows) == 5


def test_hint_dots_sit_above_the_cell_labels():
    s = played("projective-hex", [], opening="none")
    root = ET.fromstring(s.svg(hints=True))
    dots = [c for c in root.iter(NS + "circle") if c.get("class") == "hint"]
    labels = {(t.get("x"), t.text) for t in root.iter(NS + "text")}
    assert dots and all(float(d.get("cy")) + float(d.get("r")) < _label_top(root, d) for d in dots)
    assert ("A" in {name for _, name in labels})


def _label_top(root, dot):
    """The top of the text drawn at the dot's x (the cell's label), in px."""
    ys = [float(t.get("y")) - float(t.get("font-size")) * 0.75 for t in root.iter(NS + "text")
          if t.get("x") == dot.get("cx") and abs(float(t.get("y")) - float(dot.get("cy"))) < svg.R]
    return min(ys)


def test_board_draws_legend_swatches_without_piece_classes():
    out = svg.board(hexhex(2), lambda c: 0, legend=[("pin", "the pin"), ("marker1", "m"), ("#123456", "edge")])
    assert 'class="pin"' not in out and 'class="marker1"' not in out and "the pin" in out


def test_ascii_column_numbers_of_lisbon_on_another_size():
    lines = str(played("lisbon", [], size=(3, 3))).split("\n")
    assert re.fullmatch(r" *3 4 5", lines[-2])
