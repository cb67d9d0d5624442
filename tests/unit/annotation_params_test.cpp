// Binding of annotations to kernel parameters by the scanner: the kernel is found by name;
// the parameter list read from the text is exact only without preprocessor directives
// or macros in it, and param_index never gives an index that build options can change.
#include <gtest/gtest.h>

#include "dl/annotation.hpp"

namespace {

const char* kRecord = "typedef struct { float v; int c; } pt;\n";

TEST(AnnotationParams, ConditionalAfterTheAnnotatedParameterIsAccepted) {
  const std::string src = std::string(kRecord) +
                          "//DL: AoS: in[n], out[n]\n"
                          "__kernel void k(int n, __global pt *in, __global pt *out\n"
                          "#ifdef OCL_2_0\n"
                          "  , __global atomic_int *flags\n"
                          "#endif\n"
                          ") {}\n";
  const auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  ASSERT_EQ(s.kernels.size(), 1u);
  const auto& k = s.kernels[0];
  EXPECT_EQ(k.kernel, "k");
  EXPECT_EQ(k.params, (std::vector<std::string>{"n", "in", "out", "flags"}));
  EXPECT_FALSE(k.params_exact);
  ASSERT_EQ(k.buffers.size(), 2u);
  EXPECT_EQ(k.buffers[1].name, "out");
}

TEST(AnnotationParams, ConditionalBeforeGivesNoIndex) {
  const std::string src = std::string(kRecord) +
                          "//DL: AoS: p[n]\n"
                          "__kernel void k(\n"
                          "#ifdef EXTRA\n"
                          "    int extra,\n"
                          "#endif\n"
                          "    __global pt *p, int n) {}\n";
  const auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors());
  ASSERT_EQ(s.kernels.size(), 1u);
  const auto& k = s.kernels[0];
  EXPECT_EQ(k.params, (std::vector<std::string>{"extra", "p", "n"}));
  // p is argument 0 without EXTRA and 1 with it: the text cannot tell which.
  EXPECT_EQ(k.param_index("p"), -1);
  EXPECT_EQ(k.param_index("n"), -1);
}

TEST(AnnotationParams, ConditionalListDefersUnknownNames) {
  // A name missing from every branch is left to dl-annotate and the runtime, which see
  // the compiled list.
  const std::string src = std::string(kRecord) +
                          "//DL: AoS: q[m]\n"
                          "__kernel void k(__global pt *p\n"
                          "#if defined(A) && \\\n"
                          "    defined(B)\n"
                          "  , int m\n"
                          "#endif\n"
                          ") {}\n";
  const auto s = dl::scan_annotations(src);
  EXPECT_FALSE(s.has_errors());
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].params, (std::vector<std::string>{"p", "m"}));
}

TEST(AnnotationParams, PlainListIsExact) {
  const std::string src = std::string(kRecord) +
                          "//DL: AoS: p[n]\n"
                          "__kernel void k(__global pt *restrict p, const int n, float dt) {}\n"
                          "//DL: AoS: p[n]\n"
                          "__kernel void none(__global pt *p) {}\n";
  const auto s = dl::scan_annotations(src);
  ASSERT_EQ(s.kernels.size(), 1u);
  const auto& k = s.kernels[0];
  EXPECT_TRUE(k.params_exact);
  EXPECT_EQ(k.param_index("p"), 0);
  EXPECT_EQ(k.param_index("n"), 1);
  EXPECT_EQ(k.param_index("dt"), 2);
  EXPECT_EQ(k.param_index("q"), -1);
  // Where the text is exact, a name it lacks is an error.
  ASSERT_EQ(s.diagnostics.size(), 1u);
  EXPECT_NE(s.diagnostics[0].message.find("'n', which is not a parameter of kernel 'none'"),
            std::string::npos)
      << s.diagnostics[0].message;
}

TEST(AnnotationParams, MacroParametersAreNotExact) {
  const std::string src = std::string(kRecord) +
                          "#define ARGS __global pt *p, int n\n"
                          "//DL: AoS: p[n]\n"
                          "__kernel void k(ARGS) {}\n"
                          "//DL: AoS: p[n]\n"
                          "__kernel void j(__global pt *p, EXTRA_ARG(n)) {}\n"
                          "__kernel void v(void) {}\n";
  const auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_FALSE(s.kernels[0].params_exact);
  EXPECT_FALSE(s.kernels[1].params_exact);
  EXPECT_EQ(s.kernels[1].param_index("p"), -1);
}

TEST(AnnotationParams, KernelsInDirectivesAreNoDefinitions) {
  // The #define spells a kernel; the annotation binds to the definition after it.
  const std::string src = std::string(kRecord) +
                          "//DL: AoS: p[n]\n"
                          "#define DECLARE_K __kernel void fake(int x)\n"
                          "__kernel void real(__global pt *p, int n) {}\n";
  const auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].kernel, "real");
  EXPECT_TRUE(s.kernels[0].params_exact);
}

}  // namespace
