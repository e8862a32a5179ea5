#include "solver/solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "solver/dfpn.h"
#include "solver/race.h"
#include "solver/repetition.h"
#include "solver/tt.h"
#include "variants/notation.h"

namespace canju {

using solver::Answer;
using solver::Budget;
using solver::ProofStatus;
using solver::Prover;
using solver::Question;
using solver::kUnbounded;
using solver::kNoProof;
using solver::kNoDisproof;
using solver::Mode;

const char* ProofKindName(ProofKind k) {
  switch (k) {
    case ProofKind::kChecks: return "checks";
    case ProofKind::kThreats: return "threats";
    case ProofKind::kFullWidth: return "full-width";
    case ProofKind::kTablebase: return "tablebase";
    case ProofKind::kTerminal: return "terminal";
    default: return "none";
  }
}

namespace {

// The side to move has lost: mated, stalemated where that loses, or its
// royal piece captured.
bool LostNow(const Position& pos) {
  const Variant& v = pos.variant();
  if (v.rules().win == WinCondition::kCaptureRoyal && v.royal_kind() >= 0 && pos.royal_square(pos.side_to_move()) < 0)
    return true;
  MoveList replies;
  pos.GenerateLegal(&replies);
  return replies.empty() && (pos.InCheck() || v.rules().stalemate == Outcome::kLoss);
}

// A line played from `root`, with what the repetition rules need: each
// position's key, whether the move into it checked, and the last capture.
struct PlayedLine {
  Position pos;
  std::vector<StateInfo> states;
  std::vector<uint64_t> keys;   // keys[i]: after i plies
  std::vector<bool> checked;    // checked[i]: the move into ply i gave check
  std::vector<size_t> reset;    // reset[i]: the last ply <= i after a capture
  std::vector<Move> moves;      // moves[i]: the move into ply i + 1 (states[i] its undo record)
  PlayedLine(const Position& root, size_t capacity) : pos(root), states(capacity) {
    keys = {pos.key()}, checked = {pos.InCheck()}, reset = {0};
  }
  size_t plies() const { return keys.size() - 1; }
  void Play(Move m) {
    StateInfo& st = states[plies()];
    moves.push_back(m);
    pos.DoMove(m, &st);
    const size_t ply = plies() + 1;
    keys.push_back(pos.key());
    checked.push_back(pos.InCheck());
    reset.push_back(st.captured != kNoPiece ? ply : reset.back());
  }
  // Where the latest position repeats an earlier one since the last
  // capture: that ply, or -1.
  int Repeated() const {
    return EarlierOccurrence(static_cast<int>(plies()), static_cast<int>(reset.back()),
                             [this](int i) { return keys[static_cast<size_t>(i)]; });
  }
};

}  // namespace

// How `line` from `root`, a win for `winner`, ends.
LineEnd HowLineEnds(const Position& root, const std::vector<Move>& line, Color winner) {
  PlayedLine played(root, line.size());
  for (Move m : line) played.Play(m);
  if (LostNow(played.pos)) return LineEnd::kMate;
  const int from = played.Repeated();
  if (from < 0) return LineEnd::kOpen;
  const int ply = static_cast<int>(played.plies());
  std::vector<int8_t> chased(static_cast<size_t>(ply + 1), -1);
  bool by_chase = false;
  const CycleLoser loser = LoserOfCycle(
      root.variant().rules(), from, ply,
      [&played](int i) { return static_cast<bool>(played.checked[static_cast<size_t>(i)]); },
      ChasesOnDemand(
          played.pos, from, ply, [&played](int k) { return played.moves[static_cast<size_t>(k - 1)]; },
          [&played](int k) { return played.states[static_cast<size_t>(k - 1)]; },
          [&chased](int k) -> int8_t& { return chased[static_cast<size_t>(k)]; }),
      &by_chase);
  if (!Loses(loser, played.pos.side_to_move() != winner)) return LineEnd::kOpen;
  return by_chase ? LineEnd::kPerpetualChase : LineEnd::kPerpetualCheck;
}

const char* LineEndName(LineEnd e) {
  switch (e) {
    case LineEnd::kMate: return "mate";
    case LineEnd::kPerpetualCheck: return "perpetual_check";
    case LineEnd::kPerpetualChase: return "perpetual_chase";
    default: return "open";
  }
}

bool HowLineEnds(const Position& root, const std::vector<Move>& line, Claim result, LineEnd* end) {
  if (line.empty() || (result != Claim::kWin && result != Claim::kLoss)) return false;
  *end = HowLineEnds(root, line, result == Claim::kWin ? root.side_to_move() : ~root.side_to_move());
  return true;
}

bool HowLineEnds(const Position& root, const std::vector<std::string>& coord_line, Claim result, LineEnd* end) {
  std::vector<Move> line;
  Position pos = root;
  std::vector<StateInfo> states(coord_line.size());
  for (size_t i = 0; i < coord_line.size(); ++i) {
    Move m;
    if (!ParseCoordMove(pos, coord_line[i], &m).ok()) return false;
    pos.DoMove(m, &states[i]);
    line.push_back(m);
  }
  return HowLineEnds(root, line, result, end);
}

std::vector<Move> SolveResult::WinningFirstMoves() const {
  std::vector<Move> out;
  for (const FirstMove& f : first_moves)
    if (f.result == Claim::kWin) out.push_back(f.move);
  return out;
}

std::vector<Move> SolveResult::UndecidedFirstMoves() const {
  std::vector<Move> out;
  for (const FirstMove& f : first_moves)
    if (f.result == Claim::kUnknown) out.push_back(f.move);
  return out;
}

namespace {

// A line from `pos`, at most `plies` moves: at each step the first legal
// move (in generation order) after which accept(position, plies left before
// the move, pass) holds, trying passes 0 .. passes-1 in turn (cheap tests
// first); it stops where no move is accepted or stop() says so.
template <class Accept, class Stop>
std::vector<Move> FollowLine(Position pos, int plies, int passes, Accept&& accept, Stop&& stop) {
  std::vector<Move> line;
  MoveList moves;
  for (int d = plies; d > 0 && !stop(); --d) {
    pos.GenerateLegal(&moves);
    Move chosen;
    for (int pass = 0; pass < passes && chosen.is_none(); ++pass) {
      for (Move m : moves) {
        StateInfo st;
        pos.DoMove(m, &st);
        const bool ok = accept(pos, d, pass);
        pos.UndoMove(m, st);
        if (ok) {
          chosen = m;
          break;
        }
      }
    }
    if (chosen.is_none()) break;
    line.push_back(chosen);
    StateInfo st;
    pos.DoMove(chosen, &st);
  }
  return line;
}

}  // namespace

struct Solver::Impl {
  SolveOptions opt;
  solver::TranspositionTable tt;
  std::unique_ptr<Budget> budget;
  std::unique_ptr<Prover> prover;
  // The question that decided the last Solve (winner, kind, depth bound).
  Question decided{};
  bool have_decided = false;
  // The root was answered by the endgame tables: distances come from them.
  bool decided_by_tables = false;

  explicit Impl(const SolveOptions& o) : opt(o), tt(TableBytes(o)) { Reset(o.max_seconds, o.max_nodes); }

  // A node budget bounds what the table can hold: each node makes at most
  // one entry (the threat tests and every later budget of this solver are
  // shares of it). Twice that many slots keep the buckets' collisions low;
  // a larger table would only cost the kernel zeroed pages, which dominated
  // tiny solves (docs/performance.md, round of stop 26).
  static size_t TableBytes(const SolveOptions& o) {
    if (o.max_nodes == 0 || o.max_nodes > (o.tt_bytes / sizeof(solver::TTEntry)) / 2) return o.tt_bytes;
    return static_cast<size_t>(o.max_nodes) * 2 * sizeof(solver::TTEntry);
  }

  void Reset(double seconds, uint64_t nodes) {
    budget = std::make_unique<Budget>(nodes, seconds, opt.stop, opt.cpu_clock, opt.cancel);
    prover = std::make_unique<Prover>(&tt, budget.get(), opt.tablebase);
    prover->set_material_weight(opt.material_weight);
    prover->set_killers(opt.killers);
    prover->set_simulation_nodes(opt.simulation_nodes);
  }

  // A share of what is left of the budget, as (node limit, deadline).
  struct Slice {
    uint64_t nodes = 0;
    double deadline = 0;
  };
  Slice Share(double fraction) const {
    Slice s;
    const uint64_t nl = budget->nodes_left();
    if (nl != ~uint64_t{0}) s.nodes = std::max<uint64_t>(1, static_cast<uint64_t>(nl * fraction));
    const double sl = budget->seconds_left();
    if (std::isfinite(sl)) s.deadline = budget->elapsed() + sl * fraction;
    return s;
  }

  Answer Prove(Position& pos, const Question& q, double fraction) {
    const Slice s = Share(fraction);
    return prover->Prove(pos, q, s.nodes, s.deadline);
  }

  // A full-width question within `depth` plies (kUnbounded: any win): 1
  // proved (*plies: the proof's length), 0 disproved, -1 undecided.
  int FullWidth(const Position& pos, Color attacker, uint16_t depth, double fraction, int* plies) {
    Position p = pos;
    const Answer a = Prove(p, {attacker, Mode::kAll, depth}, fraction);
    if (plies) *plies = a.status == ProofStatus::kProven ? a.length : -1;
    return a.status == ProofStatus::kProven ? 1 : a.status == ProofStatus::kDisproven ? 0 : -1;
  }

  static std::string Millions(uint64_t n) {
    std::ostringstream o;
    o.precision(n >= 10'000'000 ? 0 : 1);
    o << std::fixed << n / 1e6 << " M";
    return o.str();
  }

  static int MinMate(bool attacker_to_move) { return attacker_to_move ? 1 : 2; }

  // Tightens an upper bound `upper` of the mate length for q.attacker from
  // pos to the shortest: while the gap to the lower bound is wide, a
  // bounded search halfway (df-pn's first proofs are often several times
  // the shortest mate: 147 plies for a mate in 19), then bounded searches
  // two plies shorter each time.
  int Tighten(Position& pos, Question q, int upper, bool* exact, double fraction = 1.0) {
    *exact = false;
    const bool atm = pos.side_to_move() == q.attacker;
    const uint16_t cap = q.depth;
    int best = Bisect(pos, q, upper, fraction / 2);
    for (;;) {
      if (best - 2 < MinMate(atm)) {
        *exact = true;
        break;
      }
      uint16_t pl;
      int16_t dd;
      prover->Facts(pos, {q.attacker, q.mode, kUnbounded}, &pl, &dd);
      if (dd != kNoDisproof && dd >= best - 2) {
        *exact = true;
        break;
      }
      q.depth = static_cast<uint16_t>(std::min<int>(best - 2, cap));
      const Answer a = Prove(pos, q, fraction);
      if (a.status == ProofStatus::kProven) {
        best = std::min(best - 2, a.length);
      } else {
        *exact = a.status == ProofStatus::kDisproven;
        break;
      }
      if (budget->exhausted()) break;
    }
    return best;
  }

  // What the tightening proved below an upper bound it could not make
  // exact: the table's "no mate of any kind within N plies" at the root
  // (-1 when it has none, or lost it to replacement).
  int NoMateWithin(const Position& pos, Color attacker, int upper) const {
    uint16_t pl;
    int16_t dd;
    prover->Facts(pos, {attacker, Mode::kAll, kUnbounded}, &pl, &dd);
    return dd != kNoDisproof && dd > 0 && dd < upper ? dd : -1;
  }

  // The halving steps of Tighten: each bounded search at the middle of
  // [lower, upper] gets `share` of what is left; a proof lowers the
  // upper bound, a disproof raises the lower one, an undecided search
  // ends the halving. Stops when the gap is under kBisectGap plies, where
  // the two-ply steps cost no more. Returns the new upper bound.
  int Bisect(Position& pos, Question q, int upper, double share) {
    constexpr int kBisectGap = 8;
    const bool atm = pos.side_to_move() == q.attacker;
    const uint16_t cap = q.depth;
    int lower = MinMate(atm);
    while (!budget->exhausted()) {
      uint16_t pl;
      int16_t dd;
      prover->Facts(pos, {q.attacker, q.mode, kUnbounded}, &pl, &dd);
      if (dd != kNoDisproof) lower = std::max(lower, dd + 2);  // no mate within dd plies
      if (upper - lower < kBisectGap) break;
      int mid = (lower + upper) / 2;
      if ((mid - lower) & 1) --mid;  // mates from here all have lower's parity
      if (mid < lower || mid >= upper || mid > cap) break;
      q.depth = static_cast<uint16_t>(mid);
      const Answer a = Prove(pos, q, share);
      if (a.status == ProofStatus::kProven) upper = std::min(upper, static_cast<int>(a.length));
      else if (a.status == ProofStatus::kDisproven) lower = mid + 2;
      else break;
    }
    return upper;
  }

  // The table's move for `winner` at `p` and the length of its proof, over
  // the three kinds of question (the shortest proof): *len is kNoProof when
  // none is known. Without a proof, the move that proved the position on one
  // path only (a win by the defender's perpetual check: the search kept no
  // fact there), taken as fitting (*len 0): the re-check and the proof's
  // line walk such a path again, and a search without the path could not
  // add to it.
  Move KnownProof(const Position& p, Color winner, uint16_t* len) const {
    Move best, path_move;
    *len = kNoProof;
    for (const Mode mode : {Mode::kChecks, Mode::kThreats, Mode::kAll}) {
      uint16_t pl;
      int16_t dd;
      Move m;
      prover->Facts(p, {winner, mode, kUnbounded}, &pl, &dd, &m);
      if (m.is_none()) continue;
      if (pl == kNoProof) {
        if (path_move.is_none()) path_move = m;
      } else if (pl < *len) {
        *len = pl, best = m;
      }
    }
    if (best.is_none() && !path_move.is_none()) *len = 0, best = path_move;
    return best;
  }

  // The table's proof move for `winner` at `p` if its proof fits within
  // `plies_left`; otherwise a small bounded search by `refill` (its budget
  // shared by all such calls of one walk) tries to find one that does, and
  // its move is returned if it did. With neither, the move of a proof too
  // long (the caller decides) or none. *len (if asked): the length of the
  // proof returned, as KnownProof gives it.
  Move FittingProof(Prover* refill, const Budget& refill_budget, const Position& p, Color winner, int plies_left,
                    uint16_t* len = nullptr) {
    constexpr uint64_t kRefillNodes = 20'000;
    uint16_t known_len;
    const Move best = KnownProof(p, winner, &known_len);
    if (len) *len = known_len;
    if (known_len <= plies_left || plies_left <= 0 || refill_budget.exhausted()) return best;
    Position q = p;
    refill->Prove(q, {winner, Mode::kAll, static_cast<uint16_t>(std::min<int>(plies_left, kUnbounded - 1))},
                  kRefillNodes);
    uint16_t again_len;
    const Move again = KnownProof(p, winner, &again_len);
    if (again.is_none()) return best;
    if (len) *len = again_len;
    return again;
  }

  // The line of a decided result: best play as far as it was proved (the
  // whole line where the length is exact and the budget allowed), then the
  // proof's line — for a length that is only an upper bound, the whole line.
  void CompleteLine(const Position& pos, SolveResult* r, std::ostringstream* note) {
    if (opt.forget_proofs_before_line_for_test) tt.Clear();
    const size_t best_part = r->pv.size();
    if (HowLineEnds(pos, r->pv, decided.attacker) == LineEnd::kOpen)
      ExtendWithProofLine(pos, decided.attacker, r->mate_plies, &r->pv);
    const LineEnd end = HowLineEnds(pos, r->pv, decided.attacker);
    if (!r->mate_exact && opt.shortest) {
      *note << "shortest mate not proved within the budget (" << r->mate_plies << " plies is an upper bound"
            << (r->pv.empty() ? "" : "; the line is the proof's, not proved best play") << "); ";
    } else if (!r->mate_exact) {
      if (!r->pv.empty()) *note << "the line is the proof's, not proved best play (shortest mate not searched); ";
    } else if (r->pv.size() > best_part) {
      // Cut short by the budget, or resting on the defender's perpetual
      // check, which a search from the line's position alone cannot see.
      *note << "best play proved for the first " << best_part << " plies of the line, the rest is the proof's; ";
    }
    if (r->pv.empty()) *note << "no line: the table lost the proof; ";
    else if (end == LineEnd::kPerpetualCheck) *note << "the line ends where the loser's checks repeat (perpetual check loses); ";
    else if (end == LineEnd::kPerpetualChase)
      *note << "the line ends where the loser's chases repeat (perpetual chasing loses); ";
    else if (end == LineEnd::kOpen) *note << "the line stops before mate; ";
  }

  // `line` from `root` (a win for `winner` within `plies`) continued by the
  // proof's line: the line of the proof as the table holds it — each
  // winner's move the table's proof move, each defence the one whose known
  // proof is the longest; from a position the endgame tables value, their
  // line. Not proved best play. Where the table has lost a proof, or holds
  // only one longer than the plies left (a full table replaces entries), a
  // small bounded search refills it (as in the re-check); the line stops
  // before mate only where that fails too. It ends where the loser's checks
  // repeat a position: a win by the rule that perpetual check loses (a
  // proof resting on it has the loser check on for ever in its line).
  void ExtendWithProofLine(const Position& root, Color winner, int plies, std::vector<Move>* line) {
    const int left = plies - static_cast<int>(line->size());
    PlayedLine played(root, line->size() + static_cast<size_t>(std::max(left, 0)));
    for (Move m : *line) played.Play(m);
    MoveList moves;
    constexpr uint64_t kLineRefillNodes = 1'000'000;  // all the refills of one line together
    Budget refill_budget(kLineRefillNodes, 0, opt.stop);
    Prover refill(&tt, &refill_budget, opt.tablebase);
    refill.set_material_weight(opt.material_weight);
    Position& pos = played.pos;
    for (int d = left; d > 0; --d) {
      pos.GenerateLegal(&moves);
      if (moves.empty()) break;
      if (played.Repeated() >= 0) break;  // HowLineEnds says whose
      TablebaseValue tv;
      if (opt.tablebase && opt.tablebase->Probe(pos, &tv) && tv.dtm >= 0 &&
          tv.result == (pos.side_to_move() == winner ? Claim::kWin : Claim::kLoss)) {
        for (Move m : TableLine(pos, tv.dtm)) line->push_back(m);
        break;
      }
      Move chosen;
      if (pos.side_to_move() == winner) {
        const Move m = FittingProof(&refill, refill_budget, pos, winner, d);
        if (!m.is_none() && moves.contains(m)) chosen = m;
      } else {
        int longest = -1;
        for (Move m : moves) {
          StateInfo st;
          pos.DoMove(m, &st);
          uint16_t len;
          const Move reply = FittingProof(&refill, refill_budget, pos, winner, d - 1, &len);
          pos.UndoMove(m, st);
          if (reply.is_none()) {  // this defence's proof is lost: the longest is not known
            chosen = Move();
            break;
          }
          if (static_cast<int>(len) > longest) longest = len, chosen = m;
        }
      }
      if (chosen.is_none()) break;
      line->push_back(chosen);
      played.Play(chosen);
    }
  }

  // Walks a mate of `plies` for `winner` again (solver/proof_check.h) with
  // this solver's proof moves as hints. Where the table has lost a
  // position's proof move (a full table replaces entries) or holds only a
  // proof longer than the plies left, a small bounded search of its own
  // (all of them together within the check's node limit) refills it: a
  // hint still, which the check verifies like any other move.
  solver::ProofCheckResult Recheck(const Position& pos, Color winner, int plies, uint64_t node_limit) {
    Budget refill_budget(node_limit, 0, opt.stop);
    Prover refill(&tt, &refill_budget, opt.tablebase);
    refill.set_material_weight(opt.material_weight);
    const solver::MateHint hint = [&](const Position& p, int plies_left) {
      return FittingProof(&refill, refill_budget, p, winner, plies_left);
    };
    if (opt.recheck_plies_for_test) plies = opt.recheck_plies_for_test(pos, plies);
    return solver::CheckMate(pos, winner, plies, hint, opt.tablebase, node_limit);
  }

  // The re-check of the mate just proved. A check that finds an escape
  // withholds the result: it would be a fault of the search.
  void CheckProof(const Position& pos, Color winner, SolveResult* r, std::ostringstream* note) {
    if (r->mate_plies < 0 || r->proof == ProofKind::kTablebase || r->proof == ProofKind::kTerminal) return;
    const solver::ProofCheckResult c = Recheck(pos, winner, r->mate_plies, opt.proof_check_nodes);
    r->RecordProofCheck(c);
    if (c.status == solver::CheckStatus::kIncomplete) {
      *note << "the re-check of the mate stopped after " << Millions(c.nodes) << " nodes; ";
    } else if (c.status == solver::CheckStatus::kFails) {
      *note << WithholdUnsoundMate(pos, c, r) << "; ";
    }
  }

  // Distance for the decided question's winner; see Solver::Distance.
  int Distance(Position& pos, bool* exact, double fraction = 1.0) {
    *exact = false;
    if (!have_decided) return -2;
    if (decided_by_tables) return TableDistance(pos, exact);
    Question q = decided;
    uint16_t pl;
    int16_t dd;
    prover->Facts(pos, q, &pl, &dd);
    int upper;
    if (pl != kNoProof && pl <= q.depth) {
      upper = pl;
    } else {
      const Answer a = Prove(pos, q, fraction);
      if (a.status == ProofStatus::kDisproven) return -1;
      if (a.status != ProofStatus::kProven) return -2;
      upper = a.length;
    }
    return Tighten(pos, q, upper, exact, fraction);
  }

  // Distance from the tables (exact), for a root the tables decided; -2
  // when `pos` has no table (a position outside the root's material).
  int TableDistance(const Position& pos, bool* exact) const {
    TablebaseValue tv;
    if (!opt.tablebase || !opt.tablebase->Probe(pos, &tv)) return -2;
    *exact = true;
    const Claim winner_view = pos.side_to_move() == decided.attacker ? Claim::kWin : Claim::kLoss;
    return tv.result == winner_view && tv.dtm >= 0 ? tv.dtm : -1;
  }

  // The best line from pos when its distance is exactly `plies`.
  std::vector<Move> BestLine(const Position& pos, int plies) {
    if (!have_decided) return {};
    if (decided_by_tables) return TableLine(pos, plies);
    const Question q = decided;
    // `after`: the position after the move tried, with d plies left before it.
    auto accept = [&](Position& after, int d, int pass) {
      const bool atm = after.side_to_move() != q.attacker;  // the attacker just moved
      if (atm && !prover->Allowed(after, q)) return false;
      if (d == 1) return LostNow(after);  // the mating move
      uint16_t pl;
      int16_t dd;
      prover->Facts(after, q, &pl, &dd);
      Question qb = q;
      if (atm) {
        // A move after which the defender is mated within d-1: facts first
        // (cheap), then searches.
        if (pl != kNoProof && static_cast<int>(pl) <= d - 1) return true;
        if (pass == 0) return false;
        qb.depth = static_cast<uint16_t>(d - 1);
        return Prove(after, qb, 0.5).status == ProofStatus::kProven;
      }
      // The longest resistance: no mate within d-3 after it.
      if (d - 3 < 1 || (dd != kNoDisproof && dd >= d - 3)) return true;
      if (pass == 0 || (pl != kNoProof && static_cast<int>(pl) <= d - 3)) return false;
      qb.depth = static_cast<uint16_t>(d - 3);
      return Prove(after, qb, 0.5).status == ProofStatus::kDisproven;
    };
    return FollowLine(pos, plies, 2, accept, [&] { return budget->exhausted(); });
  }

  // When Run's phases ended (budget->elapsed()); -1: not reached.
  struct PhaseMarks {
    double decided = -1, shortest = -1, line = -1;
  } phase_marks;
  // SolveResult::phase_seconds from the marks and the solve's `total`.
  SolvePhaseSeconds PhaseSeconds(double total) const {
    SolvePhaseSeconds p;
    if (phase_marks.decided < 0) {
      p.decide = total;
      return p;
    }
    p.decide = phase_marks.decided;
    p.shortest = phase_marks.shortest - phase_marks.decided;
    p.line = phase_marks.line - phase_marks.shortest;
    p.cooks = total - phase_marks.line;
    return p;
  }

  SolveResult Run(const Position& root_in);
  bool SolveByTablebase(Position& pos, SolveResult* r);
  std::vector<Move> TableLine(const Position& p, int plies) const;
  void FindCooks(Position& pos, const Question& q, SolveResult* r, std::ostringstream* note);
};

bool Solver::Impl::SolveByTablebase(Position& pos, SolveResult* r) {
  TablebaseValue tv;
  if (!opt.tablebase || !opt.tablebase->Probe(pos, &tv) || tv.result == Claim::kUnknown) return false;
  r->result = tv.result;
  r->proof = ProofKind::kTablebase;
  r->mate_plies = tv.dtm;
  r->mate_exact = tv.dtm >= 0;
  if (tv.result == Claim::kWin || tv.result == Claim::kLoss) {
    // The book audit and Distance() read the tables from here on.
    have_decided = true;
    decided_by_tables = true;
    decided = {tv.result == Claim::kWin ? pos.side_to_move() : ~pos.side_to_move(), Mode::kAll, kUnbounded};
    r->pv = TableLine(pos, tv.dtm);
  }
  MoveList moves;
  if (tv.result == Claim::kWin) {
    pos.GenerateLegal(&moves);
    for (Move m : moves) {
      StateInfo st;
      pos.DoMove(m, &st);
      TablebaseValue cv;
      if (opt.tablebase->Probe(pos, &cv) && cv.result == Claim::kLoss) {
        FirstMove f{m, Claim::kWin, cv.dtm >= 0 ? cv.dtm + 1 : -1};
        if (!r->pv.empty() && m == r->pv[0]) r->first_moves.insert(r->first_moves.begin(), f);
        else r->first_moves.push_back(f);
      }
      pos.UndoMove(m, st);
    }
    r->cooks_scope = 3;
  }
  r->note = "decided by the endgame tables";
  return true;
}

// Best play by the tables: each move keeps the distance falling by one (the
// winner's fastest mate, the loser's longest resistance).
std::vector<Move> Solver::Impl::TableLine(const Position& p, int plies) const {
  auto accept = [&](Position& after, int d, int) {
    // The side to move after the move: the loser when the winner moved.
    const Claim want = after.side_to_move() == decided.attacker ? Claim::kWin : Claim::kLoss;
    TablebaseValue cv;
    return opt.tablebase->Probe(after, &cv) && cv.result == want && cv.dtm == d - 1;
  };
  return FollowLine(p, plies, 1, accept, [] { return false; });
}

// Other first moves that win in answer to `q` (the question that proved the
// root, or the depth-bounded one that found a shorter mate). Each cook's
// mate is re-checked like the root's, with a node limit of its own
// (SolveOptions::proof_check_nodes): a cook is new knowledge about a
// composition, and a wrong one would be printed in the collection's table.
// (A limit shared by all the cooks, as before stop 32, went to the first
// long one and left the rest unchecked.)
void Solver::Impl::FindCooks(Position& pos, const Question& q, SolveResult* r, std::ostringstream* note) {
  MoveList moves;
  pos.GenerateLegal(&moves);
  std::vector<Move> candidates;
  for (Move m : moves) {
    if (!r->pv.empty() && m == r->pv[0]) continue;
    StateInfo st;
    pos.DoMove(m, &st);
    const bool allowed = prover->Allowed(pos, q);
    pos.UndoMove(m, st);
    if (allowed) candidates.push_back(m);
  }
  r->cooks_scope = q.mode == Mode::kChecks ? 1 : q.mode == Mode::kThreats ? 2 : 3;
  if (!r->pv.empty()) r->first_moves.push_back({r->pv[0], Claim::kWin, r->mate_plies, r->proof_check, r->proof_check_nodes});
  // Each candidate gets an equal share of what is left; the ones decided
  // early leave their share to the rest.
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Move m = candidates[i];
    StateInfo st;
    pos.DoMove(m, &st);
    Answer a;
    if (!budget->exhausted()) a = Prove(pos, q, 1.0 / static_cast<double>(candidates.size() - i));
    FirstMove f{m, Claim::kUnknown, -1};
    bool failed_check = false;
    if (a.status == ProofStatus::kProven) {
      f = {m, Claim::kWin, a.length + 1};
      if (opt.proof_check_nodes > 0) {
        const solver::ProofCheckResult c = Recheck(pos, ~pos.side_to_move(), a.length, opt.proof_check_nodes);
        f.proof_check = c.status;
        f.proof_check_nodes = c.nodes;
        if (c.status == solver::CheckStatus::kFails) {
          // A fault of the search, as for the root's mate: not a cook.
          failed_check = true;
          f.result = Claim::kUnknown;
          f.mate_plies = -1;
        }
      }
    }
    pos.UndoMove(m, st);
    if (failed_check)
      *note << "the cook " << MoveToHuman(pos, m) << " (" << MoveToCoord(pos.variant(), m)
            << ") did not re-check (a defence escapes its mate in " << a.length + 1 << " plies): left undecided; ";
    if (a.status != ProofStatus::kDisproven) r->first_moves.push_back(f);  // a win, or undecided
  }
  // Winning moves first (the PV's first), then undecided ones.
  std::stable_sort(r->first_moves.begin(), r->first_moves.end(), [](const FirstMove& a, const FirstMove& b) {
    return (a.result == Claim::kWin) > (b.result == Claim::kWin);
  });
}

SolveResult Solver::Impl::Run(const Position& root_in) {
  SolveResult r;
  phase_marks = PhaseMarks();
  have_decided = false;
  decided_by_tables = false;
  Position pos = root_in;
  const Color us = pos.side_to_move(), them = ~us;
  std::ostringstream note;

  // Already over?
  {
    MoveList moves;
    pos.GenerateLegal(&moves);
    if (moves.empty()) {
      r.proof = ProofKind::kTerminal;
      const bool check = pos.InCheck();
      const Outcome o = check ? Outcome::kLoss : pos.variant().rules().stalemate;
      r.result = o == Outcome::kWin ? Claim::kWin : o == Outcome::kLoss ? Claim::kLoss : Claim::kDraw;
      r.mate_plies = r.result == Claim::kLoss ? 0 : -1;
      r.mate_exact = true;
      r.note = check ? "the side to move is checkmated" : "the side to move has no legal move";
      return r;
    }
  }
  if (SolveByTablebase(pos, &r)) return r;

  bool won = false, lost = false;
  int length = -1;
  auto decide = [&](const Question& q, const Answer& a, ProofKind kind) {
    if (a.status != ProofStatus::kProven) return false;
    (q.attacker == us ? won : lost) = true;
    length = a.length;
    decided = q;
    r.proof = kind;
    return true;
  };

  // The plan (docs/solver.md): each phase may use a share of what is left
  // and stops early when it decides; a decided phase ends the plan.
  // 1. Consecutive checks: cheap, and what most compositions are.
  const Question checks{us, Mode::kChecks, kUnbounded};
  const Answer c = Prove(pos, checks, opt.checks_only ? 1.0 : 0.25);
  if (!decide(checks, c, ProofKind::kChecks)) {
    if (c.status == ProofStatus::kDisproven) note << "no win by consecutive checks; ";
    else note << "consecutive checks undecided" << (c.hit_ply_cap ? " (lines past the ply cap)" : "") << "; ";
  }
  if (!won && !opt.checks_only) {
    // 2. Every attacker move, no depth bound: the workhorse for quiet moves
    // and small-material endings.
    const Question all{us, Mode::kAll, kUnbounded};
    const Answer a = Prove(pos, all, opt.full_width_share);
    if (!decide(all, a, ProofKind::kFullWidth)) {
      if (a.status == ProofStatus::kDisproven) {
        r.no_win = true;
        note << "no win for the side to move (every line searched); ";
      } else {
        note << "full-width search undecided after " << Millions(a.nodes) << " nodes; ";
      }
    }
  }
  if (!won && !r.no_win && opt.threats && !opt.checks_only) {
    // 2b. (--threats) Checks and quiet moves that threaten a mate by checks:
    // long composed mates with many pieces where the full-width search
    // drowns. Off by default: on the classic collections it decided nothing
    // the full-width search had not (docs/solver.md).
    const Question threats{us, Mode::kThreats, kUnbounded};
    const Answer t = Prove(pos, threats, 0.5);
    if (!decide(threats, t, ProofKind::kThreats) && t.status == ProofStatus::kDisproven)
      note << "no win by checks and mate threats; ";
  }
  if (!won && !opt.checks_only) {
    // 3. The other side: a mate by checks whatever the side to move does,
    // then any win. Both proved impossible: a draw.
    const Question their_checks{them, Mode::kChecks, kUnbounded}, theirs{them, Mode::kAll, kUnbounded};
    if (!decide(their_checks, Prove(pos, their_checks, 0.3), ProofKind::kChecks)) {
      const Answer o = Prove(pos, theirs, 0.95);
      if (!decide(theirs, o, ProofKind::kFullWidth) && o.status == ProofStatus::kDisproven) {
        if (r.no_win) {
          r.result = Claim::kDraw;
          r.proof = ProofKind::kFullWidth;
          r.note = std::string("neither side can force a win (") + NoWinRules(pos.variant().rules()) + ")";
          r.mate_exact = true;
          return r;
        }
        note << "no win for the opponent (every line searched); ";
      } else if (!lost) {
        // The opponent's win neither proved nor disproved: how far its search went.
        note << "the opponent's win undecided after " << Millions(o.nodes) << " nodes; ";
      }
    }
  }

  if (won || lost) {
    have_decided = true;
    phase_marks.decided = budget->elapsed();
    if (opt.on_root_decided) opt.on_root_decided();
    r.result = won ? Claim::kWin : Claim::kLoss;
    r.mate_plies = length;
    if (opt.shortest) {
      bool exact = false;
      r.mate_plies = Tighten(pos, decided, length, &exact, 0.6);
      r.mate_exact = exact;
      if (exact) r.pv = BestLine(pos, r.mate_plies);
    }
    if (r.proof == ProofKind::kFullWidth && r.mate_exact) r.no_mate_within = r.mate_plies - 2;
    else if (r.proof == ProofKind::kFullWidth) r.no_mate_within = NoMateWithin(pos, decided.attacker, r.mate_plies);
    Question cooks = decided;
    if (won && r.proof != ProofKind::kFullWidth && !opt.checks_only && r.mate_plies > 1) {
      // A shorter mate that is not all checks and threats? Full width, cheap depths only.
      const int limit = std::min(r.mate_plies - 2, opt.max_general_depth);
      for (int depth = 1; depth <= limit && !budget->exhausted(); depth += 2) {
        const Question w{us, Mode::kAll, static_cast<uint16_t>(depth)};
        const Answer wa = Prove(pos, w, 0.2);
        if (wa.status == ProofStatus::kProven) {
          // Distances (the book's audit) are of any mate: a book move that
          // mates beyond `depth` still mates. The cooks mate within it.
          decided = {us, Mode::kAll, kUnbounded};
          cooks = w;
          r.proof = ProofKind::kFullWidth;
          r.mate_plies = depth;
          r.mate_exact = true;
          r.pv = BestLine(pos, depth);
          r.no_mate_within = depth - 2;
          break;
        }
        if (wa.status != ProofStatus::kDisproven) break;
        r.no_mate_within = depth;
      }
    }
    phase_marks.shortest = budget->elapsed();
    CompleteLine(pos, &r, &note);
    if (opt.proof_check_nodes > 0) CheckProof(pos, won ? us : them, &r, &note);
    phase_marks.line = budget->elapsed();
    if (r.result == Claim::kUnknown) won = lost = have_decided = false;  // withheld by the re-check: no cooks, no distances
    if (won && opt.cooks) FindCooks(pos, cooks, &r, &note);
    if (won && opt.cooks && !r.UndecidedFirstMoves().empty())
      note << r.UndecidedFirstMoves().size() << " first move(s) undecided within the budget; ";
  }

  if (r.result == Claim::kUnknown && opt.stop && opt.stop->load()) note << "stopped before the budget was spent";
  else if (r.result == Claim::kUnknown && budget->exhausted()) note << "budget spent";
  r.note = note.str();
  while (!r.note.empty() && (r.note.back() == ' ' || r.note.back() == ';')) r.note.pop_back();
  return r;
}

Solver::Solver(const SolveOptions& options) : impl_(std::make_unique<Impl>(options)) {}
Solver::~Solver() = default;

SolveResult Solver::Solve(const Position& pos) {
  impl_->Reset(impl_->opt.max_seconds, impl_->opt.max_nodes);
  SolveResult r = impl_->Run(pos);
  r.nodes = impl_->budget->nodes();
  r.seconds = impl_->budget->elapsed();
  r.phase_seconds = impl_->PhaseSeconds(r.seconds);
  return r;
}

int Solver::Distance(const Position& pos, bool* exact) {
  Position p = pos;
  return impl_->Distance(p, exact);
}

std::vector<Move> Solver::BestLine(const Position& pos, int plies) { return impl_->BestLine(pos, plies); }

int Solver::MateWithin(const Position& pos, Color attacker, int plies, double fraction) {
  return impl_->FullWidth(pos, attacker, static_cast<uint16_t>(plies), fraction, nullptr);
}

int Solver::WinFrom(const Position& pos, Color attacker, double fraction, int* plies) {
  return impl_->FullWidth(pos, attacker, kUnbounded, fraction, plies);
}

int Solver::KnownWin(const Position& pos, Color attacker) const {
  uint16_t proof_len;
  int16_t disproof_depth;
  impl_->prover->Facts(pos, {attacker, Mode::kAll, kUnbounded}, &proof_len, &disproof_depth);
  return proof_len != kNoProof ? 1 : disproof_depth == static_cast<int16_t>(kUnbounded) ? 0 : -1;
}

bool Solver::WinnerToMove(const Position& pos) const {
  return impl_->have_decided && pos.side_to_move() == impl_->decided.attacker;
}

void Solver::ResetBudget(double seconds, uint64_t nodes) { impl_->Reset(seconds, nodes); }
void Solver::SetSolveBudget(double seconds, uint64_t nodes) {
  impl_->opt.max_seconds = seconds;
  impl_->opt.max_nodes = nodes;
}
bool Solver::BudgetExhausted() const { return impl_->budget->exhausted(); }
size_t Solver::table_entries() const { return impl_->tt.entries(); }
solver::ProofCheckResult Solver::RecheckMate(const Position& pos, Color winner, int plies) {
  return impl_->Recheck(pos, winner, plies, impl_->opt.proof_check_nodes);
}
uint64_t Solver::nodes() const { return impl_->budget->nodes(); }
double Solver::seconds() const { return impl_->budget->elapsed(); }

std::string WithholdUnsoundMate(const Position& root, const solver::ProofCheckResult& check, SolveResult* r) {
  Position p = root;
  std::string line;
  std::vector<StateInfo> states(check.escape.size());
  for (size_t i = 0; i < check.escape.size(); ++i) {
    line += (i ? " " : "") + MoveToHuman(p, check.escape[i]) + " (" + MoveToCoord(p.variant(), check.escape[i]) + ")";
    p.DoMove(check.escape[i], &states[i]);
  }
  const std::string note = "the mate in " + std::to_string(r->mate_plies) +
                           " plies did not re-check (a defence escapes: " + line + "): result withheld";
  r->RecordProofCheck(check);
  r->result = Claim::kUnknown;
  r->mate_plies = -1;
  r->mate_exact = false;
  r->pv.clear();
  return note;
}

SolveResult Solve(const Position& pos, const SolveOptions& options) {
  if (options.threads <= 1) {
    Solver s(options);
    return s.Solve(pos);
  }
  std::vector<SolveResult> results(static_cast<size_t>(options.threads));
  const int w = solver::Race(options, [&](int i, const SolveOptions& o) {
    Solver s(o);
    results[i] = s.Solve(pos);
    return results[i].result != Claim::kUnknown;
  });
  SolveResult r = std::move(results[w]);
  r.nodes = 0;
  for (const SolveResult& x : results) r.nodes += x.nodes;
  r.note += solver::RaceNote(w, options.threads);
  return r;
}

}  // namespace canju
