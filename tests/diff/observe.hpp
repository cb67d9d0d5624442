// What a host thread of a case observed: every byte it read, mapped or found in a host
// array, every return code, every event status, hashed in order (FNV-1a, 64 bits) with
// their total size. With tracing on, the same as text lines (bytes in hex), which the
// driver compares to show the first observation that differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dl_diff {

class Stream {
 public:
  explicit Stream(bool trace = false) : trace_(trace) {}

  void bytes(int op, const char* what, const void* data, std::size_t n) {
    tag(op, what);
    mix(&n, sizeof n);
    mix(data, n);
    size_ += n;
    if (trace_) {
      line(op, what);
      lines_ += std::to_string(n) + " bytes: ";
      static const char* hex = "0123456789abcdef";
      const auto* p = static_cast<const unsigned char*>(data);
      for (std::size_t i = 0; i < n; ++i) {
        lines_ += hex[p[i] >> 4];
        lines_ += hex[p[i] & 15];
      }
      lines_ += '\n';
    }
  }

  void value(int op, const char* what, long long v) {
    tag(op, what);
    mix(&v, sizeof v);
    size_ += sizeof v;
    if (trace_) {
      line(op, what);
      lines_ += "= " + std::to_string(v) + "\n";
    }
  }

  void text(int op, const char* what, const std::string& s) {
    tag(op, what);
    mix(s.data(), s.size());
    size_ += s.size();
    if (trace_) {
      line(op, what);
      lines_ += "\"" + s + "\"\n";
    }
  }

  std::uint64_t hash() const { return h_; }
  std::uint64_t size() const { return size_; }
  const std::string& trace() const { return lines_; }

 private:
  void tag(int op, const char* what) {
    mix(&op, sizeof op);
    for (const char* c = what; *c; ++c) mix(c, 1);
  }
  void line(int op, const char* what) {
    lines_ += op < 0 ? std::string("end") : "op " + std::to_string(op);
    lines_ += " | ";
    lines_ += what;
    lines_ += " | ";
  }
  void mix(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001B3ull;
    }
  }

  bool trace_;
  std::uint64_t h_ = 0xCBF29CE484222325ull;
  std::uint64_t size_ = 0;
  std::string lines_;
};

}  // namespace dl_diff
