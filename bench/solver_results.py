#!/usr/bin/env python3
"""The per-collection sections of docs/solver-results.md, from the tables
`solver_bench --markdown FILE` writes: refuted puzzles, cooked
consecutive-check compositions, wins with more than one winning first move,
book lines that are not best play, wins confirmed along the book's line, book
mates that do not hold, and the unproven ones grouped by what was proved on
the way.

    bench/solver_results.py xs.md [mr.md ...] > sections.md

Each collection gets a "### <collection>" heading; paste its body under the
document's own heading.
"""
import collections
import re
import sys

COLUMNS = ("coll", "puzzle", "claimed", "verdict", "proof", "mate", "cooks", "book", "reason", "material")
# Book notes that are departures from best play (not "stops before mate").
NOT_BEST = re.compile(r"instead of|after it \(best")


def rows(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| collection |"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            cells += [""] * (len(COLUMNS) - len(cells))
            out.append(dict(zip(COLUMNS, cells)))
    return out


def table(pairs, intro, column):
    """An introduced two-column table of (puzzle, text) pairs; nothing when there are none."""
    if not pairs:
        return []
    return [intro, "", f"| puzzle | {column} |", "|---|---|"] + [f"| {p} | {t} |" for p, t in pairs] + [""]


def by_verdict(rs, verdict):
    return [r for r in rs if r["verdict"] == verdict]


def unproven_groups(unproven):
    """The unproven puzzles grouped by what was proved on the way."""
    if not unproven:
        return []
    lines = [f"**Unproven** ({len(unproven)}), by what was proved on the way (in brackets: the material when "
             "it has at most nine pieces, otherwise the number of pieces):", ""]
    groups = collections.defaultdict(list)
    for r in unproven:
        reason = re.sub(r" after [0-9.]+ M nodes", "", r["reason"]).replace("; budget spent", "")
        reason = re.sub(r"; the root's table would decide it \([^)]*\)", "", reason).strip()
        groups[reason].append(r["puzzle"] + (f" ({r['material']})" if r["material"] else ""))
    for reason, puzzles in sorted(groups.items(), key=lambda x: -len(x[1])):
        lines.append(f"* {reason} ({len(puzzles)}): " + ", ".join(puzzles))
    lines.append("")
    judged = [(r, JUDGED_END.search(r["book"])) for r in unproven]
    judged = [(r, m) for r, m in judged if m]
    if judged:
        lines += [f"Of these {len(unproven)}, **{len(judged)} have a book line that stops before mate**: the book "
                  "judges the position where its line ends won, and a proof has to play that position out to mate "
                  "(in brackets: the book's plies, then the pieces at its end, with the material when there are at "
                  "most nine): " + ", ".join(
                      f"{r['puzzle']} ({m['plies']}; {m['material'] if int(m['pieces']) <= 9 else m['pieces']})"
                      for r, m in judged) + ".", ""]
    return lines


# The verifier's note on an unproven win whose book line stops before mate.
JUDGED_END = re.compile(r"stops before mate: after its (?P<plies>\d+) pl\w+ a position of (?P<pieces>\d+) pieces "
                        r"\((?P<material>\w+),")


# How a draw claim was confirmed, by the proof column of its row.
DRAW_PROOFS = {"tablebase": "by the tables at the root", "full-width": "by exhausting both sides' searches"}


def draw_section(name, rs):
    """A collection of draw claims (先和局): what confirmed each draw, the refuted ones, the unproven ones."""
    lines = [f"### {name}", ""]
    n = len(rs)
    confirmed, refuted, unproven = (by_verdict(rs, v) for v in ("confirmed", "refuted", "unproven"))
    kinds = collections.Counter(r["proof"] for r in confirmed)
    how = ", ".join(f"{v} {DRAW_PROOFS.get(k, 'by ' + k)}" for k, v in sorted(kinds.items(), key=lambda x: -x[1]))
    lines += [f"{n} draw claims: {len(confirmed)} confirmed ({100 * len(confirmed) / max(n, 1):.1f}%"
              + (f": {how}" if how else "") + f"), {len(refuted)} refuted, {len(unproven)} unproven.", ""]
    if refuted:
        lines += ["**Refuted** — a side forces a win:", "", "| puzzle | proved |", "|---|---|"]
        lines += [f"| {r['puzzle']} | {r['reason']} |" for r in refuted]
        lines.append("")
    if confirmed:
        lines += ["**Confirmed:** " + ", ".join(f"{r['puzzle']} ({r['proof']})" for r in confirmed) + ".", ""]
    lines += unproven_groups(unproven)
    return "\n".join(lines)


def section(name, rs):
    if rs and all(r["claimed"] == "draw" for r in rs):
        return draw_section(name, rs)
    lines = [f"### {name}", ""]
    n = len(rs)
    confirmed, refuted, unproven = (by_verdict(rs, v) for v in ("confirmed", "refuted", "unproven"))
    kinds = collections.Counter(r["proof"] for r in rs if r["verdict"] != "unproven")
    decided_by = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda x: -x[1]))
    lines += [f"{n} puzzles: {len(confirmed)} confirmed ({100 * len(confirmed) / max(n, 1):.1f}%), "
              f"{len(refuted)} refuted, {len(unproven)} unproven. Decided by: {decided_by}.", ""]
    if refuted:
        lines += ["**Refuted** — the side to move loses whatever it plays:", "", "| puzzle | proved | book |",
                  "|---|---|---|"]
        lines += [f"| {r['puzzle']} | {r['reason']} | {r['book']} |" for r in refuted]
        lines.append("")
    cooked = [r for r in rs if r["proof"] == "checks" and r["cooks"] and r["verdict"] != "unproven"]
    if cooked:
        lines += [f"**Cooked consecutive-check compositions** ({len(cooked)}): another checking first move also "
                  "mates by checks.", "", "| puzzle | shortest mate (plies) | other winning first moves |",
                  "|---|---|---|"]
        lines += [f"| {r['puzzle']} | {r['mate']} | {r['cooks']} |" for r in cooked]
        lines.append("")
    for kind, label in (("full-width", "the full-width search"), ("tablebase", "the endgame tables")):
        won = [r for r in rs if r["proof"] == kind and r["verdict"] != "unproven"]
        several = [r for r in won if r["cooks"]]
        if won:
            listing = ", ".join(f"{r['puzzle']} ({len(r['cooks'].split())})" for r in several)
            lines += [f"Among the {len(won)} wins proved by {label}, {len(several)} have more than one winning "
                      "first move (every move was tried; in brackets the number of other winning moves)"
                      + (": " + listing if listing else "") + ".", ""]
    not_best = []
    for r in rs:
        notes = [x for x in r["book"].split("; ") if NOT_BEST.search(x)]
        if notes:
            not_best.append((r["puzzle"], "; ".join(notes)))
    if not_best:
        lines += [f"**Book main lines that are not best play** ({len(not_best)}): the winner's move makes the mate "
                  "longer or throws the proved win, or the loser's move is not the longest resistance.", "",
                  "| puzzle | where the book departs |", "|---|---|"]
        lines += [f"| {p} | {t} |" for p, t in not_best]
        lines.append("")
    stops = sum(1 for r in rs if "the main line stops" in r["book"])
    lines += [f"Book main lines that stop before mate (a won position, not a mate): {stops}.", ""]
    by_book = [r for r in confirmed if r["reason"].startswith("the book's")]
    if by_book:
        lines += [f"**Confirmed along the book's line** ({len(by_book)}): the solve left the claim open; the book's "
                  "mating line holds, every defence searched to its length (the mate is an upper bound): "
                  + ", ".join(f"{r['puzzle']} ({r['mate']})" for r in by_book) + ".", ""]
    walked = [r for r in confirmed if r["reason"].startswith("proved along the book's line")]
    if walked:
        lines += [f"**Proved along the book's line** ({len(walked)}): the solve left the claim open; each position of "
                  "the book's main line was proved won from its end back to the start by the unbounded full-width "
                  "search (the mate is the proof's length, an upper bound): "
                  + ", ".join(f"{r['puzzle']} ({r['mate']})" for r in walked) + ".", ""]
    failing = [(r["puzzle"], x) for r in unproven for x in r["book"].split("; ") if "does not hold" in x]
    lines += table(failing, f"**Book mates that do not hold** ({len(failing)}): the claim is unproven, and along "
                   "the book's main line a defence is not the best — the reply named leaves no mate within the plies "
                   "the book still needs (a bounded full-width proof). A longer win may still exist.",
                   "where the book's mate fails")
    walk_marks = ("the book's main line was proved won from its end back", "the budget ran out before the end of "
                  "the book's main line")
    stopped = []
    for r in unproven:
        at = min((i for i in (r["book"].find(m) for m in walk_marks) if i >= 0), default=-1)
        if at >= 0:  # (the walk's note is the last one)
            stopped.append((r["puzzle"], r["book"][at:]))
    lines += table(stopped, f"**Where the walk along the book's line stopped** ({len(stopped)}): the positions "
                   "after it are proved won; at the loser's move, how many replies the search proved and the first "
                   "ones still open — where a longer run, or a composer looking for a hole, has to go on.",
                   "where the walk stopped")
    lines += unproven_groups(unproven)
    return "\n".join(lines)


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for path in paths:
        by = collections.OrderedDict()
        for r in rows(path):
            by.setdefault(r["coll"], []).append(r)
        for name, rs in by.items():
            print(section(name, rs))


if __name__ == "__main__":
    main(sys.argv[1:])
