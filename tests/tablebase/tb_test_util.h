// Shared helpers of the tablebase tests: a scratch directory of built tables
// per variant, kept for the whole test binary.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tablebase/build.h"
#include "variants/registry.h"

namespace canju::tb::testing {

// Created on first use, removed when the test binary ends.
inline std::string ScratchDir() {
  struct Dir {
    std::string path;
    Dir() {
      char tmpl[] = "/tmp/canju-tb-test-XXXXXX";
      char* d = ::mkdtemp(tmpl);
      path = d ? d : "";
    }
    ~Dir() {
      if (!path.empty()) std::filesystem::remove_all(path);
    }
  };
  static Dir dir;
  return dir.path;
}

// Builds (once) the tables in `dir` and fails the test on an error.
inline void BuildTables(const Variant& v, const std::vector<std::string>& tables, const std::string& dir = ScratchDir()) {
  std::vector<PlanItem> plan;
  Status st = MakePlan(v, tables, dir, &plan);
  ASSERT_TRUE(st.ok()) << st.ToString();
  BuildOptions opts;
  opts.dir = dir;
  opts.threads = 2;
  opts.compression_level = 3;
  st = BuildPlan(v, plan, opts);
  ASSERT_TRUE(st.ok()) << st.ToString();
}

inline TableHeader Header(const Variant& v, const std::string& material, const std::string& dir = ScratchDir()) {
  TableHeader h;
  Status st = ReadTableHeader(v, dir, material, &h);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return h;
}

}  // namespace canju::tb::testing
