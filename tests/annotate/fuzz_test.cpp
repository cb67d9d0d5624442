// Robustness: dl-annotate never crashes. Truncated and garbled versions of the test
// kernels must end with exit status 0 or 1 (never a signal, never a usage error).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> seeds() {
  std::vector<std::string> out;
  for (const char* sub : {"run", "golden", "reuse"}) {
    const fs::path dir = fs::path(DL_ANNOTATE_SEEDS) / sub;
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string p = e.path().string();
      if (p.size() > 3 && p.compare(p.size() - 3, 3, ".cl") == 0 &&
          p.find(".expected.") == std::string::npos) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        out.push_back(s.str());
      }
    }
  }
  return out;
}

/// Runs dl-annotate on `text`; returns the raw wait status.
int run_tool(const std::string& text, const std::string& tag) {
  const fs::path dir =
      fs::temp_directory_path() / ("dl-annotate-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path in = dir / (tag + ".cl");
  std::ofstream(in, std::ios::binary) << text;
  const std::string cmd = "'" + std::string(DL_ANNOTATE_TOOL) + "' --report -o '" +
                          (dir / "out.cl").string() + "' --marshal-out='" +
                          (dir / "m.cl").string() + "' '" + in.string() + "' >/dev/null 2>&1";
  return std::system(cmd.c_str());
}

void expect_clean_exit(int status, const std::string& what) {
  ASSERT_TRUE(WIFEXITED(status)) << what << ": dl-annotate died by a signal";
  const int code = WEXITSTATUS(status);
  EXPECT_TRUE(code == 0 || code == 1) << what << ": exit status " << code;
}

TEST(Robustness, SeedsAreAccepted) {  // the harness really runs the tool
  const auto all = seeds();
  ASSERT_FALSE(all.empty());
  for (std::size_t s = 0; s < all.size(); ++s) {
    const int status = run_tool(all[s], "seed");
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "seed " << s;
  }
}

TEST(Robustness, TruncatedInputsNeverCrash) {
  const auto all = seeds();
  ASSERT_FALSE(all.empty());
  std::mt19937 g(42);
  for (std::size_t s = 0; s < all.size(); ++s) {
    const std::string& src = all[s];
    for (int k = 0; k < DL_ROBUSTNESS_VARIANTS; ++k) {
      const std::size_t cut = g() % (src.size() + 1);
      expect_clean_exit(run_tool(src.substr(0, cut), "trunc"),
                        "seed " + std::to_string(s) + " cut at " + std::to_string(cut));
    }
  }
}

TEST(Robustness, GarbledInputsNeverCrash) {
  const auto all = seeds();
  ASSERT_FALSE(all.empty());
  std::mt19937 g(4242);
  const std::string junk = "{}[]()*&;,.->#/\\\"'=+-:DL AoS record 0123456789 ~!?<>|^%$@\n\t";
  for (std::size_t s = 0; s < all.size(); ++s) {
    for (int k = 0; k < DL_ROBUSTNESS_VARIANTS; ++k) {
      std::string src = all[s];
      const int edits = 1 + static_cast<int>(g() % 8);
      for (int e = 0; e < edits && !src.empty(); ++e) {
        const std::size_t at = g() % src.size();
        switch (g() % 3) {
          case 0:
            src[at] = junk[g() % junk.size()];
            break;
          case 1:
            src.insert(at, 1, junk[g() % junk.size()]);
            break;
          default:
            src.erase(at, 1 + g() % 16);
            break;
        }
      }
      expect_clean_exit(run_tool(src, "garbled"),
                        "seed " + std::to_string(s) + " variant " + std::to_string(k));
    }
  }
}

TEST(Robustness, BinaryAndEmptyInputs) {
  expect_clean_exit(run_tool("", "empty"), "empty file");
  expect_clean_exit(run_tool(std::string("\0\x01\xff//DL: AoS: f[", 14), "binary"), "binary file");
  expect_clean_exit(run_tool("//DL: AoS: f[global_size(0)]\n", "dangling"),
                    "annotation without a kernel");
  expect_clean_exit(
      run_tool("//DL: record foo 8 4 float:bar@0 int:baz@99\n__kernel void k(){}\n", "rec"),
      "bad record line");
}

// Inputs that killed dl-annotate by a signal: deep recursion in the expression parser
// (SIGSEGV) and an uncaught std::out_of_range from a record's numbers (SIGABRT). Each
// is now a diagnosed error: exit status 1.
TEST(Robustness, InputsThatCrashedAreErrors) {
  const std::string kernel = "\n__kernel void k(__global struct foo *f) { f[0].bar = 1.0f; }\n";
  const std::string rec = "struct foo { float bar; int baz; };\n";
  const std::pair<const char*, std::string> cases[] = {
      {"nested parentheses", rec + "//DL: AoS: f[" + std::string(20000, '(') + "global_size(0)" +
                                 std::string(20000, ')') + "]" + kernel},
      {"unary minus signs", rec + "//DL: AoS: f[" + std::string(300000, '-') + "1]" + kernel},
      {"record field count", rec +
                                 "//DL: record foo 8 4 float99999999999999999999:bar@0 int:baz@4\n"
                                 "//DL: AoS: f[global_size(0)] AOS2ASTA_foo" +
                                 kernel},
      {"constant overflow", rec + "//DL: AoS: f[9223372036854775807*9223372036854775807]" + kernel},
  };
  for (const auto& [what, text] : cases) {
    const int status = run_tool(text, "crashed");
    ASSERT_TRUE(WIFEXITED(status)) << what << ": dl-annotate died by a signal";
    EXPECT_EQ(WEXITSTATUS(status), 1) << what;
  }
}

}  // namespace

namespace {

// A comment after an annotated kernel, on its closing line, stays on that line after the
// rewrite's #endif: moved to a line of its own, a trailing "//DL:" became an annotation
// without a kernel (found by the fuzzer).
TEST(Robustness, CommentAfterAKernelStaysOnItsLine) {
  const std::string src =
      "//DL: AoS: p[n][2]\n"
      "__kernel void k(__global float* p, int n) { p[get_global_id(0) * 2] = 1.0f; }//DL:\n";
  const fs::path dir =
      fs::temp_directory_path() / ("dl-annotate-trailing-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "in.cl", std::ios::binary) << src;
  const std::string cmd = "'" + std::string(DL_ANNOTATE_TOOL) + "' -o '" +
                          (dir / "out.cl").string() + "' '" + (dir / "in.cl").string() +
                          "' >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(dir / "out.cl");
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  EXPECT_EQ(last, "#endif//DL:");
  fs::remove_all(dir);
}

}  // namespace
