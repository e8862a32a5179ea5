// DhtmlXQ / UBB text from web pages (东萍): [DhtmlXQ_binit] board,
// [DhtmlXQ_movelist] main line, [DhtmlXQ_move_A_B_C] variations,
// [DhtmlXQ_commentN] / [DhtmlXQ_commentC_N] comments.
#include <cctype>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/readers.h"
#include "importer/text.h"

namespace canju::importer {
namespace {

// name -> value of the [DhtmlXQ_name]value[/DhtmlXQ_name] fields of a block.
std::vector<std::pair<std::string, std::string>> Fields(const std::string& block) {
  std::vector<std::pair<std::string, std::string>> fields;
  size_t at = 0;
  while ((at = block.find("[DhtmlXQ_", at)) != std::string::npos) {
    size_t close = block.find(']', at);
    if (close == std::string::npos) break;
    std::string name = block.substr(at + 9, close - at - 9);
    if (name.find('[') != std::string::npos) {
      at += 9;
      continue;
    }
    size_t end = block.find("[/DhtmlXQ_", close + 1);
    std::string value = block.substr(close + 1, (end == std::string::npos ? block.size() : end) - close - 1);
    fields.emplace_back(name, value);
    if (end == std::string::npos) break;
    size_t end_close = block.find(']', end);
    at = end_close == std::string::npos ? block.size() : end_close + 1;
  }
  return fields;
}

std::string Digits(const std::string& s, bool* junk) {
  std::string d;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      d += c;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      *junk = true;
    }
  }
  return d;
}

// "7747" -> squares; x = file from Red's left, y = row from the top.
bool ParseMove(const std::string& d, size_t i, RawNode* n) {
  int x1 = d[i] - '0', y1 = d[i + 1] - '0', x2 = d[i + 2] - '0', y2 = d[i + 3] - '0';
  if (x1 > 8 || x2 > 8) {
    n->text = d.substr(i, 4);
    return false;
  }
  n->from = XqSquare(x1, 9 - y1);
  n->to = XqSquare(x2, 9 - y2);
  return true;
}

std::string Unescape(std::string s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "||") == 0) {
      out += '\n';
      ++i;
    } else {
      out += s[i];
    }
  }
  return text::Trim(out);
}

}  // namespace

Status ReadDhtmlXq(const std::string& name, std::string_view data, ReadResult* out) {
  const std::string content = DecodeFileText(name, data, out);
  // Blocks: [DhtmlXQ] ... [/DhtmlXQ]; a bare list of fields is one block.
  std::vector<std::string> blocks;
  size_t at = 0;
  while ((at = content.find("[DhtmlXQ]", at)) != std::string::npos) {
    size_t end = content.find("[/DhtmlXQ]", at);
    blocks.push_back(content.substr(at + 9, (end == std::string::npos ? content.size() : end) - at - 9));
    if (end == std::string::npos) break;
    at = end + 10;
  }
  if (blocks.empty() && content.find("[DhtmlXQ_") != std::string::npos) blocks.push_back(content);
  if (blocks.empty()) {
    AddIssue(out, name, "", "no [DhtmlXQ] block found", true);
    return Status::Corruption(name + ": no [DhtmlXQ] block found");
  }
  const bool several = blocks.size() > 1;
  int game_no = 0;
  for (const std::string& block : blocks) {
    ++game_no;
    GameDraft d;
    d.where = several ? "game " + std::to_string(game_no) : "";
    ApplyPathDefaults(name, &d);
    d.record.source = several ? name + "#" + std::to_string(game_no) : name;
    std::string binit, movelist, fen, title, result;
    std::vector<std::pair<std::string, std::string>> branches;  // "A_B_C" -> moves
    std::map<std::string, std::string> comments;               // "C_N" -> text
    for (auto& [key, raw_value] : Fields(block)) {
      // Text copied from a web page's source may carry character references.
      const std::string value = text::DecodeHtmlText(raw_value);
      if (key == "binit") {
        binit = value;
      } else if (key == "movelist") {
        movelist = value;
      } else if (key == "fen") {
        fen = text::Trim(value);
      } else if (key.rfind("move_", 0) == 0) {
        branches.emplace_back(key.substr(5), value);
      } else if (key.rfind("comment", 0) == 0) {
        std::string id = key.substr(7);
        if (id.find('_') == std::string::npos) id = "0_" + id;
        comments[id] = Unescape(value);
      } else if (key == "title") {
        title = text::Trim(value);
      } else if (key == "result") {
        result = text::Trim(value);
        if (!result.empty()) d.record.tags["result"] = result;
      } else if (key == "author" || key == "owner") {
        if (d.record.author.empty()) d.record.author = text::Trim(value);
      } else if (key == "ver" || key == "init" || key == "firstnum" || key == "pv" || key == "type") {
        // viewer settings
      } else if (!text::Trim(value).empty()) {
        d.record.tags[key] = text::Trim(value);
      }
    }
    // Start position.
    if (!fen.empty()) {
      d.fen = fen;
    } else if (!binit.empty()) {
      bool junk = false;
      std::string digits = Digits(binit, &junk);
      if (junk || digits.size() != 64)
        AddIssue(out, name, JoinWhere(d.where, "binit"),
                 "expected 64 digits, found " + std::to_string(digits.size()) + (junk ? " and other characters" : ""));
      static const char kKinds[] = "RNBAKABNRCCPPPPP";
      Board90 board;
      for (int i = 0; i < 32 && 2 * i + 1 < static_cast<int>(digits.size()); ++i) {
        int x = digits[2 * i] - '0', y = digits[2 * i + 1] - '0';
        if (x > 8) continue;  // "99": not on the board
        char letter = i < 16 ? kKinds[i] : static_cast<char>(kKinds[i - 16] - 'A' + 'a');
        int rank = 9 - y;
        if (board.at(x, rank) != ' ') {
          AddIssue(out, name, JoinWhere(d.where, "binit"),
                   std::string("two pieces on one square (") + board.at(x, rank) + " and " + letter + "); the second is dropped");
          continue;
        }
        board.at(x, rank) = letter;
      }
      d.placement = board.Placement();
      d.side_unknown = true;
    } else {
      d.placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    }

    // Routes: ply N of route C hangs from parent_of["C_N"].
    std::map<std::string, int> parent_of, node_of;
    auto add_route = [&](int start_parent, int route, int first_ply, const std::string& moves_text) {
      bool junk = false;
      std::string digits = Digits(moves_text, &junk);
      if (junk || digits.size() % 4 != 0)
        AddIssue(out, name, JoinWhere(d.where, "route " + std::to_string(route)),
                 "move list is not groups of 4 digits; the rest is ignored");
      int parent = start_parent;
      int ply = first_ply;
      for (size_t i = 0; i + 4 <= digits.size(); i += 4, ++ply) {
        const std::string key = std::to_string(route) + "_" + std::to_string(ply);
        parent_of[key] = parent;
        RawNode n;
        if (!ParseMove(digits, i, &n)) {
          AddIssue(out, name, JoinWhere(d.where, "ply " + std::to_string(ply) + " (" + n.text + ")"),
                   "not a move: file digit above 8; the route ends here");
          return;
        }
        int idx = d.tree.Add(parent, std::move(n));
        node_of[key] = idx;
        parent = idx;
      }
    };
    add_route(RawTree::kRoot, 0, 1, movelist);
    // A branch may name a route defined after it: retry until no progress.
    std::vector<std::pair<std::string, std::string>> pending = branches;
    while (!pending.empty()) {
      std::vector<std::pair<std::string, std::string>> later;
      for (auto& [id, moves] : pending) {
        int a, b, c;
        char extra;
        if (std::sscanf(id.c_str(), "%d_%d_%d%c", &a, &b, &c, &extra) != 3 || b < 1 || c <= 0) {
          AddIssue(out, name, JoinWhere(d.where, "move_" + id), "variation name is not move_A_B_C; ignored");
          continue;
        }
        auto it = parent_of.find(std::to_string(a) + "_" + std::to_string(b));
        if (it == parent_of.end()) {
          later.emplace_back(id, moves);
          continue;
        }
        add_route(it->second, c, b, moves);
      }
      if (later.size() == pending.size()) {
        for (auto& [id, moves] : later)
          AddIssue(out, name, JoinWhere(d.where, "move_" + id),
                   "variation branches from a move that does not exist; ignored");
        break;
      }
      pending = std::move(later);
    }
    for (auto& [id, comment] : comments) {
      if (id == "0_0") {
        d.tree[RawTree::kRoot].comment = comment;
        continue;
      }
      auto it = node_of.find(id);
      if (it == node_of.end()) {
        AddIssue(out, name, JoinWhere(d.where, "comment" + id), "comment on a move that does not exist; ignored");
        continue;
      }
      d.tree[it->second].comment = comment;
    }

    std::string raw_title = title;
    d.record.number = meta::NumberFromTitle(raw_title);
    std::string series;
    d.record.title = meta::CleanTitle(raw_title, &series);
    if (!series.empty()) d.record.tags["series"] = series;
    if (d.record.title != raw_title && !raw_title.empty()) d.record.tags["original_title"] = raw_title;
    d.claims.push_back(meta::ClaimFromText(raw_title));
    if (!result.empty()) {
      meta::ClaimHint h = meta::ClaimFromPgnResult(result);
      if (!h.known()) h = meta::ClaimFromText(result);
      if (h.known()) h.origin = "result " + result;
      d.claims.push_back(h);
    }
    d.claims.push_back(meta::ClaimFromFolder(meta::ResultFolderOf(name)));
    FinishGame(std::move(d), name, out);
  }
  return Status::OK();
}

}  // namespace canju::importer
