#include "solver/tablebase_oracle.h"

#ifdef CANJU_HAVE_TABLEBASE

#include <algorithm>

#include "tablebase/probe.h"

namespace canju {
namespace {

// Only positions with no more pieces than the largest table are looked up,
// so the search pays nothing for the material string elsewhere.
class SetOracle : public TablebaseOracle {
 public:
  Status Open(const std::string& dir, const Variant& v) {
    Status st = set_.Open(dir, v);
    if (!st.ok()) return st;
    for (const std::string& m : set_.Materials()) max_pieces_ = std::max(max_pieces_, static_cast<int>(m.size()));
    if (max_pieces_ == 0) return Status::NotFound(dir + ": no complete " + v.id() + " tables");
    return Status::OK();
  }
  bool Probe(const Position& pos, TablebaseValue* out) const override {
    if (pos.piece_count(kFirst) + pos.piece_count(kSecond) > max_pieces_ || !set_.Has(pos)) return false;
    tb::ProbeResult pr;
    if (!set_.Probe(pos, &pr).ok()) return false;
    out->result = pr.wdl == tb::Wdl::kWin ? Claim::kWin : pr.wdl == tb::Wdl::kLoss ? Claim::kLoss : Claim::kDraw;
    out->dtm = pr.wdl == tb::Wdl::kDraw ? -1 : pr.dtm_plies;
    return true;
  }

 private:
  tb::TablebaseSet set_;
  int max_pieces_ = 0;
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
