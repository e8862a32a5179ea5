#include "variants/perft.h"

namespace canju {

uint64_t Perft(Position& pos, int depth, bool bulk) {
  if (depth <= 0) return 1;
  MoveList list;
  pos.GenerateLegal(&list);
  if (bulk && depth == 1) return static_cast<uint64_t>(list.size());
  uint64_t nodes = 0;
  StateInfo st;
  for (Move m : list) {
    pos.DoMove(m, &st);
    nodes += Perft(pos, depth - 1, bulk);
    pos.UndoMove(m, st);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  MoveList list;
  pos.GenerateLegal(&list);
  StateInfo st;
  for (Move m : list) {
    pos.DoMove(m, &st);
    out.push_back({m, Perft(pos, depth - 1)});
    pos.UndoMove(m, st);
  }
  return out;
}

}  // namespace canju
