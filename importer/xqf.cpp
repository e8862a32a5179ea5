// XQF (XQStudio) files, versions 0x0A-0x12, plain and encrypted.
// Layout and keys: ../shared/docs/formats.md; what our data taught us:
// docs/import.md.
#include <cstdint>
#include <string>
#include <vector>

#include "importer/game.h"
#include "importer/readers.h"
#include "importer/text.h"

namespace canju::importer {
namespace {

constexpr size_t kHeaderSize = 0x400;

struct XqfKeys {
  uint8_t xy = 0, xyf = 0, xyt = 0;
  uint32_t remark_size = 0;
  uint8_t f32[32] = {};
};

uint8_t KeyStep(uint32_t b, uint32_t m) { return static_cast<uint8_t>(((((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * m) & 0xFF); }

XqfKeys MakeKeys(const uint8_t* h) {
  XqfKeys k;
  const uint8_t mask = h[0x03], sum = h[0x0C], hxy = h[0x0D], hxyf = h[0x0E], hxyt = h[0x0F];
  k.xy = KeyStep(hxy, hxy);
  k.xyf = KeyStep(hxyf, k.xy);
  k.xyt = KeyStep(hxyt, k.xyf);
  k.remark_size = ((static_cast<uint32_t>(sum) * 256 + hxy) % 32000) + 767;
  const uint8_t kb[4] = {static_cast<uint8_t>((sum & mask) | h[0x08]), static_cast<uint8_t>((hxy & mask) | h[0x09]),
                         static_cast<uint8_t>((hxyf & mask) | h[0x0A]), static_cast<uint8_t>((hxyt & mask) | h[0x0B])};
  static const char kCopyright[] = "[(C) Copyright Mr. Dong Shiwei.]";
  for (int i = 0; i < 32; ++i) k.f32[i] = static_cast<uint8_t>(kCopyright[i]) & kb[i % 4];
  return k;
}

// Reads the decrypted body.
class BodyReader {
 public:
  BodyReader(std::string_view data, const XqfKeys& keys) : data_(data), keys_(keys), pos_(kHeaderSize) {}
  bool Has(size_t n) const { return pos_ + n <= data_.size(); }
  size_t offset() const { return pos_; }
  uint8_t Byte() {
    uint8_t b = static_cast<uint8_t>(static_cast<uint8_t>(data_[pos_]) - keys_.f32[pos_ % 32]);
    ++pos_;
    return b;
  }
  uint32_t Dword() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(Byte()) << (8 * i);
    return v;
  }
  std::string Bytes(size_t n) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(Byte());
    return s;
  }

 private:
  std::string_view data_;
  const XqfKeys& keys_;
  size_t pos_;
};

std::string Hex(size_t v) {
  static const char* d = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), d[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

}  // namespace

Status ReadXqf(const std::string& name, std::string_view data, ReadResult* out) {
  auto fail = [&](const std::string& where, const std::string& why) {
    AddIssue(out, name, where, why, true);
    return Status::Corruption(name + (where.empty() ? "" : ": " + where) + ": " + why);
  };
  if (data.size() < 2 || data.substr(0, 2) != "XQ") return fail("", "not an XQF file (no 'XQ' at byte 0)");
  if (data.size() < kHeaderSize)
    return fail("byte " + std::to_string(data.size()), "truncated: the 1024-byte header is incomplete");
  const uint8_t* h = reinterpret_cast<const uint8_t*>(data.data());
  const int version = h[2];
  if (version < 0x0A || version > 0x12)
    AddIssue(out, name, "byte 2", "unknown XQF version " + Hex(version) + "; read as the nearest known one");
  const bool encrypted = version > 0x0A;
  XqfKeys keys;
  if (encrypted) {
    if ((h[0x0C] + h[0x0D] + h[0x0E] + h[0x0F]) % 256 != 0)
      return fail("bytes 0x0c-0x0f", "wrong key bytes: their sum is not 0 modulo 256, so the file cannot be decrypted");
    keys = MakeKeys(h);
  }

  GameDraft d;
  ApplyPathDefaults(name, &d);
  Record& rec = d.record;
  rec.source = name;
  rec.tags["format"] = "XQF " + Hex(version);

  // Header text: Pascal strings in GBK.
  int bad_bytes = 0;
  std::vector<std::string> bad_fields;
  auto pascal = [&](size_t off, size_t field, const char* what) {
    size_t len = std::min<size_t>(h[off], field - 1);
    int bad = 0;
    std::string s = text::Trim(text::Gb18030ToUtf8(data.substr(off + 1, len), &bad));
    if (bad) {
      bad_bytes += bad;
      bad_fields.push_back(what);
    }
    return s;
  };
  std::string title = pascal(0x50, 64, "title");
  std::string subtitle = pascal(0x90, 64, "subtitle");
  std::string event = pascal(0xD0, 64, "event");
  std::string date = pascal(0x110, 16, "date"), place = pascal(0x120, 16, "place");
  std::string red = pascal(0x130, 16, "red"), black = pascal(0x140, 16, "black");
  std::string commentator = pascal(0x1D0, 16, "commentator"), author = pascal(0x1E0, 16, "author");
  if (bad_bytes) {
    std::string fields;
    for (const std::string& f : bad_fields) fields += (fields.empty() ? "" : ", ") + f;
    AddIssue(out, name, "header", std::to_string(bad_bytes) + " byte sequence(s) in " + fields +
                                      " are not valid GBK/GB18030; replaced by U+FFFD");
  }
  if (!subtitle.empty()) rec.tags["subtitle"] = subtitle;
  if (!event.empty()) rec.tags["event"] = event;
  if (!date.empty()) rec.tags["date"] = date;
  if (!place.empty()) rec.tags["site"] = place;
  if (!red.empty()) rec.tags["red"] = red;
  if (!black.empty()) rec.tags["black"] = black;
  if (!commentator.empty()) rec.tags["commentator"] = commentator;
  rec.author = author;

  // Title and number: the header's title, else the file name.
  const std::string stem = meta::FileStem(name);
  std::string raw_title = title.empty() ? stem : title;
  int number = meta::NumberFromTitle(raw_title);
  if (number == 0) {
    std::string stem_rest;
    number = meta::NumberFromStem(stem, &stem_rest);
    if (title.empty() && number > 0) raw_title = text::Trim(stem_rest);  // "马兵胜士象全070" -> "马兵胜士象全"
  }
  rec.number = number;
  std::string series;
  rec.title = meta::CleanTitle(raw_title, &series);
  if (!series.empty()) rec.tags["series"] = series;
  if (rec.title != raw_title) rec.tags["original_title"] = raw_title;
  // Claims: words in the title, then in the file name, then the result
  // byte, then a 先胜局 / 先和局 / 先负局 folder.
  d.claims.push_back(meta::ClaimFromText(raw_title));
  if (!title.empty()) d.claims.push_back(meta::ClaimFromText(stem));
  if (h[0x33] >= 1 && h[0x33] <= 4)
    d.claims.push_back(meta::ClaimFromRedResult(h[0x33] == 4 ? 3 : h[0x33], "XQF result byte " + std::to_string(h[0x33])));
  d.claims.push_back(meta::ClaimFromFolder(meta::ResultFolderOf(name)));

  // Pieces: x * 10 + y, rotated and shifted by KeyXY from version 0x0C.
  uint8_t pos[32];
  for (int i = 0; i < 32; ++i) {
    if (version >= 0x0C) {
      pos[(i + 1 + keys.xy) % 32] = h[0x10 + i];
    } else {
      pos[i] = h[0x10 + i];
    }
  }
  static const char kKinds[] = "RNBAKABNRCCPPPPP";
  Board90 board;
  for (int i = 0; i < 32; ++i) {
    uint8_t p = encrypted ? static_cast<uint8_t>(pos[i] - keys.xy) : pos[i];
    if (p > 89) continue;
    int file = p / 10, rank = p % 10;
    char letter = i < 16 ? kKinds[i] : static_cast<char>(kKinds[i - 16] - 'A' + 'a');
    if (board.at(file, rank) != ' ') {
      AddIssue(out, name, "byte " + Hex(0x10 + i),
               std::string("two pieces on one square (") + board.at(file, rank) + " and " + letter + " on " +
                   static_cast<char>('a' + file) + std::to_string(rank) + "); the second is dropped");
      continue;
    }
    board.at(file, rank) = letter;
  }
  d.placement = board.Placement();
  d.side = h[0x32] == 1 ? kSecond : kFirst;

  // Moves: 4-byte records in pre-order (node, its continuation, its
  // alternatives); the first record is the start position.
  BodyReader body(data, keys);
  const bool old_layout = version <= 0x0A;
  auto read_record = [&](RawNode* node, bool* has_next, bool* has_sibling, std::string* problem) {
    if (!body.Has(4)) {
      *problem = "the file ends inside a move record";
      return false;
    }
    const size_t at = body.offset();
    uint8_t xyf = body.Byte(), xyt = body.Byte(), tag = body.Byte();
    body.Byte();
    uint32_t remark_len = 0;
    if (old_layout) {
      *has_next = (tag & 0xF0) != 0;
      *has_sibling = (tag & 0x0F) != 0;
      if (!body.Has(4)) {
        *problem = "the file ends inside the remark length at byte " + Hex(body.offset());
        return false;
      }
      remark_len = body.Dword();
    } else {
      *has_next = (tag & 0x80) != 0;
      *has_sibling = (tag & 0x40) != 0;
      if (tag & 0x20) {
        if (!body.Has(4)) {
          *problem = "the file ends inside the remark length at byte " + Hex(body.offset());
          return false;
        }
        remark_len = body.Dword() - keys.remark_size;
      }
    }
    if (remark_len > 0) {
      if (remark_len > (1u << 24) || !body.Has(remark_len)) {
        *problem = "remark of " + std::to_string(static_cast<int32_t>(remark_len)) + " bytes at byte " +
                   Hex(body.offset()) + " runs past the end of the file";
        return false;
      }
      int bad = 0;
      node->comment = text::NormalizeNewlines(text::Gb18030ToUtf8(body.Bytes(remark_len), &bad));
      if (bad)
        AddIssue(out, name, "byte " + Hex(at),
                 std::to_string(bad) + " byte sequence(s) in a remark are not valid GBK; replaced by U+FFFD");
    }
    uint8_t from = static_cast<uint8_t>(xyf - 0x18 - keys.xyf), to = static_cast<uint8_t>(xyt - 0x20 - keys.xyt);
    node->from = from <= 89 ? XqSquare(from / 10, from % 10) : -1;
    node->to = to <= 89 ? XqSquare(to / 10, to % 10) : -1;
    if (from > 89 || to > 89) node->text = "bad squares " + std::to_string(from) + "," + std::to_string(to);
    return true;
  };

  RawNode root;
  bool has_next = false, has_sibling = false;
  std::string problem;
  if (!body.Has(4)) {
    // A header-only file: a position without moves.
    if (data.size() > kHeaderSize)
      AddIssue(out, name, "byte " + Hex(data.size()), "truncated: the file ends inside the first record");
  } else if (!read_record(&root, &has_next, &has_sibling, &problem)) {
    AddIssue(out, name, "byte " + Hex(kHeaderSize), "truncated: " + problem);
  } else {
    d.tree[RawTree::kRoot].comment = root.comment;
    std::vector<int> pending;  // parents whose next child is an alternative still to come
    int parent = RawTree::kRoot;
    int moves = 0;
    bool more = has_next;
    while (more) {
      if (!body.Has(1)) {
        AddIssue(out, name, "byte " + Hex(body.offset()),
                 "truncated: the file ends where more moves were announced; " + std::to_string(moves) +
                     " move(s) read are kept");
        break;
      }
      RawNode node;
      bool next = false, sibling = false;
      const size_t at = body.offset();
      if (!read_record(&node, &next, &sibling, &problem)) {
        AddIssue(out, name, "byte " + Hex(at),
                 "truncated: " + problem + "; " + std::to_string(moves) + " move(s) read are kept");
        break;
      }
      // The next record continues this move, or is its alternative (after
      // the continuation's subtree), or an alternative announced earlier.
      const int idx = d.tree.Add(parent, std::move(node));
      ++moves;
      if (next && sibling) pending.push_back(parent);
      more = true;
      if (next) {
        parent = idx;
      } else if (!sibling) {
        if (pending.empty()) {
          more = false;
        } else {
          parent = pending.back();
          pending.pop_back();
        }
      }
    }
  }
  FinishGame(std::move(d), name, out);
  return Status::OK();
}

}  // namespace canju::importer
