#include "importer/metadata.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "importer/text.h"

namespace canju::meta {
namespace {

// Code points of a UTF-8 string (invalid bytes become U+FFFD).
std::u32string Decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) {
      out += U'\uFFFD';
      ++i;
      continue;
    }
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out += cp;
    i += n;
  }
  return out;
}

std::string Encode(std::u32string_view s) {
  std::string out;
  for (char32_t cp : s) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

// Claim words, longest first so that 红先胜 wins over 先胜.
struct Word {
  const char* text;
  Claim claim;
  bool mover_view;
};
constexpr Word kWords[] = {
    {"红先胜", Claim::kWin, false},  {"红先和", Claim::kDraw, false}, {"红先负", Claim::kLoss, false},
    {"黑先胜", Claim::kLoss, false}, {"黑先和", Claim::kDraw, false}, {"黑先负", Claim::kWin, false},
    {"紅先勝", Claim::kWin, false},  {"紅先和", Claim::kDraw, false}, {"紅先負", Claim::kLoss, false},
    {"红胜", Claim::kWin, false},    {"红负", Claim::kLoss, false},   {"黑胜", Claim::kLoss, false},
    {"黑负", Claim::kWin, false},    {"紅勝", Claim::kWin, false},    {"正和", Claim::kDraw, false},
    {"和局", Claim::kDraw, false},   {"和棋", Claim::kDraw, false},   {"先胜", Claim::kWin, true},
    {"先和", Claim::kDraw, true},    {"先负", Claim::kLoss, true},    {"先勝", Claim::kWin, true},
    {"先負", Claim::kLoss, true},
};

bool IsPieceWord(char32_t c) {
  static const std::u32string kPieceWords = U"车马炮砲兵卒士仕象相帅将俥傌車馬双两三四五单全缺高低底边中只当";
  return kPieceWords.find(c) != std::u32string::npos;
}
bool IsPieceName(char32_t c) {
  static const std::u32string kNames = U"车马炮砲兵卒士仕象相俥傌車馬";
  return kNames.find(c) != std::u32string::npos;
}

// 车胜士象全, 马兵和炮, 车兵胜4卒双士（第2局）: an endgame name whose first
// side is Red's.
ClaimHint EndgameName(std::string_view text) {
  std::u32string t;
  int depth = 0;
  for (char32_t c : Decode(text)) {
    if (c == U'(' || c == U'（') {
      ++depth;
    } else if (c == U')' || c == U'）') {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (depth == 0 && !(c >= U'0' && c <= U'9') && c != U' ' && c != U'-' && c != U'_' && c != U'　') {
      t += c;
    }
  }
  ClaimHint hint;
  size_t sep = t.find_first_of(U"胜和负");
  if (sep == std::u32string::npos || sep == 0 || sep + 1 >= t.size()) return hint;
  std::u32string left = t.substr(0, sep), right = t.substr(sep + 1);
  bool left_name = false, right_name = false;
  for (char32_t c : left) {
    if (!IsPieceWord(c)) return hint;
    left_name |= IsPieceName(c);
  }
  for (char32_t c : right) {
    if (!IsPieceWord(c)) return hint;
    right_name |= IsPieceName(c);
  }
  if (!left_name || !right_name) return hint;
  hint.claim = t[sep] == U'胜' ? Claim::kWin : t[sep] == U'和' ? Claim::kDraw : Claim::kLoss;
  hint.mover_view = false;
  hint.origin = "endgame name " + std::string(text);
  return hint;
}

}  // namespace

ClaimHint ClaimFromText(std::string_view text, std::string* word) {
  ClaimHint hint;
  if (word) word->clear();
  for (const Word& w : kWords) {
    if (text.find(w.text) != std::string_view::npos) {
      hint.claim = w.claim;
      hint.mover_view = w.mover_view;
      hint.origin = std::string("title word ") + w.text;
      if (word) *word = w.text;
      return hint;
    }
  }
  return EndgameName(text);
}

ClaimHint ClaimFromFolder(std::string_view folder) {
  ClaimHint hint;
  struct FolderWord {
    const char* text;
    Claim claim;
  };
  static constexpr FolderWord kFolders[] = {{"先胜局", Claim::kWin}, {"先和局", Claim::kDraw}, {"先负局", Claim::kLoss},
                                            {"胜局", Claim::kWin},   {"和局", Claim::kDraw},   {"负局", Claim::kLoss}};
  std::string f = text::Trim(folder);
  for (const FolderWord& w : kFolders) {
    if (f == w.text) {
      hint.claim = w.claim;
      hint.mover_view = true;
      hint.origin = "folder " + f;
      return hint;
    }
  }
  return hint;
}

ClaimHint ClaimFromRedResult(int result, const std::string& origin) {
  ClaimHint hint;
  hint.mover_view = false;
  hint.origin = origin;
  switch (result) {
    case 1: hint.claim = Claim::kWin; break;
    case 2: hint.claim = Claim::kLoss; break;
    case 3: hint.claim = Claim::kDraw; break;
    default: break;
  }
  return hint;
}

ClaimHint ClaimFromPgnResult(std::string_view result) {
  std::string r = text::Trim(result);
  int code = r == "1-0" ? 1 : r == "0-1" ? 2 : (r == "1/2-1/2" || r == "½-½") ? 3 : 0;
  return ClaimFromRedResult(code, "Result " + r);
}

Claim ForSideToMove(const ClaimHint& hint, Color side_to_move) {
  if (hint.mover_view || side_to_move == kFirst || hint.claim == Claim::kDraw) return hint.claim;
  if (hint.claim == Claim::kWin) return Claim::kLoss;
  if (hint.claim == Claim::kLoss) return Claim::kWin;
  return hint.claim;
}

const char* PgnResult(Claim claim, Color side_to_move) {
  switch (claim) {
    case Claim::kDraw: return "1/2-1/2";
    case Claim::kWin: return side_to_move == kFirst ? "1-0" : "0-1";
    case Claim::kLoss: return side_to_move == kFirst ? "0-1" : "1-0";
    default: return "*";
  }
}

int NumberFromTitle(std::string_view title, std::string* rest) {
  std::string before, after;
  int n = SplitAtNumber(title, &before, &after);
  if (rest) *rest = n > 0 ? before + after : std::string(title);
  return n;
}

int SplitAtNumber(std::string_view title, std::string* before, std::string* after) {
  std::u32string t = Decode(title);
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char32_t c = t[i];
    if (c == U'(' || c == U'（') ++depth;
    if ((c == U')' || c == U'）') && depth > 0) --depth;
    if (c != U'第' || depth > 0) continue;
    size_t j = i + 1;
    long n = 0;
    int digits = 0;
    for (; j < t.size() && digits < 6; ++j, ++digits) {
      char32_t d = t[j];
      if (d >= U'0' && d <= U'9') {
        n = n * 10 + (d - U'0');
      } else if (d >= U'０' && d <= U'９') {
        n = n * 10 + (d - U'０');
      } else {
        break;
      }
    }
    if (digits == 0 || j >= t.size() || t[j] != U'局' || n <= 0) continue;
    *before = Encode(t.substr(0, i));
    *after = Encode(t.substr(j + 1));
    return static_cast<int>(n);
  }
  return 0;
}

int NumberFromStem(std::string_view stem, std::string* rest) {
  for (size_t i = 0; i < stem.size(); ++i) {
    if (stem[i] < '0' || stem[i] > '9') continue;
    size_t j = i;
    while (j < stem.size() && stem[j] >= '0' && stem[j] <= '9') ++j;
    if (j - i >= 3 && j - i <= 6) {
      if (rest) *rest = std::string(stem.substr(0, i)) + std::string(stem.substr(j));
      return std::stoi(std::string(stem.substr(i, j - i)));
    }
    i = j;
  }
  if (rest) *rest = std::string(stem);
  return 0;
}

std::string CleanTitle(std::string_view title, std::string* series) {
  std::string t = text::Trim(title);
  std::string before, after;
  if (SplitAtNumber(t, &before, &after) > 0) {
    // "第001局 气吞关右" -> "气吞关右"; "竹香斋初集－第56局两仙传道" -> "两仙传道"
    // with the series "竹香斋初集".
    std::string rest = text::Trim(after);
    if (!rest.empty()) {
      std::string b = text::Trim(before);
      for (const char* sep : {"－", "-", "_", "—", "：", ":", "*"})
        while (b.size() >= std::strlen(sep) && b.compare(b.size() - std::strlen(sep), std::strlen(sep), sep) == 0)
          b = text::Trim(b.substr(0, b.size() - std::strlen(sep)));
      if (series) *series = b;
      t = rest;
    }
  }
  std::string word;
  ClaimFromText(t, &word);
  if (!word.empty()) {
    size_t at = t.find(word);
    t.erase(at, word.size());
  }
  // Collapse runs of spaces left behind.
  std::string out;
  bool space = false;
  for (char c : text::Trim(t)) {
    if (c == ' ' || c == '\t') {
      if (!space) out += ' ';
      space = true;
    } else {
      out += c;
      space = false;
    }
  }
  return out;
}

std::string FileName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string FileStem(std::string_view path) {
  std::string name = FileName(path);
  size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string FileExtension(std::string_view path) {
  std::string name = FileName(path);
  size_t dot = name.find_last_of('.');
  if (dot == std::string::npos) return "";
  std::string ext = name.substr(dot + 1);
  for (char& c : ext)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return ext;
}

namespace {
std::vector<std::string> Folders(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) break;
    if (slash > start && path.substr(start, slash - start) != ".") parts.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}
}  // namespace

std::string CollectionFromPath(std::string_view path) {
  std::vector<std::string> folders = Folders(path);
  while (!folders.empty() && (ClaimFromFolder(folders.back()).known() || folders.back() == ".."))
    folders.pop_back();
  return folders.empty() ? "" : folders.back();
}

std::string ResultFolderOf(std::string_view path) {
  std::vector<std::string> folders = Folders(path);
  return !folders.empty() && ClaimFromFolder(folders.back()).known() ? folders.back() : "";
}

}  // namespace canju::meta
