// What every reader shares: a game as the file gives it (GameDraft: board,
// raw move tree, metadata, claims) and FinishGame, which checks the start
// position and every move with the engine and turns the draft into a Record.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "importer/metadata.h"
#include "variants/position.h"

namespace canju::importer {

// Lines deeper than this are cut (with an issue): no real game is this
// long, and it bounds the recursion of every tree walk, here and in the
// store, against hostile files.
constexpr int kMaxPlies = 1000;

// A move as read, not yet checked: squares (engine layout, rank 0 = Red's
// back rank) for binary formats, or text for PGN and line lists.
struct RawNode {
  int from = -1, to = -1;
  std::string text;
  std::string comment;
  std::vector<int> children;  // indices into the tree; children[0] is the main line
};

// An arena of raw nodes; node 0 is the start position (its comment is the
// opening comment).
class RawTree {
 public:
  RawTree() : nodes_(1) {}
  static constexpr int kRoot = 0;
  // Adds a child of `parent` and returns its index.
  int Add(int parent, RawNode node) {
    nodes_.push_back(std::move(node));
    int idx = static_cast<int>(nodes_.size()) - 1;
    nodes_[parent].children.push_back(idx);
    return idx;
  }
  RawNode& operator[](int i) { return nodes_[i]; }
  const RawNode& operator[](int i) const { return nodes_[i]; }
  size_t size() const { return nodes_.size(); }

 private:
  std::vector<RawNode> nodes_;
};

// A 9x10 board as the binary formats give it: FEN letters (upper case
// Red), ' ' for empty; index rank * 9 + file, rank 0 = Red's back rank.
struct Board90 {
  char cell[90];
  Board90() { std::fill(cell, cell + 90, ' '); }
  char& at(int file, int rank) { return cell[rank * 9 + file]; }
  char at(int file, int rank) const { return cell[rank * 9 + file]; }
  std::string Placement() const;  // FEN board field
};

// Engine square of a Xiangqi (file, rank).
inline int XqSquare(int file, int rank) { return MakeSquare(file, rank); }

struct GameDraft {
  Record record;            // metadata; FinishGame fills fen, moves and claimed
  std::string where;        // prefix of issue locations: "game 3", "line 12"; "" for one-game files
  std::string placement;    // FEN board field, or
  std::string fen;          // a complete FEN when the file gives one
  Color side = kFirst;      // side to move as the header says
  bool infer_side = true;   // the first move's piece decides (XQF's WhoPlay is often wrong)
  bool side_unknown = false;  // nothing says who moves: if the engine rejects `side`, try the other
  RawTree tree;
  std::vector<meta::ClaimHint> claims;  // highest priority first
};

// Resolves a raw move in a position; the default takes squares or
// coordinate text (ICCS). PGN passes one that also reads WXF and Chinese.
using MoveResolver = std::function<Status(const Position& pos, const RawNode& node, Move* out)>;
Status ResolveCoordinates(const Position& pos, const RawNode& node, Move* out);

// Checks the draft and appends its record and issues to `out`. A start
// position that the engine rejects gives a record tagged kImportErrorTag
// with no moves (see importer.h); an illegal move ends its branch.
void FinishGame(GameDraft&& draft, const std::string& file, ReadResult* out,
                const MoveResolver& resolver = ResolveCoordinates);

// Adds an issue.
void AddIssue(ReadResult* out, const std::string& file, std::string where, std::string reason, bool fatal = false);

// "game 3, ply 5" style joins.
std::string JoinWhere(const std::string& a, const std::string& b);

// The collection-from-path and result-folder defaults for a file's records.
void ApplyPathDefaults(const std::string& path, GameDraft* draft);

}  // namespace canju::importer
