#include "solver/verify.h"

#include <cctype>
#include <ctime>
#include <memory>
#include <sstream>

#include "variants/notation.h"
#include "variants/registry.h"

namespace canju {

const char* SolverVersion() { return "canju-dfpn 1"; }

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

void Audit(const Record& rec, const Position& root, Solver& solver, const SolveResult& sr, VerifyReport* out) {
  // The main line, as far as it goes.
  std::vector<std::string> line;
  for (const std::vector<MoveNode>* v = &rec.moves; !v->empty(); v = &(*v)[0].next) line.push_back((*v)[0].move);
  out->book_plies = static_cast<int>(line.size());
  if (line.empty()) return;
  Position pos = root;
  int d = sr.mate_plies;  // distance before the move (exact)
  bool exact = sr.mate_exact;
  bool complete = true, whole_line = false;
  const char* kind = WinKind(sr.proof);
  for (size_t i = 0; i < line.size(); ++i) {
    BookDeparture dep;
    dep.ply = static_cast<int>(i);
    dep.move = line[i];
    Move m;
    Status st = ParseCoordMove(pos, line[i], &m);
    if (!st.ok()) st = ParseAnyMove(pos, line[i], &m);
    if (!st.ok()) {
      dep.kind = BookDeparture::Kind::kIllegal;
      dep.text = "move " + std::to_string(i + 1) + " (" + line[i] + ") is not legal here: " + st.message();
      out->book.push_back(dep);
      complete = false;
      break;
    }
    dep.human = MoveToHuman(pos, m);
    const bool winner = solver.WinnerToMove(pos);
    StateInfo si;
    pos.DoMove(m, &si);
    bool after_exact = false;
    const int after = solver.Distance(pos, &after_exact);
    dep.best_plies = d;
    dep.book_plies = after >= 0 ? after + 1 : -1;
    std::string side = pos.variant().color_name(~pos.side_to_move());  // who made the move
    if (!side.empty()) side[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(side[0])));
    const std::string where = "move " + std::to_string(i + 1) + " " + dep.human + " (" + line[i] + ", " + side + ")";
    if (after == -2) {
      dep.kind = BookDeparture::Kind::kUndecided;
      dep.text = where + ": the budget ran out before this move could be checked";
      out->book.push_back(dep);
      complete = false;
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
    if (i + 1 == line.size()) whole_line = true;
  }
  if (whole_line && d > 0) {
    BookDeparture dep;
    dep.kind = BookDeparture::Kind::kStopsEarly;
    dep.ply = static_cast<int>(line.size());
    dep.best_plies = d;
    dep.text = "the main line stops " + Plies(d) + " before mate";
    out->book.push_back(dep);
  }
  out->book_audited = complete;
}

}  // namespace

Status VerifyRecord(const Record& rec, const VerifyOptions& options, VerifyReport* out) {
  *out = VerifyReport{};
  Verdict& v = out->verdict;
  v.verified_at = static_cast<int64_t>(std::time(nullptr));
  v.solver = SolverVersion();
  v.kind = VerdictKind::kUnproven;

  auto it = rec.tags.find("import_error");
  if (it != rec.tags.end()) {
    v.reason = "the position could not be set up: " + it->second;
    return Status::InvalidArgument(rec.source + ": " + v.reason);
  }
  std::shared_ptr<const Variant> variant;
  Status st = LoadVariant(rec.variant.empty() ? "xiangqi" : rec.variant, &variant);
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

  SolveOptions so = options.solve;
  const double total_s = so.max_seconds;
  const uint64_t total_n = so.max_nodes;
  Solver solver(so);
  const SolveResult sr = solver.Solve(root);
  out->solve = sr;

  v.proven = sr.result;
  v.mate_plies = sr.mate_plies;
  v.nodes = sr.nodes;
  v.seconds = sr.seconds;
  {
    Position p = root;
    for (Move m : sr.pv) {
      v.pv.push_back(MoveToCoord(*variant, m));
      StateInfo si;
      p.DoMove(m, &si);
    }
  }
  for (const FirstMove& f : sr.first_moves)
    if (f.result == Claim::kWin && (sr.pv.empty() || f.move != sr.pv[0])) v.cooks.push_back(MoveToCoord(*variant, f.move));

  const Claim claim = rec.claimed;
  const std::string proved_line = sr.pv.empty() ? std::string() : ": " + Line(root, sr.pv);
  if (sr.result == Claim::kUnknown && claim == Claim::kWin && sr.no_win) {
    // Not what the position is, but enough to say the claim is false.
    v.kind = VerdictKind::kRefuted;
    v.reason = "the side to move cannot force a win (every line searched; repetitions draw, perpetual check loses)";
  } else if (sr.result == Claim::kUnknown) {
    v.kind = VerdictKind::kUnproven;
    v.reason = sr.note.empty() ? "undecided within the budget" : sr.note;
    if (claim == Claim::kDraw) v.reason += "; a draw needs the tables (--tb) or both sides' searches exhausted";
  } else if (claim == Claim::kUnknown) {
    v.kind = VerdictKind::kUnproven;
    v.reason = std::string("no claim to check; proved: ") + ClaimName(sr.result) + proved_line;
  } else if (sr.result == claim) {
    v.kind = VerdictKind::kConfirmed;
    v.reason = sr.note;
  } else {
    v.kind = VerdictKind::kRefuted;
    std::ostringstream why;
    if (sr.result == Claim::kDraw) {
      why << "the position is a draw (" << ProofKindName(sr.proof) << ")";
    } else {
      const char* side = sr.result == Claim::kWin ? "the side to move wins" : "the side to move loses";
      why << side;
      if (sr.mate_plies >= 0) why << " (mate in " << Plies(sr.mate_plies) << (sr.mate_exact ? "" : " or less") << ")";
      why << proved_line;
    }
    v.reason = why.str();
  }

  // The book line, with whatever budget is left.
  if (options.audit_book && !rec.moves.empty() && (sr.result == Claim::kWin || sr.result == Claim::kLoss) &&
      sr.mate_exact) {
    // What the solve left, and at least the audit's reserve.
    const double left_s = total_s > 0 ? std::max(total_s * options.audit_reserve, total_s - sr.seconds) : 0;
    const uint64_t reserve_n = static_cast<uint64_t>(total_n * options.audit_reserve);
    const uint64_t left_n = total_n > 0 ? std::max(reserve_n, total_n > sr.nodes ? total_n - sr.nodes : 0) : 0;
    solver.ResetBudget(left_s, left_n);
    Audit(rec, root, solver, sr, out);
    for (const BookDeparture& d : out->book) v.book_notes.push_back(d.text);
    if (!out->book_audited) v.book_notes.push_back("book line not fully checked within the budget");
    v.nodes += solver.nodes();
    v.seconds += solver.seconds();
  } else if (!rec.moves.empty()) {
    for (const std::vector<MoveNode>* n = &rec.moves; !n->empty(); n = &(*n)[0].next) ++out->book_plies;
  }
  return Status::OK();
}

}  // namespace canju
