#include "puzzles/serialize.h"

#include <streambuf>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/version.hpp>

// Versions of the stored classes. Bump one when its fields change, keep
// reading the old layout under `if (version < N)`, and add the old bytes to
// tests/puzzles/serialize_test.cpp.
BOOST_CLASS_VERSION(canju::MoveNode, 0)
BOOST_CLASS_VERSION(canju::Verdict, 4)
BOOST_CLASS_VERSION(canju::Record, 1)

namespace boost::serialization {

template <class Archive>
void serialize(Archive& ar, canju::MoveNode& n, const unsigned /*version*/) {
  ar& n.move;
  ar& n.comment;
  ar& n.next;
}

template <class Archive>
void serialize(Archive& ar, canju::Verdict& v, const unsigned version) {
  ar& v.kind;
  ar& v.proven;
  ar& v.mate_plies;
  ar& v.pv;
  ar& v.cooks;
  ar& v.reason;
  ar& v.book_notes;
  ar& v.nodes;
  ar& v.seconds;
  ar& v.verified_at;
  ar& v.solver;
  if (version >= 1) {  // version 0 leaves both "not recorded" (-1)
    ar& v.mate_exact;
    ar& v.cooks_scope;
  }
  if (version >= 2) {  // earlier versions leave the claim checked unknown
    ar& v.checked;
    ar& v.checked_from;
  }
  if (version >= 3) ar& v.proof_check;  // earlier versions: not recorded (-1)
  if (version >= 4) ar& v.cooks_check;  // earlier versions: empty (not recorded)
}

template <class Archive>
void serialize(Archive& ar, canju::Record& r, const unsigned version) {
  ar& r.variant;
  ar& r.fen;
  ar& r.collection;
  ar& r.number;
  ar& r.title;
  ar& r.author;
  ar& r.source;
  ar& r.tags;
  ar& r.claimed;
  ar& r.comment;
  ar& r.moves;
  ar& r.verdict;
  if (version >= 1) ar& r.other_rules;  // version 0: no verdicts under other rules
}

}  // namespace boost::serialization

namespace canju {
namespace {

// Appends to a string (output) or reads a string in place (input), without
// the copies and locale work of string streams.
class StringSink : public std::streambuf {
 public:
  explicit StringSink(std::string* out) : out_(out) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_->append(s, static_cast<size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out_->push_back(static_cast<char>(c));
    return c;
  }

 private:
  std::string* out_;
};

class StringSource : public std::streambuf {
 public:
  explicit StringSource(const std::string& in) {
    char* p = const_cast<char*>(in.data());
    setg(p, p, p + in.size());
  }
};

constexpr unsigned kArchiveFlags = boost::archive::no_codecvt;

template <class T>
std::string Save(const T& value) {
  std::string out;
  StringSink sink(&out);
  {
    boost::archive::binary_oarchive ar(sink, kArchiveFlags);
    ar << value;
  }
  return out;
}

// Every archive starts with the length-prefixed signature; checking it first
// keeps Boost from trusting a garbage length (and allocating by it) when the
// bytes are not an archive at all.
bool HasArchiveHeader(const std::string& bytes) {
  static const char kSignature[] = "serialization::archive";
  constexpr size_t kLen = sizeof kSignature - 1;
  if (bytes.size() < 8 + kLen) return false;
  uint64_t len = 0;
  for (int i = 7; i >= 0; --i) len = len << 8 | static_cast<uint8_t>(bytes[i]);
  return len == kLen && bytes.compare(8, kLen, kSignature) == 0;
}

template <class T>
Status Load(const std::string& bytes, const char* what, T* out) {
  if (!HasArchiveHeader(bytes))
    return Status::Corruption(std::string("unreadable ") + what + " (" + std::to_string(bytes.size()) +
                              " bytes): not a Boost binary archive");
  StringSource source(bytes);
  try {
    boost::archive::binary_iarchive ar(source, kArchiveFlags);
    T value;
    ar >> value;
    *out = std::move(value);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("unreadable ") + what + " (" + std::to_string(bytes.size()) +
                              " bytes): " + e.what());
  }
  return Status::OK();
}

}  // namespace

std::string SerializeRecord(const Record& record) { return Save(record); }
Status DeserializeRecord(const std::string& bytes, Record* out) { return Load(bytes, "record", out); }
std::string SerializeVerdict(const Verdict& verdict) { return Save(verdict); }
Status DeserializeVerdict(const std::string& bytes, Verdict* out) { return Load(bytes, "verdict", out); }

}  // namespace canju
