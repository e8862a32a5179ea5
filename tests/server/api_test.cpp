// The JSON API over HTTP: a server on a free port over a store made by the
// test, queried with httplib's client. Bad requests must get 4xx JSON and
// leave the server answering.
#include <httplib.h>

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "serve_fixture.h"
#include "solver/solver.h"
#include "server/assets.h"
#include "variants/notation.h"
#include "variants/registry.h"

namespace canju {
namespace {

using nlohmann::json;
using testing_util::UrlEncode;
using testing_util::ServeFixture;

struct Reply {
  int status = 0;
  json body;
  std::string raw;
  std::string content_type;
};

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fx_.Build();
    fx_.Serve();
  }

  Reply Get(const std::string& path, const httplib::Headers& headers = {}) {
    httplib::Client cli("127.0.0.1", fx_.port());
    cli.set_url_encode(false);
    // A solve may take its whole budget (5 s by default) and more on a
    // loaded machine; httplib's own read timeout is 5 s.
    cli.set_read_timeout(120, 0);
    auto res = cli.Get(path.c_str(), headers);
    Reply r;
    if (!res) {
      ADD_FAILURE() << "no reply to " << path << ": " << httplib::to_string(res.error());
      return r;
    }
    r.status = res->status;
    r.raw = res->body;
    r.content_type = res->get_header_value("Content-Type");
    if (r.content_type.rfind("application/json", 0) == 0) r.body = json::parse(res->body, nullptr, false);
    return r;
  }

  // A 4xx reply in the API's error shape.
  void ExpectError(const std::string& path, int status) {
    Reply r = Get(path);
    EXPECT_EQ(r.status, status) << path << ": " << r.raw;
    ASSERT_TRUE(r.body.is_object()) << path << " answered " << r.content_type << ": " << r.raw;
    EXPECT_EQ(r.body.value("status", 0), status) << path;
    EXPECT_FALSE(r.body.value("error", std::string()).empty()) << path;
  }

  ServeFixture fx_;
};

const json* FindNode(const json& nodes, int parent, const std::string& move) {
  for (const json& n : nodes)
    if (n["parent"] == parent && n["move"] == move) return &n;
  return nullptr;
}

std::string Chinese(const std::string& fen, const std::string& move) {
  Position pos;
  EXPECT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), fen, &pos).ok()) << fen;
  Move m;
  EXPECT_TRUE(ParseCoordMove(pos, move, &m).ok()) << move;
  return MoveToChinese(pos, m);
}

std::string FenAfter(const std::string& variant, const std::string& fen, const std::vector<std::string>& moves) {
  Position pos;
  EXPECT_TRUE(Position::FromFen(BuiltinVariant(variant), fen, &pos).ok());
  std::vector<StateInfo> st(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    Move m;
    EXPECT_TRUE(ParseCoordMove(pos, moves[i], &m).ok()) << moves[i];
    pos.DoMove(m, &st[i]);
  }
  return pos.Fen();
}

TEST_F(ApiTest, InfoDescribesStoreAndBoards) {
  Reply r = Get("/api/info");
  ASSERT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(r.body["store"]["puzzles"], 4);
  EXPECT_EQ(r.body["store"]["collections"], 3);
  const json& xq = r.body["variants"]["xiangqi"];
  EXPECT_EQ(xq["files"], 9);
  EXPECT_EQ(xq["ranks"], 10);
  EXPECT_EQ(xq["style"], "xiangqi");
  EXPECT_TRUE(xq["river"].get<bool>());
  ASSERT_EQ(xq["palaces"].size(), 2u);
  EXPECT_EQ(xq["palaces"][0], (json{{"file0", 3}, {"rank0", 0}, {"file1", 5}, {"rank1", 2}}));
  EXPECT_EQ(xq["palaces"][1], (json{{"file0", 3}, {"rank0", 7}, {"file1", 5}, {"rank1", 9}}));
  EXPECT_EQ(xq["pieces"]["K"]["zh"], (json{"帅", "将"}));
  EXPECT_EQ(xq["pieces"]["C"]["zh"], (json{"炮", "炮"}));
  EXPECT_EQ(r.body["variants"]["chess"]["style"], "square");
  EXPECT_TRUE(r.body["tablebases"].empty());
}

TEST_F(ApiTest, CollectionsWithCounts) {
  Reply r = Get("/api/collections");
  ASSERT_EQ(r.status, 200) << r.raw;
  json expected = json::array({{{"name", "Chess problems"}, {"count", 1}},
                               {{"name", "别谱"}, {"count", 1}},
                               {{"name", "测试谱"}, {"count", 2}}});
  EXPECT_EQ(r.body["collections"], expected);
  EXPECT_EQ(r.body["total"], 4);
}

TEST_F(ApiTest, ListsSearchesAndFilters) {
  Reply r = Get("/api/puzzles?collection=" + UrlEncode("测试谱"));
  ASSERT_EQ(r.status, 200) << r.raw;
  ASSERT_EQ(r.body["total"], 2);
  const json& first = r.body["puzzles"][0];
  EXPECT_EQ(first["id"], fx_.id(0));
  EXPECT_EQ(first["number"], 1);
  EXPECT_EQ(first["title"], "车胜将");
  EXPECT_EQ(first["material"], "KRK");
  EXPECT_EQ(first["claimed"], "win");
  EXPECT_EQ(first["verdict"], "confirmed");
  EXPECT_EQ(first["appearances"], 1);  // 别谱 #7, colours swapped
  EXPECT_EQ(r.body["puzzles"][1]["number"], 2);
  EXPECT_EQ(r.body["puzzles"][1]["appearances"], 0);
  // Facets of the collection for the filter menus.
  EXPECT_EQ(r.body["facets"]["material"],
            (json::array({{{"value", "KRK"}, {"count", 1}}, {{"value", "KRPK"}, {"count", 1}}})))
      << r.body["facets"].dump();

  r = Get("/api/puzzles?q=" + UrlEncode("胜将"));
  ASSERT_EQ(r.body["total"], 1);
  EXPECT_EQ(r.body["puzzles"][0]["id"], fx_.id(0));
  r = Get("/api/puzzles?q=back-RANK");
  ASSERT_EQ(r.body["total"], 1);
  EXPECT_EQ(r.body["puzzles"][0]["variant"], "chess");

  EXPECT_EQ(Get("/api/puzzles?result=draw").body["total"], 1);
  EXPECT_EQ(Get("/api/puzzles?verdict=confirmed").body["total"], 1);
  EXPECT_EQ(Get("/api/puzzles?verdict=none").body["total"], 3);
  EXPECT_EQ(Get("/api/puzzles?material=KRK").body["total"], 1);
  EXPECT_EQ(Get("/api/puzzles?variant=chess").body["total"], 1);
  EXPECT_EQ(Get("/api/puzzles?collection=" + UrlEncode("测试谱") + "&result=win&verdict=confirmed").body["total"], 1);

  r = Get("/api/puzzles?limit=2&offset=1");
  EXPECT_EQ(r.body["total"], 4);
  EXPECT_EQ(r.body["puzzles"].size(), 2u);
  EXPECT_EQ(Get("/api/puzzles?offset=10").body["puzzles"].size(), 0u);
}

// A verdict reached under `verify --set` options: its line is replayed under
// them. The book's line ends with Black stalemated — a mate where stalemate
// loses, open where it is a draw. The record keeps its verdict under the
// variant's own rules as the main one; the other goes in `other_rules`.
TEST(ApiVerdictRules, TheLineEndIsReadUnderTheVerdictsRules) {
  for (const bool drawn : {false, true}) {
    SCOPED_TRACE(drawn ? "stalemate draws" : "the variant's own rules");
    Verdict vd = testing_util::ServeTestRecords()[0].verdict;
    vd.pv = {"e1d1", "d9e9", "d1d8"};
    vd.mate_plies = 3;
    vd.solver = drawn ? "canju-dfpn 2; rules.stalemate=draw" : "canju-dfpn 2";
    ServeFixture fx;
    fx.Build(&vd);
    fx.Serve();
    httplib::Client cli("127.0.0.1", fx.port());
    cli.set_read_timeout(120, 0);
    auto res = cli.Get(("/api/puzzle/" + fx.id(0)).c_str());
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json p = json::parse(res->body);
    ASSERT_EQ(p["other_rules"].size(), drawn ? 1u : 0u);
    const json v = drawn ? p["other_rules"][0] : p["verdict"];
    EXPECT_EQ(v["line_end"], drawn ? "open" : "mate");
    EXPECT_EQ(v["rules"], drawn ? json::array({"rules.stalemate=draw"}) : json::array());
    ASSERT_EQ(v["pv"].size(), 3u);
    if (drawn) {
      // The main verdict stays the record's own, under the variant's rules.
      EXPECT_EQ(p["verdict"]["rules"], json::array());
      EXPECT_EQ(p["verdict"]["pv"].size(), testing_util::ServeTestRecords()[0].verdict.pv.size());
    }
    // The list's rows say which verdicts the record has under other rules.
    auto list = cli.Get("/api/puzzles");
    ASSERT_TRUE(list);
    ASSERT_EQ(list->status, 200) << list->body;
    bool seen = false;
    const json rows = json::parse(list->body)["puzzles"];
    for (const json& row : rows) {
      if (row["id"] != fx.id(0)) continue;
      seen = true;
      EXPECT_EQ(row["verdict_rules"], json::array());
      ASSERT_EQ(row["other_rules"].size(), drawn ? 1u : 0u) << row.dump();
      if (drawn) {
        EXPECT_EQ(row["other_rules"][0]["rules"], json::array({"rules.stalemate=draw"}));
        EXPECT_EQ(row["other_rules"][0]["mate_plies"], 3);
      }
    }
    EXPECT_TRUE(seen);
    // `rules` lists by the verdicts under those options: only the record
    // verified under them has one, and the verdict filter reads it.
    auto under = cli.Get("/api/puzzles?rules=rules.stalemate%3Ddraw&verdict=none");
    ASSERT_TRUE(under);
    ASSERT_EQ(under->status, 200) << under->body;
    const json none = json::parse(under->body);
    EXPECT_EQ(none["total"], drawn ? 3 : 4) << under->body;
    for (const json& row : none["puzzles"]) {
      EXPECT_NE(row["id"], drawn ? fx.id(0) : "") << row.dump();
      EXPECT_EQ(row["verdict_rules"], json::array({"rules.stalemate=draw"}));
      EXPECT_EQ(row["other_rules"], json::array());
    }
    if (drawn) {
      auto hit = cli.Get("/api/puzzles?rules=%20rules.stalemate%3Ddraw%20;&verdict=confirmed");
      ASSERT_TRUE(hit);
      const json one = json::parse(hit->body);
      ASSERT_EQ(one["total"], 1) << hit->body;
      EXPECT_EQ(one["puzzles"][0]["id"], fx.id(0));
      EXPECT_EQ(one["puzzles"][0]["mate_plies"], 3);
      // The options as the variant reads them, not as text: spaces around
      // '=' and '.', and a key set twice (the last setting holds).
      for (const char* spelling : {"rules%20.%20stalemate%20%3D%20draw", "rules.stalemate%3Dloss;rules.stalemate%3Ddraw"}) {
        auto same = cli.Get((std::string("/api/puzzles?verdict=confirmed&rules=") + spelling).c_str());
        ASSERT_TRUE(same);
        const json found = json::parse(same->body);
        EXPECT_EQ(found["total"], 1) << spelling << ": " << same->body;
        EXPECT_FALSE(found.contains("rules_note")) << same->body;
      }
    }
    // The rules facet names the options verdicts are stored under, as the
    // value `rules` takes; where no record has a verdict under the asked
    // options, rules_note says which are stored.
    EXPECT_EQ(none["facets"]["rules"],
              drawn ? json::array({{{"value", "rules.stalemate=draw"}, {"count", 1}}}) : json::array())
        << under->body;
    EXPECT_EQ(none.contains("rules_note"), !drawn) << under->body;
    auto misspelt = cli.Get("/api/puzzles?rules=rules.stalemate%3Ddrew");
    ASSERT_TRUE(misspelt);
    ASSERT_EQ(misspelt->status, 200) << misspelt->body;
    const json note = json::parse(misspelt->body);
    EXPECT_EQ(note["total"], 4);
    ASSERT_TRUE(note.contains("rules_note")) << misspelt->body;
    const std::string text = note["rules_note"];
    EXPECT_NE(text.find("'rules.stalemate=drew'"), std::string::npos) << text;
    EXPECT_EQ(text.find("'rules.stalemate=draw'") != std::string::npos, drawn) << text;
  }
}

TEST_F(ApiTest, PuzzleHasTreeNotationVerdictAndAppearances) {
  Reply r = Get("/api/puzzle/" + fx_.id(0));
  ASSERT_EQ(r.status, 200) << r.raw;
  const json& p = r.body;
  EXPECT_EQ(p["title"], "车胜将");
  EXPECT_EQ(p["collection"], "测试谱");
  EXPECT_EQ(p["comment"], "红先胜");
  EXPECT_EQ(p["variant_info"]["id"], "xiangqi");

  const json& nodes = p["tree"]["nodes"];
  ASSERT_EQ(nodes.size(), 7u) << nodes.dump();
  EXPECT_EQ(p["tree"]["illegal"], 0);
  const json& root = nodes[0];
  EXPECT_EQ(root["fen"], testing_util::kRookFen);
  EXPECT_EQ(root["board"].get<std::string>().size(), 90u);
  EXPECT_EQ(root["board"].get<std::string>().substr(0, 9), "...k.....");
  EXPECT_EQ(root["children"].size(), 2u);

  const json* m1 = FindNode(nodes, 0, "e1d1");
  ASSERT_NE(m1, nullptr);
  EXPECT_EQ((*m1)["text"], "车五平六");
  EXPECT_EQ((*m1)["wxf"], "R5.6");
  EXPECT_EQ((*m1)["from"], "e1");
  EXPECT_EQ((*m1)["to"], "d1");
  EXPECT_EQ((*m1)["side"], "red");
  EXPECT_EQ((*m1)["number"], 1);
  EXPECT_EQ((*m1)["comment"], "将军");
  EXPECT_EQ((*m1)["state"], "check");
  EXPECT_EQ((*m1)["fen"], FenAfter("xiangqi", testing_util::kRookFen, {"e1d1"}));
  EXPECT_EQ(root["children"][0], (*m1)["id"]);  // the main line first

  const json* m2 = FindNode(nodes, (*m1)["id"], "d9e9");
  ASSERT_NE(m2, nullptr);
  EXPECT_EQ((*m2)["text"], Chinese(FenAfter("xiangqi", testing_util::kRookFen, {"e1d1"}), "d9e9"));
  EXPECT_EQ((*m2)["side"], "black");
  EXPECT_EQ((*m2)["number"], 1);
  ASSERT_EQ((*m2)["children"].size(), 2u);
  const json* m3 = FindNode(nodes, (*m2)["id"], "d1d8");
  ASSERT_NE(m3, nullptr);
  EXPECT_EQ((*m3)["text"], "车六进七");
  EXPECT_EQ((*m3)["number"], 2);
  EXPECT_EQ((*m3)["state"], "stalemate");
  EXPECT_EQ((*m3)["comment"], "困毙，红胜");
  const json* var = FindNode(nodes, (*m2)["id"], "d1d9");
  ASSERT_NE(var, nullptr);
  EXPECT_EQ((*var)["children"].size(), 1u);
  EXPECT_NE(FindNode(nodes, 0, "f0f1"), nullptr);

  const json& v = p["verdict"];
  EXPECT_EQ(v["kind"], "confirmed");
  EXPECT_EQ(v["proven"], "win");
  EXPECT_EQ(v["mate_plies"], 1);
  ASSERT_EQ(v["pv"].size(), 1u);
  EXPECT_EQ(v["pv"][0]["text"], "车五进七");
  EXPECT_EQ(v["line_end"], "mate");  // the stored line replayed from the position
  ASSERT_EQ(v["cooks"].size(), 1u);
  EXPECT_EQ(v["cooks"][0]["text"], "车五平六");
  EXPECT_EQ(v["cooks"][0]["proof_check"], "holds");
  EXPECT_EQ(v["proof_check"], "holds");
  EXPECT_EQ(v["book_notes"][0], "车五进七 wins at once");

  ASSERT_EQ(p["appearances"].size(), 1u);
  EXPECT_EQ(p["appearances"][0]["id"], fx_.id(2));
  EXPECT_EQ(p["appearances"][0]["collection"], "别谱");
  EXPECT_EQ(p["appearances"][0]["relation"], "colours swapped");
}

TEST_F(ApiTest, BlackToMoveNumbersFromOne) {
  Reply r = Get("/api/puzzle/" + fx_.id(2));
  ASSERT_EQ(r.status, 200) << r.raw;
  const json& nodes = r.body["tree"]["nodes"];
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0]["to_move"], "black");
  EXPECT_EQ(nodes[1]["side"], "black");
  EXPECT_EQ(nodes[1]["number"], 1);
  EXPECT_EQ(nodes[2]["side"], "red");
  EXPECT_EQ(nodes[2]["number"], 2);
  EXPECT_EQ(nodes[3]["state"], "stalemate");
}

TEST_F(ApiTest, IllegalMoveInTreeIsReportedNotFatal) {
  Reply r = Get("/api/puzzle/" + fx_.id(1));
  ASSERT_EQ(r.status, 200) << r.raw;
  const json& tree = r.body["tree"];
  EXPECT_EQ(tree["illegal"], 1);
  ASSERT_EQ(tree["nodes"].size(), 2u);
  EXPECT_EQ(tree["nodes"][1]["move"], "e1f2");
  EXPECT_FALSE(tree["nodes"][1].value("error", std::string()).empty());
  EXPECT_FALSE(tree["nodes"][1].contains("fen"));
}

TEST_F(ApiTest, ChessPuzzleUsesSanAndSquareBoard) {
  Reply r = Get("/api/puzzle/" + fx_.id(3));
  ASSERT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(r.body["variant_info"]["style"], "square");
  EXPECT_EQ(r.body["variant_info"]["rank_base"], 1);
  const json& n = r.body["tree"]["nodes"][1];
  Position pos;
  ASSERT_TRUE(Position::FromFen(BuiltinVariant("chess"), testing_util::kChessFen, &pos).ok());
  Move m;
  ASSERT_TRUE(ParseCoordMove(pos, "a1a8", &m).ok());
  EXPECT_EQ(n["text"], MoveToSan(pos, m));
  EXPECT_EQ(n["text"].get<std::string>().substr(0, 3), "Ra8");
  EXPECT_EQ(n["state"], "checkmate");
  EXPECT_EQ(n["from"], "a1");
  EXPECT_FALSE(n.contains("wxf"));
}

TEST_F(ApiTest, IdsByPrefixAndBadIds) {
  Reply r = Get("/api/puzzle/" + fx_.id(0).substr(0, 8));
  ASSERT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(r.body["id"], fx_.id(0));
  ExpectError("/api/puzzle/abc", 400);                         // too short
  ExpectError("/api/puzzle/zzzzzzzz", 400);                    // not hex
  ExpectError("/api/puzzle/" + std::string(40, 'a'), 400);     // too long
  std::string missing = fx_.id(0);
  missing[15] = missing[15] == '0' ? '1' : '0';
  ExpectError("/api/puzzle/" + missing, 404);
  ExpectError("/api/puzzle/..%2F..%2Fetc%2Fpasswd", 400);
  ExpectError("/api/puzzle/%FF%FE", 400);
}

TEST_F(ApiTest, BadParametersGet400) {
  ExpectError("/api/puzzles?limit=100000", 400);
  ExpectError("/api/puzzles?limit=0", 400);
  ExpectError("/api/puzzles?offset=-1", 400);
  ExpectError("/api/puzzles?offset=1e3", 400);
  ExpectError("/api/puzzles?result=maybe", 400);
  ExpectError("/api/puzzles?verdict=great", 400);
  ExpectError("/api/puzzles?q=%FF", 400);
  ExpectError("/api/puzzles?q=" + std::string(300, 'x'), 400);
  ExpectError("/api/puzzles?collection=" + UrlEncode("没有这个谱"), 404);
  ExpectError("/api/nothing", 404);
  ExpectError("/api/probe", 400);
  ExpectError("/api/probe?fen=" + UrlEncode("not a fen"), 400);
  ExpectError("/api/probe?fen=" + UrlEncode("3k5/9/9/9/9/9/9/9/4R4/5K3 w") + "&variant=nosuch", 400);
  // A variant given as a path would make the server read that file.
  ExpectError("/api/probe?fen=x&variant=" + UrlEncode("/etc/passwd"), 400);
  ExpectError("/api/probe?fen=x&variant=" + UrlEncode("../variants/defs/xiangqi.ini"), 400);
  ExpectError("/api/probe?fen=" + std::string(1000, '9'), 400);
  // Kings facing each other: FromFen rejects it.
  ExpectError("/api/probe?fen=" + UrlEncode("4k4/9/9/9/9/9/9/9/9/4K4 w"), 400);
  // Still answering.
  EXPECT_EQ(Get("/api/info").status, 200);
}

TEST_F(ApiTest, ProbeWithoutTablesSaysSo) {
  Reply r = Get("/api/probe?fen=" + UrlEncode(testing_util::kRookFen) + "&variant=xiangqi");
  ASSERT_EQ(r.status, 200) << r.raw;
  EXPECT_FALSE(r.body["available"].get<bool>());
  EXPECT_EQ(r.body["material"], "KRK");
  EXPECT_NE(r.body["reason"].get<std::string>().find("no tablebases"), std::string::npos) << r.raw;
}

// The solver on a position: a mate in one by a rook (the king cannot step
// off the d-file's end: e8 and d8 are the rook's, the file faces Red's king).
TEST_F(ApiTest, SolveGivesTheMateItsLineAndFirstMoves) {
  const std::string fen = "3k5/9/4R4/9/9/9/9/9/9/4K4 w - - 0 1";
  Reply r = Get("/api/solve?seconds=5&fen=" + UrlEncode(fen));
  ASSERT_EQ(r.status, 200) << r.raw;
  EXPECT_EQ(r.body["result"], "win") << r.raw;
  EXPECT_EQ(r.body["mate_plies"], 1) << r.raw;
  EXPECT_EQ(r.body["mate_exact"], true) << r.raw;
  EXPECT_EQ(r.body["line_end"], "mate") << r.raw;
  EXPECT_EQ(r.body["material"], "KRK");
  EXPECT_EQ(r.body["seconds_limit"], 5);
  EXPECT_EQ(r.body["tables"], nullptr);  // the fixture serves no tables
  EXPECT_EQ(r.body["stopped"], false);
  ASSERT_EQ(r.body["pv"].size(), 1u) << r.raw;
  EXPECT_EQ(r.body["pv"][0]["move"], "e7d7");
  EXPECT_EQ(r.body["pv"][0]["text"], Chinese(fen, "e7d7"));
  ASSERT_EQ(r.body["winning_first_moves"].size(), 1u) << r.raw;
  EXPECT_EQ(r.body["winning_first_moves"][0]["move"], "e7d7");

  // A longer one against the library's own answer: the same plies, the same line.
  Reply k = Get("/api/solve?fen=" + UrlEncode(testing_util::kRookFen));
  ASSERT_EQ(k.status, 200) << k.raw;
  Position pos;
  ASSERT_TRUE(Position::FromFen(BuiltinVariant("xiangqi"), testing_util::kRookFen, &pos).ok());
  SolveOptions o;
  o.max_seconds = server::kDefaultSolveSeconds;
  const SolveResult direct = Solve(pos, o);
  ASSERT_EQ(direct.result, Claim::kWin);
  ASSERT_TRUE(direct.mate_exact);
  EXPECT_EQ(k.body["result"], "win");
  EXPECT_EQ(k.body["mate_plies"], direct.mate_plies);
  ASSERT_EQ(k.body["pv"].size(), direct.pv.size()) << k.raw;
  for (size_t i = 0; i < direct.pv.size(); ++i)
    EXPECT_EQ(k.body["pv"][i]["move"], MoveToCoord(BuiltinVariant("xiangqi"), direct.pv[i])) << i;
}

TEST_F(ApiTest, SolveRefusesBadParameters) {
  const std::string rook = UrlEncode(testing_util::kRookFen);
  ExpectError("/api/solve", 400);
  ExpectError("/api/solve?fen=" + UrlEncode("not a fen"), 400);
  ExpectError("/api/solve?fen=" + rook + "&seconds=0", 400);
  ExpectError("/api/solve?fen=" + rook + "&seconds=" + std::to_string(server::kMaxSolveSeconds + 1), 400);
  ExpectError("/api/solve?fen=" + rook + "&seconds=2.5", 400);
  ExpectError("/api/solve?fen=" + rook + "&variant=" + UrlEncode("/etc/passwd"), 400);
  // Black (not to move) in check.
  ExpectError("/api/solve?fen=" + UrlEncode("3k5/9/9/9/9/9/9/9/9/3RK4 w"), 400);
  EXPECT_EQ(Get("/api/info").status, 200);
}

// One solve at a time; cancelling stops the running one at once (before its
// limit) with what it has, and refuses new ones until allowed again.
TEST_F(ApiTest, OneSolveAtATimeAndCancelStopsIt) {
  const std::string start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
  server::ApiReply first;
  std::atomic<bool> done{false};
  std::thread runner([&] {
    // Until it holds the solver the prober below may (each for a second).
    do first = fx_.api().Solve({{"fen", start}, {"seconds", std::to_string(server::kMaxSolveSeconds)}});
    while (first.status == 503 && !done);
  });
  bool refused = false;
  for (int i = 0; i < 100 && !refused; ++i) refused = fx_.api().Solve({{"fen", start}, {"seconds", "1"}}).status == 503;
  EXPECT_TRUE(refused) << "a second solve ran beside the first";
  done = true;
  fx_.api().CancelSolves();
  runner.join();
  ASSERT_EQ(first.status, 200) << first.body.dump();
  EXPECT_EQ(first.body["stopped"], true);
  EXPECT_EQ(first.body["result"], "unknown");
  EXPECT_NE(first.body["note"].get<std::string>().find("stopped"), std::string::npos) << first.body.dump();
  EXPECT_LT(first.body["seconds"].get<double>(), server::kMaxSolveSeconds);
  EXPECT_EQ(fx_.api().Solve({{"fen", start}, {"seconds", "1"}}).status, 503);
  fx_.api().AllowSolves();
  EXPECT_EQ(fx_.api().Solve({{"fen", testing_util::kRookFen}, {"seconds", "1"}}).status, 200);
}

TEST_F(ApiTest, HttpLevelErrorsAreJson) {
  httplib::Client cli("127.0.0.1", fx_.port());
  auto post = cli.Post("/api/info", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(json::parse(post->body)["status"], 405);
  auto del = cli.Delete("/api/puzzle/" + fx_.id(0));
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 405);
  // A URI longer than httplib takes.
  Reply huge = Get("/api/puzzles?q=" + std::string(20000, 'x'));
  EXPECT_GE(huge.status, 400);
  EXPECT_LT(huge.status, 500);
  // Another site reaching us through DNS rebinding.
  auto rebound = cli.Get("/api/info", {{"Host", "evil.example:80"}});
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->status, 403);
  EXPECT_EQ(Get("/api/info", {{"Host", "localhost:1234"}}).status, 200);
}

TEST_F(ApiTest, ServesOnlyTheEmbeddedPage) {
  Reply index = Get("/");
  ASSERT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.raw.find("<svg"), std::string::npos);  // the board
  EXPECT_EQ(Get("/app.js").status, 200);
  EXPECT_EQ(Get("/style.css").status, 200);
  EXPECT_EQ(Get("/index.html").raw, index.raw);
  for (const char* path : {"/../CMakeLists.txt", "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "/server/api.cpp",
                           "/web/index.html", "/nothing.js"}) {
    Reply r = Get(path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.raw.find("root:"), std::string::npos) << path;
  }
  EXPECT_EQ(server::FindWebAsset("/"), server::FindWebAsset("/index.html"));
  EXPECT_EQ(server::FindWebAsset("/../index.html"), nullptr);
  EXPECT_EQ(server::FindWebAsset("index.html"), nullptr);
}

TEST_F(ApiTest, ManyClientsAtOnce) {
  std::atomic<int> ok{0}, bad{0};
  std::vector<std::thread> threads;
  const std::vector<std::string> paths = {"/api/info", "/api/collections", "/api/puzzles?limit=3",
                                          "/api/puzzle/" + fx_.id(0), "/api/puzzle/zz", "/"};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      httplib::Client cli("127.0.0.1", fx_.port());
      for (int i = 0; i < 30; ++i) {
        const std::string& p = paths[(t + i) % paths.size()];
        auto res = cli.Get(p.c_str());
        (res && (res->status == 200 || (p == "/api/puzzle/zz" && res->status == 400)) ? ok : bad)++;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(ok.load(), 240);
}

TEST_F(ApiTest, StopsAndStartsAgain) {
  const int first = fx_.port();
  fx_.server().Stop();
  httplib::Client cli("127.0.0.1", first);
  cli.set_connection_timeout(1, 0);
  EXPECT_FALSE(cli.Get("/api/info"));
  server::Server::Options o;
  o.port = 0;
  ASSERT_TRUE(fx_.server().Start(o).ok());
  EXPECT_EQ(Get("/api/info").status, 200);
  // A busy port is an error, not a crash.
  server::Server other(&fx_.api());
  o.port = fx_.port();
  Status st = other.Start(o);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(std::to_string(fx_.port())), std::string::npos);
}

// Garbage in every parameter of every endpoint: always a JSON reply, never
// a 5xx, and the server still answers afterwards.
TEST_F(ApiTest, RandomRequestsGetJsonAnswers) {
  std::mt19937 rng(20241129);
  const std::vector<std::string> bases = {"/api/puzzles?collection=", "/api/puzzles?q=",     "/api/puzzles?material=",
                                          "/api/puzzles?result=",     "/api/puzzles?limit=", "/api/puzzles?offset=",
                                          "/api/probe?fen=",          "/api/probe?fen=x&variant=", "/api/puzzle/"};
  const std::string alphabet = "0123456789abcdefKRNBAPkrnbap/ wb-%&=?.#";
  httplib::Client cli("127.0.0.1", fx_.port());
  cli.set_url_encode(false);
  for (int i = 0; i < 300; ++i) {
    std::string path = bases[rng() % bases.size()];
    const int len = static_cast<int>(rng() % 60);
    for (int k = 0; k < len; ++k) {
      if (rng() % 8 == 0) {
        static const char kHex[] = "0123456789ABCDEF";
        const unsigned b = rng() % 256;
        path += '%';
        path += kHex[b >> 4];
        path += kHex[b & 15];
      } else {
        const char c = alphabet[rng() % alphabet.size()];
        path += c == ' ' ? std::string("%20") : c == '#' ? std::string("%23") : std::string(1, c);
      }
    }
    auto res = cli.Get(path.c_str());
    ASSERT_TRUE(res) << path;
    EXPECT_LT(res->status, 500) << path << " -> " << res->body;
    EXPECT_FALSE(json::parse(res->body, nullptr, false).is_discarded()) << path << " -> " << res->body;
  }
  EXPECT_EQ(Get("/api/info").status, 200);
}

TEST(ApiOpen, MissingStoreAndTablesAreErrors) {
  std::unique_ptr<server::Api> api;
  server::Api::Options o;
  o.store_dir = "/nonexistent/canju-store";
  Status st = server::Api::Open(o, &api);
  EXPECT_EQ(st.code(), Status::Code::kNotFound) << st.ToString();
  EXPECT_NE(st.message().find("/nonexistent/canju-store"), std::string::npos) << st.ToString();

  ServeFixture fx;
  fx.Build();
  o.store_dir = fx.dir();
  o.tb_dir = "/nonexistent/canju-tables";
  st = server::Api::Open(o, &api);
  EXPECT_EQ(st.code(), Status::Code::kNotFound) << st.ToString();
  EXPECT_NE(st.message().find("/nonexistent/canju-tables"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace canju
