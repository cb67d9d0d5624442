// SpMV in ELL format with each row's entries stored together (AoS ELL), on Matrix Market
// files and on synthetic matrices with the shapes of the DL paper's Table 1. The AoS
// application and its kernel hand-written in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-spmv [--matrices bcsstk18,table1] [--matrix-dir DIR] [--T 16,32,64] [--json f]
//   dl-app-spmv --mode app [--iters 10]           (the annotated AoS kernel only)
//   dl-app-spmv --variants ...  also times spmv_variants.cl's ways of walking a row
// --matrices: NAME (NAME.mtx in the matrix directory), a path to a .mtx file,
// synthetic:ROWSxK, table1 (all six shapes) or table1:NAME.
#include <sys/stat.h>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"
#include "matrix.hpp"

#ifndef DL_MATRIX_DIR
#define DL_MATRIX_DIR ""
#endif

using nlohmann::json;

namespace {

bool exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

/// The matrix directory: --matrix-dir, $DL_MATRIX_DIR, the build's DL_MATRIX_DIR, or
/// shared/data/matrices beside or inside a parent of the working directory.
std::string matrix_dir(const dlb::Args& a) {
  if (a.has("matrix-dir")) return a.str("matrix-dir", "");
  if (const char* e = std::getenv("DL_MATRIX_DIR")) return e;
  if (exists(DL_MATRIX_DIR)) return DL_MATRIX_DIR;
  std::string up = ".";
  for (int i = 0; i < 6; ++i, up += "/..") {
    for (const char* c : {"/shared/data/matrices", "/../shared/data/matrices"})
      if (exists(up + c)) return up + c;
  }
  return "";
}

std::vector<spmv::Ell> load(const std::vector<std::string>& names, const std::string& dir) {
  std::vector<spmv::Ell> out;
  for (const auto& n : names) {
    if (n == "table1" || n.rfind("table1:", 0) == 0) {
      for (const auto& s : spmv::table1())
        if (n == "table1" || n.substr(7) == s.name)
          out.push_back(spmv::synthetic(std::string("syn-") + s.name, s.rows, s.K));
    } else if (n.rfind("synthetic:", 0) == 0) {
      const std::string shape = n.substr(10);
      const auto x = shape.find('x');
      out.push_back(spmv::synthetic("syn-" + shape, std::stoul(shape.substr(0, x)),
                                    std::stoul(shape.substr(x + 1))));
    } else {
      const bool path = n.size() > 4 && n.substr(n.size() - 4) == ".mtx";
      const std::string file = path ? n : dir + "/" + n + ".mtx";
      if (!exists(file)) {
        std::fprintf(stderr,
                     "dl-app-spmv: %s not found (set --matrix-dir or DL_MATRIX_DIR); skipped\n",
                     file.c_str());
        continue;
      }
      std::string stem = file.substr(file.rfind('/') + 1);
      out.push_back(spmv::read_matrix_market(file, stem.substr(0, stem.size() - 4)));
    }
  }
  return out;
}

void reference(const spmv::Ell& m, const std::vector<float>& x, std::vector<double>& y,
               std::vector<double>& mag) {
  y.assign(m.rows, 0.0);
  mag.assign(m.rows, 0.0);
  for (std::size_t i = 0; i < m.rows; ++i)
    for (std::size_t k = 0; k < m.K; ++k) {
      const double p = double(m.val[i * m.K + k]) * x[std::size_t(m.col[i * m.K + k])];
      y[i] += p;
      mag[i] += std::abs(p);
    }
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "spmv");
  const auto names = args.words("matrices", {"bcsstk18", "table1"});
  const std::string dir = matrix_dir(args);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("spmv on %s (matrices from %s)\n", d.name.c_str(), dir.empty() ? "-" : dir.c_str());
  const auto mats = load(names, dir);
  if (mats.empty()) dlb::fail("spmv: no matrix to run");

  json out = dlb::app_json(d, o, "spmv", argc, argv);
  out["cases"] = json::array();
  const std::string annotated = dlb::read_text(o.kernel);
  const std::string variants = o.mode == "app" ? "" : dlb::variant_source(o, "spmv");
  const std::string variant_walks = args.has("variants")
                                        ? dlb::read_text(o.kernel_dir + "/layouts.h") + "\n" +
                                              dlb::read_text(o.kernel_dir + "/spmv_variants.cl")
                                        : "";

  for (const auto& m : mats) {
    std::vector<float> x(m.cols);
    dlb::Rng rng(m.rows);
    for (auto& v : x) v = rng.uniform(0.5f, 1.5f);
    std::vector<double> want, mag;
    reference(m, x, want, mag);
    const cl_uint rows = cl_uint(m.rows), K = cl_uint(m.K);
    const std::size_t eb = m.rows * m.K * 4;

    auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                   const std::string& what, double* wall_ms) {
      const auto t0 = std::chrono::steady_clock::now();
      cl_program p = dlb::build_program(d, src, opts);
      cl_kernel k = dlb::make_kernel(p, "spmv_ell");
      cl_mem val = dlb::make_buffer(d, eb, CL_MEM_READ_ONLY);
      cl_mem col = dlb::make_buffer(d, eb, CL_MEM_READ_ONLY);
      cl_mem xb = dlb::make_buffer(d, x.size() * 4, CL_MEM_READ_ONLY);
      cl_mem yb = dlb::make_buffer(d, m.rows * 4);
      const auto v = dlb::to_tiled(m.val, m.K, m.rows, W);
      const auto c = dlb::to_tiled(m.col, m.K, m.rows, W);
      dlb::write(d, val, v.data(), eb);
      dlb::write(d, col, c.data(), eb);
      dlb::write(d, xb, x.data(), x.size() * 4);
      std::vector<float> y(m.rows, -777.0f);  // poison
      dlb::write(d, yb, y.data(), y.size() * 4);
      dlb::set_arg(k, 0, val);
      dlb::set_arg(k, 1, col);
      dlb::set_arg(k, 2, xb);
      dlb::set_arg(k, 3, yb);
      dlb::set_arg(k, 4, rows);
      dlb::set_arg(k, 5, K);
      double ms = 0;
      if (iters > 0) {
        for (int it = 0; it < iters; ++it) {
          cl_event e = dlb::launch_1d(d, k, m.rows, 128);
          dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
          ms += dlb::event_ms(e) / iters;
          clReleaseEvent(e);
        }
      } else {
        ms = dlb::time_kernel(o.repeats, [&] { return dlb::launch_1d(d, k, m.rows, 128); });
      }
      dlb::read(d, yb, y.data(), y.size() * 4);
      if (wall_ms)
        *wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                       .count();
      for (std::size_t i = 0; i < m.rows; ++i)
        if (!(std::abs(y[i] - want[i]) <= 1e-5 * mag[i] + 1e-6))
          dlb::fail("spmv " + m.name + " " + what + ": y[" + std::to_string(i) +
                    "] = " + std::to_string(y[i]) + ", expected " + std::to_string(want[i]));
      for (cl_mem b : {val, col, xb, yb}) clReleaseMemObject(b);
      clReleaseKernel(k);
      clReleaseProgram(p);
      return ms;
    };

    json c{{"case", m.name}, {"rows", m.rows}, {"K", m.K}, {"nnz", m.nnz}};
    if (o.mode == "app") {
      double wall = 0;
      c["iters"] = o.iters;
      c["kernel_ms"] = run(annotated, "", 1, o.iters, "app", &wall);
      c["wall_ms"] = wall;
      c["result_fnv"] = dlb::last_read_fnv();
      std::printf("%-14s app mode: %.4f ms per launch, %.1f ms wall, check ok\n", m.name.c_str(),
                  c["kernel_ms"].get<double>(), wall);
      out["cases"].push_back(c);
      continue;
    }
    json ms = json::object(), speed = json::object();
    double aos = 0;
    std::printf("%-14s %6zu x %3zu:", m.name.c_str(), m.rows, m.K);
    for (const auto& l : o.layouts) {
      const double t = run(variants, l.options(), l.width(m.rows), 0, l.name(), nullptr);
      if (l.tile == 1) aos = t;
      ms[l.name()] = t;
      speed[l.name()] = aos / t;
      std::printf("  %s %.4f ms (x%.2f)", l.name().c_str(), t, aos / t);
    }
    std::printf("\n");
    c["annotated_aos_ms"] = run(annotated, "", 1, 0, "annotated", nullptr);
    c["rewritten_ms"] = dlb::time_rewritten(
        o, m.rows, 4 * m.K, "",
        [&](const std::string& s, const std::string& opts, std::size_t W, const std::string& what) {
          return run(s, opts, W, 0, what, nullptr);
        });
    if (args.has("variants")) {
      // How a work-item walks its row (spmv_variants.cl), on DA and every ASTA(T).
      json v = json::object();
      for (const auto& l : o.layouts) {
        if (l.tile == 1) continue;
        for (const char* walk : {"FORMULA", "STRIDE", "SPLIT"}) {
          if (l.tile == 0 && std::string(walk) == "SPLIT") continue;
          for (int unroll : {1, 4}) {
            const std::string name =
                l.name() + " " + walk + (unroll > 1 ? " unroll " + std::to_string(unroll) : "");
            const std::string opts =
                l.options() + " -DV_" + walk + " -DV_UNROLL=" + std::to_string(unroll);
            v[name] = run(variant_walks, opts, l.width(m.rows), 0, name, nullptr);
          }
        }
      }
      std::printf("%-14s variants:", m.name.c_str());
      for (const auto& [name, t] : v.items())
        std::printf("  %s %.4f", name.c_str(), t.get<double>());
      std::printf("\n");
      c["variants_ms"] = v;
    }
    c["kernel_ms"] = ms;
    c["speedup"] = speed;
    c["check"] = "ok";
    const std::string K4 = std::to_string(m.K * 4), Ks = std::to_string(m.K);
    c["buffers"] = json::array({{{"name", "val"},
                                 {"record", "val_row " + K4 + " 4 float*" + Ks + ":v@0"},
                                 {"n", m.rows},
                                 {"readback", false}},
                                {{"name", "col"},
                                 {"record", "col_row " + K4 + " 4 int*" + Ks + ":c@0"},
                                 {"n", m.rows},
                                 {"readback", false}}});
    out["cases"].push_back(c);
  }
  out["under_dl"] = dlb::under_dl();
  if (o.mode != "app") std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-spmv: %s\n", e.what());
  return 2;
}
