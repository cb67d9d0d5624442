// Run-equivalence of dl-annotate's rewrites on PoCL (or any OpenCL device).
//
// For every //TEST: line of every kernel file in tests/annotate/run/:
//   1. the original kernel runs on AoS data (random, never zeros)         -> reference
//   2. the rewritten kernel built WITHOUT DL_ASTA_T runs on the same data -> == reference
//   3. the rewritten kernel built with -DDL_ASTA_T=T (T = 4, 32; n = 1003 leaves a
//      partial last tile) runs on data converted with dl::convert to each annotated
//      buffer's target layout; outputs converted back                   -> == reference
// bit for bit, padding included. Each program is built once per variant.
//
// //TEST: <kernel> <global size> args: <arg>...   with args in parameter order:
//   buf            an annotated buffer (record and n from the rewritten annotation)
//   int:V uint:V float:V   scalars
//   ibuf:N fbuf:N  plain buffers of N ints in [0, N) / N floats
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dl/annotation.hpp"
#include "dl/layout.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  bool ok = false;
  Cl() {
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &platform, &np) != CL_SUCCESS || np == 0) return;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) return;
    cl_int err = 0;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return;
    queue = clCreateCommandQueue(context, device, 0, &err);
    ok = err == CL_SUCCESS;
  }
  ~Cl() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
  cl_program build(const std::string& src, const std::string& opts, std::string& log) {
    const char* s = src.c_str();
    size_t len = src.size();
    cl_int err = 0;
    cl_program p = clCreateProgramWithSource(context, 1, &s, &len, &err);
    if (err != CL_SUCCESS) return nullptr;
    if (clBuildProgram(p, 1, &device, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      size_t n = 0;
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
      log.assign(n, '\0');
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
      clReleaseProgram(p);
      return nullptr;
    }
    return p;
  }
};

Cl& cl() {
  static Cl c;
  return c;
}

struct Arg {
  enum Kind { Buf, Int, UInt, Float, IBuf, FBuf } kind;
  std::string value;
};

struct TestLine {
  std::string kernel;
  std::size_t global = 0;
  std::vector<Arg> args;
};

std::vector<TestLine> test_lines(const std::string& src) {
  std::vector<TestLine> out;
  std::istringstream in(src);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("//TEST:", 0) != 0) continue;
    std::istringstream l(line.substr(7));
    TestLine t;
    std::string args;
    l >> t.kernel >> t.global >> args;
    std::string a;
    while (l >> a) {
      auto colon = a.find(':');
      std::string k = a.substr(0, colon), v = colon == std::string::npos ? "" : a.substr(colon + 1);
      Arg::Kind kind = k == "buf"     ? Arg::Buf
                       : k == "int"   ? Arg::Int
                       : k == "uint"  ? Arg::UInt
                       : k == "float" ? Arg::Float
                       : k == "ibuf"  ? Arg::IBuf
                                      : Arg::FBuf;
      t.args.push_back({kind, v});
    }
    out.push_back(t);
  }
  return out;
}

/// A buffer's bytes with its layout information.
struct Data {
  std::vector<unsigned char> bytes;
  const dl::Record* rec = nullptr;  // annotated buffers
  std::size_t n = 0;
  dl::Layout target;
};

/// Random record contents: floats in [-1, 1), integers in [0, n), padding random.
void fill_record(std::vector<unsigned char>& b, const dl::Record& r, std::size_t n,
                 std::mt19937& g) {
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& x : b) x = static_cast<unsigned char>(byte(g));
  std::uniform_real_distribution<float> f(-1.0f, 1.0f);
  std::uniform_int_distribution<std::uint64_t> idx(1, n ? n - 1 : 1);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& fl : r.fields()) {
      const std::size_t elems = fl.count * (fl.vector_width == 3 ? 4 : fl.vector_width);
      const std::size_t ss = dl::scalar_size(fl.type);
      for (std::size_t e = 0; e < elems; ++e) {
        unsigned char* p = b.data() + i * r.size() + fl.offset + e * ss;
        if (fl.type == dl::Scalar::Float) {
          float v = f(g);
          std::memcpy(p, &v, 4);
        } else if (fl.type == dl::Scalar::Double) {
          double v = f(g);
          std::memcpy(p, &v, 8);
        } else if (fl.type != dl::Scalar::Half) {
          std::uint64_t v = idx(g);
          std::memcpy(p, &v, ss);  // little endian: low bytes
        }
      }
    }
}

class RunFile : public ::testing::TestWithParam<std::string> {};

TEST_P(RunFile, RewrittenKernelsComputeTheSame) {
  if (!cl().ok) GTEST_SKIP() << "no OpenCL device";
  const std::string name = GetParam();
  const std::string original = slurp(std::string(DL_RUN_SRC_DIR) + "/" + name);
  const std::string rewritten = slurp(std::string(DL_RUN_OUT_DIR) + "/" + name);
  ASSERT_FALSE(original.empty());
  ASSERT_FALSE(rewritten.empty()) << "dl-annotate output missing for " << name;
  const dl::SourceAnnotations ann = dl::scan_annotations(rewritten);
  ASSERT_FALSE(ann.has_errors());

  struct Variant {
    std::string label, source, options;
    std::uint32_t T;  // 0: AoS data
  };
  std::vector<Variant> variants{{"original", original, "", 0},
                                {"rewritten without DL_ASTA_T", rewritten, "", 0},
                                {"rewritten, DL_ASTA_T=4", rewritten, "-DDL_ASTA_T=4", 4},
                                {"rewritten, DL_ASTA_T=32", rewritten, "-DDL_ASTA_T=32", 32}};
  std::vector<cl_program> programs;
  for (const auto& v : variants) {
    std::string log;
    cl_program p = cl().build(v.source, v.options, log);
    ASSERT_NE(p, nullptr) << v.label << " of " << name << " does not build:\n" << log;
    programs.push_back(p);
  }

  const auto tests = test_lines(original);
  ASSERT_FALSE(tests.empty());
  for (const auto& t : tests) {
    SCOPED_TRACE(name + ": kernel " + t.kernel);
    const dl::KernelAnnotation* ka = ann.find(t.kernel);
    ASSERT_NE(ka, nullptr) << "kernel not annotated in the rewritten source";
    ASSERT_EQ(ka->params.size(), t.args.size());
    // Scalars by name, for the dimension expressions.
    std::map<std::string, std::int64_t> scalars;
    for (std::size_t a = 0; a < t.args.size(); ++a)
      if (t.args[a].kind == Arg::Int || t.args[a].kind == Arg::UInt)
        scalars[ka->params[a]] = std::stoll(t.args[a].value);
    dl::Expr::Env env;
    env.global_size = {t.global, 1, 1};
    env.scalar = [&](const std::string& s) -> std::optional<std::int64_t> {
      auto it = scalars.find(s);
      return it == scalars.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
    };
    // Inputs.
    std::mt19937 gen(1234);
    std::vector<Data> inputs(t.args.size());
    for (std::size_t a = 0; a < t.args.size(); ++a) {
      Data& d = inputs[a];
      if (t.args[a].kind == Arg::Buf) {
        const dl::BufferAnnotation* b = nullptr;
        for (const auto& x : ka->buffers)
          if (x.name == ka->params[a]) b = &x;
        ASSERT_NE(b, nullptr) << "parameter " << ka->params[a] << " is not annotated";
        auto rit = ann.records.find(b->record);
        ASSERT_NE(rit, ann.records.end()) << "no //DL: record line for " << b->record;
        d.rec = &rit->second;
        std::vector<std::int64_t> dims;
        for (const auto& e : b->dims) dims.push_back(*e.eval(env));
        d.n = dl::record_count(dims, d.rec).value();
        d.target = b->target;
        d.bytes.resize(d.n * d.rec->size());
        fill_record(d.bytes, *d.rec, d.n, gen);
      } else if (t.args[a].kind == Arg::IBuf || t.args[a].kind == Arg::FBuf) {
        const std::size_t cnt = std::stoul(t.args[a].value);
        d.bytes.resize(cnt * 4);
        for (std::size_t k = 0; k < cnt; ++k) {
          if (t.args[a].kind == Arg::IBuf) {
            std::int32_t v = static_cast<std::int32_t>(gen() % cnt);
            std::memcpy(d.bytes.data() + 4 * k, &v, 4);
          } else {
            float v = static_cast<float>(gen() % 1000) / 999.0f + 0.5f;
            std::memcpy(d.bytes.data() + 4 * k, &v, 4);
          }
        }
      }
    }
    std::vector<std::vector<unsigned char>> reference;
    for (std::size_t v = 0; v < variants.size(); ++v) {
      SCOPED_TRACE(variants[v].label);
      cl_int err = 0;
      cl_kernel k = clCreateKernel(programs[v], t.kernel.c_str(), &err);
      ASSERT_EQ(err, CL_SUCCESS);
      std::vector<cl_mem> mems(t.args.size(), nullptr);
      std::vector<dl::Layout> lay(t.args.size());
      for (std::size_t a = 0; a < t.args.size(); ++a) {
        const Data& d = inputs[a];
        const Arg& arg = t.args[a];
        if (arg.kind == Arg::Int) {
          cl_int x = std::stoi(arg.value);
          err = clSetKernelArg(k, static_cast<cl_uint>(a), sizeof x, &x);
        } else if (arg.kind == Arg::UInt) {
          cl_uint x = static_cast<cl_uint>(std::stoul(arg.value));
          err = clSetKernelArg(k, static_cast<cl_uint>(a), sizeof x, &x);
        } else if (arg.kind == Arg::Float) {
          cl_float x = std::stof(arg.value);
          err = clSetKernelArg(k, static_cast<cl_uint>(a), sizeof x, &x);
        } else {
          std::vector<unsigned char> init = d.bytes;
          if (d.rec && variants[v].T) {
            lay[a] = d.target.kind == dl::LayoutKind::ASTA && d.target.tile == 0
                         ? dl::Layout::asta(variants[v].T)
                         : d.target;
            dl::convert(*d.rec, d.n, dl::Layout::aos(), d.bytes.data(), lay[a], init.data());
          }
          mems[a] = clCreateBuffer(cl().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   init.size(), init.data(), &err);
          ASSERT_EQ(err, CL_SUCCESS);
          err = clSetKernelArg(k, static_cast<cl_uint>(a), sizeof(cl_mem), &mems[a]);
        }
        ASSERT_EQ(err, CL_SUCCESS) << "argument " << a;
      }
      const size_t gs = t.global;
      ASSERT_EQ(
          clEnqueueNDRangeKernel(cl().queue, k, 1, nullptr, &gs, nullptr, 0, nullptr, nullptr),
          CL_SUCCESS);
      std::vector<std::vector<unsigned char>> outs;
      for (std::size_t a = 0; a < t.args.size(); ++a) {
        if (!mems[a]) continue;
        std::vector<unsigned char> got(inputs[a].bytes.size());
        ASSERT_EQ(clEnqueueReadBuffer(cl().queue, mems[a], CL_TRUE, 0, got.size(), got.data(), 0,
                                      nullptr, nullptr),
                  CL_SUCCESS);
        if (inputs[a].rec && variants[v].T) {
          std::vector<unsigned char> aos(got.size());
          dl::convert(*inputs[a].rec, inputs[a].n, lay[a], got.data(), dl::Layout::aos(),
                      aos.data());
          got.swap(aos);
        }
        outs.push_back(std::move(got));
        clReleaseMemObject(mems[a]);
      }
      clReleaseKernel(k);
      if (v == 0) {
        reference = outs;
        bool changed = false;
        for (std::size_t o = 0, a = 0; a < t.args.size(); ++a)
          if (mems[a]) changed = changed || outs[o++] != inputs[a].bytes;
        EXPECT_TRUE(changed)
            << "the test kernel writes nothing: the comparison would prove nothing";
        continue;
      }
      ASSERT_EQ(outs.size(), reference.size());
      for (std::size_t o = 0; o < outs.size(); ++o) {
        std::size_t first = 0;
        while (first < outs[o].size() && outs[o][first] == reference[o][first]) ++first;
        EXPECT_EQ(first, outs[o].size())
            << "buffer #" << o << " differs from the original kernel's at byte " << first;
      }
    }
  }
  for (cl_program p : programs) clReleaseProgram(p);
}

INSTANTIATE_TEST_SUITE_P(Kernels, RunFile,
                         ::testing::Values("basic.cl", "helpers.cl", "whole.cl", "vector_packed.cl",
                                           "flat.cl", "layouts.cl"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           return i.param.substr(0, i.param.find('.'));
                         });

}  // namespace
