// Every command registers itself on the root app. Add a line to main.cpp's
// list when adding a cmd_*.cpp file.
#pragma once

#include <CLI/CLI.hpp>

namespace canju::cli {

void RegisterVariantCommands(CLI::App& app);  // cmd_variants.cpp: variants, show, moves, perft
void RegisterTablebaseCommands(CLI::App& app);  // cmd_tb.cpp: tb build/stats/probe/list/demo
void RegisterServeCommands(CLI::App& app);     // cmd_serve.cpp: serve (the web page)
void RegisterPuzzleCommands(CLI::App& app);    // cmd_puzzles.cpp: import, puzzles list/show/dups, export

void RegisterSolveCommands(CLI::App& app);    // cmd_solve.cpp: solve, verify

}  // namespace canju::cli
