// CBR (象棋桥 record, V1 and V2 layouts) and CBL (象棋桥 library: a header,
// an index, then CBR records on 4096-byte boundaries). Text is UTF-16LE.
#include <cstdint>
#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/readers.h"
#include "importer/text.h"

namespace canju::importer {
namespace {

constexpr size_t kSlot = 4096;

struct Layout {
  size_t title, event, round, date, place, red, red_team, black, black_team, commentator, author;
  size_t result, side, board, moves;
};
// Offsets from vschess function.cbr.js; V1 predates the 128-byte script
// field that V2 added after the magic, hence the shift.
constexpr Layout kV2 = {180, 692, 756, 884, 948, 1076, 1140, 1300, 1364, 1652, 1780, 2076, 2112, 2120, 2214};
constexpr Layout kV1 = {52, 564, 628, 756, 820, 948, 1012, 1172, 1236, 1396, 1524, 1820, 1856, 1864, 1958};

uint32_t U32(std::string_view d, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(d[at + i])) << (8 * i);
  return v;
}

// A NUL-terminated UTF-16LE field.
std::string Utf16Field(std::string_view d, size_t at, size_t size, int* bad) {
  if (at >= d.size()) return "";
  size = std::min(size, d.size() - at);
  size_t len = 0;
  while (len + 1 < size && !(d[at + len] == 0 && d[at + len + 1] == 0)) len += 2;
  return text::Trim(text::Utf16LeToUtf8(d.substr(at, len), bad));
}

// Reads one record that starts at `rec` (a view up to where the next one
// starts). `where` prefixes issue locations; `collection` overrides the
// folder when non-empty.
Status ReadRecord(const std::string& name, std::string_view rec, const std::string& where,
                  const std::string& collection, const std::string& source, ReadResult* out) {
  auto fail = [&](const std::string& what, const std::string& why) {
    AddIssue(out, name, JoinWhere(where, what), why, true);
    return Status::Corruption(name + ": " + JoinWhere(where, what) + ": " + why);
  };
  if (rec.size() < 16 || rec.substr(0, 15) != "CCBridge Record") return fail("byte 0", "not a CBR record (no magic)");
  const int version = rec.size() > 19 ? static_cast<uint8_t>(rec[19]) : 0;
  const Layout& L = version == 1 ? kV1 : kV2;
  if (version != 1 && version != 2)
    AddIssue(out, name, JoinWhere(where, "byte 19"), "unknown CBR version " + std::to_string(version) + "; read as V2");
  if (rec.size() < L.moves)
    return fail("byte " + std::to_string(rec.size()), "truncated: the header is incomplete (" +
                                                          std::to_string(L.moves) + " bytes expected)");
  GameDraft d;
  d.where = where;
  ApplyPathDefaults(name, &d);
  if (!collection.empty()) d.record.collection = collection;
  d.record.source = source;
  d.record.tags["format"] = version == 1 ? "CBR V1" : "CBR V2";
  int bad = 0;
  std::string title = Utf16Field(rec, L.title, 128, &bad);
  auto tag = [&](const char* key, size_t at, size_t size) {
    std::string v = Utf16Field(rec, at, size, &bad);
    if (!v.empty()) d.record.tags[key] = v;
  };
  tag("event", L.event, 64);
  tag("round", L.round, 64);
  tag("date", L.date, 64);
  tag("site", L.place, 64);
  tag("red", L.red, 64);
  tag("redteam", L.red_team, 64);
  tag("black", L.black, 64);
  tag("blackteam", L.black_team, 64);
  tag("commentator", L.commentator, 64);
  d.record.author = Utf16Field(rec, L.author, 64, &bad);
  if (bad)
    AddIssue(out, name, JoinWhere(where, "header"),
             std::to_string(bad) + " UTF-16 unit(s) in the header are invalid; replaced by U+FFFD");

  d.record.number = meta::NumberFromTitle(title);
  std::string series;
  d.record.title = meta::CleanTitle(title, &series);
  if (!series.empty()) d.record.tags["series"] = series;
  if (d.record.title != title && !title.empty()) d.record.tags["original_title"] = title;
  d.claims.push_back(meta::ClaimFromText(title));
  const int result = static_cast<uint8_t>(rec[L.result]);
  if (result >= 1 && result <= 3) d.claims.push_back(meta::ClaimFromRedResult(result, "CBR result byte " + std::to_string(result)));
  d.claims.push_back(meta::ClaimFromFolder(meta::ResultFolderOf(name)));

  // Board: row 0 at the top; 0x11-0x17 Red R N B A K C P, 0x21-0x27 Black.
  static const char kLetters[] = "RNBAKCP";
  Board90 board;
  for (int i = 0; i < 90; ++i) {
    const uint8_t p = static_cast<uint8_t>(rec[L.board + i]);
    if (p == 0) continue;
    const int colour = p >> 4, kind = p & 15;
    if ((colour != 1 && colour != 2) || kind < 1 || kind > 7) {
      AddIssue(out, name, JoinWhere(where, "byte " + std::to_string(L.board + i)),
               "unknown piece code " + std::to_string(p) + " on the board; ignored");
      continue;
    }
    char letter = kLetters[kind - 1];
    if (colour == 2) letter = static_cast<char>(letter - 'A' + 'a');
    board.at(i % 9, 9 - i / 9) = letter;
  }
  d.placement = board.Placement();
  d.side = rec[L.side] == 2 ? kSecond : kFirst;

  // Moves: flags (1 line ends, 2 an alternative follows, 4 a comment
  // follows), reserved, from, to. The first record carries the opening
  // comment; a record with from == to after it ends the stream.
  auto square = [&](uint8_t b) {
    if (version == 1) {  // V1: the high and low hex digits are the file and the row
      int file = b >> 4, row = b & 15;
      return file <= 8 && row <= 9 ? XqSquare(file, 9 - row) : -1;
    }
    return b < 90 ? XqSquare(b % 9, 9 - b / 9) : -1;
  };
  size_t pos = L.moves;
  std::vector<int> pending;
  int parent = RawTree::kRoot;
  bool root_done = false;
  int moves = 0;
  while (true) {
    if (pos + 4 > rec.size()) {
      // A complete stream ends with its tree or with an end mark.
      AddIssue(out, name, JoinWhere(where, "byte " + std::to_string(pos)),
                 "truncated: the move list ends without its end mark; " + std::to_string(moves) + " move(s) kept");
      break;
    }
    const uint8_t flags = static_cast<uint8_t>(rec[pos]), from = static_cast<uint8_t>(rec[pos + 2]),
                  to = static_cast<uint8_t>(rec[pos + 3]);
    const size_t at = pos;
    if (root_done && from == to) break;  // end mark
    pos += 4;
    std::string comment;
    if (flags & 4) {
      if (pos + 4 > rec.size()) {
        AddIssue(out, name, JoinWhere(where, "byte " + std::to_string(pos)),
                 "truncated inside a comment length; " + std::to_string(moves) + " move(s) kept");
        break;
      }
      const uint32_t len = U32(rec, pos);
      pos += 4;
      if (len > rec.size() - pos) {
        AddIssue(out, name, JoinWhere(where, "byte " + std::to_string(pos)),
                 "comment of " + std::to_string(len) + " bytes runs past the end; " + std::to_string(moves) +
                     " move(s) kept");
        break;
      }
      int cbad = 0;
      comment = text::NormalizeNewlines(text::Utf16LeToUtf8(rec.substr(pos, len), &cbad));
      if (cbad)
        AddIssue(out, name, JoinWhere(where, "byte " + std::to_string(pos)),
                 std::to_string(cbad) + " invalid UTF-16 unit(s) in a comment; replaced by U+FFFD");
      pos += len;
    }
    if (!root_done) {
      root_done = true;
      if (from == to) {
        d.tree[RawTree::kRoot].comment = comment;
        continue;
      }
    }
    RawNode n;
    n.from = square(from);
    n.to = square(to);
    if (n.from < 0 || n.to < 0) n.text = "bad squares " + std::to_string(from) + "," + std::to_string(to);
    n.comment = std::move(comment);
    const int idx = d.tree.Add(parent, std::move(n));
    ++moves;
    (void)at;
    const bool ends = flags & 1, alternative = flags & 2;
    if (!ends) {
      if (alternative) pending.push_back(parent);
      parent = idx;
    } else if (!alternative) {
      if (pending.empty()) break;  // the whole tree is read
      parent = pending.back();
      pending.pop_back();
    }
  }
  FinishGame(std::move(d), name, out);
  return Status::OK();
}

}  // namespace

Status ReadCbr(const std::string& name, std::string_view data, ReadResult* out) {
  return ReadRecord(name, data, "", "", name, out);
}

Status ReadCbl(const std::string& name, std::string_view data, ReadResult* out) {
  auto fail = [&](const std::string& why) {
    AddIssue(out, name, "", why, true);
    return Status::Corruption(name + ": " + why);
  };
  if (data.size() < 16 || data.substr(0, 15) != "CCBridgeLibrary") return fail("not a CBL library (no magic)");
  if (data.size() < 576) return fail("truncated: the library header is incomplete");
  int bad = 0;
  std::string library = Utf16Field(data, 64, 512, &bad);
  const uint32_t slots = U32(data, 60);
  // Records follow an index of `slots` entries of 276 bytes, on 4096-byte
  // boundaries; a long game spills into the next slots, so each slot is
  // tested for the record magic.
  const uint64_t first = 66624 + static_cast<uint64_t>(slots) * 276;
  std::vector<size_t> starts;
  if (first < data.size()) {
    for (uint64_t at = first; at + 16 <= data.size(); at += kSlot)
      if (data.substr(at, 15) == "CCBridge Record") starts.push_back(at);
  }
  if (starts.empty()) {
    // An index size we do not understand: look for the magic anywhere.
    for (size_t at = data.find("CCBridge Record"); at != std::string_view::npos;
         at = data.find("CCBridge Record", at + 1))
      starts.push_back(at);
    if (!starts.empty())
      AddIssue(out, name, "byte 60", "records are not where the slot count (" + std::to_string(slots) +
                                         ") puts them; found by their magic instead");
  }
  if (starts.empty()) return fail("no game in the library");
  const std::string collection = library.empty() ? meta::FileStem(name) : library;
  for (size_t i = 0; i < starts.size(); ++i) {
    size_t end = i + 1 < starts.size() ? starts[i + 1] : data.size();
    std::string where = "game " + std::to_string(i + 1);
    ReadRecord(name, data.substr(starts[i], end - starts[i]), where, collection,
               name + "#" + std::to_string(i + 1), out);
  }
  return Status::OK();
}

}  // namespace canju::importer
