#include "importer/text.h"

#include <iconv.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

namespace canju::text {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// One converter per source encoding and thread: iconv_open is slow and
// an iconv_t must not be shared between threads.
iconv_t Converter(const char* from) {
  struct Handles {
    std::map<std::string, iconv_t> open;
    ~Handles() {
      for (auto& [name, cd] : open)
        if (cd != reinterpret_cast<iconv_t>(-1)) iconv_close(cd);
    }
  };
  thread_local Handles handles;
  auto it = handles.open.find(from);
  if (it == handles.open.end()) it = handles.open.emplace(from, iconv_open("UTF-8", from)).first;
  iconv(it->second, nullptr, nullptr, nullptr, nullptr);  // reset the shift state
  return it->second;
}

// Converts with iconv; an invalid sequence costs `unit` bytes and yields
// U+FFFD, so that one bad byte never hides the rest of the text.
std::string Convert(const char* from, std::string_view bytes, size_t unit, int* bad) {
  std::string out;
  if (bytes.empty()) return out;
  iconv_t cd = Converter(from);
  if (cd == reinterpret_cast<iconv_t>(-1)) {  // no such converter: keep what is ASCII
    for (unsigned char c : bytes) {
      if (c < 0x80) {
        out += static_cast<char>(c);
      } else {
        out += kReplacement;
        if (bad) ++*bad;
      }
    }
    return out;
  }
  out.resize(bytes.size() * 2 + 16);
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  size_t used = 0;
  while (in_left > 0) {
    char* dst = out.data() + used;
    size_t dst_left = out.size() - used;
    size_t r = iconv(cd, &in, &in_left, &dst, &dst_left);
    used = out.size() - dst_left;
    if (r != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    // EILSEQ (invalid) or EINVAL (incomplete at the end): replace and skip.
    if (bad) ++*bad;
    if (out.size() - used < 8) out.resize(out.size() * 2);
    std::memcpy(out.data() + used, kReplacement, 3);
    used += 3;
    size_t skip = std::min(unit, in_left);
    if (errno == EINVAL) skip = in_left;
    in += skip;
    in_left -= skip;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  out.resize(used);
  return out;
}

// Length of the valid UTF-8 sequence at s[i], 0 if invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8SequenceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string SanitizeUtf8(std::string_view s, int* bad) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8SequenceLength(s, i);
    if (n == 0) {
      out += kReplacement;
      if (bad) ++*bad;
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string Gb18030ToUtf8(std::string_view bytes, int* bad) {
  bool ascii = true;
  for (unsigned char c : bytes) ascii &= c < 0x80;
  if (ascii) return std::string(bytes);
  return Convert("GB18030", bytes, 1, bad);
}

std::string Utf16LeToUtf8(std::string_view bytes, int* bad) { return Convert("UTF-16LE", bytes, 2, bad); }
std::string Utf16BeToUtf8(std::string_view bytes, int* bad) { return Convert("UTF-16BE", bytes, 2, bad); }

const char* EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kUtf8: return "UTF-8";
    case Encoding::kUtf16Le: return "UTF-16LE";
    case Encoding::kUtf16Be: return "UTF-16BE";
    case Encoding::kGb18030: return "GB18030";
  }
  return "?";
}

std::string DecodeText(std::string_view bytes, Encoding* used, int* bad) {
  Encoding e;
  std::string out;
  if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    e = Encoding::kUtf8;
    out = SanitizeUtf8(bytes.substr(3), bad);
  } else if (bytes.size() >= 2 && bytes.substr(0, 2) == "\xFF\xFE") {
    e = Encoding::kUtf16Le;
    out = Utf16LeToUtf8(bytes.substr(2), bad);
  } else if (bytes.size() >= 2 && bytes.substr(0, 2) == "\xFE\xFF") {
    e = Encoding::kUtf16Be;
    out = Utf16BeToUtf8(bytes.substr(2), bad);
  } else if (IsValidUtf8(bytes)) {
    e = Encoding::kUtf8;
    out = std::string(bytes);
  } else {
    e = Encoding::kGb18030;
    out = Gb18030ToUtf8(bytes, bad);
  }
  if (used) *used = e;
  return out;
}

std::string Prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  size_t n = max_bytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // s[n] continues a character
  return std::string(s.substr(0, n));
}

std::string Trim(std::string_view s) {
  auto space_at_front = [&](size_t* len) {
    if (s.empty()) return false;
    unsigned char c = static_cast<unsigned char>(s.front());
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') return *len = 1, true;
    if (s.size() >= 3 && s.substr(0, 3) == "\xE3\x80\x80") return *len = 3, true;
    return false;
  };
  auto space_at_back = [&](size_t* len) {
    if (s.empty()) return false;
    unsigned char c = static_cast<unsigned char>(s.back());
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') return *len = 1, true;
    if (s.size() >= 3 && s.substr(s.size() - 3) == "\xE3\x80\x80") return *len = 3, true;
    return false;
  };
  size_t n;
  while (space_at_front(&n)) s.remove_prefix(n);
  while (space_at_back(&n)) s.remove_suffix(n);
  return std::string(s);
}

std::string AsciiLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string NormalizeNewlines(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      out += s[i];
    }
  }
  return Trim(out);
}

namespace {

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The character reference at the start of `s` ("&...;"): its UTF-8 text and
// length, or 0 when it is not one we decode.
size_t CharacterReference(std::string_view s, std::string* text) {
  const size_t semi = s.find(';');
  if (semi == std::string_view::npos || semi < 2 || semi > 10) return 0;
  const std::string_view body = s.substr(1, semi - 1);
  if (body[0] == '#') {
    const bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
    const std::string_view digits = body.substr(hex ? 2 : 1);
    if (digits.empty()) return 0;
    uint32_t cp = 0;
    for (char c : digits) {
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
      else return 0;
      cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
      if (cp > 0x10FFFF) return 0;
    }
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    text->clear();
    AppendUtf8(cp, text);
    return semi + 1;
  }
  static const std::pair<std::string_view, std::string_view> kNamed[] = {
      {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "}};
  for (const auto& [name, value] : kNamed) {
    if (body == name) {
      *text = value;
      return semi + 1;
    }
  }
  return 0;
}

bool IsBreakTag(std::string_view s, size_t* len) {
  static constexpr std::string_view kForms[] = {"<br>", "<br/>", "<br />", "<BR>", "<BR/>", "<BR />"};
  for (std::string_view f : kForms) {
    if (s.substr(0, f.size()) == f) {
      *len = f.size();
      return true;
    }
  }
  return false;
}

}  // namespace

std::string DecodeHtmlText(std::string_view s) {
  std::string out, ref;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t len = 0;
    if (s[i] == '&' && (len = CharacterReference(s.substr(i), &ref)) > 0) {
      out += ref;
    } else if (s[i] == '<' && IsBreakTag(s.substr(i), &len)) {
      out += '\n';
    } else {
      out += s[i];
      len = 1;
    }
    i += len;
  }
  return out;
}

}  // namespace canju::text
