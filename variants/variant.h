// A variant: the data of a definition file (board, regions, pieces, rules)
// compiled into flat move tables per (colour, kind, square).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "variants/betza.h"
#include "variants/status.h"
#include "variants/types.h"

namespace canju {

using SquareSet = std::bitset<kSquareSlots>;

enum class Outcome : uint8_t { kLoss, kDraw, kWin };  // for the side to move
enum class WinCondition : uint8_t { kCheckmate, kCaptureRoyal };
enum class NotationStyle : uint8_t { kXiangqi, kChess };

struct Region {
  std::string name;
  SquareSet squares[2];  // per colour; the second player's is the first's mirrored vertically
};

struct PieceKind {
  std::string name;          // "horse"
  char letter = '?';         // FEN letter, upper case (first player)
  std::string alt_letters;   // also accepted on input (upper case)
  std::string zh[2];         // display names per colour: 帅 / 将
  std::string symbol[2];     // Unicode symbols per colour (may be empty)
  std::string betza;
  std::vector<Atom> atoms;
  bool royal = false;
  bool pawn = false;         // double step, en passant, promotion apply
  bool castling_rook = false;
  int region = -1;           // destination region for every atom, -1 = whole board
  int value = 0;             // rough material value (move ordering, display)
};

struct Rules {
  WinCondition win = WinCondition::kCheckmate;
  Outcome stalemate = Outcome::kLoss;       // result for the stalemated side
  bool flying_general = false;
  Outcome perpetual_check = Outcome::kDraw;  // result for the perpetual checker (kDraw: ignored)
  Outcome perpetual_chase = Outcome::kDraw;  // result for the perpetual chaser (kDraw: not modelled; chase.h)
  bool castling = false;
  bool double_step = false;
  bool en_passant = false;
  int double_step_region = -1;
  int promotion_region = -1;
  std::vector<int> promotion_kinds;          // kinds a pawn may promote to
  int halfmove_draw = 0;                      // 0 = none (chess: 100 plies)
};

// Precomputed geometry. Entries are per (colour, kind, square): a slot gives
// ranges into the flat arrays.
struct LeapEntry {
  uint8_t to;
  uint8_t flags;   // kCanMove | kCanCapture | kPromotes | kDoubleStep
  uint16_t leg1;   // kNullCell when not blocked
  uint16_t leg2;
  uint16_t pad;
};
struct RayEntry {
  uint32_t first;  // index into ray_squares
  uint8_t len;
  uint8_t flags;   // kCanMove | kCanCapture | kPromotes
  uint8_t mode;    // AtomMode
  uint8_t dir;     // index into Variant::directions()
};
struct Slot {
  uint32_t leap_begin, leap_end, ray_begin, ray_end;
};
// Reverse leap: a piece `piece` on `origin` reaches the target through legs.
struct ReverseLeap {
  uint8_t origin;
  Piece piece;
  uint16_t leg1;
  uint16_t leg2;
};

constexpr uint8_t kCanMove = 1, kCanCapture = 2, kPromotes = 4, kDoubleStep = 8;

// Rule options ("section.key=value", as Variant::Parse takes them) in one
// spelling each: spaces trimmed around the section, key and value and
// squeezed inside a section name ("piece horse"), the last setting of a key
// kept, sorted. Two lists that set the same options the same way — in any
// order or spacing — come out equal, which is how stored verdicts are
// matched to the options a command gives. A malformed option is kept as
// it was (Parse reports it).
std::vector<std::string> CanonicalOverrides(const std::vector<std::string>& overrides);

class Variant {
 public:
  // Parses a definition text. `source` names the file for error messages
  // ("variants/defs/xiangqi.ini:12: ...").
  // `overrides` are "section.key=value" settings applied on top of the text,
  // e.g. "rules.promotion_pieces=Q R B N" or "piece cannon.betza=mQcxQ"; this
  // is how rule options that players disagree on are chosen.
  static Status Parse(const std::string& text, const std::string& source, std::unique_ptr<Variant>* out,
                      const std::vector<std::string>& overrides = {});

  const std::string& id() const { return id_; }
  const std::string& name() const { return name_; }
  const std::string& name_zh() const { return name_zh_; }
  const std::string& description() const { return description_; }
  const std::string& source() const { return source_; }
  int files() const { return files_; }
  int ranks() const { return ranks_; }
  bool on_board(int file, int rank) const { return file >= 0 && file < files_ && rank >= 0 && rank < ranks_; }
  bool on_board(int sq) const { return FileOf(sq) < files_ && RankOf(sq) < ranks_; }
  const std::string& start_fen() const { return start_fen_; }
  NotationStyle notation() const { return notation_; }
  const std::string& color_name(Color c) const { return color_names_[c]; }
  const Rules& rules() const { return rules_; }

  int kind_count() const { return static_cast<int>(kinds_.size()); }
  const PieceKind& kind(int k) const { return kinds_[k]; }
  int royal_kind() const { return royal_kind_; }
  // Kind for a FEN letter (either case; alternative letters accepted); -1 if none.
  int KindForLetter(char c) const;
  char Letter(Piece p) const;  // upper case for the first player
  const std::vector<Region>& regions() const { return regions_; }
  int RegionIndex(const std::string& name) const;
  bool InRegion(int region, Color c, int sq) const { return region < 0 || regions_[region].squares[c][sq]; }

  // Squares a piece of this kind and colour can ever stand on in a game
  // reachable from a legal set-up (Xiangqi: king 9, advisor 5, elephant 7,
  // pawn 55). Positions with pieces elsewhere are rejected.
  const SquareSet& legal_squares(Color c, int kind) const { return legal_squares_[c][kind]; }
  // Castling geometry from the start position: the royal's square and the
  // rooks' squares (index 0: towards the higher files, 1: the lower files);
  // -1 when absent. Castling rights bit (c * 2 + side).
  int castle_royal_square(Color c) const { return castle_royal_sq_[c]; }
  int castle_rook_square(Color c, int side) const { return castle_rook_sq_[c][side]; }

  // Left-right mirror of a square.
  int Mirror(int sq) const { return MakeSquare(files_ - 1 - FileOf(sq), RankOf(sq)); }
  // True when the rules are symmetric under the left-right mirror.
  bool mirror_symmetric() const { return mirror_symmetric_; }

  // --- compiled tables (hot paths) ---
  const Slot& slot(Color c, int kind, int sq) const { return slots_[(c * kind_count() + kind) * kSquareSlots + sq]; }
  const LeapEntry* leaps() const { return leaps_.data(); }
  const RayEntry* rays() const { return rays_.data(); }
  const uint8_t* ray_squares() const { return ray_squares_.data(); }
  const std::vector<Step>& directions() const { return directions_; }
  int direction_count() const { return static_cast<int>(directions_.size()); }
  // Line families for occupancy bit tricks: lines along rank, file, diagonal
  // or anti-diagonal are kept as 16-bit occupancy words in Position.
  enum LineFamily : uint8_t { kRankLine = 0, kFileLine = 1, kDiagLine = 2, kAntiLine = 3, kNoLine = 4 };
  LineFamily direction_family(int d) const { return dir_family_[d]; }
  bool has_diagonal_lines() const { return has_diagonal_lines_; }
  bool direction_positive(int d) const { return dir_positive_[d]; }

  // Attack tables: who can capture onto `target` (a royal there would be in
  // check). Leaps are listed per (attacker colour, target).
  std::pair<const ReverseLeap*, const ReverseLeap*> capture_leaps_to(Color by, int target) const {
    const auto& r = rev_capture_range_[by * kSquareSlots + target];
    return {rev_capture_leaps_.data() + r.first, rev_capture_leaps_.data() + r.second};
  }
  // Squares on the line from `sq` along direction `d`, nearest first.
  std::pair<const uint8_t*, int> line(int sq, int d) const {
    const auto& r = lines_[sq * direction_count() + d];
    return {ray_squares_.data() + r.first, r.second};
  }
  // Walk directions (from a target outwards) along which `by` may capture by
  // ride, hop or gap; and the reverse (attacker's) direction index.
  struct AttackWalk {
    int walk;  // direction walked from the target
    int dir;   // the attacker's direction (the reverse)
    // Piece codes (bit = Piece) that capture along `dir` by ride / hop from
    // anywhere on the line with no range or region limit; and those that
    // may, subject to the per-square length tables.
    uint64_t ride_always = 0, ride_maybe = 0, hop_always = 0, hop_maybe = 0;
  };
  const std::vector<AttackWalk>& attack_walks(Color by) const { return attack_walks_[by]; }
  // Max distance along direction d for captures of (c, kind) from origin by
  // mode; 0 = none.
  uint8_t ride_capture_len(Color c, int kind, int origin, int d) const { return cap_len_[0][LenIndex(c, kind, origin, d)]; }
  uint8_t hop_capture_len(Color c, int kind, int origin, int d) const { return cap_len_[1][LenIndex(c, kind, origin, d)]; }
  uint8_t gap_capture_len(Color c, int kind, int origin, int d) const { return cap_len_[2][LenIndex(c, kind, origin, d)]; }
  bool has_gap_attackers(Color by) const { return has_gap_[by]; }
  bool has_hop_attackers(Color by) const { return has_hop_[by]; }
  // Same for quiet (non-capturing) moves, used to generate un-moves.
  uint8_t ride_move_len(Color c, int kind, int origin, int d) const { return move_len_[LenIndex(c, kind, origin, d)]; }
  std::pair<const ReverseLeap*, const ReverseLeap*> quiet_leaps_to(Color c, int kind, int target) const {
    const auto& r = rev_quiet_range_[(c * kind_count() + kind) * kSquareSlots + target];
    return {rev_quiet_leaps_.data() + r.first, rev_quiet_leaps_.data() + r.second};
  }
  // How a change on `sq` can affect attacks on a royal of colour c on
  // royal_sq: bit i set = `sq` lies on attack_walks(~c)[i] from royal_sq;
  // kLeapRelevant = `sq` is an origin or leg of a capture leap onto royal_sq.
  // 0 = a change there cannot affect the royal's safety.
  static constexpr uint32_t kLeapRelevant = 1u << 31;
  uint32_t relevance(Color c, int royal_sq, int sq) const {
    return relevance_[(static_cast<size_t>(c) * kSquareSlots + royal_sq) * kSquareSlots + sq];
  }
  // Upper bound of pseudo-legal moves a piece can have on a square.
  int max_moves(Color c, int kind, int sq) const;

  uint64_t zobrist_piece(Piece p, int sq) const { return zobrist_[p * kSquareSlots + sq]; }
  uint64_t zobrist_side() const { return zobrist_side_; }
  uint64_t zobrist_castling(int rights) const { return zobrist_castle_[rights & 15]; }
  uint64_t zobrist_ep(int sq) const { return zobrist_[sq]; }  // piece 0 row: unused by pieces

 private:
  Variant() = default;
  Status Compile();
  void BuildGeometry();
  void BuildLegalSquares();
  size_t LenIndex(Color c, int kind, int origin, int d) const {
    return ((static_cast<size_t>(c) * kind_count() + kind) * kSquareSlots + origin) * direction_count() + d;
  }
  int DirectionIndex(Step s);

  std::string id_, name_, name_zh_, description_, source_, start_fen_;
  std::string color_names_[2] = {"white", "black"};
  int files_ = 0, ranks_ = 0;
  NotationStyle notation_ = NotationStyle::kChess;
  Rules rules_;
  std::vector<PieceKind> kinds_;
  std::vector<Region> regions_;
  int royal_kind_ = -1;
  bool mirror_symmetric_ = false;
  SquareSet legal_squares_[2][kMaxKinds];
  int castle_royal_sq_[2] = {-1, -1};
  int castle_rook_sq_[2][2] = {{-1, -1}, {-1, -1}};

  std::vector<Step> directions_;
  std::vector<LineFamily> dir_family_;
  bool has_diagonal_lines_ = false;
  std::vector<uint8_t> dir_positive_;
  std::vector<Slot> slots_;
  std::vector<LeapEntry> leaps_;
  std::vector<RayEntry> rays_;
  std::vector<uint8_t> ray_squares_;
  std::vector<std::pair<uint32_t, int>> lines_;
  std::vector<ReverseLeap> rev_capture_leaps_;
  std::vector<std::pair<uint32_t, uint32_t>> rev_capture_range_;
  std::vector<ReverseLeap> rev_quiet_leaps_;
  std::vector<std::pair<uint32_t, uint32_t>> rev_quiet_range_;
  std::vector<AttackWalk> attack_walks_[2];
  std::vector<uint8_t> cap_len_[3];
  std::vector<uint8_t> move_len_;
  bool has_gap_[2] = {false, false};
  bool has_hop_[2] = {false, false};
  std::vector<uint32_t> relevance_;
  std::vector<uint64_t> zobrist_;
  uint64_t zobrist_side_ = 0;
  uint64_t zobrist_castle_[16] = {};
};

}  // namespace canju
