// The variant commands as a user runs them: the built `canju` binary, its
// output, and exit codes for bad input (2, one line on stderr). Skipped when
// the binary has not been built (ctest before `cmake --build`).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "tests/cli/run_canju.h"
#include "variants/display.h"

namespace {

using namespace canju_cli_test;

class VariantCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(Binary().c_str(), X_OK) != 0) GTEST_SKIP() << Binary() << " not built";
  }
};

TEST_F(VariantCommands, VariantsAlignsColumnsWithChineseNames) {
  Result r = RunCanju({"variants"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 3u);
  // The board size column starts at the same terminal column on every line.
  int column = -1;
  for (const std::string& l : lines) {
    size_t x = l.find('x', l.find("  ") + 2);
    while (x != std::string::npos && !(x > 0 && std::isdigit(static_cast<unsigned char>(l[x - 1])))) x = l.find('x', x + 1);
    ASSERT_NE(x, std::string::npos) << l;
    size_t start = x;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(l[start - 1]))) --start;
    int c = canju::DisplayWidth(l.substr(0, start));
    if (column < 0) column = c;
    EXPECT_EQ(c, column) << l;
  }
}

TEST_F(VariantCommands, ShowDrawsTheBoardAndTheState) {
  Result r = RunCanju({"show"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("0 车-马-相-仕-帅-仕-相-马-车"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Status: Red to move"), std::string::npos);
  EXPECT_EQ(r.out.find("\033"), std::string::npos);  // not a terminal: no colours
  Result c = RunCanju({"show", "--color"});
  EXPECT_NE(c.out.find("\033[1;31m"), std::string::npos);
  // A FEN as separate words, in chess.
  Result mate = RunCanju({"show", "--variant", "chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR", "w", "KQkq",
                     "-", "1", "3"});
  ASSERT_EQ(mate.code, 0) << mate.err;
  EXPECT_NE(mate.out.find("checkmate: Black wins"), std::string::npos) << mate.out;
  Result stale = RunCanju({"show", "4k4/9/2N6/9/9/9/9/9/9/3K1R3 b"});
  EXPECT_NE(stale.out.find("stalemate (困毙): Black has no legal move and loses"), std::string::npos) << stale.out;
}

TEST_F(VariantCommands, MovesListsEveryNotation) {
  Result r = RunCanju({"moves"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  EXPECT_EQ(lines.size(), 44u);
  bool found = false;
  for (const auto& l : lines) found |= l == "h2e2  炮二平五  C2.5";
  EXPECT_TRUE(found) << r.out;

  Result j = RunCanju({"moves", "--json", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"});
  ASSERT_EQ(j.code, 0) << j.err;
  auto json = nlohmann::json::parse(j.out);
  EXPECT_EQ(json["side"], "black");
  EXPECT_EQ(json["status"], "playing");
  ASSERT_EQ(json["moves"].size(), 45u);  // perft --divide 2: h2e2 45
  bool horse = false;
  for (const auto& m : json["moves"]) horse |= m["iccs"] == "h9g7" && m["chinese"] == "马８进７" && m["wxf"] == "N8+7";
  EXPECT_TRUE(horse);

  Result chess = RunCanju({"moves", "--variant", "chess", "--json"});
  auto cj = nlohmann::json::parse(chess.out);
  ASSERT_EQ(cj["moves"].size(), 20u);
  bool nf3 = false;
  for (const auto& m : cj["moves"]) nf3 |= m["coord"] == "g1f3" && m["san"] == "Nf3";
  EXPECT_TRUE(nf3);
}

TEST_F(VariantCommands, PerftLastLineIsTheCount) {
  Result r = RunCanju({"perft", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).back(), "79666");
  Result bare = RunCanju({"perft", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "2"});
  EXPECT_EQ(Lines(bare.out).back(), "1920");
  Result divide = RunCanju({"perft", "--divide", "2"});
  std::vector<std::string> lines = Lines(divide.out);
  EXPECT_EQ(lines.size(), 45u);
  EXPECT_EQ(lines.back(), "1920");
  Result cannon = RunCanju({"perft", "--variant", "cannonchess", "3"});
  EXPECT_EQ(Lines(cannon.out).back(), "16096");
}

TEST_F(VariantCommands, EveryCommandHasHelp) {
  for (const char* cmd : {"variants", "show", "moves", "perft"}) {
    Result r = RunCanju({cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd << ": " << r.out;
  }
}

TEST_F(VariantCommands, BadInputExitsWithTwoAndOneLine) {
  const std::vector<std::vector<std::string>> cases = {
      {"show", "rnbakabnr/9/9 w"},
      {"show", "--variant", "nosuch"},
      {"moves", "--variant", "chess", "8/8/8/8/8/8/8/8 w"},
      {"perft", "99"},
      {"perft", "--fen", "xyz", "1"},
      {"moves", "--nonsense"},
      {"show", "--color", "--no-color"},
      {"show", "--set", "rules.promotion_pieces=Q X", "--variant", "cannonchess"},
      {"show", "--variant", "/nonexistent/file.ini"},
  };
  for (const auto& args : cases) {
    Result r = RunCanju(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_EQ(r.code, 2) << joined << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << joined << r.err;
    EXPECT_EQ(r.err.rfind("canju: ", 0), 0u) << joined << r.err;
    EXPECT_TRUE(r.out.empty()) << joined << r.out;
  }
}

}  // namespace
