// Status: the error type that crosses module boundaries (LevelDB style).
// A failed operation returns a non-OK Status whose message names the file
// and the place (line, ply, byte offset) where the problem was found.
#pragma once

#include <string>
#include <utility>

namespace canju {

class Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kCorruption, kIOError, kUnsupported, kAborted, kResourceExhausted };

  Status() = default;
  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status Unsupported(std::string msg) { return Status(Code::kUnsupported, std::move(msg)); }
  static Status Aborted(std::string msg) { return Status(Code::kAborted, std::move(msg)); }
  static Status ResourceExhausted(std::string msg) { return Status(Code::kResourceExhausted, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // "invalid argument: <message>" — for logs and CLI error lines.
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context: ` (e.g. a file name).
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    return Status(code_, context + ": " + message_);
  }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

inline std::string Status::ToString() const {
  switch (code_) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: return "invalid argument: " + message_;
    case Code::kNotFound: return "not found: " + message_;
    case Code::kCorruption: return "corruption: " + message_;
    case Code::kIOError: return "I/O error: " + message_;
    case Code::kUnsupported: return "unsupported: " + message_;
    case Code::kAborted: return "aborted: " + message_;
    case Code::kResourceExhausted: return "resource exhausted: " + message_;
  }
  return message_;
}

}  // namespace canju
