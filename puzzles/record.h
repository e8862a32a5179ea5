// The puzzle model shared by the importer (which produces records), the store
// (which keeps them), the verifier (which adds verdicts) and the web page.
// Plain data, no RocksDB here; serialisation lives in puzzles/serialize.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "variants/variant.h"

namespace canju {

// A result from the side to move's point of view.
enum class Claim : uint8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };

inline const char* ClaimName(Claim c) {
  switch (c) {
    case Claim::kWin: return "win";
    case Claim::kDraw: return "draw";
    case Claim::kLoss: return "loss";
    default: return "unknown";
  }
}
inline bool ParseClaim(const std::string& s, Claim* out) {
  if (s == "win") return *out = Claim::kWin, true;
  if (s == "draw") return *out = Claim::kDraw, true;
  if (s == "loss") return *out = Claim::kLoss, true;
  if (s == "unknown") return *out = Claim::kUnknown, true;
  return false;
}

// A node of a move tree: the move that leads here and what follows.
struct MoveNode {
  std::string move;             // coordinate move: ICCS for Xiangqi ("h2e2"), UCI-like for chess
  std::string comment;          // UTF-8, shown after the move
  std::vector<MoveNode> next;   // continuations; next[0] is the main line
};

enum class VerdictKind : uint8_t { kNone = 0, kConfirmed = 1, kRefuted = 2, kUnproven = 3 };

inline const char* VerdictName(VerdictKind k) {
  switch (k) {
    case VerdictKind::kConfirmed: return "confirmed";
    case VerdictKind::kRefuted: return "refuted";
    case VerdictKind::kUnproven: return "unproven";
    default: return "none";
  }
}

// Verdict::cooks_scope / SolveResult::cooks_scope in words.
inline const char* CooksScopeName(int scope) {
  switch (scope) {
    case 0: return "none";
    case 1: return "checks";
    case 2: return "checks and threats";
    case 3: return "all";
    default: return "not recorded";
  }
}

// Verdict::proof_check in words; nullptr when none was made or recorded
// (a JSON null).
inline const char* ProofCheckName(int code) {
  switch (code) {
    case 1: return "holds";
    case 0: return "incomplete";
    default: return nullptr;
  }
}

// What the solver found about a record's claim.
struct Verdict {
  VerdictKind kind = VerdictKind::kNone;
  Claim proven = Claim::kUnknown;   // what was proved (side to move's view)
  int mate_plies = -1;              // forced mate length in plies, -1 if none/unknown
  // Whether mate_plies is the shortest mate (1) or only an upper bound from
  // the proof (0); -1: not recorded (verdicts stored before the field).
  int8_t mate_exact = -1;
  // Which other first moves were searched for cooks (SolveResult::cooks_scope:
  // 0 none, 1 checks, 2 checks and threats, 3 all); -1: not recorded. An
  // empty `cooks` means "no cook" only when this is above 0.
  int8_t cooks_scope = -1;
  std::vector<std::string> pv;      // principal variation, coordinate moves
  std::vector<std::string> cooks;   // other winning first moves (多解)
  std::string reason;               // refutation line or why unproven, readable
  std::vector<std::string> book_notes;  // where the book's main line departs from best play
  uint64_t nodes = 0;
  double seconds = 0;
  int64_t verified_at = 0;          // unix time
  std::string solver;               // solver name/version that produced it
  // The claim the verdict confirms or refutes (side to move's view): the
  // record's own, or, for a record without one (line lists), the one read
  // from the end of its book line or the verifier's default; kUnknown for
  // verdicts stored before the field (version 2) and claims left unknown.
  Claim checked = Claim::kUnknown;
  std::string checked_from;         // where `checked` came from when not the record's; empty otherwise
  // The independent re-check of the confirmed mate (solver/proof_check.h):
  // 1 holds, 0 incomplete (its node limit ran out), -1 none made (no mate,
  // a table's result) or not recorded (verdicts stored before version 3).
  int8_t proof_check = -1;
  // The same re-check of each cook's mate, one code per entry of `cooks`
  // (1 holds, 0 incomplete, -1 none made); empty for verdicts stored before
  // version 4.
  std::vector<int8_t> cooks_check;
};

// The re-check of the verdict's i-th cook in words (ProofCheckName), or
// nullptr where none was made or recorded.
inline const char* CookCheckName(const Verdict& v, size_t i) {
  return ProofCheckName(i < v.cooks_check.size() ? v.cooks_check[i] : -1);
}

// The rule options a verdict was reached under (`canju verify --set`):
// Verdict::solver is the solver's name and version, then "; option" for
// each option. Empty: the variant's own rules.
inline constexpr const char* kVerdictRuleSeparator = "; ";
inline std::string VerdictSolverText(const std::string& solver, const std::vector<std::string>& rules) {
  std::string text = solver;
  for (const std::string& o : rules) text += kVerdictRuleSeparator + o;
  return text;
}
inline std::vector<std::string> VerdictRules(const Verdict& v) {
  std::vector<std::string> rules;
  const std::string sep = kVerdictRuleSeparator;
  for (size_t at = v.solver.find(sep); at != std::string::npos;) {
    const size_t from = at + sep.size();
    at = v.solver.find(sep, from);
    rules.push_back(v.solver.substr(from, at == std::string::npos ? std::string::npos : at - from));
  }
  return rules;
}
// The same options, in any order or spelling (CanonicalOverrides).
inline bool SameRules(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return CanonicalOverrides(a) == CanonicalOverrides(b);
}

struct Record {
  std::string variant = "xiangqi";
  std::string fen;                  // start position, full FEN
  std::string collection;           // e.g. 适情雅趣
  int number = 0;                   // number within the collection, 0 if none
  std::string title;
  std::string author;
  std::string source;               // file it came from (and index inside it)
  std::map<std::string, std::string> tags;  // other metadata: event, date, red, black, ...
  Claim claimed = Claim::kUnknown;  // claimed result for the side to move
  std::string comment;              // before the first move
  std::vector<MoveNode> moves;      // root continuations; moves[0] is the main line
  // The main verdict: under the variant's own rules where the record has
  // one (FileVerdict); kNone if never verified.
  Verdict verdict;
  // Verdicts reached under other rule options (`verify --set`), one per set
  // of options, none with the main verdict's options; empty for records
  // stored before Record class version 1.
  std::vector<Verdict> other_rules;
};

// The record's verdict under these options (any order), or nullptr.
inline const Verdict* VerdictUnder(const Record& r, const std::vector<std::string>& rules) {
  if (r.verdict.kind != VerdictKind::kNone && SameRules(VerdictRules(r.verdict), rules)) return &r.verdict;
  for (const Verdict& v : r.other_rules)
    if (SameRules(VerdictRules(v), rules)) return &v;
  return nullptr;
}

// Files `v` with the record's verdicts, one per set of rule options: it
// replaces the verdict reached under the same options. The main verdict
// (Record::verdict, the one listed, indexed and shown first) is the one
// under the variant's own rules where there is one: a verdict under other
// options goes beside it (Record::other_rules), and one under the
// variant's own rules takes the main place, moving a main verdict of other
// options beside it.
inline void FileVerdict(Record* r, const Verdict& v) {
  if (r->verdict.kind == VerdictKind::kNone || SameRules(VerdictRules(r->verdict), VerdictRules(v))) {
    r->verdict = v;
    return;
  }
  // Kept: other_rules never holds the main verdict's options, nor one set twice.
  const std::vector<std::string> rules = VerdictRules(v);
  std::erase_if(r->other_rules, [&](const Verdict& o) { return SameRules(VerdictRules(o), rules); });
  if (rules.empty()) {
    // The variant's own rules take the main place; the other options' verdict moves beside it.
    r->other_rules.insert(r->other_rules.begin(), std::move(r->verdict));
    r->verdict = v;
  } else {
    r->other_rules.push_back(v);
  }
}

}  // namespace canju
