// Text in the encodings that collection files use, converted to UTF-8 with
// glibc iconv. Invalid bytes become U+FFFD and are counted, never a crash.
#pragma once

#include <string>
#include <string_view>

namespace canju::text {

bool IsValidUtf8(std::string_view s);

// Each returns UTF-8; `bad` (if given) is increased by the number of
// invalid or incomplete sequences replaced by U+FFFD.
std::string Gb18030ToUtf8(std::string_view bytes, int* bad = nullptr);
std::string Utf16LeToUtf8(std::string_view bytes, int* bad = nullptr);
std::string Utf16BeToUtf8(std::string_view bytes, int* bad = nullptr);
// Replaces invalid UTF-8 sequences by U+FFFD.
std::string SanitizeUtf8(std::string_view s, int* bad = nullptr);

// A text file of unknown encoding: a byte-order mark decides (UTF-8,
// UTF-16LE/BE) and is dropped; otherwise valid UTF-8 stays UTF-8 and
// anything else is read as GB18030 (a superset of GBK and GB2312).
enum class Encoding { kUtf8, kUtf16Le, kUtf16Be, kGb18030 };
std::string DecodeText(std::string_view bytes, Encoding* used = nullptr, int* bad = nullptr);
const char* EncodingName(Encoding e);

// At most `max_bytes` of a UTF-8 string, cut at a character boundary (for
// quoting input in messages).
std::string Prefix(std::string_view s, size_t max_bytes);

// ASCII letters in lower case; other bytes as they are (tag names).
std::string AsciiLower(std::string s);

// Trims ASCII and full-width (U+3000) spaces at both ends.
std::string Trim(std::string_view s);

// HTML character references as web pages write them in copied DhtmlXQ
// fields: &#20013; &#x4E2D; and the common named ones (&amp; &lt; &gt;
// &quot; &apos; &nbsp;, the last as a plain space); `<br>` / `<br/>` become
// "\n". Anything else, including an unknown or malformed reference, stays
// as written.
std::string DecodeHtmlText(std::string_view s);

// "\r\n" and lone "\r" become "\n" (comments in XQF and CBR files); trimmed.
std::string NormalizeNewlines(std::string_view s);

}  // namespace canju::text
