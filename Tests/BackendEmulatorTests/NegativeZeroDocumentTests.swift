import BackendEmulator
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// A document double `-0.0` keeps its sign on every layer, as Firestore keeps it: the
/// clients write it as the JSON number `-0`, which a JSON reader turns into the integer
/// `0` unless the emulator reads the number's text.
@Suite("Document doubles: -0.0 keeps its sign on every layer", .timeLimit(.minutes(2)))
struct NegativeZeroDocumentTests {
  /// Writes `-0.0` (alone, in an array and in a map) and reads it back.
  func roundTrip(_ backend: any UserBackend) async throws {
    _ = try await backend.signUp(PasswordCredential(.email("z@example.com"), password: "secret1"))
    let fields: [String: DocumentValue] = [
      "z": .double(-0.0), "list": .array([.double(-0.0), .double(0.0), .integer(0)]),
      "map": .map(["inner": .double(-0.0)]), "plain": .double(-1.5), "whole": .double(2.0),
    ]
    let written = try await backend.userDocuments.updateDocument(setting: fields)
    let read = try #require(try await backend.userDocuments.document())
    for (name, document) in [("write", written), ("read", read)] {
      guard case .double(let zero) = document.fields["z"] else {
        Issue.record("\(name): z is \(String(describing: document.fields["z"]))")
        continue
      }
      #expect(zero == 0 && zero.sign == .minus, "\(name): z keeps its sign")
      guard case .array(let list) = document.fields["list"], list.count == 3,
        case .double(let first) = list[0], case .double(let second) = list[1]
      else {
        Issue.record("\(name): list is \(String(describing: document.fields["list"]))")
        continue
      }
      #expect(first.sign == .minus && second.sign == .plus, "\(name): list")
      #expect(list[2] == .integer(0), "\(name): an integer 0 stays an integer")
      guard case .map(let map) = document.fields["map"], case .double(let inner) = map["inner"]
      else {
        Issue.record("\(name): map is \(String(describing: document.fields["map"]))")
        continue
      }
      #expect(inner.sign == .minus, "\(name): map.inner")
      #expect(document.fields["plain"] == .double(-1.5))
      #expect(document.fields["whole"] == .double(2.0), "\(name): a whole double stays a double")
    }
  }

  @Test("Firebase adapter to the emulator", arguments: EmulatorPath.allCases)
  func firestore(_ path: EmulatorPath) async throws {
    let rig = try EmulatorRig(path)
    do {
      try await roundTrip(try rig.firebase())
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test("the fake (the reference)")
  func fake() async throws {
    let rig = try EmulatorRig(.inProcess)
    try await roundTrip(FakeUserBackend(store: rig.store, sessionStore: InMemorySessionStore()))
  }
}
