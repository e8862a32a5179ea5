// The store across processes: a writer killed in the middle of an import
// leaves whole files only, and readers in other processes see consistent
// states while a writer is adding files.
//
// Children are forked while this process has no store open; they never
// return into the test framework (they _exit), and they do not close their
// store: to the store that is the same as being killed.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "puzzles/store.h"
#include "store_test_util.h"

namespace canju {
namespace {

using testing_util::kCunMo;
using testing_util::kRookEnding;
using testing_util::kYouZhong;
using testing_util::MakeRecord;
using testing_util::OpenOrDie;
using testing_util::ScratchDir;

// The records of "file" i: kPerFile records, each its own collection so that
// every one is new.
constexpr int kPerFile = 60;
std::vector<Record> FileRecords(int i) {
  std::vector<Record> out;
  const char* fens[3] = {kYouZhong, kCunMo, kRookEnding};
  for (int j = 0; j < kPerFile; ++j) {
    Record r = MakeRecord("file" + std::to_string(i) + "-" + std::to_string(j / 3), j + 1, fens[j % 3]);
    r.moves.clear();
    // A longer tree makes each batch take a while, so a kill lands inside one.
    std::vector<MoveNode>* level = &r.moves;
    for (int k = 0; k < 40; ++k) {
      level->push_back(MoveNode{"a0a1", "注释", {}});
      level = &level->back().next;
    }
    out.push_back(std::move(r));
  }
  return out;
}

// Child: writes files [0, count) (forever when count < 0), one byte down
// `pipe_fd` after each. Exit codes: 0 done, 2 cannot open, 3 write failed.
[[noreturn]] void WriterChild(const std::string& dir, int count, int pipe_fd) {
  std::unique_ptr<PuzzleStore> store;
  if (!PuzzleStore::Open(dir, PuzzleStore::Options(), &store).ok()) _exit(2);
  for (int i = 0; count < 0 || i < count; ++i) {
    AddResult r;
    if (!store->AddRecords(FileRecords(i), &r).ok() || r.added != kPerFile) _exit(3);
    char c = 1;
    if (pipe_fd >= 0 && write(pipe_fd, &c, 1) != 1) _exit(4);
  }
  _exit(0);
}

void ExpectWholeFilesAndClean(const PuzzleStore& store, uint64_t* count) {
  *count = store.Count();
  EXPECT_EQ(*count % kPerFile, 0u) << "a file was stored in part";
  std::vector<std::string> problems;
  ASSERT_TRUE(store.Check(&problems).ok());
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems, first: " << problems[0];
}

TEST(StoreProcesses, KilledImportLeavesWholeFilesAndResumes) {
  ScratchDir dir;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    WriterChild(dir.path(), -1, fds[1]);
  }
  close(fds[1]);
  // Let it finish some files, then kill it without warning.
  int done = 0;
  char c;
  while (done < 8 && read(fds[0], &c, 1) == 1) ++done;
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "writer ended by itself: " << status;
  ASSERT_EQ(done, 8) << "writer failed early";

  auto store = OpenOrDie(dir.path());
  uint64_t count = 0;
  ExpectWholeFilesAndClean(*store, &count);
  EXPECT_GE(count, 8u * kPerFile);
  // Importing the same files again resumes: what was stored is skipped.
  int files = static_cast<int>(count / kPerFile) + 3;
  int added = 0, duplicates = 0;
  for (int i = 0; i < files; ++i) {
    AddResult r;
    ASSERT_TRUE(store->AddRecords(FileRecords(i), &r).ok());
    added += r.added;
    duplicates += r.duplicates;
  }
  EXPECT_EQ(static_cast<uint64_t>(duplicates), count);
  EXPECT_EQ(added, 3 * kPerFile);
  ExpectWholeFilesAndClean(*store, &count);
}

TEST(StoreProcesses, ReadersSeeWholeFilesWhileAWriterWrites) {
  ScratchDir dir;
  // The store exists before the writer starts, as after a first import.
  {
    auto store = OpenOrDie(dir.path());
    AddResult r;
    ASSERT_TRUE(store->AddRecords({}, &r).ok());
  }
  constexpr int kFiles = 40;
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) WriterChild(dir.path(), kFiles, -1);

  // Meanwhile: a long-lived reader that catches up, and fresh readers, the
  // way `canju puzzles list` opens the store.
  auto steady = OpenOrDie(dir.path(), /*read_only=*/true);
  ASSERT_TRUE(steady);
  uint64_t last = 0;
  int rounds = 0, status = 0;
  bool writer_done = false;
  while (!writer_done) {
    writer_done = waitpid(pid, &status, WNOHANG) == pid;
    ASSERT_TRUE(steady->CatchUp().ok());
    uint64_t n = 0;
    ExpectWholeFilesAndClean(*steady, &n);
    EXPECT_GE(n, last) << "a reader went back in time";
    last = n;
    auto fresh = OpenOrDie(dir.path(), /*read_only=*/true);
    ASSERT_TRUE(fresh);
    std::vector<PuzzleSummary> listed;
    ASSERT_TRUE(fresh->List({}, &listed).ok());
    EXPECT_EQ(listed.size() % kPerFile, 0u);
    ++rounds;
  }
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer failed: " << status;
  ASSERT_TRUE(steady->CatchUp().ok());
  EXPECT_EQ(steady->Count(), static_cast<uint64_t>(kFiles) * kPerFile);
  RecordProperty("reader_rounds", rounds);
}

}  // namespace
}  // namespace canju
