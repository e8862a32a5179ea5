#include "solver/verify.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <ctime>
#include <memory>
#include <sstream>

#include "solver/race.h"
#include "variants/notation.h"
#include "variants/registry.h"

#ifdef CANJU_HAVE_TABLEBASE
#include "tablebase/index.h"
#include "tablebase/material.h"
#endif

namespace canju {

// Stored with each verdict; raised when the search proves other things
// within the same budget (2: material weighs the full-width search).
const char* SolverVersion() { return "canju-dfpn 2"; }

std::optional<LineEnd> VerdictLineEnd(const std::string& variant, const std::string& fen, const Verdict& v) {
  std::shared_ptr<const Variant> var;
  Position root;
  LineEnd end;
  if (!LoadVariant(variant, &var, VerdictRules(v)).ok() || !Position::FromFen(*var, fen, &root).ok() ||
      !HowLineEnds(root, v.pv, v.proven, &end))
    return std::nullopt;
  return end;
}

namespace {

std::string Plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

// "what the proof covers", for sentences like "no <kind> after it".
const char* WinKind(ProofKind k) {
  switch (k) {
    case ProofKind::kChecks: return "mate by consecutive checks";
    case ProofKind::kThreats: return "mate by checks and mate threats";
    case ProofKind::kFullWidth: return "forced mate";
    default: return "win";
  }
}

std::string Line(const Position& start, const std::vector<Move>& moves, size_t max_moves = 12) {
  Position p = start;
  std::string out;
  for (size_t i = 0; i < moves.size() && i < max_moves; ++i) {
    if (!out.empty()) out += ' ';
    out += MoveToCoord(p.variant(), moves[i]);
    StateInfo st;
    p.DoMove(moves[i], &st);
  }
  if (moves.size() > max_moves) out += " ...";
  return out;
}

bool LostHere(const Position& p) {
  MoveList replies;
  p.GenerateLegal(&replies);
  return replies.empty() && (p.InCheck() || p.variant().rules().stalemate == Outcome::kLoss);
}

std::string SideName(const Position& p, Color c) {
  std::string side = p.variant().color_name(c);
  if (!side.empty()) side[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(side[0])));
  return side;
}

// For an unproven verdict: the table that would decide the root outright,
// named as `canju tb build` takes it, with its size so that the reader can
// judge whether it can be built ("KRKBBPPP, 2.2 G entries a side"); empty
// when the root has more pieces than a table holds (or no tablebase module).
std::string RootTable(const Position& root) {
#ifdef CANJU_HAVE_TABLEBASE
  const tb::Material m = tb::Material::Of(root);
  if (m.Pieces() > tb::kMaxTablePieces) return {};
  const tb::Material stored = tb::Canonical(root.variant(), m);
  tb::Indexer index;
  if (!index.Init(root.variant(), stored).ok()) return {};
  const double n = static_cast<double>(index.size());
  char size[32];
  if (n >= 1e12) std::snprintf(size, sizeof size, "%.1f T", n / 1e12);
  else if (n >= 1e9) std::snprintf(size, sizeof size, "%.1f G", n / 1e9);
  else if (n >= 1e6) std::snprintf(size, sizeof size, "%.1f M", n / 1e6);
  else std::snprintf(size, sizeof size, "%.0f", n);
  return stored.Name(root.variant()) + ", " + size + " entries a side";
#else
  (void)root;
  return {};
#endif
}

// A move for a note: "车２平４ (b1d1)".
std::string MoveName(const Position& p, Move m) { return MoveToHuman(p, m) + " (" + MoveToCoord(p.variant(), m) + ")"; }

// "move 8 卒４进１ (d1d0, Black)": the book's move at index `i` of its main
// line, played from `p`, as the book gives it (`text`).
std::string BookMoveName(const Position& p, size_t i, const std::string& human, const std::string& text) {
  return "move " + std::to_string(i + 1) + " " + human + " (" + text + ", " + SideName(p, p.side_to_move()) + ")";
}

Position After(const Position& p, Move m) {
  Position q = p;
  StateInfo si;
  q.DoMove(m, &si);
  return q;
}

// The book's main line played out: every position on it (the last one
// after the last move) and its moves, as far as they are legal.
struct BookLine {
  std::vector<Position> at;
  std::vector<Move> moves;
  // The book's continuations at at[j] (moves[j] is the first of them).
  std::vector<const std::vector<MoveNode>*> next;
  // The first move that is not legal, where the line stops: its text and why.
  std::string illegal_move, illegal_why;
  bool Whole() const { return illegal_move.empty(); }
  // The whole line ends in mate (or a losing stalemate) given by the side to move.
  bool Mates() const {
    return Whole() && !moves.empty() && moves.size() % 2 == 1 && LostHere(at.back());
  }
  // The note for the move that is not legal.
  BookDeparture Illegal() const {
    BookDeparture dep;
    dep.kind = BookDeparture::Kind::kIllegal;
    dep.ply = static_cast<int>(moves.size());
    dep.move = illegal_move;
    dep.text = "move " + std::to_string(moves.size() + 1) + " (" + illegal_move + ") is not legal here: " + illegal_why;
    return dep;
  }
};

BookLine PlayMainLine(const Record& rec, const Position& root) {
  BookLine b;
  b.at.push_back(root);
  for (const std::vector<MoveNode>* v = &rec.moves; !v->empty(); v = &(*v)[0].next) {
    Move m;
    const Status st = ParseAnyMove(b.at.back(), (*v)[0].move, &m);  // coordinates first, then the variant's notations
    if (!st.ok()) {
      b.illegal_move = (*v)[0].move;
      b.illegal_why = st.message();
      break;
    }
    b.moves.push_back(m);
    b.next.push_back(v);
    b.at.push_back(After(b.at.back(), m));
  }
  return b;
}

// The claim a record without one gets from the end of its book line, seen
// from the start's side to move: the end solved with `o` (a small budget;
// no shortest mate, no cooks) — a position without a move (mate, or a
// stalemate by the variant's rule), one the endgame tables value, or one
// the search decides (a draw only when both sides' searches were
// exhausted). Line lists such as 梦入神机.eglib carry no claim, and not all
// their compositions are wins: a main line that ends in a drawn position is
// the book saying "draw". kUnknown when the end stays undecided; *from says
// what it showed.
Claim ClaimFromLine(const BookLine& book, const SolveOptions& o, double* seconds, uint64_t* nodes,
                    std::string* from) {
  if (!book.Whole() || book.moves.empty()) return Claim::kUnknown;
  SolveOptions quick = o;
  quick.on_root_decided = nullptr;  // the line's end decided is not the puzzle decided
  quick.shortest = false;
  quick.cooks = false;
  quick.tt_bytes = std::min<size_t>(o.tt_bytes, size_t{16} << 20);
  const Position& end = book.at.back();
  const SolveResult r = Solve(end, quick);
  *seconds += r.seconds;
  *nodes += r.nodes;
  if (r.result == Claim::kUnknown) return Claim::kUnknown;
  const Color winner = r.result == Claim::kWin ? end.side_to_move() : ~end.side_to_move();
  const std::string value = r.result == Claim::kDraw ? std::string("a draw") : "a win for " + SideName(end, winner);
  if (r.proof == ProofKind::kTerminal)
    *from = std::string("the book's main line ends in ") + (end.InCheck() ? "mate" : "a position without a move");
  else if (r.proof == ProofKind::kTablebase)
    *from = "the book's main line ends in a position the endgame tables value as " + value;
  else
    *from = "the book's main line ends in a position the solver proves " + value +
            (r.result == Claim::kDraw ? ", every line searched" : "");
  const bool same_side = end.side_to_move() == book.at[0].side_to_move();
  const Claim flipped = r.result == Claim::kWin ? Claim::kLoss : r.result == Claim::kLoss ? Claim::kWin : r.result;
  return same_side ? r.result : flipped;
}

// A decided puzzle's main line against best play, move by move, from the
// solve's exact distances.
void Audit(const BookLine& book, Solver& solver, const SolveResult& sr, VerifyReport* out) {
  int d = sr.mate_plies;  // distance before the move (exact)
  bool exact = sr.mate_exact;
  bool complete = true, all_moves = true;
  const char* kind = WinKind(sr.proof);
  for (size_t i = 0; i < book.moves.size(); ++i) {
    const Position& before = book.at[i];
    BookDeparture dep;
    dep.ply = static_cast<int>(i);
    dep.move = (*book.next[i])[0].move;  // as the book gives it
    dep.human = MoveToHuman(before, book.moves[i]);
    const bool winner = solver.WinnerToMove(before);
    bool after_exact = false;
    const int after = solver.Distance(book.at[i + 1], &after_exact);
    dep.best_plies = d;
    dep.book_plies = after >= 0 ? after + 1 : -1;
    const std::string where = BookMoveName(before, i, dep.human, dep.move);
    if (after == -2) {
      dep.kind = BookDeparture::Kind::kUndecided;
      dep.text = where + ": the budget ran out before this move could be checked";
      out->book.push_back(dep);
      complete = all_moves = false;
      break;
    }
    if (after == -1) {
      if (winner) {
        dep.kind = BookDeparture::Kind::kThrowsWin;
        dep.text = where + ": no " + std::string(kind) + " after it (best: mate in " + Plies(d) + ")";
      } else {  // only when the proof's kind differs from the book's line
        dep.kind = BookDeparture::Kind::kUndecided;
        dep.text = where + ": no " + std::string(kind) + " found after this defence";
        complete = false;
      }
      out->book.push_back(dep);
      // After a slip, distances along the rest mean nothing.
      all_moves = false;
      break;
    }
    if (exact && after_exact) {
      if (winner && after + 1 > d) {
        dep.kind = BookDeparture::Kind::kLengthens;
        dep.text = where + ": mate in " + Plies(after + 1) + " instead of " + Plies(d);
        out->book.push_back(dep);
      } else if (!winner && after + 1 < d) {
        dep.kind = BookDeparture::Kind::kShortens;
        dep.text = where + ": not the longest resistance (mate in " + Plies(after + 1) + " instead of " + Plies(d) + ")";
        out->book.push_back(dep);
      }
    } else {
      complete = false;
    }
    d = after;
    exact = after_exact;
  }
  if (all_moves && !book.Whole()) {
    out->book.push_back(book.Illegal());
    complete = false;
  } else if (all_moves && !book.moves.empty() && d > 0) {
    BookDeparture dep;
    dep.kind = BookDeparture::Kind::kStopsEarly;
    dep.ply = static_cast<int>(book.moves.size());
    dep.best_plies = d;
    dep.text = "the main line stops " + Plies(d) + " before mate";
    out->book.push_back(dep);
  }
  out->book_audited = complete;
}


// A reply at `p` other than the book's `played` after which `winner` has no
// forced mate within `within` plies (kNoBound: no forced win at all), named
// for a note ("" if none is found): the table's facts first (a disproof of
// `p` left one there; no win at all is no mate within any bound), then
// searches sharing what is left of the budget.
constexpr int kNoBound = -1;
std::string EscapingReply(const Position& p, Move played, Color winner, int within, Solver& solver) {
  MoveList replies;
  p.GenerateLegal(&replies);
  for (Move m : replies)
    if (m != played && solver.KnownWin(After(p, m), winner) == 0) return MoveName(p, m);
  for (int i = 0; i < replies.size() && !solver.BudgetExhausted(); ++i) {
    if (replies[i] == played) continue;
    const Position q = After(p, replies[i]);
    const double share = 1.0 / (replies.size() - i);
    if ((within == kNoBound ? solver.WinFrom(q, winner, share) : solver.MateWithin(q, winner, within, share)) == 0)
      return MoveName(p, replies[i]);
  }
  return "";
}

// A win claim the solve left open whose book main line ends in mate: the
// book's mate is checked from its end backwards, each position asked "mate
// within the plies the book still needs?" by a bounded full-width search.
// Where that fails before a defence of the book's, the defence is not the
// longest: the bound grows by two plies at a time, up to `max_slack` in
// all, and the walk goes on. Either the root holds — a mate within the
// book's length plus the slack, and the claim is confirmed (returns that
// bound) — or a defence of the book's leaves no mate within the plies left
// even with the whole slack: it is named with the reply that escapes (a
// proof that the book's line is unsound there). Returns -1 when the root
// was not proved.
int CheckBookMate(const BookLine& book, int max_slack, Solver& solver, VerifyReport* out) {
  if (!book.Mates()) return -1;
  const std::vector<Position>& at = book.at;
  const std::vector<Move>& line = book.moves;
  const int length = static_cast<int>(line.size());
  const Color attacker = at[0].side_to_move();
  std::vector<BookDeparture> longer;  // defences of the book's that are not the longest
  int slack = 0;
  for (int j = length - 1; j >= 0; --j) {
    const Position& p = at[j];
    const int left = length - j;
    BookDeparture dep;
    dep.ply = j;
    dep.move = MoveToCoord(p.variant(), line[j]);
    dep.human = MoveToHuman(p, line[j]);
    const std::string where = BookMoveName(p, j, dep.human, dep.move);
    const int slack_before = slack;
    int held = solver.MateWithin(p, attacker, left + slack, 0.5);
    // (An attacker's move cannot be where a bounded mate first fails: the
    // position after it needs one ply less.)
    while (held == 0 && p.side_to_move() != attacker && slack + 2 <= max_slack) {
      slack += 2;
      held = solver.MateWithin(p, attacker, left + slack, 0.5);
    }
    if (held == 1) {
      if (slack > slack_before) {
        dep.kind = BookDeparture::Kind::kShortens;
        dep.book_plies = left + slack_before;
        dep.best_plies = left + slack;
        dep.text = where + ": not the longest resistance — the best defence holds out " +
                   Plies(slack - slack_before) + " longer (no mate within " + Plies(left + slack_before) +
                   ", mate within " + Plies(left + slack) + ")";
        longer.push_back(dep);
      }
      continue;
    }
    if (held == -1 || p.side_to_move() == attacker) {
      dep.kind = BookDeparture::Kind::kUndecided;
      dep.text = "the book's mate in " + Plies(length) + " was checked from its end back to " + where +
                 ", where the budget ran out";
      out->book.push_back(dep);
      return -1;
    }
    // A defence of the book's after which the mate is out of reach: find
    // the reply that escapes.
    const int bound = left - 1 + slack;
    const std::string escape = EscapingReply(p, line[j], attacker, bound, solver);
    dep.kind = BookDeparture::Kind::kShortens;
    dep.book_plies = left;
    dep.text = where + ": not the best defence — " + (escape.empty() ? std::string("another reply") : escape) +
               " leaves no mate within " + Plies(bound) + " (every line searched), so the book's mate in " +
               Plies(length) + " does not hold" +
               (slack > 0 ? ", not even with " + Plies(slack) + " more" : std::string());
    out->book.push_back(dep);
    return -1;
  }
  // Root first, as the audit lists departures.
  out->book.insert(out->book.end(), longer.rbegin(), longer.rend());
  return length + slack;
}

// The book's variations below `pos` (its continuations `next` from `first`
// on) proved won for `winner`, deepest first, to warm the table for the
// main line: every defence the book gives, the winner's first reply only
// (other winning moves are not needed for a proof). Failures are left to
// the main line.
// Returns how many of the loser's defences in them were proved won.
int ProveVariations(const std::vector<MoveNode>& next, size_t first, const Position& pos, Color winner,
                    Solver& solver) {
  int proved = 0;
  for (size_t i = first; i < next.size(); ++i) {
    const MoveNode& n = next[i];
    if (solver.BudgetExhausted()) break;
    Move m;
    if (!ParseAnyMove(pos, n.move, &m).ok()) continue;  // a bad variation in a book: the others still help
    const Position after = After(pos, m);
    proved += ProveVariations(n.next, 0, after, winner, solver);
    const bool won = solver.WinFrom(after, winner, 0.5) == 1;
    if (pos.side_to_move() == winner) break;
    proved += won;
  }
  return proved;
}

// The reason's mention of the book's other defences a walk proved.
std::string AndVariations(int proved) {
  if (proved <= 0) return "";
  return " with " + std::to_string(proved) + (proved == 1 ? " other defence" : " other defences") +
         " the book gives";
}

// The loser's replies at `p` the table does not hold as won for `winner`;
// *count (if given): how many replies there are.
std::vector<Move> OpenReplies(const Position& p, Color winner, Solver& solver, int* count = nullptr) {
  MoveList replies;
  p.GenerateLegal(&replies);
  if (count) *count = replies.size();
  std::vector<Move> open;
  for (Move m : replies)
    if (solver.KnownWin(After(p, m), winner) != 1) open.push_back(m);  // (a reply proved not won would have decided the walk)
  return open;
}

// Where a walk stopped at the loser's move: how many of the loser's replies
// the table holds as won for `winner`, and the first few still open (for
// the note: where the proof would have to go on).
std::string OpenDefences(const Position& p, Color winner, Solver& solver) {
  if (p.side_to_move() == winner) return "";
  int count = 0;
  const std::vector<Move> open = OpenReplies(p, winner, solver, &count);
  const int won = count - static_cast<int>(open.size());
  if (open.empty()) return "";
  constexpr size_t kNamed = 4;
  std::string text = " — of " + SideName(p, p.side_to_move()) + "'s " + std::to_string(count) +
                     " replies there " + std::to_string(won) + (won == 1 ? " is" : " are") + " proved won for " +
                     SideName(p, winner) +
                     "; open: ";
  for (size_t i = 0; i < open.size() && i < kNamed; ++i)
    text += (i ? ", " : "") + MoveName(p, open[i]);
  if (open.size() > kNamed) text += " and " + std::to_string(open.size() - kNamed) + " more";
  return text;
}

// A claimed win along the book's main line, whatever its end: each
// position from the line's end back to the start is asked "does the
// winner force a win from here?" by the unbounded full-width search, so
// that each proof finds the next one's in the table and only has to deal
// with the defences the book does not play (the book's own variations are
// proved first; `variations` counts the loser's defences among them proved
// won). The walk stops at the first position not proved. Returns the
// start's mate length along the proof (an upper bound), or -1 with a note
// saying where it stopped.
int WalkBookLine(const BookLine& book, Solver& solver, std::vector<BookDeparture>* notes, int* variations) {
  const std::vector<Position>& at = book.at;
  const int length = static_cast<int>(book.moves.size());
  *variations = 0;
  if (length == 0) return -1;
  const Color winner = at[0].side_to_move();
  for (int j = length; j >= 0; --j) {
    if (j < length && book.next[j]->size() > 1 && at[j].side_to_move() != winner)
      *variations += ProveVariations(*book.next[j], 1, at[j], winner, solver);
    int plies = -1;
    const int won = solver.WinFrom(at[j], winner, 1.0, &plies);
    if (won == 1) {
      if (j == 0) return plies;
      continue;
    }
    BookDeparture dep;
    dep.ply = j;
    const std::string who = SideName(at[j], winner);
    if (won == -1) {
      dep.kind = BookDeparture::Kind::kUndecided;
      dep.text = (j < length ? "the book's main line was proved won from its end back to the position after move " +
                                   std::to_string(j + 1) + " (of " + Plies(length) +
                                   "); the budget ran out before move " + std::to_string(j + 1)
                             : "the budget ran out before the end of the book's main line (after " + Plies(length) +
                                   ") was proved won") +
                 OpenDefences(at[j], winner, solver);
    } else if (j < length && at[j].side_to_move() != winner) {
      // The position after the book's defence is won, the one before is not.
      dep.kind = BookDeparture::Kind::kShortens;
      dep.move = MoveToCoord(at[j].variant(), book.moves[j]);
      dep.human = MoveToHuman(at[j], book.moves[j]);
      const std::string escape = EscapingReply(at[j], book.moves[j], winner, kNoBound, solver);
      dep.text = BookMoveName(at[j], j, dep.human, dep.move) + ": not the best defence — after " +
                 (escape.empty() ? std::string("another reply") : escape) + " " + who +
                 " has no forced win (every line searched)";
    } else {
      dep.kind = BookDeparture::Kind::kThrowsWin;
      dep.text = (j == length ? "the book's main line ends in a position where " + who
                              : "before move " + std::to_string(j + 1) + " of the book's main line " + who) +
                 " has no forced win (every line searched)";
    }
    if (notes) notes->push_back(dep);
    return -1;
  }
  return -1;
}

// How near a walk that ran out of budget was to its proof: the loser's
// replies still open where it stopped (1 at the winner's move); a large
// number when it did not run out (it failed, or proved the start).
int NearProof(const BookLine& book, const std::vector<BookDeparture>& stop, Solver& solver) {
  constexpr int kFar = 1 << 20;
  if (stop.size() != 1 || stop[0].kind != BookDeparture::Kind::kUndecided) return kFar;
  const Position& p = book.at[stop[0].ply];
  const Color winner = book.at[0].side_to_move();
  if (p.side_to_move() == winner) return 1;
  return static_cast<int>(OpenReplies(p, winner, solver).size());
}

// The puzzle's budget (0 = no limit), spent in phases: the walk first, the
// solve, then the checks of the book's line with what is left.
struct PuzzleBudget {
  double total_s;
  uint64_t total_n;
  double reserve;  // the book checks get at least this share of the budget
  double used_s = 0;
  uint64_t used_n = 0;

  // A share of the whole; never 0, which means "no limit".
  double Seconds(double share) const { return total_s > 0 ? std::max(1e-3, total_s * share) : 0; }
  uint64_t Nodes(double share) const {
    return total_n > 0 ? std::max<uint64_t>(1, static_cast<uint64_t>(total_n * share)) : 0;
  }
  // What is left until `share` of the whole is used (never 0).
  double SecondsTo(double share) const { return total_s > 0 ? std::max(1e-3, total_s * share - used_s) : 0; }
  uint64_t NodesTo(double share) const {
    if (total_n == 0) return 0;
    const uint64_t to = static_cast<uint64_t>(total_n * share);
    return to > used_n ? to - used_n : 1;
  }
  // What is not used yet (never 0), or at least the reserve.
  double SecondsLeft(double floor_share) const {
    return total_s > 0 ? std::max(Seconds(floor_share), SecondsTo(1.0)) : 0;
  }
  uint64_t NodesLeft(double floor_share) const {
    return total_n > 0 ? std::max(Nodes(floor_share), NodesTo(1.0)) : 0;
  }
};

// Verdict::proof_check and cooks_check from a re-check's status.
int8_t ProofCheckCode(solver::CheckStatus status) {
  switch (status) {
    case solver::CheckStatus::kHolds: return 1;
    case solver::CheckStatus::kIncomplete: return 0;
    default: return -1;  // not run, or failed (the verdict is then unproven, the cook undecided)
  }
}


// A claimed win the solve left open, with what is left of the budget: the
// book's mate checked from its end, then the walk along the line (going on
// where a first walk stopped: its proofs are in the table). A proof
// confirms the claim with the book's line as the PV.
void ProveOpenWinAlongTheBook(const BookLine& book, const VerifyOptions& options, Solver& solver, VerifyReport* out) {
  Verdict& v = out->verdict;
  int mate = CheckBookMate(book, options.book_slack, solver, out);
  bool walked = false;
  int variations = 0;
  if (mate < 0 && options.book_walk && !solver.BudgetExhausted()) {
    mate = WalkBookLine(book, solver, &out->book, &variations);
    walked = mate > 0;
  }
  if (mate > 0 && options.solve.proof_check_nodes > 0) {
    // The proof along the book's line, walked again like a solve's mate.
    const solver::ProofCheckResult c = solver.RecheckMate(book.at[0], book.at[0].side_to_move(), mate);
    out->solve.RecordProofCheck(c);
    v.proof_check = ProofCheckCode(out->solve.proof_check);
    if (c.status == solver::CheckStatus::kFails) {
      out->book.push_back({BookDeparture::Kind::kUndecided, 0, "", "", -1, -1,
                           "the proof along the book's line (a mate within " + Plies(mate) +
                               ") did not re-check: a defence escapes; the claim stays unproven"});
      mate = -1;
      walked = false;
    }
  }
  if (mate > 0) {
    v.kind = VerdictKind::kConfirmed;
    v.proven = Claim::kWin;
    v.mate_plies = mate;
    v.mate_exact = 0;   // the book's length or the proof's, never tightened
    v.cooks_scope = 0;  // no other first move searched
    out->solve.result = Claim::kWin;
    out->solve.proof = ProofKind::kFullWidth;
    out->solve.mate_plies = mate;
    for (Move m : book.moves) v.pv.push_back(MoveToCoord(book.at[0].variant(), m));
  }
  const int book_len = out->book_plies;
  if (walked) {
    v.reason = "proved along the book's line, from its end back to the start" + AndVariations(variations) +
               ": a forced mate within " + Plies(mate) + " (the proof's length, not the shortest)";
  } else if (mate > 0) {
    v.reason = mate == book_len ? "the book's mate in " + Plies(mate) +
                                      " holds: every defence searched to that depth (the shortest mate not tightened)"
                                : "the book's line mates within " + Plies(mate) + " (the book's " + Plies(book_len) +
                                      " and " + Plies(mate - book_len) +
                                      " for better defences): every defence searched to that depth (the shortest "
                                      "mate not tightened)";
  }
}

// An unproven claimed win whose book line stops before mate: the book's
// win is a judgement of the position where its line ends, so a proof has
// to play that position out to mate (a note for the composer, and for
// telling these apart from the book's mates that are not proved).
BookDeparture JudgedEnd(const BookLine& book, Color winner) {
  const Position& end = book.at.back();
  const std::string material = end.Material();
  BookDeparture dep;
  dep.kind = BookDeparture::Kind::kStopsEarly;
  dep.ply = static_cast<int>(book.moves.size());
  dep.text = "the book's main line stops before mate: after its " + Plies(dep.ply) + " a position of " +
             std::to_string(material.size()) + " pieces (" + material + ", " + SideName(end, end.side_to_move()) +
             " to move) that the book judges won for " + SideName(end, winner) +
             " and a proof has to play out to mate";
  return dep;
}

}  // namespace

void verify_internal::VerdictOfSolve(const Position& root, const SolveResult& sr, Claim claim, bool walked_first,
                                     int walk_variations, Verdict* v) {
  const Variant& variant = root.variant();
  v->proven = sr.result;
  v->mate_plies = sr.mate_plies;
  v->mate_exact = sr.mate_plies < 0 ? -1 : sr.mate_exact ? 1 : 0;
  v->cooks_scope = static_cast<int8_t>(sr.cooks_scope);
  v->proof_check = ProofCheckCode(sr.proof_check);
  for (Move m : sr.pv) v->pv.push_back(MoveToCoord(variant, m));
  // The line's first move is the solution, the other winning ones cooks;
  // without a line, the winning first move with the shortest mate is taken
  // as the solution (it is not a cook of itself).
  Move main_move = sr.pv.empty() ? Move() : sr.pv[0];
  if (main_move.is_none()) {
    int shortest = INT_MAX;
    for (const FirstMove& f : sr.first_moves)
      if (f.result == Claim::kWin && f.mate_plies >= 0 && f.mate_plies < shortest) shortest = f.mate_plies, main_move = f.move;
  }
  for (const FirstMove& f : sr.first_moves)
    if (f.result == Claim::kWin && f.move != main_move) {
      v->cooks.push_back(MoveToCoord(variant, f.move));
      v->cooks_check.push_back(ProofCheckCode(f.proof_check));
    }

  const std::string proved_line = sr.pv.empty() ? std::string() : ": " + Line(root, sr.pv);
  if (sr.result == Claim::kUnknown && claim == Claim::kWin && sr.no_win) {
    // Not what the position is, but enough to say the claim is false.
    v->kind = VerdictKind::kRefuted;
    // (Under the solver's repetition rules only: the reason says so.)
    v->reason = std::string("the side to move cannot force a win (") + NoWinRules(root.variant().rules()) + ")";
  } else if (sr.result == Claim::kUnknown) {
    v->kind = VerdictKind::kUnproven;
    v->reason = sr.note.empty() ? "undecided within the budget" : sr.note;
    if (claim == Claim::kDraw) v->reason += "; a draw needs the tables (--tb) or both sides' searches exhausted";
    // A table's value at the root decides any claim, so name the one to build.
    const std::string table = RootTable(root);
    if (!table.empty()) v->reason += "; the root's table would decide it (" + table + ")";
  } else if (claim == Claim::kUnknown) {
    v->kind = VerdictKind::kUnproven;
    v->reason = std::string("no claim to check; proved: ") + ClaimName(sr.result) + proved_line;
  } else if (sr.result == claim) {
    v->kind = VerdictKind::kConfirmed;
    v->reason = sr.note;
    if (walked_first)
      v->reason = "the book's line proved first, from its end back to the start" + AndVariations(walk_variations) +
                  (v->reason.empty() ? "" : "; " + v->reason);
  } else {
    v->kind = VerdictKind::kRefuted;
    std::ostringstream why;
    if (sr.result == Claim::kDraw) {
      why << "the position is a draw (" << ProofKindName(sr.proof) << ")";
    } else {
      const char* side = sr.result == Claim::kWin ? "the side to move wins" : "the side to move loses";
      why << side;
      if (sr.mate_plies >= 0) why << " (mate in " << Plies(sr.mate_plies) << (sr.mate_exact ? "" : " or less") << ")";
      why << proved_line;
    }
    v->reason = why.str();
  }
}

const char* BookEndName(BookEnd e) {
  switch (e) {
    case BookEnd::kMate: return "mate";
    case BookEnd::kBeforeMate: return "before mate";
    default: return "none";
  }
}

namespace {
Status VerifyOnOneThread(const Record& rec, const VerifyOptions& options, VerifyReport* out);
}  // namespace

// Several threads (SolveOptions::threads): whole verifications race, each
// with the puzzle's budget and heuristics of its own (solver/race.h).
Status VerifyRecord(const Record& rec, const VerifyOptions& options, VerifyReport* out) {
  if (options.solve.threads <= 1) return VerifyOnOneThread(rec, options, out);
  const size_t n = static_cast<size_t>(options.solve.threads);
  std::vector<VerifyReport> reports(n);
  std::vector<Status> statuses(n);
  const int w = solver::Race(options.solve, [&](int i, const SolveOptions& o) {
    VerifyOptions vo = options;
    vo.solve = o;
    statuses[i] = VerifyOnOneThread(rec, vo, &reports[i]);
    return statuses[i].ok() && reports[i].verdict.kind != VerdictKind::kUnproven;
  });
  *out = std::move(reports[w]);
  for (size_t i = 0; i < n; ++i)
    if (static_cast<int>(i) != w) out->verdict.nodes += reports[i].verdict.nodes;
  out->verdict.reason += solver::RaceNote(w, static_cast<int>(n));
  return statuses[w];
}

namespace {
Status VerifyOnOneThread(const Record& rec, const VerifyOptions& options, VerifyReport* out) {
  *out = VerifyReport{};
  out->claimed = rec.claimed;
  Verdict& v = out->verdict;
  v.verified_at = static_cast<int64_t>(std::time(nullptr));
  v.solver = VerdictSolverText(SolverVersion(), options.rule_overrides);
  v.kind = VerdictKind::kUnproven;

  auto it = rec.tags.find("import_error");
  if (it != rec.tags.end()) {
    v.reason = "the position could not be set up: " + it->second;
    return Status::InvalidArgument(rec.source + ": " + v.reason);
  }
  std::shared_ptr<const Variant> variant;
  Status st = LoadVariant(rec.variant.empty() ? "xiangqi" : rec.variant, &variant, options.rule_overrides);
  if (!st.ok()) {
    v.reason = "unknown variant: " + st.message();
    return st.WithContext(rec.source);
  }
  Position root;
  st = Position::FromFen(*variant, rec.fen, &root);
  if (!st.ok()) {
    v.reason = "bad position: " + st.message();
    return st.WithContext(rec.source.empty() ? rec.title : rec.source);
  }
  for (const std::vector<MoveNode>* n = &rec.moves; !n->empty(); n = &(*n)[0].next) ++out->book_plies;

  PuzzleBudget budget{options.solve.max_seconds, options.solve.max_nodes, options.audit_reserve};
  const BookLine book = options.audit_book || rec.claimed == Claim::kUnknown ? PlayMainLine(rec, root) : BookLine{};
  if (book.Whole() && !book.moves.empty())
    out->book_end = LostHere(book.at.back()) ? BookEnd::kMate : BookEnd::kBeforeMate;
  Claim claimed = rec.claimed;
  if (claimed == Claim::kUnknown) {
    if (options.claim_solve_share > 0) {
      SolveOptions quick = options.solve;
      quick.max_seconds = budget.Seconds(options.claim_solve_share);
      quick.max_nodes = budget.Nodes(options.claim_solve_share);
      if (quick.max_seconds <= 0 && quick.max_nodes == 0) quick.max_seconds = 1;  // an unlimited puzzle: a second
      claimed = ClaimFromLine(book, quick, &budget.used_s, &budget.used_n, &out->claim_from);
    }
    if (claimed == Claim::kUnknown && options.default_claim != Claim::kUnknown) {
      claimed = options.default_claim;
      out->claim_from = "the record carries no claim; taken as " + std::string(ClaimName(claimed));
    }
  }
  out->claimed = claimed;
  v.checked = claimed;
  v.checked_from = out->claim_from;
  const bool walkable = options.audit_book && claimed == Claim::kWin && book.Whole() && !book.moves.empty();
  Solver solver(options.solve);
  // 1. A win claim with a book line: the line is proved from its end first,
  // with its share of the budget; the solve gets the rest and finds the
  // walk's proofs in the table (a proved start decides it at once).
  bool walked_first = false;
  int walk_variations = 0;
  if (options.book_walk && options.book_walk_share > 0 && walkable) {
    solver.ResetBudget(budget.Seconds(options.book_walk_share), budget.Nodes(options.book_walk_share));
    std::vector<BookDeparture> stop;  // (the walk after the solve, if any, makes the notes)
    walked_first = WalkBookLine(book, solver, &stop, &walk_variations) > 0;
    budget.used_s += solver.seconds();
    budget.used_n += solver.nodes();
    if (!walked_first && options.book_walk_near_share > options.book_walk_share &&
        NearProof(book, stop, solver) <= options.book_walk_near_open) {
      // Near the proof: the walk goes on (its proofs are in the table).
      solver.ResetBudget(budget.SecondsTo(options.book_walk_near_share), budget.NodesTo(options.book_walk_near_share));
      walked_first = WalkBookLine(book, solver, nullptr, &walk_variations) > 0;
      budget.used_s += solver.seconds();
      budget.used_n += solver.nodes();
    }
    solver.SetSolveBudget(budget.SecondsLeft(0), budget.NodesLeft(0));
  }
  // 2. The solve, and the verdict it gives.
  out->walk_seconds = budget.used_s;
  const SolveResult sr = solver.Solve(root);
  out->solve = sr;
  budget.used_s += sr.seconds;
  budget.used_n += sr.nodes;
  verify_internal::VerdictOfSolve(root, sr, claimed, walked_first, walk_variations, &v);
  if (rec.claimed == Claim::kUnknown && claimed != Claim::kUnknown && claimed != options.default_claim)
    v.reason = "claimed " + std::string(ClaimName(claimed)) + ": " + out->claim_from +
               (v.reason.empty() ? "" : "; " + v.reason);
  v.nodes = budget.used_n;
  v.seconds = budget.used_s;

  // 3. The book's line, with what is left (at least the reserve): an open
  // win claim proved along it, or a decided one audited move by move.
  const bool open_win = sr.result == Claim::kUnknown && claimed == Claim::kWin && !sr.no_win;
  const bool decided = (sr.result == Claim::kWin || sr.result == Claim::kLoss) && sr.mate_exact;
  if (!options.audit_book || rec.moves.empty() || !(open_win || decided)) return Status::OK();
  solver.ResetBudget(budget.SecondsLeft(options.audit_reserve), budget.NodesLeft(options.audit_reserve));
  if (open_win && book.Whole()) ProveOpenWinAlongTheBook(book, options, solver, out);
  else if (open_win) out->book.push_back(book.Illegal());
  else Audit(book, solver, sr, out);
  // Where the walk ran out of budget (not where it found a flaw in the
  // book's line), say that the book's win is a judgement of its line's end.
  const bool undecided_walk = std::all_of(out->book.begin(), out->book.end(), [](const BookDeparture& d) {
    return d.kind == BookDeparture::Kind::kUndecided;
  });
  out->open_on_judged_end =
      v.kind == VerdictKind::kUnproven && open_win && out->book_end == BookEnd::kBeforeMate && undecided_walk;
  if (out->open_on_judged_end)
    out->book.insert(out->book.begin(), JudgedEnd(book, root.side_to_move()));  // (the walk's note stays last)
  for (const BookDeparture& d : out->book) v.book_notes.push_back(d.text);
  if (decided && !out->book_audited) v.book_notes.push_back("book line not fully checked within the budget");
  v.nodes += solver.nodes();
  v.seconds += solver.seconds();
  out->audit_seconds = solver.seconds();
  return Status::OK();
}
}  // namespace

}  // namespace canju
