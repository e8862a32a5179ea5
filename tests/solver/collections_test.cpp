// A small fixed subset of the real collections in ../shared/data, read
// through the importer: known verdicts and the data's known flaws. The full
// runs are benchmarks (bench/solver_bench.cpp, docs/performance.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "importer/importer.h"
#include "solver/verify.h"

namespace canju {
namespace {

const std::string kXqf = std::string(CANJU_SHARED_DIR) + "/data/xqf/适情雅趣550局/先胜局/";
const std::string kLines = std::string(CANJU_SHARED_DIR) + "/data/lines/";

VerifyOptions Budget(uint64_t nodes) {
  VerifyOptions o;
  o.solve.max_seconds = 0;
  o.solve.max_nodes = nodes;
  o.solve.tt_bytes = size_t{32} << 20;
  return o;
}

Record ReadOne(const std::string& path) {
  ReadResult rr;
  Status st = ReadCollectionFile(path, &rr);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(rr.records.size(), 1u) << path;
  return rr.records.empty() ? Record{} : rr.records[0];
}

TEST(Collections, ShiQingYaQuSubset) {
  if (!std::filesystem::exists(kXqf)) GTEST_SKIP() << kXqf << " not present";
  struct Case {
    const char* file;
    VerdictKind verdict;
    int mate_plies;
  };
  // Consecutive-check mates, the shortest length proved exactly.
  const Case cases[] = {
      {"第083局 沉鱼落雁.XQF", VerdictKind::kConfirmed, 11},
      {"第224局 随形助胜.XQF", VerdictKind::kConfirmed, 9},
      {"第234局 居中反祸.XQF", VerdictKind::kConfirmed, 5},
  };
  for (const Case& c : cases) {
    const Record rec = ReadOne(kXqf + c.file);
    VerifyReport rep;
    ASSERT_TRUE(VerifyRecord(rec, Budget(2'000'000), &rep).ok()) << c.file;
    EXPECT_EQ(rep.verdict.kind, c.verdict) << c.file << ": " << rep.verdict.reason;
    EXPECT_EQ(rep.verdict.mate_plies, c.mate_plies) << c.file;
    EXPECT_TRUE(rep.solve.mate_exact) << c.file;
    EXPECT_EQ(static_cast<int>(rep.verdict.pv.size()), c.mate_plies) << c.file;
    // The mate walked again by the independent check, with every defence.
    EXPECT_NE(rep.solve.proof_check, solver::CheckStatus::kNotRun) << c.file;
    EXPECT_EQ(rep.solve.proof_check, solver::CheckStatus::kHolds) << c.file;
  }
  // 第234局: the book's first move is a second winning move, two plies slower.
  const Record r234 = ReadOne(kXqf + "第234局 居中反祸.XQF");
  VerifyReport rep;
  ASSERT_TRUE(VerifyRecord(r234, Budget(2'000'000), &rep).ok());
  ASSERT_EQ(rep.verdict.cooks.size(), 1u);
  EXPECT_EQ(rep.verdict.cooks[0], "g4g9");
  EXPECT_EQ(rep.verdict.cooks_check, std::vector<int8_t>{1});  // the cook's mate re-checked
  ASSERT_FALSE(rep.book.empty());
  EXPECT_EQ(rep.book[0].kind, BookDeparture::Kind::kLengthens);
  EXPECT_EQ(rep.book[0].book_plies, 7);
}

TEST(Collections, UnsoundCompositionIsRefuted) {
  if (!std::filesystem::exists(kXqf)) GTEST_SKIP() << kXqf << " not present";
  // 第266局: whatever Red does, Black mates; the book's Black throws it away.
  const Record rec = ReadOne(kXqf + "第266局 脱网逢钩.XQF");
  ASSERT_EQ(rec.claimed, Claim::kWin);
  VerifyReport rep;
  ASSERT_TRUE(VerifyRecord(rec, Budget(6'000'000), &rep).ok());
  EXPECT_EQ(rep.verdict.kind, VerdictKind::kRefuted) << rep.verdict.reason;
  EXPECT_EQ(rep.verdict.proven, Claim::kLoss);
  EXPECT_EQ(rep.verdict.mate_plies % 2, 0);
  EXPECT_EQ(rep.solve.proof_check, solver::CheckStatus::kHolds);  // Black's mate, re-checked
  bool black_slips = false;
  for (const BookDeparture& d : rep.book) black_slips |= d.kind == BookDeparture::Kind::kThrowsWin;
  EXPECT_TRUE(black_slips);
}

TEST(Collections, BlackToMoveRecordIsHandled) {
  if (!std::filesystem::exists(kXqf)) GTEST_SKIP() << kXqf << " not present";
  // 第482局 is set with Black to move: its claim is Black's loss, and a long
  // endgame study the budget cannot prove; never a crash, never "confirmed".
  const Record rec = ReadOne(kXqf + "第482局 保障若石.XQF");
  ASSERT_NE(rec.fen.find(" b"), std::string::npos);
  VerifyReport rep;
  ASSERT_TRUE(VerifyRecord(rec, Budget(300'000), &rep).ok());
  EXPECT_NE(rep.verdict.kind, VerdictKind::kConfirmed);
  EXPECT_NE(rep.verdict.proven, Claim::kWin);
}

TEST(Collections, MengRuShenJiFirstLines) {
  const std::string path = kLines + "梦入神机.eglib";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  ReadResult rr;
  ASSERT_TRUE(ReadCollectionFile(path, &rr).ok());
  ASSERT_GE(rr.records.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    // Line lists carry no claim; every composition of the book is a Red win.
    Record rec = rr.records[i];
    EXPECT_EQ(rec.claimed, Claim::kUnknown);
    rec.claimed = Claim::kWin;
    VerifyReport rep;
    ASSERT_TRUE(VerifyRecord(rec, Budget(1'000'000), &rep).ok());
    EXPECT_EQ(rep.verdict.kind, VerdictKind::kConfirmed) << rr.records[i].title;
    EXPECT_EQ(rep.verdict.mate_plies, 5) << rr.records[i].title;
    EXPECT_TRUE(rep.book_audited) << rr.records[i].title;
  }
}

}  // namespace
}  // namespace canju
