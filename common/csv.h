// common/csv.h — timing tables. A table prints aligned to stderr for people and writes CSV
// for the plots; timings never go to the checked stdout.
//
// BandwidthTable is the workbook's standard table:
//   kernel,<key columns>,bytes,time_ms,gbps,pct_of_copy[,<extra columns>],min_ms,max_ms,in_l2,sm_mhz
// where pct_of_copy compares with the reference row ("copy" unless set_reference names another)
// of the same size, measured in the same run. time_ms is the median run (common/timer.h), min_ms and
// max_ms the fastest and slowest; in_l2 is 1 when `bytes` (read + written) fit in the GPU's L2, so a
// warm run could have been served from it (the timer flushes L2 before each run); sm_mhz is the SM
// clock measured right after the runs. Other timing tables append the same four columns with
// timing_columns() and timing_cells().
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "check.h"
#include "timer.h"

namespace wb {

inline std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Where a table named `name` goes: <dir>/<gpu>/<name>.csv.
inline std::string csv_path(const std::string& dir, const cudaDeviceProp& prop, const std::string& name) {
  return dir + "/" + gpu_slug(prop) + "/" + name + ".csv";
}

// The four columns every timing table ends with, and one row's cells of them.
inline std::vector<std::string> timing_columns() { return {"min_ms", "max_ms", "in_l2", "sm_mhz"}; }
inline std::vector<std::string> timing_cells(const Timing& t, double bytes, const cudaDeviceProp& prop) {
  return {fmt(t.min_ms, 4), fmt(t.max_ms, 4), bytes <= double(prop.l2CacheSize) ? "1" : "0", fmt(t.sm_mhz, 0)};
}

class CsvTable {
 public:
  explicit CsvTable(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  void add(std::vector<std::string> cells) {
    if (cells.size() != columns_.size()) {
      std::fprintf(stderr, "internal error: row of %zu cells for %zu columns\n", cells.size(),
                   columns_.size());
      std::exit(kFail);
    }
    rows_.push_back(std::move(cells));
  }

  void write(const std::string& path) const {
    std::filesystem::path p(path);
    std::error_code ec;
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
    std::ofstream out(p);
    if (!out) {
      std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
      std::exit(kFail);
    }
    auto line = [&](const std::vector<std::string>& cells) {
      for (size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << cells[i];
      out << "\n";
    };
    line(columns_);
    for (const auto& r : rows_) line(r);
    std::fprintf(stderr, "wrote %s\n", path.c_str());
  }

  void print(FILE* f) const {
    std::vector<size_t> w(columns_.size());
    for (size_t c = 0; c < columns_.size(); ++c) {
      w[c] = columns_[c].size();
      for (const auto& r : rows_) w[c] = std::max(w[c], r[c].size());
    }
    auto line = [&](const std::vector<std::string>& cells) {
      for (size_t c = 0; c < cells.size(); ++c)
        std::fprintf(f, c == 0 ? "%-*s" : "  %*s", static_cast<int>(w[c]), cells[c].c_str());
      std::fprintf(f, "\n");
    };
    line(columns_);
    for (const auto& r : rows_) line(r);
  }

  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  // Prints to stderr under `title`; writes <dir>/<gpu>/<name>.csv when dir is not empty.
  void report(const std::string& title, const std::string& dir, const cudaDeviceProp& prop,
              const std::string& name) const {
    std::fprintf(stderr, "\n%s\n", title.c_str());
    print(stderr);
    if (!dir.empty()) write(csv_path(dir, prop, name));
  }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

class BandwidthTable {
 public:
  struct Row {
    std::string kernel;
    std::vector<std::string> keys;  // the first key is "size"
    double bytes;
    Timing t;
    std::vector<std::string> extra;
  };

  BandwidthTable(std::vector<std::string> key_columns, std::vector<std::string> extra_columns = {})
      : keys_(std::move(key_columns)), extras_(std::move(extra_columns)) {}

  Row& add(const std::string& kernel, std::vector<std::string> keys, double bytes, Timing t) {
    rows_.push_back({kernel, std::move(keys), bytes, t, std::vector<std::string>(extras_.size())});
    return rows_.back();
  }

  std::vector<Row>& rows() { return rows_; }

  // The kernel whose bandwidth is 100% (a copy measured in the same run).
  void set_reference(std::string kernel) { reference_ = std::move(kernel); }

  // The reference's GB/s for the same size (first key), else the first reference row's.
  double copy_gbps(const Row& r) const {
    const Row* any = nullptr;
    for (const auto& c : rows_) {
      if (c.kernel != reference_) continue;
      if (!any) any = &c;
      if (c.keys[0] == r.keys[0]) return gbps(c.bytes, c.t.median_ms);
    }
    return any ? gbps(any->bytes, any->t.median_ms) : 0.0;
  }

  CsvTable table(const cudaDeviceProp& prop) const {
    std::vector<std::string> cols{"kernel"};
    cols.insert(cols.end(), keys_.begin(), keys_.end());
    for (const char* c : {"bytes", "time_ms", "gbps", "pct_of_copy"}) cols.push_back(c);
    cols.insert(cols.end(), extras_.begin(), extras_.end());
    for (const auto& c : timing_columns()) cols.push_back(c);
    CsvTable t(cols);
    for (const auto& r : rows_) {
      double g = gbps(r.bytes, r.t.median_ms), copy = copy_gbps(r);
      std::vector<std::string> cells{r.kernel};
      cells.insert(cells.end(), r.keys.begin(), r.keys.end());
      cells.push_back(fmt(r.bytes, 0));
      cells.push_back(fmt(r.t.median_ms, 4));
      cells.push_back(fmt(g, 1));
      cells.push_back(copy > 0 ? fmt(100.0 * g / copy, 1) : "");
      cells.insert(cells.end(), r.extra.begin(), r.extra.end());
      for (const auto& c : timing_cells(r.t, r.bytes, prop)) cells.push_back(c);
      t.add(cells);
    }
    return t;
  }

  // Prints to stderr; writes <dir>/<gpu>/<name>.csv when dir is not empty.
  void report(const std::string& dir, const cudaDeviceProp& prop, const std::string& name) const {
    CsvTable t = table(prop);
    std::string warm, batched;
    for (const auto& r : rows_) {
      if (!r.t.cold) warm += " " + r.kernel;
      else if (r.t.batch > 1) batched += " " + r.kernel + "@" + keys_of(r) + "x" + std::to_string(r.t.batch);
    }
    std::fprintf(stderr, "\n%s on %s (median of %d runs, L2 flushed before each run or batch; GB = 1e9 bytes; "
                 "in_l2: read + written fit in the %.0f MB L2)\n", name.c_str(), prop.name,
                 rows_.empty() ? 0 : rows_[0].t.reps, prop.l2CacheSize / 1e6);
    if (!warm.empty()) std::fprintf(stderr, "warm, no flush:%s\n", warm.c_str());
    if (!batched.empty()) std::fprintf(stderr, "cold, in batches of runs under 10 us (size x runs):%s\n", batched.c_str());
    t.print(stderr);
    if (!dir.empty()) t.write(csv_path(dir, prop, name));
  }

 private:
  static std::string keys_of(const Row& r) {
    std::string k;
    for (const auto& c : r.keys)
      if (!c.empty()) k += (k.empty() ? "" : "/") + c;
    return k;
  }

  std::vector<std::string> keys_, extras_;
  std::vector<Row> rows_;
  std::string reference_ = "copy";
};

}  // namespace wb
