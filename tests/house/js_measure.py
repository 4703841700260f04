"""A measure of JavaScript good enough for the web client's house rules (tests/house/test_layout.py), in plain Python
(the test machine has no node): each function's first and last line, found by matching brackets in the code once
its strings, template literals, comments and regular expressions are blanked out."""

from __future__ import annotations

import re
from dataclasses import dataclass

CONTROL = {"if", "for", "while", "switch", "catch", "with"}  # `word (...) {` that opens no function
REGEX_AFTER_WORD = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield",
                    "await"}
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
PAIRS = {")": "(", "]": "[", "}": "{"}
NAMED = re.compile(r"(?:function\s*\*?\s*([\w$]+)|([\w$]+)\s*[:=]\s*(?:async\s*)?(?:function\s*\*?\s*)?"
                   r"|(?:async\s+|get\s+|set\s+|static\s+)*([\w$]+)\s*)$")


@dataclass(frozen=True)
class Function:
    """A function of a source: its name (or "(anonymous)") and its first and last line (from 1)."""

    name: str
    first: int
    last: int

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


def code_only(source: str) -> str:
    """``source`` with the insides of its strings, template literals (not their ``${...}``), comments and regular
    expressions blanked to spaces, newlines kept: every bracket left is code."""
    out = list(source)
    modes = ["code"]  # a stack: "code", "template", or "sub" (code inside a template's ${...})
    depth = [0]  # per mode, the braces open in it
    i = 0
    while i < len(source):
        i = (_template if modes[-1] == "template" else _code)(source, out, i, modes, depth)
    return "".join(out)


def _blank(out: list[str], start: int, end: int) -> None:
    for k in range(start, min(end, len(out))):
        if out[k] != "\n":
            out[k] = " "


def _code(src: str, out: list[str], i: int, modes: list[str], depth: list[int]) -> int:
    """One step in code: past a string, comment, regex or template start, or one character."""
    c, two = src[i], src[i:i + 2]
    if two == "//" or two == "/*":
        end = src.find("\n", i) if two == "//" else src.find("*/", i + 2) + 2
        end = len(src) if end < 2 else end
        _blank(out, i, end)
        return end
    if c in "'\"":
        end = _string_end(src, i)
        _blank(out, i + 1, end - 1)
        return end
    if c == "/" and _regex_may_start(src, i):
        end = _regex_end(src, i)
        _blank(out, i, end)
        return end
    if c == "`":
        modes.append("template")
        depth.append(0)
    elif c == "{":
        depth[-1] += 1
    elif c == "}" and modes[-1] == "sub" and depth[-1] == 0:
        out[i] = " "
        modes.pop()
        depth.pop()
    elif c == "}":
        depth[-1] -= 1
    return i + 1


def _template(src: str, out: list[str], i: int, modes: list[str], depth: list[int]) -> int:
    """One step inside a template literal: its end, a ``${`` opening code, or one character blanked."""
    if src[i] == "\\":
        _blank(out, i, i + 2)
        return i + 2
    if src[i] == "`":
        modes.pop()
        depth.pop()
        return i + 1
    if src.startswith("${", i):
        _blank(out, i, i + 2)
        modes.append("sub")
        depth.append(0)
        return i + 2
    _blank(out, i, i + 1)
    return i + 1


def _string_end(src: str, i: int) -> int:
    """The index after the string literal starting at ``i``."""
    k = i + 1
    while k < len(src) and src[k] != src[i] and src[k] != "\n":
        k += 2 if src[k] == "\\" else 1
    return k + 1


def _regex_may_start(src: str, i: int) -> bool:
    """Whether the ``/`` at ``i`` starts a regular expression (not a division): judged by what precedes it."""
    before = src[:i].rstrip()
    if not before or before[-1] in REGEX_AFTER:
        return True
    word = re.search(r"[\w$]+$", before)
    return bool(word and word.group() in REGEX_AFTER_WORD)


def _regex_end(src: str, i: int) -> int:
    """The index after the regular expression starting at ``i`` (its flags included)."""
    k, in_class = i + 1, False
    while k < len(src) and src[k] != "\n" and (src[k] != "/" or in_class):
        if src[k] == "\\":
            k += 1
        elif src[k] in "[]":
            in_class = src[k] == "["
        k += 1
    k += 1
    while k < len(src) and (src[k].isalnum()):
        k += 1
    return k


def brackets(code: str) -> dict[int, int]:
    """Each bracket's index in ``code`` (from :func:`code_only`) to its partner's; ValueError where they do not
    match."""
    stack: list[int] = []
    partner: dict[int, int] = {}
    for i, c in enumerate(code):
        if c in "([{":
            stack.append(i)
        elif c in PAIRS:
            if not stack or code[stack[-1]] != PAIRS[c]:
                raise ValueError(f"unmatched {c!r} on line {code.count(chr(10), 0, i) + 1}")
            partner[i] = stack.pop()
            partner[partner[i]] = i
    if stack:
        raise ValueError(f"unclosed {code[stack[-1]]!r} on line {code.count(chr(10), 0, stack[-1]) + 1}")
    return partner


def functions(source: str) -> list[Function]:
    """Every function of ``source``: declarations, function expressions, methods and arrows (a concise arrow's
    body ends at a comma, semicolon or closing bracket of its own level, or at the end of its line)."""
    code = code_only(source)
    partner = brackets(code)
    found = [_braced(code, partner, i) for i, c in enumerate(code) if c == "{"]
    found += [_concise(code, partner, m.start()) for m in re.finditer(r"=>(?!\s*\{)", code)]
    return sorted((f for f in found if f is not None), key=lambda f: (f.first, f.last))


def _line(code: str, i: int) -> int:
    return code.count("\n", 0, i) + 1


def _function(code: str, start: int, end: int) -> Function:
    named = NAMED.search(code[max(0, start - 80):start])
    name = next((g for g in named.groups() if g), "(anonymous)") if named else "(anonymous)"
    return Function(name, _line(code, start), _line(code, end))


def _params_start(code: str, partner: dict[int, int], arrow: int) -> int:
    """Where the parameters of the arrow at ``arrow`` (the index of its ``=>``) start."""
    k = len(code[:arrow].rstrip()) - 1
    if code[k] == ")":
        return partner[k]
    word = re.search(r"[\w$]+$", code[:k + 1])
    return word.start() if word else k


def _braced(code: str, partner: dict[int, int], brace: int) -> Function | None:
    """The function whose body the ``{`` at ``brace`` opens, or None for a block or an object."""
    before = code[:brace].rstrip()
    if before.endswith("=>"):
        return _function(code, _params_start(code, partner, len(before) - 2), partner[brace])
    if not before.endswith(")"):
        return None
    opened = partner[len(before) - 1]
    word = re.search(r"[\w$]+\s*$", code[:opened])
    if not word or word.group().strip() in CONTROL:
        return None
    return _function(code, opened, partner[brace])


def _concise(code: str, partner: dict[int, int], arrow: int) -> Function:
    """The arrow at ``arrow`` whose body is an expression."""
    k = arrow + 2
    while k < len(code) and code[k] not in ",;\n)]}":
        k = partner[k] + 1 if code[k] in "([{" else k + 1
    return _function(code, _params_start(code, partner, arrow), k - 1)
