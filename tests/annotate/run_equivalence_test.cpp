// Run-equivalence of dl-annotate's rewrites on PoCL (or any OpenCL device).
//
// For every //TEST: line of every kernel file in tests/annotate/run/, under every
// //BUILD: line of the file (build options; one build without options when none):
//   1. the original kernel runs on AoS data (random, never zeros)         -> reference
//   2. the rewritten kernel built WITHOUT DL_ASTA_T runs on the same data -> == reference
//   3. the rewritten kernel built with -DDL_ASTA_T=T (T = 4, 32; n = 1003 leaves a
//      partial last tile) runs on data whose first n records are converted with
//      dl::convert to each annotated buffer's target layout, the rest left AoS, as the
//      runtime does; outputs converted back                             -> == reference
// bit for bit, padding included, and the guard bytes after every buffer untouched.
// Each program is built once per variant and build line. Under a
// //BUILD-UNTRANSFORMED: line the builds of 3. must fail (code dl-annotate did not see
// is #error there; the runtime then runs the program untransformed) and 1. and 2. run.
//
// //TEST: <kernel> <global size> args: <arg>...   one <arg> per kernel parameter:
//   buf            an annotated buffer (record and n from the rewritten annotation)
//   buf:N          the same, holding N >= n records (records n..N-1 stay AoS)
//   int:V uint:V float:V   scalars
//   bytes:HEX      a by-value argument (a struct) of these bytes, two hex digits each
//   ibuf:N fbuf:N  plain buffers of N ints in [0, N) / N floats
// Arguments are in parameter order, or all named (`name=int:5`): a named argument binds
// to the kernel's parameter of that name (CL_KERNEL_ARG_NAME, as the runtime binds
// annotations) and is ignored when the build has no such parameter.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <algorithm>
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
  enum Kind { Buf, Int, UInt, Float, IBuf, FBuf, Bytes } kind;
  std::string value;
  std::string name;  // empty: positional
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
      Arg arg{Arg::Buf, "", ""};
      if (auto eq = a.find('='); eq != std::string::npos)
        arg.name = a.substr(0, eq), a.erase(0, eq + 1);
      auto colon = a.find(':');
      std::string k = a.substr(0, colon);
      arg.value = colon == std::string::npos ? "" : a.substr(colon + 1);
      arg.kind = k == "buf"     ? Arg::Buf
                 : k == "int"   ? Arg::Int
                 : k == "uint"  ? Arg::UInt
                 : k == "float" ? Arg::Float
                 : k == "ibuf"  ? Arg::IBuf
                 : k == "bytes" ? Arg::Bytes
                                : Arg::FBuf;
      t.args.push_back(arg);
    }
    out.push_back(t);
  }
  return out;
}

struct BuildLine {
  std::string options;
  bool untransformed = false;  // the DL_ASTA_T builds must fail (the runtime falls back)
};

/// The //BUILD: and //BUILD-UNTRANSFORMED: lines; one build without options when none.
std::vector<BuildLine> build_lines(const std::string& src) {
  std::vector<BuildLine> out;
  std::istringstream in(src);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("//BUILD:", 0) == 0) out.push_back({line.substr(8), false});
    if (line.rfind("//BUILD-UNTRANSFORMED:", 0) == 0) out.push_back({line.substr(22), true});
  }
  if (out.empty()) out.push_back({"", false});
  return out;
}

/// The parameter names of a kernel as the compiler sees them.
std::vector<std::string> arg_names(cl_kernel k) {
  cl_uint num = 0;
  std::vector<std::string> out;
  if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof num, &num, nullptr) != CL_SUCCESS) return out;
  for (cl_uint a = 0; a < num; ++a) {
    size_t len = 0;
    clGetKernelArgInfo(k, a, CL_KERNEL_ARG_NAME, 0, nullptr, &len);
    std::string name(len, '\0');
    clGetKernelArgInfo(k, a, CL_KERNEL_ARG_NAME, len, name.data(), nullptr);
    name.resize(std::strlen(name.c_str()));
    out.push_back(name);
  }
  return out;
}

/// A buffer's bytes with its layout information.
struct Data {
  std::vector<unsigned char> bytes;
  const dl::Record* rec = nullptr;  // annotated buffers
  std::size_t n = 0;                // records in the annotated layout (bytes may hold more)
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

// Bytes after every buffer that no kernel may touch: more than a tile (T = 32) of the
// largest record, so that a wrongly tiled address lands in the guard, not in the heap.
constexpr std::size_t kGuard = 8192;

struct Variant {
  std::string label, source, options;
  std::uint32_t T;  // 0: AoS data
};

/// Runs one //TEST: line under every variant (programs[v] built from variants[v]).
void run_test(const TestLine& t, const dl::SourceAnnotations& ann,
              const std::vector<Variant>& variants, const std::vector<cl_program>& programs) {
  const dl::KernelAnnotation* ka = ann.find(t.kernel);
  ASSERT_NE(ka, nullptr) << "kernel not annotated in the rewritten source";
  cl_int err = 0;
  cl_kernel k0 = clCreateKernel(programs[0], t.kernel.c_str(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const std::vector<std::string> params = arg_names(k0);
  clReleaseKernel(k0);
  // The argument of each parameter, positional or by name.
  std::vector<Arg> args;
  const bool named = !t.args.empty() && !t.args[0].name.empty();
  for (const auto& a : t.args) ASSERT_EQ(a.name.empty(), !named) << "mixed named and positional";
  if (named) {
    for (const auto& p : params) {
      const Arg* found = nullptr;
      for (const auto& a : t.args)
        if (a.name == p) found = &a;
      ASSERT_NE(found, nullptr) << "no argument for parameter " << p;
      args.push_back(*found);
    }
  } else {
    ASSERT_EQ(params.size(), t.args.size());
    args = t.args;
  }
  // Scalars by name, for the dimension expressions.
  std::map<std::string, std::int64_t> scalars;
  for (std::size_t a = 0; a < args.size(); ++a)
    if (args[a].kind == Arg::Int || args[a].kind == Arg::UInt)
      scalars[params[a]] = std::stoll(args[a].value);
  std::map<std::string, std::vector<unsigned char>> by_value;
  for (std::size_t a = 0; a < args.size(); ++a)
    if (args[a].kind == Arg::Bytes) {
      auto& v = by_value[params[a]];
      for (std::size_t h = 0; h + 1 < args[a].value.size(); h += 2)
        v.push_back(
            static_cast<unsigned char>(std::stoul(args[a].value.substr(h, 2), nullptr, 16)));
    }
  dl::Expr::Env env;
  env.global_size = {t.global, 1, 1};
  env.bytes = [&](const std::string& s) -> const std::vector<unsigned char>* {
    auto it = by_value.find(s);
    return it == by_value.end() ? nullptr : &it->second;
  };
  env.scalar = [&](const std::string& s) -> std::optional<std::int64_t> {
    auto it = scalars.find(s);
    return it == scalars.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
  };
  // Inputs.
  std::map<std::string, dl::Record> flat_records = ann.records;
  std::mt19937 gen(1234);
  std::vector<Data> inputs(args.size());
  for (std::size_t a = 0; a < args.size(); ++a) {
    Data& d = inputs[a];
    if (args[a].kind == Arg::Buf) {
      const dl::BufferAnnotation* b = nullptr;
      for (const auto& x : ka->buffers)
        if (x.name == params[a]) b = &x;
      ASSERT_NE(b, nullptr) << "parameter " << params[a] << " is not annotated";
      std::vector<std::int64_t> dims;
      for (const auto& e : b->dims) dims.push_back(*e.eval(env));
      auto rit = flat_records.find(b->record);
      if (b->rows()) {
        // A swap of rows: the record the runtime makes from the dimensions.
        auto sr = dl::swap_rows(*b, dims);
        ASSERT_TRUE(sr.has_value()) << "rows of " << params[a];
        rit = flat_records.emplace(sr->first.name(), sr->first).first;
      } else if (rit == flat_records.end() && dl::is_flat_scalar(b->record)) {
        // A flat array whose S is an argument: the record the runtime makes at launch.
        auto rec = dl::flat_record(b->record, b->dims.back().eval(env).value_or(0));
        ASSERT_TRUE(rec.has_value()) << "record length of " << params[a];
        rit = flat_records.emplace(rec->name(), *rec).first;
      }
      ASSERT_NE(rit, flat_records.end()) << "no //DL: record line for " << b->record;
      d.rec = &rit->second;
      d.n = b->rows() ? dl::swap_rows(*b, dims).value().second
                      : dl::record_count(dims, d.rec).value();
      d.target = b->target;
      if (b->tile) {  // `-> ASTA(E)` (or DIAG's rows per plane): E's value for this launch
        const auto w = b->tile->eval(env);
        ASSERT_TRUE(w && *w >= 1) << "tile width of " << params[a];
        const auto width = static_cast<std::uint32_t>(*w);
        d.target = b->target.tiled()
                       ? dl::Layout::asta(width)
                       : dl::Layout::diag(width, b->target.kind == dl::LayoutKind::DiagMain);
      }
      if (b->distant()) {  // a swap of distant dimensions: SWAP(d1, B) of this launch
        std::string why;
        const auto l = dl::distant_swap(*b, dims, &why);
        ASSERT_TRUE(l.has_value()) << "swap of " << params[a] << ": " << why;
        d.target = *l;
      }
      const std::size_t held = args[a].value.empty() ? d.n : std::stoul(args[a].value);
      ASSERT_GE(held, d.n) << "buffer " << params[a] << " smaller than its annotation";
      d.bytes.resize(held * d.rec->size());
      fill_record(d.bytes, *d.rec, held, gen);
    } else if (args[a].kind == Arg::IBuf || args[a].kind == Arg::FBuf) {
      const std::size_t cnt = std::stoul(args[a].value);
      d.bytes.resize(cnt * 4);
      for (std::size_t k = 0; k < cnt; ++k) {
        if (args[a].kind == Arg::IBuf) {
          std::int32_t v = static_cast<std::int32_t>(gen() % cnt);
          std::memcpy(d.bytes.data() + 4 * k, &v, 4);
        } else {
          float v = static_cast<float>(gen() % 1000) / 999.0f + 0.5f;
          std::memcpy(d.bytes.data() + 4 * k, &v, 4);
        }
      }
    }
  }
  std::vector<unsigned char> guard(kGuard);
  for (auto& g : guard) g = static_cast<unsigned char>(gen());

  std::vector<std::vector<unsigned char>> reference;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    SCOPED_TRACE(variants[v].label);
    cl_kernel k = clCreateKernel(programs[v], t.kernel.c_str(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    std::vector<cl_mem> parents(args.size(), nullptr), mems(args.size(), nullptr);
    std::vector<dl::Layout> lay(args.size());
    // Argument `a`'s value (not a buffer) as argument `at` of kernel `to`.
    auto set_value = [&](cl_kernel to, cl_uint at, std::size_t a) {
      const Arg& arg = args[a];
      if (arg.kind == Arg::Int) {
        cl_int x = std::stoi(arg.value);
        return clSetKernelArg(to, at, sizeof x, &x);
      }
      if (arg.kind == Arg::UInt) {
        cl_uint x = static_cast<cl_uint>(std::stoul(arg.value));
        return clSetKernelArg(to, at, sizeof x, &x);
      }
      if (arg.kind == Arg::Float) {
        cl_float x = std::stof(arg.value);
        return clSetKernelArg(to, at, sizeof x, &x);
      }
      const auto& x = by_value.at(params[a]);
      return clSetKernelArg(to, at, x.size(), x.data());
    };
    for (std::size_t a = 0; a < args.size(); ++a) {
      const Data& d = inputs[a];
      const Arg& arg = args[a];
      if (arg.kind == Arg::Int || arg.kind == Arg::UInt || arg.kind == Arg::Float ||
          arg.kind == Arg::Bytes) {
        err = set_value(k, static_cast<cl_uint>(a), a);
      } else {
        // The buffer is a sub-buffer of one kGuard bytes longer: the guard shows writes
        // past its end.
        std::vector<unsigned char> init = d.bytes;
        if (d.rec && variants[v].T) {
          lay[a] = d.target.kind == dl::LayoutKind::ASTA && d.target.tile == 0
                       ? dl::Layout::asta(variants[v].T)
                       : d.target;
          dl::convert(*d.rec, d.n, dl::Layout::aos(), d.bytes.data(), lay[a], init.data());
        }
        init.insert(init.end(), guard.begin(), guard.end());
        parents[a] = clCreateBuffer(cl().context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    init.size(), init.data(), &err);
        ASSERT_EQ(err, CL_SUCCESS);
        cl_buffer_region region{0, d.bytes.size()};
        mems[a] = clCreateSubBuffer(parents[a], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                    &region, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        err = clSetKernelArg(k, static_cast<cl_uint>(a), sizeof(cl_mem), &mems[a]);
      }
      ASSERT_EQ(err, CL_SUCCESS) << "argument " << a;
    }
    // The DL builds' gathered copies (parameters after the application's): what the
    // runtime gathers, x[col[i]] for every index of col; for a map, what its map kernel
    // (the DL build's dl::map_kernel_name) makes, with the count after the copy.
    std::vector<cl_mem> copies;
    auto next = static_cast<cl_uint>(params.size());
    for (std::size_t gi = 0; variants[v].T && gi < ka->gathers.size(); ++gi) {
      const dl::GatherAnnotation& g = ka->gathers[gi];
      const auto at = [&](const std::string& n) {
        return static_cast<std::size_t>(std::find(params.begin(), params.end(), n) -
                                        params.begin());
      };
      ASSERT_LT(at(g.name), params.size());
      if (g.map) {
        const std::size_t xi = at(g.name);
        const cl_ulong nx = inputs[xi].bytes.size() / g.elem_size();
        const std::string name = dl::map_kernel_name(t.kernel, g.name);
        cl_kernel mk = clCreateKernel(programs[v], name.c_str(), &err);
        ASSERT_EQ(err, CL_SUCCESS) << "the map kernel " << name;
        copies.push_back(clCreateBuffer(cl().context, CL_MEM_READ_WRITE,
                                        std::max<std::size_t>(inputs[xi].bytes.size(), 1), nullptr,
                                        &err));
        ASSERT_EQ(err, CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(mk, 0, sizeof(cl_mem), &mems[xi]), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(mk, 1, sizeof(cl_mem), &copies.back()), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(mk, 2, sizeof nx, &nx), CL_SUCCESS);
        for (std::size_t i = 0; i < g.args.size(); ++i) {
          ASSERT_LT(at(g.args[i]), params.size());
          ASSERT_EQ(set_value(mk, static_cast<cl_uint>(3 + i), at(g.args[i])), CL_SUCCESS)
              << g.args[i];
        }
        const size_t n = static_cast<size_t>(nx);
        if (n) {
          ASSERT_EQ(
              clEnqueueNDRangeKernel(cl().queue, mk, 1, nullptr, &n, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
        }
        clReleaseKernel(mk);
        ASSERT_EQ(clSetKernelArg(k, next++, sizeof(cl_mem), &copies.back()), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArg(k, next++, sizeof nx, &nx), CL_SUCCESS);
        continue;
      }
      ASSERT_LT(at(g.index), params.size());
      const Data& xs = inputs[at(g.name)];
      const Data& cs = inputs[at(g.index)];
      const std::size_t elem = g.elem_size(), nx = xs.bytes.size() / elem;
      const auto [ib, is_signed] = g.index_kind();
      std::vector<unsigned char> copy(cs.bytes.size() / ib * elem);
      for (std::size_t i = 0; i < cs.bytes.size() / ib; ++i) {
        std::uint64_t u = 0;
        std::memcpy(&u, cs.bytes.data() + i * ib, ib);                  // little endian
        if (is_signed && ib < 8 && (u >> (8 * ib - 1)) != 0) continue;  // negative
        if (u < nx) std::memcpy(copy.data() + i * elem, xs.bytes.data() + u * elem, elem);
      }
      copies.push_back(clCreateBuffer(cl().context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                      copy.size(), copy.data(), &err));
      ASSERT_EQ(err, CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(k, next++, sizeof(cl_mem), &copies.back()), CL_SUCCESS)
          << "the gathered copy of " << g.name;
    }
    const size_t gs = t.global;
    ASSERT_EQ(clEnqueueNDRangeKernel(cl().queue, k, 1, nullptr, &gs, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<std::vector<unsigned char>> outs;
    for (std::size_t a = 0; a < args.size(); ++a) {
      if (!mems[a]) continue;
      const Data& d = inputs[a];
      clReleaseMemObject(mems[a]);
      std::vector<unsigned char> got(d.bytes.size() + kGuard);
      ASSERT_EQ(clEnqueueReadBuffer(cl().queue, parents[a], CL_TRUE, 0, got.size(), got.data(), 0,
                                    nullptr, nullptr),
                CL_SUCCESS);
      clReleaseMemObject(parents[a]);
      EXPECT_TRUE(std::equal(guard.begin(), guard.end(), got.begin() + d.bytes.size()))
          << "buffer " << params[a] << ": the kernel wrote past its end";
      got.resize(d.bytes.size());
      if (d.rec && variants[v].T) {
        std::vector<unsigned char> aos = got;
        dl::convert(*d.rec, d.n, lay[a], got.data(), dl::Layout::aos(), aos.data());
        got.swap(aos);
      }
      outs.push_back(std::move(got));
    }
    for (cl_mem c : copies) clReleaseMemObject(c);
    clReleaseKernel(k);
    if (v == 0) {
      reference = outs;
      bool changed = false;
      for (std::size_t o = 0, a = 0; a < args.size(); ++a)
        if (mems[a]) changed = changed || outs[o++] != inputs[a].bytes;
      EXPECT_TRUE(changed) << "the test kernel writes nothing: the comparison would prove nothing";
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

class RunFile : public ::testing::TestWithParam<std::string> {};

/// The parameter is the rewritten file's path under DL_RUN_OUT_DIR (a file annotated
/// with -D options lies in a folder); the original is its name under DL_RUN_SRC_DIR.
TEST_P(RunFile, RewrittenKernelsComputeTheSame) {
  if (!cl().ok) GTEST_SKIP() << "no OpenCL device";
  const std::string path = GetParam();
  const std::string name = path.substr(path.rfind('/') + 1);
  const std::string original = slurp(std::string(DL_RUN_SRC_DIR) + "/" + name);
  const std::string rewritten = slurp(std::string(DL_RUN_OUT_DIR) + "/" + path);
  ASSERT_FALSE(original.empty());
  ASSERT_FALSE(rewritten.empty()) << "dl-annotate output missing for " << path;
  const dl::SourceAnnotations ann = dl::scan_annotations(rewritten);
  ASSERT_FALSE(ann.has_errors());
  const auto tests = test_lines(original);
  ASSERT_FALSE(tests.empty());

  for (const BuildLine& build : build_lines(original)) {
    SCOPED_TRACE("build options '" + build.options + "'");
    const std::string o = build.options + " -cl-kernel-arg-info";
    std::vector<Variant> variants{
        {"original", original, o, 0},
        {"rewritten without DL_ASTA_T", rewritten, o, 0},
        {"rewritten, DL_ASTA_T=4", rewritten, o + " -DDL_ASTA_T=4", 4},
        {"rewritten, DL_ASTA_T=32", rewritten, o + " -DDL_ASTA_T=32", 32}};
    std::vector<cl_program> programs;
    for (const auto& v : variants) {
      std::string log;
      cl_program p = cl().build(v.source, v.options, log);
      if (build.untransformed && v.T) {
        // Code dl-annotate did not see is #error under DL_ASTA_T: the runtime's build
        // fails and it runs the program untransformed, which 2. checks.
        EXPECT_EQ(p, nullptr) << v.label << " of " << path << " builds, but must not";
        if (p) clReleaseProgram(p);
        continue;
      }
      ASSERT_NE(p, nullptr) << v.label << " of " << path << " does not build:\n" << log;
      programs.push_back(p);
    }
    variants.resize(programs.size());
    for (const auto& t : tests) {
      SCOPED_TRACE(path + ": kernel " + t.kernel);
      run_test(t, ann, variants, programs);
    }
    for (cl_program p : programs) clReleaseProgram(p);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, RunFile,
                         ::testing::Values("basic.cl", "helpers.cl", "whole.cl", "vector_packed.cl",
                                           "flat.cl", "layouts.cl", "past_n.cl", "conditional.cl",
                                           "defined/conditional.cl", "choice.cl", "counts.cl",
                                           "swap.cl", "diagonal.cl", "offsets.cl", "gather.cl",
                                           "map.cl"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string s = i.param.substr(0, i.param.find('.'));
                           for (char& c : s)
                             if (c == '/') c = '_';
                           return s;
                         });

}  // namespace
