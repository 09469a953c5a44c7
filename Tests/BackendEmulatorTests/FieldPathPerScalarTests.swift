import FirebaseUserBackend
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// Firestore reads field paths per code point: `\` and `` ` `` followed by a combining
/// mark (one Swift `Character`) are still an escape and a closing quote. The emulator's
/// parser read them per `Character`, as the adapter wrote them, so an unescaped `\` or
/// `` ` `` passed every test and failed (or removed another field) on Firestore.
@Suite("Firestore field paths are read per code point", .timeLimit(.minutes(1)))
struct FieldPathPerScalarTests {
  @Test(
    "quoted segments: escapes and quotes per code point",
    arguments: [
      ("`a\\\u{301}`", ["a\u{301}"]), ("`a\\\\\u{301}`", ["a\\\u{301}"]),
      ("`x\\`\u{301}y`", ["x`\u{301}y"]), ("m.`\u{301}\\``", ["m", "\u{301}`"]),
    ])
  func parsed(path: String, names: [String]) throws {
    let parsed = try #require(FirestoreFieldPath.parse(path))
    // Strings compare by canonical equivalence; the wire is code points, so compare those.
    #expect(parsed.map { Array($0.unicodeScalars) } == names.map { Array($0.unicodeScalars) })
  }

  @Test(
    "a backtick followed by a combining mark closes the quote",
    arguments: ["`x`\u{301}y`", "`a`\u{301}", "a\u{301}", "`\\\u{301}"])
  func refused(path: String) {
    #expect(FirestoreFieldPath.parse(path) == nil)
  }

  @Test(
    "names with a backslash or backtick before a combining mark round-trip",
    arguments: EmulatorPath.allCases)
  func roundTrip(path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    defer { if let server = rig.server { stopInBackground(server) } }
    let backend = try rig.firebase()
    _ = try await backend.signUp(.email("ann@example.com", password: "secret-1"))
    let names = ["a\\\u{301}", "x`\u{301}y", "\\\u{301}`\u{302}"]
    var fields: [String: DocumentValue] = [:]
    for (index, name) in names.enumerated() { fields[name] = .integer(Int64(index)) }
    _ = try await backend.userDocuments.updateDocument(setting: ["\u{E1}": .integer(9)])
    let document = try await backend.userDocuments.updateDocument(setting: fields)
    let stored = Set(document.fields.keys.map { Array($0.unicodeScalars) })
    // Every name stored in its own code points, and "á" (which an unescaped `a\́` would
    // name in the mask, removing it) kept.
    #expect(stored == Set((names + ["\u{E1}"]).map { Array($0.unicodeScalars) }))
  }
}
