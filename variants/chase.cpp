#include "variants/chase.h"

#include <algorithm>

namespace canju {

namespace {

// Kings and pawns (value 1 or less) chase freely.
bool MayChase(const Variant& v, int kind) { return !v.kind(kind).royal && v.kind(kind).value > 1; }

bool IsTarget(const Variant& v, Piece p, int sq) {
  const int kind = KindOf(p);
  if (v.kind(kind).royal) return false;
  if (v.kind(kind).value <= 1) {
    const int home = v.RegionIndex("home");
    if (home >= 0 && v.InRegion(home, ColorOf(p), sq)) return false;  // an uncrossed pawn
  }
  return true;
}

bool Protected(const Position& pos, Move capture) {
  Position after = pos;
  StateInfo st;
  after.DoMove(capture, &st);
  MoveList replies;
  after.GenerateLegal(&replies);
  for (Move r : replies)
    if (r.to() == capture.to()) return true;
  return false;
}

}  // namespace

std::vector<Threat> ChaseThreats(const Position& pos) {
  const Variant& v = pos.variant();
  std::vector<Threat> out;
  MoveList moves;
  pos.GenerateLegal(&moves);
  for (Move m : moves) {
    if (m.type() != MoveType::kNormal && m.type() != MoveType::kPromotion) continue;
    const Piece target = pos.piece_on(m.to());
    const Piece attacker = pos.piece_on(m.from());
    if (target == kNoPiece || attacker == kNoPiece || ColorOf(target) == ColorOf(attacker)) continue;
    if (!MayChase(v, KindOf(attacker)) || !IsTarget(v, target, m.to())) continue;
    const Threat t{m.from(), m.to()};
    if (std::find(out.begin(), out.end(), t) != out.end()) continue;  // promotion choices
    const bool gains = v.kind(KindOf(target)).value - v.kind(KindOf(attacker)).value >= 2;
    if (gains || !Protected(pos, m)) out.push_back(t);
  }
  return out;
}

bool MoveChases(const Position& before, Move m, const Position& after) {
  // The mover's threats after the move: let it move again.
  Position again = after;
  StateInfo st;
  again.DoNullMove(&st);
  const std::vector<Threat> now = ChaseThreats(again);
  if (now.empty()) return false;
  const std::vector<Threat> earlier = ChaseThreats(before);
  for (const Threat& t : now)
    if (t.from == m.to() || std::find(earlier.begin(), earlier.end(), t) == earlier.end()) return true;
  return false;
}

}  // namespace canju
