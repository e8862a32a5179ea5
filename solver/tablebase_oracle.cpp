#include "solver/tablebase_oracle.h"

#ifdef CANJU_HAVE_TABLEBASE

#include <algorithm>
#include <array>
#include <atomic>
#include <vector>

#include "tablebase/material.h"
#include "tablebase/probe.h"

namespace canju {
namespace {

// The search asks at every node, so "is there a table for this material?"
// must cost next to nothing: the materials with a table (and their colour
// flips) are packed into 64-bit keys at Open, and a position's key is
// compared against that set before the set's own (string-based) lookup and
// probe run. Positions with more pieces than the largest table are not even
// keyed.
class SetOracle : public TablebaseOracle {
 public:
  Status Open(const std::string& dir, const Variant& v, int count_missing_up_to) {
    Status st = set_.Open(dir, v);
    if (!st.ok()) return st;
    variant_ = &v;
    colour_symmetric_ = tb::ColourSymmetric(v);  // (not cheap: worked out once)
    count_missing_up_to_ = count_missing_up_to;
    kinds_ = v.kind_count();
    chases_lose_ = v.rules().perpetual_chase == Outcome::kLoss;
    if (kinds_ * 2 * 4 > 64) return Status::InvalidArgument(v.id() + ": too many piece kinds for the table oracle");
    for (const std::string& name : set_.Materials()) {
      max_pieces_ = std::max(max_pieces_, static_cast<int>(name.size()));
      tb::Material m;
      if (!tb::Material::Parse(v, name, &m).ok()) continue;
      keys_.push_back(Key(m));
      if (colour_symmetric_) keys_.push_back(Key(m.Flipped()));
    }
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    if (max_pieces_ == 0) return Status::NotFound(dir + ": no complete " + v.id() + " tables");
    return Status::OK();
  }
  bool Probe(const Position& pos, TablebaseValue* out) const override {
    const int pieces = pos.piece_count(kFirst) + pos.piece_count(kSecond);
    if (pieces > max_pieces_ && pieces > count_missing_up_to_) return false;
    const uint64_t key = Pack([&](int c, int k) { return pos.count(Color(c), k); });
    if (pieces > max_pieces_ || !std::binary_search(keys_.begin(), keys_.end(), key)) {
      if (pieces <= count_missing_up_to_) CountMissing(key);
      return false;
    }
    tb::ProbeResult pr;
    if (!set_.Probe(pos, &pr).ok()) return false;
    // The tables count every cycle other than perpetual check a draw; where
    // perpetual chasing loses, their draws may be wins (the search decides).
    if (pr.wdl == tb::Wdl::kDraw && chases_lose_) return false;
    out->result = pr.wdl == tb::Wdl::kWin ? Claim::kWin : pr.wdl == tb::Wdl::kLoss ? Claim::kLoss : Claim::kDraw;
    out->dtm = pr.wdl == tb::Wdl::kDraw ? -1 : pr.dtm_plies;
    return true;
  }

  std::vector<MissingTable> MissingTables() const override {
    std::vector<MissingTable> out;
    for (size_t i = 0; i < kSlots; ++i) {
      const uint64_t key = missing_keys_[i].load(std::memory_order_relaxed);
      if (key == 0) continue;
      tb::Material m;
      for (int c = 1, shift = 0; c >= 0; --c)
        for (int k = kinds_ - 1; k >= 0; --k, shift += 4) m.count[c][k] = static_cast<uint8_t>((key - 1) >> shift & 15);
      out.push_back({tb::Canonical(*variant_, m, colour_symmetric_, nullptr).Name(*variant_),
                     missing_counts_[i].load(std::memory_order_relaxed)});
    }
    std::sort(out.begin(), out.end(), [](const MissingTable& a, const MissingTable& b) {
      return a.probes != b.probes ? a.probes > b.probes : a.material < b.material;
    });
    return out;
  }

 private:
  // The missing materials' counts: a small lock-free open-addressing table
  // (slot key: the packed material + 1, 0 = free). Materials past its
  // capacity are not counted (a search meets far fewer).
  static constexpr size_t kSlots = 4096;
  void CountMissing(uint64_t material) const {
    uint64_t key = material + 1;
    if (colour_symmetric_) key = std::min(key, Flip(material) + 1);  // one table serves both
    for (size_t n = 0, i = (key * 0x9E3779B97F4A7C15ull) >> 52; n < kSlots; ++n, i = (i + 1) & (kSlots - 1)) {
      uint64_t seen = missing_keys_[i].load(std::memory_order_relaxed);
      if (seen == 0 && missing_keys_[i].compare_exchange_strong(seen, key, std::memory_order_relaxed)) seen = key;
      if (seen == key) {
        missing_counts_[i].fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
  }
  uint64_t Flip(uint64_t material) const {  // the colours' halves swapped
    const int half = 4 * kinds_;
    return (material >> half) | (material & ((uint64_t{1} << half) - 1)) << half;
  }

  // Four bits per colour and kind (a count above 15 saturates).
  template <class Count>
  uint64_t Pack(Count&& count) const {
    uint64_t key = 0;
    for (int c = 0; c < 2; ++c)
      for (int k = 0; k < kinds_; ++k) key = key << 4 | static_cast<uint64_t>(std::min<int>(count(c, k), 15));
    return key;
  }
  uint64_t Key(const tb::Material& m) const { return Pack([&](int c, int k) { return m.count[c][k]; }); }

  tb::TablebaseSet set_;
  const Variant* variant_ = nullptr;
  int count_missing_up_to_ = 0;
  bool colour_symmetric_ = false;
  mutable std::array<std::atomic<uint64_t>, kSlots> missing_keys_{};
  mutable std::array<std::atomic<uint64_t>, kSlots> missing_counts_{};
  int max_pieces_ = 0;
  int kinds_ = 0;
  bool chases_lose_ = false;  // rules.perpetual_chase = loss: table draws are not used
  std::vector<uint64_t> keys_;  // sorted
};

}  // namespace

Status OpenTablebaseOracle(const std::string& dir, const Variant& v, std::unique_ptr<TablebaseOracle>* out,
                           int count_missing_up_to) {
  auto oracle = std::make_unique<SetOracle>();
  Status st = oracle->Open(dir, v, count_missing_up_to);
  if (!st.ok()) return st.WithContext("--tb");
  *out = std::move(oracle);
  return Status::OK();
}

}  // namespace canju

#endif  // CANJU_HAVE_TABLEBASE
