// canju: endgame and puzzle database and solver for Xiangqi and its variants.
#include <cstdio>

#include "cli/commands.h"
#include "cli/common.h"

int main(int argc, char** argv) {
  CLI::App app{"canju — endgame tablebases, puzzle solver and collection browser for Xiangqi and variants"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  canju::cli::RegisterVariantCommands(app);
  canju::cli::RegisterTablebaseCommands(app);
  canju::cli::RegisterServeCommands(app);
  canju::cli::RegisterPuzzleCommands(app);
  canju::cli::RegisterSolveCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --help-all
    // Usage errors are bad input: one line, exit code 2.
    std::fprintf(stderr, "canju: %s (see --help)\n", e.what());
    return 2;
  } catch (const canju::cli::CommandError& e) {
    std::fprintf(stderr, "canju: %s\n", e.message.c_str());
    return e.exit_code;
  }
  return 0;
}
