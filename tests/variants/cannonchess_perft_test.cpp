// 加炮国际象棋2 (cannonchess) perft. No published numbers exist: the counts
// below are our own, computed by this engine (docs/variants/cannonchess.md),
// and pinned here as a regression. To make them more than self-agreement,
// they are also recomputed by a deliberately naive, independent move
// generator written from the rules text (plain 10x10 array, legality by
// "can any enemy move take the king"), from the start and from positions of
// random games.
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <sstream>
#include <vector>

#include "variants/perft.h"
#include "variants/registry.h"

namespace canju {
namespace {

// Self-computed by this engine, depth 1..4 (see the file comment).
constexpr uint64_t kStartPerft[] = {24, 576, 16096, 448629};

TEST(CannonChessPerft, StartPositionSelfComputedRegression) {
  Position pos = Position::Start(BuiltinVariant("cannonchess"));
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(Perft(pos, d), kStartPerft[d - 1]) << "depth " << d;
}

// --- the naive reference ----------------------------------------------------

constexpr int N = 10;

struct NaiveMove {
  int fr, ff, tr, tf;
  char promo = 0;
  bool en_passant = false;
};

struct Naive {
  char b[N][N] = {};  // [rank][file], 0 = empty, FEN letters
  bool white = true;
  int ep_r = -1, ep_f = -1;

  static bool IsWhite(char c) { return std::isupper(static_cast<unsigned char>(c)); }
  bool Own(int r, int f) const { return b[r][f] && IsWhite(b[r][f]) == white; }
  bool Enemy(int r, int f) const { return b[r][f] && IsWhite(b[r][f]) != white; }
  static bool On(int r, int f) { return r >= 0 && r < N && f >= 0 && f < N; }

  void Pseudo(std::vector<NaiveMove>* out) const {
    static const int kKing[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static const int kKnight[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    for (int r = 0; r < N; ++r)
      for (int f = 0; f < N; ++f) {
        if (!Own(r, f)) continue;
        const char p = static_cast<char>(std::toupper(static_cast<unsigned char>(b[r][f])));
        auto add = [&](int tr, int tf) { out->push_back({r, f, tr, tf}); };
        if (p == 'K' || p == 'N') {
          for (auto& d : (p == 'K' ? kKing : kKnight)) {
            int tr = r + d[0], tf = f + d[1];
            if (On(tr, tf) && !Own(tr, tf)) add(tr, tf);
          }
        } else if (p == 'R' || p == 'B' || p == 'Q') {
          for (auto& d : kKing) {
            bool diagonal = d[0] && d[1];
            if ((p == 'R' && diagonal) || (p == 'B' && !diagonal)) continue;
            for (int tr = r + d[0], tf = f + d[1]; On(tr, tf); tr += d[0], tf += d[1]) {
              if (Own(tr, tf)) break;
              add(tr, tf);
              if (b[tr][tf]) break;
            }
          }
        } else if (p == 'C') {
          for (auto& d : kKing) {
            // Moves as a queen onto empty squares.
            for (int tr = r + d[0], tf = f + d[1]; On(tr, tf) && !b[tr][tf]; tr += d[0], tf += d[1]) add(tr, tf);
            // Captures an enemy with exactly one empty square between, any
            // pieces passed, never a second empty square.
            int empty = 0;
            for (int tr = r + d[0], tf = f + d[1]; On(tr, tf); tr += d[0], tf += d[1]) {
              if (!b[tr][tf]) {
                if (++empty == 2) break;
              } else if (empty == 1 && Enemy(tr, tf)) {
                add(tr, tf);
              }
            }
          }
        } else if (p == 'P') {
          const int dir = white ? 1 : -1, start = white ? 1 : N - 2, last = white ? N - 1 : 0;
          auto pawn_to = [&](int tr, int tf) {
            if (tr == last) {
              for (char q : {'Q', 'R', 'B', 'N', 'C'}) out->push_back({r, f, tr, tf, q});
            } else {
              add(tr, tf);
            }
          };
          if (On(r + dir, f) && !b[r + dir][f]) {
            pawn_to(r + dir, f);
            if (r == start && !b[r + 2 * dir][f]) add(r + 2 * dir, f);
          }
          for (int df : {-1, 1}) {
            int tr = r + dir, tf = f + df;
            if (!On(tr, tf)) continue;
            if (Enemy(tr, tf)) pawn_to(tr, tf);
            else if (tr == ep_r && tf == ep_f) out->push_back({r, f, tr, tf, 0, true});
          }
        }
      }
  }

  Naive After(const NaiveMove& m) const {
    Naive n = *this;
    char p = n.b[m.fr][m.ff];
    n.b[m.fr][m.ff] = 0;
    if (m.en_passant) n.b[m.fr][m.tf] = 0;
    n.b[m.tr][m.tf] = m.promo ? (white ? m.promo : static_cast<char>(std::tolower(m.promo))) : p;
    n.ep_r = n.ep_f = -1;
    if ((p == 'P' || p == 'p') && std::abs(m.tr - m.fr) == 2) n.ep_r = (m.tr + m.fr) / 2, n.ep_f = m.ff;
    n.white = !white;
    return n;
  }

  // After our move: can the side now to move take our king?
  bool KingCapturable() const {
    const char king = white ? 'k' : 'K';
    std::vector<NaiveMove> moves;
    Pseudo(&moves);
    for (const NaiveMove& m : moves)
      if (b[m.tr][m.tf] == king) return true;
    return false;
  }

  uint64_t Perft(int depth) const {
    std::vector<NaiveMove> moves;
    Pseudo(&moves);
    uint64_t n = 0;
    for (const NaiveMove& m : moves) {
      Naive next = After(m);
      if (next.KingCapturable()) continue;
      n += depth <= 1 ? 1 : next.Perft(depth - 1);
    }
    return n;
  }

  static Naive FromFen(const std::string& fen) {
    Naive n;
    std::istringstream in(fen);
    std::string board, side, castle, ep;
    in >> board >> side >> castle >> ep;
    int r = N - 1, f = 0;
    for (size_t i = 0; i < board.size(); ++i) {
      char c = board[i];
      if (c == '/') {
        --r, f = 0;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int k = c - '0';
        if (i + 1 < board.size() && std::isdigit(static_cast<unsigned char>(board[i + 1]))) k = k * 10 + (board[++i] - '0');
        f += k;
      } else {
        n.b[r][f++] = c;
      }
    }
    n.white = side != "b";
    if (ep.size() >= 2 && ep != "-") n.ep_f = ep[0] - 'a', n.ep_r = std::stoi(ep.substr(1)) - 1;
    return n;
  }
};

TEST(CannonChessPerft, NaiveReferenceAgreesFromTheStart) {
  Naive start = Naive::FromFen(BuiltinVariant("cannonchess").start_fen());
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(start.Perft(d), kStartPerft[d - 1]) << "depth " << d;
}

TEST(CannonChessPerft, NaiveReferenceAgreesAlongRandomGames) {
  const Variant& v = BuiltinVariant("cannonchess");
  std::mt19937 rng(4242);
  int compared = 0;
  for (int game = 0; game < 12; ++game) {
    Position pos = Position::Start(v);
    for (int ply = 0; ply < 80; ++ply) {
      MoveList list;
      pos.GenerateLegal(&list);
      if (list.empty()) break;
      if (ply % 8 == 7) {
        const std::string fen = pos.Fen();
        ASSERT_EQ(Naive::FromFen(fen).Perft(2), Perft(pos, 2)) << fen;
        ++compared;
      }
      StateInfo st;
      pos.DoMove(list[static_cast<int>(rng() % list.size())], &st);
    }
  }
  EXPECT_GT(compared, 60);
}

}  // namespace
}  // namespace canju
