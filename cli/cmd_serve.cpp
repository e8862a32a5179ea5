// canju serve: the collection browser (server/, docs/web.md).
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/common.h"
#include "puzzles/store.h"
#include "server/api.h"
#include "server/server.h"

namespace canju::cli {

void RegisterServeCommands(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "serve", "Browse the puzzle store in a web page: collections, boards, solutions, verdicts, tablebase values, "
      "and the solver on the position shown");
  struct Options {
    std::string store = DefaultStoreDir();
    std::string tb;
    int port = 8080;
    std::string host = "127.0.0.1";
    int solve_threads = 1;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--store", o->store, "Puzzle store directory (read only; an import may run beside it)")
      ->capture_default_str();
  cmd->add_option("--tb", o->tb, "Tablebase directory: values of the position shown and of every move (the solver probes them too)");
  cmd->add_option("--port", o->port, "Port to listen on; 0 picks a free one")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_option("--host", o->host,
                  "Address to listen on; anything other than 127.0.0.1 or localhost shows the store to the network")
      ->capture_default_str();
  cmd->add_option("--solve-threads", o->solve_threads,
                  "Searchers racing in each solve of the page's 求解 panel, one thread each (solve --threads)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->callback([o] {
    server::Api::Options ao;
    ao.solve_threads = o->solve_threads;
    ao.store_dir = o->store;
    ao.tb_dir = o->tb;
    std::unique_ptr<server::Api> api;
    if (Status st = server::Api::Open(ao, &api); !st.ok()) throw CommandError{st.message()};
    for (const std::string& w : api->warnings()) std::fprintf(stderr, "canju: warning: %s\n", w.c_str());

    // Ctrl-C and SIGTERM are taken by sigwait below, never by a handler in
    // the middle of a request: block them before the server's threads start
    // (they inherit the mask).
    sigset_t stop_signals, old_mask;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);

    server::Server server(api.get());
    server::Server::Options so;
    so.host = o->host;
    so.port = o->port;
    if (Status st = server.Start(so); !st.ok()) {
      pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
      throw CommandError{st.message()};
    }
    if (o->host != "127.0.0.1" && o->host != "localhost" && o->host != "::1")
      std::fprintf(stderr, "canju: warning: listening on %s: other machines can read this store\n", o->host.c_str());
    std::printf("Serving %llu puzzles from %s\n", static_cast<unsigned long long>(api->puzzle_count()),
                o->store.c_str());
    for (const auto& [variant, materials] : api->tablebase_materials())
      std::printf("Tablebases: %zu %s tables from %s\n", materials.size(), variant.c_str(), o->tb.c_str());
    if (!o->tb.empty() && api->tablebase_materials().empty())
      std::printf("Tablebases: none found in %s\n", o->tb.c_str());
    std::printf("Open %s in a browser (Ctrl-C stops)\n", server.url().c_str());
    std::fflush(stdout);

    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.Stop();
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    std::fprintf(stderr, "canju: stopped\n");
  });
}

}  // namespace canju::cli
