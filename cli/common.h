// Shared helpers of the CLI commands: variant loading, errors, progress.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "variants/position.h"
#include "variants/registry.h"

namespace canju::cli {

// Thrown by commands to end with a message and exit code (caught in main).
struct CommandError {
  std::string message;
  int exit_code = 1;
};

// Adds --variant (default xiangqi) and repeatable --set SECTION.KEY=VALUE.
struct VariantOptions {
  std::string variant = "xiangqi";
  std::vector<std::string> overrides;
  void Add(CLI::App* cmd);
  std::shared_ptr<const Variant> Load() const;  // throws CommandError
};

// Parses a FEN or throws CommandError naming it; an empty FEN gives the start.
Position ParsePositionOrThrow(const Variant& v, const std::string& fen);

bool StdoutIsTty();
bool StderrIsTty();

// A progress bar on stderr when it is a terminal and not --quiet; silent
// otherwise. Thread-compatible: call Update from one thread.
class ProgressBar {
 public:
  ProgressBar(std::string label, uint64_t total, bool quiet);
  ~ProgressBar();
  void SetLabel(std::string label);
  void SetTotal(uint64_t total);
  void Update(uint64_t done);
  void Finish();  // clears the line

 private:
  void Draw(bool force);
  std::string label_;
  uint64_t total_;
  uint64_t done_ = 0;
  bool enabled_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace canju::cli
