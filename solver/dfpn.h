// Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε
// threshold trick (Pawlewicz & Lew 2007), a mobility heuristic for the
// initial proof numbers, a transposition table shared by bounded and
// unbounded searches, and repetition handling that follows the Asian rule
// on perpetual check. Works for every variant: it only uses Position's
// legal move generator and the variant's rule flags.
//
// A question is "does `attacker` force a win from here?" with two knobs:
//   * mode: which attacker moves are tried (checks only, checks and
//     threats, or all);
//   * depth: the attacker must mate within that many plies (kUnbounded: no
//     limit). Bounded searches give exact mate lengths (solver.cpp).
// Repetition (a position seen earlier on the current path) is never a win
// for the attacker, unless the defender is the only side that checked on
// every move of the cycle and the variant makes perpetual check lose
// (Xiangqi), in which case the defender must deviate and the cycle counts
// as a win. Results that depend on a repetition with a position above the
// node are path-dependent and are kept out of the table's facts (GHI).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "solver/oracle.h"
#include "solver/tt.h"
#include "variants/position.h"

namespace canju::solver {

// Which attacker moves the search tries. Restricting the attacker keeps
// proofs sound; a disproof then only says "no win of this kind".
enum class Mode : uint8_t {
  kChecks,   // every attacker move checks (连将杀)
  kThreats,  // checks, and quiet moves that threaten a mate by checks
             // (after them a pass by the defender would lose to checks)
  kAll,      // every legal move
};

struct Question {
  Color attacker = kFirst;
  Mode mode = Mode::kChecks;
  uint16_t depth = kUnbounded;  // plies the attacker may use from the root
};

enum class ProofStatus : uint8_t { kProven, kDisproven, kUnknown };

struct Answer {
  ProofStatus status = ProofStatus::kUnknown;
  int length = -1;   // when proven: plies to mate along the proof (an upper bound)
  uint64_t nodes = 0;
  bool hit_ply_cap = false;  // unknown because lines ran past the ply cap
};

// Node and time limits shared by every search of one solve.
class Budget {
 public:
  // 0 = no limit. `stop` and `cancel` (optional: the user's stop, and a
  // race's "another racer decided") are polled with the clock. With
  // `cpu_clock` the seconds are the calling thread's CPU time (the budget
  // must then be used by the thread that made it).
  Budget(uint64_t max_nodes, double max_seconds, const std::atomic<bool>* stop = nullptr, bool cpu_clock = false,
         const std::atomic<bool>* cancel = nullptr);

  // Counts one node; true once the budget is spent (sticky).
  bool Tick() {
    ++nodes_;
    if ((nodes_ & 1023) == 0) Poll();
    return exhausted_;
  }
  bool exhausted() const { return exhausted_; }
  uint64_t nodes() const { return nodes_; }
  double elapsed() const;
  double seconds_left() const;  // infinity when unlimited
  uint64_t nodes_left() const;  // ~0 when unlimited
  // Checks the clock and the stop flag now.
  void Poll();

 private:
  uint64_t max_nodes_;
  double max_seconds_;
  const std::atomic<bool>* stop_;
  const std::atomic<bool>* cancel_;
  uint64_t nodes_ = 0;
  bool exhausted_ = false;
  bool cpu_clock_;
  double start_;
  double Now() const;
};

class Prover {
 public:
  static constexpr int kMaxPly = 240;

  // `tablebase` (may be null) is probed at every new node whose material
  // has a table; its values end the search there (not in checks-only
  // searches, where a table win need not be a mate by checks).
  Prover(TranspositionTable* tt, Budget* budget, const TablebaseOracle* tablebase = nullptr);

  // Answers the question for `pos` (restored on return). `node_limit`
  // (0 = none) caps this call on top of the shared budget; `deadline_s`
  // (0 = none) caps it in seconds of the budget's clock.
  Answer Prove(Position& pos, const Question& q, uint64_t node_limit = 0, double deadline_s = 0);

  // What the table knows about `pos` for question `q`: the shortest proof
  // length stored (kNoProof if none) and the deepest disproof.
  void Facts(const Position& pos, const Question& q, uint16_t* proof_len, int16_t* disproof_depth,
             Move* best = nullptr) const;

  // The depth a node with this side to move really needs (mates end after
  // an attacker move, so the parity of the depth is fixed).
  static uint16_t NormalizeDepth(uint16_t depth, bool attacker_to_move);
  static uint64_t Salt(const Question& q);

  // Node cap of the checks-only search that tests a quiet move for a threat
  // (Mode::kThreats). Undecided tests count as "no threat" this time; the
  // table keeps their numbers, so the next visit goes further.
  void set_threat_nodes(uint64_t n) { threat_nodes_ = n; }
  // How much the full-width searches weigh material won or lost since the
  // root in a new node's numbers (dfpn.cpp, WeighMaterial): eighths of a
  // factor per unit of the variant's piece values; 0 (the default here;
  // SolveOptions sets it) = not at all.
  void set_material_weight(int w) { material_weight_ = w < 0 ? 0 : w; }
  // Killer moves (dfpn.cpp, PreferKiller): the move that last decided a
  // node at the same ply (the attacker's proving move, the defender's
  // refutation) goes first among a new node's children that tie with it.
  void set_killers(bool on) { killers_ = on; }
  // Simulation (dfpn.cpp, SimulateSiblings): where a defender move has just
  // been refuted, the defender's other moves are first tried against the
  // same attacker moves, verified without search, `nodes` positions each
  // (0: off).
  void set_simulation_nodes(uint32_t nodes) { simulation_nodes_ = nodes; }
  // Siblings proved by simulation so far (all calls).
  uint64_t simulated() const { return simulated_; }
  // Whether the attacker may play the move that led to `pos` in mode `mode`
  // (the attacker has just moved).
  bool Allowed(Position& pos, const Question& q);

 private:
  struct Child {
    Move move;
    uint32_t pn, dn;
    uint16_t len;
    int16_t rep;
    int8_t check = -1;  // the move checks (1) or not (0); -1: not worked out
  };
  struct Result {
    uint32_t pn, dn;
    uint16_t len;
    int16_t rep;
  };

  Result Mid(int ply, uint16_t depth, uint32_t thpn, uint32_t thdn);
  // After DoMove: fills the path arrays; whether the side to move is in
  // check is only worked out when `check` (or later, when needed).
  void EnterPly(int ply, Move m, const StateInfo& st, bool check);
  bool InCheckAt(int ply) {
    if (in_check_[ply] < 0) in_check_[ply] = pos_->InCheck();
    return in_check_[ply];
  }
  void InitChild(int ply, uint16_t depth, Child* c);
  bool Repetition(int ply, Child* c) const;
  bool Terminal(int nmoves, bool in_check, Child* c) const;
  bool Stop();

  bool ProbeTablebase(uint16_t depth, Child* c) const;
  bool Threatens();  // the attacker, to move again, mates by checks
  bool SharedFact(uint64_t raw_key, uint16_t depth, Child* c) const;
  int Balance() const;  // attacker's material minus the defender's
  void WeighMaterial(int ply, Child* c) const;
  void PreferKiller(int ply, std::vector<Child>* kids) const;
  void SimulateSiblings(int ply, uint16_t child_depth, Move proved, std::vector<Child>* kids);
  bool SimulateAttacker(int ply, int sim_ply, Position& src, Position& dst, uint16_t depth, uint16_t* len);
  bool SimulateDefender(int ply, int sim_ply, Position& src, Position& dst, uint16_t depth, uint16_t* len);
  bool SimulationRepeats(int ply, int sim_ply, uint64_t key) const;
  bool SimulationStep(int ply, int sim_ply, const Position& dst);
  int SimulatedTerminal(Position& dst, int nmoves);

  TranspositionTable* tt_;
  Budget* budget_;
  const TablebaseOracle* tablebase_;
  Position* pos_ = nullptr;
  Question q_;
  uint64_t salt_ = 0;
  uint64_t proof_salt_ = 0, disproof_salt_ = 0;  // other modes' facts that apply (0: none)
  uint64_t call_start_nodes_ = 0, call_node_limit_ = 0;
  double call_deadline_ = 0;
  bool aborted_ = false;
  uint32_t stop_polls_ = 0;
  bool hit_ply_cap_ = false;

  // The current path: position keys, whether the side to move is in check,
  // whether it is the attacker, and the ply of the last capture (positions
  // before it cannot come back).
  uint64_t keys_[kMaxPly + 2] = {};
  int8_t in_check_[kMaxPly + 2] = {};  // -1: not worked out yet
  // The move into each ply and its undo record, for the chases of a cycle
  // (repetition.h), worked out only when a cycle asks: -1 not yet.
  Move path_move_[kMaxPly + 2] = {};
  StateInfo path_state_[kMaxPly + 2] = {};
  mutable int8_t chased_[kMaxPly + 2] = {};
  bool attacker_[kMaxPly + 2] = {};
  int irreversible_[kMaxPly + 2] = {};
  std::vector<std::vector<Child>> children_;
  std::vector<MoveList> lists_;
  MoveList scratch_;
  std::unique_ptr<Prover> threat_prover_;
  uint64_t threat_nodes_ = 300;
  // The material heuristic (WeighMaterial): weight in eighths per unit of
  // material, 0 = off; whether this question uses it; the piece values,
  // whether pawns promote, and the balance at each ply of the path.
  int material_weight_ = 0;
  bool weigh_now_ = false;
  bool promotions_ = false;
  int values_[kMaxKinds] = {};
  int balance_[kMaxPly + 2] = {};
  bool killers_ = false;
  uint32_t killer_[kMaxPly + 2] = {};  // Move::raw() of the last deciding move per ply (0: none)
  uint32_t simulation_nodes_ = 0;
  uint32_t simulation_left_ = 0;              // of the attempt under way
  uint64_t simulated_ = 0;
  std::vector<MoveList> simulation_lists_;    // two per ply of a simulated line
  uint64_t simulation_keys_[kMaxPly + 2] = {};
};

}  // namespace canju::solver
