// canju variants | show | moves | perft
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "variants/display.h"
#include "variants/notation.h"
#include "variants/perft.h"

namespace canju::cli {
namespace {

// A FEN given as one quoted argument or as its space-separated fields.
std::string JoinFen(const std::vector<std::string>& parts) {
  std::string fen;
  for (const std::string& p : parts) fen += (fen.empty() ? "" : " ") + p;
  return fen;
}

const char* kFenHelp = "Position in FEN (quoted, or its fields as separate words); default: the start position";

void RegisterVariants(CLI::App& app) {
  auto* cmd = app.add_subcommand("variants", "List the built-in variants");
  cmd->callback([] {
    std::vector<std::shared_ptr<const Variant>> all;
    int id_w = 2, zh_w = 4;
    for (const std::string& id : BuiltinVariantIds()) {
      std::shared_ptr<const Variant> v;
      if (!LoadVariant(id, &v).ok()) continue;
      all.push_back(v);
      id_w = std::max(id_w, DisplayWidth(v->id()));
      zh_w = std::max(zh_w, DisplayWidth(v->name_zh()));
    }
    for (const auto& v : all) {
      std::string size = std::to_string(v->files()) + "x" + std::to_string(v->ranks());
      std::printf("%s  %s  %s  %s\n", PadRight(v->id(), id_w).c_str(), PadRight(v->name_zh(), zh_w).c_str(),
                  PadRight(size, 5).c_str(), v->name().c_str());
    }
  });
}

void RegisterShow(CLI::App& app) {
  auto* cmd = app.add_subcommand("show", "Draw a position: board, FEN, side to move, check / mate / stalemate");
  auto opts = std::make_shared<VariantOptions>();
  auto fen = std::make_shared<std::vector<std::string>>();
  auto color = std::make_shared<bool>(false);
  auto no_color = std::make_shared<bool>(false);
  auto unicode = std::make_shared<bool>(false);
  opts->Add(cmd);
  cmd->add_option("fen", *fen, kFenHelp)->expected(0, 6);
  auto* c = cmd->add_flag("--color", *color, "Colour the pieces even when stdout is not a terminal");
  cmd->add_flag("--no-color", *no_color, "Plain text even on a terminal")->excludes(c);
  cmd->add_flag("--unicode", *unicode, "Square boards: Unicode chess symbols where the definition has them");
  cmd->callback([=] {
    auto v = opts->Load();
    Position pos = ParsePositionOrThrow(*v, JoinFen(*fen));
    BoardStyle style;
    style.color = *color || (!*no_color && StdoutIsTty());
    style.unicode = *unicode;
    std::string out = RenderBoard(pos, style);
    out += "\nFEN:    " + pos.Fen() + "\n";
    out += "Status: " + DescribeState(pos) + "\n";
    std::fputs(out.c_str(), stdout);
  });
}

void RegisterMoves(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "moves", "List the legal moves: ICCS, Chinese and WXF for Xiangqi; coordinates and SAN for chess-style variants");
  auto opts = std::make_shared<VariantOptions>();
  auto fen = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  opts->Add(cmd);
  cmd->add_option("fen", *fen, kFenHelp)->expected(0, 6);
  cmd->add_flag("--json", *json, "One JSON object: fen, side, status and the moves");
  cmd->callback([=] {
    auto v = opts->Load();
    Position pos = ParsePositionOrThrow(*v, JoinFen(*fen));
    const bool xq = v->notation() == NotationStyle::kXiangqi;
    MoveList list;
    pos.GenerateLegal(&list);
    struct Row {
      std::string coord, chinese, wxf, san;
    };
    std::vector<Row> rows;
    for (Move m : list) {
      Row r;
      r.coord = MoveToCoord(*v, m);
      if (xq) {
        r.chinese = MoveToChinese(pos, m);
        r.wxf = MoveToWxf(pos, m);
      } else {
        r.san = MoveToSan(pos, m);
      }
      rows.push_back(std::move(r));
    }
    if (*json) {
      nlohmann::json j;
      j["variant"] = v->id();
      j["fen"] = pos.Fen();
      j["side"] = v->color_name(pos.side_to_move());
      switch (StateOf(pos)) {
        case GameState::kPlaying: j["status"] = "playing"; break;
        case GameState::kCheck: j["status"] = "check"; break;
        case GameState::kCheckmate: j["status"] = "checkmate"; break;
        case GameState::kStalemate: j["status"] = "stalemate"; break;
        case GameState::kNoRoyal: j["status"] = "royal_lost"; break;
      }
      nlohmann::json moves = nlohmann::json::array();
      for (const Row& r : rows) {
        if (xq) moves.push_back({{"iccs", r.coord}, {"chinese", r.chinese}, {"wxf", r.wxf}});
        else moves.push_back({{"coord", r.coord}, {"san", r.san}});
      }
      j["moves"] = moves;
      std::printf("%s\n", j.dump(2).c_str());
      return;
    }
    if (rows.empty()) {
      std::printf("no legal moves: %s\n", DescribeState(pos).c_str());
      return;
    }
    int w1 = 4, w2 = 4;
    for (const Row& r : rows) {
      w1 = std::max(w1, DisplayWidth(r.coord));
      w2 = std::max(w2, DisplayWidth(xq ? r.chinese : r.san));
    }
    for (const Row& r : rows) {
      if (xq) std::printf("%s  %s  %s\n", PadRight(r.coord, w1).c_str(), PadRight(r.chinese, w2).c_str(), r.wxf.c_str());
      else std::printf("%s  %s\n", PadRight(r.coord, w1).c_str(), r.san.c_str());
    }
  });
}

void RegisterPerft(CLI::App& app) {
  auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree (last line: the count)");
  auto opts = std::make_shared<VariantOptions>();
  auto fen = std::make_shared<std::string>();
  auto depth = std::make_shared<int>(1);
  auto divide = std::make_shared<bool>(false);
  opts->Add(cmd);
  cmd->add_option("--fen", *fen, "Start FEN (with or without the move counters); default: the start position");
  cmd->add_flag("--divide", *divide, "Print the count below each legal move");
  cmd->add_option("depth", *depth, "Depth in plies")->required()->check(CLI::Range(0, 12));
  cmd->callback([=] {
    auto v = opts->Load();
    Position pos = ParsePositionOrThrow(*v, *fen);
    auto t0 = std::chrono::steady_clock::now();
    uint64_t total = 0;
    if (*divide) {
      for (auto& [m, n] : PerftDivide(pos, *depth)) {
        std::printf("%s: %llu\n", MoveToCoord(*v, m).c_str(), static_cast<unsigned long long>(n));
        total += n;
      }
    } else {
      total = Perft(pos, *depth);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "%.3f s, %.1f M nodes/s\n", s, s > 0 ? total / s / 1e6 : 0.0);
    std::printf("%llu\n", static_cast<unsigned long long>(total));
  });
}

}  // namespace

void RegisterVariantCommands(CLI::App& app) {
  RegisterVariants(app);
  RegisterShow(app);
  RegisterMoves(app);
  RegisterPerft(app);
}

}  // namespace canju::cli
