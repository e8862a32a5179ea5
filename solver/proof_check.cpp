#include "solver/proof_check.h"
#include "solver/repetition.h"

#include <algorithm>
#include <climits>
#include <unordered_map>

namespace canju::solver {

const char* CheckStatusName(CheckStatus s) {
  switch (s) {
    case CheckStatus::kHolds: return "holds";
    case CheckStatus::kFails: return "fails";
    case CheckStatus::kIncomplete: return "incomplete";
    case CheckStatus::kNotRun: return "not run";
  }
  return "not run";
}

namespace {

constexpr int kNoRepetition = INT_MAX;

class Checker {
 public:
  // `remember_failures`: reuse a "no mate here" found on one path on
  // another (see CheckMate).
  Checker(const Position& root, Color attacker, const MateHint& hint, const TablebaseOracle* tb, uint64_t limit,
          bool remember_failures)
      : pos_(root), attacker_(attacker), hint_(hint), tb_(tb), limit_(limit), remember_failures_(remember_failures) {}

  // Takes over the mates `other` proved (not its failures).
  void AdoptProved(const Checker& other) {
    for (const auto& [key, m] : other.memo_)
      if (m.proved != INT_MAX) memo_[key].proved = m.proved;
  }

  ProofCheckResult Run(int plies) {
    ProofCheckResult r;
    const int max_ply = std::max(plies, 0) + 2;
    keys_.assign(max_ply + 1, 0);
    checked_.assign(max_ply + 1, false);
    moves_.assign(max_ply + 1, Move());
    states_.assign(max_ply + 1, StateInfo());
    chased_.assign(max_ply + 1, -1);
    irreversible_.assign(max_ply + 1, 0);
    lists_.resize(max_ply + 1);
    keys_[0] = pos_.key();
    checked_[0] = pos_.InCheck();
    const Outcome o = Node(0, plies);
    r.nodes = nodes_;
    if (aborted_) return r;
    r.status = o.mated ? CheckStatus::kHolds : CheckStatus::kFails;
    if (!o.mated) r.escape = EscapeLine(plies);
    return r;
  }

 private:
  struct Outcome {
    bool mated;  // the attacker mates within the plies given
    int rep;     // the shallowest path ply a repetition below went back to
  };
  struct Memo {
    int proved = INT_MAX;  // mates within this many plies (the fewest known)
    int failed = -1;       // no mate within this many plies (the most known)
  };

  bool Tick() {
    if (++nodes_ > limit_ && limit_) aborted_ = true;
    return aborted_;
  }

  // The side to move at `ply` has just been moved to. A position met
  // before on the path ends the line, a win for the attacker only where the
  // repetition rule (repetition.h) makes the defender its loser.
  bool Repetition(int ply, Outcome* out) const {
    const int j = EarlierOccurrence(ply, irreversible_[ply], [this](int i) { return keys_[i]; });
    if (j < 0) return false;
    const CycleLoser loser = LoserOfCycle(
        pos_.variant().rules(), j, ply, [this](int i) { return checked_[i]; },
        ChasesOnDemand(
            pos_, j, ply, [this](int k) { return moves_[k]; }, [this](int k) { return states_[k]; },
            [this](int k) -> int8_t& { return chased_[k]; }));
    *out = {Loses(loser, !AttackerToMove()), j};
    return true;
  }

  bool AttackerToMove() const { return pos_.side_to_move() == attacker_; }

  Outcome Node(int ply, int plies) {
    Outcome rep;
    if (ply > 0 && Repetition(ply, &rep)) return rep;
    const Variant& v = pos_.variant();
    const bool attacker = AttackerToMove();
    // (A side whose royal piece was taken has lost, where that is the rule;
    // its moves are not generated.)
    const bool royal_gone =
        v.rules().win == WinCondition::kCaptureRoyal && v.royal_kind() >= 0 && pos_.royal_square(pos_.side_to_move()) < 0;
    MoveList& moves = lists_[ply];
    if (royal_gone) moves.clear();
    else pos_.GenerateLegal(&moves);
    if (royal_gone || moves.empty()) {
      const canju::Outcome o = royal_gone || checked_[ply] ? canju::Outcome::kLoss : v.rules().stalemate;
      const bool attacker_wins = o == canju::Outcome::kLoss ? !attacker : o == canju::Outcome::kWin && attacker;
      return {attacker_wins, kNoRepetition};
    }
    if (plies <= 0 || (!attacker && plies < 2)) return {false, kNoRepetition};
    if (v.rules().halfmove_draw > 0 && pos_.halfmove_clock() >= v.rules().halfmove_draw) return {false, kNoRepetition};
    if (tb_) {
      TablebaseValue tv;
      if (tb_->Probe(pos_, &tv) && tv.result != Claim::kUnknown) {
        const bool attacker_wins = attacker ? tv.result == Claim::kWin : tv.result == Claim::kLoss;
        return {attacker_wins && tv.dtm >= 0 && tv.dtm <= plies, kNoRepetition};
      }
    }
    const uint64_t key = pos_.key();
    if (const auto it = memo_.find(key); it != memo_.end()) {
      if (it->second.proved <= plies) return {true, kNoRepetition};
      if (remember_failures_ && it->second.failed >= plies) return {false, kNoRepetition};
    }
    const Outcome o = attacker ? AttackerNode(ply, plies, moves) : DefenderNode(ply, plies, moves);
    if (!aborted_ && o.rep >= ply) {
      Memo& m = memo_[key];
      if (o.mated) m.proved = std::min(m.proved, plies);
      else m.failed = std::max(m.failed, plies);
    }
    return o;
  }

  Outcome Child(int ply, Move m, int plies) {
    StateInfo st;
    pos_.DoMove(m, &st);
    keys_[ply + 1] = pos_.key();
    checked_[ply + 1] = pos_.InCheck();
    moves_[ply + 1] = m;
    states_[ply + 1] = st;
    chased_[ply + 1] = -1;
    irreversible_[ply + 1] = st.captured != kNoPiece ? ply + 1 : irreversible_[ply];
    const Outcome o = Node(ply + 1, plies - 1);
    pos_.UndoMove(m, st);
    return o;
  }

  // One attacker move that mates in time is enough: the hint first, then
  // the checks, then the rest.
  Outcome AttackerNode(int ply, int plies, const MoveList& moves) {
    std::vector<Move> order;
    order.reserve(moves.size());
    const Move hinted = hint_ ? hint_(pos_, plies) : Move();
    if (!hinted.is_none() && moves.contains(hinted)) order.push_back(hinted);
    std::vector<Move> quiet;
    for (Move m : moves) {
      if (m == hinted) continue;
      StateInfo st;
      pos_.DoMove(m, &st);
      const bool check = pos_.InCheck();
      pos_.UndoMove(m, st);
      (check ? order : quiet).push_back(m);
    }
    order.insert(order.end(), quiet.begin(), quiet.end());
    int rep = kNoRepetition;
    for (Move m : order) {
      if (Tick()) return {false, rep};
      const Outcome o = Child(ply, m, plies);
      if (aborted_) return {false, rep};
      if (o.mated) return o;
      rep = std::min(rep, o.rep);
    }
    return {false, rep};
  }

  // Every defence must be mated in time.
  Outcome DefenderNode(int ply, int plies, const MoveList& moves) {
    int rep = kNoRepetition;
    for (Move m : moves) {
      if (Tick()) return {false, rep};
      const Outcome o = Child(ply, m, plies);
      if (aborted_) return {false, rep};
      if (!o.mated) {
        escapes_.emplace(pos_.key(), m);
        return o;
      }
      rep = std::min(rep, o.rep);
    }
    return {true, rep};
  }

  // After a failed check: the hinted (or first) attacker move and the
  // defence that escaped it, as far as both are known.
  std::vector<Move> EscapeLine(int plies) {
    std::vector<Move> line;
    std::vector<StateInfo> states(static_cast<size_t>(std::max(plies, 0)) + 2);
    for (int i = 0; i <= plies; ++i) {
      MoveList moves;
      pos_.GenerateLegal(&moves);
      if (moves.empty()) break;
      Move m;
      if (AttackerToMove()) {
        const Move hinted = hint_ ? hint_(pos_, plies - i) : Move();
        m = !hinted.is_none() && moves.contains(hinted) ? hinted : moves[0];
      } else {
        // A defence recorded as escaping, or any one where too few plies
        // are left for a mate.
        const auto it = escapes_.find(pos_.key());
        if (it != escapes_.end()) m = it->second;
        else if (plies - i < 2) m = moves[0];
        else break;
      }
      pos_.DoMove(m, &states[line.size()]);
      line.push_back(m);
    }
    for (size_t i = line.size(); i-- > 0;) pos_.UndoMove(line[i], states[i]);
    return line;
  }

  Position pos_;
  Color attacker_;
  const MateHint& hint_;
  const TablebaseOracle* tb_;
  uint64_t limit_;
  bool remember_failures_;
  uint64_t nodes_ = 0;
  bool aborted_ = false;
  std::vector<uint64_t> keys_;
  std::vector<bool> checked_;  // the move into this ply gave check (the side to move is in check)
  std::vector<int> irreversible_;
  std::vector<Move> moves_;          // the move into this ply and its undo record (for a cycle's chases)
  std::vector<StateInfo> states_;
  mutable std::vector<int8_t> chased_;  // the move into this ply chased (-1: not worked out)
  std::vector<MoveList> lists_;
  std::unordered_map<uint64_t, Memo> memo_;
  std::unordered_map<uint64_t, Move> escapes_;  // defender position → the reply that escaped
};

}  // namespace

ProofCheckResult CheckMate(const Position& root, Color attacker, int plies, const MateHint& hint,
                           const TablebaseOracle* tablebase, uint64_t node_limit) {
  // A "no mate here" is remembered by the position alone, though on another
  // path the defender's perpetual check (which loses) could have made it a
  // mate: such reuse can only turn a mate into an escape. So an escape found
  // with it is walked once more without it (the proved ones are still
  // reused), and only an escape that survives that walk is reported.
  Checker first(root, attacker, hint, tablebase, node_limit, true);
  ProofCheckResult r = first.Run(plies);
  if (r.status != CheckStatus::kFails) return r;
  const uint64_t left = node_limit ? node_limit - std::min(node_limit, r.nodes) : 0;
  if (node_limit && left == 0) return {CheckStatus::kIncomplete, r.nodes, {}};
  Checker again(root, attacker, hint, tablebase, left, false);
  again.AdoptProved(first);
  ProofCheckResult confirmed = again.Run(plies);
  confirmed.nodes += r.nodes;
  return confirmed;
}

}  // namespace canju::solver
