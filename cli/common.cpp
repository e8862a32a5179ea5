#include "cli/common.h"

#include <unistd.h>

#include <algorithm>

namespace canju::cli {

void VariantOptions::Add(CLI::App* cmd) {
  cmd->add_option("--variant,-v", variant, "Variant id (see `canju variants`) or a definition file")
      ->capture_default_str();
  // One value per --set (repeat it), so that a positional argument after it
  // is not taken for a second option.
  cmd->add_option("--set", overrides, "Rule option SECTION.KEY=VALUE, e.g. rules.promotion_pieces=QRBN (repeatable)")
      ->allow_extra_args(false);
}

std::shared_ptr<const Variant> VariantOptions::Load() const {
  std::shared_ptr<const Variant> v;
  Status st = LoadVariant(variant, &v, overrides);
  if (!st.ok()) throw CommandError{st.message(), 2};
  return v;
}

Position ParsePositionOrThrow(const Variant& v, const std::string& fen) {
  if (fen.empty()) return Position::Start(v);
  Position pos;
  Status st = Position::FromFen(v, fen, &pos);
  if (!st.ok()) throw CommandError{st.message(), 2};
  return pos;
}

bool StdoutIsTty() { return isatty(STDOUT_FILENO); }
bool StderrIsTty() { return isatty(STDERR_FILENO); }

ProgressBar::ProgressBar(std::string label, uint64_t total, bool quiet)
    : label_(std::move(label)), total_(total), enabled_(!quiet && StderrIsTty()) {
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::SetLabel(std::string label) {
  label_ = std::move(label);
  Draw(true);
}

void ProgressBar::SetTotal(uint64_t total) { total_ = total; }

void ProgressBar::Update(uint64_t done) {
  done_ = done;
  Draw(false);
}

void ProgressBar::Draw(bool force) {
  if (!enabled_ || finished_) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  double frac = total_ ? std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_)) : 0.0;
  const int width = 30;
  int fill = static_cast<int>(frac * width);
  std::string bar(fill, '#');
  bar += std::string(width - fill, '.');
  char eta[32] = "";
  if (frac > 0.01 && frac < 1.0) {
    double rest = elapsed / frac - elapsed;
    std::snprintf(eta, sizeof eta, " ETA %dm%02ds", static_cast<int>(rest) / 60, static_cast<int>(rest) % 60);
  }
  std::fprintf(stderr, "\r\033[K%s [%s] %5.1f%% %llu/%llu%s", label_.c_str(), bar.c_str(), frac * 100.0,
               static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_), eta);
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (enabled_ && !finished_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  finished_ = true;
}

}  // namespace canju::cli
