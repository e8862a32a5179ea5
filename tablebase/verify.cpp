// Verification pass, run on every build: each entry's value must equal the
// best over its successors (sub-table probes included), with the same move
// bans as the generator: in a loss by the perpetual-check rule the checking
// moves do not count towards the distance. The table-specialised boards
// (board.h) are themselves checked against the engine (Position): every
// entry of a small table, a fixed sample of a large one — legality, the legal
// moves, the checks they give, the indices they lead to and, for captures and
// promotions, the sub-table value found the engine's way (so a wrong
// generator link cannot check itself).
#include <algorithm>
#include <mutex>

#include "tablebase/generator.h"

namespace canju::tb {

namespace {

std::string ValueText(uint16_t v, bool illegal) {
  if (illegal) return "illegal";
  if (v == kValueIllegal) return "unresolved";
  if (v == kValueDraw) return "draw";
  const ProbeResult r = DecodeValue(v);
  std::string s = r.wdl == Wdl::kWin ? "win in " : "loss in ";
  s += std::to_string(r.dtm_plies) + " plies";
  if (r.by_rule) s += " (perpetual-check rule)";
  return s;
}

// A stored value's distance to mate; -1 for a draw, -2 for an illegal or
// unresolved value.
int ValueDtm(uint16_t v) {
  if (v == kValueDraw) return -1;
  if (v == kValueIllegal) return -2;
  return DecodeValue(v).dtm_plies;
}

struct FastMove {
  uint32_t key;  // from << 16 | to << 8 | promo + 1
  bool check;
  uint64_t succ;  // quiet moves: the index after it
  uint16_t sub;   // captures and promotions: the sub-table's value after it
};

}  // namespace

// The sub-table's value after a capture or promotion, found the engine's way
// (the position after the move, its material's table, that table's own
// index) against the generator's precomputed link: a link to the wrong
// table or side would otherwise pass, since the rest of the pass reads
// sub-tables through the same links. Empty when they agree.
template <class Cells>
std::string Generator<Cells>::CheckSubTableValue(const Position& pos, Move m, uint16_t linked,
                                                 bool colour_symmetric) const {
  Position after = pos;
  StateInfo st;
  after.DoMove(m, &st);
  bool flip = false;
  const Material canon = Canonical(v_, Material::Of(after), colour_symmetric, &flip);
  const auto t = subs_.find(canon.Name(v_));
  const std::string move = MoveToCoord(v_, m);
  if (t == subs_.end()) return "no sub-table " + canon.Name(v_) + " loaded for " + move;
  const Position seen = flip ? after.ColorFlipped() : after;
  const uint64_t idx = t->second->index.EncodePosition(seen);
  if (idx == kNoIndex) return "the position after " + move + " is outside " + canon.Name(v_) + "'s index";
  const int side = seen.side_to_move();
  if (t->second->raw[side].empty())
    return "sub-table " + canon.Name(v_) + " not read for the side to move after " + move;
  const uint16_t value = t->second->Value(side, idx);
  if (value != linked) return "sub-table value after " + move + ": " + ValueText(value, false) + " in " +
                              canon.Name(v_) + ", " + ValueText(linked, false) + " by the link";
  return "";
}

template <class Cells>
Status Generator<Cells>::Verify() {
  std::mutex mu;
  std::string failure;
  std::atomic<bool> failed{false};
  const bool stalemate_loses = v_.rules().stalemate == Outcome::kLoss;
  const bool engine_all = index_.size() <= opts_.engine_check_below;
  const bool colour_symmetric = ColourSymmetric(v_);
  auto fail = [&](const std::string& msg) {
    std::lock_guard<std::mutex> lock(mu);
    if (failure.empty()) failure = name_ + ": verification failed at " + msg;
    failed = true;
  };
  ForRanges("verify", [&](Work& w, uint64_t begin, uint64_t end) {
    Board& b = w.b;
    Position pos;
    MoveList ml;
    std::vector<FastMove> fast;
    for (uint64_t i = begin; i < end && !failed.load(std::memory_order_relaxed); ++i) {
      geo_.Set(b, i);
      const bool engine = engine_all || i % kEngineSample == kEngineSample / 2;
      const bool checked[2] = {b.valid && geo_.InCheck(b, kFirst), b.valid && geo_.InCheck(b, kSecond)};
      for (int si = 0; si < 2; ++si) {
        const Color side = Color(si);
        const uint8_t code = Load(side, i);
        const bool stored_illegal = code == DtmCodes::kIllegal;
        const uint16_t stored = stored_illegal ? kValueIllegal : StoredValue(side, i, code);
        const bool illegal = !b.valid || checked[~side];
        if (illegal || stored_illegal) {
          if (illegal != stored_illegal)
            fail(IndexFen(index_, i, side) + " (entry " + std::to_string(i) + "): stored " +
                 ValueText(stored, stored_illegal) + ", but the position is " + (illegal ? "illegal" : "legal"));
          continue;
        }
        const bool in_check = checked[side];
        const bool rule = DecodeValue(stored).by_rule;
        int best_win = -1, worst = -1, worst_quiet = 0;
        bool draw = false, bad = false, any = false;
        fast.clear();
        geo_.ListMoves(b, side, false, w.moves);
        for (const TableMove& m : w.moves) {
          const int slot = m.slot, to = m.to, cap = m.cap, promo = m.promo;
          // The successor's distance to mate (-1: a draw, -2: unresolved).
          int dtm;
          uint64_t succ = kNoIndex;
          uint16_t sub = kValueIllegal;
          if (cap < 0 && promo < 0) {
            // A quiet move is legal exactly when the position it leads to is
            // (the mover's royal is not left attacked), and every entry's
            // illegal mark is itself checked against the board, so the
            // successor's cell answers legality without a board test.
            succ = geo_.QuietSuccessor(b, slot, to);
            if (succ == kNoIndex) continue;
            const uint8_t c = Load(~side, succ);
            if (c == DtmCodes::kIllegal) continue;
            // The usual cases without decoding: a distance, a draw.
            if (dtm_.IsDist(c) && c != DtmCodes::kBigDist) dtm = dtm_.DistOf(c);
            else if (c == DtmCodes::kDraw) dtm = -1;
            else dtm = ValueDtm(StoredValue(~side, succ, c));
          } else {
            if (!geo_.Legal(b, side, slot, to, cap, in_check)) continue;
            sub = geo_.ProbeSub(b, side, slot, to, cap, promo);
            dtm = ValueDtm(sub);
          }
          any = true;
          const bool check = (rule || engine) && geo_.GivesCheck(b, side, slot, to, cap, promo);
          if (engine)
            fast.push_back(FastMove{static_cast<uint32_t>(b.sq[slot] << 16 | to << 8 | (promo + 1)), check, succ, sub});
          if (dtm < 0) {
            (dtm == -1 ? draw : bad) = true;
            continue;
          }
          if ((dtm & 1) == 0) {  // the successor loses
            if (best_win < 0 || dtm + 1 < best_win) best_win = dtm + 1;
          } else {
            worst = std::max(worst, dtm + 1);
            if (rule && !check) worst_quiet = std::max(worst_quiet, dtm + 1);
          }
        }
        uint16_t expected;
        if (!any) expected = in_check || stalemate_loses ? EncodeValue(0, false) : kValueDraw;
        else if (bad) expected = kValueIllegal;
        else if (best_win >= 0) expected = EncodeValue(best_win, false);
        else if (draw) expected = kValueDraw;
        else if (rule) expected = EncodeValue(worst_quiet, true);
        else expected = EncodeValue(worst, false);
        if (expected != stored) {
          fail(IndexFen(index_, i, side) + " (entry " + std::to_string(i) + "): stored " + ValueText(stored, false) +
               ", its successors give " +
               (expected == kValueIllegal ? std::string("an unresolved successor") : ValueText(expected, false)));
          continue;
        }
        if (!engine) continue;
        // The engine's view of the same position.
        pos.Clear(v_, side);
        for (int s = 0; s < index_.slots(); ++s) pos.Put(index_.slot_piece(s), b.sq[s]);
        pos.GenerateLegal(&ml);
        std::string why;
        if (pos.InCheck() != in_check) why = "check";
        if (why.empty() && static_cast<size_t>(ml.size()) != fast.size()) why = "number of legal moves";
        std::sort(fast.begin(), fast.end(), [](const FastMove& a, const FastMove& c) { return a.key < c.key; });
        for (int k = 0; k < ml.size() && why.empty(); ++k) {
          const Move m = ml[k];
          const uint32_t key = static_cast<uint32_t>(m.from() << 16 | m.to() << 8 | (m.promo_kind() + 1));
          auto it = std::lower_bound(fast.begin(), fast.end(), key,
                                     [](const FastMove& a, uint32_t k2) { return a.key < k2; });
          if (it == fast.end() || it->key != key) {
            why = "move " + MoveToCoord(v_, m);
            break;
          }
          if (pos.GivesCheck(m) != it->check) why = "check by " + MoveToCoord(v_, m);
          if (it->succ != kNoIndex) {
            uint8_t sq[kMaxTablePieces];
            std::copy(b.sq, b.sq + index_.slots(), sq);
            sq[b.at[m.from()] - 1] = m.to();
            if (index_.Encode(sq) != it->succ) why = "index after " + MoveToCoord(v_, m);
          } else if (why.empty()) {
            why = CheckSubTableValue(pos, m, it->sub, colour_symmetric);
          }
        }
        if (!why.empty())
          fail(IndexFen(index_, i, side) + " (entry " + std::to_string(i) + "): the table's move generator and the " +
               "engine disagree (" + why + ")");
      }
    }
  });
  if (failed) return Status::Corruption(failure);
  return Status::OK();
}

template class Generator<DenseCells>;
template class Generator<CompactCells>;

}  // namespace canju::tb
