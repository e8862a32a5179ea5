// The JSON API behind `canju serve` (docs/web.md), independent of HTTP:
// each call takes the request's path parameters and query, validates them,
// and returns a status code with a JSON body. Bad input gives a 4xx reply
// with {"error": message, "status": code}; nothing here throws to the caller
// or reads files other than the store's and the tablebase folder's.
//
//   GET /api/info                 store, variants (board geometry, piece names), tables loaded
//   GET /api/collections          collections with their puzzle counts
//   GET /api/puzzles?collection=&q=&material=&result=&verdict=&variant=&offset=&limit=
//   GET /api/puzzle/ID            metadata, verdict, other appearances, the move tree
//   GET /api/probe?fen=&variant=  tablebase value of a position and of every legal move
//   GET /api/solve?fen=&variant=&seconds=  the solver on a position (one solve at a time)
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "puzzles/store.h"
#include "variants/status.h"

namespace canju::server {

struct ApiReply {
  int status = 200;
  nlohmann::json body;
};

// Query parameters (the first value of each name).
using QueryParams = std::map<std::string, std::string>;

// Request limits: longer parameters are refused with 400.
constexpr size_t kMaxFenLength = 256;
constexpr size_t kMaxSearchLength = 200;
constexpr size_t kMaxNameLength = 512;   // collection, material, variant
constexpr int kMaxPageSize = 500;
constexpr int kMaxTreeNodes = 20000;     // larger trees are cut (the reply says so)
constexpr int kMaxTreeDepth = 1000;
// /api/solve: seconds of search a request may ask for, and the default.
// One solve runs at a time (a second request gets 503), so a page cannot
// load the machine with more than one core's worth of search.
constexpr int kMaxSolveSeconds = 30;
constexpr int kDefaultSolveSeconds = 5;

class Api {
 public:
  struct Options {
    std::string store_dir;
    std::string tb_dir;  // empty: no tablebases
    // How old the cached puzzle list may get before the store is asked
    // again for what a running import or verify has written since.
    std::chrono::milliseconds refresh_after{2000};
    // Searchers racing in each /api/solve (SolveOptions::threads).
    int solve_threads = 1;
  };

  // Opens the store read-only (beside a possible writer) and the tablebases
  // of every built-in variant found in tb_dir.
  static Status Open(const Options& options, std::unique_ptr<Api>* out);
  ~Api();

  // Routes a GET request: `path` is the URL path ("/api/puzzle/1a2b").
  ApiReply Get(const std::string& path, const QueryParams& query);

  ApiReply Info();
  ApiReply Collections();
  ApiReply Puzzles(const QueryParams& query);
  ApiReply Puzzle(const std::string& id);
  ApiReply Probe(const QueryParams& query);
  ApiReply Solve(const QueryParams& query);

  // Stops a running solve at once (it answers with what it proved so far)
  // and refuses new ones until AllowSolves: called before the server stops,
  // so that shutting down does not wait for a search.
  void CancelSolves();
  void AllowSolves();

  uint64_t puzzle_count() const;
  // Materials of the tables loaded, per variant id.
  std::map<std::string, std::vector<std::string>> tablebase_materials() const;
  // Problems met while opening the tablebases (a variant's tables skipped).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Catalog;
  struct Tables;
  Api() = default;
  std::shared_ptr<const Catalog> CurrentCatalog();
  Status LoadCatalog(std::shared_ptr<const Catalog>* out) const;

  Options options_;
  std::unique_ptr<PuzzleStore> store_;
  std::unique_ptr<Tables> tables_;
  std::vector<std::string> warnings_;
  std::mutex catalog_mu_;   // guards catalog_ and loaded_at_
  std::mutex refresh_mu_;   // one refresh at a time
  std::shared_ptr<const Catalog> catalog_;
  std::chrono::steady_clock::time_point loaded_at_;
  struct Oracles;
  std::mutex solve_mu_;                  // one solve at a time; guards oracles_
  std::unique_ptr<Oracles> oracles_;     // the solver's view of the tables, opened on first use
  std::atomic<bool> stop_solves_{false};
};

}  // namespace canju::server
