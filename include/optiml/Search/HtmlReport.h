//===- HtmlReport.h - the trajectory as one self-contained page -*- C++ -*-===//
//
// The Markdown report's content plus a plot of the best speedup over
// evaluations, in one HTML file with its style and an inline SVG: no
// scripts, stylesheets or fonts from elsewhere, so it opens from a GPU
// machine's log tarball as it is.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_HTMLREPORT_H
#define OPTIML_SEARCH_HTMLREPORT_H

#include "optiml/Search/TrajectoryReport.h"

namespace optiml {

/// \p Text with &, <, >, " and ' escaped, for element text and attributes.
std::string escapeHtml(llvm::StringRef Text);

/// The plot alone: one mark per evaluation (a dot for a verified
/// candidate at its measured speedup, a cross on the axis for a failed
/// one; each carries class "ok" or "failed" and data-eval="N"), and the
/// best speedup so far as a step line (class "best").
std::string speedupPlotSvg(const Trajectory &T);

/// The whole page.
std::string toHtml(const Trajectory &T);

} // namespace optiml

#endif // OPTIML_SEARCH_HTMLREPORT_H
