// libFuzzer target: HAR cassette decoding (HTTPReplay Cassette).
//
// Invariants: decoding never traps; a decoded cassette encodes to JSON that decodes to an
// equal cassette; turning entries into requests and responses throws or succeeds, never
// traps.
import Foundation
import HTTPReplay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  guard let cassette = try? Cassette.decode(bytes) else { return 0 }
  _ = try? cassette.interactions()
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  guard let encoded = try? encoder.encode(cassette) else {
    preconditionFailure("a decoded cassette does not encode")
  }
  guard let again = try? Cassette.decode(encoded) else {
    preconditionFailure("a re-encoded cassette does not decode")
  }
  precondition(again == cassette, "a re-encoded cassette differs")
  return 0
}
