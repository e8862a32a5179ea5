// The real collections in ../shared/data (skipped when absent).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "importer/importer.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

namespace fs = std::filesystem;

const std::string kData = std::string(CANJU_SHARED_DIR) + "/data";

#define SKIP_WITHOUT_DATA() \
  if (!fs::exists(kData)) GTEST_SKIP() << kData << " is absent"

size_t CountFiles(const std::string& dir, const std::set<std::string>& exts) {
  size_t n = 0;
  for (auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    n += exts.count(ext);
  }
  return n;
}

struct AllData {
  std::vector<FileResult> files;
  std::vector<std::string> skipped;
};

const AllData& ReadAll() {
  static AllData* all = [] {
    auto* a = new AllData;
    std::vector<std::string> listed;
    ListCollectionFiles(kData, &listed, &a->skipped);
    ReadCollectionPath(kData, {}, [&](FileResult&& f, size_t, size_t) {
      a->files.push_back(std::move(f));
      return true;
    });
    return a;
  }();
  return *all;
}

TEST(RealData, EveryCollectionFileReads) {
  SKIP_WITHOUT_DATA();
  const AllData& all = ReadAll();
  size_t xqf = CountFiles(kData, {".xqf"});
  size_t others = CountFiles(kData + "/lines", {".eglib", ".fen"}) + CountFiles(kData + "/cbl", {".cbl"});
  EXPECT_EQ(all.files.size(), xqf + others);
  for (const FileResult& f : all.files) {
    EXPECT_TRUE(f.status.ok()) << f.path << ": " << f.status.ToString();
    EXPECT_FALSE(f.result.records.empty()) << f.path;
    for (const ImportIssue& i : f.result.issues) EXPECT_FALSE(i.fatal) << IssueToString(i);
  }
  // What is not a collection is listed as skipped: README.md and a Word file.
  std::set<std::string> skipped_names;
  for (const std::string& s : all.skipped) skipped_names.insert(fs::path(s).filename().string());
  EXPECT_TRUE(skipped_names.count("README.md"));
  EXPECT_TRUE(skipped_names.count("江湖排局.doc"));
}

TEST(RealData, XqfRecordsPerCollectionMatchTheFiles) {
  SKIP_WITHOUT_DATA();
  std::map<std::string, size_t> files, records;
  for (const FileResult& f : ReadAll().files) {
    if (f.format != Format::kXqf) continue;
    // The collection folder: the first folder below xqf/.
    std::string rel = fs::relative(f.path, kData + "/xqf").generic_string();
    std::string top = rel.substr(0, rel.find('/'));
    files[top]++;
    records[top] += f.result.records.size();
  }
  EXPECT_EQ(files.size(), 9u);
  for (const auto& [collection, n] : files) EXPECT_EQ(records[collection], n) << collection;
  EXPECT_EQ(files["适情雅趣550局"], 550u);
}

TEST(RealData, WinFolderOfShiQingYaQu) {
  SKIP_WITHOUT_DATA();
  size_t records = 0, wins = 0;
  std::vector<std::string> not_win;
  for (const FileResult& f : ReadAll().files) {
    if (f.path.find("适情雅趣550局/先胜局/") == std::string::npos) continue;
    for (const Record& r : f.result.records) {
      ++records;
      EXPECT_EQ(r.collection, "适情雅趣550局");
      EXPECT_GT(r.number, 0) << r.source;
      EXPECT_TRUE(r.tags.count(kImportErrorTag) == 0) << r.source;
      if (r.claimed == Claim::kWin) {
        ++wins;
      } else {
        not_win.push_back(r.source);
        // The flawed 第482局: the file has Black move first (as set, the
        // kings face each other with Red to move) and its result byte says
        // Red wins, so the side to move loses; the folder disagrees and
        // that is reported.
        EXPECT_NE(r.source.find("第482局"), std::string::npos) << r.source;
        EXPECT_EQ(r.claimed, Claim::kLoss);
        EXPECT_EQ(r.fen.substr(r.fen.find(' ') + 1, 1), "b");
        EXPECT_TRUE(testing::HasIssue(f.result, "claims disagree")) << testing::AllIssues(f.result);
      }
    }
  }
  EXPECT_EQ(records, 454u);
  EXPECT_EQ(wins, 453u);
  EXPECT_EQ(not_win.size(), 1u);
}

TEST(RealData, KnownPuzzles) {
  SKIP_WITHOUT_DATA();
  ReadResult xqf, tagged;
  ASSERT_TRUE(ReadCollectionFile(kData + "/xqf/适情雅趣550局/先胜局/第001局 气吞关右.XQF", &xqf).ok());
  ASSERT_TRUE(ReadCollectionFile(kData + "/lines/shiqingyaqu551.fen", &tagged).ok());
  ASSERT_EQ(xqf.records.size(), 1u);
  ASSERT_EQ(tagged.records.size(), 551u);
  const Record& a = xqf.records[0];
  EXPECT_EQ(a.number, 1);
  EXPECT_EQ(a.title, "气吞关右");
  EXPECT_EQ(a.claimed, Claim::kWin);
  EXPECT_FALSE(a.moves.empty());
  // The same diagram in the two editions.
  const Record& b = tagged.records[0];
  EXPECT_EQ(b.number, 1);
  EXPECT_EQ(b.title, "气吞关右");
  EXPECT_EQ(b.collection, "适情雅趣_李浭551局新版");
  EXPECT_EQ(a.fen, b.fen);
  // 第001局-第551局 without 第227局, and in its place a restored diagram
  // ("228plus", 原_227局) that carries no 第N局 number.
  std::set<int> numbers;
  for (const Record& r : tagged.records) {
    EXPECT_EQ(r.collection, "适情雅趣_李浭551局新版") << r.source;
    if (r.number == 0) {
      EXPECT_EQ(r.tags.at("fen_index"), "shiqingyaqu-551-228plus");
      EXPECT_EQ(r.title, "原_227局_舍生取义_补图复原");
      EXPECT_EQ(r.tags.at("mark"), "*");
    } else {
      numbers.insert(r.number);
    }
  }
  EXPECT_EQ(numbers.size(), 550u);
  EXPECT_EQ(*numbers.begin(), 1);
  EXPECT_EQ(*numbers.rbegin(), 551);
  EXPECT_EQ(numbers.count(227), 0u);
}

TEST(RealData, CblLibraries) {
  SKIP_WITHOUT_DATA();
  std::map<std::string, size_t> games;
  for (const FileResult& f : ReadAll().files) {
    if (f.format != Format::kCbl) continue;
    EXPECT_TRUE(f.result.issues.empty()) << testing::AllIssues(f.result);
    for (const Record& r : f.result.records) {
      games[r.collection]++;
      EXPECT_GT(r.moves.size(), 0u) << r.source;  // full games with their moves
    }
  }
  // Games counted by their record magic on 4096-byte slots.
  EXPECT_EQ(games["何顺安专辑"], 13u);
  EXPECT_EQ(games["林兴荣专辑"], 14u);
}

TEST(RealData, MengRuShenJiLineList) {
  SKIP_WITHOUT_DATA();
  ReadResult r;
  ASSERT_TRUE(ReadCollectionFile(kData + "/lines/梦入神机.eglib", &r).ok());
  // 138 lines, one of which repeats the line before it exactly (reported);
  // 136 distinct positions (one position appears under two titles).
  EXPECT_EQ(r.records.size(), 137u);
  std::set<std::string> fens;
  size_t lines = 0;
  for (const Record& rec : r.records) {
    fens.insert(rec.fen);
    EXPECT_EQ(rec.collection, "梦入神机");
    EXPECT_FALSE(rec.moves.empty()) << rec.title;
    std::vector<const MoveNode*> stack;
    for (const MoveNode& n : rec.moves) stack.push_back(&n);
    while (!stack.empty()) {  // count leaves: one per line read
      const MoveNode* n = stack.back();
      stack.pop_back();
      if (n->next.empty()) ++lines;
      for (const MoveNode& c : n->next) stack.push_back(&c);
    }
  }
  EXPECT_EQ(fens.size(), 136u);
  size_t duplicates = 0;
  for (const ImportIssue& i : r.issues) duplicates += i.reason.find("duplicate") != std::string::npos;
  EXPECT_EQ(duplicates, 1u);
  EXPECT_EQ(lines + duplicates, 138u);
}

}  // namespace
}  // namespace canju
