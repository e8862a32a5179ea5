// The page in a real browser: headless Chromium driven through chromedriver's
// WebDriver HTTP API loads the page from an in-process server over a store
// made by the test, clicks through a solution and checks the DOM (current
// move, pieces on the board) against the API after every step. Saves a
// screenshot to ${CANJU_BINARY_DIR}/artifacts/serve.png.
//
// Needs Debian's chromium and chromium-driver (canju.sh installs them).
// Without them the test is skipped, unless CANJU_REQUIRE_BROWSER=1 (CI),
// where it fails.
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include "serve_fixture.h"

extern char** environ;

namespace canju {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kElementKey = "element-6066-11e4-a52e-4f735466cecf";

std::string FindProgram(const char* env, std::initializer_list<const char*> candidates) {
  if (const char* e = std::getenv(env); e && *e) return ::access(e, X_OK) == 0 ? e : "";
  for (const char* c : candidates)
    if (::access(c, X_OK) == 0) return c;
  return "";
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

std::string Base64Decode(const std::string& in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, acc = 0;
  for (char c : in) {
    const int v = value(c);
    if (v < 0) continue;  // padding, line breaks
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

// chromedriver as a child process and one browser session in it.
class Browser {
 public:
  ~Browser() { Quit(); }

  // Empty on success, else what went wrong.
  std::string Start(const std::string& driver, const std::string& chromium, const std::string& artifacts) {
    port_ = FreePort();
    if (port_ <= 0) return "no free port for chromedriver";
    profile_ = (fs::temp_directory_path() / ("canju-chromium-" + std::to_string(::getpid()))).string();
    fs::remove_all(profile_);
    const std::string log = artifacts + "/chromedriver.log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::string port_arg = "--port=" + std::to_string(port_);
    std::string log_arg = "--log-path=" + log;
    char* argv[] = {const_cast<char*>(driver.c_str()), const_cast<char*>(port_arg.c_str()),
                    const_cast<char*>(log_arg.c_str()), nullptr};
    const int rc = posix_spawn(&pid_, driver.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      pid_ = -1;
      return "cannot start " + driver + ": " + std::strerror(rc);
    }
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(60, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    for (;;) {
      auto res = client_->Get("/status");
      if (res && res->status == 200 && json::parse(res->body, nullptr, false).value("value", json::object()).value("ready", false))
        break;
      if (std::chrono::steady_clock::now() > deadline) return "chromedriver did not become ready (see " + log + ")";
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    json args = {"--headless",
                 "--no-sandbox",
                 "--disable-gpu",
                 "--disable-dev-shm-usage",
                 "--disable-quic",
                 "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update",
                 "--disable-sync",
                 "--disable-extensions",
                 "--hide-scrollbars",
                 "--force-device-scale-factor=1",
                 "--window-size=1360,1000",
                 "--user-data-dir=" + profile_};
    json caps = {{"capabilities",
                  {{"alwaysMatch",
                    {{"browserName", "chrome"}, {"goog:chromeOptions", {{"binary", chromium}, {"args", args}}}}}}}};
    json reply;
    if (std::string err = Call("POST", "/session", caps, &reply); !err.empty()) return err;
    session_ = reply["value"].value("sessionId", "");
    if (session_.empty()) return "no session id in " + reply.dump();
    return "";
  }

  void Quit() {
    if (!session_.empty()) {
      json ignored;
      Call("DELETE", "/session/" + session_, nullptr, &ignored);
      session_.clear();
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
    }
    if (!profile_.empty()) {
      std::error_code ec;
      fs::remove_all(profile_, ec);
    }
  }

  // One WebDriver command; empty string on success.
  std::string Call(const std::string& method, const std::string& path, const json& body, json* reply) {
    httplib::Result res = method == "GET"      ? client_->Get(path.c_str())
                          : method == "DELETE" ? client_->Delete(path.c_str())
                                               : client_->Post(path.c_str(), body.is_null() ? "{}" : body.dump(),
                                                               "application/json");
    if (!res) return method + " " + path + ": no reply (" + httplib::to_string(res.error()) + ")";
    *reply = json::parse(res->body, nullptr, false);
    if (res->status != 200) return method + " " + path + ": HTTP " + std::to_string(res->status) + " " + res->body;
    return "";
  }

  json Cmd(const std::string& method, const std::string& rel, const json& body = nullptr) {
    json reply;
    std::string err = Call(method, "/session/" + session_ + rel, body, &reply);
    EXPECT_TRUE(err.empty()) << err;
    return reply.is_object() && reply.contains("value") ? reply["value"] : json();
  }

  void Navigate(const std::string& url) { Cmd("POST", "/url", {{"url", url}}); }
  json Script(const std::string& js) { return Cmd("POST", "/execute/sync", {{"script", js}, {"args", json::array()}}); }

  // Polls a script until it returns true.
  bool WaitFor(const std::string& condition, int timeout_ms = 10000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      json v = Script("return !!(" + condition + ");");
      if (v.is_boolean() && v.get<bool>()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  std::string Find(const std::string& css) {
    json v = Cmd("POST", "/element", {{"using", "css selector"}, {"value", css}});
    return v.is_object() ? v.value(kElementKey, "") : "";
  }
  void Click(const std::string& css) {
    const std::string id = Find(css);
    ASSERT_FALSE(id.empty()) << "no element " << css;
    Cmd("POST", "/element/" + id + "/click", json::object());
  }
  void Type(const std::string& css, const std::string& text) {
    const std::string id = Find(css);
    ASSERT_FALSE(id.empty()) << "no element " << css;
    Cmd("POST", "/element/" + id + "/value", {{"text", text}});
  }
  // A key press (WebDriver key code, e.g. "\uE012" for ArrowLeft).
  void Key(const std::string& key) {
    json actions = {{"actions",
                     {{{"type", "key"},
                       {"id", "keyboard"},
                       {"actions", {{{"type", "keyDown"}, {"value", key}}, {{"type", "keyUp"}, {"value", key}}}}}}}};
    Cmd("POST", "/actions", actions);
  }
  std::string Screenshot() { return Base64Decode(Cmd("GET", "/screenshot").get<std::string>()); }

 private:
  pid_t pid_ = -1;
  int port_ = -1;
  std::string profile_;
  std::string session_;
  std::unique_ptr<httplib::Client> client_;
};

const std::string kArrowLeft = "\xEE\x80\x92";   // U+E012
const std::string kArrowRight = "\xEE\x80\x94";  // U+E014
const std::string kArrowDown = "\xEE\x80\x95";   // U+E015
const std::string kHome = "\xEE\x80\x91";        // U+E011
const std::string kEnd = "\xEE\x80\x90";         // U+E010

// The board as drawn: square name -> FEN letter of each piece element.
const char* kDomBoard =
    "const m = {}; for (const g of document.querySelectorAll('#board .piece')) m[g.dataset.square] = g.dataset.piece;"
    "return m;";

// The same from the API's node (board string, top rank first).
std::map<std::string, std::string> ExpectedBoard(const json& node, int files, int ranks, int rank_base) {
  std::map<std::string, std::string> m;
  const std::string b = node["board"];
  for (int i = 0; i < static_cast<int>(b.size()); ++i) {
    if (b[i] == '.') continue;
    const int f = i % files, r = ranks - 1 - i / files;
    m[std::string(1, static_cast<char>('a' + f)) + std::to_string(r + rank_base)] = std::string(1, b[i]);
  }
  return m;
}

class BrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string driver = FindProgram("CANJU_CHROMEDRIVER", {"/usr/bin/chromedriver"});
    const std::string chromium = FindProgram("CANJU_CHROMIUM", {"/usr/bin/chromium", "/usr/bin/chromium-browser"});
    const char* require = std::getenv("CANJU_REQUIRE_BROWSER");
    const bool required = require && std::string(require) == "1";
    if (driver.empty() || chromium.empty()) {
      if (required) FAIL() << "CANJU_REQUIRE_BROWSER=1 but chromium/chromedriver are missing (./canju.sh setup installs them)";
      GTEST_SKIP() << "chromium or chromedriver not installed (Debian packages chromium, chromium-driver; "
                      "./canju.sh setup installs them): browser test skipped";
    }
    artifacts_ = std::string(CANJU_BINARY_DIR) + "/artifacts";
    fs::create_directories(artifacts_);
    fx_.Build(first_verdict_ ? &*first_verdict_ : nullptr);
    fx_.Serve();
    if (HasFatalFailure()) return;
    const std::string err = browser_.Start(driver, chromium, artifacts_);
    if (!err.empty()) {
      if (required) FAIL() << err;
      // Installed but unable to start (no display libraries, sandbox): say why.
      FAIL() << "the browser did not start: " << err;
    }
  }

  // The first record's verdict, when a test needs another than the fixture's.
  std::optional<Verdict> first_verdict_;

  // Sets a list filter as a user's choice would (its change event).
  void ChooseFilter(const std::string& id, const std::string& value) {
    browser_.Script("const f = document.getElementById('" + id + "'); f.value = '" + value +
                    "'; f.dispatchEvent(new Event('change')); return 0;");
  }

  json ApiGet(const std::string& path) {
    httplib::Client cli("127.0.0.1", fx_.port());
    cli.set_read_timeout(120, 0);  // a solve takes up to its budget; httplib's default is 5 s
    auto res = cli.Get(path.c_str());
    EXPECT_TRUE(res && res->status == 200) << path;
    return res ? json::parse(res->body) : json();
  }

  std::string Url(const std::string& hash) { return "http://127.0.0.1:" + std::to_string(fx_.port()) + "/" + hash; }

  // After each step: the page shows node `id` — highlighted in the move
  // list with its notation, its pieces on the board, its FEN and comment.
  void ExpectShowing(const json& puzzle, int id) {
    SCOPED_TRACE("node " + std::to_string(id));
    ASSERT_TRUE(browser_.WaitFor("document.body.dataset.node === '" + std::to_string(id) + "'", 5000))
        << "page shows node " << browser_.Script("return document.body.dataset.node;").dump();
    const json& node = puzzle["tree"]["nodes"][id];
    const json& v = puzzle["variant_info"];
    json current = browser_.Script(
        "const c = document.querySelectorAll('#moves .move.current');"
        "return c.length === 1 ? {node: c[0].dataset.node, text: c[0].textContent} : {count: c.length};");
    if (id == 0) {
      EXPECT_EQ(current.value("count", -1), 0) << current.dump();
    } else {
      EXPECT_EQ(current.value("node", ""), std::to_string(id));
      EXPECT_NE(current.value("text", "").find(node["text"].get<std::string>()), std::string::npos) << current.dump();
    }
    json dom = browser_.Script(kDomBoard);
    std::map<std::string, std::string> shown;
    for (auto& [sq, letter] : dom.items()) shown[sq] = letter.get<std::string>();
    EXPECT_EQ(shown, ExpectedBoard(node, v["files"], v["ranks"], v["rank_base"]));
    EXPECT_EQ(browser_.Script("return document.getElementById('fen').value;"), node["fen"]);
    if (id != 0) {
      EXPECT_EQ(browser_.Script("return document.getElementById('comment').textContent;"), node["comment"]);
    }
  }

  int Child(const json& puzzle, int id, const std::string& move) {
    for (int c : puzzle["tree"]["nodes"][id]["children"])
      if (puzzle["tree"]["nodes"][c]["move"] == move) return c;
    ADD_FAILURE() << "no move " << move << " after node " << id;
    return 0;
  }

  testing_util::ServeFixture fx_;
  Browser browser_;
  std::string artifacts_;
};

TEST_F(BrowserTest, BrowsesCollectionsAndStepsThroughASolution) {
  // The collection: table rows, counts in the sidebar, search.
  browser_.Navigate(Url("#/c/%E6%B5%8B%E8%AF%95%E8%B0%B1"));  // 测试谱
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list'"));
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#puzzles tbody tr').length;"), 2);
  EXPECT_EQ(browser_.Script("return document.querySelector('#puzzles tbody tr a').textContent;"), "车胜将");
  EXPECT_EQ(browser_.Script("return document.querySelector('#collections a.active').textContent;"), "测试谱2");
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#collections li').length;"), 4);  // all + 3
  browser_.Type("#search", "错谱");
  ASSERT_TRUE(browser_.WaitFor("document.querySelectorAll('#puzzles tbody tr').length === 1 && "
                               "document.querySelector('#puzzles tbody tr a').textContent === '错谱'"));
  browser_.Script("const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'));"
                  "return 0;");
  ASSERT_TRUE(browser_.WaitFor("document.querySelectorAll('#puzzles tbody tr').length === 2"));
  // The material filter, with the collection's materials as suggestions.
  EXPECT_EQ(browser_.Script("return [...document.querySelectorAll('#materials option')].map(o => o.value).sort();"),
            json::array({"KRK", "KRPK"}));
  ChooseFilter("filter-material", "KRPK");
  ASSERT_TRUE(browser_.WaitFor("document.querySelectorAll('#puzzles tbody tr').length === 1 && "
                               "document.querySelector('#puzzles tbody tr a').textContent === '错谱'"));
  ChooseFilter("filter-material", "");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list' && "
                               "document.querySelectorAll('#puzzles tbody tr').length === 2"));

  // Open the puzzle from its row.
  const std::string id = fx_.id(0);
  const json puzzle = ApiGet("/api/puzzle/" + id);
  browser_.Click("#puzzles tbody tr[data-id='" + id + "'] a");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'puzzle'"));
  ExpectShowing(puzzle, 0);
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#board .piece').length;"), 3);
  EXPECT_EQ(browser_.Script("return document.querySelector('#board .piece[data-square=\"e1\"] text').textContent;"),
            "车");
  EXPECT_EQ(browser_.Script("return document.querySelector('#board .piece[data-square=\"d9\"] text').textContent;"),
            "将");
  // The move list in Chinese notation with the variations.
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#moves .move').length;"), 6);
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#moves .variation').length;"), 2);
  EXPECT_NE(browser_.Script("return document.getElementById('verdict').textContent;").get<std::string>().find("confirmed"),
            std::string::npos);
  EXPECT_NE(browser_.Script("return document.getElementById('proof-check').textContent;").get<std::string>().find("re-checked"),
            std::string::npos);
  EXPECT_NE(browser_.Script("return document.getElementById('cooks').textContent;").get<std::string>().find("车五平六 (re-checked 复核)"),
            std::string::npos);
  // A line of a proved shortest length is best play (otherwise "winning line").
  EXPECT_NE(browser_.Script("return document.getElementById('line').textContent;").get<std::string>().find("Best line 主变"),
            std::string::npos);
  // It ends in mate, so nothing follows it (line_end "mate").
  EXPECT_EQ(browser_.Script("return document.getElementById('line').textContent;").get<std::string>(), "Best line 主变: 车五进七");

  // Forward through the main line with the button.
  const int m1 = Child(puzzle, 0, "e1d1");
  const int m2 = Child(puzzle, m1, "d9e9");
  const int m3 = Child(puzzle, m2, "d1d8");
  const int var = Child(puzzle, m2, "d1d9");
  const int var2 = Child(puzzle, var, "e9d9");
  for (int expected : {m1, m2, m3}) {
    browser_.Click("#next");
    ExpectShowing(puzzle, expected);
  }
  EXPECT_EQ(browser_.Script("return document.getElementById('next').disabled;"), true);
  EXPECT_NE(browser_.Script("return document.getElementById('position-state').textContent;")
                .get<std::string>()
                .find("困毙"),
            std::string::npos);
  // Screenshot of the solved position, for the artefacts and docs/web.md.
  {
    std::ofstream out(artifacts_ + "/serve.png", std::ios::binary);
    const std::string png = browser_.Screenshot();
    ASSERT_GT(png.size(), 1000u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    out << png;
  }

  // Keys: back, forward, down to the variation, Home, End.
  browser_.Key(kArrowLeft);
  ExpectShowing(puzzle, m2);
  browser_.Key(kArrowRight);
  ExpectShowing(puzzle, m3);
  browser_.Key(kArrowDown);
  ExpectShowing(puzzle, var);
  browser_.Key(kArrowRight);
  ExpectShowing(puzzle, var2);  // the king took the rook
  EXPECT_EQ(browser_.Script("return document.querySelectorAll('#board .piece').length;"), 2);
  browser_.Key(kHome);
  ExpectShowing(puzzle, 0);
  browser_.Key(kEnd);
  ExpectShowing(puzzle, m3);

  // A variation picked in the move list; back with the button.
  browser_.Click("#moves .move[data-node='" + std::to_string(var2) + "']");
  ExpectShowing(puzzle, var2);
  browser_.Click("#prev");
  ExpectShowing(puzzle, var);
  browser_.Click("#first");
  ExpectShowing(puzzle, 0);

  // Flip: Black's king, at the top, goes to the bottom half.
  const char* king_y = "return +document.querySelector('#board .piece[data-square=\"d9\"] circle').getAttribute('cy');";
  const double y_before = browser_.Script(king_y).get<double>();
  browser_.Click("#flip");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.flipped === 'true'"));
  const double y_after = browser_.Script(king_y).get<double>();
  EXPECT_LT(y_before, 200);
  EXPECT_GT(y_after, 300);
  ExpectShowing(puzzle, 0);  // same pieces, same squares

  // Copy FEN: to the clipboard where allowed, else selected for Ctrl-C.
  browser_.Click("#copy-fen");
  EXPECT_TRUE(browser_.WaitFor("document.getElementById('copy-fen').textContent !== 'Copy FEN'", 3000));

  // The position shown, solved on demand: the page draws the server's answer.
  const json solved = ApiGet("/api/solve?seconds=5&fen=" + testing_util::UrlEncode(testing_util::kRookFen));
  ASSERT_EQ(solved["result"], "win") << solved.dump();
  std::string line_text;
  for (const json& m : solved["pv"]) line_text += (line_text.empty() ? "" : " ") + m["text"].get<std::string>();
  browser_.Click("#solve-button");
  ASSERT_TRUE(browser_.WaitFor("document.getElementById('solve-result') !== null", 20000));
  EXPECT_NE(browser_.Script("return document.getElementById('solve-result').textContent;").get<std::string>().find("win"),
            std::string::npos);
  const std::string shown_line = browser_.Script("return document.getElementById('solve-line').textContent;");
  EXPECT_NE(shown_line.find(line_text), std::string::npos) << shown_line << " / " << line_text;

  // No script error reached the page's error banner.
  EXPECT_EQ(browser_.Script("return document.getElementById('error').hidden;"), true)
      << browser_.Script("return document.getElementById('error').textContent;");

  // An illegal book move is shown, not played.
  browser_.Navigate(Url("#/p/" + fx_.id(1)));
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'puzzle' && document.querySelector('#moves .illegal')"));
  browser_.Click("#moves .illegal");
  ExpectShowing(ApiGet("/api/puzzle/" + fx_.id(1)), 0);
  EXPECT_EQ(browser_.Script("return document.getElementById('error').hidden;"), false);

  // A chess puzzle on a square board.
  const json chess = ApiGet("/api/puzzle/" + fx_.id(3));
  browser_.Navigate(Url("#/p/" + fx_.id(3)));
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'puzzle' && document.body.dataset.node === '0' && "
                               "document.querySelector('#board.square')"));
  ExpectShowing(chess, 0);
  browser_.Click("#next");
  ExpectShowing(chess, 1);
  EXPECT_EQ(browser_.Script("return document.querySelector('#board .piece[data-square=\"a8\"]').dataset.piece;"), "R");
}

// A record verified under other rule options too: the list marks its row,
// and the rules menu lists the collection by the verdicts under them.
class BrowserRulesTest : public BrowserTest {
 protected:
  BrowserRulesTest() {
    Verdict vd = testing_util::ServeTestRecords()[0].verdict;
    vd.pv = {"e1d1", "d9e9", "d1d8"};
    vd.mate_plies = 3;
    vd.solver = "canju-dfpn 2; rules.stalemate=draw";
    first_verdict_ = vd;
  }
};

TEST_F(BrowserRulesTest, ListsByTheVerdictsUnderOtherRules) {
  browser_.Navigate(Url("#/c/%E6%B5%8B%E8%AF%95%E8%B0%B1"));  // 测试谱
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list'"));
  const std::string row = "#puzzles tbody tr[data-id='" + fx_.id(0) + "']";
  EXPECT_EQ(browser_.Script("return document.querySelector(\"" + row + " .badge\").textContent;"), "+1 他规则");
  EXPECT_EQ(browser_.Script("return document.getElementById('filter-rules').hidden;"), false);
  EXPECT_EQ(browser_.Script("return [...document.querySelectorAll('#filter-rules option')].map(o => o.value);"),
            json::array({"", "rules.stalemate=draw"}));
  // Under those options only the first record has a verdict: the others read "not verified".
  ChooseFilter("filter-rules", "rules.stalemate=draw");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list' && "
                               "document.querySelectorAll('#puzzles tbody tr .verdict.none').length === 1"));
  EXPECT_NE(browser_.Script("return document.querySelector(\"" + row + " .verdict\").textContent;")
                .get<std::string>()
                .find("2步杀"),
            std::string::npos);
  ChooseFilter("filter-verdict", "none");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list' && "
                               "document.querySelectorAll('#puzzles tbody tr').length === 1"));
  EXPECT_EQ(browser_.Script("return document.querySelectorAll(\"" + row + "\").length;"), 0);
  // Back to the main verdicts: the record's own verdict, and the menu keeps its choices.
  ChooseFilter("filter-rules", "");
  ASSERT_TRUE(browser_.WaitFor("document.body.dataset.ready === 'list' && "
                               "document.getElementById('filter-rules').options.length === 2"));
  EXPECT_EQ(browser_.Script("return document.getElementById('error').hidden;"), true);
}

}  // namespace
}  // namespace canju
