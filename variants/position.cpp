#include "variants/position.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "variants/placement.h"

namespace canju {

namespace {

std::vector<std::string> Fields(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string f;
  while (in >> f) out.push_back(f);
  return out;
}

bool ParseInt(const std::string& s, int lo, int hi, int* out) {
  if (s.empty() || s.size() > 6) return false;
  int v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

}  // namespace

std::string SquareName(const Variant& v, int sq) {
  std::string s(1, static_cast<char>('a' + FileOf(sq)));
  s += std::to_string(RankOf(sq) + (v.notation() == NotationStyle::kXiangqi ? 0 : 1));
  return s;
}

int ParseSquareName(const Variant& v, const std::string& text) {
  if (text.size() < 2 || text.size() > 3) return -1;
  char f = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  if (f < 'a' || f >= 'a' + v.files()) return -1;
  int r;
  if (!ParseInt(text.substr(1), 0, 99, &r)) return -1;
  if (v.notation() != NotationStyle::kXiangqi) --r;
  if (r < 0 || r >= v.ranks()) return -1;
  return MakeSquare(f - 'a', r);
}

std::string MoveToCoord(const Variant& v, Move m) {
  if (m.type() == MoveType::kDrop) {
    return std::string(1, v.kind(m.from()).letter) + "@" + SquareName(v, m.to());
  }
  std::string s = SquareName(v, m.from()) + SquareName(v, m.to());
  if (m.type() == MoveType::kPromotion)
    s += static_cast<char>(std::tolower(static_cast<unsigned char>(v.kind(m.promo_kind()).letter)));
  return s;
}

Status ParseCoordMove(const Position& pos, const std::string& text, Move* out) {
  const Variant& v = pos.variant();
  std::string t;
  for (char c : text)
    if (c != '-' && !std::isspace(static_cast<unsigned char>(c))) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Split: file letter + digits, twice, then an optional promotion letter.
  size_t i = 0;
  auto take_square = [&](int* sq) {
    size_t b = i;
    if (i >= t.size() || !std::isalpha(static_cast<unsigned char>(t[i]))) return false;
    ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    *sq = ParseSquareName(v, t.substr(b, i - b));
    return *sq >= 0;
  };
  int from, to;
  if (!take_square(&from) || !take_square(&to))
    return Status::InvalidArgument("'" + text + "' is not a coordinate move for " + v.id());
  int promo = -1;
  if (i < t.size()) {
    promo = v.KindForLetter(t[i]);
    if (promo < 0 || i + 1 != t.size())
      return Status::InvalidArgument("'" + text + "': bad promotion piece");
  }
  MoveList list;
  pos.GenerateLegal(&list);
  for (Move m : list) {
    if (m.from() != from || m.to() != to || m.type() == MoveType::kDrop || m.type() == MoveType::kSpecial) continue;
    if (m.type() == MoveType::kPromotion) {
      if (m.promo_kind() == promo) return *out = m, Status::OK();
      continue;
    }
    if (promo < 0) return *out = m, Status::OK();
  }
  if (promo < 0)
    for (Move m : list)
      if (m.from() == from && m.to() == to && m.type() == MoveType::kPromotion)
        return Status::InvalidArgument("'" + text + "' needs a promotion piece");
  return Status::InvalidArgument("'" + text + "' is not a legal move in " + pos.Fen());
}

// ---------------------------------------------------------------------------

void Position::Clear(const Variant& v, Color side) {
  *this = Position();
  v_ = &v;
  diagonal_lines_ = v.has_diagonal_lines();
  side_ = side;
  key_ = side == kSecond ? v.zobrist_side() : 0;
}

void Position::AddPiece(Piece p, int sq) {
  Color c = ColorOf(p);
  board_[sq] = p;
  ToggleOccupancy(sq);
  index_[sq] = list_size_[c];
  list_[c][list_size_[c]++] = static_cast<Square>(sq);
  ++counts_[c][KindOf(p)];
  if (KindOf(p) == v_->royal_kind()) royal_[c] = static_cast<int16_t>(sq);
}

int Position::RemovePiece(int sq) {
  Piece p = board_[sq];
  Color c = ColorOf(p);
  const int i = index_[sq];
  int last = list_[c][--list_size_[c]];
  list_[c][i] = static_cast<Square>(last);
  index_[last] = static_cast<uint8_t>(i);
  board_[sq] = kNoPiece;
  ToggleOccupancy(sq);
  --counts_[c][KindOf(p)];
  if (royal_[c] == sq) royal_[c] = -1;
  return i;
}

void Position::PutBack(Piece p, int sq, int slot) {
  AddPiece(p, sq);
  const Color c = ColorOf(p);
  const int last = list_size_[c] - 1;
  if (slot == last) return;
  const Square other = list_[c][slot];
  list_[c][slot] = static_cast<Square>(sq);
  list_[c][last] = other;
  index_[sq] = static_cast<uint8_t>(slot);
  index_[other] = static_cast<uint8_t>(last);
}

void Position::MovePiece(int from, int to) {
  Piece p = board_[from];
  Color c = ColorOf(p);
  board_[to] = p;
  board_[from] = kNoPiece;
  ToggleOccupancy(from);
  ToggleOccupancy(to);
  index_[to] = index_[from];
  list_[c][index_[to]] = static_cast<Square>(to);
  if (royal_[c] == from) royal_[c] = static_cast<int16_t>(to);
}

void Position::Put(Piece p, int sq) {
  if (board_[sq]) Remove(sq);
  AddPiece(p, sq);
  key_ ^= v_->zobrist_piece(p, sq);
}

void Position::Remove(int sq) {
  if (!board_[sq]) return;
  key_ ^= v_->zobrist_piece(board_[sq], sq);
  RemovePiece(sq);
}

void Position::SetSideToMove(Color c) {
  if (c != side_) key_ ^= v_->zobrist_side();
  side_ = c;
}

Position Position::Start(const Variant& v) {
  Position p;
  Status st = FromFen(v, v.start_fen(), &p);
  (void)st;  // the loader checked the start position
  return p;
}

Status Position::FromFen(const Variant& v, const std::string& fen, Position* out) {
  auto bad = [&](const std::string& msg) { return Status::InvalidArgument("FEN '" + fen + "': " + msg); };
  std::vector<std::string> f = Fields(fen);
  if (f.empty()) return bad("empty");
  if (f.size() > 6) return bad("too many fields (" + std::to_string(f.size()) + ", at most 6)");
  uint8_t cells[kSquareSlots];
  std::string err;
  if (!ParsePlacement(v, f[0], cells, &err)) return bad(err);
  Position p;
  p.Clear(v, kFirst);
  int per_side[2] = {0, 0};
  for (int sq = 0; sq < kSquareSlots; ++sq)
    if (cells[sq]) {
      if (++per_side[ColorOf(cells[sq])] > kMaxPiecesPerSide) return bad("too many pieces");
      p.Put(cells[sq], sq);
    }
  Color side = kFirst;
  if (f.size() > 1) {
    const std::string& s = f[1];
    if (s == "w" || s == "r" || s == "W" || s == "R") side = kFirst;
    else if (s == "b" || s == "B") side = kSecond;
    else return bad("side to move '" + s + "' must be w, r or b");
  }
  p.SetSideToMove(side);
  if (f.size() > 2 && f[2] != "-") {
    for (char c : f[2]) {
      int bit;
      switch (c) {
        case 'K': bit = 0; break;
        case 'Q': bit = 1; break;
        case 'k': bit = 2; break;
        case 'q': bit = 3; break;
        default: return bad(std::string("castling field: unknown letter '") + c + "'");
      }
      if (!v.rules().castling) return bad("castling rights given, but " + v.id() + " has no castling");
      Color c2 = Color(bit >> 1);
      int rook = v.castle_rook_square(c2, bit & 1);
      // Rights that the board contradicts are dropped, as most tools do.
      if (rook >= 0 && p.royal_[c2] == v.castle_royal_square(c2) && p.board_[rook] &&
          ColorOf(p.board_[rook]) == c2 && v.kind(KindOf(p.board_[rook])).castling_rook)
        p.castling_ |= static_cast<uint8_t>(1 << bit);
    }
    p.key_ ^= v.zobrist_castling(p.castling_);
  }
  if (f.size() > 3 && f[3] != "-") {
    int ep = ParseSquareName(v, f[3]);
    if (ep < 0) return bad("en-passant field '" + f[3] + "' is not a square");
    if (!v.rules().en_passant) return bad("en-passant square given, but " + v.id() + " has no en passant");
    // The square a pawn of the side not to move has just passed: empty, with
    // that pawn in front of it and its start square behind it empty.
    const int toward = side == kFirst ? -1 : 1;  // from the square towards the pawn
    const int pawn_rank = RankOf(ep) + toward, origin_rank = RankOf(ep) - toward;
    const Piece pawn = v.on_board(FileOf(ep), pawn_rank) ? p.board_[MakeSquare(FileOf(ep), pawn_rank)] : kNoPiece;
    if (p.board_[ep] || !pawn || ColorOf(pawn) == side || !v.kind(KindOf(pawn)).pawn ||
        !v.on_board(FileOf(ep), origin_rank) || p.board_[MakeSquare(FileOf(ep), origin_rank)])
      return bad("en-passant square " + f[3] + " does not follow a double step of a " + v.color_name(~side) + " pawn");
    p.ep_ = static_cast<int16_t>(ep);
    p.key_ ^= v.zobrist_ep(ep);
  }
  int n;
  if (f.size() > 4) {
    if (!ParseInt(f[4], 0, 9999, &n)) return bad("half-move clock '" + f[4] + "' is not a number");
    p.halfmove_ = static_cast<uint16_t>(n);
  }
  if (f.size() > 5) {
    if (!ParseInt(f[5], 0, 65535, &n)) return bad("move number '" + f[5] + "' is not a number");
    p.fullmove_ = static_cast<uint16_t>(std::max(1, n));
  }
  if (Status st = p.Validate(); !st.ok()) return bad(st.message());
  *out = p;
  return Status::OK();
}

Status Position::Validate() const {
  const Variant& v = *v_;
  int moves_bound[2] = {0, 0};
  for (int ci = 0; ci < 2; ++ci) {
    Color c = Color(ci);
    for (int i = 0; i < list_size_[c]; ++i) {
      int sq = list_[c][i];
      int k = KindOf(board_[sq]);
      if (!v.legal_squares(c, k)[sq])
        return Status::InvalidArgument(v.color_name(c) + " " + v.kind(k).name + " on " + SquareName(v, sq) +
                                       " cannot stand there");
      moves_bound[c] += v.max_moves(c, k, sq);
    }
    if (v.royal_kind() >= 0) {
      int royals = counts_[c][v.royal_kind()];
      if (royals != 1 && (v.rules().win == WinCondition::kCheckmate || royals > 1))
        return Status::InvalidArgument(v.color_name(c) + " has " + std::to_string(royals) + " " +
                                       v.kind(v.royal_kind()).name + "s, expected 1");
    }
  }
  if (std::max(moves_bound[0], moves_bound[1]) > MoveList::kCapacity)
    return Status::InvalidArgument("too many pieces: more than " + std::to_string(MoveList::kCapacity) +
                                   " moves could be possible");
  if (v.rules().win == WinCondition::kCheckmate && royal_[~side_] >= 0 && Attacked(royal_[~side_], side_))
    return Status::InvalidArgument(v.color_name(~side_) + " (not to move) is in check");
  return Status::OK();
}

std::string Position::Fen(bool with_counters) const {
  const Variant& v = *v_;
  std::string out = FormatPlacement(v, board_);
  out += side_ == kFirst ? " w " : " b ";
  if (castling_) {
    if (castling_ & 1) out += 'K';
    if (castling_ & 2) out += 'Q';
    if (castling_ & 4) out += 'k';
    if (castling_ & 8) out += 'q';
  } else {
    out += '-';
  }
  out += ' ';
  out += ep_ >= 0 ? SquareName(v, ep_) : "-";
  if (with_counters) out += " " + std::to_string(halfmove_) + " " + std::to_string(fullmove_);
  return out;
}

bool Position::KeyAfter(Move m, uint64_t* key) const {
  const Variant& v = *v_;
  const int from = m.from(), to = m.to();
  const Piece p = board_[from];
  if (m.type() != MoveType::kNormal || castling_ || (v.rules().en_passant && v.kind(KindOf(p)).pawn)) return false;
  uint64_t k = key_ ^ v.zobrist_piece(p, from) ^ v.zobrist_piece(p, to) ^ v.zobrist_side();
  if (board_[to]) k ^= v.zobrist_piece(board_[to], to);
  if (ep_ >= 0) k ^= v.zobrist_ep(ep_);
  *key = k;
  return true;
}

void Position::DoMove(Move m, StateInfo* st) {
  const Variant& v = *v_;
  st->key = key_;
  st->castling = castling_;
  st->ep = ep_;
  st->halfmove = halfmove_;
  const Color us = side_;
  const int from = m.from(), to = m.to();
  const Piece p = board_[from];
  st->moved = p;
  Piece cap = board_[to];
  const bool pawn = v.kind(KindOf(p)).pawn;
  if (ep_ >= 0) key_ ^= v.zobrist_ep(ep_);
  ep_ = -1;

  switch (m.type()) {
    case MoveType::kEnPassant: {
      int cap_sq = MakeSquare(FileOf(to), RankOf(from));
      cap = board_[cap_sq];
      key_ ^= v.zobrist_piece(cap, cap_sq);
      st->captured_slot = static_cast<uint8_t>(RemovePiece(cap_sq));
      MovePiece(from, to);
      key_ ^= v.zobrist_piece(p, from) ^ v.zobrist_piece(p, to);
      break;
    }
    case MoveType::kCastle: {
      int rook_from, rook_to;
      CastleRookSquares(m, us, &rook_from, &rook_to);
      Piece rook = board_[rook_from];
      st->own_slot = static_cast<uint8_t>(RemovePiece(rook_from));
      MovePiece(from, to);
      AddPiece(rook, rook_to);
      key_ ^= v.zobrist_piece(p, from) ^ v.zobrist_piece(p, to) ^ v.zobrist_piece(rook, rook_from) ^
              v.zobrist_piece(rook, rook_to);
      cap = kNoPiece;
      break;
    }
    default: {
      if (cap) {
        key_ ^= v.zobrist_piece(cap, to);
        st->captured_slot = static_cast<uint8_t>(RemovePiece(to));
      }
      MovePiece(from, to);
      key_ ^= v.zobrist_piece(p, from) ^ v.zobrist_piece(p, to);
      if (m.type() == MoveType::kPromotion) {
        Piece np = MakePiece(us, m.promo_kind());
        st->own_slot = static_cast<uint8_t>(RemovePiece(to));
        AddPiece(np, to);
        key_ ^= v.zobrist_piece(p, to) ^ v.zobrist_piece(np, to);
      } else if (pawn && v.rules().en_passant && std::abs(RankOf(to) - RankOf(from)) == 2 &&
                 FileOf(to) == FileOf(from)) {
        // Record the square only if an enemy pawn could take there, so that
        // equal positions get equal keys.
        int mid = (from + to) / 2;
        auto [b, e] = v.capture_leaps_to(~us, mid);
        for (auto* r = b; r != e; ++r)
          if (board_[r->origin] == r->piece && v.kind(KindOf(r->piece)).pawn) {
            ep_ = static_cast<int16_t>(mid);
            key_ ^= v.zobrist_ep(mid);
            break;
          }
      }
    }
  }
  if (castling_) {
    uint8_t old = castling_;
    for (int ci = 0; ci < 2; ++ci) {
      int rs = v.castle_royal_square(Color(ci));
      if (from == rs || to == rs) castling_ &= static_cast<uint8_t>(~(3 << (2 * ci)));
      for (int side = 0; side < 2; ++side) {
        int rk = v.castle_rook_square(Color(ci), side);
        if (from == rk || to == rk) castling_ &= static_cast<uint8_t>(~(1 << (2 * ci + side)));
      }
    }
    if (old != castling_) key_ ^= v.zobrist_castling(old) ^ v.zobrist_castling(castling_);
  }
  st->captured = cap;
  halfmove_ = (cap || pawn) ? 0 : static_cast<uint16_t>(halfmove_ + 1);
  if (us == kSecond) ++fullmove_;
  side_ = ~us;
  key_ ^= v.zobrist_side();
}

void Position::UndoMove(Move m, const StateInfo& st) {
  side_ = ~side_;
  const Color us = side_;
  if (us == kSecond) --fullmove_;
  const int from = m.from(), to = m.to();
  switch (m.type()) {
    case MoveType::kEnPassant: {
      MovePiece(to, from);
      PutBack(st.captured, MakeSquare(FileOf(to), RankOf(from)), st.captured_slot);
      break;
    }
    case MoveType::kCastle: {
      int rook_from, rook_to;
      CastleRookSquares(m, us, &rook_from, &rook_to);
      Piece rook = board_[rook_to];
      RemovePiece(rook_to);
      MovePiece(to, from);
      PutBack(rook, rook_from, st.own_slot);
      break;
    }
    default: {
      if (m.type() == MoveType::kPromotion) {
        RemovePiece(to);
        PutBack(st.moved, to, st.own_slot);
      }
      MovePiece(to, from);
      if (st.captured) PutBack(st.captured, to, st.captured_slot);
    }
  }
  key_ = st.key;
  castling_ = st.castling;
  ep_ = st.ep;
  halfmove_ = st.halfmove;
}

void Position::DoNullMove(StateInfo* st) {
  st->key = key_;
  st->ep = ep_;
  st->castling = castling_;
  st->halfmove = halfmove_;
  st->captured = kNoPiece;
  if (ep_ >= 0) key_ ^= v_->zobrist_ep(ep_);
  ep_ = -1;
  side_ = ~side_;
  key_ ^= v_->zobrist_side();
}

void Position::UndoNullMove(const StateInfo& st) {
  side_ = ~side_;
  key_ = st.key;
  ep_ = st.ep;
}

std::string Position::Material() const {
  const Variant& v = *v_;
  std::vector<int> order;
  for (int k = 0; k < v.kind_count(); ++k)
    if (k != v.royal_kind()) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v.kind(a).value > v.kind(b).value; });
  std::string out;
  for (int ci = 0; ci < 2; ++ci) {
    if (v.royal_kind() >= 0)
      for (int i = 0; i < counts_[ci][v.royal_kind()]; ++i) out += v.kind(v.royal_kind()).letter;
    for (int k : order)
      for (int i = 0; i < counts_[ci][k]; ++i) out += v.kind(k).letter;
  }
  return out;
}

Position Position::Mirrored() const {
  Position p;
  p.Clear(*v_, side_);
  for (int sq = 0; sq < kSquareSlots; ++sq)
    if (board_[sq]) p.Put(board_[sq], v_->Mirror(sq));
  if (ep_ >= 0) {
    p.ep_ = static_cast<int16_t>(v_->Mirror(ep_));
    p.key_ ^= v_->zobrist_ep(p.ep_);
  }
  p.halfmove_ = halfmove_;
  p.fullmove_ = fullmove_;
  return p;
}

Position Position::ColorFlipped() const {
  Position p;
  p.Clear(*v_, ~side_);
  auto flip = [&](int sq) { return MakeSquare(FileOf(sq), v_->ranks() - 1 - RankOf(sq)); };
  for (int sq = 0; sq < kSquareSlots; ++sq)
    if (board_[sq]) {
      Piece q = board_[sq];
      p.Put(MakePiece(~ColorOf(q), KindOf(q)), flip(sq));
    }
  if (ep_ >= 0) {
    p.ep_ = static_cast<int16_t>(flip(ep_));
    p.key_ ^= v_->zobrist_ep(p.ep_);
  }
  p.castling_ = static_cast<uint8_t>(((castling_ & 3) << 2) | ((castling_ >> 2) & 3));
  p.key_ ^= v_->zobrist_castling(p.castling_);
  p.halfmove_ = halfmove_;
  p.fullmove_ = fullmove_;
  return p;
}

}  // namespace canju
