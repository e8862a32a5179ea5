// The puzzle store: Records kept in RocksDB (one directory), with indexes by
// collection and number, canonical position (mirror- and colour-aware),
// material, claimed result and solver verdict. Layout, ids, versioning and
// the concurrency model: docs/store.md.
//
//   std::unique_ptr<PuzzleStore> store;
//   Status st = PuzzleStore::Open(dir, PuzzleStore::Options(), &store);
//   AddResult added;
//   st = store->AddRecords(records_of_one_file, &added);   // one atomic batch
//   st = store->ForEachRecord("适情雅趣", [&](PuzzleId id, const Record& r) {
//     Verdict v = Verify(r);
//     return store->SaveVerdict(id, v).ok();                 // false stops
//   });
//
// One process may write at a time; any number may read (Options::read_only)
// while it does. All methods are thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "puzzles/record.h"
#include "variants/status.h"

namespace canju {

// A record's id: a 64-bit hash of what makes it that record (docs/store.md,
// "Ids"), so importing the same puzzle again finds the same id. Shown as 16
// lower-case hex digits; any unique prefix of 4 or more digits is accepted.
using PuzzleId = uint64_t;
std::string FormatPuzzleId(PuzzleId id);
bool ParsePuzzleId(const std::string& text, PuzzleId* out);  // exactly 16 hex digits

// What listing needs of a verdict reached under other rule options
// (Record::other_rules).
struct RulesVerdictSummary {
  std::vector<std::string> rules;  // the options (VerdictRules), never empty
  VerdictKind verdict = VerdictKind::kNone;
  Claim proven = Claim::kUnknown;
  int mate_plies = -1;
  int8_t mate_exact = -1;
  Claim checked = Claim::kUnknown;
};

// What listing, duplicate reports and the web page need, without the move
// tree: kept next to each record so that listing never decodes records.
struct PuzzleSummary {
  PuzzleId id = 0;
  std::string variant;
  std::string collection;
  int number = 0;
  std::string title;
  std::string fen;
  std::string source;
  Claim claimed = Claim::kUnknown;
  std::string material;        // "" when the board could not be read
  std::string canonical;       // canonical position (position_key.h)
  uint8_t transform = 0;       // record's position -> canonical (PositionTransform)
  bool is_game = false;        // starts from the variant's start position
  std::string fen_problem;     // why the engine rejects the FEN; "" when it accepts it
  VerdictKind verdict = VerdictKind::kNone;
  Claim proven = Claim::kUnknown;
  int mate_plies = -1;
  int8_t mate_exact = -1;      // Verdict::mate_exact
  Claim checked = Claim::kUnknown;  // Verdict::checked: the claim the verdict checked
  // The main verdict's rule options: empty for the variant's own rules (a
  // record verified only under `verify --set` options has those).
  std::vector<std::string> verdict_rules;
  std::vector<RulesVerdictSummary> other_rules;  // Record::other_rules, in order
};

// `s` as if its verdict under `rules` (options in any order; empty: the
// variant's own) were the main one: that verdict's fields, or none where
// the record has no verdict under them; verdict_rules set to `rules`.
PuzzleSummary SummaryUnderRules(const PuzzleSummary& s, const std::vector<std::string>& rules);

// Listing filters; empty / unset fields match everything.
struct ListFilter {
  std::string collection;
  std::string material;
  std::string variant;
  std::optional<Claim> claimed;
  std::optional<VerdictKind> verdict;
};

// What happened to one record handed to AddRecords.
struct AddOutcome {
  enum class Kind { kNew, kDuplicate, kRejected };
  Kind kind = Kind::kNew;
  PuzzleId id = 0;          // its id (for kDuplicate: the record already stored)
  bool in_this_call = false;  // kDuplicate of a record added earlier in the same call
  std::string reason;       // kRejected: why, naming the record
};

struct AddResult {
  std::vector<AddOutcome> outcomes;  // one per record, in order
  int added = 0, duplicates = 0, rejected = 0;
};

// Another record with the same canonical position.
struct Appearance {
  PuzzleSummary puzzle;
  uint8_t relation = 0;  // how it relates to the record asked about (PositionTransform)
};

// Records of several collections that show the same composition. `members`
// are ordered by collection and number; relations are to members[0].
struct DuplicateGroup {
  std::string canonical;
  std::vector<Appearance> members;
};

class PuzzleStore {
 public:
  struct Options {
    // Open as a reader beside a possible writer: sees the store as it was
    // when opened (or at the last CatchUp()), never a half-written file.
    bool read_only = false;
    // Writers: sync the log on every AddRecords/SaveVerdict batch (survives
    // power loss, slower). Without it a killed process still loses nothing
    // that was written; a power cut may lose the last batches, never half of one.
    bool sync = false;
  };

  // Opens the store in `dir`, creating it for a writer. A second writer gets
  // an error saying the store is in use; a reader of a missing store gets
  // NotFound.
  static Status Open(const std::string& dir, const Options& options, std::unique_ptr<PuzzleStore>* out);
  ~PuzzleStore();
  PuzzleStore(const PuzzleStore&) = delete;
  PuzzleStore& operator=(const PuzzleStore&) = delete;

  // --- writing (one atomic batch per call) ---
  // Adds the records of one file: new ones are stored with all their index
  // entries, records already present (same id) are counted as duplicates and
  // left unchanged, records that cannot be stored (unknown variant, FEN
  // without a readable board) are rejected with a reason. A failed write adds
  // nothing.
  Status AddRecords(const std::vector<Record>& records, AddResult* result);
  // Files `verdict` with record `id`'s verdicts (FileVerdict: it replaces
  // the one reached under the same rule options) and updates the summary
  // and index entries, which follow the main verdict.
  Status SaveVerdict(PuzzleId id, const Verdict& verdict);
  // Makes everything written so far durable (fsync of the log).
  Status Sync();

  // --- reading ---
  Status Get(PuzzleId id, Record* out) const;
  Status GetSummary(PuzzleId id, PuzzleSummary* out) const;
  // An id given in full or as a unique prefix (4+ hex digits).
  Status Resolve(const std::string& id_or_prefix, PuzzleId* out) const;
  // Calls `fn` for every record, ordered by collection and number; only the
  // records of `collection` when it is not empty. Stops when `fn` returns false.
  Status ForEachRecord(const std::string& collection,
                       const std::function<bool(PuzzleId, const Record&)>& fn) const;
  // Summaries matching `filter`, ordered by collection, number, id.
  Status List(const ListFilter& filter, std::vector<PuzzleSummary>* out) const;
  // Collection names with their record counts, by name.
  Status Collections(std::vector<std::pair<std::string, uint64_t>>* out) const;
  uint64_t Count() const;
  // The other records with the same canonical position as `id` (any collection).
  Status Appearances(PuzzleId id, std::vector<Appearance>* out) const;
  // Compositions found in more than one collection (games from the start
  // position excluded); with `collection`, only groups that include it.
  Status Duplicates(const std::string& collection, std::vector<DuplicateGroup>* out) const;

  // Readers: catch up with what the writer has written since.
  Status CatchUp();
  // Audits the store: every record decodes and has exactly its index entries,
  // every index entry points at a record. Appends one line per problem.
  Status Check(std::vector<std::string>* problems) const;
  // Writers: rebuilds every index from the records (after a Check failure or
  // an index layout change).
  Status Reindex();

  const std::string& dir() const;
  bool read_only() const;

  struct Impl;

 private:
  explicit PuzzleStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The store used when --store is not given: $CANJU_STORE, else
// $XDG_DATA_HOME/canju, else ~/.local/share/canju.
std::string DefaultStoreDir();

}  // namespace canju
