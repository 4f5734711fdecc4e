// common/svg.h — a small, byte-deterministic SVG writer for the chapters' diagrams.
//
// The diagrams are computed from the chapters' CPU models (the code the golden tests prove equal to
// the GPU), so a picture shows what the hardware does and cannot drift: the `<name>.diagrams` test
// redraws them and compares with the committed files byte for byte (tests/diagram_check.py).
// Deterministic by construction: numbers are printed with at most two decimals, there are no dates
// and no random ids, and the arrowhead markers are emitted in sorted order of their colour.
//
//   wb::svg::Doc d(640, 200, "What the picture shows (its <title>, also the README's alt text)");
//   d.rect(10, 10, 20, 20, wb::svg::kSky, wb::svg::kBlack);
//   d.arrow(20, 30, 60, 90, wb::svg::kVermillion);
//   d.text(40, 120, "lane 5");
//   d.legend(10, 180, {{wb::svg::kSky, "in the mask"}, {wb::svg::kGrey, "not in the mask"}});
//   d.write("out.svg");   // false (and a message on stderr) if the file cannot be written
//
// Colours: the Okabe-Ito palette, which readers with the common colour-vision deficiencies can
// tell apart; where colour means something, a diagram draws a legend (and prints the number).
#pragma once

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wb::svg {

constexpr const char* kBlack = "#000000";
constexpr const char* kOrange = "#E69F00";
constexpr const char* kSky = "#56B4E9";
constexpr const char* kGreen = "#009E73";
constexpr const char* kYellow = "#F0E442";
constexpr const char* kBlue = "#0072B2";
constexpr const char* kVermillion = "#D55E00";
constexpr const char* kPurple = "#CC79A7";
constexpr const char* kGrey = "#999999";
constexpr const char* kLight = "#E8E8E8";
constexpr const char* kWhite = "#FFFFFF";
constexpr const char* kNone = "none";

// The eight Okabe-Ito colours in an order that keeps neighbours distinct (for a cyclic colouring,
// e.g. banks mod 8; always print the number beside such a colour).
inline const char* cyclic(int i) {
  static const char* k[] = {kSky, kOrange, kGreen, kYellow, kBlue, kVermillion, kPurple, kGrey};
  return k[((i % 8) + 8) % 8];
}

// A number with at most two decimals and no trailing zeros ("12", "12.5", "-0.25").
inline std::string num(double v) {
  if (std::fabs(v) < 0.005) v = 0.0;
  char b[48];
  std::snprintf(b, sizeof b, "%.2f", v);
  std::string s(b);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// Text escaped for XML content and attribute values.
inline std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

class Doc {
 public:
  // width and height in pixels; title names the picture (the SVG's <title>, read by screen readers
  // and checked by the diagram test); desc is an optional longer <desc>.
  Doc(double width, double height, std::string title, std::string desc = "")
      : w_(width), h_(height), title_(std::move(title)), desc_(std::move(desc)) {}

  // extra: further attributes, e.g. "data-lane=\"3\"" (written as given).
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& stroke = kNone, double stroke_width = 1, const std::string& extra = "") {
    body_ += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) +
             "\" fill=\"" + fill + "\"" + stroke_attr(stroke, stroke_width) + sp(extra) + "/>\n";
  }
  void circle(double cx, double cy, double r, const std::string& fill, const std::string& stroke = kNone,
              double stroke_width = 1, const std::string& extra = "") {
    body_ += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"" + num(r) + "\" fill=\"" + fill + "\"" +
             stroke_attr(stroke, stroke_width) + sp(extra) + "/>\n";
  }
  // dash: a stroke-dasharray such as "4 3" (empty: solid).
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, double stroke_width = 1,
            const std::string& dash = "", const std::string& extra = "") {
    body_ += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"" +
             stroke_attr(stroke, stroke_width) + dash_attr(dash) + sp(extra) + "/>\n";
  }
  // A line with an arrowhead at (x2, y2).
  void arrow(double x1, double y1, double x2, double y2, const std::string& stroke, double stroke_width = 1.5,
             const std::string& dash = "", const std::string& extra = "") {
    markers_.insert(stroke);
    line(x1, y1, x2, y2, stroke, stroke_width, dash, "marker-end=\"url(#" + marker_id(stroke) + ")\"" + sp(extra));
  }
  // A path (SVG path data d); arrow: an arrowhead at its end.
  void path(const std::string& d, const std::string& stroke, const std::string& fill = kNone,
            double stroke_width = 1.5, bool with_arrow = false, const std::string& dash = "",
            const std::string& extra = "") {
    std::string a = extra;
    if (with_arrow) {
      markers_.insert(stroke);
      a = "marker-end=\"url(#" + marker_id(stroke) + ")\"" + sp(extra);
    }
    body_ += "<path d=\"" + d + "\" fill=\"" + fill + "\"" + stroke_attr(stroke, stroke_width) + dash_attr(dash) +
             sp(a) + "/>\n";
  }
  // anchor: start, middle or end; the baseline is at y.
  void text(double x, double y, const std::string& s, double size = 12, const std::string& anchor = "middle",
            const std::string& fill = kBlack, bool bold = false, const std::string& extra = "") {
    body_ += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\"" +
             (anchor == "start" ? std::string() : " text-anchor=\"" + anchor + "\"") +
             (fill == kBlack ? std::string() : " fill=\"" + fill + "\"") +
             (bold ? " font-weight=\"bold\"" : "") + sp(extra) + ">" + esc(s) + "</text>\n";
  }
  // Swatches with labels in one row from (x, y) (y: the swatches' top); returns the x past the last.
  double legend(double x, double y, const std::vector<std::pair<std::string, std::string>>& items,
                double size = 12) {
    for (const auto& [colour, label] : items) {
      rect(x, y, size, size, colour, kBlack, 0.75);
      text(x + size + 4, y + size - 2, label, size, "start");
      x += size + 4 + 0.62 * size * static_cast<double>(label.size()) + 16;
    }
    return x;
  }
  // Anything else, written as given (a <g>, a <polygon>...).
  void raw(const std::string& s) { body_ += s; }

  double width() const { return w_; }
  double height() const { return h_; }

  std::string str() const {
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w_) + "\" height=\"" + num(h_) +
                    "\" viewBox=\"0 0 " + num(w_) + " " + num(h_) +
                    "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n";
    s += "<title>" + esc(title_) + "</title>\n";
    if (!desc_.empty()) s += "<desc>" + esc(desc_) + "</desc>\n";
    if (!markers_.empty()) {
      s += "<defs>\n";
      for (const auto& c : markers_)
        s += "<marker id=\"" + marker_id(c) +
             "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
             "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"" + c + "\"/></marker>\n";
      s += "</defs>\n";
    }
    s += "<rect x=\"0\" y=\"0\" width=\"" + num(w_) + "\" height=\"" + num(h_) + "\" fill=\"#FFFFFF\"/>\n";
    return s + body_ + "</svg>\n";
  }

  bool write(const std::string& file) const {
    FILE* f = std::fopen(file.c_str(), "wb");
    if (!f) {
      std::perror(file.c_str());
      return false;
    }
    const std::string s = str();
    const bool ok = std::fwrite(s.data(), 1, s.size(), f) == s.size();
    return (std::fclose(f) == 0) && ok;
  }

 private:
  static std::string sp(const std::string& extra) { return extra.empty() ? "" : " " + extra; }
  static std::string stroke_attr(const std::string& stroke, double w) {
    if (stroke == kNone) return "";
    return " stroke=\"" + stroke + "\"" + (w == 1 ? std::string() : " stroke-width=\"" + num(w) + "\"");
  }
  static std::string dash_attr(const std::string& dash) {
    return dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"";
  }
  static std::string marker_id(const std::string& colour) {
    std::string id = "arrow-";
    for (char c : colour)
      if (std::isalnum(static_cast<unsigned char>(c))) id += c;
    return id;
  }

  double w_, h_;
  std::string title_, desc_, body_;
  std::set<std::string> markers_;
};

// The folder argument of a diagram program: `prog OUTDIR` writes OUTDIR/<name>.svg for each of its
// diagrams and prints one line per file. Returns 0, or 1 if a file could not be written, 2 on a bad
// command line.
struct Writer {
  std::string dir;
  int rc = 0;
  void operator()(const std::string& name, const Doc& d) {
    const std::string path = dir + "/" + name + ".svg";
    if (!d.write(path)) rc = 1;
    else std::printf("wrote %s\n", path.c_str());
  }
};

inline bool parse_outdir(int argc, char** argv, Writer& w) {
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: %s OUTDIR   (writes OUTDIR/<diagram>.svg)\n", argc > 0 ? argv[0] : "diagrams");
    return false;
  }
  w.dir = argv[1];
  return true;
}

}  // namespace wb::svg
