// canju variants | show | moves | perft
#include <chrono>
#include <cstdio>

#include "cli/commands.h"
#include "cli/common.h"
#include "variants/perft.h"

namespace canju::cli {

void RegisterVariantCommands(CLI::App& app) {
  {
    auto* cmd = app.add_subcommand("variants", "List the built-in variants");
    cmd->callback([] {
      for (const std::string& id : BuiltinVariantIds()) {
        std::shared_ptr<const Variant> v;
        if (!LoadVariant(id, &v).ok()) continue;
        std::printf("%-14s %-16s %2dx%-2d %s\n", id.c_str(), v->name_zh().c_str(), v->files(), v->ranks(),
                    v->name().c_str());
      }
    });
  }
  {
    auto* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
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
}

}  // namespace canju::cli
