// Controls::from(): every DL_* control is validated; a bad value is named in a warning
// and the default is used. Linked with the reader alone (no OpenCL device needed).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "controls.hpp"
#include "dl/layout.hpp"
#include "dl/marshal.hpp"

namespace {

using dl::rt::Controls;

struct Read {
  Controls c;
  std::vector<std::string> errors;
  std::string all() const {
    std::string s;
    for (const auto& e : errors) s += e + "\n";
    return s;
  }
};

Read read(const std::map<std::string, std::string>& env) {
  Read r;
  r.c = Controls::from(
      [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      &r.errors);
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Controls, DefaultsWithoutEnvironment) {
  const Read r = read({});
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.c.DL_LOG_LEVEL, "warn");
  EXPECT_EQ(r.c.DL_TILE, 0u);
  EXPECT_FALSE(r.c.DL_DISABLE);
  EXPECT_TRUE(r.c.faults.empty());
}

TEST(Controls, ValidValuesAreTaken) {
  const Read r = read({{"DL_LOG_LEVEL", "debug"},
                       {"DL_TILE", "1048576"},
                       {"DL_DISABLE", "yes"},
                       {"DL_ALGORITHM", "pttwac"},
                       {"DL_FAULT", "build, eval"},
                       {"DL_REPORT", "/some where/r.json"}});
  EXPECT_TRUE(r.errors.empty()) << r.all();
  EXPECT_EQ(r.c.DL_LOG_LEVEL, "debug");
  EXPECT_EQ(r.c.DL_TILE, 1048576u);
  EXPECT_TRUE(r.c.DL_DISABLE);
  EXPECT_EQ(r.c.DL_ALGORITHM, "pttwac");
  EXPECT_TRUE(r.c.fault("build"));
  EXPECT_TRUE(r.c.fault("eval"));
  EXPECT_FALSE(r.c.fault("alloc"));
  EXPECT_EQ(r.c.DL_REPORT, "/some where/r.json");
}

// DL_TILE=-1 silently became 4294967295 and DL_TILE=4294967296 truncated to 0.
TEST(Controls, NumbersAreRangeCheckedNotWrapped) {
  for (const char* bad : {"-1", "4294967296", "1048577", "18446744073709551616", "+4", " 4", "4 ",
                          "0x10", "16k", "1e3"}) {
    const Read r = read({{"DL_TILE", bad}});
    EXPECT_EQ(r.c.DL_TILE, 0u) << bad;
    ASSERT_EQ(r.errors.size(), 1u) << bad;
    EXPECT_TRUE(has(r.errors[0], std::string("DL_TILE='") + bad + "'")) << r.errors[0];
    EXPECT_TRUE(has(r.errors[0], "a whole number from 0 to 1048576")) << r.errors[0];
    EXPECT_TRUE(has(r.errors[0], "using the default 0")) << r.errors[0];
  }
}

// DL_LOG_LEVEL=bogus silenced every message, fallback warnings included.
TEST(Controls, BogusLogLevelKeepsWarn) {
  const Read r = read({{"DL_LOG_LEVEL", "bogus"}});
  EXPECT_EQ(r.c.DL_LOG_LEVEL, "warn");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_TRUE(has(r.errors[0], "DL_LOG_LEVEL='bogus' is not one of trace, debug, info, warn"))
      << r.errors[0];
  EXPECT_EQ(read({{"DL_LOG_LEVEL", "off"}}).c.DL_LOG_LEVEL, "off");
}

// DL_FAULT=bogus was ignored without a word.
TEST(Controls, UnknownFaultNamesAreReportedAndDropped) {
  const Read r = read({{"DL_FAULT", "bogus,alloc,,buidl"}});
  EXPECT_TRUE(r.c.fault("alloc"));
  EXPECT_FALSE(r.c.fault("bogus"));
  EXPECT_EQ(r.c.faults.size(), 1u);
  ASSERT_EQ(r.errors.size(), 2u) << r.all();
  EXPECT_TRUE(has(r.errors[0], "'bogus' is not one of build, alloc, program, eval")) << r.all();
  EXPECT_TRUE(has(r.errors[1], "'buidl'")) << r.all();
}

TEST(Controls, BooleansAndAlgorithmsAreChecked) {
  Read r = read({{"DL_DISABLE", "maybe"}, {"DL_SUMMARY", "2"}, {"DL_ALGORITHM", "fastest"}});
  EXPECT_FALSE(r.c.DL_DISABLE);
  EXPECT_FALSE(r.c.DL_SUMMARY);
  EXPECT_EQ(r.c.DL_ALGORITHM, "auto");
  EXPECT_TRUE(has(r.all(), "DL_DISABLE='maybe' is not a boolean")) << r.all();
  EXPECT_TRUE(has(r.all(), "DL_SUMMARY='2' is not a boolean")) << r.all();
  EXPECT_TRUE(has(r.all(), "DL_ALGORITHM='fastest' is not one of auto, barrier-sync")) << r.all();
}

TEST(Controls, EmptyValuesAreTheDefault) {
  const Read r = read({{"DL_LOG_LEVEL", ""}, {"DL_TILE", ""}, {"DL_ALGORITHM", ""}});
  EXPECT_TRUE(r.errors.empty()) << r.all();
  EXPECT_EQ(r.c.DL_LOG_LEVEL, "warn");
  EXPECT_EQ(r.c.DL_ALGORITHM, "auto");
}

// The table's accepted values match what the rest of DL takes.
TEST(Controls, TableMatchesTheLibraries) {
  for (const auto& c : dl::rt::control_table()) {
    const std::string name = c.name;
    if (name == "DL_TILE") {
      EXPECT_EQ(std::string(c.values), "0.." + std::to_string(dl::kMaxTile));
    }
    if (name != "DL_ALGORITHM") continue;
    const std::string listed = std::string("|") + c.values + "|";
    for (int a = 0; a < 64; ++a) {
      const std::string n = dl::algorithm_name(static_cast<dl::Algorithm>(a));
      if (n.empty() || n == "?") break;
      EXPECT_TRUE(has(listed, "|" + n + "|")) << n << " is missing from DL_ALGORITHM's values";
      dl::Algorithm back{};
      EXPECT_TRUE(dl::parse_algorithm(n, back)) << n;
    }
  }
}
