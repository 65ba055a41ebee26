//===- RedZone.cpp - Canary bytes around every buffer ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "RedZone.h"

namespace optiml {

/// The red-zone canary: a 4-byte pattern that is neither a poison byte nor a
/// plausible small number, repeated over the whole zone.
const std::vector<unsigned char> &redZoneCanary() {
  static const std::vector<unsigned char> Pattern = [] {
    static const unsigned char Word[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    std::vector<unsigned char> P(RedZoneBytes);
    for (size_t I = 0; I < P.size(); ++I)
      P[I] = Word[I % 4];
    return P;
  }();
  return Pattern;
}

namespace {

/// Records damage in \p Zone (host copy of one red zone) into \p Report;
/// \p OffsetOfZone is the zone's byte offset relative to the user region.
void scanZone(const std::vector<unsigned char> &Zone, long long OffsetOfZone,
              RedZoneReport &Report) {
  const std::vector<unsigned char> &Expected = redZoneCanary();
  for (size_t I = 0; I < Zone.size(); ++I) {
    if (Zone[I] == Expected[I])
      continue;
    if (Report.Intact) {
      Report.Intact = false;
      Report.FirstBadByte = OffsetOfZone + static_cast<long long>(I);
      Report.Expected = Expected[I];
      Report.Got = Zone[I];
    }
    ++Report.DamagedBytes;
  }
}

} // namespace

RedZoneReport scanRedZones(const std::vector<unsigned char> &Left,
                           const std::vector<unsigned char> &Right,
                           size_t Bytes) {
  RedZoneReport Zones;
  scanZone(Left, -static_cast<long long>(RedZoneBytes), Zones);
  scanZone(Right, static_cast<long long>(Bytes), Zones);
  return Zones;
}

} // namespace optiml
