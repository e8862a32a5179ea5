// Helpers shared by the store tests: a scratch directory per test and
// records built by hand (the store does not depend on the readers).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "puzzles/record.h"
#include "puzzles/store.h"

namespace canju::testing_util {

// 《梦入神机》 由中应外 and the same diagram reflected left-right.
inline const char* kYouZhong = "1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w";
inline const char* kYouZhongMirrored = "4k1NR1/Cr3P3/2n6/9/9/9/9/4p4/5p3/4KAr1c w";
// Two more short compositions.
inline const char* kCunMo = "2RNk4/9/1N7/9/1n7/9/C7r/9/2c1p4/2c2K3 w";
inline const char* kRookEnding = "3k5/9/9/9/9/9/9/9/4R4/5K3 w";
inline const char* kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

inline Record MakeRecord(const std::string& collection, int number, const std::string& fen,
                         const std::string& title = "", Claim claimed = Claim::kWin) {
  Record r;
  r.fen = fen;
  r.collection = collection;
  r.number = number;
  r.title = title.empty() ? collection + " #" + std::to_string(number) : title;
  r.source = collection + ".txt#" + std::to_string(number);
  r.claimed = claimed;
  r.moves.push_back(MoveNode{"b9b8", "", {}});
  return r;
}

// A fresh directory under the system temp dir, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("canju-store-") + (info ? info->name() : "x") + "-" + std::to_string(getpid());
    path_ = (std::filesystem::temp_directory_path() / name).string();
    std::filesystem::remove_all(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::unique_ptr<PuzzleStore> OpenOrDie(const std::string& dir, bool read_only = false) {
  std::unique_ptr<PuzzleStore> store;
  PuzzleStore::Options o;
  o.read_only = read_only;
  Status st = PuzzleStore::Open(dir, o, &store);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return store;
}

}  // namespace canju::testing_util
