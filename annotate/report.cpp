// --report formatting (see report.hpp).
#include "report.hpp"

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

namespace dl::annotate {

namespace {

std::string local_size_text(const KernelReuse& k) {
  std::string s = std::to_string(k.local_size[0]);
  const unsigned shown = k.local_size[2] > 1 ? 3 : k.local_size[1] > 1 ? 2 : 1;
  for (unsigned d = 1; d < shown; ++d) s += "x" + std::to_string(k.local_size[d]);
  return s;
}

void reuse_text(std::ostringstream& o, const std::vector<KernelReuse>& reuse) {
  if (reuse.empty()) return;
  o << "reuse across a work-group (docs/annotation.md, \"Reuse\"):\n";
  for (const auto& k : reuse) {
    o << "kernel " << k.name << " (line " << k.line << "), work-group " << local_size_text(k)
      << ", local memory " << k.local_mem << " bytes\n";
    if (k.args.empty()) o << "  no __global or __constant buffers\n";
    for (const auto& a : k.args) {
      o << "  " << a.name << ": ";
      char factor[32];
      std::snprintf(factor, sizeof factor, "%.2f", a.reuse_factor);
      if (!a.analysed)
        o << "not analysed: " << a.why;
      else if (!a.read)
        o << "not read" << (a.written ? " (written)" : "");
      else
        o << "reuse factor " << factor << " (" << a.reads << " reads of " << a.elements
          << " elements); footprint " << a.footprint << " bytes, "
          << (a.fits_local ? "fits" : "does not fit") << " in local memory"
          << (a.written ? "; also written" : "");
      o << "\n";
      for (const auto& s : a.assumptions) o << "    assuming " << s << "\n";
    }
  }
}

nlohmann::json reuse_json(const std::vector<KernelReuse>& reuse) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& k : reuse) {
    nlohmann::json jk{{"kernel", k.name},           {"line", k.line},
                      {"local_size", k.local_size}, {"dims", k.dims},
                      {"local_mem", k.local_mem},   {"args", nlohmann::json::array()}};
    for (const auto& a : k.args)
      jk["args"].push_back({{"name", a.name},
                            {"analysed", a.analysed},
                            {"why", a.why},
                            {"read", a.read},
                            {"written", a.written},
                            {"reads", a.reads},
                            {"elements", a.elements},
                            {"reuse_factor", a.reuse_factor},
                            {"footprint_bytes", a.footprint},
                            {"fits_local", a.fits_local},
                            {"assumptions", a.assumptions}});
    j.push_back(jk);
  }
  return j;
}

}  // namespace

std::string report_text(const std::string& file, const std::vector<KernelReport>& kernels,
                        const std::vector<KernelReuse>& reuse) {
  std::ostringstream o;
  o << "dl-annotate report for " << file << "\n";
  if (kernels.empty()) o << "  no annotated kernels\n";
  for (const auto& k : kernels) {
    o << "kernel " << k.name << " (line " << k.line
      << "): " << (k.transformed ? "transformed" : "left untransformed: " + k.status) << "\n";
    if (k.inferred) {
      o << "  inferred annotation: " << (k.annotation.empty() ? "none" : k.annotation) << "\n";
      for (const auto& a : k.inference)
        o << "    " << a.name << ": " << (a.inferred ? "" : "not inferred: ") << a.what << "\n";
    }
    for (const auto& a : k.args) {
      o << "  " << a.name << ": record " << a.record << "; n = " << a.count << "\n";
      o << "    accesses: "
        << (a.unit + a.strided + a.invariant + a.gather + a.irregular + a.uniform) << " ("
        << a.reads << " read, " << a.writes << " write, " << a.whole
        << " whole-record); unit-stride " << a.unit << ", strided AoS " << a.strided
        << ", loop-invariant " << a.invariant << ", uniform " << a.uniform << ", gather "
        << a.gather << ", irregular " << a.irregular;
      if (a.unknown) o << " (" << a.unknown << " of them not seen: moved pointer or helper)";
      o << "\n";
      o << "    pattern: " << a.pattern << "\n";
      o << "    layout: " << a.layout << " - " << a.reason << "\n";
      if (a.divisions)
        o << "    address: " << a.divisions
          << " access(es) through dl_flat, a division per access: " << a.division << "\n";
    }
    for (const auto& a : k.staging)
      o << "  " << a.name << ": " << (a.staged ? "staged in local memory: " : "not staged: ")
        << a.what << "\n";
  }
  reuse_text(o, reuse);
  return o.str();
}

std::string infer_text(const std::string& file, const std::vector<KernelReport>& kernels) {
  std::ostringstream o;
  const std::size_t slash = file.find_last_of('/');
  o << "// dl-annotate --infer " << (slash == std::string::npos ? file : file.substr(slash + 1))
    << ": put each //DL: line above its kernel (docs/annotation.md)\n";
  unsigned n = 0;
  for (const auto& k : kernels) {
    if (!k.inferred) continue;
    ++n;
    o << "// kernel " << k.name << " (line " << k.line << ")";
    if (k.annotation.empty())
      o << ": nothing inferred" << (k.status.empty() ? "" : " (" + k.status + ")");
    o << "\n";
    for (const auto& a : k.inference)
      o << "//   " << a.name << ": " << (a.inferred ? "" : "not inferred: ") << a.what << "\n";
    if (!k.annotation.empty()) o << k.annotation << "\n";
  }
  if (!n) o << "// no kernel without a //DL: annotation\n";
  return o.str();
}

std::string report_json(const std::string& file, const std::vector<KernelReport>& kernels,
                        const std::vector<KernelReuse>& reuse) {
  nlohmann::json j;
  j["file"] = file;
  j["kernels"] = nlohmann::json::array();
  for (const auto& k : kernels) {
    nlohmann::json jk{{"name", k.name},
                      {"line", k.line},
                      {"transformed", k.transformed},
                      {"status", k.status},
                      {"args", nlohmann::json::array()}};
    if (k.inferred) {
      jk["inferred"] = {{"annotation", k.annotation}, {"args", nlohmann::json::array()}};
      for (const auto& a : k.inference)
        jk["inferred"]["args"].push_back(
            {{"name", a.name}, {"inferred", a.inferred}, {"what", a.what}});
    }
    for (const auto& a : k.args)
      jk["args"].push_back({{"name", a.name},
                            {"record", a.record},
                            {"count", a.count},
                            {"accesses",
                             {{"unit_stride", a.unit},
                              {"strided_aos", a.strided},
                              {"loop_invariant", a.invariant},
                              {"gather", a.gather},
                              {"uniform", a.uniform},
                              {"irregular", a.irregular},
                              {"index_not_seen", a.unknown},
                              {"reads", a.reads},
                              {"writes", a.writes},
                              {"whole_record", a.whole}}},
                            {"pattern", a.pattern},
                            {"layout", a.layout},
                            {"reason", a.reason},
                            {"flat_divisions", a.divisions},
                            {"flat_division_why", a.division}});
    if (!k.staging.empty()) {
      jk["staging"] = nlohmann::json::array();
      for (const auto& a : k.staging)
        jk["staging"].push_back({{"name", a.name}, {"staged", a.staged}, {"what", a.what}});
    }
    j["kernels"].push_back(jk);
  }
  j["reuse"] = reuse_json(reuse);
  return j.dump(2) + "\n";
}

}  // namespace dl::annotate
