#include "variants/variant.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <sstream>

#include "variants/placement.h"

namespace canju {
namespace {

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool ParseBool(const std::string& v, bool* out) {
  std::string l = v;
  for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "on" || l == "yes" || l == "true" || l == "1") return *out = true, true;
  if (l == "off" || l == "no" || l == "false" || l == "0") return *out = false, true;
  return false;
}

bool ParseOutcome(const std::string& v, Outcome* out) {
  if (v == "loss") return *out = Outcome::kLoss, true;
  if (v == "draw") return *out = Outcome::kDraw, true;
  if (v == "win") return *out = Outcome::kWin, true;
  return false;
}

// splitmix64: deterministic Zobrist keys, identical on every machine.
uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Entry {
  std::string value;
  int line;
};
struct Section {
  std::string kind;  // variant, rules, region, piece
  std::string name;
  int line;
  std::map<std::string, Entry> entries;
};

// An override "section[ name].key=value" split into its parts, trimmed
// (section words: the kind and, for a piece, its name); false when it is
// not of that form.
struct Override {
  std::vector<std::string> section;
  std::string key, value;
};
bool SplitOverride(const std::string& o, Override* out) {
  const size_t eq = o.find('=');
  if (eq == std::string::npos) return false;
  const size_t dot = o.substr(0, eq).rfind('.');
  if (dot == std::string::npos) return false;
  out->section = SplitWords(o.substr(0, dot));
  out->key = Trim(o.substr(dot + 1, eq - dot - 1));
  out->value = Trim(o.substr(eq + 1));
  return !out->section.empty() && out->section.size() <= 2 && !out->key.empty();
}

}  // namespace

std::vector<std::string> CanonicalOverrides(const std::vector<std::string>& overrides) {
  struct Setting {
    std::string name;  // "section[ name].key", or a malformed option whole
    std::string text;  // its canonical spelling
  };
  std::vector<Setting> set;  // in order, one per name
  for (const std::string& o : overrides) {
    Setting s{o, o};
    if (Override parts; SplitOverride(o, &parts)) {
      const std::vector<std::string>& sec = parts.section;
      s.name = sec[0] + (sec.size() == 2 ? " " + sec[1] : "") + "." + parts.key;
      s.text = s.name + "=" + parts.value;
    }
    std::erase_if(set, [&](const Setting& e) { return e.name == s.name; });
    set.push_back(s);
  }
  std::vector<std::string> out;
  for (const Setting& s : set) out.push_back(s.text);
  std::sort(out.begin(), out.end());
  return out;
}

// Parses "a1-c3, e5 f6" into squares of a board files x ranks.
static bool ParseSquareList(const std::string& text, int files, int ranks, SquareSet* out, std::string* err) {
  for (const std::string& word : SplitWords(text)) {
    auto parse_one = [&](const std::string& w, int* f, int* r) {
      if (w.size() < 2 || w[0] < 'a' || w[0] > 'p') return false;
      *f = w[0] - 'a';
      int rank = 0;
      for (size_t i = 1; i < w.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(w[i])) || i > 3) return false;  // ranks 1..16
        rank = rank * 10 + (w[i] - '0');
      }
      *r = rank - 1;
      return *f < files && *r >= 0 && *r < ranks;
    };
    size_t dash = word.find('-');
    int f1, r1, f2, r2;
    if (dash == std::string::npos) {
      if (!parse_one(word, &f1, &r1)) return *err = "bad square '" + word + "'", false;
      f2 = f1, r2 = r1;
    } else {
      if (!parse_one(word.substr(0, dash), &f1, &r1) || !parse_one(word.substr(dash + 1), &f2, &r2))
        return *err = "bad square range '" + word + "'", false;
    }
    for (int f = std::min(f1, f2); f <= std::max(f1, f2); ++f)
      for (int r = std::min(r1, r2); r <= std::max(r1, r2); ++r) out->set(MakeSquare(f, r));
  }
  return true;
}

int Variant::KindForLetter(char c) const {
  char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int k = 0; k < kind_count(); ++k)
    if (kinds_[k].letter == u) return k;
  for (int k = 0; k < kind_count(); ++k)
    if (kinds_[k].alt_letters.find(u) != std::string::npos) return k;
  return -1;
}

char Variant::Letter(Piece p) const {
  char l = kinds_[KindOf(p)].letter;
  return ColorOf(p) == kFirst ? l : static_cast<char>(std::tolower(static_cast<unsigned char>(l)));
}

int Variant::RegionIndex(const std::string& name) const {
  for (size_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].name == name) return static_cast<int>(i);
  return -1;
}

int Variant::max_moves(Color c, int kind, int sq) const {
  const Slot& s = slot(c, kind, sq);
  int n = static_cast<int>(s.leap_end - s.leap_begin);
  for (uint32_t i = s.ray_begin; i < s.ray_end; ++i) n += rays_[i].len;
  if (kinds_[kind].pawn) n *= std::max<int>(1, static_cast<int>(rules_.promotion_kinds.size()));
  return n + 2;  // castling / en passant
}

int Variant::DirectionIndex(Step s) {
  for (size_t i = 0; i < directions_.size(); ++i)
    if (directions_[i] == s) return static_cast<int>(i);
  directions_.push_back(s);
  return static_cast<int>(directions_.size()) - 1;
}

Status Variant::Parse(const std::string& text, const std::string& source, std::unique_ptr<Variant>* out,
                      const std::vector<std::string>& overrides) {
  std::unique_ptr<Variant> v(new Variant());
  v->source_ = source;
  // Entries set by an override carry line -(its index + 1): an error in one
  // names the option, not a line of the file.
  auto err = [&](int line, const std::string& msg) {
    if (line < 0 && static_cast<size_t>(-line) <= overrides.size())
      return Status::InvalidArgument(source + ": option '" + overrides[-line - 1] + "': " + msg);
    return Status::InvalidArgument(source + ":" + std::to_string(line) + ": " + msg);
  };

  // --- split into sections ---
  std::vector<Section> sections;
  std::istringstream in(text);
  std::string raw;
  int lineno = 0;
  while (std::getline(in, raw)) {
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (lineno == 1 && raw.size() >= 3 && raw.compare(0, 3, "\xEF\xBB\xBF") == 0) raw.erase(0, 3);
    // Comments: a line starting with # or ;, or " # ..." after the content
    // (FEN and Betza text never contain '#').
    for (size_t h = raw.find('#'); h != std::string::npos; h = raw.find('#', h + 1))
      if (h == 0 || raw[h - 1] == ' ' || raw[h - 1] == '\t') {
        raw.erase(h);
        break;
      }
    std::string line = Trim(raw);
    if (line.empty() || line[0] == ';') continue;
    if (line[0] == '[') {
      if (line.back() != ']') return err(lineno, "section header without ']'");
      std::vector<std::string> words = SplitWords(line.substr(1, line.size() - 2));
      if (words.empty()) return err(lineno, "empty section header");
      Section s{words[0], words.size() > 1 ? words[1] : "", lineno, {}};
      if (s.kind != "variant" && s.kind != "rules" && s.kind != "region" && s.kind != "piece")
        return err(lineno, "unknown section '" + s.kind + "' (expected variant, rules, region NAME, piece NAME)");
      if ((s.kind == "region" || s.kind == "piece") && (words.size() != 2))
        return err(lineno, "section [" + s.kind + "] needs exactly one name");
      sections.push_back(std::move(s));
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos) return err(lineno, "expected 'key = value'");
    if (sections.empty()) return err(lineno, "key outside any section");
    std::string key = Trim(line.substr(0, eq));
    std::string value = Trim(line.substr(eq + 1));
    if (key.empty()) return err(lineno, "empty key");
    auto& entries = sections.back().entries;
    if (entries.count(key)) return err(lineno, "duplicate key '" + key + "'");
    entries[key] = {value, lineno};
  }

  // Apply overrides: "section.key=value", section being "rules" or "piece NAME".
  for (size_t oi = 0; oi < overrides.size(); ++oi) {
    const std::string& o = overrides[oi];
    const int option_line = -static_cast<int>(oi + 1);
    Override parts;
    if (!SplitOverride(o, &parts))
      return Status::InvalidArgument(source + ": option '" + o + "' must be SECTION.KEY=VALUE");
    const std::vector<std::string>& sec = parts.section;
    const std::string& key = parts.key;
    const std::string& value = parts.value;
    std::string name = sec.size() == 2 ? sec[1] : "";
    Section* target = nullptr;
    for (auto& s : sections)
      if (s.kind == sec[0] && s.name == name) target = &s;
    if (!target) {
      if (sec[0] != "rules" && sec[0] != "variant")
        return Status::InvalidArgument(source + ": option '" + o + "': no section [" + sec[0] + (name.empty() ? "" : " " + name) + "]");
      sections.push_back(Section{sec[0], name, option_line, {}});
      target = &sections.back();
    }
    target->entries[key] = {value, option_line};
  }

  // Check that a section uses only known keys.
  auto check_keys = [&](const Section& s, std::initializer_list<const char*> known) -> Status {
    for (const auto& [k, e] : s.entries) {
      bool ok = false;
      for (const char* n : known) ok |= k == n;
      if (!ok) return err(e.line, "unknown key '" + k + "' in [" + s.kind + (s.name.empty() ? "" : " " + s.name) + "]");
    }
    return Status::OK();
  };

  // --- [variant] ---
  const Section* vs = nullptr;
  for (const auto& s : sections)
    if (s.kind == "variant") {
      if (vs) return err(s.line, "second [variant] section");
      vs = &s;
    }
  if (!vs) return err(1, "missing [variant] section");
  if (Status st = check_keys(*vs, {"id", "name", "name_zh", "description", "board", "start", "notation", "colors"});
      !st.ok())
    return st;
  auto need = [&](const Section& s, const std::string& key, std::string* value) -> Status {
    auto it = s.entries.find(key);
    if (it == s.entries.end()) return err(s.line, "[" + s.kind + "] needs '" + key + "'");
    *value = it->second.value;
    return Status::OK();
  };
  auto get = [](const Section& s, const std::string& key, const std::string& def) {
    auto it = s.entries.find(key);
    return it == s.entries.end() ? def : it->second.value;
  };
  auto line_of = [](const Section& s, const std::string& key) {
    auto it = s.entries.find(key);
    return it == s.entries.end() ? s.line : it->second.line;
  };
  std::string board;
  if (Status st = need(*vs, "id", &v->id_); !st.ok()) return st;
  for (char c : v->id_)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
      return err(line_of(*vs, "id"), "id '" + v->id_ + "' may use only a-z, 0-9 and '-'");
  if (Status st = need(*vs, "board", &board); !st.ok()) return st;
  if (Status st = need(*vs, "start", &v->start_fen_); !st.ok()) return st;
  v->name_ = get(*vs, "name", v->id_);
  v->name_zh_ = get(*vs, "name_zh", "");
  v->description_ = get(*vs, "description", "");
  {
    int f = 0, r = 0;
    char x = 0;
    std::istringstream bs(board);
    if (!(bs >> f >> x >> r) || (x != 'x' && x != 'X') || f < 2 || r < 2 || f > kMaxFiles || r > kMaxRanks)
      return err(line_of(*vs, "board"), "board '" + board + "' must be FILESxRANKS, each 2..16");
    v->files_ = f;
    v->ranks_ = r;
  }
  std::string notation = get(*vs, "notation", "chess");
  if (notation == "xiangqi") v->notation_ = NotationStyle::kXiangqi;
  else if (notation == "chess") v->notation_ = NotationStyle::kChess;
  else return err(line_of(*vs, "notation"), "notation must be xiangqi or chess");
  {
    std::vector<std::string> cn = SplitWords(get(*vs, "colors", "white black"));
    if (cn.size() != 2) return err(line_of(*vs, "colors"), "colors needs two names");
    v->color_names_[0] = cn[0];
    v->color_names_[1] = cn[1];
  }

  // --- [region NAME] ---
  for (const auto& s : sections) {
    if (s.kind != "region") continue;
    if (Status st = check_keys(s, {"squares", "second"}); !st.ok()) return st;
    if (v->RegionIndex(s.name) >= 0) return err(s.line, "region '" + s.name + "' defined twice");
    Region r;
    r.name = s.name;
    std::string sq, e;
    if (Status st = need(s, "squares", &sq); !st.ok()) return st;
    if (!ParseSquareList(sq, v->files_, v->ranks_, &r.squares[0], &e)) return err(line_of(s, "squares"), e);
    auto it = s.entries.find("second");
    if (it != s.entries.end()) {
      if (!ParseSquareList(it->second.value, v->files_, v->ranks_, &r.squares[1], &e)) return err(it->second.line, e);
    } else {
      for (int q = 0; q < kSquareSlots; ++q)
        if (r.squares[0][q]) r.squares[1].set(MakeSquare(FileOf(q), v->ranks_ - 1 - RankOf(q)));
    }
    v->regions_.push_back(std::move(r));
  }
  auto region_ref = [&](const std::string& name, int line, int* idx) -> Status {
    *idx = v->RegionIndex(name);
    if (*idx < 0) return err(line, "unknown region '" + name + "'");
    return Status::OK();
  };

  // --- [piece NAME] ---
  std::vector<const Section*> piece_sections;
  for (const auto& s : sections) {
    if (s.kind != "piece") continue;
    if (Status st = check_keys(s, {"letter", "alt_letters", "zh", "symbol", "betza", "royal", "pawn",
                                   "castling_rook", "region", "value"});
        !st.ok())
      return st;
    PieceKind k;
    k.name = s.name;
    std::string letter;
    if (Status st = need(s, "letter", &letter); !st.ok()) return st;
    if (letter.size() != 1 || !std::isalpha(static_cast<unsigned char>(letter[0])))
      return err(line_of(s, "letter"), "letter must be one ASCII letter");
    k.letter = static_cast<char>(std::toupper(static_cast<unsigned char>(letter[0])));
    for (char c : get(s, "alt_letters", ""))
      if (std::isalpha(static_cast<unsigned char>(c))) k.alt_letters += static_cast<char>(std::toupper(c));
    for (const auto& other : v->kinds_) {
      if (other.letter == k.letter || other.alt_letters.find(k.letter) != std::string::npos)
        return err(line_of(s, "letter"), std::string("letter '") + k.letter + "' already used by " + other.name);
    }
    std::vector<std::string> zh = SplitWords(get(s, "zh", ""));
    if (zh.size() == 1) zh.push_back(zh[0]);
    if (zh.size() == 2) k.zh[0] = zh[0], k.zh[1] = zh[1];
    else if (!zh.empty()) return err(line_of(s, "zh"), "zh needs one or two names");
    std::vector<std::string> sym = SplitWords(get(s, "symbol", ""));
    if (sym.size() == 2) k.symbol[0] = sym[0], k.symbol[1] = sym[1];
    else if (!sym.empty()) return err(line_of(s, "symbol"), "symbol needs two symbols");
    if (Status st = need(s, "betza", &k.betza); !st.ok()) return st;
    if (Status st = ParseBetza(k.betza, &k.atoms); !st.ok()) return err(line_of(s, "betza"), st.message());
    for (auto [key, flag] : {std::pair<const char*, bool*>{"royal", &k.royal}, {"pawn", &k.pawn},
                             {"castling_rook", &k.castling_rook}}) {
      std::string b = get(s, key, "no");
      if (!ParseBool(b, flag)) return err(line_of(s, key), std::string(key) + " must be yes or no");
    }
    std::string region = get(s, "region", "");
    if (!region.empty())
      if (Status st = region_ref(region, line_of(s, "region"), &k.region); !st.ok()) return st;
    std::string value = get(s, "value", "0");
    try {
      k.value = std::stoi(value);
    } catch (...) {
      return err(line_of(s, "value"), "value must be an integer");
    }
    for (const Atom& a : k.atoms) {
      int dummy;
      if (!a.from_region.empty())
        if (Status st = region_ref(a.from_region, line_of(s, "betza"), &dummy); !st.ok()) return st;
      if (!a.to_region.empty())
        if (Status st = region_ref(a.to_region, line_of(s, "betza"), &dummy); !st.ok()) return st;
    }
    if (k.royal) {
      if (v->royal_kind_ >= 0) return err(line_of(s, "royal"), "only one royal piece kind is supported");
      v->royal_kind_ = static_cast<int>(v->kinds_.size());
    }
    if (static_cast<int>(v->kinds_.size()) >= kMaxKinds) return err(s.line, "too many piece kinds (max 31)");
    v->kinds_.push_back(std::move(k));
    piece_sections.push_back(&s);
  }
  if (v->kinds_.empty()) return err(vs->line, "no [piece] sections");

  // --- [rules] ---
  const Section* rs = nullptr;
  for (const auto& s : sections)
    if (s.kind == "rules") {
      if (rs) return err(s.line, "second [rules] section");
      rs = &s;
    }
  if (rs) {
    const Section& s = *rs;
    if (Status st = check_keys(s, {"win", "stalemate", "flying_general", "perpetual_check", "perpetual_chase", "castling", "double_step",
                                   "double_step_region", "en_passant", "promotion_region", "promotion_pieces",
                                   "halfmove_draw"});
        !st.ok())
      return st;
    Rules& r = v->rules_;
    std::string win = get(s, "win", "checkmate");
    if (win == "checkmate") r.win = WinCondition::kCheckmate;
    else if (win == "capture_royal") r.win = WinCondition::kCaptureRoyal;
    else return err(line_of(s, "win"), "win must be checkmate or capture_royal");
    if (!ParseOutcome(get(s, "stalemate", "loss"), &r.stalemate))
      return err(line_of(s, "stalemate"), "stalemate must be loss, draw or win");
    if (!ParseOutcome(get(s, "perpetual_check", "draw"), &r.perpetual_check) || r.perpetual_check == Outcome::kWin)
      return err(line_of(s, "perpetual_check"), "perpetual_check must be loss or draw");
    if (!ParseOutcome(get(s, "perpetual_chase", "draw"), &r.perpetual_chase) || r.perpetual_chase == Outcome::kWin)
      return err(line_of(s, "perpetual_chase"), "perpetual_chase must be loss or draw");
    for (auto [key, flag] : {std::pair<const char*, bool*>{"flying_general", &r.flying_general},
                             {"castling", &r.castling}, {"double_step", &r.double_step},
                             {"en_passant", &r.en_passant}}) {
      if (!ParseBool(get(s, key, "off"), flag)) return err(line_of(s, key), std::string(key) + " must be on or off");
    }
    std::string dsr = get(s, "double_step_region", "");
    if (r.double_step) {
      if (dsr.empty()) return err(line_of(s, "double_step"), "double_step needs double_step_region");
      if (Status st = region_ref(dsr, line_of(s, "double_step_region"), &r.double_step_region); !st.ok()) return st;
    }
    std::string pr = get(s, "promotion_region", "");
    if (!pr.empty()) {
      if (Status st = region_ref(pr, line_of(s, "promotion_region"), &r.promotion_region); !st.ok()) return st;
      for (const std::string& w : SplitWords(get(s, "promotion_pieces", ""))) {
        for (char c : w) {
          int k = v->KindForLetter(c);
          if (k < 0 || v->kinds_[k].royal || v->kinds_[k].pawn)
            return err(line_of(s, "promotion_pieces"), std::string("cannot promote to '") + c + "'");
          r.promotion_kinds.push_back(k);
        }
      }
      if (r.promotion_kinds.empty()) return err(line_of(s, "promotion_region"), "promotion_region needs promotion_pieces");
    }
    std::string hm = get(s, "halfmove_draw", "0");
    try {
      r.halfmove_draw = std::stoi(hm);
    } catch (...) {
      return err(line_of(s, "halfmove_draw"), "halfmove_draw must be an integer");
    }
    if (r.castling && (v->royal_kind_ < 0))
      return err(line_of(s, "castling"), "castling needs a royal piece");
  }
  if (v->rules_.win == WinCondition::kCheckmate && v->royal_kind_ < 0)
    return err(rs ? rs->line : vs->line, "win = checkmate needs a piece with royal = yes");
  if (v->rules_.flying_general && v->royal_kind_ < 0)
    return err(line_of(*rs, "flying_general"), "flying_general needs a royal piece");

  if (v->rules_.double_step) {
    for (auto& k : v->kinds_) {
      if (!k.pawn) continue;
      std::vector<Atom> ds;
      ParseBetza("fmnD", &ds);
      ds[0].from_region = v->regions_[v->rules_.double_step_region].name;
      ds[0].double_step = true;
      ds[0].text = "fmnD (double step)";
      k.atoms.push_back(ds[0]);
    }
  }

  if (Status st = v->Compile(); !st.ok()) return st;

  // The start position must parse (pieces known, board size right).
  uint8_t cells[kSquareSlots];
  std::string perr;
  size_t cut = v->start_fen_.find(' ');
  if (!ParsePlacement(*v, v->start_fen_.substr(0, cut), cells, &perr))
    return err(line_of(*vs, "start"), "start position: " + perr);
  v->BuildLegalSquares();
  *out = std::move(v);
  return Status::OK();
}

Status Variant::Compile() {
  const int nk = kind_count();
  // Directions used by line atoms, in absolute frame, closed under negation.
  for (int c = 0; c < 2; ++c)
    for (const auto& k : kinds_)
      for (const Atom& a : k.atoms)
        if (a.mode != AtomMode::kLeap)
          for (Step s : a.steps) {
            Step abs{c ? -s.dx : s.dx, c ? -s.dy : s.dy};
            DirectionIndex(abs);
            DirectionIndex({-abs.dx, -abs.dy});
          }
  if (rules_.flying_general) {
    DirectionIndex({0, 1});
    DirectionIndex({0, -1});
  }
  const int nd = direction_count();
  for (const Step& s : directions_) {
    LineFamily f = kNoLine;
    bool positive = s.dx > 0 || (s.dx == 0 && s.dy > 0);
    if (s.dy == 0 && std::abs(s.dx) == 1) f = kRankLine;
    else if (s.dx == 0 && std::abs(s.dy) == 1) f = kFileLine;
    else if (s.dx == s.dy && std::abs(s.dx) == 1) f = kDiagLine;
    else if (s.dx == -s.dy && std::abs(s.dx) == 1) f = kAntiLine;
    dir_family_.push_back(f);
    if (f == kDiagLine || f == kAntiLine) has_diagonal_lines_ = true;
    dir_positive_.push_back(positive);
  }

  // Full lines from every square in every direction.
  lines_.assign(kSquareSlots * nd, {0, 0});
  for (int sq = 0; sq < kSquareSlots; ++sq) {
    if (!on_board(sq)) continue;
    for (int d = 0; d < nd; ++d) {
      uint32_t first = static_cast<uint32_t>(ray_squares_.size());
      int f = FileOf(sq) + directions_[d].dx, r = RankOf(sq) + directions_[d].dy, len = 0;
      while (on_board(f, r)) {
        ray_squares_.push_back(MakeSquare(f, r));
        ++len;
        f += directions_[d].dx;
        r += directions_[d].dy;
      }
      lines_[sq * nd + d] = {first, len};
    }
  }

  slots_.assign(2 * nk * kSquareSlots, Slot{0, 0, 0, 0});
  const size_t len_size = 2 * static_cast<size_t>(nk) * kSquareSlots * nd;
  for (auto& t : cap_len_) t.assign(len_size, 0);
  move_len_.assign(len_size, 0);
  std::vector<std::vector<ReverseLeap>> rev_cap(2 * kSquareSlots), rev_quiet(2 * nk * kSquareSlots);

  for (int ci = 0; ci < 2; ++ci) {
    Color c = Color(ci);
    for (int k = 0; k < nk; ++k) {
      const PieceKind& pk = kinds_[k];
      for (int sq = 0; sq < kSquareSlots; ++sq) {
        Slot& slot = slots_[(c * nk + k) * kSquareSlots + sq];
        slot.leap_begin = slot.leap_end = static_cast<uint32_t>(leaps_.size());
        slot.ray_begin = slot.ray_end = static_cast<uint32_t>(rays_.size());
        if (!on_board(sq)) continue;
        for (const Atom& a : pk.atoms) {
          if (!a.from_region.empty() && InRegion(RegionIndex(a.from_region), c, sq) == a.from_negated) continue;
          int dest_region = a.to_region.empty() ? pk.region : RegionIndex(a.to_region);
          bool dest_negated = !a.to_region.empty() && a.to_negated;
          auto dest_ok = [&](int t) { return dest_region < 0 || InRegion(dest_region, c, t) != dest_negated; };
          auto promotes = [&](int t) {
            return pk.pawn && rules_.promotion_region >= 0 && InRegion(rules_.promotion_region, c, t);
          };
          uint8_t base_flags = static_cast<uint8_t>((a.can_move ? kCanMove : 0) | (a.can_capture ? kCanCapture : 0));
          for (Step s : a.steps) {
            Step abs{c ? -s.dx : s.dx, c ? -s.dy : s.dy};
            if (a.mode == AtomMode::kLeap) {
              int f = FileOf(sq) + abs.dx, r = RankOf(sq) + abs.dy;
              if (!on_board(f, r)) continue;
              int to = MakeSquare(f, r);
              if (!dest_ok(to)) continue;
              LeapEntry e{static_cast<uint8_t>(to), base_flags, kNullCell, kNullCell, 0};
              if (promotes(to)) e.flags |= kPromotes;
              if (a.double_step) e.flags |= kDoubleStep;
              if (a.lame) {
                std::vector<Step> legs = LameLegs(s);
                if (legs.size() > 2) return Status::Unsupported(source_ + ": piece " + pk.name + ": leap '" + a.text + "' has more than two blocking squares");
                uint16_t* slots2[2] = {&e.leg1, &e.leg2};
                for (size_t i = 0; i < legs.size(); ++i) {
                  Step l{c ? -legs[i].dx : legs[i].dx, c ? -legs[i].dy : legs[i].dy};
                  *slots2[i] = MakeSquare(FileOf(sq) + l.dx, RankOf(sq) + l.dy);
                }
              }
              leaps_.push_back(e);
              ReverseLeap rl{static_cast<uint8_t>(sq), MakePiece(c, k), e.leg1, e.leg2};
              if (a.can_capture) rev_cap[c * kSquareSlots + to].push_back(rl);
              if (a.can_move) rev_quiet[(c * nk + k) * kSquareSlots + to].push_back(rl);
            } else {
              int d = DirectionIndex(abs);
              auto [first_idx, full_len] = lines_[sq * nd + d];
              const uint8_t* line_sq = ray_squares_.data() + first_idx;
              int len = full_len;
              if (a.range > 0) len = std::min(len, a.range);
              for (int i = 0; i < len; ++i)
                if (!dest_ok(line_sq[i])) { len = i; break; }
              if (len == 0) continue;
              RayEntry re{first_idx, static_cast<uint8_t>(len), base_flags, static_cast<uint8_t>(a.mode),
                          static_cast<uint8_t>(d)};
              for (int i = 0; i < len; ++i)
                if (promotes(line_sq[i])) re.flags |= kPromotes;
              rays_.push_back(re);
              size_t li = LenIndex(c, k, sq, d);
              int table = a.mode == AtomMode::kRide ? 0 : a.mode == AtomMode::kHop ? 1 : 2;
              if (a.can_capture) cap_len_[table][li] = std::max<uint8_t>(cap_len_[table][li], static_cast<uint8_t>(len));
              if (a.can_move && a.mode == AtomMode::kRide)
                move_len_[li] = std::max<uint8_t>(move_len_[li], static_cast<uint8_t>(len));
            }
          }
        }
        // Merge a move-only ride with a capture-only hop on the same line
        // (Xiangqi cannon `mRcpR`) so the generator walks the line once.
        for (size_t i = slot.ray_begin; i < rays_.size(); ++i) {
          RayEntry& a = rays_[i];
          if (a.mode != static_cast<uint8_t>(AtomMode::kRide) || (a.flags & (kCanMove | kCanCapture)) != kCanMove)
            continue;
          for (size_t j = slot.ray_begin; j < rays_.size(); ++j) {
            const RayEntry& b = rays_[j];
            if (b.mode == static_cast<uint8_t>(AtomMode::kHop) && (b.flags & (kCanMove | kCanCapture)) == kCanCapture &&
                b.dir == a.dir && b.len == a.len && b.first == a.first) {
              a.mode = static_cast<uint8_t>(AtomMode::kRideHop);
              a.flags |= b.flags;
              rays_.erase(rays_.begin() + static_cast<std::ptrdiff_t>(j));
              if (j < i) --i;
              break;
            }
          }
        }
        slot.leap_end = static_cast<uint32_t>(leaps_.size());
        slot.ray_end = static_cast<uint32_t>(rays_.size());
      }
    }
  }

  // Flying general: the royal "attacks" along its file, for the check test only.
  if (rules_.flying_general) {
    for (int ci = 0; ci < 2; ++ci)
      for (int sq = 0; sq < kSquareSlots; ++sq) {
        if (!on_board(sq)) continue;
        for (Step s : {Step{0, 1}, Step{0, -1}}) {
          int d = DirectionIndex(s);
          size_t li = LenIndex(Color(ci), royal_kind_, sq, d);
          cap_len_[0][li] = static_cast<uint8_t>(lines_[sq * nd + d].second);
        }
      }
  }

  // Flatten reverse tables.
  rev_capture_range_.assign(2 * kSquareSlots, {0, 0});
  for (size_t i = 0; i < rev_cap.size(); ++i) {
    rev_capture_range_[i].first = static_cast<uint32_t>(rev_capture_leaps_.size());
    rev_capture_leaps_.insert(rev_capture_leaps_.end(), rev_cap[i].begin(), rev_cap[i].end());
    rev_capture_range_[i].second = static_cast<uint32_t>(rev_capture_leaps_.size());
  }
  rev_quiet_range_.assign(2 * nk * kSquareSlots, {0, 0});
  for (size_t i = 0; i < rev_quiet.size(); ++i) {
    rev_quiet_range_[i].first = static_cast<uint32_t>(rev_quiet_leaps_.size());
    rev_quiet_leaps_.insert(rev_quiet_leaps_.end(), rev_quiet[i].begin(), rev_quiet[i].end());
    rev_quiet_range_[i].second = static_cast<uint32_t>(rev_quiet_leaps_.size());
  }

  // Attack walks: directions along which a colour captures on lines.
  for (int ci = 0; ci < 2; ++ci) {
    for (int d = 0; d < nd; ++d) {
      bool any = false;
      for (int k = 0; k < nk; ++k)
        for (int sq = 0; sq < kSquareSlots; ++sq) {
          size_t li = LenIndex(Color(ci), k, sq, d);
          if (cap_len_[0][li] || cap_len_[1][li] || cap_len_[2][li]) any = true;
          if (cap_len_[1][li]) has_hop_[ci] = true;
          if (cap_len_[2][li]) has_gap_[ci] = true;
        }
      if (any) {
        int walk = DirectionIndex({-directions_[d].dx, -directions_[d].dy});
        AttackWalk aw{walk, d};
        for (int k = 0; k < nk; ++k) {
          bool ride_all = true, ride_any = false, hop_all = true, hop_any = false;
          for (int sq = 0; sq < kSquareSlots; ++sq) {
            if (!on_board(sq)) continue;
            size_t li = LenIndex(Color(ci), k, sq, d);
            int full = lines_[sq * nd + d].second;
            ride_any |= cap_len_[0][li] > 0;
            hop_any |= cap_len_[1][li] > 0;
            ride_all &= cap_len_[0][li] == full;
            hop_all &= cap_len_[1][li] == full;
          }
          uint64_t bit = 1ULL << MakePiece(Color(ci), k);
          if (ride_any) (ride_all ? aw.ride_always : aw.ride_maybe) |= bit;
          if (hop_any) (hop_all ? aw.hop_always : aw.hop_maybe) |= bit;
        }
        attack_walks_[ci].push_back(aw);
      }
    }
  }

  // Relevance: squares through which a royal on sq can be attacked.
  relevance_.assign(2 * kSquareSlots * kSquareSlots, 0);
  for (int ci = 0; ci < 2; ++ci) {
    Color by = ~Color(ci);
    if (attack_walks_[by].size() > 31)
      return Status::Unsupported(source_ + ": too many line directions (max 31)");
    for (int sq = 0; sq < kSquareSlots; ++sq) {
      uint32_t* row = &relevance_[(static_cast<size_t>(ci) * kSquareSlots + sq) * kSquareSlots];
      auto [b, e] = capture_leaps_to(by, sq);
      for (auto* p = b; p != e; ++p)
        for (int s : {static_cast<int>(p->origin), static_cast<int>(p->leg1), static_cast<int>(p->leg2)})
          if (s < kSquareSlots) row[s] |= kLeapRelevant;
      for (size_t w = 0; w < attack_walks_[by].size(); ++w) {
        auto [sqs, len] = line(sq, attack_walks_[by][w].walk);
        for (int i = 0; i < len; ++i) row[sqs[i]] |= 1u << w;
      }
    }
  }

  // Mirror symmetry: regions mirror-invariant, every atom's steps closed under
  // dx -> -dx, no castling (its rights are not mirror-symmetric).
  mirror_symmetric_ = !rules_.castling;
  for (const Region& r : regions_)
    for (int ci = 0; ci < 2; ++ci)
      for (int sq = 0; sq < kSquareSlots; ++sq)
        if (on_board(sq) && r.squares[ci][sq] != r.squares[ci][Mirror(sq)]) mirror_symmetric_ = false;
  for (const auto& k : kinds_)
    for (const Atom& a : k.atoms)
      for (Step s : a.steps)
        if (std::find(a.steps.begin(), a.steps.end(), Step{-s.dx, s.dy}) == a.steps.end()) mirror_symmetric_ = false;

  // Zobrist keys (row of piece 0 is used for en-passant squares).
  uint64_t state = 0x43414E4A55ULL;  // "CANJU"
  zobrist_.resize(64 * kSquareSlots);
  for (auto& z : zobrist_) z = SplitMix(&state);
  zobrist_side_ = SplitMix(&state);
  zobrist_castle_[0] = 0;
  for (int i = 1; i < 16; ++i) zobrist_castle_[i] = SplitMix(&state);
  return Status::OK();
}

void Variant::BuildLegalSquares() {
  uint8_t cells[kSquareSlots];
  std::string perr;
  ParsePlacement(*this, start_fen_.substr(0, start_fen_.find(' ')), cells, &perr);
  for (int ci = 0; ci < 2 && rules_.castling; ++ci) {
    Color c = Color(ci);
    for (int sq = 0; sq < kSquareSlots; ++sq)
      if (cells[sq] == MakePiece(c, royal_kind_)) castle_royal_sq_[c] = sq;
    if (castle_royal_sq_[c] < 0) continue;
    int rank = RankOf(castle_royal_sq_[c]);
    for (int side = 0; side < 2; ++side) {
      int f = side == 0 ? files_ - 1 : 0;
      int sq = MakeSquare(f, rank);
      if (cells[sq] && ColorOf(cells[sq]) == c && kinds_[KindOf(cells[sq])].castling_rook) castle_rook_sq_[c][side] = sq;
    }
  }
  for (int ci = 0; ci < 2; ++ci) {
    Color c = Color(ci);
    for (int k = 0; k < kind_count(); ++k) {
      const PieceKind& pk = kinds_[k];
      SquareSet seen;
      std::deque<int> queue;
      for (int sq = 0; sq < kSquareSlots; ++sq)
        if (cells[sq] == MakePiece(c, k)) seen.set(sq), queue.push_back(sq);
      if (queue.empty()) {
        // Not in the set-up (e.g. a promoted-only kind): anywhere in its region.
        for (int sq = 0; sq < kSquareSlots; ++sq)
          if (on_board(sq) && InRegion(pk.region, c, sq)) seen.set(sq), queue.push_back(sq);
      }
      while (!queue.empty()) {
        int sq = queue.front();
        queue.pop_front();
        auto visit = [&](int t) {
          if (!seen[t]) seen.set(t), queue.push_back(t);
        };
        const Slot& s = slot(c, k, sq);
        for (uint32_t i = s.leap_begin; i < s.leap_end; ++i) visit(leaps_[i].to);
        for (uint32_t i = s.ray_begin; i < s.ray_end; ++i)
          for (int j = 0; j < rays_[i].len; ++j) visit(ray_squares_[rays_[i].first + j]);
      }
      if (pk.pawn && rules_.promotion_region >= 0)
        for (int sq = 0; sq < kSquareSlots; ++sq)
          if (InRegion(rules_.promotion_region, c, sq)) seen.reset(sq);
      legal_squares_[c][k] = seen;
    }
  }
}

}  // namespace canju
