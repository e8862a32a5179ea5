#include "variants/betza.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace canju {
namespace {

// Base vectors of the single-letter leapers.
bool LeaperVector(char c, Step* s) {
  switch (c) {
    case 'W': *s = {1, 0}; return true;
    case 'F': *s = {1, 1}; return true;
    case 'D': *s = {2, 0}; return true;
    case 'N': *s = {2, 1}; return true;
    case 'A': *s = {2, 2}; return true;
    case 'H': *s = {3, 0}; return true;
    case 'C': *s = {3, 1}; return true;
    case 'Z': *s = {3, 2}; return true;
    case 'G': *s = {3, 3}; return true;
    default: return false;
  }
}

std::vector<Step> AllSymmetries(Step b) {
  std::vector<Step> out;
  const int xs[2] = {b.dx, b.dy};
  for (int swap = 0; swap < 2; ++swap) {
    int x = xs[swap], y = xs[1 - swap];
    for (int sx : {1, -1})
      for (int sy : {1, -1}) {
        Step s{x * sx, y * sy};
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
      }
  }
  return out;
}

int Sign(int v) { return (v > 0) - (v < 0); }

// Direction selectors: f b l r v s, and the pairs fl fr bl br.
bool StepSelected(const std::string& dirs, Step s) {
  if (dirs.empty()) return true;
  for (size_t i = 0; i < dirs.size(); ++i) {
    char c = dirs[i];
    if ((c == 'f' || c == 'b') && i + 1 < dirs.size() && (dirs[i + 1] == 'l' || dirs[i + 1] == 'r')) {
      bool vert = c == 'f' ? s.dy > 0 : s.dy < 0;
      bool side = dirs[i + 1] == 'l' ? s.dx < 0 : s.dx > 0;
      if (vert && side) return true;
      ++i;
      continue;
    }
    switch (c) {
      case 'f': if (s.dy > 0) return true; break;
      case 'b': if (s.dy < 0) return true; break;
      case 'l': if (s.dx < 0) return true; break;
      case 'r': if (s.dx > 0) return true; break;
      case 'v': if (s.dy != 0) return true; break;
      case 's': if (s.dx != 0) return true; break;
      default: break;
    }
  }
  return false;
}

Status ParseConditions(const std::string& body, Atom* atom) {
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t comma = body.find(',', pos);
    std::string item = body.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? body.size() + 1 : comma + 1;
    // trim
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.erase(item.begin());
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.pop_back();
    if (item.empty()) continue;
    size_t colon = item.find(':');
    if (colon == std::string::npos)
      return Status::InvalidArgument("condition '" + item + "' must be from:REGION or to:REGION");
    std::string key = item.substr(0, colon), value = item.substr(colon + 1);
    bool negated = !value.empty() && value[0] == '!';
    if (negated) value.erase(0, 1);
    if (value.empty()) return Status::InvalidArgument("condition '" + item + "' names no region");
    if (key == "from") {
      atom->from_region = value;
      atom->from_negated = negated;
    } else if (key == "to") {
      atom->to_region = value;
      atom->to_negated = negated;
    } else {
      return Status::InvalidArgument("unknown condition '" + key + "' (expected from or to)");
    }
  }
  return Status::OK();
}

}  // namespace

std::vector<Step> LameLegs(Step s) {
  std::vector<Step> legs;
  int ax = std::abs(s.dx), ay = std::abs(s.dy);
  if (ax == 0 || ay == 0 || ax == ay) {
    int n = std::max(ax, ay);
    for (int i = 1; i < n; ++i) legs.push_back({Sign(s.dx) * i, Sign(s.dy) * i});
    return legs;
  }
  int lo = std::min(ax, ay), hi = std::max(ax, ay);
  if (hi - lo == 1 && lo >= 2) {
    legs.push_back({Sign(s.dx), Sign(s.dy)});
  } else if (ax > ay) {
    legs.push_back({Sign(s.dx), 0});
  } else {
    legs.push_back({0, Sign(s.dy)});
  }
  return legs;
}

Status ParseBetza(const std::string& text, std::vector<Atom>* atoms) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) { ++i; continue; }
    size_t start = i;
    std::string mods;
    while (i < n && std::islower(static_cast<unsigned char>(text[i]))) mods += text[i++];
    if (i >= n || !std::isupper(static_cast<unsigned char>(text[i])))
      return Status::InvalidArgument("movement '" + text + "': expected a piece letter after '" + mods +
                                     "' at character " + std::to_string(i + 1));
    char letter = text[i++];
    std::vector<Step> bases;
    bool rider = false;
    Step base;
    if (letter == 'R') { bases = {{1, 0}}; rider = true; }
    else if (letter == 'B') { bases = {{1, 1}}; rider = true; }
    else if (letter == 'Q') { bases = {{1, 0}, {1, 1}}; rider = true; }
    else if (letter == 'K') { bases = {{1, 0}, {1, 1}}; }
    else if (LeaperVector(letter, &base)) {
      bases = {base};
      if (i < n && text[i] == letter) { rider = true; ++i; }  // doubled letter: rider
    } else {
      return Status::InvalidArgument(std::string("movement '") + text + "': unknown piece letter '" + letter +
                                     "' at character " + std::to_string(i));
    }
    int range = 0;
    if (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) range = std::min(range * 10 + (text[i++] - '0'), 1000);
      if (range <= 0 || range > 15)
        return Status::InvalidArgument("movement '" + text + "': range must be 1..15");
      if (!rider) {
        // "W2" means a W rider limited to two steps.
        rider = true;
      }
    }
    Atom atom;
    if (i < n && text[i] == '{') {
      size_t close = text.find('}', i);
      if (close == std::string::npos)
        return Status::InvalidArgument("movement '" + text + "': '{' without '}'");
      Status st = ParseConditions(text.substr(i + 1, close - i - 1), &atom);
      if (!st.ok()) return Status::InvalidArgument("movement '" + text + "': " + st.message());
      i = close + 1;
    }
    atom.text = text.substr(start, i - start);
    std::string dirs;
    bool m = false, c = false;
    for (char mc : mods) {
      switch (mc) {
        case 'm': m = true; break;
        case 'c': c = true; break;
        case 'n': atom.lame = true; break;
        case 'p': atom.mode = AtomMode::kHop; break;
        case 'x': atom.mode = AtomMode::kGap; break;
        case 'f': case 'b': case 'l': case 'r': case 'v': case 's': dirs += mc; break;
        default:
          return Status::InvalidArgument("movement '" + text + "': unknown modifier '" + std::string(1, mc) +
                                         "' in '" + atom.text + "'");
      }
    }
    if (m || c) { atom.can_move = m; atom.can_capture = c; }
    if (atom.mode == AtomMode::kGap) { atom.can_move = false; atom.can_capture = true; }
    if (atom.mode != AtomMode::kLeap) {
      rider = true;  // hop and gap atoms travel along lines
    }
    if (atom.mode == AtomMode::kLeap && rider) atom.mode = AtomMode::kRide;
    if (atom.mode != AtomMode::kLeap && atom.lame)
      return Status::InvalidArgument("movement '" + text + "': 'n' (lame) applies to leaps only, in '" +
                                     atom.text + "'");
    atom.range = range;
    for (Step b : bases)
      for (Step s : AllSymmetries(b))
        if (StepSelected(dirs, s)) atom.steps.push_back(s);
    if (atom.steps.empty())
      return Status::InvalidArgument("movement '" + text + "': '" + atom.text + "' selects no direction");
    atoms->push_back(std::move(atom));
  }
  if (atoms->empty()) return Status::InvalidArgument("empty movement string");
  return Status::OK();
}

}  // namespace canju
