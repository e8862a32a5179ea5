// Helpers for the importer tests: a writer of synthetic XQF files (plain
// and encrypted, every layout we read) and a compact text form of move
// trees for comparisons.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "importer/importer.h"
#include "puzzles/record.h"

namespace canju::testing {

// "i1i9 {c} [e9e8 {good} i9i8 | e9f8]": moves in order; a node with
// several continuations lists them in brackets separated by '|'.
inline std::string TreeText(const std::vector<MoveNode>& nodes) {
  std::string s;
  auto node_text = [](const MoveNode& n, auto&& self) -> std::string {
    std::string t = n.move;
    if (!n.comment.empty()) t += " {" + n.comment + "}";
    std::string rest;
    if (n.next.size() == 1) {
      rest = self(n.next[0], self);
    } else if (n.next.size() > 1) {
      rest = "[";
      for (size_t i = 0; i < n.next.size(); ++i) rest += (i ? " | " : "") + self(n.next[i], self);
      rest += "]";
    }
    return rest.empty() ? t : t + " " + rest;
  };
  if (nodes.size() == 1) return node_text(nodes[0], node_text);
  if (nodes.empty()) return s;
  s = "[";
  for (size_t i = 0; i < nodes.size(); ++i) s += (i ? " | " : "") + node_text(nodes[i], node_text);
  return s + "]";
}

// Reads an in-memory file, its format guessed from the name and contents.
inline ReadResult ReadText(const std::string& name, const std::string& text,
                           Status* st = nullptr) {
  ReadResult r;
  Status s = ReadCollectionData(name, text, Format::kUnknown, &r);
  if (st) *st = s;
  return r;
}

inline bool HasIssue(const ReadResult& r, const std::string& needle) {
  for (const ImportIssue& i : r.issues)
    if ((i.where + ": " + i.reason).find(needle) != std::string::npos) return true;
  return false;
}

inline std::string AllIssues(const ReadResult& r) {
  std::string s;
  for (const ImportIssue& i : r.issues) s += IssueToString(i) + "\n";
  return s;
}

// --- XQF writer -------------------------------------------------------------

struct XqfRecord {
  int from = 0, to = 0;  // x * 10 + y (file 0..8 from Red's left, rank 0..9 from Red's side)
  bool next = false;     // a continuation follows (its subtree first)
  bool sibling = false;  // an alternative to this move follows (after the continuation)
  std::string remark;    // raw bytes (GBK)
};

inline int Xy(int file, int rank) { return file * 10 + rank; }

struct XqfSpec {
  int version = 0x12;
  uint8_t pieces[32];           // x*10+y or 0xFF; order RNBAKABNRCCPPPPP, Red then Black
  std::string title;            // raw bytes (GBK)
  int who_play = 0;
  int result = 0;
  std::vector<XqfRecord> records;  // pre-order, records[0] is the start position
  uint8_t key_xy = 0x35, key_xyf = 0x67, key_xyt = 0x21, key_mask = 0xEF;
  uint8_t key_or[4] = {0x11, 0x22, 0x04, 0x80};
  XqfSpec() {
    for (uint8_t& p : pieces) p = 0xFF;
  }
};

inline uint8_t XqfKeyStep(uint32_t b, uint32_t m) {
  return static_cast<uint8_t>(((((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * m) & 0xFF);
}

// Writes the file as XQStudio would (formats.md): header, pieces, body.
inline std::string WriteXqf(const XqfSpec& s) {
  std::string f(0x400, '\0');
  auto put = [&](size_t at, uint8_t b) { f[at] = static_cast<char>(b); };
  put(0, 'X');
  put(1, 'Q');
  put(2, static_cast<uint8_t>(s.version));
  const bool encrypted = s.version > 0x0A;
  uint8_t kxy = 0, kxyf = 0, kxyt = 0, f32[32] = {};
  uint32_t remark_size = 0;
  if (encrypted) {
    const uint8_t sum = static_cast<uint8_t>(256 - ((s.key_xy + s.key_xyf + s.key_xyt) % 256));
    put(3, s.key_mask);
    for (int i = 0; i < 4; ++i) put(8 + i, s.key_or[i]);
    put(0x0C, sum);
    put(0x0D, s.key_xy);
    put(0x0E, s.key_xyf);
    put(0x0F, s.key_xyt);
    kxy = XqfKeyStep(s.key_xy, s.key_xy);
    kxyf = XqfKeyStep(s.key_xyf, kxy);
    kxyt = XqfKeyStep(s.key_xyt, kxyf);
    remark_size = ((static_cast<uint32_t>(sum) * 256 + s.key_xy) % 32000) + 767;
    const uint8_t kb[4] = {static_cast<uint8_t>((sum & s.key_mask) | s.key_or[0]),
                           static_cast<uint8_t>((s.key_xy & s.key_mask) | s.key_or[1]),
                           static_cast<uint8_t>((s.key_xyf & s.key_mask) | s.key_or[2]),
                           static_cast<uint8_t>((s.key_xyt & s.key_mask) | s.key_or[3])};
    const char* copyright = "[(C) Copyright Mr. Dong Shiwei.]";
    for (int i = 0; i < 32; ++i) f32[i] = static_cast<uint8_t>(copyright[i]) & kb[i % 4];
  }
  uint8_t enc[32];
  for (int i = 0; i < 32; ++i) enc[i] = encrypted ? static_cast<uint8_t>(s.pieces[i] + kxy) : s.pieces[i];
  for (int i = 0; i < 32; ++i) {
    // Version >= 0x0C stores piece i at slot (i + 1 + KeyXY) % 32 of the decoded order.
    uint8_t b = s.version >= 0x0C ? enc[(i + 1 + kxy) % 32] : enc[i];
    put(0x10 + i, b);
  }
  put(0x32, static_cast<uint8_t>(s.who_play));
  put(0x33, static_cast<uint8_t>(s.result));
  put(0x40, 3);
  put(0x50, static_cast<uint8_t>(s.title.size()));
  for (size_t i = 0; i < s.title.size(); ++i) f[0x51 + i] = s.title[i];

  std::string body;
  auto dword = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) body += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  for (const XqfRecord& r : s.records) {
    body += static_cast<char>(static_cast<uint8_t>(r.from + 0x18 + kxyf));
    body += static_cast<char>(static_cast<uint8_t>(r.to + 0x20 + kxyt));
    uint8_t tag;
    if (s.version <= 0x0A) {
      tag = static_cast<uint8_t>((r.next ? 0xF0 : 0) | (r.sibling ? 0x0F : 0));
    } else {
      tag = static_cast<uint8_t>((r.next ? 0x80 : 0) | (r.sibling ? 0x40 : 0) | (r.remark.empty() ? 0 : 0x20));
    }
    body += static_cast<char>(tag);
    body += '\0';
    if (s.version <= 0x0A) {
      dword(static_cast<uint32_t>(r.remark.size()));
      body += r.remark;
    } else if (!r.remark.empty()) {
      dword(static_cast<uint32_t>(r.remark.size()) + remark_size);
      body += r.remark;
    }
  }
  for (size_t i = 0; i < body.size(); ++i)
    body[i] = static_cast<char>(static_cast<uint8_t>(body[i]) + f32[(0x400 + i) % 32]);
  return f + body;
}

}  // namespace canju::testing
