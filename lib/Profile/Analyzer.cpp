//===- Analyzer.cpp - a stage-two micro-profiling analyzer ----------------===//

#include "optiml/Profile/Analyzer.h"

using namespace optiml;

Analyzer::~Analyzer() = default;
