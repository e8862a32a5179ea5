// Runs the built `canju` binary as a user does, for the CLI tests: its exit
// code, standard output and standard error.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace canju_cli_test {

struct Result {
  int code = -1;
  std::string out, err;
};

inline std::string Binary() { return std::string(CANJU_BINARY_DIR) + "/cli/canju"; }

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline Result RunCanju(const std::vector<std::string>& args) {
  std::string err_file = ::testing::TempDir() + "canju_cli_stderr_" + std::to_string(getpid());
  std::string cmd = Quote(Binary());
  for (const auto& a : args) cmd += " " + Quote(a);
  cmd += " 2>" + Quote(err_file) + " </dev/null";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::remove(err_file.c_str());
  return r;
}

inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

}  // namespace canju_cli_test
