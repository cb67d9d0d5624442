// K-means shaped like Rodinia's kmeans (Dymaxion's first case study): npoints points of
// nfeatures floats, row-major; each iteration the device assigns every point to its
// nearest of nclusters centres and the host moves each centre to the mean of its points.
// The row-major application, and its kernel hand-written in row-major (AoS), column-major
// (DA) and ASTA(T). Plain OpenCL.
//
//   dl-app-kmeans [--npoints 1048576] [--nfeatures 34] [--nclusters 5] [--T 16,32,64]
//                 [--repeats 5] [--json f] [--rewritten [label=]FILE,...]
//   dl-app-kmeans --mode app [--iters 10]   (the annotated row-major kernel only)
//   dl-app-kmeans --mode app --host-ptr ... (the points a CL_MEM_USE_HOST_PTR buffer over
//                                            the host array)
#include <chrono>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

/// Squared distance of point p to centre c, in the kernel's order of operations.
float distance(const std::vector<float>& feature, const std::vector<float>& centres, std::size_t nf,
               std::size_t p, std::size_t c) {
  float d = 0.0f;
  for (std::size_t f = 0; f < nf; ++f) {
    const float x = feature[p * nf + f] - centres[c * nf + f];
    d += x * x;
  }
  return d;
}

/// Every point's centre is one of its nearest: its distance at most the nearest's plus a
/// few ulp (a compiler may contract the sum into fmas, which moves ties).
void check(const std::vector<int>& got, const std::vector<float>& feature,
           const std::vector<float>& centres, std::size_t np, std::size_t nf, std::size_t nc,
           const std::string& what) {
  for (std::size_t p = 0; p < np; ++p) {
    const int c = got[p];
    if (c < 0 || std::size_t(c) >= nc)
      dlb::fail("kmeans " + what + ": point " + std::to_string(p) + " in cluster " +
                std::to_string(c));
    float best = distance(feature, centres, nf, p, 0);
    for (std::size_t k = 1; k < nc; ++k)
      best = std::min(best, distance(feature, centres, nf, p, k));
    const float d = distance(feature, centres, nf, p, std::size_t(c));
    if (!(d <= best * (1.0f + 1e-5f) + 1e-6f))
      dlb::fail("kmeans " + what + ": point " + std::to_string(p) + " is " + std::to_string(d) +
                " from its centre, " + std::to_string(best) + " from the nearest");
  }
}

/// Moves each centre to the mean of its points (a centre without points stays).
void update(std::vector<float>& centres, const std::vector<float>& feature,
            const std::vector<int>& member, std::size_t nf, std::size_t nc) {
  std::vector<double> sum(nc * nf, 0.0);
  std::vector<std::size_t> count(nc, 0);
  for (std::size_t p = 0; p < member.size(); ++p) {
    const auto c = std::size_t(member[p]);
    ++count[c];
    for (std::size_t f = 0; f < nf; ++f) sum[c * nf + f] += feature[p * nf + f];
  }
  for (std::size_t c = 0; c < nc; ++c)
    if (count[c])
      for (std::size_t f = 0; f < nf; ++f)
        centres[c * nf + f] = float(sum[c * nf + f] / double(count[c]));
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "kmeans");
  const std::size_t np = std::size_t(args.num("npoints", 1 << 20));
  const std::size_t nf = std::size_t(args.num("nfeatures", 34));
  const std::size_t nc = std::size_t(args.num("nclusters", 5));
  if (np < 1 || np > std::size_t(0x7fffffff) || nf < 1 || nf > 256 || nc < 1 || nc > 64 || nc > np)
    throw std::runtime_error(
        "--npoints 1..2^31-1, --nfeatures 1..256, --nclusters 1..64 and at most npoints");
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("kmeans on %s: %zu points of %zu features, %zu clusters\n", d.name.c_str(), np, nf,
              nc);

  // Points around nc random centres (a fixed seed); the first nc points start as centres.
  std::vector<float> feature(np * nf);
  dlb::Rng rng(42);
  std::vector<float> around(nc * nf);
  for (float& x : around) x = rng.uniform(-10.0f, 10.0f);
  for (std::size_t p = 0; p < np; ++p)
    for (std::size_t f = 0; f < nf; ++f)
      feature[p * nf + f] = around[(p % nc) * nf + f] + rng.uniform(-4.0f, 4.0f);
  std::vector<float> first(feature.begin(), feature.begin() + std::ptrdiff_t(nc * nf));
  const std::size_t fbytes = feature.size() * sizeof(float), cbytes = nc * nf * sizeof(float);
  const std::size_t mbytes = np * sizeof(int);
  const cl_int np_arg = cl_int(np), nc_arg = cl_int(nc), nf_arg = cl_int(nf);
  const std::string record = "flat_float_" + std::to_string(nf) + " " +
                             std::to_string(nf * sizeof(float)) + " 4 float*" + std::to_string(nf) +
                             ":v@0";
  std::vector<int> member(np);
  // App mode: the points in a CL_MEM_USE_HOST_PTR buffer over the host array.
  const bool host_ptr = args.has("host-ptr");

  json out = dlb::app_json(d, o, "kmeans", argc, argv);

  // Runs `src` with `opts`, the points in the layout of width W. iters > 0: the
  // application (each iteration: the centres written, the kernel, the memberships read,
  // the centres moved on the host), returns the mean kernel ms; iters == 0: the median
  // kernel ms of repeated launches with the first centres. Checks every assignment.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<float> centres = first;
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel kern = dlb::make_kernel(p, "kmeans_assign");
    cl_mem c_buf = dlb::make_buffer(d, cbytes, CL_MEM_READ_ONLY);
    cl_mem m_buf = dlb::make_buffer(d, mbytes);
    auto in = dlb::to_tiled(feature, nf, np, W);
    cl_mem f_buf = nullptr;
    if (host_ptr && iters > 0) {
      // The application's points where they are: a buffer over the host array.
      cl_int err = CL_SUCCESS;
      f_buf = clCreateBuffer(d.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, fbytes, in.data(),
                             &err);
      dlb::check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
    } else {
      f_buf = dlb::make_buffer(d, fbytes, CL_MEM_READ_ONLY);
      dlb::write(d, f_buf, in.data(), fbytes);
    }
    dlb::set_arg(kern, 0, f_buf);
    dlb::set_arg(kern, 1, c_buf);
    dlb::set_arg(kern, 2, m_buf);
    dlb::set_arg(kern, 3, np_arg);
    dlb::set_arg(kern, 4, nc_arg);
    dlb::set_arg(kern, 5, nf_arg);
    auto launch = [&] { return dlb::launch_1d(d, kern, np, 64); };
    double ms = 0;
    if (iters > 0) {
      for (int it = 0; it < iters; ++it) {
        dlb::write(d, c_buf, centres.data(), cbytes);
        cl_event e = launch();
        dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
        ms += dlb::event_ms(e) / iters;
        clReleaseEvent(e);
        dlb::read(d, m_buf, member.data(), mbytes);
        check(member, feature, centres, np, nf, nc, what + " iteration " + std::to_string(it));
        update(centres, feature, member, nf, nc);
      }
    } else {
      dlb::write(d, c_buf, centres.data(), cbytes);
      ms = dlb::time_kernel(o.repeats, launch);
      dlb::read(d, m_buf, member.data(), mbytes);
      check(member, feature, centres, np, nf, nc, what);
    }
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    clReleaseMemObject(f_buf);
    clReleaseMemObject(c_buf);
    clReleaseMemObject(m_buf);
    clReleaseKernel(kern);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name =
      std::to_string(np) + "x" + std::to_string(nf) + ", " + std::to_string(nc) + " clusters";
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    const std::string fnv = dlb::last_read_fnv();
    std::printf("app mode: %d iterations, %.3f ms per launch, %.1f ms wall, check ok\n", o.iters,
                ms, wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"npoints", np},
                                 {"nfeatures", nf},
                                 {"nclusters", nc},
                                 {"iters", o.iters},
                                 {"host_ptr", host_ptr},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", fnv}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "kmeans");
  json c{{"case", case_name}, {"npoints", np}, {"nfeatures", nf}, {"nclusters", nc}};
  dlb::bench_case(o, np, nf * sizeof(float), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "feature"}, {"record", record}, {"n", np}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-kmeans: %s\n", e.what());
  return 2;
}
