// dl_diff_app: executes generated host programs and prints one digest line per case.
// An ordinary OpenCL application: it links OpenCL only and knows nothing of DL; the
// driver runs it natively and under DL and compares the lines.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "case.hpp"
#include "executor.hpp"
#include "generate.hpp"

#ifndef DL_DIFF_KERNEL_DIR
#define DL_DIFF_KERNEL_DIR "."
#endif

namespace {

const char* kUsage = R"(usage: dl_diff_app <command> [options]

  run   --seed S --cases A:B      execute cases A..B-1; one line per case:
                                  <case> <family> <digest> <observed bytes>
  run   --seed S --case I --ops L execute case I with only the ops L ("0,3,5-9")
        [--repeat R]              each case R times in the process (lines I, I.2, ...)
  batch --seed S --case I --subsets FILE
                                  execute case I once per line of FILE (an op list
                                  each, "all" for every op); one line per subset
  print --seed S --case I [--ops L]
                                  the case's program as text

options:
  --skip-families L  run: print "<case> <family> skipped 0" for cases of these families
  --families LIST   families to draw cases from (default all): )";

struct Args {
  std::string command;
  std::uint64_t seed = 0;
  bool have_seed = false;
  std::uint64_t first = 0, last = 0;
  bool have_cases = false;
  std::uint64_t repeat = 1;
  std::string ops, subsets, trace, families = "all";
  std::string kernels, skip;
};

std::uint64_t number(const std::string& s, const char* what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || s[0] == '-')
    throw std::invalid_argument(std::string("bad ") + what + " '" + s + "'");
  return v;
}

Args parse(int argc, char** argv) {
  Args a;
  if (argc < 2) throw std::invalid_argument("no command");
  a.command = argv[1];
  if (a.command != "run" && a.command != "batch" && a.command != "print")
    throw std::invalid_argument("unknown command '" + a.command + "'");
  for (int i = 2; i < argc; ++i) {
    const std::string o = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(o + " needs a value");
      return argv[++i];
    };
    if (o == "--seed")
      a.seed = number(value(), "seed"), a.have_seed = true;
    else if (o == "--case")
      a.first = number(value(), "case"), a.last = a.first + 1, a.have_cases = true;
    else if (o == "--cases") {
      const std::string v = value();
      const auto colon = v.find(':');
      if (colon == std::string::npos)
        throw std::invalid_argument("--cases wants A:B, got '" + v + "'");
      a.first = number(v.substr(0, colon), "first case");
      a.last = number(v.substr(colon + 1), "end case");
      if (a.last < a.first) throw std::invalid_argument("--cases " + v + ": B < A");
      a.have_cases = true;
    } else if (o == "--ops")
      a.ops = value();
    else if (o == "--subsets")
      a.subsets = value();
    else if (o == "--repeat")
      a.repeat = number(value(), "repeat count");
    else if (o == "--families")
      a.families = value();
    else if (o == "--trace")
      a.trace = value();
    else if (o == "--kernels")
      a.kernels = value();
    else if (o == "--skip-families")
      a.skip = value();
    else
      throw std::invalid_argument("unknown option '" + o + "'");
  }
  if (!a.have_seed) throw std::invalid_argument("--seed is required");
  if (!a.have_cases) throw std::invalid_argument("--case or --cases is required");
  if (a.command == "batch" && (a.subsets.empty() || a.last != a.first + 1))
    throw std::invalid_argument("batch wants --case I and --subsets FILE");
  if (!a.ops.empty() && a.last != a.first + 1) throw std::invalid_argument("--ops wants --case I");
  return a;
}

/// Before the first case: every annotated form once per shape and for a few n (one, a
/// partial tile, several tiles), each followed by a small read, so that the programs
/// and kernels a case may need (DL's marshaling kernels included) are built before the
/// driver starts timing cases for hangs. Its observations are not part of any digest.
dl_diff::Case warm_up() {
  using namespace dl_diff;
  Case c;
  c.family = "warm-up";
  c.queues.push_back({true, 0});
  auto add = [&](Op op) {
    op.id = static_cast<int>(c.ops.size());
    c.ops.push_back(op);
  };
  Op out;
  out.kind = OpKind::Create;
  out.shape = Shape::U32;
  out.records = 65;
  out.buf = c.buffers++;
  add(out);
  for (int s = 0; s < kShapes; ++s) {
    const Shape shape = static_cast<Shape>(s);
    if (!info(shape).record) continue;
    Op create;
    create.kind = OpKind::Create;
    create.shape = shape;
    create.records = 65;
    create.buf = c.buffers++;
    add(create);
    auto launch = [&](Form f, int n, int len, int tile = 0, int row = 0) {
      Op l;
      l.kind = OpKind::Launch;
      l.form = f;
      l.shape = shape;
      l.buf = create.buf;
      l.buf2 = out.buf;
      l.n = n;
      l.cap = n;
      l.len = len;
      l.tile = tile;
      l.row = row;
      const bool planes = row || f == Form::DiagK || f == Form::DiagMK || f == Form::SumDiag;
      l.g = static_cast<std::size_t>(planes ? n * tile : n);
      add(l);
      Op r;
      r.kind = OpKind::Read;
      r.buf = create.buf;
      r.size = 1;
      add(r);
    };
    for (int n : {1, 5, 33, 65}) {
      for (Form f :
           {Form::Upd, Form::Whole, Form::UpdDA, Form::UpdT, Form::Sum, Form::Emit, Form::Dims})
        if (!kernel_name(f, shape).empty()) launch(f, n, 0);
      // Records of K floats, K an argument (the buffer holds 65 * S floats).
      if (info(shape).flat)
        for (int len : kFlatLens) {
          const int most = static_cast<int>(65 * info(shape).size / sizeof(float)) / len;
          launch(Form::UpdK, std::min(n, most), len);
          launch(Form::UpdTK, std::min(n, most), len, len + 1);
          // Two dimensions swapped: one plane of t records of len rows of 2 floats.
          launch(Form::SwapK, 1, len, std::max(std::min(n, most / 2), 1), 2);
          launch(Form::SwapD, 1, len, std::max(std::min(n, most / 2), 1), 2);
          // Planes diagonalized: one plane of up to n rows, and planes of 3 rows.
          launch(Form::DiagK, 1, len, std::min(n, most));
          launch(Form::DiagMK, std::max(std::min(n, most) / 3, 1), len, 3);
          launch(Form::SumSwapD, 1, len, std::max(std::min(n, most / 2), 1), 2);
          launch(Form::SumSwapK, 1, len, std::max(std::min(n, most / 2), 1), 2);
          launch(Form::SumDiag, 1, len, std::min(n, most));
          launch(Form::SumK, std::min(n, most), len);
        }
    }
  }
  return c;
}

std::string digest_line(const std::string& label, const std::string& family,
                        const dl_diff::Digest& d) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(d.hash));
  return label + " " + family + " " + hash + " " + std::to_string(d.size);
}

int run(const Args& a) {
  const auto families = dl_diff::parse_families(a.families);
  if (a.command == "print") {
    auto c = dl_diff::generate(a.seed, a.first, families);
    if (!a.ops.empty()) c = dl_diff::restrict_ops(c, dl_diff::parse_ids(a.ops));
    std::cout << dl_diff::print(c);
    return 0;
  }
  std::string dir = a.kernels;
  if (dir.empty())
    dir = std::getenv("DL_DIFF_KERNELS") ? std::getenv("DL_DIFF_KERNELS") : DL_DIFF_KERNEL_DIR;
  dl_diff::Session session(dir);
  {
    const dl_diff::Case w = warm_up();
    dl_diff::Executor(session, w, false).run();
  }
  std::cout << "# ready" << std::endl;  // the driver times cases (for hangs) from here
  std::ofstream trace;
  if (!a.trace.empty()) {
    trace.open(a.trace);
    if (!trace) throw std::runtime_error("cannot write " + a.trace);
  }
  auto execute = [&](const dl_diff::Case& c, const std::string& label) {
    dl_diff::Executor x(session, c, !a.trace.empty());
    const auto d = x.run();
    std::cout << digest_line(label, c.family, d) << std::endl;  // flushed: the driver reads it live
    if (trace) trace << "== " << label << "\n" << d.trace;
  };
  if (a.command == "batch") {
    const auto base = dl_diff::generate(a.seed, a.first, families);
    std::ifstream in(a.subsets);
    if (!in) throw std::runtime_error("cannot read " + a.subsets);
    std::string line;
    for (int i = 0; std::getline(in, line); ++i)
      execute(line == "all"    ? base
              : line == "none" ? dl_diff::restrict_ops(base, {})
                               : dl_diff::restrict_ops(base, dl_diff::parse_ids(line)),
              std::to_string(i));
    return 0;
  }
  const auto skip = a.skip.empty() ? std::vector<std::string>{} : dl_diff::parse_families(a.skip);
  for (std::uint64_t i = a.first; i < a.last; ++i) {
    auto c = dl_diff::generate(a.seed, i, families);
    if (std::find(skip.begin(), skip.end(), c.family) != skip.end()) {
      std::cout << i << " " << c.family << " skipped 0" << std::endl;
      continue;
    }
    if (!a.ops.empty()) c = dl_diff::restrict_ops(c, dl_diff::parse_ids(a.ops));
    for (std::uint64_t r = 1; r <= a.repeat; ++r)
      execute(c, std::to_string(i) + (r > 1 ? "." + std::to_string(r) : std::string()));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  try {
    a = parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::string known;
    for (const auto& f : dl_diff::all_families()) known += (known.empty() ? "" : ",") + f;
    std::cerr << "dl_diff_app: " << e.what() << "\n" << kUsage << known << "\n";
    return 2;
  }
  try {
    return run(a);
  } catch (const std::invalid_argument& e) {
    std::cerr << "dl_diff_app: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dl_diff_app: " << e.what() << "\n";
    return 3;
  }
}
