// A small store built by hand (no importer, no ../shared) and a server on a
// free port over it, shared by the API and browser tests.
//
// 测试谱 #1  车胜将: Red rook and king against the bare king. Main line
//            车五平六 将4平5 车六进七 (Black has no move: 困毙), a variation at
//            move 2 that lets the king take the rook, one at move 1, comments.
//            Verdict: confirmed, with a quicker win as pv and a cook.
// 测试谱 #2  the same with a pawn more and an illegal move in its tree.
// 别谱 #7    #1 with the colours swapped (Black to move): another appearance.
// Chess problems #1: a back-rank mate (square board, SAN).
#pragma once

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "puzzles/record.h"
#include "puzzles/store.h"
#include "server/api.h"
#include "server/server.h"

namespace canju::testing_util {

inline const char* kRookFen = "3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1";
inline const char* kRookFlippedFen = "5k3/4r4/9/9/9/9/9/9/9/3K5 b - - 0 1";
inline const char* kChessFen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

// Percent-encodes a query parameter's value (RFC 3986 unreserved characters kept).
inline std::string UrlEncode(const std::string& s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

inline MoveNode Node(const std::string& move, const std::string& comment = "", std::vector<MoveNode> next = {}) {
  return MoveNode{move, comment, std::move(next)};
}

inline std::vector<Record> ServeTestRecords() {
  Record a;
  a.fen = kRookFen;
  a.collection = "测试谱";
  a.number = 1;
  a.title = "车胜将";
  a.author = "测试";
  a.source = "test.txt#1";
  a.claimed = Claim::kWin;
  a.comment = "红先胜";
  // 1. e1d1 d9e9 2. d1d8 (stalemate)  [2. d1d9 e9d9]  [1. f0f1]
  a.moves = {Node("e1d1", "将军", {Node("d9e9", "", {Node("d1d8", "困毙，红胜"), Node("d1d9", "送车", {Node("e9d9", "和")})})}),
             Node("f0f1", "缓着")};
  a.verdict.kind = VerdictKind::kConfirmed;
  a.verdict.proven = Claim::kWin;
  a.verdict.mate_plies = 1;
  a.verdict.mate_exact = 1;
  a.verdict.pv = {"e1e8"};
  a.verdict.cooks = {"e1d1"};
  a.verdict.cooks_check = {1};
  a.verdict.proof_check = 1;
  a.verdict.book_notes = {"车五进七 wins at once"};
  a.verdict.solver = "test";

  // A pawn more than #1 (the same board in the same collection would be the
  // same record).
  Record d;
  d.fen = "3k5/9/9/9/9/9/4P4/9/4R4/5K3 w - - 0 1";
  d.collection = "测试谱";
  d.number = 2;
  d.title = "错谱";
  d.source = "test.txt#2";
  d.claimed = Claim::kDraw;
  d.moves = {Node("e1f2", "车不能斜走")};

  Record b;
  b.fen = kRookFlippedFen;
  b.collection = "别谱";
  b.number = 7;
  b.title = "黑先胜";
  b.source = "other.txt#7";
  b.claimed = Claim::kWin;
  b.moves = {Node("e8d8", "", {Node("d0e0", "", {Node("d8d1")})})};

  Record c;
  c.variant = "chess";
  c.fen = kChessFen;
  c.collection = "Chess problems";
  c.number = 1;
  c.title = "Back-rank mate";
  c.source = "chess.pgn#1";
  c.claimed = Claim::kWin;
  c.moves = {Node("a1a8", "mate")};
  return {a, d, b, c};
}

// Writes the records into a fresh store in a scratch directory, then serves
// it read-only on a free port.
class ServeFixture {
 public:
  ServeFixture() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = (std::filesystem::temp_directory_path() /
            ("canju-serve-" + std::string(info ? info->name() : "x") + "-" + std::to_string(getpid())))
               .string();
    std::filesystem::remove_all(dir_);
  }
  ~ServeFixture() {
    server_.reset();
    api_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Fills the store; ids of the records in ServeTestRecords() order. With
  // `first_verdict`, that verdict is stored for the first record instead.
  void Build(const Verdict* first_verdict = nullptr) {
    std::unique_ptr<PuzzleStore> store;
    Status st = PuzzleStore::Open(dir_, PuzzleStore::Options(), &store);
    ASSERT_TRUE(st.ok()) << st.ToString();
    AddResult added;
    st = store->AddRecords(ServeTestRecords(), &added);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_EQ(added.added, 4) << (added.outcomes.empty() ? "" : added.outcomes.back().reason);
    for (const AddOutcome& o : added.outcomes) ids_.push_back(FormatPuzzleId(o.id));
    // As `canju verify` would (whether or not AddRecords kept it).
    st = store->SaveVerdict(added.outcomes[0].id, first_verdict ? *first_verdict : ServeTestRecords()[0].verdict);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  void Serve(const std::string& tb_dir = "") {
    server::Api::Options o;
    o.store_dir = dir_;
    o.tb_dir = tb_dir;
    Status st = server::Api::Open(o, &api_);
    ASSERT_TRUE(st.ok()) << st.ToString();
    server_ = std::make_unique<server::Server>(api_.get());
    server::Server::Options so;
    so.port = 0;
    st = server_->Start(so);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  const std::string& dir() const { return dir_; }
  const std::string& id(int i) const { return ids_[i]; }
  int port() const { return server_->port(); }
  server::Server& server() { return *server_; }
  server::Api& api() { return *api_; }

 private:
  std::string dir_;
  std::vector<std::string> ids_;
  std::unique_ptr<server::Api> api_;
  std::unique_ptr<server::Server> server_;
};

}  // namespace canju::testing_util
