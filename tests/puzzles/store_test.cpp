// The store on hand-built records: ids, idempotent adds, indexes and
// listing, duplicates across collections, verdicts, audits and versions.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include <sys/wait.h>
#include <unistd.h>

#include <rocksdb/db.h>

#include "puzzles/position_key.h"
#include "puzzles/store.h"
#include "store_test_util.h"

namespace canju {
namespace {

using testing_util::kCunMo;
using testing_util::kRookEnding;
using testing_util::kStart;
using testing_util::kYouZhong;
using testing_util::kYouZhongMirrored;
using testing_util::MakeRecord;
using testing_util::OpenOrDie;
using testing_util::ScratchDir;

ListFilter ByCollection(const std::string& c) {
  ListFilter f;
  f.collection = c;
  return f;
}

ListFilter ByMaterial(const std::string& m) {
  ListFilter f;
  f.material = m;
  return f;
}

void ExpectClean(const PuzzleStore& store) {
  std::vector<std::string> problems;
  ASSERT_TRUE(store.Check(&problems).ok());
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems, first: " << problems[0];
}

TEST(PuzzleId, FormatsAndParses) {
  EXPECT_EQ(FormatPuzzleId(0x0123456789abcdefULL), "0123456789abcdef");
  PuzzleId id;
  ASSERT_TRUE(ParsePuzzleId("0123456789ABCDEF", &id));
  EXPECT_EQ(id, 0x0123456789abcdefULL);
  EXPECT_FALSE(ParsePuzzleId("0123", &id));
  EXPECT_FALSE(ParsePuzzleId("0123456789abcdeg", &id));
}

TEST(Store, AddingTheSameFileTwiceAddsNothing) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  std::vector<Record> file = {MakeRecord("梦入神机", 1, kYouZhong), MakeRecord("梦入神机", 2, kCunMo)};
  AddResult first, second;
  ASSERT_TRUE(store->AddRecords(file, &first).ok());
  EXPECT_EQ(first.added, 2);
  EXPECT_EQ(first.duplicates, 0);
  ASSERT_TRUE(store->AddRecords(file, &second).ok());
  EXPECT_EQ(second.added, 0);
  EXPECT_EQ(second.duplicates, 2);
  EXPECT_FALSE(second.outcomes[0].in_this_call);
  EXPECT_EQ(second.outcomes[0].id, first.outcomes[0].id);
  EXPECT_EQ(store->Count(), 2u);
  ExpectClean(*store);
}

TEST(Store, IdsAreStableAndDependOnPositionAndCollection) {
  ScratchDir a_dir, b_dir;
  auto a = OpenOrDie(a_dir.path());
  auto b = OpenOrDie(b_dir.path() + "-b");
  AddResult ra, rb;
  // Number, title and source are not part of the identity; mirroring is not either.
  ASSERT_TRUE(a->AddRecords({MakeRecord("梦入神机", 1, kYouZhong, "由中应外")}, &ra).ok());
  ASSERT_TRUE(b->AddRecords({MakeRecord("梦入神机", 99, kYouZhongMirrored, "另题")}, &rb).ok());
  EXPECT_EQ(ra.outcomes[0].id, rb.outcomes[0].id);
  AddResult other;
  ASSERT_TRUE(a->AddRecords({MakeRecord("适情雅趣", 1, kYouZhong)}, &other).ok());
  EXPECT_EQ(other.added, 1);
  EXPECT_NE(other.outcomes[0].id, ra.outcomes[0].id);
  b.reset();
  std::filesystem::remove_all(b_dir.path() + "-b");
}

TEST(Store, SamePositionTwiceInOneFileIsADuplicateWithinTheCall) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  AddResult r;
  ASSERT_TRUE(store
                  ->AddRecords({MakeRecord("梦入神机", 1, kYouZhong), MakeRecord("梦入神机", 2, kCunMo),
                                MakeRecord("梦入神机", 3, kYouZhongMirrored)},
                               &r)
                  .ok());
  EXPECT_EQ(r.added, 2);
  EXPECT_EQ(r.duplicates, 1);
  EXPECT_EQ(r.outcomes[2].kind, AddOutcome::Kind::kDuplicate);
  EXPECT_TRUE(r.outcomes[2].in_this_call);
  EXPECT_EQ(r.outcomes[2].id, r.outcomes[0].id);
  // The first one read is the one kept.
  Record kept;
  ASSERT_TRUE(store->Get(r.outcomes[0].id, &kept).ok());
  EXPECT_EQ(kept.number, 1);
}

TEST(Store, GamesFromTheStartPositionDifferByTheirMoves) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  Record g1 = MakeRecord("专辑", 1, kStart), g2 = MakeRecord("专辑", 2, kStart);
  g1.moves = {MoveNode{"h2e2", "", {MoveNode{"h9g7", "", {}}}}};
  g2.moves = {MoveNode{"b2e2", "", {}}};
  AddResult r;
  ASSERT_TRUE(store->AddRecords({g1, g2, g1}, &r).ok());
  EXPECT_EQ(r.added, 2);
  EXPECT_EQ(r.duplicates, 1);
  // And games are never "the same composition" in the duplicate report.
  AddResult r2;
  ASSERT_TRUE(store->AddRecords({[&] { Record g = g1; g.collection = "另一专辑"; return g; }()}, &r2).ok());
  std::vector<DuplicateGroup> groups;
  ASSERT_TRUE(store->Duplicates("", &groups).ok());
  EXPECT_TRUE(groups.empty());
}

TEST(Store, RejectsWhatItCannotStoreAndKeepsTheRest) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  Record bad_board = MakeRecord("c", 1, "not a fen at all w");
  Record bad_variant = MakeRecord("c", 2, kCunMo);
  bad_variant.variant = "no-such-variant";
  AddResult r;
  ASSERT_TRUE(store->AddRecords({bad_board, MakeRecord("c", 3, kCunMo), bad_variant}, &r).ok());
  EXPECT_EQ(r.added, 1);
  EXPECT_EQ(r.rejected, 2);
  EXPECT_EQ(r.outcomes[0].kind, AddOutcome::Kind::kRejected);
  EXPECT_NE(r.outcomes[0].reason.find("c.txt#1"), std::string::npos) << r.outcomes[0].reason;
  EXPECT_NE(r.outcomes[2].reason.find("no-such-variant"), std::string::npos) << r.outcomes[2].reason;
  EXPECT_EQ(store->Count(), 1u);
}

TEST(Store, KeepsPositionsTheEngineRejectsAndSaysWhy) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  // The side not to move is in check: a misprinted diagram, kept and listed.
  AddResult r;
  ASSERT_TRUE(store->AddRecords({MakeRecord("c", 1, "4k4/4R4/9/9/9/9/9/9/9/3K5 w")}, &r).ok());
  ASSERT_EQ(r.added, 1);
  PuzzleSummary s;
  ASSERT_TRUE(store->GetSummary(r.outcomes[0].id, &s).ok());
  EXPECT_FALSE(s.fen_problem.empty());
  EXPECT_EQ(s.material, "KRK");
  ExpectClean(*store);
}

TEST(Store, GetReturnsTheWholeRecord) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  Record in = MakeRecord("梦入神机", 1, kYouZhong, "由中应外");
  in.author = "佚名";
  in.tags["event"] = "古谱";
  in.comment = "红先胜";
  in.moves = {MoveNode{"b9b8", "先弃车", {MoveNode{"e9f9", "", {}}}}, MoveNode{"c9d7", "", {}}};
  AddResult r;
  ASSERT_TRUE(store->AddRecords({in}, &r).ok());
  Record out;
  ASSERT_TRUE(store->Get(r.outcomes[0].id, &out).ok());
  EXPECT_EQ(out.title, "由中应外");
  EXPECT_EQ(out.author, "佚名");
  EXPECT_EQ(out.tags, in.tags);
  EXPECT_EQ(out.comment, "红先胜");
  ASSERT_EQ(out.moves.size(), 2u);
  EXPECT_EQ(out.moves[0].comment, "先弃车");
  EXPECT_EQ(out.moves[0].next[0].move, "e9f9");
  EXPECT_EQ(store->Get(r.outcomes[0].id ^ 1, &out).code(), Status::Code::kNotFound);
}

TEST(Store, ResolvesUniquePrefixes) {
  ScratchDir dir;
  auto store = OpenOrDie(dir.path());
  AddResult r;
  ASSERT_TRUE(store->AddRecords({MakeRecord("a", 1, kYouZhong), MakeRecord("a", 2, kCunMo)}, &r).ok());
  std::string full = FormatPuzzleId(r.outcomes[0].id);
  PuzzleId id = 0;
  ASSERT_TRUE(store->Resolve(full, &id).ok());
  EXPECT_EQ(id, r.outcomes[0].id);
  ASSERT_TRUE(store->Resolve(full.substr(0, 8), &id).ok());
  EXPECT_EQ(id, r.outcomes[0].id);
  EXPECT_FALSE(store->Resolve("xyz1", &id).ok());
  EXPECT_FALSE(store->Resolve("12", &id).ok());
  // The complement of the first digit matches neither record (one of two could, by chance; both cannot).
  std::string other = full;
  other[0] = other[0] == '0' ? '1' : '0';
  std::string other2 = FormatPuzzleId(r.outcomes[1].id);
  if (other.substr(0, 4) != other2.substr(0, 4)) {
    EXPECT_EQ(store->Resolve(other.substr(0, 4), &id).code(), Status::Code::kNotFound);
  }
}

// The store's RocksDB opened directly with every column family, to damage
// or rewrite what the store wrote (as a crash, a bug or another version
// would). The store must be closed first.
class RawDb {
 public:
  explicit RawDb(const std::string& dir) {
    rocksdb::Options o;
    ok_ = rocksdb::DB::ListColumnFamilies(o, dir, &names_).ok();
    std::vector<rocksdb::ColumnFamilyDescriptor> fams;
    for (auto& n : names_) fams.emplace_back(n, rocksdb::ColumnFamilyOptions());
    ok_ = ok_ && rocksdb::DB::Open(o, dir, fams, &handles_, &db_).ok();
  }
  ~RawDb() {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
    delete db_;
  }
  bool ok() const { return ok_; }
  rocksdb::DB* operator->() { return db_; }
  rocksdb::ColumnFamilyHandle* family(const std::string& name) {
    return handles_[std::find(names_.begin(), names_.end(), name) - names_.begin()];
  }

 private:
  bool ok_ = false;
  std::vector<std::string> names_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  rocksdb::DB* db_ = nullptr;
};

// A puzzle id as the store's keys hold it (8 bytes, big-endian).
std::string KeyOf(PuzzleId id) {
  std::string key(8, '\0');
  for (int i = 0; i < 8; ++i) key[i] = static_cast<char>(id >> (56 - 8 * i));
  return key;
}

class ListingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = OpenOrDie(dir_.path());
    AddResult r;
    ASSERT_TRUE(store_
                    ->AddRecords({MakeRecord("梦入神机", 2, kCunMo, "存没无累"),
                                  MakeRecord("梦入神机", 1, kYouZhong, "由中应外"),
                                  MakeRecord("适情雅趣", 7, kRookEnding, "单车", Claim::kWin),
                                  MakeRecord("适情雅趣", 3, kYouZhongMirrored, "由中应外(镜)", Claim::kDraw)},
                                 &r)
                    .ok());
    ASSERT_EQ(r.added, 4);
    ids_.clear();
    for (auto& o : r.outcomes) ids_.push_back(o.id);
  }
  std::vector<std::string> Titles(const ListFilter& f) {
    std::vector<PuzzleSummary> out;
    Status st = store_->List(f, &out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    std::vector<std::string> titles;
    for (auto& s : out) titles.push_back(s.title);
    return titles;
  }
  // Closes the store, lets `edit` change record `id`'s summary bytes as
  // stored, and opens the store again.
  void EditSummary(PuzzleId id, const std::function<void(std::string*)>& edit) {
    store_.reset();
    {
      RawDb raw(dir_.path());
      ASSERT_TRUE(raw.ok());
      const std::string id8 = KeyOf(id);
      std::string bytes;
      ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), raw.family("summaries"), id8, &bytes).ok());
      edit(&bytes);
      ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), raw.family("summaries"), id8, bytes).ok());
    }
    store_ = OpenOrDie(dir_.path());
  }
  ScratchDir dir_;
  std::unique_ptr<PuzzleStore> store_;
  std::vector<PuzzleId> ids_;
};

TEST_F(ListingTest, ListsEverythingByCollectionAndNumber) {
  EXPECT_EQ(Titles({}), (std::vector<std::string>{"由中应外", "存没无累", "由中应外(镜)", "单车"}));
}

TEST_F(ListingTest, FiltersByCollectionMaterialResultAndVerdict) {
  EXPECT_EQ(Titles(ByCollection("适情雅趣")), (std::vector<std::string>{"由中应外(镜)", "单车"}));
  EXPECT_TRUE(Titles(ByCollection("适情")).empty());  // names match exactly
  EXPECT_EQ(Titles(ByMaterial("KRK")), (std::vector<std::string>{"单车"}));
  ListFilter draws;
  draws.claimed = Claim::kDraw;
  EXPECT_EQ(Titles(draws), (std::vector<std::string>{"由中应外(镜)"}));
  ListFilter both = ByCollection("梦入神机");
  both.claimed = Claim::kDraw;
  EXPECT_TRUE(Titles(both).empty());
  ListFilter unverified;
  unverified.verdict = VerdictKind::kNone;
  EXPECT_EQ(Titles(unverified).size(), 4u);
}

TEST_F(ListingTest, SummariesCarryWhatListingPrints) {
  std::vector<PuzzleSummary> out;
  ASSERT_TRUE(store_->List(ByCollection("适情雅趣"), &out).ok());
  ASSERT_EQ(out.size(), 2u);
  const PuzzleSummary& s = out[1];
  EXPECT_EQ(s.id, ids_[2]);
  EXPECT_EQ(s.number, 7);
  EXPECT_EQ(s.fen, kRookEnding);
  EXPECT_EQ(s.claimed, Claim::kWin);
  EXPECT_EQ(s.material, "KRK");
  EXPECT_EQ(s.variant, "xiangqi");
  EXPECT_EQ(s.source, "适情雅趣.txt#7");
}

TEST_F(ListingTest, CollectionsAreCounted) {
  std::vector<std::pair<std::string, uint64_t>> c;
  ASSERT_TRUE(store_->Collections(&c).ok());
  EXPECT_EQ(c, (std::vector<std::pair<std::string, uint64_t>>{{"梦入神机", 2}, {"适情雅趣", 2}}));
}

TEST_F(ListingTest, OtherAppearancesAreMirrorAware) {
  std::vector<Appearance> seen;
  ASSERT_TRUE(store_->Appearances(ids_[1], &seen).ok());  // 梦入神机 #1
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].puzzle.collection, "适情雅趣");
  EXPECT_EQ(seen[0].puzzle.number, 3);
  EXPECT_EQ(seen[0].relation, kTransformMirror);
  ASSERT_TRUE(store_->Appearances(ids_[0], &seen).ok());  // 存没无累: only here
  EXPECT_TRUE(seen.empty());
}

TEST_F(ListingTest, DuplicateReportGroupsCollections) {
  AddResult r;
  ASSERT_TRUE(store_->AddRecords({MakeRecord("橘中秘", 40, kYouZhong, "由中应外(橘)")}, &r).ok());
  std::vector<DuplicateGroup> groups;
  ASSERT_TRUE(store_->Duplicates("", &groups).ok());
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups[0].members.size(), 3u);
  // Collections in byte order of their UTF-8 names.
  EXPECT_EQ(groups[0].members[0].puzzle.collection, "梦入神机");
  EXPECT_EQ(groups[0].members[0].relation, kTransformIdentity);
  EXPECT_EQ(groups[0].members[1].puzzle.collection, "橘中秘");
  EXPECT_EQ(groups[0].members[1].relation, kTransformIdentity);
  EXPECT_EQ(groups[0].members[2].puzzle.collection, "适情雅趣");
  EXPECT_EQ(groups[0].members[2].relation, kTransformMirror);
  // Asked from 适情雅趣's side, its member comes first and relations are to it.
  ASSERT_TRUE(store_->Duplicates("适情雅趣", &groups).ok());
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].members[0].puzzle.collection, "适情雅趣");
  EXPECT_EQ(groups[0].members[1].relation, kTransformMirror);
  EXPECT_EQ(groups[0].members[2].relation, kTransformMirror);
  ASSERT_TRUE(store_->Duplicates("没有这个", &groups).ok());
  EXPECT_TRUE(groups.empty());
}

TEST_F(ListingTest, IteratesRecordsOfOneCollectionInOrder) {
  std::vector<int> numbers;
  ASSERT_TRUE(store_->ForEachRecord("梦入神机", [&](PuzzleId, const Record& r) {
                      numbers.push_back(r.number);
                      return true;
                    }).ok());
  EXPECT_EQ(numbers, (std::vector<int>{1, 2}));
  int seen = 0;
  ASSERT_TRUE(store_->ForEachRecord("", [&](PuzzleId, const Record&) { return ++seen < 3; }).ok());
  EXPECT_EQ(seen, 3);  // stopped when asked
}

TEST_F(ListingTest, SavingAVerdictUpdatesRecordSummaryAndIndex) {
  Verdict v;
  v.kind = VerdictKind::kConfirmed;
  v.proven = Claim::kWin;
  v.mate_plies = 9;
  v.mate_exact = 0;  // an upper bound
  v.cooks_scope = 0;
  v.pv = {"b9b8", "e9f9"};
  v.solver = "test";
  v.checked = Claim::kWin;
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], v).ok());
  Record r;
  ASSERT_TRUE(store_->Get(ids_[1], &r).ok());
  EXPECT_EQ(r.verdict.kind, VerdictKind::kConfirmed);
  EXPECT_EQ(r.verdict.pv, v.pv);
  EXPECT_EQ(r.verdict.mate_exact, 0);
  EXPECT_EQ(r.verdict.cooks_scope, 0);
  EXPECT_EQ(r.title, "由中应外");  // the rest of the record untouched
  ListFilter confirmed;
  confirmed.verdict = VerdictKind::kConfirmed;
  EXPECT_EQ(Titles(confirmed), (std::vector<std::string>{"由中应外"}));
  ListFilter none;
  none.verdict = VerdictKind::kNone;
  EXPECT_EQ(Titles(none).size(), 3u);
  std::vector<PuzzleSummary> out;
  ASSERT_TRUE(store_->List(ByCollection("梦入神机"), &out).ok());
  EXPECT_EQ(out[0].mate_plies, 9);
  EXPECT_EQ(out[0].mate_exact, 0);  // lists can say "at most"
  EXPECT_EQ(out[1].mate_exact, -1);  // no verdict
  EXPECT_EQ(out[0].checked, Claim::kWin);  // the claim the verdict checked
  EXPECT_EQ(out[1].checked, Claim::kUnknown);
  // A second verdict replaces the first everywhere.
  v.kind = VerdictKind::kRefuted;
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], v).ok());
  EXPECT_TRUE(Titles(confirmed).empty());
  ExpectClean(*store_);
  EXPECT_EQ(store_->SaveVerdict(12345, v).code(), Status::Code::kNotFound);
  // Re-importing the record does not undo its verdict.
  AddResult again;
  ASSERT_TRUE(store_->AddRecords({MakeRecord("梦入神机", 1, kYouZhong)}, &again).ok());
  EXPECT_EQ(again.duplicates, 1);
  ASSERT_TRUE(store_->Get(ids_[1], &r).ok());
  EXPECT_EQ(r.verdict.kind, VerdictKind::kRefuted);
}

TEST_F(ListingTest, SurvivesReopeningAndReadsReadOnly) {
  store_.reset();
  auto reader = OpenOrDie(dir_.path(), /*read_only=*/true);
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->Count(), 4u);
  AddResult r;
  EXPECT_FALSE(reader->AddRecords({MakeRecord("x", 1, kCunMo)}, &r).ok());
  EXPECT_FALSE(reader->SaveVerdict(ids_[0], Verdict()).ok());
  ExpectClean(*reader);
}

TEST_F(ListingTest, CheckFindsDamageAndReindexRepairsIt) {
  // Damage the indexes behind the store's back, as a crashed older version
  // or a bug could: drop one index entry and one summary, add a stale entry.
  store_.reset();
  {
    RawDb raw(dir_.path());
    ASSERT_TRUE(raw.ok());
    std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions(), raw.family("by_material")));
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), raw.family("by_material"), it->key()).ok());
    it.reset();
    const std::string id8 = KeyOf(ids_[3]);
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), raw.family("summaries"), id8).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), raw.family("by_claim"), std::string(1, '\3') + id8, "").ok());
  }
  store_ = OpenOrDie(dir_.path());
  std::vector<std::string> problems;
  ASSERT_TRUE(store_->Check(&problems).ok());
  EXPECT_GE(problems.size(), 3u);
  std::string all;
  for (auto& p : problems) all += p + "\n";
  EXPECT_NE(all.find("by_material"), std::string::npos) << all;
  EXPECT_NE(all.find("no summary"), std::string::npos) << all;
  EXPECT_NE(all.find("by_claim: stale"), std::string::npos) << all;
  ASSERT_TRUE(store_->Reindex().ok());
  ExpectClean(*store_);
  EXPECT_EQ(store_->Count(), 4u);
  EXPECT_EQ(Titles(ByMaterial("KRK")), (std::vector<std::string>{"单车"}));
}

TEST_F(ListingTest, VerdictsUnderOtherRulesAreKeptBesideTheMainOne) {
  // One verdict per set of rule options; the main one (listed, indexed) is
  // the one under the variant's own rules.
  Verdict own, chase, chase_again, check;
  own.kind = VerdictKind::kConfirmed;
  own.mate_plies = 9;
  own.solver = VerdictSolverText("test", {});
  chase.kind = VerdictKind::kUnproven;
  chase.solver = VerdictSolverText("test", {"rules.perpetual_chase=loss", "rules.perpetual_check=loss"});
  chase_again = chase;
  chase_again.kind = VerdictKind::kRefuted;
  chase_again.solver = VerdictSolverText("test", {"rules.perpetual_check=loss", "rules.perpetual_chase=loss"});
  check.kind = VerdictKind::kRefuted;
  check.solver = VerdictSolverText("test", {"rules.perpetual_check=draw"});
  ListFilter confirmed, refuted, unproven;
  confirmed.verdict = VerdictKind::kConfirmed;
  refuted.verdict = VerdictKind::kRefuted;
  unproven.verdict = VerdictKind::kUnproven;
  auto get = [&] {
    Record r;
    EXPECT_TRUE(store_->Get(ids_[1], &r).ok());
    return r;
  };

  // A store of stop 47 could hold a `--set` verdict as its only one: it is
  // the main one until a verdict under the variant's rules comes.
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], chase).ok());
  EXPECT_EQ(get().verdict.kind, VerdictKind::kUnproven);
  EXPECT_EQ(Titles(unproven), (std::vector<std::string>{"由中应外"}));
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], own).ok());
  Record r = get();
  EXPECT_EQ(r.verdict.kind, VerdictKind::kConfirmed);
  ASSERT_EQ(r.other_rules.size(), 1u);
  EXPECT_EQ(r.other_rules[0].kind, VerdictKind::kUnproven);
  EXPECT_EQ(Titles(confirmed), (std::vector<std::string>{"由中应外"}));
  EXPECT_TRUE(Titles(unproven).empty());
  // The same options in another order replace that verdict; other options
  // add one; neither touches the main verdict or the listing.
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], chase_again).ok());
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], check).ok());
  r = get();
  EXPECT_EQ(r.verdict.kind, VerdictKind::kConfirmed);
  ASSERT_EQ(r.other_rules.size(), 2u);
  EXPECT_EQ(r.other_rules[0].kind, VerdictKind::kRefuted);
  EXPECT_EQ(r.other_rules[0].solver, chase_again.solver);
  EXPECT_EQ(VerdictRules(r.other_rules[1]), std::vector<std::string>{"rules.perpetual_check=draw"});
  EXPECT_EQ(Titles(confirmed), (std::vector<std::string>{"由中应外"}));
  EXPECT_TRUE(Titles(refuted).empty());
  ASSERT_NE(VerdictUnder(r, {"rules.perpetual_check=draw"}), nullptr);
  EXPECT_EQ(VerdictUnder(r, {"rules.perpetual_check=draw"})->kind, VerdictKind::kRefuted);
  EXPECT_EQ(VerdictUnder(r, {})->kind, VerdictKind::kConfirmed);
  EXPECT_EQ(VerdictUnder(r, {"rules.stalemate=draw"}), nullptr);
  // A new verdict under the variant's rules replaces the main one only.
  own.kind = VerdictKind::kRefuted;
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], own).ok());
  r = get();
  EXPECT_EQ(r.verdict.kind, VerdictKind::kRefuted);
  EXPECT_EQ(r.other_rules.size(), 2u);
  EXPECT_EQ(Titles(refuted), (std::vector<std::string>{"由中应外"}));
  ExpectClean(*store_);
  // The summary carries every verdict's options and kind, so that listing
  // can show the verdicts under other rules without reading records.
  PuzzleSummary s;
  ASSERT_TRUE(store_->GetSummary(ids_[1], &s).ok());
  EXPECT_TRUE(s.verdict_rules.empty());
  ASSERT_EQ(s.other_rules.size(), 2u);
  EXPECT_EQ(s.other_rules[0].rules, VerdictRules(chase_again));
  EXPECT_EQ(s.other_rules[0].verdict, VerdictKind::kRefuted);
  EXPECT_EQ(s.other_rules[1].rules, std::vector<std::string>{"rules.perpetual_check=draw"});
  const PuzzleSummary under = SummaryUnderRules(s, {"rules.perpetual_chase=loss", "rules.perpetual_check=loss"});
  EXPECT_EQ(under.verdict, VerdictKind::kRefuted);
  EXPECT_EQ(under.mate_plies, -1);
  EXPECT_TRUE(under.other_rules.empty());
  EXPECT_EQ(SummaryUnderRules(s, {}).verdict, VerdictKind::kRefuted);  // the main one
  EXPECT_EQ(SummaryUnderRules(s, {}).mate_plies, 9);
  EXPECT_EQ(SummaryUnderRules(s, {"rules.stalemate=draw"}).verdict, VerdictKind::kNone);
  std::vector<PuzzleSummary> listed;
  ASSERT_TRUE(store_->List(refuted, &listed).ok());  // listing reads the same summary
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].other_rules.size(), 2u);
  // The record reads back the same after a reopen.
  store_.reset();
  store_ = OpenOrDie(dir_.path());
  EXPECT_EQ(get().other_rules.size(), 2u);
}

TEST_F(ListingTest, ReadsSummariesOfOlderEncodings) {
  // A store written before summaries kept the verdicts under rule options
  // (encoding 3: the same fields without the two counts at the end), or
  // also before they kept the checked claim (encoding 2: without the byte
  // before them), still lists, without those fields, until `puzzles check
  // --repair` rewrites its summaries.
  Verdict v;
  v.kind = VerdictKind::kConfirmed;
  v.proven = Claim::kWin;
  v.mate_plies = 9;
  v.mate_exact = 1;
  v.checked = Claim::kWin;
  for (const char encoding : {'\3', '\2'}) {
    SCOPED_TRACE(static_cast<int>(encoding));
    ASSERT_TRUE(store_->SaveVerdict(ids_[1], v).ok());
    bool encoded_as_expected = false;
    EditSummary(ids_[1], [&](std::string* bytes) {
      const std::string tail = {static_cast<char>(Claim::kWin), 0, 0};  // checked, no options, no other verdicts
      encoded_as_expected = (*bytes)[0] == '\4' && bytes->substr(bytes->size() - 3) == tail;
      (*bytes)[0] = encoding;
      bytes->resize(bytes->size() - (encoding == '\3' ? 2 : 3));
    });
    ASSERT_TRUE(encoded_as_expected);
    std::vector<PuzzleSummary> out;
    ASSERT_TRUE(store_->List(ByCollection("梦入神机"), &out).ok());
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].title, "由中应外");
    EXPECT_EQ(out[0].mate_plies, 9);
    EXPECT_EQ(out[0].mate_exact, 1);
    EXPECT_EQ(out[0].checked, encoding == '\3' ? Claim::kWin : Claim::kUnknown);
    EXPECT_TRUE(out[0].other_rules.empty());
    ASSERT_TRUE(store_->Reindex().ok());
    ASSERT_TRUE(store_->List(ByCollection("梦入神机"), &out).ok());
    EXPECT_EQ(out[0].checked, Claim::kWin);  // rebuilt from the record
  }
}

TEST_F(ListingTest, CorruptRulesInASummaryAreReported) {
  // A count that runs past the summary's end is a corrupt summary, not a
  // huge allocation.
  Verdict v;
  v.kind = VerdictKind::kConfirmed;
  ASSERT_TRUE(store_->SaveVerdict(ids_[1], v).ok());
  EditSummary(ids_[1], [](std::string* bytes) { bytes->back() = '\x7f'; });  // 127 other verdicts, none there
  PuzzleSummary s;
  Status st = store_->GetSummary(ids_[1], &s);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(FormatPuzzleId(ids_[1])), std::string::npos) << st.ToString();
  std::vector<std::string> problems;
  ASSERT_TRUE(store_->Check(&problems).ok());
  EXPECT_FALSE(problems.empty());
}

TEST(Store, RefusesAStoreFromANewerLayout) {
  ScratchDir dir;
  OpenOrDie(dir.path()).reset();
  {
    RawDb raw(dir.path());
    ASSERT_TRUE(raw.ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "layout", "999").ok());
  }
  std::unique_ptr<PuzzleStore> store;
  Status st = PuzzleStore::Open(dir.path(), PuzzleStore::Options(), &store);
  EXPECT_EQ(st.code(), Status::Code::kUnsupported) << st.ToString();
  EXPECT_NE(st.message().find("newer"), std::string::npos);
}

TEST(Store, ReadersRemoveScratchDirsOfDeadReaders) {
  ScratchDir dir;
  OpenOrDie(dir.path()).reset();
  // A process that is gone: a child that exited.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  auto tmp = std::filesystem::temp_directory_path();
  auto dead = tmp / ("canju-reader-" + std::to_string(pid) + "-test00");
  auto alive = tmp / ("canju-reader-" + std::to_string(getpid()) + "-test00");
  std::filesystem::create_directories(dead);
  std::filesystem::create_directories(alive);
  auto reader = OpenOrDie(dir.path(), /*read_only=*/true);
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(alive));  // this process still runs
  std::filesystem::remove_all(alive);
}

TEST(Store, ReaderOfAMissingStoreGetsNotFound) {
  ScratchDir dir;
  std::unique_ptr<PuzzleStore> store;
  PuzzleStore::Options o;
  o.read_only = true;
  Status st = PuzzleStore::Open(dir.path(), o, &store);
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_NE(st.message().find(dir.path()), std::string::npos);
}

TEST(Store, SecondWriterIsToldTheStoreIsInUse) {
  ScratchDir dir;
  auto first = OpenOrDie(dir.path());
  std::unique_ptr<PuzzleStore> second;
  Status st = PuzzleStore::Open(dir.path(), PuzzleStore::Options(), &second);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("another process"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace canju
