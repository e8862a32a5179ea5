#include "importer/game.h"

#include <cctype>

#include "importer/text.h"
#include "variants/placement.h"
#include "variants/registry.h"

namespace canju::importer {
namespace {

const Variant& Xiangqi() { return BuiltinVariant("xiangqi"); }

std::string SquareText(int sq) {
  if (sq < 0 || FileOf(sq) > 8 || RankOf(sq) > 9) return "??";
  return std::string(1, static_cast<char>('a' + FileOf(sq))) + static_cast<char>('0' + RankOf(sq));
}

// How a raw move reads in a message.
std::string RawMoveText(const RawNode& n) {
  if (n.from >= 0 || n.to >= 0) return SquareText(n.from) + SquareText(n.to);
  return n.text;
}

// The from-square of a raw move, if it can be told without a position.
int RawFromSquare(const RawNode& n) {
  if (n.from >= 0) return n.from;
  std::string t;
  for (char c : n.text)
    if (c != '-' && c != ' ') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && std::isdigit(static_cast<unsigned char>(t[1])) && t[2] >= 'a' &&
      t[2] <= 'i' && std::isdigit(static_cast<unsigned char>(t[3])))
    return MakeSquare(t[0] - 'a', t[1] - '0');
  return -1;
}

struct Checker {
  const RawTree& tree;
  const MoveResolver& resolve;
  const std::string& file;
  const std::string& where;
  ReadResult* out;
  int illegal = 0;

  void Walk(Position& pos, int idx, std::vector<MoveNode>* into, int ply, bool main_line) {
    const RawNode& node = tree[idx];
    for (size_t i = 0; i < node.children.size(); ++i) {
      const RawNode& child = tree[node.children[i]];
      const bool child_main = main_line && i == 0;
      std::string at = "ply " + std::to_string(ply + 1) + " (" + RawMoveText(child) + ")";
      if (!child_main) at += ", in a variation";
      if (ply + 1 > kMaxPlies) {
        AddIssue(out, file, JoinWhere(where, at), "line longer than " + std::to_string(kMaxPlies) + " plies; cut here");
        continue;
      }
      Move m;
      Status st = resolve(pos, child, &m);
      if (!st.ok()) {
        ++illegal;
        AddIssue(out, file, JoinWhere(where, at),
                 "illegal or unreadable move: " + st.message() + "; the branch ends before it");
        continue;
      }
      std::string coord = MoveToCoord(pos.variant(), m);
      MoveNode* target = nullptr;
      for (MoveNode& sibling : *into)
        if (sibling.move == coord) target = &sibling;  // the same move twice: merge the branches
      if (!target) {
        into->emplace_back();
        target = &into->back();
        target->move = coord;
      }
      if (!child.comment.empty()) {
        if (target->comment.empty()) {
          target->comment = child.comment;
        } else if (target->comment != child.comment) {
          target->comment += "\n" + child.comment;
        }
      }
      StateInfo si;
      pos.DoMove(m, &si);
      Walk(pos, node.children[i], &target->next, ply + 1, child_main);
      pos.UndoMove(m, si);
    }
  }
};

}  // namespace

std::string Board90::Placement() const {
  std::string out;
  for (int rank = 9; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 9; ++file) {
      char c = at(file, rank);
      if (c == ' ') {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += c;
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank) out += '/';
  }
  return out;
}

Status ResolveCoordinates(const Position& pos, const RawNode& node, Move* out) {
  if (node.from >= 0 || node.to >= 0) {
    MoveList list;
    pos.GenerateLegal(&list);
    for (Move m : list)
      if (m.from() == node.from && m.to() == node.to && m.type() == MoveType::kNormal) return *out = m, Status::OK();
    if (node.from < 0 || pos.empty(node.from))
      return Status::InvalidArgument(RawMoveText(node) + ": no piece on " + SquareText(node.from));
    if (ColorOf(pos.piece_on(node.from)) != pos.side_to_move())
      return Status::InvalidArgument(RawMoveText(node) + ": the piece on " + SquareText(node.from) +
                                     " belongs to the side not to move");
    return Status::InvalidArgument(RawMoveText(node) + " is not a legal move in " + pos.Fen(false));
  }
  return ParseCoordMove(pos, node.text, out);
}

void AddIssue(ReadResult* out, const std::string& file, std::string where, std::string reason, bool fatal) {
  ImportIssue issue;
  issue.file = file;
  // Messages quote the input, sometimes one byte of a character (the FEN
  // parser's "unknown piece"): keep them valid UTF-8 for JSON and pages.
  issue.where = text::SanitizeUtf8(where);
  issue.reason = text::SanitizeUtf8(reason);
  issue.fatal = fatal;
  out->issues.push_back(std::move(issue));
}

std::string JoinWhere(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + ", " + b;
}

void ApplyPathDefaults(const std::string& path, GameDraft* draft) {
  draft->record.collection = meta::CollectionFromPath(path);
  std::string folder = meta::ResultFolderOf(path);
  if (!folder.empty()) draft->record.tags["folder"] = folder;
}

void FinishGame(GameDraft&& draft, const std::string& file, ReadResult* out, const MoveResolver& resolver) {
  const Variant& v = Xiangqi();
  Record& rec = draft.record;
  rec.variant = v.id();
  rec.moves.clear();
  rec.comment = draft.tree[RawTree::kRoot].comment;

  // The side to move: the first move's piece when there is one.
  std::string placement = draft.placement;
  std::string counters = " - - 0 1";
  Color side = draft.side;
  if (!draft.fen.empty()) {
    std::string f = draft.fen;
    size_t sp = f.find(' ');
    placement = f.substr(0, sp);
    if (sp != std::string::npos) {
      std::string rest = f.substr(sp + 1);
      size_t sp2 = rest.find(' ');
      std::string s = rest.substr(0, sp2);
      if (s == "b" || s == "B") side = kSecond;
      else if (s == "w" || s == "r" || s == "W" || s == "R") side = kFirst;
      counters = sp2 == std::string::npos ? " - - 0 1" : " " + rest.substr(sp2 + 1);
    }
  }
  uint8_t cells[kSquareSlots] = {};
  std::string placement_error;
  bool placement_ok = ParsePlacement(v, placement, cells, &placement_error);
  bool side_from_move = false;
  if (placement_ok && draft.infer_side && !draft.tree[RawTree::kRoot].children.empty()) {
    int from = RawFromSquare(draft.tree[draft.tree[RawTree::kRoot].children[0]]);
    if (from >= 0 && cells[from] != kNoPiece) {
      const Color mover = ColorOf(cells[from]);
      if (mover != side && !draft.side_unknown)
        AddIssue(out, file, draft.where,
                 std::string("side to move: the file says ") + v.color_name(side) + ", but the first move is " +
                     v.color_name(mover) + "'s; " + v.color_name(mover) + " moves first");
      side = mover;
      side_from_move = true;
    }
  }
  if (placement_ok && draft.side_unknown && !side_from_move) {
    // Nothing tells who moves: take the side for which the position is legal.
    Position probe;
    if (!Position::FromFen(v, placement + (side == kFirst ? " w" : " b") + counters, &probe).ok() &&
        Position::FromFen(v, placement + (side == kFirst ? " b" : " w") + counters, &probe).ok())
      side = ~side;
  }
  rec.fen = placement + (side == kFirst ? " w" : " b") + counters;

  // Claims, highest priority first; disagreements are reported.
  const meta::ClaimHint* chosen = nullptr;
  for (const meta::ClaimHint& hint : draft.claims) {
    if (!hint.known()) continue;
    if (!chosen) {
      chosen = &hint;
      continue;
    }
    Claim a = meta::ForSideToMove(*chosen, side), b = meta::ForSideToMove(hint, side);
    if (a != b)
      AddIssue(out, file, draft.where,
               "claims disagree: " + chosen->origin + " says " + ClaimName(a) + ", " + hint.origin + " says " +
                   ClaimName(b) + "; using " + chosen->origin);
  }
  if (chosen) {
    rec.claimed = meta::ForSideToMove(*chosen, side);
    rec.tags["claim_from"] = chosen->origin;
  }

  Position pos;
  Status st = placement_ok ? Position::FromFen(v, rec.fen, &pos) : Status::InvalidArgument(placement_error);
  if (!st.ok()) {
    int moves = static_cast<int>(draft.tree.size()) - 1;
    std::string reason = text::SanitizeUtf8("start position rejected: " + st.message());
    rec.tags[kImportErrorTag] = reason;
    AddIssue(out, file, draft.where,
             reason + " (" + rec.fen + "); the record is kept as broken" +
                 (moves > 0 ? ", without its " + std::to_string(moves) + " moves" : ""));
    out->records.push_back(std::move(rec));
    return;
  }
  rec.fen = pos.Fen();
  Checker checker{draft.tree, resolver, file, draft.where, out};
  checker.Walk(pos, RawTree::kRoot, &rec.moves, 0, true);
  out->records.push_back(std::move(rec));
}

}  // namespace canju::importer
