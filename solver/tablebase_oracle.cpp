#include "solver/tablebase_oracle.h"

#ifdef CANJU_HAVE_TABLEBASE

#include <algorithm>
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
  Status Open(const std::string& dir, const Variant& v) {
    Status st = set_.Open(dir, v);
    if (!st.ok()) return st;
    kinds_ = v.kind_count();
    if (kinds_ * 2 * 4 > 64) return Status::InvalidArgument(v.id() + ": too many piece kinds for the table oracle");
    for (const std::string& name : set_.Materials()) {
      max_pieces_ = std::max(max_pieces_, static_cast<int>(name.size()));
      tb::Material m;
      if (!tb::Material::Parse(v, name, &m).ok()) continue;
      keys_.push_back(Key(m));
      if (tb::ColourSymmetric(v)) keys_.push_back(Key(m.Flipped()));
    }
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    if (max_pieces_ == 0) return Status::NotFound(dir + ": no complete " + v.id() + " tables");
    return Status::OK();
  }
  bool Probe(const Position& pos, TablebaseValue* out) const override {
    if (pos.piece_count(kFirst) + pos.piece_count(kSecond) > max_pieces_) return false;
    const uint64_t key = Pack([&](int c, int k) { return pos.count(Color(c), k); });
    if (!std::binary_search(keys_.begin(), keys_.end(), key)) return false;
    tb::ProbeResult pr;
    if (!set_.Probe(pos, &pr).ok()) return false;
    out->result = pr.wdl == tb::Wdl::kWin ? Claim::kWin : pr.wdl == tb::Wdl::kLoss ? Claim::kLoss : Claim::kDraw;
    out->dtm = pr.wdl == tb::Wdl::kDraw ? -1 : pr.dtm_plies;
    return true;
  }

 private:
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
  int max_pieces_ = 0;
  int kinds_ = 0;
  std::vector<uint64_t> keys_;  // sorted
};

}  // namespace

Status OpenTablebaseOracle(const std::string& dir, const Variant& v, std::unique_ptr<TablebaseOracle>* out) {
  auto oracle = std::make_unique<SetOracle>();
  Status st = oracle->Open(dir, v);
  if (!st.ok()) return st.WithContext("--tb");
  *out = std::move(oracle);
  return Status::OK();
}

}  // namespace canju

#endif  // CANJU_HAVE_TABLEBASE
