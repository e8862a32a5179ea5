#include "solver/dfpn.h"
#include "solver/repetition.h"

#include <algorithm>
#include <ctime>
#include <limits>

namespace canju::solver {

namespace {

constexpr uint32_t kInf = 1u << 30;       // proof or disproof number of a decided node
constexpr uint32_t kBig = kInf - 1;       // the largest number of an undecided node
constexpr int16_t kNoRep = 0x7FFF;        // depends on no repetition
constexpr int16_t kPathDep = -1;          // depends on the ply cap or a clock: never a fact
constexpr uint32_t kUnit = 8;             // a new node's numbers are multiples of this
// A simulated defender's replies up to this many are each tested alone in
// the proved line's position (one piece's moves generated per reply); more,
// and that position's move list is cheaper.
constexpr int kSimulationRepliesTestedAlone = 8;

// A move taken from elsewhere (a table slot, the other position of an
// attempt) that `p` allows.
bool AllowedIn(const Position& p, Move m) { return p.IsPseudoLegal(m) && p.IsLegal(m); }

uint32_t SatAdd(uint32_t a, uint32_t b) {
  const uint64_t s = uint64_t{a} + b;
  return s > kBig ? kBig : static_cast<uint32_t>(s);
}
// The 1+ε trick with ε = 1/2: a child may run past its sibling's number
// before control returns, which cuts the re-expansions of df-pn (1/2 proved
// more of the hard puzzles than 1/4 or 1, docs/solver.md).
uint32_t Widen(uint32_t x) {
  const uint64_t y = uint64_t{x} + x / 2 + 1;
  return y > kBig ? kBig : static_cast<uint32_t>(y);
}
uint32_t Clamp(uint32_t x) { return std::clamp<uint32_t>(x, 1, kBig); }

}  // namespace

// --- Budget -----------------------------------------------------------------

Budget::Budget(uint64_t max_nodes, double max_seconds, const std::atomic<bool>* stop, bool cpu_clock,
               const std::atomic<bool>* cancel)
    : max_nodes_(max_nodes),
      max_seconds_(max_seconds),
      stop_(stop),
      cancel_(cancel),
      cpu_clock_(cpu_clock),
      start_(Now()) {}

double Budget::Now() const {
  if (cpu_clock_) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Budget::elapsed() const { return Now() - start_; }

double Budget::seconds_left() const {
  if (max_seconds_ <= 0) return std::numeric_limits<double>::infinity();
  return std::max(0.0, max_seconds_ - elapsed());
}

uint64_t Budget::nodes_left() const {
  if (!max_nodes_) return ~uint64_t{0};
  return nodes_ >= max_nodes_ ? 0 : max_nodes_ - nodes_;
}

void Budget::Poll() {
  if (exhausted_) return;
  if (max_nodes_ && nodes_ >= max_nodes_) exhausted_ = true;
  if (max_seconds_ > 0 && elapsed() >= max_seconds_) exhausted_ = true;
  if (stop_ && stop_->load(std::memory_order_relaxed)) exhausted_ = true;
  if (cancel_ && cancel_->load(std::memory_order_relaxed)) exhausted_ = true;
}

// --- Prover -----------------------------------------------------------------

int Prover::Balance() const {
  const int kinds = pos_->variant().kind_count();
  const Color a = q_.attacker, d = a == kFirst ? kSecond : kFirst;
  int sum = 0;
  for (int k = 0; k < kinds; ++k) sum += (pos_->count(a, k) - pos_->count(d, k)) * values_[k];
  return sum;
}

// Material won or lost since the root: a line where the attacker has lost
// material is harder to prove and easier to disprove, one where he has won
// some the other way round. A change of Δ in the variant's piece values
// (Xiangqi: pawn 1, rook 9) changes both numbers by a factor of
// 1 + |Δ|·weight/8 (weight 8: losing a rook multiplies the proof number by
// 10 and divides the disproof number by 10). The long quiet wins the search
// left open usually go through taking material; without this a line that
// throws a rook away looked as promising as any other until searched.
void Prover::WeighMaterial(int ply, Child* c) const {
  const int d = balance_[ply] - balance_[0];
  if (d == 0) return;
  const uint64_t f = kUnit + static_cast<uint64_t>(d < 0 ? -d : d) * material_weight_;
  uint32_t& harder = d < 0 ? c->pn : c->dn;
  uint32_t& easier = d < 0 ? c->dn : c->pn;
  harder = static_cast<uint32_t>(std::min<uint64_t>(kBig / 2, harder * f / kUnit));
  easier = static_cast<uint32_t>(std::max<uint64_t>(1, easier * kUnit / f));
}

Prover::Prover(TranspositionTable* tt, Budget* budget, const TablebaseOracle* tablebase)
    : tt_(tt), budget_(budget), tablebase_(tablebase), children_(kMaxPly + 1), lists_(kMaxPly + 1) {}

uint64_t Prover::Salt(const Question& q) {
  // Different questions about one position must not share facts.
  static constexpr uint64_t kSalts[3][2] = {{0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full},
                                            {0x165667B19E3779F9ull, 0xD6E8FEB86659FD93ull},
                                            {0x27D4EB2F165667C5ull, 0x85EBCA77C2B2AE63ull}};
  return kSalts[static_cast<int>(q.mode)][q.attacker];
}

uint16_t Prover::NormalizeDepth(uint16_t depth, bool attacker_to_move) {
  if (depth >= kUnbounded) return kUnbounded;
  // Attacker to move: mates take an odd number of plies; defender: even.
  const bool odd = depth & 1;
  if (attacker_to_move != odd && depth > 0) return static_cast<uint16_t>(depth - 1);
  return depth;
}

void Prover::Facts(const Position& pos, const Question& q, uint16_t* proof_len, int16_t* disproof_depth,
                   Move* best) const {
  uint32_t raw = 0;
  tt_->Facts(pos.key() ^ Salt(q), proof_len, disproof_depth, &raw);
  if (best) *best = Move::FromRaw(raw);
}

bool Prover::Stop() {
  if (aborted_) return true;
  if ((++stop_polls_ & 63) != 0 && !budget_->exhausted()) return false;
  budget_->Poll();
  if (budget_->exhausted() || (call_node_limit_ && budget_->nodes() - call_start_nodes_ >= call_node_limit_) ||
      (call_deadline_ > 0 && budget_->elapsed() >= call_deadline_))
    aborted_ = true;
  return aborted_;
}

void Prover::EnterPly(int ply, Move m, const StateInfo& st, bool check) {
  keys_[ply] = pos_->key();
  path_move_[ply] = m;
  path_state_[ply] = st;
  chased_[ply] = -1;
  in_check_[ply] = check ? pos_->InCheck() : -1;
  attacker_[ply] = pos_->side_to_move() == q_.attacker;
  irreversible_[ply] = st.captured != kNoPiece ? ply : irreversible_[ply - 1];
  // Material changes only with a capture (or a promotion, where there are any).
  if (weigh_now_) balance_[ply] = st.captured != kNoPiece || promotions_ ? Balance() : balance_[ply - 1];
}

// A position already on the path: the cycle's checks decide.
bool Prover::Repetition(int ply, Child* c) const {
  const int j = EarlierOccurrence(ply, irreversible_[ply], [this](int i) { return keys_[i]; });
  if (j < 0) return false;
  // in_check_[i]: the move into node i checked. The move into `ply` may not
  // have been tested yet, but its position is node j's, whose test was made.
  const CycleLoser loser = LoserOfCycle(
      pos_->variant().rules(), j, ply, [this, j, ply](int i) { return in_check_[i == ply ? j : i] != 0; },
      ChasesOnDemand(
          *pos_, j, ply, [this](int k) { return path_move_[k]; }, [this](int k) { return path_state_[k]; },
          [this](int k) -> int8_t& { return chased_[k]; }));
  const bool attacker_wins = Loses(loser, !attacker_[ply]);
  c->pn = attacker_wins ? 0 : kInf;
  c->dn = attacker_wins ? kInf : 0;
  c->len = 0;
  c->rep = static_cast<int16_t>(j);
  return true;
}

// The side to move has no legal move (or has lost its royal piece).
bool Prover::Terminal(int nmoves, bool in_check, Child* c) const {
  const Variant& v = pos_->variant();
  const Color us = pos_->side_to_move();
  Outcome o;
  if (v.rules().win == WinCondition::kCaptureRoyal && v.royal_kind() >= 0 && pos_->royal_square(us) < 0) {
    o = Outcome::kLoss;
  } else if (nmoves == 0) {
    o = in_check ? Outcome::kLoss : v.rules().stalemate;
  } else {
    return false;
  }
  const bool attacker = us == q_.attacker;
  const bool won = attacker ? o == Outcome::kWin : o == Outcome::kLoss;
  c->pn = won ? 0 : kInf;
  c->dn = won ? kInf : 0;
  c->len = 0;
  c->rep = kNoRep;
  return true;
}

// A table value decides the node: a win for the attacker with its distance,
// anything else no win. Checks-only searches only take the "no win".
bool Prover::ProbeTablebase(uint16_t depth, Child* c) const {
  TablebaseValue tv;
  if (!tablebase_ || !tablebase_->Probe(*pos_, &tv) || tv.result == Claim::kUnknown) return false;
  const bool attacker = pos_->side_to_move() == q_.attacker;
  const bool attacker_wins = attacker ? tv.result == Claim::kWin : tv.result == Claim::kLoss;
  c->rep = kNoRep;
  c->len = 0;
  if (!attacker_wins) {
    c->pn = kInf, c->dn = 0;
    return true;
  }
  if (q_.mode == Mode::kChecks || tv.dtm < 0) return false;
  if (tv.dtm > depth) {
    c->pn = kInf, c->dn = 0;
  } else {
    c->pn = 0, c->dn = kInf, c->len = static_cast<uint16_t>(tv.dtm);
  }
  return true;
}

// After a quiet attacker move: would the attacker, moving again, mate by
// consecutive checks? (The defender is not in check, so a pass is legal.)
bool Prover::Threatens() {
  if (!threat_prover_) threat_prover_ = std::make_unique<Prover>(tt_, budget_, nullptr);
  StateInfo st;
  pos_->DoNullMove(&st);
  const Answer a = threat_prover_->Prove(*pos_, {q_.attacker, Mode::kChecks, kUnbounded}, threat_nodes_);
  pos_->UndoNullMove(st);
  return a.status == ProofStatus::kProven;
}

bool Prover::Allowed(Position& pos, const Question& q) {
  if (q.mode == Mode::kAll || pos.InCheck()) return true;
  if (q.mode == Mode::kChecks) return false;
  Position* saved = pos_;
  const Question saved_q = q_;
  pos_ = &pos;
  q_ = q;
  const bool threat = Threatens();
  pos_ = saved;
  q_ = saved_q;
  return threat;
}

// Facts of the other modes carry over: a proof with fewer attacker moves is
// a proof with more, a disproof with more attacker moves one with fewer.
bool Prover::SharedFact(uint64_t raw_key, uint16_t depth, Child* c) const {
  if (proof_salt_) {
    const TTProbe p = tt_->Probe(raw_key ^ proof_salt_, depth);
    if (p.proven) {
      c->pn = 0, c->dn = kInf, c->len = p.proof_len;
      return true;
    }
  }
  if (disproof_salt_) {
    const TTProbe p = tt_->Probe(raw_key ^ disproof_salt_, depth);
    if (p.disproven) {
      c->pn = kInf, c->dn = 0;
      return true;
    }
  }
  return false;
}

// Initial numbers of the node at `ply` (already entered), searched to `depth`.
void Prover::InitChild(int ply, uint16_t depth, Child* c) {
  c->len = 0;
  c->rep = kNoRep;
  if (Repetition(ply, c)) return;
  const bool attacker = attacker_[ply];
  const Variant& v = pos_->variant();
  if (ply >= kMaxPly) {
    hit_ply_cap_ = true;
    c->pn = kInf, c->dn = 0, c->rep = kPathDep;
    return;
  }
  if (v.rules().halfmove_draw > 0 && pos_->halfmove_clock() >= v.rules().halfmove_draw) {
    MoveList tmp;
    pos_->GenerateLegal(&tmp);
    if (Terminal(tmp.size(), tmp.empty() && InCheckAt(ply), c)) return;  // a mate on the last move still counts
    c->pn = kInf, c->dn = 0, c->rep = kPathDep;         // the clock is not in the key
    return;
  }
  // The table first: facts, or the numbers of an earlier visit (a node
  // with numbers is not terminal, so its moves need not be generated).
  const uint64_t key = keys_[ply] ^ salt_;
  const TTProbe p = tt_->Probe(key, depth);
  if (p.proven) {
    c->pn = 0, c->dn = kInf, c->len = p.proof_len;
    return;
  }
  if (p.disproven) {
    c->pn = kInf, c->dn = 0;
    return;
  }
  if (p.has_numbers && depth > 1) {
    c->pn = Clamp(p.pn), c->dn = Clamp(p.dn);
    return;
  }
  if (SharedFact(keys_[ply], depth, c)) return;
  if (tablebase_ && ProbeTablebase(depth, c)) return;
  int nmoves = -1;
  if (!attacker && depth > 1 && !InCheckAt(ply)) {
    // A defender not in check: the pseudo-legal moves are a good enough
    // count for the proof number and skip a legality test per move. A
    // position without a legal move (stalemate) is still found: its
    // expansion generates legal moves.
    nmoves = pos_->CountPseudoLegal();
  }
  if (nmoves <= 0 && (!attacker || depth == 0)) {
    pos_->GenerateLegal(&scratch_);
    nmoves = scratch_.size();
    if (Terminal(nmoves, nmoves == 0 && InCheckAt(ply), c)) {
      if (c->pn == 0) tt_->StoreProof(key, 0, 0, 0);
      else tt_->StoreDisproof(key, kUnbounded, 0);
      return;
    }
  } else if (v.rules().win == WinCondition::kCaptureRoyal && Terminal(1, false, c)) {
    return;
  }
  if (depth == 0 || (!attacker && depth == 1)) {  // no mate within the depth left
    c->pn = kInf, c->dn = 0;
    return;
  }
  // Mobility: a defender with few replies is easy to mate. (In units of
  // kUnit, so that the material factor can lower a number too.)
  c->pn = kUnit * (attacker ? 1 : static_cast<uint32_t>(std::max(1, nmoves)));
  c->dn = kUnit;
  if (weigh_now_) WeighMaterial(ply, c);
  // An attacker node's numbers cost no work to make again: nothing to keep.
  if (!p.found && !attacker) tt_->StoreNumbers(key, depth, c->pn, c->dn, 0);  // never over another depth's numbers
}

// Killer moves: the move that last decided a node at this ply (the
// attacker's proof, the defender's refutation) often decides its cousins
// too, so it goes first among the children it ties with. Ordering only:
// the numbers are not changed. On every fourth 先胜局 puzzle at 10 M nodes
// it gave 5 more shortest mates proved (70 → 75 of 88); halving its number
// as well gave no more (docs/performance.md, round of stop 21).
void Prover::PreferKiller(int ply, std::vector<Child>* kids) const {
  for (size_t i = 1; i < kids->size(); ++i) {
    if ((*kids)[i].move.raw() != killer_[ply]) continue;
    std::rotate(kids->begin(), kids->begin() + static_cast<std::ptrdiff_t>(i),
                kids->begin() + static_cast<std::ptrdiff_t>(i) + 1);
    return;
  }
}

// Simulation (after Kawano's for tsume-shogi): the defender's moves at a
// node are often refuted the same way — a rook stepping along a rank, an
// interposition on another square. Once one is refuted (`proved`), each
// open sibling is tried against the attacker moves of that proof: at the
// attacker's nodes the move the table keeps for the proved line's position,
// at the defender's every legal reply, in step with the proved line. Only
// the sibling's own positions are judged (legality, mate, the table's
// facts, the endgame tables), so a simulated proof is a proof: one that
// needs a move the proved line does not have, or meets a repetition or a
// clock, fails and leaves the sibling to the search. A proof found stores
// its facts, path-independent since it passes no repetition.
void Prover::SimulateSiblings(int ply, uint16_t child_depth, Move proved, std::vector<Child>* kids) {
  if (simulation_lists_.empty()) simulation_lists_.resize(2 * (kMaxPly + 2));
  // One copy of each position for all the siblings (each attempt undoes
  // its moves).
  Position src = *pos_, dst = *pos_;
  StateInfo s1;
  src.DoMove(proved, &s1);
  for (Child& k : *kids) {
    if (k.pn == 0 || k.dn == 0) continue;  // the refuted move among them
    StateInfo s2;
    dst.DoMove(k.move, &s2);
    simulation_left_ = simulation_nodes_;
    uint16_t len = 0;
    const bool proved_too = SimulateAttacker(ply, 1, src, dst, child_depth, &len);
    dst.UndoMove(k.move, s2);
    if (proved_too) {
      k.pn = 0, k.dn = kInf, k.len = len, k.rep = kNoRep;
      ++simulated_;
    }
    if (aborted_) return;
  }
}

// A position of the simulated line met before, on the search's path (above
// the last capture or not: erring on the side of failing) or on the line.
bool Prover::SimulationRepeats(int ply, int sim_ply, uint64_t key) const {
  for (int i = 0; i <= ply; ++i)
    if (keys_[i] == key) return true;
  for (int i = 1; i < sim_ply; ++i)
    if (simulation_keys_[i] == key) return true;
  return false;
}

// Counts one position of the attempt; false where it must stop: its cap or
// the budget spent, the ply cap, or a repetition.
bool Prover::SimulationStep(int ply, int sim_ply, const Position& dst) {
  if (simulation_left_ == 0 || ply + sim_ply >= kMaxPly) return false;
  --simulation_left_;
  if (budget_->Tick()) aborted_ = true;
  return !aborted_ && !SimulationRepeats(ply, sim_ply, dst.key());
}

// Whether `dst` (with its legal moves) ends the game: -1 no, 1 the
// attacker has won, 0 lost.
int Prover::SimulatedTerminal(Position& dst, int nmoves) {
  Child c{};
  Position* saved = pos_;
  pos_ = &dst;  // Terminal reads the position through pos_
  const bool terminal = Terminal(nmoves, nmoves == 0 && dst.InCheck(), &c);
  pos_ = saved;
  return terminal ? c.pn == 0 : -1;
}

bool Prover::SimulateAttacker(int ply, int sim_ply, Position& src, Position& dst, uint16_t depth, uint16_t* len) {
  const uint32_t left_before = simulation_left_;
  if (!SimulationStep(ply, sim_ply, dst)) return false;
  const uint64_t key = dst.key();
  const Variant& v = dst.variant();
  if (v.rules().halfmove_draw > 0 && dst.halfmove_clock() >= v.rules().halfmove_draw) return false;
  const TTProbe p = tt_->Probe(key ^ salt_, depth);
  if (p.proven) {
    *len = p.proof_len;
    return true;
  }
  if (p.disproven || depth < 1) return false;
  if (proof_salt_) {
    const TTProbe shared = tt_->Probe(key ^ proof_salt_, depth);
    if (shared.proven) {
      *len = shared.proof_len;
      return true;
    }
  }
  if (tablebase_ && q_.mode == Mode::kAll) {
    TablebaseValue tv;
    if (tablebase_->Probe(dst, &tv) && tv.result != Claim::kUnknown) {
      if (tv.result != Claim::kWin || tv.dtm < 0 || tv.dtm > depth) return false;
      *len = static_cast<uint16_t>(tv.dtm);
      return true;
    }
  }
  // The proved line's move here.
  uint16_t pl;
  int16_t dd;
  uint32_t raw = 0;
  tt_->Facts(src.key() ^ salt_, &pl, &dd, &raw);
  if (!raw && proof_salt_) tt_->Facts(src.key() ^ proof_salt_, &pl, &dd, &raw);
  if (!raw) return false;
  const Move m = Move::FromRaw(raw);
  // No move lists here: the line's move must be legal in both positions (in
  // src too, for a slot may hold another position's move); where it is not
  // in dst the attempt fails, whether or not dst ends the game. Where it is,
  // dst has a move, so only a lost royal can end it.
  if (!AllowedIn(dst, m) || !AllowedIn(src, m)) return false;
  if (const int t = SimulatedTerminal(dst, 1); t >= 0) {
    *len = 0;
    return t == 1;
  }
  StateInfo s1, s2;
  dst.DoMove(m, &s2);
  if (q_.mode != Mode::kAll && !dst.InCheck()) {  // quiet threats are not simulated
    dst.UndoMove(m, s2);
    return false;
  }
  src.DoMove(m, &s1);
  simulation_keys_[sim_ply] = key;
  uint16_t l = 0;
  const uint16_t next = depth == kUnbounded ? kUnbounded : static_cast<uint16_t>(depth - 1);
  const bool ok = SimulateDefender(ply, sim_ply + 1, src, dst, next, &l);
  src.UndoMove(m, s1);
  dst.UndoMove(m, s2);
  if (!ok) return false;
  *len = static_cast<uint16_t>(l + 1);
  // Its work is the positions the attempt walked below here, as a search's
  // would be: with none, the replacement took these proofs first, and the
  // re-check (which follows the proof moves) had to search them again.
  tt_->StoreProof(key ^ salt_, *len, raw, left_before - simulation_left_);
  return true;
}

bool Prover::SimulateDefender(int ply, int sim_ply, Position& src, Position& dst, uint16_t depth, uint16_t* len) {
  if (!SimulationStep(ply, sim_ply, dst)) return false;
  const uint64_t key = dst.key();
  const Variant& v = dst.variant();
  // The table and the endgame tables first: a fact found needs no list.
  // Past the clock neither is asked (their facts hold without it), but a
  // mate on that move still counts.
  const bool clock_out = v.rules().halfmove_draw > 0 && dst.halfmove_clock() >= v.rules().halfmove_draw;
  if (!clock_out) {
    const TTProbe p = tt_->Probe(key ^ salt_, depth);
    if (p.proven) {
      *len = p.proof_len;
      return true;
    }
    if (p.disproven) return false;
    if (tablebase_ && q_.mode == Mode::kAll) {
      TablebaseValue tv;
      if (tablebase_->Probe(dst, &tv) && tv.result != Claim::kUnknown) {
        if (tv.result != Claim::kLoss || tv.dtm < 0 || tv.dtm > depth) return false;
        *len = static_cast<uint16_t>(tv.dtm);
        return true;
      }
    }
  }
  MoveList& legal = simulation_lists_[2 * sim_ply];
  dst.GenerateLegal(&legal);
  if (const int t = SimulatedTerminal(dst, legal.size()); t >= 0) {
    *len = 0;
    return t == 1;
  }
  if (clock_out || depth < 2) return false;
  // Each reply must be one of the proved line's too. In check the replies
  // are few and each is tested alone; otherwise src's list is cheaper.
  const bool one_by_one = legal.size() <= kSimulationRepliesTestedAlone;
  MoveList& src_legal = simulation_lists_[2 * sim_ply + 1];
  if (!one_by_one) src.GenerateLegal(&src_legal);
  simulation_keys_[sim_ply] = key;
  const uint16_t next = depth == kUnbounded ? kUnbounded : static_cast<uint16_t>(depth - 1);
  uint16_t longest = 0;
  for (const Move m : legal) {  // the deeper plies use lists of their own
    if (one_by_one ? !AllowedIn(src, m) : !src_legal.contains(m)) return false;
    StateInfo s1, s2;
    src.DoMove(m, &s1);
    dst.DoMove(m, &s2);
    uint16_t l = 0;
    const bool ok = SimulateAttacker(ply, sim_ply + 1, src, dst, next, &l);
    dst.UndoMove(m, s2);
    src.UndoMove(m, s1);
    if (!ok) return false;
    longest = std::max<uint16_t>(longest, static_cast<uint16_t>(l + 1));
  }
  *len = longest;
  return depth == kUnbounded || longest <= depth;
}

Prover::Result Prover::Mid(int ply, uint16_t depth, uint32_t thpn, uint32_t thdn) {
  Position& pos = *pos_;
  const bool or_node = attacker_[ply];
  const uint64_t key = keys_[ply] ^ salt_;
  const uint64_t nodes_before = budget_->nodes();
  const uint16_t child_depth =
      depth == kUnbounded ? kUnbounded : NormalizeDepth(static_cast<uint16_t>(depth - 1), !or_node);

  // Expand, in two loops: the first makes each move once to keep the ones
  // worth a child and fetch their table buckets, so that the probes of the
  // second (which gives the children their numbers) find them in cache.
  MoveList& moves = lists_[ply];
  std::vector<Child>& kids = children_[ply];
  pos.GenerateLegal(&moves);
  kids.clear();
  const bool filter = or_node && q_.mode != Mode::kAll;
  // A move with neither square on a line or leap to the defender's royal
  // cannot give check (the relevance table): checks-only searches do not
  // even make it, the others know its child is not in check.
  const Color us = pos.side_to_move();
  const int their_royal = or_node ? pos.royal_square(~us) : -1;
  const Variant& v = pos.variant();
  for (Move m : moves) {
    const bool cannot_check = their_royal >= 0 && m.type() <= MoveType::kPromotion &&
                              !(v.relevance(~us, their_royal, m.from()) | v.relevance(~us, their_royal, m.to()));
    if (cannot_check && filter && q_.mode == Mode::kChecks) continue;
    if (budget_->Tick()) aborted_ = true;
    int8_t check = cannot_check ? 0 : -1;
    uint64_t k;
    // Without a filter the move is made only to learn its key, when the
    // key cannot be worked out from the move.
    if (filter || !pos.KeyAfter(m, &k)) {
      StateInfo st;
      pos.DoMove(m, &st);
      if (filter) {
        if (check < 0) check = pos.InCheck();
        if (!check && (q_.mode == Mode::kChecks || !Threatens())) {
          pos.UndoMove(m, st);
          continue;
        }
      }
      k = pos.key();
      pos.UndoMove(m, st);
    }
    tt_->Prefetch(k ^ salt_);
    if (proof_salt_) tt_->Prefetch(k ^ proof_salt_);
    if (disproof_salt_) tt_->Prefetch(k ^ disproof_salt_);
    Child c{m, 1, 1, 0, kNoRep};
    c.check = check;
    kids.push_back(c);
  }
  size_t kept = 0;
  for (size_t i = 0; i < kids.size(); ++i) {
    Child c = kids[i];
    StateInfo st;
    pos.DoMove(c.move, &st);
    EnterPly(ply + 1, c.move, st, false);
    in_check_[ply + 1] = c.check;
    InitChild(ply + 1, child_depth, &c);
    pos.UndoMove(c.move, st);
    kids[kept++] = c;
    // A decided child that decides this node and depends on nothing above it.
    if ((or_node ? c.pn == 0 : c.dn == 0) && c.rep >= ply) break;
  }
  kids.resize(kept);
  if (killers_ && killer_[ply] && kids.size() > 1) PreferKiller(ply, &kids);

  Result r{1, 1, 0, kNoRep};
  Result open{kUnit, kUnit, 0, kNoRep};  // the last numbers before a decision (a new node's before any)
  uint32_t proof_move = 0;
  if (kids.empty()) {
    Child c{};
    if (!Terminal(moves.size(), in_check_[ply], &c)) {  // moves but no checks: no consecutive-check mate
      c.pn = kInf, c.dn = 0, c.len = 0, c.rep = kNoRep;
    }
    r = {c.pn, c.dn, c.len, c.rep};
  }

  while (!kids.empty()) {
    // This node's numbers from its children.
    uint32_t best_num = kInf, second = kInf, sum = 0;
    int best = -1;
    bool decided = false;
    if (or_node) {
      int proven = -1, disproven_all = 1;
      int16_t rep_min = kNoRep;
      for (int i = 0; i < static_cast<int>(kids.size()); ++i) {
        const Child& c = kids[i];
        if (c.pn == 0) {
          // Prefer a proof that depends on nothing above, then the shorter.
          if (proven < 0 || (c.rep >= ply && kids[proven].rep < ply) ||
              ((c.rep >= ply) == (kids[proven].rep >= ply) && c.len < kids[proven].len))
            proven = i;
        }
        if (c.dn != 0) disproven_all = 0;
        rep_min = std::min(rep_min, c.rep);
        if (c.pn < best_num) second = best_num, best_num = c.pn, best = i;
        else if (c.pn < second) second = c.pn;
        sum = SatAdd(sum, c.dn);
      }
      if (proven >= 0) {
        r = {0, kInf, static_cast<uint16_t>(kids[proven].len + 1), kids[proven].rep};
        proof_move = kids[proven].move.raw();
        decided = true;
      } else if (disproven_all) {
        r = {kInf, 0, 0, rep_min};
        decided = true;
      } else {
        r = {best_num, sum, 0, kNoRep};
      }
    } else {
      int disproven = -1, proven_all = 1;
      int16_t rep_min = kNoRep;
      uint16_t len_max = 0;
      for (int i = 0; i < static_cast<int>(kids.size()); ++i) {
        const Child& c = kids[i];
        if (c.dn == 0) {
          if (disproven < 0 || c.rep > kids[disproven].rep) disproven = i;
        }
        if (c.pn != 0) proven_all = 0;
        else len_max = std::max(len_max, c.len);
        rep_min = std::min(rep_min, c.rep);
        if (c.dn < best_num) second = best_num, best_num = c.dn, best = i;
        else if (c.dn < second) second = c.dn;
        sum = SatAdd(sum, c.pn);
      }
      if (disproven >= 0) {
        r = {kInf, 0, 0, kids[disproven].rep};
        proof_move = kids[disproven].move.raw();  // the refutation (kept as a killer only)
        decided = true;
      } else if (proven_all) {
        r = {0, kInf, static_cast<uint16_t>(len_max + 1), rep_min};
        decided = true;
      } else {
        r = {sum, best_num, 0, kNoRep};
      }
    }
    if (!decided) open = r;
    if (decided || r.pn >= thpn || r.dn >= thdn || aborted_ || Stop()) break;

    // Descend into the most promising child.
    Child& c = kids[best];
    uint32_t child_thpn, child_thdn;
    if (or_node) {
      child_thpn = std::min(thpn, Widen(second));
      child_thdn = thdn >= kInf ? kInf : SatAdd(thdn - r.dn, c.dn);
    } else {
      child_thdn = std::min(thdn, Widen(second));
      child_thpn = thpn >= kInf ? kInf : SatAdd(thpn - r.pn, c.pn);
    }
    // The child must be able to move its numbers before it returns, or the
    // loop would spin when numbers saturate.
    child_thpn = std::max(child_thpn, c.pn >= kBig ? kInf : c.pn + 1);
    child_thdn = std::max(child_thdn, c.dn >= kBig ? kInf : c.dn + 1);
    StateInfo st;
    pos.DoMove(c.move, &st);
    EnterPly(ply + 1, c.move, st, c.check < 0);
    if (c.check >= 0) in_check_[ply + 1] = c.check;
    const Result cr = Mid(ply + 1, child_depth, child_thpn, child_thdn);
    pos.UndoMove(c.move, st);
    c.pn = cr.pn, c.dn = cr.dn, c.len = cr.len, c.rep = cr.rep;
    if (!or_node && cr.pn == 0 && simulation_nodes_ && kids.size() > 1 && !aborted_)
      SimulateSiblings(ply, child_depth, c.move, &kids);
  }

  const uint32_t work = static_cast<uint32_t>(std::min<uint64_t>(budget_->nodes() - nodes_before, 0xFFFFFFFFu));
  if (proof_move) killer_[ply] = proof_move;
  if (r.pn == 0 || r.dn == 0) {
    if (r.rep >= ply) {
      if (r.pn == 0) tt_->StoreProof(key, r.len, proof_move, work);
      else tt_->StoreDisproof(key, depth, work);
    } else {
      // Decided only on this path: a repetition above it decides (the
      // loser's perpetual check or chase; a cycle the winner cannot avoid).
      // Stored with the numbers from before the decision, so that other
      // paths see the node as it was; a proof keeps its move, a hint for
      // the re-check that walks this path again. "Nearly proved" (pn 1)
      // lured every path to such nodes, "nearly disproved" (dn 1) kept every
      // path off them — except in depth-bounded searches (the shortest
      // mate's, the book audit's), whose exhaustion the hint speeds:
      // docs/solver.md, "GHI".
      if (r.pn != 0 && q_.depth != kUnbounded)
        tt_->StoreNumbers(key, depth, kBig, 1, work);
      else
        tt_->StoreNumbers(key, depth, open.pn, open.dn, work, r.pn == 0 ? proof_move : 0);
    }
  } else {
    tt_->StoreNumbers(key, depth, r.pn, r.dn, work);
  }
  return r;
}

Answer Prover::Prove(Position& pos, const Question& q, uint64_t node_limit, double deadline_s) {
  pos_ = &pos;
  q_ = q;
  salt_ = Salt(q);
  // The checks-only facts of the same attacker prove for the wider modes;
  // the all-moves facts disprove for the narrower ones.
  proof_salt_ = q.mode == Mode::kChecks ? 0 : Salt({q.attacker, Mode::kChecks, q.depth});
  disproof_salt_ = q.mode == Mode::kAll ? 0 : Salt({q.attacker, Mode::kAll, q.depth});
  aborted_ = false;
  hit_ply_cap_ = false;
  call_start_nodes_ = budget_->nodes();
  call_node_limit_ = node_limit;
  call_deadline_ = deadline_s;
  Answer a;

  // Only the full-width searches weigh material (weighing the checks-only
  // one too changed nothing measured, docs/solver.md).
  weigh_now_ = material_weight_ > 0 && q.mode == Mode::kAll;
  if (weigh_now_) {
    const Variant& v = pos.variant();
    for (int k = 0; k < v.kind_count(); ++k) values_[k] = k == v.royal_kind() ? 0 : v.kind(k).value;
    promotions_ = !v.rules().promotion_kinds.empty();
    balance_[0] = Balance();
  }
  keys_[0] = pos.key();
  in_check_[0] = pos.InCheck();
  attacker_[0] = pos.side_to_move() == q.attacker;
  irreversible_[0] = 0;
  if (killers_) std::fill(std::begin(killer_), std::end(killer_), 0u);
  const uint16_t depth = NormalizeDepth(q.depth, attacker_[0]);

  const TTProbe p = tt_->Probe(keys_[0] ^ salt_, depth);
  if (p.proven || p.disproven) {
    a.status = p.proven ? ProofStatus::kProven : ProofStatus::kDisproven;
    a.length = p.proven ? p.proof_len : -1;
    return a;
  }
  Child root{};
  if (SharedFact(keys_[0], depth, &root)) {
    a.status = root.pn == 0 ? ProofStatus::kProven : ProofStatus::kDisproven;
    a.length = root.pn == 0 ? root.len : -1;
    return a;
  }
  root.rep = kNoRep;
  pos.GenerateLegal(&scratch_);
  if (Terminal(scratch_.size(), in_check_[0], &root)) {
    a.status = root.pn == 0 ? ProofStatus::kProven : ProofStatus::kDisproven;
    a.length = root.pn == 0 ? 0 : -1;
    return a;
  }
  if (depth == 0) {
    a.status = ProofStatus::kDisproven;
    return a;
  }
  Result r{1, 1, 0, kNoRep};
  while (!Stop()) {
    r = Mid(0, depth, kInf, kInf);
    if (r.pn == 0 || r.dn == 0) break;
  }
  a.nodes = budget_->nodes() - call_start_nodes_;
  a.hit_ply_cap = hit_ply_cap_;
  if (r.pn == 0) {
    a.status = ProofStatus::kProven;
    a.length = r.len;
  } else if (r.dn == 0 && r.rep >= 0) {
    a.status = ProofStatus::kDisproven;
  }
  return a;
}

}  // namespace canju::solver
