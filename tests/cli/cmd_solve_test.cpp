// `canju solve` and `canju verify` as scripts use them (issue 5's contract):
// `solve --json` prints one object with result, mate_plies, pv,
// winning_first_moves, nodes, seconds from the side to move's point of view;
// `verify --json` one object per puzzle per line with source, title,
// claimed, verdict, mate_plies, cooks; bad input exits non-zero with one
// line naming the file or the place. The lines printed are replayed on the
// board, so a wrong move or a line that does not mate fails the test.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/cli/run_canju.h"
#include "variants/notation.h"
#include "variants/position.h"
#include "variants/registry.h"

namespace {

using namespace canju_cli_test;
using json = nlohmann::json;

const char* kMateIn5 = "3a1kb2/7C1/3a1N3/9/9/9/9/6R2/9/4K4 w";

class SolveCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(Binary().c_str(), X_OK) != 0) GTEST_SKIP() << Binary() << " not built";
  }
};

// The position after playing `moves` from `fen`; false if one is not legal.
bool Play(const std::string& fen, const std::vector<std::string>& moves, canju::Position* out) {
  if (!canju::Position::FromFen(canju::BuiltinVariant("xiangqi"), fen, out).ok()) return false;
  for (const std::string& text : moves) {
    canju::Move m;
    if (!canju::ParseCoordMove(*out, text, &m).ok()) return false;
    canju::StateInfo st;
    out->DoMove(m, &st);
  }
  return true;
}

bool Mated(const canju::Position& p) {
  canju::MoveList ml;
  p.GenerateLegal(&ml);
  return ml.empty();  // (Xiangqi: a side without a move has lost)
}

json OneObject(const Result& r) {
  const std::vector<std::string> lines = Lines(r.out);
  EXPECT_EQ(lines.size(), 1u) << r.out;
  return lines.empty() ? json() : json::parse(lines[0], nullptr, false);
}

TEST_F(SolveCommands, SolveJsonIsOneObjectFromTheSideToMovesView) {
  Result r = RunCanju({"solve", "--json", "--nodes", "3000000", kMateIn5});
  ASSERT_EQ(r.code, 0) << r.err;
  json j = OneObject(r);
  ASSERT_TRUE(j.is_object()) << r.out;
  for (const char* key : {"result", "mate_plies", "pv", "winning_first_moves", "nodes", "seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["result"], "win");
  ASSERT_EQ(j["mate_plies"], 5);
  const std::vector<std::string> pv = j["pv"].get<std::vector<std::string>>();
  ASSERT_EQ(pv.size(), 5u);
  canju::Position end;
  ASSERT_TRUE(Play(kMateIn5, pv, &end));
  EXPECT_TRUE(Mated(end)) << end.Fen();
  EXPECT_EQ(j["line_end"], "mate");
  const auto wins = j["winning_first_moves"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(wins.begin(), wins.end(), pv[0]), wins.end());
  EXPECT_GT(j["nodes"].get<long long>(), 0);
  EXPECT_TRUE(j["seconds"].is_number());

  // One move later the side to move (Black) loses, mated in 4 plies.
  canju::Position after;
  ASSERT_TRUE(Play(kMateIn5, {pv[0]}, &after));
  Result loss = RunCanju({"solve", "--json", "--nodes", "3000000", after.Fen()});
  ASSERT_EQ(loss.code, 0) << loss.err;
  json l = OneObject(loss);
  EXPECT_EQ(l["result"], "loss");
  EXPECT_EQ(l["mate_plies"], 4);
  EXPECT_EQ(l["line_end"], "mate");  // (the side to move's loss: Red's mate)
  EXPECT_TRUE(l["winning_first_moves"].empty());
  // Both mates were walked again by the independent check; switched off, none is.
  EXPECT_EQ(j["proof_check"], "holds");
  EXPECT_EQ(l["proof_check"], "holds");
  Result unchecked = RunCanju({"solve", "--json", "--nodes", "3000000", "--proof-check-nodes", "0", kMateIn5});
  ASSERT_EQ(unchecked.code, 0) << unchecked.err;
  EXPECT_TRUE(OneObject(unchecked)["proof_check"].is_null());
  // Each winning first move's mate (the cooks' as the PV's) re-checked.
  ASSERT_GT(wins.size(), 1u);
  ASSERT_EQ(j["winning_first_moves_check"].size(), wins.size()) << j.dump();
  for (const std::string& m : wins) EXPECT_EQ(j["winning_first_moves_check"][m], "holds") << m;
  // (Kept in a variable: a range-for over a temporary's member dangles.)
  const json unchecked_json = OneObject(unchecked);
  for (const auto& [m, check] : unchecked_json["winning_first_moves_check"].items()) EXPECT_TRUE(check.is_null()) << m;

  // The CPU-time budget is accepted and gives the same answer (which clock
  // counted is not visible from outside).
  Result cpu = RunCanju({"solve", "--json", "--cpu-time", "--seconds", "60", kMateIn5});
  ASSERT_EQ(cpu.code, 0) << cpu.err;
  json c = OneObject(cpu);
  EXPECT_EQ(c["result"], "win");
  EXPECT_EQ(c["mate_plies"], 5);
}

TEST_F(SolveCommands, SolveOnSeveralThreadsGivesTheSameMate) {
  // Racing searchers (--threads): whichever decides, the mate is the
  // shortest, its line mates, and the re-check holds.
  Result r = RunCanju({"solve", "--json", "--nodes", "3000000", "--threads", "2", kMateIn5});
  ASSERT_EQ(r.code, 0) << r.err;
  json j = OneObject(r);
  EXPECT_EQ(j["result"], "win");
  ASSERT_EQ(j["mate_plies"], 5);
  EXPECT_EQ(j["mate_exact"], true);
  canju::Position end;
  ASSERT_TRUE(Play(kMateIn5, j["pv"].get<std::vector<std::string>>(), &end));
  EXPECT_TRUE(Mated(end)) << end.Fen();
  EXPECT_EQ(j["proof_check"], "holds");
  // verify takes the option too, and a count out of range is refused.
  const std::string file = ::testing::TempDir() + "canju_threads_" + std::to_string(getpid()) + ".fen";
  {
    std::ofstream f(file);
    f << kMateIn5 << "; id \"five\"; claim \"win\"\n";
  }
  Result v = RunCanju({"verify", "--json", "--nodes", "3000000", "--threads", "2", file});
  std::remove(file.c_str());
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(OneObject(v)["verdict"], "confirmed") << v.out;
  Result bad = RunCanju({"solve", "--threads", "0", kMateIn5});
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--threads"), std::string::npos) << bad.err;
}

TEST_F(SolveCommands, SolveNamesWhatIsWrongWithAFen) {
  Result r = RunCanju({"solve", "--json", "4k4/9/9/9/9/9/9/9/9/4K3X w"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("unknown piece 'X'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rank 10"), std::string::npos) << r.err;
  // Counting the tables the search wanted needs tables to count against.
  Result missing = RunCanju({"solve", "--json", "--tb-missing", "6", kMateIn5});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("--tb-missing needs --tb"), std::string::npos) << missing.err;
}

TEST_F(SolveCommands, SolveTakesAFileInPlaceOfAFen) {
  // Any file the importer reads: the start of its first record, or of the
  // one --record names; its title, source and claim come with the answer.
  const std::string dir = ::testing::TempDir() + "canju_solve_file_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/two.fen";
  {
    std::ofstream f(file);
    f << "3k5/9/9/9/9/9/9/9/4R4/4K4 w; id \"one\"; claim \"draw\"\n";
    f << kMateIn5 << "; id \"five\"; claim \"win\"\n";
  }
  Result first = RunCanju({"solve", "--json", "--nodes", "3000000", file});
  ASSERT_EQ(first.code, 0) << first.err;
  json j1 = OneObject(first);
  EXPECT_EQ(j1["title"], "one");
  EXPECT_EQ(j1["claimed"], "draw");
  EXPECT_EQ(j1["fen"].get<std::string>().rfind("3k5/9/9/9/9/9/9/9/4R4/4K4 w", 0), 0u) << j1["fen"];
  Result second = RunCanju({"solve", "--json", "--nodes", "3000000", "--record", "2", file});
  ASSERT_EQ(second.code, 0) << second.err;
  json j2 = OneObject(second);
  EXPECT_EQ(j2["title"], "five");
  EXPECT_EQ(j2["result"], "win");
  EXPECT_EQ(j2["mate_plies"], 5);
  Result text = RunCanju({"solve", "--nodes", "3000000", "--record", "2", file});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("five — " + file + "#2 (record 2 of 2"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Claimed:  win"), std::string::npos) << text.out;
  // A record that is not there, a folder, --record without a file: errors
  // that say what to do.
  Result none = RunCanju({"solve", "--record", "3", file});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find(file + ": has 2 record(s), no record 3"), std::string::npos) << none.err;
  Result folder = RunCanju({"solve", dir});
  EXPECT_EQ(folder.code, 2);
  EXPECT_NE(folder.err.find("a folder, not a position (`canju verify " + dir), std::string::npos) << folder.err;
  Result stray = RunCanju({"solve", "--record", "2", kMateIn5});
  EXPECT_EQ(stray.code, 2);
  EXPECT_NE(stray.err.find("--record needs a file"), std::string::npos) << stray.err;
  std::filesystem::remove_all(dir);
}

TEST_F(SolveCommands, VerifyJsonIsOneObjectPerPuzzle) {
  const std::string file = ::testing::TempDir() + "canju_verify_" + std::to_string(getpid()) + ".fen";
  {
    std::ofstream f(file);
    f << kMateIn5 << "; id \"five\"; claim \"win\"\n";
    f << kMateIn5 << "; id \"wrong\"; claim \"draw\"\n";
  }
  Result r = RunCanju({"verify", "--json", "--nodes", "3000000", file});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  std::vector<json> objects;
  for (const std::string& line : lines) {
    objects.push_back(json::parse(line, nullptr, false));
    ASSERT_TRUE(objects.back().is_object()) << line;
    for (const char* key : {"source", "title", "claimed", "verdict", "mate_plies", "cooks"})
      EXPECT_TRUE(objects.back().contains(key)) << key << " in " << line;
  }
  // (Verified at once by several threads, puzzles may come out in any order.)
  if (objects[0]["title"] != "five") std::swap(objects[0], objects[1]);
  EXPECT_EQ(objects[0]["title"], "five");
  EXPECT_EQ(objects[0]["claimed"], "win");
  EXPECT_EQ(objects[0]["verdict"], "confirmed");
  EXPECT_EQ(objects[0]["mate_plies"], 5);
  EXPECT_NE(objects[0]["source"].get<std::string>().find(file), std::string::npos);
  EXPECT_EQ(objects[0]["cooks_scope"], "all");  // (a full-width win: every first move tried)
  EXPECT_TRUE(objects[0]["book_end"].is_null()) << lines[0];  // (no book line)
  EXPECT_EQ(objects[0]["line_end"], "mate") << lines[0];
  EXPECT_EQ(objects[1]["title"], "wrong");
  EXPECT_EQ(objects[1]["claimed"], "draw");
  EXPECT_EQ(objects[1]["verdict"], "refuted");
  // Every cook is a first move after which Red still mates (replayed: legal).
  for (const std::string& cook : objects[0]["cooks"].get<std::vector<std::string>>()) {
    canju::Position p;
    EXPECT_TRUE(Play(kMateIn5, {cook}, &p)) << cook;
    EXPECT_EQ(objects[0]["cooks_check"][cook], "holds") << cook;  // its mate re-checked
  }
  EXPECT_EQ(objects[0]["cooks_check"].size(), objects[0]["cooks"].size());
  // Where each puzzle's seconds went: the phases add up to its seconds
  // (each rounded to the millisecond).
  for (const json& o : objects) {
    const json& ph = o["seconds_by_phase"];
    double sum = 0;
    for (const char* key : {"walk", "decide", "shortest", "line", "cooks", "audit"}) {
      ASSERT_TRUE(ph.contains(key) && ph[key].is_number()) << key << " in " << o.dump();
      EXPECT_GE(ph[key].get<double>(), 0) << key;
      sum += ph[key].get<double>();
    }
    EXPECT_NEAR(sum, o["seconds"].get<double>(), 0.01) << o.dump();
  }

  // Without --json: the verdict table at the end.
  Result table = RunCanju({"verify", "--quiet", "--nodes", "3000000", file});
  ASSERT_EQ(table.code, 0) << table.err;
  auto count = [&](const std::string& row) {
    bool in_table = false;  // (after the per-puzzle lines, which also begin with the verdict)
    for (const std::string& line : Lines(table.out)) {
      in_table |= line.rfind("verdict", 0) == 0;
      if (in_table && line.rfind(row, 0) == 0) return std::atoi(line.substr(row.size()).c_str());
    }
    return -1;
  };
  EXPECT_EQ(count("confirmed"), 1) << table.out;
  EXPECT_EQ(count("refuted"), 1) << table.out;
  EXPECT_EQ(count("unproven"), 0) << table.out;
  EXPECT_EQ(count("total"), 2) << table.out;
  // The confirmed mate and each of its cooks re-checked (the refuted claim is
  // a draw claim against a mate: re-checked as well).
  EXPECT_EQ(count("mates re-checked"), 2) << table.out;
  EXPECT_EQ(count("cooks re-checked"), static_cast<int>(objects[0]["cooks"].size() + objects[1]["cooks"].size()))
      << table.out;
  // The confirmed win's line ends in mate.
  EXPECT_EQ(count("lines (confirmed)"), 1) << table.out;
  EXPECT_NE(table.out.find("1 to mate, 0 to the loser's perpetual check, 0 stop before mate"), std::string::npos)
      << table.out;

  // The walk's options: the near rule turned off gives the same verdicts;
  // a share above the whole budget is refused, naming the option.
  Result off = RunCanju({"verify", "--json", "--nodes", "3000000", "--book-walk-near-open", "0",
                         "--book-walk-near-share", "0.5", file});
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_EQ(Lines(off.out).size(), 2u) << off.out;
  Result bad = RunCanju({"verify", "--json", "--book-walk-near-share", "1.5", file});
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--book-walk-near-share"), std::string::npos) << bad.err;
  std::remove(file.c_str());
}

TEST_F(SolveCommands, VerifyReadsTheClaimOfALineListFromTheEndOfItsLine) {
  // Line lists carry no claim: a line ending in bare kings is a draw claim;
  // one whose end says nothing takes --claim, or stays without a claim.
  const std::string file = ::testing::TempDir() + "canju_verify_claims_" + std::to_string(getpid()) + ".eglib";
  {
    std::ofstream f(file);
    f << "trade|4k4/4r4/9/4R4/9/9/9/9/9/3K5 w|e6e8,e9e8\n";
    f << "waiting|2bak1b2/4a4/9/9/9/9/9/9/4A4/2BAK1B2 w|c0a2\n";  // 士象全 both sides: no quick answer
  }
  auto by_title = [](const Result& r) {
    std::map<std::string, json> out;
    for (const std::string& line : Lines(r.out)) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object()) out[j["title"].get<std::string>()] = j;
    }
    return out;
  };
  Result plain = RunCanju({"verify", "--json", "--quiet", "--nodes", "300000", file});
  ASSERT_EQ(plain.code, 0) << plain.err;
  std::map<std::string, json> p = by_title(plain);
  ASSERT_EQ(p.size(), 2u) << plain.out;
  EXPECT_EQ(p["trade"]["claimed"], "draw");
  EXPECT_NE(p["trade"]["claim_from"].get<std::string>().find("a draw"), std::string::npos) << p["trade"];
  EXPECT_EQ(p["waiting"]["claimed"], "unknown");
  EXPECT_EQ(p["waiting"]["verdict"], "unproven");
  EXPECT_FALSE(p["waiting"].contains("claim_from"));

  Result with = RunCanju({"verify", "--json", "--quiet", "--nodes", "300000", "--claim", "win", file});
  ASSERT_EQ(with.code, 0) << with.err;
  std::map<std::string, json> w = by_title(with);
  ASSERT_EQ(w.size(), 2u) << with.out;
  EXPECT_EQ(w["trade"]["claimed"], "draw");  // the line's end before --claim
  EXPECT_EQ(w["waiting"]["claimed"], "win");
  EXPECT_NE(w["waiting"]["claim_from"].get<std::string>().find("taken as win"), std::string::npos) << w["waiting"];
  // Both lines stop before mate; the unproven win says the book judges
  // where its line ends, the draw claim does not.
  EXPECT_EQ(w["trade"]["book_end"], "before mate");
  EXPECT_EQ(w["waiting"]["book_end"], "before mate");
  ASSERT_EQ(w["waiting"]["verdict"], "unproven") << w["waiting"];
  ASSERT_FALSE(w["waiting"]["book_notes"].empty()) << w["waiting"];
  EXPECT_EQ(w["waiting"]["book_notes"][0].get<std::string>().rfind(
                "the book's main line stops before mate: after its 1 ply a position of 10 pieces (KAABBKAABB", 0),
            0u)
      << w["waiting"];
  for (const json& n : w["trade"]["book_notes"])
    EXPECT_EQ(n.get<std::string>().find("judges"), std::string::npos) << w["trade"];
  Result table = RunCanju({"verify", "--quiet", "--nodes", "300000", "--claim", "win", file});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("\n  (1 of them wins whose book line stops before mate"), std::string::npos) << table.out;

  // Verified in a store, the verdict keeps the claim it checked and where it
  // came from (the record itself still carries none).
  const std::string dir = file + ".store";
  std::filesystem::remove_all(dir);
  ASSERT_EQ(RunCanju({"import", "--quiet", "--store", dir, file}).code, 0);
  Result stored = RunCanju({"verify", "--store", dir, "--quiet", "--nodes", "300000"});
  ASSERT_EQ(stored.code, 0) << stored.err;
  Result list = RunCanju({"puzzles", "list", "--json", "--store", dir});
  int shown = 0;
  for (const std::string& line : Lines(list.out)) {
    json j = json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object()) << line;
    const std::string id = j["id"].get<std::string>();
    Result show = RunCanju({"puzzles", "show", "--json", "--store", dir, id});
    ASSERT_EQ(show.code, 0) << show.err;
    json s = json::parse(show.out, nullptr, false);
    ASSERT_TRUE(s.is_object()) << show.out;
    EXPECT_EQ(s["claimed"], "unknown") << show.out;
    if (j["title"] == "trade") {
      EXPECT_EQ(j["checked"], "draw") << line;  // the listing's summary has it too
      EXPECT_EQ(s["verdict"]["checked"], "draw") << show.out;
      EXPECT_NE(s["verdict"]["checked_from"].get<std::string>().find("a draw"), std::string::npos) << show.out;
      Result text = RunCanju({"puzzles", "show", "--store", dir, id});
      EXPECT_NE(text.out.find("Claim checked: draw ("), std::string::npos) << text.out;
    } else {
      EXPECT_TRUE(j["checked"].is_null()) << line;
      EXPECT_TRUE(s["verdict"]["checked"].is_null()) << show.out;  // no claim found, none given
      EXPECT_EQ(s["verdict"]["checked_from"], "") << show.out;
    }
    ++shown;
  }
  EXPECT_EQ(shown, 2);
  // The text listing's claim column: the checked claim in brackets where the
  // record states none.
  Result text_list = RunCanju({"puzzles", "list", "--store", dir});
  ASSERT_EQ(text_list.code, 0) << text_list.err;
  int rows = 0;
  for (const std::string& line : Lines(text_list.out)) {
    if (line.find("trade") != std::string::npos) {
      EXPECT_NE(line.find(" (draw) "), std::string::npos) << line;
      ++rows;
    } else if (line.find("waiting") != std::string::npos) {
      EXPECT_NE(line.find(" unknown "), std::string::npos) << line;
      ++rows;
    }
  }
  EXPECT_EQ(rows, 2) << text_list.out;
  std::filesystem::remove_all(dir);
  std::remove(file.c_str());
}

TEST_F(SolveCommands, PuzzlesShowNamesEachCookAndItsReCheck) {
  const std::string dir = ::testing::TempDir() + "canju_show_cooks_" + std::to_string(getpid());
  const std::string file = dir + ".fen";
  std::filesystem::remove_all(dir);
  {
    std::ofstream f(file);
    f << kMateIn5 << "; id \"five\"; claim \"win\"\n";
  }
  ASSERT_EQ(RunCanju({"import", "--quiet", "--store", dir, file}).code, 0);
  ASSERT_EQ(RunCanju({"verify", "--store", dir, "--quiet", "--nodes", "3000000"}).code, 0);
  Result list = RunCanju({"puzzles", "list", "--json", "--store", dir});
  const json j = OneObject(list);
  ASSERT_TRUE(j.is_object()) << list.out;
  Result show = RunCanju({"puzzles", "show", "--json", "--store", dir, j["id"].get<std::string>()});
  const json s = json::parse(show.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << show.out;
  ASSERT_FALSE(s["verdict"]["cooks"].empty()) << show.out;
  Result text = RunCanju({"puzzles", "show", "--store", dir, j["id"].get<std::string>()});
  // The shortest mate is proved: its line is called best play.
  ASSERT_EQ(s["verdict"]["mate_exact"], true) << show.out;
  EXPECT_NE(text.out.find("Best play: "), std::string::npos) << text.out;
  canju::Position start;
  ASSERT_TRUE(Play(kMateIn5, {}, &start));
  for (const auto& c : s["verdict"]["cooks"]) {
    const std::string cook = c.get<std::string>();
    EXPECT_EQ(s["verdict"]["cooks_check"][cook], "holds") << cook;
    // In Chinese notation, with its coordinates and its re-check beside it.
    canju::Move m;
    ASSERT_TRUE(canju::ParseCoordMove(start, cook, &m).ok()) << cook;
    EXPECT_NE(text.out.find(canju::MoveToHuman(start, m) + " (" + cook + ", re-checked)"), std::string::npos)
        << cook << "\n" << text.out;
  }
  std::filesystem::remove_all(dir);
  std::remove(file.c_str());
}

// `verify --set`: rule options applied to every puzzle; each verdict names
// them (in the JSON, and in the store, where `puzzles show` says so).
TEST_F(SolveCommands, VerifyTakesRuleOptionsAndEachVerdictNamesThem) {
  const std::string dir = ::testing::TempDir() + "canju_verify_rules_" + std::to_string(getpid());
  const std::string file = dir + ".fen";
  std::filesystem::remove_all(dir);
  {
    std::ofstream f(file);
    f << kMateIn5 << "; id \"five\"; claim \"win\"\n";
  }
  Result plain = RunCanju({"verify", "--json", "--quiet", "--nodes", "300000", file});
  ASSERT_EQ(plain.code, 0) << plain.err;
  const json p = OneObject(plain);
  ASSERT_TRUE(p.is_object()) << plain.out;
  EXPECT_EQ(p["rules"], json::array()) << plain.out;
  // (--set before the path: it takes one value, not the path too.)
  Result chase = RunCanju({"verify", "--json", "--quiet", "--nodes", "300000", "--set",
                           "rules.perpetual_chase=loss", file});
  ASSERT_EQ(chase.code, 0) << chase.err;
  const json c = OneObject(chase);
  ASSERT_TRUE(c.is_object()) << chase.out;
  EXPECT_EQ(c["rules"], json::array({"rules.perpetual_chase=loss"})) << chase.out;
  EXPECT_EQ(c["verdict"], "confirmed");
  EXPECT_EQ(c["mate_plies"], p["mate_plies"]);  // (a mate by checks: chasing plays no part)
  // A value the rule does not take is refused before anything is verified.
  Result bad = RunCanju({"verify", "--json", "--quiet", "--set", "rules.perpetual_chase=win", file});
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(bad.out.empty()) << bad.out;
  EXPECT_NE(bad.err.find("option 'rules.perpetual_chase=win'"), std::string::npos) << bad.err;
  // Stored: the verdict keeps its rules.
  ASSERT_EQ(RunCanju({"import", "--quiet", "--store", dir, file}).code, 0);
  ASSERT_EQ(RunCanju({"verify", "--store", dir, "--quiet", "--nodes", "300000", "--set",
                      "rules.perpetual_chase=loss"})
                .code,
            0);
  const json listed = OneObject(RunCanju({"puzzles", "list", "--json", "--store", dir}));
  ASSERT_TRUE(listed.is_object());
  const std::string id = listed["id"].get<std::string>();
  Result show = RunCanju({"puzzles", "show", "--json", "--store", dir, id});
  const json s = json::parse(show.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << show.out;
  EXPECT_EQ(s["verdict"]["rules"], json::array({"rules.perpetual_chase=loss"})) << show.out;
  EXPECT_EQ(s["verdict"]["line_end"], "mate") << show.out;
  Result text = RunCanju({"puzzles", "show", "--store", dir, id});
  EXPECT_NE(text.out.find("Rules: rules.perpetual_chase=loss (set for this verdict)"), std::string::npos) << text.out;
  std::filesystem::remove_all(dir);
  std::remove(file.c_str());
}

TEST_F(SolveCommands, VerifyStoresVerdictsAndRetriesTheUnprovenOnes) {
  const std::string dir = ::testing::TempDir() + "canju_verify_store_" + std::to_string(getpid());
  const std::string file = dir + ".fen";
  std::filesystem::remove_all(dir);
  {
    std::ofstream f(file);
    f << "3a5/9/5k3/9/9/9/6R2/9/9/2NK5 w; id \"three\"; claim \"win\"\n";
    // 梦入神机 三鳝登堂: a quiet win in 9 plies, about 1.3 M nodes.
    f << "2r2a3/c2C1k3/7P1/9/2b2N3/9/9/9/1p1p5/4K4 w; id \"nine\"; claim \"win\"\n";
  }
  ASSERT_EQ(RunCanju({"import", "--quiet", "--store", dir, file}).code, 0);
  auto verdicts = [&] {
    std::map<std::string, std::string> out;
    Result list = RunCanju({"puzzles", "list", "--json", "--store", dir});
    for (const std::string& line : Lines(list.out)) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object()) out[j["title"]] = j["verdict"].is_string() ? j["verdict"].get<std::string>() : "";
    }
    return out;
  };
  auto verified = [](const Result& r) {  // the "total" row of the verdict table
    for (const std::string& line : Lines(r.out))
      if (line.rfind("total", 0) == 0) return std::atoi(line.substr(5).c_str());
    return -1;
  };
  // 5,000 nodes: the mate in 3 is confirmed, the win in 9 left open.
  Result first = RunCanju({"verify", "--store", dir, "--quiet", "--nodes", "5000"});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_EQ(verified(first), 2) << first.out;
  auto v = verdicts();
  EXPECT_EQ(v["three"], "confirmed");
  EXPECT_EQ(v["nine"], "unproven");
  // Run again: both have a verdict, nothing is verified.
  Result again = RunCanju({"verify", "--store", dir, "--quiet", "--nodes", "5000"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("2 record(s) already have a verdict"), std::string::npos) << again.err;
  // The unproven one again, with a larger budget; the other keeps its verdict.
  Result retry = RunCanju({"verify", "--store", dir, "--quiet", "--retry-unproven", "--nodes", "3000000"});
  ASSERT_EQ(retry.code, 0) << retry.err;
  EXPECT_EQ(verified(retry), 1) << retry.out;
  EXPECT_NE(retry.out.find("nine"), std::string::npos);
  EXPECT_EQ(retry.out.find("three"), std::string::npos) << retry.out;
  v = verdicts();
  EXPECT_EQ(v["three"], "confirmed");
  EXPECT_EQ(v["nine"], "confirmed");
  // The stored verdict keeps what the solve knew of the mate and the cooks:
  // the listing says the mate is the shortest, `show` which first moves were
  // searched for cooks.
  Result list = RunCanju({"puzzles", "list", "--json", "--store", dir});
  int shown = 0;
  for (const std::string& line : Lines(list.out)) {
    json j = json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object()) << line;
    EXPECT_EQ(j["mate_exact"], true) << line;
    Result show = RunCanju({"puzzles", "show", "--json", "--store", dir, j["id"].get<std::string>()});
    ASSERT_EQ(show.code, 0) << show.err;
    json s = json::parse(show.out, nullptr, false);
    ASSERT_TRUE(s.is_object()) << show.out;
    EXPECT_EQ(s["verdict"]["mate_exact"], true) << show.out;
    EXPECT_EQ(s["verdict"]["cooks_scope"], "all") << show.out;  // full-width wins: every first move tried
    EXPECT_EQ(s["verdict"]["proof_check"], "holds") << show.out;   // the stored verdict keeps the re-check
    EXPECT_EQ(s["verdict"]["line_end"], "mate") << show.out;       // its line replayed from the position
    ASSERT_EQ(s["verdict"]["cooks_check"].size(), s["verdict"]["cooks"].size()) << show.out;  // and each cook's
    for (const auto& c : s["verdict"]["cooks"]) EXPECT_EQ(s["verdict"]["cooks_check"][c.get<std::string>()], "holds");
    Result text = RunCanju({"puzzles", "show", "--store", dir, j["id"].get<std::string>()});
    EXPECT_NE(text.out.find("re-checked"), std::string::npos) << text.out;
    ++shown;
  }
  EXPECT_EQ(shown, 2);
  // Verdicts reached under other rules answer another question: a run with
  // `--set` verifies every record again under its options and keeps the
  // verdict under the variant's own rules beside the new one; it then skips
  // its own, whatever the options' order, and so does a plain run.
  const std::vector<std::string> chase = {"--set", "rules.perpetual_chase=loss", "--set", "rules.perpetual_check=loss"};
  std::vector<std::string> args = {"verify", "--store", dir, "--nodes", "5000"};
  args.insert(args.end(), chase.begin(), chase.end());
  Result other = RunCanju(args);
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_EQ(verified(other), 2) << other.out;
  EXPECT_NE(other.err.find("2 record(s) have verdicts under other rules only"), std::string::npos) << other.err;
  args = {"verify", "--store", dir, "--nodes", "5000", "--set", "rules.perpetual_check=loss", "--set",
          "rules.perpetual_chase=loss"};
  Result same = RunCanju(args);
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_NE(same.err.find("2 record(s) already have a verdict under these rules"), std::string::npos) << same.err;
  Result plain = RunCanju({"verify", "--store", dir, "--nodes", "5000"});
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.err.find("2 record(s) already have a verdict"), std::string::npos) << plain.err;
  // Each record shows both: the main verdict under the variant's rules (the
  // one listed), the other with its options.
  v = verdicts();
  EXPECT_EQ(v["three"], "confirmed");
  EXPECT_EQ(v["nine"], "confirmed");  // listed by the main verdict, not by the one of 5,000 nodes under --set
  for (const std::string& line : Lines(RunCanju({"puzzles", "list", "--json", "--store", dir}).out)) {
    json j = json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object()) << line;
    Result show = RunCanju({"puzzles", "show", "--json", "--store", dir, j["id"].get<std::string>()});
    json s = json::parse(show.out, nullptr, false);
    ASSERT_TRUE(s.is_object()) << show.out;
    EXPECT_EQ(s["verdict"]["rules"], json::array()) << show.out;
    ASSERT_EQ(s["other_rules"].size(), 1u) << show.out;
    EXPECT_EQ(s["other_rules"][0]["rules"], json::array({"rules.perpetual_chase=loss", "rules.perpetual_check=loss"}));
    EXPECT_EQ(s["other_rules"][0]["kind"], j["title"] == "three" ? "confirmed" : "unproven") << show.out;
    Result text = RunCanju({"puzzles", "show", "--store", dir, j["id"].get<std::string>()});
    EXPECT_NE(text.out.find("Verdict under other rules:"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Rules: rules.perpetual_chase=loss, rules.perpetual_check=loss"), std::string::npos)
        << text.out;
  }
  // The listing carries both, and `list --rules` lists (and filters) by
  // the verdicts under those options.
  for (const std::string& line : Lines(RunCanju({"puzzles", "list", "--json", "--store", dir}).out)) {
    json j = json::parse(line, nullptr, false);
    ASSERT_TRUE(j.is_object()) << line;
    EXPECT_EQ(j["verdict_rules"], json::array()) << line;
    ASSERT_EQ(j["other_rules"].size(), 1u) << line;
    EXPECT_EQ(j["other_rules"][0]["rules"], json::array({"rules.perpetual_chase=loss", "rules.perpetual_check=loss"}));
    EXPECT_EQ(j["other_rules"][0]["verdict"], j["title"] == "three" ? "confirmed" : "unproven") << line;
  }
  Result under = RunCanju({"puzzles", "list", "--json", "--store", dir, "--rules", "rules.perpetual_check=loss",
                           "--rules", "rules.perpetual_chase=loss", "--verdict", "unproven"});
  ASSERT_EQ(under.code, 0) << under.err;
  const json nine = OneObject(under);
  EXPECT_EQ(nine["title"], "nine");
  EXPECT_EQ(nine["verdict"], "unproven");
  // (In their one spelling, sorted: CanonicalOverrides.)
  EXPECT_EQ(nine["verdict_rules"], json::array({"rules.perpetual_chase=loss", "rules.perpetual_check=loss"}));
  Result none = RunCanju({"puzzles", "list", "--store", dir, "--rules", "rules.stalemate=draw"});
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_NE(none.err.find("no puzzle listed has a verdict under rules.stalemate=draw"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("stored under: rules.perpetual_chase=loss, rules.perpetual_check=loss"), std::string::npos)
      << none.err;
  EXPECT_EQ(Lines(none.out).size(), 2u) << none.out;
  EXPECT_EQ(none.out.find("confirmed"), std::string::npos) << none.out;  // no verdict under those rules: "-"
  // `--redo` under the same options replaces that verdict only.
  args.push_back("--redo");
  Result redo = RunCanju(args);
  ASSERT_EQ(redo.code, 0) << redo.err;
  EXPECT_EQ(verified(redo), 2) << redo.out;
  for (const std::string& line : Lines(RunCanju({"puzzles", "list", "--json", "--store", dir}).out)) {
    json j = json::parse(line, nullptr, false);
    json s = json::parse(RunCanju({"puzzles", "show", "--json", "--store", dir, j["id"].get<std::string>()}).out);
    EXPECT_EQ(s["other_rules"].size(), 1u);
    EXPECT_EQ(s["verdict"]["kind"], "confirmed");
  }
  std::filesystem::remove_all(dir);
  std::remove(file.c_str());
}

TEST_F(SolveCommands, VerifyNamesAFileItCannotRead) {
  const std::string missing = ::testing::TempDir() + "canju_no_such_file.fen";
  Result r = RunCanju({"verify", "--json", missing});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(missing), r.err.rfind(missing)) << "named once: " << r.err;
}

}  // namespace
