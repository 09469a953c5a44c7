@testable import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// A double written through the NCMB adapter reads back as a double, and an integer as an
/// integer, through the emulator: its answers write every number in its own kind (`2.0`,
/// `-0.0`, `1e+20`), not as `JSONSerialization` writes them (`2`, `-0`), which the adapter
/// would read as integers.
@Suite("NCMB answers keep each number's kind", .timeLimit(.minutes(2)))
struct NCMBNumberKindTests {
  /// Every kind of number at the top, in an array, in a map and in a map in an array.
  static let fields: [String: DocumentValue] = [
    "whole": .double(2.0), "negativeZero": .double(-0.0), "zero": .double(0.0),
    "large": .double(1e20), "tiny": .double(.leastNonzeroMagnitude), "fraction": .double(-1.5),
    "integer": .integer(2), "integerZero": .integer(0), "maxInteger": .integer(.max),
    "minInteger": .integer(.min),
    "list": .array([.double(2.0), .integer(2), .double(-0.0), .map(["l": .array([.double(3.0)])])]),
    "map": .map(["inner": .double(4.0), "count": .integer(4), "deep": .map(["d": .double(-0.0)])]),
    "mapsInList": .array([.map(["d": .double(6.0)])]),
  ]

  /// `true` when `a` and `b` are the same kinds and values, `-0.0` and `0.0` apart.
  static func same(_ a: DocumentValue?, _ b: DocumentValue?) -> Bool {
    switch (a, b) {
    case (.double(let x)?, .double(let y)?): return x == y && x.sign == y.sign
    case (.array(let x)?, .array(let y)?):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.map(let x)?, .map(let y)?):
      return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { same(x[$0], y[$0]) }
    default: return a == b
    }
  }

  @Test("NCMB adapter to the emulator: write, then read back", arguments: EmulatorPath.allCases)
  func roundTrip(_ path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      let backend = try rig.ncmb()
      _ = try await backend.signUp(PasswordCredential(.username("kinds"), password: "secret1"))
      let written = try await backend.userDocuments.updateDocument(setting: Self.fields)
      let read = try #require(try await backend.userDocuments.document())
      for (name, document) in [("write", written), ("read", read)] {
        for (field, value) in Self.fields {
          #expect(
            Self.same(document.fields[field], value),
            "\(name): \(field) is \(String(describing: document.fields[field])), not \(value)")
        }
      }
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test("the writer spells each number in its kind, and strings as JSON")
  func writerText() throws {
    let text = String(
      decoding: KindKeepingJSON.data([
        "d": 2.0, "z": -0.0, "i": 2, "b": true, "n": NSNull(), "s": "a/\"b\"\n\u{1}é",
        "l": [1.0, 1] as [Any], "m": ["e": 1e20] as [String: Any], "inf": Double.infinity,
      ]), as: UTF8.self)
    #expect(
      text
        == #"{"b":true,"d":2.0,"i":2,"inf":null,"l":[1.0,1],"m":{"e":1e+20},"n":null,"s":"a/\"b\"\n\u0001é","z":-0.0}"#
    )
    // Numbers as JSONSerialization read them keep their kind too.
    let parsed: Any = try JSONSerialization.jsonObject(
      with: Data(#"{"d":2.0,"i":2,"t":true}"#.utf8))
    #expect(
      String(decoding: KindKeepingJSON.data(parsed), as: UTF8.self)
        == #"{"d":2.0,"i":2,"t":true}"#)
  }
}
