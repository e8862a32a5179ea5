// The store's commands end to end, through the `canju` binary: import (the
// bundled samples, files the test writes, bad input), list, show, dups,
// export. Runs without ../shared; the last tests use it when it is there.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "store_test_util.h"

namespace canju {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing_util::ScratchDir;

struct CliRun {
  int rc = -1;
  std::string out, err;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    canju_ = std::string(CANJU_BINARY_DIR) + "/cli/canju";
    ASSERT_TRUE(fs::exists(canju_)) << canju_ << " is missing: build the `canju` target before the tests";
    store_ = dir_.path() + "/store";
    fs::create_directories(dir_.path());
  }

  CliRun Canju(const std::string& args) {
    std::string out = dir_.path() + "/stdout", err = dir_.path() + "/stderr";
    std::string cmd = Quote(canju_) + " " + args + " >" + Quote(out) + " 2>" + Quote(err);
    int status = std::system(cmd.c_str());
    CliRun r;
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = ReadFile(out);
    r.err = ReadFile(err);
    return r;
  }

  // `--json` output: one object per line.
  static std::vector<json> Lines(const std::string& text) {
    std::vector<json> v;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) v.push_back(json::parse(line));
    return v;
  }

  std::string Samples() const { return Quote(std::string(CANJU_SOURCE_DIR) + "/samples/classics.fen"); }
  std::string StoreArg() const { return "--store " + Quote(store_); }

  ScratchDir dir_;
  std::string canju_, store_;
};

TEST_F(CliTest, ImportsTheSamplesOnceAndSummarisesInJson) {
  CliRun first = Canju("import --json " + StoreArg() + " " + Samples());
  ASSERT_EQ(first.rc, 0) << first.out << first.err;
  std::vector<json> lines = Lines(first.out);
  ASSERT_EQ(lines.size(), 1u) << first.out;  // exactly one summary object
  const json& s = lines[0];
  EXPECT_EQ(s["files"], 1);
  EXPECT_EQ(s["records"], 44);
  EXPECT_EQ(s["new"], 44);
  EXPECT_EQ(s["duplicates"], 0);
  EXPECT_TRUE(s["errors"].is_array() && s["errors"].empty()) << s.dump();

  CliRun again = Canju("import --json " + StoreArg() + " " + Samples());
  ASSERT_EQ(again.rc, 0) << again.err;
  json s2 = Lines(again.out).at(0);
  EXPECT_EQ(s2["records"], 44);
  EXPECT_EQ(s2["new"], 0);
  EXPECT_EQ(s2["duplicates"], 44);
}

TEST_F(CliTest, CollectionOptionMergesSourcesOfOneBook) {
  // Two files of one book under different names: --collection makes them one
  // collection, and the composition they share is stored once.
  std::string a = dir_.path() + "/edition-a.eglib", b = dir_.path() + "/edition-b.fen";
  WriteFile(a, "第268局 投躯帝廷|1c2k1C2/c4P3/5a3/9/9/9/9/7R1/3rp4/5K1C1 w|\n"
               "第13局 目视横流|4k4/3P2P2/b2N2R2/7r1/2b6/9/9/3n5/4p3r/2R2K3 w|\n");
  WriteFile(b, "1c2k1C2/c4P3/5a3/9/9/9/9/7R1/3rp4/5K1C1 w; id \"投躯帝庭\"; number 268; claim \"win\"\n");
  CliRun r = Canju("import --json --collection 适情雅趣 " + StoreArg() + " " + Quote(a) + " " + Quote(b));
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  json s = Lines(r.out).at(0);
  EXPECT_EQ(s["records"], 3);
  EXPECT_EQ(s["new"], 2);
  EXPECT_EQ(s["duplicates"], 1);
  ASSERT_EQ(s["same_as"].size(), 1u);  // a duplicate inside this import, named
  std::vector<json> rows = Lines(Canju("puzzles list --json " + StoreArg()).out);
  ASSERT_EQ(rows.size(), 2u);
  for (const json& row : rows) EXPECT_EQ(row["collection"], "适情雅趣");
}

TEST_F(CliTest, ListsInJsonWithTheDocumentedFields) {
  ASSERT_EQ(Canju("import --quiet " + StoreArg() + " " + Samples()).rc, 0);
  CliRun r = Canju("puzzles list --json " + StoreArg());
  ASSERT_EQ(r.rc, 0) << r.err;
  std::vector<json> rows = Lines(r.out);
  ASSERT_EQ(rows.size(), 44u);
  std::map<std::string, int> per_collection;
  std::set<std::string> ids;
  for (const json& row : rows) {
    for (const char* key : {"id", "collection", "number", "title", "fen", "claimed", "material"})
      EXPECT_TRUE(row.contains(key)) << key << " missing in " << row.dump();
    EXPECT_EQ(row["id"].get<std::string>().size(), 16u);
    ids.insert(row["id"]);
    ++per_collection[row["collection"]];
    std::string claimed = row["claimed"];
    EXPECT_TRUE(claimed == "win" || claimed == "draw") << row.dump();
  }
  EXPECT_EQ(ids.size(), 44u);
  EXPECT_EQ(per_collection["适情雅趣"], 26);
  EXPECT_EQ(per_collection["梦入神机"], 9);
  // First by collection (byte order), then by number.
  EXPECT_EQ(rows[0]["collection"], "梦入神机");
  EXPECT_EQ(rows[0]["number"], 1);
  EXPECT_EQ(rows[0]["title"], "由中应外");
  EXPECT_EQ(rows[0]["material"], "KRCNAPKRRCNPP");

  std::vector<json> draws = Lines(Canju("puzzles list --json --result draw " + StoreArg()).out);
  EXPECT_EQ(draws.size(), 8u);
  for (const json& d : draws) EXPECT_EQ(d["claimed"], "draw");
  std::vector<json> krk = Lines(Canju("puzzles list --json --material KNNKR " + StoreArg()).out);
  ASSERT_EQ(krk.size(), 1u);  // 鸳鸯交颈: two horses against a rook
  EXPECT_EQ(krk[0]["number"], 540);
  std::vector<json> one = Lines(Canju("puzzles list --json --collection 橘中秘 --result win " + StoreArg()).out);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]["title"], "双孙扶老");
  // The table: one line per puzzle when not on a terminal.
  CliRun table = Canju("puzzles list " + StoreArg());
  EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 44);
  EXPECT_NE(table.out.find("由中应外"), std::string::npos);
}

TEST_F(CliTest, DupsFindsTheCompositionInTwoBooks) {
  ASSERT_EQ(Canju("import --quiet " + StoreArg() + " " + Samples()).rc, 0);
  std::vector<json> groups = Lines(Canju("puzzles dups --json " + StoreArg()).out);
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups[0]["members"].size(), 2u);
  std::set<std::string> books;
  for (const json& m : groups[0]["members"]) books.insert(m["collection"]);
  EXPECT_EQ(books, (std::set<std::string>{"适情雅趣", "百局象棋谱"}));
  EXPECT_EQ(groups[0]["members"][1]["relation"], "exact");
  CliRun text = Canju("puzzles dups --collection 适情雅趣 " + StoreArg());
  EXPECT_NE(text.out.find("适情雅趣: 26 puzzles, 26 distinct positions; 1 also appear elsewhere, 25 only here"),
            std::string::npos)
      << text.out;
}

TEST_F(CliTest, ShowGivesBoardTreeInChineseAndOtherAppearances) {
  // A line list with a book line and a mirrored copy in another collection.
  std::string a = dir_.path() + "/梦入神机.eglib", b = dir_.path() + "/镜像.eglib";
  WriteFile(a, "由中应外|1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w|d8e8,e9f9,e8e9,f9e9,c9d7\n");
  WriteFile(b, "由中应外|4k1NR1/Cr3P3/2n6/9/9/9/9/4p4/5p3/4KAr1c w|f8e8,e9d9,e8e9,d9e9,g9f7\n");
  CliRun imp = Canju("import --json " + StoreArg() + " " + Quote(a) + " " + Quote(b));
  ASSERT_EQ(imp.rc, 0) << imp.out << imp.err;
  std::vector<json> rows = Lines(Canju("puzzles list --json --collection 梦入神机 " + StoreArg()).out);
  ASSERT_EQ(rows.size(), 1u);
  std::string id = rows[0]["id"];
  CliRun show = Canju("puzzles show --no-color " + StoreArg() + " " + id.substr(0, 6));
  ASSERT_EQ(show.rc, 0) << show.err;
  EXPECT_NE(show.out.find("梦入神机"), std::string::npos);
  EXPECT_NE(show.out.find("1. 兵六平五"), std::string::npos) << show.out;  // d8e8 in Chinese notation
  EXPECT_NE(show.out.find("镜像"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("mirrored"), std::string::npos) << show.out;
  json j = Lines(Canju("puzzles show --json " + StoreArg() + " " + id).out).at(0);
  EXPECT_EQ(j["moves"][0]["move"], "d8e8");
  EXPECT_EQ(j["moves"][0]["human"], "兵六平五");
  ASSERT_EQ(j["appearances"].size(), 1u);
  EXPECT_EQ(j["appearances"][0]["relation"], "mirrored");
  // Unknown ids are an error that names them.
  CliRun bad = Canju("puzzles show " + StoreArg() + " ffffffffffff");
  EXPECT_NE(bad.rc, 0);
  EXPECT_NE(bad.err.find("ffffffffffff"), std::string::npos);
}

TEST_F(CliTest, BadFilesAreReportedOneByOneAndTheRestIsImported) {
  std::string in = dir_.path() + "/batch";
  fs::create_directories(in);
  // A truncated XQF (a valid start, cut inside the header).
  std::string xqf(600, '\0');
  xqf[0] = 'X';
  xqf[1] = 'Q';
  xqf[2] = 0x0A;
  WriteFile(in + "/truncated.xqf", xqf);
  // An XQF whose key bytes do not add up.
  std::string keys(1100, '\0');
  keys[0] = 'X';
  keys[1] = 'Q';
  keys[2] = 0x12;
  keys[0x0C] = 1;
  keys[0x0D] = 2;
  keys[0x0E] = 3;
  keys[0x0F] = 4;
  WriteFile(in + "/wrong-keys.xqf", keys);
  // A line whose third move is illegal: the line is kept up to it.
  WriteFile(in + "/illegal.eglib", "由中应外|1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w|d8e8,e9f9,a0a5\n");
  // A title that is not UTF-8 (nor GB18030).
  WriteFile(in + "/title.eglib", "T\xff\x80\xffitle|3k5/9/9/9/9/9/9/9/4R4/5K3 w|e1d1\n");
  // And a good file.
  WriteFile(in + "/good.fen", "3k5/9/9/9/9/9/9/9/4R4/5K3 w; id \"单车\"; collection \"好\"; number 1; claim \"win\"\n");
  CliRun r = Canju("import --json " + StoreArg() + " " + Quote(in));
  EXPECT_EQ(r.rc, 1) << "a file that could not be imported at all must fail the command\n" << r.out << r.err;
  json s = Lines(r.out).at(0);
  EXPECT_EQ(s["files"], 5);
  std::map<std::string, std::vector<json>> by_file;
  for (const json& e : s["errors"]) by_file[fs::path(e["file"].get<std::string>()).filename().string()].push_back(e);
  ASSERT_TRUE(by_file.count("truncated.xqf")) << s.dump(1);
  EXPECT_TRUE(by_file["truncated.xqf"][0]["fatal"].get<bool>());
  ASSERT_TRUE(by_file.count("wrong-keys.xqf")) << s.dump(1);
  ASSERT_TRUE(by_file.count("illegal.eglib")) << s.dump(1);
  EXPECT_NE(by_file["illegal.eglib"][0]["reason"].get<std::string>().find("a0a5"), std::string::npos);
  ASSERT_TRUE(by_file.count("title.eglib")) << s.dump(1);
  EXPECT_FALSE(by_file.count("good.fen"));
  for (const json& e : s["errors"]) EXPECT_FALSE(e["reason"].get<std::string>().empty());
  // Everything readable is in the store: the good puzzle, the illegal line
  // (its first two moves), the odd title (replaced characters).
  std::vector<json> rows = Lines(Canju("puzzles list --json " + StoreArg()).out);
  EXPECT_EQ(static_cast<int>(rows.size()), s["new"].get<int>());
  std::set<std::string> collections;
  for (const json& row : rows) collections.insert(row["collection"]);
  EXPECT_TRUE(collections.count("好"));
  EXPECT_TRUE(collections.count("illegal"));
  EXPECT_TRUE(collections.count("title"));
  // The human form names each file too.
  CliRun text = Canju("import " + StoreArg() + " " + Quote(in));
  EXPECT_NE(text.out.find("truncated.xqf"), std::string::npos);
  EXPECT_NE(text.out.find("illegal.eglib"), std::string::npos);
}

TEST_F(CliTest, ExportedFilesImportBackToTheSameIds) {
  ASSERT_EQ(Canju("import --quiet " + StoreArg() + " " + Samples()).rc, 0);
  std::string before = Canju("puzzles list --json " + StoreArg()).out;
  for (const char* format : {"fen", "pgn"}) {
    std::string out = dir_.path() + "/export." + format;
    CliRun e = Canju(std::string("export --format ") + format + " " + StoreArg() + " " + Quote(out));
    ASSERT_EQ(e.rc, 0) << e.err;
    ASSERT_TRUE(fs::exists(out));
    std::string other = dir_.path() + "/other-" + format;
    CliRun imp = Canju("import --json --store " + Quote(other) + " " + Quote(out));
    ASSERT_EQ(imp.rc, 0) << imp.out << imp.err;
    EXPECT_EQ(Lines(imp.out).at(0)["new"], 44) << format;
    std::vector<json> a = Lines(before), b = Lines(Canju("puzzles list --json --store " + Quote(other)).out);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i]["id"], b[i]["id"]) << format << " " << a[i].dump();
      EXPECT_EQ(a[i]["title"], b[i]["title"]) << format;
      EXPECT_EQ(a[i]["number"], b[i]["number"]) << format;
      EXPECT_EQ(a[i]["claimed"], b[i]["claimed"]) << format;
    }
  }
  CliRun one = Canju("export --format fen --collection 橘中秘 " + StoreArg() + " -");
  ASSERT_EQ(one.rc, 0);
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 3) << one.out;
  EXPECT_NE(Canju("export --format fen --collection 没有 " + StoreArg() + " -").rc, 0);
}

TEST_F(CliTest, ReadersFailClearlyOnAMissingStoreAndHelpWorks) {
  CliRun r = Canju("puzzles list --store " + Quote(dir_.path() + "/nothing-here"));
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("nothing-here"), std::string::npos) << r.err;
  for (const char* cmd : {"import", "puzzles list", "puzzles show", "puzzles dups", "puzzles collections",
                          "puzzles check", "export"}) {
    CliRun h = Canju(std::string(cmd) + " --help");
    EXPECT_EQ(h.rc, 0) << cmd;
    EXPECT_NE(h.out.find("--store"), std::string::npos) << cmd << ": " << h.out;
  }
}

TEST_F(CliTest, DefaultStoreComesFromTheEnvironment) {
  std::string cmd = Quote(canju_);
  // Canju() runs the binary itself; here the variable has to come first.
  canju_ = "env";
  CliRun r = Canju("CANJU_STORE=" + Quote(store_) + " " + cmd + " import --quiet " + Samples());
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  CliRun l = Canju("CANJU_STORE=" + Quote(store_) + " " + cmd + " puzzles list --json");
  EXPECT_EQ(Lines(l.out).size(), 44u);
  EXPECT_TRUE(fs::exists(store_ + "/CURRENT"));
  // Without CANJU_STORE: $XDG_DATA_HOME/canju.
  std::string xdg = dir_.path() + "/xdg";
  CliRun x = Canju("-u CANJU_STORE XDG_DATA_HOME=" + Quote(xdg) + " " + cmd + " import --quiet " + Samples());
  ASSERT_EQ(x.rc, 0) << x.err;
  EXPECT_TRUE(fs::exists(xdg + "/canju/CURRENT"));
}

TEST_F(CliTest, CheckAuditsTheStore) {
  ASSERT_EQ(Canju("import --quiet " + StoreArg() + " " + Samples()).rc, 0);
  CliRun r = Canju("puzzles check " + StoreArg());
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("44 puzzles, 0 problems"), std::string::npos) << r.out;
}

// --- with ../shared/data ----------------------------------------------------

TEST_F(CliTest, EveryFileOfTheSharedDataImports) {
  std::string data = std::string(CANJU_SHARED_DIR) + "/data";
  if (!fs::exists(data)) GTEST_SKIP() << data << " is absent";
  CliRun r = Canju("import --json " + StoreArg() + " " + Quote(data));
  json s = Lines(r.out).at(0);
  // Every collection file (documents such as README.md and 江湖排局.doc are not).
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(data)) {
    std::string ext = e.path().extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (e.is_regular_file() && ext != ".md" && ext != ".doc") ++files;
  }
  EXPECT_EQ(s["files"].get<size_t>(), files);
  EXPECT_EQ(s["records"].get<int>(), s["new"].get<int>() + s["duplicates"].get<int>()) << "a record was rejected";
  // No file is dropped: every fatal error names a file and a reason.
  for (const json& e : s["errors"]) {
    EXPECT_FALSE(e["file"].get<std::string>().empty());
    EXPECT_FALSE(e["reason"].get<std::string>().empty());
  }
  // Counts per collection: the XQF folders of 适情雅趣 hold 550 files, each a
  // different composition.
  std::map<std::string, int> per;
  for (const json& row : Lines(Canju("puzzles collections --json " + StoreArg()).out)) per[row["collection"]] = row["puzzles"];
  EXPECT_EQ(per["适情雅趣550局"], 550);
  // 梦入神机.eglib: 138 lines, 136 distinct positions.
  EXPECT_EQ(per["梦入神机"], 136);
  CliRun check = Canju("puzzles check " + StoreArg());
  EXPECT_EQ(check.rc, 0) << check.out;
  // Importing it all again adds nothing.
  json again = Lines(Canju("import --json " + StoreArg() + " " + Quote(data)).out).at(0);
  EXPECT_EQ(again["new"], 0);
  EXPECT_EQ(again["duplicates"], s["records"]);
}

TEST_F(CliTest, MengRuShenJiAgainstShiQingYaQu) {
  std::string lines = std::string(CANJU_SHARED_DIR) + "/data/lines";
  if (!fs::exists(lines)) GTEST_SKIP() << lines << " is absent";
  CliRun r = Canju("import --quiet " + StoreArg() + " " + Quote(lines + "/梦入神机.eglib") + " " +
                   Quote(lines + "/适情雅趣550.eglib"));
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  // The line list holds the compositions of 梦入神机 that are not in
  // 适情雅趣 — except one, which the store finds: 敛手削地, 适情雅趣 #287.
  std::vector<json> groups = Lines(Canju("puzzles dups --json --collection 梦入神机 " + StoreArg()).out);
  ASSERT_EQ(groups.size(), 1u);
  const json& m = groups[0]["members"];
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0]["collection"], "梦入神机");
  EXPECT_EQ(m[1]["collection"], "适情雅趣550");
  EXPECT_EQ(m[1]["number"], 287);
  EXPECT_EQ(m[1]["title"], "敛手削地");
  CliRun text = Canju("puzzles dups --collection 梦入神机 " + StoreArg());
  EXPECT_NE(text.out.find("136 distinct positions; 1 also appear elsewhere, 135 only here"), std::string::npos)
      << text.out;
}

TEST_F(CliTest, MirroredDiagramsAreFoundAcrossBooks) {
  std::string data = std::string(CANJU_SHARED_DIR) + "/data";
  if (!fs::exists(data)) GTEST_SKIP() << data << " is absent";
  // 竹香斋 prints 适情雅趣's 伏虎降龙 mirrored, as 六卿祖饯.
  CliRun r = Canju("import --quiet " + StoreArg() + " " + Quote(data + "/xqf/竹香斋") + " " +
                   Quote(data + "/lines/适情雅趣550.eglib"));
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  bool found = false;
  for (const json& g : Lines(Canju("puzzles dups --json --collection 竹香斋 " + StoreArg()).out)) {
    if (g["members"][0]["title"] != "六卿祖饯") continue;
    found = true;
    ASSERT_EQ(g["members"].size(), 2u);
    EXPECT_EQ(g["members"][1]["title"], "伏虎降龙");
    EXPECT_EQ(g["members"][1]["relation"], "mirrored");
    EXPECT_NE(g["members"][0]["fen"], g["members"][1]["fen"]);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace canju
