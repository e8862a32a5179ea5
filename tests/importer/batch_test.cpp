// Folder walking: stable order, skipped non-collection files, one broken
// file never stops the batch; text conversion helpers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "importer/importer.h"
#include "importer/text.h"
#include "tests/importer/test_util.h"

namespace canju {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("canju_import_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string Write(const std::string& rel, const std::string& bytes) {
    fs::path p = path_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.generic_string();
  }
  std::string path() const { return path_.generic_string(); }

 private:
  fs::path path_;
};

std::string GoodXqf() {
  testing::XqfSpec s;
  s.pieces[4] = static_cast<uint8_t>(testing::Xy(3, 0));
  s.pieces[8] = static_cast<uint8_t>(testing::Xy(8, 1));
  s.pieces[20] = static_cast<uint8_t>(testing::Xy(4, 9));
  s.pieces[19] = static_cast<uint8_t>(testing::Xy(3, 9));
  s.records = {{0, 0, true, false, ""}, {testing::Xy(8, 1), testing::Xy(8, 9), false, false, ""}};
  return testing::WriteXqf(s);
}

TEST(Batch, BrokenFilesAreReportedAndTheRestIsRead) {
  TempDir dir;
  const std::string pos = "3ak4/9/9/9/9/9/9/9/8R/3K5";
  std::string good = GoodXqf();
  std::string bad_keys = good;
  bad_keys[0x0C] = static_cast<char>(bad_keys[0x0C] + 1);
  dir.Write("书/先胜局/b_good.xqf", good);
  dir.Write("书/先胜局/a_truncated.xqf", good.substr(0, 600));
  dir.Write("书/先胜局/c_keys.xqf", bad_keys);
  dir.Write("other/garbage.pgn", "\x89PNG\r\n\x1a\n\x00\x00 not a game");
  dir.Write("other/lines.eglib", "t|" + pos + " w|i1i9,e9e8,i9h7\n");
  dir.Write("other/README.md", "# notes");
  dir.Write("other/scan.doc", "\xD0\xCF\x11\xE0");

  std::vector<std::string> files, skipped;
  ASSERT_TRUE(ListCollectionFiles(dir.path(), &files, &skipped).ok());
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(skipped.size(), 2u);
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));

  std::map<std::string, FileResult> by_name;
  std::vector<size_t> indices;
  Status st = ReadCollectionPath(dir.path(), {}, [&](FileResult&& f, size_t i, size_t total) {
    EXPECT_EQ(total, 5u);
    indices.push_back(i);
    by_name[fs::path(f.path).filename().string()] = std::move(f);
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(indices, (std::vector<size_t>{0, 1, 2, 3, 4}));

  const FileResult& ok = by_name.at("b_good.xqf");
  ASSERT_TRUE(ok.status.ok());
  ASSERT_EQ(ok.result.records.size(), 1u);
  EXPECT_EQ(ok.result.records[0].collection, "书");
  EXPECT_EQ(ok.result.records[0].claimed, Claim::kWin);  // from the 先胜局 folder
  EXPECT_EQ(ok.format, Format::kXqf);

  for (const char* broken : {"a_truncated.xqf", "c_keys.xqf"}) {
    const FileResult& f = by_name.at(broken);
    EXPECT_FALSE(f.status.ok()) << broken;
    EXPECT_NE(f.status.message().find(broken), std::string::npos) << f.status.message();
    EXPECT_TRUE(f.result.records.empty());
  }
  const FileResult& garbage = by_name.at("garbage.pgn");
  EXPECT_FALSE(garbage.result.issues.empty());
  for (const ImportIssue& i : garbage.result.issues) EXPECT_NE(i.file.find("garbage.pgn"), std::string::npos);

  const FileResult& lines = by_name.at("lines.eglib");
  ASSERT_EQ(lines.result.records.size(), 1u);
  EXPECT_EQ(testing::TreeText(lines.result.records[0].moves), "i1i9 e9e8");
  ASSERT_EQ(lines.result.issues.size(), 1u);
  EXPECT_EQ(lines.result.issues[0].where, "line 1, ply 3 (i9h7)");
}

TEST(Batch, StoppingEarlyIsAborted) {
  TempDir dir;
  dir.Write("a.xqf", GoodXqf());
  dir.Write("b.xqf", GoodXqf());
  int seen = 0;
  Status st = ReadCollectionPath(dir.path(), {}, [&](FileResult&&, size_t, size_t) { return ++seen < 1; });
  EXPECT_EQ(st.code(), Status::Code::kAborted);
  EXPECT_EQ(seen, 1);
}

TEST(Batch, CollectionOverrideAndMissingPath) {
  TempDir dir;
  std::string f = dir.Write("x/a.xqf", GoodXqf());
  ReadOptions opts;
  opts.collection = "我的收藏";
  ReadResult r;
  ASSERT_TRUE(ReadCollectionFile(f, opts, &r).ok());
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].collection, "我的收藏");
  Status st = ReadCollectionPath(dir.path() + "/nope", {}, [](FileResult&&, size_t, size_t) { return true; });
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
}

TEST(Text, EncodingsBecomeUtf8) {
  int bad = 0;
  EXPECT_EQ(text::Gb18030ToUtf8("\xBA\xEC\xCF\xC8\xCA\xA4", &bad), "红先胜");
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(text::Gb18030ToUtf8("a\xFF" "b", &bad), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(bad, 1);
  bad = 0;
  EXPECT_EQ(text::Utf16LeToUtf8(std::string("\xA2\x7E\x48\x51", 4), &bad), "红先");
  EXPECT_EQ(text::Utf16LeToUtf8(std::string("\x00\xD8\x41\x00", 4), &bad), "\xEF\xBF\xBD" "A");  // lone surrogate
  EXPECT_EQ(bad, 1);
  text::Encoding e;
  EXPECT_EQ(text::DecodeText("\xEF\xBB\xBF红", &e), "红");
  EXPECT_EQ(e, text::Encoding::kUtf8);
  EXPECT_EQ(text::DecodeText("\xFF\xFE\xA2\x7E", &e), "红");
  EXPECT_EQ(e, text::Encoding::kUtf16Le);
  EXPECT_EQ(text::DecodeText("\xBA\xEC", &e), "红");
  EXPECT_EQ(e, text::Encoding::kGb18030);
  EXPECT_FALSE(text::IsValidUtf8("\xC0\x80"));  // overlong
  EXPECT_FALSE(text::IsValidUtf8("\xED\xA0\x80"));  // surrogate
  EXPECT_TRUE(text::IsValidUtf8("象棋"));
  EXPECT_EQ(text::Trim("\xE3\x80\x80 标题 \t"), "标题");
}

TEST(Text, HtmlCharacterReferences) {
  EXPECT_EQ(text::DecodeHtmlText("&#32418;&#x5148;&#X80DC; A&amp;B&nbsp;&lt;x&gt; &quot;q&quot; &apos;"),
            "红先胜 A&B <x> \"q\" '");
  EXPECT_EQ(text::DecodeHtmlText("一<br>二<br />三"), "一\n二\n三");
  // Not references: left as written, never a crash.
  EXPECT_EQ(text::DecodeHtmlText("& &; &#; &#xZZ; &#0; &#xD800; &#1114112; &unknown; &amp"),
            "& &; &#; &#xZZ; &#0; &#xD800; &#1114112; &unknown; &amp");
  EXPECT_EQ(text::DecodeHtmlText("&#128512;"), "\xF0\x9F\x98\x80");
}

}  // namespace
}  // namespace canju
